"""paul2014.regression_tables on real-format files: Yale's .mat (fea/gnd) and NCI60's CSV."""

import json

import numpy as np
import pytest
import scipy.io

from rpcheck import data_registry as reg
from rpcheck import engine
from rpcheck.errors import RpcheckError

TID = "paul2014.regression_tables"


def _yale(path, n=24, rng=None):
    rng = rng or np.random.default_rng(0)
    gnd = np.repeat(np.arange(1, 4), n // 3)[:, None].astype(float)
    fea = rng.random((n, 4096)) + 0.01 * gnd
    scipy.io.savemat(path, {"fea": fea, "gnd": gnd})
    return path


def _nci60(path, n=60, d=1375, rng=None):
    rng = rng or np.random.default_rng(1)
    X = rng.standard_normal((n, d))
    y = np.arange(n) % 10 + 1
    np.savetxt(path, np.column_stack([X, y]), delimiter=",", fmt="%.6g")
    return path


def _info(result, dataset):
    rows = result.cells[result.cells["variant"] == "table"]
    for _, r in rows.iterrows():
        if json.loads(r["params"])["dataset"] == dataset:
            return json.loads(r["decide_info"])
    raise AssertionError(f"no table row for {dataset}")


@pytest.mark.parametrize("backend", ["serial", "processes"])
def test_explicit_yale_mat_file_runs_and_is_named(tmp_path, backend):
    mat = _yale(tmp_path / "Yale_64x64.mat")
    res = engine.run([TID], profile="quick", trials=2, backend=backend, jobs=1,
                     overrides={"data_source": reg.data_setting({"yalefaces": str(mat)}), "methods": "RG"})
    info = _info(res, "yalefaces")
    sha = reg._sha256(mat)
    assert info["data"] == f"real data: {mat.resolve()} sha256 {sha}"
    assert "real.full" in info and "standin.full" not in info
    # the real file has 24 rows: a 10-fold training set of 21 or 22 of them (a stand-in has 165)
    assert all(isinstance(info["real.full"][f"{q}_agrees"], bool | type(None)) for q in ("mse", "beta", "gamma"))
    other = _info(res, "nci60")  # not named, not cached: its stand-in, labelled as such
    assert other["data"].startswith("stand-in: nci60")


def test_cached_nci60_csv_is_used_without_data_option(empty_cache):
    where = empty_cache / "nci60"
    where.mkdir()
    _nci60(where / "nci60.csv")
    res = engine.run([TID], profile="quick", trials=2, backend="serial", overrides={"methods": "RG"})
    info = _info(res, "nci60")
    assert info["data"].startswith(f"real data: {where / 'nci60.csv'} sha256 ")
    assert json.loads((empty_cache / reg.MANIFEST).read_text())["files"]["nci60/nci60.csv"]["sha256"] in info["data"]


def test_standin_value_ignores_the_cache(empty_cache):
    where = empty_cache / "nci60"
    where.mkdir()
    _nci60(where / "nci60.csv")
    src = reg.resolve("nci60", "standin")
    assert not src.real and src.label == "stand-in: nci60"
    assert reg.resolve("nci60", "auto").real


def test_paper_profile_without_the_data_fails_before_any_trial():
    with pytest.raises(RpcheckError, match=r"rpcheck data fetch nci60.*rpcheck data fetch yalefaces"):
        engine.run([TID], profile="paper", backend="serial")


def test_paper_profile_with_one_set_given_names_the_other(tmp_path):
    mat = _yale(tmp_path / "Yale_64x64.mat")
    with pytest.raises(RpcheckError, match=r"'nci60' is not present") as e:
        engine.run([TID], profile="paper", backend="serial",
                   overrides={"data_source": reg.data_setting({"yalefaces": str(mat)})})
    assert "yalefaces" not in str(e.value).split("needed by")[0]


def test_report_marks_real_and_standin_rows(tmp_path):
    from rpcheck.report import render_report

    mat = _yale(tmp_path / "Yale_64x64.mat")
    res = engine.run([TID], profile="quick", trials=2, backend="serial",
                     overrides={"data_source": reg.data_setting({"yalefaces": str(mat)}), "methods": "RG"})
    html = render_report(res)
    section = html[html.index('id="paper-vs-rpcheck"'):]
    assert "<b>real data</b></div>real data: " in section  # the Yale rows
    assert "<b>stand-in</b></div>stand-in: nci60" in section  # the NCI60 rows

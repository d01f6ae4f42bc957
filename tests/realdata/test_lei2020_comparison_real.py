"""lei2020.comparison's Table 2 cells on the paper's LIBSVM files (mushrooms: one file; usps: train + test bz2)."""

import json

import numpy as np
import pytest

from rpcheck import data_registry as reg
from rpcheck import engine
from rpcheck.errors import RpcheckError
from rpcheck.papers.lei2020 import _empirical as E

from .conftest import sparse_binary, write_svmlight

TID = "lei2020.comparison"


def _infos(result):
    out = {}
    for _, r in result.cells[result.cells["variant"] == "c17_topr_gt_srht"].iterrows():
        out[json.loads(r["params"])["dataset"]] = json.loads(r["decide_info"])
    return out


def test_mushrooms_file_runs_in_the_table2_cell(tmp_path):
    X, y = sparse_binary(120, 112, np.random.default_rng(5), density=0.2, labels=(1, 2))
    f = write_svmlight(tmp_path / "mushrooms", X, y)
    res = engine.run([TID], profile="ci", trials=2, backend="serial",
                     overrides={"data_source": reg.data_setting({"mushrooms": str(f)}),
                                "dataset": "standin:mushrooms:100", "r": 16, "folds": 2})
    info = _infos(res)["standin:mushrooms:100"]
    assert info["data"].startswith(f"real data: {f.resolve()} sha256 {reg._sha256(f)}")
    assert "100 rows drawn with seed" in info["data"]
    assert info["dataset"] == "mushrooms"
    rows = [r for r in info["summary"] if "paper_acc_mean" in r]
    assert rows and all(isinstance(r.get("acc_mean_agrees"), bool | type(None)) for r in rows)
    assert "printed_mean_test" in info["verdict_rule"]


def test_usps_train_and_test_files_are_concatenated(tmp_path):
    rng = np.random.default_rng(6)
    for name, n in (("usps.bz2", 70), ("usps.t.bz2", 40)):
        X = rng.random((n, 256)) * (rng.random((n, 256)) < 0.3)
        write_svmlight(tmp_path / name, X, np.arange(n) % 10 + 1, compress=True)
    src = reg.resolve("usps", reg.data_setting({"usps": str(tmp_path)}))
    ds = E._dataset("standin:usps-b:100", reg.data_setting({"usps": str(tmp_path)}))
    assert src.real and ds.n == 100 and ds.d == 256
    assert set(np.unique(ds.y)) == {-1.0, 1.0}


def test_bundled_cells_are_unaffected_and_paper_profile_names_the_fetch(tmp_path):
    with pytest.raises(RpcheckError, match=r"rpcheck data fetch gisette"):
        engine.run([TID], profile="paper", backend="serial")

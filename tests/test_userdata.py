"""``rpcheck check ID --data FILE``: theorems about a given data matrix run on the user's file
(rpcheck.engine.userdata, Theorem.data_cells)."""

import json
import os

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file

from rpcheck.cli import EXIT_OK, EXIT_USAGE, main
from rpcheck.engine import registry, userdata
from rpcheck.errors import RpcheckError


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A dense CSV (40 x 12, linearly separable) and a sparse svmlight file (60 x 80, 8% nonzeros)."""
    root = tmp_path_factory.mktemp("userdata")
    rng = np.random.default_rng(20261202)
    X = rng.standard_normal((40, 12))
    y = np.where(X @ rng.standard_normal(12) > 0, 1, -1)
    csv = root / "small.csv"
    np.savetxt(csv, np.column_stack([X, y]), delimiter=",", fmt="%.17g")
    Xs = sp.random(60, 80, density=0.08, random_state=np.random.RandomState(1), format="csr")
    ys = np.where(Xs @ rng.standard_normal(80) > 0, 1, -1)
    svm = root / "small.svmlight"
    dump_svmlight_file(Xs, ys, str(svm), zero_based=False)
    return {"csv": str(csv), "svmlight": str(svm), "X": X, "y": y, "Xs": Xs}


@pytest.mark.parametrize("theorem", ["paul2014.thm3.5", "paul2014.thm3.6", "paul2014.thm1.1"])
@pytest.mark.parametrize("which", ["csv", "svmlight"])
def test_check_data_runs_the_theorem_on_the_file(capsys, files, theorem, which, tmp_path):
    path = files[which]
    out_dir = tmp_path / "run"
    code, out, err = run(capsys, "check", theorem, "--data", path, "--profile", "quick", "--trials", "12",
                         "--backend", "serial", "--out", str(out_dir))  # fmt: skip
    assert code == EXIT_OK, out + err
    n, d = (40, 12) if which == "csv" else (60, 80)
    first = out.splitlines()[0]
    assert first.startswith(f"data: {os.path.realpath(path)} ({n} x {d}")
    assert "sha256 " in first and ("sparse" in first) == (which == "svmlight")
    prov = json.loads((out_dir / "provenance.json").read_text())
    assert prov["data"]["n"] == n and prov["data"]["d"] == d and prov["data"]["sparse"] == (which == "svmlight")
    from rpcheck.engine import load_results

    cells = load_results(out_dir).cells
    assert set(cells["p_n"]) == {n} and set(cells["p_d"]) == {d}  # the file's shape, not the profile's
    assert set(cells["p_data"]) == {os.path.realpath(path)}
    # the negative controls ran on the file's draws and failed as they must
    controls = cells[cells["role"] == "control"]
    assert len(controls) and (controls["verdict"] == "VIOLATED").all()


def test_check_data_rows_match_the_data(files):
    """thm3.5 on the dense file: the soft regime's certified original margin is the file's own SVM margin."""
    from rpcheck.svm import solve_svc

    res, info = userdata.run_on_data("paul2014.thm3.5", files["csv"], profile="quick", trials=3, backend="serial")
    assert info["rank"] == 12 and info["sha256"] and not info["sparse"]
    gamma = res.trials_of("paul2014.thm3.5")
    soft = [json.loads(p)["regime"] == "soft" for p in res.cells["params"]]
    assert any(soft)
    w = solve_svc(files["X"], files["y"].astype(float), 1.0).w_norm_sq
    row = gamma[gamma["cell"].isin(res.cells.loc[soft, "cell"])]
    assert np.allclose(row["diag.w_norm_sq"], w, rtol=1e-6)


@pytest.mark.parametrize("theorem", ["zhang2013.thm1", "zhang2013.thm2"])
@pytest.mark.parametrize("which", ["csv", "svmlight"])
def test_zhang_recovery_on_the_file(files, theorem, which):
    """Zhang et al.'s recovery theorems take X = Z V^T and the labels from the file (its rank is r)."""
    from rpcheck.papers.zhang2013._common import data_instance

    res, info = userdata.run_on_data(theorem, files[which], profile="quick", trials=6, backend="serial")
    cells = res.cells
    assert set(cells["p_n"]) == {info["n"]} and set(cells["p_d"]) == {info["d"]} and set(cells["p_r"]) == {info["rank"]}
    per_draw = cells[cells["variant"] == "per_draw"]
    assert (per_draw["evaluated"] > 0).all() and (per_draw["failures"] == 0).all()
    inst = data_instance({"data": info["path"]})
    X = files["X"] if which == "csv" else files["Xs"].toarray()
    assert np.allclose(inst.Z @ inst.V.T, X, atol=1e-10) and inst.r == info["rank"]
    assert np.array_equal(inst.y, userdata.load_user_data(info["path"]).y)


def test_wrong_theorem_with_data_is_one_line_exit_2(capsys, files):
    code, out, err = run(capsys, "check", "paul2014.thm3.7", "--data", files["csv"])
    assert code == EXIT_USAGE and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "does not accept `--data`" in err and "paul2014.thm3.5" in err and "paul2014.thm3.6" in err


def test_hard_margin_theorem_refuses_non_separable_data(capsys, tmp_path):
    X = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
    path = tmp_path / "overlap.csv"
    np.savetxt(path, np.column_stack([X, [1, -1, 1, -1]]), delimiter=",")
    code, _, err = run(capsys, "check", "paul2014.thm1.1", "--data", str(path), "--backend", "serial")
    assert code == EXIT_USAGE and len(err.strip().splitlines()) == 1 and "not linearly separable" in err


def test_missing_data_file_names_the_argument(capsys, tmp_path):
    code, _, err = run(capsys, "check", "paul2014.thm3.5", "--data", str(tmp_path / "nope.csv"))
    assert code == EXIT_USAGE and len(err.strip().splitlines()) == 1 and "`--data`" in err


def test_registry_form_is_left_to_the_experiments(capsys, files):
    """NAME=PATH with NAME a registered data set is the papers' experiments' form, not a user file: the command
    line passes it to the experiments' data resolution, which names the missing path."""
    from rpcheck import data_registry

    name = data_registry.REGISTRY[0].name
    assert userdata.parse_data_argument(f"{name}=x.svm") == ("registry", name, "x.svm")
    assert userdata.parse_data_argument("notaset=x.svm") == ("file", "notaset=x.svm")
    code, _, err = run(capsys, "check", "paul2014.thm3.5", "--data", f"{name}=x.svm")
    assert code == EXIT_USAGE and f"--data {name}=x.svm" in err and err.count("\n") == 1


def test_data_theorems_declare_data_cells():
    assert userdata.data_theorems() == [
        "paul2014.thm1.1", "paul2014.thm3.5", "paul2014.thm3.6", "zhang2013.thm1", "zhang2013.thm2"
    ]
    assert all(t.data_cells is None for t in registry.all_theorems() if t.id not in userdata.data_theorems())


def test_loaded_once_per_process_and_reloaded_when_the_file_changes(files, tmp_path):
    path = tmp_path / "copy.csv"
    path.write_text(open(files["csv"]).read())
    a = userdata.load_user_data(str(path))
    assert userdata.load_user_data(str(path)) is a  # cached by real path, mtime and size
    assert a.memo("k", lambda: object()) is a.memo("k", lambda: None)
    params = {"data": a.ref, "data_sha256": a.sha256[:16]}
    assert userdata.trial_data(params) is a
    with open(path, "a") as fh:
        fh.write("1,1,1,1,1,1,1,1,1,1,1,1,1\n")
    b = userdata.load_user_data(str(path))
    assert b is not a and b.n == a.n + 1
    with pytest.raises(RpcheckError, match="changed during the run"):
        userdata.trial_data(params)


def test_sparse_file_stays_csr(files):
    ud = userdata.load_user_data(files["svmlight"])
    assert sp.issparse(ud.X) and ud.X.format == "csr"
    assert abs(ud.X - files["Xs"]).max() < 1e-12
    V = ud.row_space()
    assert V.shape == (80, np.linalg.matrix_rank(files["Xs"].toarray()))


def test_substitute_must_keep_the_trial():
    import dataclasses

    th = registry.get("paul2014.thm3.5")
    other = dataclasses.replace(th, trial=lambda p, r: None)
    with pytest.raises(RpcheckError, match="keep the registered trial"):
        with registry.substituted(other):
            pass
    assert registry.get("paul2014.thm3.5") is th


def test_processes_backend_gets_the_path_and_matches_serial(files):
    """Workers receive the path (cells are JSON) and load the file themselves: same results as serial."""
    kw = {"profile": "quick", "trials": 4, "seed": 7}
    serial, _ = userdata.run_on_data("paul2014.thm3.5", files["svmlight"], backend="serial", **kw)
    procs, _ = userdata.run_on_data("paul2014.thm3.5", files["svmlight"], backend="processes", jobs=1, **kw)
    cols = ["variant", "cell", "failures", "evaluated", "vacuous_trials", "stat_q50", "stat_max"]
    assert serial.cells[cols].equals(procs.cells[cols])
    assert registry.get("paul2014.thm3.5").data_cells is not None  # the registered theorem is back
    assert len(registry.get("paul2014.thm3.5").profiles["quick"].cells[0]) == 6  # its own cells, not the file's


def test_set_cannot_change_what_the_file_fixes(capsys, files):
    code, _, err = run(capsys, "check", "paul2014.thm3.5", "--data", files["csv"], "--set", "d=100")
    assert code == EXIT_USAGE and "`--set` cannot change d" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "check", "zhang2013.thm1", "--data", files["csv"], "--set", "r=2")
    assert code == EXIT_USAGE and "`--set` cannot change r" in err


def test_show_says_which_theorems_take_the_users_data(capsys):
    """`rpcheck show` names the --data forms a theorem accepts: a file of the user's (Theorem.data_cells), a
    registered data set (the data_source parameter), or none (the theorem generates its data)."""
    expect = {
        "paul2014.thm3.6": "`--data FILE` runs it on your own",
        "lei2020.comparison": "`--data NAME=PATH` runs its experiments",
        "shi2012.thm5": "none: the theorem generates its data",
    }
    for tid, text in expect.items():
        assert main(["show", tid]) == EXIT_OK
        out = capsys.readouterr().out
        assert text in out, tid
        assert (f"rpcheck check {tid} --data FILE" in out) == tid.endswith("thm3.6")

"""The rpcheck command line: commands, exit codes, one-line errors."""

import json

import numpy as np
import pytest

from rpcheck import __version__
from rpcheck.cli import EXIT_OK, EXIT_USAGE, main

CHEAP = "shi2012.fig1.margins"  # deterministic, milliseconds per trial


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_list_json_has_every_paper(capsys):
    code, out, _ = run(capsys, "list", "--json")
    assert code == EXIT_OK
    papers = {row["paper"] for row in json.loads(out)}
    assert {"paul2014", "shi2012", "zhang2013", "lei2020"} <= papers


def test_show(capsys):
    code, out, _ = run(capsys, "show", CHEAP)
    assert code == EXIT_OK
    assert "Statement as printed" in out and "Profiles:" in out


def test_unknown_id_is_one_line_with_closest_ids(capsys):
    code, out, err = run(capsys, "show", "shi2012.fig")
    assert code == EXIT_USAGE
    assert err.count("\n") == 1 and "Closest known ids" in err and "Traceback" not in err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["check", CHEAP, "--profile", "enormous"])
    assert exc.value.code == EXIT_USAGE
    code, _, err = run(capsys, "check", CHEAP, "--resume")
    assert code == EXIT_USAGE and "--out" in err


def test_check_writes_results_and_report_rerenders(capsys, tmp_path):
    out = tmp_path / "res"
    code, stdout, _ = run(
        capsys,
        "check",
        CHEAP,
        "--profile",
        "quick",
        "--backend",
        "serial",
        "--trials",
        "3",
        "--set",
        "a=0.5",
        "--out",
        str(out),
        "--json",
    )
    assert code == EXIT_OK
    rows = json.loads(stdout)
    assert rows and all(r["p_a"] == 0.5 and r["trials"] == 3 for r in rows)
    assert (out / "provenance.json").exists()
    code, stdout, _ = run(capsys, "report", str(out), "-o", str(tmp_path / "r.html"))
    assert code == EXIT_OK
    assert CHEAP in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_data_describes_a_user_file(capsys, tmp_path):
    from sklearn.datasets import dump_svmlight_file

    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 5))
    y = np.where(rng.random(20) < 0.5, -1, 1)
    path = tmp_path / "toy.svm"
    dump_svmlight_file(X, y, str(path))
    code, out, _ = run(capsys, "data", str(path), "--json")
    assert code == EXIT_OK
    info = json.loads(out)
    assert info["n"] == 20 and info["d"] == 5


def test_missing_file_is_a_usage_error(capsys, tmp_path):
    code, _, err = run(capsys, "data", str(tmp_path / "nope.svm"))
    assert code == EXIT_USAGE and err.startswith("rpcheck: error:")


def test_replay_recomputes_a_saved_counterexample(capsys, tmp_path):
    # lei2020.topr's "as_implied" variant is a known-false deterministic reading (spec lei2020 claim 7):
    # the run saves its counterexample, and replay must recompute the same numbers from the seed.
    out = tmp_path / "cx"
    code, _, _ = run(
        capsys, "check", "lei2020.topr", "--profile", "quick", "--backend", "serial", "--out", str(out), "--quiet"
    )
    assert code == EXIT_OK
    (path,) = sorted((out / "counterexamples").glob("*.npz"))
    code, stdout, _ = run(capsys, "replay", str(path), "--json")
    rep = json.loads(stdout)
    assert code == EXIT_OK
    assert rep["theorem"] == "lei2020.topr" and rep["matches"] and rep["still_violated"]


def test_data_one_vs_rest_for_multiclass_files(capsys, tmp_path):
    from sklearn.datasets import dump_svmlight_file

    rng = np.random.default_rng(1)
    X = rng.standard_normal((30, 4))
    y = np.arange(30) % 3
    path = tmp_path / "three.svm"
    dump_svmlight_file(X, y, str(path))
    code, _, err = run(capsys, "data", str(path))
    assert code == EXIT_USAGE and "label" in err  # three labels: refused, with the labels named
    code, out, _ = run(capsys, "data", str(path), "--positive", "2", "--json")
    assert code == EXIT_OK and json.loads(out)["n_pos"] == 10


def test_constant_reports_smallest_dimension_and_implied_constant(capsys, tmp_path):
    csv = tmp_path / "c.csv"
    code, out, _ = run(
        capsys, "constant", "zhang2013.cor7", "--profile", "quick", "--cell", "0", "--trials", "100",
        "--backend", "serial", "--json", "--out", str(csv),
    )  # fmt: skip
    assert code == EXIT_OK
    (row,) = json.loads(out)
    assert row["status"] == "found" and row["param"] == "m"
    assert row["bracket_low"] < row["empirical"] <= row["used"]  # printed m (c = 1/4) is enough, and more than needed
    assert row["implied_constant"] == pytest.approx(row["empirical"] / row["formula_value"])
    assert csv.exists()
    # a second search of the same cell replaces its row (merge), and `rpcheck report` shows the table
    run(capsys, "constant", "zhang2013.cor7", "--profile", "quick", "--cell", "0", "--trials", "100",
        "--backend", "serial", "--json", "--out", str(csv))  # fmt: skip
    import pandas as pd

    assert len(pd.read_csv(csv)) == 1


def test_constant_needs_a_target_dimension(capsys):
    code, _, err = run(capsys, "constant", CHEAP)
    assert code == EXIT_USAGE and "constant_search" in err

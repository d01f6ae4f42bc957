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
    doc = json.loads(stdout)
    assert doc["schema_version"] == 1 and doc["results"] == str(out)
    rows = doc["cells"]
    assert rows and all(r["p_a"] == 0.5 and r["params"]["a"] == 0.5 and r["trials"] == 3 for r in rows)
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


def test_data_list_fetch_offline_and_bad_arguments(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("RPCHECK_DATA_DIR", str(tmp_path / "cache"))
    code, out, _ = run(capsys, "data", "list", "--json")
    doc = json.loads(out)
    assert code == EXIT_OK and doc["cache"] == str(tmp_path / "cache")
    assert {r["set"] for r in doc["files"]} >= {"rcv1-binary", "mushrooms", "techtc300"}
    assert not any(r["present"] for r in doc["files"])
    code, out, _ = run(capsys, "data", "list", "--cache", str(tmp_path / "other"))
    assert code == EXIT_OK and out.startswith(f"cache: {tmp_path / 'other'}") and "mushrooms" in out
    code, _, err = run(capsys, "data", "fetch", "gisette", "--offline")
    assert code == EXIT_USAGE and "offline mode forbids downloading" in err and "gisette_scale.bz2" in err
    code, _, err = run(capsys, "data", "fetch", "hapmap-hgdp")
    assert code == EXIT_USAGE and "no confirmed download URL" in err
    code, _, err = run(capsys, "data", "fetch")
    assert code == EXIT_USAGE and "needs at least one NAME" in err
    code, _, err = run(capsys, "data", "fetch", "mnist", "--offline")
    assert code == EXIT_USAGE and "`name` ('mnist') must be one of" in err
    code, _, err = run(capsys, "data", "list", "mushrooms")
    assert code == EXIT_USAGE and "takes no names" in err
    code, _, err = run(capsys, "data", str(tmp_path / "x.svm"), "extra")
    assert code == EXIT_USAGE and "takes one file" in err
    assert not (tmp_path / "cache").exists()  # nothing of the above wrote to the cache


def test_replay_recomputes_a_saved_counterexample(capsys, tmp_path):
    # lei2020.topr's "as_implied" variant is a known-false deterministic reading (Lei and Lan 2020, Sec. 3.2 after
    # Prop. 2, eq. 7):
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


# ------------------------------------------------------------------------------------ bad command lines

INT_R = "lei2020.unbiased"  # integer parameter r, five cheap trials in the quick profile
RUN = ["--profile", "quick", "--backend", "serial", "--trials", "2"]
ZEN_THEOREM = "not.registered"


def _save_npz(path, **arrays):
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)


def _meta(**changes):
    meta = {
        "format": 1, "theorem": CHEAP, "module": "rpcheck.papers.shi2012.fig1_margins",
        "variant": "original_d2_margin",
        "cell": 0, "params": json.dumps({"a": 2.0}), "seed": 0, "spawn_key": [1, 2, 3], "trial": 0,
        "outcomes": {}, "diagnostics": {},
    }  # fmt: skip
    meta.update(changes)
    return np.asarray(json.dumps(meta))


def make_bad_inputs(d, run_main):
    """Files for the bad-command-line matrix under ``d``; ``run_main(argv)`` runs the CLI in-process."""
    import shutil

    (d / "afile").write_text("not a directory\n")
    res = d / "res"
    run_main(["check", CHEAP, *RUN, "--out", str(res), "--quiet"])
    (chunk,) = sorted((res / "checkpoints").rglob("0*.npz"))[:1]  # columnar checkpoint chunks (format 3)
    for name in ("res_badchunk", "res_badmanifest", "res_shapechunk", "res_noprov", "res_badprov",
                 "res_badcells", "res_nocols"):  # fmt: skip
        shutil.copytree(res, d / name)
    rel = chunk.relative_to(res)
    (d / "res_badchunk" / rel).write_bytes(chunk.read_bytes()[:40])  # torn archive
    (d / "res_badmanifest" / "checkpoints" / "manifest.json").write_bytes(b"\x00\xff garbage")
    _save_npz(d / "res_shapechunk" / rel, meta=np.asarray(json.dumps({"theorem": CHEAP, "records": 5})))
    (d / "res_noprov" / "provenance.json").unlink()
    (d / "res_badprov" / "provenance.json").write_text("{not json")
    for f in (d / "res_badcells").glob("cells.*"):
        f.write_bytes(b"PAR1 garbage that is not parquet nor csv \x00\x01")
    import pandas as pd

    from rpcheck.engine.store import read_table, write_table

    cells = read_table(d / "res_nocols", "cells")
    for f in (d / "res_nocols").glob("cells.*"):
        f.unlink()
    write_table(cells.drop(columns=["verdict", "as_expected"]), d / "res_nocols", "cells")
    assert isinstance(cells, pd.DataFrame)
    (d / "empty.npz").write_bytes(b"")
    (d / "text.npz").write_text("hello, I am not a zip file\n")
    _save_npz(d / "nometa.npz", x=np.arange(3))
    _save_npz(d / "meta_not_json.npz", meta=np.asarray("{this is not json"))
    _save_npz(d / "meta_list.npz", meta=np.asarray("[1, 2, 3]"))
    _save_npz(d / "meta_no_theorem.npz", meta=np.asarray(json.dumps({"variant": "margins"})))
    _save_npz(d / "meta_zen.npz", meta=_meta(theorem=ZEN_THEOREM, module="this"))
    _save_npz(d / "meta_bad_variant.npz", meta=_meta(variant="nope"))
    _save_npz(d / "meta_bad_params.npz", meta=_meta(params="{oops"))
    _save_npz(d / "meta_neg_trial.npz", meta=_meta(trial=-3))
    _save_npz(d / "meta_huge_seed.npz", meta=_meta(seed=2**64))
    _save_npz(d / "meta_param_names.npz", meta=_meta(params=json.dumps({"zzz": 1})))
    _save_npz(d / "meta_str_trial.npz", meta=_meta(trial="0"))
    _save_npz(d / "pickled.npz", meta=np.asarray([{"theorem": CHEAP}], dtype=object))


#: (case id, command line with {d} for the inputs directory, text the one-line error must contain)
BAD_CASES = [
    ("seed_2**64", ["check", CHEAP, *RUN, "--seed", str(2**64)], "--seed"),
    ("seed_negative", ["check", CHEAP, *RUN, "--seed", "-1"], "--seed"),
    ("seed_text", ["check", CHEAP, *RUN, "--seed", "abc"], "--seed"),
    ("trials_zero", ["check", CHEAP, "--profile", "quick", "--backend", "serial", "--trials", "0"], "--trials"),
    ("trials_10**15", ["check", CHEAP, "--profile", "quick", "--backend", "serial", "--trials", str(10**15)],
     "--trials"),
    ("trials_float", ["check", CHEAP, "--profile", "quick", "--backend", "serial", "--trials", "1e3"], "--trials"),
    ("jobs_zero", ["check", CHEAP, *RUN, "--jobs", "0"], "--jobs"),
    ("jobs_100000", ["check", CHEAP, "--profile", "quick", "--trials", "2", "--jobs", "100000"], "--jobs"),
    ("alpha_zero", ["check", CHEAP, *RUN, "--alpha", "0"], "--alpha"),
    ("alpha_0.7", ["check", CHEAP, *RUN, "--alpha", "0.7"], "alpha"),
    ("alpha_nan", ["check", CHEAP, *RUN, "--alpha", "nan"], "--alpha"),
    ("profile_unknown", ["check", CHEAP, "--profile", "enormous"], "--profile"),
    ("backend_unknown", ["check", CHEAP, "--backend", "threads"], "--backend"),
    ("scheduler_without_dask", ["check", CHEAP, *RUN, "--scheduler", "tcp://127.0.0.1:8786"], "--scheduler"),
    ("scheduler_unreachable", ["check", CHEAP, "--profile", "quick", "--trials", "2", "--backend", "dask",
                               "--scheduler", "tcp://127.0.0.1:1"], "--scheduler"),
    ("scheduler_malformed", ["check", CHEAP, "--profile", "quick", "--backend", "dask",
                             "--scheduler", "not an address"], "--scheduler"),
    ("scheduler_bad_port", ["check", CHEAP, "--profile", "quick", "--backend", "dask",
                            "--scheduler", "tcp://localhost:99999"], "--scheduler"),
    ("set_without_equals", ["check", CHEAP, *RUN, "--set", "r"], "--set"),
    ("set_bad_name", ["check", CHEAP, *RUN, "--set", "1x=3"], "--set"),
    ("set_unknown_name", ["check", CHEAP, *RUN, "--set", "nosuch=1"], "nosuch"),
    ("set_r_text", ["check", INT_R, *RUN, "--set", "r=abc"], "r"),
    ("set_r_bool", ["check", INT_R, *RUN, "--set", "r=True"], "r"),
    ("set_r_float", ["check", INT_R, *RUN, "--set", "r=2.5"], "r"),
    ("set_r_negative", ["check", INT_R, *RUN, "--set", "r=-5"], "r"),
    ("out_empty", ["check", CHEAP, *RUN, "--out", ""], "--out"),
    ("out_is_a_file", ["check", CHEAP, *RUN, "--out", "{d}/afile"], "--out"),
    ("out_under_a_file", ["check", CHEAP, *RUN, "--out", "{d}/afile/sub"], "--out"),
    ("resume_without_out", ["check", CHEAP, *RUN, "--resume"], "--out"),
    ("resume_torn_checkpoint", ["check", CHEAP, *RUN, "--resume", "--out", "{d}/res_badchunk"], "checkpoint"),
    ("resume_garbage_manifest", ["check", CHEAP, *RUN, "--resume", "--out", "{d}/res_badmanifest"], "manifest"),
    ("resume_misshapen_checkpoint", ["check", CHEAP, *RUN, "--resume", "--out", "{d}/res_shapechunk"],
     "checkpoint"),  # the engine (rpcheck.engine.store) names the corrupted file
    ("check_unknown_id", ["check", "shi2012.fig"], "shi2012.fig"),
    ("check_empty_id", ["check", ""], "theorem id"),
    ("check_unknown_module", ["check", "nosuchmodule_xyz:THEOREM"], "nosuchmodule_xyz"),
    ("check_not_a_theorem", ["check", "json:dumps"], "json:dumps"),
    ("show_unknown_id", ["show", "nope.nope"], "nope.nope"),
    ("list_unknown_paper", ["list", "--paper", "nobody"], "--paper"),
    ("report_missing_dir", ["report", "{d}/nope"], "RESULTS"),
    ("report_a_file", ["report", "{d}/afile"], "RESULTS"),
    ("report_no_provenance", ["report", "{d}/res_noprov"], "RESULTS"),
    ("report_corrupt_provenance", ["report", "{d}/res_badprov"], "provenance.json"),  # the engine names the file
    ("report_corrupt_cells", ["report", "{d}/res_badcells"], "RESULTS"),
    ("report_missing_columns", ["report", "{d}/res_nocols"], "verdict"),
    ("report_output_is_dir", ["report", "{d}/res", "-o", "{d}"], "--output"),
    ("report_output_empty", ["report", "{d}/res", "-o", ""], "--output"),
    ("replay_missing", ["replay", "{d}/nope.npz"], "COUNTEREXAMPLE"),
    ("replay_directory", ["replay", "{d}"], "COUNTEREXAMPLE"),
    ("replay_empty_file", ["replay", "{d}/empty.npz"], "COUNTEREXAMPLE"),
    ("replay_text_file", ["replay", "{d}/text.npz"], "COUNTEREXAMPLE"),
    ("replay_no_meta", ["replay", "{d}/nometa.npz"], "COUNTEREXAMPLE"),
    ("replay_meta_not_json", ["replay", "{d}/meta_not_json.npz"], "COUNTEREXAMPLE"),
    ("replay_meta_a_list", ["replay", "{d}/meta_list.npz"], "COUNTEREXAMPLE"),
    ("replay_meta_no_theorem", ["replay", "{d}/meta_no_theorem.npz"], "theorem"),
    ("replay_unregistered_module_this", ["replay", "{d}/meta_zen.npz"], ZEN_THEOREM),
    ("replay_unknown_variant", ["replay", "{d}/meta_bad_variant.npz"], "variant"),
    ("replay_params_not_json", ["replay", "{d}/meta_bad_params.npz"], "params"),
    ("replay_negative_trial", ["replay", "{d}/meta_neg_trial.npz"], "trial"),
    ("replay_string_trial", ["replay", "{d}/meta_str_trial.npz"], "trial"),
    ("replay_seed_2**64", ["replay", "{d}/meta_huge_seed.npz"], "seed"),
    ("replay_wrong_parameter_names", ["replay", "{d}/meta_param_names.npz"], "params"),
    ("replay_pickled_meta", ["replay", "{d}/pickled.npz"], "COUNTEREXAMPLE"),
    ("data_missing", ["data", "{d}/nope.svm"], "nope.svm"),
    ("data_garbage", ["data", "{d}/text.npz"], "text.npz"),
    ("data_garbage_csv", ["data", "{d}/empty.npz", "--format", "csv"], "empty.npz"),
    ("constant_without_search", ["constant", CHEAP], "constant_search"),
    ("constant_cell_out_of_range", ["constant", "zhang2013.cor7", "--cell", "99"], "--cell"),
    ("constant_trials_10**15", ["constant", "zhang2013.cor7", "--trials", str(10**15)], "--trials"),
    ("constant_out_is_dir", ["constant", "zhang2013.cor7", "--cell", "0", "--out", "{d}"], "--out"),
    ("verify_set_unknown", ["verify", "--profile", "quick", "--no-report", "--out", "{d}/v", "--set", "nosuch=1"],
     "nosuch"),
]  # fmt: skip


def run_any(argv):
    """``main(argv)`` -> exit code, also for argparse's SystemExit."""
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code


@pytest.fixture(scope="module")
def bad_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("bad")
    make_bad_inputs(d, run_any)
    return d


@pytest.mark.parametrize("case, argv, needle", BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_bad_command_line_is_one_line_exit_2(case, argv, needle, bad_dir, capsys):
    if case == "set_r_negative":
        from rpcheck.engine import get

        if "r" not in (getattr(get(INT_R), "parameters", None) or {}):
            pytest.xfail("r's domain comes from the theorem's declared parameters (engine contract v2)")
    if case.startswith("scheduler_") and case != "scheduler_without_dask":
        pytest.importorskip("distributed")
    capsys.readouterr()
    code = run_any([a.format(d=bad_dir) for a in argv])
    out, err = capsys.readouterr()
    assert code == EXIT_USAGE, (case, code, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "error" in err and needle in err, err
    assert "Beautiful is better than ugly" not in out  # the npz's module="this" was never imported


def test_bad_matrix_is_large_enough():
    assert len(BAD_CASES) >= 40


# ------------------------------------------------------------------------- replay never imports file names


@pytest.fixture(scope="module")
def topr_counterexample(tmp_path_factory):
    out = tmp_path_factory.mktemp("cx") / "run"
    code = run_any(["check", "lei2020.topr", "--profile", "quick", "--backend", "serial", "--out", str(out), "--quiet"])
    assert code == EXIT_OK
    (path,) = sorted((out / "counterexamples").glob("*.npz"))
    return path


def _plant(tmp_path, monkeypatch, name):
    """A module in a temporary cwd (first on sys.path, as under ``python -m``) that leaves a marker if imported."""
    marker = tmp_path / "IMPORTED"
    (tmp_path / f"{name}.py").write_text(f"open({str(marker)!r}, 'w').write('pwned')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return marker


def _with_meta(src, dst, **changes):
    with np.load(src, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays.pop("meta")[()]))
    meta.update(changes)
    _save_npz(dst, meta=np.asarray(json.dumps(meta)), **arrays)
    return dst


def test_replay_never_imports_the_module_named_in_the_file(tmp_path, monkeypatch, capsys, topr_counterexample):
    marker = _plant(tmp_path, monkeypatch, "evil_rpcheck_mod")
    # an unknown theorem id with a planted module: refused, nothing imported
    bad = _with_meta(topr_counterexample, tmp_path / "unknown.npz", theorem="evil.thm", module="evil_rpcheck_mod")
    code, out, err = run(capsys, "replay", str(bad))
    assert code == EXIT_USAGE and "evil.thm" in err and "never imports" in err
    # a registered theorem id with a planted module: replayed through the registry, the module is not imported
    good = _with_meta(topr_counterexample, tmp_path / "known.npz", module="evil_rpcheck_mod")
    code, out, err = run(capsys, "replay", str(good), "--json")
    assert code == EXIT_OK and json.loads(out)["still_violated"]
    assert not marker.exists()
    import sys

    assert "evil_rpcheck_mod" not in sys.modules


# ------------------------------------------------------------------ environment errors leave resumable state


def _cells_key(cells):
    return cells[["theorem", "variant", "cell", "failures", "evaluated", "verdict"]].to_dict("records")


def test_disk_full_mid_run_is_exit_2_and_resumable(tmp_path, monkeypatch, capsys):
    import errno

    import rpcheck.engine.store as store

    real = store.atomic_write_bytes
    calls = {"n": 0}

    def flaky(path, data, **kw):
        calls["n"] += 1
        if calls["n"] > 3:  # the manifest and two checkpoint chunks fit, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, data, **kw)

    out = tmp_path / "run"
    argv = ["check", INT_R, "--profile", "quick", "--backend", "serial", "--trials", "6", "--out", str(out)]
    monkeypatch.setattr(store, "atomic_write_bytes", flaky)
    code, _, err = run(capsys, *argv)
    assert code == EXIT_USAGE and err.count("\n") == 1
    assert "No space left on device" in err and "--resume" in err
    monkeypatch.setattr(store, "atomic_write_bytes", real)
    code, _, _ = run(capsys, *argv, "--resume", "--quiet")
    assert code == EXIT_OK
    from rpcheck.engine import load_results

    resumed = load_results(out).cells
    code, _, _ = run(capsys, *argv[:-1], str(tmp_path / "clean"), "--quiet")
    assert _cells_key(resumed) == _cells_key(load_results(tmp_path / "clean").cells)


def test_read_only_out_is_exit_2_before_running(tmp_path, monkeypatch, capsys):
    import errno
    import pathlib

    def readonly(self, *a, **k):
        raise OSError(errno.EROFS, "Read-only file system", str(self))

    monkeypatch.setattr(pathlib.Path, "mkdir", readonly)
    code, _, err = run(capsys, "check", CHEAP, *RUN, "--out", str(tmp_path / "ro"))
    assert code == EXIT_USAGE and err.count("\n") == 1 and "--out" in err and "Read-only" in err


def test_dead_worker_is_exit_2_with_resume_hint(tmp_path, monkeypatch, capsys):
    from concurrent.futures.process import BrokenProcessPool

    import rpcheck.engine.execute as execute

    def die(*a, **k):
        raise BrokenProcessPool("A process in the process pool was terminated abruptly")

    monkeypatch.setattr(execute, "execute_cells", die)
    code, _, err = run(capsys, "check", CHEAP, *RUN, "--out", str(tmp_path / "o"))
    assert code == EXIT_USAGE and err.count("\n") == 1
    assert "worker process died" in err and "--resume" in err


def test_sigint_exits_130_with_one_line(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    env = dict(os.environ, PYTHONPATH=str(__import__("pathlib").Path(__file__).resolve().parents[1]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "rpcheck.cli", "check", "shi2012.thm8.final_step", "--profile", "standard",
         "--backend", "processes", "--jobs", "2", "--out", str(tmp_path / "o")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
        # a terminal's Ctrl-C reaches a process whose SIGINT disposition is the default; when the test run
        # itself was started with SIGINT ignored (a background job of a non-interactive shell, nohup), the
        # child would inherit SIG_IGN and Python would not install its handler (the run then ignored the
        # signal: exit 0 at the end, or a timeout). Restore the default, as a terminal session has it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    deadline = time.monotonic() + 120
    ckpt = tmp_path / "o" / "checkpoints"  # chunks are <start>-<stop>.npz (engine/store.py)
    while not list(ckpt.rglob("0*.npz")) and time.monotonic() < deadline:
        time.sleep(0.2)  # wait until the workers have written a checkpoint chunk
    assert proc.poll() is None, "the run ended before it could be interrupted"
    assert list(ckpt.rglob("0*.npz")), "no checkpoint chunk within 120 s"
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert err.count("\n") == 1 and err.startswith("rpcheck: interrupted") and "--resume" in err, err


# ------------------------------------------------------------------------------------------- terminal output


def _fake_result(n_theorems=59, unexpected=()):
    """A RunResult with the engine-v2 columns (role, claim) for presentation tests."""
    import pandas as pd

    from rpcheck.results import RunResult

    rows = []
    for t in range(n_theorems):
        for cell, d in enumerate((128, 256)):
            for variant, mode, role, verdict in (
                ("stated", "bound", "claim", "HOLDS"), ("identity", "deterministic", "self-check", "HOLDS"),
                ("printed", "deterministic", "control", "VIOLATED"), ("table", "report", "measurement", "INCONCLUSIVE"),
            ):  # fmt: skip
                bad = (t, cell, variant) in unexpected
                rows.append({
                    "theorem": f"paper.thm{t}", "paper": "paper", "variant": variant, "mode": mode, "cell": cell,
                    "params": json.dumps({"d": d, "eps": 0.5}), "p_d": float(d), "p_eps": 0.5, "trials": 100,
                    "evaluated": 100, "failures": 7 if bad else 0, "vacuous_trials": 0, "solver_errors": 0,
                    "ci_low": 0.0, "ci_high": 0.03, "confidence_level": 0.99, "promised": 0.05,
                    "verdict": "VIOLATED" if bad else verdict, "expected": verdict, "as_expected": not bad,
                    "vacuous_reason": "", "seconds": 1.5, "counterexample": "", "assumed": "", "role": role,
                    "claim": "failure rate in [0.031, 0.14] at 99%" if bad else "P(fail) <= 0.03 at 99%",
                })  # fmt: skip
    prov = {"alpha": 0.01, "family_size": {"violated": 2 * n_theorems, "holds": 2 * n_theorems}}
    return RunResult(pd.DataFrame(rows), pd.DataFrame(), prov)


def test_verify_output_is_one_line_per_theorem_and_at_most_100_lines():
    from rpcheck.cli import render_summary

    lines, _, counts = render_summary(_fake_result(), out="reports/x", report_path="reports/x/report.html")
    assert len(lines) <= 100 and counts["unexpected"] == 0
    assert lines[0].startswith("paper.thm0 ") and "bound: 2 HOLDS" in lines[0]
    assert "self-checks: 2 HOLDS" in lines[0] and "controls: 2 VIOLATED" in lines[0] and "measured 2" in lines[0]
    assert "unexpected 0" in lines[0] and "3.0 s" in lines[0]
    summary = "\n".join(lines[-4:])
    assert "59 theorems" in summary and "claims (bound: 118 HOLDS)" in summary and "self-checks: 118 HOLDS" in summary
    assert counts["claims_by_mode"] == {"bound": {"HOLDS": 118}} and counts["claims"] == {"HOLDS": 118}
    assert "<= 0.01" in summary and "118 statistical rows" in summary and "report: reports/x/report.html" in summary


def test_unexpected_rows_are_printed_in_full_with_their_claim():
    from rpcheck.cli import render_summary

    lines, _, counts = render_summary(_fake_result(3, unexpected={(1, 0, "stated")}))
    text = "\n".join(lines)
    assert counts["unexpected"] == 1
    assert "UNEXPECTED paper.thm1 · stated (bound, claim) cell 0: d=128 eps=0.5" in text
    assert "failures 7/100" in text and "claim: failure rate in [0.031, 0.14] at 99%" in text


def test_parameters_keep_their_types_in_tables_and_json(capsys):
    from rpcheck.cli._output import console, print_cells
    from rpcheck.report.model import cell_records

    result = _fake_result(1)
    print_cells(console(), result.cells)
    out = capsys.readouterr().out
    assert "128" in out and "128.0" not in out
    rec = cell_records(result.cells)[0]
    assert rec["p_d"] == 128 and isinstance(rec["p_d"], int) and rec["params"] == {"d": 128, "eps": 0.5}
    assert json.loads(json.dumps(rec))["p_d"] == 128


def test_check_json_document(capsys):
    code, out, _ = run(capsys, "check", INT_R, "--profile", "quick", "--backend", "serial", "--json")
    doc = json.loads(out)
    assert code == EXIT_OK and doc["schema_version"] == 1 and doc["command"] == "check"
    assert set(doc) >= {"summary", "decision", "theorems", "cells", "provenance", "results", "report"}
    assert all(isinstance(r["p_r"], int) and isinstance(r["p_n"], int) for r in doc["cells"])
    assert "error_rate" in doc["summary"] and doc["theorems"][0]["id"] == INT_R


def test_list_and_show_import_no_heavy_module_once_the_catalog_is_cached(tmp_path):
    import os
    import subprocess
    import sys

    root = str(__import__("pathlib").Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=root, RPCHECK_CACHE_DIR=str(tmp_path))
    code = (
        "import contextlib, io, sys\nfrom rpcheck.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['list']) == 0 and main(['show', 'paul2014.lemma3.1']) == 0\n"
        # numpy is the floor of `import rpcheck.engine` (argument validation, ~0.1 s); everything heavier is lazy
        "heavy = ('pandas', 'scipy', 'cvxpy', 'numba', 'sklearn', 'matplotlib', 'rpcheck.papers')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr  # builds the catalog (imports every checker)
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0 and second.stdout.strip() == "[]", second.stdout + second.stderr


def test_list_on_a_cold_cache_imports_no_solver_or_dataframe_library(tmp_path):
    """``list`` with no cached catalog imports the checkers (their THEOREM declarations) but neither cvxpy,
    scikit-learn, pandas, pyarrow, matplotlib nor hypothesis: those are imported where they are used (lazy
    imports). Deterministic (a sys.modules check in a fresh process), not a timing test."""
    import os
    import subprocess
    import sys

    root = str(__import__("pathlib").Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=root, RPCHECK_CACHE_DIR=str(tmp_path))
    code = (
        "import contextlib, io, sys\nfrom rpcheck.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    assert main(['list']) == 0\n"
        "assert 'zhang2013.thm4' in out.getvalue()\n"
        "heavy = ('cvxpy', 'sklearn', 'pandas', 'pyarrow', 'matplotlib', 'hypothesis')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    for _ in range(2):  # cold, then from the light index written by the first call
        proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0 and proc.stdout.strip() == "[]", proc.stdout + proc.stderr


def test_an_interrupted_verify_names_its_default_results_directory(capsys, monkeypatch, tmp_path):
    """``verify`` without ``--out`` writes ``reports/<UTC timestamp>``: an interruption while it runs names that
    directory in the ``--resume`` hint (carried by the exception, not by the parsed arguments); ``check``
    without ``--out`` checkpoints nowhere and gives no hint."""
    from pathlib import Path

    from rpcheck.cli import EXIT_INTERRUPTED, _run

    def interrupted(args, theorems, out):
        assert out is None or (tmp_path / out).is_dir()
        raise KeyboardInterrupt

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(_run, "run_engine", interrupted)
    code = main(["verify", "--quiet", "--no-report"])
    err = capsys.readouterr().err
    [made] = list((tmp_path / "reports").iterdir())
    assert code == EXIT_INTERRUPTED and err.count("\n") == 1, err
    assert f"completed chunks are checkpointed in {Path('reports') / made.name}: rerun with `--resume --out" in err
    code = main(["check", INT_R, "--quiet"])
    err = capsys.readouterr().err
    assert code == EXIT_INTERRUPTED and err == "rpcheck: interrupted\n", err

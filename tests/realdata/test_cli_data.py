"""`rpcheck check/verify --data NAME=PATH` and `--profile paper` at the command line."""

import subprocess
import sys

import numpy as np

from .conftest import sparse_binary, write_svmlight


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "rpcheck.cli", *args], capture_output=True, text=True, env=env,
                          timeout=300)


def test_paper_profile_without_data_is_one_line_exit_2(empty_cache):
    import os

    env = dict(os.environ)
    p = _cli("check", "paul2014.repro.rcv1", "--profile", "paper", "--backend", "serial", env=env)
    assert p.returncode == 2, p.stderr
    msg = (p.stderr + p.stdout).strip().splitlines()
    assert len(msg) == 1 and "rpcheck data fetch rcv1-binary" in msg[0] and "Traceback" not in p.stderr


def test_unknown_data_name_and_missing_path_exit_2(tmp_path):
    p = _cli("check", "paul2014.repro.rcv1", "--data", "no-such-set=/tmp", "--backend", "serial")
    assert p.returncode == 2 and "no-such-set" in p.stderr
    p = _cli("check", "paul2014.repro.rcv1", "--data", f"rcv1-binary={tmp_path / 'absent'}", "--backend", "serial")
    assert p.returncode == 2 and "no such file" in p.stderr


def test_theorem_without_paper_profile_is_named(tmp_path):
    p = _cli("check", "paul2014.c5", "--profile", "paper", "--backend", "serial")
    assert p.returncode == 2 and "has no 'paper' profile" in p.stderr


def test_check_with_data_file_runs_and_names_it(tmp_path):
    X, y = sparse_binary(60, 200, np.random.default_rng(7))
    f = write_svmlight(tmp_path / "rcv1_train.binary.bz2", X, y, compress=True)
    p = _cli("check", "paul2014.repro.rcv1", "--profile", "quick", "--trials", "1", "--backend", "serial",
             "--data", f"rcv1-binary={f}", "--set", "n=60", "--set", "methods=CW", "--json")
    assert p.returncode in (0, 1), p.stderr
    assert f"real data: {f.resolve()} sha256" in p.stdout


def test_verify_paper_names_the_skipped_and_the_missing_before_any_trial(tmp_path, empty_cache):
    out = tmp_path / "out"
    p = _cli("verify", "--profile", "paper", "--backend", "serial", "--out", str(out))
    assert p.returncode == 2
    assert "skipping" in p.stdout and "paul2014.repro.rcv1" in p.stdout.split("skipping")[0]
    err = p.stderr.strip().splitlines()
    assert len(err) == 1 and "`rpcheck data fetch yalefaces`" in err[0] and "Traceback" not in p.stderr
    assert not out.exists() or not any(out.iterdir())  # nothing ran, nothing was written

"""The worker-pool policy of rpcheck.engine.backends: workers capped at the useful number, no worker outliving
its parent, and SIGTERM stopping a run exactly like SIGINT (exit 143, checkpoints kept, the resume hint)."""

import concurrent.futures as cf
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import _engine_claims  # noqa: F401  (the engine_test.* theorems; conftest.py registers them)
import pytest

from rpcheck.cli import main
from rpcheck.engine import backends, run

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def test_useful_jobs_is_the_least_of_jobs_cores_and_tasks():
    assert backends.useful_jobs(1000, 2, cores=2) == (2, "`jobs` (1000) capped at 2 workers: 2 trials to run on "
                                                          "2 usable cores")  # fmt: skip
    assert backends.useful_jobs(64, 3, cores=16)[0] == 3
    assert backends.useful_jobs(8, None, cores=4) == (4, "`jobs` (8) capped at 4 workers: 4 usable cores")
    assert backends.useful_jobs(2, 10, cores=4) == (2, None)  # below every cap: as asked, no note
    assert backends.useful_jobs(None, 1, cores=4) == (1, None)  # the default is capped silently
    assert backends.useful_jobs(None, None, cores=4) == (4, None)
    assert backends.useful_jobs(5, 0, cores=4)[0] == 1  # never fewer than one


@pytest.fixture
def spawned(monkeypatch):
    """Count the worker processes the process pools start (fresh pools: the cached ones are shut down)."""
    backends.shutdown_pools()
    count = []
    real = cf.ProcessPoolExecutor._spawn_process

    def spawn(self):
        count.append(1)
        return real(self)

    monkeypatch.setattr(cf.ProcessPoolExecutor, "_spawn_process", spawn)
    yield count
    backends.shutdown_pools()


def test_a_run_starts_no_more_workers_than_trials_or_cores_whatever_jobs_asks(spawned, caplog):
    caplog.set_level("WARNING", logger="rpcheck.workers")
    res = run("engine_test.cheap", backend="processes", jobs=64, trials=1, seed=0)  # one cell, one trial
    assert len(spawned) == 1 and res.provenance["jobs"] == 1
    notes = [r.getMessage() for r in caplog.records if r.name == "rpcheck.workers"]
    assert notes == ["`jobs` (64) capped at 1 worker: 1 trial to run on "
                     f"{backends.usable_cores()} usable core{'s' if backends.usable_cores() != 1 else ''}"]
    spawned.clear()
    caplog.clear()
    res = run("engine_test.det", backend="processes", jobs=64, trials=2, seed=0)  # 3 cells x 2 trials
    assert 1 <= len(spawned) <= min(6, backends.usable_cores()) and res.provenance["jobs"] == len(spawned)


def test_the_cli_says_in_one_line_that_it_capped_jobs(spawned, capsys):
    code = main(["check", "engine_test.det", "--trials", "2", "--jobs", "64", "--quiet"])
    err = capsys.readouterr().err
    assert code == 0
    assert len(spawned) <= 2
    (line,) = [ln for ln in err.splitlines() if "capped" in ln]
    assert line.startswith("rpcheck: note: `jobs` (64) capped at")


def _children(pid):
    p = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in p.read_text().split()] if p.exists() else None


def _alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


_POOL_SCRIPT = """
import sys, time
sys.path.insert(0, {root!r})
from rpcheck.engine.backends import open_backend
with open_backend("processes", jobs=2) as be:
    hs = [be.submit(time.sleep, 60) for _ in range(2)]
    print("busy", flush=True)
    time.sleep(120)
"""


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc to list child processes")
def test_no_worker_outlives_a_killed_parent_by_more_than_a_few_seconds():
    proc = subprocess.Popen([sys.executable, "-c", _POOL_SCRIPT.format(root=str(ROOT))], stdout=subprocess.PIPE,
                            text=True)  # fmt: skip
    try:
        assert proc.stdout.readline().strip() == "busy"
        deadline = time.monotonic() + 30
        workers = []
        while time.monotonic() < deadline:
            kids = _children(proc.pid) or []
            # the pool's workers (spawn_main), not multiprocessing's resource tracker
            workers = [k for k in kids if "spawn_main" in Path(f"/proc/{k}/cmdline").read_text()]
            if len(workers) >= min(2, backends.usable_cores()):
                break
            time.sleep(0.05)
        assert workers, "expected pool worker processes"
        os.kill(proc.pid, signal.SIGKILL)  # no clean-up can run in the parent
        killed = time.monotonic()
    finally:
        proc.wait(timeout=30)
    while time.monotonic() < killed + 5 and any(_alive(w) for w in workers):
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers), "a worker outlived its SIGKILLed parent by more than 5 s"


def _group_members(pgid):
    """Live processes of the process group ``pgid`` (Linux /proc)."""
    found = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                fields = (p / "stat").read_text().split(")")[-1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(p.name))
    return found


_CLI_SCRIPT = """
import sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {here!r})
import _engine_claims
_engine_claims.register_all()
from rpcheck import cli
sys.exit(cli.main(["check", "engine_test.bernoulli", "--set", "sleep=0.004", "--trials", {trials!r}, "--backend",
                   "processes", "--jobs", "2", "--quiet", "--seed", "5", "--out", {out!r}] + {extra!r}))
"""


def _cli(out, trials, extra=(), group=False):
    script = _CLI_SCRIPT.format(root=str(ROOT), here=str(HERE), out=str(out), trials=str(trials), extra=list(extra))
    return subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE, text=True, cwd=str(HERE),
                            start_new_session=group)  # fmt: skip


@pytest.mark.parametrize(("signum", "group"), [(signal.SIGTERM, False), (signal.SIGINT, False),
                                               (signal.SIGTERM, True)])  # fmt: skip
def test_sigterm_stops_a_run_like_sigint(tmp_path, signum, group):
    """Either signal, sent to the parent alone or (as ``timeout`` does) to its whole process group, workers
    included: a clean stop, checkpoints kept, one line with the resume hint, exit 128 + signal, no leaked
    semaphores, no traceback, no process of the group left; ``--resume`` then completes the run."""
    out = tmp_path / "run"
    proc = _cli(out, 1500, group=group)
    ckpt = out / "checkpoints"
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and proc.poll() is None:
            if ckpt.exists() and len(list(ckpt.glob("*/*/*.npz"))) >= 2:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the run finished before it could be stopped; make it slower"
        if group:
            os.killpg(proc.pid, signum)
        else:
            os.kill(proc.pid, signum)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + signum, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rpcheck: interrupted"), err
    assert f"--resume --out {out}" in lines[0]
    assert "leaked" not in err and "Traceback" not in err
    assert list(ckpt.glob("*/*/*.npz")), "the completed chunks are kept"
    if group and Path("/proc").exists():
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _group_members(proc.pid):
            time.sleep(0.1)
        assert not _group_members(proc.pid), "processes of the stopped run's group are still alive"
    resumed = _cli(out, 1500, ["--resume"])
    _, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert (out / "cells.parquet").exists()

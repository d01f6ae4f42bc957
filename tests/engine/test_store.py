"""Result files: atomic writes, checkpoints, resume after SIGKILL."""

import json
import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import _engine_claims  # noqa: F401  (the engine_test.* theorems; conftest.py registers them)
import numpy as np
import pandas as pd
import pytest

from rpcheck.engine import load_results, run
from rpcheck.engine import store as store_mod
from rpcheck.engine._worker import OutcomeRow, TrialResult
from rpcheck.engine.store import CheckpointStore, atomic_write_bytes, atomic_write_text
from rpcheck.errors import RpcheckError, RpcheckWarning

HERE = Path(__file__).resolve().parent

# 3 cells x 120 trials, 4 ms per trial: ~1.5 s uninterrupted; checkpoints every 30 trials (serial chunks).
SLOW = dict(overrides={"sleep": 0.004}, trials=120, seed=11)
SCRIPT = """
import sys
sys.path.insert(0, {root!r})  # this checkout's rpcheck, not whichever one is installed
sys.path.insert(0, {here!r})
import _engine_claims
_engine_claims.register_all()
from rpcheck.engine import run
run("engine_test.bernoulli", backend={backend!r}, jobs=2, out={out!r}, overrides={{"sleep": 0.004}},
    trials=120, seed=11)
"""


def test_atomic_write_keeps_old_file_on_crash(tmp_path, monkeypatch):
    target = tmp_path / "f.txt"
    atomic_write_text(target, "old contents")

    def crash(fd):
        raise OSError("simulated crash after a partial write")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(OSError, match="simulated crash"):
        atomic_write_bytes(target, b"new contents that never land")
    assert target.read_text() == "old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]  # the temporary file was removed


def test_crash_while_saving_results_keeps_previous_tables(tmp_path, monkeypatch):
    out = tmp_path / "res"
    first = run("engine_test.det", backend="serial", trials=10, out=out)
    before = (out / "cells.parquet").read_bytes()

    def crash(*a, **k):
        raise RuntimeError("killed mid-write")

    monkeypatch.setattr(store_mod.os, "replace", crash)
    with pytest.raises(RuntimeError, match="killed mid-write"):
        run("engine_test.det", backend="serial", trials=20, out=out)
    assert (out / "cells.parquet").read_bytes() == before
    back = load_results(out)
    assert (back.cells["trials"] == 10).all()
    pd.testing.assert_frame_equal(back.cells, first.cells, check_dtype=False)
    assert not [p for p in out.rglob("*.tmp")]


def test_checkpoint_store_ignores_partial_files(tmp_path):
    st = CheckpointStore(tmp_path)
    recs_in = [
        TrialResult(0, "ok", "", 0.5, (OutcomeRow(True, float("nan"), 1e-300, False, True),), {"v": float("nan")}),
        TrialResult(1, "ok", "", 0.25, (OutcomeRow(False, 1e-300, -0.0, True, False),), {"v": 1e-300}),
    ]
    st.save_chunk("t.x", '{"a":1}', 0, 0, 2, recs_in, ["claim"])
    d = st.cell_dir("t.x", '{"a":1}', 0)
    (d / ".000000002-000000004.json.abc.tmp").write_text("{torn")
    recs = st.load_cell("t.x", '{"a":1}', 0, ["claim"])
    assert sorted(recs) == [0, 1] and np.isnan(recs[0].diagnostics["v"]) and recs[1].diagnostics["v"] == 1e-300
    assert isinstance(recs[0], TrialResult) and isinstance(recs[0].outcomes[0], OutcomeRow)
    assert recs[0].outcomes[0].undetermined and np.isnan(recs[0].outcomes[0].statistic)
    assert recs[1].outcomes[0] == recs_in[1].outcomes[0] and recs[1].seconds == 0.25
    assert st.load_cell("t.x", '{"a":1}', 1) == {}
    assert st.load_cell("t.x", '{"a":1}', 0, ["other"]) == {}  # written for other variants: not reused


def _children(pid):
    """Child pids (Linux /proc), or None where unavailable."""
    p = Path(f"/proc/{pid}/task/{pid}/children")
    if not p.exists():
        return None
    return [int(x) for x in p.read_text().split()]


def _alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"  # a zombie has exited (its parent, now init, reaps it)


def _strip(res):
    return res.trials.drop(columns=["seconds"]), res.cells.drop(columns=["seconds"])


@pytest.mark.parametrize("backend", ["serial", "processes"])
def test_resume_after_sigkill_equals_uninterrupted(tmp_path, backend):
    ref = run("engine_test.bernoulli", backend="serial", **SLOW)
    out = tmp_path / "killed"
    script = SCRIPT.format(root=str(HERE.parent.parent), here=str(HERE), out=str(out), backend=backend)
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=str(HERE))
    ckpt = out / "checkpoints"
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            n = len(list(ckpt.glob("*/*/*.npz"))) if ckpt.exists() else 0
            if n >= 3 or proc.poll() is not None:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the run finished before it could be killed; make it slower"
        children = _children(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    if backend == "processes" and children is not None:
        # orphaned pool workers notice the dead parent and exit (rpcheck.engine.backends._watch_parent)
        assert children, "expected pool worker processes"
        gone_by = time.monotonic() + 15
        while time.monotonic() < gone_by and any(_alive(c) for c in children):
            time.sleep(0.1)
        assert not any(_alive(c) for c in children), "orphaned worker processes kept running"
    assert not (out / "cells.parquet").exists()
    done_before = CheckpointStore(out).n_trials()
    assert 0 < done_before < 360

    seen = []
    with warnings.catch_warnings():
        # Other processes may commit to a shared working tree, so HEAD may move between the kill and the
        # resume, which makes resume warn (test_resume_warns_...); bit-identity is asserted below instead.
        warnings.filterwarnings("ignore", "resuming checkpoints written by", RpcheckWarning)
        res = run("engine_test.bernoulli", backend="serial", out=out, resume=True,
                  progress=lambda d, t, i: seen.append((d, t, i)), **SLOW)  # fmt: skip
    assert seen[0][0] == done_before and seen[0][2]["resumed"] == done_before  # only the missing trials ran
    ta, ca = _strip(res)
    tb, cb = _strip(ref)
    pd.testing.assert_frame_equal(ta, tb, check_exact=True)
    pd.testing.assert_frame_equal(ca, cb, check_exact=True)
    back = load_results(out)
    assert list(back.cells["failures"]) == list(ref.cells["failures"])


def test_without_resume_checkpoints_are_discarded(tmp_path):
    out = tmp_path / "r"
    run("engine_test.det", backend="serial", trials=6, out=out)
    seen = []
    run("engine_test.det", backend="serial", trials=6, out=out, progress=lambda d, t, i: seen.append(d))
    assert seen[0] == 0
    seen.clear()
    run("engine_test.det", backend="serial", trials=8, out=out, resume=True, progress=lambda d, t, i: seen.append(d))
    assert seen[0] == 18  # 3 cells x 6 trials reused, 2 x 3 new


def test_resume_warns_when_checkpoints_come_from_other_code(tmp_path):
    out = tmp_path / "r"
    run("engine_test.det", backend="serial", trials=4, out=out)
    manifest = out / "checkpoints" / "manifest.json"
    assert json.loads(manifest.read_text())["rpcheck"]
    manifest.write_text(json.dumps({"rpcheck": "0.0.1", "git_commit": "0" * 40}))
    with pytest.warns(RpcheckWarning, match="computed by different code"):
        run("engine_test.det", backend="serial", trials=4, out=out, resume=True)


# ------------------------------------------------------------------------------- results directory safety


def test_foreign_non_empty_directory_is_refused_and_untouched(tmp_path):
    out = tmp_path / "mine"
    (out / "checkpoints").mkdir(parents=True)
    (out / "checkpoints" / "notes.txt").write_text("the user's own file")
    (out / "data.csv").write_text("1,2")
    with pytest.raises(RpcheckError, match=r"non-empty directory that rpcheck did not write"):
        run("engine_test.det", backend="serial", trials=3, out=out)
    assert (out / "checkpoints" / "notes.txt").read_text() == "the user's own file"
    assert sorted(p.name for p in out.iterdir()) == ["checkpoints", "data.csv"]
    with pytest.raises(RpcheckError, match=r"non-empty directory that rpcheck did not write"):
        run("engine_test.det", backend="serial", trials=3, out=out, resume=True)
    res = run("engine_test.det", backend="serial", trials=3)
    with pytest.raises(RpcheckError, match=r"non-empty directory that rpcheck did not write"):
        res.save(out)


def test_foreign_checkpoints_folder_in_a_results_directory_is_refused(tmp_path):
    out = tmp_path / "r"
    run("engine_test.det", backend="serial", trials=3, out=out)
    import shutil

    shutil.rmtree(out / "checkpoints")
    (out / "checkpoints").mkdir()
    (out / "checkpoints" / "keep.txt").write_text("x")
    with pytest.raises(RpcheckError, match=r"checkpoints/ folder that rpcheck did not write"):
        run("engine_test.det", backend="serial", trials=3, out=out)
    assert (out / "checkpoints" / "keep.txt").exists()


def test_empty_directory_and_out_errors(tmp_path):
    (tmp_path / "empty").mkdir()
    run("engine_test.det", backend="serial", trials=3, out=tmp_path / "empty")
    assert (tmp_path / "empty" / store_mod.MARKER).is_file()
    with pytest.raises(RpcheckError, match=r"`out` \(''\) must be a directory path"):
        run("engine_test.det", backend="serial", trials=3, out="")
    (tmp_path / "file").write_text("x")
    with pytest.raises(RpcheckError, match="exists and is not a directory"):
        run("engine_test.det", backend="serial", trials=3, out=tmp_path / "file")


def test_resume_with_other_settings_is_refused(tmp_path):
    out = tmp_path / "r"
    run("engine_test.det", backend="serial", trials=3, out=out, seed=1)
    before = sorted(str(p) for p in out.rglob("*"))
    changes = [
        ({"seed": 2}, "seed"),
        ({"seed": 1, "alpha": 0.05}, "alpha"),
        ({"seed": 1, "profile": "quick"}, "profile"),
    ]
    for kw, name in changes:
        with pytest.raises(RpcheckError, match=rf"`resume=True`: .* was written by a run with {name}="):
            run("engine_test.det", backend="serial", trials=3, out=out, resume=True, **kw)
    with pytest.raises(RpcheckError, match=r"theorems=\['engine_test.det'\]"):
        run(["engine_test.det", "engine_test.report"], backend="serial", trials=3, out=out, resume=True, seed=1)
    assert sorted(str(p) for p in out.rglob("*")) == before  # nothing overwritten


def test_result_files_get_the_umask_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        out = tmp_path / "r"
        run("engine_test.det", backend="serial", trials=3, out=out)
        for name in ("cells.parquet", "trials/engine_test.det.parquet", "provenance.json", store_mod.MARKER):
            assert (out / name).stat().st_mode & 0o777 == 0o644, name
        chunk = next(out.glob("checkpoints/*/*/*-*.npz"))
        assert chunk.stat().st_mode & 0o777 == 0o644
        from rpcheck.engine import load_results
        from rpcheck.report import write_report

        rep = write_report(load_results(out), out / "report.html")  # was 0o600 (mkstemp's mode)
        assert rep.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)


def test_resume_cleans_stray_tmp_and_reports_corrupted_files(tmp_path):
    out = tmp_path / "r"
    run("engine_test.det", backend="serial", trials=4, out=out)
    chunk = next(out.glob("checkpoints/*/*/*-*.npz"))
    stray = chunk.parent / f".{chunk.name}.abc123.tmp"
    stray.write_text("{torn")
    run("engine_test.det", backend="serial", trials=4, out=out, resume=True)
    assert not stray.exists()
    chunk.write_bytes(chunk.read_bytes()[:40])  # torn
    with pytest.raises(RpcheckError, match=rf"checkpoint chunk '{chunk}' is corrupted"):
        run("engine_test.det", backend="serial", trials=4, out=out, resume=True)
    (out / store_mod.MARKER).write_text("[1, 2")
    with pytest.raises(RpcheckError, match=rf"results manifest '{out / store_mod.MARKER}' is unreadable"):
        run("engine_test.det", backend="serial", trials=4, out=out, resume=True)
    (out / "provenance.json").write_text("{")
    with pytest.raises(RpcheckError, match="provenance file .* is unreadable"):
        load_results(out)


def test_write_concurrently_writes_every_file_and_reraises_after_all_ended(tmp_path):
    from functools import partial

    from rpcheck.engine.store import atomic_write_bytes, write_concurrently

    write_concurrently([partial(atomic_write_bytes, tmp_path / f"f{i}.bin", bytes([i]) * 100)
                        for i in range(40)])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"f{i}.bin" for i in range(40))
    assert all((tmp_path / f"f{i}.bin").read_bytes() == bytes([i]) * 100 for i in range(40))

    def boom():
        raise OSError("disk full")

    calls = [partial(atomic_write_bytes, tmp_path / "sub" / f"g{i}.bin", b"x") for i in range(20)]
    with pytest.raises(OSError, match="disk full"):
        write_concurrently(calls[:10] + [boom] + calls[10:])
    assert len(list((tmp_path / "sub").glob("g*.bin"))) == 20  # the others still ran to the end
    assert not list((tmp_path / "sub").glob(".*.tmp"))  # no temporary file left behind

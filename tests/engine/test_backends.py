"""Backend equivalence: serial, local processes and Dask give bit-identical trial values and verdicts,
whatever the number of workers and the chunking (every trial draws from its own SeedSequence)."""

import _engine_claims  # noqa: F401  (the engine_test.* theorems; conftest.py registers them)
import numpy as np
import pandas as pd
import pytest

from rpcheck.engine import execute as execute_mod
from rpcheck.engine import run, run_cell

THEOREMS = ["engine_test.bernoulli", "engine_test.det", "engine_test.chi2"]
KW = dict(trials=40, seed=7)


def _strip(res):
    return res.trials.drop(columns=["seconds"]), res.cells.drop(columns=["seconds"])


@pytest.fixture(scope="module")
def reference():
    return run(THEOREMS, backend="serial", **KW)


def _assert_same(a, b):
    ta, ca = _strip(a)
    tb, cb = _strip(b)
    pd.testing.assert_frame_equal(ta, tb, check_exact=True)
    pd.testing.assert_frame_equal(ca, cb, check_exact=True)


def test_processes_equal_serial(reference):
    _assert_same(reference, run(THEOREMS, backend="processes", jobs=2, **KW))


def test_chunking_does_not_matter(reference, monkeypatch):
    monkeypatch.setattr(execute_mod, "MAX_CHUNK", 3)
    monkeypatch.setattr(execute_mod, "MAX_FAST_CHUNK", 3)
    _assert_same(reference, run(THEOREMS, backend="serial", **KW))
    _assert_same(reference, run(THEOREMS, backend="processes", jobs=2, **KW))


def test_dask_local_cluster_equals_serial(reference):
    distributed = pytest.importorskip("distributed", reason="dask.distributed is the optional 'dask' extra")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        res = run(THEOREMS, backend="dask", scheduler=client, **KW)
        # the same cluster reached through its scheduler address (a Client the backend opens and closes)
        res2 = run(THEOREMS, backend="dask", scheduler=cluster.scheduler_address, **KW)
    _assert_same(reference, res)
    _assert_same(reference, res2)
    assert res.provenance["backend"] == "dask"


def test_dask_backend_counts_every_worker_thread(monkeypatch):
    """The chunk sizes follow the cluster's task slots: all workers' threads, even where
    ``Client.scheduler_info()`` lists only 5 workers (its default in distributed 2025.5 to 2026.6, mimicked)."""
    distributed = pytest.importorskip("distributed", reason="dask.distributed is the optional 'dask' extra")
    from rpcheck.engine.backends import open_backend

    real = distributed.Client.scheduler_info

    def capped(self, *args, **kwargs):
        info = dict(real(self, *args, **kwargs))
        info["workers"] = dict(list(info.get("workers", {}).items())[:5])
        return info

    monkeypatch.setattr(distributed.Client, "scheduler_info", capped)
    with (
        distributed.LocalCluster(n_workers=7, threads_per_worker=1, processes=False, dashboard_address=None) as c7,
        distributed.Client(c7) as client,
        open_backend("dask", scheduler=client) as be,
    ):
        assert be.jobs == 7
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=3, processes=False, dashboard_address=None) as c6,
        distributed.Client(c6) as client,
        open_backend("dask", scheduler=client) as be,
    ):
        assert be.jobs == 6


def test_trials_run_on_one_blas_thread_whatever_the_callers_setting():
    # Control first: on this machine x @ x over 2^20 entries must differ between 1 and 2 OpenBLAS threads,
    # else this test cannot tell a pinned trial from an unpinned one.
    from threadpoolctl import threadpool_info, threadpool_limits

    rng = np.random.default_rng(0)
    x = rng.standard_normal(_engine_claims.BLAS_N)
    with threadpool_limits(limits=1):
        one = float(x @ x)
    with threadpool_limits(limits=2):
        two = float(x @ x)
    if one == two:
        pytest.skip("x @ x is bit-identical with 1 and 2 BLAS threads here (one core, or a BLAS that does not "
                    "split ddot): nothing to tell apart")
    ref = run("engine_test.blas_dot", backend="processes", jobs=2, seed=3).trials["diag.dot"].to_numpy()
    with threadpool_limits(limits=2):  # the caller's BLAS has two threads: serial trials must still use one
        before = {i["filepath"]: i["num_threads"] for i in threadpool_info()}  # (a single-threaded build stays 1)
        ser = run("engine_test.blas_dot", backend="serial", seed=3).trials["diag.dot"].to_numpy()
        # and the caller's settings are back afterwards
        after = {i["filepath"]: i["num_threads"] for i in threadpool_info()}
        assert {k: after[k] for k in before} == before
    assert np.array_equal(ref, ser)
    # the trial values are the one-thread values (recomputed here from the trials' own draws)
    from rpcheck.engine._worker import one_blas_thread, replay_trial

    rec = replay_trial("engine_test.blas_dot", {"k": 0}, 0, 3)
    assert rec.diagnostics["dot"] == ser[0]
    with threadpool_limits(limits=2), one_blas_thread():
        assert all(i["num_threads"] == 1 for i in threadpool_info() if i["internal_api"] == "openblas")


def test_run_cell_backends_agree():
    params = {"n": 16, "eps": 0.3, "d": 12}
    a = run_cell("engine_test.chi2", params, trials=30, seed=3)
    b = run_cell("engine_test.chi2", params, trials=30, seed=3, backend="processes", jobs=2)
    assert np.array_equal(a.table["diag.ratio"].to_numpy(), b.table["diag.ratio"].to_numpy())
    assert a.variants == b.variants


def test_seed_changes_results(reference):
    other = run(THEOREMS, backend="serial", trials=40, seed=8)
    assert not np.array_equal(other.trials["diag.u"].to_numpy(), reference.trials["diag.u"].to_numpy())


def test_a_cell_is_probed_then_chunked_by_its_measured_trial_time():
    """A cell's first chunk is a small probe (1/16 of a worker's share); the rest is sized from the probe's
    measured time. 64 trials of microseconds on one worker: a probe of 4, then the 60 left in one chunk (at
    least MIN_CHUNK_SECONDS of work, at most MAX_FAST_CHUNK), not four chunks of 16."""
    chunks = []

    def progress(done, total, info):
        if info["event"] == "chunk":
            chunks.append(done)

    run(["engine_test.bernoulli"], backend="serial", trials=64, seed=1, progress=progress)
    n_cells = len(_engine_claims.BERNOULLI.profiles["quick"].cells)
    assert execute_mod._probe_size(64, 1) == 4
    assert len(chunks) == 2 * n_cells
    assert execute_mod._chunk_size(60, 1, 1e-6, execute_mod.MIN_CHUNK_SECONDS["serial"]) == 60
    # fast trials: min_seconds of work per chunk, above MAX_CHUNK, up to MAX_FAST_CHUNK
    assert execute_mod._chunk_size(1000, 2, 1e-6, execute_mod.MIN_CHUNK_SECONDS["dask"]) == 1000
    assert execute_mod._chunk_size(100_000, 2, 1e-4, 0.25) == 2500
    assert execute_mod._chunk_size(10**7, 2, 1e-9, 0.25) == execute_mod.MAX_FAST_CHUNK
    assert execute_mod._chunk_size(1000, 2, 1.0) == 125  # slow trials: four chunks per worker ...
    assert execute_mod._chunk_size(100_000, 2, 1.0) == execute_mod.MAX_CHUNK  # ... of at most MAX_CHUNK trials


def test_a_resumed_cell_is_timed_by_its_checkpoints_and_not_probed_again(tmp_path):
    """On resume, the checkpointed trials time the cell: its missing trials are chunked at once (here the 60
    after a 4-trial chunk, in one chunk), with no new probe; the result is the uninterrupted run's."""
    import json
    import shutil

    full = run(["engine_test.bernoulli"], backend="serial", trials=64, seed=1, out=tmp_path / "a")
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    kept = 0
    for p in sorted((tmp_path / "b").rglob("*.npz")):
        with np.load(p, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"][()]))
        if "start" in meta and meta["start"] > 0:
            p.unlink()  # keep each cell's first chunk (its probe of 4) only
        elif "start" in meta:
            kept += 1
    n_cells = len(_engine_claims.BERNOULLI.profiles["quick"].cells)
    assert kept == n_cells
    chunks = []

    def progress(done, total, info):
        if info["event"] == "chunk":
            chunks.append(done)

    again = run(["engine_test.bernoulli"], backend="serial", trials=64, seed=1, out=tmp_path / "b", resume=True,
                progress=progress)  # fmt: skip
    assert len(chunks) == n_cells  # one chunk per cell: the 60 missing trials, no probe
    pd.testing.assert_frame_equal(full.trials.drop(columns="seconds"), again.trials.drop(columns="seconds"))
    assert full.cells[["variant", "cell", "verdict"]].equals(again.cells[["variant", "cell", "verdict"]])


def test_chunks_grow_with_the_worker_count_so_the_parent_keeps_up():
    """The parent ingests chunks one at a time (PARENT_CHUNK_SECONDS each): with P workers a chunk holds at
    least P x PARENT_CHUNK_SECONDS / PARENT_BUSY_MAX seconds of work, so the parent's share stays at most
    PARENT_BUSY_MAX; up to 10 workers that is the backend's 1 s, unchanged."""
    m = execute_mod._min_chunk_seconds
    for backend in ("serial", "processes", "dask"):
        for jobs in (1, 2, 8, 10):
            assert m(backend, jobs) == execute_mod.MIN_CHUNK_SECONDS[backend]
    for jobs in (11, 16, 64, 1024):
        w = m("dask", jobs)
        assert w > 1.0
        assert jobs * execute_mod.PARENT_CHUNK_SECONDS / w <= execute_mod.PARENT_BUSY_MAX + 1e-12
    assert abs(m("dask", 64) - 5.888) < 1e-9
    # slow trials of 2 s on 64 workers: 3 trials (6 s) a chunk, not 1 (2 s) by the four-chunks-per-worker rule
    assert execute_mod._chunk_size(200, 64, 2.0, m("dask", 64)) == 3


def _imported(name):
    import sys

    return name in sys.modules


def test_prestart_imports_the_run_modules_in_the_workers_before_any_chunk():
    """``prestart`` starts the pool and has its workers import the run's modules; a task submitted after it
    finds the module imported (one worker: tasks run in order). Nothing for the serial backend."""
    from rpcheck.engine import backends
    from rpcheck.engine._worker import _preload

    assert _preload(("colorsys",)) == 1
    pools = dict(backends._POOLS)
    backends.prestart("serial", 1, ["tabnanny"])
    assert backends._POOLS == pools
    backends._discard_pool(1)  # fresh worker
    backends.prestart("processes", 1, ["tabnanny"])
    with backends.open_backend("processes", jobs=1) as be:
        assert be.submit(_imported, "tabnanny").result() is True
        assert be.submit(_imported, "wave").result() is False  # not imported by anything else


def test_run_prestarts_its_backend_with_the_theorems_modules(monkeypatch):
    from rpcheck.engine import backends

    calls = []
    monkeypatch.setattr(backends, "prestart", lambda *a, **k: calls.append((*a, k)) or a[1])
    run(["engine_test.det"], backend="serial", trials=4, seed=0)
    assert calls == [("serial", None, ["_engine_claims"], {"tasks": 3 * 4})]  # 3 cells x 4 trials

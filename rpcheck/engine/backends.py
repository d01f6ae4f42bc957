"""Execution backends of the runner: serial, local processes, Dask.

A backend runs *chunks* of trials, ``fn(*args)`` with ``args`` made only of strings and integers
(theorem id, the module that registers it, canonical JSON parameters, trial indices, root seed), so
nothing but ids crosses a process boundary. Every backend exposes the same three operations:

- ``submit(fn, *args) -> handle``
- ``wait_any(handles) -> list of finished handles`` (at least one)
- ``handle.result()`` (re-raises the worker's exception)

Results never depend on the backend: every trial draws its randomness from its own
``SeedSequence`` (see :func:`rpcheck.engine.runner.trial_seed_sequence`).

Backends
--------
``"serial"``
    In the calling process; a submitted chunk runs when :meth:`SerialBackend.wait_any` asks for it
    (first in, first out), so checkpoints and progress advance chunk by chunk.
``"processes"`` (default)
    A :class:`concurrent.futures.ProcessPoolExecutor` with the ``spawn`` start method (safe with
    threads, BLAS pools and macOS/Windows). Starting Python workers costs about a second, so the pool
    is cached per ``jobs`` for the life of the process (shut down at exit).
``"dask"``
    ``dask.distributed``: ``scheduler`` is a scheduler address (``"tcp://host:8786"``), a
    ``distributed.Client``, or None for a ``LocalCluster`` with ``jobs`` single-threaded workers.
    dask is imported only when this backend is chosen (optional extra ``rpcheck[dask]``).
"""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import multiprocessing
import os
from contextlib import contextmanager

from .._validation import check_choice, check_int
from ..errors import RpcheckError
from ._worker import _BLAS_ENV

__all__ = ["BACKENDS", "SerialBackend", "PoolBackend", "open_backend", "default_jobs", "prestart", "shutdown_pools"]

BACKENDS = ("serial", "processes", "dask")


def default_jobs():
    """``os.cpu_count()`` (1 when unknown)."""
    return os.cpu_count() or 1


class _Deferred:
    """A chunk submitted to the serial backend, run on demand."""

    __slots__ = ("fn", "args", "_done", "_value", "_exc")

    def __init__(self, fn, args):
        self.fn, self.args = fn, args
        self._done = False
        self._value = self._exc = None

    def run(self):
        if not self._done:
            try:
                self._value = self.fn(*self.args)
            except Exception as exc:  # re-raised by result()
                self._exc = exc
            self._done = True

    def done(self):
        return self._done

    def result(self):
        self.run()
        if self._exc is not None:
            raise self._exc
        return self._value

    def cancel(self):
        self._done = True
        return True


class SerialBackend:
    """Runs chunks in the calling process, one per :meth:`wait_any` call (FIFO)."""

    name = "serial"
    jobs = 1

    def submit(self, fn, *args):
        return _Deferred(fn, args)

    def wait_any(self, handles):
        for h in handles:
            if h.done():
                return [h]
        first = next(iter(handles))
        first.run()
        return [first]


class PoolBackend:
    """Wraps a ``concurrent.futures.Executor`` (a process pool or dask's ``ClientExecutor``)."""

    def __init__(self, executor, name, jobs):
        self.executor, self.name, self.jobs = executor, name, jobs

    def submit(self, fn, *args):
        return self.executor.submit(fn, *args)

    def wait_any(self, handles):
        done, _ = cf.wait(list(handles), return_when=cf.FIRST_COMPLETED)
        return list(done)


_POOLS: dict = {}


def _watch_parent(parent_pid, interval=0.5):
    """Worker initializer: exit when the parent dies (e.g. SIGKILL), instead of lingering as an orphan."""
    import threading
    import time

    def watch():
        while True:
            time.sleep(interval)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="rpcheck-parent-watch", daemon=True).start()


#: the BLAS/OpenMP variables the trial pin also sets (one list: _worker._BLAS_ENV), plus numba's
_THREAD_ENV = (*_BLAS_ENV, "NUMBA_NUM_THREADS")


def _init_worker(parent_pid, threads):
    """Worker initializer: watch the parent, and give each worker ``threads`` BLAS/OpenMP/numba threads
    (cpu_count // jobs), so ``jobs`` workers do not oversubscribe the cores. Measured on 2 cores: a
    checker trial took 10 ms single-threaded against 25-1300 ms with default BLAS threads in 2 workers."""
    for name in _THREAD_ENV:  # libraries loaded after this point
        os.environ[name] = str(threads)
    try:  # libraries already loaded
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=threads)
    except ImportError:  # pragma: no cover - threadpoolctl is a declared dependency
        pass
    _watch_parent(parent_pid)
    from .. import _heap

    _heap.FREEZE_IMPORT_HEAP = True  # rpcheck's own process: freeze after each theorem module's import


def _process_pool(jobs):
    pool = _POOLS.get(jobs)
    if pool is not None and not getattr(pool, "_broken", False):
        return pool
    pool = cf.ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker,
        initargs=(os.getpid(), max(1, (os.cpu_count() or 1) // jobs)),
    )
    _POOLS[jobs] = pool
    return pool


def prestart(backend, jobs, modules):
    """Start the workers of the ``"processes"`` backend's pool now and have each import ``modules``, without
    waiting: a run calls this before it builds its cells, so that the workers' interpreter start-up and
    imports (about 2 s each) overlap the main process's serial set-up instead of following it. Nothing for
    the other backends (the serial backend has no workers; a Dask cluster is the user's, or started when the
    run opens it)."""
    if backend != "processes":
        return
    from ._worker import _preload

    n = jobs or default_jobs()
    pool = _process_pool(n)
    for _ in range(n):  # one each, typically: a worker takes its next task only when it is done with one
        pool.submit(_preload, tuple(modules))


def shutdown_pools():
    """Shut down the cached process pools (called at interpreter exit)."""
    while _POOLS:
        _, pool = _POOLS.popitem()
        pool.shutdown(wait=True, cancel_futures=True)


atexit.register(shutdown_pools)


def _discard_pool(jobs):
    pool = _POOLS.pop(jobs, None)
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


#: dask.distributed's nannies start workers with ``MALLOC_TRIM_THRESHOLD_=65536`` (config key below). Setting
#: it disables glibc's dynamic mmap threshold, so every array over 128 KiB is a fresh mmap with its page
#: faults. Measured on tests/bench/dask_scaling.py's four theorems at ci (1 worker, 2 cores): summed trial
#: time 28.6 s with it against 22.9 s without, and 21.3 s serial. The LocalCluster rpcheck starts unsets it
#: (``None`` unsets a variable in this config, per distributed's nanny); README says how to start the
#: workers of an existing cluster the same way.
_TRIM_KEY = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"


@contextmanager
def open_backend(backend="processes", *, jobs=None, scheduler=None):
    """Context manager yielding a backend object (see the module docstring).

    Parameters
    ----------
    backend : {"serial", "processes", "dask"}, default="processes"
    jobs : int or None
        Worker processes (``"processes"``) or LocalCluster workers (``"dask"`` without ``scheduler``);
        default ``os.cpu_count()``. Ignored by ``"serial"``.
    scheduler : str, distributed.Client or None
        Only for ``"dask"``.
    """
    check_choice("backend", backend, BACKENDS)
    if jobs is not None:
        jobs = check_int("jobs", jobs, 1)
    if scheduler is not None and backend != "dask":
        raise RpcheckError(f"`scheduler` ({scheduler!r}) is only used with backend='dask'; got backend={backend!r}.")
    if backend == "serial":
        yield SerialBackend()
        return
    if backend == "processes":
        n = jobs or default_jobs()
        pool = _process_pool(n)
        try:
            yield PoolBackend(pool, "processes", n)
        except (cf.process.BrokenProcessPool, KeyboardInterrupt):
            # A dead worker, or an interrupt while chunks are running: do not reuse this pool.
            _discard_pool(n)
            raise
        return
    # dask
    try:
        import dask
        import distributed
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RpcheckError(
            "backend='dask' needs dask.distributed: pip install 'rpcheck[dask]' (or 'dask[distributed]')."
        ) from exc
    owned = []
    try:
        if isinstance(scheduler, distributed.Client):
            client = scheduler
        elif scheduler is None:
            n = jobs or default_jobs()
            with dask.config.set({_TRIM_KEY: None}):  # see _TRIM_KEY
                cluster = distributed.LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
                )
            owned.append(cluster)
            client = distributed.Client(cluster)
            owned.append(client)
        elif isinstance(scheduler, str):
            client = distributed.Client(scheduler)
            owned.append(client)
        else:
            raise RpcheckError(
                f"`scheduler` ({scheduler!r}) must be None, a scheduler address or a distributed.Client."
            )
        # task slots: every worker's threads. Not ``scheduler_info()["workers"]``: distributed 2025.5 to 2026.6
        # list at most 5 workers there by default (dask/distributed#9045, #9308), which sized the chunks for 5
        # workers on any larger cluster; ``Client.nthreads()`` lists all of them in every supported version
        n_workers = sum(int(n) for n in client.nthreads().values()) or (jobs or 1)
        yield PoolBackend(client.get_executor(pure=False), "dask", n_workers)
    finally:
        for obj in reversed(owned):
            obj.close()

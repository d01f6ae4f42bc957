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

Worker-pool policy (the ``"processes"`` pool and a LocalCluster rpcheck starts)
------------------------------------------------------------------------------
- **Size**: at most the useful number of workers, ``min(jobs, usable cores, trials to run)``
  (:func:`useful_jobs`): a worker beyond the cores only adds an interpreter (about 100 MB) and contention, one
  beyond the trials has nothing to do. A run that caps ``jobs`` says so in one line (logger
  ``rpcheck.workers``, which the CLI prints). The pool starts its workers lazily, one per task submitted while
  none is idle, and :func:`prestart` submits one preload per worker of the capped size only.
- **Parent death**: every worker runs a watchdog thread (:func:`_watch_parent`) that polls ``os.getppid()``
  and exits the worker within about half a second of its parent's death, whatever killed the parent (SIGKILL
  included); no worker outlives its run.
- **Stopping**: workers ignore SIGINT and end :data:`SIGTERM_GRACE` seconds after a SIGTERM (a Ctrl-C,
  ``timeout`` or ``kill -TERM -PGID`` reach the whole process group; the parent decides: :func:`_init_worker`),
  and the parent treats SIGTERM as SIGINT (:func:`stop_on_signals`): pending chunks are cancelled, the
  completed ones stay checkpointed, the pool is shut down (no leaked semaphores), and the CLI exits
  ``128 + signal`` (130, 143) with the ``--resume`` hint.
"""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import logging
import multiprocessing
import os
import signal
import threading
import time
from contextlib import contextmanager

from .. import _heap
from .._validation import check_choice, check_int
from ..errors import RpcheckError
from ._worker import _BLAS_ENV, _preload

__all__ = [
    "BACKENDS",
    "SerialBackend",
    "PoolBackend",
    "open_backend",
    "default_jobs",
    "usable_cores",
    "useful_jobs",
    "prestart",
    "shutdown_pools",
    "stop_on_signals",
    "Interrupted",
]

BACKENDS = ("serial", "processes", "dask")


_log = logging.getLogger("rpcheck.workers")


def default_jobs():
    """``os.cpu_count()`` (1 when unknown)."""
    return os.cpu_count() or 1


def usable_cores():
    """The cores this process may run on: its CPU affinity where the OS reports one, else ``os.cpu_count()``."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - macOS, Windows
        return default_jobs()


def useful_jobs(jobs=None, tasks=None, *, cores=None):
    """The worker-pool size of the policy (module docstring): ``min(jobs, cores, tasks)``, at least 1.

    ``jobs`` None means the cores; ``tasks`` None means unknown (no cap by tasks); ``cores`` defaults to
    :func:`usable_cores`. Returns ``(workers, note)``, ``note`` being one line when an explicit ``jobs`` is
    capped, else None.

    >>> useful_jobs(1000, 2, cores=2)
    (2, '`jobs` (1000) capped at 2 workers: 2 trials to run on 2 usable cores')
    >>> useful_jobs(None, 10**6, cores=8)
    (8, None)
    """
    cores = usable_cores() if cores is None else max(1, int(cores))
    want = cores if jobs is None else int(jobs)
    n = max(1, min(want, cores, want if tasks is None else max(1, int(tasks))))
    if jobs is None or n >= want:
        return n, None
    why = f"{cores} usable core{'s' if cores != 1 else ''}"
    if tasks is not None:
        why = f"{int(tasks):,} trial{'s' if tasks != 1 else ''} to run on {why}"
    return n, f"`jobs` ({want}) capped at {n} worker{'s' if n != 1 else ''}: {why}"


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
    def watch():
        while True:
            time.sleep(interval)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="rpcheck-parent-watch", daemon=True).start()


#: Seconds a worker keeps running after a SIGTERM while its parent lives (see :func:`_deferred_sigterm`).
SIGTERM_GRACE = 3.0


def _deferred_sigterm(grace=SIGTERM_GRACE):
    """Worker initializer: a SIGTERM ends the worker ``grace`` seconds later instead of at once (sooner if the
    parent dies: :func:`_watch_parent`). ``timeout`` and ``kill -TERM -PGID`` signal the whole process group;
    the parent then stops the run cleanly (:func:`stop_on_signals`) and shuts its pool down, which must
    happen before the workers vanish: workers killed by the same signal would break the pool under the
    parent's feet (Python 3.11's ``terminate_broken`` then fails on the chunks the parent has just cancelled,
    with ``InvalidStateError`` and a traceback). A SIGTERM from the pool itself (``Process.terminate`` of a
    broken pool) or from a user still ends the worker, ``grace`` seconds later. A Python-level handler, so
    no thread of the worker (BLAS and OpenMP threads included) takes the signal's default action."""
    armed = []

    def handler(signum, frame):
        if not armed:
            timer = threading.Timer(grace, os._exit, (128 + signum,))
            timer.daemon = True
            timer.start()
            armed.append(timer)

    signal.signal(signal.SIGTERM, handler)


#: the BLAS/OpenMP variables the trial pin also sets (one list: _worker._BLAS_ENV), plus numba's
_THREAD_ENV = (*_BLAS_ENV, "NUMBA_NUM_THREADS")


def _init_worker(parent_pid, threads):
    """Worker initializer: ignore SIGINT and watch the parent (module docstring, "Worker-pool policy"), and
    give each worker ``threads`` BLAS/OpenMP/numba threads (cpu_count // jobs), so ``jobs`` workers do not
    oversubscribe the cores. Measured on 2 cores: a checker trial took 10 ms single-threaded against
    25-1300 ms with default BLAS threads in 2 workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C to the process group: the parent decides
    _deferred_sigterm()  # likewise a SIGTERM to the group: the parent stops its pool first
    for name in _THREAD_ENV:  # libraries loaded after this point
        os.environ[name] = str(threads)
    try:  # libraries already loaded
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=threads)
    except ImportError:  # pragma: no cover - threadpoolctl is a declared dependency
        pass
    _watch_parent(parent_pid)
    _heap.FREEZE_IMPORT_HEAP = True  # rpcheck's own process: freeze after each theorem module's import


def _process_pool(jobs):
    jobs, _ = useful_jobs(jobs)  # never more workers than usable cores
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


def prestart(backend, jobs, modules, tasks=None):
    """Start the workers of the ``"processes"`` backend's pool now and have each import ``modules``, without
    waiting: a run calls this before it builds its cells, so that the workers' interpreter start-up and
    imports (about 2 s each) overlap the main process's serial set-up instead of following it.

    Returns the number of workers the run uses, :func:`useful_jobs` of ``jobs`` and ``tasks`` (the trials
    to run, an upper bound), logging the one-line note when it caps ``jobs``. Starts nothing for the other
    backends (the serial backend has no workers; a Dask cluster is the user's, or started when the run opens
    it)."""
    if backend == "serial":
        return jobs
    n, note = useful_jobs(jobs, tasks)
    if backend != "processes" and jobs is None:
        return None  # a Dask cluster's own size
    if note:
        _log.warning(note)
    if backend != "processes":
        return n
    pool = _process_pool(n)
    for _ in range(n):  # one each, typically: a worker takes its next task only when it is done with one
        pool.submit(_preload, tuple(modules))
    return n


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
#: faults. Measured on benchmarks/dask_scaling.py's four theorems at ci (1 worker, 2 cores): summed trial
#: time 28.6 s with it against 22.9 s without, and 21.3 s serial. The LocalCluster rpcheck starts unsets it
#: (``None`` unsets a variable in this config, per distributed's nanny); README says how to start the
#: workers of an existing cluster the same way.
_TRIM_KEY = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"


class Interrupted(KeyboardInterrupt):
    """A stop requested by a signal; ``signum`` is the signal (SIGINT raises a plain KeyboardInterrupt)."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


@contextmanager
def stop_on_signals(signums=(signal.SIGTERM,)):
    """Within the block, the signals ``signums`` (default SIGTERM) stop the main thread exactly like SIGINT:
    they raise :class:`Interrupted`, a KeyboardInterrupt, so the same clean-up runs (pending chunks
    cancelled, checkpoints kept, the pool shut down). Outside the main thread (where Python cannot install
    handlers) it does nothing. The previous handlers are restored on exit."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise Interrupted(signum)

    old = {}
    try:
        for s in signums:
            old[s] = signal.signal(s, handler)
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


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
        n, _ = useful_jobs(jobs)
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
            n, _ = useful_jobs(jobs)  # a LocalCluster on this machine: the same policy as the process pool
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
        # list at most 5 workers there by default (dask/distributed#9045, dask/distributed#9308), which would
        # size the chunks for 5 workers on any larger cluster; ``Client.nthreads()`` lists all of them in every
        # supported version
        n_workers = sum(int(n) for n in client.nthreads().values()) or (jobs or 1)
        yield PoolBackend(client.get_executor(pure=False), "dask", n_workers)
    finally:
        for obj in reversed(owned):
            obj.close()

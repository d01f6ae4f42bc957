"""Trial execution, the only code process and Dask workers import (kept light: numpy and the registry,
no pandas or scipy.stats, so a spawned worker starts fast).

See :mod:`rpcheck.engine.execute` ("Seeding") for the seeding convention."""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
import traceback
import zlib
from collections.abc import Mapping
from contextlib import contextmanager

import numpy as np

from .. import _heap
from ..errors import MemoryLimitError, RpcheckError, SolverError
from . import registry
from ._records import ChunkResult, OutcomeRow, TrialResult
from .theorem import Outcome, Theorem, TrialRecord

__all__ = [
    "OutcomeRow",
    "TrialResult",
    "TrialError",
    "canonical_json",
    "trial_seed_sequence",
    "trial_rng",
    "run_trial",
    "replay_trial",
    "one_blas_thread",
]


class TrialError(RuntimeError):
    """A trial raised an exception other than :class:`rpcheck.errors.SolverError`: a bug in the checker
    or in rpcheck. The message names the theorem, the parameters, the trial index and the root seed, and
    carries the original traceback (which does not survive pickling across processes otherwise).

    ``memory`` is True when the trial ran out of memory (``MemoryError``, or rpcheck's own
    :class:`rpcheck.errors.MemoryLimitError` refusing an allocation): the cell's parameters are too large for
    the machine, which the theorem's memory model (:func:`rpcheck.engine.theorem.trial_memory`) did not
    foresee; the command line reports it as a usage error."""

    def __init__(self, message, memory=False):
        super().__init__(message)
        self.memory = bool(memory)

    def __reduce__(self):  # keep ``memory`` across process boundaries
        return (type(self), (self.args[0], self.memory))


# OutcomeRow, TrialResult and the columnar ChunkResult live in rpcheck.engine._records (shared with the store).


# ------------------------------------------------------------------------------------- BLAS threads

#: Environment variables read by BLAS/OpenMP libraries when they are loaded. NUMBA_NUM_THREADS is not among
#: them: numba refuses a change once its threads are launched, and rpcheck's prange kernels (opt-in) do the
#: same arithmetic per row as the serial ones.
_BLAS_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")
_PIN = {"modules": -1, "controller": None}


def _controller():
    """A threadpoolctl controller of the BLAS/OpenMP libraries loaded now; rebuilt only when ``sys.modules``
    has grown (a native library is loaded by an import), since building one scans the process's libraries
    (about 8 ms) while applying a limit costs about 0.1 ms."""
    if len(sys.modules) != _PIN["modules"]:
        from threadpoolctl import ThreadpoolController

        _PIN["controller"] = ThreadpoolController()
        _PIN["modules"] = len(sys.modules)
    return _PIN["controller"]


@contextmanager
def one_blas_thread():
    """Run the enclosed trials with ONE BLAS/OpenMP thread, whatever the backend, the job count or the
    caller's settings, and restore the caller's settings afterwards.

    A multi-threaded BLAS splits some reductions (``x @ x``, ``A.T @ u``, norms) between threads, so its
    result depends on the thread count in the last bits; at the ``full`` profile's sizes that changed
    paul2014.lemma3.2's and thm3.6's statistics in the 15th digit between 1 and 2 OpenBLAS threads, so the serial
    backend (the caller's threads) would disagree with the process and Dask workers (one thread each). With the
    pin every backend computes every trial with the same arithmetic.
    Libraries first loaded inside the block (lazy imports in a trial) are loaded under the environment
    variables set here, so they start with one thread too; afterwards they are given the thread count they
    would have had (the caller's variable, else the number of cores), so the caller's process is left as it
    would be without rpcheck.
    """
    ctl = _controller()
    known = {lib.filepath for lib in ctl.lib_controllers}
    saved = {k: os.environ.get(k) for k in _BLAS_ENV}
    os.environ.update({k: "1" for k in _BLAS_ENV})
    try:
        with ctl.limit(limits=1):
            yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        if len(sys.modules) != _PIN["modules"]:
            for lib in _controller().lib_controllers:
                if lib.filepath not in known:  # loaded inside the block, with one thread
                    var = {"openblas": "OPENBLAS_NUM_THREADS", "mkl": "MKL_NUM_THREADS",
                           "blis": "BLIS_NUM_THREADS"}.get(lib.internal_api, "OMP_NUM_THREADS")
                    want = saved.get(var) or saved.get("OMP_NUM_THREADS")
                    try:
                        lib.set_num_threads(max(1, int(want)) if want else (os.cpu_count() or 1))
                    except (ValueError, TypeError):  # a malformed variable: leave the library's count as is
                        pass


# --------------------------------------------------------------------------------------------- seeding


def _jsonable(obj):
    if isinstance(obj, Mapping):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [_jsonable(v) for v in obj.tolist()]
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if obj is None or isinstance(obj, bool | int | float | str):
        return obj
    raise RpcheckError(
        f"parameter value {obj!r} (type {type(obj).__name__}) is not JSON-serialisable; grid parameters "
        "must be numbers, strings, booleans, None or lists of them."
    )


def canonical_json(params):
    """Canonical JSON of a parameter dict: sorted keys, no spaces, numpy scalars as Python numbers.

    >>> canonical_json({"r": np.int64(64), "eps": 0.5, "kind": "gaussian"})
    '{"eps":0.5,"kind":"gaussian","r":64}'
    """
    return json.dumps(_jsonable(params), sort_keys=True, separators=(",", ":"), allow_nan=True)


def _crc(s):
    return zlib.crc32(s.encode("utf-8"))


def trial_seed_sequence(theorem_id, params, trial, seed):
    """The ``SeedSequence`` of one trial (see the module docstring). ``params`` is a dict or its canonical
    JSON string.

    >>> ss = trial_seed_sequence("x.y", {"n": 3}, 7, seed=0)
    >>> ss.entropy, len(ss.spawn_key)
    (0, 3)
    """
    canonical = params if isinstance(params, str) else canonical_json(params)
    return np.random.SeedSequence(seed, spawn_key=(_crc(theorem_id), _crc(canonical), int(trial)))


def trial_rng(theorem_id, params, trial, seed):
    """``np.random.default_rng(trial_seed_sequence(...))``."""
    return np.random.default_rng(trial_seed_sequence(theorem_id, params, trial, seed))


# ------------------------------------------------------------------------ the seeds of a chunk, at once
#
# Building ``SeedSequence(seed, spawn_key=(a, b, i))`` and seeding a PCG64 from it costs ~18 us per trial
# (measured), a quarter of the whole cost of the cheapest trials. The trials of a chunk share the root seed
# and the first two spawn-key words, and NumPy's SeedSequence (O'Neill's seed_seq_fe hash, as in NumPy's
# ``bit_generator.pyx``) absorbs its entropy words in order: the entropy ``(seed words, padded to the pool
# size; a, b, i)`` differs between the trials only in its last word. So the pool of
# ``SeedSequence(seed, spawn_key=(a, b))`` is the common state before that word; absorbing ``i`` and the
# ``generate_state(4, uint64)`` that seeds PCG64 are a few uint32 multiply/xor-shift steps, vectorised here
# over the chunk. Each trial still gets its own ``Generator(PCG64(...))``, seeded with exactly the words its
# real SeedSequence would give; its ``bit_generator.seed_seq`` builds that real SeedSequence on first use
# (``spawn``, ``entropy``, pickling), so trials that spawn child streams see no difference. Every chunk checks
# its first trial against the real SeedSequence and falls back to it on any mismatch (another NumPy).

_M32 = 0xFFFFFFFF
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_MULT_L, _MIX_MULT_R, _XSHIFT = 0xCA01F9DD, 0x4973F715, 16


class _TrialSeedSequence(np.random.bit_generator.ISpawnableSeedSequence):
    """The SeedSequence of one trial with its PCG64 seed words precomputed (see above); anything else is
    answered by the real ``SeedSequence(seed, spawn_key=key)``, built on first use."""

    def __init__(self, seed, key, words):
        self._seed, self._key, self._words, self._real = seed, key, words, None

    def _ss(self):
        if self._real is None:
            self._real = np.random.SeedSequence(self._seed, spawn_key=self._key)
        return self._real

    def generate_state(self, n_words, dtype=np.uint32):
        if n_words == 4 and (dtype is np.uint64 or np.dtype(dtype) == np.uint64):
            return self._words.copy()
        return self._ss().generate_state(n_words, dtype)

    def spawn(self, n_children):
        return self._ss().spawn(n_children)

    def __getattr__(self, name):  # entropy, spawn_key, pool, pool_size, n_children_spawned, state
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._ss(), name)

    def __reduce__(self):
        return self._ss().__reduce__()

    def __repr__(self):
        return repr(self._ss())


def _n_words(n):
    return max(1, (int(n).bit_length() + 31) // 32)


def _chunk_seed_words(theorem_id, canonical, seed, start, stop):
    """``(stop - start, 4)`` uint64: ``trial_seed_sequence(theorem_id, canonical, i, seed).generate_state(4,
    np.uint64)`` for ``i`` in ``start .. stop-1``, vectorised (see above); None when the shortcut does not
    apply (a trial index of more than 32 bits)."""
    if start < 0 or stop > 2**32 or stop <= start:
        return None
    key = (_crc(theorem_id), _crc(canonical))
    prefix = np.random.SeedSequence(seed, spawn_key=key)
    pool = [int(x) for x in prefix.pool]
    size = len(pool)
    # words absorbed before the trial index: the root seed's (padded to the pool size), then a and b
    n_before = max(_n_words(seed), size) + len(key)
    h = _INIT_A
    for _ in range(size + size * (size - 1) + size * (n_before - size)):
        h = (h * _MULT_A) & _M32
    u = np.uint64
    m32, xs = u(_M32), u(_XSHIFT)
    idx = np.arange(start, stop, dtype=np.uint64)
    mixed = []
    for d in range(size):  # absorb the index word into every pool word (hashmix, then mix)
        v = idx ^ u(h)
        h = (h * _MULT_A) & _M32
        v = (v * u(h)) & m32
        v ^= v >> xs
        r = (u(_MIX_MULT_L) * u(pool[d]) - u(_MIX_MULT_R) * v) & m32
        r ^= r >> xs
        mixed.append(r)
    hb = _INIT_B
    words = []
    for k in range(8):  # generate_state(4, uint64): 8 uint32 words cycled from the pool
        v = mixed[k % size] ^ u(hb)
        hb = (hb * _MULT_B) & _M32
        v = (v * u(hb)) & m32
        v ^= v >> xs
        words.append(v)
    out = np.stack([words[2 * j] | (words[2 * j + 1] << u(32)) for j in range(4)], axis=1)
    check = np.random.SeedSequence(seed, spawn_key=key + (start,)).generate_state(4, np.uint64)
    if not np.array_equal(out[0], check):
        return None
    return out


def _chunk_rngs(theorem_id, canonical, seed, start, stop):
    """The Generators of trials ``start .. stop-1`` of a cell, one at a time: each equal, draw for draw, to
    ``trial_rng(theorem_id, canonical, i, seed)``."""
    words = _chunk_seed_words(theorem_id, canonical, seed, start, stop)
    if words is None:
        for i in range(start, stop):
            yield trial_rng(theorem_id, canonical, i, seed)
        return
    a, b = _crc(theorem_id), _crc(canonical)
    gen, pcg = np.random.Generator, np.random.PCG64
    for t, i in enumerate(range(start, stop)):
        yield gen(pcg(_TrialSeedSequence(seed, (a, b, i), words[t])))


# --------------------------------------------------------------------------------------- trial execution


def _resolve(theorem_id, module=None):
    th = registry.registered(theorem_id)
    if th is None and module:
        importlib.import_module(module)
        th = registry.registered(theorem_id)
        if th is not None and _heap.FREEZE_IMPORT_HEAP:
            _heap.freeze_import_heap()
    if th is None:
        try:
            from .plugins import resolve  # built-in checkers and installed entry points (`rpcheck.theorems`)

            th = resolve(theorem_id)
        except RpcheckError:
            raise RpcheckError(
                f"theorem {theorem_id!r} is not registered in this process (importing {module!r} did not "
                "register it). Process and Dask workers find theorems by id: the module defining the "
                "theorem's trial function must call register() at import."
            ) from None
    return th


def _preload(modules):
    """Import ``modules`` (the modules registering a run's theorems) in a worker process before its first
    chunk, while the main process builds the run's cells (:func:`rpcheck.engine.backends.prestart`). An
    import that fails here fails again, with the trial's context, when a chunk needs the module."""
    for m in modules:
        importlib.import_module(m)
    if _heap.FREEZE_IMPORT_HEAP:
        _heap.freeze_import_heap()
    return len(modules)


def _error_context(theorem_id, canonical, i, seed):
    return f"trial {i} of theorem {theorem_id!r} with params {canonical} (root seed {seed})"


def _execute_trial(th, params, canonical, i, seed, *, keep_artifacts=False, rng=None):
    """Run one trial; returns (TrialResult, TrialRecord or None). ``rng``: the trial's Generator when the
    caller built it (:func:`_chunk_rngs`), else :func:`trial_rng`."""
    if rng is None:
        rng = trial_rng(th.id, canonical, i, seed)
    t0 = time.perf_counter()
    try:
        rec = th.trial(params, rng)
    except SolverError as exc:
        extra = ", ".join(f"{k}={getattr(exc, k)}" for k in ("status", "solver") if getattr(exc, k, None) is not None)
        msg = f"{type(exc).__name__}: {exc}" + (f" ({extra})" if extra else "")
        return TrialResult(i, "solver_error", msg, time.perf_counter() - t0, (), {}), None
    except Exception as exc:
        ctx = _error_context(th.id, canonical, i, seed)
        tb = traceback.format_exc()
        memory = isinstance(exc, MemoryError | MemoryLimitError)
        raise TrialError(f"{ctx} raised {type(exc).__name__}: {exc}\n--- original traceback ---\n{tb}", memory) from exc
    seconds = time.perf_counter() - t0
    if not isinstance(rec, TrialRecord):
        raise TrialError(
            f"{_error_context(th.id, canonical, i, seed)}: the trial function {_qualname(th.trial)} of theorem "
            f"{th.id!r} returned {type(rec).__name__} ({_short(rec)}), not a TrialRecord."
        )
    try:
        outs = _outcome_rows(rec.outcomes, th.variant_names)
    except (AttributeError, TypeError, ValueError):
        outs = _outcome_rows_checked(th, rec, canonical, i, seed)
    try:
        diag = {str(k): float(val) for k, val in rec.diagnostics.items()}
    except (TypeError, ValueError):
        for k, val in rec.diagnostics.items():
            try:
                float(val)
            except (TypeError, ValueError):
                raise TrialError(
                    f"{_error_context(th.id, canonical, i, seed)}: diagnostic {k!r} = {val!r} is not a scalar."
                ) from None
        raise
    return TrialResult(i, "ok", "", seconds, outs, diag), (rec if keep_artifacts else None)


_row = tuple.__new__


def _outcome_rows(outcomes, names):
    """The happy path of :func:`_outcome_rows_checked`: one OutcomeRow per variant, same conversions. Any
    irregularity (a missing variant, not an Outcome, a field that does not convert) raises, and the caller
    then redoes the checks with their messages."""
    get = outcomes.get
    rows = []
    for name in names:
        o = get(name)
        if o.__class__ is not Outcome:
            raise TypeError
        rows.append(_row(OutcomeRow, (bool(o.holds), float(o.statistic), float(o.bound), bool(o.vacuous),
                                      bool(o.undetermined))))
    return tuple(rows)


def _outcome_rows_checked(th, rec, canonical, i, seed):
    outs = []
    for v in th.variants:
        o = rec.outcomes.get(v.name)
        if not isinstance(o, Outcome):
            raise TrialError(
                f"{_error_context(th.id, canonical, i, seed)} returned "
                + (f"{type(o).__name__} ({_short(o)})" if o is not None else "no Outcome")
                + f" for variant {v.name!r}, not an Outcome (outcomes given: {sorted(rec.outcomes)})."
            )
        try:
            outs.append(
                OutcomeRow(bool(o.holds), float(o.statistic), float(o.bound), bool(o.vacuous), bool(o.undetermined))
            )
        except (TypeError, ValueError) as exc:
            raise TrialError(
                f"{_error_context(th.id, canonical, i, seed)}: the Outcome of variant {v.name!r} is not "
                f"(bool, float, float, bool, bool): {o!r} ({exc})."
            ) from None
    return tuple(outs)


def _qualname(fn):
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def _short(obj, limit=80):
    r = repr(obj)
    return r if len(r) <= limit else r[: limit - 3] + "..."


def _run_chunk(theorem_id, module, canonical, start, stop, seed):
    """Worker entry point: trials ``start .. stop-1`` of one cell, as a :class:`~rpcheck.engine.store.ChunkResult`
    (a sequence of their TrialResults, sent as columns). Arguments are ids only."""
    th = theorem_id if isinstance(theorem_id, Theorem) else _resolve(theorem_id, module)
    params = json.loads(canonical)
    rngs = _chunk_rngs(th.id, canonical, seed, start, stop)
    with one_blas_thread():
        recs = [_execute_trial(th, params, canonical, i, seed, rng=rng)[0]
                for i, rng in zip(range(start, stop), rngs)]
    return ChunkResult.from_records(recs, len(th.variant_names))  # columns: one pickle pass (store.ChunkResult)


def run_trial(theorem, params, trial, seed, module=None):
    """Run one trial in this process; returns ``(TrialResult, TrialRecord)`` (artifacts included).
    ``module``: imported first if ``theorem`` is an id not yet registered (a worker process, as for
    :func:`_run_chunk`)."""
    th = theorem if isinstance(theorem, Theorem) else _resolve(theorem, module)
    canonical = params if isinstance(params, str) else canonical_json(params)
    with one_blas_thread():
        return _execute_trial(th, json.loads(canonical), canonical, int(trial), int(seed), keep_artifacts=True)


def replay_trial(theorem_id, params, trial, seed):
    """Recompute trial ``trial`` of cell ``params`` under root seed ``seed``: its :class:`TrialRecord`
    (with artifacts), bit-identical to the run's (same code, same BLAS). Solver errors are re-raised."""
    th = theorem_id if isinstance(theorem_id, Theorem) else _resolve(theorem_id)
    canonical = params if isinstance(params, str) else canonical_json(params)
    with one_blas_thread():
        return th.trial(json.loads(canonical), trial_rng(th.id, canonical, int(trial), int(seed)))

"""Trial execution, the only code process and Dask workers import (kept light: numpy and the registry,
no pandas or scipy.stats, so a spawned worker starts fast).

See :mod:`rpcheck.engine.runner` for the seeding convention."""

from __future__ import annotations

import json
import time
import traceback
import zlib
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from ..errors import RpcheckError, SolverError
from . import registry
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
]


class TrialError(RuntimeError):
    """A trial raised an exception other than :class:`rpcheck.errors.SolverError`: a bug in the checker
    or in rpcheck. The message names the theorem, the parameters, the trial index and the root seed, and
    carries the original traceback (which does not survive pickling across processes otherwise)."""


# ------------------------------------------------------------------------------------- typed records


class OutcomeRow(NamedTuple):
    """The outcome of one variant in one trial, as plain scalars (what crosses process boundaries)."""

    holds: bool
    statistic: float
    bound: float
    vacuous: bool
    undetermined: bool = False


class TrialResult(NamedTuple):
    """One executed trial.

    i : int
        Trial index in its cell.
    status : {"ok", "solver_error"}
    error : str
        The solver error message ("" when ok).
    seconds : float
    outcomes : tuple of OutcomeRow
        In the theorem's variant order; empty for a solver error.
    diagnostics : dict name -> float
    """

    i: int
    status: str
    error: str
    seconds: float
    outcomes: tuple
    diagnostics: dict

    @property
    def ok(self):
        return self.status == "ok"

    def to_json(self):
        """A JSON-able list (floats round-trip exactly through ``json`` with ``allow_nan``)."""
        return [self.i, self.status, self.error, self.seconds, [list(o) for o in self.outcomes], self.diagnostics]

    @classmethod
    def from_json(cls, obj):
        i, status, error, seconds, outs, diag = obj
        rows = tuple(OutcomeRow(bool(h), float(s), float(b), bool(v), bool(u)) for h, s, b, v, u in outs)
        return cls(int(i), str(status), str(error), float(seconds), rows, {str(k): float(x) for k, x in diag.items()})


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


# --------------------------------------------------------------------------------------- trial execution


def _resolve(theorem_id, module=None):
    th = registry._REGISTRY.get(theorem_id)
    if th is None and module:
        import importlib

        importlib.import_module(module)
        th = registry._REGISTRY.get(theorem_id)
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


def _error_context(theorem_id, canonical, i, seed):
    return f"trial {i} of theorem {theorem_id!r} with params {canonical} (root seed {seed})"


def _execute_trial(th, params, canonical, i, seed, *, keep_artifacts=False):
    """Run one trial; returns (TrialResult, TrialRecord or None)."""
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
        raise TrialError(f"{ctx} raised {type(exc).__name__}: {exc}\n--- original traceback ---\n{tb}") from exc
    seconds = time.perf_counter() - t0
    if not isinstance(rec, TrialRecord):
        raise TrialError(
            f"{_error_context(th.id, canonical, i, seed)}: the trial function {_qualname(th.trial)} of theorem "
            f"{th.id!r} returned {type(rec).__name__} ({_short(rec)}), not a TrialRecord."
        )
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
    diag = {}
    for k, val in rec.diagnostics.items():
        try:
            diag[str(k)] = float(val)
        except (TypeError, ValueError):
            raise TrialError(
                f"{_error_context(th.id, canonical, i, seed)}: diagnostic {k!r} = {val!r} is not a scalar."
            ) from None
    return TrialResult(i, "ok", "", seconds, tuple(outs), diag), (rec if keep_artifacts else None)


def _qualname(fn):
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def _short(obj, limit=80):
    r = repr(obj)
    return r if len(r) <= limit else r[: limit - 3] + "..."


def _run_chunk(theorem_id, module, canonical, start, stop, seed):
    """Worker entry point: trials ``start .. stop-1`` of one cell. Arguments are ids only."""
    th = theorem_id if isinstance(theorem_id, Theorem) else _resolve(theorem_id, module)
    params = json.loads(canonical)
    return [_execute_trial(th, params, canonical, i, seed)[0] for i in range(start, stop)]


def run_trial(theorem, params, trial, seed):
    """Run one trial in this process; returns ``(TrialResult, TrialRecord)`` (artifacts included)."""
    th = theorem if isinstance(theorem, Theorem) else _resolve(theorem)
    canonical = params if isinstance(params, str) else canonical_json(params)
    return _execute_trial(th, json.loads(canonical), canonical, int(trial), int(seed), keep_artifacts=True)


def replay_trial(theorem_id, params, trial, seed):
    """Recompute trial ``trial`` of cell ``params`` under root seed ``seed``: its :class:`TrialRecord`
    (with artifacts), bit-identical to the run's (same code, same BLAS). Solver errors are re-raised."""
    th = theorem_id if isinstance(theorem_id, Theorem) else _resolve(theorem_id)
    canonical = params if isinstance(params, str) else canonical_json(params)
    return th.trial(json.loads(canonical), trial_rng(th.id, canonical, int(trial), int(seed)))

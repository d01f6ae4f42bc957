"""Counterexamples of violated deterministic claims: save, load, replay.

A counterexample file (``counterexamples/<theorem>__<variant>__cell<k>.npz``, written with
``allow_pickle=False``) holds

- ``artifact.<name>``: the trial's artifacts (data instance, labels, sketch matrix, ...) as arrays;
  a scipy.sparse artifact is stored as ``artifact.<name>.{data,indices,indptr,shape}`` (CSR);
- ``meta``: a 0-d string array with JSON: theorem id, variant, cell index, canonical parameters, root
  seed, spawn key, trial index, the recorded outcomes and diagnostics (as the run computed them in its
  worker), whether the trial recomputed after the run reproduced them (``reproduced``), and where it was
  recomputed (``replayed_in``: the main process, or a worker process for trials of at least
  ``rpcheck.engine.replays.REPLAY_IN_WORKERS_SECONDS``).

:func:`replay` recomputes the trial from its seed alone and reports whether the recomputed outcomes and
diagnostics match the saved ones (exactly, and up to a relative 1e-9).
"""

from __future__ import annotations

import io
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import RpcheckError
from ._worker import OutcomeRow, run_trial, trial_seed_sequence
from .plugins import resolve
from .store import atomic_write_bytes
from .validate import check_params

__all__ = ["build_counterexample", "write_counterexample", "load_counterexample", "replay", "Counterexample",
           "ReplayResult"]  # fmt: skip

FORMAT_VERSION = 2  # 2: meta "reproduced" + "replayed_in" (1: "reproduced_in_main_process")


def _safe(s):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", s)


def _named(theorem, result):
    """``{variant name: OutcomeRow}`` of a TrialResult (empty for a solver error)."""
    return dict(zip((v.name for v in theorem.variants), result.outcomes))


def _outcomes(named):
    return {k: o._asdict() for k, o in named.items()}


def build_counterexample(theorem, variant, cell_index, canonical, trial, seed, worker_record, rerun,
                         replayed_in="the main process"):  # fmt: skip
    """Assemble ``(relative path, (arrays, meta))`` for the worst violating trial of a cell.

    ``worker_record`` is the trial's TrialResult from the run; ``rerun`` is the same trial recomputed
    after the run (``run_trial(...)``, ``(TrialResult, TrialRecord)``), whose artifacts are saved;
    ``replayed_in`` says where it was recomputed ("the main process" or "a worker process")."""
    rd2, rec = rerun
    ss = trial_seed_sequence(theorem.id, canonical, trial, seed)
    arrays = {}
    for name, val in (rec.artifacts if rec is not None else {}).items():
        import scipy.sparse as sp  # lazy: `import rpcheck.engine` stays free of scipy

        if sp.issparse(val):
            m = sp.csr_matrix(val)
            arrays[f"artifact.{name}.data"] = m.data
            arrays[f"artifact.{name}.indices"] = m.indices
            arrays[f"artifact.{name}.indptr"] = m.indptr
            arrays[f"artifact.{name}.shape"] = np.asarray(m.shape)
        else:
            a = np.asarray(val)
            if a.dtype == object:
                a = np.asarray(json.dumps(val, default=str))
            arrays[f"artifact.{name}"] = a
    saved = _named(theorem, worker_record)
    reproduced = rd2.status == worker_record.status and _same(
        (_named(theorem, rd2), rd2.diagnostics), (saved, worker_record.diagnostics), exact=True
    )
    meta = {
        "format": FORMAT_VERSION,
        "theorem": theorem.id,
        "module": theorem.trial.__module__,
        "variant": variant,
        "cell": int(cell_index),
        "params": canonical,
        "seed": int(seed),
        "spawn_key": [int(k) for k in ss.spawn_key],
        "trial": int(trial),
        "outcomes": _outcomes(saved),
        "diagnostics": dict(worker_record.diagnostics),
        "reproduced": bool(reproduced),
        "replayed_in": str(replayed_in),
        "replay": f"rpcheck.engine.replay(path)  # or replay_trial({theorem.id!r}, params, {trial}, {seed})",
    }
    rel = f"counterexamples/{_safe(theorem.id)}__{_safe(variant)}__cell{int(cell_index)}.npz"
    return rel, (arrays, meta)


def write_counterexample(path, arrays, meta):
    """Write a counterexample ``.npz`` atomically (no pickles)."""
    buf = io.BytesIO()
    np.savez_compressed(buf, meta=np.asarray(json.dumps(meta, allow_nan=True)), **arrays)
    return atomic_write_bytes(path, buf.getvalue())


@dataclass(frozen=True)
class Counterexample:
    """A loaded counterexample file: ``meta`` (dict) and ``artifacts`` (name -> ndarray or sparse)."""

    path: Path
    meta: dict
    artifacts: dict = field(repr=False)

    @property
    def theorem(self):
        return self.meta["theorem"]

    @property
    def params(self):
        return json.loads(self.meta["params"])


def load_counterexample(path):
    """Load a counterexample file written by the engine (``allow_pickle=False``)."""
    path = Path(path)
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["meta"][()]))
        raw = {k: z[k] for k in z.files if k != "meta"}
    artifacts, sparse = {}, {}
    for k, v in raw.items():
        name = k[len("artifact.") :]
        m = re.match(r"^(.*)\.(data|indices|indptr|shape)$", name)
        if m and all(f"artifact.{m.group(1)}.{p}" in raw for p in ("data", "indices", "indptr", "shape")):
            sparse.setdefault(m.group(1), {})[m.group(2)] = v
        else:
            artifacts[name] = v
    for name, parts in sparse.items():
        import scipy.sparse as sp

        artifacts[name] = sp.csr_matrix((parts["data"], parts["indices"], parts["indptr"]), shape=tuple(parts["shape"]))
    return Counterexample(path, meta, artifacts)


def _close(a, b, exact):
    if isinstance(a, bool) or isinstance(b, bool):
        return bool(a) == bool(b)
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if exact:
        return a == b
    return a == b or abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _same(a, b, exact):
    """Compare two ``(outcomes {name: OutcomeRow}, diagnostics)`` pairs."""
    (o1, d1), (o2, d2) = a, b
    if set(o1) != set(o2) or set(d1) != set(d2):
        return False
    for k in o1:
        if not all(_close(x, y, exact) for x, y in zip(o1[k], o2[k])):
            return False
    return all(_close(d1[k], d2[k], exact) for k in d1)


@dataclass(frozen=True)
class ReplayResult:
    """Result of :func:`replay`.

    matches : bool
        Recomputed outcomes and diagnostics are bit-identical to the saved ones.
    matches_close : bool
        They agree to a relative 1e-9 (differences of that size come from a different BLAS or CPU).
    still_violated : bool
        The variant's claim fails again on the recomputed trial.
    saved, recomputed : dict
        ``{"outcomes": ..., "diagnostics": ...}`` of each.
    """

    path: Path
    theorem: str
    variant: str
    params: dict
    trial: int
    seed: int
    matches: bool
    matches_close: bool
    still_violated: bool
    saved: dict = field(repr=False)
    recomputed: dict = field(repr=False)
    record: Any = field(default=None, repr=False)

    def to_dict(self):
        """Plain dict of the comparison (JSON-serialisable; the recomputed TrialRecord is left out)."""
        return {
            "path": str(self.path),
            "theorem": self.theorem,
            "variant": self.variant,
            "params": self.params,
            "trial": self.trial,
            "seed": self.seed,
            "matches": self.matches,
            "matches_close": self.matches_close,
            "still_violated": self.still_violated,
            "saved": self.saved,
            "recomputed": self.recomputed,
        }


def replay(path):
    """Recompute a saved counterexample from its seed and compare with what was saved.

    Returns
    -------
    ReplayResult
    """
    ce = load_counterexample(path)
    m = ce.meta
    # The file is data someone may have sent: its theorem id is resolved through the registry and installed
    # entry points only; the module name it records is never imported.
    th = resolve(m["theorem"])
    try:
        params = json.loads(m["params"])
    except (TypeError, ValueError):
        raise RpcheckError(f"the `params` stored in {str(path)!r} are not canonical JSON of a dict.") from None
    # stored parameters pass the theorem's domains, constraints and memory model, exactly like --set
    check_params(th, params, what=f"the `params` stored in {str(path)!r}")
    rd, rec = run_trial(th, m["params"], m["trial"], m["seed"])
    saved = {
        k: OutcomeRow(o["holds"], o["statistic"], o["bound"], o["vacuous"], o.get("undetermined", False))
        for k, o in m["outcomes"].items()
    }
    named = _named(th, rd)
    ok = rd.ok
    mine = named.get(m["variant"])
    still = ok and mine is not None and not mine.holds and not mine.vacuous and not mine.undetermined
    pair_new, pair_saved = (named, rd.diagnostics), (saved, m["diagnostics"])
    return ReplayResult(
        path=Path(path),
        theorem=m["theorem"],
        variant=m["variant"],
        params=json.loads(m["params"]),
        trial=int(m["trial"]),
        seed=int(m["seed"]),
        matches=ok and _same(pair_new, pair_saved, exact=True),
        matches_close=ok and _same(pair_new, pair_saved, exact=False),
        still_violated=bool(still),
        saved={"outcomes": m["outcomes"], "diagnostics": m["diagnostics"]},
        recomputed={
            "outcomes": _outcomes(named) if ok else {},
            "diagnostics": rd.diagnostics,
            "status": rd.status,
        },
        record=rec,
    )

"""The records of executed trials and their columnar form: what crosses process boundaries.

:class:`TrialResult` (one trial; its :class:`OutcomeRow` per variant) is built in the worker
(:mod:`rpcheck.engine._worker`); :class:`ChunkResult` carries a finished chunk of them back to the parent as
NumPy columns, and :mod:`rpcheck.engine.store` writes the same columns to the checkpoint files. NumPy only, so
both the worker and the store import it without importing each other."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["OutcomeRow", "TrialResult", "ChunkResult", "outcome_columns", "diag_columns"]


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


_STATUS = ("ok", "solver_error")
_FIELDS = (("holds", bool), ("statistic", np.float64), ("bound", np.float64), ("vacuous", bool),
           ("undetermined", bool))  # fmt: skip


def outcome_columns(records, n_variants):
    """The trial and outcome columns of a list of TrialResults, as NumPy arrays: ``i`` (int64), ``status``
    (uint8, index into ``("ok", "solver_error")``), ``seconds`` (float64) and, per field of
    :class:`OutcomeRow`, a (trials, variants) array (a trial with a solver error has no outcomes: NaN /
    False there). Computed once per finished chunk: the checkpoint file and the parent's aggregate
    (``aggregate._CellAggregate.ingest``) both use it."""
    n, v = len(records), n_variants
    cols = {
        "i": np.fromiter((r.i for r in records), np.int64, n),
        "status": np.fromiter((_STATUS.index(r.status) for r in records), np.uint8, n),
        "seconds": np.fromiter((r.seconds for r in records), np.float64, n),
    }
    # one pass over the outcomes of the ok trials, as a (trials, variants, field) float64 array: the
    # statistics and bounds are Python floats (exact), the flags Python bools (1.0 / 0.0, read back as != 0)
    ok = [t for t, r in enumerate(records) if r.status == "ok"]
    fields = None
    if ok and v:
        # a flat list: NumPy converts it about 2.5x faster than a list of 5-tuples (0.8 vs 2.2 us a trial
        # of 4 variants, shi2012.fig1), same values
        fields = np.array([x for t in ok for o in records[t].outcomes for x in o], dtype=np.float64)
        fields = fields.reshape(len(ok), v, len(_FIELDS))
    for k, (f, dt) in enumerate(_FIELDS):
        col = np.full((n, v), np.nan if dt is np.float64 else False, dtype=dt)
        if fields is not None:
            col[ok] = fields[:, :, k] if dt is np.float64 else fields[:, :, k] != 0.0
        cols[f] = col
    return cols


def diag_columns(records):
    """The diagnostics of a list of TrialResults as columns ``(names, value, present)``: ``names`` sorted,
    ``value[t, m]`` diagnostic ``names[m]`` of trial ``t`` where ``present[t, m]`` (NaN elsewhere)."""
    n = len(records)
    diags = [r.diagnostics for r in records]
    names = sorted({k for d in diags for k in d})
    m = len(names)
    if n and m and all(len(d) == m for d in diags):  # every trial has every diagnostic (the usual case)
        value = np.array([[d[k] for k in names] for d in diags], dtype=np.float64).reshape(n, m)
        present = np.ones((n, m), dtype=bool)
    else:
        index = {k: j for j, k in enumerate(names)}
        value = np.full((n, m), np.nan)
        present = np.zeros((n, m), dtype=bool)
        for t, d in enumerate(diags):
            for k, x in d.items():
                value[t, index[k]] = x
                present[t, index[k]] = True
    return (np.array(names, dtype=str) if names else np.zeros(0, dtype="<U1")), value, present


class ChunkResult:
    """A finished chunk as columns: what a worker sends back to the parent.

    A list of TrialResults is pickled object by object: at 16,384 trials of 30-100 us each that cost 13-28
    us a trial (dumps in the worker, loads in the parent), about as much as the trials. Columns pickle in
    one pass. Attributes: ``columns`` (:func:`outcome_columns`), ``error`` (str array), ``diag_names``,
    ``diag_value``, ``diag_present`` (:func:`diag_columns`). ``len`` and indexing give the chunk's
    TrialResults, rebuilt on demand and equal to the worker's (the parent keeps a few: the trial sample and
    the first and worst failures); the diagnostics come back in sorted-name order, as from a checkpoint.
    """

    __slots__ = ("columns", "error", "diag_names", "diag_value", "diag_present")

    def __init__(self, columns, error, diag_names, diag_value, diag_present):
        self.columns, self.error = columns, error
        self.diag_names, self.diag_value, self.diag_present = diag_names, diag_value, diag_present

    @classmethod
    def from_records(cls, records, n_variants, columns=None):
        """The columns of a list of TrialResults (``columns``: their :func:`outcome_columns`, when known)."""
        error = np.array([r.error for r in records], dtype=str) if records else np.zeros(0, dtype="<U1")
        cols = columns if columns is not None else outcome_columns(records, n_variants)
        return cls(cols, error, *diag_columns(records))

    def __len__(self):
        return int(self.columns["i"].shape[0])

    def __getitem__(self, t):
        n = len(self)
        if not isinstance(t, int | np.integer) or not -n <= t < n:
            raise IndexError(f"trial position {t!r} out of range for a chunk of {n}")
        t = int(t) % n if n else t
        c = self.columns
        status = _STATUS[int(c["status"][t])]
        outs = ()
        if status == "ok":
            outs = tuple(
                OutcomeRow(bool(c["holds"][t, j]), float(c["statistic"][t, j]), float(c["bound"][t, j]),
                           bool(c["vacuous"][t, j]), bool(c["undetermined"][t, j]))  # fmt: skip
                for j in range(c["holds"].shape[1])
            )
        diag = {str(k): float(self.diag_value[t, m]) for m, k in enumerate(self.diag_names.tolist())
                if self.diag_present[t, m]}  # fmt: skip
        return TrialResult(int(c["i"][t]), status, str(self.error[t]), float(c["seconds"][t]), outs, diag)

    def __iter__(self):
        return (self[t] for t in range(len(self)))

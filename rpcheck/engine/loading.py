"""Run results and their files: :class:`RunResult` (what :func:`rpcheck.engine.run` returns, with
:meth:`RunResult.save`), :class:`CellOutcome` / :class:`VariantCount` (what :func:`rpcheck.engine.run_cell`
returns), the table schemas, and reading a results directory back (:func:`load_results`,
:func:`load_trials`). Frozen result types with methods, in the style of ``scipy.stats._result_classes``.

``rpcheck.results`` re-exports this module's public names (compatibility).
"""

from __future__ import annotations

import html as _html
import io
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import RpcheckError
from ..stats import ROLES, BinomialCount, ConfidenceInterval, Verdict
from .counterexample import write_counterexample
from .store import (
    CheckpointStore,
    atomic_write_bytes,
    atomic_write_text,
    ensure_results_dir,
    read_json,
    read_table,
    write_concurrently,
    write_table,
)

if TYPE_CHECKING:  # annotations only: pandas is imported where a table is built or read (keeps `rpcheck list` light)
    import pandas as pd

__all__ = [
    "RunResult",
    "CellOutcome",
    "VariantCount",
    "ConfidenceInterval",
    "BinomialCount",
    "CELL_COLUMNS",
    "CELL_EXTRA_COLUMNS",
    "TRIAL_COLUMNS",
    "load_results",
    "load_trials",
]

#: Columns of ``RunResult.cells`` in order (ARCHITECTURE.md; the ``p_<name>`` parameter columns follow
#: ``params``). Extra columns added by the engine come after these.
CELL_COLUMNS = (
    "theorem", "paper", "variant", "mode", "cell", "params",
    "trials", "evaluated", "failures", "vacuous_trials", "solver_errors", "failure_rate",
    "ci_low", "ci_high", "confidence_level", "promised", "pvalue", "alpha_adjusted",
    "verdict", "expected", "as_expected", "vacuous_reason",
    "stat_q05", "stat_q50", "stat_q95", "stat_max", "bound_q50", "slack_min",
    "seconds", "counterexample", "assumed",
)  # fmt: skip
#: Extra cell columns (extensions of the schema).
CELL_EXTRA_COLUMNS = (
    "pvalue_holds", "alpha_adjusted_holds", "stopped_early", "seed", "decide_info", "role", "claim", "undetermined",
    "expected_declared", "r_prescribed",
)  # fmt: skip
#: Leading columns of ``RunResult.trials``; then ``<variant>.holds|statistic|bound|vacuous|undetermined``
#: per variant and ``diag.<name>`` per diagnostic.
TRIAL_COLUMNS = ("theorem", "cell", "trial", "status", "error", "seconds")


@dataclass(frozen=True)
class VariantCount:
    """Counts of one variant in one cell: ``failures`` among ``evaluated`` trials (neither vacuous nor
    solver errors), ``vacuous_trials``, and the statistic / bound / holds arrays of the ok trials."""

    failures: int
    evaluated: int
    vacuous_trials: int
    undetermined: int = 0

    def count(self):
        """The :class:`~rpcheck.stats.BinomialCount` (requires ``evaluated >= 1``)."""
        return BinomialCount(self.failures, self.evaluated)

    def proportion_ci(self, confidence_level=0.95, *, alternative="two-sided"):
        return self.count().proportion_ci(confidence_level, alternative=alternative)


@dataclass(frozen=True)
class CellOutcome:
    """All trials of one (theorem, parameters) cell, from :func:`rpcheck.engine.run_cell`.

    Attributes
    ----------
    theorem : str
    params : dict
        The parameters as the trials received them (decoded canonical JSON).
    canonical : str
        Canonical JSON of ``params`` (the seed-defining key).
    seed : int
        Root seed.
    trials : int
        Trials attempted.
    solver_errors : int
    variants : mapping variant name -> VariantCount
    table : pandas.DataFrame
        One row per trial, columns as ``RunResult.trials``.
    seconds : float
        Sum of the trials' wall times.
    """

    theorem: str
    params: Mapping[str, Any]
    canonical: str
    seed: int
    trials: int
    solver_errors: int
    variants: Mapping[str, VariantCount]
    table: pd.DataFrame = field(repr=False)
    seconds: float = 0.0

    def count(self, variant):
        return self.variants[variant].count()

    def proportion_ci(self, variant, confidence_level=0.95, *, alternative="two-sided"):
        """Exact Clopper--Pearson interval of the failure rate of ``variant`` in this cell."""
        return self.variants[variant].proportion_ci(confidence_level, alternative=alternative)


@dataclass(frozen=True)
class RunResult:
    """The result of :func:`rpcheck.engine.run`.

    Attributes
    ----------
    cells : pandas.DataFrame
        One row per (theorem, variant, cell); schema in ``ARCHITECTURE.md`` ("Result tables").
    trial_tables : mapping theorem id -> pandas.DataFrame
        Per theorem, one row per (cell, trial) for the first ``rpcheck.engine.runner.TRIAL_SAMPLE`` (2,000)
        trials of each cell (a bounded sample, so memory does not grow with the number of trials), with that
        theorem's own columns only. A DataFrame given here (the older one-table form) is split by theorem.
        Every trial of a saved run is in its ``checkpoints/``: :func:`rpcheck.engine.load_trials` loads them.
    provenance : dict
        Versions, solver, root seed, profile, git commit, start/end UTC, alpha, backend, jobs.
    counterexamples : mapping relative path -> (arrays dict, metadata dict)
        Counterexamples of VIOLATED deterministic/search cells, written under ``counterexamples/`` by
        :meth:`save` (the ``counterexample`` column holds these relative paths).
    path : pathlib.Path or None
        The results directory, when the run was saved or loaded.
    """

    cells: pd.DataFrame
    trial_tables: Mapping[str, pd.DataFrame]
    provenance: Mapping[str, Any]
    counterexamples: Mapping[str, Any] = field(default_factory=dict, repr=False)
    path: Path | None = None

    def __post_init__(self):
        tables = self.trial_tables
        if tables is None:
            tables = {}
        elif not isinstance(tables, Mapping):  # the one-table form: split it by theorem
            tables = split_trials(tables)
        object.__setattr__(self, "trial_tables", dict(tables))
        object.__setattr__(self, "_wide", None)

    @property
    def trials(self):
        """Every theorem's sampled trials in ONE table (columns: the union of the theorems' columns).

        Built on first access and kept. Its size is (sampled trials) x (every theorem's variant and diagnostic
        columns): fine for a few theorems, about 16 GB for the whole suite at ``standard`` -- use
        :meth:`trials_of` (one theorem) there."""
        if self._wide is None:
            object.__setattr__(self, "_wide", _concat_trial_frames(list(self.trial_tables.values())))
        return self._wide

    def trials_of(self, theorem):
        """The sampled trials of ``theorem`` (its own columns), an empty table for an id not in the run."""
        import pandas as pd

        t = self.trial_tables.get(str(theorem))
        return t if t is not None else pd.DataFrame(columns=list(TRIAL_COLUMNS))

    def unexpected(self):
        """Rows of ``cells`` whose verdict differs from a stated expected verdict."""
        if self.cells.empty:
            return self.cells
        return self.cells[~self.cells["as_expected"].astype(bool)]

    def verdict_counts(self):
        """``{verdict: number of (theorem, variant, cell) rows}``."""
        if self.cells.empty:
            return {}
        return {str(k): int(v) for k, v in self.cells["verdict"].value_counts().sort_index().items()}

    def theorem_ids(self):
        return sorted(set(self.cells["theorem"])) if not self.cells.empty else []

    def save(self, out):
        """Write ``cells``, ``trials`` (Parquet, or CSV without pyarrow), ``provenance.json`` and the
        counterexamples into the directory ``out``, every file atomically. Returns a RunResult whose
        ``path`` is ``out``."""
        prov = dict(self.provenance)
        key = {"theorems": sorted(prov.get("theorems") or []), "seed": prov.get("seed"),
               "profile": prov.get("profile"), "alpha": prov.get("alpha")}  # fmt: skip
        out = ensure_results_dir(out, key)
        tdir = out / TRIALS_DIR
        tdir.mkdir(exist_ok=True)
        stems = {trials_file_stem(tid) for tid in self.trial_tables}
        for f in tdir.iterdir():  # rpcheck's own tables of theorems no longer in this result
            if f.suffix in (".parquet", ".csv") and f.stem not in stems:
                f.unlink()
        # independent files, written concurrently; the cells table and the provenance come after all of them
        write_concurrently([partial(write_counterexample, out / rel, arrays, meta)
                            for rel, (arrays, meta) in self.counterexamples.items()]
                           + [partial(write_table, table, tdir, trials_file_stem(tid))
                              for tid, table in self.trial_tables.items()])  # fmt: skip
        write_table(self.cells, out, "cells")
        atomic_write_text(out / "provenance.json", json.dumps(dict(self.provenance), indent=2, default=str))
        return RunResult(self.cells, self.trial_tables, self.provenance, self.counterexamples, out)

    def overview(self):
        """One row per theorem: verdict counts of its claim rows, self-checks and controls counted apart,
        measured rows, unexpected rows (a pandas DataFrame; what ``_repr_html_`` shows in a notebook)."""
        import pandas as pd

        verdicts = [v.value for v in Verdict]
        cols = ["theorem", *verdicts, "measured", "self-checks", "controls", "unexpected"]
        if self.cells.empty:
            return pd.DataFrame(columns=cols)
        c = self.cells
        role = pd.Series("claim", index=c.index)  # a role outside ROLES (or none) is "claim", as in the report
        if "role" in c.columns:
            stripped = c["role"].astype(str).str.strip()
            role = stripped.where(stripped.isin(ROLES), "claim")
        rows = []
        for tid, idx in c.groupby("theorem", sort=True).groups.items():
            sub, r = c.loc[idx], role.loc[idx]
            claim = sub[r == "claim"]
            row = {"theorem": tid}
            for v in verdicts:
                row[v] = int((claim["verdict"] == v).sum())
            row["measured"] = int((r == "measurement").sum())
            row["self-checks"] = int((r == "self-check").sum())
            row["controls"] = int((r == "control").sum())
            row["unexpected"] = int((~sub["as_expected"].astype(bool)).sum())
            rows.append(row)
        return pd.DataFrame(rows, columns=cols)

    def to_frame(self):
        """The cells table (a copy), one row per (theorem, variant, cell), with the parameters of the
        ``params`` JSON in their own types (integers stay integers) as ``p_<name>`` columns."""
        df = self.cells.copy()
        if df.empty or "params" not in df.columns:
            return df
        decoded = [json.loads(p) for p in df["params"]]
        for name in sorted({k for d in decoded for k in d}):
            col = f"p_{name}"
            if col in df.columns:
                df[col] = [d.get(name) for d in decoded]
        return df

    def to_parquet(self, path, *, overwrite=False):
        """Write :meth:`to_frame` to the Parquet file ``path`` atomically. An existing file is refused
        unless ``overwrite=True`` (rpcheck never replaces a file the user owns without being asked)."""
        if not isinstance(path, str | Path) or str(path) == "":
            raise RpcheckError(f"`path` ({path!r}) must be a non-empty str or pathlib.Path.")
        path = Path(path)
        if path.exists() and not overwrite:
            raise RpcheckError(f"`path` ({str(path)!r}) exists; pass overwrite=True to replace it.")
        df = self.to_frame()
        for col in df.columns:  # mixed-type parameter columns (e.g. int and str across theorems) as text
            if df[col].dtype == object and len({type(v) for v in df[col] if v is not None}) > 1:
                df[col] = df[col].map(lambda v: None if v is None else json.dumps(v))
        buf = io.BytesIO()
        df.to_parquet(buf, index=False)
        atomic_write_bytes(path, buf.getvalue())
        return path

    def _repr_html_(self):
        counts = ", ".join(f"{k} {v}" for k, v in self.verdict_counts().items())
        prov = dict(self.provenance or {})
        head = (
            f"<p><b>rpcheck RunResult</b>: {len(self.theorem_ids())} theorems, {len(self.cells)} rows "
            f"({_html.escape(counts or 'none')}); unexpected {len(self.unexpected())}; profile "
            f"{_html.escape(str(prov.get('profile', '?')))}, seed {_html.escape(str(prov.get('seed', '?')))}, "
            f"alpha {_html.escape(str(prov.get('alpha', '?')))}</p>"
        )
        return head + self.overview().to_html(index=False, escape=True)

    def __repr__(self):
        counts = ", ".join(f"{k}={v}" for k, v in self.verdict_counts().items())
        return (
            f"RunResult(theorems={len(self.theorem_ids())}, rows={len(self.cells)}, "
            f"trials={len(self.trials)}, verdicts: {counts or 'none'}, unexpected={len(self.unexpected())})"
        )


# ------------------------------------------------------------------------------------------ trial frames


def _bool_array(outs, j):
    """Nullable boolean column (missing for solver errors) from the outcome rows."""
    import pandas as pd

    mask = np.fromiter((o is None for o in outs), bool, len(outs))
    vals = np.fromiter((o is not None and bool(o[j]) for o in outs), bool, len(outs))
    return pd.arrays.BooleanArray(vals, mask)


def _records_frame(theorem_id, cell_index, variant_names, recs):
    """One cell's records (TrialResults, by index) as rows of ``RunResult.trials``."""
    import pandas as pd

    data = {
        "theorem": [theorem_id] * len(recs),
        "cell": [cell_index] * len(recs),
        "trial": [r.i for r in recs],
        "status": [r.status for r in recs],
        "error": [r.error for r in recs],
        "seconds": [float(r.seconds) for r in recs],
    }
    for j, name in enumerate(variant_names):
        outs = [r.outcomes[j] if r.ok else None for r in recs]
        data[f"{name}.holds"] = _bool_array(outs, 0)
        data[f"{name}.statistic"] = [math.nan if o is None else o.statistic for o in outs]
        data[f"{name}.bound"] = [math.nan if o is None else o.bound for o in outs]
        data[f"{name}.vacuous"] = _bool_array(outs, 3)
        data[f"{name}.undetermined"] = _bool_array(outs, 4)
    dnames = sorted({k for r in recs for k in r.diagnostics})
    for k in dnames:
        data[f"diag.{k}"] = [float(r.diagnostics.get(k, math.nan)) for r in recs]
    return pd.DataFrame(data)


#: Subdirectory of a results directory with one trials table per theorem (``<theorem id>.parquet``)
TRIALS_DIR = "trials"


def trials_file_stem(theorem):
    """File name (without suffix) of ``theorem``'s trials table: the id, with any character outside
    ``[A-Za-z0-9._-]`` replaced by ``_`` (the table's ``theorem`` column keeps the exact id)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", str(theorem))


def trial_table_files(path):
    """``(directory, stem)`` of every per-theorem trials table of the results directory ``path``, sorted;
    None when ``path`` has no ``trials/`` folder (results written with one trials table)."""
    tdir = Path(path) / TRIALS_DIR
    if not tdir.is_dir():
        return None
    return [(tdir, f.stem) for f in sorted(tdir.iterdir())
            if f.suffix in (".parquet", ".csv") and not f.name.startswith(".")]  # fmt: skip


def split_trials(trials):
    """A one-table ``trials`` frame as ``{theorem: frame}``, each with only the columns its theorem fills."""
    if trials is None or not len(trials) or "theorem" not in trials.columns:
        return {}
    out = {}
    lead = [c for c in TRIAL_COLUMNS if c in trials.columns]
    for tid, sub in trials.groupby("theorem", sort=True):
        keep = lead + [c for c in sub.columns if c not in lead and sub[c].notna().any()]
        out[str(tid)] = sub[keep].reset_index(drop=True)
    return out


def _concat_trial_frames(frames):
    import pandas as pd

    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=list(TRIAL_COLUMNS))
    df = pd.concat(frames, ignore_index=True, sort=False)
    lead = list(TRIAL_COLUMNS)
    outc = [c for c in df.columns if c not in lead and not c.startswith("diag.")]
    diag = sorted(c for c in df.columns if c.startswith("diag."))
    df = df[lead + outc + diag]
    for c in outc:
        if c.endswith(".holds") or c.endswith(".vacuous") or c.endswith(".undetermined"):
            df[c] = df[c].astype("boolean")
    return df.sort_values(["theorem", "cell", "trial"], kind="stable").reset_index(drop=True)



def load_results(path):
    """Load ``cells``, ``trials`` (Parquet or CSV), ``provenance.json`` of a results directory.

    The ``p_<name>`` columns are rebuilt from the canonical ``params`` JSON, so their values are exact even
    when a column had to be stored as strings (a parameter with different types across theorems).
    Counterexamples stay on disk (the ``counterexample`` column holds paths relative to ``path``; use
    :func:`rpcheck.engine.load_counterexample` or :func:`rpcheck.engine.replay`).
    """
    import pandas as pd

    path = Path(path)
    if not path.is_dir():
        raise RpcheckError(f"`path` ({str(path)!r}) is not a results directory.")
    try:
        cells = read_table(path, "cells")
        files = trial_table_files(path)
        if files is not None:
            tables = {}
            for where, stem in files:
                t = read_table(where, stem)
                if len(t):
                    tables[str(t["theorem"].iloc[0])] = t
        else:  # results written before per-theorem trial tables: one trials table
            tables = split_trials(read_table(path, "trials"))
    except FileNotFoundError as exc:
        raise RpcheckError(f"`path` ({str(path)!r}) holds no complete results: {exc}.") from None
    prov = read_json(path / "provenance.json", "provenance file")
    if len(cells):
        decoded = [json.loads(p) for p in cells["params"]]
        for col in [c for c in cells.columns if c.startswith("p_")]:
            name = col[2:]
            cells[col] = [d.get(name) for d in decoded]
        text_columns = (
            "expected", "expected_declared", "vacuous_reason", "counterexample", "assumed", "decide_info", "claim"
        )
        for col in text_columns:
            if col in cells:
                cells[col] = [("" if pd.isna(v) else str(v)) for v in cells[col]]
        cells["as_expected"] = cells["as_expected"].astype(bool)
    for trials in tables.values():
        if len(trials) and "error" in trials:
            trials["error"] = [("" if pd.isna(v) else str(v)) for v in trials["error"]]
    return RunResult(cells, tables, prov, {}, path)


def load_trials(path):
    """Every trial of a results directory, read from its checkpoint files (``checkpoints/``), as a frame with
    the columns of ``RunResult.trials``.

    ``RunResult.trial_tables`` and ``trials/`` hold only the first
    :data:`rpcheck.engine.runner.TRIAL_SAMPLE` trials of each cell (the parent's memory stays flat in the
    number of trials); this function loads all of them (the trials ``< trials`` of each cell row, so a
    sequential cell that stopped early gets exactly the trials its verdict used), in memory.
    """
    res = load_results(path)
    if not (Path(path) / "checkpoints").is_dir():
        raise RpcheckError(f"`path` ({str(path)!r}) has no checkpoints/ folder: its trials were not kept.")
    seed = int(res.provenance["seed"])
    store = CheckpointStore(path)
    frames = []
    cells = res.cells
    for (tid, cell), rows in cells.groupby(["theorem", "cell"], sort=True):
        names = list(dict.fromkeys(rows["variant"]))
        canonical = str(rows["params"].iloc[0])
        stop = int(rows["trials"].iloc[0])
        found = {}
        for _, _, recs in store.iter_chunks(tid, canonical, seed, names):
            for r in recs:
                if r.i < stop:
                    found[r.i] = r
        frames.append(_records_frame(tid, int(cell), names, [found[i] for i in sorted(found)]))
    return _concat_trial_frames(frames)

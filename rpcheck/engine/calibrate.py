r"""Fresh-seed confirmation: run a profile under K root seeds and count, per row, the unexpected verdicts.

``rpcheck calibrate`` is the built-in form of "rerun with fresh seeds and see whether the
verdicts move". One :func:`rpcheck.engine.run` per root seed ``k`` writes its results directory
``DIR/seed-<k>/``; the cells tables are then tabulated per row (theorem, variant, cell): in how many of the
K runs the verdict differed from the expected one (the cells table's ``as_expected`` column, which already
holds the runner's reconciliation of unattainable expected verdicts, see :mod:`rpcheck.stats`).

Error rates
-----------
Each run is one Holm family at level ``alpha`` (:mod:`rpcheck.stats`): when every statistical claim of
the run is true, P(the run has a false VIOLATED) <= ``alpha``. The runs use independent root seeds, so the
number ``R`` of runs with any unexpected row is a sum of K independent Bernoulli variables; the summary
gives ``R/K`` with its exact two-sided 99% Clopper--Pearson interval (coverage >= 99% whatever the true
rate). If that interval lies above ``alpha`` the unexpected verdicts are more frequent than the family's
false-VIOLATED rate explains: some expected verdict is wrong (a false claim, or a row expected HOLDS
without the power to reach it), not bad luck. An unexpected row of a deterministic or search variant
is a concrete counterexample (replayable from ``DIR/seed-<k>/counterexamples``) and needs no such test.

Files
-----
``DIR/rpcheck-calibration.json`` marks a directory written by this command (with its profile, alpha and
theorem set); a non-empty directory without it is refused, and nothing in ``DIR`` is deleted.
``DIR/seed-<k>/`` are ordinary results directories (``rpcheck report DIR/seed-<k>`` renders one); a seed
whose directory holds a complete run with the same settings is read back instead of rerun, and an
interrupted seed is resumed from its checkpoints (``run(..., resume=True)``), so an interrupted
calibration continues where it stopped. ``DIR/calibration.csv`` (written atomically) holds one line per
row (:data:`CALIBRATION_COLUMNS`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .._validation import check_choice, check_interval
from ..errors import RpcheckError
from ..stats import Verdict, clopper_pearson
from .loading import load_results
from .plan import _resolve_theorems, _results_key
from .runner import run
from .store import MARKER, RESUME_KEYS, atomic_write_text, read_json
from .theorem import PROFILES

__all__ = [
    "parse_seeds",
    "tabulate",
    "calibrate",
    "CalibrationResult",
    "CALIBRATION_COLUMNS",
    "CALIBRATION_MARKER",
    "MAX_SEEDS",
    "CI_LEVEL",
]

#: The marker of a calibration directory.
CALIBRATION_MARKER = "rpcheck-calibration.json"
#: Largest number of root seeds of one calibration (a typo such as ``1-100000`` is refused).
MAX_SEEDS = 10_000
#: Confidence level of the exact interval on the fraction of runs with any unexpected row.
CI_LEVEL = 0.99
_MAX_SEED = 2**63 - 1
_VERDICTS = tuple(v.value for v in Verdict)
#: Columns of ``calibration.csv`` / :attr:`CalibrationResult.table`.
CALIBRATION_COLUMNS = (
    "theorem", "variant", "cell", "params", "mode", "role", "expected", "seeds", "unexpected",
    "unexpected_rate", *_VERDICTS, "unexpected_seeds",
)  # fmt: skip
_SEEDS_ALLOWED = (
    f"a range A-B or a comma-separated list of integers (ranges allowed: 1-5,9) in [0, 2**63 - 1], "
    f"at most {MAX_SEEDS} seeds, e.g. 1-20 or 1,5,7"
)


def parse_seeds(text):
    """The root seeds of ``--seeds``: ``"1-20"``, ``"1,5,7"`` or a mix (``"1-3,9"``), in order, unique.

    Parameters
    ----------
    text : str

    Returns
    -------
    tuple of int

    Raises
    ------
    RpcheckError
        One message naming ``--seeds``, the value and the allowed forms.

    >>> parse_seeds("1-3"), parse_seeds("1,5,7"), parse_seeds(" 2-3, 9 ")
    ((1, 2, 3), (1, 5, 7), (2, 3, 9))
    """

    def bad():
        return RpcheckError(f"`--seeds` ({text!r}) must be {_SEEDS_ALLOWED}.")

    if not isinstance(text, str) or not text.strip():
        raise bad()
    seeds = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not m:
            raise bad()
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) is not None else a
        if b < a or b > _MAX_SEED or len(seeds) + (b - a + 1) > MAX_SEEDS:
            raise bad()
        seeds.extend(range(a, b + 1))
    if len(set(seeds)) != len(seeds):
        raise bad()
    return tuple(seeds)


def _seed_dir(out, seed):
    return Path(out) / f"seed-{seed}"


def _complete(path, key):
    """Whether ``path`` holds a complete run with the settings ``key`` (marker, tables and provenance)."""
    if not (path / MARKER).is_file() or not (path / "provenance.json").is_file():
        return False
    old = read_json(path / MARKER, "results manifest")
    if not isinstance(old, dict):
        return False
    same = all(json.dumps(old.get(k), default=str) == json.dumps(key.get(k), default=str) for k in RESUME_KEYS)
    prov = read_json(path / "provenance.json", "provenance file")
    # provenance.json is written last by RunResult.save, after the cells table: its presence means complete
    return same and isinstance(prov, dict) and prov.get("trials") is None and not prov.get("overrides")


def _prepare_dir(out, meta):
    """Create or reuse the calibration directory ``out``; refuse one this command did not write."""
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise RpcheckError(f"`--out` ({str(out)!r}) exists and is not a directory.")
    marker = path / CALIBRATION_MARKER
    if path.is_dir() and any(path.iterdir()) and not marker.is_file():
        raise RpcheckError(
            f"`--out` ({str(out)!r}) is a non-empty directory that `rpcheck calibrate` did not write (no "
            f"{CALIBRATION_MARKER}); choose a new or empty directory, or one calibrate wrote before."
        )
    if marker.is_file():
        old = read_json(marker, "calibration manifest")
        if not isinstance(old, dict):
            raise RpcheckError(f"the calibration manifest {str(marker)!r} is corrupted (not a JSON object).")
        diff = [k for k in ("profile", "alpha", "theorems") if old.get(k) != meta[k]]
        if diff:
            got = ", ".join(f"{k}={old.get(k)!r} (now {meta[k]!r})" for k in diff)
            raise RpcheckError(
                f"`--out` ({str(out)!r}) holds a calibration with {got}; continue it with the same settings, "
                "or choose another directory."
            )
        return path
    path.mkdir(parents=True, exist_ok=True)
    atomic_write_text(marker, json.dumps({"format": 1, **meta}, sort_keys=True))
    return path


def tabulate(frames):
    """One row per (theorem, variant, cell) over the cells tables of several runs.

    Parameters
    ----------
    frames : mapping seed -> pandas.DataFrame
        The cells table (``RunResult.cells``) of the run with that root seed.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`CALIBRATION_COLUMNS`: ``seeds`` runs that had the row, ``unexpected`` of them with a
        verdict other than the expected one (``as_expected`` False), their fraction, the count of each
        verdict, the expected verdicts seen (``|``-joined when the reconciliation differed between seeds)
        and the seeds of the unexpected ones.
    """
    import pandas as pd

    acc = {}
    for seed, cells in frames.items():
        for row in cells.to_dict("records"):
            key = (str(row["theorem"]), str(row["variant"]), int(row["cell"]))
            a = acc.get(key)
            if a is None:
                a = acc[key] = {
                    "params": row.get("params"), "mode": row.get("mode"), "role": row.get("role") or "claim",
                    "expected": [], "seeds": 0, "unexpected": [], **{v: 0 for v in _VERDICTS},
                }  # fmt: skip
            a["seeds"] += 1
            v = str(row["verdict"])
            a[v] = a.get(v, 0) + 1
            e = "" if row.get("expected") is None else str(row.get("expected"))
            if e not in a["expected"]:
                a["expected"].append(e)
            if not bool(row["as_expected"]):
                a["unexpected"].append(int(seed))
    rows = []
    for (tid, variant, cell), a in sorted(acc.items()):
        u = len(a["unexpected"])
        rows.append({
            "theorem": tid, "variant": variant, "cell": cell, "params": a["params"], "mode": a["mode"],
            "role": a["role"], "expected": "|".join(a["expected"]), "seeds": a["seeds"], "unexpected": u,
            "unexpected_rate": u / a["seeds"], **{v: a[v] for v in _VERDICTS},
            "unexpected_seeds": ",".join(map(str, sorted(a["unexpected"]))),
        })  # fmt: skip
    return pd.DataFrame(rows, columns=list(CALIBRATION_COLUMNS))


@dataclass
class CalibrationResult:
    """The outcome of :func:`calibrate`.

    Attributes
    ----------
    table : pandas.DataFrame
        :func:`tabulate` of the runs (columns :data:`CALIBRATION_COLUMNS`).
    seeds : tuple of int
    skipped : tuple of int
        Seeds whose complete results were read back instead of rerun.
    runs_unexpected : tuple of int
        Seeds whose run had any unexpected row.
    alpha : float
        Family-wise level of each run.
    profile : str
    out : pathlib.Path
    cells : dict
        ``{seed: cells table}`` (the rows of each seed, for the unexpected-row details).
    """

    table: object
    seeds: tuple
    skipped: tuple
    runs_unexpected: tuple
    alpha: float
    profile: str
    out: Path
    cells: dict = field(repr=False, default_factory=dict)

    @property
    def unexpected(self):
        """Number of (seed, row) pairs with an unexpected verdict."""
        return int(self.table["unexpected"].sum()) if len(self.table) else 0

    def runs_ci(self, level=CI_LEVEL):
        """Exact two-sided Clopper--Pearson interval on P(a run has any unexpected row), at ``level``."""
        return clopper_pearson(len(self.runs_unexpected), len(self.seeds), level)

    def summary_line(self):
        """``K seeds x M rows: U unexpected; runs with any unexpected: R/K, exact 99% CI [..]; ...``."""
        lo, hi = self.runs_ci()
        k = len(self.seeds)
        return (
            f"{k} seeds x {len(self.table)} rows: {self.unexpected} unexpected; runs with any unexpected: "
            f"{len(self.runs_unexpected)}/{k}, exact {CI_LEVEL:.0%} CI [{lo:.3g}, {hi:.3g}]; each run's "
            f"false-VIOLATED probability <= {self.alpha:g}"
        )

    def unexpected_lines(self):
        """Every row with an unexpected verdict in some seed, in full: the row, then one line per such seed."""
        lines = []
        if not len(self.table):
            return lines
        for row in self.table[self.table["unexpected"] > 0].to_dict("records"):
            counts = ", ".join(f"{row[v]} {v}" for v in _VERDICTS if row[v])
            lines.append(
                f"UNEXPECTED {row['theorem']} · {row['variant']} ({row['mode']}, {row['role']}) cell {row['cell']}: "
                f"{row['params']}: {row['unexpected']}/{row['seeds']} seeds unexpected (expected "
                f"{row['expected'] or '(none)'}; verdicts: {counts})"
            )
            for s in map(int, row["unexpected_seeds"].split(",")):
                c = self.cells[s]
                m = c[(c["theorem"] == row["theorem"]) & (c["variant"] == row["variant"]) & (c["cell"] == row["cell"])]
                for r in m.to_dict("records"):
                    claim = "" if r.get("claim") in (None, "") else f"; {r['claim']}"
                    ce = (
                        ""
                        if r.get("counterexample") in (None, "")
                        else f"; counterexample seed-{s}/{r['counterexample']}"
                    )
                    lines.append(
                        f"  seed {s}: {r['verdict']} (expected {r.get('expected') or '(none)'}), failures "
                        f"{r['failures']}/{r['evaluated']}{claim}{ce}"
                    )
        return lines


def calibrate(theorems=None, *, profile="quick", seeds, out, backend="processes", jobs=None, scheduler=None,
              alpha=0.01, progress=None, on_seed=None):  # fmt: skip
    """Run ``profile`` once per root seed in ``seeds`` (into ``out/seed-<k>``) and tabulate the verdicts.

    Parameters
    ----------
    theorems : str, Theorem, list of them, or None
        As in :func:`rpcheck.engine.run` (None: every registered theorem).
    profile : {"quick", "ci", "standard", "full"}, default="quick"
    seeds : iterable of int
        Root seeds (:func:`parse_seeds` parses the command line's form).
    out : path
        The calibration directory (module docstring: reused and resumed, never cleaned).
    backend, jobs, scheduler, alpha, progress
        Passed to every :func:`rpcheck.engine.run`.
    on_seed : callable(seed, status, cells), optional
        Called after each seed with status ``"ran"`` or ``"complete"`` (read back, not rerun) and the
        seed's cells table.

    Returns
    -------
    CalibrationResult
        Each run has P(any false VIOLATED) <= ``alpha``; see the module docstring for the interval on the
        fraction of runs with any unexpected row.
    """
    check_choice("profile", profile, PROFILES)
    alpha = check_interval("alpha", alpha, 0, 0.5, closed="neither")
    seeds = tuple(seeds)
    if not seeds:
        raise RpcheckError(f"`seeds` ({seeds!r}) must be {_SEEDS_ALLOWED}.")
    if out is None or not str(out).strip():
        raise RpcheckError(f"`out` ({out!r}) must be a directory path.")
    ths = _resolve_theorems(theorems)
    ids = sorted(th.id for th in ths)
    path = _prepare_dir(out, {"profile": profile, "alpha": float(alpha), "theorems": ids})
    frames, skipped = {}, []
    for s in seeds:
        d = _seed_dir(path, s)
        if _complete(d, _results_key(ths, s, profile, alpha)):
            frames[s] = load_results(d).cells
            skipped.append(s)
            status = "complete"
        else:
            res = run(ths, profile=profile, seed=s, backend=backend, jobs=jobs, scheduler=scheduler, out=d,
                      resume=True, alpha=alpha, progress=progress)  # fmt: skip
            frames[s] = res.cells
            status = "ran"
        if on_seed is not None:
            on_seed(s, status, frames[s])
    table = tabulate(frames)
    atomic_write_text(path / "calibration.csv", table.to_csv(index=False))
    bad = tuple(s for s, c in frames.items() if len(c) and not c["as_expected"].astype(bool).all())
    return CalibrationResult(table, seeds, tuple(skipped), bad, float(alpha), profile, path, frames)

r"""Per-theorem time breakdown: where the trials of a theorem spend their time (``rpcheck bench``).

For each theorem, the selected profile is run twice in this process, serially (``backend="serial"``, one
worker, so nothing is hidden in other processes), on the same root seed, after a one-trial warm-up run (the
one-time imports of a process, which ``rpcheck list``'s timing covers, are not charged to a theorem):

1. unprofiled, for the wall time and the trial rate (``trials_per_s``);
2. under :mod:`cProfile`, for the shares of time by category.

Attribution. cProfile records, per function, its own time (``tottime``) and, per caller, the cumulative
time spent in it from that caller. A function of a known category keeps its own time; the own time of any
other function (numpy, scipy, BLAS wrappers, builtins) is passed up to its callers in proportion to the
time each caller spent in it, recursively, until it reaches a function of a known category. So the time of
``np.linalg.svd`` called from a checker counts as that checker's, and the time of a matrix product inside
the IPM counts as solving. The categories (first match on the function's file and name):

``sketch``
    ``rpcheck/sketches`` (building and applying random projections).
``certificate``
    ``rpcheck/svm/kkt.py``, and functions of ``rpcheck/svm`` whose name contains ``kkt``, ``certif``,
    ``gap`` or ``residual`` (checking a solution, not finding it).
``solve``
    the rest of ``rpcheck/svm``, and the solver packages (clarabel, osqp, scs, ecos) called from cvxpy.
``canonicalisation``
    the rest of cvxpy's code: building and compiling a problem (a fixed cost per solve).
``trial``
    the theorem modules and the libraries they use (``rpcheck/papers``, ``generators``,
    ``standins``, ``datasets``, ``linalg``, ``strategies``, ``compare``): data, projections' statistics,
    the events of the claims.
``engine``
    ``rpcheck/engine``, ``rpcheck/stats.py``, ``rpcheck/results.py`` and the standard library's pickling
    below them: scheduling, seeding, checkpoints, tabulation. The shared helpers (``rpcheck/_validation.py``,
    ``_rng.py``, ``_threads.py``, ``errors.py``) pass their time to their callers, like library code: input
    validation inside a sketch counts as the sketch's.
``other``
    time with no categorised caller (the profiler's own frame, interpreter start-up of the call).

*Fixed overhead* is ``canonicalisation + engine``: time that does not go into the mathematics of a trial.
The target is below 20% of a theorem's time; the table flags every theorem above it.

Unprofiled measure. cProfile's shares overstate the engine (below), so the unprofiled run also gives
``outside_share``: 1 - (the summed wall time of the trial functions, as the engine times each call) / (the
run's wall time): everything the engine does around the trials (seeding, checking the records, aggregation,
checkpoints, tabulation, decide hooks, tables), with no profiler. It splits into ``per_trial_share`` (engine
time while the trials run: seeding, record checks, chunk files, ingestion; it scales with the number of
trials) and ``per_run_share`` (the run's ``decide_and_tabulate`` phase and set-up: a cost per theorem run,
tens to hundreds of ms, that dominates runs of a few hundred ms and vanishes at larger profiles).
``fixed_share_unprofiled`` adds the canonicalisation, which happens inside the trial functions, at its profiled
share of the trial time: ``outside + (1 - outside) * canon / (1 - engine - other)``; ``fixed_per_trial`` is the
same with ``per_trial_share`` in place of ``outside``. The flag (``over_limit``) uses ``fixed_per_trial``:
the per-trial costs are the fixed overhead the trial rate pays (canonicalisation, pickling, start-up per
trial); the per-run cost is reported in seconds beside it.

cProfile adds a cost per Python call, so the profiled run is slower than the unprofiled one (the ratio is
reported as ``profiler_overhead``) and it inflates categories made of many small Python calls (the engine,
the checkers) against those spent in compiled code (BLAS, the solvers, numba kernels): the shares are an
upper bound for the former. The trial rate comes from the unprofiled run only.
"""

from __future__ import annotations

import cProfile
import dataclasses
import os
import pstats
import re
import time

from ..errors import RpcheckError
from .plan import _resolve_theorems
from .runner import run

__all__ = ["CATEGORIES", "BenchRow", "bench_theorem", "bench", "category_of"]

CATEGORIES = ("sketch", "solve", "certificate", "canonicalisation", "trial", "engine", "other")
#: categories that are not the mathematics of a trial
FIXED = ("canonicalisation", "engine")
FIXED_LIMIT = 0.20

_SEP = re.escape(os.sep)
_RP = rf"{_SEP}rpcheck{_SEP}"
_CERT_NAME = re.compile(r"kkt|certif|gap|residual")
_TRIAL_UNITS = ("papers", "generators", "standins", "datasets", "linalg", "strategies", "compare")
_ENGINE_UNITS = ("engine", "stats", "results")
_SOLVER_PACKAGES = ("clarabel", "osqp", "scs", "ecos", "qdldl")


def category_of(filename, funcname):
    """The category of one profiled function (module docstring), or None to pass its time to its callers."""
    path = filename.replace("/", os.sep)
    m = re.search(_RP + r"([^" + _SEP + r"]+)", path)
    if m:
        unit = m.group(1)
        unit = unit[:-3] if unit.endswith(".py") else unit
        if unit == "sketches":
            return "sketch"
        if unit == "svm":
            if path.endswith(os.sep + "kkt.py") or _CERT_NAME.search(funcname):
                return "certificate"
            return "solve"
        if unit in _TRIAL_UNITS:
            return "trial"
        if unit in _ENGINE_UNITS:
            return "engine"
        return None  # cli, report, ...: not part of a run; pass up (normally no time here)
    parts = path.split(os.sep)
    if "site-packages" in parts or "dist-packages" in parts:
        pkg = parts[(parts.index("site-packages") if "site-packages" in parts else parts.index("dist-packages")) + 1]
        if pkg in _SOLVER_PACKAGES or pkg.startswith(tuple(p + "_" for p in _SOLVER_PACKAGES)):
            return "solve"
        if pkg == "cvxpy":  # the solver's own (compiled) call sits below cvxpy's solve_via_data
            return "solve" if funcname == "solve_via_data" else "canonicalisation"
    if re.search(r"(pickle|copyreg|multiprocessing|concurrent)", path) or "_pickle." in funcname:
        return "engine"
    return None


def _attribute(stats):
    """Seconds per category from a :class:`pstats.Stats` ``stats`` dict (module docstring)."""
    memo = {}

    def dist(key, depth=0):
        if key in memo:
            return memo[key]
        cat = category_of(key[0], key[2])
        if cat is not None:
            out = {cat: 1.0}
        elif depth > 60 or key not in stats:
            out = {"other": 1.0}
        else:
            memo[key] = {"other": 1.0}  # cycle guard: a recursive path counts as 'other'
            callers = stats[key][4]
            weights = {c: (v[3] if isinstance(v, tuple) else float(v)) for c, v in callers.items()}
            total = sum(weights.values())
            if not callers or total <= 0:
                out = {"other": 1.0}
            else:
                out = {}
                for c, w in weights.items():
                    for k, f in dist(c, depth + 1).items():
                        out[k] = out.get(k, 0.0) + f * w / total
        memo[key] = out
        return out

    seconds = dict.fromkeys(CATEGORIES, 0.0)
    for key, (_cc, _nc, tt, _ct, _callers) in stats.items():
        for k, f in dist(key).items():
            seconds[k] += tt * f
    return seconds


@dataclasses.dataclass(frozen=True)
class BenchRow:
    """One theorem at one profile: trials, wall time, trial rate and the share of time per category."""

    theorem: str
    profile: str
    cells: int
    trials: int
    wall_s: float
    trials_per_s: float
    profiled_s: float
    shares: dict  # category -> fraction of the profiled time
    trial_s: float = float("nan")  # summed wall time of the trial functions in the unprofiled run
    trials_phase_s: float = float("nan")  # wall time of the unprofiled run's trial phase (provenance)

    @property
    def fixed_share(self):
        """Canonicalisation + engine, shares of the profiled run (cProfile; overstates the engine)."""
        return sum(self.shares.get(c, 0.0) for c in FIXED)

    @property
    def outside_share(self):
        """Share of the unprofiled wall time spent outside the trial functions (module docstring)."""
        return max(0.0, 1.0 - self.trial_s / self.wall_s) if self.wall_s > 0 else float("nan")

    @property
    def per_trial_share(self):
        """Engine time during the trial phase, as a share of the wall time (module docstring)."""
        if not self.wall_s > 0 or self.trials_phase_s != self.trials_phase_s:
            return float("nan")
        return max(0.0, self.trials_phase_s - self.trial_s) / self.wall_s

    @property
    def per_run_s(self):
        """Seconds outside the trial phase: set-up, decisions, tabulation."""
        return max(0.0, self.wall_s - self.trials_phase_s)

    def _with_canon(self, out):
        inside = 1.0 - self.shares.get("engine", 0.0) - self.shares.get("other", 0.0)
        canon = self.shares.get("canonicalisation", 0.0) / inside if inside > 0 else 0.0
        return out + (1.0 - out) * canon

    @property
    def fixed_share_unprofiled(self):
        """``outside + (1 - outside) * canon / (1 - engine - other)`` (module docstring)."""
        return self._with_canon(self.outside_share)

    @property
    def fixed_per_trial(self):
        """``fixed_share_unprofiled`` with the per-trial engine share only (module docstring)."""
        return self._with_canon(self.per_trial_share)

    @property
    def over_limit(self):
        return self.fixed_per_trial > FIXED_LIMIT

    @property
    def profiler_overhead(self):
        return self.profiled_s / self.wall_s if self.wall_s > 0 else float("nan")

    def as_dict(self):
        d = dataclasses.asdict(self)
        d.update(fixed_share=self.fixed_share, outside_share=self.outside_share,
                 fixed_share_unprofiled=self.fixed_share_unprofiled, per_trial_share=self.per_trial_share,
                 per_run_s=self.per_run_s, fixed_per_trial=self.fixed_per_trial, over_limit=self.over_limit,
                 profiler_overhead=self.profiler_overhead)  # fmt: skip
        return d


def _total_trials(cells):
    if cells is None or len(cells) == 0:
        return 0, 0
    per_cell = cells.groupby("cell")["trials"].max()
    return int(per_cell.size), int(per_cell.sum())


def _trial_seconds(cells):
    """Summed wall time of the trial functions (the ``seconds`` column, one value per cell)."""
    if cells is None or len(cells) == 0:
        return 0.0
    return float(cells.groupby("cell")["seconds"].max().sum())


def bench_theorem(theorem, *, profile="ci", trials=None, seed=0):
    """Run one theorem twice (unprofiled, then profiled) serially and return its :class:`BenchRow`."""
    (th,) = _resolve_theorems([theorem])
    kw = dict(profile=profile, trials=trials, seed=seed, backend="serial", jobs=1, out=None)
    run([th], **(kw | {"trials": 1}))  # warm-up: the run path's one-time imports (scipy.stats, pandas) and caches
    t0 = time.perf_counter()
    result = run([th], **kw)
    wall = time.perf_counter() - t0
    n_cells, n_trials = _total_trials(result.cells)
    trial_s = _trial_seconds(result.cells)
    phase = (result.provenance or {}).get("phase_seconds") or {}
    trials_phase_s = float(phase.get("trials", float("nan")))
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    try:
        run([th], **kw)
    finally:
        prof.disable()
    profiled = time.perf_counter() - t0
    seconds = _attribute(pstats.Stats(prof).stats)
    total = sum(seconds.values())
    shares = {c: (seconds[c] / total if total > 0 else 0.0) for c in CATEGORIES}
    rate = n_trials / wall if wall > 0 else float("nan")
    return BenchRow(th.id, profile, n_cells, n_trials, wall, rate, profiled, shares, trial_s, trials_phase_s)


def bench(theorems, *, profile="ci", trials=None, seed=0, on_row=None):
    """:func:`bench_theorem` for each theorem; ``on_row(row)`` is called as each finishes."""
    if not theorems:
        raise RpcheckError("`theorems` must name at least one theorem (ids as `rpcheck list` prints them).")
    rows = []
    for t in theorems:
        row = bench_theorem(t, profile=profile, trials=trials, seed=seed)
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return rows

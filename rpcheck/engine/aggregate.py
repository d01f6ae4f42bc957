r"""Folding finished chunks into per-cell aggregates: the parent's memory, flat in the number of trials.

Memory
------
The parent's memory is flat in the number of trials. Each finished chunk is folded into its cell's
aggregate (:class:`_CellAggregate`: counts per variant and look segment, the largest statistic, the
smallest slack, the worst certified failure with its record, and the records of the first
:data:`rpcheck.engine.plan.TRIAL_SAMPLE` trials) and written to a columnar checkpoint file
(:class:`rpcheck.engine.store.CheckpointStore`; without ``out`` in a temporary directory removed at the end),
then dropped. The parent thus holds O(cells x TRIAL_SAMPLE) records, independently of the trials per cell.
The exceptions are the ``decide`` hooks of report-mode variants, which receive every record of their cell:
those are read back from the chunk files one cell at a time during tabulation (:mod:`rpcheck.engine.decide`;
report-mode theorems have few trials: at most 50,000 per cell in the registered profiles, shi2012.thm5
"full"). ``RunResult.trials`` holds the sampled trials; :func:`rpcheck.engine.load_trials` loads every trial
of a results directory. Measured with ``benchmarks/memory_trials.py`` (``engine_test.cheap``, serial, no
``out``): parent RSS peak +11 to +14 MB over the warm baseline at 30,000, 100,000 and 300,000 trials
(BENCHMARKS.md, "Parent memory against the number of trials"); keeping every record would cost about
+250 MB at 300,000.

The bound, in one place: the parent holds at most ``cells x TRIAL_SAMPLE`` records of the run's cells, plus,
for one cell at a time, every record of a cell whose report-mode variant has a ``decide`` hook (measured: about
1.0 KiB a trial, 164k trials of shi2012.thm5 at ``standard``) and every record of a
:func:`rpcheck.engine.run_cell` call (which returns them all). :data:`rpcheck.engine.plan.MAX_TRIALS` (10**6,
also ``--trials``' limit) caps those at about 1 GiB.
"""

from __future__ import annotations

import bisect
import math

import numpy as np

from .. import stats as _stats
from .store import outcome_columns

_NAN = math.nan


class _CellAggregate:
    """What the parent keeps of one cell's trials: memory independent of the number of trials.

    - ``bins[b, j]``: the counts (failures, evaluated, undetermined, solver errors, vacuous) of variant ``j``
      over the trials of look segment ``b`` (``looks[b-1] <= i < looks[b]``), so the counts up to any look
      are exact sums (sequential stopping and the final tabulation both use them);
    - per segment and variant: the largest statistic, the smallest slack ``bound - statistic`` (NaN
      ignored) and the worst certified failure (smallest slack, ties and all-NaN slacks broken by the
      smallest trial index) with its record, for counterexamples;
    - ``sample``: the records of the trials ``i < sample_size`` (quantiles, plots, ``RunResult.trials``);
    - ``intervals``: the trial indices already ingested, as merged half-open ranges.

    Every field is a function of the set of ingested trials, not of their arrival order, so results are
    bit-identical across backends, chunkings and resumes.
    """

    def __init__(self, looks, n_variants, n, sample_size):
        self.looks, self.n, self.sample_size = tuple(looks), n, sample_size
        self._looks = np.asarray(self.looks, dtype=np.int64)
        nb = len(self.looks)
        self.bins = np.zeros((nb, n_variants, 5), np.int64)
        self.attempted = np.zeros(nb, np.int64)
        self.seconds = [0.0] * nb
        self.stat_max = [[_NAN] * n_variants for _ in range(nb)]
        self.slack_min = [[_NAN] * n_variants for _ in range(nb)]
        self.worst = [[None] * n_variants for _ in range(nb)]  # (slack, i, record), slack not NaN
        self.first_fail = [[None] * n_variants for _ in range(nb)]  # (i, record)
        self.sample = {}
        self.intervals = []
        self.ingested = 0

    def extend(self, looks, n):
        """Append look segments (an until-decided run raising the cell's planned trials to ``n``); ``looks``
        starts with the current looks."""
        add = len(looks) - len(self.looks)
        if add < 0 or tuple(looks[: len(self.looks)]) != self.looks or n < self.n:
            raise ValueError(f"looks {looks} do not extend {self.looks}")
        v = self.bins.shape[1]
        self.bins = np.concatenate([self.bins, np.zeros((add, v, 5), np.int64)])
        self.attempted = np.concatenate([self.attempted, np.zeros(add, np.int64)])
        self.seconds += [0.0] * add
        self.stat_max += [[_NAN] * v for _ in range(add)]
        self.slack_min += [[_NAN] * v for _ in range(add)]
        self.worst += [[None] * v for _ in range(add)]
        self.first_fail += [[None] * v for _ in range(add)]
        self.looks, self.n = tuple(looks), n
        self._looks = np.asarray(self.looks, dtype=np.int64)

    # -- ingested trial indices
    def covered(self, i):
        j = bisect.bisect_right(self.intervals, (i, math.inf)) - 1
        return j >= 0 and self.intervals[j][0] <= i < self.intervals[j][1]

    def _overlaps(self, a, b):
        return any(x < b and a < y for x, y in self.intervals)

    def _cover(self, a, b):
        iv = sorted(self.intervals + [(a, b)])
        merged = []
        for x, y in iv:
            if merged and x <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], y))
            else:
                merged.append((x, y))
        self.intervals = merged

    def missing(self, stop):
        """Half-open ranges of trial indices ``< stop`` not ingested yet."""
        out, pos = [], 0
        for x, y in self.intervals:
            if x >= stop:
                break
            if x > pos:
                out.append((pos, x))
            pos = max(pos, y)
        if pos < stop:
            out.append((pos, stop))
        return out

    # -- ingestion
    def ingest(self, start, stop, recs, columns=None):
        """Add the records of trials ``start .. stop-1`` (those already ingested or ``>= n`` are skipped).
        ``columns``: their :func:`rpcheck.engine.store.outcome_columns`, when the caller has it.

        Vectorised over the chunk; the result equals adding the trials one at a time in any order
        (the reference ``_add_one`` in ``tests/engine/test_streaming.py``): counts are sums, the largest statistic
        and the smallest slack are the first occurrence of the extreme (a later equal value, e.g. -0.0
        after 0.0, does not replace it), the worst failure is the smallest ``(slack, trial index)``."""
        if not recs:
            return
        v = self.bins.shape[1]
        cols = columns if columns is not None else outcome_columns(recs, v)
        ii = cols["i"]
        keep = ii < self.n
        if self._overlaps(start, stop):
            keep &= np.fromiter((not self.covered(int(i)) for i in ii), bool, ii.size)
        pos = np.flatnonzero(keep)
        if pos.size == 0:
            return
        ii = ii[pos]
        seg = np.searchsorted(self._looks, ii, side="right")
        ok = cols["status"][pos] == 0
        secs = cols["seconds"][pos]
        for t in np.flatnonzero(ii < self.sample_size):
            self.sample[int(ii[t])] = recs[int(pos[t])]
        self.ingested += int(pos.size)
        for b in np.unique(seg).tolist():
            inb = seg == b
            self.attempted[b] += int(inb.sum())
            for x in secs[inb].tolist():
                self.seconds[b] += x
            self.bins[b, :, 3] += int((inb & ~ok).sum())
            q = np.flatnonzero(inb & ok)
            if q.size and v:
                self._ingest_segment(b, ii[q], pos[q], cols, recs)
        runs = []
        for i in ii.tolist():
            if runs and runs[-1][1] == i:
                runs[-1][1] = i + 1
            else:
                runs.append([i, i + 1])
        for a, b in runs:
            self._cover(a, b)

    def _ingest_segment(self, b, ii, rows, cols, recs):
        """The ok trials ``rows`` (positions in the chunk; trial indices ``ii``) of look segment ``b``."""
        H = cols["holds"][rows]
        S = cols["statistic"][rows]
        Bd = cols["bound"][rows]
        V = cols["vacuous"][rows]
        U = cols["undetermined"][rows]
        bins = self.bins[b]
        nv = ~V
        bins[:, 4] += V.sum(axis=0)
        bins[:, 1] += nv.sum(axis=0)
        bins[:, 2] += (U & nv).sum(axis=0)
        fail = nv & ~U & ~H
        bins[:, 0] += fail.sum(axis=0)
        with np.errstate(invalid="ignore"):  # inf - inf: a NaN slack, ignored as one trial at a time
            slack = Bd - S
        smax, smin, worst, first = self.stat_max[b], self.slack_min[b], self.worst[b], self.first_fail[b]
        big = np.iinfo(np.int64).max
        with np.errstate(invalid="ignore"):
            sv = nv & (S == S)
            lv = nv & (slack == slack)
            top = np.argmax(np.where(sv, S, -np.inf), axis=0)
            low = np.argmin(np.where(lv, slack, np.inf), axis=0)
            wmask = fail & (slack == slack)
            wmin = np.where(wmask, slack, np.inf).min(axis=0)
            wpick = np.argmin(np.where(wmask & (slack == wmin), ii[:, None], big), axis=0)
        fpick = np.argmin(np.where(fail, ii[:, None], big), axis=0)
        any_s, any_l, any_w, any_f = sv.any(axis=0), lv.any(axis=0), wmask.any(axis=0), fail.any(axis=0)
        for j in np.flatnonzero(any_s | any_f).tolist():
            if any_s[j]:
                stat = float(S[top[j], j])
                if not (stat <= smax[j]):
                    smax[j] = stat
            if any_l[j]:
                sl = float(slack[low[j], j])
                if not (sl >= smin[j]):
                    smin[j] = sl
            if any_f[j]:
                t = int(fpick[j])
                i = int(ii[t])
                if first[j] is None or i < first[j][0]:
                    first[j] = (i, recs[int(rows[t])])
            if any_w[j]:
                t = int(wpick[j])
                key = (float(slack[t, j]), int(ii[t]))
                if worst[j] is None or key < worst[j][:2]:
                    worst[j] = (key[0], key[1], recs[int(rows[t])])

    # -- queries over the segments 0 .. nb-1
    def counts(self, j, nb):
        f, e, u, se, vac = (int(x) for x in self.bins[:nb, j].sum(axis=0))
        return _stats.Counts(f, e, u, se, vac)

    def extreme(self, table, j, nb, pick):
        vals = [table[b][j] for b in range(nb) if table[b][j] == table[b][j]]
        return pick(vals) if vals else _NAN

    def worst_failure(self, j, nb):
        """``(trial index, TrialResult)`` of the worst certified failure of variant ``j``, or None."""
        cands = [self.worst[b][j] for b in range(nb) if self.worst[b][j] is not None]
        if cands:
            _, i, r = min(cands, key=lambda t: (t[0], t[1]))
            return i, r
        firsts = [self.first_fail[b][j] for b in range(nb) if self.first_fail[b][j] is not None]
        return min(firsts, key=lambda t: t[0]) if firsts else None

    def sample_records(self, stop):
        """The sampled records with index ``< stop``, by index."""
        return [self.sample[i] for i in sorted(self.sample) if i < stop]


def _counts(cell, j, nb=None):
    """:class:`rpcheck.stats.Counts` of variant ``j`` over the look segments ``0 .. nb-1`` of the cell
    (default: up to the current look), i.e. over the trials ``< looks[nb-1]``."""
    return cell.agg.counts(j, cell.look + 1 if nb is None else nb)

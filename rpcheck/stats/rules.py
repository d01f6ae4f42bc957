"""The fixed-n verdict rules of one row, one decision function per mode (:mod:`rpcheck.stats`, "Decision rules").

:class:`Counts` in, :class:`Decision` out; :func:`decide` dispatches on the mode.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .._validation import check_choice, check_int, check_interval
from ..errors import RpcheckError
from .binomial import BinomialCount, _cdf, _central, _sf_ge


class Verdict(enum.StrEnum):
    """Verdict of one (cell, variant) row (rules in the docstring of :mod:`rpcheck.stats`)."""

    HOLDS = "HOLDS"
    VIOLATED = "VIOLATED"
    INCONCLUSIVE = "INCONCLUSIVE"
    VACUOUS = "VACUOUS"


#: Roles of a variant (:mod:`rpcheck.stats`, "Roles").
ROLES = ("claim", "self-check", "control", "measurement")
#: Modes of a variant, each with its decision function.
MODES = ("bound", "deterministic", "exact", "search", "report")
#: Modes whose rows enter the Holm families.
STAT_MODES = ("bound", "exact")
#: Confidence of the deterministic HOLDS rule and the largest counterexample rate it must exclude.
DETERMINISTIC_CONFIDENCE = 0.99
DETERMINISTIC_MAX_RATE = 0.05
#: Smallest number of counterexample-free draws for a deterministic HOLDS:
#: the least n with 1 - (1 - DETERMINISTIC_CONFIDENCE)**(1/n) <= DETERMINISTIC_MAX_RATE (= 90).
DETERMINISTIC_MIN_DRAWS = math.ceil(math.log(1 - DETERMINISTIC_CONFIDENCE) / math.log(1 - DETERMINISTIC_MAX_RATE))
#: Relative margin of the equivalence test of mode "exact": the region [p/1.25, 1.25 p].
EQUIVALENCE_MARGIN = 1.25


class Counts(NamedTuple):
    """The counts of one (cell, variant) row (:mod:`rpcheck.stats`, "Counts")."""

    failures: int
    evaluated: int
    undetermined: int = 0
    solver_errors: int = 0
    vacuous: int = 0

    @property
    def ambiguous(self):
        """Undetermined trials and solver errors, counted against the verdict being tested."""
        return self.undetermined + self.solver_errors

    @property
    def draws(self):
        """Draws a test uses: evaluated trials and solver errors."""
        return self.evaluated + self.solver_errors


@dataclass(frozen=True)
class Decision:
    """What a decision function returns for one row.

    verdict : Verdict
    claim : str
        The quantitative statement the data support (non-empty for every HOLDS).
    pvalue, pvalue_holds : float
        Refutation (VIOLATED) and support/equivalence (HOLDS) p-values; NaN outside the statistical modes.
    ci_low, ci_high, confidence_level : float
        The interval behind the verdict (see :func:`decide_bound`, :func:`decide_exact`); for
        deterministic and search rows a descriptive two-sided CP interval at 99%.
    stops : bool
        Whether a sequential run may stop this row here (its verdict cannot be improved by more draws).
    """

    verdict: Verdict
    claim: str
    pvalue: float = math.nan
    pvalue_holds: float = math.nan
    ci_low: float = math.nan
    ci_high: float = math.nan
    confidence_level: float = math.nan
    stops: bool = False


def _pct(alpha):
    return f"{100 * (1 - alpha):.4g}%"


def _g(x):
    return f"{x:.3g}"


def _round_sig(x, up):
    """``x`` rounded to 3 significant digits outward (up for an upper bound, down for a lower bound), so a
    printed claim is never stronger than the computed bound.

    >>> _round_sig(0.0045942, True), _round_sig(0.0045942, False)
    ('0.00460', '0.00459')
    """
    if not math.isfinite(x) or x == 0:
        return _g(x)
    e = math.floor(math.log10(abs(x))) - 2
    scaled = x / 10.0**e
    r = (math.ceil(scaled - 1e-9) if up else math.floor(scaled + 1e-9)) * 10.0**e
    return f"{r:.{max(0, -e)}f}" if e < 0 else f"{r:.0f}"


def _up(x):
    return _round_sig(x, True)


def _down(x):
    return _round_sig(x, False)


def _as_counts(counts):
    if isinstance(counts, Counts):
        c = counts
    else:
        c = Counts(*counts)
    for name, v in zip(Counts._fields, c):
        check_int(name, v, 0)
    if c.failures + c.undetermined > c.evaluated:
        raise RpcheckError(
            f"`failures` ({c.failures}) + `undetermined` ({c.undetermined}) must be <= `evaluated` ({c.evaluated})."
        )
    return c


def _empty(c):
    """The decision of a row with no draw to test (None when there is one)."""
    if c.draws > 0:
        return None
    if c.vacuous > 0:
        return Decision(Verdict.VACUOUS, f"every one of {c.vacuous} draws was vacuous", stops=True)
    return Decision(Verdict.INCONCLUSIVE, "no draw evaluated")


def _prepare(counts, alpha_violated, alpha_holds):
    """Validated counts and levels of a statistical row, and its decision when it has no draw (else None)."""
    c = _as_counts(counts)
    av = check_interval("alpha_violated", alpha_violated, 0, 1, closed="neither")
    ah = check_interval("alpha_holds", alpha_holds, 0, 1, closed="neither")
    return c, av, ah, _empty(c)


def _one_sided_bounds(k_low, k_high, n, alpha):
    lo = BinomialCount(k_low, n).proportion_ci(1 - alpha, alternative="greater").low
    hi = BinomialCount(k_high, n).proportion_ci(1 - alpha, alternative="less").high
    return lo, hi


def _suffix(c):
    parts = []
    if c.undetermined:
        parts.append(f"{c.undetermined} undetermined")
    if c.solver_errors:
        parts.append(f"{c.solver_errors} solver errors")
    return f" ({', '.join(parts)} counted against the verdict)" if parts else ""


def bound_pvalues(counts, delta):
    """``(pvalue_violated, pvalue_holds)`` of a ``"bound"`` row: ``P_delta(X >= k_v)`` and
    ``P_delta(X <= k_h)`` over ``n`` draws (:mod:`rpcheck.stats`).

    >>> [round(x, 4) for x in bound_pvalues(Counts(3, 100), 0.01)]
    [0.0794, 0.9816]
    >>> [round(x, 4) for x in bound_pvalues(Counts(3, 100, undetermined=2), 0.01)]   # k_h = 5
    [0.0794, 0.9995]
    """
    c = _as_counts(counts)
    delta = check_interval("delta", delta, 0, 1)
    n = c.draws
    if n == 0:
        return 1.0, 1.0
    return float(_sf_ge(c.failures, n, delta)), float(_cdf(c.failures + c.ambiguous, n, delta))


def decide_bound(counts, delta, *, alpha_violated, alpha_holds):
    """Decision of a ``"bound"`` row (claim ``P(fail) <= delta``) at the given (Holm or Bonferroni) levels.

    VIOLATED iff ``pvalue <= alpha_violated`` (false-VIOLATED probability <= alpha_violated when the claim
    holds); HOLDS iff ``pvalue_holds <= alpha_holds`` (false-HOLDS probability <= alpha_holds when it is
    false); else INCONCLUSIVE. ``[ci_low, ci_high]``: the one-sided lower CP bound at
    ``1 - alpha_violated`` (from ``k_v``) and the upper one at ``1 - alpha_holds`` (from ``k_h``).

    >>> d = decide_bound(Counts(0, 1000), 0.01, alpha_violated=0.01, alpha_holds=0.01)
    >>> d.verdict, d.claim
    (<Verdict.HOLDS: 'HOLDS'>, 'P(fail) <= 0.00460 at 99%')
    >>> decide_bound(Counts(40, 1000), 0.01, alpha_violated=0.01, alpha_holds=0.01).verdict
    <Verdict.VIOLATED: 'VIOLATED'>
    >>> decide_bound(Counts(12, 1000), 0.01, alpha_violated=0.01, alpha_holds=0.01).verdict
    <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>
    >>> decide_bound(Counts(0, 990, solver_errors=10), 0.01, alpha_violated=0.01, alpha_holds=0.01).verdict
    <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>
    """
    c, av, ah, empty = _prepare(counts, alpha_violated, alpha_holds)
    if empty is not None:
        return empty
    pv, ph = bound_pvalues(c, delta)
    k_h = c.failures + c.ambiguous
    lo = _one_sided_bounds(c.failures, k_h, c.draws, av)[0]
    hi = _one_sided_bounds(c.failures, k_h, c.draws, ah)[1]
    common = dict(pvalue=pv, pvalue_holds=ph, ci_low=lo, ci_high=hi, confidence_level=1 - av - ah)
    if pv <= av:
        claim = f"P(fail) >= {_down(lo)} > delta = {_g(delta)} at {_pct(av)}"
        return Decision(Verdict.VIOLATED, claim, stops=True, **common)
    if ph <= ah:
        return Decision(Verdict.HOLDS, f"P(fail) <= {_up(hi)} at {_pct(ah)}" + _suffix(c), stops=True, **common)
    claim = f"P(fail) in [{_down(lo)}, {_up(hi)}], which contains delta = {_g(delta)}" + _suffix(c)
    return Decision(Verdict.INCONCLUSIVE, claim, **common)


def _equivalence_region(p):
    m = EQUIVALENCE_MARGIN
    return max(p / m, 1 - m * (1 - p)), min(m * p, 1 - (1 - p) / m)


def exact_pvalues(counts, p):
    """``(pvalue_violated, pvalue_holds)`` of an ``"exact"`` row: the central two-sided p-value and the
    equivalence (two one-sided tests) p-value, each the largest over the resolutions of the ambiguous trials.

    >>> [round(x, 4) for x in exact_pvalues(Counts(50, 100), 0.5)]
    [1.0, 0.0271]
    >>> exact_pvalues(Counts(80, 100), 0.5)[0] < 1e-8
    True
    """
    c = _as_counts(counts)
    p = check_interval("p", p, 0, 1)
    n = c.draws
    if n == 0:
        return 1.0, 1.0
    ks = np.arange(c.failures, c.failures + c.ambiguous + 1)
    pv = float(np.max(_central(ks, n, p)))
    lo, hi = _equivalence_region(p)
    if not lo < hi:
        return pv, 1.0
    ph = float(np.max(np.maximum(_sf_ge(ks, n, lo), _cdf(ks, n, hi))))
    return pv, ph


def decide_exact(counts, p, *, alpha_violated, alpha_holds):
    """Decision of an ``"exact"`` row (claim ``P(fail) = p``).

    VIOLATED iff the central two-sided p-value is ``<= alpha_violated`` (``[ci_low, ci_high]`` is then the
    two-sided CP interval at ``1 - alpha_violated``, which excludes ``p``); HOLDS iff the equivalence
    p-value is ``<= alpha_holds``, i.e. both one-sided CP bounds at ``1 - alpha_holds`` lie in
    ``[p/1.25, 1.25 p]`` (and likewise for ``1 - p``); else INCONCLUSIVE.

    >>> decide_exact(Counts(50, 100), 0.5, alpha_violated=0.01, alpha_holds=0.01).verdict   # too few draws
    <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>
    >>> d = decide_exact(Counts(2500, 5000), 0.5, alpha_violated=0.01, alpha_holds=0.01)
    >>> d.verdict
    <Verdict.HOLDS: 'HOLDS'>
    >>> d.claim
    'failure rate in [0.483, 0.517] within [0.8p, 1.25p] (p = 0.5, and likewise for 1-p) at 99%'
    >>> decide_exact(Counts(80, 100), 0.5, alpha_violated=0.01, alpha_holds=0.01).verdict
    <Verdict.VIOLATED: 'VIOLATED'>
    """
    c, av, ah, empty = _prepare(counts, alpha_violated, alpha_holds)
    if empty is not None:
        return empty
    pv, ph = exact_pvalues(c, p)
    n, k_lo, k_hi = c.draws, c.failures, c.failures + c.ambiguous
    lo2 = BinomialCount(k_lo, n).proportion_ci(1 - av).low
    hi2 = BinomialCount(k_hi, n).proportion_ci(1 - av).high
    common = dict(pvalue=pv, pvalue_holds=ph, ci_low=lo2, ci_high=hi2, confidence_level=1 - av)
    if pv <= av:
        claim = f"failure rate in [{_down(lo2)}, {_up(hi2)}] excludes p = {_g(p)} at {_pct(av)}"
        return Decision(Verdict.VIOLATED, claim, stops=True, **common)
    lo1, hi1 = _one_sided_bounds(k_lo, k_hi, n, ah)
    if ph <= ah:
        claim = (
            f"failure rate in [{_down(lo1)}, {_up(hi1)}] within [0.8p, 1.25p] (p = {_g(p)}, and likewise for 1-p) "
            f"at {_pct(ah)}" + _suffix(c)
        )
        return Decision(Verdict.HOLDS, claim, stops=True, **common)
    claim = (
        f"failure rate in [{_down(lo1)}, {_up(hi1)}] at {_pct(ah)}: consistent with p = {_g(p)} but not inside "
        "[0.8p, 1.25p]; more draws needed for HOLDS" + _suffix(c)
    )
    return Decision(Verdict.INCONCLUSIVE, claim, **common)


def _descriptive(c, level=DETERMINISTIC_CONFIDENCE):
    if c.draws == 0:
        return {}
    lo = BinomialCount(c.failures, c.draws).proportion_ci(level).low
    hi = BinomialCount(c.failures + c.ambiguous, c.draws).proportion_ci(level).high
    return dict(ci_low=lo, ci_high=hi, confidence_level=level)


def _counterexample_or_empty(c, found):
    """The decision that needs no statistics: VIOLATED (stopping the row) on a counterexample, ``c.failures
    of c.evaluated <found>``, else the empty-row decision of :func:`_empty`, else None."""
    if c.failures > 0:
        claim = f"counterexample found: {c.failures} of {c.evaluated} {found}"
        return Decision(Verdict.VIOLATED, claim, stops=True, **_descriptive(c))
    return _empty(c)


def decide_deterministic(counts, *, exhaustive=False):
    """Decision of a ``"deterministic"`` row (:mod:`rpcheck.stats`): any certified failure is VIOLATED; HOLDS
    needs no failure, no ambiguous trial and at least :data:`DETERMINISTIC_MIN_DRAWS` evaluated draws.

    >>> decide_deterministic(Counts(1, 10)).verdict
    <Verdict.VIOLATED: 'VIOLATED'>
    >>> d = decide_deterministic(Counts(0, 460))
    >>> d.verdict, d.claim
    (<Verdict.HOLDS: 'HOLDS'>, 'no counterexample in 460 draws: P(counterexample) <= 0.00997 at 99%')
    >>> decide_deterministic(Counts(0, 60)).claim
    'no counterexample in 60 draws; HOLDS needs >= 90 (P(counterexample) <= 0.05 at 99%)'
    >>> decide_deterministic(Counts(0, 500, undetermined=1)).verdict
    <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>
    >>> decide_deterministic(Counts(0, 0, vacuous=5)).verdict
    <Verdict.VACUOUS: 'VACUOUS'>

    With ``exhaustive=True`` (a claim on fixed inputs, no randomness: one evaluation is a proof) HOLDS needs
    one clean evaluation:

    >>> decide_deterministic(Counts(0, 1), exhaustive=True).claim
    'exhaustive: holds on its fixed inputs (1 evaluation; no randomness involved)'
    """
    c = _as_counts(counts)
    first = _counterexample_or_empty(c, "evaluated draws fail")
    if first is not None:
        return first
    conf = _pct(1 - DETERMINISTIC_CONFIDENCE)
    if exhaustive and not c.ambiguous:
        claim = f"exhaustive: holds on its fixed inputs ({c.evaluated} evaluation{'s' * (c.evaluated != 1)}; " \
            "no randomness involved)"
        return Decision(Verdict.HOLDS, claim, **_descriptive(c))
    if c.ambiguous:
        claim = (
            f"no certified counterexample in {c.evaluated} draws, but {c.undetermined} undetermined and "
            f"{c.solver_errors} solver errors; HOLDS needs none"
        )
        return Decision(Verdict.INCONCLUSIVE, claim, **_descriptive(c))
    if c.evaluated < DETERMINISTIC_MIN_DRAWS:
        claim = (
            f"no counterexample in {c.evaluated} draws; HOLDS needs >= {DETERMINISTIC_MIN_DRAWS} "
            f"(P(counterexample) <= {_g(DETERMINISTIC_MAX_RATE)} at {conf})"
        )
        return Decision(Verdict.INCONCLUSIVE, claim, **_descriptive(c))
    ub = 1 - (1 - DETERMINISTIC_CONFIDENCE) ** (1 / c.evaluated)
    claim = f"no counterexample in {c.evaluated} draws: P(counterexample) <= {_up(ub)} at {conf}"
    # a deterministic row keeps looking for counterexamples over all planned draws (stops=False)
    return Decision(Verdict.HOLDS, claim, **_descriptive(c))


def decide_search(counts, worst_slack=math.nan):
    """Decision of a ``"search"`` row: VIOLATED when a counterexample was found, otherwise INCONCLUSIVE
    (never HOLDS: an unsuccessful search is no evidence about the whole search space).

    >>> decide_search(Counts(2, 10)).verdict
    <Verdict.VIOLATED: 'VIOLATED'>
    >>> d = decide_search(Counts(0, 300), worst_slack=0.02)
    >>> d.verdict, d.claim
    (<Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>, 'no counterexample in 300 instances searched; worst slack 0.02')
    """
    c = _as_counts(counts)
    first = _counterexample_or_empty(c, "instances searched")
    if first is not None:
        return first
    s = "n/a" if math.isnan(worst_slack) else _g(worst_slack)
    claim = f"no counterexample in {c.evaluated} instances searched; worst slack {s}" + _suffix(c)
    return Decision(Verdict.INCONCLUSIVE, claim, **_descriptive(c))


def decide_report(verdict, info=None, *, role="claim"):
    """Decision of a ``"report"`` row from the checker's ``decide`` rule (``verdict``, ``info``).

    A row of role ``"measurement"`` has no verdict rule: INCONCLUSIVE with claim "measured". Otherwise the
    rule's verdict, with ``info["claim"]`` (the rule's statement with its error rate) as claim.

    >>> decide_report(Verdict.HOLDS, {"claim": "mean > 0 at 99%"}).claim
    'mean > 0 at 99%'
    >>> decide_report(Verdict.HOLDS, {}, role="measurement").verdict
    <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>
    """
    info = dict(info or {})
    if role == "measurement":
        return Decision(Verdict.INCONCLUSIVE, "measured")
    verdict = Verdict(verdict)
    claim = str(info.get("claim") or "")
    if not claim and verdict is not Verdict.INCONCLUSIVE:
        claim = "verdict of the checker's decide rule (no error rate stated)"
    return Decision(verdict, claim)


def pvalues(mode, counts, promised):
    """``(pvalue_violated, pvalue_holds)`` of a row of a statistical mode (for Holm's families)."""
    check_choice("mode", mode, STAT_MODES)
    return bound_pvalues(counts, promised) if mode == "bound" else exact_pvalues(counts, promised)


def decide(mode, counts, promised=None, *, alpha_violated=None, alpha_holds=None, worst_slack=math.nan,
           exhaustive=False):
    """The decision function of ``mode`` (one per mode; used by sequential stopping and tabulation).

    >>> decide("search", Counts(0, 5)).verdict
    <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>
    >>> decide("bound", Counts(0, 1000), 0.01, alpha_violated=0.01, alpha_holds=0.01).verdict
    <Verdict.HOLDS: 'HOLDS'>
    """
    check_choice("mode", mode, tuple(m for m in MODES if m != "report"))
    if mode == "bound":
        return decide_bound(counts, promised, alpha_violated=alpha_violated, alpha_holds=alpha_holds)
    if mode == "exact":
        return decide_exact(counts, promised, alpha_violated=alpha_violated, alpha_holds=alpha_holds)
    if mode == "deterministic":
        return decide_deterministic(counts, exhaustive=exhaustive)
    return decide_search(counts, worst_slack)

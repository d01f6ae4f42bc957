r"""Exact binomial statistics and the verdict rules of rpcheck (rules v2).

This module docstring is the one place where the verdict rules are documented; the runner
(:mod:`rpcheck.engine.runner`) only counts trials and calls :func:`decide` (one decision function per mode,
used both by sequential stopping and by the final tabulation). Every number is exact (no normal
approximation): confidence intervals are Clopper--Pearson (CP) intervals and p-values exact binomial tail
probabilities.

Counts
------
For one (cell, variant) row, :class:`Counts` holds ``failures`` (certified failures: ``holds`` is False,
not vacuous, not undetermined), ``evaluated`` (trials that returned an outcome that is not vacuous;
undetermined ones included), ``undetermined`` (the solver certificate's interval straddles the inequality:
``Outcome.undetermined``), ``solver_errors`` and ``vacuous``. The *ambiguous* trials are
``u = undetermined + solver_errors``; the number of draws a test uses is ``n = evaluated + solver_errors``.

Ambiguous trials count against the verdict being tested: every p-value below is the largest one over
all ways of resolving the ``u`` ambiguous trials as failures or successes. For a one-sided test this is
simply "failures when testing HOLDS (``k_h = failures + u``), successes when testing VIOLATED
(``k_v = failures``)". So neither a solver that fails nor a certificate too loose to decide can produce a
HOLDS or a VIOLATED that the certified trials alone would not support.

Decision rules and the error each one guarantees
------------------------------------------------
``"bound"`` (claim ``p <= delta``)
    Two one-sided exact tests (Clopper & Pearson 1934). Refutation, H0 ``p <= delta``: p-value
    ``P_delta(X >= k_v)``, VIOLATED when ``<= alpha_v`` (the one-sided lower CP bound at ``1 - alpha_v``
    is ``> delta``). Support, H0 ``p >= delta``: p-value ``P_delta(X <= k_h)``, HOLDS when ``<= alpha_h``
    (the one-sided upper CP bound at ``1 - alpha_h`` is ``<= delta``). If the claim holds,
    P(VIOLATED) <= alpha_v; if it is false, P(HOLDS) <= alpha_h. Both cannot reject together when
    ``alpha_v + alpha_h < 1``. Claim of a HOLDS: "P(fail) <= 0.031 at 99%".
``"exact"`` (claim ``p = p0``, ``p0`` known in closed form)
    VIOLATED: the central (equal-tailed) two-sided exact test, p-value
    ``min(1, 2 min(P_p0(X <= k), P_p0(X >= k)))``, dual to the two-sided CP interval; VIOLATED when
    ``<= alpha_v``. If ``p0`` is right, P(VIOLATED) <= alpha_v.
    HOLDS only by an *equivalence* test (two one-sided tests, Schuirmann 1987): with the equivalence region
    ``E = [p0/1.25, 1.25 p0]`` intersected with the same region for the success probability
    (``1 - p`` in ``[(1 - p0)/1.25, 1.25 (1 - p0)]``), HOLDS when both one-sided CP bounds at
    ``1 - alpha_h`` (the lower from ``k_v``, the upper from ``k_h``) lie inside ``E``; the p-value is
    ``max(P_{E_low}(X >= k), P_{E_high}(X <= k))``. If the true ``p`` is outside ``E``,
    P(HOLDS) <= alpha_h. Non-rejection of the two-sided test is no longer a HOLDS: with few trials it is
    the absence of evidence, not evidence of agreement. Claim of a HOLDS: "failure rate in [0.041, 0.062]
    within [0.8p, 1.25p] at 99%".

    *Why 1.25.* The region ``[p0/1.25, 1.25 p0] = [0.8 p0, 1.25 p0]`` is the 80--125% equivalence
    convention of bioequivalence testing, symmetric on the log scale (``log 1.25 = -log 0.8``): it asks
    for agreement to within 25% relative error. The errors an exact-probability claim is meant to expose
    (a wrong constant, a wrong exponent, a misread law such as a sketch of ``4n`` instead of ``n`` rows)
    change ``p0`` by far more than 25% in the regimes checked, while a tighter margin would need
    prohibitively many trials (the half-width of the 99% CP interval is about
    ``2.6 sqrt(p (1 - p) / n)``: about 3,200 trials reach the margin at ``p0 = 0.05``).
``"deterministic"`` (must hold for every draw)
    VIOLATED on any certified failure, which is a concrete, replayable trial: no sampling error is
    involved (a false VIOLATED can only come from a wrong tolerance in the checker). HOLDS only with 0
    failures, 0 undetermined, 0 solver errors and at least ``DETERMINISTIC_MIN_DRAWS = 90`` evaluated
    draws: then the one-sided 99% upper CP bound on P(counterexample) is
    ``1 - 0.01**(1/n) <= DETERMINISTIC_MAX_RATE = 0.05``. Error rate: if a random draw is a
    counterexample with probability ``q > 0.05``, P(HOLDS) <= ``0.95**90 < 0.01`` for that row. Else
    INCONCLUSIVE (the claim says how many draws were seen and how many are needed). Claim of a HOLDS:
    "no counterexample in 460 draws: P(counterexample) <= 0.01 at 99%".
``"search"`` (an open question searched for counterexamples)
    VIOLATED when a counterexample is found (a concrete instance). Never HOLDS: an unsuccessful search is
    no evidence about the search space, so the verdict is INCONCLUSIVE with claim "no counterexample in N
    instances searched; worst slack s".
``"report"``
    A verdict only from the checker's ``decide`` rule (which must state its error rate, in its ``info`` as
    ``claim``); a variant of role ``"measurement"`` has no verdict rule and its rows stay INCONCLUSIVE
    ("measured").
VACUOUS
    Whatever the mode, a row with no evaluated draw, some vacuous ones and no solver error is VACUOUS; a
    row with nothing evaluated at all is INCONCLUSIVE.

Multiplicity (Holm 1979)
------------------------
:func:`holm` is the Holm--Bonferroni step-down procedure (valid under any dependence). In a run the
refutation p-values of every non-vacuous ``"bound"`` and ``"exact"`` row with at least one draw form the
VIOLATED family, and their support (resp. equivalence) p-values the HOLDS family, each at level ``alpha``:

* P(at least one false VIOLATED among the statistical rows of a run) ``<= alpha``;
* P(at least one false HOLDS among the statistical rows of a run) ``<= alpha``.

Deterministic rows are outside both families (a VIOLATED is a concrete instance; a HOLDS has the per-row
error above). Group-sequential runs replace Holm by Bonferroni over rows and looks (``alpha / (m K)`` per
test; see :mod:`rpcheck.engine.runner`); runs that look after every chunk use the anytime-valid rules
below; a row is settled when its :class:`Decision` has ``stops`` set
(bound/exact: HOLDS or VIOLATED; deterministic/search: a counterexample; report: never).

Anytime-valid sequential rules
------------------------------
A run that looks at its rows after every chunk and stops each row as soon as it is decided uses
:func:`decide_sequential` per row and :func:`sequential_family` for the levels (the e-values are computed
in :mod:`rpcheck.sequential`). Every error statement below holds whatever the number and times of the
looks and whatever the (data-dependent) stopping rule, because each rests on a nonnegative supermartingale
``E_n`` with ``E_0 <= 1`` under the null and on Ville's inequality (Ville 1939):
``P(sup_n E_n >= 1/a) <= a``.

*The e-processes.* After ``n`` draws with ``k`` failures, ``L_n(q) = q^k (1 - q)^(n - k)``. Against
``H0: p <= theta`` the e-value is the mixture likelihood ratio (Robbins 1970; Howard et al. 2021;
Waudby-Smith & Ramdas 2024 for the betting view) ``E_n = int L_n(q) / L_n(theta) dpi(q)`` over the Jeffreys
prior ``Beta(1/2, 1/2)`` restricted to the alternative ``(theta, 1]`` ("above"); against ``H0: p >= theta``
the same over ``[0, theta)`` ("below"); against ``H0: p = theta`` over all of ``[0, 1]`` ("differs"). Each
is a ratio of beta functions and regularised incomplete beta functions, computed exactly in log space.

*Proof of the supermartingale property under the composite null.* Fix ``q > theta``. One draw multiplies
``L_n(q) / L_n(theta)`` by ``q / theta`` (failure) or ``(1 - q) / (1 - theta)`` (success); given the past,
with failure probability ``p``, the expected factor is ``g(p) = p q / theta + (1 - p)(1 - q) / (1 - theta)``,
linear in ``p`` with ``g(theta) = 1`` and slope ``q / theta - (1 - q) / (1 - theta) > 0``, so ``g(p) <= 1``
for every ``p <= theta``: the ratio is a nonnegative supermartingale under every distribution of the null,
even one whose failure probability changes from draw to draw (each ``<= theta`` given the past). This is
the monotone likelihood ratio argument: the boundary ``theta`` is the least favourable point of the null.
The prior is fixed before the data, so by Tonelli ``E[E_{n+1} | past] = int g(p) L_n(q)/L_n(theta) dpi(q)
<= E_n``, and ``E_0 = 1``. For "below" (``q < theta``) the slope is negative and ``p >= theta`` gives
``g(p) <= 1``; for "differs" ``g(theta) = 1``: a martingale.

*Ambiguous trials.* "above" is increasing in ``k`` (a failure multiplies every ratio by ``q / theta > 1``,
a success by ``(1 - q) / (1 - theta) < 1``) and "below" decreasing. Every ambiguous trial has a true outcome
(the inequality holds or not on the drawn instance; the certificate or the solver could not tell which);
the process of the true outcomes is the supermartingale above. Evaluating "above" at ``k_v = failures``
(every ambiguous trial a success) and "below" at ``k_h = failures + u`` gives, path by path, a value ``<=``
the true-outcome process, however the ambiguity depends on the data; a process dominated by a test
supermartingale reaches ``1/a`` with probability ``<= a``. "differs" takes the minimum over every
resolution ``k_v <= k <= k_h``.

*Rules of one row* (levels ``a_v``, ``a_h``; ``pvalue = min(1, 1/E)`` is an anytime-valid p-value):

* ``"bound"``: VIOLATED when ``E_above(k_v; delta) >= 1/a_v`` (if ``p <= delta``: P(VIOLATED at any look)
  ``<= a_v``); HOLDS when ``E_below(k_h; delta) >= 1/a_h`` (if ``p >= delta``: P(HOLDS at any look)
  ``<= a_h``).
* ``"exact"``: VIOLATED when ``E_differs(k; p0) >= 1/a_v`` (if ``p = p0``: P(VIOLATED ever) ``<= a_v``).
  HOLDS (equivalence, ``[lo, hi]`` the region of the fixed rule) when at one look both
  ``E_above(k_v; lo) >= 1/a_h`` and ``E_below(k_h; hi) >= 1/a_h``: if ``p < lo`` the null ``p <= lo`` is
  true and P(HOLDS ever) ``<= P(E_above ever >= 1/a_h) <= a_h``; likewise if ``p > hi`` (intersection-union:
  no split of ``a_h``). The row's HOLDS e-value is the smaller of the two, dominated under either null by a
  test supermartingale.
* ``"deterministic"`` and ``"search"``: the fixed rules, already valid under optional stopping. A VIOLATED
  is a concrete, replayable counterexample (no sampling error). A HOLDS at any look needs every draw so far
  clean and at least ``DETERMINISTIC_MIN_DRAWS = 90`` of them, so the event "HOLDS at some look" is
  contained in "the first 90 draws are clean", of probability ``(1 - q)**90 <= 0.95**90 < 0.01`` when the
  counterexample rate is ``q > 0.05``, whatever the looks and the stopping.

*The prior.* The Jeffreys prior restricted to the alternative, chosen once, not tuned. The log of a
mixture e-value is the log of the maximum likelihood ratio minus a regret of about
``1/2 log n + log(Z / sqrt(2 pi))`` (``Z <= pi`` the Jeffreys mass of the alternative), the same at every
interior alternative: the Jeffreys (Krichevsky--Trofimov) mixture is asymptotically minimax for this
regret (Xie & Barron 2000), so no true rate is favoured over another, small ``delta`` loses nothing to the
smallness of its alternative (the density ``1/sqrt(q (1 - q))`` puts mass near 0), and at ``k = 0`` (claims
that hold with a margin) the regret is about ``1/2 log(4 n delta / pi)``.

*Multiplicity: closed e-Holm.* The refutation e-values of the family's rows (every ``"bound"`` and
``"exact"`` row of the run, fixed before it starts) form the VIOLATED family, their support/equivalence
e-values the HOLDS family. In each, ``H_i`` is rejected when every ``S`` containing ``i`` has
``mean_{j in S} e_j >= 1/alpha`` (the closure of the arithmetic-mean merging function, Vovk & Wang 2021),
equivalently ``e_i >= T_i = 1/alpha + sum_{j != i} (1/alpha - e_j)_+``; ``T_i <= m/alpha``
(e-Bonferroni) always, and ``T_i`` falls towards ``1/alpha`` as other rows are rejected, as Holm's levels
rise towards ``alpha``. Under optional stopping: the trials are independent draws, so every row's
e-process is a supermartingale for the run's common filtration (which row receives the next chunk may
depend on the past; a stopped row's process is frozen, a stopped supermartingale), and so is the mean over
the true nulls ``I0``. A false rejection of some ``i`` in ``I0`` at any look needs ``mean_{I0} e >= 1/alpha``
at that look (``S = I0``); that mean starts at 1 (rows not started yet enter with ``E = 1``), hence by
Ville (Hartog & Lei 2025 for closed e-testing in sequential settings):

* P(a false VIOLATED among the family's rows at any look) ``<= alpha``;
* P(a false HOLDS among the family's rows at any look) ``<= alpha``.

A row once rejected keeps its verdict (the caller stops it): the bound is on "ever rejected". (The e-BH
procedure of Wang & Ramdas 2022 controls the false discovery rate instead; rpcheck reports family-wise.)

*Power* (exact, not simulated: :func:`trials_for_power`, a dynamic programme over the counts of the
streams not yet stopped; the anytime rule looks after every draw at e-Bonferroni level ``alpha/m``, the
fixed-n rule is the exact test at ``alpha/m``, Holm's first step, and at ``alpha``, Holm's last).
Draws needed for probability 0.99 of the verdict, ``alpha = 0.01``::

    mode   verdict   promised  true p   m    fixed alpha/m  fixed alpha  anytime  anytime/fixed
    bound  HOLDS     0.05      0        50     167            90          191     1.14
    bound  HOLDS     0.05      0        200    194            90          219     1.13
    bound  VIOLATED  0.05      0.2      50     147            96          193     1.31
    bound  VIOLATED  0.05      0.2      200    159            96          210     1.32
    bound  HOLDS     0.1       0.01     50     180           113          234     1.30
    bound  HOLDS     0.1       0.01     200    214           113          270     1.26
    bound  HOLDS     0.01      0        50     848           459          973     1.15
    bound  HOLDS     0.01      0        200    986           459         1118     1.13
    bound  VIOLATED  0.01      0.03     50    1506          1014         2187     1.45
    bound  VIOLATED  0.01      0.03     200   1706          1014         2365     1.39
    bound  HOLDS     0.5       0.3      50     206           130          275     1.33
    bound  HOLDS     0.5       0.3      200    230           130          302     1.31
    exact  VIOLATED  0.05      0.1      50     966           647         1317     1.36
    exact  VIOLATED  0.05      0.1      200   1067           647         1419     1.33
    exact  HOLDS     0.5       0.5      50     928           596         1294     1.39
    exact  HOLDS     0.5       0.5      200   1032           596         1400     1.36
    exact  HOLDS     0.05      0.05     50   14855          9551        23079     1.55
    exact  HOLDS     0.05      0.05     200  16626          9551        24799     1.49

The anytime rule needs 1.13--1.55 times the fixed-n draws at the same level; it then stops every row at
its own pace instead of running each for the largest planned count. Looking after every chunk of ``c``
draws instead of every draw adds fewer than ``c`` draws. ``tests/test_stats_sequential.py`` recomputes eight
of the entries. :func:`trials_to_decide` projects, for one row, how many more draws its current
rates need (for ordering rows by expected decisions per CPU second and for "what it would take" claims).

Attainability of an expected verdict
------------------------------------
A checker's declared expected verdict must be a claim the data can attain. :func:`unattainable` says
when a row's counts make the declared verdict impossible under the rule *whatever the outcomes* (of the
row, and of every other row of the Holm family: the level used is the largest one the row can get,
``alpha`` under Holm, ``alpha / (m K)`` in a sequential run):

* HOLDS, ``"deterministic"``: fewer than ``DETERMINISTIC_MIN_DRAWS`` evaluated (non-vacuous) draws;
* HOLDS, ``"bound"``: even 0 failures give a support p-value ``(1 - delta)**n`` above the level;
* HOLDS, ``"exact"``: no count ``k`` in ``0..n`` passes the equivalence test at the level;
* HOLDS, ``"search"``: never attainable (the rule never says HOLDS);
* VIOLATED, ``"bound"``: even ``k = n`` gives a refutation p-value ``delta**n`` above the level;
* VIOLATED, ``"exact"``: even the most extreme count (``k = 0`` or ``k = n``) gives a central p-value
  ``min(1, 2 min((1 - p)**n, p**n))`` above the level; VIOLATED is always attainable for
  ``"deterministic"`` and ``"search"`` rows with a draw.

The runner then uses INCONCLUSIVE as the effective expected verdict (column ``expected``), keeps the
declared one in ``expected_declared`` and appends the reason to the row's ``claim`` (e.g. "HOLDS
unattainable: 40 draws, the rule needs 90"). A declared HOLDS whose every draw was vacuous (0 evaluated
draws) also accepts VACUOUS, the rule's name for that no-evidence state; a failure is never excused.
:func:`holds_power` and :func:`violated_power` give the
exact probability that a rule says HOLDS / VIOLATED, so the power behind an expected verdict can be
computed (and written) next to it.

Roles
-----
Every variant has a role (:data:`ROLES`): ``"claim"`` (a statement of the paper), ``"self-check"`` (a
check of the tool itself: an identity, the runner's vacuity rule, a duplicate), ``"control"`` (a negative
control, expected VIOLATED) and ``"measurement"`` (a report-mode row without a verdict rule). The error
statements above cover every row with a verdict, whatever its role.

References
----------
.. [1] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits illustrated in the
   case of the binomial", Biometrika 26(4), 1934.
.. [2] S. Holm, "A simple sequentially rejective multiple test procedure", Scand. J. Statist. 6, 1979.
.. [3] D. J. Schuirmann, "A comparison of the two one-sided tests procedure and the power approach for
   assessing the equivalence of average bioavailability", J. Pharmacokin. Biopharm. 15(6), 1987.
.. [4] J. Ville, "Étude critique de la notion de collectif", Gauthier-Villars, Paris, 1939.
.. [5] H. Robbins, "Statistical methods related to the law of the iterated logarithm", Ann. Math. Statist.
   41(5), 1970.
.. [6] S. R. Howard, A. Ramdas, J. McAuliffe and J. Sekhon, "Time-uniform, nonparametric, nonasymptotic
   confidence sequences", Ann. Statist. 49(2), 2021.
.. [7] I. Waudby-Smith and A. Ramdas, "Estimating means of bounded random variables by betting",
   J. R. Statist. Soc. B 86(1), 2024.
.. [8] V. Vovk and R. Wang, "E-values: calibration, combination and applications", Ann. Statist. 49(3), 2021.
.. [9] R. Wang and A. Ramdas, "False discovery rate control with e-values", J. R. Statist. Soc. B 84(3), 2022.
.. [10] W. Hartog and L. Lei, "Family-wise error rate control with e-values", arXiv:2501.09015, 2025.
.. [11] R. E. Krichevsky and V. K. Trofimov, "The performance of universal encoding", IEEE Trans. Inf.
   Theory 27(2), 1981.
.. [12] Q. Xie and A. R. Barron, "Asymptotic minimax regret for data compression, gambling, and
   prediction", IEEE Trans. Inf. Theory 46(2), 2000.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import sequential as _seq
from ._validation import check_choice, check_int, check_interval
from .errors import RpcheckError

__all__ = [
    "sign_test",
    "printed_mean_test",
    "Verdict",
    "ROLES",
    "MODES",
    "STAT_MODES",
    "DETERMINISTIC_CONFIDENCE",
    "DETERMINISTIC_MAX_RATE",
    "DETERMINISTIC_MIN_DRAWS",
    "EQUIVALENCE_MARGIN",
    "ConfidenceInterval",
    "BinomialCount",
    "HolmResult",
    "holm",
    "central_pvalue",
    "Counts",
    "Decision",
    "bound_pvalues",
    "exact_pvalues",
    "pvalues",
    "decide",
    "decide_bound",
    "decide_exact",
    "decide_deterministic",
    "decide_search",
    "decide_report",
    "sequential_looks",
    "sequential_evalues",
    "decide_sequential",
    "FamilyLevels",
    "sequential_family",
    "ToDecide",
    "trials_to_decide",
    "sequential_power",
    "trials_for_power",
    "unattainable",
    "holds_power",
    "violated_power",
    "deterministic_trials",
]

_ALTERNATIVES = ("two-sided", "less", "greater")


@dataclass(frozen=True)
class ConfidenceInterval:
    """A confidence interval ``[low, high]`` for a probability (like ``scipy.stats._common``)."""

    low: float
    high: float

    def __contains__(self, p):
        return self.low <= p <= self.high


@dataclass(frozen=True)
class BinomialCount:
    """``failures`` out of ``trials`` independent Bernoulli trials, with exact inference.

    Parameters
    ----------
    failures : int
        Number of failures ``k``, ``0 <= k <= trials``.
    trials : int
        Number of trials ``n >= 1``.

    Examples
    --------
    >>> c = BinomialCount(3, 100)
    >>> c.failure_rate
    0.03
    >>> ci = c.proportion_ci(confidence_level=0.95)
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.0062, 0.0852)
    >>> round(c.pvalue(0.01, alternative="greater"), 4)   # P(X >= 3 | n=100, p=0.01)
    0.0794
    """

    failures: int
    trials: int

    def __post_init__(self):
        n = check_int("trials", self.trials, 1)
        k = check_int("failures", self.failures, 0, n)
        object.__setattr__(self, "trials", n)
        object.__setattr__(self, "failures", k)

    @property
    def failure_rate(self):
        return self.failures / self.trials

    def _test(self, p, alternative):
        from scipy.stats import binomtest  # lazy: scipy.stats costs ~1 s to import (rpcheck list/show)

        return binomtest(self.failures, self.trials, p=p, alternative=alternative)

    def proportion_ci(self, confidence_level=0.95, *, alternative="two-sided"):
        """Exact Clopper--Pearson interval for the failure probability.

        Parameters
        ----------
        confidence_level : float, default=0.95
        alternative : {"two-sided", "less", "greater"}, default="two-sided"
            "less" gives the one-sided upper bound ``[0, high]``, "greater" the one-sided lower bound
            ``[low, 1]``, as in :meth:`scipy.stats._result_classes.BinomTestResult.proportion_ci`.

        Returns
        -------
        ConfidenceInterval
        """
        check_interval("confidence_level", confidence_level, 0, 1, closed="neither")
        check_choice("alternative", alternative, _ALTERNATIVES)
        low, high = clopper_pearson(self.failures, self.trials, confidence_level, alternative)
        return ConfidenceInterval(low, high)

    def pvalue(self, p, *, alternative):
        """Exact binomial p-value of H0 "failure probability = p" (scipy.stats.binomtest).

        ``alternative="greater"`` is ``P_p(X >= k)`` (evidence that the rate exceeds ``p``),
        ``"less"`` is ``P_p(X <= k)``, ``"two-sided"`` is scipy's likelihood-ordered two-sided p-value
        (see :func:`central_pvalue` for the equal-tailed one used by the verdicts).
        """
        check_interval("p", p, 0, 1)
        check_choice("alternative", alternative, _ALTERNATIVES)
        return float(self._test(float(p), alternative).pvalue)

    def central_pvalue(self, p):
        """Equal-tailed two-sided exact p-value ``min(1, 2 min(P_p(X <= k), P_p(X >= k)))``."""
        return central_pvalue(self.failures, self.trials, p)


def clopper_pearson(failures, trials, confidence_level, alternative="two-sided"):
    """Exact Clopper--Pearson bounds ``(low, high)`` from the beta quantiles (Clopper & Pearson 1934).

    The binomial tails are regularised incomplete beta functions, ``P_p(X >= k) = I_p(k, n - k + 1)`` and
    ``P_p(X <= k) = 1 - I_p(k + 1, n - k)``, so the bound solving ``P_p(X >= k) = a`` is
    ``betaincinv(k, n - k + 1, a)`` and the one solving ``P_p(X <= k) = a`` is ``betainccinv(k + 1, n - k, a)``
    (``a`` is half the miss probability for "two-sided", all of it for a one-sided bound). This is the
    interval :meth:`scipy.stats.binomtest(...).proportion_ci(method="exact")` computes by root finding (to an
    absolute ``xtol`` of 2e-12), here without the root finder: the same numbers to that tolerance, at about
    a hundredth of the cost (``tests/test_stats.py`` holds the two side by side).
    Arguments are not validated here (callers: :meth:`BinomialCount.proportion_ci`).

    >>> [round(b, 6) for b in clopper_pearson(3, 100, 0.95)]
    [0.00623, 0.085176]
    >>> clopper_pearson(0, 10, 0.9, "less")[1] == 1 - 0.1 ** (1 / 10)
    True
    """
    from scipy.special import betainccinv, betaincinv

    k, n = int(failures), int(trials)
    a = (1.0 - confidence_level) / 2.0 if alternative == "two-sided" else 1.0 - confidence_level
    low = 0.0 if (k == 0 or alternative == "less") else float(betaincinv(k, n - k + 1, a))
    high = 1.0 if (k == n or alternative == "greater") else float(betainccinv(k + 1, n - k, a))
    return low, high


def central_pvalue(failures, trials, p):
    """Equal-tailed two-sided exact binomial p-value, dual to the two-sided Clopper--Pearson interval.

    ``central_pvalue(k, n, p) > a`` exactly when ``p`` lies inside the Clopper--Pearson interval of
    confidence ``1 - a`` (both tails ``> a/2``).

    >>> round(central_pvalue(3, 100, 0.03), 3)
    1.0
    >>> central_pvalue(10, 10, 0.5) == 2 * 0.5**10
    True
    """
    from scipy.stats import binomtest

    lo = binomtest(failures, trials, p=p, alternative="less").pvalue
    hi = binomtest(failures, trials, p=p, alternative="greater").pvalue
    return float(min(1.0, 2.0 * min(lo, hi)))


@dataclass(frozen=True)
class HolmResult:
    """Result of :func:`holm`.

    reject : ndarray of bool
        Which hypotheses the step-down procedure rejects.
    levels : ndarray of float
        The level each p-value was effectively compared with: ``alpha / (m - j + 1)`` for the j-th
        smallest p-value up to and including the first non-rejection; every later p-value gets the
        level of that first non-rejection. Hence ``reject == (pvalues <= levels)`` elementwise.
    adjusted : ndarray of float
        Holm-adjusted p-values ``max_{i <= j} min(1, (m - i + 1) p_(i))``; ``reject == adjusted <= alpha``.
    alpha : float
    """

    reject: np.ndarray
    levels: np.ndarray
    adjusted: np.ndarray
    alpha: float


def holm(pvalues, alpha):
    """Holm--Bonferroni step-down procedure at family-wise error rate ``alpha`` (Holm 1979).

    Sort the ``m`` p-values, ``p_(1) <= ... <= p_(m)``; reject ``H_(1), ..., H_(j-1)`` where ``j`` is the
    first index with ``p_(j) > alpha / (m - j + 1)``. The probability of rejecting at least one true
    null hypothesis is ``<= alpha`` under any dependence between the p-values. Ties are ordered by
    position (stable sort), which does not affect the set of rejections.

    Parameters
    ----------
    pvalues : array_like of float, shape (m,)
    alpha : float in (0, 1)

    Returns
    -------
    HolmResult

    Examples
    --------
    >>> r = holm([0.01, 0.04, 0.03, 0.005], 0.05)
    >>> r.reject.tolist()
    [True, False, False, True]
    >>> r.levels.tolist()
    [0.016666666666666666, 0.025, 0.025, 0.0125]
    """
    alpha = check_interval("alpha", alpha, 0, 1, closed="neither")
    p = np.asarray(pvalues, dtype=float).ravel()
    m = p.size
    reject = np.zeros(m, dtype=bool)
    levels = np.empty(m)
    adjusted = np.empty(m)
    if m == 0:
        return HolmResult(reject, levels, adjusted, alpha)
    if np.any(np.isnan(p)) or np.any((p < 0) | (p > 1)):
        raise RpcheckError(f"`pvalues` must be probabilities in [0, 1]; got {p[np.isnan(p) | (p < 0) | (p > 1)][:3]}.")
    order = np.argsort(p, kind="stable")
    stopped = False
    stop_level = None
    running = 0.0
    for j, idx in enumerate(order):
        lvl = alpha / (m - j)
        running = max(running, min(1.0, (m - j) * p[idx]))
        adjusted[idx] = running
        if stopped:
            levels[idx] = stop_level
            continue
        if p[idx] <= lvl:
            reject[idx] = True
            levels[idx] = lvl
        else:
            stopped = True
            stop_level = lvl
            levels[idx] = lvl
    return HolmResult(reject, levels, adjusted, alpha)


class Verdict(enum.StrEnum):
    """Verdict of one (cell, variant) row (rules in the module docstring)."""

    HOLDS = "HOLDS"
    VIOLATED = "VIOLATED"
    INCONCLUSIVE = "INCONCLUSIVE"
    VACUOUS = "VACUOUS"


#: Roles of a variant (module docstring, "Roles").
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
    """The counts of one (cell, variant) row (module docstring, "Counts")."""

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


def _cdf(k, n, p):
    from scipy.stats import binom

    return binom.cdf(k, n, p)


def _sf_ge(k, n, p):
    """P(X >= k) for X ~ Bin(n, p)."""
    from scipy.stats import binom

    return binom.sf(np.asarray(k) - 1, n, p)


def _central(k, n, p):
    return np.minimum(1.0, 2.0 * np.minimum(_cdf(k, n, p), _sf_ge(k, n, p)))


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
    ``P_delta(X <= k_h)`` over ``n`` draws (module docstring).

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
    >>> d.verdict, d.claim
    (<Verdict.HOLDS: 'HOLDS'>, 'failure rate in [0.483, 0.517] within [0.8p, 1.25p] (p = 0.5, and likewise for 1-p) at 99%')
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
    """Decision of a ``"deterministic"`` row (module docstring): any certified failure is VIOLATED; HOLDS
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

def sequential_looks(trials, looks):
    """Trial counts at which a sequential run looks at a cell: ``ceil(k * trials / looks)``, k = 1..looks.

    >>> sequential_looks(1000, 4)
    (250, 500, 750, 1000)
    >>> sequential_looks(3, 5)
    (1, 2, 3)
    """
    trials = check_int("trials", trials, 1)
    looks = check_int("looks", looks, 1)
    pts = sorted({math.ceil(k * trials / looks) for k in range(1, looks + 1)})
    return tuple(int(x) for x in pts)


# ------------------------------------------------------------------------------ anytime-valid sequential rules


def sequential_evalues(mode, counts, promised):
    """``(log_e_violated, log_e_holds)`` of a ``"bound"`` or ``"exact"`` row: the logs of its anytime-valid
    e-values (module docstring, "Anytime-valid sequential rules"), each the smallest over the resolutions
    of the ambiguous trials.

    >>> [round(x, 3) for x in sequential_evalues("bound", Counts(0, 200), 0.05)]
    [-4.861, 8.977]
    >>> [round(x, 3) for x in sequential_evalues("bound", Counts(0, 200, undetermined=3), 0.05)]   # k_h = 3
    [-4.861, 2.562]
    """
    check_choice("mode", mode, STAT_MODES)
    c = _as_counts(counts)
    promised = check_interval("promised", promised, 0, 1)
    lv, lh = _evalues(np.array([mode == "bound"]), [c], np.array([promised]))
    return float(lv[0]), float(lh[0])


def _evalues(is_bound, counts, promised):
    """Vectorised :func:`sequential_evalues` over validated rows (``is_bound``: bool array; else "exact")."""
    cs = np.array([(c.draws, c.failures, c.failures + c.ambiguous) for c in counts], dtype=float).reshape(-1, 3)
    n, k_v, k_h = cs.T
    p = np.asarray(promised, dtype=float)
    lv, lh = np.zeros(n.shape), np.zeros(n.shape)
    b = is_bound & (n > 0)
    lv[b] = _seq.log_e_above(k_v[b], n[b], p[b])
    lh[b] = _seq.log_e_below(k_h[b], n[b], p[b])
    e = ~is_bound & (n > 0)
    if np.any(e):
        ne, kv, kh, pe = n[e], k_v[e], k_h[e], p[e]
        # "differs" is convex in k with its integer minimum at ceil(p n - 1/2): the smallest value over the
        # resolutions kv..kh is at that point clipped to the range (neighbours too, against rounding)
        kmin = np.ceil(pe * ne - 0.5)
        lv[e] = np.min([_seq.log_e_differs(np.clip(kmin + d, kv, kh), ne, pe) for d in (-1, 0, 1)], axis=0)
        m = EQUIVALENCE_MARGIN
        lo = np.maximum(pe / m, 1 - m * (1 - pe))
        hi = np.minimum(m * pe, 1 - (1 - pe) / m)
        ok = lo < hi
        eq = np.minimum(_seq.log_e_above(kv, ne, np.where(ok, lo, 0.5)),
                        _seq.log_e_below(kh, ne, np.where(ok, hi, 0.5)))
        lh[e] = np.where(ok, eq, 0.0)
    return lv, lh


def _e_text(log_e):
    """An e-value for a claim, rounded down to 3 significant digits (never stronger than computed)."""
    if log_e > 700:
        return f"e^{math.floor(log_e)}"
    return _down(math.exp(log_e))


def decide_sequential(mode, counts, promised=None, *, alpha_violated=None, alpha_holds=None,
                      worst_slack=math.nan, exhaustive=False):
    """The anytime-valid decision of one row, valid at every look of a run that stops rows as they are
    decided (module docstring, "Anytime-valid sequential rules").

    ``"bound"``/``"exact"``: VIOLATED iff the refutation e-value is ``>= 1/alpha_violated``, HOLDS iff the
    support (equivalence) e-value is ``>= 1/alpha_holds``, else INCONCLUSIVE; ``pvalue`` and
    ``pvalue_holds`` are the anytime-valid p-values ``min(1, 1/E)``. Pass the levels of
    :func:`sequential_family` (closed e-Holm) or ``alpha / m`` (e-Bonferroni). ``"deterministic"`` and
    ``"search"`` rows use their fixed rules (:func:`decide`), already valid under optional stopping.

    >>> d = decide_sequential("bound", Counts(0, 200), 0.05, alpha_violated=0.01 / 50, alpha_holds=0.01 / 50)
    >>> d.verdict, d.stops
    (<Verdict.HOLDS: 'HOLDS'>, True)
    >>> print(d.claim)  # doctest: +NORMALIZE_WHITESPACE
    P(fail) < delta = 0.05: e-value 7920 >= 1/level = 5e+03 after 0 failures in 200 draws
    (anytime-valid at level 0.0002)
    >>> decide_sequential("bound", Counts(14, 40), 0.05, alpha_violated=0.0002, alpha_holds=0.0002).verdict
    <Verdict.VIOLATED: 'VIOLATED'>
    >>> decide_sequential("exact", Counts(50, 100), 0.5, alpha_violated=0.01, alpha_holds=0.01).verdict
    <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>
    """
    if mode not in STAT_MODES:
        return decide(mode, counts, promised, worst_slack=worst_slack, exhaustive=exhaustive)
    c, av, ah, empty = _prepare(counts, alpha_violated, alpha_holds)
    if empty is not None:
        return empty
    lv, lh = sequential_evalues(mode, c, promised)
    n, k_v, k_h = c.draws, c.failures, c.failures + c.ambiguous
    common = dict(pvalue=min(1.0, math.exp(-lv)), pvalue_holds=min(1.0, math.exp(-lh)))
    what = "P(fail) > delta" if mode == "bound" else "P(fail) != p"
    if lv >= -math.log(av):
        claim = (
            f"{what} = {_g(promised)}: e-value {_e_text(lv)} >= 1/level = {_g(1 / av)} after {k_v} failures in "
            f"{n} draws (anytime-valid at level {_g(av)})"
        )
        return Decision(Verdict.VIOLATED, claim, stops=True, **common)
    if lh >= -math.log(ah):
        what = (
            "P(fail) < delta" if mode == "bound"
            else f"P(fail) in [{_g(_equivalence_region(promised)[0])}, {_g(_equivalence_region(promised)[1])}]"
            " = [0.8p, 1.25p] with p"
        )
        claim = (
            f"{what} = {_g(promised)}: e-value {_e_text(lh)} >= 1/level = {_g(1 / ah)} after {k_h} failures in "
            f"{n} draws (anytime-valid at level {_g(ah)})" + _suffix(c)
        )
        return Decision(Verdict.HOLDS, claim, stops=True, **common)
    claim = (
        f"{n} draws, {k_v} failures: refutation e-value {_e_text(lv)} (VIOLATED needs {_g(1 / av)}), "
        f"support e-value {_e_text(lh)} (HOLDS needs {_g(1 / ah)})" + _suffix(c)
    )
    return Decision(Verdict.INCONCLUSIVE, claim, **common)


class FamilyLevels(NamedTuple):
    """Result of :func:`sequential_family`, one entry per row of the family (numpy arrays).

    levels_violated, levels_holds : the closed e-Holm level of each row (``1/T_i``): pass them to
        :func:`decide_sequential` as ``alpha_violated`` / ``alpha_holds``;
    log_e_violated, log_e_holds : the rows' log e-values;
    violated, holds : which rows the closed e-Holm procedure rejects now (VIOLATED / HOLDS: they stop).
    """

    levels_violated: np.ndarray
    levels_holds: np.ndarray
    log_e_violated: np.ndarray
    log_e_holds: np.ndarray
    violated: np.ndarray
    holds: np.ndarray


def sequential_family(modes, counts, promised, *, alpha):
    """Closed e-Holm over the VIOLATED family and over the HOLDS family of a sequential run, at the current
    counts of every row of the family (module docstring, "Anytime-valid sequential rules").

    Parameters
    ----------
    modes : sequence of {"bound", "exact"}
    counts : sequence of Counts
        The current counts of *every* member of the family, decided (stopped) rows included with their
        counts at their stop, rows not started yet with zero counts.
    promised : sequence of float
    alpha : float in (0, 1)
        The family-wise level of each family.

    Returns
    -------
    FamilyLevels

    A row once rejected keeps its verdict (the caller stops it); with that, P(any false VIOLATED at any
    look) <= alpha and P(any false HOLDS at any look) <= alpha, whatever the looks and stopping.

    >>> f = sequential_family(["bound", "bound"], [Counts(0, 300), Counts(0, 0)], [0.05, 0.05], alpha=0.01)
    >>> f.holds.tolist(), [round(float(x), 7) for x in f.levels_holds]   # T_1 = 100 + 99; T_2 = 100 + 0
    ([True, False], [0.0050251, 0.01])
    """
    alpha = check_interval("alpha", alpha, 0, 1, closed="neither")
    modes, counts, promised = list(modes), list(counts), list(promised)
    if not len(modes) == len(counts) == len(promised):
        raise RpcheckError(
            f"`modes`, `counts` and `promised` must have equal lengths; got {len(modes)}, {len(counts)}, "
            f"{len(promised)}."
        )
    for mo in modes:
        check_choice("mode", mo, STAT_MODES)
    counts = [_as_counts(c) for c in counts]
    promised = np.array([check_interval("promised", x, 0, 1) for x in promised], dtype=float)
    lv, lh = _evalues(np.array([mo == "bound" for mo in modes], dtype=bool), counts, promised)
    tv = _seq.eholm_log_thresholds(lv, alpha) if len(lv) else np.empty(0)
    th = _seq.eholm_log_thresholds(lh, alpha) if len(lh) else np.empty(0)
    return FamilyLevels(np.exp(-tv), np.exp(-th), lv, lh, lv >= tv, lh >= th)


class ToDecide(NamedTuple):
    """Result of :func:`trials_to_decide`: the verdict the row heads for and how many more draws it needs
    (``math.inf``: none at the current rate)."""

    verdict: Verdict
    trials: float


def _first_n(log_e_at, n0, log_thr, n_cap=10**9):
    """Least integer ``N >= n0`` (on a 1.25-geometric grid, then bisection) with ``log_e_at(N) >= log_thr``;
    ``math.inf`` when none up to ``n_cap``."""
    grid = [n0]
    while grid[-1] < n_cap:
        grid.append(max(grid[-1] + 1, math.ceil(grid[-1] * 1.25)))
    vals = np.asarray(log_e_at(np.asarray(grid, dtype=float)))
    hit = np.nonzero(vals >= log_thr)[0]
    if not hit.size:
        return math.inf
    j = int(hit[0])
    if j == 0:
        return n0
    lo, hi = grid[j - 1], grid[j]   # lo misses, hi hits
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if float(log_e_at(np.asarray(mid, dtype=float))) >= log_thr:
            hi = mid
        else:
            lo = mid
    return hi


def trials_to_decide(mode, counts, promised=None, *, alpha, m=1):
    """Roughly how many more draws a row needs to be decided by the anytime-valid rule at the e-Bonferroni
    level ``alpha / m`` (an upper estimate under closed e-Holm), if its observed rates persist.

    "bound"/"exact": the counts are projected at the current rates ``k_v / n`` and ``k_h / n`` (ambiguous
    trials against the verdict, as in the rule) and the least total ``N`` at which the e-value reaches
    ``m / alpha`` is found; the smaller of the VIOLATED and HOLDS projections is returned. With no draw yet,
    the fewest draws that could decide it (every draw a failure, or every one clean). "deterministic":
    ``DETERMINISTIC_MIN_DRAWS - evaluated`` clean draws for HOLDS; "search"/"report" and rows that cannot
    be decided at their rate: ``math.inf``. Already decided rows: 0.

    >>> trials_to_decide("bound", Counts(0, 100), 0.05, alpha=0.01, m=50)   # 100 + 91 = 191 clean draws
    ToDecide(verdict=<Verdict.HOLDS: 'HOLDS'>, trials=91)
    >>> trials_to_decide("bound", Counts(5, 100), 0.05, alpha=0.01, m=50)   # at the boundary: never
    ToDecide(verdict=<Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>, trials=inf)
    >>> trials_to_decide("deterministic", Counts(0, 30), alpha=0.01)
    ToDecide(verdict=<Verdict.HOLDS: 'HOLDS'>, trials=60)
    """
    check_choice("mode", mode, MODES)
    c = _as_counts(counts)
    alpha = check_interval("alpha", alpha, 0, 1, closed="neither")
    m = check_int("m", m, 1)
    never = ToDecide(Verdict.INCONCLUSIVE, math.inf)
    if mode == "report":
        return never
    if mode in ("deterministic", "search"):
        if c.failures:
            return ToDecide(Verdict.VIOLATED, 0)
        if mode == "search" or c.ambiguous:
            return never
        return ToDecide(Verdict.HOLDS, max(0, DETERMINISTIC_MIN_DRAWS - c.evaluated))
    p = check_interval("promised", promised, 0, 1)
    thr = math.log(m / alpha)
    n = c.draws
    lv, lh = sequential_evalues(mode, c, p)
    if lv >= thr:
        return ToDecide(Verdict.VIOLATED, 0)
    if lh >= thr:
        return ToDecide(Verdict.HOLDS, 0)
    if n == 0:
        rv, rh = 1.0, 0.0   # best case: every draw a failure (VIOLATED), every draw clean (HOLDS)
    else:
        rv, rh = c.failures / n, (c.failures + c.ambiguous) / n
    n0 = max(n, 1)
    if mode == "bound":
        nv = _first_n(lambda N: _seq.log_e_above(rv * N, N, p), n0, thr) if rv > p else math.inf
        nh = _first_n(lambda N: _seq.log_e_below(rh * N, N, p), n0, thr) if rh < p else math.inf
    else:
        lo, hi = _equivalence_region(p)
        if n == 0:   # VIOLATED: all failures or all clean, whichever is sooner; HOLDS: counts exactly at p
            rates = [r for r in (0.0, 1.0) if r != p]
            rv = rh = p
        else:
            rates = [rv] if rv > p else ([rh] if rh < p else [])
        nv = min((_first_n(lambda N, r=r: _seq.log_e_differs(r * N, N, p), n0, thr) for r in rates),
                 default=math.inf)
        if lo < hi and lo < rv and rh < hi:
            nh = max(_first_n(lambda N: _seq.log_e_above(rv * N, N, lo), n0, thr),
                     _first_n(lambda N: _seq.log_e_below(rh * N, N, hi), n0, thr))
        else:
            nh = math.inf
    if nv == math.inf and nh == math.inf:
        return never
    if nv <= nh:
        return ToDecide(Verdict.VIOLATED, int(nv - n))
    return ToDecide(Verdict.HOLDS, int(nh - n))


def _power_regions(mode, verdict, promised, level):
    thr = -math.log(level)
    if mode == "bound":
        return [("above", promised, thr)] if verdict is Verdict.VIOLATED else [("below", promised, thr)]
    if verdict is Verdict.VIOLATED:
        return [("differs", promised, thr)]
    lo, hi = _equivalence_region(promised)
    return [("above", lo, thr), ("below", hi, thr)]


def sequential_power(mode, verdict, n, p_true, promised, level):
    """Exact probability that the anytime-valid rule of a ``"bound"``/``"exact"`` row, looking after every
    draw at per-row level ``level``, has said ``verdict`` (HOLDS or VIOLATED) by draw ``n`` when the true
    failure probability is ``p_true`` (no ambiguous trial). A dynamic programme over the counts of the
    streams not yet stopped (:func:`rpcheck.sequential.crossing_probability`), not a simulation.

    >>> round(sequential_power("bound", "HOLDS", 300, 0.0, 0.05, 0.0002), 6)   # 191 draws suffice (trials_for_power)
    1.0
    >>> round(sequential_power("bound", "VIOLATED", 300, 0.05, 0.05, 0.0002), 6) <= 0.0002   # at the boundary
    True
    """
    check_choice("mode", mode, STAT_MODES)
    verdict = Verdict(verdict)
    check_choice("verdict", verdict.value, ("HOLDS", "VIOLATED"))
    promised = check_interval("promised", promised, 0, 1)
    regions = _power_regions(mode, verdict, promised, _check_level(level))
    return float(_seq.crossing_probability(regions, p_true, n)[-1])


def trials_for_power(mode, verdict, p_true, promised, level, *, power=0.99, anytime=True, n_max=200_000):
    """Least number of draws at which a row of ``mode`` says ``verdict`` with probability ``>= power``
    (true failure probability ``p_true``, per-row level ``level``), or None beyond ``n_max``.

    ``anytime=True``: the anytime-valid rule looking after every draw (:func:`sequential_power`);
    ``anytime=False``: the fixed-n rule (:func:`holds_power`, :func:`violated_power`), the least ``n`` on a
    doubling grid followed by a linear scan from the last grid point below ``power`` (the power of a
    discrete test is not monotone in ``n``; the scan finds the first ``n`` in that bracket).

    >>> trials_for_power("bound", "HOLDS", 0.0, 0.05, 0.01 / 50, anytime=False)   # 0.95**n <= 2e-4 from 167
    167
    >>> trials_for_power("bound", "HOLDS", 0.0, 0.05, 0.01 / 50)   # the e-value of n clean draws >= 5e3
    191
    """
    check_choice("mode", mode, STAT_MODES)
    verdict = Verdict(verdict)
    check_choice("verdict", verdict.value, ("HOLDS", "VIOLATED"))
    promised = check_interval("promised", promised, 0, 1)
    level = _check_level(level)
    power = check_interval("power", power, 0, 1, closed="neither")
    if anytime:
        return _seq.anytime_trials_for_power(_power_regions(mode, verdict, promised, level), p_true, power, n_max)
    f = holds_power if verdict is Verdict.HOLDS else violated_power

    def pw(n):
        return f(mode, n, p_true, promised, level)

    lo, hi = 0, 1
    while pw(hi) < power:
        lo, hi = hi, hi * 2
        if hi > n_max:
            return None
    for n in range(lo + 1, hi + 1):
        if pw(n) >= power:
            return n
    return hi


# ------------------------------------------------------------------------------ attainability, power


def _check_level(level):
    return check_interval("level", level, 0, 1, closed="neither")


def _min_draws_bound(delta, level):
    """Least n with ``(1 - delta)**n <= level`` (0 failures then support HOLDS), or None when delta is 0."""
    if delta <= 0:
        return None
    if delta >= 1:
        return 1
    return max(1, math.ceil(math.log(level) / math.log1p(-delta) - 1e-12))


def _equivalence_best(n, p):
    """Smallest equivalence p-value over every count ``k = 0..n`` (no ambiguous trial), and its ``k``."""
    lo, hi = _equivalence_region(p)
    if not lo < hi:
        return 1.0, None
    ks = np.arange(n + 1)
    ph = np.maximum(_sf_ge(ks, n, lo), _cdf(ks, n, hi))
    j = int(np.argmin(ph))
    return float(ph[j]), j


def unattainable(mode, expected, draws, promised=None, *, level, exhaustive=False):
    """Why the verdict ``expected`` cannot come out of a row of ``mode`` with ``draws`` draws, whatever the
    outcomes (module docstring, "Attainability"); None when it is attainable.

    Parameters
    ----------
    mode : {"bound", "deterministic", "exact", "search", "report"}
    expected : Verdict or str
        The declared expected verdict; only HOLDS and VIOLATED can be unattainable.
    draws : int
        Draws the rule uses: for "deterministic" the evaluated (non-vacuous) draws, for "bound"/"exact"
        evaluated draws plus solver errors (:attr:`Counts.draws`).
    promised : float, optional
        ``delta`` ("bound") or ``p`` ("exact").
    level : float in (0, 1)
        The largest level the row's test can get (``alpha`` under Holm; the Bonferroni level in a
        sequential run). Unused by "deterministic" and "search".

    Returns
    -------
    str or None

    Examples
    --------
    >>> unattainable("deterministic", "HOLDS", 40, level=0.01)
    'HOLDS unattainable: 40 draws, the rule needs 90'
    >>> unattainable("bound", "HOLDS", 200, 0.01, level=0.01)   # 0.99**200 = 0.134 > 0.01
    'HOLDS unattainable: 200 draws, the rule needs 459 (0 failures give support p-value 0.134 > level 0.01)'
    >>> unattainable("bound", "HOLDS", 459, 0.01, level=0.01) is None   # 0.99**459 = 0.00994
    True
    >>> unattainable("bound", "VIOLATED", 2, 0.2, level=0.01)   # even 2 of 2 failures: 0.2**2 = 0.04
    'VIOLATED unattainable: 2 draws, even 2 failures give refutation p-value 0.04 > level 0.01'
    >>> unattainable("exact", "HOLDS", 100, 0.5, level=0.01)
    'HOLDS unattainable: 100 draws, the best count (at k = 50) gives equivalence p-value 0.0271 > level 0.01'
    >>> unattainable("search", "HOLDS", 1000, level=0.01)
    'HOLDS unattainable: a search never gives HOLDS'
    """
    check_choice("mode", mode, MODES)
    draws = check_int("draws", draws, 0)
    expected = Verdict(expected)
    if mode == "report" or expected not in (Verdict.HOLDS, Verdict.VIOLATED):
        return None
    if mode == "search":
        return "HOLDS unattainable: a search never gives HOLDS" if expected is Verdict.HOLDS else (
            None if draws else "VIOLATED unattainable: no draw")
    if mode == "deterministic":
        if expected is Verdict.HOLDS and draws < (1 if exhaustive else DETERMINISTIC_MIN_DRAWS):
            return f"HOLDS unattainable: {draws} draws, the rule needs {DETERMINISTIC_MIN_DRAWS}"
        if expected is Verdict.VIOLATED and draws == 0:
            return "VIOLATED unattainable: no draw"
        return None
    level = _check_level(level)
    p = check_interval("promised", promised, 0, 1)
    if draws == 0:
        return f"{expected.value} unattainable: no draw"
    if mode == "bound":
        if expected is Verdict.HOLDS:
            best = (1 - p) ** draws
            if best <= level:
                return None
            need = _min_draws_bound(p, level)
            why = f"0 failures give support p-value {_g(best)} > level {_g(level)}"
            if need is None:
                return f"HOLDS unattainable: {draws} draws; {why} (delta = 0: never attainable)"
            return f"HOLDS unattainable: {draws} draws, the rule needs {need} ({why})"
        best = p**draws
        if best <= level:
            return None
        return (
            f"VIOLATED unattainable: {draws} draws, even {draws} failures give refutation p-value "
            f"{_g(best)} > level {_g(level)}"
        )
    # exact
    if expected is Verdict.HOLDS:
        best, k = _equivalence_best(draws, p)
        if best <= level:
            return None
        at = "" if k is None else f" (at k = {k})"
        return (
            f"HOLDS unattainable: {draws} draws, the best count{at} gives equivalence p-value {_g(best)} > "
            f"level {_g(level)}"
        )
    best = float(min(1.0, 2 * min((1 - p) ** draws, p**draws)))
    if best <= level:
        return None
    return (
        f"VIOLATED unattainable: {draws} draws, even the most extreme count gives central p-value "
        f"{_g(best)} > level {_g(level)}"
    )


def _power_setup(mode, n, p_true, promised, level):
    check_choice("mode", mode, tuple(m for m in MODES if m != "report"))
    n = check_int("n", n, 0)
    p_true = check_interval("p_true", p_true, 0, 1)
    if mode in STAT_MODES:
        promised = check_interval("promised", promised, 0, 1)
        level = _check_level(level)
    ks = np.arange(n + 1)
    from scipy.stats import binom

    return n, p_true, promised, level, ks, binom.pmf(ks, n, p_true)


def holds_power(mode, n, p_true, promised=None, level=0.01):
    """Exact probability that the rule of ``mode`` says HOLDS after ``n`` draws (no vacuous, undetermined
    or solver-error trial) when the true failure probability is ``p_true``, at per-row level ``level``.

    A binomial sum: ``sum_k P_{p_true}(X = k) [rule says HOLDS at k]``. For "deterministic" the rule has
    its own confidence (``level`` is unused): ``(1 - p_true)**n`` when ``n >= DETERMINISTIC_MIN_DRAWS``,
    else 0. For "search" it is 0.

    Examples
    --------
    >>> # HOLDS iff k <= 2: P_0.01(X <= 2) = 0.0028 <= 0.01 < P_0.01(X <= 3) = 0.0101; P_0.002(X <= 2) = 0.677
    >>> round(holds_power("bound", 1000, 0.002, 0.01, 0.01), 4)
    0.6767
    >>> holds_power("bound", 200, 0.0, 0.01, 0.01)                # unattainable: 0.99**200 > 0.01
    0.0
    >>> round(holds_power("exact", 5000, 0.5, 0.5, 0.01), 6)
    1.0
    >>> round(holds_power("deterministic", 100, 0.0), 3), holds_power("deterministic", 89, 0.0)
    (1.0, 0.0)
    """
    n, p_true, promised, level, ks, pmf = _power_setup(mode, n, p_true, promised, level)
    if mode == "search" or n == 0:
        return 0.0
    if mode == "deterministic":
        return float((1 - p_true) ** n) if n >= DETERMINISTIC_MIN_DRAWS else 0.0
    if mode == "bound":
        ok = _cdf(ks, n, promised) <= level
    else:
        lo, hi = _equivalence_region(promised)
        if not lo < hi:
            return 0.0
        ok = np.maximum(_sf_ge(ks, n, lo), _cdf(ks, n, hi)) <= level
    return float(min(1.0, pmf[ok].sum()))


def violated_power(mode, n, p_true, promised=None, level=0.01):
    """Exact probability that the rule of ``mode`` says VIOLATED after ``n`` draws (no vacuous, undetermined
    or solver-error trial) when the true failure probability is ``p_true``, at per-row level ``level``.

    "bound": ``P(P_delta(X >= k) <= level)``; "exact": ``P(central p-value <= level)``; "deterministic" and
    "search": ``1 - (1 - p_true)**n`` (any failure; ``level`` unused).

    Examples
    --------
    >>> round(violated_power("bound", 1000, 0.2, 0.05, 0.01), 6)
    1.0
    >>> violated_power("bound", 2, 1.0, 0.2, 0.01)   # even 2 failures: 0.2**2 = 0.04 > 0.01
    0.0
    >>> round(violated_power("deterministic", 100, 0.01), 4)   # 1 - 0.99**100
    0.634
    >>> round(violated_power("exact", 100, 0.5, 0.5, 0.01), 4)   # false-alarm rate when p0 is right (<= 0.01)
    0.0066
    """
    n, p_true, promised, level, ks, pmf = _power_setup(mode, n, p_true, promised, level)
    if n == 0:
        return 0.0
    if mode in ("deterministic", "search"):
        return float(1 - (1 - p_true) ** n)
    if mode == "bound":
        ok = _sf_ge(ks, n, promised) <= level
    else:
        ok = _central(ks, n, promised) <= level
    return float(min(1.0, pmf[ok].sum()))


def deterministic_trials(vacuous_fraction=0.0, *, power=0.99):
    """Trials a cell needs so that a deterministic row reaches :data:`DETERMINISTIC_MIN_DRAWS` evaluated draws.

    A deterministic HOLDS needs at least ``DETERMINISTIC_MIN_DRAWS`` evaluated (non-vacuous) draws. When each
    draw is vacuous for the row independently with probability at most ``vacuous_fraction``, the evaluated
    draws of ``n`` trials are at least ``Binomial(n, 1 - vacuous_fraction)``; this returns the least ``n`` with
    ``P(Binomial(n, 1 - vacuous_fraction) >= DETERMINISTIC_MIN_DRAWS) >= power``. A profile sized with it
    reaches its declared deterministic HOLDS with probability at least ``power`` whenever the claim holds
    on every draw (no certified failure, no undetermined draw). ``vacuous_fraction`` is an upper bound, for
    example the one-sided 99% Clopper--Pearson bound of a measured vacuous fraction (0 vacuous draws of 150
    give 0.03).

    Parameters
    ----------
    vacuous_fraction : float in [0, 1), default=0.0
        Upper bound on the probability that a draw is vacuous for the row.
    power : float in (0, 1), default=0.99

    Returns
    -------
    int

    Examples
    --------
    >>> deterministic_trials(0.0), deterministic_trials(0.03), deterministic_trials(0.5)
    (90, 97, 213)
    """
    f = check_interval("vacuous_fraction", vacuous_fraction, 0, 1, closed="left")
    power = check_interval("power", power, 0, 1, closed="neither")
    if f == 0:
        return DETERMINISTIC_MIN_DRAWS
    # P(Binomial(n, 1 - f) < m) by log-space terms (math only: profiles call this at import time, and
    # `rpcheck list` imports no scipy.stats)
    m = DETERMINISTIC_MIN_DRAWS
    n = m
    while True:
        short = sum(math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                             + k * math.log1p(-f) + (n - k) * math.log(f)) for k in range(m))
        if 1 - short >= power:
            return n
        n += 1


def sign_test(k, n, alpha=0.01):
    """Exact one-sided sign test of "P(a paired draw supports the statement) > 1/2" from ``k`` supporting draws
    out of ``n`` independent ones (ties removed by the caller, or counted as not supporting).

    HOLDS when ``P(X >= k | n, 1/2) <= alpha`` (if the true probability is <= 1/2, P(HOLDS) <= alpha);
    VIOLATED when ``P(X <= k | n, 1/2) <= alpha`` (if it is >= 1/2, P(VIOLATED) <= alpha); else
    INCONCLUSIVE (with n < 7 neither is reachable at alpha = 0.01: 2^-7 = 0.0078).

    Returns ``(verdict, p_holds, p_violated)``.

    >>> sign_test(7, 7)[0], sign_test(0, 7)[0], sign_test(3, 6)[0]
    (<Verdict.HOLDS: 'HOLDS'>, <Verdict.VIOLATED: 'VIOLATED'>, <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>)
    """
    if n == 0:
        return Verdict.INCONCLUSIVE, 1.0, 1.0
    from scipy.stats import binom  # lazy: scipy.stats costs ~1 s to import (rpcheck list/show)

    p_h = float(binom.sf(k - 1, n, 0.5))
    p_v = float(binom.cdf(k, n, 0.5))
    v = Verdict.HOLDS if p_h <= alpha else (Verdict.VIOLATED if p_v <= alpha else Verdict.INCONCLUSIVE)
    return v, p_h, p_v


def support_count(outcomes):
    """``(k, n)`` for :func:`sign_test` from per-draw outcomes (objects with ``holds``, ``vacuous`` and
    ``undetermined``): vacuous and undetermined draws are not counted; ``k`` of the other ``n`` hold.

    >>> from types import SimpleNamespace as O
    >>> support_count([O(holds=True, vacuous=False, undetermined=False), O(holds=False, vacuous=True,
    ...               undetermined=False), O(holds=False, vacuous=False, undetermined=False)])
    (1, 2)
    """
    outs = [o for o in outcomes if not o.vacuous and not o.undetermined]
    return sum(bool(o.holds) for o in outs), len(outs)


def printed_mean_test(values, printed, alpha=0.01):
    """Two-sided one-sample t test of "the mean of our per-draw ``values`` equals the paper's ``printed``
    number": ``(agrees, p)`` with ``agrees`` False when ``p < alpha`` (a false DISAGREES has probability
    ``alpha`` per row when our draws are independent and their mean is normal, by the t distribution with
    k - 1 degrees of freedom), True otherwise; ``(None, nan)`` below two finite draws or with a zero spread.
    The printed number is taken as exact: its rounding and the paper's own sampling error are not added, so
    the stated rate holds against the exact value the paper estimates only when those are negligible beside
    our standard error (a DISAGREES says "not this number", not which side erred).

    Examples
    --------
    >>> printed_mean_test([1.0, 1.1, 0.9, 1.0], 1.0)[0]
    True
    >>> printed_mean_test([1.0, 1.01, 0.99, 1.0], 2.0)[0]
    False
    """
    import math

    import numpy as np
    from scipy import stats as _st

    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size < 2 or not np.isfinite(printed):
        return None, math.nan
    se = float(v.std(ddof=1) / math.sqrt(v.size))
    if se == 0:
        return None, math.nan
    t = (float(v.mean()) - float(printed)) / se
    p = float(2 * _st.t.sf(abs(t), v.size - 1))
    return bool(p >= alpha), p

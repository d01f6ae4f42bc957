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
    P(HOLDS) <= alpha_h. Non-rejection of the two-sided test is not a HOLDS: with few trials it is
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

from .anytime import (
    FamilyLevels,
    ToDecide,
    decide_sequential,
    sequential_evalues,
    sequential_family,
    sequential_looks,
    sequential_power,
    trials_for_power,
    trials_to_decide,
)
from .binomial import (
    BinomialCount,
    ConfidenceInterval,
    central_pvalue,
)
from .binomial import (
    clopper_pearson as clopper_pearson,
)
from .multiplicity import (
    HolmResult,
    holm,
)
from .power import (
    deterministic_trials,
    holds_power,
    unattainable,
    violated_power,
)
from .replication import (
    printed_mean_test,
    sign_test,
)
from .replication import (
    support_count as support_count,
)
from .rules import (
    DETERMINISTIC_CONFIDENCE,
    DETERMINISTIC_MAX_RATE,
    DETERMINISTIC_MIN_DRAWS,
    EQUIVALENCE_MARGIN,
    MODES,
    ROLES,
    STAT_MODES,
    Counts,
    Decision,
    Verdict,
    bound_pvalues,
    decide,
    decide_bound,
    decide_deterministic,
    decide_exact,
    decide_report,
    decide_search,
    exact_pvalues,
    pvalues,
)
from .rules import (
    _equivalence_region as _equivalence_region,
)

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

"""Exact binomial statistics, Holm's procedure and the verdict rules (rpcheck.stats).

Everything here is deterministic (no random sampling), except the hypothesis property tests, which run
derandomized (tests/conftest.py), so no test here has a false-alarm probability.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binom, binomtest

from rpcheck.errors import RpcheckError
from rpcheck.stats import (
    DETERMINISTIC_MIN_DRAWS,
    ROLES,
    BinomialCount,
    ConfidenceInterval,
    Counts,
    Verdict,
    central_pvalue,
    decide,
    decide_bound,
    decide_deterministic,
    decide_exact,
    decide_report,
    decide_search,
    exact_pvalues,
    holm,
    sequential_looks,
)


def bound_decision(k, n, delta, a_v, a_h, undetermined=0, solver_errors=0):
    return decide_bound(Counts(k, n, undetermined, solver_errors), delta, alpha_violated=a_v, alpha_holds=a_h)


def test_verdict_lives_in_stats_and_is_reexported():
    import rpcheck.engine
    import rpcheck.engine.theorem

    assert rpcheck.engine.Verdict is Verdict and rpcheck.engine.theorem.Verdict is Verdict
    assert ROLES == ("claim", "self-check", "control", "measurement")


def test_binomial_count_matches_scipy_clopper_pearson():
    for k, n in [(0, 1), (0, 50), (3, 100), (50, 50), (17, 1000)]:
        c = BinomialCount(k, n)
        ref = binomtest(k, n).proportion_ci(0.99, method="exact")
        ci = c.proportion_ci(0.99)
        assert isinstance(ci, ConfidenceInterval)
        # scipy finds the bounds by brentq (xtol 2e-12), rpcheck from the beta quantiles (clopper_pearson)
        assert ci.low == pytest.approx(ref.low, abs=2e-12) and ci.high == pytest.approx(ref.high, abs=2e-12)
        assert c.failure_rate == k / n


def test_one_sided_bounds_are_scipy_one_sided():
    c = BinomialCount(4, 200)
    up = c.proportion_ci(0.95, alternative="less")
    lo = c.proportion_ci(0.95, alternative="greater")
    assert up.low == 0.0 and lo.high == 1.0
    # defining property of the exact one-sided bounds: the tail probability equals 1 - level at the bound
    assert binom.cdf(4, 200, up.high) == pytest.approx(0.05, rel=1e-8)
    assert binom.sf(3, 200, lo.low) == pytest.approx(0.05, rel=1e-8)


def test_binomial_count_is_frozen_and_validated():
    c = BinomialCount(1, 10)
    with pytest.raises(AttributeError):
        c.failures = 2
    with pytest.raises(RpcheckError, match="`failures` \\(11\\) must be an integer in the range \\[0, 10\\]"):
        BinomialCount(11, 10)
    with pytest.raises(RpcheckError, match="`trials`"):
        BinomialCount(0, 0)
    with pytest.raises(RpcheckError, match="`alternative`"):
        c.proportion_ci(0.9, alternative="both")
    with pytest.raises(RpcheckError, match="`confidence_level`"):
        c.proportion_ci(1.0)


def test_bound_verdict_equals_confidence_bound_rule_exhaustively():
    """HOLDS iff the one-sided upper CP bound at 1 - a <= delta; VIOLATED iff the lower bound > delta."""
    a = 0.05
    for n in (1, 7, 30):
        for k in range(n + 1):
            for delta in (0.0, 0.01, 0.1, 0.33, 0.5):
                d = bound_decision(k, n, delta, a, a)
                v = d.verdict
                c = BinomialCount(k, n)
                assert d.ci_high == c.proportion_ci(1 - a, alternative="less").high
                assert d.ci_low == c.proportion_ci(1 - a, alternative="greater").low
                assert (v is Verdict.VIOLATED) == (d.ci_low > delta or (delta == 0 and k > 0))
                if delta > 0:
                    assert (v is Verdict.HOLDS) == (d.ci_high <= delta + 1e-12 and not d.ci_low > delta)
                if v is Verdict.HOLDS:
                    assert d.claim.startswith("P(fail) <= ")
                    assert float(d.claim.split()[2]) >= d.ci_high  # printed bound rounded outward


def test_bound_verdict_false_violated_rate_is_at_most_alpha_exactly():
    """Exact (not simulated) size of the refutation test at the boundary p = delta."""
    a = 0.01
    for n, delta in [(100, 0.05), (1000, 0.01), (500, 0.2)]:
        ks = np.arange(n + 1)
        rej = np.array([bound_decision(int(k), n, delta, a, a).verdict is Verdict.VIOLATED for k in ks])
        size = binom.pmf(ks, n, delta)[rej].sum()
        assert size <= a
        # and the false-HOLDS rate at the boundary
        acc = np.array([bound_decision(int(k), n, delta, a, a).verdict is Verdict.HOLDS for k in ks])
        assert binom.pmf(ks, n, delta)[acc].sum() <= a


def test_ambiguous_trials_count_against_the_verdict_being_tested():
    """u undetermined (or solver-error) trials: HOLDS only if HOLDS with all u as certified failures,
    VIOLATED only if VIOLATED with all u as successes (exhaustive over small n)."""
    a = 0.05
    for n in (5, 20, 60):
        for k in range(0, n + 1, 3):
            for u in (1, 4):
                if k + u > n:
                    continue
                for delta in (0.02, 0.2):
                    amb = bound_decision(k, n, delta, a, a, undetermined=u).verdict
                    as_fail = bound_decision(k + u, n, delta, a, a).verdict
                    as_ok = bound_decision(k, n, delta, a, a).verdict
                    assert (amb is Verdict.HOLDS) == (as_fail is Verdict.HOLDS)
                    assert (amb is Verdict.VIOLATED) == (as_ok is Verdict.VIOLATED)
                    # solver errors add draws (as successes for VIOLATED, failures for HOLDS)
                    se = bound_decision(k, n - u, delta, a, a, solver_errors=u).verdict
                    assert se is amb
                for p in (0.1, 0.5):
                    pv, ph = exact_pvalues(Counts(k, n, u), p)
                    for j in range(u + 1):
                        pv_j, ph_j = exact_pvalues(Counts(k + j, n), p)
                        assert pv >= pv_j and ph >= ph_j


def test_central_pvalue_is_dual_to_two_sided_cp_interval():
    for n, k in itertools.product((10, 60), (0, 1, 5, 10)):
        c = BinomialCount(k, n)
        for a in (0.01, 0.1):
            ci = c.proportion_ci(1 - a)
            for p in np.linspace(0.001, 0.999, 37):
                inside = ci.low < p < ci.high
                assert (central_pvalue(k, n, p) > a) == inside or abs(p - ci.low) < 1e-9 or abs(p - ci.high) < 1e-9


def test_exact_verdict():
    # rules v2: HOLDS needs the equivalence test. 50/100 at p = 0.5: the one-sided 99% CP bounds are
    # about [0.38, 0.62], not inside [0.4, 0.6] = [p/1.25, 1.25 p] intersected with the 1-p region:
    # INCONCLUSIVE, not HOLDS: "not rejected" is not support.
    d = decide_exact(Counts(50, 100), 0.5, alpha_violated=0.01, alpha_holds=0.01)
    assert d.verdict is Verdict.INCONCLUSIVE and d.pvalue == 1.0 and d.pvalue_holds > 0.01
    d = decide_exact(Counts(80, 100), 0.5, alpha_violated=0.01, alpha_holds=0.01)
    assert d.verdict is Verdict.VIOLATED and d.pvalue < 1e-8
    d = decide_exact(Counts(2500, 5000), 0.5, alpha_violated=0.01, alpha_holds=0.01)
    assert d.verdict is Verdict.HOLDS and "within [0.8p, 1.25p]" in d.claim


def test_exact_equivalence_false_holds_rate_is_at_most_alpha_exactly():
    """If the true failure probability sits on the edge of the equivalence region (1.25 p0 or p0/1.25),
    P(HOLDS) <= alpha_h (two one-sided tests), computed exactly over every k."""
    a = 0.01
    for n, p0 in [(2000, 0.1), (3000, 0.3), (1500, 0.5)]:
        ks = np.arange(n + 1)
        holds = np.array([exact_pvalues(Counts(int(k), n), p0)[1] <= a for k in ks])
        lo = max(p0 / 1.25, 1 - 1.25 * (1 - p0))
        hi = min(1.25 * p0, 1 - (1 - p0) / 1.25)
        for q in (lo, hi):
            assert binom.pmf(ks, n, q)[holds].sum() <= a


def test_deterministic_and_search_verdicts():
    assert decide_deterministic(Counts(1, 10)).verdict is Verdict.VIOLATED
    # rules v2: too few draws for HOLDS (>= 90 needed, 1 - 0.01**(1/90) <= 0.05 < 1 - 0.01**(1/89))
    assert DETERMINISTIC_MIN_DRAWS == 90
    assert 1 - 0.01 ** (1 / 90) <= 0.05 < 1 - 0.01 ** (1 / 89)
    d = decide_deterministic(Counts(0, 10, vacuous=5))
    assert d.verdict is Verdict.INCONCLUSIVE and "HOLDS needs >= 90" in d.claim
    assert decide_deterministic(Counts(0, 90)).verdict is Verdict.HOLDS
    assert decide_deterministic(Counts(0, 89)).verdict is Verdict.INCONCLUSIVE
    assert decide_deterministic(Counts(0, 900, undetermined=1)).verdict is Verdict.INCONCLUSIVE
    assert decide_deterministic(Counts(0, 900, solver_errors=1)).verdict is Verdict.INCONCLUSIVE
    assert decide_deterministic(Counts(0, 0, vacuous=5)).verdict is Verdict.VACUOUS
    assert decide_deterministic(Counts(0, 0)).verdict is Verdict.INCONCLUSIVE
    assert not decide_deterministic(Counts(0, 900)).stops  # keeps searching over all planned draws
    assert decide_search(Counts(2, 10)).verdict is Verdict.VIOLATED
    # rules v2: a search never HOLDS
    d = decide_search(Counts(0, 300), 0.02)
    assert d.verdict is Verdict.INCONCLUSIVE
    assert d.claim == "no counterexample in 300 instances searched; worst slack 0.02"
    assert decide_search(Counts(0, 0)).verdict is Verdict.INCONCLUSIVE
    assert decide("search", Counts(0, 10**6)).verdict is Verdict.INCONCLUSIVE


def test_report_decisions():
    assert decide_report(Verdict.VIOLATED, {"claim": "x"}).verdict is Verdict.VIOLATED
    d = decide_report(Verdict.HOLDS, {})
    assert d.verdict is Verdict.HOLDS and d.claim  # every HOLDS states a claim
    assert decide_report(Verdict.VIOLATED, {}, role="measurement").verdict is Verdict.INCONCLUSIVE


def test_counts_are_validated():
    with pytest.raises(RpcheckError, match="`failures`"):
        decide_deterministic(Counts(-1, 3))
    with pytest.raises(RpcheckError, match="must be <= `evaluated`"):
        decide_deterministic(Counts(3, 4, undetermined=2))


def _holm_bruteforce(p, alpha):
    m = len(p)
    order = np.argsort(p, kind="stable")
    rej = np.zeros(m, bool)
    for j, i in enumerate(order):
        if p[i] <= alpha / (m - j):
            rej[i] = True
        else:
            break
    return rej


@given(st.lists(st.floats(0, 1), min_size=0, max_size=12), st.sampled_from([0.01, 0.05, 0.2]))
def test_holm_matches_definition(p, alpha):
    p = np.asarray(p, float)
    r = holm(p, alpha)
    assert np.array_equal(r.reject, _holm_bruteforce(p, alpha))
    assert np.array_equal(r.reject, p <= r.levels)
    assert np.array_equal(r.reject, r.adjusted <= alpha + 1e-15 * (r.adjusted > 0))
    if p.size:
        assert np.all(r.levels >= alpha / p.size - 1e-18) and np.all(r.levels <= alpha)


def test_holm_example_and_validation():
    r = holm([0.001, 0.015, 0.04, 0.5], 0.05)
    assert r.reject.tolist() == [True, True, False, False]
    assert r.levels.tolist() == [0.0125, 0.05 / 3, 0.025, 0.025]
    with pytest.raises(RpcheckError, match="`pvalues`"):
        holm([0.1, 1.5], 0.05)
    with pytest.raises(RpcheckError, match="`alpha`"):
        holm([0.1], 1.0)


def test_sequential_looks():
    assert sequential_looks(10, 5) == (2, 4, 6, 8, 10)
    assert sequential_looks(7, 3) == (3, 5, 7)
    assert sequential_looks(2, 5) == (1, 2)


# ------------------------------------------------------------------------------ attainability and power
from rpcheck.stats import holds_power, pvalues, unattainable, violated_power  # noqa: E402


def _holds_anywhere(mode, n, promised, level):
    """Brute force over every count k = 0..n (no ambiguous trial): can the rule say HOLDS? (decide_bound /
    decide_exact say HOLDS iff pvalue_holds <= alpha_holds and no VIOLATED; they are tested against this
    p-value rule above.)"""
    return any(pvalues(mode, Counts(k, n), promised)[1] <= level < pvalues(mode, Counts(k, n), promised)[0]
               for k in range(n + 1))  # fmt: skip


def _violated_anywhere(mode, n, promised, level):
    return any(pvalues(mode, Counts(k, n), promised)[0] <= level for k in range(n + 1))


def test_unattainable_deterministic_holds():
    """HOLDS needs >= DETERMINISTIC_MIN_DRAWS = 90 evaluated draws (1 - 0.01**(1/89) = 0.0504 > 0.05 >=
    1 - 0.01**(1/90) = 0.0499): 89 draws cannot give HOLDS whatever the outcomes, 90 can."""
    assert unattainable("deterministic", "HOLDS", 40, level=0.01) == "HOLDS unattainable: 40 draws, the rule needs 90"
    assert unattainable("deterministic", "HOLDS", 89, level=0.01) is not None
    assert decide_deterministic(Counts(0, 89)).verdict is Verdict.INCONCLUSIVE
    assert unattainable("deterministic", "HOLDS", 90, level=0.01) is None
    assert decide_deterministic(Counts(0, 90)).verdict is Verdict.HOLDS
    # a VIOLATED is attainable with a single draw (one certified failure); INCONCLUSIVE always is
    assert unattainable("deterministic", "VIOLATED", 1, level=0.01) is None
    assert unattainable("deterministic", "INCONCLUSIVE", 0, level=0.01) is None
    assert unattainable("search", "VIOLATED", 1, level=0.01) is None
    assert unattainable("search", "HOLDS", 10**6, level=0.01) == "HOLDS unattainable: a search never gives HOLDS"
    assert unattainable("report", "HOLDS", 1, level=0.01) is None


def test_unattainable_bound_holds_threshold():
    """0 failures in n draws give the support p-value (1 - delta)**n, the smallest over k. delta = 0.01,
    level 0.01: log(0.01) / log(0.99) = 458.2, so n = 458 cannot give HOLDS and n = 459 can
    (0.99**458 = 0.01004 > 0.01 >= 0.99**459 = 0.00994)."""
    assert 0.99**458 > 0.01 >= 0.99**459
    why = unattainable("bound", "HOLDS", 458, 0.01, level=0.01)
    assert why.startswith("HOLDS unattainable: 458 draws, the rule needs 459")
    assert unattainable("bound", "HOLDS", 459, 0.01, level=0.01) is None
    assert not _holds_anywhere("bound", 458, 0.01, 0.01) and _holds_anywhere("bound", 459, 0.01, 0.01)
    assert "never attainable" in unattainable("bound", "HOLDS", 10, 0.0, level=0.01)


def test_unattainable_bound_violated_threshold():
    """k = n failures give the refutation p-value delta**n, the smallest over k: delta = 0.2, level 0.01:
    0.2**2 = 0.04 > 0.01 >= 0.2**3 = 0.008, so 2 draws cannot give VIOLATED and 3 can."""
    assert unattainable("bound", "VIOLATED", 2, 0.2, level=0.01) is not None
    assert unattainable("bound", "VIOLATED", 3, 0.2, level=0.01) is None
    assert not _violated_anywhere("bound", 2, 0.2, 0.01) and _violated_anywhere("bound", 3, 0.2, 0.01)


@pytest.mark.parametrize("mode,promised", [("bound", 0.01), ("bound", 0.1), ("exact", 0.5), ("exact", 0.1)])
def test_unattainable_agrees_with_brute_force(mode, promised):
    """unattainable() is None exactly when some count k = 0..n lets the rule say the verdict."""
    for n in [1, 2, 3, 8, 22, 50, 100, 300]:
        for level in (0.01, 0.05):
            assert (unattainable(mode, "HOLDS", n, promised, level=level) is None) == _holds_anywhere(
                mode, n, promised, level
            ), (n, level)
            assert (unattainable(mode, "VIOLATED", n, promised, level=level) is None) == _violated_anywhere(
                mode, n, promised, level
            ), (n, level)


def test_unattainable_exact_holds():
    """p0 = 0.5, 100 draws: the best count k = 50 gives the equivalence p-value
    max(P_0.4(X >= 50), P_0.6(X <= 50)) = 0.0271 > 0.01 (exact_pvalues doctest): unattainable at 0.01,
    attainable at 0.05."""
    assert unattainable("exact", "HOLDS", 100, 0.5, level=0.01).startswith("HOLDS unattainable: 100 draws")
    assert unattainable("exact", "HOLDS", 100, 0.5, level=0.05) is None
    assert unattainable("exact", "VIOLATED", 100, 0.5, level=0.01) is None


def _brute_power(mode, n, p_true, promised, level, verdict):
    """Sum of P(X = k) over the counts whose decision (decide(), the rule itself) is ``verdict``."""
    total = 0.0
    if mode not in ("bound", "exact"):
        # deterministic/search: the verdict depends only on whether k > 0 (decide at k = 0 and k = 1)
        at = {j: decide(mode, Counts(j, n), promised).verdict for j in (0, 1)}
    for k in range(n + 1):
        if mode in ("bound", "exact"):
            pv, ph = pvalues(mode, Counts(k, n), promised)
            got = Verdict.VIOLATED if pv <= level else Verdict.HOLDS if ph <= level else Verdict.INCONCLUSIVE
            if k % 40 == 0:  # spot-check the p-value shortcut against decide() itself
                assert decide(mode, Counts(k, n), promised, alpha_violated=level, alpha_holds=level).verdict is got
        else:
            got = at[min(k, 1)]
        if got is verdict:
            total += binom.pmf(k, n, p_true)
    return total


@pytest.mark.parametrize(
    "mode,n,p_true,promised,level",
    [("bound", 400, 0.002, 0.02, 0.01), ("bound", 400, 0.05, 0.02, 0.002), ("exact", 600, 0.3, 0.3, 0.01),
     ("exact", 300, 0.45, 0.3, 0.01), ("deterministic", 120, 0.01, None, 0.01), ("deterministic", 50, 0.0, None, 0.01),
     ("search", 50, 0.02, None, 0.01)],
)  # fmt: skip
def test_power_functions_equal_the_decision_rule_summed(mode, n, p_true, promised, level):
    """holds_power / violated_power are the binomial sums of the decision functions' verdicts."""
    h = _brute_power(mode, n, p_true, promised, level, Verdict.HOLDS)
    v = _brute_power(mode, n, p_true, promised, level, Verdict.VIOLATED)
    assert holds_power(mode, n, p_true, promised, level) == pytest.approx(h, abs=1e-12)
    assert violated_power(mode, n, p_true, promised, level) == pytest.approx(v, abs=1e-12)


def test_power_error_rates():
    """At the boundary of the claim the power is the error rate: <= level (exact binomial sums)."""
    assert violated_power("bound", 1000, 0.05, 0.05, 0.01) <= 0.01
    assert holds_power("bound", 1000, 0.05, 0.05, 0.01) <= 0.01
    assert holds_power("exact", 3000, 0.5 * 1.25, 0.5, 0.01) <= 0.01
    assert violated_power("exact", 3000, 0.5, 0.5, 0.01) <= 0.01
    with pytest.raises(RpcheckError, match="mode"):
        holds_power("report", 10, 0.1, 0.1, 0.01)
    with pytest.raises(RpcheckError, match="level"):
        violated_power("bound", 10, 0.1, 0.1, 1.5)


def test_exhaustive_deterministic_rows():
    # A claim on fixed inputs (no randomness) is decided by one clean evaluation; ambiguity still blocks HOLDS
    # and a failure is still VIOLATED. Random-draw rows keep the 90-draw rule.
    import pytest

    from rpcheck.engine import Variant
    from rpcheck.errors import RpcheckError
    from rpcheck.stats import Counts, Verdict, decide, unattainable

    assert decide("deterministic", Counts(0, 1), exhaustive=True).verdict is Verdict.HOLDS
    assert decide("deterministic", Counts(0, 1)).verdict is Verdict.INCONCLUSIVE
    assert decide("deterministic", Counts(0, 1, undetermined=1), exhaustive=True).verdict is Verdict.INCONCLUSIVE
    assert decide("deterministic", Counts(1, 1), exhaustive=True).verdict is Verdict.VIOLATED
    assert unattainable("deterministic", "HOLDS", 1, level=0.01, exhaustive=True) is None
    assert unattainable("deterministic", "HOLDS", 1, level=0.01) is not None
    with pytest.raises(RpcheckError, match="exhaustive"):
        Variant("x", "s", mode="bound", promised_failure=0.1, exhaustive=True)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_clopper_pearson_beta_quantiles_equal_scipy_root_finding(alternative):
    """The beta-quantile bounds against scipy's root-finding ``binomtest(...).proportion_ci("exact")``
    (brentq to xtol = 2e-12, rtol = 4 eps: the derived tolerance), and against the defining tail equations."""
    from scipy.stats import binom, binomtest

    from rpcheck.stats import clopper_pearson

    for n in (1, 2, 7, 40, 333, 5000, 10**6):
        for k in sorted({0, 1, 2, n // 3, n // 2, n - 1, n} & set(range(n + 1))):
            for cl in (0.5, 0.95, 0.99, 1 - 1e-6):
                ref = binomtest(k, n, 0.5, alternative=alternative).proportion_ci(cl, method="exact")
                low, high = clopper_pearson(k, n, cl, alternative)
                assert abs(low - ref.low) <= 2 * (2e-12 + 8.9e-16 * ref.low)
                assert abs(high - ref.high) <= 2 * (2e-12 + 8.9e-16 * ref.high)
                a = (1 - cl) / 2 if alternative == "two-sided" else 1 - cl
                # the tail at a bound p can only be as exact as p itself (one rounding, 1.1e-16 p): its
                # derivative is n pmf(k - 1 or k; n - 1, p), so allow that much plus 1e-9 relative
                if 0 < low:
                    slack = n * binom.pmf(k - 1, n - 1, low) * 2.3e-16 * low
                    assert abs(binom.sf(k - 1, n, low) - a) <= slack + 1e-9 * a
                if high < 1:
                    slack = n * binom.pmf(k, n - 1, high) * 2.3e-16 * high
                    assert abs(binom.cdf(k, n, high) - a) <= slack + 1e-9 * a


@pytest.mark.parametrize("f", [0.0, 0.03, 0.1, 0.31, 0.54, 0.8])
@pytest.mark.parametrize("power", [0.9, 0.99])
def test_deterministic_trials_is_the_least_n_by_scipy_binom(f, power):
    """Oracle: scipy's binomial survival function; n is the least count reaching the power."""
    from scipy.stats import binom

    from rpcheck.stats import DETERMINISTIC_MIN_DRAWS, deterministic_trials

    n = deterministic_trials(f, power=power)
    m = DETERMINISTIC_MIN_DRAWS
    assert binom.sf(m - 1, n, 1 - f) >= power
    assert n == m or binom.sf(m - 1, n - 1, 1 - f) < power


def test_deterministic_trials_domain():
    from rpcheck.stats import deterministic_trials

    with pytest.raises(RpcheckError, match="vacuous_fraction"):
        deterministic_trials(1.0)
    with pytest.raises(RpcheckError, match="power"):
        deterministic_trials(0.1, power=1.0)

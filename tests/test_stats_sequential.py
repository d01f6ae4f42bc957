"""Anytime-valid sequential rules (rpcheck.sequential and the sequential half of rpcheck.stats).

The e-values are checked against numerical integration of their mixtures, their supermartingale property
exactly one step at a time, the rejection regions and the exact power against brute force, closed e-Holm
against the closure over every subset. The synthetic suite simulates Bernoulli streams with fixed seeds;
its false-alarm probability is stated where it is.
"""

import itertools
import math

import numpy as np
import pytest
from scipy import integrate
from scipy.stats import beta as beta_dist
from scipy.stats import binom

from rpcheck import sequential as seq
from rpcheck.errors import RpcheckError
from rpcheck.stats import (
    DETERMINISTIC_MIN_DRAWS,
    Counts,
    Verdict,
    decide,
    decide_sequential,
    sequential_evalues,
    sequential_family,
    sequential_power,
    trials_for_power,
    trials_to_decide,
)

THETAS = (0.001, 0.01, 0.05, 0.2, 0.5, 0.9)


# ------------------------------------------------------------------------------ closed forms


def _mixture_by_quadrature(k, n, theta, lo, hi):
    """``int_lo^hi L(q)/L(theta) dBeta(1/2,1/2)(q) / mass([lo, hi])`` by adaptive quadrature."""
    log_l_theta = k * math.log(theta) + (n - k) * math.log1p(-theta)

    def f(q):
        return math.exp(k * math.log(q) + (n - k) * math.log1p(-q) - log_l_theta) * beta_dist.pdf(q, 0.5, 0.5)

    pts = [x for x in (k / n if n else None, theta) if x is not None and lo < x < hi]
    val = integrate.quad(f, lo, hi, points=pts or None, limit=400, epsabs=0, epsrel=1e-10)[0]
    return val / (beta_dist.cdf(hi, 0.5, 0.5) - beta_dist.cdf(lo, 0.5, 0.5))


@pytest.mark.parametrize("theta", THETAS)
@pytest.mark.parametrize("k,n", [(0, 0), (0, 10), (3, 10), (1, 40), (12, 40), (20, 40)])
def test_closed_forms_equal_the_integrals(theta, k, n):
    above = _mixture_by_quadrature(k, n, theta, theta, 1.0)
    below = _mixture_by_quadrature(k, n, theta, 0.0, theta)
    differs = _mixture_by_quadrature(k, n, theta, 0.0, 1.0)
    assert math.exp(seq.log_e_above(k, n, theta)) == pytest.approx(above, rel=1e-7)
    assert math.exp(seq.log_e_below(k, n, theta)) == pytest.approx(below, rel=1e-7)
    assert math.exp(seq.log_e_differs(k, n, theta)) == pytest.approx(differs, rel=1e-7)


@pytest.mark.parametrize("a,b,x", [(200.5, 0.5, 0.001), (500.5, 100.5, 0.001), (1000.5, 1000.5, 0.1),
                                   (2.5, 3.5, 0.3), (3.5, 5000.5, 0.2), (40.5, 9960.5, 0.05)])
def test_log_incomplete_beta_where_it_underflows(a, b, x):
    """The log-space continued fraction takes over below 1e-280 (scipy's betainc underflows, its hyp2f1 is
    wrong for large parameters): compared with mpmath at 600 digits."""
    mpmath = pytest.importorskip("mpmath")
    with mpmath.workdps(600):
        want = float(mpmath.log(mpmath.betainc(a, b, 0, x, regularized=True)))
        want_c = float(mpmath.log(mpmath.betainc(a, b, x, 1, regularized=True)))
    assert float(seq._log_betainc(np.array([a]), np.array([b]), x)[0]) == pytest.approx(want, rel=1e-12, abs=1e-12)
    assert float(seq._log_betaincc(np.array([a]), np.array([b]), x)[0]) == pytest.approx(want_c, rel=1e-12, abs=1e-12)


def test_degenerate_nulls():
    # nothing above 1 / below 0: no bet (E = 1); H0 p <= 0 is refuted by one failure, p >= 1 by one success
    assert seq.log_e_above(3, 5, 1.0) == 0 and seq.log_e_below(3, 5, 0.0) == 0
    assert seq.log_e_above(1, 5, 0.0) == np.inf and seq.log_e_above(0, 5, 0.0) < 0
    assert seq.log_e_below(4, 5, 1.0) == np.inf and seq.log_e_below(5, 5, 1.0) < 0
    assert seq.log_e_differs(1, 5, 0.0) == np.inf


@pytest.mark.parametrize("theta", THETAS)
def test_one_step_supermartingale_under_the_composite_null(theta):
    """E_p[E_{n+1} | k, n] = p E(k+1, n+1) + (1-p) E(k, n+1) <= E(k, n) for every p in the null, with equality
    at the boundary p = theta (the proof in rpcheck.stats' docstring, checked exactly on a grid)."""
    for n in (0, 1, 5, 30, 200):
        k = np.arange(n + 1)
        for fn, null in (
            (seq.log_e_above, np.array([0.0, theta / 3, theta])),
            (seq.log_e_below, np.array([theta, (1 + 2 * theta) / 3, 1.0])),
            (seq.log_e_differs, np.array([theta])),
        ):
            now = fn(k, n, theta)   # in log space: the e-values reach 1e300 and beyond
            up, same = fn(k + 1, n + 1, theta), fn(k, n + 1, theta)
            for p in null:
                with np.errstate(divide="ignore"):
                    nxt = np.logaddexp(np.log(p) + up if p > 0 else -np.inf, np.log1p(-p) + same if p < 1 else -np.inf)
                assert np.all(np.isfinite(now)) and np.all(np.isfinite(nxt))
                assert np.all(nxt <= now + 1e-9 * np.maximum(1, np.abs(now))), (fn.__name__, n, p)
                if p == theta:
                    np.testing.assert_allclose(nxt, now, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("theta", THETAS)
def test_monotone_in_k_so_worst_resolution_is_the_extreme_count(theta):
    n = 120
    k = np.arange(n + 1)
    above, below = seq.log_e_above(k, n, theta), seq.log_e_below(k, n, theta)
    assert np.all(np.isfinite(above)) and np.all(np.isfinite(below))   # no underflow (log-space tails)
    assert np.all(np.diff(above) > 0) and np.all(np.diff(below) < 0)
    d = np.diff(seq.log_e_differs(k, n, theta))
    assert np.all(np.diff(d) > 0)   # convex: the minimum over an interval of resolutions is found by min()


def test_ambiguous_trials_count_against_each_verdict():
    lv0, lh0 = sequential_evalues("bound", Counts(2, 300), 0.05)
    lv1, lh1 = sequential_evalues("bound", Counts(2, 300, undetermined=4, solver_errors=1), 0.05)
    # n includes solver errors (301 draws); VIOLATED sees k_v = 2 of 301, HOLDS sees k_h = 7 of 301
    assert lv1 == pytest.approx(float(seq.log_e_above(2, 301, 0.05))) and lv1 < lv0
    assert lh1 == pytest.approx(float(seq.log_e_below(7, 301, 0.05))) and lh1 < lh0
    # exact: the minimum over every resolution k in [k_v, k_h]
    lv, lh = sequential_evalues("exact", Counts(30, 200, undetermined=20), 0.2)
    assert lv == pytest.approx(float(np.min(seq.log_e_differs(np.arange(30, 51), 200, 0.2))))
    lo, hi = 0.16, 0.25
    assert lh == pytest.approx(min(float(seq.log_e_above(30, 200, lo)), float(seq.log_e_below(50, 200, hi))))


# ------------------------------------------------------------------------------ regions, power


@pytest.mark.parametrize("kind,theta", [("above", 0.05), ("below", 0.05), ("differs", 0.05), ("differs", 0.5),
                                        ("above", 0.5), ("below", 0.01)])
def test_rejection_region_equals_brute_force(kind, theta):
    thr = math.log(1 / 0.002)
    ns = np.arange(1, 301)
    lower, upper = seq.rejection_region(kind, theta, ns, thr)
    for i, n in enumerate(ns):
        k = np.arange(n + 1)
        hit = seq.log_e(kind, k, n, theta) >= thr
        assert np.array_equal(hit, (k <= lower[i]) | (k >= upper[i])), (kind, n)


@pytest.mark.parametrize("regions,p", [
    ([("above", 0.2, math.log(20))], 0.4),
    ([("below", 0.3, math.log(10))], 0.05),
    ([("differs", 0.3, math.log(10))], 0.7),
    ([("above", 0.1, math.log(5)), ("below", 0.6, math.log(5))], 0.3),
])
def test_crossing_probability_equals_path_enumeration(regions, p):
    n_max = 12
    got = seq.crossing_probability(regions, p, n_max)
    want = np.zeros(n_max)
    hit = {(n, k): all(seq.log_e(kind, k, n, th) >= thr for kind, th, thr in regions)
           for n in range(1, n_max + 1) for k in range(n + 1)}
    for path in itertools.product((0, 1), repeat=n_max):
        k = np.cumsum(path)
        prob = p ** k[-1] * (1 - p) ** (n_max - k[-1])
        for n in range(1, n_max + 1):
            if hit[n, int(k[n - 1])]:
                want[n - 1:] += prob
                break
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)


# The power table of rpcheck.stats' docstring ("Anytime-valid sequential rules"), alpha = 0.01: the cheap rows
# recomputed exactly. (mode, verdict, promised, true p, m, fixed alpha/m, fixed alpha, anytime.)
POWER_TABLE = [
    ("bound", "HOLDS", 0.05, 0.0, 50, 167, 90, 191),
    ("bound", "HOLDS", 0.05, 0.0, 200, 194, 90, 219),
    ("bound", "VIOLATED", 0.05, 0.2, 50, 147, 96, 193),
    ("bound", "VIOLATED", 0.05, 0.2, 200, 159, 96, 210),
    ("bound", "HOLDS", 0.1, 0.01, 50, 180, 113, 234),
    ("bound", "HOLDS", 0.1, 0.01, 200, 214, 113, 270),
    ("bound", "HOLDS", 0.5, 0.3, 200, 230, 130, 302),
    ("exact", "HOLDS", 0.5, 0.5, 200, 1032, 596, 1400),
]


@pytest.mark.parametrize("mode,verdict,delta,p,m,fixed_m,fixed_1,anytime", POWER_TABLE)
def test_power_table(mode, verdict, delta, p, m, fixed_m, fixed_1, anytime):
    a = 0.01
    assert trials_for_power(mode, verdict, p, delta, a / m, anytime=False) == fixed_m
    assert trials_for_power(mode, verdict, p, delta, a, anytime=False) == fixed_1
    assert trials_for_power(mode, verdict, p, delta, a / m) == anytime
    assert anytime <= 2 * fixed_m
    # the anytime count is the least n with power >= 0.99
    assert sequential_power(mode, verdict, anytime, p, delta, a / m) >= 0.99
    assert sequential_power(mode, verdict, anytime - 1, p, delta, a / m) < 0.99


def test_power_at_the_boundary_is_at_most_the_level():
    # the worst case of validity: the true rate on the boundary of the null, looking after every draw
    lvl = 0.05
    for mode, verdict, promised, p in [("bound", "VIOLATED", 0.05, 0.05), ("bound", "HOLDS", 0.05, 0.05),
                                       ("bound", "HOLDS", 0.3, 0.3), ("exact", "VIOLATED", 0.2, 0.2),
                                       ("exact", "HOLDS", 0.2, 0.16), ("exact", "HOLDS", 0.2, 0.25)]:
        assert sequential_power(mode, verdict, 3000, p, promised, lvl) <= lvl


# ------------------------------------------------------------------------------ family-wise rule


def _closure_by_subsets(e, alpha):
    m = len(e)
    reject = []
    for i in range(m):
        ok = all(np.mean([e[j] for j in S]) >= 1 / alpha
                 for r in range(1, m + 1) for S in itertools.combinations(range(m), r) if i in S)
        reject.append(ok)
    return np.array(reject)


def test_eholm_equals_the_closure_over_every_subset():
    rng = np.random.default_rng(20261202)
    for _ in range(300):
        m = int(rng.integers(1, 7))
        alpha = float(rng.choice([0.05, 0.1, 0.25]))
        e = np.exp(rng.normal(1.5, 2.0, size=m))
        t = seq.eholm_log_thresholds(np.log(e), alpha)
        assert np.array_equal(np.log(e) >= t, _closure_by_subsets(e, alpha))


def test_eholm_between_bonferroni_and_unadjusted():
    e = np.array([0.5, 3.0, 400.0, 900.0])
    t = np.exp(seq.eholm_log_thresholds(np.log(e), 0.01))
    assert np.all(t <= 4 / 0.01 + 1e-9) and np.all(t >= 1 / 0.01 - 1e-9)


def test_family_levels_agree_with_the_row_decisions():
    modes = ["bound", "bound", "bound", "exact", "exact"]
    counts = [Counts(0, 250), Counts(30, 100), Counts(3, 60), Counts(500, 1000), Counts(0, 0)]
    promised = [0.05, 0.05, 0.05, 0.5, 0.2]
    f = sequential_family(modes, counts, promised, alpha=0.01)
    for i, (mo, c, p) in enumerate(zip(modes, counts, promised)):
        d = decide_sequential(mo, c, p, alpha_violated=f.levels_violated[i], alpha_holds=f.levels_holds[i])
        assert (d.verdict is Verdict.VIOLATED) == bool(f.violated[i])
        assert (d.verdict is Verdict.HOLDS) == (bool(f.holds[i]) and not f.violated[i])
        assert d.stops == (d.verdict in (Verdict.HOLDS, Verdict.VIOLATED))
    assert f.holds.tolist() == [True, False, False, True, False]
    assert f.violated.tolist() == [False, True, False, False, False]
    with pytest.raises(RpcheckError, match="equal lengths"):
        sequential_family(["bound"], [], [0.1], alpha=0.01)


def test_family_evalues_equal_the_definitions_row_by_row():
    """The vectorised e-values of sequential_family against the rules written out for one row at a time
    (exact rows: the minimum over *every* resolution of the ambiguous trials, by enumeration)."""
    from rpcheck.stats import _equivalence_region

    rng = np.random.default_rng(4)
    modes, counts, promised, want = [], [], [], []
    for _ in range(200):
        mode = str(rng.choice(["bound", "exact"]))
        n = int(rng.integers(0, 400))
        u = int(rng.integers(0, n // 4 + 1))
        k = int(rng.integers(0, n - u + 1))
        p = float(rng.choice([0.0, 0.01, 0.05, 0.2, 0.5, 0.8, 1.0]))
        c = Counts(k, n, undetermined=u)
        if n == 0:
            w = (0.0, 0.0)
        elif mode == "bound":
            w = (float(seq.log_e_above(k, n, p)), float(seq.log_e_below(k + u, n, p)))
        else:
            lo, hi = _equivalence_region(p)
            wv = float(np.min(seq.log_e_differs(np.arange(k, k + u + 1), n, p)))
            wh = min(float(seq.log_e_above(k, n, lo)), float(seq.log_e_below(k + u, n, hi))) if lo < hi else 0.0
            w = (wv, wh)
        modes.append(mode), counts.append(c), promised.append(p), want.append(w)
    f = sequential_family(modes, counts, promised, alpha=0.05)
    np.testing.assert_allclose(f.log_e_violated, [w[0] for w in want], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(f.log_e_holds, [w[1] for w in want], rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------------------ row API


def test_decide_sequential_rules_and_validation():
    kw = dict(alpha_violated=0.001, alpha_holds=0.001)
    assert decide_sequential("bound", Counts(0, 0, vacuous=3), 0.1, **kw).verdict is Verdict.VACUOUS
    assert decide_sequential("bound", Counts(0, 0), 0.1, **kw).verdict is Verdict.INCONCLUSIVE
    d = decide_sequential("bound", Counts(0, 400, solver_errors=40), 0.05, **kw)
    assert d.verdict is Verdict.INCONCLUSIVE and "solver errors" in d.claim   # 40 of 440 against HOLDS
    lh = sequential_evalues("bound", Counts(0, 400, solver_errors=40), 0.05)[1]
    assert lh == pytest.approx(float(seq.log_e_below(40, 440, 0.05))) and d.pvalue_holds == min(1.0, math.exp(-lh))
    d = decide_sequential("exact", Counts(1000, 5000), 0.2, **kw)
    assert d.verdict is Verdict.HOLDS and "[0.16, 0.25]" in d.claim
    assert decide_sequential("exact", Counts(300, 1000), 0.2, **kw).verdict is Verdict.VIOLATED
    # deterministic and search rows keep their fixed rules (valid under optional stopping)
    for mode, c in [("deterministic", Counts(0, DETERMINISTIC_MIN_DRAWS)), ("deterministic", Counts(1, 5)),
                    ("search", Counts(0, 50))]:
        assert decide_sequential(mode, c) == decide(mode, c)
    for bad in (dict(alpha_violated=0.0, alpha_holds=0.01), dict(alpha_violated=0.01, alpha_holds=1.5)):
        with pytest.raises(RpcheckError, match="alpha"):
            decide_sequential("bound", Counts(0, 10), 0.1, **bad)
    with pytest.raises(RpcheckError, match="mode"):
        decide_sequential("bogus", Counts(0, 10), 0.1, **kw)
    with pytest.raises(RpcheckError, match="promised"):
        sequential_evalues("bound", Counts(0, 10), 1.5)


@pytest.mark.parametrize("mode,counts,promised", [
    ("bound", Counts(0, 100), 0.05), ("bound", Counts(20, 100), 0.05), ("bound", Counts(1, 100), 0.1),
    ("exact", Counts(50, 1000), 0.05), ("exact", Counts(100, 1000), 0.05), ("bound", Counts(0, 0), 0.05),
])
def test_trials_to_decide_projects_the_current_rate(mode, counts, promised):
    alpha, m = 0.01, 50
    verdict, more = trials_to_decide(mode, counts, promised, alpha=alpha, m=m)
    assert verdict in (Verdict.HOLDS, Verdict.VIOLATED) and more < math.inf
    n = counts.draws
    N = n + more
    rate = counts.failures / n if n else (1.0 if verdict is Verdict.VIOLATED else 0.0)
    lvl = alpha / m

    def decided(N):
        k = round(rate * N)
        return decide_sequential(mode, Counts(k, N), promised, alpha_violated=lvl, alpha_holds=lvl).verdict

    # "roughly": decided 1% + 2 draws after the projected count (there k is rounded to an integer) ...
    assert decided(math.ceil(N * 1.01) + 2) is verdict
    # ... and, at the projected (fractional) counts, exactly at N and not one draw before
    if mode == "bound":
        fn = seq.log_e_above if verdict is Verdict.VIOLATED else seq.log_e_below
        assert fn(rate * N, N, promised) >= math.log(m / alpha)
        if more > 0:
            assert fn(rate * (N - 1), N - 1, promised) < math.log(m / alpha)


def test_trials_to_decide_other_modes():
    assert trials_to_decide("bound", Counts(5, 100), 0.05, alpha=0.01).trials == math.inf
    assert trials_to_decide("bound", Counts(0, 1000), 0.05, alpha=0.01) == (Verdict.HOLDS, 0)
    assert trials_to_decide("deterministic", Counts(0, 30), alpha=0.01) == (Verdict.HOLDS, 60)
    assert trials_to_decide("deterministic", Counts(2, 30), alpha=0.01) == (Verdict.VIOLATED, 0)
    assert trials_to_decide("deterministic", Counts(0, 30, undetermined=1), alpha=0.01).trials == math.inf
    assert trials_to_decide("search", Counts(0, 30), alpha=0.01).trials == math.inf
    assert trials_to_decide("report", Counts(0, 30), alpha=0.01).trials == math.inf
    with pytest.raises(RpcheckError, match="`m`"):
        trials_to_decide("bound", Counts(0, 1), 0.1, alpha=0.01, m=0)


# ------------------------------------------------------------------------------ synthetic suite

# The suite: (mode, promised, true p, ambiguous rate). Rows with p <= delta ("bound") or p = p0 ("exact") count
# toward false VIOLATED; rows with p >= delta ("bound") or p outside the open equivalence region ("exact") toward
# false HOLDS. Several sit exactly on the boundary of their null (the worst case of validity).
SUITE = [
    ("bound", 0.05, 0.05, 0.0), ("bound", 0.05, 0.05, 0.0), ("bound", 0.2, 0.2, 0.0), ("bound", 0.5, 0.5, 0.0),
    ("bound", 0.1, 0.1, 0.15), ("bound", 0.05, 0.0, 0.0), ("bound", 0.05, 0.2, 0.0), ("bound", 0.02, 0.02, 0.0),
    ("exact", 0.2, 0.2, 0.0), ("exact", 0.2, 0.16, 0.0), ("exact", 0.5, 0.6, 0.0), ("exact", 0.05, 0.05, 0.0),
]


def _tables(n_max, rule):
    """Per row: decision statistics ``s_v[n, k_v]``, ``s_h[n, k_h]`` (log e-values, or -log p-values for the
    naive fixed-n control) and the rows' truth."""
    from rpcheck.stats import _equivalence_region

    n = np.arange(n_max + 1)[:, None]
    k = np.arange(n_max + 1)[None, :]
    valid = k <= n
    sv, sh, false_v, false_h = [], [], [], []
    for mode, d, p, _u in SUITE:
        with np.errstate(all="ignore"):
            if rule == "anytime":
                if mode == "bound":
                    v, h = seq.log_e_above(k, n, d), seq.log_e_below(k, n, d)
                else:
                    lo, hi = _equivalence_region(d)
                    v = seq.log_e_differs(k, n, d)
                    h = np.minimum(seq.log_e_above(k, n, lo), seq.log_e_below(k, n, hi))
            else:   # the fixed-n exact tests repeated at every look, no correction for the looks
                if mode == "bound":
                    v, h = -np.log(binom.sf(k - 1, n, d)), -np.log(binom.cdf(k, n, d))
                else:
                    lo, hi = _equivalence_region(d)
                    v = -np.log(np.minimum(1, 2 * np.minimum(binom.cdf(k, n, d), binom.sf(k - 1, n, d))))
                    h = -np.log(np.maximum(binom.sf(k - 1, n, lo), binom.cdf(k, n, hi)))
        sv.append(np.where(valid, v, -np.inf).astype(np.float32))
        sh.append(np.where(valid, h, -np.inf).astype(np.float32))
        if mode == "bound":
            false_v.append(p <= d)
            false_h.append(p >= d)
        else:
            lo, hi = _equivalence_region(d)
            false_v.append(p == d)
            false_h.append(not lo < p < hi)
    return np.stack(sv), np.stack(sh), np.array(false_v), np.array(false_h)


def _simulate(reps, n_max, chunk, alpha, rule, seed):
    """Family-wise error indicators (false VIOLATED, false HOLDS) per replicate of the suite, every row looked
    at after every ``chunk`` draws and stopped at its first decision (which it keeps)."""
    sv, sh, false_v, false_h = _tables(n_max, rule)
    m = len(SUITE)
    rows = np.arange(m)[None, :]
    p = np.array([s[2] for s in SUITE])
    u = np.array([s[3] for s in SUITE])
    rng = np.random.default_rng(seed)
    n = np.zeros((reps, m), dtype=np.int64)
    kv = np.zeros((reps, m), dtype=np.int64)
    kh = np.zeros((reps, m), dtype=np.int64)
    live = np.ones((reps, m), dtype=bool)
    fv = np.zeros(reps, dtype=bool)
    fh = np.zeros(reps, dtype=bool)
    inv = 1.0 / alpha
    for t in range(1, n_max + 1):
        fail = rng.random((reps, m)) < p
        amb = rng.random((reps, m)) < u   # an ambiguous draw hides its outcome: against each verdict
        n += live
        kv += live & fail & ~amb
        kh += live & (fail | amb)
        if t % chunk:
            continue
        lv = sv[rows, n, kv].astype(float)
        lh = sh[rows, n, kh].astype(float)
        if rule == "anytime":   # closed e-Holm in each family
            tv = np.log(inv + _short(lv, inv).sum(1, keepdims=True) - _short(lv, inv))
            th = np.log(inv + _short(lh, inv).sum(1, keepdims=True) - _short(lh, inv))
        else:   # Bonferroni over the rows only
            tv = th = np.full((reps, m), math.log(m * inv))
        rv = live & (lv >= tv)
        rh = live & (lh >= th) & ~rv
        fv |= (rv & false_v).any(1)
        fh |= (rh & false_h).any(1)
        live &= ~(rv | rh)
    return fv, fh


def _short(log_e, inv):
    with np.errstate(over="ignore"):
        return np.maximum(0.0, inv - np.exp(np.minimum(log_e, 700.0)))


def _cp_lower(k, n, conf=0.999):
    return 0.0 if k == 0 else float(beta_dist.ppf(1 - conf, k, n - k + 1))


def _check_suite(reps, n_max, chunk, alpha, seed):
    fv, fh = _simulate(reps, n_max, chunk, alpha, "anytime", seed)
    # The check fails only when the one-sided 99.9% lower CP bound of a measured family-wise rate exceeds alpha:
    # if the true rate is <= alpha, this false alarm has probability <= 0.001 per rate (0.002 per call).
    for name, x in (("false VIOLATED", fv), ("false HOLDS", fh)):
        assert _cp_lower(int(x.sum()), reps) <= alpha, (name, x.mean())
    return fv.mean(), fh.mean()


@pytest.mark.parametrize("chunk", [1, 10])
def test_synthetic_suite_family_wise_error_within_alpha(chunk):
    """12 rows (7 on the boundary of a null), closed e-Holm at alpha = 0.1 in each family, every row looked at
    after every ``chunk`` draws up to 400 and stopped at its decision, 3,000 replicates. Measured family-wise
    rates (false VIOLATED, false HOLDS): chunk 1: 0.035, 0.029; chunk 10: 0.013, 0.020. Heavy version
    (20,000 replicates, 1,000 draws): chunk 1: 0.035, 0.034; chunk 25: 0.0066, 0.018."""
    _check_suite(reps=3000, n_max=400, chunk=chunk, alpha=0.1, seed=1000 + chunk)


def test_synthetic_suite_negative_control_naive_peeking_fails():
    """The same suite with the fixed-n tests re-run at every look (Bonferroni over rows, none over looks) must
    be caught: its lower 99.9% CP bound exceeds alpha (so the check above can fail). Measured: 0.375 false
    VIOLATED, 0.207 false HOLDS."""
    reps, alpha = 3000, 0.1
    fv, fh = _simulate(reps, 400, 1, alpha, "naive", seed=7)
    assert _cp_lower(int(fv.sum()), reps) > alpha and _cp_lower(int(fh.sum()), reps) > alpha


@pytest.mark.heavy
@pytest.mark.parametrize("chunk", [1, 25])
def test_synthetic_suite_heavy(chunk):
    _check_suite(reps=20000, n_max=1000, chunk=chunk, alpha=0.1, seed=2000 + chunk)

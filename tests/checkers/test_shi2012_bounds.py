"""Unit tests for rpcheck.papers.shi2012.bounds: closed forms, exact oracles against independent oracles.

Statistical checks use fixed seeds and a z = 5 two-sided threshold (false-alarm probability < 6e-7 each,
normal approximation to a binomial count with >= 1e3 expected events)."""

import math

import numpy as np
import pytest
from scipy import integrate, stats

from rpcheck.errors import RpcheckError
from rpcheck.papers.shi2012 import bounds as b

Z_ALARM = 5.0  # two-sided false alarm 5.7e-7 per comparison


def _cdf_conditional(r, c, n):
    """Independent oracle for P(c' <= r): c' = u/sqrt(u^2+v^2), u = c A + s t, v^2 = s^2 V with
    A ~ chi_n, t ~ N(0,1), V ~ chi^2_{n-1} independent (rotate so that Rx/|x| = a, Rw = c a + s z)."""
    s = math.sqrt(1 - c * c)

    def inner(t, A):
        u = c * A + s * t
        dens = stats.chi.pdf(A, n) * stats.norm.pdf(t)
        if r >= 0:
            if u <= 0:
                return dens
            return dens * stats.chi2.sf(u * u * (1 - r * r) / (r * r * s * s), n - 1) if r > 0 else 0.0
        if u >= 0:
            return 0.0
        return dens * stats.chi2.cdf(u * u * (1 - r * r) / (r * r * s * s), n - 1)

    hi_a = stats.chi.ppf(1 - 1e-13, n)
    val, _ = integrate.dblquad(inner, 0, hi_a, -9, 9, epsabs=1e-10, epsrel=1e-8)
    return val


@pytest.mark.parametrize("c,n", [(0.0, 2), (0.527, 2), (-0.5, 3), (0.827, 30), (0.1, 300), (0.95, 1000)])
def test_projected_cosine_pdf_integrates_to_one(c, n):
    # the two tails are integrated separately, so their sum checks the normalising constant
    for r in (-0.3, 0.2, 0.7):
        tot = b.projected_cosine_cdf(r, c, n) + b.projected_cosine_cdf(r, c, n, upper=True)
        assert tot == pytest.approx(1.0, abs=1e-9)
    assert b.projected_cosine_cdf(-1.0, c, n) == 0.0 and b.projected_cosine_cdf(1.0, c, n) == 1.0


@pytest.mark.parametrize("n", [2, 5, 40])
@pytest.mark.parametrize("r", [-0.6, 0.1, 0.45])
def test_projected_cosine_null_is_beta(n, r):
    # c = 0: c'^2 ~ Beta(1/2, (n-1)/2) and c' is symmetric.
    p_abs = stats.beta.cdf(r * r, 0.5, (n - 1) / 2)
    expected = 0.5 + math.copysign(p_abs / 2, r)
    assert b.projected_cosine_cdf(r, 0.0, n) == pytest.approx(expected, rel=1e-8, abs=1e-12)


@pytest.mark.parametrize("c,n,r", [(0.827, 12, 0.6), (-0.5, 8, -0.7)])
def test_projected_cosine_cdf_matches_conditional_oracle(c, n, r):
    assert b.projected_cosine_cdf(r, c, n) == pytest.approx(_cdf_conditional(r, c, n), rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("c,n", [(0.527, 30), (-0.062, 10), (0.827, 100)])
def test_projected_cosine_cdf_matches_monte_carlo(c, n):
    rng = np.random.default_rng(20120 + n)
    T = 200_000
    a = rng.standard_normal((T, n))
    w = c * a + math.sqrt(1 - c * c) * rng.standard_normal((T, n))
    cp = np.einsum("ij,ij->i", a, w) / np.sqrt(np.einsum("ij,ij->i", a, a) * np.einsum("ij,ij->i", w, w))
    for q in (0.1, 0.5, 0.9):
        r = float(np.quantile(cp, q))
        p = b.projected_cosine_cdf(r, c, n)
        emp = float(np.mean(cp <= r))
        assert abs(emp - p) <= Z_ALARM * math.sqrt(p * (1 - p) / T) + 1e-5


def test_projected_cosine_n1_exact():
    # n = 1: c' = sign(a b), P(c' = 1) = 1/2 + arcsin(c)/pi (Sheppard)
    assert b.projected_cosine_cdf(0.0, 0.3, 1, upper=True) == pytest.approx(0.5 + math.asin(0.3) / math.pi)


def test_thm5_exact_failure_reference_values():
    assert b.thm5_exact_failure(0.527, 30, 0.1) == pytest.approx(0.4695, abs=5e-4)
    assert b.thm5_exact_failure(0.527, 100, 0.3) == pytest.approx(6.4e-6, rel=0.05)


def test_thm5_band_equivalent_forms():
    for c in np.linspace(-0.99, 0.99, 23):
        for eps in (0.05, 0.3, 0.7):
            lo, up = b.thm5_band(c, eps)
            A = (1 + eps) / (1 - eps)
            assert lo == pytest.approx(1 - A * (1 - c))
            assert up == pytest.approx(c + (2 * eps * (1 - c) + 1 - math.sqrt(1 - eps**2)) / (1 + eps))
            theta = math.acos(c)
            assert c - lo == pytest.approx(4 * eps * math.sin(theta / 2) ** 2 / (1 - eps))


@pytest.mark.parametrize("n", [1, 3, 10, 30, 100, 300, 1000, 3000])
@pytest.mark.parametrize("eps", [0.05, 0.1, 0.3, 0.5, 0.9])
def test_lemma10_bounds_dominate_exact(n, eps):
    exact_lo = b.lemma10_exact_failure(n, eps, "lower")
    exact_up = b.lemma10_exact_failure(n, eps, "upper")
    for side, exact in (("lower", exact_lo), ("upper", exact_up)):
        poly = b.lemma10_tail_bound(n, eps, side, form="polynomial")
        assert exact <= b.lemma10_tail_bound(n, eps, side) <= poly
    assert exact_lo + exact_up <= b.lemma10_failure_bound(n, eps)


def test_lemma10_exact_reference_values():
    assert b.lemma10_exact_failure(300, 0.1) == pytest.approx(0.220, abs=1e-3)
    assert b.lemma10_exact_failure(3000, 0.1) == pytest.approx(1.17e-4, rel=0.01)
    assert b.lemma10_exact_failure(300, 0.3) == pytest.approx(3.7e-4, rel=0.02)
    # looseness about 2 at n = 1 and small eps (Lemma 10 is loose)
    assert 1.9 < b.lemma10_failure_bound(1, 0.1) / b.lemma10_exact_failure(1, 0.1) < 2.2


def test_achlioptas_axis_exact_against_enumeration():
    n, eps = 7, 0.3
    rng = np.random.default_rng(3)
    T = 400_000
    B = rng.binomial(n, 1 / 3, size=T)
    q = 3 * B / n
    emp = np.mean(np.abs(q - 1) > eps)
    p = b.lemma10_exact_failure_achlioptas_axis(n, eps)
    assert abs(emp - p) <= Z_ALARM * math.sqrt(p * (1 - p) / T)


@pytest.mark.parametrize("entries", ["gaussian", "sign", "sparse"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lemma4_variance_formula_by_enumeration(entries, seed):
    rng = np.random.default_rng(seed)
    d = 5
    w, x = rng.standard_normal(d), rng.standard_normal(d)
    if seed == 2:
        w, x = np.eye(d)[0], np.eye(d)[0] * 2.0  # axis aligned
    mean, var = b.inner_product_moments_exact(w, x, entries=entries)
    assert mean == pytest.approx(w @ x, abs=1e-12)
    assert var == pytest.approx(b.lemma4_variance(w, x, 1, entries=entries), rel=1e-12, abs=1e-12)
    assert b.lemma4_variance(w, x, 7, entries=entries) == pytest.approx(var / 7)


def test_thresholds_invert_promised_probabilities():
    for eps in (0.05, 0.1, 0.2, 0.3):
        for m, L in ((1, 2), (20, 3), (100, 10)):
            for thm in ("thm6", "thm8", "thm9"):
                N = b.union_count(thm, m=m, L=L)
                n = b.n_threshold(eps, N, 0.05)
                assert b.union_failure_bound(thm, n, eps, m=m, L=L) == pytest.approx(0.05, rel=1e-12)
                assert b.exponent(n, eps) == pytest.approx((n / 2) * (eps**2 / 2 - eps**3 / 3))
    table = {0.05: 7924, 0.2: 552, 0.3: 266}
    for eps, n in table.items():
        assert round(b.n_threshold(eps, 1, 0.05)) == n


def test_union_count_conservative():
    for m in (1, 5, 100):
        assert b.true_union_count_thm6(m) <= 6 * m


def test_nonvacuity_regions():
    for gamma in np.linspace(0.05, 1, 20):
        e6 = b.thm6_eps_max(gamma)
        assert b.thm6_margin_bound(gamma, e6 * 0.999) > 0 > b.thm6_margin_bound(gamma, min(e6 * 1.001, 0.999))
        e6p = b.thm6_eps_max(gamma, "as_proved")
        if e6p < 1:
            assert b.thm6_margin_bound(gamma, e6p * 0.999, "as_proved") > 0
            assert b.thm6_margin_bound(gamma, min(e6p * 1.001, 0.9999), "as_proved") < 0
        for form in ("as_printed", "corrected"):
            e8 = b.thm8_eps_max(gamma, form)
            grid = np.linspace(1e-4, 0.999, 400)
            vals = np.array([b.thm8_margin_bound(gamma, e, form) for e in grid])
            assert np.all(np.diff(vals) < 0)  # decreasing, so the region is an interval
            assert np.all((vals > 0) == (grid < e8))
        for L in (2, 3, 10):
            e9 = b.thm9_eps_max(gamma, L)
            assert b.thm9_margin_bound(gamma, e9 * 0.999, L) > 0 > b.thm9_margin_bound(gamma, e9 * 1.001, L)
    # the corrected Thm 8 region is about half the printed one for small gamma (proof of Theorem 8: gamma(1+2eps) - 4eps
    # against gamma(1+2eps) - 8eps); at gamma = 1 it is only 0.24 of it (0.169 against 0.707).
    for gamma in (0.1, 0.3):
        assert 0.4 < b.thm8_eps_max(gamma, "corrected") / b.thm8_eps_max(gamma) < 0.6
    assert b.thm8_eps_max(1.0, "corrected") == pytest.approx(0.1695, abs=1e-4)


def test_thm8_point_bound_identity():
    for eps in (0.1, 0.5):
        K = -(1 + 3 * eps) / (1 - eps**2) + math.sqrt(1 - eps**2) / (1 + eps)
        A, B = (1 + eps) / (1 - eps), (1 - eps) / (1 + eps)
        for cy, cm in ((0.3, -0.2), (0.0, -1.0), (0.9, 0.5)):
            assert b.thm8_point_bound(cy, cm, eps) == pytest.approx(K + A * cy - B * cm)
        # printed bound = per-point bound when cmax = c_y - gamma >= 0 ... and fails to be implied otherwise
        assert b.thm8_point_bound(0.0, -1.0, eps) < b.thm8_margin_bound(1.0, eps)


def test_fig1_rates_against_angle_integral():
    for a in (1.0, 2.0, 5.0, 10.0, 100.0):
        # fraction of directions theta in [0, pi) with |sin| > a |cos|
        th = (np.arange(2_000_000) + 0.5) * math.pi / 2_000_000
        frac = np.mean(np.abs(np.sin(th)) > a * np.abs(np.cos(th)))
        assert b.fig1_separable_probability(a) == pytest.approx(frac, abs=1e-6)
        via_margin = 2 / math.pi * math.asin(b.fig1_normalized_margin(a))
        assert b.fig1_separable_probability(a) == pytest.approx(via_margin)


def test_bad_input_messages():
    with pytest.raises(RpcheckError, match="`eps`"):
        b.tail_e(10, 1.0)
    with pytest.raises(RpcheckError, match="`side`"):
        b.lemma10_exact_failure(10, 0.1, side="left")
    with pytest.raises(RpcheckError, match="`n`"):
        b.projected_cosine_pdf(0.1, 0.2, 1)
    with pytest.raises(RpcheckError, match="`c`"):
        b.projected_cosine_cdf(0.1, 1.0, 5)


@pytest.mark.parametrize("c,n,eps", [(0.827, 30, 0.1), (-0.062, 60, 0.3), (0.3, 2, 0.5)])
def test_fig2_exact_p1_p2_against_monte_carlo(c, n, eps):
    rng = np.random.default_rng(77)
    T = 100_000
    a = rng.standard_normal((T, n))
    w = c * a + math.sqrt(1 - c * c) * rng.standard_normal((T, n))
    ip = np.einsum("ij,ij->i", a, w)
    cp = ip / np.sqrt(np.einsum("ij,ij->i", a, a) * np.einsum("ij,ij->i", w, w))
    r1, r2 = cp / c, ip / (n * c)
    for emp, p in ((np.mean(~((r1 >= 1 - eps) & (r1 < 1 + eps))), b.fig2_p1_exact(c, n, eps)),
                   (np.mean(~((r2 >= 1 - eps) & (r2 <= 1 + eps))), b.fig2_p2_exact(c, n, eps))):
        assert abs(emp - p) <= Z_ALARM * math.sqrt(p * (1 - p) / T) + 1e-6


def test_fig2_reference_values():
    assert b.fig2_p1_exact(0.827, 100, 0.1) == pytest.approx(0.014, abs=2e-3)
    assert b.fig2_p2_exact(0.827, 100, 0.1) == pytest.approx(0.523, abs=3e-3)
    # symmetric in the sign of c (I9)
    assert b.fig2_p1_exact(-0.827, 60, 0.1) == pytest.approx(b.fig2_p1_exact(0.827, 60, 0.1), rel=1e-8)
    assert b.fig2_p2_exact(-0.527, 60, 0.1) == pytest.approx(b.fig2_p2_exact(0.527, 60, 0.1), rel=1e-8)

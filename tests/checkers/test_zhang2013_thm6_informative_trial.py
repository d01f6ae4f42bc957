"""Unit tests of zhang2013.thm6_informative: the informative range, the reduction to ||E|| <= eps, the
Markov failure bound and the control's lower bound (the derivations in the module docstring)."""

import math

import numpy as np
import pytest

from rpcheck.engine import Verdict
from rpcheck.papers.zhang2013 import thm6
from rpcheck.papers.zhang2013 import thm6_informative as T
from rpcheck.svm.drp import drp, ridge_solution


def _all_cells(th):
    return [c for name in ("quick", "ci") for c in th.profiles[name].cells]


def test_every_quick_and_ci_cell_is_informative_and_thm6_cells_are_not():
    for c in _all_cells(T.THEOREM):
        _, b = T.cell_bound(c)
        assert b < 1, c
        assert int(c["m"]) >= T.informative_min_m(c), c
    for c in _all_cells(thm6.THEOREM):
        _, b = T.cell_bound(c)
        assert not b < 1, c
        assert int(c["m"]) < T.informative_min_m(c), c


@pytest.mark.parametrize("form", ["as_printed", "conservative"])
def test_informative_min_m_is_the_threshold(form):
    c = dict(T.PROFILES["ci"].cells[0])
    m0 = T.informative_min_m(c, form)
    assert T.cell_bound({**c, "m": m0}, form)[1] < 1
    assert not T.cell_bound({**c, "m": m0 - 1}, form)[1] < 1


def test_failure_upper_is_m_free_at_the_printed_eps():
    c = dict(T.PROFILES["ci"].cells[0])
    vals = [T.failure_upper({**c, "m": m}) for m in (200, 1000, 5000)]
    assert max(vals) - min(vals) < 1e-12
    # closed form: (rbar^2 + sum g^4) / (32 rbar g1^2 log(2d/delta))
    s = thm6.spectrum(c)
    g2 = s * s / (c["lam"] + s * s)
    want = (g2.sum() ** 2 + (g2**2).sum()) / (32 * g2.sum() * g2[0] * math.log(2 * c["d"] / c["delta"]))
    assert vals[0] == pytest.approx(want, rel=1e-12)


def test_frobenius_second_moment_matches_its_closed_form():
    """E||G(AA^T - I)G||_F^2 = (rbar^2 + sum g^4)/m (the Markov step), by Monte Carlo within 5 SE."""
    rng = np.random.default_rng(3)
    q, m = 6, 40
    g = np.array([0.9, 0.5, 0.3, 0.2, 0.1, 0.05])
    vals = []
    for _ in range(4000):
        A = rng.standard_normal((q, m)) / math.sqrt(m)
        E = g[:, None] * (A @ A.T - np.eye(q)) * g[None, :]
        vals.append(float(np.sum(E * E)))
    want = ((g**2).sum() ** 2 + (g**4).sum()) / m
    assert abs(np.mean(vals) - want) < 5 * np.std(vals) / math.sqrt(len(vals))


@pytest.mark.parametrize("seed", range(5))
def test_reduction_rel_le_E_over_one_minus_E_over_g_k(seed):
    """rel <= ||E||/(1 - ||E||) sqrt(1 + lambda/sigma_k^2) for every draw with ||E|| < 1 (the deterministic step),
    against the implementation's DRP, at small m where ||E|| is large."""
    rng = np.random.default_rng(seed)
    n, k, lam, m = 12, 2, 3.0, 30
    s = 4.0 * np.arange(1, n + 1, dtype=float) ** -1.0
    U = np.linalg.qr(rng.standard_normal((n, n)))[0]
    Z = U * s
    y = U[:, :k] @ rng.standard_normal(k)
    A = rng.standard_normal((n, m)) / math.sqrt(m)
    w = ridge_solution(Z, y, lam)
    rel = np.linalg.norm(drp(Z, y, lam, A).w_tilde - w) / np.linalg.norm(w)
    g = s / np.sqrt(lam + s * s)
    e = np.linalg.norm(g[:, None] * (A @ A.T - np.eye(n)) * g[None, :], 2)
    assert e < 1
    assert rel <= e / (1 - e) * math.sqrt(1 + lam / s[k - 1] ** 2) * (1 + 1e-9)
    # and the unscaled control's lower bound rel' >= 1 - 1/(mu sigma_k h)
    Au = A * math.sqrt(m)
    rel_u = np.linalg.norm(drp(Z, y, lam, Au).w_tilde - w) / np.linalg.norm(w)
    mu = np.linalg.eigvalsh(Au @ Au.T)[0]
    h = min(s[i] / (lam + s[i] ** 2) for i in range(k))
    assert rel_u >= 1 - 1 / (mu * s[k - 1] * h) - 1e-9


def test_expected_verdicts_are_derived_per_cell():
    st, co, ctl = T.THEOREM.variants
    for c in T.PROFILES["ci"].cells:
        assert st.expected(c) is Verdict.HOLDS
        assert ctl.expected(c) is Verdict.VIOLATED
        b = T.cell_bound(c, "conservative")[1]
        assert co.expected(c) is (Verdict.HOLDS if b < 1 else None)
    # a cell where the control's lower bound is 0 (tau <= 0) gets no expectation
    c = {**T.PROFILES["ci"].cells[0], "m": 90}
    assert T.control_failure_lower(c) == 0.0
    assert ctl.expected(c) is None


def test_the_trial_records_every_variant_and_the_control_fails():
    c = T.PROFILES["quick"].cells[1]
    rec = T.trial(c, np.random.default_rng(0))
    assert set(rec.outcomes) == {v.name for v in T.THEOREM.variants}
    assert rec.outcomes["stated"].holds and not rec.outcomes["stated"].vacuous
    assert not rec.outcomes["control_unscaled"].holds
    assert rec.diagnostics["E_norm"] <= rec.diagnostics["eps_printed"]

"""The Crammer-Singer polish above the old 4,000-pair limit (rpcheck.svm.multiclass, ``MAX_POLISH``): its
limit counts the system's unknowns (active pairs T plus bound examples B), its matrix is formed block by block
in place, and the certified point it gives agrees with an independent solver (Clarabel through cvxpy on the
primal). The paper-size fits that needed it (paul2014.repro.hapmap, 50 classes, 650 and 1,500 training rows,
4,278-4,950 pairs) take 4-12 CPU s and are not run here; these tests exercise the same code on a small problem
with the block size and the limit lowered."""

import numpy as np
import pytest
from test_multiclass import _certified, _cvxpy_cs, _distance_bound

from rpcheck.errors import SolverError
from rpcheck.svm import multiclass as mc
from rpcheck.svm import solve_crammer_singer


def _bound_problem():
    """60 points, 10 dimensions, 20 classes, C = 10: not separable, so the certifying polish system has bound
    examples (measured: 169 active pairs and 6 bound examples, certified after 488 epochs; Clarabel 0.15 CPU s)."""
    rng = np.random.default_rng(0)
    return rng.standard_normal((60, 10)), np.arange(60) % 20, 10.0


def _spy(monkeypatch):
    sizes = []
    orig = mc._kkt_solve

    def spy(X, yk, C, n, ii, mm, bound):
        lam = orig(X, yk, C, n, ii, mm, bound)
        sizes.append((ii.size, mc._n_bound(ii, bound, n)))
        return lam

    monkeypatch.setattr(mc, "_kkt_solve", spy)
    return sizes


def _old_kkt_solve(X, yk, C, n, ii, mm, bound):
    """The system as formed before (one T x T class-coefficient matrix from label comparisons): the oracle."""
    T = ii.size
    yt = yk[ii]
    bset = np.flatnonzero(bound & (np.bincount(ii, minlength=n) > 0))
    B = bset.size
    cf = ((yt[:, None] == yt[None, :]).astype(float) - (yt[:, None] == mm[None, :])
          - (mm[:, None] == yt[None, :]) + (mm[:, None] == mm[None, :]))
    Xt = X[ii]
    Mx = np.zeros((T + B, T + B))
    Mx[:T, :T] = cf * (Xt @ Xt.T)
    pos = np.full(n, -1)
    pos[bset] = np.arange(B)
    tb = pos[ii]
    sel = np.flatnonzero(tb >= 0)
    Mx[sel, T + tb[sel]] = 1.0
    Mx[T + tb[sel], sel] = 1.0
    rhs = np.concatenate([np.ones(T), np.full(B, float(C))])
    return np.linalg.solve(Mx, rhs)[:T]


@pytest.mark.parametrize("block", [7, 64, 1024])
def test_blockwise_system_equals_the_direct_formula(monkeypatch, block):
    """In-place block formation (any block size) solves bit for bit the system of the direct formula."""
    rng = np.random.default_rng(3)
    n, d, K = 40, 300, 6
    X = rng.standard_normal((n, d))
    yk = np.arange(n) % K
    act = rng.random((n, K)) < 0.6
    act[np.arange(n), yk] = False
    ii, mm = np.nonzero(act)
    bound = rng.random(n) < 0.3
    monkeypatch.setattr(mc, "_POLISH_BLOCK", block)
    lam = mc._kkt_solve(X, yk, 5.0, n, ii, mm, bound)
    assert mc._n_bound(ii, bound, n) > 0 and ii.size == 122  # 18 blocks of 7, 2 of 64, 1 of 1024
    assert np.array_equal(lam, _old_kkt_solve(X, yk, 5.0, n, ii, mm, bound))


def test_small_blocks_against_cvxpy_clarabel(monkeypatch):
    """With the block size lowered to 64 (the certifying system, 175 unknowns, then takes 3 blocks), the
    certified polish point is bit for bit the default one and agrees with Clarabel's primal optimum: the
    objective within 1e-6 relative and ||W - W_clarabel||_F within the certified distance bound."""
    X, y, C = _bound_problem()
    ref = solve_crammer_singer(X, y, C)
    sizes = _spy(monkeypatch)
    monkeypatch.setattr(mc, "_POLISH_BLOCK", 64)
    res = solve_crammer_singer(X, y, C)
    _certified(res)
    assert res.solver == "SDM+polish" and np.array_equal(res.W, ref.W)
    assert sizes[-1][0] > 64 and sizes[-1][1] > 0          # several blocks and bound examples in the system
    W2, val = _cvxpy_cs(X, y, C, 20)
    bound, P2 = _distance_bound(res, X, y, W2)
    assert P2 - res.dual <= 1e-6 * res.primal
    assert np.linalg.norm(W2 - res.W) <= bound
    assert abs(val - res.primal) <= 1e-6 * res.primal


def test_limit_counts_active_pairs_and_bound_examples(monkeypatch):
    """``MAX_POLISH`` bounds T + B: lowered to one below the certifying system's T + B (so T alone fits), that
    system is not solved, no solved system exceeds the limit, and the result is either another certified point
    or a SolverError, never an uncertified point."""
    X, y, C = _bound_problem()
    sizes = _spy(monkeypatch)
    solve_crammer_singer(X, y, C)
    T, B = sizes[-1]
    assert B > 0
    sizes.clear()
    monkeypatch.setattr(mc, "MAX_POLISH", T + B - 1)
    try:  # max_iter below the Clarabel fallback's 2,000 epochs (_IPM_AFTER): only the epochs and the polish
        res = solve_crammer_singer(X, y, C, max_iter=1500)
    except SolverError:
        res = None
    assert sizes and all(t + b <= T + B - 1 for t, b in sizes)
    if res is not None:
        _certified(res)

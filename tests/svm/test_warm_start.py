"""``solve_svc(..., warm_start=...)`` (the active-set presolve along a C path) against the cold path and
Clarabel, and the IPM's stagnation rule on the case that exposed it.

Every comparison is a certified inequality, as in test_fast_path.py: for two certified SVC points
``D_k <= P* <= P_k``, so the dual values agree up to the larger duality gap, and the primal w's agree within
``w_distance_bound`` (1-strong convexity of the primal in w). A warm-started point must also pass the stricter
level 1e-9 it is accepted at; when the warm start is not accepted the result must be bit-identical to the cold
solve. No test is statistical; the seeds only pick instances.
"""

import numpy as np
import pytest
from _svm_data import RTOL_CERT, assert_svc_agree, separable_data, soft_data

from rpcheck.compare import DEFAULT_C_GRID
from rpcheck.errors import RpcheckError
from rpcheck.svm import solve_svc
from rpcheck.svm.kkt import check_svc_result

WARM_ACCEPT = 1e-9


def _same(r1, r2):
    assert np.array_equal(r1.alpha, r2.alpha) and np.array_equal(r1.w, r2.w) and r1.b == r2.b
    assert r1.status == r2.status and r1.solver == r2.solver


def _data(kind, n, d, seed, dup):
    X, y = separable_data(n, d, seed=seed) if kind == "separable" else soft_data(n, d, seed=seed)
    if dup:  # duplicated points (same label): degenerate free sets
        X = np.vstack([X, X[:7]])
        y = np.concatenate([y, y[:7]])
    return X, y


CASES = [(kind, n, d, seed, dup) for seed in range(3) for (kind, n, d) in
         (("soft", 200, 10), ("soft", 120, 40), ("separable", 150, 8), ("soft", 60, 90)) for dup in (False, True)]
WARM_USED = []


@pytest.mark.parametrize("order", ["increasing", "decreasing"])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("kind,n,d,seed,dup", CASES)
def test_warm_path_vs_cold_and_clarabel(kind, n, d, seed, dup, bias, order):
    X, y = _data(kind, n, d, seed, dup)
    grid = DEFAULT_C_GRID if order == "increasing" else DEFAULT_C_GRID[::-1]
    prev = None
    for C in grid:
        res = solve_svc(X, y, C, bias=bias, warm_start=prev)
        cold = solve_svc(X, y, C, bias=bias)
        check_svc_result(res, X, y, atol=0.0, rtol=RTOL_CERT)
        if res.status == "warm_start":
            WARM_USED.append(1)
            assert res.kkt.max_relative <= WARM_ACCEPT and res.iterations == 0 and res.C == C
            assert_svc_agree(res, cold, X.shape[0])
            assert_svc_agree(res, solve_svc(X, y, C, bias=bias, solver="CLARABEL"), X.shape[0])
        else:  # not accepted: exactly the cold solve
            _same(res, cold)
        prev = res


def test_warm_path_is_exercised():
    """The warm path must actually be taken on these C paths (else the test above checks only the cold one)."""
    if not WARM_USED:  # run alone: exercise one path here
        X, y = _data("soft", 200, 10, 0, False)
        prev = None
        for C in DEFAULT_C_GRID:
            prev = solve_svc(X, y, C, warm_start=prev)
            WARM_USED.append(prev.status == "warm_start")
    assert sum(WARM_USED) > 0


@pytest.mark.parametrize("seed", range(3))
def test_warm_start_from_other_data(seed):
    """A result on other data is only a (bad) guess of the sets: certified optimum or the cold solve exactly."""
    X, y = _data("soft", 150, 12, seed, False)
    X2, y2 = _data("soft", 150, 12, seed + 10, False)
    other = solve_svc(X2, y2, 1.0)
    for C in (0.1, 1.0, 10.0):
        res = solve_svc(X, y, C, warm_start=other)
        cold = solve_svc(X, y, C)
        check_svc_result(res, X, y, atol=0.0, rtol=RTOL_CERT)
        if res.status == "warm_start":
            assert_svc_agree(res, cold, X.shape[0])
        else:
            _same(res, cold)


def test_warm_start_skipped_cases():
    """C = inf, a warm start at C = inf, polish=False and a cvxpy solver: the cold solve, bit for bit."""
    X, y = _data("separable", 80, 5, 0, False)
    w1 = solve_svc(X, y, 1.0)
    winf = solve_svc(X, y, np.inf)
    _same(solve_svc(X, y, np.inf, warm_start=w1), winf)
    _same(solve_svc(X, y, 2.0, warm_start=winf), solve_svc(X, y, 2.0))
    _same(solve_svc(X, y, 2.0, warm_start=w1, polish=False), solve_svc(X, y, 2.0, polish=False))
    _same(solve_svc(X, y, 2.0, warm_start=w1, solver="CLARABEL"), solve_svc(X, y, 2.0, solver="CLARABEL"))
    wnb = solve_svc(X, y, 1.0, bias=False)  # bias mismatch
    _same(solve_svc(X, y, 2.0, warm_start=wnb), solve_svc(X, y, 2.0))


def test_warm_growth_guard_gives_up_early_and_changes_nothing(monkeypatch):
    """The growth guard of the warm start (``_WARM_MAX_GROWTH``, ``_WARM_FREE_FLOOR`` in rpcheck.svm.svc) only
    stops attempts early: on a C path whose wrong guesses add hundreds of margin violators (n = 1200, d = 8), a
    guarded attempt makes at most as many free-set solves as the unguarded one, gives up on at least one path
    step, and returns None or exactly the unguarded attempt's point; the path's results stay certified."""
    import rpcheck.svm._svc_polish as svc_polish
    import rpcheck.svm.svc as svc

    calls = []
    solve_free = svc_polish._solve_free

    def counting(X, y, F, *a, **k):
        calls.append(F.size)
        return solve_free(X, y, F, *a, **k)

    monkeypatch.setattr(svc_polish, "_solve_free", counting)  # where _polish looks it up
    X, y = soft_data(1200, 8, seed=0)
    prev, fired = None, 0
    for C in DEFAULT_C_GRID:
        if prev is not None:
            calls.clear()
            guarded = svc._solve_warm(X, y, C, True, prev, 0.0)
            sizes_guarded, n_guarded = list(calls), len(calls)
            with monkeypatch.context() as m:
                m.setattr(svc, "_WARM_FREE_FLOOR", 10**9)  # max(grown, floor) = no guard
                calls.clear()
                free, n_free = svc._solve_warm(X, y, C, True, prev, 0.0), len(calls)
            assert n_guarded <= n_free
            # the guarded attempt never solves on a free set above its cap (the unguarded one's sizes are in calls)
            f0 = int(np.count_nonzero(svc._sets(prev.alpha, prev.C)[0]))
            cap = min(svc._MAX_POLISH_FREE, max(svc._WARM_MAX_GROWTH * max(f0, X.shape[1] + 2), svc._WARM_FREE_FLOOR))
            assert max(sizes_guarded, default=0) <= cap
            fired += n_guarded < n_free
            if guarded is not None:
                assert free is not None and np.array_equal(guarded.alpha, free.alpha) and guarded.b == free.b
        prev = solve_svc(X, y, C, warm_start=prev)
        check_svc_result(prev, X, y, atol=0.0, rtol=RTOL_CERT)
    assert fired >= 1


def test_warm_start_validation():
    X, y = _data("soft", 40, 3, 0, False)
    with pytest.raises(RpcheckError, match="warm_start"):
        solve_svc(X, y, 1.0, warm_start="previous")
    with pytest.raises(RpcheckError, match="warm_start"):
        solve_svc(X, y, 1.0, warm_start=solve_svc(X[:30], y[:30], 1.0))


@pytest.mark.heavy
@pytest.mark.parametrize("C", [0.25, 1.0, 8.0])
def test_ipm_certified_on_projected_rcv1_standin(C):
    """13,494 x 256 SE+SRHT projections of the rcv1-binary stand-in (lei2020.sparse_scale's training part).
    The scaled dual's objective crosses 0 while the merit is far from optimal; a stagnation rule that stops
    there (merit ~0.9) fails the certificate and sends AUTO to Clarabel. The IPM alone must certify."""
    from sklearn.model_selection import train_test_split

    from rpcheck.papers.lei2020 import sparse_scale as ss

    ds = ss.standin("rcv1-binary", ss._PAPER_N)
    X, y = ds.X.tocsr(), ds.y
    itr, ite = train_test_split(np.arange(len(y)), test_size=1 / 3, stratify=y, random_state=1)
    Xtr, Xte = ss.maxabs_scale(X[itr], X[ite])
    Z, _, _ = ss._project("se-srht", X.shape[1], 256, 7, Xtr, y[itr], Xte)
    res = solve_svc(Z, y[itr], C, solver="IPM")
    assert res.status == "optimal" and res.kkt.max_relative <= RTOL_CERT

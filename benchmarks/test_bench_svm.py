"""Solver benchmarks (their numbers go to a ledger row of benchmarks/results/, then BENCHMARKS.md).

1. ``solve_svc`` (default Clarabel, and ``solver="IPM"``) at n=2000, d=200 (separable data with
   C=100, zero-slack regime; overlapping data with C=1) against sklearn ``SVC(kernel="linear")`` at
   its default tol (1e-3) and at tol=1e-8.
   Both are timed end to end (ours includes canonicalisation, the Clarabel solve, polishing and the
   certificate) and both are scored by the SAME KKT residuals (``rpcheck.svm.kkt.svc_kkt_residuals``,
   sklearn's from its ``dual_coef_`` and ``intercept_``), reported in ``extra_info``.
   Target: within 2x of sklearn's default-tol time while reaching residuals <= 1e-7.
2. ``SVCProblem`` reuse (DPP, canonicalised once) against a fresh ``solve_svc`` per problem at
   n=200, r=50 (target >= 3x per solve).

3. Trial-loop sizes n x d = 60x20, 200x50, 500x100, soft margin (C=1) and separable hard margin
   (C=inf; sklearn gets C=1e6, above every optimal alpha of these data, so the same problem): the
   default ``solve_svc`` (solver "AUTO" = IPM with Clarabel fallback), ``solver="CLARABEL"``,
   ``solver="IPM"`` and sklearn ``SVC(kernel="linear")`` at its default tol, min of 5 rounds, one run.
   Target: the default within 2x of sklearn, ahead of it on the separable case.

No timing assertions: correctness (the certificate) is asserted, time is only recorded.
"""

import numpy as np
import pytest
from sklearn.svm import SVC

from rpcheck.svm import SVCProblem, solve_svc
from rpcheck.svm.kkt import svc_kkt_residuals

ROUNDS = 3


def _data(kind, n=2000, d=200, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    s = X @ w + 0.1
    if kind == "separable":
        y = np.where(s >= 0, 1.0, -1.0)
        X += (0.5 * y)[:, None] * w[None, :]  # geometric margin >= 0.5 around w^T x + 0.1 = 0
    else:
        y = np.where(s + 0.7 * rng.standard_normal(n) >= 0, 1.0, -1.0)
    return X, y


CASES = {"separable": 100.0, "soft": 1.0}


@pytest.fixture(scope="module", params=list(CASES))
def case(request):
    X, y = _data(request.param)
    return request.param, X, y, CASES[request.param]


def _record(benchmark, kkt, **extra):
    benchmark.extra_info.update(kkt_max_rel=kkt.max_relative, **{k: v for k, v in kkt.as_dict().items()},
                                **extra)


@pytest.mark.parametrize("solver", ["CLARABEL", "IPM"])
def test_solve_svc_2000x200(benchmark, case, solver):
    kind, X, y, C = case
    benchmark.group = f"svc-2000x200-{kind}"
    benchmark.extra_info.update(role="ours" if solver == "CLARABEL" else f"ours-{solver}")
    res = benchmark.pedantic(solve_svc, args=(X, y, C), kwargs={"solver": solver}, rounds=ROUNDS,
                             warmup_rounds=0)
    _record(benchmark, res.kkt, kkt_unpolished_max_rel=res.kkt_unpolished.max_relative,
            iterations=res.iterations, zero_slack=res.zero_slack, n_free=res.n_free, n_bounded=res.n_bounded)
    assert res.kkt.max_relative <= 1e-7


@pytest.mark.parametrize("tol", [1e-3, 1e-8])
def test_sklearn_svc_2000x200(benchmark, case, tol):
    kind, X, y, C = case
    benchmark.group = f"svc-2000x200-{kind}"
    benchmark.extra_info.update(role=f"sklearn-tol={tol:g}")
    clf = benchmark.pedantic(lambda: SVC(kernel="linear", C=C, tol=tol).fit(X, y), rounds=ROUNDS if tol > 1e-6 else 1)
    alpha = np.zeros(len(y))
    alpha[clf.support_] = np.abs(clf.dual_coef_.ravel())
    alpha = np.clip(alpha, 0.0, C)
    w = X.T @ (y * alpha)
    kkt, *_ = svc_kkt_residuals(X, y, alpha, w, float(clf.intercept_[0]), C)
    _record(benchmark, kkt)


@pytest.fixture(scope="module")
def small_problems():
    out = []
    for seed in range(10):
        X, y = _data("soft", n=200, d=50, seed=seed)
        out.append((X, y))
    return out


def test_svcproblem_reuse_200x50(benchmark, small_problems):
    benchmark.group = "svc-200x50-repeated"
    benchmark.extra_info.update(role="ours")
    prob = SVCProblem(200, 50, C=1.0)
    prob.solve(*small_problems[0])  # canonicalisation (DPP compile) happens here, outside the timing
    it = iter(range(10**9))

    def one():
        X, y = small_problems[next(it) % len(small_problems)]
        return prob.solve(X, y)

    res = benchmark.pedantic(one, rounds=20, warmup_rounds=1)
    benchmark.extra_info.update(solver_time=prob.problem.solver_stats.solve_time)
    assert res.kkt.max_relative <= 1e-7


@pytest.mark.parametrize("solver", ["CLARABEL", "IPM"])
def test_solve_svc_fresh_200x50(benchmark, small_problems, solver):
    benchmark.group = "svc-200x50-repeated"
    benchmark.extra_info.update(role=f"fresh solve_svc {solver}")
    it = iter(range(10**9))

    def one():
        X, y = small_problems[next(it) % len(small_problems)]
        return solve_svc(X, y, 1.0, solver=solver)

    res = benchmark.pedantic(one, rounds=20, warmup_rounds=1)
    assert res.kkt.max_relative <= 1e-7


SMALL = [(60, 20), (200, 50), (500, 100)]
SMALL_CASES = {"soft": 1.0, "separable": np.inf}


@pytest.mark.parametrize("kind", list(SMALL_CASES))
@pytest.mark.parametrize("n,d", SMALL)
@pytest.mark.parametrize("entry", ["default", "CLARABEL", "IPM", "sklearn"])
def test_small_side_by_side(benchmark, kind, n, d, entry):
    X, y = _data(kind, n=n, d=d)
    C = SMALL_CASES[kind]
    benchmark.group = f"small-{n}x{d}-{kind}"
    benchmark.extra_info.update(role="ours" if entry == "default" else entry)
    if entry == "sklearn":
        Csk = 1e6 if np.isinf(C) else C
        clf = benchmark.pedantic(lambda: SVC(kernel="linear", C=Csk).fit(X, y), rounds=5, warmup_rounds=1)
        alpha = np.zeros(len(y))
        alpha[clf.support_] = np.abs(clf.dual_coef_.ravel())
        w = X.T @ (y * alpha)
        kkt, *_ = svc_kkt_residuals(X, y, alpha, w, float(clf.intercept_[0]), C)
        _record(benchmark, kkt)
        return
    kwargs = {} if entry == "default" else {"solver": entry}
    res = benchmark.pedantic(solve_svc, args=(X, y, C), kwargs=kwargs, rounds=5, warmup_rounds=1)
    _record(benchmark, res.kkt, solver_used=res.solver, iterations=res.iterations)
    assert res.kkt.max_relative <= 1e-7

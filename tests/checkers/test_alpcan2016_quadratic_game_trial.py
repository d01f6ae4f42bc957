"""Unit tests of alpcan2016.quadratic_game (rpcheck's reconstruction of the quadratic game): closed-form cases."""

import math

import numpy as np
import pytest

from rpcheck.engine import Verdict, run
from rpcheck.errors import RpcheckError
from rpcheck.generators import haar_orthonormal
from rpcheck.papers.alpcan2016 import quadratic_game as qg


def _game(d=12, c=0.5, kappa=10.0, seed=0):
    rng = np.random.default_rng(seed)
    (Q1, v1), (Q2, _) = qg.spd_matrix(d, kappa, rng=rng), qg.spd_matrix(d, kappa, rng=rng)
    C12 = c * haar_orthonormal(d, d, rng=rng)
    C21 = c * haar_orthonormal(d, d, rng=rng)
    b1, b2 = rng.standard_normal(d), rng.standard_normal(d)
    return Q1, Q2, C12, C21, b1, b2, v1, rng


def test_spd_matrix_spectrum():
    Q, v = qg.spd_matrix(15, 10.0, rng=np.random.default_rng(3))
    w = np.linalg.eigvalsh(Q)
    assert w[0] == pytest.approx(1.0, abs=1e-12) and w[-1] == pytest.approx(10.0, rel=1e-12)
    assert np.allclose(Q @ v, v, atol=1e-12)


def test_uncoupled_game_ne_is_minus_q_inverse_b():
    Q1, Q2, C12, C21, b1, b2, _, _ = _game()
    d = Q1.shape[0]
    M = np.block([[Q1, np.zeros((d, d))], [np.zeros((d, d)), Q2]])
    x = qg.nash_equilibrium(M, np.concatenate([b1, b2]))
    assert np.allclose(x[:d], -np.linalg.solve(Q1, b1), rtol=1e-12, atol=1e-12)
    assert np.allclose(x[d:], -np.linalg.solve(Q2, b2), rtol=1e-12, atol=1e-12)
    # the best response to anything is the same point when C = 0
    br, res, tol = qg.best_response(Q1, np.zeros((d, d)), b1, np.ones(d))
    assert np.allclose(br, x[:d], atol=1e-12) and res <= tol


def test_best_response_minimises_and_is_a_fixed_point_at_the_ne():
    Q1, Q2, C12, C21, b1, b2, _, rng = _game()
    d = Q1.shape[0]
    M = np.block([[Q1, C12], [C21, Q2]])
    xs = qg.nash_equilibrium(M, np.concatenate([b1, b2]))
    br1, res, tol = qg.best_response(Q1, C12, b1, xs[d:])
    assert res <= tol and np.allclose(br1, xs[:d], atol=1e-10)

    def J1(x1):
        return 0.5 * x1 @ Q1 @ x1 + x1 @ C12 @ xs[d:] + b1 @ x1

    for _ in range(20):
        assert J1(br1 + 0.1 * rng.standard_normal(d)) > J1(br1)


def test_regret_is_zero_at_the_ne_and_matches_the_definition():
    Q1, Q2, C12, C21, b1, b2, _, rng = _game()
    d = Q1.shape[0]
    M = np.block([[Q1, C12], [C21, Q2]])
    bb = np.concatenate([b1, b2])
    xs = qg.nash_equilibrium(M, bb)
    regs, _ = qg.regret((Q1, Q2), M, bb, xs)
    assert max(regs) < 1e-20
    x = rng.standard_normal(2 * d)
    regs, _ = qg.regret((Q1, Q2), M, bb, x)
    br1, _, _ = qg.best_response(Q1, C12, b1, x[d:])

    def J1(x1):
        return 0.5 * x1 @ Q1 @ x1 + x1 @ C12 @ x[d:] + b1 @ x1

    assert regs[0] == pytest.approx(J1(x[:d]) - J1(br1), rel=1e-9)


def test_full_dimension_reduction_lifts_to_the_true_ne():
    """m = d: P_i invertible, so the reduced game is the original in other coordinates and P z* = x*."""
    Q1, Q2, C12, C21, b1, b2, _, rng = _game(d=10)
    M = np.block([[Q1, C12], [C21, Q2]])
    bb = np.concatenate([b1, b2])
    xs = qg.nash_equilibrium(M, bb)
    P1, P2 = rng.standard_normal((10, 10)) / math.sqrt(10), rng.standard_normal((10, 10)) / math.sqrt(10)
    xhat, res, tol, _ = qg.lift_reduced(M, bb, P1, P2)
    assert res <= tol
    assert np.linalg.norm(xhat - xs) <= 1e-9 * np.linalg.norm(xs)


def test_iteration_converges_for_small_coupling_and_diverges_for_rho_above_one():
    Q1, Q2, C12, C21, b1, b2, _, rng = _game(c=0.5)
    M = np.block([[Q1, C12], [C21, Q2]])
    xs = qg.nash_equilibrium(M, np.concatenate([b1, b2]))
    x = qg._iterate(Q1, Q2, C12, C21, b1, b2, 80)
    assert np.linalg.norm(x - xs) <= 1e-10 * np.linalg.norm(xs)
    W = haar_orthonormal(12, 12, rng=rng)
    D12, D21 = 1.2 * Q1 @ W, 1.2 * Q2 @ W.T
    rho = max(abs(np.linalg.eigvals(np.linalg.solve(Q1, D12) @ np.linalg.solve(Q2, D21))))
    assert rho == pytest.approx(1.44, rel=1e-10)
    xc = qg.nash_equilibrium(np.block([[Q1, D12], [D21, Q2]]), np.concatenate([b1, b2]))
    x = qg._iterate(Q1, Q2, D12, D21, b1, b2, 30)
    assert np.linalg.norm(x - xc) > 1e3 * np.linalg.norm(xc)


def test_sweeps():
    assert qg.sweeps(0.5, 1e-12) == math.ceil((math.log(5e-13) / math.log(0.5) + 1) / 2)
    assert 2 * 0.9 ** (2 * qg.sweeps(0.9, 1e-10) - 1) <= 1e-10
    assert qg.sweeps(0.01, 1e-3) == 10


def test_intervals_contain_the_truth():
    Q, _ = qg.spd_matrix(20, 5.0, rng=np.random.default_rng(1))
    lo, hi, mx = qg.lam_min_interval(Q)
    assert lo <= 1.0 <= hi and mx == pytest.approx(5.0)
    P = np.eye(20)[:, :7] * 3.0
    assert qg.sigma_min_lower(P) == pytest.approx(3.0, rel=1e-12) and qg.sigma_min_lower(P) <= 3.0


@pytest.mark.parametrize("d,m,c", [(10, 1, 0.5), (10, 10, 0.9), (16, 8, 0.3)])
def test_trial_verdict_pattern(d, m, c):
    rec = qg.trial(qg._cell(d, m, c), np.random.default_rng(7))
    assert set(rec.outcomes) == {v.name for v in qg.THEOREM.variants}
    for name in ("br_unique", "ne_unique", "br_converges", "reduced_pd"):
        o = rec.outcomes[name]
        assert o.holds and not o.undetermined and not o.vacuous, name
    for name in ("br_control", "ne_control", "br_diverges_control", "reduced_control"):
        o = rec.outcomes[name]
        assert not o.holds and not o.undetermined and not o.vacuous, name
    if m == d:
        assert rec.diagnostics["lifted_distance"] < 1e-9 and rec.diagnostics["lifted_regret"] < 1e-15


def test_trial_is_a_pure_function_of_rng():
    a = qg.trial(qg._cell(8, 4, 0.5), np.random.default_rng(11))
    b = qg.trial(qg._cell(8, 4, 0.5), np.random.default_rng(11))
    assert a.diagnostics == b.diagnostics


def test_decide_reports_medians():
    recs = [qg.trial(qg._cell(8, 2, 0.5), np.random.default_rng(s)) for s in range(3)]
    verdicts, info = qg.decide(recs, qg._cell(8, 2, 0.5))
    assert verdicts == {"lifted_distance": Verdict.INCONCLUSIVE, "lifted_regret": Verdict.INCONCLUSIVE}
    assert info["median_lifted_distance"] == pytest.approx(np.median([r.diagnostics["lifted_distance"] for r in recs]))


def test_domains():
    th = qg.THEOREM
    assert th.parameters["c"].problem(1.0) is not None and th.parameters["c"].problem(0.0) is not None
    assert th.parameters["m"].problem(0) is not None
    assert not th.constraints[0].check({"d": 5, "m": 6, "c": 0.5, "kappa": 2.0})
    with pytest.raises(RpcheckError, match="parameter 'c' = 1.5"):
        run(th, profile="quick", backend="serial", overrides={"c": 1.5})
    with pytest.raises(RpcheckError, match="m <= d"):
        run(th, profile="quick", backend="serial", overrides={"m": 50})

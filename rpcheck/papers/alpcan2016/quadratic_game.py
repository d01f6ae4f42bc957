r"""Alpcan, Rubinstein and Leckie (CDC 2016): two-player quadratic game, its equilibrium and its random reduction.

**rpcheck's reconstruction, not the paper's verbatim claims.** The available text of the paper
(arXiv:1609.06438) holds only one sentence about the quadratic game, the one citing [40] (Petersen and
Pedersen, *The Matrix Cookbook*); its section and page cannot be identified from that text:

    "If the matrices Q1 and Q2 are positive definite and hence invertible [40], then the cost functions J1
    and J2 are both quadratic and strictly convex."

The paper's own theorems on the quadratic game (the equilibrium of the game reduced by linear
transformations and its approximation) are NOT in that text. What is checked below is rpcheck's own
formalisation of the setting the sentence and the abstract describe ("reductions by linear transformations
such as random projections and their effect on Nash equilibria ... analytical results for quadratic games"):
standard facts of quadratic games, with derivations, and measurements of the reduction. A verdict here says
nothing about the paper's exact statements.

Game (reconstructed form)
    ``J_i(x_i, x_j) = 1/2 x_i^T Q_i x_i + x_i^T C_ij x_j + b_i^T x_i``, ``x_i in R^d`` (``i, j in {1, 2}``,
    ``j != i``). The best response of ``i`` to ``x_j`` solves ``Q_i x_i + C_ij x_j + b_i = 0``; an NE ``x*``
    solves ``M x* = -b`` with ``M = [[Q1, C12], [C21, Q2]]``, ``b = (b1, b2)``.

Instance of one trial (a pure function of ``rng``)
    ``Q_i = U_i diag(lambda) U_i^T``, ``U_i`` Haar (``rpcheck.generators.haar_orthonormal``), eigenvalues
    ``1``, ``kappa`` and ``d - 2`` uniform on ``[1, kappa]`` (so ``lambda_min = 1``, condition ``kappa``);
    ``C12 = c W1``, ``C21 = c W2`` with ``W_i`` Haar orthogonal (coupling strength ``||C_ij|| = c``, the
    cell's ``c`` in ``(0, 1)``); ``b_i`` standard Gaussian; the reductions ``P_i`` are ``d x m`` with
    i.i.d. N(0, 1/m) entries.

Certificates and tolerances (``u = 2^-53``)
    Eigenvalues: ``numpy.linalg.eigvalsh`` is backward stable, ``|lambda^ - lambda| <= p(n) u ||A||_2``
    (LAPACK Users' Guide, "Error bounds for the symmetric eigenproblem"); we take ``p(n) = 8 n`` and
    ``||A||_F >= ||A||_2``: an eigenvalue is certified in ``[lambda^ - 8 n u ||A||_F, lambda^ + ...]``.
    Singular values likewise: ``|sigma^ - sigma| <= 8 max(d, m) u sigma^_max``.
    Linear solves (LU with partial pivoting, Cholesky): normwise backward error ``<= n u g`` with growth
    ``g`` (Higham 2002, Thms 9.5 and 10.3); the residual ``||A x^ - r||`` is then at most
    ``n u g ||A|| ||x^||`` plus the rounding of the residual's own evaluation ``(n + 2) u (||A|| ||x^|| +
    ||r||)``; ``RES_C = 64`` per ``n u (||A||_F ||x^|| + ||r||)`` allows growth ``g`` up to 32 (growth for
    these well-conditioned matrices is O(1); Cholesky has none). A residual above that tolerance is a
    certified failure of the first-order condition (a wrong formula leaves a residual of the order of the
    data, 10^10 times the tolerance).

Variants (every variant in every cell; "claim" rows are rpcheck's reconstruction)
    ``br_unique`` (a; claim, deterministic, expected HOLDS). For a Gaussian ``x_j``, the best response
    ``x_i = -Q_i^{-1}(C_ij x_j + b_i)`` is the unique minimiser of ``J_i(., x_j)``: event = both Hessians
    ``Q_i`` certified positive definite (``lambda_min`` interval above 0) AND the gradient residual
    ``||Q_i x_i + C_ij x_j + b_i||`` within tolerance, for both players. Derivation: ``J_i(x) - J_i(x^) =
    1/2 (x - x^)^T Q_i (x - x^) + g^T (x - x^)``, so with ``Q_i`` PD the minimiser is unique and lies within
    ``||g||/lambda_min`` of ``x^``; ``lambda_min(Q_i) = 1`` by construction (certified with margin ``1 - 8 d u
    ||Q||_F > 0.99``). Every draw holds: HOLDS with 100 draws (>= 90, rpcheck.stats).
    ``br_control`` (control, expected VIOLATED): the same event with ``Q_1`` made indefinite,
    ``Q_1' = Q_1 - 2 v v^T`` (``v`` its unit eigenvector for ``lambda = 1``, so ``lambda_min(Q_1') = -1``):
    the formula still gives a stationary point, but ``J_1`` is unbounded below along ``v``; the certified
    interval of ``lambda_min`` lies below 0 in every draw.
    ``ne_unique`` (b; claim, deterministic, expected HOLDS). Rosen's strict monotonicity: the symmetric
    part ``sym(M)`` is certified positive definite, hence ``x^T M x >= lambda_min(sym M) ||x||^2``,
    ``sigma_min(M) >= lambda_min(sym M) > 0``, ``M`` nonsingular and the NE unique; the linear-solve point
    ``x* = -M^{-1} b`` satisfies both players' first-order conditions within tolerance. Derivation of the
    hypothesis: ``sym(M) = blkdiag(Q1, Q2) + [[0, S], [S^T, 0]]``, ``S = (C12 + C21^T)/2``, ``||S|| <= c``,
    so ``lambda_min(sym M) >= 1 - c > 0`` (Weyl) in every draw.
    ``ne_control`` (control, expected VIOLATED): the same residual check at the point solved with ``M^T``
    (the coupling blocks transposed, a plausible indexing bug): the residual is ``||(M - M^T) x'||``, of the
    order of ``c ||x'||`` (``C12 != C21^T`` a.s.), far above the tolerance.
    ``br_converges`` (b; claim, deterministic, expected HOLDS). Alternating best responses from ``x2 = 0``
    (``x1 <- BR1(x2)``, ``x2 <- BR2(x1)``), ``K`` sweeps, end within ``tau ||x*||`` of the linear-solve NE.
    Derivation: the errors obey ``e1' = -Q1^{-1}C12 e2``, ``e2' = -Q2^{-1}C21 e1'``; with
    ``||Q_i^{-1} C_ij|| <= c`` every half-step contracts by ``c``, so ``rho(Q1^{-1}C12 Q2^{-1}C21) <= c^2 < 1``
    and ``||e^K|| <= 2 c^(2K-1) ||x*||``. ``tau = 2 c^(2K-1) + tau_round``, ``tau_round = RES_C 2d u
    (kappa_M + 2 kappa_Q/(1 - c))`` (forward error of the LU solve, ``kappa(M) <= ||M||_F / lambda_min(sym
    M) = kappa_M``, plus the rounding of each half-step, amplified by ``kappa_Q = max kappa(Q_i)`` and
    summed over the contraction); ``K = max(10, smallest K with 2 c^(2K-1) <= tau_round)``.
    ``br_diverges_control`` (control, expected VIOLATED): the same event (same ``K``, same ``tau``) on the
    game with ``C12 = 1.2 Q1 W``, ``C21 = 1.2 Q2 W^T`` (``W`` Haar orthogonal): ``Q1^{-1}C12 Q2^{-1}C21 =
    1.44 I``, spectral radius 1.44 > 1, the error grows by 1.44 per sweep (``M`` stays nonsingular, its
    Schur complement is ``-0.44 Q2``): ``||e^K|| >= 1.44^K ||x2*|| >> tau ||x*||``.
    ``reduced_pd`` (c; claim, deterministic, expected HOLDS). With ``x_i = P_i z_i``: both ``P_i^T Q_i P_i``
    are positive definite and the reduced game's NE exists (unique) and solves ``M_r z = -P^T b``,
    ``M_r = P^T M P``, ``P = blkdiag(P1, P2)``. Certificate: ``lambda_min(P_i^T Q_i P_i) >= lambda_min(Q_i)
    sigma_min(P_i)^2`` and ``lambda_min(sym M_r) >= lambda_min(sym M) min_i sigma_min(P_i)^2`` with
    certified lower bounds of both factors (no rounding of the formed products enters); the reduced solve's
    residual within tolerance. Derivation: ``P_i`` has full column rank a.s. (``m <= d``). The certificate
    fails to decide only when ``sigma_min(P_i) < 8 d u sigma_max(P_i) ~ 2e-13``; for ``m = d`` this is
    ``sigma_min(G) < 2e-13 sqrt(d)`` for a standard Gaussian ``G`` (``P = G/sqrt(d)``), of probability
    ``<= 2.35 sqrt(d) 2e-13 sqrt(d) < 5e-9`` (Sankar, Spielman and Teng 2006, Thm 3.3); for ``m < d``
    smaller still. HOLDS.
    ``reduced_control`` (control, expected VIOLATED): the same positive-definiteness event for player 1
    with ``Q_1'`` of ``br_control`` and ``P_1`` whose first column is ``v``: ``e_1^T P_1^T Q_1' P_1 e_1 =
    v^T Q_1' v = -1``, so ``lambda_min`` of the formed matrix is certified below 0 in every draw.
    ``lifted_distance``, ``lifted_regret`` (d; measurements, no verdict): the reduced NE lifted,
    ``x^ = P z*``: ``||x^ - x*|| / ||x*||``, and the epsilon-Nash regret ``max_i [J_i(x^) - min_{x_i}
    J_i(x_i, x^_j)] = max_i 1/2 g_i^T Q_i^{-1} g_i`` (``g_i`` the gradient of ``J_i`` at ``x^``; closed form
    of the gap of a strictly convex quadratic), absolute and relative to ``1/2 b_i^T Q_i^{-1} b_i`` (what
    player ``i`` gains alone from ``x_i = 0``). Medians per cell in ``decide``. For ``m = d`` the lift is the
    NE itself (``P`` invertible; ``tests/checkers/test_alpcan2016_quadratic_game_trial.py``).
"""

from __future__ import annotations

import math

import numpy as np

from ..._threads import single_threaded
from ...engine import Constraint, Finding, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, register
from ...generators import haar_orthonormal
from ._common import cite

__all__ = [
    "THEOREM",
    "trial",
    "decide",
    "spd_matrix",
    "lam_min_interval",
    "sigma_min_lower",
    "best_response",
    "nash_equilibrium",
    "regret",
    "lift_reduced",
]

THEOREM_ID = "alpcan2016.quadratic_game"
#: unit roundoff of IEEE double
UNIT = np.finfo(float).eps / 2
#: constant of the eigenvalue / singular-value error bound, p(n) = EIG_C n (module docstring)
EIG_C = 8.0
#: constant of the residual tolerance RES_C n u (||A||_F ||x|| + ||r||) (module docstring)
RES_C = 64.0
#: coupling of the divergent control game (spectral radius CONTROL_C^2 = 1.44)
CONTROL_C = 1.2
TRIALS = 100


def spd_matrix(d, kappa, *, rng):
    """``(Q, v)``: ``Q = U diag(lambda) U^T`` with ``U`` Haar, eigenvalues ``1``, ``kappa`` and ``d - 2`` uniform
    on ``[1, kappa]``; ``v`` the unit eigenvector of the eigenvalue 1."""
    U = haar_orthonormal(d, d, rng=rng)
    lam = np.concatenate([[1.0, kappa], rng.uniform(1.0, kappa, d - 2)])[:d]
    Q = (U * lam) @ U.T
    return 0.5 * (Q + Q.T), U[:, 0].copy()


def lam_min_interval(A):
    """``(lo, hi, lam^_max)``: certified interval of ``lambda_min`` of the symmetric ``A`` (module docstring)."""
    w = np.linalg.eigvalsh(A)
    err = EIG_C * A.shape[0] * UNIT * float(np.linalg.norm(A, "fro"))
    return float(w[0] - err), float(w[0] + err), float(w[-1])


def sigma_min_lower(P):
    """Certified lower bound of ``sigma_min(P)`` (``P`` of shape ``(d, m)``, ``m <= d``)."""
    s = np.linalg.svd(P, compute_uv=False)
    return float(s[-1] - EIG_C * max(P.shape) * UNIT * s[0])


def _res_tol(n, A, x, r):
    return RES_C * n * UNIT * (float(np.linalg.norm(A, "fro")) * float(np.linalg.norm(x)) + float(np.linalg.norm(r)))


def best_response(Q, C, b, xj):
    """``x_i = -Q^{-1}(C x_j + b)`` (LU solve; Q need not be definite) and its gradient residual and tolerance."""
    r = C @ xj + b
    x = np.linalg.solve(Q, -r)
    g = Q @ x + r
    n = Q.shape[0]
    tol = RES_C * n * UNIT * (
        float(np.linalg.norm(Q, "fro")) * float(np.linalg.norm(x))
        + float(np.linalg.norm(C, "fro")) * float(np.linalg.norm(xj))
        + float(np.linalg.norm(b))
    )
    return x, float(np.linalg.norm(g)), tol


def nash_equilibrium(M, b):
    """``x* = -M^{-1} b`` (the NE of the quadratic game when ``M`` is nonsingular)."""
    return np.linalg.solve(M, -b)


def regret(Qs, M, bb, x):
    """Per-player epsilon-Nash regret ``1/2 g_i^T Q_i^{-1} g_i`` at ``x`` (``g = M x + b``, split per player)
    and the scales ``1/2 b_i^T Q_i^{-1} b_i``."""
    g = M @ x + bb
    out, scales, k = [], [], 0
    for Q in Qs:
        n = Q.shape[0]
        gi, bi = g[k : k + n], bb[k : k + n]
        out.append(0.5 * float(gi @ np.linalg.solve(Q, gi)))
        scales.append(0.5 * float(bi @ np.linalg.solve(Q, bi)))
        k += n
    return out, scales


def lift_reduced(M, bb, P1, P2):
    """The reduced game's NE ``z* = -(P^T M P)^{-1} P^T b`` and its lift ``P z*`` (``P = blkdiag(P1, P2)``);
    also the reduced residual and its tolerance."""
    d1, m1 = P1.shape
    d2, m2 = P2.shape
    Pb = np.zeros((d1 + d2, m1 + m2))
    Pb[:d1, :m1], Pb[d1:, m1:] = P1, P2
    Mr = Pb.T @ M @ Pb
    br = Pb.T @ bb
    z = np.linalg.solve(Mr, -br)
    res = float(np.linalg.norm(Mr @ z + br))
    return Pb @ z, res, _res_tol(m1 + m2, Mr, z, br), Mr


def _event(status, statistic, bound):
    """Outcome from a three-valued certified status (+1 holds, -1 certified failure, 0 undetermined)."""
    if status > 0:
        return Outcome(True, statistic, bound)
    if status < 0:
        return Outcome(False, statistic, bound)
    return Outcome(bool(statistic <= bound), statistic, bound, undetermined=True)


def _pd_status(lo, hi):
    return 1 if lo > 0 else (-1 if hi < 0 else 0)


def _congruence_status(Q, lamQ_lo, P, sig_lo):
    """Certified status of "P^T Q P is positive definite": +1 via lambda_min(Q) sigma_min(P)^2 > 0; else -1 when
    the formed matrix has a certified negative eigenvalue (formation error <= RES_C d u ||P||_F^2 ||Q||_F
    added to the eigenvalue error); else 0. Returns (status, lambda^_min of the formed matrix or nan)."""
    if lamQ_lo > 0 and sig_lo > 0:
        return 1, math.nan
    A = P.T @ Q @ P
    A = 0.5 * (A + A.T)
    lo, hi, _ = lam_min_interval(A)
    form = RES_C * Q.shape[0] * UNIT * float(np.linalg.norm(P, "fro")) ** 2 * float(np.linalg.norm(Q, "fro"))
    lam = 0.5 * (lo + hi)
    if hi + form < 0:
        return -1, lam
    return (1 if lo - form > 0 else 0), lam


def _iterate(Q1, Q2, C12, C21, b1, b2, K):
    """Alternating best responses from x2 = 0, K sweeps: ``x1 = -(Q1^{-1} C12) x2 - Q1^{-1} b1`` and likewise,
    with ``Q_i^{-1} C_ij`` and ``Q_i^{-1} b_i`` formed once from the Cholesky factors of the PD ``Q_i`` (their
    rounding, ``O(d u kappa(Q_i))`` relative, is the ``kappa_Q`` term of ``tau_round``)."""
    from scipy.linalg import cho_factor, cho_solve

    f1, f2 = cho_factor(Q1, check_finite=False), cho_factor(Q2, check_finite=False)
    A1 = cho_solve(f1, np.column_stack([C12, b1]), check_finite=False)
    A2 = cho_solve(f2, np.column_stack([C21, b2]), check_finite=False)
    G1, g1, G2, g2 = A1[:, :-1], A1[:, -1], A2[:, :-1], A2[:, -1]
    x2 = np.zeros(Q2.shape[0])
    x1 = np.zeros(Q1.shape[0])
    for _ in range(K):
        x1 = -(G1 @ x2 + g1)
        x2 = -(G2 @ x1 + g2)
        if not (np.all(np.isfinite(x1)) and np.all(np.isfinite(x2))):
            break
    return np.concatenate([x1, x2])


def sweeps(c, tau_round):
    """``K = max(10, smallest K with 2 c^(2K-1) <= tau_round)``."""
    if c <= 0:
        return 10
    k = (math.log(tau_round / 2.0) / math.log(c) + 1.0) / 2.0
    return max(10, int(math.ceil(k)))


def _converge_event(x, xstar, tau):
    dist = float(np.linalg.norm(x - xstar)) if np.all(np.isfinite(x)) else math.inf
    ratio = dist / (tau * float(np.linalg.norm(xstar)))
    # the distance is computed with relative error <= 2d u, 10^-3 of tau at the sizes used: no band needed
    return Outcome(bool(ratio <= 1.0), ratio, 1.0), dist


@single_threaded
def trial(params, rng):
    d, m, c, kappa = int(params["d"]), int(params["m"]), float(params["c"]), float(params["kappa"])
    (Q1, v1), (Q2, _) = spd_matrix(d, kappa, rng=rng), spd_matrix(d, kappa, rng=rng)
    C12 = c * haar_orthonormal(d, d, rng=rng)
    C21 = c * haar_orthonormal(d, d, rng=rng)
    b1, b2 = rng.standard_normal(d), rng.standard_normal(d)
    bb = np.concatenate([b1, b2])
    out, diag = {}, {}

    # (a) unique best response, and its control with Q1 indefinite
    lo1, hi1, mx1 = lam_min_interval(Q1)
    lo2, hi2, mx2 = lam_min_interval(Q2)
    x2r, x1r = rng.standard_normal(d), rng.standard_normal(d)
    _, g1, t1 = best_response(Q1, C12, b1, x2r)
    _, g2, t2 = best_response(Q2, C21, b2, x1r)
    res_ok = g1 <= t1 and g2 <= t2
    st = min(_pd_status(lo1, hi1), _pd_status(lo2, hi2))
    status = -1 if (st < 0 or not res_ok) else st
    out["br_unique"] = _event(status, -min(lo1 + hi1, lo2 + hi2) / 2.0, 0.0)
    Q1b = Q1 - 2.0 * np.outer(v1, v1)
    lob, hib, _ = lam_min_interval(Q1b)
    _, gb, tb = best_response(Q1b, C12, b1, x2r)
    stb = -1 if (_pd_status(lob, hib) < 0 or gb > tb) else min(_pd_status(lob, hib), _pd_status(lo2, hi2))
    out["br_control"] = _event(stb, -(lob + hib) / 2.0, 0.0)
    diag.update(lam_min_Q=min(lo1 + hi1, lo2 + hi2) / 2.0, br_res_ratio=max(g1 / t1, g2 / t2))

    # (b) NE uniqueness (Rosen) and best-response iteration
    M = np.block([[Q1, C12], [C21, Q2]])
    loS, hiS, _ = lam_min_interval(0.5 * (M + M.T))
    xs = nash_equilibrium(M, bb)
    tol_ne = _res_tol(2 * d, M, xs, bb)
    res_ne = float(np.linalg.norm(M @ xs + bb))
    st = _pd_status(loS, hiS)
    out["ne_unique"] = _event(-1 if res_ne > tol_ne else st, res_ne / tol_ne, 1.0)
    xt = nash_equilibrium(M.T, bb)
    res_t = float(np.linalg.norm(M @ xt + bb))
    tol_t = _res_tol(2 * d, M, xt, bb)
    out["ne_control"] = _event(-1 if res_t > tol_t else st, res_t / tol_t, 1.0)
    kappa_M = float(np.linalg.norm(M, "fro")) / loS if loS > 0 else math.inf
    kappa_Q = max(mx1 / lo1, mx2 / lo2) if min(lo1, lo2) > 0 else math.inf
    tau_round = RES_C * 2 * d * UNIT * (kappa_M + 2.0 * kappa_Q / (1.0 - c))
    K = sweeps(c, tau_round)
    tau = 2.0 * c ** (2 * K - 1) + tau_round
    xk = _iterate(Q1, Q2, C12, C21, b1, b2, K)
    out["br_converges"], dist = _converge_event(xk, xs, tau)
    W = haar_orthonormal(d, d, rng=rng)
    D12, D21 = CONTROL_C * (Q1 @ W), CONTROL_C * (Q2 @ W.T)
    Mc = np.block([[Q1, D12], [D21, Q2]])
    xsc = nash_equilibrium(Mc, bb)
    xkc = _iterate(Q1, Q2, D12, D21, b1, b2, K)
    out["br_diverges_control"], _ = _converge_event(xkc, xsc, tau)
    diag.update(lam_min_symM=0.5 * (loS + hiS), ne_res_ratio=res_ne / tol_ne, sweeps=float(K), tau=tau,
                br_dist=dist / float(np.linalg.norm(xs)))

    # (c) reduction x_i = P_i z_i
    P1 = rng.standard_normal((d, m)) / math.sqrt(m)
    P2 = rng.standard_normal((d, m)) / math.sqrt(m)
    s1, s2 = sigma_min_lower(P1), sigma_min_lower(P2)
    st1, _ = _congruence_status(Q1, lo1, P1, s1)
    st2, _ = _congruence_status(Q2, lo2, P2, s2)
    xhat, res_r, tol_r, _ = lift_reduced(M, bb, P1, P2)
    smin = min(s1, s2)
    st_r = 1 if (loS > 0 and smin > 0) else 0  # lambda_min(sym M_r) >= lambda_min(sym M) smin^2
    status = min(st1, st2, st_r)
    if res_r > tol_r:
        status = -1
    out["reduced_pd"] = _event(status, res_r / tol_r, 1.0)
    P1c = P1.copy()
    P1c[:, 0] = v1
    stc, lamc = _congruence_status(Q1b, lob, P1c, sigma_min_lower(P1c))
    out["reduced_control"] = _event(min(stc, st2), lamc if math.isfinite(lamc) else -1.0, 0.0)
    diag.update(sigma_min_P=smin, reduced_res_ratio=res_r / tol_r)

    # (d) measurements of the lifted reduced NE
    ldist = float(np.linalg.norm(xhat - xs)) / float(np.linalg.norm(xs))
    regs, scales = regret((Q1, Q2), M, bb, xhat)
    reg = max(regs)
    rel = max(r / s for r, s in zip(regs, scales))
    out["lifted_distance"] = Outcome(True, ldist)
    out["lifted_regret"] = Outcome(True, reg)
    diag.update(lifted_distance=ldist, lifted_regret=reg, lifted_regret_rel=rel)
    return TrialRecord(outcomes=out, diagnostics=diag)


def decide(records, params):
    """Measurements only: medians over the cell's draws of the lifted NE's relative distance to the NE, its
    epsilon-Nash regret (absolute and relative to ``1/2 b_i^T Q_i^{-1} b_i``)."""
    if not records:
        return {"lifted_distance": Verdict.INCONCLUSIVE, "lifted_regret": Verdict.INCONCLUSIVE}, {}
    def med(k):
        return float(np.median([r.diagnostics[k] for r in records]))

    info = {
        "median_lifted_distance": med("lifted_distance"),
        "median_lifted_regret": med("lifted_regret"),
        "median_lifted_regret_rel": med("lifted_regret_rel"),
        "median_sweeps": med("sweeps"),
        "claim": "measured (medians over the cell's draws); no verdict",
    }
    return {"lifted_distance": Verdict.INCONCLUSIVE, "lifted_regret": Verdict.INCONCLUSIVE}, info


def _cell(d, m, c, kappa=10.0):
    return {"d": d, "m": m, "c": c, "kappa": kappa}


def _grid(ds, cs, fracs=(10, 2, 1)):
    return tuple(_cell(d, max(1, d // f), c) for d in ds for c in cs for f in fracs)


PROFILES = {
    "quick": Profile((_cell(20, 2, 0.5), _cell(20, 20, 0.9)), trials=TRIALS),
    "ci": Profile(_grid((20, 50), (0.5,)) + _grid((100,), (0.5,), fracs=(10, 1)) + _grid((50,), (0.9,)), trials=TRIALS),
    "standard": Profile(_grid((20, 50, 100, 200), (0.3, 0.6, 0.9)), trials=TRIALS),
    "full": Profile(_grid((20, 50, 100, 200, 400), (0.1, 0.3, 0.6, 0.9), fracs=(20, 10, 4, 2, 1)), trials=200),
}

_RECON = "rpcheck's reconstruction of the quadratic game (the paper's own theorems are not in the available text)"

THEOREM = register(
    Theorem(
        id=THEOREM_ID,
        paper="alpcan2016",
        title="Quadratic game (RECONSTRUCTION, not the paper's verbatim claims): unique BR, Rosen-unique NE, BR "
        "convergence, random reduction x_i = P_i z_i",
        citation=cite(
            "Section on quadratic games (the sentence citing [40]; section and page not identifiable from the "
            "available text). The checked statements are rpcheck's reconstruction, not the paper's",
            "J_i = 1/2 x_i^T Q_i x_i + x_i^T C_ij x_j + b_i^T x_i (reconstructed form)",
        ),
        statement="Printed (sentence citing [40]): 'If the matrices Q1 and Q2 are positive definite and hence "
        "invertible [40], then the cost functions J1 and J2 are both quadratic and strictly convex.' Checked "
        "(rpcheck's RECONSTRUCTION, not the paper's verbatim claims): (a) Q_i PD => unique best response "
        "x_i = -Q_i^{-1}(C_ij x_j + b_i); (b) sym([[Q1, C12], [C21, Q2]]) PD => unique NE solving M x = -b, and "
        "best responses converge when rho(Q1^{-1}C12 Q2^{-1}C21) < 1; (c) x_i = P_i z_i with Gaussian P_i keeps "
        "P_i^T Q_i P_i PD and the reduced NE exists; (d) measured: distance and epsilon-Nash regret of the lifted "
        "reduced NE vs m.",
        kind="deterministic",
        variants=(
            Variant("br_unique", "(a) Q_i certified PD and the BR formula's gradient residual within tolerance",
                    expected=Verdict.HOLDS, assumed=(_RECON,)),
            Variant("br_control", "(a) with Q_1 made indefinite (lambda_min = -1): expected to fail",
                    expected=Verdict.VIOLATED, role="control"),
            Variant("ne_unique", "(b) sym(M) certified PD (Rosen) and M x* = -b within tolerance",
                    expected=Verdict.HOLDS, assumed=(_RECON,)),
            Variant("ne_control", "(b) the NE residual at the point solved with M^T (coupling transposed)",
                    expected=Verdict.VIOLATED, role="control"),
            Variant("br_converges", "(b) alternating best responses reach x* within tau ||x*|| in K sweeps "
                    "(rho <= c^2 < 1)", expected=Verdict.HOLDS, assumed=(_RECON,)),
            Variant("br_diverges_control", "(b) the same event on a game with rho(Q1^{-1}C12 Q2^{-1}C21) = 1.44",
                    expected=Verdict.VIOLATED, role="control"),
            Variant("reduced_pd", "(c) P_i^T Q_i P_i and sym(P^T M P) certified PD, reduced NE residual within "
                    "tolerance", expected=Verdict.HOLDS, assumed=(_RECON,)),
            Variant("reduced_control", "(c) P_1^T Q_1' P_1 with Q_1' indefinite and v in range(P_1)",
                    expected=Verdict.VIOLATED, role="control"),
            Variant("lifted_distance", "(d) ||P z* - x*|| / ||x*|| (median per cell in decide_info)",
                    mode="report", expected=None, role="measurement"),
            Variant("lifted_regret", "(d) epsilon-Nash regret max_i 1/2 g_i^T Q_i^{-1} g_i of P z* (median)",
                    mode="report", expected=None, role="measurement"),
        ),
        profiles=PROFILES,
        trial=trial,
        decide=decide,
        parameters={
            "d": Param("int", low=2, doc="decision variables per player (d_1 = d_2 = d)"),
            "m": Param("int", low=1, doc="reduced variables per player (x_i = P_i z_i, P_i d x m)"),
            "c": Param("float", low=0.0, high=1.0, closed="neither",
                       doc="coupling strength ||C_ij||_2 (Rosen monotone and rho <= c^2 < 1 for c < 1)"),
            "kappa": Param("float", low=1.0, doc="condition number of Q_i (eigenvalues in [1, kappa])"),
        },
        constraints=(Constraint("m <= d (P_i of full column rank)", lambda p: int(p["m"]) <= int(p["d"])),),
        tolerance=RES_C * UNIT,
        tolerance_note="Eigenvalue/singular-value intervals 8 n u ||A||_F (backward stability of eigvalsh/svd); "
        "residuals 64 n u (||A||_F ||x|| + ||r||) (backward error of LU/Cholesky); convergence tau derived from "
        "the contraction c^2 and the condition numbers (module docstring).",
        findings=(
            Finding(
                "alpcan-quadratic-reconstruction",
                "The available text of Alpcan et al. 2016 states only that PD Q1, Q2 make J1, J2 quadratic and "
                "strictly convex; the paper's theorems on the quadratic game and its reduction are not in it. "
                "rpcheck checks its own reconstruction (unique BR, Rosen-unique NE, BR convergence for rho < 1, PD "
                "reduced game) and measures the lifted reduced NE; these verdicts are not verdicts on the paper's "
                "printed claims.",
                evidence_variant="br_unique",
                location="Alpcan et al. 2016, the sentence citing [40] (its section and page are not in the "
                "available text)",
                quote="If the matrices Q1 and Q2 are positive definite and hence invertible [40], then the cost "
                "functions J1 and J2 are both quadratic and strictly convex.",
                kind="observation",
            ),
            Finding(
                "alpcan-quadratic-br-divergence",
                "The quoted sentence claims strict convexity only, which holds; it says nothing about best-response "
                "dynamics. On rpcheck's reconstructed game, positive definite Q_i do not make them converge: with "
                "coupling C12 = 1.2 Q1 W, C21 = 1.2 Q2 W^T the NE is unique but the iteration's spectral radius is "
                "1.44 and it diverges.",
                evidence_variant="br_diverges_control",
                location="Alpcan et al. 2016, the sentence citing [40] (rpcheck's reconstructed game)",
                quote="the cost functions J1 and J2 are both quadratic and strictly convex",
                kind="observation",
            ),
        ),
        notes="Reconstruction: J_i = 1/2 x_i^T Q_i x_i + x_i^T C_ij x_j + b_i^T x_i, d_1 = d_2 = d, Q_i with "
        "eigenvalues in [1, kappa], C_ij = c W_ij (W Haar orthogonal), b_i Gaussian, P_i Gaussian N(0, 1/m).",
    )
)

"""Data factories and derived tolerances shared by the tests of ``rpcheck.svm``.

Every factory takes a fixed seed; every tolerance is derived from a certificate (see the docstrings).
"""

import os

import numpy as np
import scipy.sparse as sp

#: Solver under test for the certificate tests (tox factor ``RPCHECK_TEST_SOLVER``).
SOLVER = os.environ.get("RPCHECK_TEST_SOLVER", "CLARABEL").upper()
#: Fixed seeds of the random instances (each test's false-alarm probability is 0: the checks are
#: certificates, not statistical tests; the seeds only pick instances).
SEEDS = (0, 1, 2)
#: Relative KKT level that every returned result must meet (the solvers refuse points above 1e-5;
#: after polishing, well-conditioned instances reach ~1e-12).
RTOL_CERT = 1e-7
#: Float64 rounding allowance for sums of O(n) terms of magnitude ``scale``: 64 n eps scale.
EPS = np.finfo(float).eps


def rounding(n, scale):
    """Rounding allowance of a length-n dot product / sum with terms bounded by ``scale``."""
    return 64.0 * max(n, 1) * EPS * scale


def separable_data(n, d, *, seed, margin=0.3, offset=0.4):
    """Linearly separable (with bias) data: Gaussian points pushed ``margin`` away from a random
    hyperplane ``w^T x + offset = 0`` along its unit normal, labels the side."""
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    X = rng.standard_normal((n, d))
    X[0] = 2 * w  # both classes present (offset < 2)
    X[1] = -2 * w
    y = np.where(X @ w + offset >= 0, 1.0, -1.0)
    X += (margin * y)[:, None] * w[None, :]  # now y_i (w^T x_i + offset) >= margin
    return X, y


def soft_data(n, d, *, seed, noise=1.0):
    """Overlapping classes: labels ``sign(x^T w + 0.3 + noise * N(0, 1))`` (non-separable for n >> d)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    y = np.where(X @ w + 0.3 + noise * rng.standard_normal(n) >= 0, 1.0, -1.0)
    y[:2] = (1.0, -1.0)
    return X, y


def sparse_soft_data(n, d, *, seed, density=0.2):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, random_state=seed, format="csr", data_rvs=rng.standard_normal)
    w = rng.standard_normal(d)
    y = np.where(np.asarray(X @ w).ravel() + 0.5 * rng.standard_normal(n) >= 0, 1.0, -1.0)
    y[:2] = (1.0, -1.0)
    return X, y


def identity_bound(res):
    r"""Derived tolerance of the norm identity / strong duality for an SVC result.

    With :math:`w = X^TY\alpha` and :math:`\xi = (1 - y\circ f)_+`,
    :math:`\sum_i[\alpha_i(y_if_i - 1 + \xi_i) + (C-\alpha_i)\xi_i]
    = \|w\|^2 + C\|\xi\|_1 - \sum\alpha + b\,y^T\alpha`
    (``rpcheck.svm.kkt``), so
    :math:`|\sum\alpha - \|w\|^2 - C\|\xi\|_1| \le 2n\cdot\text{complementarity\_abs} + |b|\,|y^T\alpha|`
    (each point contributes two products, each at most ``complementarity_abs``), plus float rounding.
    """
    n = res.alpha.size
    C_xi = 0.0 if np.isinf(res.C) else res.C * float(np.sum(res.slack))
    scale = res.alpha_sum + res.w_norm_sq + C_xi
    return 2 * n * res.kkt.complementarity_abs + abs(res.b) * res.kkt.dual_abs + rounding(n, scale)


def w_distance_bound(gap1, gap2, fp=0.0):
    r"""Rigorous bound on :math:`\|w_1 - w_2\|` for two near-optimal SVM (or SVR) points.

    The primal objective is 1-strongly convex in w, so for any primal point
    :math:`\tfrac12\|w - w^*\|^2 \le P(w, b) - P^* \le P(w, b) - D(\alpha)` for any dual-feasible alpha.
    Hence :math:`\|w_1 - w_2\| \le \sqrt{2\,\text{gap}_1} + \sqrt{2\,\text{gap}_2}` with
    ``gap_k = P_k - max(D_1, D_2)``; ``fp`` is the float-rounding allowance of each computed gap
    (``rounding(n, scale)`` of the objective values).
    """
    return float(np.sqrt(2 * (max(gap1, 0.0) + fp)) + np.sqrt(2 * (max(gap2, 0.0) + fp)))


def assert_svc_agree(r1, r2, n):
    """Two certified SVC results on the same problem agree within their certificates: dual objectives within
    the larger duality gap (plus rounding), and ``||w_1 - w_2||`` within :func:`w_distance_bound`."""
    fp = rounding(n, r1.alpha_sum + r1.w_norm_sq + abs(r1.primal_objective) + abs(r2.primal_objective))
    g = max(r1.primal_objective - r1.objective, r2.primal_objective - r2.objective, 0.0)
    assert abs(r1.objective - r2.objective) <= g + fp
    D = max(r1.objective, r2.objective)
    bound = w_distance_bound(r1.primal_objective - D, r2.primal_objective - D, fp)
    assert np.linalg.norm(r1.w - r2.w) <= bound + 1e-12 * np.linalg.norm(r1.w)
#: Every solver (IPM included) serves the SVC, SVR and enclosing-ball duals alike.
SOLVER_QP = SOLVER

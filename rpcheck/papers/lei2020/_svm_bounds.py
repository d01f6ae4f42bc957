r"""Shared pieces of the Lei & Lan (2020) SVM-dual checkers through the exact solver: the no-rescale selection
bounds (claim 9, D2; ``selection_dual``) and the dual perturbation bound for every construction (claim 10, D1;
``dual_perturbation``).

The paper only argues heuristically (H1) that alpha~* is close to alpha* when X~X~^T is close to XX^T; the
deterministic bounds here are DERIVED in rpcheck.papers.lei2020.bounds (dual_perturbation_bound,
selection_dual_gap_bound) and evaluated with ``rpcheck.svm.solve_svc`` (exact dual (3) with bias,
KKT-certified). Tolerances come from each solve's certificate: the true optimum
lies within ``cert = |primal - dual objective| + n max(C, 1) (primal + dual feasibility residuals)`` of the
reported objective.
"""

from __future__ import annotations

import numpy as np

from ...engine import Outcome, Verdict
from . import _common as c

H = Verdict.HOLDS


def solve_cert(res, n, C):
    k = res.kkt
    scale = n * (1.0 if not np.isfinite(C) else max(C, 1.0))
    return abs(res.primal_objective - res.objective) + scale * (k.primal_abs + k.dual_abs) + 1e-9 * abs(res.objective)


def svm_data(params, rng):
    n, d = params["n"], params["d"]
    X = c.make_data(params.get("data", "scaled"), n, d, rng)
    X /= np.sqrt(np.mean(np.sum(X**2, axis=1)))  # unit mean squared row norm: C is on a sensible scale
    w = rng.standard_normal(d)
    noise = params.get("noise", 0.3) * rng.standard_normal(n)
    z = X @ w / np.linalg.norm(w) * np.sqrt(d)
    y = np.sign(z + noise * np.std(z))
    y[y == 0] = 1.0
    y[0], y[1] = 1.0, -1.0
    return X, y


# ---------------------------------------------------------------------------------------------------------
# claim 9 (D2): no-rescale selections
# ---------------------------------------------------------------------------------------------------------
def certified_event(lo, hi, bound):
    """Certified truth of ``t <= bound`` when the true ``t`` is only known to lie in ``[lo, hi]``:
    True (hi <= bound), False (lo > bound) or None (the interval straddles the bound: undetermined)."""
    if hi <= bound:
        return True
    if lo > bound:
        return False
    return None


def combine_events(states):
    """One outcome from several certified events (all must hold): a certified failure of any is a failure;
    otherwise any undetermined one makes the outcome undetermined."""
    if any(st is False for st in states):
        return False
    if any(st is None for st in states):
        return None
    return True


def event_outcome(state, statistic=np.nan, vacuous=False):
    if vacuous:
        return Outcome(holds=True, statistic=float(statistic), bound=0.0, vacuous=True)
    return Outcome(holds=state is True, statistic=float(statistic), bound=0.0, undetermined=state is None)


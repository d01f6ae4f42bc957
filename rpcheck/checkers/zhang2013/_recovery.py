r"""One draw of the low-rank recovery setting shared by Theorems 1, 2 and 4 (spec C-A2..C-A4, C-A6).

Each theorem module calls :func:`draw` in its own trial (the engine seeds theorems independently), then
forms its own outcomes. Everything is computed in the coordinates of ``V`` (see ``_common``):
``coef* = V^T w*``, ``wt = V^T wtilde``, ``A = V^T R``; ``R^T w* = A^T coef*``, ``V^T what = A z``.
"""

from __future__ import annotations

import math

import numpy as np

from ...engine import Outcome
from ...svm.drp import certified_recovery_bound
from ._common import (
    distortion_from_A,
    fp_tolerance,
    m_for,
    make_instance,
    projected_solution,
    reference_solution,
    sketch_matrix,
)

__all__ = ["draw", "Draw", "certify_le", "ratio_interval"]


def certify_le(lo, hi, bound_lo, bound_hi, statistic, bound):
    """Outcome of ``S <= B`` when the exact ``S`` is certified to lie in ``[lo, hi]`` and ``B`` in
    ``[bound_lo, bound_hi]``: holds when ``hi <= bound_lo``, fails when ``lo > bound_hi``, else undetermined
    (the intervals straddle; counted against the verdict tested, ``rpcheck.stats``)."""
    if hi <= bound_lo:
        return Outcome(True, statistic, bound)
    if lo > bound_hi:
        return Outcome(False, statistic, bound)
    return Outcome(bool(statistic <= bound), statistic, bound, undetermined=True)


def ratio_interval(num, rad_num, den, rad_den):
    """``[lo, hi]`` containing ``a/b`` for every ``|a - num| <= rad_num``, ``|b - den| <= rad_den`` (``a >= 0``)."""
    lo = max(num - rad_num, 0.0) / (den + rad_den)
    hi = (num + rad_num) / (den - rad_den) if den > rad_den else math.inf
    return lo, hi


class Draw:
    r"""Quantities of one draw; ``cert(eps)`` is the certified bound on ``||wtilde - w*||`` at ``eps``.

    Certified radii (the computed vectors against the exact optima, in V-coordinates)
        ``u_full``: ``||w*_computed - w*|| <= sqrt(2 eta_full/lambda)`` (the primal (1) is ``lambda``-strongly
        convex and the Frank-Wolfe gap of the hinge dual equals its duality gap, which bounds the primal
        suboptimality of ``w(beta)``), plus the rounding allowance ``fp ||w*||``.
        ``u_z``: the same for the projected primal (6), ``||z_computed - z*|| <= sqrt(2 eta_proj/lambda)``
        (+ ``fp ||z||``).
        ``u_wt``: ``||wtilde_computed - wtilde|| <= u_z / sqrt(1 - eps_R)`` since ``z = A^T wtilde`` (Prop. 2)
        and ``||A^T v||^2 >= (1 - eps_R) ||v||^2`` for ``A = V^T R`` (infinite when ``eps_R >= 1`` and the
        projected dual is inexact).
        Square loss: closed forms, the gaps are 0 and only the rounding allowance remains.
    """

    def __init__(self, **kw):
        self.__dict__.update(kw)
        if "lam" in kw and "res" in kw:
            nz = float(np.linalg.norm(self.res.z))
            self.u_full = math.sqrt(2.0 * max(self.gap_full, 0.0) / self.lam) + self.fp * self.w_norm
            self.u_z = math.sqrt(2.0 * max(self.gap_proj, 0.0) / self.lam) + self.fp * nz
            fp_wt = self.fp * float(np.linalg.norm(self.res.w_tilde))
            if self.gap_proj <= 0:
                self.u_wt = fp_wt
            elif self.eps_R < 1:
                self.u_wt = math.sqrt(2.0 * self.gap_proj / self.lam) / math.sqrt(1.0 - self.eps_R) + fp_wt
            else:
                self.u_wt = math.inf

    def rel_interval(self):
        """Certified ``[lo, hi]`` for ``||wtilde - w*|| / ||w*||`` (exact optima)."""
        return ratio_interval(self.err, self.u_full + self.u_wt, self.w_norm, self.u_full)

    def cert(self, eps):
        if eps >= 1:
            return math.inf
        return certified_recovery_bound(eps, self.w_norm, self.gap, self.lam)

    def cert_RT(self, eps):
        """Certified bound on ``||R^T (wtilde - w*)||``: ``sqrt(eps ||w*|| B + gap/lam)`` (spec A.4 (21))."""
        if eps >= 1:
            return math.inf
        return math.sqrt(eps * self.w_norm * self.cert(eps) + self.gap / self.lam)


def draw(params, rng, *, keep_R=False):
    """Instance, sketch, reference optimum and Algorithm 1, for cell ``params``.

    Parameters used: ``n, d, r, lam, loss`` and ``m`` (or ``eps, delta, c`` for Cor. 7's m), optional
    ``kind`` (default "gaussian"), ``cond`` (default 10).
    """
    n, d, r = int(params["n"]), int(params["d"]), int(params["r"])
    lam, loss = float(params["lam"]), params["loss"]
    m = m_for(params)
    inst = make_instance(n, d, r, rng=rng, cond=float(params.get("cond", 10.0)))
    R = sketch_matrix(params.get("kind", "gaussian"), d, m, rng=rng)
    A = inst.V.T @ R
    eps_R = distortion_from_A(A)
    ref = reference_solution(inst, lam, loss)
    res, gap_p = projected_solution(inst, lam, A, loss)
    wt = np.asarray(res.w_tilde)
    Xh2 = float(np.linalg.norm(inst.Z @ A, 2)) ** 2
    kappa = (max(float(inst.s[0]) ** 2, Xh2) + lam) / lam
    err = float(np.linalg.norm(wt - ref.coef))
    return Draw(
        inst=inst,
        R=R if keep_R else None,
        A=A,
        m=m,
        lam=lam,
        loss=loss,
        eps_R=eps_R,
        ref=ref,
        res=res,
        w_norm=ref.norm,
        gap=ref.gap + gap_p,
        gap_full=ref.gap,
        gap_proj=gap_p,
        err=err,
        rel=err / ref.norm if ref.norm > 0 else math.nan,
        kappa=kappa,
        fp=fp_tolerance(kappa),
    )


def diagnostics(dr):
    return {
        "eps_R": dr.eps_R,
        "m": float(dr.m),
        "rel_err": dr.rel,
        "w_norm": dr.w_norm,
        "gap_full": dr.gap_full,
        "gap_proj": dr.gap_proj,
        "kkt_ref_max_rel": dr.ref.kkt_max_rel,
        "kappa": dr.kappa,
        "n_sv_proj": float(np.sum(dr.res.beta > 0)) if dr.res.beta is not None else math.nan,
        "n_free_ref": float(np.sum((dr.ref.beta > 1e-7) & (dr.ref.beta < 1 - 1e-7)))
        if dr.ref.beta is not None
        else math.nan,
        "n_upper_ref": float(np.sum(dr.ref.beta >= 1 - 1e-7)) if dr.ref.beta is not None else math.nan,
    }

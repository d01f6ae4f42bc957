r"""One draw of the low-rank recovery setting shared by Theorems 1, 2 and 4 of Zhang et al. (2013).

Each theorem module calls :func:`draw` in its own trial (the engine seeds theorems independently), then
forms its own outcomes. Everything is computed in the coordinates of ``V`` (see ``_common``):
``coef* = V^T w*``, ``wt = V^T wtilde``, ``A = V^T R``; ``R^T w* = A^T coef*``, ``V^T what = A z``.
"""

from __future__ import annotations

import math

import numpy as np

from ..._validation import check_choice
from ...engine import Outcome
from ...engine.userdata import DATA_PARAM
from ...errors import RpcheckError
from ...svm.drp import certified_recovery_bound
from ._common import (
    data_instance,
    delta_failure,
    distortion_from_A,
    fp_tolerance,
    m_for,
    make_instance,
    projected_data_norm,
    projected_solution,
    reference_solution,
    sketch_matrix,
)

#: How ``A = V^T R`` is drawn (see :func:`draw`).
SAMPLERS = ("sketch", "law")

__all__ = [
    "SAMPLERS",
    "draw",
    "Draw",
    "certify_le",
    "ratio_interval",
    "planted_rank1",
    "planted_controls",
    "CONTROL_VARIANTS",
]


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
        """Certified bound on ``||R^T (wtilde - w*)||``: ``sqrt(eps ||w*|| B + gap/lam)`` (the proof of
        Theorem 2, inequality (21))."""
        if eps >= 1:
            return math.inf
        return math.sqrt(eps * self.w_norm * self.cert(eps) + self.gap / self.lam)


def draw(params, rng, *, keep_R=False):
    """Instance, sketch, reference optimum and Algorithm 1, for cell ``params``.

    Parameters used: ``n, d, r, lam, loss`` and ``m`` (or ``eps, delta, c`` for Cor. 7's m), optional
    ``kind`` (default "gaussian"), ``sampler`` (default "sketch": an explicit ``d x m`` sketch ``R``; "law":
    ``A = V^T R`` drawn in law, Gaussian only), ``cond`` (default 10), ``mu`` (smoothed hinge, default 1).
    """
    n, d, r = int(params["n"]), int(params["d"]), int(params["r"])
    lam, loss = float(params["lam"]), params["loss"]
    m = m_for(params)
    if DATA_PARAM in params:  # the user's data (rpcheck check --data): the file's X = Z V^T and labels
        inst = data_instance(params)
    else:
        inst = make_instance(n, d, r, rng=rng, cond=float(params.get("cond", 10.0)))
    kind, sampler = params.get("kind", "gaussian"), check_choice("sampler", params.get("sampler", "sketch"), SAMPLERS)
    if sampler == "law":
        # A = V^T R drawn in law: for a Gaussian R (E[R R^T] = I) and orthonormal V, V^T R has i.i.d.
        # N(0, 1/m) entries (Section 5: A = U^T R is a standard Gaussian matrix, scaled by 1/sqrt(m)); the
        # only randomness Theorems 1, 2, 4, 5 use. O(r m) instead of O(d m) + O(d r m).
        if kind != "gaussian" or keep_R:
            raise RpcheckError(
                f"`sampler` ('law') draws V^T R of a Gaussian R only and keeps no R; got kind={kind!r}, "
                f"keep_R={keep_R!r} (use sampler='sketch')."
            )
        R = None
        A = rng.standard_normal((r, m)) / math.sqrt(m)
    else:
        R = sketch_matrix(kind, d, m, rng=rng)
        A = inst.V.T @ R
    eps_R = distortion_from_A(A)
    mu = float(params.get("mu", 1.0))  # smoothed-hinge parameter (ignored by the other losses)
    ref = reference_solution(inst, lam, loss, mu=mu)
    res, gap_p = projected_solution(inst, lam, A, loss, mu=mu)
    wt = np.asarray(res.w_tilde)
    Xh2 = projected_data_norm(inst.Z, A) ** 2  # ||X R||_2^2, X R = Z A
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


# ------------------------------------------------------------------------------ negative controls
#: lambda / s^2 of the planted rank-1 instance (s^2 >> lambda for the Theorem 2 control, the reverse for
#: the Theorem 4 control).
PLANTED_RHO = 1e-6
#: Threshold of the bound-mode control: the planted relative error is provably above it (see below).
PLANTED_TINY = 1e-8


def planted_rank1(m, rng):
    r"""A planted rank-1 square-loss instance with the cell's ``m``, in closed form.

    Rank 1: ``Z = s u`` (``n x 1``) and ``A = V^T R`` is ``1 x m``; ``mu = A A^T ~ chi2_m/m`` exactly (drawn
    as such) and ``eps_R = |mu - 1|``. Closed forms (14)-(15) give ``w* = s u^T y/(lambda + s^2)`` and
    ``wtilde = s u^T y/(lambda + mu s^2)``, so with ``rho = lambda/s^2``:

    * ``rel2 = |wtilde - w*|/|w*| = |1 - mu|/(rho + mu)`` (Theorems 1 and 2: for rank 1 the Theorem 1
      ratio ``||z - R^T w*||/||R^T w*||`` equals it, since ``z = A^T wtilde``);
    * ``stat4 = |mu wtilde - w*|/|w*| = |mu - 1| rho'/(rho' + mu)`` at ``rho' = 1/PLANTED_RHO`` (Theorem 4;
      ``V^T what = A z = mu wtilde``).

    Returns ``(eps_R, rel2, stat4)``.
    """
    mu = float(rng.chisquare(m)) / m
    e = abs(mu - 1.0)
    rel2 = e / (PLANTED_RHO + mu)
    rho4 = 1.0 / PLANTED_RHO
    stat4 = e * rho4 / (rho4 + mu)
    return e, rel2, stat4


def planted_controls(m, rng, *, theorem4=False):
    r"""Outcomes of the negative controls on the planted rank-1 instance (:func:`planted_rank1`).

    ``control_per_draw`` (deterministic): the per-draw bound with its constant tightened,
    ``rel2 <= eps_R/(2 (1 - eps_R))`` (Theorems 1, 2, 5: half of ``eps_R/(1 - eps_R)``) or
    ``stat4 <= eps_R (1 + 1/(1 - eps_R))/4`` (Theorem 4). Derivation: for ``mu = 1 - e``,
    ``rel2 = e/(rho + 1 - e) > e/(2(1 - e))`` iff ``1 - e > rho``; for ``mu = 1 + e`` iff
    ``e < (1 - rho)/3``. So every draw with ``eps_R < 0.33`` is a counterexample; ``P(eps_R < 0.33) >= 0.46``
    per draw for ``m >= 7`` (the smallest ``m`` of any profile; exact chi-square), so P(no counterexample in
    20 draws) <= 0.54^20 < 5e-6. Theorem 4:
    ``stat4 >= eps_R (1 - 2e-6)`` and ``(2 - e)/(4 (1 - e)) < 1`` iff ``e < 2/3``. Vacuous when ``eps_R >= 1``.
    ``control_stated`` (bound, promised the cell's failure probability): ``rel2 <= 1e-8``. Derivation:
    ``rel2 >= |mu - 1|/3`` when ``mu < 2`` and ``>= 1/3`` otherwise, so
    ``P(rel2 <= 1e-8) <= P(|chi2_m/m - 1| <= 3e-8) <= 6e-8 sup_x f_{chi2_m/m}(x) <= 6.6e-8 sqrt(m/(4 pi))``
    (the density's maximum is within 10% of ``sqrt(m/(4 pi))`` for ``m >= 12``), below 6e-6 for ``m <= 1e5``:
    with 20 draws all fail with probability >= 0.9998 and the refutation test
    of ``p <= delta`` (``delta <= 1/2``) at level 0.01/500 rejects (``P_{1/2}(X >= 20 of 20) = 9.5e-7``).
    """
    e, rel2, stat4 = planted_rank1(m, rng)
    if e >= 1:
        per_draw = Outcome(True, rel2, math.nan, vacuous=True)
    elif theorem4:
        b = e * (1 + 1 / (1 - e)) / 4
        per_draw = Outcome(bool(stat4 <= b), stat4, b)
    else:
        b = e / (2 * (1 - e))
        per_draw = Outcome(bool(rel2 <= b), rel2, b)
    return {"control_per_draw": per_draw, "control_stated": Outcome(bool(rel2 <= PLANTED_TINY), rel2, PLANTED_TINY)}


def control_variants(theorem4=False):
    """The two negative-control Variants of :func:`planted_controls`."""
    from ...engine import Variant, Verdict

    pd = (
        "planted rank-1 square loss: ||U^T(what - w*)||/||w*|| <= eps_R (1 + 1/(1-eps_R))/4 (tightened 4x)"
        if theorem4
        else "planted rank-1 square loss: ||wtilde - w*||/||w*|| <= eps_R/(2(1 - eps_R)) (tightened 2x)"
    )
    return (
        Variant("control_per_draw", pd, mode="deterministic", expected=Verdict.VIOLATED, role="control",
                note="Negative control (derivation in rpcheck.papers.zhang2013._recovery.planted_controls)."),
        Variant("control_stated", "planted rank-1 square loss: ||wtilde - w*||/||w*|| <= 1e-8", mode="bound",
                expected=Verdict.VIOLATED, promised_failure=delta_failure, role="control",
                note="Negative control (derivation in rpcheck.papers.zhang2013._recovery.planted_controls)."),
    )


CONTROL_VARIANTS = control_variants()

r"""Theorem 3.6 (enclosing ball preserved) of Paul et al. (2014), with the derived lower bound and e_B = e.

Statement (arXiv v5 Theorem 3.6 = TKDD Theorem 3.11; proof eq. (22))
    Fix eps in (0, 1/2], delta in (0, 1]; R = R_SRHT with r as in eq. (7). Then with probability
    >= 1 - delta, B~^2 <= (1 + eps) B^2, where B (B~) is the radius of the minimum enclosing ball of the
    rows of X (X R). "Similar results can be proven for the two other constructions."

Proof chain (checkable given the draw): with X_B = [X; x_B^T] and E_B its distortion matrix,
``max_i ||R^T (x_i - x_B)||^2 <= (1 + ||E_B||_2) B^2`` and hence ``B~^2 <= (1 + ||E_B||_2) B^2``.
Derived here (not in the paper): x_B is a convex combination of the rows, so it lies in
rowspace(X), ``rank(X_B) = rho`` and ``||E_B||_2 = ||E||_2`` exactly; and ``B~^2 >= (1 - e) B^2``.

Per trial (one data set with an affine offset, one R, two certified MEB solves):

=================== ======================================================================= =========
variant             event                                                                   expected
=================== ======================================================================= =========
``proof_step``      max_i ||R^T (x_i - c)||^2 <= (1 + e_B) max_i ||x_i - c||^2, c = centre  HOLDS
``stated_det``      B~^2 <= (1 + e_B) B^2 (deterministic given e_B)                         HOLDS
``derived_lower``   B~^2 >= (1 - e) B^2 (vacuous for e >= 1)                                HOLDS
``eB_equals_e``     rank([X; x_B^T]) = rank(X) and |e_B - e| <= 1e-8                        HOLDS
``stated_prob``     P(B~^2 > (1 + eps) B^2) <= delta at r = ceil(c f) (eq. 7 for SRHT)      HOLDS*
``*_control``       negative controls (role "control"): the same event functions with a     VIOLATED
                    constant the certified statistic exceeds by a factor 2 (see evaluate_ball)
=================== ======================================================================= =========

Every comparison of certified intervals is three-valued: a straddling interval is ``undetermined``.

(*) expected HOLDS in the "theory" cells, where r follows the lemma's formula with the constant of
``CI_CONSTANTS``; reported only (None) in the "small_r" cells, which exist to exercise the deterministic
variants at large e. Promised probability of ``stated_prob``: 1 - delta (mode "bound"); the others are
deterministic.

Tolerances: ``B^2`` lies in the solver's certified interval ``[dual_value, radius_sq]``
(:class:`rpcheck.svm.BallResult`), and a violation is counted only when certified. ``proof_step`` is
exact for the returned centre (it lies in rowspace(X) by construction, ``c = X^T lambda``), up to a 1e-10
relative rounding allowance. ``eB_equals_e``: both numbers are ``max |1 - s_i(W^T R)^2|`` for orthonormal
bases W of the same subspace, computed by an SVD; the subspace perturbation from rounding is
``O(u kappa(X_B))`` with ``u = 2^-53`` and ``kappa <= 1e3`` for these instances, so 1e-8 is a wide margin.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from ...engine import Finding, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, register
from ...engine.userdata import DATA_PARAM, DENSE_ROWSPACE_MAX, trial_data
from ...generators import orthonormal_basis
from ...linalg import embedding_distortion, row_space_basis
from ...sketches import make_sketch
from ...stats import deterministic_trials
from ._common import (
    CI_CONSTANTS,
    FP_REL,
    Interval,
    P,
    certified_ge,
    cite,
    cw_consistent,
    rho_le,
    violation_artifacts,
)
from .bounds import sparse_embedding_markov_r
from .embedding import embedding_cell, file_cells, sketch_kwargs

__all__ = ["THEOREM", "trial", "ball_instance", "evaluate_ball"]

EB_TOL = 1e-8


def ball_instance(n, d, rho, *, rng):
    """``X = Z V^T + 1 m^T`` (rank rho + 1 with the affine offset m)."""
    Z = rng.standard_normal((n, rho))
    V = orthonormal_basis(d, rho + 1, rng=rng)
    m = 2.0 * V[:, -1]
    return Z @ V[:, :rho].T + m[None, :]


def ball_upper_event(k, B, Bt):
    """``B~^2 <= k B^2`` on the certified intervals ``B`` = [dual, radius^2] of the original MEB and ``Bt``
    of the projected one (three-valued, :func:`._common.certified_ge`). Reads ``statistic <= bound``."""
    holds, und = certified_ge(B.scale(k), Bt)
    return Outcome(holds, Bt.lo, k * B.hi, undetermined=und)


def ball_prob_event(eps, B, Bt):
    """The event of ``stated_prob`` (Thm 3.6 as stated): ``B~^2 <= (1 + eps) B^2``. Also the event of its
    control ``prob_control`` (with a tightened eps), so a fault in this function shows in both."""
    return ball_upper_event(1.0 + eps, B, Bt)


def evaluate_ball(e, e_B, rank_X, rank_XB, proj_max, Bc_sq, ball, ball_t, eps, e_other=math.nan):
    """Outcomes of the variants from the measured quantities (every Outcome reads statistic <= bound).

    ``e_other`` is the distortion of an independent random subspace of the same dimension (for the
    control ``eB_control``)."""
    B = Interval(max(ball.dual_value, 0.0), ball.radius_sq)
    Bt = Interval(max(ball_t.dual_value, 0.0), ball_t.radius_sq)
    fp = FP_REL
    out = {}
    out["proof_step"] = proof_step_event(1 + e_B, proj_max, Bc_sq)
    out["stated_det"] = ball_upper_event(1 + e_B, B, Bt)
    if e >= 1:
        out["derived_lower"] = Outcome(True, math.nan, Bt.hi, vacuous=True)
    else:
        holds, und = certified_ge(Bt, B.scale(1 - e))
        out["derived_lower"] = Outcome(holds, (1 - e) * B.lo, Bt.hi, undetermined=und)
    out["eB_equals_e"] = eB_event(rank_X, rank_XB, e, e_B)
    out["stated_prob"] = ball_prob_event(eps, B, Bt)
    # Negative controls (role "control", expected VIOLATED, mode "deterministic": one certified failure
    # suffices); each calls the same event function as the variants it controls with the constant
    # tightened to a value the certified statistic provably exceeds by a factor 2:
    #   prob_control: ball_prob_event with 1 + eps_c = lower(B~^2)/(2 upper(B^2)), so (1 + eps_c) B^2 <=
    #     B~^2/2 < B~^2 (controls stated_prob and, through ball_upper_event, stated_det);
    #   lower_control: B~^2 >= k_c B^2 with k_c = 2 upper(B~^2)/lower(B^2) (controls derived_lower);
    #   proof_step_control: proof_step_event with 1 + e_B replaced by proj_max/(2 Bc_sq);
    #   eB_control: eB_event with e_B replaced by the distortion of an independent Haar subspace of the same
    #     dimension, which differs from e by more than 1e-8 with probability 1 (continuous law).
    if B.hi > 0 and Bt.lo > 0 and B.lo > 0:
        out["prob_control"] = ball_prob_event(Bt.lo / (2.0 * B.hi) - 1.0, B, Bt)
        k_c = 2.0 * Bt.hi / B.lo
        holds, und = certified_ge(Bt, B.scale(k_c))
        out["lower_control"] = Outcome(holds, k_c * B.lo, Bt.hi, undetermined=und)
    else:
        out["prob_control"] = Outcome(True, math.nan, math.nan, vacuous=True)
        out["lower_control"] = Outcome(True, math.nan, math.nan, vacuous=True)
    out["proof_step_control"] = (
        proof_step_event(proj_max / (2.0 * Bc_sq), proj_max, Bc_sq)
        if Bc_sq > 0 and proj_max > 0
        else Outcome(True, math.nan, math.nan, vacuous=True)
    )
    out["eB_control"] = (
        eB_event(rank_X, rank_XB, e, e_other) if math.isfinite(e_other) else Outcome(True, vacuous=True)
    )
    del fp
    return out


class _LazyArtifacts(Mapping):
    """A trial's replay arrays (:func:`._common.violation_artifacts`), built on first access.

    The engine reads a trial's artifacts only when it keeps them (a counterexample to save, or a replay), and
    the controls fail on every draw, so an eager build would form the explicit (d, r) matrix R (for SRHT from
    the closed form of the Hadamard entries, about a tenth of a quick trial) on every draw only to drop it.
    The arrays are taken from the trial's own objects, which nothing changes after the trial returns: the
    mapping holds exactly what the eager build holds."""

    def __init__(self, build):
        self._build = build
        self._arrays = None

    def _get(self):
        if self._arrays is None:
            self._arrays = self._build()
        return self._arrays

    def __getitem__(self, key):
        return self._get()[key]

    def __iter__(self):
        return iter(self._get())

    def __len__(self):
        return len(self._get())

    def __reduce__(self):
        # A record sent between processes (a replay in a worker) carries the arrays, not the closure.
        return (dict, (dict(self._get()),))


def proof_step_event(k, proj_max, Bc_sq):
    """``max_i ||R^T (x_i - c)||^2 <= k max_i ||x_i - c||^2`` (computed norms, rounding allowance only)."""
    b = k * Bc_sq
    return Outcome(bool(proj_max <= b * (1 + FP_REL)), proj_max, b)


def eB_event(rank_X, rank_XB, e, e_B):
    """``rank([X; x_B^T]) = rank(X)`` and ``|e_B - e| <= EB_TOL``."""
    return Outcome(bool(rank_XB == rank_X and abs(e_B - e) <= EB_TOL), abs(e_B - e), EB_TOL)


def trial(params, rng):
    from ...svm import min_enclosing_ball

    n, d, rho, r = params["n"], params["d"], params["rho"], params["r"]
    if DATA_PARAM in params:  # the user's data (rpcheck check --data); a CSR file is densified (data_cells)
        ud = trial_data(params)
        X = ud.memo("dense", lambda: ud.X.toarray() if ud.sparse else ud.X)
        V = ud.row_space()
    else:
        # "scale" multiplies the data (the same draws from the same stream): every event compares B~^2 with B^2
        # or distortions of the row space, all invariant under X -> s X, so the law of each row does not depend
        # on it; what does is every absolute tolerance in the pipeline (rank cut-offs, solver certificates).
        X = params.get("scale", 1.0) * ball_instance(n, d, rho, rng=rng)
        V = row_space_basis(X)
    sk = make_sketch(params["kind"], d, r, rng=rng, **sketch_kwargs(params))
    ball = min_enclosing_ball(X)
    c = np.asarray(ball.center)
    XB = np.vstack([X, c[None, :]])
    VB = row_space_basis(XB)
    # for eB_control: an independent Haar subspace of the same dimension; when rank(X) = d (a user file can
    # have it) every subspace of that dimension is R^d itself, so one dimension less (a distortion that differs
    # from e with probability 1 all the same). Generated instances have rank rho + 1 < d: unchanged. Drawn
    # right after the sketch: nothing in between reads the stream, so every draw keeps its place in it.
    Vo = orthonormal_basis(d, min(V.shape[1], d - 1), rng=rng) if d > 1 else None
    # Every small product with R in one apply (the map is row by row, so each block is the product it stands
    # for): c R, V^T R, V_B^T R and Vo^T R; X R on its own (no copy of X).
    XR = np.asarray(sk.apply(X))
    small = [c[None, :], V.T, VB.T] + ([Vo.T] if Vo is not None else [])
    ends = np.cumsum([b.shape[0] for b in small])
    cR, VtR, VBtR, *VotR = np.split(np.asarray(sk.apply(np.vstack(small))), ends[:-1])
    e = embedding_distortion(V, VtR=VtR)
    e_B = embedding_distortion(VB, VtR=VBtR)
    e_other = embedding_distortion(Vo, VtR=VotR[0]) if Vo is not None else math.nan
    ball_t = min_enclosing_ball(XR)
    diffs = X - c[None, :]
    Bc_sq = float(np.max(np.einsum("ij,ij->i", diffs, diffs)))
    pd = XR - cR
    proj_max = float(np.max(np.einsum("ij,ij->i", pd, pd)))
    out = evaluate_ball(e, e_B, V.shape[1], VB.shape[1], proj_max, Bc_sq, ball, ball_t, params["eps"], e_other)
    diags = {
        "e": e,
        "e_B": e_B,
        "rank_X": float(V.shape[1]),
        "rank_XB": float(VB.shape[1]),
        "B_sq": ball.radius_sq,
        "B_sq_proj": ball_t.radius_sq,
        "ratio": ball_t.radius_sq / ball.radius_sq,
        "gap_rel": max(ball.gap_rel, ball_t.gap_rel),
        "center_rowspace_residual": float(np.linalg.norm(c - V @ (V.T @ c)) / max(np.linalg.norm(c), 1e-300)),
    }
    arts = _LazyArtifacts(lambda: violation_artifacts(out, X=X, sketch=sk))
    return TrialRecord(outcomes=out, diagnostics=diags, artifacts=arts)


def _expect_prob(params):
    # The event holds whenever e_B = e <= eps (stated_det), so its failure probability is at most P(e > eps) at
    # the cell's r (rank(X) = rho + 1). Power by profile (tests/bench/prob_containment_pilot.py, seed 20261127; as in
    # main_ratio._expect_prob):
    # - ci (100 trials, delta 0.2): containment gives 0.66-0.74 (P(e > eps) ~ 3-4% at r = 164); the expectation
    #   rests on the actual-event pilot of PROFILES' ci comment.
    # - standard (delta 0.1): containment gives 0.82 (srht, 6/3000 with e > eps, p_hi = 5.2e-3) to 0.97
    #   (countsketch) at 150 trials, and at 300 trials it gives >= 0.9999 in every
    #   theory cell (holds_power('bound', 300, 5.2e-3, 0.1, 5e-6)).
    # - full (500 trials, delta 0.05): 0/2000 with e > eps in each of the four cells, p_hi = 2.65e-3, power 0.9996
    #   at level 5e-6.
    # On the user's data (rpcheck check --data) the power argument above, measured on generated instances,
    # does not carry over: reported.
    if DATA_PARAM in params:
        return None
    return Verdict.HOLDS if params.get("design") == "theory" else None


def _delta(params):
    return params["delta"]


def _cells(kinds, n, d, rho, eps, delta, small_rs):
    cells = []
    for kind in kinds:
        if kind in ("cw", "countsketch"):  # derived sufficient r (sparse_embedding_markov_r), not a constant
            cell = embedding_cell(kind, rho + 1, d, eps, delta, r=sparse_embedding_markov_r(rho + 1, eps, delta))
        else:
            cell = embedding_cell(kind, rho + 1, d, eps, delta, c=CI_CONSTANTS[kind])
        cell.update(n=n, d=d, rho=rho, design="theory")  # rank(X) = rho + 1 (offset); r from rho + 1
        cells.append(cell)
        for r in small_rs:
            cell = embedding_cell(kind, rho + 1, d, eps, delta, r=r)
            cell.update(n=n, d=d, rho=rho, design="small_r")
            cells.append(cell)
    return tuple(cells)


def data_cells(info, cells):
    """Cells of ``rpcheck check paul2014.thm3.6 --data FILE``: per kind, eps and delta of the profile, the
    "theory" r of the lemma's formula computed with the file's rank (the constants of ``CI_CONSTANTS``;
    CountSketch/CW the derived sufficient r) and the profile's "small_r" values. ``rho`` is the file's rank
    minus 1 (the parameter's meaning here: rank(X) = rho + 1). ``stated_prob`` is reported only on user data
    (:func:`_expect_prob`); the deterministic rows keep their expectations, which hold for every X.

    Sparse input: the minimum enclosing ball is solved on the densified X (up to
    :data:`rpcheck.engine.userdata.DENSE_ROWSPACE_MAX` entries); the sketch applies to the same dense X.
    """
    from ...errors import RpcheckError

    if info["sparse"] and info["n"] * info["d"] > DENSE_ROWSPACE_MAX:
        raise RpcheckError(
            f"`--data` ({info['path']!r}): paul2014.thm3.6 solves the enclosing ball of the dense X, "
            f"{info['n']:,} x {info['d']:,} entries, above the limit {DENSE_ROWSPACE_MAX:,}."
        )
    rank = int(info["rank"])
    if rank < 2:
        return ()
    return file_cells(info, cells, rank - 1)


data_cells.from_file = ("n", "d", "rho")  # taken from the file; `--set` may not change them


def _scaled(cells, scale):
    """The srht "theory" cell of ``cells`` with the data scaled by ``scale``."""
    (cell,) = [c for c in cells if c["kind"] == "srht" and c["design"] == "theory"]
    return (dict(cell, scale=scale),)


# Data far from unit size (quick: 1e3; ci: 1e3 and 1e-3), asserted as the unscaled srht theory cell is. Every
# event is scale invariant and the trial draws the same Z, V, R at every scale, so the unscaled cell's pilots
# and power computations below apply unchanged; a 150-draw pilot (run_cell, seed 20261202) at scale 1e-3 and
# 1e3 of the quick cell gave the counts of scale 1 (0 failures, vacuous, undetermined draws and solver errors
# in every claim row; every control failed 150/150). At scale 1e3 the round-off singular values of X (rank
# rho + 1 = 6) are 2e-13..3.5e-12, so a rank read with an absolute cut-off such as 1e-12 instead of
# row_space_basis's relative one counts noise directions there and only there
# (tests/checkers/test_planted_bugs.py plants it and sees VIOLATED).
_QUICK_CELLS = _cells(["srht"], 30, 512, 5, 0.5, 0.2, [24])
_CI_CELLS = _cells(["srht", "gaussian"], 40, 512, 5, 0.5, 0.2, [16, 48])

PROFILES = {
    # Power (quick): pilot = `rpcheck calibrate --profile quick --seeds 1-20` (tests/bench/power_audit.py);
    # theory cell pooled 0/800, p_hi = 0.0066; at 40 trials HOLDS (0 failures needed) was reachable only at a
    # favourable Holm level (power 0 at 1e-4); at the 99% Clopper-Pearson upper end p_hi of the pooled rate,
    # rpcheck.stats.holds_power('bound', n, p_hi, delta, 1e-4) (level 0.01/100, below every Holm level of the quick
    # family) is >= 0.99 for n = 80 (>= 0.99); at 40 trials it is 0. Fresh-seed confirmation (seeds 21-40): PROFILES.md,
    # "Calibration".
    # quick: sized for the deterministic HOLDS rows (rpcheck.stats.deterministic_trials: >= 90 evaluated draws with
    # probability >= 0.99, each row holding on every draw); the worst row, derived_lower, was vacuous in 44 of 150 draws
    # of its cell (seed 0; 99% upper bound 0.39).
    "quick": Profile(_QUICK_CELLS + _scaled(_QUICK_CELLS, 1e3), trials=deterministic_trials(0.39)),
    # Power (ci) at the suite-wide level: the default test run is one family of M = 636 statistical rows, whose first
    # Holm step is 0.01/M = 1.6e-5; audited at 1.4e-5 = 0.01/700 for headroom. Pilot = `rpcheck calibrate --profile ci
    # --seeds 41-52` (tests/bench/power_audit.py --level 1.4e-5). Worst expected-
    # HOLDS row pooled 0/480, p_hi = 0.011; rpcheck.stats.holds_power('bound', n, p_hi, 0.2, 1.4e-5) is 0 (HOLDS
    # unattainable) at 40 trials and 0.995 at n = 100. Fresh-seed confirmation: PROFILES.md, "Calibration".
    # ci: sized for the deterministic HOLDS rows the same way (rpcheck.stats.deterministic_trials); the worst row,
    # derived_lower in the small_r cells at r = 16 (e >= 1 makes it vacuous), was vacuous in 86 of 150 draws of its
    # cell (srht; 82 of 150 for gaussian; `rpcheck check paul2014.thm3.6 --profile ci --trials 150 --stop none
    # --seed 20261202`), 99% upper bound 0.67. The statistical rows' power above needs 100 and is kept.
    "ci": Profile(
        _CI_CELLS + _scaled(_CI_CELLS, 1e3) + _scaled(_CI_CELLS, 1e-3), trials=max(100, deterministic_trials(0.67))
    ),
    "standard": Profile(
        _cells(["srht", "gaussian", "sign", "countsketch"], 60, 1024, 8, 0.5, 0.1, [16, 64]), trials=300
    ),  # 300 trials: the prob row's power by containment (_expect_prob)
    "full": Profile(
        _cells(["srht", "gaussian", "sign", "countsketch"], 100, 4096, 10, 0.5, 0.05, [16, 64, 256]), trials=500
    ),
}

THEOREM = register(
    Theorem(
        id="paul2014.thm3.6",
        paper="paul2014",
        title="Thm 3.6: enclosing ball preserved, B~^2 <= (1 + eps) B^2; derived lower bound; e_B = e",
        citation=cite("Theorem 3.6", "(7), (22)"),
        statement="With prob >= 1 - delta (R = SRHT, r as in eq. 7), B~^2 <= (1 + eps) B^2.",
        kind="probabilistic",
        variants=(
            Variant(
                "proof_step",
                "max_i ||R^T(x_i - c)||^2 <= (1 + e_B) max_i ||x_i - c||^2 (ball at the projected centre)",
                expected=Verdict.HOLDS,
            ),
            Variant("stated_det", "B~^2 <= (1 + e_B) B^2", expected=Verdict.HOLDS),
            Variant("derived_lower", "B~^2 >= (1 - e) B^2 (derived, not in the paper)", expected=Verdict.HOLDS),
            Variant(
                "eB_equals_e",
                "rank([X; x_B]) = rank(X) and |e_B - e| <= 1e-8 (x_B in rowspace(X))",
                expected=Verdict.HOLDS,
                note="The paper only uses rho_B <= rho + 1 and a second application of Lemma 3.1.",
            ),
            Variant(
                "prob_control",
                "B~^2 <= (1 + eps_c) B^2 with 1 + eps_c = lower(B~^2)/(2 upper(B^2)) (negative control)",
                expected=Verdict.VIOLATED,
                role="control",
                note="Runs stated_prob's event function (ball_prob_event) with a tightened eps: provably fails "
                "by a factor 2 in every draw; controls stated_prob and stated_det.",
            ),
            Variant(
                "lower_control",
                "B~^2 >= k_c B^2 with k_c = 2 upper(B~^2)/lower(B^2) (negative control of derived_lower)",
                expected=Verdict.VIOLATED,
                role="control",
            ),
            Variant(
                "proof_step_control",
                "max_i ||R^T(x_i - c)||^2 <= (proj_max/(2 Bc^2)) max_i ||x_i - c||^2 (negative control)",
                expected=Verdict.VIOLATED,
                role="control",
            ),
            Variant(
                "eB_control",
                "|e(V') - e| <= 1e-8 for an independent Haar V' of the same dimension (negative control)",
                expected=Verdict.VIOLATED,
                role="control",
                note="Controls eB_equals_e: a different subspace has a different distortion (probability 1).",
            ),
            Variant(
                "stated_prob",
                "P(B~^2 > (1 + eps) B^2) <= delta at r = ceil(c f) (eq. 7 for SRHT; eq. 10 Gaussian)",
                mode="bound",
                expected=_expect_prob,
                promised_failure=_delta,
                assumed=("O(.) constant c of eq. 7/10 from CI_CONSTANTS (r chosen from measurements; not a test of the "
                         "constant: paul2014.shape tests the formulas' scaling); r computed with rank(X) = rho + 1.",),
            ),
        ),
        profiles=PROFILES,
        trial=trial,
        arrays=(("n", "d"),),  # the data X (memory model: rpcheck.engine.theorem.trial_memory)
        parameters={k: P[k] for k in ("kind", "coherence", "rho", "d", "n", "delta", "c", "r", "q", "v", "a", "design")}
        | {"scale": Param("float", low=0.0, closed="neither",
                          doc="factor multiplying the data X (default 1; every event is scale invariant)")}
        | {"eps": P["eps_half"]},
        constraints=(rho_le("n", "d", offset=1), cw_consistent()),
        data_cells=data_cells,
        tolerance=FP_REL,
        tolerance_note="B^2 in the certified interval [dual_value, radius_sq] of each MEB solve; 1e-8 for "
        "|e_B - e| (SVD subspace perturbation O(u kappa)).",
        findings=(
            Finding(
                "eB-equals-e",
                "x_B lies in rowspace(X), so rank(X_B) = rho and ||E_B|| = ||E||: the second embedding event of Thm "
                "1.1's union bound is redundant (probability 1 - delta, not 1 - 2 delta).",
                evidence_variant="eB_equals_e",
                location="Theorem 3.6, eq. (22); proof of Theorem 1.1",
                quote="The failure probability is at most 2 delta, by a simple application of the union bound.",
                kind="observation",
            ),
            Finding(
                "meb-lower",
                "The projected ball also satisfies B~^2 >= (1 - e) B^2 (not in the paper).",
                evidence_variant="derived_lower",
                location="Theorem 3.6 (the paper states the upper bound only)",
                quote="B~^2 <= (1 + eps) B^2",
                kind="observation",
            ),
        ),
        notes="X = Z V^T + 1 m^T (affine offset, rank rho + 1). Cells 'theory' use r from the lemma formula; "
        "'small_r' cells exercise the deterministic variants at large e.",
    )
)

r"""Lei & Lan (2020), claim 11 (D3), ``lei2020.energy``: the randomized Hadamard rotation "tends to equalize
column norms" (Sec. 3.1); checked as the exact mean and variance of a rotated column energy
``c_j = ||(X D H)_{:, j}||^2`` over all ``2^d`` sign vectors D (closed form
:func:`rpcheck.papers.lei2020.bounds.rotated_energy_moments`).

The Hadamard oracle and the conventions shared with lei2020.rotation are in ``rpcheck.papers.lei2020._common``
(``rotate_dense``); the variants, their expected verdicts and tolerances are documented at each Variant below.
"""

from __future__ import annotations

import itertools

import numpy as np

from ...engine import Constraint, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, grid, register
from ...stats import deterministic_trials
from . import _common as c
from . import bounds as B

__all__ = ["THEOREM", "trial"]

H, V = Verdict.HOLDS, Verdict.VIOLATED


# ---------------------------------------------------------------------------------------------------------
# claim 11 (D3): exact moments of c_j over all 2^d sign vectors
# ---------------------------------------------------------------------------------------------------------
def trial(params, rng):
    n, d = params["n"], params["d"]
    X = c.make_data(params["data"], n, d, rng)
    S = np.array(list(itertools.product([-1.0, 1.0], repeat=d)))  # all 2^d sign vectors, equally likely
    Hd = c.rotate_dense(np.eye(d), np.ones(d))  # H_d / sqrt(d)
    C = np.einsum("sij,sij->sj", *(2 * [np.einsum("ik,sk,kj->sij", X, S, Hd)]))  # c_j for every sign vector
    mean, var = C.mean(axis=0), C.var(axis=0)
    m_th, v_th = B.rotated_energy_moments(X)
    fro2 = float(np.sum(X**2))
    tol_m = c.RTOL_EXACT * fro2
    tol_v = c.RTOL_EXACT * fro2**2
    dm = float(np.abs(mean - m_th).max())
    dv = float(np.abs(var - v_th).max())
    P = C / C.sum(axis=1, keepdims=True)
    dpn = float(np.abs(P.mean(axis=0) - 1.0 / d).max())
    # negative control (planted bugs): variance without the factor 2, mean ||X||_F^2/(2d) and E p_j = 1/(2d);
    # each is off by a factor 2 of a quantity far above the tolerances (m_th > 0; 1/d), so the control must
    # fail every draw. The variance fault is planted only where it is visible, v_th > 2 tol_v: v_th = 0 exactly
    # when X^T X is diagonal, which is every draw of the "spiky" family (rows are scaled basis vectors) --
    # there var = v_th / 2 = 0 and the fault cannot be seen (the standard profile's spiky cells showed the
    # control holding in 90/90 draws, seed 0, before this rule)
    ctrl = (
        (float(np.max(v_th)) > 2 * tol_v and float(np.abs(var - v_th / 2).max()) <= tol_v)
        or float(np.abs(mean - m_th / 2).max()) <= tol_m
        or float(np.abs(P.mean(axis=0) - 0.5 / d).max()) <= 1e-12
    )
    return TrialRecord(
        outcomes={
            "mean": Outcome(holds=dm <= tol_m, statistic=dm, bound=tol_m),
            "variance": Outcome(holds=dv <= tol_v, statistic=dv, bound=tol_v),
            "nps_mean_uniform": Outcome(holds=dpn <= 1e-12, statistic=dpn, bound=1e-12),
            "control_planted": Outcome(holds=bool(ctrl)),
        },
        # v_th = 0 exactly in theory on "spiky" data; its computed value can round to -1e-17 (no NaN, no warning)
        diagnostics={"cv_energy": float(np.sqrt(np.maximum(v_th, 0.0)) / m_th)},
    )


THEOREM = register(
    Theorem(
        id="lei2020.energy",
        paper="lei2020",
        title="E_D c_j = ||X||_F^2/d and Var_D c_j = (2/d^2) sum_{k!=l}(X^T X)_kl^2, exactly (all 2^d "
            "sign vectors)",
        citation=c.citation("Sec. 3.1 ('the Hadamard transform tends to equalize column norms')"),
        statement="(DERIVED, rpcheck.papers.lei2020.bounds.rotated_energy_moments) E_D[c_j] = ||X||_F^2/d, "
                  "Var_D[c_j] = "
                  "(2/d^2) sum_{k != l}(X^T "
        "X)_{kl}^2; "
        "hence E_D[p_j^nps] = 1/d.",
        kind="deterministic",
        variants=(
            Variant("mean", "max_j |E_D c_j - ||X||_F^2/d| <= tol (enumeration of 2^d sign vectors)", expected=H),
            Variant("variance", "max_j |Var_D c_j - (2/d^2) sum_{k!=l}(X^TX)_kl^2| <= tol", expected=H),
            Variant("nps_mean_uniform", "max_j |E_D p_j^nps - 1/d| <= 1e-12", expected=H),
            Variant(
                "control_planted",
                "negative control: one of Var = (1/d^2) sum, E c_j = ||X||_F^2/(2d), E p_j = 1/(2d) passes",
                expected=V,
                role="control",
            ),
        ),
        profiles={
            # quick: sized for the deterministic HOLDS rows (rpcheck.stats.deterministic_trials: >= 90 evaluated draws
            # with probability >= 0.99, each row holding on every draw); no draw of 150 was vacuous (seed 0; 99% upper
            # bound 0.03).
            "quick": Profile(cells=grid(n=4, d=4, data="scaled"), trials=deterministic_trials(0.03)),
            # 90 draws: the v2 deterministic HOLDS needs >= 90 evaluated draws (99% CP bound <= 0.05)
            "ci": Profile(cells=grid(n=5, d=[4, 8], data=["scaled", "lowrank"]), trials=90),
            "standard": Profile(cells=grid(n=6, d=[2, 4, 8], data=["scaled", "lowrank", "spiky"]), trials=90),
            "full": Profile(cells=grid(n=8, d=[2, 4, 8], data=["scaled", "lowrank", "spiky", "gaussian"]), trials=200),
        },
        trial=trial,
        parameters={"n": c.P_N, "d": Param("int", low=1, high=12, doc="d (2^d sign vectors are enumerated)"),
                    "data": c.P_DATA},
        constraints=(Constraint("d is a power of two (the moments are stated for H_d, d = d')",
                                lambda p: c.dpad(p["d"]) == p["d"]),),
        tolerance=c.RTOL_EXACT,
        tolerance_note="exact enumeration in float64; RTOL_EXACT x ||X||_F^2 (mean) and x ||X||_F^4 "
            "(variance)",
    )
)

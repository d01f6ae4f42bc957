r"""Lei & Lan (2020), claim 2 (F1), ``lei2020.unbiased``: the sampled rotated Gram matrix is an unbiased
estimator (Sec. 3.1, eqs. (5), (6); "proved in (?)" = DKM 2006 Lemma 3), with the DKM Lemma 3 variance.

Expectations are computed EXACTLY by enumerating every outcome of the sampling (all multisets of r draws
with their multinomial probabilities, or all r-subsets) for tiny d and r, and compared with the closed forms
of ``rpcheck.papers.lei2020.bounds``; the closed forms then give the comparisons at realistic sizes.
"""

from __future__ import annotations

import numpy as np

from ...engine import Constraint, Outcome, Profile, Theorem, TrialRecord, Variant, Verdict, grid, register
from ...stats import deterministic_trials
from . import _common as c
from . import bounds as B

__all__ = ["THEOREM", "trial"]

H, V = Verdict.HOLDS, Verdict.VIOLATED


# ---------------------------------------------------------------------------------------------------------
# claim 2: unbiasedness (F1) and the DKM Lemma 3 variance, by exact enumeration
# ---------------------------------------------------------------------------------------------------------
def _expect(Xr, W, q):
    G = c.grams(Xr, W)
    mean = np.einsum("m,mij->ij", q, G)
    var = np.einsum("m,mij->ij", q, (G - mean) ** 2)
    return mean, var


def trial(params, rng):
    X, Xr = c.rotated_instance(params, rng)
    r, d = params["r"], Xr.shape[1]
    K = X @ X.T
    en = c.energies(Xr)
    scale = max(float(np.abs(K).max()), 1e-300)
    tol = c.RTOL_EXACT * scale
    probs = {
        "nps": en / en.sum(),
        "uniform_with": np.full(d, 1.0 / d),
        "dirichlet": rng.dirichlet(np.ones(d)),
    }
    out, diag = {}, {}
    for name, p in probs.items():
        mean, var = _expect(Xr, *c.with_replacement_outcomes(p, r))
        err = float(np.abs(mean - K).max())
        out[name] = Outcome(holds=err <= tol, statistic=err, bound=tol)
        if name == "nps":
            dv = float(np.abs(var - B.sampled_entry_variance(Xr, p, r)).max())
            vtol = c.RTOL_EXACT * scale**2 * max(d, 1)
            out["entry_variance"] = Outcome(holds=dv <= vtol, statistic=dv, bound=vtol)
            # negative control of entry_variance: the DKM Lemma 3 formula with 1/r^2 instead of 1/r is off by
            # (1 - 1/r) Var K~_ij >= Var/2 (r >= 2 here); the variance is > 0 a.s. for nps on these data
            dvc = float(np.abs(var - B.sampled_entry_variance(Xr, p, r) / r).max())
            out["control_entry_variance_r2"] = Outcome(holds=dvc <= vtol, statistic=dvc, bound=vtol)
    mean, _ = _expect(Xr, *c.without_replacement_outcomes(d, r))
    err = float(np.abs(mean - K).max())
    out["uniform_without"] = Outcome(holds=err <= tol, statistic=err, bound=tol)
    # necessity of the hypothesis p_j > 0 where c_j > 0: zero out the largest-energy column's probability
    p0 = en.copy()
    p0[int(np.argmax(en))] = 0.0
    p0 /= p0.sum()
    mean, _ = _expect(Xr, *c.with_replacement_outcomes(p0, r))
    err = float(np.abs(mean - K).max())
    out["zero_p_on_nonzero_column"] = Outcome(holds=err <= tol, statistic=err, bound=tol)
    diag["K_scale"] = scale
    return TrialRecord(outcomes=out, diagnostics=diag)


_UNB_SIZES = [dict(n=3, d=4, r=2), dict(n=4, d=8, r=3)]


THEOREM = register(
    Theorem(
        id="lei2020.unbiased",
        paper="lei2020",
        title="Sampled Gram matrix is unbiased for any p > 0 (nps, uniform with/without replacement), "
            "exactly",
        citation=c.citation("Sec. 3.1 (unbiasedness 'proved in (?)' = DKM 2006 Lemma 3)", "eqs. (5), (6)"),
        statement="E[X~ X~^T] = X X^T for S~ of eq. (5) with any p_j > 0 on nonzero columns, and for "
            "SRHT eq. (2).",
        kind="deterministic",
        variants=(
            Variant(
                "nps",
                "max_ij |E K~_ij - K_ij| <= 1e-9 max|K| under nps (exact enumeration of all multisets)",
                expected=H,
            ),
            Variant("uniform_with", "same, p_j = 1/d with replacement", expected=H),
            Variant("dirichlet", "same, p ~ Dirichlet(1) (any p > 0)", expected=H),
            Variant("uniform_without", "same, uniform r-subset scaled d/r (SRHT eq. 2)", expected=H),
            Variant(
                "entry_variance",
                "enumerated Var K~_ij = (1/r)(sum_k X_r[i,k]^2 X_r[j,k]^2/p_k - K_ij^2) (DKM Lemma 3, "
                    "IMPORTED)",
                expected=H,
            ),
            Variant(
                "zero_p_on_nonzero_column",
                "E K~ = K also when p = 0 on the largest-energy column "
                "(outside F1's hypothesis; shows the hypothesis is needed)",
                expected=V,
                role="control",
                note="negative control of the unbiasedness events: E K~ = K - x_j x_j^T for the zeroed column "
                "j, off by max_i X_r[i, j]^2 > 0 (the largest-energy column is nonzero), far above 1e-9 max|K|",
            ),
            Variant(
                "control_entry_variance_r2",
                "negative control: enumerated Var K~_ij equals the DKM Lemma 3 formula divided by r",
                expected=V,
                role="control",
            ),
        ),
        profiles={
            # quick: sized for the deterministic HOLDS rows (rpcheck.stats.deterministic_trials: >= 90 evaluated draws
            # with probability >= 0.99, each row holding on every draw); no draw of 150 was vacuous (seed 0; 99% upper
            # bound 0.03).
            "quick": Profile(cells=grid(**_UNB_SIZES[0], data="scaled"), trials=deterministic_trials(0.03)),
            # 90 draws: the v2 deterministic HOLDS needs >= 90 evaluated draws (99% CP bound <= 0.05)
            "ci": Profile(cells=tuple({**s, "data": "scaled"} for s in _UNB_SIZES), trials=90),
            "standard": Profile(
                cells=tuple({**s, "data": k} for s in _UNB_SIZES for k in ("scaled", "lowrank")), trials=100
            ),
            "full": Profile(
                cells=tuple(
                    {**s, "data": k}
                    for s in _UNB_SIZES + [dict(n=5, d=8, r=4)]
                    for k in ("scaled", "lowrank", "gaussian")
                ),
                trials=500,
            ),
        },
        trial=trial,
        parameters={"n": c.P_N, "d": c.P_D, "r": c.P_R, "data": c.P_DATA},
        constraints=(
            c.R_LE_DPAD,
            Constraint("C(r + d' - 1, r) <= 5000 outcomes (exact enumeration of all multisets)",
                       lambda p: c.outcome_count(c.dpad(p["d"]), p["r"], True) <= 5000),
        ),
        tolerance=c.RTOL_EXACT,
        tolerance_note="relative float64 round-off of sums of <= 330 outcomes (see _common.RTOL_EXACT)",
    )
)

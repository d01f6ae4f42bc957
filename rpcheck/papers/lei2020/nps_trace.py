r"""Lei & Lan (2020), claim 15, ``lei2020.nps_trace``: the nps trace identity (Sec. 3.1, eqs. (5)-(6)), the
library's ``srht-nps`` sketch checked against the exact identity.
"""

from __future__ import annotations

import numpy as np

from ...engine import Outcome, Profile, Theorem, TrialRecord, Variant, Verdict, grid, register
from ...sketches import make_sketch
from ...stats import deterministic_trials
from . import _common as c

__all__ = ["THEOREM", "trial"]

H, V = Verdict.HOLDS, Verdict.VIOLATED


# ---------------------------------------------------------------------------------------------------------
# claim 15: nps trace identity (library srht-nps against the exact identity)
# ---------------------------------------------------------------------------------------------------------
def trial(params, rng):
    n, d, r = params["n"], params["d"], params["r"]
    X = c.make_data(params["data"], n, d, rng)
    fro2 = float(np.sum(X**2))
    sk = make_sketch("srht-nps", d, r, rng=rng).fit(X)
    Z = sk.apply(X)
    col = np.sum(Z**2, axis=0)
    tol = c.RTOL_EXACT * fro2 * max(1.0, np.log2(sk.d_pad))
    dev_col = float(np.abs(col - fro2 / r).max())
    dev_tr = abs(float(np.sum(Z**2)) - fro2)
    # the fitted probabilities are the exact nps ones of the oracle rotation with the sketch's signs
    Xr = c.rotate_dense(X, sk.signs_)
    en = c.energies(Xr)
    dev_p = float(np.abs(sk.probabilities_ - en / en.sum()).max())
    # negative control (planted bug: the sampled columns without the 1/sqrt(r p) rescaling, as a selection
    # would give): the column norms are c_{i_t} instead of ||X||_F^2/r, and equal only if c_{i_t} = ||X||_F^2/r.
    # That bug is a no-op where r p_{i_t} = 1 for every sampled column: on "spiky" data every row is a scaled
    # basis vector, so X D H has flat rows, p = 1/d' exactly, and r = d' (e.g. d = 50, r = 64) makes the
    # rescaling the identity (found at standard, cell d = 50, r = 64, spiky: the control held). There the
    # planted bug is the other half of the rescaling, 1/sqrt(p) without the 1/r: the column norms become
    # r ||X||_F^2/r = ||X||_F^2 and the trace r ||X||_F^2, off by the factor r >= 2 (r = d' >= 2), never
    # within tol while ||X||_F > 0. Elsewhere (some r p_{i_t} != 1) the no-rescale bug is visible: at a
    # column with r p_i != 1 the norm c_i = p_i ||X||_F^2 differs from ||X||_F^2/r by |r p_i - 1| ||X||_F^2/r,
    # so the no-rescale bug is planted wherever that exceeds 2 tol for some sampled column.
    colb = np.sum(Xr[:, sk.indices_] ** 2, axis=0)
    if float(np.abs(colb - fro2 / r).max()) <= 2.0 * tol:
        colb = colb / sk.probabilities_[sk.indices_]  # the norms of Zb / sqrt(p)
    ctrl = float(np.abs(colb - fro2 / r).max()) <= tol or abs(float(colb.sum()) - fro2) <= tol * r
    return TrialRecord(
        outcomes={
            "column_norms": Outcome(holds=dev_col <= tol, statistic=dev_col, bound=tol),
            "trace": Outcome(holds=dev_tr <= tol * r, statistic=dev_tr, bound=tol * r),
            "probabilities": Outcome(
                holds=dev_p <= 1e-12 * max(1, np.log2(sk.d_pad)),
                statistic=dev_p,
                bound=1e-12 * max(1, np.log2(sk.d_pad)),
            ),
            "control_no_rescale": Outcome(holds=bool(ctrl)),
        },
        diagnostics={"duplicates": float(r - len(np.unique(sk.indices_)))},
    )


THEOREM = register(
    Theorem(
        id="lei2020.nps_trace",
        paper="lei2020",
        title="nps: every sampled column has ||.||^2 = ||X||_F^2/r, so trace(K~) = trace(K) for every draw",
        citation=c.citation("Sec. 3.1, eqs. (5)-(6)"),
        statement="(DERIVED, eqs. (5)-(6)) ||X_r(:,i_t)/sqrt(r p_i_t)||^2 = ||X||_F^2/r; trace(X~X~^T) = "
            "||X||_F^2.",
        kind="deterministic",
        variants=(
            Variant("column_norms", "max_t | ||X~(:,t)||^2 - ||X||_F^2/r | <= tol (library srht-nps)", expected=H),
            Variant("trace", "|trace(X~X~^T) - ||X||_F^2| <= r tol", expected=H),
            Variant(
                "probabilities",
                "library p equals c/sum(c) of the oracle rotation X D H (scipy hadamard)",
                expected=H,
                role="self-check",
            ),
            Variant(
                "control_no_rescale",
                "negative control: the same identities for the sampled columns without 1/sqrt(r p) "
                "(without 1/r where r p = 1)",
                expected=V,
                role="control",
            ),
        ),
        profiles={
            # quick: sized for the deterministic HOLDS rows (rpcheck.stats.deterministic_trials: >= 90 evaluated draws
            # with probability >= 0.99, each row holding on every draw); no draw of 150 was vacuous (seed 0; 99% upper
            # bound 0.03).
            "quick": Profile(cells=grid(n=30, d=50, r=8, data="scaled"), trials=deterministic_trials(0.03)),
            # 90 draws: the v2 deterministic HOLDS needs >= 90 evaluated draws (99% CP bound <= 0.05)
            "ci": Profile(cells=grid(n=30, d=[50, 64], r=[8, 100], data=["scaled", "spiky"]), trials=90),
            "standard": Profile(
                cells=grid(n=100, d=[50, 256], r=[8, 64, 300], data=["scaled", "spiky", "lowrank"]),
                trials=100,
            ),
            "full": Profile(
                cells=grid(n=200, d=[50, 1000], r=[8, 64, 300], data=["scaled", "spiky", "lowrank"]),
                trials=300,
            ),
        },
        trial=trial,
        # nps samples WITH replacement: r > d' is allowed (e.g. r = 100 > d' = 64)
        **c.data_theorem_kw(distinct=False),
        tolerance_note="FWHT round-off grows like log2(d') ulps; RTOL_EXACT x ||X||_F^2 x log2(d')",
    )
)

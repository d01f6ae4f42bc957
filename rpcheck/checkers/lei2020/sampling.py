r"""Lei & Lan (2020) sampling claims: unbiasedness (F1, claim 2), Proposition 1 corrected and as printed
(claims 3-4), with vs without replacement (claim 5, D5), the imported DKM bound (claim 14, I2) and the nps
trace identity (claim 15).

Expectations are computed EXACTLY by enumerating every outcome of the sampling (all multisets of r draws
with their multinomial probabilities, or all r-subsets) for tiny d and r, and compared with the closed forms
of ``rpcheck.bounds.lei2020``; the closed forms then give the comparisons at realistic sizes.
"""

from __future__ import annotations

import numpy as np
import scipy.optimize

from ...bounds import lei2020 as B
from ...engine import Constraint, Finding, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, grid, register
from ...sketches import make_sketch
from . import _common as c

__all__ = ["UNBIASED", "PROP1", "REPLACEMENT", "DKM", "NPS_TRACE"]

H, V = Verdict.HOLDS, Verdict.VIOLATED


def _instance(params, rng):
    n, d = params["n"], params["d"]
    X = c.make_data(params.get("data", "scaled"), n, d, rng)
    Xr = c.rotate_dense(X, c.signs(d, rng))
    return X, Xr


# ---------------------------------------------------------------------------------------------------------
# claim 2: unbiasedness (F1) and the DKM Lemma 3 variance, by exact enumeration
# ---------------------------------------------------------------------------------------------------------
def _expect(Xr, W, q):
    G = c.grams(Xr, W)
    mean = np.einsum("m,mij->ij", q, G)
    var = np.einsum("m,mij->ij", q, (G - mean) ** 2)
    return mean, var


def _unbiased_trial(params, rng):
    X, Xr = _instance(params, rng)
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
UNBIASED = register(
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
            "quick": Profile(cells=grid(**_UNB_SIZES[0], data="scaled"), trials=5),
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
        trial=_unbiased_trial,
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


# ---------------------------------------------------------------------------------------------------------
# claims 3-4: Proposition 1, corrected (squared) and as printed (unsquared)
# ---------------------------------------------------------------------------------------------------------
PRINTED_XR = np.diag([1.0, np.sqrt(2.0)])  # Proposition 1 counterexample, r = 1


def _unsq(Xr, K, p, r):
    W, q = c.with_replacement_outcomes(p, r)
    G = c.grams(Xr, W)
    return float(q @ np.sqrt(np.sum((G - K) ** 2, axis=(1, 2))))


def _sq_enum(Xr, K, p, r):
    W, q = c.with_replacement_outcomes(p, r)
    G = c.grams(Xr, W)
    return float(q @ np.sum((G - K) ** 2, axis=(1, 2)))


def _softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()


def _prop1_trial(params, rng):
    r = params["r"]
    if params["instance"] == "printed":
        Xr = PRINTED_XR.copy()
        K = Xr @ Xr.T
    else:
        X, Xr = _instance(params, rng)
        K = X @ X.T
    d = Xr.shape[1]
    en = c.energies(Xr)
    p_nps = en / en.sum()
    Kf2 = float(np.sum(K**2))
    fro2 = float(en.sum())
    scale2 = fro2**2
    out, diag = {}, {}
    # closed form == enumeration, at nps and at a random p
    pr = rng.dirichlet(np.ones(d))
    dev = max(abs(_sq_enum(Xr, K, p, r) - B.sampled_sq_error(en, Kf2, p, r)) for p in (p_nps, pr))
    tol = c.RTOL_EXACT * scale2 * 10
    out["squared_closed_form"] = Outcome(holds=dev <= tol, statistic=dev, bound=tol)
    # nps minimises the squared error; minimum value (1/r)(||X||_F^4 - ||K||_F^2)
    e_nps = B.sampled_sq_error(en, Kf2, p_nps, r)
    cands = [rng.dirichlet(np.full(d, a)) for a in (0.3, 1.0, 5.0) for _ in range(10)] + [np.full(d, 1 / d)]
    best = min(B.sampled_sq_error(en, Kf2, p, r) for p in cands)
    ok = best >= e_nps - tol and abs(e_nps - B.nps_sq_error(fro2, Kf2, r)) <= tol
    out["squared_nps_optimal"] = Outcome(holds=ok, statistic=e_nps, bound=best + tol)
    e_uni = B.sampled_sq_error(en, Kf2, np.full(d, 1 / d), r)
    out["nps_le_uniform_with"] = Outcome(holds=e_nps <= e_uni + tol, statistic=e_nps, bound=e_uni + tol)
    # as printed: nps minimises the UNSQUARED expected error.  Search: Dirichlet draws, p ~ c^2, then a
    # Nelder-Mead polish of the best in softmax coordinates.
    u_nps = _unsq(Xr, K, p_nps, r)
    cands = [p for p in cands if np.all(p > 0)] + [en**2 / np.sum(en**2)]
    vals = [_unsq(Xr, K, p, r) for p in cands]
    z0 = np.log(cands[int(np.argmin(vals))])
    res = scipy.optimize.minimize(
        lambda z: _unsq(Xr, K, _softmax(z), r),
        z0,
        method="Nelder-Mead",
        options={"maxiter": 60 * d, "xatol": 1e-6, "fatol": 1e-12},
    )
    u_best = min(min(vals), float(res.fun))
    utol = c.RTOL_EXACT * fro2 * 10
    out["as_printed_unsquared"] = Outcome(holds=u_best >= u_nps - utol, statistic=u_nps, bound=u_best)
    # "uniform sampling would result in large variance of each element" (Sec. 3.1): nps has entrywise
    # variance <= uniform's for EVERY entry (DKM Lemma 3).  False: nps minimises only the SUM (rpcheck.bounds.lei2020.sampled_entry_variance).
    v_nps = B.sampled_entry_variance(Xr, p_nps, r)
    v_uni = B.sampled_entry_variance(Xr, np.full(d, 1 / d), r)
    worst_entry = float((v_nps - v_uni).max())
    out["entrywise_variance"] = Outcome(holds=worst_entry <= tol, statistic=worst_entry, bound=tol)
    # negative control (planted bugs): the closed form with 1/r^2 (off by (1 - 1/r) E_sq, and r = 1 on the
    # printed instance where 1/r^2 = 1/r, so there the second event decides) OR uniform sampling strictly
    # better than nps (E_sq(p) - E_sq(nps) = (1/r) sum_j c_j^2 (1/p_j - S/c_j) >= 0 with equality iff p = nps,
    # so it fails whenever the energies are unequal: always on diag(1, sqrt 2), a.s. on random data)
    cf_bug = abs(_sq_enum(Xr, K, pr, r) - B.sampled_sq_error(en, Kf2, pr, r) / r) <= tol and r > 1
    out["control_planted"] = Outcome(holds=bool(cf_bug or e_uni < e_nps - tol))
    diag.update(
        entry_var_excess=worst_entry,
        e_sq_nps=e_nps,
        e_sq_uniform=e_uni,
        e_unsq_nps=u_nps,
        e_unsq_best=u_best,
        unsq_rel_gain=(u_nps - u_best) / u_nps if u_nps > 0 else 0.0,
    )
    art = {"Xr": Xr, "p_best": _softmax(res.x)} if u_best < u_nps - utol else {}
    return TrialRecord(outcomes=out, diagnostics=diag, artifacts=art)


_P1_CELLS = (dict(instance="printed", n=2, d=2, r=1), dict(instance="random", n=3, d=4, r=2, data="scaled"))
PROP1 = register(
    Theorem(
        id="lei2020.prop1",
        paper="lei2020",
        title="Proposition 1: nps minimises E||K~-K||_F^2 (true) but not E||K~-K||_F as printed (false)",
        citation=c.citation("Proposition 1", "eqs. (5), (6)"),
        statement="p_j = ||X_r(:,j)||^2 / ||X_r||_F^2 minimizes E[||X~X~^T - XX^T||_F] (norm not "
            "squared, as printed).",
        kind="deterministic",
        variants=(
            Variant(
                "squared_closed_form",
                "enumerated E||K~-K||_F^2 = (1/r)(sum c_j^2/p_j - ||K||_F^2) (DKM Lemma 4, IMPORTED)",
                expected=H,
            ),
            Variant(
                "squared_nps_optimal",
                "E_sq(nps) = (1/r)(||X||_F^4 - ||K||_F^2) <= E_sq(p) for 31 p in the "
                "simplex (Dirichlet, uniform) [corrected Prop. 1]",
                expected=H,
            ),
            Variant("nps_le_uniform_with", "E_sq(nps) <= E_sq(uniform with replacement)", expected=H),
            Variant(
                "as_printed_unsquared",
                "E||K~-K||_F(nps) <= E||K~-K||_F(p) for every p found by a search "
                "(Dirichlet draws, p ~ c^2, Nelder-Mead) [Prop. 1 as printed]",
                expected=V,
                note="counterexample X_r = diag(1, sqrt 2), r = 1: 1.8856 (nps) vs 1.7889 (p = (0.2, 0.8))",
            ),
            Variant(
                "entrywise_variance",
                "Var_nps[K~_ij] <= Var_uniform[K~_ij] for every entry (DKM Lemma 3) ['uniform sampling would "
                "result in large variance of each element']",
                expected=lambda p: V if p["instance"] == "printed" else None,
                note="nps minimises the sum of entry variances only (DKM 2006 Lemma 3; e.g. rows (1,0),(0,10): "
                "100 vs 1)",
            ),
            Variant(
                "control_planted",
                "negative control: E_sq closed form with 1/r^2 (r > 1) matches, or uniform beats nps strictly",
                expected=V,
                role="control",
            ),
        ),
        profiles={
            "quick": Profile(cells=_P1_CELLS, trials=3),
            "ci": Profile(cells=_P1_CELLS, trials=10),
            "standard": Profile(cells=_P1_CELLS + (dict(instance="random", n=4, d=8, r=2, data="lowrank"),), trials=50),
            "full": Profile(
                cells=_P1_CELLS
                + (
                    dict(instance="random", n=4, d=8, r=2, data="lowrank"),
                    dict(instance="random", n=5, d=8, r=3, data="gaussian"),
                ),
                trials=200,
            ),
        },
        trial=_prop1_trial,
        parameters={"instance": Param("choice", choices=("printed", "random"), doc="the printed "
                    "counterexample X_r = diag(1, sqrt 2) or a random instance"),
                    "n": c.P_N, "d": c.P_D, "r": c.P_R, "data": c.P_DATA},
        constraints=(
            Constraint("instance 'printed' has n = d = 2, r = 1 (X_r = diag(1, sqrt 2))",
                       lambda p: p["instance"] != "printed" or (p["n"], p["d"], p["r"]) == (2, 2, 1)),
            Constraint("C(r + d' - 1, r) <= 5000 outcomes (exact enumeration of all multisets)",
                       lambda p: c.outcome_count(c.dpad(p["d"]), p["r"], True) <= 5000),
        ),
        tolerance=c.RTOL_EXACT,
        tolerance_note="exact enumeration vs closed form: float64 round-off (RTOL_EXACT x scale, x10 "
            "for the sums)",
        findings=(
            Finding(
                "prop1_unsquared",
                "Prop. 1 is printed for E||.||_F (unsquared); it is false: nps does not "
                "minimise it (X_r = diag(1, sqrt 2), r = 1: 1.8856 vs 1.7889 at p = (0.2, 0.8)); the "
                "proof tool "
                "DKM Lemma 4 gives the squared statement, which holds.",
                "as_printed_unsquared",
                "Proposition 1 and its proof",
            ),
            Finding(
                "entrywise_variance",
                "nps minimises the total variance E||K~-K||_F^2, not each entry's variance: on X_r = "
                "diag(1, sqrt 2), r = 1, Var[K~_11] is 2 under nps and 1 under uniform sampling.",
                "entrywise_variance",
                "Methodology, the sentence on the 'variance of each element' before Proposition 1",
            ),
        ),
    )
)


# ---------------------------------------------------------------------------------------------------------
# claim 5: with vs without replacement (D5)
# ---------------------------------------------------------------------------------------------------------
def _replacement_trial(params, rng):
    X, Xr = _instance(params, rng)
    r, d = params["r"], Xr.shape[1]
    K = X @ X.T
    Kf2 = float(np.sum(K**2))
    en = c.energies(Xr)
    fro2 = float(en.sum())
    tol = c.RTOL_EXACT * fro2**2 * 10
    e_with = B.sampled_sq_error(en, Kf2, np.full(d, 1 / d), r)
    e_wo = B.uniform_without_replacement_sq_error(en, Kf2, r)
    e_nps = B.nps_sq_error(fro2, Kf2, r)
    out = {}
    if c.outcome_count(d, r, False) <= 5000:
        W, q = c.without_replacement_outcomes(d, r)
        G = c.grams(Xr, W)
        enum = float(q @ np.sum((G - K) ** 2, axis=(1, 2)))
        dev = abs(enum - e_wo)
        out["without_closed_form"] = Outcome(holds=dev <= tol, statistic=dev, bound=tol)
    else:
        out["without_closed_form"] = Outcome(holds=True, vacuous=True)
    ratio_dev = abs(e_wo - (d - r) / (d - 1) * e_with)
    out["finite_population_factor"] = Outcome(holds=ratio_dev <= tol, statistic=ratio_dev, bound=tol)
    out["nps_le_srht_without"] = Outcome(holds=e_nps <= e_wo + tol, statistic=e_nps, bound=e_wo)
    out["nps_le_uniform_with"] = Outcome(holds=e_nps <= e_with + tol, statistic=e_nps, bound=e_with)
    # negative control (planted bugs): finite-population factor (d-r)/d instead of (d-r)/(d-1), off by
    # e_with (d-r)/(d(d-1)) > 0 for r < d (e_with = (1/r)(d sum c_j^2 - ||K||_F^2) > 0 by Cauchy-Schwarz
    # unless K has rank 1 and equal energies, probability 0 here), OR uniform-with strictly below nps
    # (impossible: nps minimises E_sq, Prop. 1 corrected)
    fp_bug = abs(e_wo - (d - r) / d * e_with) <= tol
    out["control_planted"] = Outcome(holds=bool(fp_bug or e_with < e_nps - tol))
    diag = {"e_uniform_with": e_with, "e_srht_without": e_wo, "e_nps": e_nps}
    return TrialRecord(outcomes=out, diagnostics=diag)


def _repl_expected_nps(params):
    # rpcheck.bounds.lei2020.uniform_without_replacement_sq_error: Gaussian X at n=200, d=128 -> SRHT (w/o replacement) beats nps
    return V if params["data"] == "gaussian" and params["n"] >= params["d"] else None


REPLACEMENT = register(
    Theorem(
        id="lei2020.replacement",
        paper="lei2020",
        title="Claim 5: nps beats uniform WITH replacement, but not always original SRHT (without "
            "replacement)",
        citation=c.citation("Sec. 3.1, after Prop. 1", "eqs. (2), (5), (6)"),
        statement="Importance sampling (nps) has lower Gram-matrix error than the original (uniform) SRHT.",
        kind="deterministic",
        variants=(
            Variant(
                "without_closed_form",
                "enumerated E_sq(SRHT w/o repl.) = ((d-r)/(d-1))(1/r)(d sum c^2 - ||K||^2)"
                " (D5, DERIVED); vacuous when C(d, r) > 5000",
                expected=lambda p: H if p["d"] <= 16 else Verdict.VACUOUS,
            ),
            Variant("finite_population_factor", "E_sq(w/o) = ((d-r)/(d-1)) E_sq(uniform with)", expected=H),
            Variant(
                "nps_le_srht_without",
                "E_sq(nps) <= E_sq(SRHT without replacement) [the paper's comparison]",
                expected=_repl_expected_nps,
                note="expected VIOLATED for Gaussian data with n >= d (rpcheck.bounds.lei2020.uniform_without_replacement_sq_error: n=200, d=128); only "
                "reported for low-rank data and for n < d (rank-deficient, where nps tends to win)",
            ),
            Variant(
                "nps_le_uniform_with",
                "E_sq(nps) <= E_sq(uniform with replacement) [what Prop. 1 proves]",
                expected=H,
            ),
            Variant(
                "control_planted",
                "negative control: E_sq(w/o) = ((d-r)/d) E_sq(with) holds, or uniform-with beats nps strictly",
                expected=V,
                role="control",
            ),
        ),
        profiles={
            "quick": Profile(cells=grid(n=200, d=128, r=16, data=["gaussian", "lowrank"]), trials=3),
            "ci": Profile(
                cells=grid(n=6, d=16, r=3, data="gaussian")
                + grid(n=200, d=128, r=[16, 64], data=["gaussian", "lowrank"]),
                trials=10,
            ),
            "standard": Profile(
                cells=grid(n=6, d=16, r=3, data=["gaussian", "lowrank"])
                + grid(n=200, d=128, r=[16, 64], data=["gaussian", "lowrank", "scaled"]),
                trials=50,
            ),
            "full": Profile(
                cells=grid(n=6, d=16, r=[2, 3], data=["gaussian", "lowrank"])
                + grid(n=200, d=[128, 512], r=[16, 64], data=["gaussian", "lowrank", "scaled"]),
                trials=200,
            ),
        },
        trial=_replacement_trial,
        parameters={"n": c.P_N, "d": Param("int", low=2, doc="input dimension d >= 2 ((d-r)/(d-1))"),
                    "r": c.P_R, "data": c.P_DATA},
        constraints=(c.R_LE_DPAD,),
        tolerance=c.RTOL_EXACT,
        tolerance_note="closed forms in float64; RTOL_EXACT x ||X||_F^4 x 10",
        findings=(
            Finding(
                "nps_vs_srht_without",
                "Prop. 1's optimality is only within i.i.d. with-replacement schemes: "
                "original SRHT (uniform r-subset, eq. 2) has a smaller exact E||K~-K||_F^2 than nps for "
                "Gaussian "
                "data (finite-population factor (d-r)/(d-1)).",
                "nps_le_srht_without",
                "Proposition 1; eq. (2) (SRHT samples r of the d columns without replacement)",
            ),
        ),
    )
)


# ---------------------------------------------------------------------------------------------------------
# claim 14: DKM Theorem 1 high-probability bound (IMPORTED)
# ---------------------------------------------------------------------------------------------------------
def _dkm_trial(params, rng):
    n, d, r, delta = params["n"], params["d"], params["r"], params["delta"]
    X = c.make_data(params["data"], n, d, rng)
    K = X @ X.T
    fro2 = float(np.sum(X**2))
    sk = make_sketch("srht-nps", d, r, rng=rng).fit(X)
    Z = sk.apply(X)
    err = float(np.linalg.norm(Z @ Z.T - K))
    bnd = B.dkm_frobenius_bound(fro2, r, delta)
    out = {"nps": Outcome(holds=err <= bnd, statistic=err, bound=bnd)}
    # uniform WITH replacement (SRHT, replace=True): beta from the realized energies of the same rotation
    su = make_sketch("srht", d, r, replace=True, rng=rng)
    Zu = su.apply(X)
    beta = B.dkm_beta(c.energies(su.rotate(X)))
    erru = float(np.linalg.norm(Zu @ Zu.T - K))
    bndu = B.dkm_frobenius_bound(fro2, r, delta, beta=beta)
    out["uniform_with"] = Outcome(holds=erru <= bndu, statistic=erru, bound=bndu)
    # negative control: the nps error against half the Eckart-Young floor. K~ = Z Z^T has rank <= r, so
    # ||K~ - K||_F >= ey := sqrt(sum_{i > r} sigma_i(K)^2) in EVERY draw; ey > 0 since rank K = min(n, d)
    # = 50 > r a.s., so err <= ey/2 fails in every trial: P(VIOLATED) = 1 >= 0.999 (100 failures of 100 vs
    # delta = 0.1 at the Bonferroni level 0.01/500)
    sv = np.linalg.eigvalsh(K)[::-1]
    ey = float(np.sqrt(np.sum(np.clip(sv[r:], 0, None) ** 2)))
    out["control_eckart_young"] = Outcome(holds=err <= ey / 2, statistic=err, bound=ey / 2)
    return TrialRecord(outcomes=out, diagnostics={"beta_uniform": beta, "ratio_nps": err / bnd})


DKM = register(
    Theorem(
        id="lei2020.dkm",
        paper="lei2020",
        title="DKM 2006 Thm 1 (IMPORTED): ||K~-K||_F <= (1+sqrt((8/b)ln(1/delta)))/sqrt(b r) ||X||_F^2 "
            "w.p. 1-delta",
        citation=c.citation("Sec. 3.1 (no probability given; bound IMPORTED from Drineas-Kannan-Mahoney "
            "2006 Thm 1)"),
        statement="(IMPORTED, rpcheck.bounds.lei2020.dkm_frobenius_bound) nps: beta = 1; uniform with replacement: beta = ||X||_F^2/(d "
            "max_j c_j).",
        kind="probabilistic",
        variants=(
            Variant(
                "nps",
                "||K~-K||_F <= (1+sqrt(8 ln(1/delta)))||X||_F^2/sqrt(r) (library srht-nps)",
                mode="bound",
                expected=H,
                promised_failure=lambda p: p["delta"],
                assumed=("DKM 2006 Theorem 1 constants as recalled in rpcheck.bounds.lei2020.dkm_frobenius_bound",),
            ),
            Variant(
                "uniform_with",
                "same with beta = ||X||_F^2/(d max c_j) (library srht, replace=True)",
                mode="bound",
                expected=H,
                promised_failure=lambda p: p["delta"],
                assumed=("DKM 2006 Theorem 1 constants as recalled in rpcheck.bounds.lei2020.dkm_frobenius_bound",),
            ),
            Variant(
                "control_eckart_young",
                "negative control: ||K~ - K||_F (nps) <= half the best rank-r error of K",
                mode="bound",
                expected=V,
                promised_failure=lambda p: p["delta"],
                role="control",
            ),
        ),
        profiles={
            # Power (quick): pilot = `rpcheck calibrate --profile quick --seeds 1-20` at 88c0877
            # (tests/bench/power_audit.py); expected-HOLDS bound rows pooled 0/2000, p_hi = 0.0026; at the 99%
            # Clopper-Pearson upper end p_hi of the pooled rate, rpcheck.stats.holds_power('bound', n, p_hi, delta,
            # 1e-4) (level 0.01/100, below every Holm level of the quick family) is >= 0.99 for n = 140 (>= 0.99); at
            # the old 100 trials it was 0.77. Fresh-seed confirmation (seeds 21-40): PROFILES.md, "Calibration".
            "quick": Profile(cells=grid(n=50, d=64, r=8, delta=0.1, data="scaled"), trials=140),
            # Power (ci) at the suite-wide level: the default test run is one family of M = 636 statistical rows,
            # whose first Holm step is 0.01/M = 1.6e-5; audited at 1.4e-5 = 0.01/700 for headroom. Pilot = `rpcheck
            # calibrate --profile ci --seeds 41-52` (41-44 at de7c855, 45-52 at 60113e9; tests/bench/power_audit.py
            # --level 1.4e-5). Worst expected-HOLDS row pooled 0/1200, p_hi = 0.0044;
            # rpcheck.stats.holds_power('bound', n, p_hi, 0.1, 1.4e-5) is 0 (HOLDS unattainable) at the old 100 trials
            # and 0.991 at n = 180. Fresh-seed confirmation: PROFILES.md, "Calibration".
            "ci": Profile(cells=grid(n=50, d=64, r=[4, 16], delta=0.1, data="scaled"), trials=180),
            "standard": Profile(
                cells=grid(n=100, d=128, r=[4, 16, 64], delta=[0.05, 0.1], data=["scaled", "lowrank", "spiky"]),
                trials=400,
            ),
            "full": Profile(
                cells=grid(
                    n=200,
                    d=256,
                    r=[4, 16, 64],
                    delta=[0.01, 0.1],
                    data=["scaled", "lowrank", "spiky", "gaussian"],
                ),
                trials=2000,
            ),
        },
        trial=_dkm_trial,
        parameters={"n": c.P_N, "d": c.P_D, "r": c.P_R, "delta": c.p_prob("failure probability delta"),
                    "data": c.P_DATA},
        findings=(
            Finding(
                "no_probability",
                "The paper states no high-probability guarantee for nps; the DKM bound is imported "
                    "().",
                "nps",
                "Proposition 1 (an expectation; the paper states no probability bound)",
            ),
        ),
    )
)


# ---------------------------------------------------------------------------------------------------------
# claim 15: nps trace identity (library srht-nps against the exact identity)
# ---------------------------------------------------------------------------------------------------------
def _trace_trial(params, rng):
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
    # would give): the column norms are c_{i_t} instead of ||X||_F^2/r, and equal only if c_{i_t} = ||X||_F^2/r
    # (probability 0 for these data); the trace sum_t c_{i_t} differs from ||X||_F^2 likewise
    Zb = Xr[:, sk.indices_]
    colb = np.sum(Zb**2, axis=0)
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


NPS_TRACE = register(
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
                "negative control: the same identities for the sampled columns without 1/sqrt(r p)",
                expected=V,
                role="control",
            ),
        ),
        profiles={
            "quick": Profile(cells=grid(n=30, d=50, r=8, data="scaled"), trials=10),
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
        trial=_trace_trial,
        # nps samples WITH replacement: r > d' is allowed (e.g. r = 100 > d' = 64)
        parameters={"n": c.P_N, "d": c.P_D, "r": c.P_R, "data": c.P_DATA},
        tolerance=c.RTOL_EXACT,
        tolerance_note="FWHT round-off grows like log2(d') ulps; RTOL_EXACT x ||X||_F^2 x log2(d')",
    )
)

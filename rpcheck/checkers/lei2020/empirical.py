r"""Lei & Lan (2020) empirical claims 17-25 as mode-"report" theorems, run with ``rpcheck.compare``.

One trial = one repetition of the Table 2 protocol (random stratified split, [-1, 1] scaling from the
training part, C by CV inside the training part, selections fitted inside each fold, exact L1-loss SVM with
bias via LIBSVM). ``decide`` rebuilds the summary (mean +- std, Welch tests vs SRHT), puts the paper's
Table 2 beside it when the data set is one of the paper's, and turns each comparative sentence into a
verdict: HOLDS (our runs support it), VIOLATED (they contradict it), INCONCLUSIVE (not decidable).

Data: scikit-learn's bundled breast_cancer and digits (digit 8 vs rest) at ``quick``/``ci``; at
``standard``/``full`` also every svmlight/LIBSVM file listed in the environment variable
``RPCHECK_LEI2020_DATA`` (``os.pathsep``-separated; e.g. the paper's mushrooms, usps, gisette files). A file
whose name contains "usps" is binarized as label 1 vs rest (assumed: the paper does not give its usps-b rule).
"""

from __future__ import annotations

import math
import os

import numpy as np
import pandas as pd
import scipy.stats

from ... import compare as cmp
from ...datasets import BUNDLED, load_bundled, load_file
from ...engine import Finding, Outcome, Profile, Theorem, TrialRecord, Variant, Verdict, grid, register
from . import _common as c

__all__ = ["COMPARISON", "RSWEEP", "STABILITY", "user_files"]

_CI_GRID = (2.0**-5, 2.0**-2, 2.0**1, 2.0**4)  # reduced C grid for ci (the paper's is 2^-5..2^5)
_DATA_CACHE: dict = {}


def user_files():
    """svmlight files named in RPCHECK_LEI2020_DATA (existing ones only), read at import time."""
    raw = os.environ.get("RPCHECK_LEI2020_DATA", "")
    return tuple(p for p in raw.split(os.pathsep) if p and os.path.isfile(p))


def _dataset(name):
    if name not in _DATA_CACHE:
        if name in BUNDLED:
            _DATA_CACHE[name] = load_bundled(name)
        else:
            _DATA_CACHE[name] = load_file(name, positive=1 if "usps" in os.path.basename(name).lower() else None)
    return _DATA_CACHE[name]


def _cgrid(p):
    return cmp.DEFAULT_C_GRID if p.get("c_grid", "paper") == "paper" else _CI_GRID


# ---------------------------------------------------------------------------------------------------------
# claims 17-23: Table 2
# ---------------------------------------------------------------------------------------------------------
#: variant -> (claim, sentence prefix used by compare.assess_claims)
_SENTENCES = {
    "c17_topr_gt_srht": (17, "ISRHT-top-r is significantly better than SRHT"),
    "c18_topr_gt_oblivious": (18, "ISRHT-top-r beats all four data-independent methods"),
    "c19_nps_gt_srht": (19, "ISRHT-nps gets slightly better results than SRHT"),
    "c20_topr_gt_nps": (20, "top-r obtains better accuracy than importance sampling (nps)"),
    "c21_supervised_best": (21, "ISRHT-supervised (smallest b) is best among the random projection methods"),
    "c21_largest_ge_srht": (21, "[printed 'largest b' rule] is at least as good as SRHT"),
    "c22_all_best": (22, "All features give the best accuracy"),
    "c22_pca_gt_rp": (22, "PCA is better than the random projection methods"),
    "c23_rp_faster_than_pca": (23, "All random projection methods are more efficient than PCA"),
    "c23_isrht_time": (23, "ISRHT only slightly increases running time over SRHT (ratio <= 1.5)"),
}


def _comparison_trial(params, rng):
    ds = _dataset(params["dataset"])
    rows = cmp.run_repetition(ds, r=params["r"], C_grid=_cgrid(params), cv_folds=params["folds"], rng=rng)
    acc = {row["method"]: row["accuracy"] for row in rows}
    diag = {}
    for row in rows:
        diag[f"acc.{row['method']}"] = row["accuracy"]
        diag[f"time.{row['method']}"] = row["seconds"]
        diag[f"C.{row['method']}"] = row["C"]
    a = acc.get
    per = {
        "c17_topr_gt_srht": a("srht-topr") - a("srht"),
        "c18_topr_gt_oblivious": a("srht-topr") - max(a(m) for m in ("gaussian", "achlioptas", "countsketch", "srht")),
        "c19_nps_gt_srht": a("srht-nps") - a("srht"),
        "c20_topr_gt_nps": a("srht-topr") - a("srht-nps"),
        "c21_supervised_best": a("srht-supervised") - max(a(m) for m in cmp.RP_METHODS if m != "srht-supervised"),
        "c21_largest_ge_srht": a("srht-supervised-largest") - a("srht"),
        "c22_all_best": a("all") - max(v for k, v in acc.items() if k != "all"),
        "c22_pca_gt_rp": a("pca") - max(a(m) for m in cmp.RP_METHODS),
        "c23_rp_faster_than_pca": diag["time.pca"] - max(diag[f"time.{m}"] for m in cmp.RP_METHODS),
        "c23_isrht_time": 1.5 * diag["time.srht"]
        - max(diag[f"time.{m}"] for m in ("srht-nps", "srht-topr", "srht-supervised")),
    }
    out = {
        k: Outcome(holds=bool(v > 0 or (v >= 0 and k == "c21_largest_ge_srht")), statistic=float(v))
        for k, v in per.items()
    }
    return TrialRecord(outcomes=out, diagnostics=diag)


def _raw_from_records(records, prefix="acc."):
    rows = []
    for i, rec in enumerate(records):
        for k, v in rec.diagnostics.items():
            if k.startswith("acc."):
                m = k[4:]
                rows.append(
                    {
                        "repetition": i,
                        "method": m,
                        "accuracy": v,
                        "seconds": rec.diagnostics[f"time.{m}"],
                        "C": rec.diagnostics[f"C.{m}"],
                    }
                )
    return pd.DataFrame(rows)


def _comparison_decide(records, params):
    if len(records) < 2:
        return Verdict.INCONCLUSIVE, {"reason": "fewer than 2 repetitions"}
    raw = _raw_from_records(records)
    raw["r"] = params["r"]
    ds = _dataset(params["dataset"])
    raw.loc[raw["method"] == "all", "r"] = ds.d
    summary = cmp.summarize(raw, dataset=ds.name)
    claims = cmp.assess_claims(summary)
    verdicts = {}
    for v, (claim, sentence) in _SENTENCES.items():
        row = claims[(claims["claim"] == claim) & (claims["sentence"] == sentence)]
        ok = None if not len(row) else row["supported"].iloc[0]
        verdicts[v] = (
            Verdict.INCONCLUSIVE
            if ok is None or (isinstance(ok, float) and math.isnan(ok))
            else (Verdict.HOLDS if bool(ok) else Verdict.VIOLATED)
        )
    info = {
        "dataset": ds.name,
        "paper_dataset": cmp.paper_key(ds.name) or "",
        "summary": summary.round(4).to_dict("records"),
        "claims": claims.to_dict("records"),
        "protocol": f"{len(records)} repetitions, {params['folds']}-fold CV over C in "
        f"{list(_cgrid(params))}, "
        "exact L1-loss SVM with bias (LIBSVM SMO, tol 1e-3), selections fitted inside each fold",
    }
    return verdicts, info


def _cells(profile):
    base = {
        "quick": grid(dataset="breast_cancer", r=8, folds=3, c_grid="ci"),
        "ci": grid(dataset="breast_cancer", r=8, folds=3, c_grid="ci")
        + grid(dataset="digits", r=16, folds=3, c_grid="ci"),
        "standard": grid(dataset=["breast_cancer", "digits"], r=[8, 16], folds=5, c_grid="paper"),
        "full": grid(dataset=["breast_cancer", "digits"], r=[4, 8, 16], folds=5, c_grid="paper"),
    }[profile]
    if profile in ("standard", "full"):
        for path in user_files():
            ds_r = (cmp.PAPER_TABLE2.get(cmp.paper_key(path) or "", {}) or {}).get("r", 16)
            base += grid(dataset=path, r=ds_r, folds=5, c_grid="paper")
    return base


_REPORT = dict(mode="report", expected=None)
COMPARISON = register(
    Theorem(
        id="lei2020.comparison",
        paper="lei2020",
        title="Table 2 comparison on real data: which comparative sentences (claims 17-23) our runs support",
        citation=c.citation("Sec. 4, Table 2"),
        statement="Top-r significantly beats SRHT and all data-independent methods; nps slightly beats SRHT; "
        "top-r beats nps; supervised is best among RP methods; all features best; PCA beats RP methods; RP "
        "methods faster than PCA; ISRHT only slightly slower than SRHT.",
        kind="empirical",
        variants=tuple(
            Variant(
                k,
                s,
                **_REPORT,
                assumed=(
                    "exact L1-loss dual (3) with bias via LIBSVM, not the paper's LIBLINEAR",
                    "features scaled to [-1,1] with training-fold ranges",
                    "SRHT = uniform r-subset without replacement; Gaussian variance 1/r; Achlioptas "
                        "1/6,2/3,1/6",
                    "digits: digit 8 vs rest (stand-in for usps-b, binarization unspecified)",
                ),
            )
            for k, (_, s) in _SENTENCES.items()
        ),
        profiles={
            "quick": Profile(cells=_cells("quick"), trials=3),
            "ci": Profile(cells=_cells("ci"), trials=3),
            "standard": Profile(cells=_cells("standard"), trials=15),
            "full": Profile(cells=_cells("full"), trials=15),
        },
        trial=_comparison_trial,
        decide=_comparison_decide,
        findings=(
            Finding(
                "table2_vs_text",
                "Several sentences are contradicted by the paper's own Table 2 (claims 18-20, "
                "22, 23: e.g. top-r 76.81 < SE 76.82 on real-sim, nps < SRHT on gisette, DLSS faster "
                "than all RP "
                "methods on real-sim); our runs on the same protocol are reported per sentence.",
                "c18_topr_gt_oblivious",
                "§6 item 12",
            ),
            Finding(
                "leakage",
                "The paper is silent on whether the supervised selection is refit inside CV folds; "
                "rpcheck fits every data-dependent selection inside each training fold only.",
                "c21_supervised_best",
                "§6 item 13",
            ),
        ),
    )
)


# ---------------------------------------------------------------------------------------------------------
# claim 24: gap vs r shrinks
# ---------------------------------------------------------------------------------------------------------
_ISRHT = ("srht-nps", "srht-topr", "srht-supervised")


def _rsweep_trial(params, rng):
    ds = _dataset(params["dataset"])
    rows = cmp.run_repetition(
        ds,
        r=list(params["r_values"]),
        methods=("srht", *_ISRHT),
        C_grid=_cgrid(params),
        cv_folds=params["folds"],
        rng=rng,
    )
    diag = {f"acc.{row['method']}.{row['r']}": row["accuracy"] for row in rows}
    out = {}
    for m in _ISRHT:
        gaps = [diag[f"acc.{m}.{r}"] - diag[f"acc.srht.{r}"] for r in params["r_values"]]
        out[m] = Outcome(holds=gaps[0] >= gaps[-1], statistic=gaps[0] - gaps[-1])
    return TrialRecord(outcomes=out, diagnostics=diag)


def _rsweep_decide(records, params):
    rv = list(params["r_values"])
    verdicts, info = {}, {"r_values": rv}
    for m in _ISRHT:
        gaps = [
            float(np.mean([rec.diagnostics[f"acc.{m}.{r}"] - rec.diagnostics[f"acc.srht.{r}"] for rec in records]))
            for r in rv
        ]
        rho = scipy.stats.spearmanr(rv, gaps).statistic if len(set(gaps)) > 1 else 0.0
        info[m] = {"mean_gap_by_r": gaps, "spearman_rho": float(rho)}
        verdicts[m] = Verdict.HOLDS if rho < 0 else (Verdict.VIOLATED if rho > 0 else Verdict.INCONCLUSIVE)
    return verdicts, info


RSWEEP = register(
    Theorem(
        id="lei2020.rsweep",
        paper="lei2020",
        title="Fig. 2: the accuracy gain of ISRHT over SRHT shrinks as r grows (mean gap vs r, Spearman "
            "rho < 0)",
        citation=c.citation("Sec. 4, Fig. 2"),
        statement="The improvement of the proposed methods over SRHT is largest at small r and shrinks "
            "as r grows.",
        kind="empirical",
        variants=tuple(
            Variant(m, f"mean(acc {m} - acc SRHT) decreases with r (Spearman rho < 0)", **_REPORT) for m in _ISRHT
        ),
        profiles={
            "quick": Profile(
                cells=grid(dataset="breast_cancer", r_values=[(2, 8, 32)], folds=3, c_grid="ci"), trials=2
            ),
            "ci": Profile(
                cells=grid(dataset="breast_cancer", r_values=[(2, 4, 8, 16, 32)], folds=3, c_grid="ci"),
                trials=4,
            ),
            "standard": Profile(
                cells=grid(dataset=["breast_cancer", "digits"], r_values=[(2, 4, 8, 16, 32)], folds=5, c_grid="paper"),
                trials=15,
            ),
            "full": Profile(
                cells=grid(
                    dataset=["breast_cancer", "digits", *user_files()],
                    r_values=[(2, 4, 8, 16, 32, 64)],
                    folds=5,
                    c_grid="paper",
                ),
                trials=15,
            ),
        },
        trial=_rsweep_trial,
        decide=_rsweep_decide,
    )
)


# ---------------------------------------------------------------------------------------------------------
# claim 25: stability over the (C, r) grid
# ---------------------------------------------------------------------------------------------------------
def _stability_trial(params, rng):
    ds = _dataset(params["dataset"])
    rows = cmp.fixed_grid_repetition(ds, r_values=params["r_values"], C_grid=_cgrid(params), rng=rng)
    diag = {f"acc.{x['method']}.{x['r']}.{x['C']!r}": x["accuracy"] for x in rows}
    out = {}
    for m in ("srht-nps", "srht-topr"):
        ge = [diag[k] >= diag[k.replace(m, "srht", 1)] for k in diag if k.startswith(f"acc.{m}.")]
        out[m] = Outcome(holds=np.mean(ge) > 0.5, statistic=float(np.mean(ge)))
    return TrialRecord(outcomes=out, diagnostics=diag)


def _stability_decide(records, params):
    rows = []
    for rec in records:
        for k, v in rec.diagnostics.items():
            _, m, r, C = k.split(".", 3)
            rows.append({"method": m, "r": int(r), "C": float(C), "accuracy": v})
    st = cmp.stability_table(pd.DataFrame(rows))
    frac = st.attrs["fraction"]
    verdicts = {m: Verdict.HOLDS if frac[m] > 0.5 else Verdict.VIOLATED for m in ("srht-nps", "srht-topr")}
    return verdicts, {
        "fraction_ge_srht": frac,
        "grid_points": int(len(st) // 2),
        "mean_std_across_reps": st.groupby("method")["acc_std"].mean().to_dict(),
    }


STABILITY = register(
    Theorem(
        id="lei2020.stability",
        paper="lei2020",
        title="Fig. 3: ISRHT accuracy >= SRHT accuracy at more than half of the (C, r) grid points",
        citation=c.citation("Sec. 4, Fig. 3"),
        statement="Over C in {2^-5..2^5} x r in {d/64..d/2}, the points (SRHT acc, ISRHT acc) lie above "
            "y = x.",
        kind="empirical",
        variants=tuple(
            Variant(
                m,
                f"fraction of grid points with mean acc({m}) >= mean acc(SRHT) > 1/2",
                **_REPORT,
                assumed=("breast_cancer (d'=32) stands in for mushrooms at ci",),
            )
            for m in ("srht-nps", "srht-topr")
        ),
        profiles={
            "quick": Profile(cells=grid(dataset="breast_cancer", r_values=[(4, 16)], c_grid="ci"), trials=2),
            "ci": Profile(cells=grid(dataset="breast_cancer", r_values=[(2, 4, 8, 16)], c_grid="ci"), trials=4),
            "standard": Profile(
                cells=grid(dataset=["breast_cancer", *user_files()], r_values=[(2, 4, 8, 16, 32, 64)], c_grid="paper"),
                trials=15,
            ),
            "full": Profile(
                cells=grid(
                    dataset=["breast_cancer", "digits", *user_files()],
                    r_values=[(2, 4, 8, 16, 32, 64)],
                    c_grid="paper",
                ),
                trials=15,
            ),
        },
        trial=_stability_trial,
        decide=_stability_decide,
    )
)


# ---------------------------------------------------------------------------------------------------------
# claims 17-23 on the paper's OWN Table 2 ([TABLE] arithmetic, spec §5)
# ---------------------------------------------------------------------------------------------------------
def _paper_summary(key):
    t = cmp.PAPER_TABLE2[key]
    rows = []
    for m in cmp.METHODS:
        mean, std, tm = t.get(m, (None, None, None))
        if mean is None:
            continue
        rows.append(
            {
                "r": t["r"],
                "method": m,
                "acc_mean": mean,
                "acc_std": std if std is not None else 0.0,
                "time_mean": tm,
                "reps": 15,
            }
        )
    return pd.DataFrame(rows)


def _table2_trial(params, rng):
    claims = cmp.assess_claims(_paper_summary(params["dataset"]))
    out = {}
    for v, (claim, sentence) in _SENTENCES.items():
        if v == "c21_largest_ge_srht":
            continue  # the paper has no "largest b" column
        row = claims[(claims["claim"] == claim) & (claims["sentence"] == sentence)]
        ok = None if not len(row) else row["supported"].iloc[0]
        out[v] = Outcome(holds=bool(ok), vacuous=ok is None)
    return TrialRecord(outcomes=out)


#: Expected verdicts from spec §5 claims 17-23 (p-values there: Welch with n = 15, sample std).
_T2_EXPECTED = {
    "c17_topr_gt_srht": {k: Verdict.HOLDS for k in cmp.PAPER_TABLE2},
    "c18_topr_gt_oblivious": {
        "real-sim": Verdict.VIOLATED,
        "mushrooms": Verdict.HOLDS,
        "usps-b": Verdict.HOLDS,
        "gisette": Verdict.HOLDS,
        "rcv1-binary": Verdict.HOLDS,
        "news20-binary": Verdict.HOLDS,
    },
    "c19_nps_gt_srht": {
        "gisette": Verdict.VIOLATED,
        "news20-binary": Verdict.VIOLATED,
        "mushrooms": Verdict.HOLDS,
        "usps-b": Verdict.HOLDS,
        "real-sim": Verdict.HOLDS,
        "rcv1-binary": Verdict.HOLDS,
    },
    "c20_topr_gt_nps": {
        "mushrooms": Verdict.VIOLATED,
        "usps-b": Verdict.VIOLATED,
        "gisette": Verdict.HOLDS,
        "real-sim": Verdict.HOLDS,
        "rcv1-binary": Verdict.HOLDS,
        "news20-binary": Verdict.HOLDS,
    },
    "c21_supervised_best": {k: Verdict.HOLDS for k in cmp.PAPER_TABLE2},
    "c22_all_best": {k: Verdict.HOLDS for k in cmp.PAPER_TABLE2},
    "c22_pca_gt_rp": {
        "mushrooms": Verdict.VIOLATED,
        "usps-b": Verdict.VIOLATED,
        "gisette": Verdict.HOLDS,
        "real-sim": Verdict.HOLDS,
        "rcv1-binary": Verdict.HOLDS,
        "news20-binary": Verdict.VACUOUS,
    },
    # spec claim 23 names the PCA comparison only through DLSS/Gaussian timings; we report it
    "c23_rp_faster_than_pca": {"news20-binary": Verdict.VACUOUS},
    # spec claim 23: contradicted on real-sim (44.3 vs 23.3), rcv1 (1.0 vs 0.5), usps-b (nps 0.6 vs 0.3)
    "c23_isrht_time": {"real-sim": Verdict.VIOLATED, "rcv1-binary": Verdict.VIOLATED, "usps-b": Verdict.VIOLATED},
}


def _t2_expected(v):
    return lambda p: _T2_EXPECTED[v].get(p["dataset"])


TABLE2 = register(
    Theorem(
        id="lei2020.table2",
        paper="lei2020",
        title="The paper's comparative sentences checked against its OWN Table 2 (claims 17-23, [TABLE])",
        citation=c.citation("Sec. 4, Table 2 and the text around it"),
        statement="Same sentences as lei2020.comparison, evaluated on the published means/stds/times "
        "(Welch with n = 15 per method, std read as the sample std).",
        kind="deterministic",
        variants=tuple(
            Variant(
                k,
                s,
                expected=_t2_expected(k),
                assumed=("'slightly increases running time' read as ratio <= 1.5",) if k == "c23_isrht_time" else (),
            )
            for k, (_, s) in _SENTENCES.items()
            if k != "c21_largest_ge_srht"
        ),
        profiles={
            p: Profile(cells=grid(dataset=list(cmp.PAPER_TABLE2)), trials=1)
            for p in ("quick", "ci", "standard", "full")
        },
        trial=_table2_trial,
        findings=(
            Finding(
                "t2_real_sim",
                "Top-r does not beat Sparse Embedding on real-sim in the paper's own Table 2 (76.81 vs "
                    "76.82).",
                "c18_topr_gt_oblivious",
                "§6 item 12",
            ),
            Finding(
                "t2_nps",
                "ISRHT-nps is worse than SRHT on gisette and news20 in Table 2.",
                "c19_nps_gt_srht",
                "§6 item 12",
            ),
            Finding(
                "t2_topr_nps",
                "Top-r is not better than nps on mushrooms and usps-b in Table 2.",
                "c20_topr_gt_nps",
                "§6 item 12",
            ),
            Finding(
                "t2_pca",
                "PCA is not better than ISRHT-supervised on mushrooms and usps-b in Table 2.",
                "c22_pca_gt_rp",
                "§6 item 12",
            ),
            Finding(
                "t2_time",
                "ISRHT running times are up to ~2x SRHT's in Table 2 (real-sim, rcv1, usps-b).",
                "c23_isrht_time",
                "§6 items 12, 16",
            ),
        ),
    )
)

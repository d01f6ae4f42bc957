r"""Lei & Lan (2020), claims 17-23 on real data (Sec. 4, "Experimental Results", Table 2), ``lei2020.comparison``:
which comparative sentences of Sec. 4 our runs of the Table 2 protocol support (mode "report").

One trial = one repetition of the Table 2 protocol (random stratified split, [-1, 1] scaling from the
training part, C by CV inside the training part, selections fitted inside each fold, exact L1-loss SVM with
bias, KKT-certified solve_svc). ``decide`` rebuilds the summary (mean +- std, Welch tests vs SRHT), puts the paper's
Table 2 beside it when the data set is one of the paper's, and turns each comparative sentence into a
verdict by the sign test of ``_empirical.sign_decide``: HOLDS (our runs support it), VIOLATED (they
contradict it), INCONCLUSIVE (not decidable). The data sets (bundled; the paper's mushrooms, usps, gisette
files in the Table 2 cells when given by ``--data NAME=PATH`` or fetched, parameter ``data_source``; user files of the
deprecated ``RPCHECK_LEI2020_DATA`` at standard/full) are described in ``rpcheck.papers.lei2020._empirical``.

Stand-ins of Table 2's dense sets (audit row L2)
------------------------------------------------
The repository ships none of the paper's six LIBSVM files. So that Table 2's numbers for mushrooms, usps-b
and gisette (r = 16, 16, 256) stand beside a run of the same protocol at the paper's size, the ``dataset``
parameter also accepts ``"standin:<set>"``: the synthetic stand-in ``rpcheck.standins.lei2020_like(<set>,
split="all")`` at Table 3's shape (mushrooms 8,124 x 112, usps-b 9,298 x 256, gisette 7,000 x 5,000), generated
once per process from a fixed seed like a fixed data set, **NOT the real data**; ``"standin:<set>:<n>"`` is the
same generator with ``n`` rows at Table 3's width (the cheaper cells, named so in every row). Each repetition
holds out Table 3's test share (2,124 / 8,124, 2,007 / 9,298, 1,000 / 7,000; at Table 3's shape exactly Table 3's
test rows) instead of 0.3. Everything else is this module's trial and decide, unchanged (one code path for
bundled, user-file and stand-in cells): the full-data "all" baseline, PCA, the seven random projections of Table
2 and the printed "largest b" rule, C by CV inside the training part with every selection refit per fold, the
exact L1-loss SVM with bias (KKT-certified ``solve_svc``). A stand-in cell also runs DLSS
(``rpcheck.compare.DLSS_METHODS``: the ``r`` features of largest rank-``k`` leverage score by randomized SVD,
``lei2020.dlss``'s method) at the three ranks ``k`` = r/4, r/2, r -- **an assumption: the paper does not give
k**, stated in each DLSS row (``dlss_rank``) and in the assumed list -- after the other methods, so their seeds
and results are those of a cell without DLSS; Table 2's one DLSS number stands beside each rank. DLSS enters no
sentence of this theorem (the sentences compare the same methods in every cell; DLSS's sentences are
``lei2020.dlss``'s); bundled and user-file cells run without DLSS. Why an option of this theorem
and not a new one: the protocol, the sentences and the summary stay single-sourced, and the stand-in cells are
just more cells.

Rows of a stand-in cell: per method the paper's Table 2 mean +- std (real data, 15 runs) beside ours (mean, std,
and ``acc_mean_se`` = std / sqrt(repetitions), the report's 99% interval of ours - paper), with the data
column "synthetic stand-in of <set> ..., NOT the real data" and the protocol (split, folds, C grid, solver). The
paper's numbers are put beside ours only at Table 2's r. Those differences are measurements, not verdicts: the
stand-in's model (``rpcheck.standins``: mushrooms one-hot with 3 class-dependent attributes, usps-b smooth
prototypes plus noise, gisette a planted 50-feature hyperplane among 5,000 uniform features) is ours, so no
accuracy level and no ordering of Table 2 is implied by it; every sentence row stays mode "report" with expected
None (a stand-in gives no basis for expecting the paper's orderings), decided by the same sign test. With no
expected HOLDS there is no control to plant (none is added, as for the bundled cells).

Profiles of the stand-in cells (after the bundled cells; a cell's seeds depend on its parameters only, so
the other cells' results do not depend on them): ``ci`` mushrooms 300, usps-b 300, gisette 150 rows at Table 3's width,
3-fold CV over the 4-value ci C grid, 3 repetitions; ``standard`` mushrooms and usps-b with 1,000 rows, 5-fold CV
over the paper's C grid {2^-5, ..., 2^5}, 15 repetitions (gisette is left out: 103 CPU s a repetition at
1,000 rows, 26 CPU min for 15); ``full`` all three at Table 3's shape, 5-fold CV over the paper's grid, 15
repetitions (the paper's 15 runs).

CPU s per repetition (``time.process_time`` in one process after the kernels' warm-up, on a shared 2-core
machine, so indicative only): ci cells mushrooms 300
rows 0.6, usps-b 300 rows 0.6, gisette 150 rows 1.2 (the three ci cells with 3 repetitions and their decide:
about 9-10 CPU s); standard settings, 1,000 rows: mushrooms 6.8, usps-b 3.5, gisette 103; full settings at
Table 3's shape: mushrooms 16.5, usps-b 24.9; gisette, measured per method (each method's CV and final fit):
SRHT 38, PCA 93, Gaussian 77, Achlioptas 56, CountSketch 53, ISRHT-nps 28, ISRHT-top-r 74, ISRHT-supervised 79
(the printed "largest b" rule not measured), so about 550-600 for the nine projections; for "all" the
certified dual on the 4,800 x 5,000 fold data
(Woodbury IPM, O(n k^2) per iteration with k = min(n, d) = 4,800) takes 0.7 CPU s for one cold solve at 800
rows and 3.2 at 1,600 (a factor 4.5 for twice the rows), so about 30-90 CPU s a cold solve
at 4,800 rows and at most 56 cold solves a repetition (warm starts along each fold's C grid save an
unmeasured share). Estimated ``full`` cost of the three cells (15 repetitions): mushrooms 4 CPU min, usps-b 6
CPU min, gisette 15 x (about 550 s + up to 28-84 min for "all"), i.e. about 2 to 23 CPU h, dominated by
gisette's full-data baseline (an estimate from the measurements above).

DLSS in the stand-in cells (measured the same way): the three ranks together add per
repetition at ci mushrooms 0.14, usps-b 0.13, gisette 0.82 CPU s (the cells' other methods 1.23, 0.57, 1.24 in the
same process), so about 3.3 CPU s on the ci run (3 repetitions); at full (Table 3's shape, 5-fold CV over the
paper's 11 C values) mushrooms 1.4, usps-b 4.9, gisette 242 CPU s (k = 64, 128, 256: about 85-106 s each, like one
random projection), i.e. about +40% on gisette's nine projections and small beside its "all" baseline.
"""

from __future__ import annotations

import math

from ... import compare as cmp
from ...engine import Finding, Outcome, Theorem, TrialRecord, Variant, grid, register
from ...stats import printed_mean_test
from . import _common as c
from . import _empirical as E

__all__ = ["THEOREM", "trial", "decide", "sentence_outcomes"]


def methods_of(dataset):
    """The methods of a cell: :data:`rpcheck.compare.METHODS` (all, PCA, the seven random projections and the
    printed "largest b" rule); a stand-in cell also the three DLSS ranks (:data:`rpcheck.compare.DLSS_METHODS`)
    AFTER them, so every other method draws the same seed as in a cell without DLSS (``run_repetition`` draws one per
    method in order)."""
    return cmp.METHODS + cmp.DLSS_METHODS if E.parse_standin(dataset) is not None else cmp.METHODS


def trial(params, rng):
    ds = E._dataset(params["dataset"], params.get("data_source", "auto"))
    rows = cmp.run_repetition(ds, r=params["r"], methods=methods_of(params["dataset"]), C_grid=E._cgrid(params),
                              cv_folds=params["folds"], test_size=E.test_size(params["dataset"]), rng=rng)
    diag = {}
    for row in rows:
        diag[f"acc.{row['method']}"] = row["accuracy"]
        diag[f"time.{row['method']}"] = row["seconds"]
        diag[f"C.{row['method']}"] = row["C"]
    return TrialRecord(outcomes=sentence_outcomes(diag), diagnostics=diag)


def sentence_outcomes(diag):
    """Per-repetition outcome of every sentence from the diagnostics ``acc.<method>``/``time.<method>``:
    the repetition supports the sentence when the difference is > 0 (>= 0 for 'at least as good')."""
    a = lambda m: diag[f"acc.{m}"]  # noqa: E731
    # the sentences are over the comparison pipeline's methods; a stand-in cell's DLSS ranks are measurements here
    # (their sentences are lei2020.dlss's), so "all best" compares with the same methods in every cell
    acc = {k[4:]: v for k, v in diag.items() if k.startswith("acc.") and k[4:] in cmp.METHODS}
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
    return {
        k: Outcome(holds=bool(v > 0 or (v >= 0 and k == "c21_largest_ge_srht")), statistic=float(v))
        for k, v in per.items()
    }


def _raw_from_records(records, prefix="acc."):
    import pandas as pd
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


def decide(records, params):
    """Per sentence, :func:`E.sign_decide` over the repetitions (a repetition supports a sentence when its
    accuracy difference is > 0, resp. >= 0 for the 'at least as good' sentence); the Table 2 style summary
    (mean +- std, Welch tests, the paper's numbers) and ``compare.assess_claims`` go to ``info`` as
    measurements."""
    verdicts, claim = E.sign_decide(records, list(E._SENTENCES))
    st = E.parse_standin(params["dataset"])
    data = params.get("data_source", "auto")
    src = E.source(params["dataset"], data)
    if st is None:
        ds = E._dataset(params["dataset"])
        name, d, key = ds.name, ds.d, cmp.paper_key(ds.name)
    else:  # the paper's row of the set (real or its stand-in), at Table 2's r only (module docstring)
        name = st[0] if src.real else f"{st[0]}-standin"
        d = E._dataset(params["dataset"], data).d if src.real else E.dataset_dim(params["dataset"])
        key = st[0] if params["r"] == cmp.PAPER_TABLE2[st[0]]["r"] else None
    info = {"claim": claim, "dataset": name, "paper_dataset": key or "",
            "data": E.data_label(params["dataset"], name, data)}
    if len(records) >= 2:
        raw = _raw_from_records(records)
        raw["r"] = params["r"]
        raw.loc[raw["method"] == "all", "r"] = d
        summary = cmp.summarize(raw, dataset=name if st is None else key)
        info["summary"] = summary.round(4).to_dict("records")
        for rec in info["summary"]:  # the paper's Table 2 beside ours under the names the report pairs
            for ours, paper in (("acc_mean", "paper_mean"), ("acc_std", "paper_std"), ("time_mean", "paper_time")):
                if rec.get(paper) is not None:
                    rec[f"paper_{ours}"] = rec[paper]
            # standard error of the mean accuracy over the repetitions: the report's 99% interval of ours - paper
            std, reps = rec.get("acc_std"), rec.get("reps")
            if isinstance(std, float) and math.isfinite(std) and isinstance(reps, int | float) and reps > 1:
                rec["acc_mean_se"] = round(std / math.sqrt(reps), 4)
            if rec.get("method") in cmp.DLSS_METHODS:  # the assumed rank, stated in the row (module docstring)
                rec["dlss_rank"] = _dlss_rank_text(rec["method"], params)
            if src is not None and src.real and key and rec.get("paper_acc_mean") is not None:
                acc = [r.diagnostics.get(f"acc.{rec.get('method')}", math.nan) for r in records]
                rec["acc_mean_agrees"] = printed_mean_test(acc, rec["paper_acc_mean"], 0.01)[0]
        info["claims_on_means"] = cmp.assess_claims(summary).to_dict("records")
    info["sentences"] = E.sentence_rows(
        records, verdicts,
        {v: f"'{s}' (Sec. 4, Experimental Results; paraphrased)" for v, (_, s) in E._SENTENCES.items()},
    )
    info["protocol"] = (
        f"{len(records)} repetitions, "
        + (f"stratified split with a test part of {E.test_size(params['dataset'])} rows (Table 3's share), "
           if st is not None else "")
        + f"{params['folds']}-fold CV over C in {list(E._cgrid(params))}, "
        "exact L1-loss SVM with bias (KKT-certified solve_svc), selections fitted inside each fold"
    )
    if src is not None and src.real and key:
        info["verdict_rule"] = ("acc_mean_agrees (real data): two-sided one-sample t test of our mean accuracy over "
                                "the repetitions against Table 2's printed mean (rpcheck.stats.printed_mean_test), "
                                "level 0.01 per number, P(false DISAGREES) = 0.01 per row; the paper's LIBLINEAR "
                                "and its unstated usps-b rule are not ours, so a DISAGREES may come from them")
    return verdicts, info


def _dlss_rank_text(method, params):
    """The rank ``k`` of a DLSS row as a sentence: ``k = max(1, r // m)``, capped at ``min(n, d)`` of the data the
    selection is fitted on (``rpcheck.compare.dlss_rank``); the paper does not give ``k``."""
    st = E.parse_standin(params["dataset"])
    r, d = int(params["r"]), E.dataset_dim(params["dataset"])
    frac = {"dlss-r/4": "r/4", "dlss-r/2": "r/2", "dlss-r": "r"}[method]
    k = cmp.dlss_rank(method, r, 10**9, d)
    text = f"k = {frac} = {k}"
    if st is not None:
        n_train = st[1] - E.test_size(params["dataset"])
        n_fold = n_train * (params["folds"] - 1) // params["folds"]  # about (fold sizes differ by one)
        k_fold, k_train = (cmp.dlss_rank(method, r, n, d) for n in (n_fold, n_train))
        if k_fold < k:
            text += (f", capped at min(n, d): about {k_fold} inside a CV fold (about {n_fold} rows) and {k_train} "
                     f"for the final fit ({n_train} training rows)")
    return text + " (assumed: the paper does not give DLSS's rank k; swept over r/4, r/2, r)"


#: rows of the reduced stand-in cells (Table 3's width kept): ci and standard (module docstring, measured costs)
CI_ROWS = {"mushrooms": 300, "usps-b": 300, "gisette": 150}
#: standard: mushrooms and usps-b only (gisette's 1,000-row repetition costs 103 CPU s, module docstring)
STANDARD_ROWS = {"mushrooms": 1000, "usps-b": 1000}


def standin_cells(rows=None, data="auto", **kw):
    """One cell per dense Table 2 set (:data:`E.STANDIN_SETS`) at Table 2's r, on the real file when present
    (``data``: "real" requires it) else its stand-in: with ``rows[set]`` rows at Table 3's width for the sets in
    ``rows``, at Table 3's shape for all three when ``rows`` is None."""
    keys = E.STANDIN_SETS if rows is None else [k for k in E.STANDIN_SETS if k in rows]
    return tuple(
        dict(dataset=E.standin_name(k, None if rows is None else rows[k]), r=cmp.PAPER_TABLE2[k]["r"],
             data_source=f"real:{E.REGISTRY_NAME[k]}" if data == "real" else data, **kw)
        for k in keys
    )


def _cells(profile):
    if profile == "paper":  # Table 2's protocol on the paper's files at Table 3's shape, 5-fold CV, 15 runs
        return standin_cells(None, data="real", folds=5, c_grid="paper")
    base = {
        "quick": grid(dataset="breast_cancer", r=8, folds=3, c_grid="ci"),
        "ci": grid(dataset="breast_cancer", r=8, folds=3, c_grid="ci")
        + grid(dataset="digits", r=16, folds=3, c_grid="ci"),
        "standard": grid(dataset=["breast_cancer", "digits"], r=[8, 16], folds=5, c_grid="paper"),
        "full": grid(dataset=["breast_cancer", "digits"], r=[4, 8, 16], folds=5, c_grid="paper"),
    }[profile]
    # the stand-ins of Table 2's dense sets after the bundled cells (the cells' seeds depend on their parameters only)
    base += {
        "quick": (),
        "ci": standin_cells(CI_ROWS, folds=3, c_grid="ci"),
        "standard": standin_cells(STANDARD_ROWS, folds=5, c_grid="paper"),
        "full": standin_cells(None, folds=5, c_grid="paper"),
    }[profile]
    return E.with_user_files(base, profile)


THEOREM = register(
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
                **E._REPORT,
                assumed=(
                    "exact L1-loss dual (3) with bias, KKT-certified (solve_svc), not the paper's LIBLINEAR",
                    "features scaled to [-1,1] with training-fold ranges",
                    "SRHT = uniform r-subset without replacement; Gaussian variance 1/r; Achlioptas "
                        "1/6,2/3,1/6",
                    "digits: digit 8 vs rest (stand-in for usps-b, binarization unspecified)",
                    "stand-in cells also run DLSS (measurement rows beside Table 2's one DLSS number) at the "
                        "ranks k = r/4, r/2, r: the paper does not give k; DLSS is not part of any sentence here",
                ),
            )
            for k, (_, s) in E._SENTENCES.items()
        ),
        profiles=E.comparison_profiles(_cells, ci_trials=3, paper=True),
        trial=trial,
        decide=decide,
        parameters={**E._CMP_PARAMS, "dataset": E.P_DATASET_STANDIN, "data_source": E.P_DATA},
        constraints=(E.C_DATASET_STANDIN, E._R_LE_D, E.C_DATA),
        findings=(
            Finding(
                "table2_vs_text",
                "Several sentences are contradicted by the paper's own Table 2 (claims 18-20, 22, 23: e.g. top-r "
                "76.81 < SE 76.82 on real-sim, nps < SRHT on gisette, DLSS faster than all RP methods on real-sim); "
                "our runs on the same protocol are reported per sentence.",
                evidence_variant="c18_topr_gt_oblivious",
                location="Experiments, 'Experimental Results' paragraph, against Table 2",
                quote="our proposed ISRHT-(top-k) method achieves significant higher accuracies than other four "
                "data-independent random projection methods (i.e., Gaussian, Achlioptas, Sparse Embedding and SRHT) "
                "on all six datasets",
                kind="paper error",
            ),
            Finding(
                "leakage",
                "The paper is silent on whether the supervised selection is refit inside CV folds; rpcheck fits "
                "every data-dependent selection inside each training fold only.",
                evidence_variant="c21_supervised_best",
                location="Experiments, 'Experimental setup' paragraph; eq. (10)",
                quote="The regularization parameter C in linear SVM is chosen from {2^-5, 2^-4, ..., 2^4, 2^5} by "
                "5-fold cross validation.",
                kind="ambiguity",
            ),
        ),
    )
)

"""The claims of Lei & Lan (2020, Sec. 4.2) read off a summary of repetitions (:func:`assess_claims`)."""

from __future__ import annotations

import numpy as np
import scipy.stats

from .methods import METHODS, RP_METHODS


def _get(summary, r, m, col="acc_mean"):
    g = summary[(summary["method"] == m) & ((summary["r"] == r) | (summary["method"] == "all"))]
    return float(g[col].iloc[0]) if len(g) else np.nan


def _better(summary, r, a, b, alpha=0.05):
    """(mean a - mean b, Welch p) from the raw means/std in the summary (two-sided)."""
    ga = summary[(summary["method"] == a) & (summary["r"] == r)]
    gb = summary[(summary["method"] == b) & (summary["r"] == r)]
    if not len(ga) or not len(gb):
        return np.nan, np.nan
    ma, sa, na = float(ga["acc_mean"].iloc[0]), float(ga["acc_std"].iloc[0]), int(ga["reps"].iloc[0])
    mb, sb, nb = float(gb["acc_mean"].iloc[0]), float(gb["acc_std"].iloc[0]), int(gb["reps"].iloc[0])
    if na < 2 or nb < 2 or not (sa > 1e-9 or sb > 1e-9):
        return ma - mb, np.nan
    t = scipy.stats.ttest_ind_from_stats(ma, sa, na, mb, sb, nb, equal_var=False)
    return ma - mb, float(t.pvalue)


def assess_claims(summary, *, alpha=0.05):
    """Which of the paper's comparative sentences (Sec. 4, text around Table 2) the summary supports.

    Returns a DataFrame with ``claim, r, sentence, supported`` (True / False / None = not decidable, e.g. a
    method not run or fewer than 2 repetitions) and ``evidence``. "Significantly" (claim 17) means a
    two-sided Welch test at level ``alpha`` (false-alarm probability alpha per sentence, no multiplicity
    correction): supported when the mean is higher and p < alpha, contradicted when the mean is not higher,
    undecided otherwise. The other sentences compare means (the paper states them without a test).
    """
    import pandas as pd
    rows = []
    methods = set(summary["method"])
    rs = sorted({int(x) for x in summary[summary["method"] != "all"]["r"]})

    def add(claim, r, sentence, ok, ev):
        rows.append({"claim": claim, "r": r, "sentence": sentence, "supported": ok, "evidence": ev})

    def pair(claim, r, a, b, sentence, rule):
        """Method ``a`` against ``b``: ``rule(diff of means, Welch p)`` decides, None when either is missing."""
        d, p = _better(summary, r, a, b)
        add(claim, r, sentence, None if np.isnan(d) else rule(d, p), f"diff {d:+.2f}, Welch p {p:.3g}")

    def beats_all(claim, r, a, others, sentence):
        """Method ``a``'s mean above that of every method in ``others``."""
        diffs = {m: _better(summary, r, a, m)[0] for m in others}
        add(claim, r, sentence, bool(min(diffs.values()) > 0), ", ".join(f"{m} {v:+.2f}" for m, v in diffs.items()))

    for r in rs:
        # supported: better and significant; contradicted: not better on average; else undecided
        pair(17, r, "srht-topr", "srht", "ISRHT-top-r is significantly better than SRHT",
             lambda d, p: True if d > 0 and p < alpha else (False if d <= 0 else None))
        base = [m for m in ("gaussian", "achlioptas", "countsketch", "srht") if m in methods]
        if "srht-topr" in methods and base:
            beats_all(18, r, "srht-topr", base, "ISRHT-top-r beats all four data-independent methods")
        pair(19, r, "srht-nps", "srht", "ISRHT-nps gets slightly better results than SRHT", lambda d, p: bool(d > 0))
        pair(20, r, "srht-topr", "srht-nps", "top-r obtains better accuracy than importance sampling (nps)",
             lambda d, p: bool(d > 0))
        rp = [m for m in RP_METHODS if m in methods and m != "srht-supervised"]
        if "srht-supervised" in methods and rp:
            beats_all(21, r, "srht-supervised", rp,
                      "ISRHT-supervised (smallest b) is best among the random projection methods")
        if "srht-supervised-largest" in methods:
            pair(21, r, "srht-supervised-largest", "srht", "[printed 'largest b' rule] is at least as good as SRHT",
                 lambda d, p: bool(d >= 0))
        others = [m for m in METHODS if m in methods and m != "all"]
        if "all" in methods and others:
            a = _get(summary, r, "all")
            add(
                22,
                r,
                "All features give the best accuracy",
                bool(all(a >= _get(summary, r, m) for m in others)),
                f"all {a:.2f} vs best other {max(_get(summary, r, m) for m in others):.2f}",
            )
        rp_run = [m for m in RP_METHODS if m in methods]
        if "pca" in methods and rp_run:
            pc = _get(summary, r, "pca")
            best = max(rp_run, key=lambda m: _get(summary, r, m))
            add(
                22,
                r,
                "PCA is better than the random projection methods",
                bool(pc >= _get(summary, r, best)),
                f"pca {pc:.2f} vs {best} {_get(summary, r, best):.2f}",
            )
            tp = _get(summary, r, "pca", "time_mean")
            slow = [m for m in rp_run if _get(summary, r, m, "time_mean") >= tp]
            add(
                23,
                r,
                "All random projection methods are more efficient than PCA",
                not slow,
                f"pca {tp:.3f}s; not faster: {slow or 'none'}",
            )
        fam = [m for m in ("srht-nps", "srht-topr", "srht-supervised") if m in methods]
        if "srht" in methods and fam:
            ts = _get(summary, r, "srht", "time_mean")
            ratios = {m: _get(summary, r, m, "time_mean") / ts for m in fam}
            add(
                23,
                r,
                "ISRHT only slightly increases running time over SRHT (ratio <= 1.5)",
                bool(max(ratios.values()) <= 1.5),
                ", ".join(f"{m} x{v:.2f}" for m, v in ratios.items()),
            )
    return pd.DataFrame(rows, columns=["claim", "r", "sentence", "supported", "evidence"])

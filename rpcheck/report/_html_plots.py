"""Plots of one variant in the HTML report (:mod:`rpcheck.report.html`): sweeps of the statistic
against the bound, ratio plots, paper-vs-rpcheck pairs, and the per-trial tables they read."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from . import plots
from ._html_base import (
    PRESCRIBED_COLUMNS,
    SWEEP_ORDER,
    _is_number,
    _key,
    _num,
    _plabel,
    _shown_verdict,
    _split_params,
    _str,
)
from ._text import fmt_num as _fmt
from .model import role as _role

# ---------------------------------------------------------------------------------------------------------
# plots of one variant


def _sweep_axis(plist):
    """The numeric parameter that varies within groups of cells whose other parameters are equal, with
    the groups: ``(name, [[row indices], ...])`` or ``(None, [])``."""
    varying, _ = _split_params(plist)
    best = (0, None, [])
    for k in varying:
        if not all(_is_number(p.get(k)) for p in plist if k in p):
            continue
        others = [o for o in varying if o != k]
        groups = {}
        for i, p in enumerate(plist):
            if k in p:
                groups.setdefault(tuple(_key(p.get(o)) for o in others), []).append(i)
        good = [g for g in groups.values() if len({_key(plist[i][k]) for i in g}) >= 2]
        score = sum(len(g) for g in good)
        rank = SWEEP_ORDER.index(k) if k in SWEEP_ORDER else len(SWEEP_ORDER)
        if good and (score, -rank) > (best[0], -(SWEEP_ORDER.index(best[1]) if best[1] in SWEEP_ORDER else 99)):
            best = (score, k, good)
    return best[1], best[2]


def _prescribed(row, params):
    for k in PRESCRIBED_COLUMNS:
        v = params.get(k, row.get(k))
        if _is_number(v):
            return float(v), k
    return None


def _variant_plots(tid, variant, mode, rows, plist, trials, varying, plotted):
    """``([(title, svg), ...], ratio rows)``: the variant's plots (sweeps of the failure rate, exact law vs
    Monte Carlo, paper vs this run) with their titles, and its statistic / bound rows (:func:`_ratio_rows`)."""
    svgs, hidden = [], []
    name = str(variant)
    if mode in ("bound", "exact"):
        x, groups = _sweep_axis(plist)
        if x is not None:
            others = [o for o in varying if o != x]
            chunks = [groups[i : i + len(plots.SERIES_COLORS)] for i in range(0, len(groups), len(plots.SERIES_COLORS))]
            for ci_, chunk in enumerate(chunks):
                series, markers = [], []
                for g in chunk:
                    g = sorted(g, key=lambda i: float(plist[i][x]))
                    s = {
                        "label": _plabel(plist[g[0]], others) or "all cells",
                        "x": [float(plist[i][x]) for i in g],
                        "y": [_num(rows[i].get("failure_rate")) for i in g],
                        "lo": [_num(rows[i].get("ci_low")) for i in g],
                        "hi": [_num(rows[i].get("ci_high")) for i in g],
                        "tips": [
                            f"{_plabel(plist[i], varying)}: {_fmt(rows[i].get('failures'))}/"
                            f"{_fmt(rows[i].get('evaluated'))} failures, {_shown_verdict(rows[i])}"
                            for i in g
                        ],
                    }
                    prom = [_num(rows[i].get("promised")) for i in g]
                    if any(math.isfinite(v) for v in prom):
                        s["promised"] = prom
                    series.append(s)
                    for i in g:
                        pr = _prescribed(rows[i], plist[i])
                        if pr and (pr[0], f"{pr[1]} = {_fmt(pr[0])} (theorem's formula)") not in markers:
                            markers.append((pr[0], f"{pr[1]} = {_fmt(pr[0])} (theorem's formula)"))
                part = f" ({ci_ + 1}/{len(chunks)})" if len(chunks) > 1 else ""
                promised_label = "exact probability" if mode == "exact" else "promised failure probability δ"
                title = f"{name}: failure rate vs {x}{part}"
                svg = plots.sweep_svg(series, x_label=x, title=title, markers=markers, promised_label=promised_label)
                svgs.append((title, svg))
    if mode == "exact":
        frows = [
            {
                "label": _plabel(p, varying) or f"cell {_fmt(r.get('cell'))}",
                "est": _num(r.get("failure_rate")),
                "lo": _num(r.get("ci_low")),
                "hi": _num(r.get("ci_high")),
                "ref": _num(r.get("promised")),
            }  # fmt: skip
            for r, p in zip(rows, plist)
        ]
        title = f"{name}: exact law vs Monte Carlo"
        svg = plots.forest_svg(frows, x_label="probability", title=title, est_label="Monte Carlo rate",
                               interval_label="exact CI", ref_label="exact law")  # fmt: skip
        svgs.append((title, svg))
    pairs = _paper_pairs(rows, plist, varying, plotted)
    for quantity, prs in pairs.items():
        title = f"{name}: {quantity}, paper vs this run"
        svg = plots.forest_svg([{"label": lab, "est": ours, "ref": paper} for lab, paper, ours in prs],
                               x_label=quantity, title=title, est_label="this run", ref_label="paper")  # fmt: skip
        svgs.append((title, svg))
    ratio = _ratio_rows(tid, variant, rows, plist, varying, trials)
    control = bool(rows) and _role(rows[0]) == "control"
    for r in ratio:  # plotted once per theorem (_ratio_plot), each row labelled with its variant
        r["label"] = f"{name} · {r['label']}"
        r["control"] = control
    hidden.extend(ratio)
    return [(t, s) for t, s in svgs if s], hidden


#: Rows per statistic/bound plot (a theorem with more cells gets several plots in the same collapsed block).
RATIO_ROWS_PER_PLOT = 60


def _ratio_plot(ratios):
    """One collapsed block per theorem: the quantiles of statistic / bound over the trials of every cell of
    every variant (one forest row each, labelled "variant · cell"), against the claim's line at 1."""
    if not ratios:
        return ""
    # the negative controls (built to exceed the bound, often by orders of magnitude) on their own axis
    chunks = []
    for group, what in (([r for r in ratios if not r.get("control")], ""),
                        ([r for r in ratios if r.get("control")], ", negative controls")):  # fmt: skip
        parts = [group[i : i + RATIO_ROWS_PER_PLOT] for i in range(0, len(group), RATIO_ROWS_PER_PLOT)]
        chunks += [(c, what + (f" ({k + 1}/{len(parts)})" if len(parts) > 1 else "")) for k, c in enumerate(parts)]
    svgs = [
        plots.forest_svg(
            chunk,
            x_label="statistic / bound per trial",
            title="statistic / bound per cell" + suffix,
            est_label="median",
            interval_label="5%–95% of trials",
            ref_label="max",
            ref_line=1.0,
            ref_line_label="claim: ≤ 1",
            log=10,
            width=760,
            label_width=300,
        )  # fmt: skip
        for chunk, suffix in chunks
    ]
    return (
        f"<details><summary>Distribution of statistic / bound per cell ({len(ratios)} cells, every variant)</summary>"
        '<div class="plots">' + "".join(svgs) + "</div></details>"
    )


def _paper_pairs(rows, plist, varying, plotted):
    """``{quantity: [(label, paper value, our value)]}`` from ``decide_info`` keys ``paper_<q>`` beside
    ``<q>`` (reproductions of a paper's table)."""
    out = {}
    seen = set()

    def walk(d, path):
        if not isinstance(d, dict):
            return
        for k, v in d.items():
            if isinstance(k, str) and k.startswith("paper_") and k[6:] in d:
                ours = d[k[6:]]
                if _is_number(v) and _is_number(ours):
                    key = (k[6:], "/".join(path))
                    if key not in seen:
                        seen.add(key)
                        out.setdefault(k[6:], []).append(("/".join(path) or "value", float(v), float(ours)))
            elif isinstance(v, dict):
                walk(v, [*path, str(k)])

    for r, p in zip(rows, plist):
        s = r.get("decide_info")
        if isinstance(s, str) and "paper_" in s and s not in plotted:
            plotted.add(s)
            try:
                data = json.loads(s)
            except (ValueError, RecursionError):
                continue
            lab = _plabel(p, varying)
            walk(data, [lab] if lab else [])
    return out


class _Trials:
    """The sampled trials per theorem: ``RunResult.trial_tables`` (one table per theorem), or a one-table
    ``trials`` frame split once by theorem (row indices; selecting a few columns first keeps it fast)."""

    def __init__(self, trials=None, tables=None):
        self.tables = {_str(k): v for k, v in (tables or {}).items()}
        self.df = trials if trials is not None and len(trials) and {"theorem", "cell"} <= set(trials.columns) else None
        self.index = {}
        if self.df is not None:
            keys = [_str(x) for x in self.df["theorem"]]
            for i, k in enumerate(keys):
                self.index.setdefault(k, []).append(i)

    def columns(self, tid, cols):
        """``cell`` and ``cols`` of theorem ``tid``'s trials, or None when a column is absent."""
        t = self.tables.get(tid)
        if t is not None:
            return t[["cell", *cols]] if len(t) and all(c in t.columns for c in cols) else None
        if self.df is None or tid not in self.index or any(c not in self.df.columns for c in cols):
            return None
        return self.df[["cell", *cols]].iloc[self.index[tid]]


def _ratio_rows(tid, variant, rows, plist, varying, trials):
    """Per cell: quantiles of statistic / bound over the ok trials (only where every bound is > 0)."""
    s_col, b_col = f"{variant}.statistic", f"{variant}.bound"
    sub = trials.columns(tid, [s_col, b_col]) if trials is not None else None
    if sub is None or sub.empty:
        return []
    t = pd.DataFrame(
        {
            "cell": sub["cell"].to_numpy(),
            "s": pd.to_numeric(sub[s_col], errors="coerce").to_numpy(float),
            "b": pd.to_numeric(sub[b_col], errors="coerce").to_numpy(float),
        }
    )
    t = t[np.isfinite(t["s"]) & np.isfinite(t["b"]) & (t["b"] > 0)]
    if t.empty:
        return []
    t["q"] = t["s"] / t["b"]
    g = t.groupby("cell")["q"]
    qs = g.quantile([0.05, 0.5, 0.95]).unstack()
    mx = g.max()
    cnt = g.size()
    out = []
    for r, p in zip(rows, plist):
        c = r.get("cell")
        if c not in qs.index or cnt.get(c, 0) < 5:
            continue
        out.append(
            {
                "label": _plabel(p, varying) or f"cell {_fmt(c)}",
                "est": float(qs.loc[c, 0.5]),
                "lo": float(qs.loc[c, 0.05]),
                "hi": float(qs.loc[c, 0.95]),
                "ref": float(mx[c]),
                "tip": f"{int(cnt[c])} trials",
            }  # fmt: skip
        )
    return out



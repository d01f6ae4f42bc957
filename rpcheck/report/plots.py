"""Inline SVG plots for the HTML report (matplotlib, Agg backend, no files, no network).

Every function takes plain pandas data produced by the engine and returns an ``<svg>`` string, or ``""``
when there is nothing worth plotting."""

from __future__ import annotations

import io
import re

import numpy as np

__all__ = ["failure_rate_svg", "statistic_svg", "constants_svg", "to_svg"]

_COLORS = {"HOLDS": "#1b7f3b", "VIOLATED": "#b3261e", "INCONCLUSIVE": "#b8860b", "VACUOUS": "#6b6b6b"}


def _figure(width=6.0, height=3.0):
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "rpcheck"  # deterministic element ids
    plt.rcParams["svg.fonttype"] = "none"  # text stays text (searchable, small)
    fig, ax = plt.subplots(figsize=(width, height), dpi=96)
    return fig, ax


def to_svg(fig, *, prefix="f"):
    """Serialise a figure to an inline ``<svg>`` element (no XML prolog); element ids are prefixed so
    several plots can live in one HTML document without id collisions."""
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    svg = buf.getvalue()
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r'id="([^"]+)"', lambda m: f'id="{prefix}-{m.group(1)}"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}-{m.group(1)})", svg)
    svg = re.sub(r'xlink:href="#([^"]+)"', lambda m: f'xlink:href="#{prefix}-{m.group(1)}"', svg)
    svg = re.sub(r'(?<!:)href="#([^"]+)"', lambda m: f'href="#{prefix}-{m.group(1)}"', svg)
    return svg


def failure_rate_svg(cells, x, *, prefix, title=""):
    """Empirical failure rate against the numeric parameter column ``x`` (e.g. ``p_r``), with exact
    confidence-interval bars and the promised bound, one series per remaining parameter combination.

    ``cells`` are rows of ``RunResult.cells`` for one theorem variant."""
    if x not in cells or len(cells) < 2:
        return ""
    xs = cells[x]
    if not np.issubdtype(np.asarray(xs).dtype, np.number) or xs.nunique() < 2:
        return ""
    other = [c for c in cells.columns if c.startswith("p_") and c != x and cells[c].nunique() > 1]
    fig, ax = _figure()
    groups = cells.groupby(other, dropna=False) if other else [((), cells)]
    for key, g in groups:
        g = g.sort_values(x)
        rate = g["failure_rate"].to_numpy(float)
        lo = np.clip(rate - g["ci_low"].to_numpy(float), 0, None)
        hi = np.clip(g["ci_high"].to_numpy(float) - rate, 0, None)
        label = ", ".join(f"{c[2:]}={v}" for c, v in zip(other, key if isinstance(key, tuple) else (key,)))
        ax.errorbar(g[x], rate, yerr=[lo, hi], marker="o", ms=3, capsize=3, lw=1, label=label or "rate")
        if "promised" in g and g["promised"].notna().any():
            ax.plot(g[x], g["promised"], ls="--", lw=1, color="k", alpha=0.6)
    ax.set_xlabel(x[2:] if x.startswith("p_") else x)
    ax.set_ylabel("failure rate (exact CI)")
    if (xs > 0).all() and xs.max() / max(xs.min(), 1e-300) > 8:
        ax.set_xscale("log", base=2)
    ax.set_ylim(-0.02, 1.02)
    if title:
        ax.set_title(title, fontsize=9)
    if other:
        ax.legend(fontsize=7, loc="best")
    ax.grid(alpha=0.3)
    return to_svg(fig, prefix=prefix)


def _hist(ax, vals):
    """Histogram that also copes with (nearly) constant data, where equal-width bins cannot be formed."""
    bins = min(40, max(10, vals.size // 5))
    lo, hi = float(vals.min()), float(vals.max())
    scale = max(abs(lo), abs(hi), 1e-300)
    if hi - lo <= 1e-9 * scale:
        half = max(1e-6 * scale, 1e-12)
        ax.hist(vals, bins=1, range=(lo - half, hi + half), color="#4a6fa5", alpha=0.85)
    else:
        ax.hist(vals, bins=bins, range=(lo, hi), color="#4a6fa5", alpha=0.85)


def statistic_svg(trials, variant, *, prefix, title=""):
    """Distribution of ``statistic / bound`` over trials (claims read ``statistic <= bound``, so mass to
    the right of 1 is a failure), or of the statistic alone when no finite bound is recorded."""
    s_col, b_col = f"{variant}.statistic", f"{variant}.bound"
    if s_col not in trials:
        return ""
    s = trials[s_col].to_numpy(float)
    b = trials[b_col].to_numpy(float) if b_col in trials else np.full_like(s, np.nan)
    ok = np.isfinite(s)
    if ok.sum() < 5:
        return ""
    fig, ax = _figure(5.0, 2.6)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = s / b
    if np.isfinite(ratio).sum() >= 5 and np.all(b[np.isfinite(ratio)] > 0):
        vals = ratio[np.isfinite(ratio)]
        _hist(ax, vals)
        ax.axvline(1.0, color=_COLORS["VIOLATED"], lw=1.2, ls="--")
        ax.set_xlabel("statistic / bound (claim: <= 1)")
    else:
        vals = s[ok]
        _hist(ax, vals)
        ax.set_xlabel("statistic")
    ax.set_ylabel("trials")
    if title:
        ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3)
    return to_svg(fig, prefix=prefix)


def constants_svg(table, *, prefix, title=""):
    """Implied constant c = r_empirical / f(params) per searched cell (bars), beside the constant the profile
    uses (markers); rows of the table written by ``rpcheck constant``."""
    if table is None or len(table) == 0 or "implied_constant" not in table:
        return ""
    t = table.dropna(subset=["implied_constant"])
    if len(t) == 0:
        return ""
    fig, ax = _figure(max(4.0, 0.5 * len(t) + 2), 2.8)
    labels = [f"{row.theorem.split('.', 1)[-1]}#{row.cell}" for row in t.itertuples()]
    x = np.arange(len(t))
    ax.bar(x, t["implied_constant"], color="#4a6fa5", alpha=0.85, label="implied (empirical)")
    if "p_c" in t:
        ax.plot(x, t["p_c"], "D", color="#b3261e", ms=5, label="used by the profile")
    ax.set_xticks(x, labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("constant c")
    ax.set_yscale("log")
    ax.legend(fontsize=7)
    if title:
        ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3, axis="y")
    return to_svg(fig, prefix=prefix)

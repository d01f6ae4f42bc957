"""Inline SVG plots for the HTML report, written by hand (no matplotlib, no scripts, no network).

Labels are plain text (escaped by :func:`rpcheck.report._text.esc`): a ``$...$`` in a variant name or
parameter value is shown as typed, never parsed as mathtext. Each function returns an ``<svg>`` string,
or ``""`` when there is nothing worth plotting. Two chart types cover the report:

- :func:`sweep_svg`: a rate against a swept parameter, one series per group of cells, with the exact
  confidence band (shaded), the promised failure probability (dashed) and optional vertical markers;
- :func:`forest_svg`: one row per item, an interval (bar), an estimate (dot) and a reference value
  (hollow diamond), e.g. Monte Carlo rate vs exact law, ours vs the paper's number, implied vs assumed
  constant, statistic/bound quantiles per cell.
"""

from __future__ import annotations

import math

import numpy as np

from ._text import esc, fmt_num

__all__ = ["sweep_svg", "forest_svg", "constants_svg", "SERIES_COLORS"]

SERIES_COLORS = ("#1f5fa8", "#c2571a", "#2e7d32", "#7b3fa0", "#9a7400", "#0f7c8c", "#a8326a", "#505050")
# marker shapes cycle with the colours so series differ without colour as well
_SHAPES = ("circle", "square", "triangle", "diamond", "cross", "circle", "square", "triangle")
_FONT = 'font-family="system-ui,DejaVu Sans,sans-serif" font-size="11"'


def _f(x):
    """Coordinate with 1 decimal (small output)."""
    return f"{x:.1f}".rstrip("0").rstrip(".") if abs(x) < 1e7 else "0"


def _nice_ticks(lo, hi, n=5):
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo]
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    k0, k1 = math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9)
    if not (0 <= k1 - k0 <= 4 * n) or step <= 1e-12 * max(abs(lo), abs(hi)):
        # a range too narrow for float64 steps (hi - lo at the rounding level of lo): the ends only. (The
        # accumulating loop this replaces never ended there: t + step == t.)
        return [lo, hi]
    return [0.0 if abs(k * step) < 1e-12 * step else k * step for k in range(k0, k1 + 1)]


class _Scale:
    """Data -> pixel map for one axis (linear, or log with base 2 / 10)."""

    def __init__(self, lo, hi, p0, p1, *, log=None):
        self.log = log
        if log:
            lo, hi = math.log(lo, log), math.log(hi, log)
        if hi <= lo:
            lo, hi = lo - 0.5, hi + 0.5
        self.lo, self.hi, self.p0, self.p1 = lo, hi, p0, p1

    def __call__(self, v):
        v = float(v)
        if self.log:
            v = math.log(max(v, 1e-300), self.log)
        return self.p0 + (v - self.lo) / (self.hi - self.lo) * (self.p1 - self.p0)

    def ticks(self):
        if self.log:
            a, b = math.floor(self.lo + 1e-9), math.ceil(self.hi - 1e-9)
            step = max(1, math.ceil((b - a) / 7))
            return [self.log**e for e in range(a, b + 1, step) if self.lo - 1e-9 <= e <= self.hi + 1e-9]
        return _nice_ticks(self.lo, self.hi)


def _marker(shape, x, y, color, r=3.2, fill=None, title="", bare=False):
    """One marker; ``bare``: without paint attributes (inside a group that sets fill, stroke and width)."""
    fill = color if fill is None else fill
    t = f"<title>{esc(title)}</title>" if title else ""
    if shape == "square":
        el = f'<rect x="{_f(x - r)}" y="{_f(y - r)}" width="{_f(2 * r)}" height="{_f(2 * r)}"'
    elif shape == "triangle":
        el = f'<path d="M{_f(x)} {_f(y - r - 0.6)}L{_f(x + r + 0.4)} {_f(y + r)}L{_f(x - r - 0.4)} {_f(y + r)}Z"'
    elif shape == "diamond":
        r += 0.8
        el = f'<path d="M{_f(x)} {_f(y - r)}L{_f(x + r)} {_f(y)}L{_f(x)} {_f(y + r)}L{_f(x - r)} {_f(y)}Z"'
    elif shape == "cross":
        return (
            f'<path d="M{_f(x - r)} {_f(y - r)}L{_f(x + r)} {_f(y + r)}M{_f(x - r)} {_f(y + r)}L{_f(x + r)} '
            f'{_f(y - r)}" stroke="{color}" stroke-width="1.6">{t}</path>'
        )
    else:
        el = f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}"'
    if bare:
        return f'{el}>{t}</{el[1:].split(" ", 1)[0]}>' if t else f"{el}/>"
    return f'{el} fill="{fill}" stroke="{color}" stroke-width="1.2">{t}</{el[1:].split(" ", 1)[0]}>'


def _open(width, height, label):
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{esc(label)}" {_FONT}><title>{esc(label)}</title>'
        f'<rect width="{width}" height="{height}" fill="#fff"/>'
    )


def _tick(t):
    """A tick label that stays short: powers of ten and other large or tiny values as ``1e+08``."""
    t = float(t)
    if t != 0 and (abs(t) >= 1e5 or abs(t) < 1e-3):
        return f"{t:.3g}".replace("e+0", "e+").replace("e-0", "e-")
    return fmt_num(t, 3)


def _axis_x(sx, y0, y1, label, *, fmt=fmt_num):
    """Vertical grid lines (one path) and tick labels (one group) of the x axis, and its label."""
    grid, labels = [], []
    for t in sx.ticks():
        x = sx(t)
        grid.append(f"M{_f(x)} {_f(y0)}V{_f(y1)}")
        labels.append(f'<text x="{_f(x)}" y="{_f(y1 + 13)}">{esc(fmt(t))}</text>')
    labels.append(f'<text x="{_f((sx.p0 + sx.p1) / 2)}" y="{_f(y1 + 28)}">{esc(label)}</text>')
    return f'<path d="{"".join(grid)}" stroke="#e4e4e4"/><g text-anchor="middle">{"".join(labels)}</g>'


def sweep_svg(series, *, x_label, y_label="failure rate", title="", promised_label="promised failure probability",
              markers=(), width=580, height=260):  # fmt: skip
    """Rate against a swept parameter.

    Parameters
    ----------
    series : list of dict
        ``label``, ``x``, ``y`` (rates), ``lo``, ``hi`` (confidence interval; NaN = none), optional
        ``promised`` (per-point promised probability, dashed), ``tips`` (per-point tooltip text).
    x_label, y_label, title : str
    markers : sequence of (x, text)
        Vertical dotted lines, e.g. the target dimension a theorem's formula prescribes.
    """
    series = [s for s in series if len(s["x"]) >= 1]
    if not series:
        return ""
    xs = np.concatenate([np.asarray(s["x"], float) for s in series] + [np.asarray([m[0] for m in markers], float)])
    xs = xs[np.isfinite(xs)]
    if xs.size == 0:
        return ""
    xlo, xhi = float(xs.min()), float(xs.max())
    log = 2 if xlo > 0 and xhi / xlo > 8 else None
    if log is None and xhi == xlo:
        xlo, xhi = xlo - 1, xhi + 1
    ys = [np.asarray(s.get(k, []), float) for s in series for k in ("y", "hi", "promised")]
    ymax = max([float(np.nanmax(y)) for y in ys if y.size and np.isfinite(y).any()] + [0.0])
    ytop = 1.0 if ymax > 0.5 else max(0.05, _nice_ticks(0, ymax * 1.1)[-1] if ymax > 0 else 0.05)
    if ytop < ymax:
        ytop = ymax
    legend_rows = len(series) + (1 if any("promised" in s for s in series) else 0) + len(markers)
    left, right, top = 52, 12, 22 if title else 10
    plot_h = height - top - 40
    total_h = height + 15 * legend_rows
    sx = _Scale(xlo, xhi, left, width - right, log=log)
    sy = _Scale(0.0, ytop, top + plot_h, top)
    out = [_open(width, total_h, title or f"{y_label} vs {x_label}")]
    if title:
        out.append(f'<text x="{left}" y="14" font-weight="600">{esc(title)}</text>')
    grid, labels = [], []
    for t in sy.ticks():
        y = sy(t)
        grid.append(f"M{left} {_f(y)}H{width - right}")
        labels.append(f'<text x="{left - 4}" y="{_f(y + 4)}">{esc(fmt_num(t, 3))}</text>')
    out.append(f'<path d="{"".join(grid)}" stroke="#e4e4e4"/><g text-anchor="end">{"".join(labels)}</g>')
    out.append(_axis_x(sx, top, top + plot_h, x_label + (" (log₂ scale)" if log else "")))
    out.append(
        f'<text transform="translate(12 {_f(top + plot_h / 2)}) rotate(-90)" text-anchor="middle">{esc(y_label)}</text>'
    )
    for i, s in enumerate(series):
        color = SERIES_COLORS[i % len(SERIES_COLORS)]
        x = np.asarray(s["x"], float)
        order = np.argsort(x)
        x = x[order]
        y = np.asarray(s["y"], float)[order]
        lo = np.asarray(s.get("lo", np.full(x.size, np.nan)), float)[order]
        hi = np.asarray(s.get("hi", np.full(x.size, np.nan)), float)[order]
        band = np.isfinite(lo) & np.isfinite(hi)
        if band.sum() >= 2:
            pts = [(sx(a), sy(b)) for a, b in zip(x[band], hi[band])] + [
                (sx(a), sy(b)) for a, b in zip(x[band][::-1], lo[band][::-1])
            ]
            d = "M" + "L".join(f"{_f(a)} {_f(b)}" for a, b in pts) + "Z"
            out.append(f'<path d="{d}" fill="{color}" fill-opacity="0.14" stroke="none"/>')
        ticks = "".join(  # interval ticks also when there is one point
            f"M{_f(sx(a))} {_f(sy(lo_))}V{_f(sy(hi_))}" for a, lo_, hi_ in zip(x[band], lo[band], hi[band])
        )
        if ticks:
            out.append(f'<path d="{ticks}" stroke="{color}" stroke-opacity="0.55"/>')
        if "promised" in s:
            p = np.asarray(s["promised"], float)[order]
            ok = np.isfinite(p)
            if ok.any():
                d = "M" + "L".join(f"{_f(sx(a))} {_f(sy(min(b, ytop)))}" for a, b in zip(x[ok], p[ok]))
                if ok.sum() == 1:
                    a = x[ok][0]
                    d = f"M{_f(sx(a) - 8)} {_f(sy(min(p[ok][0], ytop)))}h16"
                out.append(f'<path d="{d}" fill="none" stroke="{color}" stroke-width="1.3" stroke-dasharray="5 3"/>')
        ok = np.isfinite(y)
        if ok.sum() >= 2:
            d = "M" + "L".join(f"{_f(sx(a))} {_f(sy(b))}" for a, b in zip(x[ok], y[ok]))
            out.append(f'<path d="{d}" fill="none" stroke="{color}" stroke-width="1.5"/>')
        tips = list(np.asarray(s.get("tips", [""] * x.size), object)[order])
        shape = _SHAPES[i % len(_SHAPES)]
        pts = [_marker(shape, sx(a), sy(b), color, title=str(tip), bare=shape != "cross")
               for a, b, tip in zip(x[ok], y[ok], np.asarray(tips, object)[ok])]  # fmt: skip
        out.append(f'<g fill="{color}" stroke="{color}" stroke-width="1.2">{"".join(pts)}</g>')
    for mx, text in markers:
        if math.isfinite(float(mx)):
            X = sx(mx)
            out.append(
                f'<line x1="{_f(X)}" x2="{_f(X)}" y1="{top}" y2="{_f(top + plot_h)}" stroke="#000" '
                f'stroke-dasharray="2 3"><title>{esc(text)}</title></line>'
            )
    # legend below the plot, one line per series (no overlap with data, wraps nothing)
    ly = height + 2
    for i, s in enumerate(series):
        color = SERIES_COLORS[i % len(SERIES_COLORS)]
        out.append(_marker(_SHAPES[i % len(_SHAPES)], left + 6, ly - 4, color))
        out.append(f'<text x="{left + 16}" y="{_f(ly)}">{esc(s.get("label") or "rate")}</text>')
        ly += 15
    if any("promised" in s for s in series):
        out.append(
            f'<path d="M{left} {_f(ly - 4)}h12" stroke="#333" stroke-dasharray="5 3"/>'
            f'<text x="{left + 16}" y="{_f(ly)}">{esc(promised_label)} (dashed, series colour); shaded: exact '
            "confidence interval</text>"
        )
        ly += 15
    for _mx, text in markers:
        out.append(
            f'<path d="M{left + 6} {_f(ly - 10)}v10" stroke="#000" stroke-dasharray="2 3"/>'
            f'<text x="{left + 16}" y="{_f(ly)}">{esc(text)}</text>'
        )
        ly += 15
    out.append("</svg>")
    return "".join(out)


def forest_svg(rows, *, x_label, title="", est_label="estimate", ref_label="reference", interval_label="interval",
               ref_line=None, ref_line_label="", log=None, width=580, label_width=190):  # fmt: skip
    """One row per item: ``[lo, hi]`` bar, ``est`` dot and ``ref`` hollow diamond on a shared axis.

    Parameters
    ----------
    rows : list of dict
        ``label`` and any of ``est``, ``lo``, ``hi``, ``ref`` (NaN/None = absent), optional ``tip``.
    ref_line : float, optional
        A vertical reference line (e.g. 1 for statistic/bound, the claim being "<= 1").
    log : None or 10
        Log-scale x axis (only used when every plotted value is positive).
    """
    vals = []
    for r in rows:
        for k in ("est", "lo", "hi", "ref"):
            v = r.get(k)
            if v is not None and isinstance(v, int | float | np.floating | np.integer) and math.isfinite(float(v)):
                vals.append(float(v))
    if ref_line is not None:
        vals.append(float(ref_line))
    if not rows or not vals:
        return ""
    lo, hi = min(vals), max(vals)
    if log and lo <= 0:
        log = None
    if log and hi / lo < 10:
        log = None
    if not log:
        pad = (hi - lo) * 0.05 or max(abs(hi) * 0.1, 0.05)
        lo, hi = lo - pad, hi + pad
        if min(vals) >= 0 and lo < 0:
            lo = 0.0
    else:
        lo, hi = lo / 1.3, hi * 1.3
    row_h, top = 16, 22 if title else 8
    plot_left, right = label_width + 8, 14
    n = len(rows)
    plot_h = n * row_h
    height = top + plot_h + 36 + 15
    sx = _Scale(lo, hi, plot_left, width - right, log=log)
    out = [_open(width, height, title or x_label)]
    if title:
        out.append(f'<text x="4" y="14" font-weight="600">{esc(title)}</text>')
    out.append(_axis_x(sx, top, top + plot_h, x_label + (" (log scale)" if log else ""), fmt=_tick))
    if ref_line is not None:
        X = sx(ref_line)
        out.append(
            f'<line x1="{_f(X)}" x2="{_f(X)}" y1="{top}" y2="{_f(top + plot_h)}" stroke="#b3261e" '
            f'stroke-dasharray="4 3"><title>{esc(ref_line_label)}</title></line>'
        )
    max_chars = max(8, int(label_width / 6.2))
    # One element per kind (labels, stripes, intervals, estimates, references), each with its presentation
    # attributes once, and one tooltip per row (an invisible band on top carrying every number of the row):
    # the same picture in about half the bytes of per-marker attributes and titles.
    labels, stripes, bars, ests, refs, tips = [], [], [], [], [], []

    def ok(r, k):
        v = r.get(k)
        return v is not None and not isinstance(v, str) and math.isfinite(float(v)) and (not log or float(v) > 0)

    for i, r in enumerate(rows):
        y = top + i * row_h + row_h / 2
        lab = str(r.get("label", ""))
        short = lab if len(lab) <= max_chars else lab[: max_chars - 1] + "…"
        labels.append(f'<text x="{label_width}" y="{_f(y + 4)}">{esc(short)}</text>')
        if i % 2:
            w = width - right - plot_left
            stripes.append(f"M{plot_left} {_f(y - row_h / 2)}h{w}v{row_h}h{-w}z")
        if ok(r, "lo") and ok(r, "hi"):
            bars.append(f"M{_f(sx(r['lo']))} {_f(y)}H{_f(sx(r['hi']))}")
        if ok(r, "est"):
            ests.append(f'<circle cx="{_f(sx(r["est"]))}" cy="{_f(y)}" r="3.2"/>')
        if ok(r, "ref"):  # hollow and on top: visible also where it coincides with the estimate
            x, rr = sx(r["ref"]), 4.4
            ref_d = f"M{_f(x)} {_f(y - rr)}l{rr} {rr}l{-rr} {rr}l{-rr} {-rr}z"
            refs.append(ref_d)
        nums = [f"{est_label} {fmt_num(r['est'])}" if ok(r, "est") else ""]
        if ok(r, "lo") and ok(r, "hi"):
            nums.append(f"{interval_label} [{fmt_num(r['lo'])}, {fmt_num(r['hi'])}]")
        if ok(r, "ref"):
            nums.append(f"{ref_label} {fmt_num(r['ref'])}")
        tip = "; ".join(t for t in (lab, ", ".join(n for n in nums if n), str(r.get("tip") or "")) if t)
        tips.append(f'<rect y="{_f(y - row_h / 2)}" width="{width}" height="{row_h}"><title>{esc(tip)}</title></rect>')
    out.append(f'<g text-anchor="end">{"".join(labels)}</g>')
    if stripes:
        out.append(f'<path d="{"".join(stripes)}" fill-opacity="0.03"/>')
    if bars:
        out.append(f'<path d="{"".join(bars)}" stroke="#1f5fa8" stroke-width="2.2" stroke-opacity="0.55"/>')
    if ests:
        out.append(f'<g fill="#1f5fa8" stroke="#1f5fa8" stroke-width="1.2">{"".join(ests)}</g>')
    if refs:
        out.append(f'<path d="{"".join(refs)}" fill="none" stroke="#b3261e" stroke-width="1.2"/>')
    out.append(f'<g fill="#fff" fill-opacity="0">{"".join(tips)}</g>')
    ly = height - 6
    legend = [_marker("circle", 10, ly - 4, "#1f5fa8"), f'<text x="20" y="{ly}">{esc(est_label)}</text>']
    x = 30 + 6.2 * len(est_label)
    if any(r.get("lo") is not None for r in rows):
        legend.append(
            f'<path d="M{_f(x)} {ly - 4}h14" stroke="#1f5fa8" stroke-width="2.2" stroke-opacity="0.55"/>'
            f'<text x="{_f(x + 18)}" y="{ly}">{esc(interval_label)}</text>'
        )
        x += 30 + 6.2 * len(interval_label)
    if any(r.get("ref") is not None for r in rows):
        legend.append(_marker("diamond", x + 5, ly - 4, "#b3261e", r=3.0, fill="#fff"))
        legend.append(f'<text x="{_f(x + 14)}" y="{ly}">{esc(ref_label)}</text>')
        x += 24 + 6.2 * len(ref_label)
    if ref_line is not None and ref_line_label:
        legend.append(
            f'<path d="M{_f(x)} {ly - 9}v10" stroke="#b3261e" stroke-dasharray="4 3"/>'
            f'<text x="{_f(x + 6)}" y="{ly}">{esc(ref_line_label)}</text>'
        )
    out.extend(legend)
    out.append("</svg>")
    return "".join(out)


def constants_svg(table, *, title="implied constant per searched cell"):
    """Implied constant c = empirical / formula per searched cell (dot) beside the constant the profile
    uses (hollow diamond), log scale; rows of the table written by ``rpcheck constant``."""
    if table is None or len(table) == 0 or "implied_constant" not in table:
        return ""
    t = table.dropna(subset=["implied_constant"])
    if len(t) == 0:
        return ""
    rows = []
    for row in t.to_dict("records"):
        used = row.get("p_c")
        rows.append(
            {
                "label": f"{str(row.get('theorem', '')).split('.', 1)[-1]} #{row.get('cell', '')}",
                "est": float(row["implied_constant"]),
                "ref": float(used) if isinstance(used, int | float) and not isinstance(used, bool) else None,
                "tip": f"{row.get('theorem', '')} cell {row.get('cell', '')}: empirical {row.get('empirical', '')}, "
                f"formula {fmt_num(row.get('formula_value'))}",
            }
        )
    return forest_svg(
        rows, x_label="constant c", title=title, est_label="implied (empirical)", ref_label="assumed by the profile",
        log=10,
    )  # fmt: skip

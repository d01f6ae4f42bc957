"""Escaping and link rules shared by the HTML and SVG writers of the report.

A results directory is data someone may send you, so every string that comes from it (theorem ids,
variant names, parameter values, verdicts, reasons, ``decide_info``, provenance) is treated as untrusted:

- :func:`esc` makes it inert text in HTML text, HTML attribute and SVG/XML contexts;
- :func:`safe_href` turns a path into a link only when it is a plain relative path inside the results
  directory (no scheme, no ``..``, no absolute or UNC path, no query or fragment), percent-encoded.
"""

from __future__ import annotations

import html
import json
import math
import re
from urllib.parse import quote

__all__ = ["esc", "safe_href", "fmt_value", "fmt_num"]

# C0/C1 control characters (except tab and newline) and Unicode noncharacters are parse errors in HTML
# and invalid in XML: they are shown as visible escapes (no information lost, nothing hidden).
_BAD = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff\U0001fffe\U0001ffff\U0002fffe\U0002ffff"
                  "\U0003fffe\U0003ffff\U0004fffe\U0004ffff\U0005fffe\U0005ffff\U0006fffe\U0006ffff"
                  "\U0007fffe\U0007ffff\U0008fffe\U0008ffff\U0009fffe\U0009ffff\U000afffe\U000affff"
                  "\U000bfffe\U000bffff\U000cfffe\U000cffff\U000dfffe\U000dffff\U000efffe\U000effff"
                  "\U000ffffe\U000fffff\U0010fffe\U0010ffff\ud800-\udfff]")  # fmt: skip


def _visible(m):
    cp = ord(m.group(0))
    return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{{{cp:x}}}"


def esc(x):
    """Inert text for HTML text, HTML attributes (quoted) and SVG: ``& < > " '`` escaped, control
    characters and noncharacters shown as ``\\xNN`` / ``\\u{NNNN}``."""
    s = "" if x is None else str(x)
    return html.escape(_BAD.sub(_visible, s), quote=True)


_SAFE_SEGMENT = re.compile(r"^[^\x00-\x1f\x7f:\\]+$")


def safe_href(path):
    """Percent-encoded relative URL for ``path`` if it is a plain relative path inside the results
    directory, else ``None`` (the caller then shows the path as text).

    Rejected: empty strings, any scheme or colon (``javascript:``, ``https:``, ``C:``), absolute paths
    (``/x``), protocol-relative (``//host``) and backslash/UNC paths, ``.`` or ``..`` segments, empty
    segments and control characters. ``?`` and ``#`` are percent-encoded (part of the file name, never a
    query or fragment)."""
    if not isinstance(path, str) or not path or path != path.strip():
        return None
    if path.startswith("/"):
        return None
    segments = path.split("/")
    for seg in segments:
        if seg in ("", ".", "..") or not _SAFE_SEGMENT.match(seg) or _BAD.search(seg):
            return None
    return "/".join(quote(seg, safe="") for seg in segments)


def fmt_num(x, digits=4):
    """Compact number: ints as ints, floats with ``digits`` significant digits (scientific outside
    [1e-3, 1e5)), NaN/None as ""."""
    if x is None:
        return ""
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return str(x)
    try:
        import numpy as np

        if isinstance(x, np.integer):
            return str(int(x))
        if isinstance(x, np.bool_):
            return str(bool(x))
    except ImportError:  # pragma: no cover
        pass
    if isinstance(x, float) or hasattr(x, "__float__") and not isinstance(x, str):
        try:
            xf = float(x)
        except (TypeError, ValueError):
            return str(x)
        if math.isnan(xf):
            return ""
        if math.isinf(xf):
            return "∞" if xf > 0 else "−∞"
        if xf.is_integer() and abs(xf) < 1e15:
            return str(int(xf))
        if xf != 0 and (abs(xf) < 1e-3 or abs(xf) >= 1e5):
            return f"{xf:.{digits - 1}e}"
        return f"{xf:.{digits}g}"
    return str(x)


def fmt_value(v):
    """A parameter value as its type reads: ints as ints, floats compact, strings as given, lists and
    dicts as compact JSON."""
    if isinstance(v, list | tuple | dict):
        return json.dumps(v, separators=(",", ":"), default=str)
    return fmt_num(v)

r"""Markdown pages of the theorem registry: one page per paper and an index (``docs/papers/``).

Everything on a page comes from the registered :class:`rpcheck.engine.theorem.Theorem` objects: id, title,
citation, the statement as printed, the variants (role, mode, expected verdict, statement, assumptions,
notes), the findings the theorem records (what the paper prints that differs from what is true, proved or
measured), grouped by kind, paper errors first, each with the printed text it disputes, its location in the
paper and the variant whose verdict is its evidence, parameter domains and constraints, and every
profile with its cells and trials. An expected verdict that depends on the cell (a callable rule) is evaluated
on every cell of every profile and shown beside the cell.

The output is deterministic (theorems sorted by id, papers sorted by key, no timestamps, no machine
paths), so the checked-in pages can be compared byte for byte with a fresh rendering
(``tests/test_docs.py``). Regenerate after changing a theorem with::

    rpcheck docs --out docs/papers        # or: python -m rpcheck.cli docs --out docs/papers

Pages are built from the registry's built-in theorems only (the paper packages under ``rpcheck.papers``);
theorems of plugins or of tests are never written into the repository's pages.

Examples
--------
>>> _prose("w* <= |x| <b>")
'w\\* <= \\|x\\| &lt;b>'
>>> _code("a `b` c")
'`` a `b` c ``'
>>> _value(0.5), _value("srht"), _value((1, 2))
('0.5', 'srht', '(1, 2)')
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

__all__ = [
    "REGENERATE",
    "builtin_theorems",
    "theorem_markdown",
    "paper_markdown",
    "index_markdown",
    "render_pages",
    "write_pages",
    "stale_pages",
]

#: The one command that regenerates the checked-in pages (named by ``tests/test_docs.py`` when they are stale).
REGENERATE = "rpcheck docs --out docs/papers"
_HEADER = (
    "<!-- Generated from the theorem registry by `{cmd}` (rpcheck/report/markdown.py). "
    "Do not edit by hand: change the theorem and regenerate. -->"
)


# --------------------------------------------------------------------------------------------- text helpers


def _escape_plain(s):
    s = s.replace("\\", "\\\\").replace("*", "\\*").replace("|", "\\|")
    s = re.sub(r"<(?=[A-Za-z/!?])", "&lt;", s).replace("[", "\\[").replace("]", "\\]")
    # an underscore at a word boundary can open or close emphasis; inside a word (``as_printed``) it cannot
    return re.sub(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])", r"\\_", s)


def _prose(text):
    """Markdown for prose from a theorem: backtick spans are kept as code, everything else is escaped so
    that ``*``, ``_``, ``|``, ``<`` and brackets show literally; newlines become spaces (safe in tables)."""
    s = " ".join(str(text).split())
    parts = re.split(r"(`+[^`]*?`+)", s)
    return "".join(p if p.startswith("`") and p.endswith("`") and len(p) > 1 else _escape_plain(p) for p in parts)


def _code(text):
    """An inline code span holding ``text`` exactly (one line), whatever backticks it contains."""
    s = " ".join(str(text).split())
    longest = max((len(m) for m in re.findall(r"`+", s)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if s.startswith("`") or s.endswith("`") or longest else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def _block(text, info="text"):
    """A fenced code block holding ``text`` verbatim (trailing spaces stripped)."""
    lines = [ln.rstrip() for ln in str(text).strip("\n").splitlines()] or [""]
    longest = max((len(m) for ln in lines for m in re.findall(r"`+", ln)), default=0)
    fence = "`" * max(3, longest + 1)
    return "\n".join([fence + info, *lines, fence])


def _cell(text):
    """Text for a table cell: one line, ``|`` escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _value(v):
    """A parameter value as text: strings as they are, numbers and containers by ``repr`` (NumPy scalars
    converted to Python scalars first, so the text does not depend on the NumPy version)."""
    if type(v).__module__ == "numpy" and hasattr(v, "item"):
        v = v.item()
    if isinstance(v, str):
        return v
    if isinstance(v, list | tuple):
        inner = ", ".join(_value(x) for x in v)
        return f"[{inner}]" if isinstance(v, list) else f"({inner}{',' if len(v) == 1 else ''})"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_value(k)}: {_value(x)}" for k, x in v.items()) + "}"
    return repr(v)


def _verdict_text(exp):
    return "none (open question: only reported)" if exp is None else str(getattr(exp, "value", exp))


def _expected_on(variant, cell):
    """The expected verdict of ``variant`` on ``cell`` ("none": an open question, only reported)."""
    try:
        exp = variant.expected_for(cell)
        return "none" if exp is None else str(exp.value)
    except Exception as exc:  # noqa: BLE001 - shown on the page, never guessed
        return f"not evaluable here ({type(exc).__name__})"


def _anchor(tid):
    return tid


def _module_path(theorem):
    mod = getattr(theorem.trial, "__module__", "") or ""
    return mod.replace(".", "/") + ".py" if mod.startswith("rpcheck.") else ""


# --------------------------------------------------------------------------------------------- the registry


def builtin_theorems():
    """The registered built-in theorems (those of the rpcheck distribution's own entry points, one per paper
    package under ``rpcheck.papers``), sorted by id."""
    from ..engine import registry

    papers = set(registry.builtin_papers())
    return [t for t in registry.builtin_theorems() if t.paper in papers]


def _papers():
    from ..engine import registry

    return tuple(registry.builtin_papers())


# --------------------------------------------------------------------------------------------- one theorem


def _variant_rows(t):
    out = ["| variant | role | mode | expected verdict | promised failure |", "|---|---|---|---|---|"]
    for v in t.variants:
        if callable(v.expected):
            counts = Counter(_expected_on(v, c) for p in t.profiles.values() for c in p.cells)
            total = sum(counts.values())
            exp = "per cell: " + ", ".join(f"{k} in {n}" for k, n in sorted(counts.items()))
            exp += f" of the {total} profile cells"
        elif v.role == "measurement":
            exp = "measured (no verdict)"
        else:
            exp = _verdict_text(v.expected)
        pf = v.promised_failure
        if pf is None:
            pf_text = ""
        elif callable(pf):
            pf_text = "per cell"
        else:
            pf_text = f"{float(pf):g}"
        out.append(f"| `{v.name}` | {v.role} | {v.mode} | {_cell(exp)} | {pf_text} |")
    return out


def _variant_details(t):
    out = []
    for v in t.variants:
        line = f"- `{v.name}`: {_code(v.statement)}" if v.statement else f"- `{v.name}`"
        out.append(line)
        if v.exhaustive:
            out.append("  - exhaustive: fixed inputs, one evaluation decides")
        for a in v.assumed:
            out.append(f"  - assumed: {_prose(a)}")
        if v.note:
            out.append(f"  - note: {_prose(v.note)}")
    return out


def _findings(t):
    """The theorem's findings grouped by kind, paper errors first (``FINDING_KINDS`` order): for each, the
    printed text it disputes, where it is printed, the evidence variant and the summary."""
    from ..engine.theorem import FINDING_KINDS

    out = []
    for kind in FINDING_KINDS:
        group = [f for f in t.findings if f.kind == kind]
        if not group:
            continue
        out += ["" if out else None, f"*{kind.capitalize()}* ({len(group)}):", ""]
        for f in group:
            where = [f"in the paper: {_prose(f.location)}"]
            if f.evidence_variant:
                where.append(f"evidence: variant `{f.evidence_variant}`")
            out.append(f"- **{_prose(f.key)}** ({'; '.join(where)})")
            out.append(f"  - printed: {_code(f.quote)}")
            out.append(f"  - {_prose(f.summary)}")
    return [line for line in out if line is not None]


def _parameters(t):
    out = []
    params = t.parameters or {}
    if params:
        out += ["| parameter | domain | meaning |", "|---|---|---|"]
        for name in sorted(params):
            p = params[name]
            out.append(f"| `{name}` | {_cell(p.domain())} | {_prose(p.doc)} |")
    if t.constraints:
        out += ["", "Constraints:", ""] + [f"- {_prose(c.description)}" for c in t.constraints]
    return out


def _profiles(t):
    from ..engine.theorem import PROFILES

    out = []
    per_cell = [v for v in t.variants if callable(v.expected)]
    for name in [*PROFILES, *sorted(k for k in t.profiles if k not in PROFILES)]:
        prof = t.profiles[name]
        cols = []
        for cell in prof.cells:
            cols += [k for k in cell if k not in cols]
        n = len(prof.cells)
        cells_text = f"{n} cell{'s' if n != 1 else ''} x {prof.describe_trials()}"
        out += ["", f"#### `{name}`: {cells_text}"]
        if not n:
            continue
        head = ["cell", *[f"`{c}`" for c in cols]] + (["expected (none: only reported)"] if per_cell else [])
        out += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for i, cell in enumerate(prof.cells):
            row = [str(i), *[_cell(_value(cell[c])) if c in cell else "" for c in cols]]
            if per_cell:
                row.append(_cell(", ".join(f"{v.name}: {_expected_on(v, cell)}" for v in per_cell)))
            out.append("| " + " | ".join(row) + " |")
    return out


def theorem_markdown(t, level=2, ref=None):
    """The Markdown section of one theorem (headings start at ``level``); ``ref`` is how the command line
    names it when that is not its id (``module:ATTRIBUTE``)."""
    ref = t.id if ref is None else ref
    h = "#" * level
    c = t.citation
    loc = c.location + (f" (other numbering: {c.alt_location})" if c.alt_location else "")
    loc += f"; {c.equations}" if c.equations else ""
    out = [
        f'<a id="{_anchor(t.id)}"></a>',
        "",
        f"{h} `{t.id}`: {_prose(t.title)}",
        "",
        f"- Citation: {_prose(f'{c.authors} ({c.year}), {c.title}. {c.venue}.')}",
        f"- Where: {_prose(loc)}",
        f"- Kind: {t.kind}",
    ]
    path = _module_path(t)
    if path:
        out.append(f"- Checker: `{path}`")
    out.append(f"- Run: `rpcheck check {ref}` (profile `ci`), `rpcheck show {ref}`")
    out += ["", f"{h}# Statement as printed", "", _block(t.statement or "(none)")]
    out += ["", f"{h}# Variants", "", *_variant_rows(t), "", *_variant_details(t)]
    if t.findings:
        out += ["", f"{h}# Findings (what differs from the paper, by kind)", "", *_findings(t)]
    if t.notes:
        out += ["", f"{h}# Notes", "", _prose(t.notes)]
    if t.tolerance or t.tolerance_note:
        out += ["", f"{h}# Numerical tolerance", "", f"{t.tolerance:g}: {_prose(t.tolerance_note or 'no note')}"]
    params = _parameters(t)
    if params:
        out += ["", f"{h}# Parameters", "", *params]
    out += ["", f"{h}# Profiles", *_profiles(t)]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------- pages


def _paper_citation(theorems):
    """The citation most theorems of a paper give (ties broken by the sorted key): authors, year, title, venue."""
    keys = Counter((t.citation.authors, t.citation.year, t.citation.title, t.citation.venue) for t in theorems)
    best = max(keys.values())
    return sorted(k for k, n in keys.items() if n == best)[0]


def _by_kind(findings):
    """``"3 paper errors, 1 observation"``: the number of findings of each kind, paper errors first."""
    from ..engine.theorem import FINDING_KINDS

    plural = {"paper error": "paper errors", "proof gap": "proof gaps", "ambiguity": "ambiguities",
              "notation": "notation", "observation": "observations"}
    counts = [(k, sum(f.kind == k for f in findings)) for k in FINDING_KINDS]
    return ", ".join(f"{n} {k if n == 1 else plural[k]}" for k, n in counts if n) or "none"


def paper_markdown(paper, theorems):
    """The page of one paper: its citation, a contents table and one section per theorem."""
    ts = sorted((t for t in theorems if t.paper == paper), key=lambda t: t.id)
    out = [_HEADER.format(cmd=REGENERATE), ""]
    if not ts:
        return "\n".join([*out, f"# {paper}", "", "No theorem is registered for this paper.", ""])
    authors, year, title, venue = _paper_citation(ts)
    n_var = sum(len(t.variants) for t in ts)
    n_find = sum(len(t.findings) for t in ts)
    out += [
        f"# {paper}: {_prose(title)}",
        "",
        _prose(f"{authors} ({year}). {title}. {venue}."),
        "",
        f"{len(ts)} theorems, {n_var} variants, {n_find} findings "
        f"({_by_kind([f for t in ts for f in t.findings])}). Back to the [index](index.md).",
        "",
        "| theorem | kind | title | variants | findings |",
        "|---|---|---|---|---|",
    ]
    for t in ts:
        link = f"[`{t.id}`](#{_anchor(t.id)})"
        out.append(f"| {link} | {t.kind} | {_prose(t.title)} | {len(t.variants)} | {len(t.findings)} |")
    for t in ts:
        out += ["", theorem_markdown(t, level=2).rstrip("\n")]
    return "\n".join(out) + "\n"


def index_markdown(theorems, papers=None):
    """``index.md``: one row per paper and one per theorem, linking into the paper pages."""
    papers = _papers() if papers is None else tuple(papers)
    out = [
        _HEADER.format(cmd=REGENERATE),
        "",
        "# Theorems checked by rpcheck",
        "",
        "One page per paper, generated from the theorem registry: statements as printed, variants with their",
        "role, mode and expected verdict, the findings each theorem records, parameter domains and every",
        f"profile's cells and trials. Regenerate after changing a theorem: `{REGENERATE}`.",
        "",
        "| paper | title | theorems | variants | findings | findings by kind |",
        "|---|---|---|---|---|---|",
    ]
    for p in papers:
        ts = [t for t in theorems if t.paper == p]
        title = _prose(_paper_citation(ts)[2]) if ts else ""
        fs = [f for t in ts for f in t.findings]
        out.append(
            f"| [{p}]({p}.md) | {title} | {len(ts)} | {sum(len(t.variants) for t in ts)} | {len(fs)} | "
            f"{_by_kind(fs)} |"
        )
    out += ["", "## All theorems", "", "| theorem | kind | title |", "|---|---|---|"]
    for t in sorted(theorems, key=lambda t: t.id):
        if t.paper in papers:
            out.append(f"| [`{t.id}`]({t.paper}.md#{_anchor(t.id)}) | {t.kind} | {_prose(t.title)} |")
    return "\n".join(out) + "\n"


def render_pages(theorems=None, papers=None):
    """``{file name: text}``: ``<paper>.md`` for every paper package and ``index.md``."""
    theorems = builtin_theorems() if theorems is None else list(theorems)
    papers = _papers() if papers is None else tuple(papers)
    pages = {f"{p}.md": paper_markdown(p, theorems) for p in papers}
    pages["index.md"] = index_markdown(theorems, papers)
    return pages


def write_pages(out, pages=None):
    """Write the pages into directory ``out`` (created if missing); returns the paths written, sorted.
    Files of the directory that are not pages are left alone."""
    pages = render_pages() if pages is None else pages
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in sorted(pages):
        path = out / name
        path.write_bytes(pages[name].encode("utf-8"))
        written.append(path)
    return written


def stale_pages(out, pages=None):
    """Names of the pages whose file in ``out`` is missing or differs from a fresh rendering, plus ``.md``
    files in ``out`` that are no page (left over from a removed paper); empty when up to date."""
    pages = render_pages() if pages is None else pages
    out = Path(out)
    stale = []
    for name in sorted(pages):
        path = out / name
        if not path.is_file() or path.read_bytes() != pages[name].encode("utf-8"):
            stale.append(name)
    if out.is_dir():
        stale += sorted(p.name for p in out.glob("*.md") if p.name not in pages)
    return stale

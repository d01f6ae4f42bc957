"""``rpcheck show ID``: statement, citation, variants, parameters, profiles and command lines of a theorem;
with ``--markdown`` its page of ``docs/papers/``."""

from __future__ import annotations

import json
import sys
import textwrap

from ..engine import plugins, registry
from ..engine.catalog import builtin_index, builtin_info, resolve_theorem, theorem_info, unknown_id
from ..errors import RpcheckError
from ..report import markdown
from ._base import EXIT_OK
from ._output import fmt_value

NAME = "show"


def setup_arguments(subparsers):
    p = subparsers.add_parser(NAME, help="statement, citation, variants, parameters, profiles and command lines")
    p.add_argument(
        "id",
        nargs="?",
        default=None,
        help="theorem id, or module:ATTRIBUTE of your own Theorem; with --markdown also a paper key "
        "(e.g. paul2014) or nothing (every paper)",
    )
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument(
        "--markdown",
        action="store_true",
        help="print the Markdown page (the text of docs/papers/, generated from the registry)",
    )
    return p


def _show_info(ref):
    if ":" in ref or not ref:
        return theorem_info(resolve_theorem(ref), source="module")
    info = builtin_info(ref)
    if info is not None:
        return info
    try:
        return theorem_info(plugins.resolve(ref, builtins=False), source="plugin")
    except RpcheckError:
        raise unknown_id(ref, set(builtin_index()) | set(registry.registered_ids())) from None


def _show_markdown(ref):
    """``show --markdown``: every paper (no id), one paper's page (a paper key) or one theorem's section."""
    if ref is None:
        pages = markdown.render_pages()
        return "\n".join(pages[name] for name in ["index.md", *(f"{p}.md" for p in registry.builtin_papers())])
    if ref in registry.builtin_papers():
        return markdown.paper_markdown(ref, markdown.builtin_theorems())
    t = resolve_theorem(ref)
    return markdown.theorem_markdown(t, level=1, ref=ref if ":" in ref else t.id)


def run(args):
    if args.markdown:
        sys.stdout.write(_show_markdown(args.id))
        return EXIT_OK
    if args.id is None:
        raise RpcheckError("`show` needs a theorem id (`rpcheck list` shows them), or --markdown for every paper.")
    info = _show_info(args.id)
    if args.json:
        print(json.dumps(info, indent=1))
        return EXIT_OK
    c = info["citation"]
    out = [
        f"{info['id']} — {info['title']}",
        f"Cite: {c['authors']} ({c['year']}), {c['title']}. {c['venue']}.",
        f"Location: {c['location']}"
        + (f" (other numbering: {c['alt_location']})" if c.get("alt_location") else "")
        + (f"; {c['equations']}" if c.get("equations") else ""),
        f"Kind: {info['kind']}" + ("" if info["source"] == "built-in" else f" (from {info['source']})"),
        "",
        "Statement as printed:",
        textwrap.indent(info["statement"] or "(none)", "  "),
        "",
        "Variants (mode, role, expected verdict):",
    ]
    for v in info["variants"]:
        exp = v["expected"] or "none (open question: only reported)"
        out.append(f"  - {v['name']} [{v['mode']}, {v['role']}; expected {exp}]: {v['statement']}")
        if v["assumed"]:
            out.append(f"      assumed: {'; '.join(v['assumed'])}")
        if v["note"]:
            out.append(f"      note: {v['note']}")
    if info["parameters"]:
        out += ["", "Parameters (declared domains):"]
        for name, p in info["parameters"].items():
            out.append(f"  {name}: " + ", ".join(f"{k}={fmt_value(v)}" for k, v in p.items()))
    if info["constraints"]:
        out += ["", "Constraints:"] + [f"  - {d}" for d in info["constraints"]]
    out += ["", "Profiles:"]
    for name, p in info["profiles"].items():
        out.append(
            f"  {name}: {len(p['cells'])} cells x {p.get('trials_text', str(p['trials']) + ' trials')}; "
            f"parameters: {', '.join(p['parameters'])}"
        )
    if info["tolerance"]:
        out += ["", f"Numerical tolerance: {info['tolerance']:g} ({info['tolerance_note'] or 'no note'})"]
    if info["findings"]:
        out += ["", "Findings tested:"] + [
            f"  - {f['key']} ({f['kind']}; {f['location']}; printed: \"{f['quote']}\"): {f['summary']}"
            for f in info["findings"]
        ]
    out += ["", "Your data:"]
    if info.get("accepts_data_file"):
        out.append("  `--data FILE` runs it on your own svmlight/LIBSVM, CSV or .npz file instead of generated data.")
    if info.get("runs_registered_data"):
        out.append("  `--data NAME=PATH` runs its experiments on a registered data set (`rpcheck data list`).")
    if not (info.get("accepts_data_file") or info.get("runs_registered_data")):
        out.append("  none: the theorem generates its data (a statement about random matrices or synthetic inputs).")
    out += ["", "Run it:"] + [f"  {cmd}" for cmd in info["commands"]]
    print("\n".join(out))
    return EXIT_OK

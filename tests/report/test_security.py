"""A results directory is data someone may send you: the report built from a crafted one must stay inert.

Each directory here is written by hand (``cells.csv``, ``trials.csv``, ``provenance.json``), loaded with
:func:`rpcheck.engine.load_results` and rendered, exactly as ``rpcheck report DIR`` does. The string fields
are then fuzzed with hypothesis (derandomized) and the output is checked in html5lib's strict mode.
"""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rpcheck.engine import load_results
from rpcheck.report import render_report, render_theorem_section, write_report

html5lib = pytest.importorskip("html5lib")

#: A registered theorem with a finding whose evidence variant is "stated" (mode "bound"): the findings
#: table of the report shows its row, so data in that row reaches the findings table.
THEOREM = "paul2014.c2"


def _cell(i, r, **over):
    fails = [9, 4, 1, 0][i % 4]
    row = dict(
        theorem=THEOREM, paper="paul2014", variant="stated", mode="bound", cell=i,
        params=json.dumps({"r": r, "label": "x"}, sort_keys=True), p_r=r, p_label="x",
        trials=50, evaluated=50, failures=fails, vacuous_trials=0, solver_errors=0,
        failure_rate=fails / 50, ci_low=max(0.0, fails / 50 - 0.1), ci_high=min(1.0, fails / 50 + 0.1),
        confidence_level=0.99, promised=0.1, pvalue=0.5, alpha_adjusted=0.0025,
        verdict="HOLDS", expected="HOLDS", as_expected=True, vacuous_reason="",
        stat_q05=0.1, stat_q50=0.5, stat_q95=0.9, stat_max=1.1, bound_q50=1.0, slack_min=-0.1,
        seconds=0.1, counterexample="", assumed="", decide_info="",
    )  # fmt: skip
    row.update(over)
    return row


def _write_dir(path: Path, cells, *, provenance=None):
    """Write a results directory by hand (CSV tables, as written without pyarrow)."""
    path.mkdir(parents=True, exist_ok=True)
    cells = pd.DataFrame(cells)
    cells.to_csv(path / "cells.csv", index=False)
    n = 20
    trials = pd.DataFrame(
        {
            "theorem": THEOREM, "cell": np.repeat(cells["cell"].to_numpy(), n),
            "trial": np.tile(np.arange(n), len(cells)), "status": "ok", "error": "", "seconds": 0.01,
        }
    )  # fmt: skip
    for v in dict.fromkeys(cells["variant"]):
        trials[f"{v}.holds"] = True
        trials[f"{v}.statistic"] = np.linspace(0.1, 0.9, len(trials))
        trials[f"{v}.bound"] = 1.0
        trials[f"{v}.vacuous"] = False
    trials.to_csv(path / "trials.csv", index=False)
    prov = {"alpha": 0.01, "family_size": {"violated": 4, "holds": 4}, "profile": "quick"}
    prov.update(provenance or {})
    (path / "provenance.json").write_text(json.dumps(prov), encoding="utf-8")
    return load_results(path)


def _parse(text):
    """Parse in html5lib's strict mode (raises on any parse error); returns the element tree."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(text)


def _hrefs(tree):
    return [el.get("href") for el in tree.iter() if isinstance(el.tag, str) and el.get("href") is not None]


def _assert_inert(text):
    """No live script of any kind: no <script> element, no event-handler attribute, no URL with a scheme
    (every link is an in-page anchor or a relative path inside the results directory)."""
    tree = _parse(text)
    assert "<script" not in text.lower()
    for el in tree.iter():
        if not isinstance(el.tag, str):
            continue
        tag = el.tag.split("}")[-1].lower()
        assert tag not in ("script", "iframe", "object", "embed", "base", "meta") or (
            tag == "meta" and set(el.attrib) <= {"charset", "name", "content"}
        ), tag
        for name, value in el.attrib.items():
            assert not name.split("}")[-1].lower().startswith("on"), (tag, name)
            if name.split("}")[-1].lower() in ("href", "src", "xlink:href", "action", "formaction"):
                v = value.strip().lower()
                assert "javascript:" not in v and ":" not in v.split("/", 1)[0], (tag, name, value)
                assert not v.startswith(("/", "\\")) and ".." not in v.split("/"), (tag, name, value)
    return tree


# ---------------------------------------------------------------------------------------------------------
# Regressions (each failed on an earlier report renderer)


def test_verdict_from_data_is_escaped_in_findings_table(tmp_path):
    evil = '<script>alert("verdict")</script>'
    result = _write_dir(tmp_path / "res", [_cell(i, r, verdict=evil) for i, r in enumerate([16, 32, 64, 128])])
    text = render_report(result)
    _assert_inert(text)
    assert "&lt;script&gt;alert(&quot;verdict&quot;)&lt;/script&gt;" in text  # shown, as text


@pytest.mark.parametrize(
    "link",
    ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "https://evil.example/x.npz",
     "//evil.example/x.npz", "data:text/html,<b>x</b>", "../../../etc/passwd", "counterexamples/../../x.npz",
     "/etc/passwd", "\\\\host\\share\\x.npz", "C:/x.npz", "counterexamples:x.npz"],
)  # fmt: skip
def test_counterexample_links_only_relative_inside_results_dir(tmp_path, link):
    cells = [_cell(i, r, verdict="VIOLATED", expected="VIOLATED") for i, r in enumerate([16, 32, 64, 128])]
    cells[0]["counterexample"] = link
    result = _write_dir(tmp_path / "res", cells)
    text = render_report(result)
    tree = _assert_inert(text)
    assert all(h.startswith("#") for h in _hrefs(tree)), _hrefs(tree)  # no link made from the bad path


def test_counterexample_relative_link_kept_and_quoted(tmp_path):
    cells = [_cell(i, r, verdict="VIOLATED", expected="VIOLATED") for i, r in enumerate([16, 32, 64, 128])]
    cells[0]["counterexample"] = "counterexamples/paul2014.c2/cell 0 #1?.npz"
    text = render_report(_write_dir(tmp_path / "res", cells))
    links = [h for h in _hrefs(_assert_inert(text)) if not h.startswith("#")]
    assert "counterexamples/paul2014.c2/cell%200%20%231%3F.npz" in links  # "#", "?": file name, not fragment


@pytest.mark.parametrize("where", ["variant", "param"])
def test_dollar_signs_render_as_plain_text(tmp_path, where):
    # matplotlib's mathtext parsed "$...$" in plot labels: an unbalanced one raised ValueError (exit 3)
    label = r"$\frac{1}{$ costs $x^{2}$"  # an even number of "$": matplotlib parsed it as mathtext
    cells = []
    for i, r in enumerate([16, 32, 64, 128]):
        c = _cell(i, r)
        if where == "variant":
            c["variant"] = label
        else:
            c["params"] = json.dumps({"r": r, "label": label}, sort_keys=True)
            c["p_label"] = label
        cells.append(c)
    for i, r in enumerate([16, 32, 64, 128]):  # a second group so the label is in a legend
        c = dict(cells[i], cell=4 + i, failures=0, failure_rate=0.0)
        if where == "param":
            c["params"] = json.dumps({"r": r, "label": "y"}, sort_keys=True)
            c["p_label"] = "y"
        cells.append(c)
    text = render_report(_write_dir(tmp_path / "res", cells))
    _assert_inert(text)
    assert r"$\frac{1}{$ costs $x^{2}$" in text


# ---------------------------------------------------------------------------------------------------------
# Fuzzing the string fields

_text = st.lists(
    st.one_of(
        st.sampled_from(list("<>&\"'`=$\\/:;#?%{}_^ \t\n\r\x00\x01\x0b\x0c\x7f\x85\ufeff\ufffe\U0010ffff")),
        st.sampled_from(["javascript:", "<script>", "</script>", "onerror=", "<img src=x onerror=alert(1)>",
                         "https://x.y/", "../", "$\\frac{", "]]>", "<!--", "-->", "<svg onload=alert(1)>",
                         "&#106;avascript:", "\u202e", "</textarea>", "</style>"]),
        st.characters(codec="utf-8"),
    ),
    max_size=12,
).map("".join)  # fmt: skip
_FIELDS = ("paper", "variant", "mode", "verdict", "expected", "vacuous_reason", "counterexample", "assumed",
           "decide_info", "claim", "role", "label", "pname")  # fmt: skip


def _fuzzed_result(values):
    cells = []
    for i, r in enumerate([16, 32, 64, 128]):
        c = _cell(i, r)
        for k in ("paper", "variant", "mode", "verdict", "expected", "vacuous_reason", "counterexample", "assumed",
                  "decide_info", "claim", "role"):  # fmt: skip
            c[k] = values[k]
        if i == 1:
            c["decide_info"] = json.dumps({values["label"]: [values["variant"], 1.5], "paper_x": [1, 2], "x": [3, 4]})
        c["params"] = json.dumps({"r": r, values["pname"]: values["label"]})
        cells.append(c)
    cells = pd.DataFrame(cells)
    trials = pd.DataFrame({"theorem": THEOREM, "cell": np.repeat(np.arange(4), 10), "trial": np.tile(np.arange(10), 4)})
    trials[f"{values['variant']}.statistic"] = np.linspace(0, 2, 40)
    trials[f"{values['variant']}.bound"] = 1.0
    prov = {"alpha": 0.01, "family_size": {"violated": 4, "holds": 4}, values["label"]: values["variant"]}
    from types import SimpleNamespace

    return SimpleNamespace(cells=cells, trials=trials, provenance=prov)


@settings(derandomize=True, max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.fixed_dictionaries({k: st.one_of(st.just("stated"), _text) if k == "variant" else _text for k in _FIELDS}))
def test_fuzzed_string_fields_render_inert_and_valid(values):
    result = _fuzzed_result(values)
    _assert_inert(render_report(result, title=values["label"]))
    _assert_inert(render_theorem_section(result, THEOREM))


def test_fuzz_alphabet_reaches_the_findings_table():
    # the fuzz above is only meaningful if its strings reach the findings row: check one by hand
    values = {k: "<b>&x</b>" for k in _FIELDS}
    values["variant"] = "stated"
    text = render_report(_fuzzed_result(values))
    assert text.count("&lt;b&gt;&amp;x&lt;/b&gt;") >= 3


def test_inline_svg_is_well_formed_xml(tmp_path):
    cells = [_cell(i, r, variant="a<&>\"'") for i, r in enumerate([16, 32, 64, 128])]
    text = render_report(_write_dir(tmp_path / "res", cells))
    svgs = [s.split("</svg>")[0] + "</svg>" for s in text.split("<svg")[1:]]
    assert svgs
    for s in svgs:
        ElementTree.fromstring("<svg" + s)  # raises on any XML error


def test_write_report_from_crafted_directory(tmp_path):
    result = _write_dir(tmp_path / "res", [_cell(i, r) for i, r in enumerate([16, 32, 64, 128])])
    path = write_report(result, tmp_path / "res" / "report.html")
    _assert_inert(path.read_text(encoding="utf-8"))

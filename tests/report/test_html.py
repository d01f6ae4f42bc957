"""The HTML report: self-contained, valid, escaped, and it renders in a real browser."""

import json
import re
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from rpcheck.report import render_report, render_theorem_section, write_report

EVIL = '<script>alert("x")</script>&"\''


def _fake_result():
    rng = np.random.default_rng(0)
    cells = []
    for i, r in enumerate([16, 32, 64, 128]):
        fails = [9, 4, 1, 0][i]
        cells.append(
            dict(
                theorem="user.claim",
                paper="user",
                variant="stated",
                mode="bound",
                cell=i,
                params=json.dumps({"r": r, "label": EVIL}),
                p_r=r,
                p_label=EVIL,
                trials=50,
                evaluated=50,
                failures=fails,
                vacuous_trials=0,
                solver_errors=0,
                failure_rate=fails / 50,
                ci_low=max(0.0, fails / 50 - 0.1),
                ci_high=min(1.0, fails / 50 + 0.1),
                confidence_level=0.99,
                promised=0.1,
                pvalue=0.5,
                alpha_adjusted=0.01 / 4,
                verdict=["VIOLATED", "INCONCLUSIVE", "HOLDS", "HOLDS"][i],
                expected="HOLDS",
                as_expected=i >= 2,
                vacuous_reason="",
                stat_q05=0.1,
                stat_q50=0.5,
                stat_q95=0.9,
                stat_max=1.1,
                bound_q50=1.0,
                slack_min=-0.1,
                seconds=0.1,
                counterexample=f"counterexamples/{EVIL}.npz" if i == 0 else "",
                assumed="",
                decide_info=json.dumps({"table": [{"method": EVIL, "err": 0.5}]}) if i == 1 else "",
            )
        )
    trials = pd.DataFrame(
        {
            "theorem": "user.claim",
            "cell": np.repeat(np.arange(4), 50),
            "trial": np.tile(np.arange(50), 4),
            "status": "ok",
            "error": "",
            "seconds": 0.01,
            "stated.holds": rng.random(200) > 0.1,
            "stated.statistic": rng.random(200),
            "stated.bound": np.full(200, 0.9),
            "stated.vacuous": False,
        }
    )
    prov = {"root_seed": 0, "profile": "ci", "numpy": np.__version__, "note": EVIL}
    return SimpleNamespace(cells=pd.DataFrame(cells), trials=trials, provenance=prov)


def test_report_is_escaped_and_self_contained():
    text = render_report(_fake_result(), title=EVIL)
    assert "<script" not in text  # every user string escaped, and the report carries no scripts
    assert "&lt;script&gt;" in text
    assert "<link" not in text and " src=" not in text  # no external resources
    for scheme in ("http://", "https://"):
        # the only URLs allowed are XML namespace identifiers inside inline SVG (not fetched)
        for line in text.split(scheme)[1:]:
            assert line.startswith(("www.w3.org/", "creativecommons.org/", "purl.org/", "matplotlib.org"))
    assert text.count("<svg") >= 2  # failure-rate plot and statistic distribution


def test_report_parses_as_valid_html():
    html5lib = pytest.importorskip("html5lib")
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    parser.parse(render_report(_fake_result()))  # raises ParseError on any HTML error


def test_report_contains_the_numbers():
    text = render_report(_fake_result())
    assert "9 / 50" in text and "VIOLATED" in text and "unexpected verdicts" in text
    assert "[0.08, 0.28]" in text  # the CI of the first cell
    assert "<th>method<" in text  # the decide() measurements render as a table (end tags are optional)


def test_write_report_is_atomic(tmp_path):
    path = write_report(_fake_result(), tmp_path / "sub" / "report.html")
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    # no temp file left behind; the per-trial distributions go to the companion page, linked from the report
    assert sorted(p.name for p in path.parent.iterdir()) == ["report-distributions.html", "report.html"]
    text = path.read_text(encoding="utf-8")
    assert 'href="report-distributions.html#t-' in text and "<summary>Distribution of statistic" not in text
    companion = (path.parent / "report-distributions.html").read_text(encoding="utf-8")
    assert companion.startswith("<!DOCTYPE html>") and "<svg" in companion
    assert "<svg" in render_report(_fake_result()).split("Distribution of statistic")[1]  # inline when rendered alone


@pytest.mark.parametrize("values", [np.full(50, 0.7), 0.7 + np.arange(50) * 1e-17, np.r_[np.full(49, 1e300), 1.0]])
def test_plots_cope_with_degenerate_ranges(values):
    from xml.etree import ElementTree

    from rpcheck.report.plots import forest_svg, sweep_svg

    q = np.quantile(values, [0.05, 0.5, 0.95])
    for log in (None, 10):
        svg = forest_svg([{"label": "c", "est": q[1], "lo": q[0], "hi": q[2], "ref": values.max()}], x_label="s/b",
                         ref_line=1.0, log=log)  # fmt: skip
        ElementTree.fromstring(svg)
    svg = sweep_svg([{"x": [4.0, 4.0], "y": values[:2], "lo": values[:2], "hi": values[:2]}], x_label="r")
    ElementTree.fromstring(svg)


def test_constants_section_from_rpcheck_constant_table():
    constants = pd.DataFrame(
        {
            "theorem": ["paul2014.lemma3.4", "paul2014.lemma3.1"], "cell": [0, 1], "p_c": [2.0, 0.1],
            "param": "r", "used": [369, 400], "empirical": [253, 260], "status": "found",
            "formula_value": [184.2, 4000.0], "implied_constant": [1.37, 0.065], "confirmed": True,
        }
    )  # fmt: skip
    text = render_report(_fake_result(), constants=constants)
    assert "Empirical constants" in text and "1.37" in text and "0.065" in text
    assert text.count("<svg") >= 3


# ---------------------------------------------------------------------------------------------------------
# Structure (engine contract v2 columns used when present, graceful without them)


def _v2_result(with_v2=True):
    """A user theorem with a claim, a self-check, a negative control and a measurement row."""
    rows = []
    for i, r in enumerate([8, 16, 32, 64]):
        for n in (100, 400):
            base = dict(
                theorem="user.v2", paper="user", cell=2 * i + (n == 400), params=json.dumps({"r": r, "n": n, "x": 0.5}),
                trials=200, evaluated=200, failures=4, vacuous_trials=0, solver_errors=0, failure_rate=0.02,
                ci_low=0.005, ci_high=0.031, confidence_level=0.99, promised=0.1, pvalue=0.9, alpha_adjusted=0.001,
                alpha_adjusted_holds=0.001,
                expected="", as_expected=True, vacuous_reason="", counterexample="", assumed="", decide_info="",
                r_prescribed=24 if n == 100 else np.nan,
            )  # fmt: skip
            rows.append(base | dict(variant="stated", mode="bound", verdict="HOLDS", role="claim",
                                    claim="P(fail) <= 0.031 at 99%", undetermined=2))  # fmt: skip
            rows.append(base | dict(variant="identity", mode="deterministic", verdict="HOLDS", role="self-check",
                                    claim="no counterexample in 200 draws", undetermined=0))  # fmt: skip
            rows.append(base | dict(variant="broken", mode="bound", verdict="VIOLATED", role="control",
                                    expected="VIOLATED", claim="", undetermined=0))  # fmt: skip
            rows.append(base | dict(variant="looseness", mode="report", verdict="INCONCLUSIVE", role="measurement",
                                    claim="", undetermined=0))  # fmt: skip
    cells = pd.DataFrame(rows)
    if not with_v2:
        cells = cells.drop(columns=["role", "claim", "undetermined"])
    prov = {"alpha": 0.01, "family_size": {"violated": 16, "holds": 8}, "seed": 0}
    return SimpleNamespace(cells=cells, trials=pd.DataFrame(), provenance=prov)


def test_roles_are_counted_apart_and_measurements_have_no_verdict():
    text = render_report(_v2_result())
    overview = text.split('id="overview"')[1].split("</section>")[0]
    assert re.search(r'v-HOLDS"?>HOLDS</span><b>8</b>theorem verdicts', overview)  # only the 8 claim rows
    assert "self-checks<b>8</b>8 as expected" in overview
    assert "negative controls<b>8</b>8 as expected" in overview
    assert re.search(r"MEASURED</span><b>8</b>measured, no verdict", overview)
    assert "INCONCLUSIVE</span><b>0</b>" in overview  # the measurement rows are not counted as INCONCLUSIVE
    assert text.count('<span class="tag">self-check</span>') >= 1 and '<span class="tag">control</span>' in text
    assert "P(fail) &lt;= 0.031 at 99%" in text  # every HOLDS shows its claim
    assert "2 undetermined" in text


def test_without_v2_columns_every_row_is_a_claim_and_holds_claims_are_derived():
    text = render_report(_v2_result(with_v2=False))
    assert re.search(r'v-HOLDS"?>HOLDS</span><b>16</b>theorem verdicts', text)
    assert "P(fail) ≤ 0.031 at 99.9% (promised 0.1) <span class=muted>(derived)</span>" in text
    assert "no counterexample in 200 draws: P(counterexample) ≤ 0.031 at 99% " in text


def test_error_rate_statement_from_provenance():
    text = render_report(_v2_result())
    assert "at α = 0.01: Holm. Over the <b>16</b> refutation tests" in text
    assert "over the <b>8</b> support tests" in text
    bare = SimpleNamespace(cells=_v2_result().cells, trials=pd.DataFrame(), provenance={})
    assert "records no α" in render_report(bare)


def test_layout_order_overview_contents_findings_papers_provenance_last():
    text = render_report(_fake_result())
    order = [text.index(s) for s in ('id="overview"', 'id="toc"', 'id="findings"', 'class="paper"', 'id="provenance"')]
    assert order == sorted(order)
    assert text.rstrip().endswith("</details></body></html>")  # provenance: last and collapsed
    assert '<details id="provenance"><summary>' in text


def test_unexpected_rows_come_first_in_the_overview():
    res = _fake_result()
    good = res.cells.assign(theorem="aaa.good", as_expected=True)
    res = SimpleNamespace(cells=pd.concat([good, res.cells]), trials=res.trials, provenance=res.provenance)
    overview = render_report(res).split('class="overview"')[1]
    assert overview.index("user.claim") < overview.index("aaa.good")


def test_parameters_keep_their_types():
    text = render_report(_v2_result())
    assert "In every cell: x=0.5" in text
    assert "<td>400<" in text and "400.0" not in text


def test_sweep_plot_uses_the_parameter_that_varies_within_groups_and_marks_the_prescribed_r():
    text = render_report(_v2_result())
    assert "stated: failure rate vs r" in text
    assert "n=100" in text and "n=400" in text  # one series per n
    assert "r_prescribed = 24 (theorem&#x27;s formula)" in text
    assert "exact law vs Monte Carlo" not in text  # no exact rows


def test_exact_rows_and_paper_numbers_are_plotted():
    res = _v2_result()
    cells = res.cells.copy()
    cells.loc[cells["variant"] == "stated", "mode"] = "exact"
    cells.loc[cells["variant"] == "looseness", "decide_info"] = json.dumps({"T1": {"gamma": 7.0, "paper_gamma": 7.7}})
    text = render_report(SimpleNamespace(cells=cells, trials=res.trials, provenance=res.provenance))
    assert "stated: exact law vs Monte Carlo" in text
    assert "looseness: gamma, paper vs this run" in text


def test_paper_vs_rpcheck_table_lists_every_compared_number():
    res = _v2_result()
    cells = res.cells.copy()
    info = {
        "data": "<stand-in>",
        "protocol": "exact L1-loss SVM",
        "T1": {"gamma": 7.0, "paper_gamma": 7.5, "gamma_se": 0.1},
        "table": [{"method": "RG", "acc_mean": 90.0, "paper_acc": 80.0}],
    }
    cells.loc[cells["variant"] == "looseness", "decide_info"] = json.dumps(info)
    text = render_report(SimpleNamespace(cells=cells, trials=res.trials, provenance=res.provenance))
    sec = text[text.index('id="paper-vs-rpcheck"') :]
    sec = sec[: sec.index("</section>")]
    assert "16 compared numbers" in sec  # 8 cells x 2 numbers
    assert "-0.5 ± 0.2576 (99%)" in sec and ">10<" in sec  # ours - paper, with the 99% normal interval
    assert "&lt;stand-in&gt;" in sec and "<stand-in>" not in sec  # escaped
    assert sec.count('rowspan="2"') == 8 * 3  # theorem, data and verdict cells span the cell's two numbers
    assert '<a href="#paper-vs-rpcheck">Paper vs rpcheck</a>' in text
    plain = render_report(_v2_result())
    assert "paper-vs-rpcheck" not in plain  # no section without comparisons


def test_render_theorem_section_is_self_contained():
    html5lib = pytest.importorskip("html5lib")
    page = render_theorem_section(_v2_result(), "user.v2")
    html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(page)
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page and "Error rates." in page
    assert "user.v2" in page and 'id="overview"' not in page
    frag = render_theorem_section(_v2_result(), "user.v2", full_page=False)
    assert frag.startswith('<section class="theorem"') and frag.endswith("</section>")
    from rpcheck.errors import RpcheckError

    with pytest.raises(RpcheckError, match="theorem_id.*'nope'.*'user.v2'"):
        render_theorem_section(_v2_result(), "nope")


def test_report_has_no_matplotlib_and_no_scripts():
    text = render_report(_fake_result())
    assert "matplotlib" not in text and "<script" not in text.lower()


def test_nice_ticks_terminate_on_ranges_at_the_rounding_level():
    # Regression: rpcheck verify (quick) was OOM-killed (22.9 GB) in report rendering: the tick loop
    # `t += step` never ended when hi - lo is at the rounding level of lo (t + step == t).
    from rpcheck.report.plots import _nice_ticks

    for lo, hi in [(1e17, 1e17 + 32), (1.0, 1.0 + 2e-16), (0.0, 1.0), (-5.0, 5.0), (364.0, 364.00000000001)]:
        t = _nice_ticks(lo, hi)
        assert 1 <= len(t) <= 21 and all(lo - 1e-9 * abs(lo) <= x <= hi + 1e-9 * abs(hi) + 1e-12 for x in t)
    assert _nice_ticks(0.0, 1.0) == [0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]


# ---------------------------------------------------------------------------------------------------------
# What write_report moves to its companion pages, and what stays in the report


def _compared_result():
    """_v2_result with a reproduction on the measurement rows: per cell, gamma agrees with the paper's and
    accuracy does not (an ``<q>_agrees`` key beside each)."""
    res = _v2_result()
    cells = res.cells.copy()
    info = {"T1": {"gamma": 7.0, "paper_gamma": 7.5, "gamma_agrees": True},
            "T2": {"acc": 90.0, "paper_acc": 80.0, "acc_agrees": False}}  # fmt: skip
    cells.loc[cells["variant"] == "looseness", "decide_info"] = json.dumps(info)
    return SimpleNamespace(cells=cells, trials=res.trials, provenance=res.provenance)


def test_plots_go_to_the_companion_page_with_a_link_per_variant(tmp_path):
    path = write_report(_v2_result(), tmp_path / "report.html")
    text = path.read_text(encoding="utf-8")
    companion = (tmp_path / "report-distributions.html").read_text(encoding="utf-8")
    assert "<svg" not in text  # every plot is on the companion page
    link = re.search(r'Plots: <a href="report-distributions.html#(v-[^"]+)">failure rate vs r</a>', text)
    assert link, "the variant 'stated' links to its sweep plot by the plot's title"
    assert f'<h3 id="{link.group(1)}">Variant <code>stated</code>' in companion
    assert "stated: failure rate vs r" in companion and companion.count("<svg") >= 2  # the broken variant too
    assert '<h2><a href="report.html#t-user-v2">user.v2</a></h2>' in companion  # back to the theorem
    inline = render_report(_v2_result())
    assert "stated: failure rate vs r" in inline and "Plots: <a" not in inline  # rendered alone: inline


def test_paper_vs_rpcheck_keeps_counts_and_disagreements_in_the_report(tmp_path):
    path = write_report(_compared_result(), tmp_path / "report.html")
    text = path.read_text(encoding="utf-8")
    sec = text[text.index('id="paper-vs-rpcheck"') :]
    sec = sec[: sec.index("</section>")]
    assert "16 compared numbers: 8 agree, 8 disagree, 0 with no agreement rule" in sec
    assert '<a href="report-paper-vs-rpcheck.html">' in sec
    assert "the 8 that disagree with the paper" in sec and sec.count("DISAGREES") == 8
    assert "; agrees<" not in sec  # only the disagreeing rows stay
    assert 'href="#t-user-v2"' in sec  # links within the report
    full = (tmp_path / "report-paper-vs-rpcheck.html").read_text(encoding="utf-8")
    assert full.startswith("<!DOCTYPE html>") and full.count("DISAGREES") == 8 and full.count("; agrees<") == 8
    assert 'href="report.html#t-user-v2"' in full  # the companion's theorem links lead into the report
    inline = render_report(_compared_result())
    assert "16 compared numbers</summary>" in inline and "report-paper-vs-rpcheck" not in inline


def test_rate_column_only_for_modes_with_a_sampling_error():
    text = render_report(_v2_result())
    tables = re.findall(r'<table class="cells"><thead><tr>(.*?)<tbody>', text)
    assert len(tables) == 4  # stated (bound), identity (deterministic), broken (bound), looseness (report)
    heads = dict(zip(("stated", "identity", "broken", "looseness"), tables))
    for v in ("stated", "broken"):
        assert "<th>rate [exact CI]" in heads[v] and "· bound" not in heads[v]
    assert "rate" not in heads["identity"] and "<th>failures / evaluated · deterministic" in heads["identity"]
    assert "rate" not in heads["looseness"] and "<th>failures / evaluated · report" in heads["looseness"]


def test_strip_letters_carry_a_title_only_when_unexpected():
    overview = render_report(_fake_result()).split('class="overview"')[1].split("</table>")[0]
    assert overview.count("<i class=v-HOLDS>H</i>") == 2  # cells 2 and 3, as expected: the letter says it all
    assert '<i class="v-VIOLATED unexp" title="cell 0: VIOLATED (expected HOLDS)">V!</i>' in overview
    assert '<i class="v-INCONCLUSIVE unexp" title="cell 1: INCONCLUSIVE (expected HOLDS)">I!</i>' in overview
    assert overview.count("title=") == 2


def test_report_and_companion_pages_parse_as_valid_html(tmp_path):
    html5lib = pytest.importorskip("html5lib")
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    write_report(_compared_result(), tmp_path / "report.html")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["report-distributions.html", "report-paper-vs-rpcheck.html", "report.html"]
    for name in names:
        parser.parse((tmp_path / name).read_text(encoding="utf-8"))  # raises ParseError on any HTML error


def test_the_error_statement_names_the_runs_stopping_rule():
    """The report's error-rate paragraph states the rule the run used (the words of report.model.stopping_rule,
    shared with the terminal and --json): anytime-valid e-values plus Holm for the default run, Holm for a run
    without stopping; never the looks rule for an anytime run."""
    from rpcheck.report._html_overview import _error_statement
    from rpcheck.report.model import error_rate_statement

    fam = {"violated": 12, "holds": 12}
    anytime = {"alpha": 0.01, "family_size": fam, "stopping": "anytime", "sequential": True, "sequential_looks": 10}
    html = _error_statement(anytime)
    assert "Anytime-valid" in html and "e-Bonferroni" in html and "looks" not in html
    assert "anytime-valid" in error_rate_statement(anytime)
    fixed = _error_statement({"alpha": 0.01, "family_size": fam, "stopping": "none", "sequential": False})
    assert "Holm" in fixed and "e-values" not in fixed

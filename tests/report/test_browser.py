"""The report in a real browser: headless Chromium at 1280 and 1440 px, driven over the DevTools pipe.

Asserts no horizontal overflow of the page (``document.documentElement.scrollWidth <= window.innerWidth``,
measured in the browser) and that the overview and findings tables fit their container, on a report made
wide on purpose (many varying parameters, long unbroken strings, wide measurement tables). Screenshots of
the top and of the findings are kept as test artefacts (their paths are printed; run with ``-s``).
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from _chromium import CHROMIUM, Browser

from rpcheck.report import render_theorem_section, write_report

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on PATH (Debian: apt-get install -y chromium); browser layout not checked"
)

LONG = "counterexamples/" + "x" * 150 + ".npz"


def _wide_result():
    """Rows of a registered theorem with findings (paul2014.c2, evidence variant "stated") plus a wide
    user theorem: 8 varying parameters, long unbroken strings, a wide decide_info table."""
    cells = []
    rng = np.random.default_rng(1)
    for i, r in enumerate([16, 32, 64, 128, 256, 512]):
        params = {
            "r": r, "n": 200, "d": 4096, "kind": "countsketch" if i % 2 else "srht", "eps": 0.25, "delta": 0.1,
            "rho": 10 + i, "coherence": "incoherent-" + "y" * 40, "grid": [1, 2, 4, 8, 16, 32],
        }  # fmt: skip
        for tid, variant, mode in (
            ("paul2014.c2", "stated", "bound"),
            ("user.wide", "a_rather_long_variant_name_without_any_spaces_at_all_" + "z" * 30, "bound"),
            ("user.wide", "exact_law", "exact"),
            ("user.wide", "identity", "deterministic"),
        ):
            fails = int(rng.integers(0, 10))
            cells.append(
                dict(
                    theorem=tid,
                    paper=tid.split(".")[0],
                    variant=variant,
                    mode=mode,
                    cell=i,
                    params=json.dumps(params | {"r": r, "n": 200 + 7 * i}),
                    trials=100,
                    evaluated=100,
                    failures=fails,
                    vacuous_trials=1,
                    solver_errors=2,
                    undetermined=3,
                    failure_rate=fails / 100,
                    ci_low=max(0, fails / 100 - 0.05),
                    ci_high=fails / 100 + 0.05,
                    confidence_level=0.99,
                    promised=0.1,
                    pvalue=0.3,
                    alpha_adjusted=1e-4,
                    verdict="HOLDS" if fails < 5 else "INCONCLUSIVE",
                    expected="HOLDS",
                    as_expected=fails < 5,
                    vacuous_reason="v" * 120 if i == 0 else "",
                    stat_q05=0.1,
                    stat_q50=0.2,
                    stat_q95=0.3,
                    stat_max=0.4,
                    bound_q50=1.0,
                    slack_min=0.01,
                    seconds=1.0,
                    counterexample=LONG if i == 1 else "",
                    assumed="",
                    role="self-check" if variant == "identity" else "claim",
                    claim="P(fail) <= 0.031 at 99% " + "w" * 60 if fails < 5 else "",
                    decide_info=json.dumps({f"column_{k}_" + "q" * 12: [1.23456789, 2.5] for k in range(14)})
                    if i == 2
                    else "",
                )  # fmt: skip
            )
    trials = pd.DataFrame(
        {"theorem": "user.wide", "cell": np.repeat(np.arange(6), 20), "trial": np.tile(np.arange(20), 6)}
    )
    prov = {"alpha": 0.01, "family_size": {"violated": 18, "holds": 12}, "note": "n" * 300}
    return SimpleNamespace(cells=pd.DataFrame(cells), trials=trials, provenance=prov)


MEASURE = """JSON.stringify({
  scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
  tables: [...document.querySelectorAll('table.overview, table.findings')].map(
    t => [t.className, t.scrollWidth, t.parentElement.clientWidth]),
  findingsTop: document.getElementById('findings').getBoundingClientRect().top + window.scrollY
})"""


@pytest.mark.parametrize("width", [1280, 1440])
def test_report_has_no_horizontal_overflow(tmp_path, width):
    path = write_report(_wide_result(), tmp_path / "report.html")
    with Browser(tmp_path / "profile", width=width, height=900) as browser:
        browser.goto(path.as_uri())
        m = json.loads(browser.evaluate(MEASURE))
        top = browser.screenshot(tmp_path / f"top-{width}.png", y=0, height=1200, width=width)
        findings = browser.screenshot(tmp_path / f"findings-{width}.png", y=m["findingsTop"], height=900, width=width)
    print(f"\nscreenshots: {top} {findings}")
    assert m["innerWidth"] == width
    assert m["scrollWidth"] <= m["innerWidth"], m
    assert len(m["tables"]) == 2, m  # the overview and the findings table exist
    for cls, table_w, container_w in m["tables"]:
        assert table_w <= container_w, (cls, table_w, container_w)  # readable without horizontal scrolling
    assert top.stat().st_size > 10_000 and findings.stat().st_size > 10_000


def test_theorem_section_page_has_no_horizontal_overflow(tmp_path):
    page = tmp_path / "section.html"
    page.write_text(render_theorem_section(_wide_result(), "user.wide"), encoding="utf-8")
    with Browser(tmp_path / "profile", width=1280) as browser:
        browser.goto(page.as_uri())
        sw, iw = json.loads(browser.evaluate("JSON.stringify([document.documentElement.scrollWidth, innerWidth])"))
    assert sw <= iw == 1280


# ------------------------------------------------------------------ size and scrolling boxes of a quick report

#: The report of a quick-profile run must stay below this (bytes), so that it opens fast and can be mailed.
QUICK_REPORT_LIMIT = 1_500_000
#: What the model below leaves out of a real quick report, measured as the real report's size minus the
#: model's (both written by ``write_report``; every plot and the full "Paper vs rpcheck" table are on the
#: companion pages of both): 1,319,810 - 1,078,884 = 240,926 bytes for a quick run of 97 theorems, 1,267 rows,
#: of which 169,674 are measurement tables larger than the model's one stand-in per theorem, 33,745 the
#: report's "Paper vs rpcheck" section (counts and disagreements; the model has no ``paper_*`` keys) and the
#: rest longer claims and findings. Rounded up; the model's report must leave that room under the limit.
#: To re-measure: sum the bytes of both reports by section (overview, findings, paper-vs-rpcheck, cells
#: tables, ``div.decide`` blocks) after ``rpcheck report`` of a quick run's results directory.
MODEL_LEAVES_OUT = 250_000

#: Every element whose own content is wider than its box and that scrolls horizontally (overflow-x auto or
#: scroll), with every <details> opened first so that collapsed tables are measured too.
SCROLLING_BOXES = """(() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  return JSON.stringify([...document.querySelectorAll('body *')].filter(e => {
    const o = getComputedStyle(e).overflowX;
    return (o === 'auto' || o === 'scroll') && e.scrollWidth > e.clientWidth + 1;
  }).map(e => [e.tagName, e.className, e.scrollWidth, e.clientWidth,
               (e.closest('section[id]') || {id: ''}).id]));
})()"""


def _quick_sized_result():
    """A result with the rows of a quick-profile run: every registered theorem, every variant, every cell of
    its quick profile, with the columns the engine writes (claim texts of the engine's length, intervals,
    statistic quantiles, a counterexample path on the VIOLATED rows) and, for the first cell of every
    theorem with report-mode variants, a measurement table of the size the reproductions record (8 rows x 12
    columns, one long text column), shared by those variants as a theorem's ``decide`` hook output is. No
    trials: the distributions go to the companion page anyway."""
    from rpcheck.engine import registry

    registry.load_builtins()
    cells, rng = [], np.random.default_rng(7)
    for th in registry.all_theorems():
        table = json.dumps({  # one decide() output per cell, shared by the theorem's report variants
            "data": f"{th.id} data set, 200 x 1024 stand-in, seeded", "protocol": "p" * 160,
            "table": [{"method": f"method {j}, r = {2 ** j}", **{f"q_{c}": float(rng.random()) for c in range(10)},
                       "paper": "'the paper says so' (Sec. 4, p. 12)"} for j in range(8)],
        })  # fmt: skip
        for v in th.variants:
            role = getattr(v, "role", "claim")
            for k, params in enumerate(th.profiles["quick"].cells):
                n = int(rng.integers(30, 400))
                fails = 0 if role == "claim" else n
                verdict = "INCONCLUSIVE" if v.mode == "report" else ("HOLDS" if fails == 0 else "VIOLATED")
                info = table if v.mode == "report" and k == 0 else ""
                cells.append(dict(
                    theorem=th.id, paper=th.paper, variant=v.name, mode=v.mode, cell=k,
                    params=json.dumps(params, default=str), trials=n, evaluated=n, failures=fails, vacuous_trials=0,
                    solver_errors=0, undetermined=0, failure_rate=fails / n, ci_low=0.0, ci_high=float(rng.random()),
                    confidence_level=0.99, promised=0.05 if v.mode in ("bound", "exact") else float("nan"),
                    pvalue=float(rng.random()), alpha_adjusted=1e-4, verdict=verdict, expected=verdict,
                    expected_declared=verdict, as_expected=True, vacuous_reason="", stat_q05=float(rng.random()),
                    stat_q50=float(rng.random()), stat_q95=float(rng.random()), stat_max=float(rng.random()),
                    bound_q50=1.0, slack_min=float(rng.random()), seconds=1.0, role=role,
                    counterexample=f"counterexamples/{th.id}__{v.name}__cell{k}.npz" if verdict == "VIOLATED" else "",
                    assumed="", decide_info=info,
                    claim=f"no counterexample in {n} draws: P(counterexample) <= {rng.random():.4f} at 99%",
                ))  # fmt: skip
    prov = {"alpha": 0.01, "family_size": {"violated": 177, "holds": 177}, "stopping": "anytime", "profile": "quick"}
    return SimpleNamespace(cells=pd.DataFrame(cells), trials=None, provenance=prov)


def test_quick_sized_report_is_small_and_nothing_scrolls_sideways(tmp_path):
    result = _quick_sized_result()
    assert len(result.cells) > 900  # the size of a quick run (1003 rows when this was written)
    path = write_report(result, tmp_path / "report.html")
    size = path.stat().st_size
    print(f"\nquick-sized report: {len(result.cells)} rows, {size} bytes")
    assert size <= QUICK_REPORT_LIMIT - MODEL_LEAVES_OUT, size
    with Browser(tmp_path / "profile", width=1280, height=900) as browser:
        browser.goto(path.as_uri())
        boxes = json.loads(browser.evaluate(SCROLLING_BOXES))
        sw, iw = json.loads(browser.evaluate("JSON.stringify([document.documentElement.scrollWidth, innerWidth])"))
    assert boxes == [], boxes
    assert sw <= iw == 1280


def test_wide_measurement_tables_do_not_scroll_sideways(tmp_path):
    """The wide report (14-column measurement table, long unbroken strings): every <details> open, no box
    scrolls horizontally at 1280 px."""
    path = write_report(_wide_result(), tmp_path / "report.html")
    with Browser(tmp_path / "profile", width=1280, height=900) as browser:
        browser.goto(path.as_uri())
        boxes = json.loads(browser.evaluate(SCROLLING_BOXES))
    assert boxes == [], boxes

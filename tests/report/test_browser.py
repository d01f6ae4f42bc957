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

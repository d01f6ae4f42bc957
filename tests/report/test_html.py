"""The HTML report: self-contained, valid, escaped, and it renders in a real browser."""

import json
import shutil
import subprocess
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from rpcheck.report import render_report, write_report

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
    assert "<th>method</th>" in text  # the decide() measurements render as a table


def test_write_report_is_atomic(tmp_path):
    path = write_report(_fake_result(), tmp_path / "sub" / "report.html")
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in path.parent.iterdir()] == ["report.html"]  # no temp file left behind


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
def test_report_renders_in_headless_chromium(tmp_path):
    path = write_report(_fake_result(), tmp_path / "report.html")
    shot = tmp_path / "shot.png"
    proc = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=1280,2000",
            f"--screenshot={shot}",
            path.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shot.exists() and shot.stat().st_size > 10_000, proc.stderr[-2000:]
    console = [ln for ln in proc.stderr.splitlines() if "CONSOLE" in ln]
    assert console == [], console  # no console errors or messages from the page


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

"""The Paper vs rpcheck table has rows for every reproduction that compares with a paper.

Cheap theorems run through the engine (serial, a few trials); the three whose trials fit a classifier with
cross-validation (lei2020.rsweep, lei2020.stability, paul2014.repro.bundled) have their ``decide`` hook
called on fabricated records of the right shape instead, and their decide_info is put in a copy of a run's row.
"""

import json
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from rpcheck.engine import Outcome, TrialRecord, run
from rpcheck.report import render_report
from rpcheck.report.html import _pair_rows

ENGINE_RUN = (
    "shi2012.fig1",
    "shi2012.fig1.margins",
    "shi2012.fig2",
    "paul2014.tables",
    "paul2014.c11",
    "lei2020.table2",
    "lei2020.toy_accuracy",
    "shi2012.fig3_4.trend",
    "shi2012.fig2.trend",
    "paul2014.repro.hapmap",
    "paul2014.repro.rcv1",
    "paul2014.repro.rcv1_multiclass",
)
#: run at ci: their quick profile has no cell with Paper-vs rows (shi2012.fig3_4: Fig. 4's cell is in ci)
ENGINE_RUN_CI = ("shi2012.fig3_4",)
DECIDE_ONLY = ("lei2020.rsweep", "lei2020.stability", "paul2014.repro.bundled", "lei2020.comparison")


def _rsweep_records(rng, k=5):
    from rpcheck.papers.lei2020 import rsweep

    out = []
    for _ in range(k):
        diag = {}
        for r in (2, 4, 8, 16, 32):
            diag[f"acc.srht.{r}"] = float(rng.uniform(80, 90))
            for m in rsweep._ISRHT:
                diag[f"acc.{m}.{r}"] = float(rng.uniform(80, 95))
        outs = {m: Outcome(holds=bool(rng.random() < 0.5)) for m in rsweep._ISRHT}
        out.append(TrialRecord(outcomes=outs, diagnostics=diag))
    return out


def _stability_records(rng, k=5):
    out = []
    for _ in range(k):
        diag = {f"acc.{m}.{r}.{C!r}": float(rng.uniform(80, 95))
                for m in ("srht", "srht-nps", "srht-topr") for r in (2, 4, 8, 16) for C in (0.25, 2.0)}  # fmt: skip
        outs = {m: Outcome(holds=bool(rng.random() < 0.5)) for m in ("srht-nps", "srht-topr")}
        out.append(TrialRecord(outcomes=outs, diagnostics=diag))
    return out


def _bundled_records(rng, rs, k=6):
    out = []
    for _ in range(k):
        diag = {"rho": 30.0, "n_train": 280.0, "err.full": 0.04, "gamma.full": 0.3}
        for i, r in enumerate(rs):
            diag |= {f"e.{r}": 1.0 / (i + 1), f"err.{r}": 0.2 / (i + 1) + rng.uniform(0, 1e-3),
                     f"margin_ratio.{r}": 0.5 + 0.1 * i, f"ball_ratio.{r}": 1.0, f"thm11_ratio.{r}": 2.0}  # fmt: skip
        out.append(TrialRecord(outcomes={"table": Outcome(True)}, diagnostics=diag))
    return out


def _comparison_records(rng, k=4):
    from rpcheck import compare as cmp
    from rpcheck.papers.lei2020 import comparison

    out = []
    for _ in range(k):
        diag = {}
        for m in cmp.METHODS:
            diag |= {f"acc.{m}": float(rng.uniform(80, 95)), f"time.{m}": float(rng.uniform(0.1, 1)),
                     f"C.{m}": 1.0}  # fmt: skip
        out.append(TrialRecord(outcomes=comparison.sentence_outcomes(diag), diagnostics=diag))
    return out


def _decide_infos():
    from rpcheck.papers.lei2020 import comparison, rsweep, stability
    from rpcheck.papers.paul2014 import repro_bundled as rp

    rng = np.random.default_rng(3)
    infos = {}
    _, infos["lei2020.rsweep"] = rsweep.decide(
        _rsweep_records(rng), {"dataset": "breast_cancer", "r_values": "2,4,8,16,32", "folds": 3, "c_grid": "ci"})
    _, infos["lei2020.stability"] = stability.decide(
        _stability_records(rng), {"dataset": "breast_cancer", "r_values": "2,4,8,16", "c_grid": "ci"})
    params = {"dataset": "breast_cancer", "kind": "gaussian", "rs": "8,16,32,64,256", "max_n": 0}
    _, infos["paul2014.repro.bundled"] = rp.decide(_bundled_records(rng, (8, 16, 32, 64, 256)), params)
    _, infos["lei2020.comparison"] = comparison.decide(
        _comparison_records(rng), {"dataset": "breast_cancer", "r": 8, "folds": 3, "c_grid": "ci"})
    return infos


@pytest.fixture(scope="module")
def report_section():
    res = run(list(ENGINE_RUN), profile="quick", trials=3, seed=7, backend="serial")
    res_ci = run(list(ENGINE_RUN_CI), profile="ci", trials=3, seed=7, backend="serial")
    cells = pd.concat([res.cells, res_ci.cells], ignore_index=True)
    template = cells[cells["theorem"] == "paul2014.tables"].iloc[[0]]
    extra = []
    for tid, info in _decide_infos().items():
        row = template.copy()
        row["theorem"], row["decide_info"] = tid, json.dumps(info)
        extra.append(row)
    cells = pd.concat([cells, *extra], ignore_index=True)
    text = render_report(SimpleNamespace(cells=cells, trials=res.trials, provenance=res.provenance))
    sec = text[text.index('id="paper-vs-rpcheck"') :]
    return sec[: sec.index("</section>")], cells


@pytest.mark.parametrize("tid", ENGINE_RUN + ENGINE_RUN_CI + DECIDE_ONLY)
def test_every_added_reproduction_has_rows_in_the_table(report_section, tid):
    sec, cells = report_section
    assert f">{tid}<" in sec
    infos = [s for s in cells.loc[cells["theorem"] == tid, "decide_info"] if isinstance(s, str) and s]
    assert any(_pair_rows(json.loads(s)) for s in infos)


def test_qualitative_rows_state_the_paper_and_the_agreement(report_section):
    sec, _ = report_section
    assert "Sec. 5.1, Fig. 2(a)-(b)" in sec  # shi2012.fig2: the paper's sentence, not a number
    assert "agrees" in sec
    assert "DISAGREES" in sec  # paul2014.tables: 'less than 4%' vs 4.01


def test_pair_rows_reads_qualitative_comparisons_only_with_an_agreement_key():
    info = {"paper_note": "text", "note": "x",  # no note_agrees: not a comparison
            "paper_shape": "'grows with r' (Fig. 9)", "shape": 0.5, "shape_se": 0.1, "shape_agrees": None,
            "rows": [{"method": "m", "paper_q": 2, "q": 1.9, "q_agrees": True}]}  # fmt: skip
    rows = _pair_rows(info)
    assert ("value", "shape", "'grows with r' (Fig. 9)", 0.5, 0.1, None) in rows
    assert ("m", "q", 2.0, 1.9, None, True) in rows
    assert len(rows) == 2


def test_paper_vs_rows_do_not_change_the_hook_verdicts():
    """The added keys are information only: the verdicts returned by the hooks are those of the rules."""
    from rpcheck.papers.lei2020 import _empirical, rsweep

    recs = _rsweep_records(np.random.default_rng(1), k=8)
    verdicts, _ = rsweep.decide(recs, {"dataset": "breast_cancer", "r_values": "2,4,8,16,32", "folds": 3,
                                          "c_grid": "ci"})  # fmt: skip
    assert verdicts == _empirical.sign_decide(recs, rsweep._ISRHT)[0]


def test_pair_rows_one_row_per_quantity_when_paper_q_and_paper_q_mean_both_name_q_mean():
    # lei2020.comparison's summary records carry the paper's time as ``paper_time`` (compare.summarize) and
    # ``paper_time_mean`` beside our ``time_mean``: one row, not two
    rows = _pair_rows({"method": "srht", "paper_time": 0.3, "paper_time_mean": 0.3, "time_mean": 0.24,
                       "paper_acc_mean": 92.45, "acc_mean": 60.7, "acc_mean_se": 1.2})
    assert sorted(q for _, q, *_ in rows) == ["acc_mean", "time_mean"]
    # without the explicit pair, ``paper_<q>`` still falls back to ``<q>_mean``
    rows = _pair_rows({"paper_time": 0.3, "time_mean": 0.24})
    assert [(q, p, o) for _, q, p, o, *_ in rows] == [("time", 0.3, 0.24)]

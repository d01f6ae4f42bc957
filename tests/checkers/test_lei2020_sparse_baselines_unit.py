"""lei2020.sparse_baselines: the same stand-ins and rows as lei2020.sparse_scale, Table 2's PCA / DLSS numbers
beside ours, the news20 PCA text row, adding "all" later is one line, and one cheap trial."""

import numpy as np
import pytest

from rpcheck import compare as cmp
from rpcheck.engine import PROFILES, Outcome, TrialRecord, registry
from rpcheck.engine.theorem import Verdict
from rpcheck.papers.lei2020 import sparse_baselines as B
from rpcheck.papers.lei2020 import sparse_scale as ss


@pytest.mark.parametrize("profile", PROFILES)
def test_cells_reuse_sparse_scales_stand_ins_and_rows(profile):
    ours = B.THEOREM.profiles[profile].cells
    theirs = [c for c in ss.THEOREM.profiles[profile].cells if c["dataset"] not in B.SKIPPED.get(profile, ())]
    assert [(c["dataset"], c["n"]) for c in ours] == [(c["dataset"], c["n"]) for c in theirs]
    for a, b in zip(ours, theirs):
        assert a["r"] == (b["r"] if profile in ("quick", "ci") else 256)
        assert registry.get("lei2020.sparse_baselines").cell_problem(a) is None
    if profile == "full":
        assert B.THEOREM.profiles[profile].trials == 15  # the paper's 15 runs
        assert {c["dataset"] for c in ours} == set(ss.DATASETS) and all(c["folds"] == 5 for c in ours)
        assert all(B.pca_runs(c) for c in ours)  # news20's PCA runs (module docstring: 4.2 GB modelled)


def test_methods_and_paper_rows():
    assert B.METHODS == ("all", "pca", "dlss-r/4", "dlss-r/2", "dlss-r")
    for key in ss.DATASETS:  # every method has its Table 2 row
        for m in B.METHODS:
            assert B.paper_key(m) in cmp.PAPER_TABLE2[key]
    assert cmp.PAPER_TABLE2["real-sim"]["pca"][0] == 93.10 and cmp.PAPER_TABLE2["rcv1-binary"]["dlss"][0] == 91.43
    assert cmp.PAPER_TABLE2["news20-binary"]["pca"][0] is None


def _records(params, accs):
    recs = []
    for i, (p, d) in enumerate(accs):
        diag = {"acc.pca": p, "time.pca": 2.0, "C.pca": 0.25, "acc.all": p + 1, "time.all": 0.5, "C.all": 1.0}
        for m in cmp.DLSS_METHODS:
            diag[f"acc.{m}"], diag[f"time.{m}"], diag[f"C.{m}"] = d + i * 0.1, 1.0, 1.0
        out = {f"acc_{m}": Outcome(holds=True, statistic=diag[f"acc.{m}"]) for m in B.METHODS}
        out.update({f"pca_gt_dlss_{t}": Outcome(holds=p > diag[f"acc.{m}"], statistic=p - diag[f"acc.{m}"])
                    for m, t in B._TAGS.items()})
        out.update({f"all_gt_dlss_{t}": Outcome(holds=p + 1 > diag[f"acc.{m}"], statistic=p + 1 - diag[f"acc.{m}"])
                    for m, t in B._TAGS.items()})
        recs.append(TrialRecord(outcomes=out, diagnostics=diag))
    return recs


def test_decide_rows_name_the_stand_in_and_table2():
    params = dict(dataset="news20-binary", n=3000, r=32, c_grid="ci", folds=3)
    verdicts, info = B.decide(_records(params, [(90.0, 80.0)] * 8), params)
    assert "NOT the real news20-binary" in info["data"] and "solve_svc" in info["protocol"]
    assert "L1-loss" in info["protocol"]
    rows = {r["method"]: r for r in info["table"] if "acc_mean" in r}
    assert rows["dlss-r/4"]["paper_acc"] == 79.33 and "assumed" in rows["dlss-r"]["dlss_rank"]
    assert "paper_acc" not in rows["pca"]  # Table 2 prints '-'
    assert rows["pca"]["acc_se"] == 0.0 and rows["dlss-r"]["acc_se"] > 0
    text = [r for r in info["table"] if "paper_pca_run" in r]
    assert len(text) == 1 and "out of memory" in text[0]["paper_pca_run"] and "run here" in text[0]["pca_run"]
    assert verdicts and all(v == Verdict.HOLDS for v in verdicts.values())  # 8/8 support: the sign test decides


def test_pca_not_run_when_over_the_memory_model(monkeypatch):
    monkeypatch.setattr(B, "PCA_MAX_BYTES", 1)
    params = dict(dataset="rcv1-binary", n=3000, r=8, c_grid="ci", folds=2)
    assert not B.pca_runs(params) and B.methods_of(params) == ("all", *cmp.DLSS_METHODS)
    rec = B.trial(params, np.random.default_rng(0))
    assert rec.outcomes["acc_pca"].vacuous and rec.outcomes["pca_gt_dlss_r"].vacuous
    assert "not run" in B._pca_text_row({**params, "dataset": "news20-binary"})["pca_run"]


def test_one_cheap_trial():
    params = dict(dataset="rcv1-binary", n=3000, r=8, c_grid="ci", folds=2)
    rec = B.trial(params, np.random.default_rng(1))
    assert set(rec.outcomes) == {v.name for v in B.THEOREM.variants}
    for m in B.METHODS:
        assert 0 <= rec.diagnostics[f"acc.{m}"] <= 100 and rec.diagnostics[f"C.{m}"] in B.C_GRIDS["ci"]

"""Structure and single-trial behaviour of the Lei & Lan (2020) theorems (fast, deterministic seeds)."""

import numpy as np
import pytest

import rpcheck.checkers.lei2020  # noqa: F401  (registers the theorems)
from rpcheck.engine import PROFILES, registry
from rpcheck.engine.theorem import Verdict

LEI = [t for t in registry.all_theorems() if t.paper == "lei2020"]


def test_all_lei_theorems_registered():
    ids = {t.id for t in LEI}
    assert ids == {
        "lei2020.rotation", "lei2020.energy", "lei2020.flattening", "lei2020.unbiased", "lei2020.prop1",
        "lei2020.replacement", "lei2020.dkm", "lei2020.nps_trace", "lei2020.prop2", "lei2020.topr",
        "lei2020.supervised", "lei2020.toy", "lei2020.selection_dual", "lei2020.dual_perturbation",
        "lei2020.comparison", "lei2020.rsweep", "lei2020.stability", "lei2020.table2", "lei2020.jl",
    }  # fmt: skip


@pytest.mark.parametrize("th", LEI, ids=lambda t: t.id)
def test_theorem_contract(th):
    names = {v.name for v in th.variants}
    for f in th.findings:
        assert f.evidence_variant in names, (th.id, f.key)
    for prof in PROFILES:
        for cell in th.profiles[prof].cells:
            for v in th.variants:
                exp = v.expected_for(cell)
                assert exp is None or isinstance(exp, Verdict)
                if v.mode == "bound":
                    assert 0 < v.delta_for(cell) < 1


CHEAP = ["lei2020.rotation", "lei2020.energy", "lei2020.flattening", "lei2020.unbiased", "lei2020.prop1",
         "lei2020.replacement", "lei2020.dkm", "lei2020.nps_trace", "lei2020.prop2", "lei2020.topr",
         "lei2020.supervised", "lei2020.toy", "lei2020.table2"]  # fmt: skip


@pytest.mark.parametrize("tid", CHEAP)
def test_quick_cell_trial_matches_expected_deterministic_verdicts(tid):
    """One trial of the first quick cell: every deterministic variant expected HOLDS holds, and the
    printed statements expected VIOLATED fail (they fail on every draw of these cells)."""
    th = registry.get(tid)
    cell = dict(th.profiles["quick"].cells[0])
    rec = th.trial(dict(cell), np.random.default_rng(0))
    assert set(rec.outcomes) == {v.name for v in th.variants}
    for v in th.variants:
        o = rec.outcomes[v.name]
        exp = v.expected_for(cell)
        if v.mode != "deterministic" or o.vacuous:
            continue
        if exp == Verdict.HOLDS:
            assert o.holds, (v.name, o)
        elif exp == Verdict.VIOLATED:
            assert not o.holds, (v.name, o)


def test_svm_trials_run_and_hold():
    th = registry.get("lei2020.dual_perturbation")
    rec = th.trial(dict(th.profiles["quick"].cells[0]), np.random.default_rng(1))
    assert rec.outcomes["bound"].holds
    th = registry.get("lei2020.selection_dual")
    rec = th.trial(dict(n=24, d=32, r=8, C=np.inf, noise=0.0), np.random.default_rng(2))
    assert rec.outcomes["margin_shrinks"].holds and not rec.outcomes["margin_shrinks"].vacuous


def test_toy_srht_choice_is_fair_coin():
    """Toy example: over 200 seeded trials the SRHT pick of the discriminative coordinate is Bin(200, 1/2);
    two-sided exact binomial test at 1e-4 (false alarm <= 1e-4)."""
    from scipy.stats import binomtest

    th = registry.get("lei2020.toy")
    k = sum(
        th.trial({"n_per_class": 20}, np.random.default_rng(i)).outcomes["srht_picks_useless_half"].holds
        for i in range(200)
    )
    assert binomtest(k, 200, 0.5).pvalue > 1e-4


def test_comparison_decide_on_synthetic_records():
    from rpcheck.checkers.lei2020 import empirical as e
    from rpcheck.engine import Outcome, TrialRecord

    rng = np.random.default_rng(0)
    methods = ["all", "pca", "gaussian", "achlioptas", "countsketch", "srht", "srht-nps", "srht-topr",
               "srht-supervised", "srht-supervised-largest"]  # fmt: skip
    base = dict(zip(methods, [99, 97, 90, 90, 90, 90, 91, 95, 96, 80]))
    recs = []
    for _ in range(5):
        diag = {}
        for m in methods:
            diag[f"acc.{m}"] = base[m] + rng.normal(0, 0.5)
            diag[f"time.{m}"] = 1.0
            diag[f"C.{m}"] = 1.0
        recs.append(TrialRecord(outcomes={v: Outcome(True) for v in e._SENTENCES}, diagnostics=diag))
    verdicts, info = e._comparison_decide(recs, {"dataset": "breast_cancer", "r": 8, "folds": 3, "c_grid": "ci"})
    assert verdicts["c17_topr_gt_srht"] == Verdict.HOLDS
    assert verdicts["c21_supervised_best"] == Verdict.HOLDS
    assert verdicts["c21_largest_ge_srht"] == Verdict.VIOLATED
    assert verdicts["c22_all_best"] == Verdict.HOLDS
    assert len(info["summary"]) == len(methods)

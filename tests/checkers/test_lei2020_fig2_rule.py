"""lei2020.fig2: the per-(method, baseline, r) sign tests, the intersection-union rows, the planted control
and self-check, and the Gram identity at r = d' behind the expected VIOLATED rows (fast; fabricated records
except one quick trial)."""

import json

import numpy as np
import pytest

import rpcheck.papers.lei2020  # noqa: F401  (registers the theorems)
from rpcheck import stats
from rpcheck.engine import Outcome, TrialRecord, Verdict, registry
from rpcheck.papers.lei2020 import _empirical as E
from rpcheck.papers.lei2020 import fig2

PARAMS = {"dataset": "breast_cancer", "r_values": "2,8,16", "folds": 3, "c_grid": "ci"}
RV = (2, 8, 16)


def _records(n, gap, rng, *, tie_at=None):
    """``n`` fabricated repetitions: baselines ~ U(80, 90); each proposed method = the best baseline + ``gap``
    points at every r (``gap`` < 0: a planted penalty below the worst baseline), except ``tie_at``, where it
    equals SRHT."""
    out = []
    for _ in range(n):
        diag = {"n_test": 171.0}
        for r in RV:
            for b in fig2.BASELINES:
                diag[f"acc.{b}.{r}"] = float(rng.uniform(80, 90))
            accs = [diag[f"acc.{b}.{r}"] for b in fig2.BASELINES]
            best = max(accs) if gap >= 0 else min(accs)
            for m in fig2.OURS:
                diag[f"acc.{m}.{r}"] = diag[f"acc.srht.{r}"] if r == tie_at else best + gap
        out.append(TrialRecord(outcomes={v.name: Outcome(True) for v in fig2.THEOREM.variants}, diagnostics=diag))
    return out


def test_registered_with_all_methods_and_rows():
    th = registry.get("lei2020.fig2")
    names = {v.name for v in th.variants}
    assert len(names) == 3 * 4 + 3 + 2
    assert {"topr_gt_se", "supervised_beats_four", fig2._CONTROL, fig2._SELFCHECK} <= names
    assert set(fig2.BASELINES) == {"gaussian", "achlioptas", "countsketch", "srht"}
    assert set(fig2.OURS) == {"srht-nps", "srht-topr", "srht-supervised"}
    assert [v.role for v in th.variants if v.name == fig2._CONTROL] == ["control"]


def test_planted_bonus_holds_and_planted_penalty_is_violated():
    """The decide rule reaches both verdicts: a proposed method one point above the best baseline in all 15
    repetitions HOLDS everywhere; one point below is VIOLATED everywhere (2^-15 <= 0.01/12)."""
    rng = np.random.default_rng(0)
    v_up, info = fig2.decide(_records(15, +1.0, rng), PARAMS)
    assert set(v_up.values()) == {Verdict.HOLDS}
    v_down, _ = fig2.decide(_records(15, -1.0, rng), PARAMS)
    assert set(v_down.values()) == {Verdict.VIOLATED}
    assert len(info["sign_tests"]) == 3 * 4 * 3


def test_ties_at_one_r_violate_the_srht_rows_only():
    """Ties with SRHT at one r in every repetition (as at r = d', module docstring): a tie does not support
    'higher', so the SRHT rows and the four-baseline rows are VIOLATED; with the other baselines the proposed
    methods are still above at that r unless SRHT was the best baseline (fabricated: ties with SRHT)."""
    rng = np.random.default_rng(1)
    v, _ = fig2.decide(_records(15, +1.0, rng, tie_at=16), PARAMS)
    for m in ("nps", "topr", "supervised"):
        assert v[f"{m}_gt_srht"] is Verdict.VIOLATED
        assert v[f"{m}_beats_four"] is Verdict.VIOLATED


def test_too_few_repetitions_are_inconclusive():
    rng = np.random.default_rng(2)
    for n in (1, 6):
        v, _ = fig2.decide(_records(n, -5.0, rng), PARAMS)
        assert set(v.values()) == {Verdict.INCONCLUSIVE}


def test_iut_levels():
    # HOLDS needs every p_holds <= 0.01; VIOLATED needs one p_violated <= 0.01 / K
    assert fig2.iut([(0.01, 1.0)] * 5) is Verdict.HOLDS
    assert fig2.iut([(0.01, 1.0)] * 4 + [(0.011, 0.99)]) is Verdict.INCONCLUSIVE
    assert fig2.iut([(1.0, 0.002)] + [(0.001, 1.0)] * 4) is Verdict.VIOLATED
    assert fig2.iut([(1.0, 0.0021)] + [(0.001, 1.0)] * 4) is Verdict.INCONCLUSIVE
    assert fig2.iut([]) is Verdict.INCONCLUSIVE


@pytest.mark.parametrize("n", [7, 10, 15])
def test_bound_rows_are_the_sign_test(n):
    """The control and self-check are bound rows with promised failure 1/2; their p-values equal the
    one-sided sign test of ``_empirical.sign_test`` (a repetition fails when it does not support)."""
    for k in range(n + 1):
        _, p_h, p_v = E.sign_test(k, n)
        pv_bound, ph_bound = stats.bound_pvalues(stats.Counts(failures=n - k, evaluated=n), 0.5)
        assert pv_bound == pytest.approx(p_v, abs=1e-12)
        assert ph_bound == pytest.approx(p_h, abs=1e-12)


def test_one_quick_trial_outcomes_and_paper_rows():
    """One real repetition at the quick cell: every method at every r recorded, the planted control fails and
    the self-check holds, and decide's Paper vs rpcheck rows are read by the report."""
    from rpcheck.report.html import _pair_rows

    th = registry.get("lei2020.fig2")
    cell = dict(th.profiles["quick"].cells[0])
    rec = th.trial(dict(cell), np.random.default_rng(0))
    assert set(rec.outcomes) == {v.name for v in th.variants}
    rv = E.resolve_r_values(cell["r_values"], cell["dataset"])
    for m in (*fig2.BASELINES, *fig2.OURS):
        for r in rv:
            assert 0.0 <= rec.diagnostics[f"acc.{m}.{r}"] <= 100.0
    assert rec.outcomes[fig2._CONTROL].holds is False
    assert rec.outcomes[fig2._SELFCHECK].holds is True
    _, info = fig2.decide([rec], cell)
    rows = _pair_rows(json.loads(json.dumps(info)))
    assert len(rows) == 3 * len(rv)
    assert "not one of the paper's" in info["data"]


def test_srht_topr_supervised_coincide_at_r_equal_d_padded():
    """The identity behind the expected VIOLATED rows at r = d': SRHT (all d' rotated columns, scale 1),
    top-r and supervised (all columns) give the original Gram matrix, so the SVM problems are the same."""
    from rpcheck.sketches import make_sketch

    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, (40, 30))
    y = np.where(rng.standard_normal(40) > 0, 1.0, -1.0)
    G = X @ X.T
    kinds = (("srht", {"replace": False}), ("srht-topr", {}), ("srht-supervised", {"rule": "smallest", "a": 1.0}))
    for kind, kw in kinds:
        S = make_sketch(kind, d=30, r=32, rng=rng, **kw)
        if kind == "srht-supervised":
            S.fit(X, y)
        elif kind == "srht-topr":
            S.fit(X)
        Z = S.apply(X)
        assert np.abs(Z @ Z.T - G).max() <= 1e-12 * np.abs(G).max()

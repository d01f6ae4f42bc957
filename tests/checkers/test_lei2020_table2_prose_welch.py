"""lei2020.table2_prose: the Welch test from printed summaries against its closed form, the robustness of the
verdicts to the std reading, and the perturbations behind the negative controls."""

import copy
import math

import pytest
from scipy import stats

from rpcheck import compare as cmp
from rpcheck.engine import Verdict
from rpcheck.papers.lei2020 import table2_prose as tp

SETS = tuple(cmp.PAPER_TABLE2)


@pytest.mark.parametrize(("a", "b"), [((94.23, 1.58), (92.45, 2.59)), ((82.91, 1.07), (82.09, 2.05)),
                                      ((76.81, 0.46), (76.82, 0.45))])
def test_welch_matches_the_closed_form(a, b):
    n = 15
    va, vb = a[1] ** 2 / n, b[1] ** 2 / n
    t = (a[0] - b[0]) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (n - 1) + vb**2 / (n - 1))
    p = 2 * stats.t.sf(abs(t), df)
    d, t2, df2, p2 = tp.welch(a, b)
    assert d == pytest.approx(a[0] - b[0]) and t2 == pytest.approx(t) and df2 == pytest.approx(df)
    assert p2 == pytest.approx(p, rel=1e-9)


def test_printed_p_values_of_the_docstring():
    t = tp.column("usps-b")
    assert tp.welch(t["srht-topr"], t["countsketch"])[3] == pytest.approx(0.184, abs=0.001)
    assert tp.welch(t["srht-topr"], t["srht"])[3] == pytest.approx(0.0425, abs=0.0005)
    r = tp.column("real-sim")
    assert tp.welch(r["srht-topr"], r["gaussian"])[3] == pytest.approx(0.086, abs=0.001)


@pytest.mark.parametrize("key", SETS)
def test_significance_verdicts_unchanged_under_the_population_std_reading(key, monkeypatch):
    base = {c: tp.evaluate(c, key)[0] for c in ("topr_sig_gt_srht", "topr_sig_gt_oblivious")}
    table = copy.deepcopy(cmp.PAPER_TABLE2)
    for m, v in table[key].items():
        if m != "r" and v[1] is not None:
            table[key][m] = (v[0], v[1] * math.sqrt(15 / 14), v[2])
    monkeypatch.setattr(cmp, "PAPER_TABLE2", table)
    assert {c: tp.evaluate(c, key)[0] for c in base} == base


@pytest.mark.parametrize("key", SETS)
@pytest.mark.parametrize("claim", list(tp.CLAIMS))
def test_claims_give_the_derived_verdicts_and_controls_flip(key, claim):
    ok, _ = tp.evaluate(claim, key)
    expected = tp.EXPECTED[claim][key]
    assert {True: Verdict.HOLDS, False: Verdict.VIOLATED, None: Verdict.VACUOUS}[ok] is expected
    assert tp.evaluate(claim, key, perturbed=True)[0] is False


@pytest.mark.parametrize("key", SETS)
def test_significance_control_puts_one_comparison_at_t_at_most_one(key):
    t = tp.column(key)
    tp.PERTURBATIONS["topr_sig_gt_oblivious"](t)
    ts = [tp.welch(t["srht-topr"], t[m])[1] for m in tp.OBLIVIOUS]
    assert min(ts) <= 1 + 1e-12
    assert min(tp.welch(t["srht-topr"], t[m])[3] for m in tp.OBLIVIOUS) < 1  # a number, not NaN
    assert max(tp.welch(t["srht-topr"], t[m])[3] for m in tp.OBLIVIOUS) >= 2 * (1 - stats.norm.cdf(1))


def test_perturbations_do_not_touch_the_printed_table():
    before = copy.deepcopy(cmp.PAPER_TABLE2)
    for key in SETS:
        for claim in tp.CLAIMS:
            tp.evaluate(claim, key, perturbed=True)
    assert cmp.PAPER_TABLE2 == before


def test_every_claim_has_a_verbatim_quote_and_a_place():
    assert set(tp.CLAIMS) <= set(tp.QUOTES) and set(tp.QUOTES) == set(tp.PLACES)
    th = tp.THEOREM
    for f in th.findings:
        assert f.quote == tp.QUOTES[f.evidence_variant]
        assert any(tp.EXPECTED[f.evidence_variant][k] is Verdict.VIOLATED for k in SETS)


def test_dlss_half_of_the_efficiency_sentence():
    """Against DLSS alone the seven random projections are all faster on rcv1-binary only (1.6 s vs <= 1.5 s);
    on real-sim (DLSS 2.0 s) every one of the seven is slower."""
    for key in SETS:
        t = tp.column(key)
        slow = [m for m in cmp.RP_METHODS if t[m][2] >= t["dlss"][2]]
        assert (not slow) is (key == "rcv1-binary")
        assert all(f"DLSS {t['dlss'][2]:g} s vs {tp._NAMES[m]}" in tp.evaluate("rp_faster_than_pca_dlss", key)[1]
                   for m in slow)
    assert len([m for m in cmp.RP_METHODS if tp.column("real-sim")[m][2] >= 2.0]) == 7


@pytest.mark.parametrize("key", SETS)
def test_time_ratio_claim_agrees_with_assess_claims(key):
    """``proposed_time_vs_srht`` decides the same event as ``compare.assess_claims``'s 'ISRHT only slightly
    increases running time over SRHT (ratio <= 1.5)' (the reading ``lei2020.comparison`` applies to its runs)."""
    import pandas as pd

    t = tp.column(key)
    rows = [{"r": 16, "method": m, "acc_mean": t[m][0], "acc_std": t[m][1] or 0.0, "time_mean": t[m][2], "reps": 15}
            for m in ("srht", *tp.PROPOSED)]
    claims = cmp.assess_claims(pd.DataFrame(rows))
    row = claims[claims["sentence"].str.startswith("ISRHT only slightly increases")]
    assert bool(row["supported"].item()) is tp.evaluate("proposed_time_vs_srht", key)[0]
    ratios = tp.time_ratios(t, tp.PROPOSED)
    assert ratios == {m: t[m][2] / t["srht"][2] for m in tp.PROPOSED}

"""paul2014.tables: the transcribed numbers, the comparison helpers, and the control against planted bugs."""

import numpy as np
import pytest

from rpcheck.papers.paul2014 import tables


def _outcomes():
    return {k: o.holds for k, o in tables.trial({"tables": "arXiv v5"}, np.random.default_rng(0)).outcomes.items()}


def test_the_arithmetic_of_the_docstring():
    t2, t5 = tables.TABLE_II, tables.TABLE_V
    assert round(21.36 - t2["eps_out"]["full"], 2) == 4.01
    assert round(t2["t_run"]["RG"][2] - t5["t_run"]["PCA"][2], 2) == -0.19
    assert round(t2["t_run"]["FHT"][2] - t5["t_run"]["PCA"][2], 2) == 0.16
    assert round(t2["t_run"]["full"] / t2["t_run"]["RG"][2], 2) == 1.96
    assert not tables.parses("24.1.0") and tables.parses("24.10")
    ratios = {k: round(v, 2) for k, v in tables.trp_ratios().items()}
    assert ratios == {("RS", 128): 9.33, ("RS", 256): 14.49, ("RS", 512): 22.92, ("FHT", 128): 9.63,
                      ("FHT", 256): 14.95, ("FHT", 512): 23.52, ("RG", 128): 8.48, ("RG", 256): 13.22,
                      ("RG", 512): 20.89}
    assert sum(not 10 <= v <= 20 for v in ratios.values()) == 6
    assert sum(not 9 <= v <= 22 for v in ratios.values()) == 3  # the widened reading still fails


def test_every_variant_has_an_outcome_and_matches_its_expectation():
    out = _outcomes()
    expected = {v.name: v.expected for v in tables.THEOREM.variants}
    assert set(out) == set(expected)
    for name, holds in out.items():
        if expected[name] is None:  # the text_vs_tables measurement row (no verdict; built by decide)
            continue
        assert holds == (expected[name].name == "HOLDS"), name


def test_text_vs_tables_rows_match_the_claim_variants():
    """The Paper vs rpcheck rows of decide agree with the verdict rows they restate."""
    _, info = tables.decide([], {"tables": "arXiv v5"})
    rows = {r["method"]: r for r in info["text_vs_tables"]}
    out = _outcomes()
    less4 = [r for k, r in rows.items() if "less than 4%" in k]
    assert [r["eps_out_increase_agrees"] for r in less4] == [False, False] and not out["table2_less_than_4pct"]
    rg = next(r for k, r in rows.items() if k.startswith("Sec. 4.2 'full-rank PCA faster than RG"))
    assert rg["trun_rp_minus_pca"] == -0.19 and rg["trun_rp_minus_pca_agrees"] is False
    yale = [r["full_over_trun_agrees"] for k, r in rows.items() if k.startswith("Sec. 4.3.1")]
    assert all(yale) == out["table6_trun_9_7_4_every_method"] and len(yale) == 12


@pytest.mark.parametrize(
    "helper",
    ["strictly_decreasing", "ranks_as", "about_twice", "differs_by", "rounds_to", "parses", "strictly_increasing",
     "within_rel", "spread_at_most", "all_within"],
)
def test_control_catches_a_helper_that_always_accepts(monkeypatch, helper):
    monkeypatch.setattr(tables, helper, lambda *a, **k: True)
    assert _outcomes()["arithmetic_control"] is True  # the control would HOLD: an unexpected verdict


def test_control_catches_a_range_helper_that_always_rejects(monkeypatch):
    """An always-False range helper would make table2_trp_ten_to_20's VIOLATED vacuous; the control sees it."""
    monkeypatch.setattr(tables, "all_within", lambda *a, **k: False)
    out = _outcomes()
    assert out["arithmetic_control"] is True and out["table2_trp_ten_to_20"] is False


def test_trp_rows_agree_with_the_claim_variant():
    _, info = tables.decide([], {"tables": "arXiv v5"})
    rows = [r for r in info["text_vs_tables"] if "ten to 20" in r["method"]]
    assert len(rows) == 9 and sum(r["trp_over_cw_agrees"] for r in rows) == 3
    assert all(isinstance(r["paper_trp_over_cw"], str) for r in rows)

"""Unit tests of paul2014.repro.techtc (Table II / footnote 3 on a TechTC stand-in): the sign test's exact
p-values, one small trial (keys, identities between the measured quantities, the control's planted block), and
the decide rules (Table II rows reused from paul2014.tables, the eps_in agreement rule, the C = 1 rows)."""

import numpy as np
import pytest

from rpcheck.engine import Outcome, Verdict, registry
from rpcheck.engine.theorem import TrialRecord
from rpcheck.papers.paul2014 import repro_techtc as T
from rpcheck.papers.paul2014.tables import TABLE_II

SMALL = {"n": 40, "d": 1000, "folds": 2, "rs": "32,64", "C": 500.0, "boost": 0.3}


def test_registered_with_findings_and_profiles():
    th = registry.get("paul2014.repro.techtc")
    assert th.findings and "TKDD" in th.citation.alt_location
    assert set(th.profiles) == {"quick", "ci", "standard", "full", "paper"}
    assert {c["data_source"] for c in th.profiles["paper"].cells} == {"real:techtc300"}
    for name in ("quick", "ci"):
        prof = th.profiles[name]
        assert prof.trials >= 11  # the sign test decides HOLDS with 10 of 11
        assert {c["C"] for c in prof.cells} == {500.0, 1.0}
    std = th.profiles["standard"].cells
    assert {c["rs"] for c in std} == {"128,256,512"} and {c["d"] for c in std} == {20_000}
    assert {c["folds"] for c in std} == {10} and {c["C"] for c in std} == {500.0, 1.0}


@pytest.mark.parametrize(("k", "n", "verdict"), [(10, 11, Verdict.HOLDS), (11, 11, Verdict.HOLDS),
                                                 (9, 11, Verdict.INCONCLUSIVE), (1, 11, Verdict.VIOLATED),
                                                 (0, 0, Verdict.INCONCLUSIVE), (6, 6, Verdict.INCONCLUSIVE)])
def test_sign_test(k, n, verdict):
    assert T.sign_test(k, n)[0] is verdict


def test_sign_test_pvalues_exact():
    v, p_h, p_v = T.sign_test(10, 11)
    assert p_h == pytest.approx(12 / 2048) and v is Verdict.HOLDS
    _, _, p_v = T.sign_test(1, 11)
    assert p_v == pytest.approx(12 / 2048)


def test_trial_quantities():
    rec = T.trial(dict(SMALL), np.random.default_rng(3))
    th = registry.get("paul2014.repro.techtc")
    assert set(rec.outcomes) == {v.name for v in th.variants}
    d = rec.diagnostics
    for m in T.METHODS:
        for r in (32, 64):
            tag = f"{m}.{r}"
            assert d[f"t_run.{tag}"] == pytest.approx(d[f"t_rp.{tag}"] + d[f"t_svm.{tag}"])
            assert 0.0 <= d[f"eps_in.{tag}"] <= 100.0 and 0.0 <= d[f"eps_out.{tag}"] <= 100.0
            assert d[f"gamma.{tag}"] > 0 and d[f"t_rp.{tag}"] > 0
    assert d["t_run.full"] == d["t_svm.full"]
    # the control's block is 16 CW projections: never faster than the fastest single one by construction of work
    assert all(d[f"t_rp.CWx16.{r}"] > 0 for r in (32, 64))
    # two r: the trend outcome is evaluated, not vacuous; one r: vacuous
    assert not rec.outcomes["eps_out_improves_with_r"].vacuous
    rec1 = T.trial(dict(SMALL, rs="32"), np.random.default_rng(3))
    assert rec1.outcomes["eps_out_improves_with_r"].vacuous


def _diag(C=500.0, rs=(128,), ein_proj=0.0, trp=None):
    d = {"zero_slack_fraction": 1.0, "max_alpha_over_C": 1e-3}
    for q, v in (("eps_in", 0.0), ("eps_in_count", 0.0), ("eps_out", 5.0), ("gamma", 0.5), ("t_svm", 0.04),
                 ("t_run", 0.04)):
        d[f"{q}.full"] = v
    trp = trp or {"CW": 1e-4, "RG": 3e-3, "RS": 5e-4, "FHT": 2e-4}
    for m in T.METHODS:
        for r in rs:
            t = f"{m}.{r}"
            d |= {f"eps_in.{t}": ein_proj, f"eps_in_count.{t}": ein_proj, f"eps_out.{t}": 12.0,
                  f"gamma.{t}": 0.35, f"t_svm.{t}": 0.02, f"t_rp.{t}": trp[m], f"t_run.{t}": 0.02 + trp[m]}
    for r in rs:
        d[f"t_rp.CWx16.{r}"] = 16e-4
    return d


def _rec(d, holds):
    out = {v: Outcome(h) for v, h in holds.items()}
    return TrialRecord(outcomes=out, diagnostics=d)


def _params(C=500.0, rs="128"):
    return {"n": 150, "d": 1000, "folds": 3, "rs": rs, "C": C, "boost": 0.3}


def test_decide_table2_rows_and_verdicts():
    holds = {v: True for v in T.SIGN_TESTED} | {"control_trp_cw_x16_fastest": False}
    recs = [_rec(_diag(), holds) for _ in range(11)]
    verdicts, info = T.decide(recs, _params())
    assert verdicts["trp_cw_below_rg"] is Verdict.HOLDS
    assert verdicts["control_trp_cw_x16_fastest"] is Verdict.VIOLATED
    rows = {r["method"]: r for r in info["paper_vs"]}
    rg = rows["RG, r = 128, stand-in 150 x 1000"]
    i = TABLE_II["r"].index(128)
    for q in ("eps_out", "gamma", "t_rp", "t_run"):
        assert rg[f"paper_{q}"] == TABLE_II[q]["RG"][i]  # reused, not retyped
    assert rg["eps_out"] == 12.0 and rg["eps_out_se"] == 0.0
    assert rg["eps_in_matches_agrees"] is True
    full = rows["full data, stand-in 150 x 1000"]
    assert full["paper_eps_out"] == TABLE_II["eps_out"]["full"] and full["paper_gamma"] == TABLE_II["gamma"]["full"]
    assert "NOT the real TechTC-300" in info["data"] and "KKT-certified" in info["protocol"]


def test_decide_eps_in_mismatch_disagrees():
    holds = {v: True for v in T.SIGN_TESTED}
    recs = [_rec(_diag(), holds) for _ in range(10)] + [_rec(_diag(ein_proj=1.0), holds)]
    _, info = T.decide(recs, _params())
    row = {r["method"]: r for r in info["paper_vs"]}["CW, r = 128, stand-in 150 x 1000"]
    assert row["eps_in_matches_agrees"] is False and row["eps_in_matches"].startswith("equal in 10/11")
    assert row["eps_in_minus_full"] == pytest.approx(1.0 / 11)


def test_decide_c1_rows():
    holds = {v: True for v in T.SIGN_TESTED}
    recs = [_rec(_diag(C=1.0, rs=(128, 512)), holds) for _ in range(3)]
    _, info = T.decide(recs, _params(C=1.0, rs="128,512"))
    rows = info["paper_vs"]
    full = rows[0]
    assert full["paper_eps_out"] == 17.21 and full["paper_t_run"] == 4.92 and "paper_gamma" not in full
    per = [r for r in rows if r["method"].startswith("RG, r = 512")][0]
    assert not any(k.startswith("paper_") and k != "paper_eps_in_matches" for k in per)  # no C = 1 Table II
    diff = [r for r in rows if r["method"].startswith("t_run(RG) - t_run(FHT), r = 512")][0]
    assert diff["paper_trun_rg_minus_fht"] == pytest.approx(0.28)
    assert diff["trun_rg_minus_fht"] == pytest.approx(3e-3 - 2e-4)
    other = [r for r in rows if r["method"].startswith("t_run(RG) - t_run(FHT), r = 128")][0]
    assert other["trun_rg_minus_fht_agrees"] is None


def test_domains():
    th = registry.get("paul2014.repro.techtc")
    assert th.cell_problem(dict(SMALL)) is None
    assert "'C'" in th.cell_problem(dict(SMALL, C=0.0))
    assert "rs" in th.cell_problem(dict(SMALL, rs="2000"))
    assert "'folds'" in th.cell_problem(dict(SMALL, folds=11))

"""Calibration of the engine's verdicts against claims whose failure probability is known exactly.

Every assertion uses fixed root seeds (deterministic); the comment of each test states the probability
that a correct engine would fail it for an unlucky choice of seeds (its false-alarm probability).
"""

import _engine_claims as claims
import numpy as np
import pytest
from scipy.stats import binom, binomtest

from rpcheck.engine import run
from rpcheck.stats import Counts, central_pvalue, exact_pvalues

ALPHA = 0.05  # family-wise level of the calibration runs (large, so error rates are measurable)
RUNS = 200  # root seeds
N = 100  # trials per cell of the boundary runs
FALSE_ALARM = 1e-3  # level of each calibration assertion


def _size(n, delta, t, side):
    """Exact P_delta(one-sided p-value <= t): the size of the level-t refutation ("greater") or support
    ("less") test with n trials when the failure probability is exactly delta."""
    k = np.arange(n + 1)
    pv = binom.sf(k - 1, n, delta) if side == "greater" else binom.cdf(k, n, delta)
    return float(binom.pmf(k, n, delta)[pv <= t].sum())


@pytest.fixture(scope="module")
def boundary_runs():
    """RUNS independent runs of 4 cells with failure probability exactly delta = 0.1, N trials each."""
    return [run("engine_test.calib", backend="serial", trials=N, seed=10_000 + s, alpha=ALPHA) for s in range(RUNS)]


@pytest.mark.parametrize("verdict, side", [("VIOLATED", "greater"), ("HOLDS", "less")])
def test_familywise_error_rate_at_the_boundary(boundary_runs, verdict, side):
    """At p = delta both nulls hold, so any VIOLATED (and any HOLDS) is a family-wise error.

    Holm over 4 null cells errs iff the smallest p-value is <= alpha/4, so the exact family-wise error
    rate is ``1 - (1 - size(alpha/4))**4`` (the cells are independent). The number of runs with an error
    is Bin(RUNS, that rate): it must be consistent with it (central exact test at FALSE_ALARM) and not
    significantly above ALPHA (one-sided exact test at FALSE_ALARM). False alarm <= 2e-3 per side.
    """
    fwer = 1 - (1 - _size(N, 0.1, ALPHA / 4, side)) ** 4
    assert fwer <= ALPHA
    errors = sum((r.cells["verdict"] == verdict).any() for r in boundary_runs)
    assert central_pvalue(errors, RUNS, fwer) > FALSE_ALARM, (errors, fwer)
    assert binomtest(errors, RUNS, ALPHA, alternative="greater").pvalue > FALSE_ALARM
    # Holm's levels: alpha/4 for the smallest p-value, up to alpha
    lv = np.concatenate([r.cells["alpha_adjusted"].to_numpy() for r in boundary_runs])
    assert lv.min() == pytest.approx(ALPHA / 4) and lv.max() <= ALPHA


def test_verdicts_far_from_the_boundary():
    """p = delta/25 -> HOLDS, p = 4 delta -> VIOLATED (delta = 0.05, 1000 trials, alpha = 0.01).

    Each correct verdict needs its p-value <= the Holm level, which is >= alpha/3; its exact probability
    (computed below) is > 1 - 1e-6, so the false-alarm probability of this test is < 3e-6.
    """
    res = run("engine_test.bernoulli", backend="serial", seed=3)
    c = res.cells.set_index("p_p")
    n, delta, lvl = 1000, 0.05, 0.01 / 3
    k = np.arange(n + 1)
    holds_power = binom.pmf(k, n, 0.002)[binom.cdf(k, n, delta) <= lvl].sum()
    viol_power = binom.pmf(k, n, 0.2)[binom.sf(k - 1, n, delta) <= lvl].sum()
    assert holds_power > 1 - 1e-6 and viol_power > 1 - 1e-6
    assert c.loc[0.002, "verdict"] == "HOLDS"
    assert c.loc[0.2, "verdict"] == "VIOLATED"
    assert c.loc[0.03, "verdict"] in ("HOLDS", "INCONCLUSIVE")  # p < delta: never VIOLATED (P <= 0.01)
    assert res.unexpected().empty


@pytest.fixture(scope="module")
def chi2_run():
    return run("engine_test.chi2", backend="serial", seed=2024)


def test_exact_oracle_chi_square(chi2_run):
    """||Rx||^2/||x||^2 ~ chi2_n / n exactly for R with i.i.d. N(0, 1/n) entries, so the failure
    probability of | ratio - 1 | > eps is ``chi2.cdf(n(1-eps), n) + chi2.sf(n(1+eps), n)``.

    (a) the 99.9% Clopper--Pearson interval of each of the 24 cells contains the exact value in >= 95%
        of the cells (>= 23): false alarm P(>= 2 misses) <= C(24, 2) 1e-6 < 3e-4;
    (b) rules v2: the "exact" verdict is never VIOLATED (false alarm <= alpha = 0.01, Holm); HOLDS now
        needs the equivalence test (rpcheck.stats: both one-sided CP bounds at the Holm level inside
        [p/1.25, 1.25 p]). Its exact power at the Bonferroni level alpha/m (<= every Holm level) is computed
        per cell: where it exceeds 0.999 the verdict must be HOLDS (false alarm <= 0.001 per such cell); where
        it is below 1e-6 the verdict must be INCONCLUSIVE (with 300 draws most cells cannot reach the margin);
        in between either HOLDS or INCONCLUSIVE.
    """
    rows = chi2_run.cells[chi2_run.cells["variant"] == "exact"]
    assert len(rows) >= 20
    inside = 0
    for _, r in rows.iterrows():
        p = claims.chi2_exact_p(r["p_n"], r["p_eps"])
        assert r["promised"] == p
        ci = binomtest(int(r["failures"]), int(r["evaluated"])).proportion_ci(0.999)
        inside += ci.low <= p <= ci.high
    assert inside >= 0.95 * len(rows)
    assert (rows["verdict"] != "VIOLATED").all()
    m = int(chi2_run.provenance["family_size"]["holds"])
    for _, r in rows.iterrows():
        power = _equivalence_power(int(r["evaluated"]), r["promised"], 0.01 / m)
        if power > 0.999:
            assert r["verdict"] == "HOLDS", r["params"]
        elif power < 1e-6:
            assert r["verdict"] == "INCONCLUSIVE", r["params"]
        if r["verdict"] == "HOLDS":
            assert "within [0.8p, 1.25p]" in r["claim"]


def _equivalence_power(n, p, level):
    """Exact P_p(equivalence p-value <= level) with n draws: the probability of HOLDS in mode "exact" when
    the promised probability p is the true one."""
    k = np.arange(n + 1)
    ph = np.array([exact_pvalues(Counts(int(x), n), p)[1] for x in k])
    return float(binom.pmf(k, n, p)[ph <= level].sum())


def test_exact_mode_reaches_holds_with_enough_draws():
    """One chi-square cell (n = 16, eps = 0.3, exact p = 0.389) with 6000 draws: the exact power of the
    equivalence test at alpha / 2 (the family: the cell's two exact variants) is computed below and exceeds
    0.999, so HOLDS has false-alarm probability < 0.001; and P(VIOLATED) <= 0.01 (the claim is exact)."""
    res = run("engine_test.chi2", backend="serial", seed=77, trials=6000, overrides={"n": 16, "eps": 0.3})
    row = res.cells[(res.cells["variant"] == "exact") & (res.cells["p_n"] == 16)].iloc[0]
    fam = res.provenance["family_size"]["holds"]
    assert _equivalence_power(6000, row["promised"], 0.01 / fam) > 0.999
    assert row["verdict"] == "HOLDS" and row["claim"].startswith("failure rate in [")


def test_exact_oracle_detects_a_wrong_probability(chi2_run):
    """The variant "wrong" promises the law of a sketch with 4n rows. In every cell whose exact power at
    the Bonferroni level alpha/m (<= Holm's level) exceeds 0.999 the verdict must be VIOLATED: false
    alarm <= 0.001 per such cell, <= 0.013 for the 13 cells checked."""
    rows = chi2_run.cells[chi2_run.cells["variant"] == "wrong"]
    m = int((chi2_run.cells["mode"] == "exact").sum())
    n_trials = 300
    k = np.arange(n_trials + 1)
    checked = 0
    for _, r in rows.iterrows():
        p_true = claims.chi2_exact_p(r["p_n"], r["p_eps"])
        p_wrong = r["promised"]
        pv = np.array([central_pvalue(int(x), n_trials, p_wrong) for x in k])
        power = binom.pmf(k, n_trials, p_true)[pv <= 0.01 / m].sum()
        if power > 0.999:
            checked += 1
            assert r["verdict"] == "VIOLATED", r["params"]
    assert checked >= 10  # 13 of the 24 cells have power > 0.999


@pytest.mark.heavy
def test_familywise_error_rate_at_the_boundary_many_seeds():
    """As test_familywise_error_rate_at_the_boundary with 2000 root seeds (opt in: -m heavy); the
    consistency test then resolves the exact rate to about +-0.01. False alarm <= 2e-3."""
    runs = 2000
    res = [run("engine_test.calib", backend="serial", trials=N, seed=90_000 + s, alpha=ALPHA) for s in range(runs)]
    for verdict, side in [("VIOLATED", "greater"), ("HOLDS", "less")]:
        fwer = 1 - (1 - _size(N, 0.1, ALPHA / 4, side)) ** 4
        errors = sum((r.cells["verdict"] == verdict).any() for r in res)
        assert central_pvalue(errors, runs, fwer) > FALSE_ALARM, (verdict, errors, fwer)

"""Sequential stopping: SEQUENTIAL_LOOKS equally spaced looks, Bonferroni level alpha / (m K) per test."""

import _engine_claims  # noqa: F401  (the engine_test.* theorems; conftest.py registers them)
import numpy as np
import pytest
from scipy.stats import binomtest

from rpcheck.engine import Theorem, Variant, run
from rpcheck.engine.runner import SEQUENTIAL_LOOKS


@pytest.fixture(scope="module")
def pair():
    full = run("engine_test.bernoulli", backend="serial", seed=4)
    seq = run("engine_test.bernoulli", backend="serial", seed=4, sequential=True)
    return full, seq


def test_clear_cells_stop_early(pair):
    """p = delta/25 -> HOLDS and p = 4 delta -> VIOLATED (delta = 0.05) by the second look (400 of 1000
    trials) at level 0.01 / (3 * 5): exact probability > 1 - 2e-6 each (test_power_of_the_early_looks)."""
    full, seq = pair
    c = seq.cells.set_index("p_p")
    for p, verdict in [(0.002, "HOLDS"), (0.2, "VIOLATED")]:
        assert c.loc[p, "verdict"] == verdict
        assert c.loc[p, "trials"] <= 2 * 1000 // SEQUENTIAL_LOOKS and c.loc[p, "stopped_early"]
        assert c.loc[p, "trials"] % (1000 // SEQUENTIAL_LOOKS) == 0  # stops only at a look
    # p = 0.03 < delta: never VIOLATED (P <= 0.01); a cell that stopped early stopped on a decision
    assert c.loc[0.03, "verdict"] in ("HOLDS", "INCONCLUSIVE")
    assert c.loc[0.03, "stopped_early"] == (c.loc[0.03, "verdict"] == "HOLDS")
    assert (seq.cells["alpha_adjusted"] == 0.01 / (3 * SEQUENTIAL_LOOKS)).all()
    assert seq.provenance["sequential"] and seq.provenance["sequential_looks"] == SEQUENTIAL_LOOKS
    assert (seq.cells["trials"] <= full.cells["trials"]).all()


def test_power_of_the_early_looks():
    from scipy.stats import binom

    n, lvl = 400, 0.01 / 15
    k = np.arange(n + 1)
    assert binom.pmf(k, n, 0.002)[binom.cdf(k, n, 0.05) <= lvl].sum() > 1 - 2e-6
    assert binom.pmf(k, n, 0.2)[binom.sf(k - 1, n, 0.05) <= lvl].sum() > 1 - 2e-6


def test_sequential_trials_are_a_prefix_of_the_full_run(pair):
    full, seq = pair
    for cell in range(3):
        a = full.trials[full.trials["cell"] == cell]["diag.u"].to_numpy()
        b = seq.trials[seq.trials["cell"] == cell]["diag.u"].to_numpy()
        assert np.array_equal(a[: len(b)], b)


DET_SINGLE = Theorem(
    id="engine_test.det_single",
    paper="test",
    title="one deterministic variant",
    citation=_engine_claims.CIT,
    statement="-",
    kind="deterministic",
    variants=(Variant("claim", "stat <= bound", mode="deterministic"),),
    profiles=_engine_claims._profiles(({"fail_p": 0.05, "solver_p": 0.0, "vac_p": 0.0},), 100),
    trial=_engine_claims.det_trial,
)


def test_deterministic_cell_stops_once_every_variant_is_decided():
    # one variant: a counterexample decides it; P(no failure in the first 20 draws) = 0.95**20 < 0.36,
    # P(none in 100) = 0.95**100 < 0.006; the seed is fixed and the cell stopped at look 1.
    res = run(DET_SINGLE, backend="serial", seed=5, sequential=True)  # an unregistered Theorem object
    r = res.cells.iloc[0]
    assert r["verdict"] == "VIOLATED" and r["stopped_early"] and r["trials"] < 100 and r["counterexample"]
    # two variants: "always" holds so far, which never settles a deterministic claim -> no early stop
    res = run("engine_test.det", backend="serial", seed=5, trials=100, sequential=True)
    c = res.cells.set_index(["cell", "variant"])
    assert c.loc[(1, "claim"), "verdict"] == "VIOLATED" and c.loc[(1, "claim"), "trials"] == 100


def test_sequential_false_violated_rate_at_the_boundary():
    """100 runs of 4 cells at p = delta: P(any VIOLATED) <= alpha = 0.05 by the union bound over cells and
    looks. The count of runs with a VIOLATED must not be significantly above alpha (one-sided exact test
    at 1e-3: false alarm <= 1e-3)."""
    runs = 100
    errors = 0
    for s in range(runs):
        r = run("engine_test.calib", backend="serial", trials=100, seed=50_000 + s, alpha=0.05, sequential=True)
        errors += (r.cells["verdict"] == "VIOLATED").any()
    assert binomtest(errors, runs, 0.05, alternative="greater").pvalue > 1e-3

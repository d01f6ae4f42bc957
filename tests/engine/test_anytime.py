"""Anytime-valid stopping (``stopping="anytime"``), until-decided runs and time budgets in the engine.

The rules themselves (e-values, their validity under optional stopping, the synthetic suite of true and false
claims) are tested in tests/test_stats_sequential.py; here: that the runner stops cells once decided, decides rows at
the levels it states, keeps results independent of the backend, and extends or cuts cells as asked.
"""

import math

import _engine_claims  # noqa: F401  (the engine_test.* theorems; conftest.py registers them)
import pytest

from rpcheck.engine import run
from rpcheck.engine.plan import ANYTIME_LOOKS, ANYTIME_SHARE, UNTIL_DECIDED_GROWTH
from rpcheck.errors import RpcheckError
from rpcheck.stats import Counts, decide_sequential


@pytest.fixture(scope="module")
def anytime():
    return run("engine_test.bernoulli", backend="serial", seed=4, stopping="anytime")


def test_clear_cells_stop_early_and_decide(anytime):
    """p = delta/25 -> HOLDS, p = 4 delta -> VIOLATED (delta = 0.05), each decided by the e-value before the
    planned 1000 trials, at a look (a multiple of 1000 / ANYTIME_LOOKS). Power: stats.trials_to_decide gives
    191 clean draws for HOLDS at level 0.01/50 (docstring example), and the one-row family here has the
    larger level 0.001; P(p = 0.2 row not VIOLATED by 1000 draws) is below 1e-20."""
    c = anytime.cells.set_index("p_p")
    for p, verdict in [(0.002, "HOLDS"), (0.2, "VIOLATED")]:
        assert c.loc[p, "verdict"] == verdict
        assert c.loc[p, "stopped_early"]
        assert c.loc[p, "trials"] < 1000 and c.loc[p, "trials"] % (1000 // ANYTIME_LOOKS) == 0
        assert "anytime-valid" in c.loc[p, "claim"]
    assert c.loc[0.03, "verdict"] in ("HOLDS", "INCONCLUSIVE")  # p < delta: never VIOLATED (P <= 0.01)
    assert bool(anytime.cells["as_expected"].all())


def test_anytime_decisions_use_the_stated_levels(anytime):
    """An e-decided row's level is ANYTIME_SHARE * alpha / m and its verdict is decide_sequential's at its
    counts; a row that ran every planned trial undecided by e-values gets Holm at (1 - ANYTIME_SHARE) alpha."""
    cells = anytime.cells
    m = int((cells["mode"] == "bound").sum())
    for _, row in cells.iterrows():
        counts = Counts(
            int(row["failures"]), int(row["evaluated"]), int(row["undetermined"]), int(row["solver_errors"])
        )
        seq = decide_sequential("bound", counts, row["promised"], alpha_violated=ANYTIME_SHARE * 0.01 / m,
                                alpha_holds=ANYTIME_SHARE * 0.01 / m)
        if row["stopped_early"]:
            assert row["verdict"] == seq.verdict.value
            assert math.isclose(row["alpha_adjusted"], ANYTIME_SHARE * 0.01 / m)
        elif seq.verdict.value == "INCONCLUSIVE":
            assert row["alpha_adjusted"] <= (1 - ANYTIME_SHARE) * 0.01 + 1e-15
    assert anytime.provenance["stopping"] == "anytime"


def test_anytime_is_backend_independent(anytime):
    """Looks are at fixed trial counts, so processes and serial decide identically."""
    other = run("engine_test.bernoulli", backend="processes", jobs=2, seed=4, stopping="anytime")
    cols = ["p_p", "trials", "failures", "evaluated", "verdict", "stopped_early"]
    assert other.cells[cols].equals(anytime.cells[cols])


def test_deterministic_rows_stop_at_their_ninety_clean_draws():
    """engine_test.det's failing cell (fail_p = 0.05, no vacuous draw, 300 planned; looks every 30 trials):
    its "claim" row is settled by the first counterexample, its "always" row by 90 clean draws, so the cell
    stops at the look of 90 trials (P(no counterexample in 90 draws) = 0.95**90 < 0.01)."""
    res = run("engine_test.det", backend="serial", seed=5, trials=300, stopping="anytime")
    c = res.cells
    fail_cell = c[(c["p_fail_p"] == 0.05) & (c["variant"] == "claim")].iloc[0]
    assert fail_cell["verdict"] == "VIOLATED" and fail_cell["stopped_early"] and fail_cell["trials"] == 90
    assert bool(res.cells["as_expected"].all())


def test_until_decided_doubles_an_undecided_cell():
    """With 20 planned trials no row of engine_test.bernoulli can be decided at level 0.01/3 (HOLDS needs
    about 150 clean draws); an until-decided run doubles the clear cells' trials until their rows are decided,
    and a row at p close to delta grows up to UNTIL_DECIDED_GROWTH x 20 trials and stays undecided."""
    res = run("engine_test.bernoulli", backend="serial", seed=4, trials=20, stopping="until-decided")
    c = res.cells.set_index("p_p")
    assert c.loc[0.002, "verdict"] == "HOLDS" and 20 < c.loc[0.002, "trials"] <= 20 * UNTIL_DECIDED_GROWTH
    assert c.loc[0.2, "verdict"] == "VIOLATED"
    assert c.loc[0.03, "trials"] <= 20 * UNTIL_DECIDED_GROWTH
    assert c.loc[0.03, "verdict"] in ("HOLDS", "INCONCLUSIVE")
    # no Holm part: every statistical decision is an e-value decision at alpha / m
    assert all("e-value" in t for t in res.cells["claim"])


def test_a_spent_budget_cuts_cells_and_says_what_they_need():
    """A budget far below the run's length: the cells end early (budget_cut), undecided statistical rows say
    how many more draws they would need, and nothing is decided that the counts do not support."""
    res = run("engine_test.bernoulli", backend="serial", seed=4, stopping="anytime", budget=1e-6,
              overrides={"sleep": 0.002})
    c = res.cells
    assert (c["trials"] < 1000).all()
    undecided = c[c["verdict"] == "INCONCLUSIVE"]
    assert len(undecided) >= 1
    assert all("time budget ran out" in t for t in undecided["claim"])
    assert any("more draws at the current rate" in t for t in undecided["claim"])
    assert res.provenance["budget_seconds"] == 1e-6


@pytest.mark.parametrize("kwargs, match", [
    ({"stopping": "sometimes"}, "stopping"),
    ({"stopping": "anytime", "sequential": True}, "sequential"),
    ({"budget": 0}, "budget"),
    ({"budget": -5.0}, "budget"),
])
def test_bad_stopping_arguments(kwargs, match):
    with pytest.raises(RpcheckError, match=match):
        run("engine_test.bernoulli", backend="serial", **kwargs)

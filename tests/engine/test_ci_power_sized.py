"""The quick and ci profiles are sized for decisions: every declared expected verdict is attainable.

The default test run (``python -m pytest``) puts every statistical row of every theorem at ``ci`` into one
family (weighted Bonferroni over the theorem runs, Holm inside each; PROFILES.md "Calibration"), so the
smallest level a row can meet is ``alpha / M`` with ``M = family_size(all theorems, "ci")``. An expected
HOLDS or VIOLATED of a "bound" or "exact" row whose trial count cannot reach that verdict at ``alpha / M``
whatever the outcomes is reconciled by the engine to "INCONCLUSIVE also as expected": honest, but the row
then says nothing at ci. This test fails when a ci profile leaves any such row: the fix is more trials with
a power computation written next to the profile (see the "Power (ci)" comments in the checkers), never a
weaker expectation. Pure bookkeeping: no trial is run.
"""

import pytest

from rpcheck.engine import registry, unattainable_expectations

PAPERS = {"paul2014", "shi2012", "zhang2013", "lei2020", "alpcan2016"}


def _theorems():
    """The built-in theorems (the theorem tests of the default run), not ones other tests register."""
    return sorted((th for th in registry.all_theorems() if th.paper in PAPERS), key=lambda th: th.id)


def _lines(rows):
    return "\n".join(f"{r['theorem']} {r['variant']} cell {r['cell']} ({r['trials']} trials): {r['reason']}"
                     for r in rows)


@pytest.mark.heavy
@pytest.mark.parametrize("profile", ["standard", "full"])
def test_standard_and_full_reach_every_declared_verdict(profile):
    """The same at ``standard`` and ``full`` (opt in: ``pytest -m heavy``; about 45 s, the callable
    expectations of every full cell are evaluated), and for the deterministic rows too (>= 90 evaluated draws;
    the trial count bounds them from above): in one whole-profile command (``rpcheck verify --profile P``, one
    Holm family of every theorem's rows), which is the strictest level any run of the profile meets.
    ``benchmarks/attainability.py`` prints the same table."""
    bad = unattainable_expectations(_theorems(), profile)
    assert not bad, f"{len(bad)} rows at level {bad[0]['level']:.3g}:\n" + _lines(bad)


def test_every_expected_statistical_verdict_attainable_at_the_suite_level():
    from rpcheck.engine import family_size

    ths = _theorems()
    assert family_size(ths, "ci") > 100  # the family really is the whole suite
    bad = unattainable_expectations(ths, "ci", modes=("bound", "exact"))
    assert not bad, f"{len(bad)} rows at level {bad[0]['level']:.3g}:\n" + _lines(bad)


@pytest.mark.parametrize("profile", ["quick", "ci"])
def test_every_declared_verdict_attainable_in_the_default_runs(profile):
    """`rpcheck verify` (quick) and the default test run (ci) reach every declared HOLDS and VIOLATED, the
    deterministic rows' 90 draws included: a row listed here could only ever be reconciled to "INCONCLUSIVE
    also as expected". Deterministic rows are asked with the cell's trial count; their vacuous draws are
    covered by sizing with :func:`rpcheck.stats.deterministic_trials` (the profiles state the fraction)."""
    bad = unattainable_expectations(_theorems(), profile, modes=("bound", "exact", "deterministic", "search"),
                                    stopping="anytime")
    assert not bad, f"{len(bad)} rows at level {bad[0]['level']:.3g}:\n" + _lines(bad)


#: The theorems whose quick and ci cells follow the cheap-exact-row rule (docs/adding-a-theorem.md, "profiles"):
#: each cell with an expected-HOLDS exact row costs under ~6 CPU s (measured beside the profiles, not here).
CHEAP_EXACT = ("lei2020.toy_accuracy", "shi2012.fig1", "shi2012.fig2", "shi2012.lemma10", "shi2012.thm5",
                        "shi2012.thm5.measured_band", "zhang2013.thm3.chi2")


@pytest.mark.parametrize("profile", ["quick", "ci"])
def test_cheap_exact_rows_miss_holds_with_probability_at_most_1e_5(profile):
    """Every expected-HOLDS exact row of those theorems' quick and ci cells reaches HOLDS with probability
    >= 1 - 1e-5 when its closed form is the true rate (exact binomial), at the level 0.9 * 0.01 / 2000: the
    anytime run's Holm share over at most 2,000 rows, at or below the first Holm step of a whole quick or ci
    run (checked: its family has at most 2,000 rows). Twenty calibration seeds then expect fewer than 0.01
    misses over all these rows."""
    from rpcheck.engine import Verdict, family_size
    from rpcheck.engine.plan import ANYTIME_SHARE
    from rpcheck.stats import holds_power

    level = (1 - ANYTIME_SHARE) * 0.01 / 2000
    assert family_size(_theorems(), profile) <= 2000
    misses = []
    for tid in CHEAP_EXACT:
        th = registry.get(tid)
        prof = th.profiles[profile]
        for index, cell in enumerate(prof.cells):
            n = prof.trials_for(dict(cell))
            for v in th.variants:
                if v.mode == "exact" and v.expected_for(dict(cell)) is Verdict.HOLDS:
                    p0 = v.delta_for(dict(cell))
                    misses.append((tid, index, v.name, n, 1.0 - holds_power("exact", n, p0, p0, level)))
    assert len(misses) >= 15, misses
    bad = [m for m in misses if m[4] > 1e-5]
    assert not bad, bad
    assert 20 * sum(m[4] for m in misses) < 0.01

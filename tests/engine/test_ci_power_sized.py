"""The ci profile is sized for the suite-wide error control of the default test run.

The default test run (``python -m pytest``) puts every statistical row of every theorem at ``ci`` into one
family (weighted Bonferroni over the theorem runs, Holm inside each; PROFILES.md "Calibration"), so the
smallest level a row can meet is ``alpha / M`` with ``M = family_size(all theorems, "ci")``. An expected
HOLDS or VIOLATED of a "bound" or "exact" row whose trial count cannot reach that verdict at ``alpha / M``
whatever the outcomes is reconciled by the engine to "INCONCLUSIVE also as expected": honest, but the row
then says nothing at ci. This test fails when a ci profile leaves any such row: the fix is more trials with
a power computation written next to the profile (see the "Power (ci)" comments in the checkers), never a
weaker expectation. Pure bookkeeping: no trial is run.
"""

from rpcheck import stats
from rpcheck.engine import registry
from rpcheck.engine.runner import _build_cells, family_size
from rpcheck.stats import Verdict

ALPHA = 0.01


PAPERS = {"paul2014", "shi2012", "zhang2013", "lei2020", "alpcan2016"}


def _theorems():
    """The built-in theorems (the theorem tests of the default run), not ones other tests register."""
    return sorted((th for th in registry.all_theorems() if th.paper in PAPERS), key=lambda th: th.id)


def test_every_expected_statistical_verdict_attainable_at_the_suite_level():
    ths = _theorems()
    m = family_size([th.id for th in ths], "ci")
    assert m > 100  # the family really is the whole suite
    level = ALPHA / m
    bad = []
    for cell in _build_cells(ths, "ci", None, None, False):
        for spec in cell.specs:
            v = spec.variant
            if v.mode not in ("bound", "exact") or spec.vacuous_reason:
                continue
            if spec.expected not in (Verdict.HOLDS, Verdict.VIOLATED):
                continue
            why = stats.unattainable(v.mode, spec.expected, cell.n, spec.delta, level=level,
                                     exhaustive=v.exhaustive)
            if why:
                bad.append(f"{cell.theorem.id} {v.name} cell {cell.index} ({cell.n} trials): {why}")
    assert not bad, f"{len(bad)} rows at level 0.01/{m}:\n" + "\n".join(bad)

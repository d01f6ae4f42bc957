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

import pytest

from rpcheck import stats
from rpcheck.engine import registry
from rpcheck.engine.runner import _build_cells, family_size
from rpcheck.stats import Verdict

ALPHA = 0.01


PAPERS = {"paul2014", "shi2012", "zhang2013", "lei2020", "alpcan2016"}


def _theorems():
    """The built-in theorems (the theorem tests of the default run), not ones other tests register."""
    return sorted((th for th in registry.all_theorems() if th.paper in PAPERS), key=lambda th: th.id)


def _out_of_reach(ths, profile, m, modes):
    """Rows of ``ths`` at ``profile`` whose declared HOLDS/VIOLATED is unattainable at level ``ALPHA / m``."""
    level = ALPHA / m
    bad = []
    for cell in _build_cells(ths, profile, None, None, False):
        for spec in cell.specs:
            v = spec.variant
            if v.mode not in modes or spec.vacuous_reason:
                continue
            if spec.expected not in (Verdict.HOLDS, Verdict.VIOLATED):
                continue
            why = stats.unattainable(v.mode, spec.expected, cell.n, spec.delta, level=level,
                                     exhaustive=v.exhaustive)
            if why:
                bad.append(f"{cell.theorem.id} {v.name} cell {cell.index} ({cell.n} trials): {why}")
    return bad


@pytest.mark.heavy
@pytest.mark.parametrize("profile", ["standard", "full"])
def test_standard_and_full_reach_every_declared_verdict(profile):
    """The same at ``standard`` and ``full`` (opt in: ``pytest -m heavy``; about 45 s, the callable
    expectations of every full cell are evaluated), and for the deterministic rows too (>= 90 evaluated draws;
    the trial count bounds them from above): in one whole-profile command (``rpcheck verify --profile P``, one
    Holm family of every theorem's rows), which is the strictest level any run of the profile meets.
    ``tests/bench/attainability.py`` prints the same table; session 18 brought both profiles to 0 rows."""
    ths = _theorems()
    m = family_size([th.id for th in ths], profile)
    bad = _out_of_reach(ths, profile, m, ("bound", "exact", "deterministic"))
    assert not bad, f"{len(bad)} rows at level 0.01/{m}:\n" + "\n".join(bad)


def test_every_expected_statistical_verdict_attainable_at_the_suite_level():
    ths = _theorems()
    m = family_size([th.id for th in ths], "ci")
    assert m > 100  # the family really is the whole suite
    bad = _out_of_reach(ths, "ci", m, ("bound", "exact"))
    assert not bad, f"{len(bad)} rows at level 0.01/{m}:\n" + "\n".join(bad)

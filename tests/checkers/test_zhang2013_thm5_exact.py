"""zhang2013.thm5 with the square loss: Algorithm 2 evaluated in exact arithmetic (module docstring of
rpcheck.papers.zhang2013.thm5). The draws below were undetermined under the former float64 comparison (the step
inequality within its 1e-9 ||w*|| rounding allowance); they are now decided."""

from fractions import Fraction

import numpy as np
import pytest

from rpcheck.engine import replay_trial
from rpcheck.papers.zhang2013 import thm5
from rpcheck.svm.exact import distortion_enclosure, ridge_iterative_drp_exact

QUICK_CELL_0 = dict(thm5.PROFILES["quick"].cells[0])


@pytest.mark.parametrize(("seed", "trial"), [(116, 0), (9103, 69), (9108, 90)])
def test_formerly_undetermined_quick_draws_are_decided(seed, trial):
    """Quick cell 0 (n = 40, d = 600, r = 2, T = 4): e_4 = 1.44e-9 ||w*|| against the step bound 2.07e-9 ||w*||
    (seed 116, trial 0) was within the former allowance; the exact comparison decides HOLDS, with the exact
    squared errors and the eps_R enclosure reproduced independently here."""
    rec = replay_trial(thm5.THEOREM, QUICK_CELL_0, trial, seed)
    for name in ("stated", "per_draw", "per_step"):
        o = rec.outcomes[name]
        assert o.holds and not o.undetermined and not o.vacuous, (name, o)
    o = rec.outcomes["per_step"]
    assert o.statistic <= o.bound
    assert rec.diagnostics["float_path_dev"] < 1e-11


def _draw(seed):
    """A quick-cell draw: instance, A, exact path and eps_R enclosure."""
    rng = np.random.default_rng(seed)
    p = QUICK_CELL_0
    inst = thm5.make_instance(p["n"], p["d"], p["r"], rng=rng)
    R = thm5.sketch_matrix("gaussian", p["d"], thm5.m_for(p), rng=rng)
    A = inst.V.T @ R
    return inst, A, ridge_iterative_drp_exact(inst.Z, inst.y, 1.0, A, p["T"]), distortion_enclosure(A)


def test_exact_step_contraction_and_its_negative_control():
    """Every step contracts by rho = eps_R/(1 - eps_R) exactly (the certified rule on exact squares), and the
    rule is not vacuous: the bound tightened to rho/10 fails, certified, in each of these 5 draws (their step
    ratios e_t/(rho e_(t-1)) are 0.13-0.79, every draw has one above 0.2 > 1/10)."""
    failures = 0
    for seed in range(5):
        _, _, path, (lo, hi) = _draw(seed)
        e2 = path.err_sq
        steps = [(e2[t], thm5._rho_sq(lo) * e2[t - 1], thm5._rho_sq(hi) * e2[t - 1]) for t in range(1, len(e2))]
        assert thm5._certified_all(steps) == (True, False)
        tight = [(lhs, lo_ / 100, hi_ / 100) for lhs, lo_, hi_ in steps]
        holds, undetermined = thm5._certified_all(tight)
        assert not undetermined
        failures += not holds
    assert failures == 5


def test_certified_rule_three_ways():
    one = Fraction(1)
    assert thm5._certified_all([(one, one, 2 * one)]) == (True, False)  # lhs <= lo: holds
    assert thm5._certified_all([(3 * one, one, 2 * one)]) == (False, False)  # lhs > hi: fails
    assert thm5._certified_all([(one, one / 2, 2 * one)]) == (True, True)  # inside [lo, hi]: undetermined
    assert thm5._certified_all([(5 * one, one, None)]) == (False, True)  # no upper end (eps_R hi >= 1)


def test_expected_verdicts_per_cell():
    """Derived expectations (thm5._per_step_expected): T <= 4 either loss; square at any T at the prescribed m
    (c <= 1/4) where the cell's trials cover the vacuous draws; reported otherwise."""
    exp = {}
    for name, prof in thm5.PROFILES.items():
        for c in prof.cells:
            exp[(name, c["loss"], c["T"], c["c"], c["eps"])] = thm5._per_step_expected(c)
    H = thm5.Verdict.HOLDS
    assert exp[("quick", "square", 4, 0.25, 0.25)] is H and exp[("quick", "square", 4, 4.0, 0.25)] is H
    assert exp[("ci", "square", 6, 0.25, 0.25)] is H and exp[("ci", "hinge", 3, 0.25, 0.25)] is H
    assert exp[("ci", "square", 6, 4.0, 0.25)] is None
    assert exp[("standard", "square", 8, 0.25, 0.5)] is H and exp[("standard", "hinge", 8, 0.25, 0.5)] is None
    assert exp[("full", "square", 10, 0.25, 0.5)] is H and exp[("full", "square", 10, 1.0, 0.5)] is None
    assert thm5._per_draw_expected is thm5._per_step_expected

"""lei2020.jl_sketches: the target dimensions of the three published bounds, the squared-to-unsquared step, the
count-sketch second moment behind countsketch_r and the power behind the profiles' trial count."""

import math

import numpy as np
import pytest

from rpcheck.engine import Verdict
from rpcheck.papers.lei2020 import jl_sketches as j
from rpcheck.sketches import make_sketch
from rpcheck.stats import trials_for_power


@pytest.mark.parametrize("eps", [0.1, 0.3, 0.5, 0.6, 0.9])
def test_squared_bound_at_eps_sq_gives_the_unsquared_event(eps):
    t = j.eps_squared(eps)
    assert math.sqrt(1 - t) == pytest.approx(1 - eps)
    assert math.sqrt(1 + t) <= 1 + eps


def test_achlioptas_r_is_theorem_1_1_with_beta_from_delta():
    n, eps, db = 10, 0.5, 0.01
    t = j.eps_squared(eps)
    beta = math.log(1 / db) / math.log(n)  # n^-beta = delta_b
    k0 = (4 + 2 * beta) / (t**2 / 2 - t**3 / 3) * math.log(n)
    assert j.achlioptas_r(n, eps, db) == math.ceil(k0 - 1e-9) == 131


def test_countsketch_r_and_the_chebyshev_union_bound():
    n, eps, db = 10, 0.5, 0.01
    r = j.countsketch_r(n, eps, db)
    t = j.eps_squared(eps)
    assert n * (n - 1) / 2 * 2 / (r * t * t) <= db < n * (n - 1) / 2 * 2 / ((r - 1) * t * t)


def test_countsketch_second_moment():
    # Var(||R^T u||^2) = (2/r)(||u||^4 - ||u||_4^4) for a fixed u (the count-sketch step of countsketch_r)
    rng = np.random.default_rng(5)
    d, r, m = 30, 7, 20000
    u = rng.standard_normal(d)
    vals = np.array([np.sum(np.asarray(make_sketch("countsketch", d, r, rng=rng).apply(u[None, :])) ** 2)
                     for _ in range(m)])
    var = 2 / r * (np.sum(u**2) ** 2 - np.sum(u**4))
    assert abs(vals.mean() - np.sum(u**2)) < 5 * math.sqrt(var / m)
    assert vals.var() == pytest.approx(var, rel=0.1)


def test_srht_r_formula_and_vacuity():
    n, d, eps, db = 10, 4096, 0.5, 0.01
    t, pairs = j.eps_squared(eps), 45
    b = 2 * math.log(4 * 4096 * pairs / db)
    r = j.srht_r(n, d, eps, db)
    assert r == math.ceil(2 * b * (1 + t / 3) * math.log(4 * pairs / db) / t**2 - 1e-9) == 1578
    # flattening and Bernstein each <= delta_b / (2 P) per pair
    assert 2 * 4096 * math.exp(-b / 2) == pytest.approx(db / (2 * pairs))
    assert 2 * math.exp(-r * t * t / (2 * b * (1 + t / 3))) <= db / (2 * pairs)
    # beyond d' the bound says nothing: the SRHT rows are expected VACUOUS there
    p = dict(n=10, d=1024, eps=0.3, delta=0.1)
    assert j.srht_r(10, 1024, 0.3, 0.01) > 1024
    assert j._expected_srht(p) is Verdict.VACUOUS and j._expected_srht_control(p) is Verdict.VACUOUS
    assert j._expected_srht(dict(p, d=4096, eps=0.5)) is Verdict.HOLDS


def test_controls_fail_whenever_the_claim_holds():
    # every r of every profile cell exceeds ((1 + eps)/(1 - eps))^2: sqrt(r)(1 - eps) > 1 + eps
    for prof in j.THEOREM.profiles.values():
        for cell in prof.cells:
            for r in j.target_dims(cell["n"], cell["d"], cell["eps"], cell["delta"]).values():
                assert math.sqrt(r) * (1 - cell["eps"]) > 1 + cell["eps"]


def test_trials_cover_the_proved_worst_case():
    # the bound proves P(fail) <= delta/10 = 0.01; HOLDS against 0.1 with power 0.99 at level 5e-6
    n = trials_for_power("bound", "HOLDS", 0.01, 0.1, 5e-6)
    assert n <= j._TRIALS
    assert all(p.trials >= n for p in j.THEOREM.profiles.values())
    assert trials_for_power("bound", "VIOLATED", 0.99, 0.1, 5e-6) <= 15


def test_trial_outcomes_on_a_small_cell():
    rec = j.trial(dict(n=5, d=256, eps=0.5, delta=0.1, data="gaussian"), np.random.default_rng(0))
    assert set(rec.outcomes) == {*j.KINDS, *(f"control_{k}_unscaled" for k in j.KINDS)}
    for k in ("achlioptas", "countsketch"):
        assert rec.outcomes[k].holds and not rec.outcomes[f"control_{k}_unscaled"].holds
    assert rec.outcomes["srht"].vacuous  # srht_r(5, 256, 0.5, 0.01) > 256

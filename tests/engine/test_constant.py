"""Tests of rpcheck.engine.constant: the empirical-constant search (grid phase, bisection phase, driver).

Every test uses a fixed seed. The statistical tests through the runner state their false-alarm probability
next to their assertion.
"""

import math

import pytest
from scipy import stats as sps

from rpcheck.engine import Citation, Outcome, Profile, Theorem, TrialRecord, Variant
from rpcheck.engine.constant import _cp_upper as cp_upper
from rpcheck.engine.constant import bisection_phase, find_constant, grid_phase
from rpcheck.errors import RpcheckError

SEED = 20260101  # arbitrary fixed root seed


# ------------------------------------------------------------------------------------ constant search
def test_cp_upper_matches_beta_quantile():
    for k, n, c in [(0, 30, 0.95), (3, 100, 0.99), (50, 50, 0.9), (7, 19, 0.5)]:
        expected = 1.0 if k == n else sps.beta.ppf(c, k + 1, n - k)
        assert cp_upper(k, n, c) == pytest.approx(expected, rel=1e-9)
    assert cp_upper(0, 0, 0.95) == 1.0


def test_grid_phase_walks_down_and_up_to_the_first_change():
    calls = []

    def passes(v):
        calls.append(v)
        return v >= 37

    int_ = lambda v: int(round(v))  # noqa: E731
    assert grid_phase(passes, 8, grid_factor=2.0, grid_steps=12, min_value=1, max_value=8 * 4096, cast=int_) == (32, 64)
    assert calls == [8, 16, 32, 64]
    calls.clear()
    assert grid_phase(passes, 300, grid_factor=2.0, grid_steps=12, min_value=1, max_value=10**6, cast=int_) == (
        19,
        38,
    )
    assert calls == [300, 150, 75, 38, 19]  # 37.5 rounds to 38 (round half to even)
    # budget: grid_steps values after start at most; range exhausted -> no bracket
    calls.clear()
    assert grid_phase(passes, 2, grid_factor=2.0, grid_steps=3, min_value=1, max_value=10**6, cast=int_) == (16, None)
    assert len(calls) == 4
    assert grid_phase(lambda v: True, 2, grid_factor=2.0, grid_steps=5, min_value=1, max_value=9, cast=int_) == (
        None,
        1,
    )


def test_bisection_phase_narrows_the_bracket_within_budget():
    calls = []

    def passes(v):
        calls.append(v)
        return v >= 37

    assert bisection_phase(passes, 32, 64, bisect_steps=8, integer=True, rtol=0.02) == (36, 37)
    assert len(calls) <= 8
    calls.clear()
    assert bisection_phase(passes, 32, 64, bisect_steps=2, integer=True, rtol=0.02) == (32, 38)
    assert calls == [45, 38]
    lo, hi = bisection_phase(lambda v: v >= 1.5, 1.0, 2.0, bisect_steps=50, integer=False, rtol=1e-3)
    assert lo < 1.5 <= hi and hi / lo <= 1 + 1e-3
    assert bisection_phase(passes, None, 64, bisect_steps=8, integer=True, rtol=0.02) == (None, 64)


def _bernoulli_trial(params, rng):
    """Synthetic claim: fails with probability exactly p(r) = exp(-r / 20) (a known decreasing function)."""
    p = math.exp(-params["r"] / 20.0)
    fail = rng.random() < p
    return TrialRecord(outcomes={"stated": Outcome(holds=not fail, statistic=float(fail), bound=0.0)})


def _vacuous_below_10(params):
    return "r < 10 (synthetic vacuity)" if params["r"] < 10 else None


_PROFILE = Profile(cells=({"r": 32},), trials=10)
SYNTHETIC = Theorem(
    id="test.synthetic_threshold",
    paper="test",
    title="synthetic claim with failure probability exp(-r/20)",
    citation=Citation("Test", 2026, "synthetic", "tests", "none"),
    statement="P(fail) = exp(-r/20) <= delta",
    kind="probabilistic",
    variants=(Variant("stated", "fail w.p. exp(-r/20)", mode="bound", promised_failure=0.1),),
    profiles={name: _PROFILE for name in ("quick", "ci", "standard", "full")},
    trial=_bernoulli_trial,
    vacuous=_vacuous_below_10,
    constant_search={"param": "r", "formula": lambda params: 20.0, "variant": "stated"},
)


class _Count:
    def __init__(self, failures, evaluated, vacuous_trials=0):
        self.failures, self.evaluated, self.vacuous_trials = failures, evaluated, vacuous_trials


class _Outcome:
    def __init__(self, failures, trials, vacuous_trials=0, solver_errors=0):
        self.trials = trials
        self.solver_errors = solver_errors
        self.variants = {"stated": _Count(failures, trials - vacuous_trials - solver_errors, vacuous_trials)}


def _exact_evaluator(p, calls):
    """Noise-free evaluator: failures = round(trials * p(r)); makes the threshold computable exactly."""

    def evaluate(theorem, params, *, trials, seed, backend, jobs):
        calls.append(params["r"])
        return _Outcome(int(round(trials * p(params["r"]))), trials)

    return evaluate


@pytest.mark.parametrize("start", [12, 32, 300, 5000])
def test_find_constant_recovers_exact_threshold(start):
    """With a noise-free evaluator the passing set is {r >= r*} exactly; grid + bisection must return r*."""

    def p(r):
        return min(1.0, (50.0 / r) ** 2)

    trials, delta, conf = 400, 0.1, 0.95
    calls = []
    res = find_constant(
        SYNTHETIC,
        {"r": start},
        delta=delta,
        trials=trials,
        confidence=conf,
        evaluate=_exact_evaluator(p, calls),
        confirm=False,
        grid_steps=12,
        bisect_steps=12,
        min_value=10,
    )
    per_test = 1 - (1 - conf) / 25
    assert res.per_test_confidence == pytest.approx(per_test)
    r_star = next(r for r in range(10, 10_000) if cp_upper(round(trials * p(r)), trials, per_test) <= delta)
    assert res.status == "found" and res.value == r_star and res.bracket == (r_star - 1, r_star)
    assert len(calls) == len(set(calls)) <= 25  # bounded, no value evaluated twice
    assert res.formula_value == 20.0 and res.implied_constant == pytest.approx(r_star / 20.0)
    assert len(res.to_frame()) == len(calls)


def test_find_constant_statuses_and_budget():
    calls = []
    ev = _exact_evaluator(lambda r: min(1.0, (50.0 / r) ** 2), calls)
    res = find_constant(
        SYNTHETIC, {"r": 20}, delta=0.1, trials=400, max_value=100, evaluate=ev, confirm=False
    )
    assert res.status == "not_found" and res.value is None and res.implied_constant is None
    assert calls == [20, 40, 80, 100]
    calls.clear()
    res = find_constant(
        SYNTHETIC, {"r": 2000}, delta=0.1, trials=400, min_value=1000, evaluate=ev, confirm=False
    )
    assert res.status == "at_minimum" and res.value == 1000 and calls == [2000, 1000]
    calls.clear()
    res = find_constant(
        SYNTHETIC,
        {"r": 10**6},
        delta=0.1,
        trials=400,
        grid_steps=3,
        bisect_steps=2,
        evaluate=ev,
        confirm=False,
    )
    assert len(calls) <= 1 + 3 + 2


def test_find_constant_vacuous_cells_do_not_pass_and_are_not_run():
    calls = []
    ev = _exact_evaluator(lambda r: 0.0, calls)  # would pass everywhere
    res = find_constant(SYNTHETIC, {"r": 40}, delta=0.1, trials=400, evaluate=ev, confirm=False)
    assert res.value == 10 and res.status == "found" and res.bracket[0] == 9
    assert 9 not in calls  # the vacuous cell r = 9 was not run
    assert any(e.note.startswith("vacuous cell") for e in res.evaluations)


def test_find_constant_counts_vacuous_trials_as_failures_by_default():
    def ev(theorem, params, *, trials, seed, backend, jobs):
        return _Outcome(0, trials, vacuous_trials=trials // 2)  # half the trials vacuous, none failing

    res = find_constant(SYNTHETIC, {"r": 64}, delta=0.1, trials=400, evaluate=ev, confirm=False)
    assert res.value is None  # 50% "failures" never pass delta = 0.1
    res = find_constant(
        SYNTHETIC, {"r": 64}, delta=0.1, trials=400, evaluate=ev, confirm=False, vacuous="exclude"
    )
    assert res.value is not None


def test_find_constant_validation():
    with pytest.raises(RpcheckError, match=r"`trials` \(20\) is too small.*need trials >= 98"):
        # 0 failures pass iff (0.05 / 21)**(1/n) >= 0.94, i.e. n >= log(0.05/21) / log(0.94) = 97.6
        find_constant(SYNTHETIC, {"r": 64}, delta=0.06, trials=20, evaluate=lambda *a, **k: None)
    with pytest.raises(RpcheckError, match=r"`variant` \('nope'\) must be one of 'stated'"):
        find_constant(SYNTHETIC, {"r": 64}, variant="nope", trials=400)
    with pytest.raises(RpcheckError, match=r"`grid_factor` \(1.0\)"):
        find_constant(SYNTHETIC, {"r": 64}, grid_factor=1.0, trials=400)


def test_find_constant_through_the_runner_recovers_known_threshold():
    """End to end with rpcheck.engine.runner.run_cell (serial) on the synthetic claim p(r) = exp(-r/20).

    The exact threshold for delta = 0.1 is r_delta = 20 ln 10 = 46.05. Guarantee of find_constant: the
    reported r has p(r) <= delta with probability >= confidence = 0.95, i.e. r >= 47 (false-alarm
    probability <= 0.05; with the fixed seed the outcome is deterministic). Upper check: at r = 90,
    p = 0.011 and 600 trials give E[failures] = 6.7; the per-test upper bound exceeds 0.1 only if
    failures >= 40 (binomial tail < 1e-15), so the search cannot stop above 90.
    """
    res = find_constant(SYNTHETIC, {"r": 16}, trials=600, seed=SEED, backend="serial")
    assert res.delta == 0.1 and res.status == "found"
    assert 47 <= res.value <= 90
    assert res.implied_constant == pytest.approx(res.value / 20.0)
    assert res.confirmation is not None and res.confirmation.trials == 600
    assert res.confirm_seed != SEED
    assert len(res.evaluations) <= 1 + 12 + 8
    # upper check derivation above: smallest failures count that fails the per-test bound at n = 600
    k_fail = next(k for k in range(600) if cp_upper(k, 600, res.per_test_confidence) > 0.1)
    assert k_fail >= 40 and sps.binom.sf(k_fail - 1, 600, math.exp(-90 / 20)) < 1e-15


def test_find_constant_on_shi2012_lemma10_against_the_exact_chi2_threshold():
    """A registered theorem with an exact oracle: ||Rx||^2/||x||^2 ~ chi2_n / n (Shi et al. 2012, Lemma 10).

    For eps = 0.3, delta = 0.1 the exact threshold (smallest n with P(|q - 1| > eps) <= delta) is n = 59, and
    the printed bound 2 exp(-(n/2)(eps^2/2 - eps^3/3)) <= delta needs n >= 167. Guarantees checked:
    - value >= 59: holds unless some evaluated CP bound fails to cover (probability <= 1 - 0.95; fixed seed);
    - value <= 128: the search goes above 128 only if n = 128 (exact failure 0.0167) does not pass, i.e. more
      than 15 failures in 300 trials, probability 5.8e-5 (binomial tail, recomputed below);
    - hence the implied constant against the printed formula is < 1 (the printed bound of Lemma 10 is
      conservative: n = 59 suffices where it asks for 167).
    """
    from rpcheck.engine import registry
    from rpcheck.papers.shi2012 import bounds as B

    eps, delta = 0.3, 0.1

    def formula(p):
        return 2 * math.log(2 / delta) / (p["eps"] ** 2 / 2 - p["eps"] ** 3 / 3)

    n_exact = next(n for n in range(1, 1000) if B.lemma10_exact_failure(n, eps) <= delta)
    assert n_exact == 59
    res = find_constant(
        registry.get("shi2012.lemma10"),
        {"n": 16, "eps": eps, "d": 16},
        param="n",
        variant="two_sided_exact",
        delta=delta,
        formula=formula,
        trials=300,
        seed=SEED,
        confirm=False,
    )
    kmax = max(k for k in range(300) if cp_upper(k, 300, res.per_test_confidence) <= delta)
    assert kmax == 15 and sps.binom.sf(kmax, 300, B.lemma10_exact_failure(128, eps)) < 1e-4
    assert res.status == "found" and n_exact <= res.value <= 128
    assert (
        res.implied_constant == pytest.approx(res.value / formula({"eps": eps})) and res.implied_constant < 1
    )

"""Tests of rpcheck.engine.search: bounded counterexample searches and the empirical-constant search.

Every test uses a fixed seed. The optimisation tests are deterministic (a pure function of the seed);
their assertions are met with a large margin at the stated budgets. The one statistical test through the
runner states its false-alarm probability next to its assertion.
"""

import math

import numpy as np
import pytest
from hypothesis import strategies as st
from scipy import stats as sps

from rpcheck import generators as g
from rpcheck import strategies as rs
from rpcheck.engine import Citation, Outcome, Profile, Theorem, TrialRecord, Variant
from rpcheck.engine.search import (
    TRACE_LIMIT,
    SearchResult,
    cp_upper,
    find_constant,
    hill_climb,
    hypothesis_search,
    merge_results,
    random_search,
)
from rpcheck.errors import RpcheckError, SolverError

SEED = 20260101  # arbitrary fixed root seed


# ------------------------------------------------------------------------------------ hill climbing
def _quadratic(x):
    return float((x[0] - 3.0) ** 2 + 10.0 * (x[1] + 2.0) ** 2)


def test_hill_climb_finds_minimiser_of_quadratic():
    res = hill_climb(_quadratic, [0.0, 0.0], rng=SEED, steps=600)
    assert isinstance(res, SearchResult) and res.method == "hill_climb"
    assert res.tried <= 600
    np.testing.assert_allclose(res.worst_instance, [3.0, -2.0], atol=1e-3)
    assert res.worst_slack == pytest.approx(_quadratic(res.worst_instance)) and res.worst_slack < 1e-5
    # trace is monotone decreasing in slack and increasing in evaluation index
    idx, vals = zip(*res.trace)
    assert list(idx) == sorted(idx) and all(a > b for a, b in zip(vals, vals[1:]))
    assert res.trace[0] == (0, _quadratic([0.0, 0.0]))


def test_hill_climb_finds_nonsmooth_minimum_and_counterexample():
    # slack(x) = |x1 - 1| + |x2| - 0.25 : negative near (1, 0); the minimum is -0.25 at (1, 0)
    res = hill_climb(lambda x: abs(x[0] - 1) + abs(x[1]) - 0.25, [4.0, 4.0], rng=1, steps=800, step_size=1.0)
    assert res.counterexample and res.worst_slack < -0.249
    assert res.tried <= 800


def test_hill_climb_is_pure_function_of_rng():
    a = hill_climb(_quadratic, [1.0, 1.0], rng=7, steps=50)
    b = hill_climb(_quadratic, [1.0, 1.0], rng=np.random.default_rng(7), steps=50)
    assert (a.worst_slack, a.tried, a.trace, a.improvements) == (
        b.worst_slack,
        b.tried,
        b.trace,
        b.improvements,
    )
    np.testing.assert_array_equal(a.worst_instance, b.worst_instance)
    c = hill_climb(_quadratic, [1.0, 1.0], rng=8, steps=50)
    assert c.worst_slack != a.worst_slack


@pytest.mark.parametrize("steps", [1, 2, 17, 100])
def test_hill_climb_budget_is_never_exceeded(steps):
    calls = []

    def f(x):
        calls.append(1)
        return float(np.sum(np.sin(5 * x)))

    res = hill_climb(f, np.zeros(3), rng=0, steps=steps, min_step=0.0)
    assert res.tried == len(calls) == steps and res.stopped == "budget"


def test_hill_climb_stops_on_target_and_step_size():
    res = hill_climb(lambda x: float(x[0]), [1.0], rng=0, steps=10_000, step_size=0.5, stop_below=0.0)
    assert res.stopped == "target" and res.worst_slack < 0 and res.tried < 10_000
    # a constant objective never improves: the step shrinks by 0.5 every 10 evaluations -> converges
    res = hill_climb(lambda x: 1.0, [0.0], rng=0, steps=10_000, step_size=1.0, min_step=1e-3)
    assert res.stopped == "step_size"
    assert res.tried == 1 + 10 * math.ceil(math.log(1e3) / math.log(2))  # 1 + 10 * 10 evaluations


def test_hill_climb_counts_solver_errors_and_nonfinite_as_errors_not_counterexamples():
    def f(x):
        if x[0] < 0:
            raise SolverError("infeasible", status="infeasible")
        if x[0] > 1:
            return math.nan
        return 1.0 - x[0] + 0.5

    res = hill_climb(f, [0.5], rng=3, steps=300, step_size=1.0)
    assert res.errors > 0
    assert res.worst_slack >= 0.5 and not res.counterexample
    with pytest.raises(ZeroDivisionError):  # other exceptions are bugs and propagate
        hill_climb(lambda x: 1 / 0, [0.0], rng=0, steps=3)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"steps": 0}, r"`steps` \(0\) must be an integer >= 1"),
        ({"step_size": 0.0}, r"`step_size` \(0.0\) must be in the interval \(0, inf\)"),
        ({"shrink": 1.0}, r"`shrink` \(1.0\) must be in the interval \(0, 1\)"),
        ({"grow": 0.5}, r"`grow` \(0.5\)"),
        ({"rng": "x"}, r"`rng`"),
    ],
)
def test_hill_climb_validation(kwargs, match):
    with pytest.raises(RpcheckError, match=match):
        hill_climb(_quadratic, [0.0, 0.0], **kwargs)
    with pytest.raises(RpcheckError, match=r"`x0` must be a non-empty finite"):
        hill_climb(_quadratic, [np.inf, 0.0])


# ------------------------------------------------------------------------------------ random search
def test_random_search_keeps_the_minimum_of_its_draws():
    res = random_search(lambda u: float(u.sum()), lambda rng: rng.random(3), n=200, rng=SEED)
    draws = np.random.default_rng(SEED).random((200, 3))  # the same stream, row by row
    assert res.tried == 200 and res.worst_slack == pytest.approx(draws.sum(axis=1).min(), abs=0)
    np.testing.assert_array_equal(res.worst_instance, draws[draws.sum(axis=1).argmin()])


def test_random_search_over_generators_finds_no_margin_violation():
    """The planted-margin guarantee as a search: slack = min normalised margin - planted margin >= 0."""

    def sample(rng):
        return g.separable_dataset(20, 4, margin=0.2, bias=True, rng=rng)

    def slack(data):
        m = g.normalized_margins(data.X, data.y, data.w, b=data.b, center=data.center)
        return float(m.min() - data.margin + 1e-12)

    res = random_search(slack, sample, n=50, rng=0)
    assert res.tried == 50 and not res.counterexample and res.worst_slack < 1e-9


def test_random_search_stop_below():
    res = random_search(lambda u: float(u), lambda rng: rng.random(), n=10_000, rng=0, stop_below=0.01)
    assert res.stopped == "target" and res.worst_slack < 0.01 and res.tried < 10_000


def test_merge_results():
    rs_ = [hill_climb(_quadratic, [s, s], rng=s, steps=20) for s in range(4)]
    m = merge_results(rs_)
    assert m.worst_slack == min(r.worst_slack for r in rs_)
    assert m.tried == sum(r.tried for r in rs_) == 80 and m.method == "merged"
    with pytest.raises(RpcheckError):
        merge_results([])


def test_trace_is_bounded():
    # strictly decreasing objective along the climb: every accepted step is an improvement
    res = random_search(lambda i: -float(i), lambda rng: rng.integers(0, 2**62), n=2000, rng=0)
    assert len(res.trace) <= TRACE_LIMIT


# ------------------------------------------------------------------------------------ hypothesis search
def test_hypothesis_search_finds_and_shrinks_counterexample():
    """False claim: every orthonormal basis has coherence <= 2. The simplest counterexample is a coherent
    basis with d / rho = 3, i.e. V = e_1 in R^3 (hypothesis shrinks to the smallest d, then rho, kind)."""
    res = hypothesis_search(
        lambda V: 2.0 - g.coherence(V), rs.orthonormal_bases(max_dim=16), max_examples=100, seed=0
    )
    assert res.counterexample and res.stopped == "counterexample"
    assert res.shrunk_instance.shape == (3, 1) and res.shrunk_slack == -1.0
    assert res.worst_slack <= -1.0 and res.tried >= 1
    # threshold=None: pure minimisation with target(); the extreme is d / rho = 16 (d = 16, rho = 1)
    res = hypothesis_search(
        lambda V: 2.0 - g.coherence(V),
        rs.orthonormal_bases(max_dim=16),
        max_examples=200,
        seed=0,
        threshold=None,
    )
    assert res.stopped == "budget" and res.shrunk_instance is None
    assert res.worst_slack == 2.0 - 16 and res.worst_instance.shape[1] == 1


def test_hypothesis_search_reports_worst_slack_when_claim_holds():
    res = hypothesis_search(lambda x: x + 1.0, st.floats(0, 10), max_examples=50, seed=1)
    assert not res.counterexample and res.stopped == "budget"
    assert res.worst_slack == 1.0  # x = 0 is hypothesis's first simplest example
    assert res.shrunk_instance is None and 1 <= res.tried <= 50 + 10


def test_hypothesis_search_is_reproducible_from_seed():
    a = hypothesis_search(lambda x: abs(x - 3.3), st.floats(-100, 100), max_examples=60, seed=5)
    b = hypothesis_search(lambda x: abs(x - 3.3), st.floats(-100, 100), max_examples=60, seed=5)
    assert (a.worst_slack, a.tried, a.trace) == (b.worst_slack, b.tried, b.trace)
    with pytest.raises(RpcheckError, match="`strategy` must be a hypothesis SearchStrategy"):
        hypothesis_search(lambda x: x, [1, 2], max_examples=5)


# ------------------------------------------------------------------------------------ constant search
def test_cp_upper_matches_beta_quantile():
    for k, n, c in [(0, 30, 0.95), (3, 100, 0.99), (50, 50, 0.9), (7, 19, 0.5)]:
        expected = 1.0 if k == n else sps.beta.ppf(c, k + 1, n - k)
        assert cp_upper(k, n, c) == pytest.approx(expected, rel=1e-9)


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
    - hence the implied constant against the printed formula is < 1 (the bound is conservative, spec I4).
    """
    from rpcheck.bounds import shi2012 as B
    from rpcheck.engine import registry

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

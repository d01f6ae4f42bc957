"""Tests of rpcheck.engine.search: bounded counterexample searches (the empirical-constant search: test_constant.py).

Every test uses a fixed seed. The optimisation tests are deterministic (a pure function of the seed);
their assertions are met with a large margin at the stated budgets. The one statistical test through the
runner states its false-alarm probability next to its assertion.
"""

import math

import numpy as np
import pytest
from hypothesis import strategies as st

from rpcheck import generators as g
from rpcheck import strategies as rs
from rpcheck.engine.search import (
    TRACE_LIMIT,
    SearchResult,
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

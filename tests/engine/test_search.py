"""Tests of rpcheck.engine.search: the one bounded counterexample search, hypothesis_search (the
empirical-constant search: test_constant.py).

Every test uses a fixed seed; the searches are pure functions of it (no example database unless the test
says so), so the assertions are deterministic.
"""


import numpy as np
import pytest
from hypothesis import strategies as st

from rpcheck import generators as g
from rpcheck import strategies as rs
from rpcheck.engine.search import TRACE_LIMIT, SearchResult, hypothesis_search, trial_seed
from rpcheck.errors import RpcheckError, SolverError


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
    assert (a.worst_instance, a.improvements) == (b.worst_instance, b.improvements)
    with pytest.raises(RpcheckError, match="`strategy` must be a hypothesis SearchStrategy"):
        hypothesis_search(lambda x: x, [1, 2], max_examples=5)


def _planted(x):
    """A planted claim over pairs of integers: slack = 5 - (a + 2 b) is negative iff a + 2 b > 5 (a, b in
    [0, 50]). The minimal counterexample in hypothesis's order (shortlex on the choices, a before b) is
    (0, 3): a = 0 is smallest, then b = 3 is the smallest b with 2 b > 5."""
    a, b = x
    return 5.0 - (a + 2 * b)


PAIRS = st.tuples(st.integers(0, 50), st.integers(0, 50))


@pytest.mark.parametrize("seed", [0, 1, 7, 12345])
def test_hypothesis_search_shrinks_a_planted_counterexample_to_the_minimal_instance(seed):
    res = hypothesis_search(_planted, PAIRS, max_examples=50, seed=seed)
    assert res.found and res.counterexample and isinstance(res, SearchResult)
    assert res.shrunk_instance == (0, 3) and res.shrunk_slack == -1.0
    assert res.instance == (0, 3) and res.slack == -1.0  # what a checker reports
    assert res.worst_slack <= -1.0 and res.method == "hypothesis"
    # shrink=False: a counterexample, usually not the minimal one
    raw = hypothesis_search(_planted, PAIRS, max_examples=50, seed=seed, shrink=False)
    assert raw.found and raw.slack < 0 and raw.shrink_evaluations == 0


def test_hypothesis_search_is_a_pure_function_of_its_seed():
    runs = [hypothesis_search(_planted, PAIRS, max_examples=50, seed=3) for _ in range(2)]
    a, b = runs
    assert (a.tried, a.trace, a.shrunk_instance, a.shrink_evaluations) == (
        b.tried,
        b.trace,
        b.shrunk_instance,
        b.shrink_evaluations,
    )
    # trial_seed: one draw from the trial's generator
    assert trial_seed(np.random.default_rng(5)) == trial_seed(np.random.default_rng(5))
    assert 0 <= trial_seed(np.random.default_rng(5)) < 2**32


@pytest.mark.parametrize("max_examples,max_shrinks", [(1, 0), (5, 3), (20, 20), (40, 200)])
def test_hypothesis_search_budget_is_never_exceeded(max_examples, max_shrinks):
    calls = []

    def f(x):
        calls.append(x)
        return _planted(x)

    res = hypothesis_search(f, PAIRS, max_examples=max_examples, max_shrinks=max_shrinks, seed=2)
    assert len(calls) == res.tried <= max_examples + max_shrinks
    assert res.shrink_evaluations <= max_shrinks
    if res.found:  # the reported counterexample really fails, whatever the shrink budget
        assert _planted(res.shrunk_instance) == res.shrunk_slack < 0
    # a claim that holds spends exactly the generation budget (or less when the space is exhausted)
    calls.clear()
    res = hypothesis_search(lambda x: f(x) + 1000.0, PAIRS, max_examples=max_examples, seed=2)
    assert not res.found and len(calls) == res.tried <= max_examples


def test_hypothesis_search_errors_and_premise():
    def f(x):
        if x % 3 == 0:
            raise SolverError("no certificate")
        if x % 3 == 1:
            return None  # outside the premise
        return float(x)

    res = hypothesis_search(f, st.integers(0, 10**6), max_examples=30, seed=0)
    assert not res.found and res.errors >= 1 and res.skipped >= 1
    assert res.worst_slack >= 2.0 and res.tried <= 30
    with pytest.raises(ZeroDivisionError):  # other exceptions propagate
        hypothesis_search(lambda x: 1 / 0, st.integers(), max_examples=3)


def test_hypothesis_search_target_drives_towards_small_slack():
    """threshold=None: no failure, the target phase minimises. The slack |x - 700| over [0, 1000] gets close to
    0 (generation alone would rarely hit the neighbourhood of 700 within 100 draws)."""
    res = hypothesis_search(lambda x: abs(x - 700), st.integers(0, 1000), max_examples=100, seed=0, threshold=None)
    assert res.stopped == "budget" and res.worst_slack <= 5


def test_hypothesis_search_example_database_replays_a_found_counterexample(tmp_path):
    """Interactive use: with a database the shrunk counterexample is saved and replayed first next time."""
    calls = []

    def f(x):
        calls.append(x)
        return _planted(x)

    first = hypothesis_search(f, PAIRS, max_examples=50, seed=1, database=str(tmp_path), database_key="planted")
    assert first.found and first.shrunk_instance == (0, 3)
    assert any(tmp_path.iterdir())  # something was written
    calls.clear()
    again = hypothesis_search(f, PAIRS, max_examples=50, seed=99, database=tmp_path, database_key="planted")
    assert again.found and again.shrunk_instance == (0, 3) and calls[0] == (0, 3)  # replayed first
    # another key: nothing replayed from this directory; the default is no database at all
    calls.clear()
    other = hypothesis_search(f, PAIRS, max_examples=50, seed=99, database=tmp_path, database_key="other")
    assert other.found and calls[0] != (0, 3)
    with pytest.raises(RpcheckError, match="`database` must be None"):
        hypothesis_search(f, PAIRS, max_examples=5, database=3)


def test_trace_is_bounded():
    res = hypothesis_search(lambda x: -float(x), st.integers(0, 10**9), max_examples=500, seed=0, threshold=None)
    assert len(res.trace) <= TRACE_LIMIT


def test_fixed_size_skips_the_shrinker_with_the_same_result():
    """A counterexample at hypothesis's first example (its all-simplest choices) of a fixed-size strategy
    is the shrink order's minimum: ``fixed_size=True`` reports it without the shrink phase, as shrinking
    would; a later counterexample is still shrunk."""
    from hypothesis import strategies as st

    strat = st.tuples(*[st.booleans()] * 64)
    first = [hypothesis_search(lambda t: -1.0 - sum(t), strat, max_examples=5, max_shrinks=8, seed=3,
                               fixed_size=f) for f in (False, True)]  # fmt: skip
    assert first[0].found and first[1].found
    assert first[0].instance == first[1].instance == (False,) * 64
    assert first[0].slack == first[1].slack == -1.0 and first[1].shrink_evaluations == 0
    # slack < 0 needs at least 3 True: never the first example; then shrinking runs either way
    later = [hypothesis_search(lambda t: 2.5 - sum(t), strat, max_examples=50, max_shrinks=30, seed=3,
                               fixed_size=f) for f in (False, True)]  # fmt: skip
    assert later[0].found and later[0].instance == later[1].instance and later[0].slack == later[1].slack
    assert later[1].shrink_evaluations > 0
    with pytest.raises(RpcheckError, match="fixed_size"):
        hypothesis_search(lambda t: 1.0, strat, fixed_size="yes")

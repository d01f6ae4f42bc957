"""rpcheck.engine.shape: the two-sided bracket search and the growth rule on synthetic failure laws."""

import numpy as np
import pytest

from rpcheck.engine.shape import bracket_search, certified_bracket, growth_verdict, max_evaluations
from rpcheck.stats import Verdict

LEVEL = 1e-4


def _law(threshold, width, rng, trials):
    """Failures of ``trials`` Bernoulli draws with p(r) = 0.2 exp(-(r - threshold)/width) (capped at 1): p is
    decreasing and crosses 0.2 exactly at ``threshold``."""
    calls = []

    def failures(r):
        calls.append(r)
        return int(rng.binomial(trials, min(1.0, 0.2 * np.exp(-(r - threshold) / width))))

    return failures, calls


@pytest.mark.parametrize("threshold, start", [(150, 64), (150, 1000), (3000, 500), (40, 40)])
def test_brackets_cover_the_threshold_within_the_budget(threshold, start):
    rng = np.random.default_rng(threshold + start)
    failures, calls = _law(threshold, threshold / 10, rng, 400)
    evals = bracket_search(failures, start, delta=0.2, trials=400, level=LEVEL)
    assert len(evals) == len(calls) == len(set(calls)) <= max_evaluations()  # each value once, within the budget
    L, U = certified_bracket(evals, 0.2, LEVEL)
    assert L is not None and U is not None
    assert L < threshold <= U  # p(U) <= 0.2 < p(L): r* = threshold lies in (L, U]
    assert U / L < 1.6  # the bisections narrow the factor-2 grid bracket


def test_growth_rule_on_bands_from_searches():
    # r* proportional to f at both points: the rule may say HOLDS or INCONCLUSIVE, never VIOLATED; r* growing 8x
    # faster than f: VIOLATED
    rng = np.random.default_rng(5)
    bands = {}
    for name, thr, f in (("near", 100, 10.0), ("far", 800, 80.0), ("far8", 6400, 80.0)):
        failures, _ = _law(thr, thr / 10, rng, 400)
        L, U = certified_bracket(bracket_search(failures, thr // 2, delta=0.2, trials=400, level=LEVEL), 0.2, LEVEL)
        bands[name] = (L / f, U / f)
    assert growth_verdict(bands["near"], bands["far"], 2 ** 1.5) is Verdict.HOLDS
    assert growth_verdict(bands["near"], bands["far8"], 2 ** 1.5) is Verdict.VIOLATED

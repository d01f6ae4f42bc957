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


def test_shape_trial_stores_each_points_search_on_its_own_stream():
    from rpcheck.engine.shape import ROWS, evaluations_of, shape_trial

    def search(point, stream):
        k = int(stream.integers(0, 100))
        return [(point["r"], k, 50), (2 * point["r"], 0, 50)], {"start": float(point["r"])}

    rec = shape_trial(({"r": 8}, {"r": 64}), np.random.default_rng(3), search)
    near, far = np.random.default_rng(3).spawn(2)
    assert evaluations_of(rec.diagnostics, "near") == [(8, int(near.integers(0, 100)), 50), (16, 0, 50)]
    assert evaluations_of(rec.diagnostics, "far") == [(64, int(far.integers(0, 100)), 50), (128, 0, 50)]
    assert rec.diagnostics["far.start"] == 64.0 and rec.diagnostics["near.seconds"] >= 0.0
    assert set(rec.outcomes) == set(ROWS)


def test_shape_rows_control_is_the_claim_with_the_far_band_times_g():
    from rpcheck.engine.shape import shape_claim, shape_rows

    near = {"L": 100, "U": 120, "f": 10.0, "g": 1.0}
    far = {"L": 700, "U": 900, "f": 80.0, "g": 8.0}
    verdicts, rows = shape_rows(near, far, 2 ** 1.5)
    assert rows["scaling"]["ratio_lower"] == pytest.approx((700 / 80) / (120 / 10))
    assert rows["wrong_power"]["ratio_lower"] == pytest.approx(8 * rows["scaling"]["ratio_lower"])
    assert rows["wrong_power"]["ratio_upper"] == pytest.approx(8 * rows["scaling"]["ratio_upper"])
    assert verdicts == {"scaling": Verdict.HOLDS, "wrong_power": Verdict.VIOLATED}
    assert rows["scaling"]["verdict"] == "HOLDS"
    claim = shape_claim("C*", rows, 2 ** 1.5, alpha=0.01, bounds=92, level=1e-4, monotone="assumed")
    assert claim.startswith("C* in [0.729, 1.12] (control: [5.83, 9])") and claim.endswith("at 0.0001; assumed)")

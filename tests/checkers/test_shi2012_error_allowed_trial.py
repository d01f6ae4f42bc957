"""Unit tests of shi2012.error_allowed: the error points, the bounds behind the expectations, one trial."""

import numpy as np
import pytest

from rpcheck.papers.shi2012 import bounds as B
from rpcheck.papers.shi2012 import error_allowed as T
from rpcheck.papers.shi2012._thm6 import promised
from rpcheck.stats import holds_power, trials_for_power


@pytest.mark.parametrize("cell", T.CELLS)
def test_error_points_are_flipped_copies_with_negative_margin(cell):
    X, y, u, gu, XE, yE = T._errors(cell)
    assert np.array_equal(XE, X[: cell["e"]]) and np.array_equal(yE, -y[: cell["e"]])
    assert np.all(yE * (XE @ u) / np.linalg.norm(XE, axis=1) <= -gu + 1e-12)


@pytest.mark.parametrize("cell", T.CELLS)
def test_expectation_numbers(cell):
    assert T.failure_upper(cell) == pytest.approx((2 * cell["m"] + 1) * B.lemma10_exact_failure(cell["n"],
                                                                                                 cell["eps"]))
    assert T.failure_upper(cell) < promised(cell) / 10
    assert holds_power("bound", T._TRIALS, T.failure_upper(cell), promised(cell), T.ROW_LEVEL) >= 0.99
    assert trials_for_power("bound", "HOLDS", T.failure_upper(cell), promised(cell), T.ROW_LEVEL) <= T._TRIALS
    assert T.control_holds_upper(cell) < 1e-30


def test_one_trial_counts_exactly_the_errors():
    rec = T.trial(T.CELLS[0], np.random.default_rng(0))
    assert rec.diagnostics["below_bound"] == T.CELLS[0]["e"]
    assert rec.outcomes["tolerance_as_printed"].holds and not rec.outcomes["control_tolerance_short"].holds

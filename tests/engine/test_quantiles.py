"""The statistic quantiles of a cell: NumPy's linear method on finite values, no NaN or warning from infinities."""

import warnings

import numpy as np
import pytest

from rpcheck.engine.decide import _quantiles

QS = [0.05, 0.5, 0.95]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 20, 101])
def test_equals_numpy_on_finite_values(n):
    x = np.random.default_rng(n).standard_normal(n)
    assert _quantiles(x, QS) == pytest.approx(np.quantile(x, QS), abs=1e-14)


def test_nan_values_are_dropped_and_all_nan_gives_nan():
    assert _quantiles(np.array([np.nan, 1.0, 2.0]), [0.5]) == [1.5]
    assert all(np.isnan(_quantiles(np.array([np.nan, np.nan]), QS)))


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        ([-np.inf] * 3 + [1.0] * 12, [-np.inf, 1.0, 1.0]),
        ([1.0] * 12 + [np.inf] * 3, [1.0, 1.0, np.inf]),
        ([-np.inf] * 20, [-np.inf] * 3),
        ([-np.inf, 0.0, np.inf], [-np.inf, 0.0, np.inf]),
    ],
)
def test_infinite_statistics_give_the_interpolation_limit_without_a_warning(x, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _quantiles(np.asarray(x), QS) == expected


def test_numpy_itself_returns_nan_here():
    """The case the function exists for: NumPy interpolates -inf + inf and returns NaN with a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(np.quantile(np.array([-np.inf] * 20), [0.05])[0])

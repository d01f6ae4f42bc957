"""Unit tests of shi2012.thm9_memory: the printed n, the log-growth allowance and the counts of one trial."""

import math

import numpy as np
import pytest

from rpcheck.papers.shi2012 import bounds as B
from rpcheck.papers.shi2012 import thm9_memory as T


@pytest.mark.parametrize("eps,m,L,delta", [(0.5, 16, 2, 0.1), (0.3, 16, 2, 0.01), (0.1, 100, 7, 0.05)])
def test_printed_n_is_the_least_integer_above_the_threshold(eps, m, L, delta):
    n = T.printed_n(eps, m, L, delta)
    assert n > B.n_threshold(eps, m * (L - 1), delta) >= n - 1
    n8 = T.printed_n(eps, m, L, delta, "thm8")
    assert n8 > B.n_threshold(eps, m * L, delta) >= n8 - 1


@pytest.mark.parametrize("eps", [0.1, 0.3, 0.5, 0.9])
@pytest.mark.parametrize("L", [2, 3, 10])
def test_log_growth_brackets_the_printed_n(eps, L):
    m, delta = 16 * L, 0.05
    diff = T.printed_n(eps, m, 8 * L, delta) - T.printed_n(eps, m, L, delta)
    C = 12.0 / (3 * eps**2 - 2 * eps**3)
    assert C * math.log((8 * L - 1) / (L - 1)) - 1 <= diff <= T.log_growth_allowance(eps, L)
    assert diff > 0  # the literal reading fails (the derivation of literal_independent)


def test_one_trial_counts():
    cell = T.THM9_MEMORY.profiles["ci"].cells[0]
    rec = T._trial(cell, np.random.default_rng(0))
    o, dg = rec.outcomes, rec.diagnostics
    assert o["fixed_n"].holds and o["log_growth"].holds
    assert not o["literal_independent"].holds and not o["sketch_independent"].holds
    assert not o["control_per_class_fixed_n"].holds and not o["control_per_class_log_growth"].holds
    assert dg["sketch_entries_8L"] == 8 * dg["sketch_entries_L"]
    assert dg["v_entries_L"] == dg["n_printed_L"] and dg["v_entries_8L"] == dg["n_printed_8L"]

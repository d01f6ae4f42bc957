"""Unit tests of paul2014.sec14_comparison: the two eps, the crossing, and the numbers in its comments."""

import math

import pytest

from rpcheck.papers.paul2014 import bounds as BP
from rpcheck.papers.paul2014 import sec14_comparison as T
from rpcheck.papers.shi2012 import bounds as BS


@pytest.mark.parametrize("rho,r,delta", [(10, 2000, 0.1), (100, 2000, 0.1), (10, 500, 0.1)])
def test_eps_paul_is_the_least_eps_meeting_delta(rho, r, delta):
    e = T.eps_paul(rho, r, delta)
    assert BP.gaussian_embedding_failure_bound(rho, r, e) <= delta
    assert BP.gaussian_embedding_failure_bound(rho, r, e - 1e-9) > delta


@pytest.mark.parametrize("r,m,delta", [(2000, 100, 0.1), (500, 20, 0.1)])
def test_eps_shi_meets_the_printed_condition_just_above_the_root(r, m, delta):
    e = T.eps_shi(r, m, delta)
    assert r > BS.n_threshold(e * (1 + 1e-9), m, delta)
    assert not r > BS.n_threshold(e * (1 - 1e-9), m, delta)


def test_crossing_separates_the_two_bounds():
    c = T.CELLS[3]
    ep, es, a = T.bounds(c)
    gx = T.crossing(c)
    assert math.sqrt(1 - ep) * gx == pytest.approx(BS.thm6_margin_bound(gx, es), abs=1e-12)
    for g, above in ((gx * 0.99, True), (min(1.0, gx * 1.01), False)):
        assert (math.sqrt(1 - ep) * g > BS.thm6_margin_bound(g, es)) is above


@pytest.mark.parametrize("cell,want", [(0, (0.255, 0.138, 0.321, 2.35)), (3, (0.617, 0.138, 0.321, 0.843)),
                                       (5, (0.531, 0.262, 0.711, 2.25))])
def test_the_numbers_of_the_cells_comment(cell, want):
    c = T.CELLS[cell]
    got = (*T.bounds(c), T.crossing(c))
    for g, w in zip(got, want):
        assert g == pytest.approx(w, abs=6e-3)


def test_no_cell_sits_on_the_crossing_and_controls_fail():
    for c in T.CELLS:
        assert abs(c["gamma"] - T.crossing(c)) > 1e-6
        out = T.trial(c, None).outcomes
        assert not any(out[k].holds for k in out if k.startswith("control_"))

"""paul2014.shape_eq8: the CountSketch draws against embedding_distortion and the closed form, the exact r*, the
endpoints and the control's factor."""

import math

import numpy as np
import pytest

from rpcheck.engine import Verdict
from rpcheck.linalg import embedding_distortion
from rpcheck.papers.paul2014 import shape_eq8 as s
from rpcheck.papers.paul2014.bounds import countsketch_coherent_failure, eq8_cw
from rpcheck.sketches import CountSketch


def test_draws_equal_embedding_distortion_of_explicit_r():
    # the same generator calls give the first rho rows of R: one +-1 per row in column h
    rho, r, n = 5, 7, 20
    e = s.distortions(rho, r, n, np.random.default_rng(3))
    rng = np.random.default_rng(3)
    h = rng.integers(0, r, size=(n, rho))
    sg = 2.0 * rng.integers(0, 2, size=(n, rho), dtype=np.int8) - 1.0
    for i in range(n):
        R = np.zeros((rho, r))
        R[np.arange(rho), h[i]] = sg[i]
        assert e[i] == pytest.approx(embedding_distortion(np.eye(rho), R), abs=1e-12)
        collide = len(set(h[i])) < rho
        assert (e[i] >= 1 - 1e-12) if collide else (e[i] <= 1e-12)


def test_draws_follow_the_library_countsketch_on_the_coherent_basis():
    # the library sketch on V = I[:, :rho] (d = 40): the same law of e (collision or not)
    rho, d, r = 4, 40, 9
    V = np.eye(d)[:, :rho]
    lib = [embedding_distortion(V, CountSketch(d, r, rng=k).matrix().toarray()) > 0.5 for k in range(400)]
    p = countsketch_coherent_failure(rho, r)
    assert abs(np.mean(lib) - p) < 4 * math.sqrt(p * (1 - p) / 400)


def test_failure_rate_matches_the_closed_form():
    rho, r, n = 4, 29, 20000
    e = s.distortions(rho, r, n, np.random.default_rng(11))
    p = countsketch_coherent_failure(rho, r)
    assert abs(np.mean(e > 0.5) - p) < 4 * math.sqrt(p * (1 - p) / n)
    # the event does not depend on eps < 1
    assert np.array_equal(e > 0.1, e > 0.9)


def test_exact_r_star_is_the_first_r_below_delta():
    for rho, delta in ((4, 0.2), (32, 0.2), (4, 0.025), (2, 0.5)):
        r = s.exact_r_star(rho, delta)
        assert countsketch_coherent_failure(rho, r) <= delta < countsketch_coherent_failure(rho, r - 1)
    assert s.exact_r_star(4, 0.2) == 29 and s.exact_r_star(32, 0.2) == 2234 and s.exact_r_star(4, 0.025) == 239


@pytest.mark.parametrize(("axis", "lo", "hi"), [("rho", 1.05, 1.25), ("eps", 0, 2e-4), ("delta", 3.5, 4.5)])
def test_true_ratios_of_the_docstring(axis, lo, hi):
    near, far = s.endpoints(dict(s.BASE, axis=axis, draws=1000))
    c = [s.exact_r_star(p["rho"], p["delta"]) / eq8_cw(p["rho"], p["eps"], p["delta"]) for p in (near, far)]
    assert lo <= c[1] / c[0] <= hi
    # the expected verdicts follow from the rule's one threshold sqrt(8): the true ratio is below it (HOLDS) or
    # above it (VIOLATED), by a margin the draws resolve (module docstring)
    assert s.SCALING_EXPECTED[axis] == (Verdict.VIOLATED if c[1] / c[0] > math.sqrt(8) else Verdict.HOLDS)


def test_lower_bound_of_the_finding():
    # r* >= C(rho, 2) / ln(1 / (1 - delta)) (module docstring, finding eq8_delta)
    for rho in (2, 4, 10):
        for delta in (0.2, 0.05, 0.01):
            assert s.exact_r_star(rho, delta) >= math.comb(rho, 2) / math.log(1 / (1 - delta))


def test_endpoints_and_control_factor():
    p = dict(s.BASE, axis="eps", draws=100)
    near, far = s.endpoints(p)
    assert far["eps"] == near["eps"] / 8 and far["rho"] == near["rho"] and far["delta"] == near["delta"]
    assert s.control_factor(p, near) == 1 and s.control_factor(p, far) == pytest.approx(8**6)
    q = dict(s.BASE, axis="rho", draws=100)
    assert s.control_factor(q, s.endpoints(q)[1]) == pytest.approx(8)


def test_evaluations_and_level():
    assert s.EVALUATIONS == 27 and s.BETA == pytest.approx(0.01 / 108)

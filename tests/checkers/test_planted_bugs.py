"""The asserted quick/ci cells can fail: a plausible implementation bug, planted, turns each into VIOLATED.

Each test monkeypatches one construction the way a plausible bug would change it and runs the theorem's
cell at the regime the quick and ci profiles assert (a handful of trials, serial, fixed seed), then checks the
row comes out VIOLATED. The cells:

- ``shi2012.lemma10`` at (n, eps) = (30, 0.3): the exact chi^2 law of ``q = ||Rx||^2/||x||^2`` (three exact
  rows, asserted HOLDS at quick and ci);
- ``shi2012.thm5`` at c = 0.527, n = 30, eps = 0.1: the exact Pearson-r law of ``c' = cos(Rw, Rx)``;
- ``shi2012.fig2`` at c = -0.062, eps = 0.3, n = 150: the exact laws of P1 (cosine) and P2 (inner product);
- ``paul2014.lemma3.1`` at d = 300 (not a power of two: the SRHT pads to d' = 512);
- ``paul2014.thm3.6`` with the (rank-deficient, rho + 1 = 6 < n = 30) data scaled by 1e3.

A bookkeeping test shows the size of the Lemma-10 cell also catches the subtle off-by-one versions of the
scale bug (a law computed without running a trial).
"""

import functools
import math

import numpy as np
import pytest
from scipy.stats import chi2

from rpcheck.engine import Verdict, registry, run
from rpcheck.papers.paul2014 import embedding, enclosing_ball
from rpcheck.papers.shi2012 import _common as shi_common
from rpcheck.papers.shi2012 import bounds as B
from rpcheck.papers.shi2012 import lemma10
from rpcheck.sketches import srht
from rpcheck.stats import violated_power


def _verdicts(result):
    df = result.cells
    return {row.variant: Verdict(row.verdict) for row in df.itertuples()}


@pytest.fixture
def scale_bug(monkeypatch):
    """The paper's R (entries N(0, 1/n)) built as G / n instead of G / sqrt(n): every q shrinks by 1/n."""
    orig = shi_common.project

    def project(X, n, rng, kind="gaussian"):
        return orig(X, n, rng, kind) / math.sqrt(n)

    monkeypatch.setattr(shi_common, "project", project)


@pytest.fixture
def fresh_sketch_per_vector(monkeypatch):
    """Each row of X projected by its own draw of R (a sketch drawn inside a per-vector loop): the cosine of
    two independently projected vectors no longer follows the Pearson-r law with rho = c."""
    orig = shi_common.project

    def project(X, n, rng, kind="gaussian"):
        X = np.atleast_2d(np.asarray(X, dtype=float))
        return np.vstack([orig(x[None, :], n, rng, kind) for x in X])

    monkeypatch.setattr(shi_common, "project", project)


def _plant_srht_sqrt_d(monkeypatch):
    """The SRHT's Hadamard factor normalised by sqrt(d) instead of sqrt(d') (d' = 2^ceil(log2 d), eq. 11):
    entries +-sqrt(d'/(d r)), E[R R^T] = (d'/d) I, the same sketch whenever d is a power of two."""
    init = srht.SRHTSketch.__init__

    @functools.wraps(init)  # make_sketch reads the construction's keywords from the signature
    def bugged(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self.scale_ = self.scale_ * math.sqrt(self.d_pad / self.d)

    monkeypatch.setattr(srht.SRHTSketch, "__init__", bugged)


@pytest.fixture
def srht_sqrt_d(monkeypatch):
    _plant_srht_sqrt_d(monkeypatch)


def test_lemma10_exact_rows_catch_a_sketch_scaled_by_1_over_n(scale_bug):
    # With the bug q = chi^2_30 / 900 < 0.7 on every draw: the lower tail fails in every draw (p0 = 0.112)
    # and the upper tail in none (p0 = 0.126); the exact two-sided test rejects at 100 draws with p-values
    # below 2 * 0.126^100 (the whole run's Holm level is >= 1e-3 here).
    res = run("shi2012.lemma10", profile="quick", overrides={"n": 30, "eps": 0.3}, trials=100, backend="serial",
              seed=11)
    v = _verdicts(res)
    assert v["two_sided_exact"] is Verdict.VIOLATED
    assert v["lower_tail_exact"] is Verdict.VIOLATED
    assert v["upper_tail_exact"] is Verdict.VIOLATED


def test_lemma10_asserted_cell_is_sized_to_catch_off_by_one_scales():
    """At its quick and ci cap (13,700 trials) the (30, 0.3) cell says VIOLATED with probability >= 0.99 on one
    of its exact rows for each off-by-one version of the scale (a sketch with n - 1 rows normalised by n; entries
    of variance 1/(n-1) or 1/(n+1)): exact binomial power at the level the profiles are sized for."""
    n, eps = 30, 0.3
    cap = dict(lemma10._CAPS[0][0] | {"d": 16})
    profiles = registry.get("shi2012.lemma10").profiles
    T = min(profiles[name].trials_for(cap) for name in ("quick", "ci"))
    assert T == lemma10._CAPS[0][1]
    bugs = {"n - 1 rows": (n - 1, 1.0), "variance 1/(n-1)": (n, (n - 1) / n), "variance 1/(n+1)": (n, (n + 1) / n)}
    for name, (dof, s) in bugs.items():
        # q = s' chi^2_dof / n with P(q <= 1 - eps) = chi2.cdf(n (1 - eps) / s', dof); s = 1/s'
        lo, up = chi2.cdf(s * n * (1 - eps), dof), chi2.sf(s * n * (1 + eps), dof)
        best = max(violated_power("exact", T, lo, B.lemma10_exact_failure(n, eps, "lower"), shi_common.SUITE_LEVEL),
                   violated_power("exact", T, up, B.lemma10_exact_failure(n, eps, "upper"), shi_common.SUITE_LEVEL))
        assert best >= 0.99, (name, best)


def test_thm5_exact_row_catches_a_fresh_sketch_per_vector(fresh_sketch_per_vector):
    # With independent sketches c' is the cosine of two independent Gaussian vectors of R^30 (sd ~ 0.18 around
    # 0), while the band at c = 0.527, eps = 0.1 is [0.41, 0.63]: P(outside) ~ 0.99 against p0 = 0.47. At 150
    # draws the exact two-sided test rejects with P(VIOLATED) = 1 - 1e-20 or better.
    res = run("shi2012.thm5", profile="quick", overrides={"c": 0.527, "n": 30, "eps": 0.1}, trials=150,
              backend="serial", seed=12)
    assert _verdicts(res)["exact"] is Verdict.VIOLATED


def test_fig2_p2_exact_row_catches_a_sketch_scaled_by_1_over_n(scale_bug):
    # <Rw, Rx>/<w, x> shrinks by 1/150: it leaves [0.7, 1.3] on every draw (unbugged it is 1 + N(0, ~1.3^2),
    # so P(ratio >= 105) is 0 to double precision), P2's failure rate 1 against p0 = 0.819: at 200 draws
    # P_p0(X >= 200) = 4e-18. P1 (a cosine) cannot see a scale: that row must not be VIOLATED.
    res = run("shi2012.fig2", profile="quick", overrides={"c": -0.062, "eps": 0.3, "n": 150}, trials=200,
              backend="serial", seed=16)
    v = _verdicts(res)
    assert v["p2_exact"] is Verdict.VIOLATED
    assert v["p1_exact"] is not Verdict.VIOLATED


def _lemma31_cell(d):
    (cell,) = [c for c in registry.get("paul2014.lemma3.1").profiles["quick"].cells if c["d"] == d]
    return cell


def test_lemma31_padded_cell_catches_srht_normalised_by_sqrt_d(srht_sqrt_d):
    # d = 300, d' = 512: E[R R^T] = 1.71 I, so e >= 0.71 - (fluctuation of a working embedding, < 0.2 in every
    # draw of the pilot) > eps = 0.5 in every draw; P_0.1(X >= 60 of 60) = 1e-60.
    res = run("paul2014.lemma3.1", profile="quick", overrides=_lemma31_cell(300), trials=60, backend="serial",
              seed=13)
    assert _verdicts(res)["stated"] is Verdict.VIOLATED


def test_lemma31_power_of_two_cells_cannot_see_that_bug(monkeypatch):
    """The same bug leaves every draw at d = 512 unchanged (d = d'): why the profiles carry a d = 300 cell."""
    cell = _lemma31_cell(512)
    r0 = run("paul2014.lemma3.1", profile="quick", overrides=cell, trials=20, backend="serial", seed=14)
    _plant_srht_sqrt_d(monkeypatch)
    r1 = run("paul2014.lemma3.1", profile="quick", overrides=cell, trials=20, backend="serial", seed=14)
    assert np.array_equal(r0.cells["failures"].to_numpy(), r1.cells["failures"].to_numpy())
    assert embedding._PAD_SPECS[0][1] & (embedding._PAD_SPECS[0][1] - 1)  # the padded cell's d is no power of two


def _absolute_rank_basis(X, *, rtol=None):
    """Row-space basis with the rank read by an absolute cut-off, sigma_i > 1e-12, instead of
    row_space_basis's relative max(n, d) eps sigma_1: right at unit scale (round-off singular values ~3e-15),
    wrong at 1e3 (2e-13..3.5e-12, some counted)."""
    _, s, Vt = np.linalg.svd(np.asarray(X, dtype=float), full_matrices=False)
    return Vt[: int((s > 1e-12).sum())].T


@pytest.mark.parametrize("scale, caught", [(1e3, True), (1.0, False)])
def test_thm36_scaled_cell_catches_a_rank_with_an_absolute_tolerance(monkeypatch, scale, caught):
    # rank([X; x_B^T]) and rank(X) then count different numbers of noise directions and e_B != e: the
    # deterministic eB_equals_e row fails on every draw at scale 1e3 (one draw decides VIOLATED), on none at 1.
    monkeypatch.setattr(enclosing_ball, "row_space_basis", _absolute_rank_basis)
    (cell,) = [c for c in registry.get("paul2014.thm3.6").profiles["quick"].cells if c.get("scale") == 1e3]
    res = run("paul2014.thm3.6", profile="quick", overrides=dict(cell, scale=scale), trials=20, backend="serial",
              seed=15)
    df = res.cells[res.cells["p_scale"] == scale]
    v = {row.variant: Verdict(row.verdict) for row in df.itertuples()}
    assert (v["eB_equals_e"] is Verdict.VIOLATED) is caught
    assert v["stated_det"] is not Verdict.VIOLATED

"""paul2014.shape: the in-law draws against embedding_distortion, the brackets, the rule and the control."""

import math

import numpy as np
import pytest
from scipy.linalg import hadamard

from rpcheck.engine import Outcome, TrialRecord, Verdict
from rpcheck.linalg import embedding_distortion
from rpcheck.papers.paul2014 import shape


@pytest.mark.parametrize("kind", ["gaussian", "sign"])
def test_dense_draws_equal_embedding_distortion(kind):
    # the same generator calls give A (rho x r); V^T R = A / sqrt(r) for V = I (coherent), d = rho
    rho, r, n = 3, 40, 5
    e = shape.distortions(kind, rho, rho, r, n, np.random.default_rng(4))
    rng = np.random.default_rng(4)
    if kind == "gaussian":
        A = rng.standard_normal((n, rho, r))
    else:
        A = 2.0 * rng.integers(0, 2, size=(n, rho, r), dtype=np.int8) - 1.0
    ref = [embedding_distortion(np.eye(rho), VtR=A[i] / math.sqrt(r)) for i in range(n)]
    np.testing.assert_allclose(e, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("d, r", [(12, 7), (16, 40), (5, 2)])
def test_srht_draws_equal_embedding_distortion_of_explicit_r(d, r):
    # R = sqrt(d'/r) D H S (eq. (11), S sampled with replacement) formed explicitly from the same draws
    rho, n = 2, 4
    e = shape.distortions("srht", rho, d, r, n, np.random.default_rng(9))
    rng = np.random.default_rng(9)
    dp = 1 << (d - 1).bit_length()
    V, _ = np.linalg.qr(rng.standard_normal((n, d, rho)))
    D = 2.0 * rng.integers(0, 2, size=(n, d), dtype=np.int8) - 1.0
    idx = rng.integers(0, dp, size=(n, r))
    H = hadamard(dp) / math.sqrt(dp)
    for i in range(n):
        R = math.sqrt(dp / r) * (D[i][:, None] * H[:d, :])[:, idx[i]]
        assert e[i] == pytest.approx(embedding_distortion(V[i], R), rel=1e-10, abs=1e-12)
    if r < rho:
        assert np.all(e >= 1 - 1e-12)


def test_brackets_use_certified_bounds_only():
    delta, n = 0.2, 200
    evals = [(50, 90, n), (60, 60, n), (70, 30, n), (80, 20, n), (100, 0, n)]
    L, U = shape.brackets(evals, delta)
    # one-sided bounds at 1 - BETA: 90/200 -> lower 0.322 > 0.2 (certified failure), 60/200 -> lower 0.189 (not);
    # 30/200 -> upper 0.262 (not a pass), 20/200 -> upper 0.1998 <= 0.2 (certified pass)
    assert L == 50 and U == 80
    assert shape.brackets([(10, 40, n)], delta) == (None, None)  # 40/200 = delta: neither side certified


def test_endpoints_and_control_factor():
    p = dict(shape.BASE, eq="eq10", axis="eps", draws=200)
    near, far = shape.endpoints(p)
    assert far["eps"] == near["eps"] / 8 and far["rho"] == near["rho"]
    assert shape.control_factor(p, near) == 1 and shape.control_factor(p, far) == pytest.approx(8)
    p = dict(p, axis="rho")
    assert shape.endpoints(p)[1]["rho"] == 32 and shape.control_factor(p, shape.endpoints(p)[1]) == 8


def _record(near, far, n=200):
    d = {}
    for name, evals in (("near", near), ("far", far)):
        d[f"{name}.evaluations"] = float(len(evals))
        for j, (r, k) in enumerate(evals):
            d[f"{name}.r{j:02d}"], d[f"{name}.k{j:02d}"], d[f"{name}.n{j:02d}"] = float(r), float(k), float(n)
    return TrialRecord(outcomes={"scaling": Outcome(True), "wrong_power": Outcome(True)}, diagnostics=d)


def test_decide_rule_and_control_are_the_same_bands_times_span():
    p = dict(shape.BASE, eq="eq10", axis="rho", draws=200)
    near, far = shape.endpoints(p)
    f_n = shape.formula("eq10", near["rho"], near["d"], near["eps"], near["delta"])
    f_f = shape.formula("eq10", far["rho"], far["d"], far["eps"], far["delta"])
    # r* exactly proportional to f: certified brackets (0.9 f, 1.1 f] at both ends
    rec = _record([(round(0.9 * f_n), 120), (round(1.1 * f_n), 0)], [(round(0.9 * f_f), 120), (round(1.1 * f_f), 0)])
    v, info = shape.decide([rec], p)
    assert v["scaling"] is Verdict.HOLDS and v["wrong_power"] is Verdict.VIOLATED
    assert info["wrong_power"]["ratio_lower"] == pytest.approx(8 * info["scaling"]["ratio_lower"])
    assert info["wrong_power"]["ratio_upper"] == pytest.approx(8 * info["scaling"]["ratio_upper"])
    assert "0.01" in info["claim"]
    # r* growing like rho f (a missing factor rho): the claim is VIOLATED
    rec = _record([(round(0.9 * f_n), 120), (round(1.1 * f_n), 0)],
                  [(round(0.9 * 8 * f_f), 120), (round(1.1 * 8 * f_f), 0)])
    v, _ = shape.decide([rec], p)
    assert v["scaling"] is Verdict.VIOLATED
    # no certified failure at the base: no band, no verdict
    v, _ = shape.decide([_record([(round(1.1 * f_n), 0)], [(round(0.9 * f_f), 120), (round(1.1 * f_f), 0)])], p)
    assert v["scaling"] is Verdict.INCONCLUSIVE


def test_shape_verdict_edges():
    assert shape.shape_verdict((1.0, 1.3), (1.3 * 2.83, 5.0), 2.83) is Verdict.VIOLATED  # lower end exactly tau
    # one threshold: a certified growth below tau (lower end 1.0, upper 2.0) is HOLDS, not VIOLATED
    assert shape.shape_verdict((1.0, 1.3), (1.3, 2.0), 2.83) is Verdict.HOLDS
    assert shape.shape_verdict((1.0, 1.3), (1.3 * 2.8, 4.0), 2.83) is Verdict.INCONCLUSIVE
    assert shape.shape_verdict((1.0, 1.3), (0.5, 2.83), 2.83) is Verdict.HOLDS
    assert shape.shape_verdict((1.0, 1.3), (0.5, 2.9), 2.83) is Verdict.INCONCLUSIVE
    assert shape.shape_verdict((None, 1.3), (0.5, 1.0), 2.83) is Verdict.INCONCLUSIVE


def test_search_brackets_a_gaussian_threshold():
    # eq. (10) at rho = 2, eps = 1/2, delta = 0.2: the engine's phases end with L < U, U a certified pass, L a
    # certified failure, every evaluation with the requested draws
    pt = {"rho": 2, "d": 2, "eps": 0.5, "delta": 0.2}
    evals = shape.search_endpoint("eq10", pt, 150, np.random.default_rng(3), start=40)
    assert len(evals) <= shape.EVALUATIONS and all(n == 150 for _, _, n in evals)
    L, U = shape.brackets(evals, 0.2)
    assert L is not None and U is not None and L < U


def test_cells_cover_every_axis_of_each_formula():
    cells = shape.THEOREM.profiles["quick"].cells
    assert {(c["eq"], c["axis"]) for c in cells} == {(eq, ax) for eq, axes in shape.EQ_AXES.items() for ax in axes}
    assert shape.BETA == pytest.approx(shape.ALPHA / (4 * shape.EVALUATIONS))


def test_incoherent_sign_draws_equal_embedding_distortion_of_explicit_r():
    # Haar V and the full d x r sign matrix R / sqrt(r), from the same generator calls
    rho, d, r, n = 2, 9, 13, 3
    e = shape.distortions("sign", rho, d, r, n, np.random.default_rng(6), coherence="incoherent")
    rng = np.random.default_rng(6)
    V, _ = np.linalg.qr(rng.standard_normal((n, d, rho)))
    S = 2.0 * rng.integers(0, 2, size=(n, d, r), dtype=np.int8) - 1.0
    for i in range(n):
        assert e[i] == pytest.approx(embedding_distortion(V[i], S[i] / math.sqrt(r)), rel=1e-10, abs=1e-12)


def test_sign_cells_row_spaces():
    cells = {c["axis"]: c for c in shape.THEOREM.profiles["ci"].cells if c["eq"] == "eq9"}
    assert {ax: c["coherence"] for ax, c in cells.items()} == shape.SIGN_COHERENCE

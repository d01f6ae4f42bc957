"""Regression tests for solver defects: each test fails on code with the defect, whose exception type or silent
non-finite output its docstring names."""

import warnings

import numpy as np
import pytest
from _svm_data import assert_svc_agree

from rpcheck.errors import RpcheckError, SolverError
from rpcheck.svm import SVCProblem, min_enclosing_ball, normalized_margin, solve_svc, solve_svr

Y4 = np.array([1.0, -1.0, 1.0, -1.0])
XG = np.random.default_rng(0).standard_normal((6, 3))
YG = np.array([1, -1, 1, -1, 1, -1.0])


def test_zero_X_tiny_C_ipm():
    """Was ZeroDivisionError inside the IPM (solver IPM, all-zero X, C=1e-300)."""
    with pytest.raises(RpcheckError, match=r"`C` \(1e-300\)"):
        solve_svc(np.zeros((4, 3)), Y4, 1e-300, solver="IPM")


@pytest.mark.parametrize("solver", ["IPM", "AUTO", "CLARABEL"])
def test_degenerate_inputs_are_certified(solver):
    """All-zero X (w = 0), one point (bias=False), constant y (bias=False), duplicated points."""
    r = solve_svc(np.zeros((4, 3)), Y4, 1.0, solver=solver)
    assert np.all(r.w == 0) and r.kkt.max_relative <= 1e-7 and r.margin == np.inf
    r = solve_svc(np.ones((1, 2)), [1], 1.0, bias=False, solver=solver)
    assert r.kkt.max_relative <= 1e-7
    r = solve_svc(XG, np.ones(6), 1.0, bias=False, solver=solver)
    assert r.kkt.max_relative <= 1e-7
    r = solve_svc(np.tile([[1.0, 2.0]], (6, 1)), YG, 1.0, solver=solver)
    assert r.kkt.max_relative <= 1e-7 and np.isfinite(r.objective)


@pytest.mark.parametrize("solver", ["IPM", "CLARABEL", "OSQP"])
@pytest.mark.parametrize("scale", [1e300, 1e-300])
def test_extreme_X_scale_refused(solver, scale):
    """Was ZeroDivisionError (IPM, C=inf), a cvxpy ValueError "Problem data contains NaN or Inf"
    (Clarabel/OSQP, C=1e308) or an objective of -inf/nan (IPM, C=1e308)."""
    for C in (np.inf, 1.0, 1e308):
        with pytest.raises(RpcheckError, match=r"`X` has largest row norm"):
            solve_svc(XG * scale, YG, C, solver=solver)
    with pytest.raises(RpcheckError, match=r"`X` has largest row norm"):
        min_enclosing_ball(XG * scale, solver=solver)


@pytest.mark.parametrize("solver", ["IPM", "CLARABEL"])
def test_huge_C_refused(solver):
    """Was a non-finite objective (duplicated points, C=1e308): now refused by name."""
    with pytest.raises(RpcheckError, match=r"`C` \(1e\+308\) times the squared largest row norm"):
        solve_svc(np.tile([[1.0, 2.0]], (6, 1)), YG, 1e308, solver=solver)


def test_meb_0d_X_and_polish():
    """0-d X is refused by name; `polish` was not validated at all."""
    with pytest.raises(RpcheckError, match=r"`X` must be 2-dimensional"):
        min_enclosing_ball(np.float64(3.0))
    with pytest.raises(RpcheckError, match=r"`polish` \('yes'\) must be True or False"):
        min_enclosing_ball(XG, polish="yes")


def test_labels_name_the_offenders():
    with pytest.raises(RpcheckError, match=r"not allowed: \[0, 2\], first at index 1"):
        solve_svc(XG, [1, 0, 1, -1, 2, -1], 1.0)


def test_svr_extremes_refused():
    with pytest.raises(RpcheckError, match=r"`y` has an entry of magnitude 1e\+300"):
        solve_svr(XG, np.full(6, 1e300), 1.0, 0.1)
    with pytest.raises(RpcheckError, match=r"`epsilon` \(1e\+300\) must be finite and at most"):
        solve_svr(XG, YG, 1.0, 1e300)
    with pytest.raises(RpcheckError, match=r"`C` \(1e\+200\) with X"):
        solve_svr(XG, YG, 1e200, 0.1)


def test_solver_options_validated():
    with pytest.raises(RpcheckError, match=r"`solver_options` \(3\) must be a dict"):
        solve_svc(XG, YG, 1.0, solver_options=3)
    with pytest.raises(RpcheckError, match=r"`solver_options` has keys \['eps_abs'\].*allowed keys"):
        solve_svc(XG, YG, 1.0, solver="IPM", solver_options={"eps_abs": 1e-3})


def test_solver_error_names_arguments():
    """A certificate failure still raises SolverError, now with the arguments appended."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(SolverError, match=r"\[solve_svc: n=6, d=3, C=1, bias=True, solver='IPM'\]"):
            solve_svc(XG, YG, 1.0, solver="IPM", solver_options={"max_iter": 1}, polish=False)


def test_shape_mismatch_svcproblem():
    prob = SVCProblem(6, 3, C=1.0)
    with pytest.raises(RpcheckError, match=r"`X` has shape \(6, 2\) but this SVCProblem was built"):
        prob.solve(XG[:, :2], YG)
    assert prob.problem is None  # default AUTO: nothing canonicalised


def test_auto_falls_back_to_clarabel(monkeypatch):
    """When the IPM's point fails the certificate, AUTO returns Clarabel's certified result."""
    from rpcheck.svm import svc

    def broken(*a, **k):
        raise SolverError("IPM broken for the test", status="numerical_error", solver="IPM")

    monkeypatch.setattr(svc, "_solve_ipm", broken)
    res = solve_svc(XG, YG, 1.0)
    assert res.solver == "CLARABEL" and res.kkt.max_relative <= 1e-7


def _leverage_like_gisette(n, seed, k):
    """``k`` raw features of the gisette stand-in, min-max scaled to [-1, 1] as ``rpcheck.compare`` scales
    them: the kind of data (``lei2020.comparison``'s DLSS methods) on which the IPM's Newton system broke down."""
    from rpcheck.compare import _scale
    from rpcheck.standins import lei2020_like

    ds = lei2020_like("gisette", split="all", n=n, rng=seed)
    cols = np.random.default_rng(seed).choice(ds.X.shape[1], k, replace=False)
    X = np.asarray(ds.X[:, cols], dtype=float)
    return _scale(X, X[:0])[0], ds.y


@pytest.mark.parametrize(("seed", "k", "C"), [(0, 64, 8.0), (0, 64, 32.0), (2, 64, 0.5), (3, 128, 16.0)])
def test_ipm_breakdown_keeps_best_iterate(monkeypatch, seed, k, C):
    """One step after merit ~1e-9 the Woodbury solve gives e^T M^-1 e < 0 (a breakdown). The defect: raising
    SolverError "IPM: non-finite iterates or a singular Newton system" and discarding the near-optimal best
    iterate (under AUTO, a Clarabel solve 30-40x slower). The best iterate is returned, polished and
    certified; the result agrees with Clarabel's within both certificates (``assert_svc_agree``). The
    breakdown path must actually be taken (else the instance does not test it)."""
    from rpcheck.svm import _ipm

    merits = []
    real = _ipm._breakdown_status
    monkeypatch.setattr(_ipm, "_breakdown_status", lambda m: merits.append(m) or real(m))
    X, y = _leverage_like_gisette(400, seed, k)
    res = solve_svc(X, y, C, solver="IPM")
    assert merits and np.isfinite(merits[0]) and res.solver == "IPM"
    assert_svc_agree(res, solve_svc(X, y, C, solver="CLARABEL"), y.size)


def test_normalized_margin_default():
    res = normalized_margin(XG, YG)
    assert np.isfinite(res.margin) and res.svc.solver in ("IPM", "CLARABEL")

"""paul2014.e14 and paul2014.regression_tables: one trial agrees with the derivations of the module
docstrings; the non-separability certificate is checked independently of the checker's arithmetic."""

import numpy as np
import pytest

from rpcheck.papers.paul2014 import e14, regression_tables
from rpcheck.svm import solve_svc


def test_certificate_on_xor_and_on_separable_data():
    # XOR: not linearly separable with a bias; lambda = 1/4 on each point is a Farkas certificate
    G = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    lam = e14.nonseparability_certificate(G, y)
    assert lam is not None and lam.min() >= 0 and lam.sum() == pytest.approx(1.0)
    assert np.linalg.norm(G.T @ (y * lam)) <= 1e-9 and abs(y @ lam) <= 1e-9
    # every hyperplane misclassifies some XOR point: the soft-margin SVM's geometric margin is <= 0
    res = solve_svc(G + 1e-3 * np.arange(8).reshape(4, 2), y, 1.0)
    if np.linalg.norm(res.w) > 0:
        assert e14.geometric_margin(G, y, res.w, res.b)[0] <= 1e-9
    # separable data: no certificate
    assert e14.nonseparability_certificate(np.array([[1.0], [2.0], [-1.0], [-2.0]]), np.array([1.0, 1, -1, -1])) is None


def test_e14_one_trial_matches_the_derivations():
    rec = e14.trial({"n": 40, "d": 200, "rho": 5, "r": 100}, np.random.default_rng(7))
    out, diag = rec.outcomes, rec.diagnostics
    assert diag["separable"] == 0.0
    assert out["geometric_nonpositive"].holds and out["projected_geometric_nonpositive"].holds
    assert diag["gamma_geometric"] <= 1e-9 and diag["gamma_geometric_proj"] <= 1e-9
    assert not out["separable_control"].holds and diag["gamma_geometric_separable"] >= 0.5 - 1e-6
    assert diag["max_alpha_separable"] <= 4 + 1e-6  # sum alpha = ||w||^2 <= 4 < C = 1000 (docstring)
    assert diag["gamma_width"] > 0


@pytest.mark.parametrize("dataset, methods", [("nci60", "RG,CW"), ("yalefaces", "RG")])
def test_regression_tables_one_trial(dataset, methods):
    rec = regression_tables.trial({"dataset": dataset, "methods": methods}, np.random.default_rng(11))
    out, diag = rec.outcomes, rec.diagnostics
    assert out["thm37_general"].holds and not out["thm37_general"].vacuous
    assert not out["general_control"].holds
    rs = regression_tables.PAPER[dataset]["r"]
    for m in methods.split(","):
        # e >= 1 at r <= rank-ish sizes, < 1 at the largest r (Sec. 4.3 runs)
        assert diag[f"{m}.{rs[0]}.e"] >= 1 and diag[f"{m}.{rs[-1]}.e"] < 1
        assert 0 < diag[f"{m}.{rs[-1]}.beta"] <= 1
    # independent beta: squared Pearson correlation
    f = np.array([1.0, 2.0, 2.5, 4.0])
    t = np.array([1.1, 1.9, 3.0, 3.9])
    assert regression_tables.beta_sq_corr(f, t) == pytest.approx(np.corrcoef(f, t)[0, 1] ** 2)


def test_e14_helpers_reject_bad_input():
    from rpcheck.errors import RpcheckError

    G = np.eye(3)
    with pytest.raises(RpcheckError, match=r"`y` must contain only the labels -1 and \+1"):
        e14.nonseparability_certificate(G, np.array([1.0, 2.0, -1.0]))
    with pytest.raises(RpcheckError, match=r"`y` has length 2 but X has 3 rows"):
        e14.geometric_margin(G, np.array([1.0, -1.0]), np.ones(3), 0.0)
    with pytest.raises(RpcheckError, match=r"`w` must be a nonzero vector of length 3"):
        e14.geometric_margin(G, np.array([1.0, -1.0, 1.0]), np.zeros(3), 0.0)

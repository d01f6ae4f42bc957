"""Pieces shared by the two Theorem 6 checkers of Shi et al. (2012), shi2012.thm6 (witness margin, module
``thm6``) and shi2012.thm6.svm (optimal margin, module ``thm6_svm``): the fixed data of a cell, the projected
witness margin of one draw, the promised failure probability and the parameter domains."""

from __future__ import annotations

import functools

import numpy as np

from ...generators import separable_dataset
from ...svm import normalized_margin
from . import _common as c
from . import bounds as B

__all__ = ["STATEMENT", "PARAMS", "data", "opt_margin", "witness", "promised", "cell"]

#: Theorem 6 as printed (the statement of both rows).
STATEMENT = (
    "If S is separable by normalised margin gamma in (0,1], then for delta, eps in (0,1) and "
    "n > 12/(3eps^2-2eps^3) ln(6m/delta), with probability >= 1-delta, S' = {(Rx_i, y_i)} is separable "
    "by "
    "normalised margin gamma - 2eps/(1-eps)."
)


@functools.lru_cache(maxsize=64)
def data(m, d, gamma):
    D = separable_dataset(m, d, margin=gamma, rng=c.instance_rng("thm6", m, d, gamma))
    gu = float(np.min(D.y * (D.X @ D.w) / np.linalg.norm(D.X, axis=1)))
    return D.X, D.y, D.w, gu


@functools.lru_cache(maxsize=64)
def opt_margin(m, d, gamma):
    X, y, _, _ = data(m, d, gamma)
    return normalized_margin(X, y).margin_lower  # certified: the true optimum is >= this


def witness(params, rng):
    m, d, gamma, n, eps = params["m"], params["d"], params["gamma"], params["n"], params["eps"]
    X, y, u, gu = data(m, d, gamma)
    Xs = y[:, None] * X
    Xh = Xs / np.linalg.norm(Xs, axis=1)[:, None]
    V = np.vstack([u, X, Xh - u])  # u is unit; differences y_i xhat_i - uhat for the third Lemma-10 event
    RV = c.project(V, n, rng)
    q = c.sq_ratio(RV, V)
    Ru, RX = RV[0], RV[1:m + 1]
    cos = y * (RX @ Ru) / (np.linalg.norm(RX, axis=1) * np.linalg.norm(Ru))
    return X, y, gu, RX, float(cos.min()), bool(np.all(np.abs(q - 1) <= eps))


def promised(p):
    return B.union_failure_bound("thm6", p["n"], p["eps"], m=p["m"])


def cell(gamma, eps, n, m=20, d=40):
    return {"gamma": gamma, "eps": eps, "n": n, "m": m, "d": d}


#: Parameter domains of both Theorem 6 rows (witness and optimal margin).
PARAMS = {"gamma": c.FLOAT(0.0, 1.0, closed="right", doc="planted normalised margin in (0, 1]"),
           "eps": c.EPS01, "n": c.INT(1, doc="rows of R"), "m": c.INT(1, doc="points"),
           "d": c.INT(2, doc="dimension")}

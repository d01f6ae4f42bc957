"""Exact solvers with optimality certificates (layer 3): SVM classification and regression duals,
minimum enclosing ball, normalised margin, L2-regularised ERM with smooth classification losses
(logistic, squared hinge, smoothed hinge). They know nothing of theorems.

Paul et al. 2014 eqs. (2)-(6) and Section 1.5 of ``spec/paul2014.md``; Shi et al. 2012 Definition 2.
"""

from . import kkt
from ._common import SOLVERS
from ._results import BallResult, KKTResiduals, MarginResult, SVCResult, SVRResult
from .erm import ERM_LOSSES, ERMResult, erm_duality_gap, solve_erm
from .margin import normalized_margin
from .meb import min_enclosing_ball
from .svc import SVCProblem, solve_svc
from .svr import SVR_FORMS, solve_svr

__all__ = [
    "solve_svc",
    "SVCProblem",
    "solve_svr",
    "solve_erm",
    "erm_duality_gap",
    "ERM_LOSSES",
    "ERMResult",
    "SVR_FORMS",
    "min_enclosing_ball",
    "normalized_margin",
    "SVCResult",
    "SVRResult",
    "BallResult",
    "MarginResult",
    "KKTResiduals",
    "SOLVERS",
    "kkt",
]

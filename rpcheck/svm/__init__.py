"""Exact solvers with optimality certificates (layer 3): SVM classification and regression duals,
minimum enclosing ball, normalised margin, and the L2-loss
(squared-hinge) SVM that LIBLINEAR solves by default (``solve_l2svc``). They know nothing of theorems.

Paul et al. 2014 eqs. (2)-(6) and Section 1.5 of ``spec/paul2014.md``; Shi et al. 2012 Definition 2.
"""

from . import kkt
from ._common import SOLVERS
from ._results import BallResult, KKTResiduals, L2SVCResult, MarginResult, SVCResult, SVRResult
from .liblinear import solve_l2svc
from .margin import normalized_margin
from .meb import min_enclosing_ball
from .svc import SVCProblem, solve_svc
from .svr import SVR_FORMS, solve_svr

__all__ = [
    "solve_svc",
    "solve_l2svc",
    "L2SVCResult",
    "SVCProblem",
    "solve_svr",
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

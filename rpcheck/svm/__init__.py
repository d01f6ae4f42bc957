"""Exact solvers with optimality certificates (layer 3): SVM classification and regression duals,
minimum enclosing ball, normalised margin, the L2-loss (squared-hinge) SVM that LIBLINEAR solves by default
(``solve_l2svc``), the Crammer-Singer multiclass SVM (``solve_crammer_singer``), the joint-feature
multiclass SVM with one weight vector (``solve_joint_multiclass``), and L2-regularised ERM
with smooth classification losses (logistic, squared hinge, smoothed hinge). They know nothing of theorems.

Paul et al. 2014 eqs. (2)-(6) and Sec. 1.1.1 (the data radius B); Shi et al. 2012 Definition 2; Zhang et al. 2013
eq. (1); Hsieh et al. 2008 (dual coordinate descent for LIBLINEAR's problem); Crammer and Singer 2001 and
Keerthi et al. 2008 (the multiclass SVM and its sequential dual method).
"""

from . import kkt
from ._common import SOLVERS
from ._results import (
    BallResult,
    JointMulticlassResult,
    KKTResiduals,
    L2SVCResult,
    MarginResult,
    MulticlassResult,
    SVCResult,
    SVRResult,
)
from .certified import Interval, svc_bounds, svr_bounds
from .erm import ERM_LOSSES, ERMResult, erm_duality_gap, solve_erm
from .joint import joint_primal_objective, solve_joint_multiclass
from .liblinear import solve_l2svc
from .margin import normalized_margin
from .meb import min_enclosing_ball
from .multiclass import cs_primal_objective, solve_crammer_singer
from .svc import SVCProblem, solve_svc
from .svr import SVR_FORMS, solve_svr

__all__ = [
    "solve_svc",
    "solve_l2svc",
    "solve_crammer_singer",
    "cs_primal_objective",
    "MulticlassResult",
    "solve_joint_multiclass",
    "joint_primal_objective",
    "JointMulticlassResult",
    "L2SVCResult",
    "SVCProblem",
    "solve_svr",
    "svc_bounds",
    "svr_bounds",
    "Interval",
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

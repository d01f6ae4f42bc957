r"""Lei & Lan (2020), claim 10 (D1), ``lei2020.dual_perturbation``: the dual perturbation bound for every
construction compared in the paper (Sec. 2, eqs. (3), (4); the "alpha~* close to alpha*" heuristic), through the
exact solver.

The bound is DERIVED (``rpcheck.papers.lei2020.bounds.dual_perturbation_bound``); solver, certificate and tolerance
conventions are described in ``rpcheck.papers.lei2020._svm_bounds``.
"""

from __future__ import annotations

import numpy as np

from ...engine import Param, Profile, Theorem, TrialRecord, Variant, Verdict, grid, register
from ...sketches import make_sketch
from ...stats import deterministic_trials
from ...svm import solve_svc
from . import _common as c
from . import bounds as B
from ._svm_bounds import H, certified_event, combine_events, event_outcome, solve_cert, svm_data

__all__ = ["THEOREM", "trial", "METHODS"]


#: (label, kind, params) of every construction compared in the paper (Sec. 4).
METHODS = (
    ("gaussian", "gaussian", {}),
    ("achlioptas", "sparse", {"density": "achlioptas"}),
    ("countsketch", "countsketch", {}),
    ("srht", "srht", {"replace": False}),
    ("srht-nps", "srht-nps", {}),
    ("srht-topr", "srht-topr", {}),
    ("srht-supervised", "srht-supervised", {"rule": "smallest"}),
)


#: the constructions that, at r = d', keep every column of the orthogonal rotation of the padded data: SRHT
#: without replacement (scale sqrt(d'/r) = 1) and the no-rescale top-r and supervised selections, so K~ = K
KEEP_ALL_AT_FULL_RANK = ("srht", "srht-topr", "srht-supervised")


def _fit(kind, d, r, rng, X, y, **kw):
    sk = make_sketch(kind, d, r, rng=rng, **kw)
    if sk.data_dependent:
        sk.fit(X, y)
    Z = sk.apply(X)
    return np.asarray(Z.toarray() if hasattr(Z, "toarray") else Z, dtype=np.float64)


# ---------------------------------------------------------------------------------------------------------
# claim 10 (D1): dual perturbation for every construction
# ---------------------------------------------------------------------------------------------------------
def trial(params, rng):
    n, d, r, C = params["n"], params["d"], params["r"], params["C"]
    X, y = svm_data(params, rng)
    K = X @ X.T
    base = solve_svc(X, y, C)
    st, st_ctrl, worst, diag = [], [], -np.inf, {}
    keeps_all = r >= c.dpad(d)
    for label, kind, kw in METHODS:
        Z = _fit(kind, d, r, rng, X, y, **kw)
        if keeps_all and label in KEEP_ALL_AT_FULL_RANK:
            # r = d': the construction keeps every column of the orthogonal rotation of the padded data, so
            # K~ = K in exact arithmetic (max |K - Z Z^T| is 3e-14 of max |K| = 57 on one draw) and the claim is
            # the identity 0 <= 0 (so is the control's event). The solves cannot certify it (a gap of exactly 0
            # sits inside their certificates: at d = 32, r = 32 every draw is undetermined), so the identity is used
            # instead; the other four constructions are
            # tested as everywhere.
            st.append(True)
            st_ctrl.append(True)
            diag[f"ratio_{label}"] = 0.0
            continue
        proj = solve_svc(Z, y, C)
        E = K - Z @ Z.T
        bnd = B.dual_perturbation_bound(n, C, float(np.linalg.norm(E, 2)))
        tol = solve_cert(base, n, C) + solve_cert(proj, n, C)
        diff = abs(proj.objective - base.objective)
        # |true OPT~ - true OPT| lies in [max(0, diff - tol), diff + tol]
        st.append(certified_event(max(0.0, diff - tol), diff + tol, bnd))
        # negative control: the bound with ||K - K~||_2 tightened to 0 (OPT unchanged). For the no-rescale
        # selections (top-r, supervised) OPT(K~) - OPT(K) >= q = (1/2) sum_{j unselected}(x_j^T Y alpha*)^2
        # > 0 a.s. (see selection_dual), so the control fails once q exceeds the certificates
        st_ctrl.append(certified_event(max(0.0, diff - tol), diff + tol, 0.0))
        worst = max(worst, diff - bnd)
        diag[f"ratio_{label}"] = diff / bnd if bnd > 0 else 0.0
    return TrialRecord(
        outcomes={
            "bound": event_outcome(combine_events(st), worst),
            "control_zero_bound": event_outcome(combine_events(st_ctrl)),
        },
        diagnostics=diag,
    )


THEOREM = register(
    Theorem(
        id="lei2020.dual_perturbation",
        paper="lei2020",
        title="|OPT(K) - OPT(K~)| <= (n C^2/2) ||K - K~||_2 for every projection (Gaussian ... supervised)",
        citation=c.citation("Sec. 2 (eqs. (3), (4); 'alpha~* close to alpha*' heuristic), bound DERIVED "
            "rpcheck.papers.lei2020.bounds.dual_perturbation_bound"),
        statement="(DERIVED, rpcheck.papers.lei2020.bounds.dual_perturbation_bound) The feasible sets of (3) and (4) "
                  "coincide, so |OPT - OPT~| <= "
        "(n C^2/2) ||K - K~||_2.",
        kind="deterministic",
        variants=(
            Variant(
                "bound",
                "max over the 7 constructions of |OPT - OPT~| - (nC^2/2)||K-K~||_2 <= 0, certified (the "
                "certificate interval straddling the bound is undetermined)",
                expected=H,
            ),
            Variant(
                "control_zero_bound",
                "negative control: |OPT - OPT~| <= 0 for all 7 constructions (the bound with ||K-K~||_2 = 0)",
                expected=Verdict.VIOLATED,
                role="control",
            ),
        ),
        profiles={
            # quick: sized for the deterministic HOLDS rows (rpcheck.stats.deterministic_trials: >= 90 evaluated draws
            # with probability >= 0.99, each row holding on every draw); no draw of 150 was vacuous (seed 0; 99% upper
            # bound 0.03).
            "quick": Profile(cells=grid(n=30, d=32, r=8, C=1.0), trials=deterministic_trials(0.03)),
            # ci: sized for the deterministic HOLDS rows (rpcheck.stats.deterministic_trials: >= 90 evaluated draws with
            # probability >= 0.99, each row holding on every draw); no draw of 150 was vacuous (seed 0; 99% upper bound
            # 0.03).
            "ci": Profile(cells=grid(n=40, d=32, r=8, C=[0.1, 1.0]), trials=deterministic_trials(0.03)),
            # Power (standard): a deterministic HOLDS needs >= 90 evaluated draws
            # (rpcheck.stats.DETERMINISTIC_MIN_DRAWS: 0 failures in 90 draws put P(failure) <= 0.05 at 99%); below 90
            # draws HOLDS is unattainable; 100
            # leaves room for vacuous draws.
            "standard": Profile(cells=grid(n=60, d=[32, 100], r=[8, 16], C=[0.1, 1.0, 10.0]), trials=100),
            "full": Profile(cells=grid(n=100, d=[32, 100, 256], r=[8, 16, 32], C=[0.01, 0.1, 1.0, 10.0]), trials=100),
        },
        trial=trial,
        parameters={"n": Param("int", low=2, doc="number of points (both classes present)"), "d": c.P_D,
                    "r": c.P_R, "C": Param("float", low=0.0, closed="neither", doc="SVM C (inf = hard margin)")},
        constraints=(c.R_LE_DPAD,),
        tolerance_note="per-solve certificate |primal - dual| + n max(C,1) (primal_abs + dual_abs) of "
            "solve_svc",
    )
)

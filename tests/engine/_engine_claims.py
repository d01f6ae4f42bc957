"""Synthetic claims for the engine's own tests (not in rpcheck.papers).

They must not leak into the registry of other tests of the same pytest session (``all_theorems()`` would
list them, ``run(None)`` would run the buggy one), so in the main process they are registered only while
the tests of this directory run (``tests/engine/conftest.py`` calls :func:`register_all` and
:func:`unregister_all`). Worker processes find them by id: the runner ships ``trial.__module__``
("_engine_claims", importable because pytest puts this directory on sys.path, which spawned workers
inherit) and the worker imports it; in a worker process (``multiprocessing.parent_process()`` is set) the
import registers them.
"""

import multiprocessing
import time

import numpy as np
from scipy.stats import chi2

from rpcheck.engine import Citation, Outcome, Profile, Theorem, TrialRecord, Variant, Verdict, grid, registry
from rpcheck.errors import SolverError

CIT = Citation(authors="Test", year=2024, title="synthetic", venue="tests", location="none")


def _profiles(cells, trials):
    return {p: Profile(cells=cells, trials=trials) for p in ("quick", "ci", "standard", "full")}


# ---- Bernoulli(p) claim "P(fail) <= delta" ---------------------------------------------------------
def bernoulli_trial(params, rng):
    u = rng.random()
    if params.get("sleep"):
        time.sleep(params["sleep"])
    fail = u < params["p"]
    return TrialRecord(
        outcomes={"bound": Outcome(holds=not fail, statistic=u, bound=params["p"])},
        diagnostics={"u": u, "draw2": rng.standard_normal()},
    )


def _bern_expected(params):
    if params["p"] <= params["delta"] / 4:
        return Verdict.HOLDS
    if params["p"] >= params["delta"] * 4:
        return Verdict.VIOLATED
    return None


BERNOULLI = Theorem(
    id="engine_test.bernoulli",
    paper="test",
    title="Bernoulli(p) failures against a promised delta",
    citation=CIT,
    statement="P(U < p) <= delta",
    kind="probabilistic",
    variants=(
        Variant(
            "bound",
            "U >= p",
            mode="bound",
            expected=_bern_expected,
            promised_failure=lambda q: q["delta"],
        ),
    ),
    profiles=_profiles(grid(p=[0.002, 0.03, 0.2], delta=0.05, sleep=0.0), 1000),
    trial=bernoulli_trial,
    vacuous=lambda q: "delta >= 0.5 is not informative here" if q["delta"] >= 0.5 else None,
)


# ---- exact oracle: ||R x||^2 / ||x||^2 ~ chi2_n / n for R with i.i.d. N(0, 1/n) entries --------------
def chi2_exact_p(n, eps):
    return float(chi2.cdf(n * (1 - eps), n) + chi2.sf(n * (1 + eps), n))


def chi2_trial(params, rng):
    n, d, eps = params["n"], params["d"], params["eps"]
    x = np.arange(1.0, d + 1.0)
    R = rng.standard_normal((n, d)) / np.sqrt(n)
    ratio = float(np.sum((R @ x) ** 2) / np.sum(x**2))
    dev = abs(ratio - 1.0)
    o = Outcome(holds=dev <= eps, statistic=dev, bound=eps)
    return TrialRecord(
        outcomes={"exact": o, "wrong": o},
        diagnostics={"ratio": ratio},
    )


CHI2 = Theorem(
    id="engine_test.chi2",
    paper="test",
    title="Gaussian JL norm preservation against the exact chi-square law",
    citation=CIT,
    statement="P(| ||Rx||^2/||x||^2 - 1 | > eps) = chi2.cdf(n(1-eps), n) + chi2.sf(n(1+eps), n)",
    kind="probabilistic",
    variants=(
        Variant(
            "exact",
            "|ratio - 1| <= eps",
            mode="exact",
            expected=Verdict.HOLDS,
            promised_failure=lambda q: chi2_exact_p(q["n"], q["eps"]),
        ),
        Variant(
            "wrong",
            "|ratio - 1| <= eps, against the law of a sketch with 4n rows",
            mode="exact",
            promised_failure=lambda q: chi2_exact_p(4 * q["n"], q["eps"]),
        ),
    ),
    profiles=_profiles(grid(n=[8, 16, 32, 64], eps=[0.2, 0.3, 0.5, 0.7, 0.9, 1.2], d=12), 300),
    trial=chi2_trial,
)


# ---- deterministic claim with vacuous draws and solver errors ---------------------------------------
def det_trial(params, rng):
    u = rng.random()
    X = rng.standard_normal((4, 3))
    if u < params["solver_p"]:
        raise SolverError("synthetic solver failure", status="numerical_error", solver="TEST")
    vac = u > 1 - params["vac_p"]
    fail = params["solver_p"] <= u < params["solver_p"] + params["fail_p"]
    stat = float(np.linalg.norm(X))
    bound = stat + (-(1.0 + u) if fail else 1.0)
    return TrialRecord(
        outcomes={
            "claim": Outcome(holds=not fail, statistic=stat, bound=bound, vacuous=bool(vac)),
            "always": Outcome(holds=True, statistic=stat, bound=stat + 1),
        },
        diagnostics={"u": u, "norm": stat},
        artifacts={"X": X, "label": "synthetic", "u": np.float64(u)},
    )


def _always_expected(params):
    return Verdict.HOLDS if params["solver_p"] == 0 else Verdict.INCONCLUSIVE


DET = Theorem(
    id="engine_test.det",
    paper="test",
    title="deterministic inequality with planted violations",
    citation=CIT,
    statement="||X|| <= bound for every draw",
    kind="deterministic",
    variants=(
        Variant("claim", "stat <= bound", mode="deterministic"),
        # "always" holds on every draw. Rules v2 (rpcheck.stats): a deterministic HOLDS needs >= 90 draws with
        # no failure and no solver error. With 100 trials that is met where solver_p = 0; where solver_p = 0.1
        # a solver error (which counts against HOLDS) occurs with probability 1 - 0.9**100 > 1 - 3e-5, so the
        # row is INCONCLUSIVE.
        Variant("always", "stat <= stat + 1", mode="deterministic", expected=_always_expected),
    ),
    profiles=_profiles(
        (
            {"fail_p": 0.0, "solver_p": 0.1, "vac_p": 0.2},
            {"fail_p": 0.05, "solver_p": 0.0, "vac_p": 0.0},
            {"fail_p": 0.0, "solver_p": 0.0, "vac_p": 1.0},
        ),
        100,  # >= 90 (rpcheck.stats.DETERMINISTIC_MIN_DRAWS) so that a deterministic HOLDS is reachable
    ),
    trial=det_trial,
)


# ---- a buggy checker ---------------------------------------------------------------------------------
def buggy_trial(params, rng):
    rng.random()
    return TrialRecord(outcomes={"v": Outcome(holds=True)}, diagnostics={"x": 1.0 / (params["k"] - 3)})


BUGGY = Theorem(
    id="engine_test.buggy",
    paper="test",
    title="raises ZeroDivisionError",
    citation=CIT,
    statement="-",
    kind="deterministic",
    variants=(Variant("v", "-", mode="deterministic"),),
    profiles=_profiles(grid(k=[1, 3]), 5),
    trial=buggy_trial,
)


# ---- report mode with a decide hook --------------------------------------------------------------------
def report_trial(params, rng):
    x = rng.normal(params["mu"], 1.0)
    return TrialRecord(outcomes={"mean": Outcome(holds=True, statistic=x)}, diagnostics={"x": x})


def report_decide(records, params):
    m = float(np.mean([r.diagnostics["x"] for r in records]))
    return (Verdict.HOLDS if m > 0 else Verdict.VIOLATED), {"mean": m, "n": len(records)}


REPORT = Theorem(
    id="engine_test.report",
    paper="test",
    title="report-mode measurement",
    citation=CIT,
    statement="mean > 0",
    kind="empirical",
    variants=(Variant("mean", "mean of N(mu, 1)", mode="report"),),
    profiles=_profiles(grid(mu=[-2.0, 2.0]), 50),
    trial=report_trial,
    decide=report_decide,
)


# ---- calibration: several cells exactly at the boundary p = delta -------------------------------------
CALIB = Theorem(
    id="engine_test.calib",
    paper="test",
    title="Bernoulli(delta) failures: every cell sits on the boundary of its claim",
    citation=CIT,
    statement="P(U < p) <= delta with p = delta",
    kind="probabilistic",
    variants=(Variant("bound", "U >= p", mode="bound", promised_failure=lambda q: q["delta"]),),
    profiles=_profiles(grid(p=0.1, delta=0.1, sleep=0.0, rep=[0, 1, 2, 3]), 200),
    trial=bernoulli_trial,
)


# ---- a cheap claim for memory measurements (one uniform draw per trial, two diagnostics) ---------------
def cheap_trial(params, rng):
    u = rng.random()
    return TrialRecord(outcomes={"bound": Outcome(holds=u >= 0.01, statistic=u, bound=0.01)}, diagnostics={"u": u})


CHEAP = Theorem(
    id="engine_test.cheap",
    paper="test",
    title="cheapest possible trial (memory of the parent in long runs)",
    citation=CIT,
    statement="P(U < 0.01) <= 0.02",
    kind="probabilistic",
    variants=(Variant("bound", "U >= 0.01", mode="bound", promised_failure=0.02),),
    profiles=_profiles(({"k": 0},), 1000),
    trial=cheap_trial,
)


# ---- a trial whose value depends on the number of BLAS threads ------------------------------------------
#: Length of the dot product: OpenBLAS splits a ddot of this length between its threads, so x @ x differs in
#: the last bits between 1 and 2 threads (the engine pins trials to one thread: _worker.one_blas_thread).
BLAS_N = 1 << 20


def blas_dot_trial(params, rng):
    x = rng.standard_normal(BLAS_N)
    s = float(x @ x)
    return TrialRecord(outcomes={"claim": Outcome(holds=True, statistic=s, bound=np.inf)}, diagnostics={"dot": s})


BLAS_DOT = Theorem(
    id="engine_test.blas_dot",
    paper="test",
    title="a BLAS reduction whose last bits depend on the thread count",
    citation=CIT,
    statement="x @ x < inf",
    kind="deterministic",
    variants=(Variant("claim", "x @ x < inf", mode="deterministic"),),
    profiles=_profiles(({"k": 0},), 3),
    trial=blas_dot_trial,
)

# ---- two cells of one easy claim, one slow, one fast (the budget's scheduling order) ---------------------
BUDGET_ORDER = Theorem(
    id="engine_test.budget_order",
    paper="test",
    title="one easy claim in a slow cell (first in plan order) and a fast cell",
    citation=CIT,
    statement="P(U < p) <= delta",
    kind="probabilistic",
    variants=BERNOULLI.variants,
    profiles=_profiles(grid(p=0.002, delta=0.05, sleep=[0.02, 0.0]), 1000),
    trial=bernoulli_trial,
)

ALL = (BERNOULLI, CHI2, DET, BUGGY, REPORT, CALIB, CHEAP, BLAS_DOT, BUDGET_ORDER)


def register_all():
    for t in ALL:
        registry.register(t)


def unregister_all():
    for t in ALL:
        if registry._REGISTRY.get(t.id) is t:
            del registry._REGISTRY[t.id]


if multiprocessing.parent_process() is not None:  # a process-pool or Dask worker
    register_all()

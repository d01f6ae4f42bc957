r"""``rpcheck advise FILE``: how small can r be before training a linear SVM on ``X R``?

For each sketch kind, the smallest target dimension ``r`` at which, with probability at least ``1 - delta``
over the draw of ``R``,

- **margin**: the projected SVM's squared margin stays within a factor ``1 +- eps`` of the full data's,
  ``|gamma~^2 / gamma^2 - 1| <= eps`` (the form of Paul et al. 2014, Theorem 3.5, and of its zero-slack
  upper side), with ``gamma = 1/||w*||`` of the soft-margin SVM (eq. (3), cost ``C``) trained on the
  training part;
- **accuracy**: the projected SVM's test accuracy is at most ``eps`` below the full data's,
  ``acc~ >= acc - eps`` (one-sided: a projection that classifies better is no failure), on a held-out,
  stratified, seeded split (``test_fraction`` of each class),

next to the ``r`` that Paul et al.'s formulas prescribe (eqs. (7)-(10), :mod:`rpcheck.papers.paul2014.bounds`).

The search
    Each (kind, event) is one :func:`rpcheck.engine.constant.find_constant` search (the engine's grid phase,
    then bisection, on exact one-sided Clopper-Pearson bounds) over ``r`` in ``[1, max_r]``, on the trial
    :func:`advise_trial` of :data:`THEOREM`. ``rpcheck constant rpcheck.advise:THEOREM --backend serial`` runs
    the same search (event "accuracy") on the theorem's own cell (breast_cancer at the defaults); with
    ``bisect_steps=8`` (``rpcheck constant``'s budget; the default 4 stops at a bracket of about 6% of r) and the
    same per-search confidence both give the same ``r`` on the same seed (``tests/test_advise.py``). The two
    events of one ``r`` come from the same trials (one cell per ``r``, shared by both searches).

What "with probability >= 1 - delta" means (the statistical rule)
    ``r_hat`` is the smallest evaluated ``r`` whose one-sided exact Clopper-Pearson upper bound on the failure
    rate, at the per-test confidence ``1 - a/K``, is ``<= delta``; ``K = 1 + grid_steps + bisect_steps`` is the
    search's evaluation budget and ``a = (1 - confidence) / S`` with ``S`` the number of searches in the table
    (kinds x events). By the union bound over the K evaluations (each with fresh randomness) and the S
    searches, with probability ``>= confidence`` every evaluated bound of the table covers its true failure
    probability at once, so the probability that ANY reported ``r_hat`` has a failure probability above
    ``delta`` is at most ``1 - confidence`` (the error rate of the table as a whole). That ``r_hat`` is the
    *smallest* such ``r`` assumes a failure probability non-increasing in ``r``; a value below ``r_hat`` that
    did not pass is not evidence that it fails. Every trial solves certified problems (``rpcheck.svm``);
    a margin whose certified interval straddles the event counts as a failure (undetermined), and so does a
    draw whose projected SVM has no certified solution (both events; diagnostic ``solver_error``). A value of
    ``r`` that cannot pass is stopped as soon as its failures exceed the most that the full ``trials`` may have
    while passing (curtailment of the same fixed-``trials`` test, :func:`_cached_evaluate`: the decision is the
    full cell's, so the error rate above is unchanged). The test passes only with all ``trials`` draws, so a
    value that passes runs them all.

The monotonicity assumption
    The search brackets the threshold on a grid and bisects it; both read "r passed" as "every larger r
    passes". That holds if the failure probability does not increase with ``r``, which is assumed, not tested
    (the papers' distortion bounds, eqs. (7)-(10), shrink as ``r`` grows, but the SVM's margin and test
    accuracy need not follow them draw by draw). Without it, ``r_hat`` still has failure probability
    ``<= delta`` (the statement above); only "smallest" is lost.

Cost
    Each trial runs once per process: the early-stopping probes and the two events' searches share the
    records (:func:`advise_trial`). Gaussian and sparse ``R`` are drawn and applied in row blocks
    (:func:`rpcheck.sketches.streamed.streamed_apply`, the same draws as ``make_sketch``; the (d, r) matrix never
    exists whole) on CSC copies of the data made once. What remains per draw: the sketch (``O(nnz(X) r)`` and
    ``d r`` random numbers for the dense kinds) and the certified projected SVM (the interior-point method,
    ``O(n_train r^2)`` per iteration), which dominates at RCV1 size (BENCHMARKS.md, "``rpcheck advise`` on
    RCV1-like files").

The papers' r
    ``r_paper = ceil(c f(rho, eps, delta, d))`` with the formula of the kind (eq. (7) SRHT, eq. (8) CW /
    CountSketch, eq. (10) Gaussian; Li-sparse has no printed formula and gets eq. (10), as
    :func:`rpcheck.papers.paul2014.bounds.target_shape` says) and ``c = 1``: the paper prints ``O(f)``, so the constant
    is ours, labelled in the ``formula`` column. For CountSketch the derived sufficient
    ``r = ceil((rho^2 + rho)/(eps^2 delta))`` (:func:`rpcheck.papers.paul2014.bounds.sparse_embedding_markov_r`, no
    unknown constant) is given as well. ``rho`` is the rank of the training matrix (a thin SVD; for a sparse
    matrix above :data:`rpcheck.engine.userdata.DENSE_ROWSPACE_MAX` entries, ``min(n_train, d)``, an upper
    bound, marked ``rho_is_bound``). The formulas bound the embedding distortion ``e <= eps``, which gives the
    margin lower side of Theorem 3.5; they promise nothing about test accuracy.

Sparse input
    A CSR file stays CSR (CSC for the blockwise kinds): the sketches apply to it (the projected ``X R``, n x r,
    is dense), the full-data SVM
    is solved by dual coordinate descent on CSR (``solve_svc(..., solver="DCD")``, never densified), the
    projected ones by the default certified solver. Only the rank for ``r_paper`` densifies, within the limit
    above.
"""

from __future__ import annotations

import base64
import html
import io
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ._rng import as_generator
from ._validation import check_choice, check_int, check_interval
from .engine import Outcome, Param, Profile, Theorem, TrialRecord, Variant
from .engine.constant import find_constant
from .engine.runner import canonical_json, run_cell
from .engine.theorem import Citation
from .engine.userdata import DATA_PARAM, DENSE_ROWSPACE_MAX, data_label, load_user_data, trial_data
from .errors import RpcheckError, SolverError
from .papers.paul2014.bounds import sparse_embedding_markov_r, target_dim
from .sketches import make_sketch
from .sketches.streamed import STREAMED_KINDS, streamed_apply
from .stats import clopper_pearson
from .svm import solve_svc, svc_bounds

__all__ = ["THEOREM", "EVENTS", "DEFAULT_KINDS", "AdviceRow", "Advice", "advise", "advise_trial", "write_html"]

EVENTS = ("margin", "accuracy")
DEFAULT_KINDS = ("gaussian", "srht", "countsketch", "sparse")
#: Kinds with a paper formula (eqs. 7-10) or an oblivious construction usable here.
ADVISE_KINDS = ("gaussian", "sign", "srht", "countsketch", "sparse")
_FORMULA = {
    "gaussian": "eq. (10), c = 1",
    "sign": "eq. (9), c = 1",
    "srht": "eq. (7), c = 1",
    "countsketch": "eq. (8), c = 1",
    "sparse": "eq. (10) (none printed), c = 1",
}
#: Search budget: find_constant's grid (factor 2, 12 steps); 4 bisection steps by default (a bracket (lo, 2 lo]
#: narrowed to about lo/16, i.e. a resolution of about 6% of r), ``bisect_steps=8`` is ``rpcheck constant``'s.
GRID_FACTOR, GRID_STEPS, BISECT_STEPS = 2.0, 12, 4
DEFAULT_START = 16
DEFAULT_MAX_R = 2048


# --------------------------------------------------------------------------------------------- the trial


def _split(y, test_fraction, split_seed):
    """Stratified split: ``round(test_fraction * size)`` of each class (at least one kept for training), from
    ``as_generator(split_seed)``; sorted index arrays ``(train, test)``."""
    rng = as_generator(split_seed)
    tr, te = [], []
    for c in (-1.0, 1.0):
        idx = rng.permutation(np.flatnonzero(y == c))
        k = min(idx.size - 1, int(round(test_fraction * idx.size)))
        te.append(idx[:k])
        tr.append(idx[k:])
    return np.sort(np.concatenate(tr)), np.sort(np.concatenate(te))


def _dense(A):
    return np.asarray(A.toarray() if hasattr(A, "toarray") else A, dtype=np.float64)


def _reference(ud, params):
    """Split and full-data fit, once per (file, split, C) and process: ``dict(train, test, wsq (lo, hi),
    acc, C)``."""
    C, tf, ss = float(params["C"]), float(params["test_fraction"]), int(params["split_seed"])

    def compute():
        tr, te = _split(ud.y, tf, ss)
        Xtr, Xte = ud.X[tr], ud.X[te]
        if ud.sparse:  # CSR end to end: DCD on CSR, its certified point (KKT <= 1e-9)
            res = solve_svc(Xtr, ud.y[tr], C, solver="DCD")
            wsq = (res.w_norm_sq, res.w_norm_sq)
        else:
            res = solve_svc(Xtr, ud.y[tr], C)
            iv = svc_bounds(Xtr, ud.y[tr], C, res.alpha, res.b)["wsq"]
            wsq = (iv.lo, iv.hi)
        score = np.asarray(Xte @ res.w).ravel() + res.b
        acc = float(np.mean(np.sign(score) == ud.y[te]))
        # column-sliceable copies for the sketches drawn in row blocks (converted once, reused by every draw)
        cols = tuple(A.tocsc() if ud.sparse else A for A in (Xtr, Xte))
        return {"train": tr, "test": te, "Xtr": Xtr, "Xte": Xte, "cols": cols, "wsq": wsq, "acc": acc,
                "w_norm_sq": res.w_norm_sq}  # fmt: skip

    return ud.memo(("advise_reference", C, tf, ss), compute)


def _sketched(ud, ref, kind, r, rng):
    """``(X_train R, X_test R)``, dense, for one draw of ``R``. Gaussian and sparse ``R`` are drawn and applied
    in row blocks (:func:`rpcheck.sketches.streamed.streamed_apply`: the draws of ``make_sketch``, the
    (d, r) matrix never whole, the products equal to rounding); the other kinds through ``make_sketch``."""
    if kind in STREAMED_KINDS:
        return tuple(streamed_apply(kind, ref["cols"], r, rng=rng))
    sk = make_sketch(kind, ud.d, r, rng=rng)
    return _dense(sk.apply(ref["Xtr"])), _dense(sk.apply(ref["Xte"]))


def advise_trial(params, rng):
    """One draw of ``R`` (kind, r): the projected SVM on the training part, its squared-margin ratio and test
    accuracy against the full data's (module docstring). Outcomes ``margin`` and ``accuracy``.

    The record is a function of the cell and of the state of ``rng`` on entry, and is kept per process
    (keyed by both): the early-stopping probes of :func:`_cached_evaluate` re-run the first trials of a cell,
    which then cost nothing."""
    ud = trial_data(params)
    state = rng.bit_generator.state
    key = (canonical_json(params), repr(state))
    done = ud.memo(("advise_trials",), dict)
    if key not in done:
        done[key] = _trial(ud, params, rng)
    return done[key]


def _trial(ud, params, rng):
    ref = _reference(ud, params)
    C, eps, r = float(params["C"]), float(params["eps"]), int(params["r"])
    Ztr, Zte = _sketched(ud, ref, params["kind"], r, rng)
    ytr, yte = ud.y[ref["train"]], ud.y[ref["test"]]
    try:
        res = solve_svc(Ztr, ytr, C)
    except SolverError as exc:  # no certified projected SVM: both events undetermined, counted as failures
        und = Outcome(False, math.nan, eps, undetermined=True)
        return TrialRecord(
            outcomes={"margin": und, "accuracy": und},
            diagnostics={"solver_error": 1.0, "acc_full": ref["acc"]},
            artifacts={"error": np.asarray(str(exc)[:200])},
        )
    iv = svc_bounds(Ztr, ytr, C, res.alpha, res.b)["wsq"]
    Wt = (iv.lo, iv.hi)
    W = ref["wsq"]
    # gamma~^2 / gamma^2 = ||w*||^2 / ||w~*||^2, certified interval from the two intervals
    lo = W[0] / Wt[1] if Wt[1] > 0 else math.inf
    hi = W[1] / Wt[0] if Wt[0] > 0 else math.inf
    ratio = ref["w_norm_sq"] / res.w_norm_sq if res.w_norm_sq > 0 else math.inf
    if lo >= 1 - eps and hi <= 1 + eps:
        margin = Outcome(True, abs(ratio - 1), eps)
    elif hi < 1 - eps or lo > 1 + eps:
        margin = Outcome(False, abs(ratio - 1), eps)
    else:  # the certified interval straddles the event: undetermined, counted as a failure
        margin = Outcome(False, abs(ratio - 1), eps, undetermined=True)
    acc_t = float(np.mean(np.sign(Zte @ res.w + res.b) == yte))
    accuracy = Outcome(bool(acc_t >= ref["acc"] - eps), ref["acc"] - acc_t, eps)
    return TrialRecord(
        outcomes={"margin": margin, "accuracy": accuracy},
        diagnostics={"margin_ratio": ratio, "acc_proj": acc_t, "acc_full": ref["acc"], "solver_error": 0.0},
    )


def _delta(params):
    return params["delta"]


_CELL = {
    DATA_PARAM: "breast_cancer", "kind": "gaussian", "r": DEFAULT_START, "eps": 0.1, "delta": 0.1, "C": 1.0,
    "test_fraction": 0.3, "split_seed": 0,
}  # fmt: skip

#: The advise claim as a Theorem (not registered: it is about the user's data, not a paper's statement).
#: Its one cell is breast_cancer at the defaults, so ``rpcheck constant rpcheck.advise:THEOREM --backend serial``
#: searches the same r as ``rpcheck advise breast_cancer``.
THEOREM = Theorem(
    id="advise.projected_svm",
    paper="advise",
    title="The projected SVM keeps the margin and test accuracy within eps (rpcheck advise)",
    citation=Citation(
        authors="Saurabh Paul, Christos Boutsidis, Malik Magdon-Ismail, Petros Drineas",
        year=2014,
        title="Random Projections for Linear Support Vector Machines",
        venue="ACM TKDD 8(4):22, 2014; arXiv:1211.6085v5",
        location="Theorem 3.5 (arXiv v5)",
        equations="(3), (5), (7)-(10)",
    ),
    statement="With probability >= 1 - delta over R: |gamma~^2/gamma^2 - 1| <= eps and acc~ >= acc - eps.",
    kind="empirical",
    variants=(
        Variant("margin", "|gamma~^2 / gamma^2 - 1| <= eps", mode="bound", promised_failure=_delta),
        Variant("accuracy", "test accuracy of the projected SVM >= full accuracy - eps", mode="bound",
                promised_failure=_delta),
    ),  # fmt: skip
    profiles={p: Profile((_CELL,), trials=200) for p in ("quick", "ci", "standard", "full")},
    trial=advise_trial,
    constant_search={"param": "r", "variant": "accuracy"},
    parameters={
        DATA_PARAM: Param("str", doc="data file or bundled set name"),
        "data_sha256": Param("str", doc="first 16 hex digits of the data's SHA-256"),
        "kind": Param("choice", choices=ADVISE_KINDS, doc="sketch construction"),
        "r": Param("int", low=1, doc="target dimension"),
        "eps": Param("float", low=0.0, high=1.0, closed="neither", doc="tolerance of both events"),
        "delta": Param("float", low=0.0, high=1.0, closed="neither", doc="failure probability"),
        "C": Param("float", low=0.0, closed="neither", doc="SVM cost"),
        "test_fraction": Param("float", low=0.0, high=1.0, closed="neither", doc="held-out share of each class"),
        "split_seed": Param("int", low=0, doc="seed of the train/test split"),
    },
)


# --------------------------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class AdviceRow:
    """One (kind, event) of the table: ``r_hat`` (None when no r up to ``max_r`` passed), ``status`` and
    ``bracket`` of the search, at ``r_hat`` the failures, trials, failure rate, its two-sided exact interval
    ``(ci_low, ci_high)`` and one-sided ``upper`` bound (both at the per-test confidence), the papers' ``r``.
    """

    kind: str
    event: str
    r_hat: int | None
    status: str
    bracket_low: int | None
    failures: int | None
    trials: int | None
    rate: float | None
    ci_low: float | None
    ci_high: float | None
    upper: float | None
    confirmed: bool | None
    r_paper: int | None
    formula: str
    r_derived: int | None
    evaluations: tuple = field(repr=False, default=())


@dataclass(frozen=True)
class Advice:
    """The output of :func:`advise`: rows, settings and the statistical rule in words."""

    data: dict
    label: str
    rows: tuple
    eps: float
    delta: float
    confidence: float
    search_confidence: float
    per_test_confidence: float
    bisect_steps: int
    trials: int
    seed: int
    max_r: int
    rho: int
    rho_is_bound: bool
    params: dict
    rule: str
    seconds: float

    def frame(self):
        """The table as a pandas DataFrame (one row per kind and event)."""
        import pandas as pd

        cols = ["kind", "event", "r_hat", "status", "bracket_low", "failures", "trials", "rate", "ci_low", "ci_high",
                "upper", "confirmed", "r_paper", "formula", "r_derived"]  # fmt: skip
        return pd.DataFrame([{c: getattr(r, c) for c in cols} for r in self.rows], columns=cols)


def _cached_evaluate(delta, per_test):
    """``evaluate_for(event)`` -> ``find_constant``'s ``evaluate`` for the search of ``event``: runner cells
    cached per (params, trials, seed) and shared by the two events' searches, and a value that cannot pass
    stopped early. Trial i of a cell has the same seed whatever the number of trials run, so the first m
    trials are those of the full cell. Probes of m < trials trials run first (below); when the
    searched event's failures among them exceed the most that ``trials`` draws may have while passing
    (``k_max``), the full cell cannot pass either (its failures are at least as many), and the probe is
    returned (its upper bound, larger than that of any full count with those failures, is also above delta).
    The pass/fail decision of every value is therefore the full cell's: the search evaluates and returns
    what ``rpcheck constant`` does on the same seed; only the counts shown for a value that failed early are
    those of its first trials.

    The probes grow by about 1/8 (m = 1, 2, ..., 16, 18, 20, ..., 32, 36, ...): a value whose failures pass
    ``k_max`` at its j-th trial stops at the first probe of at least j trials, at most 1/8 more than j. Every
    trial runs once: :func:`advise_trial` keeps its records, so a probe's first trials, and the full cell's, are
    those of the previous probe, not recomputed."""
    cache = {}
    kmax_of = {}

    def k_max(n):  # largest failure count out of n whose one-sided upper bound is <= delta (-1: none)
        if n not in kmax_of:
            k = -1
            while k + 1 <= n and clopper_pearson(k + 1, n, per_test, "less")[1] <= delta:
                k += 1
            kmax_of[n] = k
        return kmax_of[n]

    def cell(theorem, params, trials, seed, backend, jobs):
        key = (canonical_json(params), trials, seed)
        if key not in cache:
            cache[key] = run_cell(theorem, params, trials=trials, seed=seed, backend=backend, jobs=jobs)
        return cache[key]

    def evaluate_for(event):
        def evaluate(theorem, params, *, trials, seed, backend, jobs):
            if (canonical_json(params), trials, seed) in cache:
                return cache[(canonical_json(params), trials, seed)]
            kmax = k_max(trials)
            m = 1
            while m < trials:
                probe = cell(theorem, params, m, seed, backend, jobs)
                if probe.variants[event].failures > kmax:
                    return probe
                m += max(1, m // 8)
            return cell(theorem, params, trials, seed, backend, jobs)

        return evaluate

    return evaluate_for


def _rank(ud, train):
    """Rank of the training matrix and whether it is only the bound ``min(n_train, d)``.

    The numerical rank from the singular values alone (``numpy.linalg.matrix_rank``: ``sigma_i > max(n, d) eps
    sigma_1``, the convention of :func:`rpcheck.linalg.row_space_basis`), without the d x rho basis that
    ``row_space_basis`` also computes: on a wide matrix (rcv1's 47,236 columns) the values alone cost a few times
    less."""
    n = int(train.size)
    if ud.sparse and n * ud.d > DENSE_ROWSPACE_MAX:
        return min(n, ud.d), True
    X = ud.X[train]
    X = X.toarray() if hasattr(X, "toarray") else np.asarray(X, dtype=np.float64)
    return max(1, int(np.linalg.matrix_rank(X))), False


def advise(
    data,
    *,
    eps=0.1,
    delta=0.1,
    kinds=DEFAULT_KINDS,
    events=EVENTS,
    trials=None,
    seed=0,
    confidence=0.95,
    C=1.0,
    test_fraction=0.3,
    split_seed=0,
    start=DEFAULT_START,
    max_r=None,
    bisect_steps=BISECT_STEPS,
    confirm=False,
    backend="serial",
    jobs=None,
):
    """The smallest r per sketch kind and event (module docstring) with its exact interval and the papers' r.

    Parameters
    ----------
    data : str
        A data file (svmlight/LIBSVM, CSV, .npz) or a bundled classification set ("breast_cancer", "digits").
    eps : float in (0, 1)
        Tolerance of both events.
    delta : float in (0, 1)
        Allowed failure probability.
    kinds : sequence of str
        Sketch kinds, from ``ADVISE_KINDS``.
    events : sequence of str
        From :data:`EVENTS`.
    trials : int, optional
        Draws of R per evaluated r; default ``max(100, the fewest with which 0 failures pass)``.
    seed : int
        Root seed of the trials.
    confidence : float in (0, 1)
        Probability that every reported r_hat of the table has failure probability <= delta (module docstring).
    C : float > 0
        SVM cost (soft margin, eq. (3)).
    test_fraction : float in (0, 1)
        Held-out share of each class.
    split_seed : int
        Seed of the split.
    start : int
        First r of the grid (capped at ``max_r``).
    max_r : int, optional
        Largest r searched; default ``min(d, 2048)``.
    bisect_steps : int, default=4
        Bisection budget of each search (8 is ``rpcheck constant``'s; the rule accounts for the budget).
    confirm : bool, default=False
        Re-test each r_hat on a fresh root seed (``find_constant``'s confirmation; column ``confirmed``).
    backend, jobs
        Of the runner (serial by default: the cells are small).

    Returns
    -------
    Advice
    """
    t0 = time.perf_counter()
    eps = check_interval("eps", eps, 0, 1, closed="neither")
    delta = check_interval("delta", delta, 0, 1, closed="neither")
    confidence = check_interval("confidence", confidence, 0, 1, closed="neither")
    C = check_interval("C", C, 0, None, closed="neither")
    test_fraction = check_interval("test_fraction", test_fraction, 0, 1, closed="neither")
    seed = check_int("seed", seed, 0)
    bisect_steps = check_int("bisect_steps", bisect_steps, 0)
    split_seed = check_int("split_seed", split_seed, 0)
    start = check_int("start", start, 1)
    kinds = tuple(kinds)
    events = tuple(events)
    if not kinds:
        raise RpcheckError(f"`kinds` must name at least one of {', '.join(ADVISE_KINDS)}.")
    for k in kinds:
        check_choice("kinds", k, ADVISE_KINDS)
    for e in events:
        check_choice("events", e, EVENTS)
    ud = load_user_data(data, bundled=True)
    if max_r is None:
        max_r = min(ud.d, DEFAULT_MAX_R)
    max_r = check_int("max_r", max_r, 1)
    start = min(start, max_r)
    info = {"path": ud.ref, "name": ud.name, "n": ud.n, "d": ud.d, "sparse": ud.sparse, "sha256": ud.sha256,
            "source": ud.source}  # fmt: skip
    base = {DATA_PARAM: ud.ref, "eps": eps, "delta": delta, "C": C, "test_fraction": test_fraction,
            "split_seed": split_seed}  # fmt: skip
    if ud.source == "file":  # a file could change during the run (checked per cell); a bundled set cannot
        base["data_sha256"] = ud.sha256[:16]
    ref = _reference(ud, base)
    if ref["test"].size == 0:
        raise RpcheckError(f"`test_fraction` ({test_fraction}) leaves no test point in {data!r} ({ud.n} rows).")
    rho, rho_is_bound = _rank(ud, ref["train"])
    n_searches = len(kinds) * len(events)
    search_conf = 1.0 - (1.0 - confidence) / n_searches
    per_test = 1.0 - (1.0 - search_conf) / (1 + GRID_STEPS + bisect_steps)  # as find_constant computes it
    if trials is None:
        trials = max(100, math.ceil(math.log(1.0 - per_test) / math.log1p(-delta)))
    trials = check_int("trials", trials, 1)
    evaluate_for = _cached_evaluate(delta, per_test)
    rows = []
    for kind in kinds:
        params = dict(base, kind=kind, r=start)
        r_paper = target_dim(kind, rho, ud.d, eps, delta, c=1.0)
        r_derived = sparse_embedding_markov_r(rho, eps, delta) if kind == "countsketch" else None
        for event in events:
            res = find_constant(
                THEOREM, params, param="r", variant=event, delta=delta, trials=trials, seed=seed, start=start,
                min_value=1, max_value=max_r, grid_factor=GRID_FACTOR, grid_steps=GRID_STEPS,
                bisect_steps=bisect_steps, confidence=search_conf, confirm=confirm, backend=backend, jobs=jobs,
                evaluate=evaluate_for(event),
            )  # fmt: skip
            assert res.per_test_confidence == per_test
            at = next((e for e in res.evaluations if e.value == res.value), None)
            if at is not None and at.n > 0:
                from .stats import clopper_pearson

                lo, hi = clopper_pearson(at.failures, at.n, per_test)
                vals = (at.failures, at.n, at.failures / at.n, lo, hi, at.upper)
            else:
                vals = (None,) * 6
            rows.append(
                AdviceRow(
                    kind, event, res.value, res.status, res.bracket[0], *vals,
                    res.confirmed, r_paper, _FORMULA[kind], r_derived, res.evaluations,
                )  # fmt: skip
            )
    rule = (
        f"r_hat = the smallest evaluated r whose one-sided exact Clopper-Pearson upper bound on the failure rate "
        f"({trials} draws of R per r, per-test confidence {per_test:.6g}) is <= delta = {delta}; searched by the "
        f"engine's grid (factor {GRID_FACTOR:g}) and bisection over r in [1, {max_r}], at most "
        f"{1 + GRID_STEPS + bisect_steps} evaluations per search, {n_searches} searches. With probability "
        f">= {confidence} every evaluated bound of the table covers (union bound), so P(some r_hat has failure "
        f"probability > delta) <= {1 - confidence:.3g}. r_hat is the smallest such r if the failure probability "
        "does not increase with r. Interval columns: two-sided exact Clopper-Pearson at the per-test confidence."
    )
    return Advice(
        data=info, label=data_label(info), rows=tuple(rows), eps=eps, delta=delta, confidence=confidence,
        search_confidence=search_conf, per_test_confidence=per_test, bisect_steps=bisect_steps, trials=trials,
        seed=seed, max_r=max_r,
        rho=rho, rho_is_bound=rho_is_bound,
        params={"C": C, "test_fraction": test_fraction, "split_seed": split_seed, "start": start,
                "acc_full": ref["acc"], "n_train": int(ref["train"].size), "n_test": int(ref["test"].size)},
        rule=rule, seconds=time.perf_counter() - t0,
    )  # fmt: skip


# --------------------------------------------------------------------------------------------- output


def table_text(adv):
    """The table as text (fixed-width), with the data line, the settings and the rule."""
    df = adv.frame()
    for c in ("rate", "ci_low", "ci_high", "upper"):
        df[c] = df[c].map(lambda v: "" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.4f}")
    lines = [
        adv.label,
        f"eps = {adv.eps}, delta = {adv.delta}, C = {adv.params['C']}, train/test = {adv.params['n_train']}/"
        f"{adv.params['n_test']} (split seed {adv.params['split_seed']}), full-data test accuracy "
        f"{adv.params['acc_full']:.4f}, rank rho = {adv.rho}{' (bound min(n, d))' if adv.rho_is_bound else ''}",
        df.to_string(index=False),
        "rule: " + adv.rule,
        "r_paper: the papers' O(f) formulas with the constant c = 1 (ours: the paper prints none); r_derived: "
        "CountSketch's sufficient r = ceil((rho^2 + rho)/(eps^2 delta)). Both bound the embedding distortion, "
        "not the test accuracy.",
    ]
    return "\n".join(lines)


def plot_png(adv):
    """PNG bytes: per event, the Clopper-Pearson upper bound of the failure rate at every evaluated r, per
    kind, with delta and each r_hat marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    events = sorted({r.event for r in adv.rows}, key=EVENTS.index)
    fig, axes = plt.subplots(1, len(events), figsize=(5.5 * len(events), 4), squeeze=False)
    for ax, event in zip(axes[0], events):
        for i, row in enumerate(r for r in adv.rows if r.event == event):
            ev = sorted((e for e in row.evaluations if e.n > 0), key=lambda e: e.value)
            color = f"C{i}"
            ax.plot([e.value for e in ev], [e.upper for e in ev], "o-", color=color, label=row.kind, ms=4)
            if row.r_hat is not None:
                ax.axvline(row.r_hat, color=color, ls=":", lw=1)
        ax.axhline(adv.delta, color="k", ls="--", lw=1, label=f"delta = {adv.delta}")
        ax.set_xscale("log", base=2)
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("target dimension r")
        ax.set_ylabel("upper CP bound of P(failure)")
        ax.set_title(f"{event} (eps = {adv.eps}); dotted: r_hat")
        ax.legend(fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return buf.getvalue()


def write_html(adv, out_dir):
    """Write ``advise.html`` (self-contained: the plot is an embedded PNG, no external resource) and
    ``advise.csv`` into ``out_dir``; returns the HTML path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    png = base64.b64encode(plot_png(adv)).decode("ascii")
    bound = " (bound min(n, d))" if adv.rho_is_bound else ""
    df = adv.frame()
    table = df.to_html(index=False, na_rep="", float_format=lambda v: f"{v:.4f}", border=0)
    doc = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>rpcheck advise: {html.escape(adv.data['name'])}</title>
<style>body{{font-family:sans-serif;margin:2em;max-width:70em}}table{{border-collapse:collapse}}
td,th{{padding:2px 8px;border-bottom:1px solid #ccc;text-align:right}}</style></head><body>
<h1>Smallest r for a linear SVM on X R</h1>
<p>{html.escape(adv.label)}</p>
<p>eps = {adv.eps}, delta = {adv.delta}, C = {adv.params['C']},
train/test = {adv.params['n_train']}/{adv.params['n_test']} (split seed {adv.params['split_seed']}),
full-data test accuracy {adv.params['acc_full']:.4f}, rank rho = {adv.rho}{bound};
{adv.trials} draws of R per r, root seed {adv.seed}.</p>
{table}
<p><img alt="upper Clopper-Pearson bound of the failure rate against r" src="data:image/png;base64,{png}"></p>
<h2>Rule</h2><p>{html.escape(adv.rule)}</p>
<p>margin: |gamma~^2/gamma^2 - 1| &lt;= eps (Paul et al. 2014, Theorem 3.5 and its zero-slack upper side);
accuracy: test accuracy of the projected SVM &gt;= full-data accuracy - eps. r_paper: the papers' O(f) formulas
(eqs. (7)-(10)) with the constant c = 1 (ours: the paper prints none); r_derived: CountSketch's sufficient
r = ceil((rho^2 + rho)/(eps^2 delta)). Both bound the embedding distortion, not the test accuracy.</p>
</body></html>
"""
    path = out / "advise.html"
    tmp = out / ".advise.html.tmp"
    tmp.write_text(doc, encoding="utf-8")
    tmp.replace(path)
    df.to_csv(out / "advise.csv", index=False)
    return path

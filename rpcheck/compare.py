r"""Empirical comparison of random projections for the linear SVM (Lei & Lan 2020, Table 2 protocol).

For a data set, target dimensions ``r``, a C grid chosen by cross-validation and a number of repetitions
(the paper uses 15), each repetition

1. draws a stratified train/test split (``test_size``, default 0.3: the paper's "70% / 30%"),
2. scales the features to [-1, 1] with the TRAINING fold's ranges (Sec. 4; max-abs scaling for sparse
   input, which keeps zeros and also maps into [-1, 1]),
3. for every method: chooses C from ``C_grid`` by ``cv_folds``-fold stratified cross-validation INSIDE the
   training set, fitting every data-dependent selection (nps, top-r, supervised, PCA) on the CV-training
   part of each fold only -- no label or test leakage () -- then refits the projection on the
   whole training set, trains the SVM with the chosen C and records the test accuracy and the wall time
   (projection + CV + final training + prediction; the paper does not say what its times include).

The SVM is the exact L1-loss dual (3) with an unregularised bias (constraint y^T alpha = 0):

- ``solver="certified"`` (default): ``rpcheck.svm.solve_svc``, the dense interior-point method with a
  free-set polish, every solution KKT-certified (a ``SolverError`` otherwise, counted by the engine). At
  the Table 2 sizes it is faster than LIBSVM: one repetition of the standard cell digits, r = 16 (5 folds x
  11 C x 10 methods, 560 solves) took 5.8 s against 57 s with ``"libsvm"`` on the same machine
  (BENCHMARKS.md, "Solvers in the Table 2 protocol"). ``"cvxpy"`` is an older name of this choice. Along the
  C grid of one fold (same data) each solve is warm-started from the previous C's certified result
  (``solve_svc(..., warm_start=...)``): the result is the certified optimum either way, so the chosen C and
  the accuracies are those of independent solves unless a prediction lies within the certificate of 0.
  Sparse training input ("all" on the text sets) is not densified: it goes to ``solve_svc(..., solver="DCD")``
  (dual coordinate descent, Hsieh et al. 2008, inside a method of multipliers for the unregularised bias;
  same KKT certificate), warm-started along the C grid the same way; dense input keeps the call above.
- ``solver="libsvm"``: ``sklearn.svm.SVC(kernel="linear")``. LIBSVM's SMO solves the same problem to its
  KKT stopping tolerance ``tol=1e-3`` (not certified); for large sparse inputs ("all" on a real rcv1 file),
  where the dense solver would densify X.

The paper used LIBLINEAR, which solves a different problem (regularised bias, squared hinge by default);
this is reported as a deviation, not replicated here (``rpcheck.svm.liblinear`` solves it separately).

Methods (Sec. 4): "all" (all features), "pca" (randomized SVD to r components, centred; on sparse input the
centring is implicit, ``rpcheck.linalg.centred_randomized_svd``, so X is never densified), "gaussian"
(N(0, 1/r), the JL-correct variance, not the printed 1/d), "achlioptas" (sqrt(3/r){+1, 0, -1} w.p. 1/6, 2/3,
1/6), "countsketch" (sparse embedding), "srht" (uniform r-subset WITHOUT replacement, eq. 2),
"srht-nps", "srht-topr", "srht-supervised" (smallest b, a = 1), "srht-supervised-largest" (the printed rule).
Extra methods (not in the default ``METHODS``, :data:`DLSS_METHODS`): "dlss-r/4", "dlss-r/2", "dlss-r" --
deterministic leverage score sampling (Papailiopoulos, Kyrillidis and Boutsidis 2014; Table 2's "DLSS"):
the ``r`` original features of largest rank-``k`` leverage score, computed by randomized SVD (Sec. 4) on the
(scaled, uncentred) training part, with ``k = max(1, r // 4)``, ``max(1, r // 2)``, ``r`` (capped at
``min(n, d)``). The paper does not give ``k``: the three values are an assumption, reported as a sweep.
"""

from __future__ import annotations

import os
import time

import numpy as np
import scipy.sparse as sp
import scipy.stats

from ._rng import as_generator
from ._validation import check_choice, check_int
from .datasets import Dataset, load_bundled, load_file
from .errors import RpcheckError

__all__ = [
    "METHODS",
    "RP_METHODS",
    "DEFAULT_C_GRID",
    "PAPER_TABLE2",
    "compare",
    "run_repetition",
    "summarize",
    "assess_claims",
    "stability",
    "stability_table",
    "fixed_grid_repetition",
    "paper_key",
    "DLSS_METHODS",
    "dlss_rank",
]

#: Every method the runner knows, in report order.
METHODS = (
    "all",
    "pca",
    "gaussian",
    "achlioptas",
    "countsketch",
    "srht",
    "srht-nps",
    "srht-topr",
    "srht-supervised",
    "srht-supervised-largest",
)
#: The paper's seven "random projection" methods (plus the printed-rule variant).
RP_METHODS = ("gaussian", "achlioptas", "countsketch", "srht", "srht-nps", "srht-topr", "srht-supervised")
#: DLSS at three ranks k (the paper does not give k; module docstring). Not run by default.
DLSS_METHODS = ("dlss-r/4", "dlss-r/2", "dlss-r")
_DLSS_DIV = {"dlss-r/4": 4, "dlss-r/2": 2, "dlss-r": 1}


def dlss_rank(method, r, n, d):
    """The rank ``k`` of DLSS method ``method`` at target dimension ``r`` on ``n x d`` training data:
    ``max(1, r // m)`` for ``m`` = 4, 2, 1, capped at ``min(n, d)``."""
    check_choice("method", method, DLSS_METHODS)
    return max(1, min(int(r) // _DLSS_DIV[method], int(n), int(d)))


#: The paper's C grid {2^-5, ..., 2^5} (Sec. 4).
DEFAULT_C_GRID = tuple(2.0**k for k in range(-5, 6))

#: method -> (rpcheck.sketches kind, parameters) of every random-projection method (also lei2020.timing's)
SKETCH_SPECS = {
    "gaussian": ("gaussian", {}),
    "achlioptas": ("sparse", {"density": "achlioptas"}),
    "countsketch": ("countsketch", {}),
    "srht": ("srht", {"replace": False}),
    "srht-nps": ("srht-nps", {}),
    "srht-topr": ("srht-topr", {}),
    "srht-supervised": ("srht-supervised", {"rule": "smallest", "a": 1.0}),
    "srht-supervised-largest": ("srht-supervised", {"rule": "largest", "a": 1.0}),
}

#: Lei & Lan (2020) Table 2: accuracy mean, std (%, 15 runs) and time (s). Keys: dataset -> method.
#: PCA on news20 ran out of memory (None). DLSS is listed for reference only.
PAPER_TABLE2 = {
    "mushrooms": {
        "r": 16,
        "all": (99.85, None, 0.1),
        "pca": (96.23, None, 0.3),
        "dlss": (94.66, None, 0.2),
        "gaussian": (89.15, 3.85, 0.2),
        "achlioptas": (91.74, 2.75, 0.3),
        "countsketch": (89.06, 4.18, 0.3),
        "srht": (92.45, 2.59, 0.3),
        "srht-nps": (94.30, 1.15, 0.4),
        "srht-topr": (94.23, 1.58, 0.4),
        "srht-supervised": (96.25, 1.22, 0.2),
    },
    "usps-b": {
        "r": 16,
        "all": (91.03, None, 2.8),
        "pca": (85.85, None, 0.6),
        "dlss": (80.21, None, 1.0),
        "gaussian": (80.05, 3.33, 1.0),
        "achlioptas": (81.50, 2.28, 0.9),
        "countsketch": (82.09, 2.05, 0.8),
        "srht": (81.87, 1.55, 0.3),
        "srht-nps": (83.34, 1.31, 0.6),
        "srht-topr": (82.91, 1.07, 0.4),
        "srht-supervised": (86.25, 0.81, 0.4),
    },
    "gisette": {
        "r": 256,
        "all": (97.5, None, 3.0),
        "pca": (96.50, None, 3.2),
        "dlss": (93.90, None, 5.8),
        "gaussian": (89.76, 0.56, 5.9),
        "achlioptas": (89.56, 0.65, 7.8),
        "countsketch": (89.65, 0.86, 1.5),
        "srht": (91.77, 0.76, 1.5),
        "srht-nps": (91.17, 0.51, 1.4),
        "srht-topr": (93.20, 0.61, 1.4),
        "srht-supervised": (93.90, 0.72, 1.4),
    },
    "real-sim": {
        "r": 256,
        "all": (97.43, None, 0.1),
        "pca": (93.10, None, 51.0),
        "dlss": (89.89, None, 2.0),
        "gaussian": (76.48, 0.55, 19.0),
        "achlioptas": (76.20, 0.63, 6.3),
        "countsketch": (76.82, 0.45, 2.4),
        "srht": (72.80, 0.23, 23.3),
        "srht-nps": (73.04, 0.51, 24.2),
        "srht-topr": (76.81, 0.46, 18.7),
        "srht-supervised": (80.04, 0.52, 44.3),
    },
    "rcv1-binary": {
        "r": 256,
        "all": (96.43, None, 0.1),
        "pca": (95.05, None, 34.5),
        "dlss": (91.43, None, 1.6),
        "gaussian": (78.90, 0.61, 1.2),
        "achlioptas": (79.03, 1.28, 1.5),
        "countsketch": (79.11, 1.20, 0.2),
        "srht": (79.08, 0.97, 0.5),
        "srht-nps": (79.28, 0.63, 0.6),
        "srht-topr": (82.81, 0.89, 0.6),
        "srht-supervised": (87.81, 0.42, 1.0),
    },
    "news20-binary": {
        "r": 256,
        "all": (96.01, None, 0.3),
        "pca": (None, None, None),
        "dlss": (79.33, None, 9.3),
        "gaussian": (70.10, 0.78, 20.3),
        "achlioptas": (69.29, 0.99, 28.6),
        "countsketch": (70.08, 0.69, 0.6),
        "srht": (70.58, 0.26, 0.7),
        "srht-nps": (70.36, 0.84, 0.9),
        "srht-topr": (73.46, 0.90, 0.9),
        "srht-supervised": (78.33, 0.74, 1.1),
    },
}
_ALIASES = {
    "usps": "usps-b",
    "rcv1": "rcv1-binary",
    "rcv1_train.binary": "rcv1-binary",
    "rcv1.binary": "rcv1-binary",
    "news20": "news20-binary",
    "news20.binary": "news20-binary",
    "gisette_scale": "gisette",
    "real-sim": "real-sim",
    "real_sim": "real-sim",
}


def paper_key(name):
    """The Table 2 key for a data set name (file names such as 'mushrooms', 'gisette_scale.bz2'), or None."""
    base = os.path.basename(str(name)).lower()
    for suf in (".bz2", ".gz", ".txt", ".svm", ".libsvm", ".t", ".tr"):
        if base.endswith(suf):
            base = base[: -len(suf)]
    base = _ALIASES.get(base, base)
    return base if base in PAPER_TABLE2 else None


# ---------------------------------------------------------------------------------------------------------
def _as_dataset(data):
    if isinstance(data, Dataset):
        ds = data
    elif isinstance(data, str | os.PathLike):
        from .datasets import BUNDLED

        ds = load_bundled(data) if str(data) in BUNDLED else load_file(data)
    elif isinstance(data, tuple) and len(data) == 2:
        from .datasets import make_dataset

        ds = make_dataset(data[0], np.asarray(data[1]), name="array", task="classification", description="arrays")
    else:
        raise RpcheckError("`data` must be a Dataset, a bundled name, a file path or a tuple (X, y).")
    if ds.task != "classification":
        raise RpcheckError(f"`data` ({ds.name!r}) is a {ds.task} task; the comparison needs binary labels.")
    return ds


def _scale(Xtr, Xte):
    """Scale features to [-1, 1] with the training ranges (min-max for dense, max-abs for sparse)."""
    if sp.issparse(Xtr):
        m = np.asarray(abs(Xtr).max(axis=0).todense()).ravel()
        s = sp.diags(np.where(m > 0, 1.0 / np.where(m > 0, m, 1.0), 0.0))
        return sp.csr_matrix(Xtr @ s), sp.csr_matrix(Xte @ s)
    lo, hi = Xtr.min(axis=0), Xtr.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    f = lambda X: np.where(hi > lo, 2.0 * (X - lo) / span - 1.0, 0.0)  # noqa: E731
    return f(Xtr), f(Xte)


class _Projector:
    """One method's projection, refittable on different training subsets with the same randomness."""

    def __init__(self, method, d, r, seed):
        self.method, self.d, self.r, self.seed = method, d, r, seed

    def fit(self, X, y):
        if self.method == "all":
            return self
        if self.method == "pca":
            from sklearn.decomposition import PCA

            k = min(self.r, X.shape[0] - 1, X.shape[1])
            rs = int(self.seed % (2**31))
            if sp.issparse(X):
                # centred PCA without densifying X (rpcheck.linalg.centred_randomized_svd applies X - 1 mean^T
                # implicitly); an uncentred TruncatedSVD here would not be PCA
                from .linalg import centred_randomized_svd

                self.mean, _, self.Vt = centred_randomized_svd(X, k, rng=rs)
                self.model = None
            else:
                self.model = PCA(n_components=k, svd_solver="randomized", random_state=rs).fit(X)
            return self
        if self.method in DLSS_METHODS:
            from .linalg import dlss_select

            k = dlss_rank(self.method, self.r, *X.shape)
            self.k = k
            self.idx = np.sort(dlss_select(X, min(self.r, self.d), k, svd="randomized", rng=self.seed))
            return self
        from .sketches import make_sketch

        kind, kw = SKETCH_SPECS[self.method]
        if not hasattr(self, "sketch"):
            self.sketch = make_sketch(kind, self.d, self.r, rng=np.random.default_rng(self.seed), **kw)
        if self.sketch.data_dependent:
            self.sketch.fit(X, y)
        return self

    def transform(self, X):
        if self.method == "all":
            return X
        if self.method == "pca":
            if self.model is None:  # sparse input: scores (X - 1 mean^T) V = X V - 1 (mean^T V), X never densified
                return np.asarray(X @ self.Vt.T) - (self.mean @ self.Vt.T)[None, :]
            return self.model.transform(X)
        if self.method in DLSS_METHODS:
            Z = X[:, self.idx]
            return Z.toarray() if sp.issparse(Z) else np.asarray(Z)
        Z = self.sketch.apply(X)
        return Z.toarray() if sp.issparse(Z) else np.asarray(Z)


#: values of ``solver`` (module docstring); "cvxpy" is an older name of "certified"
SOLVERS = ("certified", "libsvm", "cvxpy")


def _train_predict(Ztr, ytr, Zte, C, solver, path=None):
    """Predicted labels of ``Zte`` by the SVM trained at ``C``. ``path`` (a list, "certified" only) carries the
    previous certified result along a C grid on the same ``(Ztr, ytr)`` as ``solve_svc``'s ``warm_start``: the
    result is the certified optimum either way (``solve_svc`` returns a warm-started point only when its KKT
    certificate is at most 1e-9 relative, else it solves from scratch). Sparse ``Ztr`` is solved without
    densifying by ``solver="DCD"`` (warm-started from the previous C's alpha); dense ``Ztr`` as before."""
    if solver == "libsvm":
        from sklearn.svm import SVC

        clf = SVC(kernel="linear", C=C, tol=1e-3, cache_size=500).fit(Ztr, ytr)
        return clf.predict(Zte)
    from .svm import solve_svc

    if sp.issparse(Ztr):  # never densified: dual coordinate descent on CSR, certified the same way
        res = solve_svc(Ztr, ytr, C, solver="DCD", warm_start=path[-1] if path else None)
    else:
        res = solve_svc(Ztr, ytr, C, warm_start=path[-1] if path else None)
    if path is not None:
        path[:] = [res]
    s = (Zte @ res.w) + res.b
    return np.where(np.asarray(s).ravel() >= 0, 1.0, -1.0)


_WARM = set()


def _warmup(X):
    """Compile (or load) every numba kernel for the data ``X`` once per process, outside every timed region;
    otherwise the first SRHT/CountSketch method timed in a process pays the JIT or cache load and the time
    claims are biased. Tiny sketches never reach the large-input kernels, so this uses the sketch library's
    own ``warmup_kernels``. Only what the sketches will compute in is warmed: the data's float type (float32
    stays float32, anything else becomes float64, as in ``check_matrix``; every loaded or generated
    :class:`~rpcheck.datasets.Dataset` is float64), and the CSR kernels only for sparse data. The other
    specialisations would add to the JIT of a first run after an install and never be called."""
    name = "float32" if np.dtype(X.dtype) == np.float32 else "float64"
    key = (name, bool(sp.issparse(X)))
    if key not in _WARM:
        from .sketches import warmup_kernels

        warmup_kernels(dtypes=(name,), sparse=key[1])
        _WARM.add(key)


def run_repetition(
    data, *, r, methods=METHODS, C_grid=DEFAULT_C_GRID, cv_folds=5, test_size=0.3, solver="certified", rng=None
):
    """One repetition of the protocol (module docstring): a list of dicts, one per (r, method).

    Each dict: ``method, r, accuracy`` (test, %), ``C`` (chosen by CV), ``cv_accuracy`` (%), ``seconds``,
    ``n_train, n_test, d``. ``r`` is ignored (reported as the number of features) for "all".
    """
    rng = as_generator(rng)
    for m in methods:
        check_choice("methods", m, METHODS + DLSS_METHODS)
    check_choice("solver", solver, SOLVERS)
    ds = _as_dataset(data)
    _warmup(ds.X)
    from sklearn.model_selection import StratifiedKFold, train_test_split

    rs = lambda: int(rng.integers(2**31 - 1))  # noqa: E731
    idx_tr, idx_te = train_test_split(np.arange(ds.n), test_size=test_size, stratify=ds.y, random_state=rs())
    X = ds.X.tocsr() if sp.issparse(ds.X) else ds.X
    Xtr, Xte = _scale(X[idx_tr], X[idx_te])
    ytr, yte = ds.y[idx_tr], ds.y[idx_te]
    folds = list(StratifiedKFold(n_splits=cv_folds, shuffle=True, random_state=rs()).split(np.zeros(len(ytr)), ytr))
    rows = []
    for rr in np.atleast_1d(r):
        rr = int(rr)
        for m in methods:
            if m == "all" and rr != int(np.atleast_1d(r)[0]):
                continue  # "all" does not depend on r
            seed = rs()
            t0 = time.perf_counter()
            cv = np.zeros(len(C_grid))
            for tr, va in folds:
                pj = _Projector(m, ds.d, rr, seed).fit(Xtr[tr], ytr[tr])
                Ztr, Zva = pj.transform(Xtr[tr]), pj.transform(Xtr[va])
                path = []  # warm starts along the C grid of this fold (same data)
                for k, C in enumerate(C_grid):
                    cv[k] += np.mean(_train_predict(Ztr, ytr[tr], Zva, C, solver, path) == ytr[va])
                pj = None  # free this fold's projection (PCA's d x r components) before the next fit
            best = int(np.argmax(cv))  # ties -> the smallest C
            pj = _Projector(m, ds.d, rr, seed).fit(Xtr, ytr)
            pred = _train_predict(pj.transform(Xtr), ytr, pj.transform(Xte), C_grid[best], solver)
            pj = None  # likewise before the next method's first fit
            sec = time.perf_counter() - t0
            rows.append(
                {
                    "method": m,
                    "r": ds.d if m == "all" else rr,
                    "accuracy": 100.0 * float(np.mean(pred == yte)),
                    "C": float(C_grid[best]),
                    "cv_accuracy": 100.0 * cv[best] / len(folds),
                    "seconds": sec,
                    "n_train": len(ytr),
                    "n_test": len(yte),
                    "d": ds.d,
                }
            )
    return rows


def summarize(raw, *, baseline="srht", dataset=None):
    """Accuracy mean +- sample std, time, Welch t-test against ``baseline`` (same r), Table 2 beside ours.

    Parameters
    ----------
    raw : pandas.DataFrame
        Rows of :func:`run_repetition` with a ``repetition`` column.
    baseline : str, default="srht"
    dataset : str, optional
        Name used to look up the paper's Table 2 (:func:`paper_key`).

    Returns
    -------
    pandas.DataFrame
        One row per (r, method): ``acc_mean, acc_std (ddof=1), time_mean, C_median, reps, diff_vs_baseline,
        welch_t, welch_p`` and, when the data set is in Table 2, ``paper_mean, paper_std, paper_time``.
    """
    import pandas as pd
    key = paper_key(dataset) if dataset else None
    out = []
    for (rr, m), g in raw.groupby(["r", "method"], sort=False):
        acc = g["accuracy"].to_numpy()
        row = {
            "r": rr,
            "method": m,
            "acc_mean": acc.mean(),
            "acc_std": acc.std(ddof=1) if len(acc) > 1 else np.nan,
            "time_mean": g["seconds"].mean(),
            "C_median": g["C"].median(),
            "reps": len(acc),
        }
        base = raw[(raw["method"] == baseline) & (raw["r"] == rr)]["accuracy"].to_numpy()
        row["diff_vs_baseline"] = acc.mean() - base.mean() if len(base) else np.nan
        if m != baseline and len(base) > 1 and len(acc) > 1 and (np.ptp(acc) > 1e-9 or np.ptp(base) > 1e-9):
            sd = lambda v: float(v.std(ddof=1)) if np.ptp(v) > 1e-9 else 0.0  # noqa: E731
            t = scipy.stats.ttest_ind_from_stats(
                acc.mean(), sd(acc), len(acc), base.mean(), sd(base), len(base), equal_var=False
            )
            row["welch_t"], row["welch_p"] = float(t.statistic), float(t.pvalue)
        else:
            row["welch_t"], row["welch_p"] = np.nan, np.nan
        if key:
            # the paper's single DLSS row (k not given) stands beside each of our DLSS ranks
            mean, std, tm = PAPER_TABLE2[key].get("dlss" if m in DLSS_METHODS else m, (None, None, None))
            row.update(paper_mean=mean, paper_std=std, paper_time=tm)
        out.append(row)
    return pd.DataFrame(out)


def compare(
    data,
    *,
    r,
    methods=METHODS,
    C_grid=DEFAULT_C_GRID,
    cv_folds=5,
    repetitions=15,
    test_size=0.3,
    solver="certified",
    baseline="srht",
    rng=None,
    return_raw=False,
):
    """Run the Table 2 protocol (module docstring) and summarise it.

    Parameters
    ----------
    data : Dataset, str or tuple
        A :class:`rpcheck.datasets.Dataset`, a bundled name ("breast_cancer", "digits"), a path to a
        svmlight/LIBSVM, CSV or .npz file, or ``(X, y)``.
    r : int or sequence of int
        Target dimension(s).
    methods : sequence of str, default=METHODS
    C_grid : sequence of float, default={2^-5, ..., 2^5}
    cv_folds : int, default=5
    repetitions : int, default=15
    test_size : float, default=0.3
    solver : {"certified", "libsvm", "cvxpy"}, default="certified"
        The SVM solver (module docstring); "cvxpy" is an older name of "certified".
    baseline : str, default="srht"
        Method the Welch tests compare against.
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state (SPEC 7).
    return_raw : bool, default=False
        Also return the per-repetition table.

    Returns
    -------
    pandas.DataFrame (or (summary, raw))
        See :func:`summarize`; ``summary.attrs["claims"]`` holds :func:`assess_claims`.
    """
    import pandas as pd
    rng = as_generator(rng)
    ds = _as_dataset(data)
    for m in methods:
        check_choice("methods", m, METHODS + DLSS_METHODS)
    if baseline not in methods:
        raise RpcheckError(f"`baseline` ({baseline!r}) must be one of the methods run: {list(methods)}.")
    check_choice("solver", solver, SOLVERS)
    repetitions = check_int("repetitions", repetitions, 1)
    cv_folds = check_int("cv_folds", cv_folds, 2)
    if not len(C_grid) or any(not (C > 0) for C in C_grid):
        raise RpcheckError(f"`C_grid` ({list(C_grid)}) must be a non-empty list of positive numbers.")
    rows = []
    for rep, child in enumerate(np.random.SeedSequence(int(rng.integers(2**63))).spawn(repetitions)):
        for row in run_repetition(
            ds,
            r=r,
            methods=methods,
            C_grid=C_grid,
            cv_folds=cv_folds,
            test_size=test_size,
            solver=solver,
            rng=np.random.default_rng(child),
        ):
            rows.append({"repetition": rep, **row})
    raw = pd.DataFrame(rows)
    summary = summarize(raw, baseline=baseline, dataset=ds.name)
    summary.attrs["dataset"] = ds.name
    summary.attrs["claims"] = assess_claims(summary)
    return (summary, raw) if return_raw else summary


# ---------------------------------------------------------------------------------------------------------
def _get(summary, r, m, col="acc_mean"):
    g = summary[(summary["method"] == m) & ((summary["r"] == r) | (summary["method"] == "all"))]
    return float(g[col].iloc[0]) if len(g) else np.nan


def _better(summary, r, a, b, alpha=0.05):
    """(mean a - mean b, Welch p) from the raw means/std in the summary (two-sided)."""
    ga = summary[(summary["method"] == a) & (summary["r"] == r)]
    gb = summary[(summary["method"] == b) & (summary["r"] == r)]
    if not len(ga) or not len(gb):
        return np.nan, np.nan
    ma, sa, na = float(ga["acc_mean"].iloc[0]), float(ga["acc_std"].iloc[0]), int(ga["reps"].iloc[0])
    mb, sb, nb = float(gb["acc_mean"].iloc[0]), float(gb["acc_std"].iloc[0]), int(gb["reps"].iloc[0])
    if na < 2 or nb < 2 or not (sa > 1e-9 or sb > 1e-9):
        return ma - mb, np.nan
    t = scipy.stats.ttest_ind_from_stats(ma, sa, na, mb, sb, nb, equal_var=False)
    return ma - mb, float(t.pvalue)


def assess_claims(summary, *, alpha=0.05):
    """Which of the paper's comparative sentences (Sec. 4, text around Table 2) the summary supports.

    Returns a DataFrame with ``claim, r, sentence, supported`` (True / False / None = not decidable, e.g. a
    method not run or fewer than 2 repetitions) and ``evidence``. "Significantly" (claim 17) means a
    two-sided Welch test at level ``alpha`` (false-alarm probability alpha per sentence, no multiplicity
    correction): supported when the mean is higher and p < alpha, contradicted when the mean is not higher,
    undecided otherwise. The other sentences compare means (the paper states them without a test).
    """
    import pandas as pd
    rows = []
    methods = set(summary["method"])
    rs = sorted({int(x) for x in summary[summary["method"] != "all"]["r"]})

    def add(claim, r, sentence, ok, ev):
        rows.append({"claim": claim, "r": r, "sentence": sentence, "supported": ok, "evidence": ev})

    for r in rs:
        d, p = _better(summary, r, "srht-topr", "srht")
        add(
            17,
            r,
            "ISRHT-top-r is significantly better than SRHT",
            # supported: better and significant; contradicted: not better on average; else undecided
            None if np.isnan(d) else (True if d > 0 and p < alpha else (False if d <= 0 else None)),
            f"diff {d:+.2f}, Welch p {p:.3g}",
        )
        base = [m for m in ("gaussian", "achlioptas", "countsketch", "srht") if m in methods]
        if "srht-topr" in methods and base:
            diffs = {m: _better(summary, r, "srht-topr", m)[0] for m in base}
            add(
                18,
                r,
                "ISRHT-top-r beats all four data-independent methods",
                bool(min(diffs.values()) > 0),
                ", ".join(f"{m} {v:+.2f}" for m, v in diffs.items()),
            )
        d, p = _better(summary, r, "srht-nps", "srht")
        add(
            19,
            r,
            "ISRHT-nps gets slightly better results than SRHT",
            None if np.isnan(d) else bool(d > 0),
            f"diff {d:+.2f}, Welch p {p:.3g}",
        )
        d, p = _better(summary, r, "srht-topr", "srht-nps")
        add(
            20,
            r,
            "top-r obtains better accuracy than importance sampling (nps)",
            None if np.isnan(d) else bool(d > 0),
            f"diff {d:+.2f}, Welch p {p:.3g}",
        )
        rp = [m for m in RP_METHODS if m in methods and m != "srht-supervised"]
        if "srht-supervised" in methods and rp:
            diffs = {m: _better(summary, r, "srht-supervised", m)[0] for m in rp}
            add(
                21,
                r,
                "ISRHT-supervised (smallest b) is best among the random projection methods",
                bool(min(diffs.values()) > 0),
                ", ".join(f"{m} {v:+.2f}" for m, v in diffs.items()),
            )
        if "srht-supervised-largest" in methods:
            d, p = _better(summary, r, "srht-supervised-largest", "srht")
            add(
                21,
                r,
                "[printed 'largest b' rule] is at least as good as SRHT",
                None if np.isnan(d) else bool(d >= 0),
                f"diff {d:+.2f}, Welch p {p:.3g}",
            )
        others = [m for m in METHODS if m in methods and m != "all"]
        if "all" in methods and others:
            a = _get(summary, r, "all")
            add(
                22,
                r,
                "All features give the best accuracy",
                bool(all(a >= _get(summary, r, m) for m in others)),
                f"all {a:.2f} vs best other {max(_get(summary, r, m) for m in others):.2f}",
            )
        rp_run = [m for m in RP_METHODS if m in methods]
        if "pca" in methods and rp_run:
            pc = _get(summary, r, "pca")
            best = max(rp_run, key=lambda m: _get(summary, r, m))
            add(
                22,
                r,
                "PCA is better than the random projection methods",
                bool(pc >= _get(summary, r, best)),
                f"pca {pc:.2f} vs {best} {_get(summary, r, best):.2f}",
            )
            tp = _get(summary, r, "pca", "time_mean")
            slow = [m for m in rp_run if _get(summary, r, m, "time_mean") >= tp]
            add(
                23,
                r,
                "All random projection methods are more efficient than PCA",
                not slow,
                f"pca {tp:.3f}s; not faster: {slow or 'none'}",
            )
        fam = [m for m in ("srht-nps", "srht-topr", "srht-supervised") if m in methods]
        if "srht" in methods and fam:
            ts = _get(summary, r, "srht", "time_mean")
            ratios = {m: _get(summary, r, m, "time_mean") / ts for m in fam}
            add(
                23,
                r,
                "ISRHT only slightly increases running time over SRHT (ratio <= 1.5)",
                bool(max(ratios.values()) <= 1.5),
                ", ".join(f"{m} x{v:.2f}" for m, v in ratios.items()),
            )
    return pd.DataFrame(rows, columns=["claim", "r", "sentence", "supported", "evidence"])


def fixed_grid_repetition(
    data,
    *,
    r_values,
    C_grid=DEFAULT_C_GRID,
    methods=("srht", "srht-nps", "srht-topr"),
    test_size=0.3,
    solver="certified",
    rng=None,
):
    """One repetition of the Fig. 3 protocol: test accuracy (%) at every FIXED (method, r, C), no CV
    (``solver`` as in :func:`run_repetition`).

    Returns a list of dicts ``method, r, C, accuracy``.
    """
    rng = as_generator(rng)
    check_choice("solver", solver, SOLVERS)
    ds = _as_dataset(data)
    from sklearn.model_selection import train_test_split

    tr, te = train_test_split(
        np.arange(ds.n), test_size=test_size, stratify=ds.y, random_state=int(rng.integers(2**31 - 1))
    )
    X = ds.X.tocsr() if sp.issparse(ds.X) else ds.X
    Xtr, Xte = _scale(X[tr], X[te])
    rows = []
    for rr in r_values:
        for m in methods:
            pj = _Projector(m, ds.d, int(rr), int(rng.integers(2**63))).fit(Xtr, ds.y[tr])
            Ztr, Zte = pj.transform(Xtr), pj.transform(Xte)
            path = []  # warm starts along the C grid (same data)
            for C in C_grid:
                a = 100.0 * float(np.mean(_train_predict(Ztr, ds.y[tr], Zte, C, solver, path) == ds.y[te]))
                rows.append({"method": m, "r": int(rr), "C": float(C), "accuracy": a})
    return rows


def stability_table(raw, *, baseline="srht"):
    """Per (method, r, C): mean/std accuracy, the baseline's mean, ``ge_srht``; attrs["fraction"] per "
    "method."""
    import pandas as pd
    g = raw.groupby(["method", "r", "C"])["accuracy"]
    st = pd.DataFrame({"acc_mean": g.mean(), "acc_std": g.std(ddof=1)}).reset_index()
    base = st[st["method"] == baseline].set_index(["r", "C"])["acc_mean"]
    st = st[st["method"] != baseline].copy()
    st["srht_mean"] = [base[(r, C)] for r, C in zip(st["r"], st["C"])]
    st["ge_srht"] = st["acc_mean"] >= st["srht_mean"]
    st.attrs["fraction"] = {m: float(x["ge_srht"].mean()) for m, x in st.groupby("method")}
    return st.reset_index(drop=True)


def stability(
    data,
    *,
    r_values,
    C_grid=DEFAULT_C_GRID,
    repetitions=15,
    methods=("srht-nps", "srht-topr"),
    test_size=0.3,
    rng=None,
):
    """Fig. 3 protocol (claim 25): accuracy at FIXED (C, r) for SRHT and ISRHT variants, averaged over
    ``repetitions``; see :func:`stability_table` (``attrs["fraction"]``: share of grid points where the ISRHT
    variant's mean accuracy is >= SRHT's; the paper claims well above 1/2 on mushrooms)."""
    import pandas as pd
    rng = as_generator(rng)
    ds = _as_dataset(data)
    rows = []
    for child in np.random.SeedSequence(int(rng.integers(2**63))).spawn(check_int("repetitions", repetitions, 1)):
        rows += fixed_grid_repetition(
            ds,
            r_values=r_values,
            C_grid=C_grid,
            methods=("srht", *methods),
            test_size=test_size,
            rng=np.random.default_rng(child),
        )
    return stability_table(pd.DataFrame(rows))

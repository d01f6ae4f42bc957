"""One repetition of the Table 2 protocol (:func:`run_repetition`: split, scale, cross-validate C, project,
train, test) and the comparison over repetitions (:func:`compare`, :func:`summarize`); the protocol is in
:mod:`rpcheck.compare`."""

from __future__ import annotations

import os
import time

import numpy as np
import scipy.sparse as sp
import scipy.stats

from .. import sketches as _sketches
from .._rng import as_generator
from .._validation import check_choice, check_int
from ..datasets import BUNDLED, Dataset, load_bundled, load_file, make_dataset
from ..errors import RpcheckError
from ..linalg import centred_randomized_svd, dlss_select
from ..sketches import make_sketch
from ..svm import solve_svc
from .claims import assess_claims
from .methods import DEFAULT_C_GRID, DLSS_METHODS, METHODS, PAPER_TABLE2, SKETCH_SPECS, dlss_rank, paper_key


def _as_dataset(data):
    if isinstance(data, Dataset):
        ds = data
    elif isinstance(data, str | os.PathLike):
        ds = load_bundled(data) if str(data) in BUNDLED else load_file(data)
    elif isinstance(data, tuple) and len(data) == 2:
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
                self.mean, _, self.Vt = centred_randomized_svd(X, k, rng=rs)
                self.model = None
            else:
                self.model = PCA(n_components=k, svd_solver="randomized", random_state=rs).fit(X)
            return self
        if self.method in DLSS_METHODS:
            k = dlss_rank(self.method, self.r, *X.shape)
            self.k = k
            self.idx = np.sort(dlss_select(X, min(self.r, self.d), k, svd="randomized", rng=self.seed))
            return self
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


#: values of ``solver`` (:mod:`rpcheck.compare`); "cvxpy" is an alias of "certified"
SOLVERS = ("certified", "libsvm", "cvxpy")


def _train_predict(Ztr, ytr, Zte, C, solver, path=None):
    """Predicted labels of ``Zte`` by the SVM trained at ``C``. ``path`` (a list, "certified" only) carries the
    previous certified result along a C grid on the same ``(Ztr, ytr)`` as ``solve_svc``'s ``warm_start``: the
    result is the certified optimum either way (``solve_svc`` returns a warm-started point only when its KKT
    certificate is at most 1e-9 relative, else it solves from scratch). Sparse ``Ztr`` is solved without
    densifying by ``solver="DCD"`` (warm-started from the previous C's alpha), dense ``Ztr`` by the default solver."""
    if solver == "libsvm":
        from sklearn.svm import SVC

        clf = SVC(kernel="linear", C=C, tol=1e-3, cache_size=500).fit(Ztr, ytr)
        return clf.predict(Zte)
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
        _sketches.warmup_kernels(dtypes=(name,), sparse=key[1])
        _WARM.add(key)


def run_repetition(
    data, *, r, methods=METHODS, C_grid=DEFAULT_C_GRID, cv_folds=5, test_size=0.3, solver="certified", rng=None
):
    """One repetition of the protocol (:mod:`rpcheck.compare`): a list of dicts, one per (r, method).

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
    """Run the Table 2 protocol (:mod:`rpcheck.compare`) and summarise it.

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
        The SVM solver (:mod:`rpcheck.compare`); "cvxpy" is an alias of "certified".
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

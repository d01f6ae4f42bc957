r"""Offline real data for the empirical checks: scikit-learn's bundled sets and user files.

Nothing here downloads anything. ``load_bundled`` reads the copies that ship inside scikit-learn;
``load_file`` reads a file the user points to (the LIBSVM binary sets used by Lei & Lan 2020 --
mushrooms, usps, gisette, real-sim, rcv1, news20 -- are distributed in svmlight/LIBSVM format).

Label convention
----------------
For a classification task the labels are mapped to {-1, +1}: with exactly two distinct labels the
smaller one becomes -1 and the larger +1 (so {0, 1}, {1, 2} -- mushrooms -- and {-1, +1} all map in
the obvious way). A file with more than two labels is a multi-class problem; it is refused with an error
unless ``positive=`` names the class to separate from the rest (one-vs-rest, e.g. the "usps-b"
binarization the paper leaves unspecified) or ``task="regression"`` is passed. A file with one label is
refused: the SVM dual (3) of Lei & Lan forces alpha = 0 when all labels are equal (spec §1.4).

Features are returned as stored (no scaling); the comparison runner (``rpcheck.compare``) scales to
[-1, 1] inside each training fold, as in the paper's protocol (spec §4.2).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._validation import check_choice, check_int
from .errors import RpcheckError

__all__ = ["Dataset", "BUNDLED", "FORMATS", "load_bundled", "load_file", "describe"]

#: Names accepted by :func:`load_bundled`.
BUNDLED = ("breast_cancer", "digits", "diabetes")
#: Values accepted by ``load_file(fmt=...)``; "libsvm" is an alias of "svmlight".
FORMATS = ("svmlight", "libsvm", "csv", "npz")
TASKS = ("classification", "regression")
#: Dense problems at most this many entries get a numerical-rank estimate in :func:`describe`.
RANK_MAX_ENTRIES = 2_000_000


@dataclass(frozen=True)
class Dataset:
    """A data set ready for the checkers.

    Parameters
    ----------
    X : ndarray of shape (n, d) or scipy.sparse CSR matrix
        Features, float64, finite.
    y : ndarray of shape (n,)
        Labels in {-1, +1} (task "classification") or real targets (task "regression").
    name : str
    task : {"classification", "regression"}
    description : str
        Where the data came from and how the labels were made binary.
    """

    X: Any
    y: np.ndarray
    name: str
    task: str
    description: str = ""
    label_map: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        check_choice("task", self.task, TASKS)
        n = self.X.shape[0]
        if self.y.shape != (n,):
            raise RpcheckError(f"`y` has shape {self.y.shape} but X has {n} rows; y must have shape ({n},).")
        # freeze the arrays too, so a Dataset cannot be modified through its fields
        if isinstance(self.y, np.ndarray):
            self.y.setflags(write=False)
        if isinstance(self.X, np.ndarray):
            self.X.setflags(write=False)

    @property
    def n(self) -> int:
        return int(self.X.shape[0])

    @property
    def d(self) -> int:
        return int(self.X.shape[1])

    def __repr__(self):
        kind = f"sparse {self.X.format}" if sp.issparse(self.X) else "dense"
        return f"Dataset(name={self.name!r}, task={self.task!r}, n={self.n}, d={self.d}, {kind})"


def _binarize(y, *, name, positive=None):
    """Map labels to {-1, +1}; returns (y_pm, label_map, note)."""
    y = np.asarray(y)
    if y.ndim != 1:
        raise RpcheckError(f"labels of {name!r} must be 1-dimensional; got shape {y.shape}.")
    labels = np.unique(y)
    if positive is not None:
        if positive not in labels:
            raise RpcheckError(
                f"`positive` ({positive!r}) is not a label of {name!r}; "
                f"labels present: {labels.tolist()[:20]}."
            )
        out = np.where(y == positive, 1.0, -1.0)
        if np.all(out == 1.0):
            raise RpcheckError(f"`positive` ({positive!r}) is the only label of {name!r}; no negative class.")
        return out, {positive: 1, "rest": -1}, f"one-vs-rest: label {positive!r} -> +1, all others -> -1"
    if labels.size == 2:
        lo, hi = labels
        out = np.where(y == hi, 1.0, -1.0)
        lo_v, hi_v = (x.item() if hasattr(x, "item") else x for x in (lo, hi))
        return out, {lo_v: -1, hi_v: 1}, f"labels {lo_v!r} -> -1, {hi_v!r} -> +1"
    if labels.size < 2:
        raise RpcheckError(
            f"labels of {name!r} take a single value ({labels.tolist()}); a binary classification task "
            "needs two classes (the dual's constraint y^T alpha = 0 forces alpha = 0 otherwise)."
        )
    shown = labels.tolist()[:10]
    more = "..." if labels.size > 10 else ""
    raise RpcheckError(
        f"labels of {name!r} take {labels.size} distinct values ({shown}{more}); a binary task needs exactly "
        "two. Pass `positive=<label>` for one-vs-rest, or `task='regression'` for a real-valued target."
    )


def _make(X, y, *, name, task, description, positive=None):
    from ._validation import check_matrix

    X = check_matrix("X", X)
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
    else:
        X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise RpcheckError(f"`y` of {name!r} has shape {y.shape} but X has {X.shape[0]} rows.")
    if X.shape[0] < 2 or X.shape[1] < 1:
        raise RpcheckError(f"data set {name!r} has shape {X.shape}; it needs at least 2 rows and 1 column.")
    label_map = {}
    if task == "classification":
        y, label_map, note = _binarize(y, name=name, positive=positive)
        description = f"{description}; {note}" if description else note
    else:
        if y.dtype.kind not in "biuf":
            raise RpcheckError(f"regression target of {name!r} must be numeric; got dtype {y.dtype}.")
        y = y.astype(np.float64)
        if not np.all(np.isfinite(y)):
            raise RpcheckError(f"regression target of {name!r} contains NaN or infinite values.")
    return Dataset(
        X=X,
        y=np.array(y, dtype=np.float64),
        name=name,
        task=task,
        description=description,
        label_map=label_map,
    )


def load_bundled(name, *, digit=8):
    """Load a data set that ships with scikit-learn (no download).

    Parameters
    ----------
    name : {"breast_cancer", "digits", "diabetes"}
        - "breast_cancer": Wisconsin diagnostic, n=569, d=30, binary (malignant 0 -> -1, benign 1 -> +1).
        - "digits": 8x8 handwritten digits, n=1797, d=64, made binary as ``digit`` vs the rest
          (a stand-in for the paper's usps-b, whose binarization is unspecified, spec §4.1).
        - "diabetes": n=442, d=10, regression target.
    digit : int, default=8
        The positive class of "digits" (one-vs-rest). 8 is the default because it is the digit a linear
        classifier separates worst from the rest (so projections have room to lose accuracy); any 0..9 works.

    Returns
    -------
    Dataset

    Raises
    ------
    RpcheckError
        Unknown name or digit outside 0..9.

    Examples
    --------
    >>> ds = load_bundled("breast_cancer")
    >>> ds.n, ds.d, ds.task, sorted(set(ds.y.tolist()))
    (569, 30, 'classification', [-1.0, 1.0])
    """
    check_choice("name", name, BUNDLED)
    import sklearn.datasets as skd

    if name == "breast_cancer":
        b = skd.load_breast_cancer()
        return _make(
            b.data,
            b.target,
            name=name,
            task="classification",
            description="scikit-learn bundled Wisconsin diagnostic breast cancer (malignant=0, benign=1)",
        )
    if name == "digits":
        digit = check_int("digit", digit, 0, 9)
        b = skd.load_digits()
        return _make(
            b.data,
            b.target,
            name=f"digits{digit}",
            task="classification",
            positive=digit,
            description=f"scikit-learn bundled 8x8 digits, digit {digit} vs rest",
        )
    b = skd.load_diabetes()
    return _make(
        b.data,
        b.target,
        name=name,
        task="regression",
        description="scikit-learn bundled diabetes (standardised features, disease progression target)",
    )


def _infer_format(path):
    low = path.lower()
    for suffix in (".gz", ".bz2"):
        if low.endswith(suffix):
            low = low[: -len(suffix)]
    if low.endswith(".csv"):
        return "csv"
    if low.endswith(".npz"):
        return "npz"
    # LIBSVM files usually have no or arbitrary extensions (mushrooms, a9a, gisette_scale.bz2, *.t)
    return "svmlight"


def _read_csv(path):
    import pandas as pd

    with open(path) as fh:
        first = fh.readline()
    if not first.strip():
        raise RpcheckError(f"CSV file {path!r} is empty.")
    try:
        [float(t) for t in first.strip().split(",")]
        header = None
    except ValueError:
        header = 0
    try:
        frame = pd.read_csv(path, header=header)
    except Exception as exc:
        raise RpcheckError(f"could not parse {path!r} as CSV: {exc}") from None
    if frame.shape[1] < 2:
        raise RpcheckError(
            f"CSV file {path!r} has {frame.shape[1]} column(s); it needs features and a last target column."
        )
    feats = frame.iloc[:, :-1]
    bad = [str(c) for c in feats.columns if feats[c].dtype.kind not in "biuf"]
    if bad:
        raise RpcheckError(
            f"CSV file {path!r} has non-numeric feature columns {bad[:5]}; all features must be numbers."
        )
    if feats.isna().to_numpy().any():
        raise RpcheckError(f"CSV file {path!r} has missing feature values; all features must be present.")
    return feats.to_numpy(dtype=np.float64), frame.iloc[:, -1].to_numpy()


def _read_npz(path):
    try:
        with np.load(path, allow_pickle=False) as z:
            keys = list(z.keys())
            if "X" not in keys or "y" not in keys:
                raise RpcheckError(f".npz file {path!r} must hold arrays named 'X' and 'y'; found {keys}.")
            return z["X"], z["y"]
    except RpcheckError:
        raise
    except ValueError as exc:  # object arrays need pickle: refused on purpose
        raise RpcheckError(f"could not read {path!r} without pickle (allow_pickle=False): {exc}") from None


def load_file(path, *, fmt=None, task=None, positive=None, n_features=None, name=None):
    """Load a data set from a file.

    Parameters
    ----------
    path : str or os.PathLike
    fmt : {None, "svmlight", "libsvm", "csv", "npz"}, default=None
        None infers it from the suffix: ".csv" -> csv, ".npz" -> npz, anything else -> svmlight/LIBSVM
        (read by ``sklearn.datasets.load_svmlight_file``; ".gz"/".bz2" are decompressed). CSV: the last
        column is the target, a non-numeric first line is a header. npz: arrays "X" and "y", read with
        ``allow_pickle=False``.
    task : {None, "classification", "regression"}, default=None
        None means classification when the target takes exactly two values (or ``positive`` is given);
        any other label set is refused with an error naming the labels found.
    positive : label, optional
        One-vs-rest binarization of a multi-class target: this label -> +1, the rest -> -1.
    n_features : int, optional
        Number of columns of an svmlight file (to align a train file and its test file).
    name : str, optional
        Defaults to the file name.

    Returns
    -------
    Dataset
        ``X`` is a CSR matrix for svmlight input and dense otherwise.

    Raises
    ------
    RpcheckError
        Missing file, unknown format, unreadable content, non-binary labels without ``positive``/``task``.
    """
    path = os.fspath(path)
    if fmt is not None:
        check_choice("fmt", fmt, FORMATS)
    if task is not None:
        check_choice("task", task, TASKS)
    if not os.path.isfile(path):
        raise RpcheckError(f"`path` ({path!r}) is not an existing file.")
    fmt = _infer_format(path) if fmt is None else ("svmlight" if fmt == "libsvm" else fmt)
    name = name or os.path.basename(path)
    if fmt == "svmlight":
        from sklearn.datasets import load_svmlight_file

        kw = {} if n_features is None else {"n_features": check_int("n_features", n_features, 1)}
        try:
            X, y = load_svmlight_file(path, **kw)
        except Exception as exc:
            raise RpcheckError(f"could not parse {path!r} as svmlight/LIBSVM: {exc}") from None
    elif fmt == "csv":
        X, y = _read_csv(path)
    else:
        X, y = _read_npz(path)
    if task is None:
        task = "classification"
    return _make(X, y, name=name, task=task, positive=positive, description=f"{fmt} file {path}")


def describe(ds):
    """Summary of a data set for ``rpcheck data FILE``.

    Returns
    -------
    dict
        name, task, n, d, nnz, density, sparse (bool); for classification n_pos, n_neg, frac_pos;
        for regression y_mean, y_std; rank (numerical rank of the dense X, ``numpy.linalg.matrix_rank``
        default tolerance) when n*d <= RANK_MAX_ENTRIES, else None; row_norm_max; description.

    Examples
    --------
    >>> info = describe(load_bundled("breast_cancer"))
    >>> info["n"], info["d"], info["n_pos"], info["n_neg"], info["rank"]
    (569, 30, 357, 212, 30)
    """
    if not isinstance(ds, Dataset):
        raise RpcheckError(f"`ds` must be a rpcheck.datasets.Dataset; got {type(ds).__name__}.")
    X = ds.X
    n, d = X.shape
    if sp.issparse(X):
        nnz = int(X.count_nonzero())
        row_sq = np.asarray(X.multiply(X).sum(axis=1)).ravel()
    else:
        nnz = int(np.count_nonzero(X))
        row_sq = np.einsum("ij,ij->i", X, X)
    out = {
        "name": ds.name,
        "task": ds.task,
        "n": int(n),
        "d": int(d),
        "nnz": nnz,
        "density": nnz / float(n * d),
        "sparse": bool(sp.issparse(X)),
        "row_norm_max": float(np.sqrt(row_sq.max())),
    }
    if ds.task == "classification":
        n_pos = int(np.sum(ds.y > 0))
        out.update(n_pos=n_pos, n_neg=int(n - n_pos), frac_pos=n_pos / n)
    else:
        out.update(y_mean=float(ds.y.mean()), y_std=float(ds.y.std()))
    if n * d <= RANK_MAX_ENTRIES:
        dense = X.toarray() if sp.issparse(X) else X
        out["rank"] = int(np.linalg.matrix_rank(dense))
    else:
        out["rank"] = None
    out["description"] = ds.description
    return out

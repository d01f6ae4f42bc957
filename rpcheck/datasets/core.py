"""The :class:`Dataset` container, the label convention (:mod:`rpcheck.datasets`, "Label convention"),
scikit-learn's bundled sets and :func:`describe`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._validation import check_choice, check_int, check_matrix
from ..errors import RpcheckError

#: Names accepted by :func:`load_bundled`.
BUNDLED = ("breast_cancer", "digits", "diabetes")
#: Values accepted by ``load_file(fmt=...)``; "libsvm" is an alias of "svmlight".
FORMATS = ("svmlight", "libsvm", "csv", "npz")
TASKS = ("classification", "regression")
#: Dense problems at most this many entries get a numerical-rank estimate in :func:`describe`.
RANK_MAX_ENTRIES = 2_000_000
#: Widest svmlight file read by default: 2**24 = 16,777,216 columns, 12x news20.binary's 1,355,191
#: (Lei & Lan 2020, Table 3), the widest set of the papers. Raise it with ``load_file(max_features=...)``.
MAX_FEATURES = 2**24
#: Largest dense matrix read from a CSV or npz file or built by a dense stand-in: 2**26 entries
#: (512 MiB in float64). The HapMap-HGDP matrix of Paul et al. (2014, Sec. 4.1.3), 2,250 x 492,516 =
#: 1.1e9 entries, is above it on purpose.
DENSE_MAX_ENTRIES = 2**26


class MatrixShape:
    """``n`` (rows, the examples) and ``d`` (columns, the features) of ``self.X``, dense or sparse."""

    @property
    def n(self) -> int:
        return int(self.X.shape[0])

    @property
    def d(self) -> int:
        return int(self.X.shape[1])


@dataclass(frozen=True)
class Dataset(MatrixShape):
    """A data set ready for the checkers.

    Parameters
    ----------
    X : ndarray of shape (n, d) or scipy.sparse CSR matrix
        Features, float64, finite.
    y : ndarray of shape (n,)
        Labels in {-1, +1} with both present (task "classification") or finite real targets
        (task "regression").
    name : str
    task : {"classification", "regression"}
    description : str
        Where the data came from and how the labels were made binary.
    label_map : dict
        Raw label -> {-1, +1}.
    y_raw : ndarray of shape (n,) or None
        The labels as read, before the {-1, +1} mapping (e.g. the 5 regions of a HapMap-like set);
        None when not recorded. For a multi-label file, an object array of label tuples.
    """

    X: Any
    y: np.ndarray
    name: str
    task: str
    description: str = ""
    label_map: dict = field(default_factory=dict, compare=False)
    y_raw: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        check_choice("task", self.task, TASKS)
        n = self.X.shape[0]
        if self.y.shape != (n,):
            raise RpcheckError(f"`y` has shape {self.y.shape} but X has {n} rows; y must have shape ({n},).")
        if self.y.dtype.kind not in "biuf" or not np.all(np.isfinite(self.y)):
            raise RpcheckError(f"`y` of {self.name!r} must hold finite numbers; got dtype {self.y.dtype}.")
        if self.task == "classification":
            vals = np.unique(self.y)
            if not (vals.size == 2 and vals[0] == -1 and vals[1] == 1):
                raise RpcheckError(
                    f"`y` of the classification set {self.name!r} must take both values -1 and +1 and no "
                    f"other; found {vals.tolist()[:10]}."
                )
        # freeze the arrays too, so a Dataset cannot be modified through its fields
        if isinstance(self.y, np.ndarray):
            self.y.setflags(write=False)
        if isinstance(self.X, np.ndarray):
            self.X.setflags(write=False)
        if isinstance(self.y_raw, np.ndarray):
            self.y_raw.setflags(write=False)

    def __repr__(self):
        kind = f"sparse {self.X.format}" if sp.issparse(self.X) else "dense"
        return f"Dataset(name={self.name!r}, task={self.task!r}, n={self.n}, d={self.d}, {kind})"


def _where(row, row_lines):
    return f"row {row}" if row_lines is None else f"line {row_lines[row]}"


def _check_label_values(y, *, name, task, row_lines=None):
    """Finite labels; classification labels integer-valued. Returns float64 labels."""
    if y.dtype.kind not in "biuf":
        raise RpcheckError(
            f"labels of {name!r} must be numbers (classification: integer-valued or +-1; regression: finite "
            f"reals); got dtype {y.dtype}."
        )
    y = y.astype(np.float64)
    bad = ~np.isfinite(y)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise RpcheckError(
            f"labels of {name!r} contain NaN or infinite values ({int(bad.sum())} of {y.size}; first {y[i]:g} at "
            f"{_where(i, row_lines)}); every label must be a finite number."
        )
    if task == "classification":
        frac = y != np.round(y)
        if frac.any():
            i = int(np.flatnonzero(frac)[0])
            raise RpcheckError(
                f"classification labels of {name!r} must be integer-valued (class ids or -1/+1); found {y[i]:g} at "
                f"{_where(i, row_lines)}. Pass `task='regression'` for a real-valued target."
            )
    return y


def _binarize(y, *, name, positive=None):
    """Map labels to {-1, +1}; returns (y_pm, label_map, note)."""
    y = np.asarray(y)
    if y.ndim != 1:
        raise RpcheckError(f"labels of {name!r} must be 1-dimensional; got shape {y.shape}.")
    labels = np.unique(y)
    if positive is not None:
        if positive not in labels:
            raise RpcheckError(
                f"`positive` ({positive!r}) is not a label of {name!r}; labels present: {labels.tolist()[:20]}."
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


def _binarize_multilabel(label_sets, *, name, positive):
    if positive is None:
        present = sorted({lab for s in label_sets for lab in s})
        raise RpcheckError(
            f"{name!r} is a multi-label file (a line lists several labels, e.g. '1,3'); pass `positive=<label>` "
            f"to separate the rows carrying that label from the rest. Labels present: {present[:20]}."
        )
    out = np.array([1.0 if positive in s else -1.0 for s in label_sets])
    if np.all(out == 1.0) or np.all(out == -1.0):
        which = "every" if out[0] == 1.0 else "no"
        raise RpcheckError(f"`positive` ({positive!r}) is carried by {which} row of {name!r}; need both classes.")
    return out, {positive: 1, "rest": -1}, f"multi-label one-vs-rest: rows with label {positive!r} -> +1, others -> -1"


def make_dataset(X, y, *, name, task, description, positive=None, row_lines=None):
    """A validated :class:`Dataset` from arrays: ``X`` (n x d, dense or sparse, at least 2 x 1, converted to
    float64 / CSR), ``y`` (n labels or targets, or a list of label tuples for a multi-label file), ``task`` in
    :data:`TASKS`, ``positive`` the label mapped to +1 for a binary task (optional), ``row_lines`` the source
    line of each row (for error messages). Bad input raises :class:`~rpcheck.errors.RpcheckError`."""
    check_choice("task", task, TASKS)
    X = check_matrix("X", X)
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
    else:
        X = np.ascontiguousarray(X, dtype=np.float64)
    if X.shape[0] < 2 or X.shape[1] < 1:
        raise RpcheckError(f"data set {name!r} has shape {X.shape}; it needs at least 2 rows and 1 column.")
    label_map = {}
    if isinstance(y, list):  # multi-label: a list of tuples of labels
        if len(y) != X.shape[0]:
            raise RpcheckError(f"`y` of {name!r} has {len(y)} rows but X has {X.shape[0]} rows.")
        if task != "classification":
            raise RpcheckError(f"{name!r} is a multi-label file; only `task='classification'` is possible.")
        y_raw = np.empty(len(y), dtype=object)
        y_raw[:] = y
        y_pm, label_map, note = _binarize_multilabel(y, name=name, positive=positive)
        description = f"{description}; {note}" if description else note
        return Dataset(X=X, y=y_pm, name=name, task=task, description=description, label_map=label_map, y_raw=y_raw)
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise RpcheckError(f"`y` of {name!r} has shape {y.shape} but X has {X.shape[0]} rows.")
    y_raw = y.copy()
    if y.dtype.kind in "biuf":
        y = _check_label_values(y, name=name, task=task, row_lines=row_lines)
    elif task == "regression":
        raise RpcheckError(f"regression target of {name!r} must be numeric; got dtype {y.dtype}.")
    if task == "classification":
        y, label_map, note = _binarize(y, name=name, positive=positive)
        description = f"{description}; {note}" if description else note
    return Dataset(
        X=X,
        y=np.array(y, dtype=np.float64),
        name=name,
        task=task,
        description=description,
        label_map=label_map,
        y_raw=y_raw,
    )


def load_bundled(name, *, digit=8):
    """Load a data set that ships with scikit-learn (no download).

    Parameters
    ----------
    name : {"breast_cancer", "digits", "diabetes"}
        - "breast_cancer": Wisconsin diagnostic, n=569, d=30, binary (malignant 0 -> -1, benign 1 -> +1).
        - "digits": 8x8 handwritten digits, n=1797, d=64, made binary as ``digit`` vs the rest
          (a stand-in for the usps-b of Lei & Lan 2020, whose binarization is unspecified, Sec. 4.1).
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
        return make_dataset(
            b.data,
            b.target,
            name=name,
            task="classification",
            description="scikit-learn bundled Wisconsin diagnostic breast cancer (malignant=0, benign=1)",
        )
    if name == "digits":
        digit = check_int("digit", digit, 0, 9)
        b = skd.load_digits()
        return make_dataset(
            b.data,
            b.target,
            name=f"digits{digit}",
            task="classification",
            positive=digit,
            description=f"scikit-learn bundled 8x8 digits, digit {digit} vs rest",
        )
    b = skd.load_diabetes()
    return make_dataset(
        b.data,
        b.target,
        name=name,
        task="regression",
        description="scikit-learn bundled diabetes (standardised features, disease progression target)",
    )


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

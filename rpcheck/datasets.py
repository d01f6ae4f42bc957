r"""Offline real data for the empirical checks: scikit-learn's bundled sets, user files, named data sets.

Nothing here downloads anything (:mod:`rpcheck.data_registry` fetches the papers' files). ``load_bundled``
reads the copies that ship inside scikit-learn; ``load_file`` reads a file the user points to;
``load_techtc`` reads one TechTC-300 pair. The data of the
papers (the LIBSVM binary sets of Lei & Lan 2020, Table 3: mushrooms, usps, gisette, real-sim, rcv1,
news20; RCV1 and TechTC-300 of Paul et al. 2014, Sec. 4.1) are distributed in svmlight/LIBSVM format.
:func:`known_datasets` lists the named sets whose shape the papers state; ``load_file(path, expect=name)``
checks a file against that shape.

Label convention
----------------
For a classification task the labels are mapped to {-1, +1}: with exactly two distinct labels the
smaller one becomes -1 and the larger +1 (so {0, 1}, {1, 2} -- mushrooms -- and {-1, +1} all map in
the obvious way). A file with more than two labels is a multi-class problem; it is refused with an error
unless ``positive=`` names the class to separate from the rest (one-vs-rest, e.g. the "usps-b"
binarization Lei & Lan leave unspecified, Sec. 4.1) or ``task="regression"`` is passed. A file with one
label is refused: the SVM dual (3) of Lei & Lan forces alpha = 0 when all labels are equal (the
constraint y^T alpha = 0 with alpha >= 0). Classification labels must be finite and integer-valued
(NaN, inf or 0.5 is an error naming the line); regression targets must be finite. The labels as read,
before the {-1, +1} mapping, are kept in ``Dataset.y_raw``.

File rules (every violation is one :class:`rpcheck.errors.RpcheckError` naming the path, the line and
what is wrong)
----------------------------------------------------------------------------------------------------
- Text files must be UTF-8 (ASCII is a subset). ``.gz``, ``.bz2`` and ``.xz`` files are decompressed
  (also when the suffix is missing but the content starts with the format's magic bytes); a truncated or
  corrupt compressed stream is an error. ``.zip``/``.tar`` archives are refused (extract them first).
- svmlight/LIBSVM: ``<label>[,<label>...] [qid:<int>] <index>:<value> ... [# comment]``. Blank lines and
  ``#`` comments are skipped. Indices are non-negative integers, strictly increasing within a line (a
  duplicate or unsorted index is an error, as the LIBSVM README requires ascending order); values are
  finite. ``zero_based="auto"`` (default) reads the file as 0-based if and only if some index is 0, else
  as 1-based (the LIBSVM convention); ``zero_based=False`` makes an index 0 an error; ``True`` forces
  0-based. ``qid`` fields are accepted and ignored. A label token with commas (``1,3``) makes the file
  multi-label: ``positive=`` then selects the rows whose label set contains that label. The matrix stays
  sparse (CSR); an index at or above ``max_features`` (default :data:`MAX_FEATURES`) is refused before
  anything of that width is allocated. scikit-learn's compiled ``load_svmlight_file`` reads the file and
  these rules are checked on its output; the line-by-line parser reads it instead for the details that
  reader does not apply as written here (multi-label commas, ``qid`` fields, ``_`` in a number, a signed
  index such as ``+3``) and for any violation, so that the message names the line.
- CSV: comma-separated, the last column is the target. The first non-blank line is a **header if and
  only if every one of its fields is non-numeric**; a first line with some numeric and some non-numeric
  fields is an error naming the line and column (so a typo in the first data row is never silently
  dropped as a header). Every other line must have the same number of fields, each a finite number.
- npz: arrays named ``X`` (2-D) and ``y`` (1-D), numeric, read with ``allow_pickle=False`` (object
  arrays are refused); shapes are read from the array headers and a dense ``X`` with more than
  :data:`DENSE_MAX_ENTRIES` entries is refused before it is read. A truncated or corrupt archive is an
  error.

Features are returned as stored (no scaling); the comparison runner (``rpcheck.compare``) scales to
[-1, 1] inside each training fold, as in Lei & Lan's protocol (Sec. 4.2).
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import lzma
import math
import os
import re
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._validation import check_choice, check_int
from .errors import RpcheckError

__all__ = [
    "Dataset",
    "make_dataset",
    "BUNDLED",
    "FORMATS",
    "MAX_FEATURES",
    "DENSE_MAX_ENTRIES",
    "KnownDataset",
    "known_datasets",
    "check_expected",
    "load_bundled",
    "load_file",
    "load_techtc",
    "iter_techtc",
    "describe",
]

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

_ARCHIVES = (".zip", ".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tar.xz", ".7z", ".rar")
_MAGIC = {b"\x1f\x8b": "gzip", b"BZh": "bz2", b"\xfd7zXZ\x00": "xz"}


@dataclass(frozen=True)
class Dataset:
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

    @property
    def n(self) -> int:
        return int(self.X.shape[0])

    @property
    def d(self) -> int:
        return int(self.X.shape[1])

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
    from ._validation import check_matrix

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


# ---------------------------------------------------------------------------------------------------------
# named data sets of the papers
# ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class KnownDataset:
    """A data set of the papers with the shape the papers state for it.

    Every constraint is a tuple of closed intervals ``((lo, hi), ...)``; a value is accepted when it lies in
    one of them (an exact value ``v`` is ``(v, v)``). ``None`` means the papers do not state it and it is
    not checked.

    Attributes
    ----------
    name : str
    source : str
        Where the papers state the shape (paper, section, table).
    n, d : tuple of (int, int)
        Accepted numbers of rows (the whole file and the papers' splits of it) and columns.
    classes : tuple of (int, int)
        Accepted numbers of distinct raw labels (before any one-vs-rest mapping).
    density : tuple of (float, float) or None
        Accepted fraction of nonzero entries. A density stated to two significant digits ("0.16%") is
        accepted in its rounding interval ([0.155%, 0.165%)); a random subset of the file keeps its density
        to well within that interval at these sizes.
    sparse : bool
        Whether the papers treat it as sparse.
    values : tuple of tuple or None
        Accepted value sets of X (one of them must contain every entry), e.g. genotype codings.
    task : {"classification", "regression"}
    note : str
    """

    name: str
    source: str
    n: tuple
    d: tuple
    classes: tuple
    density: tuple | None = None
    sparse: bool = True
    values: tuple | None = None
    task: str = "classification"
    note: str = ""

    def width(self):
        """The exact number of columns, or None when the papers give a range."""
        return self.d[0][0] if len(self.d) == 1 and self.d[0][0] == self.d[0][1] else None

    def as_dict(self):
        return {
            "name": self.name,
            "source": self.source,
            "n": _fmt_ranges(self.n),
            "d": _fmt_ranges(self.d),
            "classes": _fmt_ranges(self.classes),
            "density": None if self.density is None else _fmt_ranges(self.density, pct=True),
            "sparse": self.sparse,
            "values": None if self.values is None else " or ".join(str(set(v)) for v in self.values),
            "task": self.task,
            "note": self.note,
        }


def _fmt_ranges(ranges, pct=False):
    def one(v):
        return f"{100 * v:.3g}%" if pct else f"{v:,}"

    return " or ".join(one(lo) if lo == hi else f"{one(lo)}..{one(hi)}" for lo, hi in ranges)


def _exact(*vals):
    return tuple((v, v) for v in vals)


_KNOWN = (
    KnownDataset(
        "techtc300",
        "Paul et al. 2014, Sec. 4.1.2 (Table II): 295 two-class document-term matrices of TechTC-300 "
        "(Davidov et al. 2004), 150-280 documents x 10,000-40,000 words",
        n=((150, 280),),
        d=((10_000, 40_000),),
        classes=_exact(2),
        note="one pair (Exp_<id>_<id>/vectors.dat); load with load_techtc",
    ),
    KnownDataset(
        "rcv1-binary",
        "Paul et al. 2014, Sec. 4.1.4 (train 20,242 x 47,236, 0.16% nonzeros, ten test sets of 20,000); "
        "Lei & Lan 2020, Table 3 (train 13,562 / test 6,680 of the 20,242-row file)",
        n=_exact(20_242, 20_000, 13_562, 6_680),
        d=_exact(47_236),
        classes=_exact(2),
        density=((0.00155, 0.00165),),
    ),
    KnownDataset(
        "rcv1-multiclass",
        "Paul et al. 2014, Sec. 4.1.4 (train 15,564 x 47,236, 53 classes, 0.14% nonzeros, test sets of 16,000)",
        n=_exact(15_564, 16_000),
        d=_exact(47_236),
        classes=((2, 53),),
        density=((0.00135, 0.00145),),
        note="at most 53 classes (a subset may miss rare ones)",
    ),
    KnownDataset(
        "news20-binary",
        "Lei & Lan 2020, Table 3 (train 13,397 / test 6,599 of 19,996 rows, d = 1,355,191)",
        n=_exact(19_996, 13_397, 6_599),
        d=_exact(1_355_191),
        classes=_exact(2),
        note="density not stated by the paper",
    ),
    KnownDataset(
        "real-sim",
        "Lei & Lan 2020, Table 3 (train 48,447 / test 23,862 of 72,309 rows, d = 20,958)",
        n=_exact(72_309, 48_447, 23_862),
        d=_exact(20_958),
        classes=_exact(2),
        note="density not stated by the paper",
    ),
    KnownDataset(
        "mushrooms",
        "Lei & Lan 2020, Table 3 (train 6,000 / test 2,124 of 8,124 rows, d = 112)",
        n=_exact(8_124, 6_000, 2_124),
        d=_exact(112),
        classes=_exact(2),
        sparse=False,
    ),
    KnownDataset(
        "usps-b",
        "Lei & Lan 2020, Table 3 (standard USPS split: train 7,291 / test 2,007, d = 256)",
        n=_exact(9_298, 7_291, 2_007),
        d=_exact(256),
        classes=_exact(2, 10),
        sparse=False,
        note="10 digit classes as distributed; the paper's binarization is not given (pass positive=)",
    ),
    KnownDataset(
        "gisette",
        "Lei & Lan 2020, Table 3 (train 6,000 / test 1,000, d = 5,000)",
        n=_exact(7_000, 6_000, 1_000),
        d=_exact(5_000),
        classes=_exact(2),
        sparse=False,
    ),
    KnownDataset(
        "hapmap-hgdp",
        "Paul et al. 2014, Sec. 4.1.3 (2,250 individuals x 492,516 SNPs, dense, entries -1/0/+1; 5 regions "
        "or about 50 populations)",
        n=_exact(2_250),
        d=_exact(492_516),
        classes=((5, 5), (40, 60)),
        sparse=False,
        values=((-1.0, 0.0, 1.0), (0.0, 1.0, 2.0)),
        note="'about 50' populations read as 40..60; 0/1/2 allele counts accepted as well as the paper's -1/0/+1",
    ),
    KnownDataset(
        "yalefaces",
        "Paul et al. 2014, Sec. 4.3 (165 images x 4,096 pixels, 15 people, class ids as regression targets)",
        n=_exact(165),
        d=_exact(4_096),
        classes=_exact(15),
        sparse=False,
        task="regression",
    ),
    KnownDataset(
        "nci60",
        "Paul et al. 2014, Sec. 4.3 (60 cell lines x 1,375 genes, 10 classes as regression targets)",
        n=_exact(60),
        d=_exact(1_375),
        classes=_exact(10),
        sparse=False,
        task="regression",
    ),
)
_KNOWN_BY_NAME = {k.name: k for k in _KNOWN}


def known_datasets():
    """The named data sets of the papers with their stated shapes (for ``load_file(expect=...)``).

    Returns
    -------
    tuple of KnownDataset
        Use ``KnownDataset.as_dict()`` for a printable row.

    Examples
    --------
    >>> [k.name for k in known_datasets()][:3]
    ['techtc300', 'rcv1-binary', 'rcv1-multiclass']
    """
    return _KNOWN


def _known(name):
    return _KNOWN_BY_NAME[check_choice("expect", name, tuple(_KNOWN_BY_NAME))]


def _in(v, ranges):
    return any(lo <= v <= hi for lo, hi in ranges)


def _shape_problems(spec, X, y_raw):
    n, d = X.shape
    out = []
    if not _in(n, spec.n):
        out.append(f"n = {n:,} rows (expected {_fmt_ranges(spec.n)})")
    if not _in(d, spec.d):
        out.append(f"d = {d:,} columns (expected {_fmt_ranges(spec.d)})")
    if y_raw is not None:
        if isinstance(y_raw, list):
            k = len({lab for s in y_raw for lab in s})
        else:
            k = int(np.unique(np.asarray(y_raw)).size)
        if not _in(k, spec.classes):
            out.append(f"{k} distinct labels (expected {_fmt_ranges(spec.classes)})")
    nnz = int(X.count_nonzero()) if sp.issparse(X) else int(np.count_nonzero(X))
    if spec.density is not None and n * d > 0:
        dens = nnz / (n * d)
        if not _in(dens, spec.density):
            out.append(f"density {100 * dens:.4g}% (expected {_fmt_ranges(spec.density, pct=True)})")
    if spec.values is not None:
        vals = np.unique(X.data if sp.issparse(X) else X)
        if sp.issparse(X) and nnz < n * d:
            vals = np.union1d(vals, [0.0])
        if not any(np.all(np.isin(vals, allowed)) for allowed in spec.values):
            out.append(f"values {vals.tolist()[:8]} (expected a subset of one of {[set(v) for v in spec.values]})")
    return out


def check_expected(ds, name):
    """Check a data set against the shape the papers state for the named set; raise on any mismatch.

    Parameters
    ----------
    ds : Dataset
    name : str
        One of ``[k.name for k in known_datasets()]``.

    Raises
    ------
    RpcheckError
        One message listing every mismatch (rows, columns, number of raw labels, density, value set).
    """
    spec = _known(name)
    if not isinstance(ds, Dataset):
        raise RpcheckError(f"`ds` must be a rpcheck.datasets.Dataset; got {type(ds).__name__}.")
    y_raw = ds.y_raw if ds.y_raw is not None else ds.y
    if isinstance(y_raw, np.ndarray) and y_raw.dtype == object:
        y_raw = list(y_raw)
    _raise_problems(spec, ds.name, _shape_problems(spec, ds.X, y_raw))
    return ds


def _raise_problems(spec, what, problems):
    if problems:
        raise RpcheckError(
            f"{what!r} does not have the shape of {spec.name!r} ({spec.source}): " + "; ".join(problems) + "."
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


# ---------------------------------------------------------------------------------------------------------
# reading files
# ---------------------------------------------------------------------------------------------------------
def _check_path(path):
    if isinstance(path, bool) or not isinstance(path, str | bytes | os.PathLike):
        raise RpcheckError(f"`path` ({path!r}) must be a str or os.PathLike naming a file; got {type(path).__name__}.")
    path = os.fsdecode(os.fspath(path))
    if not os.path.isfile(path):
        what = "a directory" if os.path.isdir(path) else "not an existing file"
        raise RpcheckError(f"`path` ({path!r}) is {what}; it must name a data file.")
    return path


def _strip_compression(low):
    for suffix in (".gz", ".bz2", ".xz"):
        if low.endswith(suffix):
            return low[: -len(suffix)]
    return low


def _infer_format(path):
    low = _strip_compression(path.lower())
    if low.endswith(".csv"):
        return "csv"
    if low.endswith(".npz"):
        return "npz"
    # LIBSVM files usually have no or arbitrary extensions (mushrooms, a9a, gisette_scale.bz2, *.t)
    return "svmlight"


def _read_bytes(path):
    """The file's bytes, decompressed when it is gzip/bz2/xz (by suffix or magic bytes)."""
    low = path.lower()
    if any(low.endswith(s) for s in _ARCHIVES):
        raise RpcheckError(
            f"`path` ({path!r}) is an archive; rpcheck reads single data files (svmlight, CSV, .npz, optionally "
            ".gz/.bz2/.xz-compressed). Extract it first."
        )
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise RpcheckError(f"could not read {path!r}: {exc.strerror or exc}.") from None
    kind = next((k for m, k in _MAGIC.items() if raw.startswith(m)), None)
    if kind is None:
        if low.endswith((".gz", ".bz2", ".xz")):
            raise RpcheckError(
                f"{path!r} has a compressed-file suffix but does not start with the {low.rsplit('.', 1)[1]} magic "
                "bytes; it is not a compressed file (or it is corrupt)."
            )
        if raw.startswith(b"PK\x03\x04"):
            raise RpcheckError(
                f"{path!r} is a zip archive (an .npz file or a .zip); read an .npz with fmt='npz' (or the .npz "
                "suffix), extract a .zip first."
            )
        return raw
    opener = {"gzip": gzip.decompress, "bz2": bz2.decompress, "xz": lzma.decompress}[kind]
    try:
        return opener(raw)
    except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as exc:
        raise RpcheckError(f"{path!r} is a truncated or corrupt {kind} stream: {exc}.") from None


def _read_text(path):
    return _check_text(_read_bytes(path), path).decode("utf-8")


def _check_text(raw, path):
    """``raw`` itself when it is UTF-8 text without NUL bytes, else the error naming the line."""
    if b"\x00" in raw:
        line = raw.count(b"\n", 0, raw.index(b"\x00")) + 1
        raise RpcheckError(f"{path!r} is binary, not text (NUL byte on line {line}); svmlight and CSV are text.")
    try:
        raw.decode("utf-8")
        return raw
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise RpcheckError(
            f"{path!r} is not UTF-8 text: byte {raw[exc.start]:#04x} on line {line} (byte offset {exc.start}) "
            "cannot be decoded. Re-encode the file as UTF-8 (or ASCII)."
        ) from None


def _number(tok):
    """float(tok), or None when tok is not a number (Python float syntax without '_')."""
    if "_" in tok:
        return None
    try:
        return float(tok)
    except ValueError:
        return None


def _parse_svmlight(text, path, *, zero_based="auto", n_features=None, max_features=MAX_FEATURES):
    """Parse svmlight/LIBSVM text into (CSR X, labels, row_lines, notes); the rules are in the module docstring."""
    labels, row_lines = [], []
    indptr, indices, values = [0], [], []
    multilabel = saw_qid = saw_zero = False
    limit = max_features if n_features is None else n_features
    for lineno, line in enumerate(text.split("\n"), 1):
        hash_at = line.find("#")
        toks = (line if hash_at < 0 else line[:hash_at]).split()
        if not toks:
            continue

        def fail(msg, _lineno=lineno):
            raise RpcheckError(f"{path!r}, line {_lineno}: {msg}")

        first = toks[0]
        if ":" in first:
            fail(f"the line has no label: its first field {first!r} is an index:value pair.")
        if "," in first:
            multilabel = True
            parts = first.split(",")
            labs = []
            for p in parts:
                v = _number(p)
                if v is None or not math.isfinite(v) or v != round(v):
                    fail(f"label {p!r} of the multi-label field {first!r} is not a finite integer.")
                labs.append(int(v))
            labels.append(tuple(labs))
        else:
            v = _number(first)
            if v is None:
                fail(f"label {first!r} is not a number.")
            if not math.isfinite(v):
                fail(f"label {first!r} is not a finite number; NaN/inf labels are refused.")
            labels.append(v)
        rest = toks[1:]
        if rest and rest[0].startswith("qid:"):
            q = rest[0][4:]
            if not q.isdigit():
                fail(f"qid field {rest[0]!r} must be 'qid:<non-negative integer>'.")
            saw_qid = True
            rest = rest[1:]
        prev = -1
        for k, tok in enumerate(rest, 2):
            idx_s, sep, val_s = tok.partition(":")
            if not sep:
                fail(f"field {k} ({tok!r}) is not an index:value pair.")
            if not idx_s.isdigit():
                if idx_s.startswith("-") and idx_s[1:].isdigit():
                    fail(f"field {k} ({tok!r}) has a negative feature index {idx_s}; indices are >= 0.")
                if idx_s == "qid":
                    fail(f"field {k} ({tok!r}): a qid field must come right after the label.")
                fail(f"field {k} ({tok!r}) has a feature index {idx_s!r} that is not a non-negative integer.")
            idx = int(idx_s)
            val = _number(val_s)
            if val is None:
                fail(f"field {k} ({tok!r}) has a value {val_s!r} that is not a number.")
            if not math.isfinite(val):
                fail(f"field {k} ({tok!r}) has a non-finite value; every value must be finite.")
            if idx == prev:
                fail(f"feature index {idx} appears twice (field {k}); each index may appear once per line.")
            if idx < prev:
                fail(
                    f"feature indices are not increasing: {idx} after {prev} (field {k}); the LIBSVM format "
                    "requires ascending indices."
                )
            if idx == 0:
                if zero_based is False:
                    fail(f"feature index 0 (field {k}) in a file read with zero_based=False (indices start at 1).")
                saw_zero = True
            if idx > limit:
                if n_features is not None:
                    fail(f"feature index {idx} (field {k}) does not fit n_features={n_features}.")
                fail(
                    f"feature index {idx} (field {k}) exceeds the width allowed by max_features={max_features}; "
                    "refused before allocating (raise `max_features` if the file really is that wide)."
                )
            prev = idx
            indices.append(idx)
            values.append(val)
        indptr.append(len(indices))
        row_lines.append(lineno)
    if not labels:
        raise RpcheckError(f"{path!r} holds no data lines (it is empty or only comments/blank lines).")
    if multilabel:
        labels = [lab if isinstance(lab, tuple) else (int(lab),) for lab in labels]
    else:
        labels = np.asarray(labels, dtype=np.float64)
    base0 = saw_zero if zero_based == "auto" else bool(zero_based)
    ind = np.asarray(indices, dtype=np.int64)
    if not base0:
        ind -= 1
    top = int(ind.max()) + 1 if ind.size else 0
    if n_features is not None:
        if top > n_features:
            bad = int(np.argmax(ind >= n_features))
            line = row_lines[int(np.searchsorted(indptr, bad, side="right")) - 1]
            raise RpcheckError(
                f"{path!r}, line {line}: feature index {int(ind[bad]) + (0 if base0 else 1)} does not fit "
                f"n_features={n_features} ({'0' if base0 else '1'}-based)."
            )
        d = n_features
    else:
        d = top
    if d > max_features:
        raise RpcheckError(f"{path!r} is {d:,} columns wide; above `max_features` ({max_features:,}).")
    X = sp.csr_matrix(
        (
            np.asarray(values, dtype=np.float64),
            ind.astype(np.int32 if d < 2**31 else np.int64),
            np.asarray(indptr, dtype=np.int64),
        ),
        shape=(len(row_lines), d),
    )
    notes = [f"{'0' if base0 else '1'}-based indices"]
    if saw_qid:
        notes.append("qid fields ignored")
    return X, labels, row_lines, notes


#: Index tokens with a sign ("+3:1"), which Python's int() accepts and the LIBSVM format does not.
_SIGNED_INDEX = re.compile(rb"\s\+[0-9]+:")


def _sklearn_svmlight(raw, *, zero_based, n_features, max_features):
    """(CSR X, float labels, notes) read by scikit-learn's compiled reader, or None when the file needs the
    line-by-line parser: a format detail that reader does not handle as rpcheck's rules require (multi-label
    commas, qid fields, '_' in numbers, signed indices) or anything rpcheck refuses (the parser then finds the
    line and names it)."""
    if b"qid" in raw or b"_" in raw:
        return None
    # the regex only when a '+' follows whitespace somewhere (a 37 MB file: 5 substring scans 0.05 s, regex 0.7 s)
    if any(w + b"+" in raw for w in (b" ", b"\t", b"\r", b"\x0b", b"\x0c")) and _SIGNED_INDEX.search(raw):
        return None
    from sklearn.datasets import load_svmlight_file

    try:  # zero_based=True: the raw indices; the base rule below is rpcheck's own
        X, labels = load_svmlight_file(io.BytesIO(raw), dtype=np.float64, zero_based=True)
    except (ValueError, OverflowError, TypeError, IndexError):
        return None
    n = X.shape[0]
    if n == 0 or not np.all(np.isfinite(labels)) or not np.all(np.isfinite(X.data)):
        return None
    ind = np.asarray(X.indices, dtype=np.int64)
    limit = max_features if n_features is None else n_features
    saw_zero = bool(ind.size) and int(ind.min()) == 0
    if ind.size and int(ind.max()) > limit or saw_zero and zero_based is False:
        return None
    base0 = saw_zero if zero_based == "auto" else bool(zero_based)
    if not base0:
        ind -= 1
    top = int(ind.max()) + 1 if ind.size else 0
    if n_features is not None and top > n_features:
        return None
    d = top if n_features is None else n_features
    if d > max_features:
        return None
    X = sp.csr_matrix(
        (
            np.asarray(X.data, dtype=np.float64),
            ind.astype(np.int32 if d < 2**31 else np.int64),
            np.asarray(X.indptr, dtype=np.int64),
        ),
        shape=(n, d),
    )
    return X, np.asarray(labels, dtype=np.float64), [f"{'0' if base0 else '1'}-based indices"]


def _read_svmlight(path, *, zero_based="auto", n_features=None, max_features=MAX_FEATURES):
    """Read an svmlight/LIBSVM file: (CSR X, labels, row_lines, notes, reparse).

    scikit-learn's ``load_svmlight_file`` reads the file when it can (faster than the line-by-line
    :func:`_parse_svmlight`; BENCHMARKS.md); rpcheck's rules (module docstring) are checked on its output.
    The line-by-line parser reads the file instead when scikit-learn cannot apply those rules: a multi-label,
    qid, '_' or signed-index detail, or any violation (the parser names the line). ``row_lines`` is None after
    the fast path; ``reparse()`` then gives the parser's output, whose ``row_lines`` name the line in a later error.
    """
    raw = _check_text(_read_bytes(path), path)

    def reparse():
        return _parse_svmlight(
            raw.decode("utf-8"), path, zero_based=zero_based, n_features=n_features, max_features=max_features
        )

    fast = _sklearn_svmlight(raw, zero_based=zero_based, n_features=n_features, max_features=max_features)
    if fast is None:
        return (*reparse(), None)
    X, y, notes = fast
    return X, y, None, notes, reparse


def _read_csv(text, path, *, max_entries=DENSE_MAX_ENTRIES):
    reader = csv.reader(io.StringIO(text, newline=""))
    rows, row_lines = [], []
    ncols = None
    header = None
    try:
        for fields in reader:
            lineno = reader.line_num
            if not fields or all(not f.strip() for f in fields):
                continue
            fields = [f.strip() for f in fields]
            if ncols is None:
                nums = [_number(f) for f in fields]
                if all(v is None for v in nums):
                    header, ncols = fields, len(fields)
                    continue
                if any(v is None for v in nums):
                    j = next(i for i, v in enumerate(nums) if v is None)
                    raise RpcheckError(
                        f"{path!r}, line {lineno}, column {j + 1}: field {fields[j]!r} is not a number. The first "
                        "line is a header only when every field is non-numeric; this one has numeric fields too, "
                        "so it is data."
                    )
                ncols = len(fields)
            if len(fields) != ncols:
                raise RpcheckError(
                    f"{path!r}, line {lineno}: {len(fields)} fields where the {'header' if header else 'first row'} "
                    f"has {ncols}; every row needs the same number of fields."
                )
            row = []
            for j, f in enumerate(fields):
                v = _number(f)
                if v is None or not math.isfinite(v):
                    what = (
                        "is empty (missing value)"
                        if not f
                        else (f"{f!r} is not a finite number" if v is not None else f"{f!r} is not a number")
                    )
                    col = f"column {j + 1}" + (f" ({header[j]!r})" if header else "")
                    raise RpcheckError(
                        f"{path!r}, line {lineno}, {col}: the field {what}; all fields must be "
                        "finite numbers (the last column is the target)."
                    )
                row.append(v)
            rows.append(row)
            row_lines.append(lineno)
            if len(rows) * ncols > max_entries:
                raise RpcheckError(
                    f"{path!r} has more than {max_entries:,} entries (DENSE_MAX_ENTRIES); too large to read densely."
                )
    except csv.Error as exc:
        raise RpcheckError(f"{path!r}, line {reader.line_num}: not valid CSV: {exc}.") from None
    if not rows:
        raise RpcheckError(f"CSV file {path!r} is empty (no data rows{' after the header' if header else ''}).")
    if ncols < 2:
        raise RpcheckError(f"CSV file {path!r} has {ncols} column(s); it needs features and a last target column.")
    A = np.asarray(rows, dtype=np.float64)
    return A[:, :-1], A[:, -1], row_lines


def _read_npz(path, *, max_entries=DENSE_MAX_ENTRIES):
    corrupt = (zipfile.BadZipFile, EOFError, OSError, ValueError, zlib.error, KeyError)
    try:
        with zipfile.ZipFile(path) as zf:
            members = {n[:-4]: n for n in zf.namelist() if n.endswith(".npy")}
            if "X" not in members or "y" not in members:
                raise RpcheckError(f".npz file {path!r} must hold arrays named 'X' and 'y'; found {sorted(members)}.")
            headers = {}
            for key in ("X", "y"):
                with zf.open(members[key]) as fh:
                    version = np.lib.format.read_magic(fh)
                    read = (
                        np.lib.format.read_array_header_1_0
                        if version == (1, 0)
                        else np.lib.format.read_array_header_2_0
                    )
                    shape, _, dtype = read(fh)
                headers[key] = (shape, dtype)
    except RpcheckError:
        raise
    except corrupt as exc:
        raise RpcheckError(f"{path!r} is not a readable .npz archive (truncated or corrupt): {exc}.") from None
    for key, want in (("X", 2), ("y", 1)):
        shape, dtype = headers[key]
        if dtype.hasobject:
            raise RpcheckError(
                f"array {key!r} of {path!r} has dtype object, which needs pickle; refused (allow_pickle=False). "
                "Save numeric arrays."
            )
        if dtype.kind not in "biuf":
            raise RpcheckError(f"array {key!r} of {path!r} has dtype {dtype}; it must be numeric.")
        if len(shape) != want:
            raise RpcheckError(f"array {key!r} of {path!r} has shape {shape}; it must be {want}-dimensional.")
    entries = math.prod(headers["X"][0])
    if entries > max_entries:
        raise RpcheckError(
            f"array 'X' of {path!r} has shape {headers['X'][0]} = {entries:,} entries, above DENSE_MAX_ENTRIES "
            f"({max_entries:,}); refused before reading."
        )
    try:
        with np.load(path, allow_pickle=False) as z:
            return z["X"], z["y"]
    except corrupt as exc:
        raise RpcheckError(f"{path!r} is not a readable .npz archive (truncated or corrupt): {exc}.") from None


def load_file(
    path,
    *,
    fmt=None,
    task=None,
    positive=None,
    n_features=None,
    name=None,
    zero_based="auto",
    max_features=MAX_FEATURES,
    expect=None,
):
    """Load a data set from a file.

    The format rules (header rule, index rules, compression, what is refused) are in the module docstring;
    every violation raises one RpcheckError naming the path, the line and the problem.

    Parameters
    ----------
    path : str or os.PathLike
    fmt : {None, "svmlight", "libsvm", "csv", "npz"}, default=None
        None infers it from the suffix (after removing ".gz"/".bz2"/".xz"): ".csv" -> csv, ".npz" -> npz,
        anything else -> svmlight/LIBSVM.
    task : {None, "classification", "regression"}, default=None
        None means classification (or the task of ``expect``); classification needs exactly two labels
        unless ``positive`` is given.
    positive : label, optional
        One-vs-rest binarization of a multi-class (or multi-label) target: this label -> +1, the rest -> -1.
    n_features : int, optional
        Number of columns of an svmlight file (to align a train file and its test file); an index beyond it
        is an error.
    name : str, optional
        Defaults to the file name.
    zero_based : {"auto", True, False}, default="auto"
        svmlight index base. "auto": 0-based if and only if some index is 0, else 1-based.
    max_features : int, default=MAX_FEATURES
        Widest svmlight file accepted (checked per index while parsing, before allocation).
    expect : str, optional
        A name from :func:`known_datasets`: the loaded shape (rows, columns, number of raw labels, density,
        values) must match what the papers state, else an error listing the mismatches. For an svmlight
        file without ``n_features`` the width is set to the named set's width.

    Returns
    -------
    Dataset
        ``X`` is a CSR matrix for svmlight input and dense otherwise; ``y_raw`` holds the labels as read.

    Raises
    ------
    RpcheckError
        Bad argument, missing file, unreadable or invalid content, shape not as expected, non-binary labels
        without ``positive``/``task``.
    """
    path = _check_path(path)
    if fmt is not None:
        check_choice("fmt", fmt, FORMATS)
    if task is not None:
        check_choice("task", task, TASKS)
    if zero_based not in ("auto", True, False) or isinstance(zero_based, int) and not isinstance(zero_based, bool):
        raise RpcheckError(f"`zero_based` ({zero_based!r}) must be one of 'auto', True, False.")
    max_features = check_int("max_features", max_features, 1)
    if n_features is not None:
        n_features = check_int("n_features", n_features, 1)
    spec = _known(expect) if expect is not None else None
    fmt = _infer_format(path) if fmt is None else ("svmlight" if fmt == "libsvm" else fmt)
    name = name or os.path.basename(path)
    row_lines = None
    notes = []
    if fmt == "svmlight":
        if spec is not None and n_features is None and spec.width() is not None:
            n_features = spec.width()
            max_features = max(max_features, n_features)
        X, y, row_lines, notes, reparse = _read_svmlight(
            path, zero_based=zero_based, n_features=n_features, max_features=max_features
        )
    elif fmt == "csv":
        X, y, row_lines = _read_csv(_read_text(path), path)
        reparse = None
    else:
        X, y = _read_npz(path)
        reparse = None
    if spec is not None:
        _raise_problems(spec, path, _shape_problems(spec, X, y if isinstance(y, list) else np.asarray(y)))
    if task is None:
        task = spec.task if spec is not None else "classification"
    desc = f"{fmt} file {path}" + (f" ({', '.join(notes)})" if notes else "")
    if spec is not None:
        desc += f"; shape checked against {spec.name!r} ({spec.source})"
    try:
        return make_dataset(X, y, name=name, task=task, positive=positive, description=desc, row_lines=row_lines)
    except RpcheckError as exc:
        if reparse is None or " at row " not in str(exc):
            raise
    # read by scikit-learn, whose output has no line numbers: the parser's row_lines name the line
    return make_dataset(X, y, name=name, task=task, positive=positive, description=desc, row_lines=reparse()[2])


def _techtc_width(idx_path):
    """Largest feature id listed in a TechTC features.idx ('#' comment lines, then '<id> <word>' lines)."""
    top = 0
    for lineno, line in enumerate(_read_text(idx_path).split("\n"), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        tok = s.split()[0]
        if not tok.isdigit():
            raise RpcheckError(f"{idx_path!r}, line {lineno}: expected '<feature id> <word>'; got {s[:40]!r}.")
        top = max(top, int(tok))
    if top == 0:
        raise RpcheckError(f"{idx_path!r} lists no features.")
    return top


def load_techtc(path, *, check_shape=True):
    """Load one TechTC-300 pair (Paul et al. 2014, Sec. 4.1.2) as a binary Dataset.

    Each of the 295 data sets of the collection (Davidov et al. 2004) is a directory ``Exp_<id>_<id>``
    holding ``vectors.dat`` (one document per line in svmlight form, ``<label> <feature id>:<count> ...``,
    label +1 or -1, feature ids starting at 1, ``#`` comment lines) and ``features.idx`` (the word of each
    feature id after ``#`` comment lines). This reader was written from that layout; it does not depend on
    anything else in the files.

    Parameters
    ----------
    path : str or os.PathLike
        The ``Exp_...`` directory or its ``vectors.dat``.
    check_shape : bool, default=True
        Check the pair against the sizes Paul et al. state for the collection (150-280 documents,
        10,000-40,000 words; :func:`known_datasets` entry "techtc300").

    Returns
    -------
    Dataset
        Sparse CSR term counts; ``d`` is the largest id in ``features.idx`` when that file is present
        (so every pair keeps its full vocabulary), else the largest id used. Labels +1/-1 as in the file.

    Raises
    ------
    RpcheckError
        Missing vectors.dat, labels other than +1/-1, 0-based or bad indices, size outside the stated range.
    """
    if isinstance(path, bool) or not isinstance(path, str | bytes | os.PathLike):
        raise RpcheckError(f"`path` ({path!r}) must be a str or os.PathLike naming a TechTC directory or vectors.dat.")
    path = os.fsdecode(os.fspath(path))
    vec = os.path.join(path, "vectors.dat") if os.path.isdir(path) else path
    vec = _check_path(vec)
    folder = os.path.dirname(os.path.abspath(vec))
    idx_path = os.path.join(folder, "features.idx")
    width = _techtc_width(idx_path) if os.path.isfile(idx_path) else None
    X, y, row_lines, _, reparse = _read_svmlight(vec, zero_based=False, n_features=width, max_features=MAX_FEATURES)
    if isinstance(y, list):
        raise RpcheckError(f"{vec!r}: TechTC labels are +1/-1, one per line; found a multi-label line.")
    y = np.asarray(y)
    bad = ~np.isin(y, (-1.0, 1.0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        line = (row_lines or reparse()[2])[i]
        raise RpcheckError(f"{vec!r}, line {line}: TechTC labels are +1 or -1; found {y[i]:g}.")
    name = os.path.basename(folder)
    if check_shape:
        spec = _known("techtc300")
        _raise_problems(spec, vec, _shape_problems(spec, X, y))
    desc = f"TechTC-300 pair {name} ({vec}" + (f", width from {idx_path})" if width else ")")
    try:
        return make_dataset(X, y, name=name, task="classification", description=desc, row_lines=row_lines)
    except RpcheckError as exc:
        if reparse is None or " at row " not in str(exc):
            raise
    return make_dataset(X, y, name=name, task="classification", description=desc, row_lines=reparse()[2])


def iter_techtc(root, *, check_shape=True):
    """Yield the TechTC pairs under ``root`` (its ``Exp_*`` directories holding vectors.dat), sorted by name.

    Paul et al. (2014, Sec. 4.1.2) use 295 of them; no count is enforced here (pass the directory you have).
    """
    if isinstance(root, bool) or not isinstance(root, str | bytes | os.PathLike):
        raise RpcheckError(f"`root` ({root!r}) must be a str or os.PathLike naming a directory.")
    root = os.fsdecode(os.fspath(root))
    if not os.path.isdir(root):
        raise RpcheckError(f"`root` ({root!r}) is not a directory.")
    names = sorted(e for e in os.listdir(root) if os.path.isfile(os.path.join(root, e, "vectors.dat")))
    if not names:
        raise RpcheckError(f"`root` ({root!r}) holds no directory with a vectors.dat (TechTC Exp_* folders).")
    for e in names:
        yield load_techtc(os.path.join(root, e), check_shape=check_shape)


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

"""The named data sets of the papers and the shapes they state: :func:`known_datasets`,
:func:`check_expected`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._validation import check_choice
from ..errors import RpcheckError
from .core import Dataset


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

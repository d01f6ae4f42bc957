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

from .core import (
    BUNDLED,
    DENSE_MAX_ENTRIES,
    FORMATS,
    MAX_FEATURES,
    Dataset,
    MatrixShape,
    describe,
    load_bundled,
    make_dataset,
)
from .core import (
    RANK_MAX_ENTRIES as RANK_MAX_ENTRIES,
)
from .core import (
    TASKS as TASKS,
)
from .known import (
    KnownDataset,
    check_expected,
    known_datasets,
)
from .known import (
    _shape_problems as _shape_problems,
)
from .loaders import (
    iter_techtc,
    load_file,
    load_techtc,
)
from .readers import (
    _parse_svmlight as _parse_svmlight,
)
from .readers import (
    _sklearn_svmlight as _sklearn_svmlight,
)

__all__ = [
    "Dataset",
    "MatrixShape",
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

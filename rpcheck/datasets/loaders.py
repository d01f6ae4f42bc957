"""Loading a user's file (:func:`load_file`) and TechTC-300 pairs (:func:`load_techtc`, :func:`iter_techtc`)."""

from __future__ import annotations

import os

import numpy as np

from .._validation import check_choice, check_int
from ..errors import RpcheckError
from .core import FORMATS, MAX_FEATURES, TASKS, make_dataset
from .known import _known, _raise_problems, _shape_problems
from .readers import _check_path, _infer_format, _read_csv, _read_npz, _read_svmlight, _read_text


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

    The format rules (header rule, index rules, compression, what is refused) are in :mod:`rpcheck.datasets`;
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

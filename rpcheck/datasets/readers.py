"""Readers of the file formats (:mod:`rpcheck.datasets`, "File rules"): decompression, UTF-8 text,
svmlight/LIBSVM (scikit-learn's compiled reader, checked, with a line-by-line parser for the rest), CSV and
npz."""

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

import numpy as np
import scipy.sparse as sp

from ..errors import RpcheckError
from .core import DENSE_MAX_ENTRIES, MAX_FEATURES

_ARCHIVES = (".zip", ".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tar.xz", ".7z", ".rar")
_MAGIC = {b"\x1f\x8b": "gzip", b"BZh": "bz2", b"\xfd7zXZ\x00": "xz"}


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
    """Parse svmlight/LIBSVM text into (CSR X, labels, row_lines, notes); the rules are in :mod:`rpcheck.datasets`."""
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
    :func:`_parse_svmlight`; BENCHMARKS.md); rpcheck's rules (:mod:`rpcheck.datasets`) are checked on its output.
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

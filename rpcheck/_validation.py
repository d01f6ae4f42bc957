"""Argument validation at public boundaries.

Every failure raises :class:`rpcheck.errors.RpcheckError` with one message naming the argument, the value
received and the allowed values, e.g. "`eps` (1.5) must be in the interval (0, 1)."
"""

import math
import numbers
import os

import numpy as np

from .errors import MemoryLimitError, RpcheckError

__all__ = [
    "check_interval",
    "check_int",
    "check_choice",
    "check_matrix",
    "check_vector",
    "check_labels",
    "check_consistent_length",
    "check_sparse_matrix",
    "check_memory",
    "available_memory",
    "MAX_DIM",
]

#: Largest dimension (``d``, ``r``, ``n_components``) accepted anywhere: index arithmetic is int64, and the
#: compiled kernels pack ``2 * column + sign`` into one int64, so every index must stay below 2**62.
MAX_DIM = 2**62


def _fmt(value):
    return repr(value) if isinstance(value, str) else f"{value}"


def check_interval(name, value, low=None, high=None, *, closed="both", finite=False):
    """Check that the real number ``value`` lies in the interval between ``low`` and ``high``.

    ``closed`` is one of "both", "left", "right", "neither". ``None`` bounds are infinite. With
    ``finite=True`` infinite values are refused even where the interval is unbounded.
    Returns ``float(value)``.

    >>> check_interval("eps", 0.5, 0, 1, closed="neither")
    0.5
    >>> check_interval("eps", 1.5, 0, 1, closed="neither")
    Traceback (most recent call last):
    ...
    rpcheck.errors.RpcheckError: `eps` (1.5) must be in the interval (0, 1).
    """
    if closed not in ("both", "left", "right", "neither"):
        raise RpcheckError(f"`closed` ({closed!r}) must be one of 'both', 'left', 'right', 'neither'.")
    lb = "[" if closed in ("both", "left") and low is not None else "("
    rb = "]" if closed in ("both", "right") and high is not None else ")"
    domain = f"{lb}{'-inf' if low is None else low}, {'inf' if high is None else high}{rb}"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise RpcheckError(f"`{name}` ({_fmt(value)}) must be a real number in the interval {domain}.")
    v = float(value)
    ok = not np.isnan(v)
    if ok and low is not None:
        ok = v >= low if lb == "[" else v > low
    if ok and high is not None:
        ok = v <= high if rb == "]" else v < high
    if ok and finite and not np.isfinite(v):
        raise RpcheckError(f"`{name}` ({_fmt(value)}) must be a finite real number in the interval {domain}.")
    if not ok:
        raise RpcheckError(f"`{name}` ({_fmt(value)}) must be in the interval {domain}.")
    return v


def check_int(name, value, low=None, high=None):
    """Check that ``value`` is an integer in the closed range [low, high]; return ``int(value)``.

    >>> check_int("r", 0, 1)
    Traceback (most recent call last):
    ...
    rpcheck.errors.RpcheckError: `r` (0) must be an integer >= 1.
    """
    if low is not None and high is not None:
        domain = f"in the range [{low}, {high}]"
    elif low is not None:
        domain = f">= {low}"
    elif high is not None:
        domain = f"<= {high}"
    else:
        domain = ""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise RpcheckError(f"`{name}` ({_fmt(value)}) must be an integer {domain}".rstrip() + ".")
    v = int(value)
    if (low is not None and v < low) or (high is not None and v > high):
        raise RpcheckError(f"`{name}` ({v}) must be an integer {domain}.")
    return v


def check_choice(name, value, choices):
    """Check that ``value`` is one of ``choices``; the message lists them.

    >>> check_choice("form", "x", ("correct", "as_printed"))
    Traceback (most recent call last):
    ...
    rpcheck.errors.RpcheckError: `form` ('x') must be one of 'correct', 'as_printed'.
    """
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise RpcheckError(f"`{name}` ({_fmt(value)}) must be one of {listed}.")
    return value


_INDEX_DTYPES = (np.int32, np.int64)


def _index_array(name, what, a, fmt):
    """An integer index array of a sparse matrix as a 1-D int32/int64 ndarray, or one RpcheckError."""
    a = np.asarray(a)
    if a.ndim != 1 or a.dtype.kind not in "iu":
        raise RpcheckError(
            f"`{name}` is a malformed scipy.sparse {fmt} matrix: `{what}` must be a 1-D integer array; got "
            f"dtype {a.dtype} and shape {a.shape}."
        )
    if a.dtype not in _INDEX_DTYPES:
        if a.size and (a.max() > np.iinfo(np.int64).max):
            raise RpcheckError(
                f"`{name}` is a malformed scipy.sparse {fmt} matrix: `{what}` has entries beyond int64."
            )
        a = a.astype(np.int64)
    return a


def _check_compressed(name, X, fmt, n_major, n_minor):
    """Structure of a CSR/CSC (or block-BSR) matrix: indptr of length n_major + 1 starting at 0,
    non-decreasing, ending at most at len(indices); every index in [0, n_minor). Returns (indptr, indices)."""
    indptr = _index_array(name, "indptr", X.indptr, fmt)
    indices = _index_array(name, "indices", X.indices, fmt)
    if indptr.size != n_major + 1:
        raise RpcheckError(
            f"`{name}` is a malformed scipy.sparse {fmt} matrix: `indptr` has length {indptr.size} but the "
            f"shape {X.shape} needs {n_major + 1}."
        )
    if indptr[0] != 0 or (n_major and np.any(np.diff(indptr) < 0)):
        raise RpcheckError(
            f"`{name}` is a malformed scipy.sparse {fmt} matrix: `indptr` must start at 0 and be "
            "non-decreasing."
        )
    nnz = int(indptr[-1])
    if nnz > indices.size:
        raise RpcheckError(
            f"`{name}` is a malformed scipy.sparse {fmt} matrix: `indptr` ends at {nnz} but there are only "
            f"{indices.size} stored indices."
        )
    used = indices[:nnz]
    if used.size and (used.min() < 0 or used.max() >= n_minor):
        bad = int(used[(used < 0) | (used >= n_minor)][0])
        raise RpcheckError(
            f"`{name}` is a malformed scipy.sparse {fmt} matrix: stored index {bad} is outside the valid "
            f"range [0, {n_minor}) for shape {X.shape}."
        )
    return indptr, indices


def check_sparse_matrix(name, X, *, dtype=(np.float64, np.float32), formats=("csr", "csc")):
    """Validate the structure and values of a scipy.sparse matrix; return it in one of ``formats``.

    The index arrays of a scipy.sparse object are plain, mutable ndarrays, so a matrix can hold column
    indices beyond its width or an ``indptr`` that does not match its shape; compiled code (scipy's own
    format conversions and rpcheck's numba kernels) would then read or write out of bounds. This checks,
    once, everything a kernel relies on:

    - 2-dimensional with a non-negative integer shape;
    - CSR/CSC/BSR: ``indptr`` of length (rows or columns) + 1, starting at 0, non-decreasing, ending at
      most at ``len(indices)``; every stored index in range; ``data`` at least as long as the stored entries;
    - COO: ``row``/``col`` of equal length, in range (checked before conversion);
    - DIA: 2-D ``data`` with one integer offset per stored diagonal; LIL and DOK are converted to CSR first
      (their entries are Python objects, validated after conversion);
    - values real (complex is refused, as for dense input; integer and boolean become float64) and finite.

    Input in another format is converted to CSR after its own structure was checked. ``spmatrix`` stays
    ``spmatrix`` and ``sparray`` stays ``sparray``. Raises one :class:`RpcheckError` naming ``name``.
    """
    fmt = getattr(X, "format", "?")
    shape = getattr(X, "shape", None)
    if (
        not isinstance(shape, tuple)
        or len(shape) != 2
        or not all(isinstance(s, (numbers.Integral, np.integer)) and s >= 0 for s in shape)
    ):
        raise RpcheckError(
            f"`{name}` must be a 2-dimensional scipy.sparse matrix with a non-negative integer shape; "
            f"got shape {shape} (format {fmt})."
        )
    n, m = int(shape[0]), int(shape[1])
    kind = np.dtype(X.dtype).kind
    if kind == "c":
        raise RpcheckError(f"`{name}` must hold real numbers; got a scipy.sparse matrix of dtype {X.dtype}.")
    if kind not in "biuf":
        raise RpcheckError(f"`{name}` must hold real numbers; got a scipy.sparse matrix of dtype {X.dtype}.")
    if fmt in ("lil", "dok"):
        X = X.tocsr()
        fmt = "csr"
    if fmt in ("csr", "csc"):
        major, minor = (n, m) if fmt == "csr" else (m, n)
        indptr, indices = _check_compressed(name, X, fmt, major, minor)
        data = np.asarray(X.data)
        if data.ndim != 1 or data.size < indptr[-1] or data.size != indices.size:
            raise RpcheckError(
                f"`{name}` is a malformed scipy.sparse {fmt} matrix: `data` has shape {data.shape} but "
                f"`indices` has {indices.size} entries and `indptr` ends at {int(indptr[-1])}."
            )
        if indptr.dtype != indices.dtype:  # one index dtype, as every kernel specialisation expects
            indptr, indices = indptr.astype(np.int64), indices.astype(np.int64)
        if indptr is not X.indptr or indices is not X.indices:
            X = type(X)((data, indices, indptr), shape=(n, m), copy=False)
    elif fmt == "coo":
        coords = getattr(X, "coords", None) or (X.row, X.col)
        row = _index_array(name, "row", coords[0], fmt)
        col = _index_array(name, "col", coords[1], fmt)
        data = np.asarray(X.data)
        if not (row.size == col.size == data.size) or data.ndim != 1:
            raise RpcheckError(
                f"`{name}` is a malformed scipy.sparse coo matrix: `row`, `col` and `data` must have the same "
                f"length; got {row.size}, {col.size}, {data.size}."
            )
        for what, idx, lim in (("row", row, n), ("col", col, m)):
            if idx.size and (idx.min() < 0 or idx.max() >= lim):
                bad = int(idx[(idx < 0) | (idx >= lim)][0])
                raise RpcheckError(
                    f"`{name}` is a malformed scipy.sparse coo matrix: `{what}` index {bad} is outside the "
                    f"valid range [0, {lim}) for shape {X.shape}."
                )
        X = X.tocsr()
    elif fmt == "bsr":
        R, C = X.blocksize
        data = np.asarray(X.data)
        if R < 1 or C < 1 or n % R or m % C or data.ndim != 3 or data.shape[1:] != (R, C):
            raise RpcheckError(
                f"`{name}` is a malformed scipy.sparse bsr matrix: blocksize {X.blocksize}, data of shape "
                f"{data.shape} and shape {X.shape} are inconsistent."
            )
        indptr, indices = _check_compressed(name, X, fmt, n // R, m // C)
        if data.shape[0] < indptr[-1]:
            raise RpcheckError(
                f"`{name}` is a malformed scipy.sparse bsr matrix: {data.shape[0]} stored blocks but `indptr` "
                f"ends at {int(indptr[-1])}."
            )
        X = X.tocsr()
    elif fmt == "dia":
        data = np.asarray(X.data)
        offsets = _index_array(name, "offsets", X.offsets, fmt)
        if data.ndim != 2 or data.shape[0] != offsets.size or np.unique(offsets).size != offsets.size:
            raise RpcheckError(
                f"`{name}` is a malformed scipy.sparse dia matrix: `data` of shape {data.shape} needs one "
                f"distinct offset per row; got {offsets.size} offsets."
            )
        X = X.tocsr()
    else:
        raise RpcheckError(
            f"`{name}` is a scipy.sparse matrix in format {fmt!r}; allowed formats: 'csr', 'csc', 'coo', "
            "'bsr', 'dia', 'lil', 'dok'."
        )
    if X.dtype not in dtype:
        X = X.astype(np.float64)
    data = X.data  # X is CSR, CSC, COO or BSR here: data is a numeric ndarray
    if data.size and not np.all(np.isfinite(data)):
        raise RpcheckError(f"`{name}` contains NaN or infinite entries; all entries must be finite.")
    if X.format not in formats:
        X = X.asformat(formats[0])
    return X


def _meminfo_bytes():
    """MemAvailable + SwapFree from /proc/meminfo, or None where that file does not exist."""
    try:
        with open("/proc/meminfo") as f:
            info = {line.split(":")[0]: int(line.split()[1]) * 1024 for line in f if line.strip()}
    except (OSError, ValueError, IndexError):
        return None
    if "MemAvailable" not in info:
        return None
    return info["MemAvailable"] + info.get("SwapFree", 0)


def available_memory():
    """Bytes this process can still expect to allocate: ``MemAvailable + SwapFree`` (Linux), else the
    physical memory, capped by ``RLIMIT_AS`` when one is set and by the environment variable
    ``RPCHECK_MAX_MEMORY`` (bytes) when set (tests use it for machine-independent limits). Read at every
    call."""
    avail = _meminfo_bytes()
    if avail is None:
        try:
            avail = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
            avail = 2**63
    return int(min(avail, _stated_caps(strict=True)))


#: Requests up to this size skip the /proc/meminfo read in :func:`check_memory` (the read costs about
#: 0.17 ms; measured: 25% of ``shi2012.thm5``'s trial time went to it for sketches of a few kB). A machine
#: with less than 16 MiB available cannot run a trial at all, so the check could not refuse such a request
#: usefully; the stated caps (``RLIMIT_AS``, ``RPCHECK_MAX_MEMORY``) are still honoured for every size.
SMALL_REQUEST = 16 * 2**20


def _stated_caps(strict=False):
    """``min(RLIMIT_AS, RPCHECK_MAX_MEMORY)`` without reading /proc (cheap); infinity when neither is set.

    An unreadable ``RPCHECK_MAX_MEMORY`` raises with ``strict`` (:func:`available_memory`), else gives -1
    (the caller then asks :func:`available_memory`, which raises the message)."""
    avail = math.inf
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            avail = soft
    except (ImportError, ValueError, OSError):  # pragma: no cover - non-POSIX
        pass
    cap = os.environ.get("RPCHECK_MAX_MEMORY", "")
    if cap.strip():
        try:
            avail = min(avail, int(float(cap)))
        except ValueError:
            if not strict:
                return -1
            raise RpcheckError(
                f"the environment variable `RPCHECK_MAX_MEMORY` ({cap!r}) must be a number of bytes."
            ) from None
    return avail


def _gib(nbytes):
    return f"{nbytes / 2**30:.3g} GiB"


def check_memory(nbytes, what, **args):
    """Refuse, before allocating, a request of ``nbytes`` that exceeds :func:`available_memory`.

    ``what`` says what would be allocated; ``args`` are the arguments that determine the size, named in
    the message, e.g. ``check_memory(8 * d * r, "a dense (d, r) float64 matrix", d=d, r=r)``.

    >>> check_memory(2**70, "a (d, r) float64 matrix", d=2**40, r=2**27)  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    rpcheck.errors.MemoryLimitError: `d` (1099511627776) and `r` (134217728) need a (d, r) float64 matrix of
    1.1e+12 GiB, more than the ... available; reduce `d` or `r`.
    """
    nbytes = int(nbytes)
    if nbytes <= SMALL_REQUEST and nbytes <= _stated_caps():
        return  # see SMALL_REQUEST
    avail = available_memory()
    if nbytes <= avail:
        return
    names = list(args)
    shown = " and ".join(f"`{k}` ({v})" for k, v in args.items())
    verb = "needs" if len(names) == 1 else "need"
    reduce = " or ".join(f"`{k}`" for k in names)
    raise MemoryLimitError(
        f"{shown} {verb} {what} of {_gib(nbytes)}, more than the {_gib(avail)} of memory available; "
        f"reduce {reduce}."
    )


def check_matrix(name, X, *, allow_sparse=True, dtype=(np.float64, np.float32), ndim=2, copy=False):
    """Validate a data matrix: ``ndim``-dimensional, real, finite, dense ndarray or scipy.sparse.

    Integer and boolean input is converted to float64; float32 and float64 are kept. Sparse input is
    returned in its own format, its structure and entries checked by :func:`check_sparse_matrix`. Raises one
    RpcheckError naming ``name``.
    """
    import scipy.sparse as sp  # lazy: keeps `import rpcheck.engine` (rpcheck list/show) free of scipy

    if sp.issparse(X):
        if not allow_sparse:
            raise RpcheckError(f"`{name}` must be a dense array; got a scipy.sparse {X.format} matrix.")
        if X.ndim != 2:
            raise RpcheckError(f"`{name}` must be 2-dimensional; got ndim={X.ndim}.")
        Y = check_sparse_matrix(name, X, dtype=dtype, formats=(X.format,))  # structure, dtype, finiteness
        if copy and Y is X:
            Y = X.copy()
        return Y
    try:
        A = np.asarray(X)
    except Exception as exc:  # ragged lists etc.
        raise RpcheckError(f"`{name}` must be a {ndim}-dimensional real array; could not convert: {exc}") from None
    if A.dtype.kind not in "biuf":
        raise RpcheckError(f"`{name}` must hold real numbers; got dtype {A.dtype}.")
    if A.ndim != ndim:
        raise RpcheckError(f"`{name}` must be {ndim}-dimensional; got an array of shape {A.shape} (ndim={A.ndim}).")
    if A.dtype not in dtype:
        A = A.astype(np.float64)
    elif copy:
        A = A.copy()
    if not np.all(np.isfinite(A)):
        bad = np.argwhere(~np.isfinite(A))[0]
        raise RpcheckError(
            f"`{name}` contains NaN or infinite entries (first at index {tuple(int(i) for i in bad)}); "
            "all entries must be finite."
        )
    return A


def check_vector(name, y, n=None):
    """``np.asarray(y)`` when it is 1-dimensional and, unless ``n`` is None, of length ``n`` (one entry per row
    of an ``X`` with ``n`` rows); the dtype is the caller's to check."""
    yy = np.asarray(y)
    if yy.ndim != 1:
        raise RpcheckError(f"`{name}` must be 1-dimensional; got shape {yy.shape}.")
    if n is not None and yy.shape[0] != n:
        raise RpcheckError(f"`{name}` has length {yy.shape[0]} but X has {n} rows; they must match.")
    return yy


def check_labels(name, y, *, n=None):
    """Validate binary labels in {-1, +1} with both classes present; returns a float64 vector."""
    yy = check_vector(name, y, n)
    if yy.dtype.kind not in "biuf" or not np.all(np.isin(yy, (-1, 1))):
        vals = np.unique(yy)[:5]
        raise RpcheckError(f"`{name}` must contain only the labels -1 and +1; found values {vals.tolist()}.")
    if np.all(yy == yy[0]):
        raise RpcheckError(f"`{name}` must contain both classes -1 and +1; got only {int(yy[0])}.")
    return yy.astype(np.float64)


def check_consistent_length(**arrays):
    """Check that the first dimensions agree: ``check_consistent_length(X=X, y=y)``."""
    lengths = {k: (v.shape[0] if hasattr(v, "shape") else len(v)) for k, v in arrays.items()}
    if len(set(lengths.values())) > 1:
        desc = ", ".join(f"`{k}` has {v}" for k, v in lengths.items())
        raise RpcheckError(f"inconsistent numbers of rows: {desc}; they must match.")

r"""Fast Walsh-Hadamard transform (FWHT) along the last axis.

The compiled numba kernel (:mod:`rpcheck.sketches._kernels`) is used when numba imports; otherwise, or when
the environment variable ``RPCHECK_DISABLE_NUMBA=1`` is set (read at every call, so tests can exercise both
paths), a pure-numpy implementation with one vectorised sweep per butterfly level is used. Both compute the
same transform in the Sylvester (natural) ordering of :func:`scipy.linalg.hadamard`.

Threads: the compiled kernels run single-threaded unless ``RPCHECK_PARALLEL=1`` (read at every call), which
lets large inputs (>= 2^16 entries) use the ``prange`` drivers. Serial is the default because rpcheck's
engine already runs one trial per core in worker processes, where kernel threads only oversubscribe the
cores; on a shared 2-core machine the parallel drivers are no faster than the serial ones. Both drivers give
bitwise identical results.
"""

import contextlib
import os
import tempfile
import threading

import numpy as np

from .._validation import check_choice
from ..errors import RpcheckError

#: The compiled kernels module, imported on first need (:func:`_load_kernels`; importing numba costs ~0.5 s,
#: which ``rpcheck list``/``show`` must not pay); None until then, and when numba is not installed.
_kernels = None
_KERNELS_TRIED = False


def _load_kernels():
    """Import :mod:`rpcheck.sketches._kernels` once; return it, or None without numba."""
    global _kernels, _KERNELS_TRIED
    if not _KERNELS_TRIED:
        _KERNELS_TRIED = True
        try:  # numba is a declared dependency, but the library must still work without it
            from . import _kernels as k
        except ImportError:  # pragma: no cover - exercised only on installs without numba
            k = None
        _kernels = k
    return _kernels

__all__ = ["fwht", "next_pow2", "numba_enabled", "parallel_slot", "warmup_kernels"]

_PARALLEL_LOCK = threading.Lock()
_FORKED_CHILD = False


def _after_fork_in_child():
    global _FORKED_CHILD, _PARALLEL_LOCK
    _FORKED_CHILD = True
    _PARALLEL_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


@contextlib.contextmanager
def parallel_slot(n_entries):
    """Context manager yielding True when the caller may launch a parallel (``prange``) numba kernel.

    False unless ``RPCHECK_PARALLEL=1``, for arrays below ``PARALLEL_MIN_ENTRIES``, in a process created by
    ``fork()`` (GNU OpenMP aborts
    a forked child that starts a parallel region once the parent has used one; the engine uses ``spawn``,
    but user code may fork), and while another thread holds the slot (numba's ``workqueue`` layer is not
    thread-safe; two threads would oversubscribe the cores anyway). Callers then use the serial kernels,
    which compute the same result.
    """
    if (
        os.environ.get("RPCHECK_PARALLEL", "0") not in ("1", "true", "yes")
        or _FORKED_CHILD
        or _load_kernels() is None
        or n_entries < _kernels.PARALLEL_MIN_ENTRIES
        or not _PARALLEL_LOCK.acquire(blocking=False)
    ):
        yield False
        return
    try:
        yield True
    finally:
        _PARALLEL_LOCK.release()


def numba_enabled():
    """True when the compiled kernels are available and not disabled by ``RPCHECK_DISABLE_NUMBA=1``."""
    return os.environ.get("RPCHECK_DISABLE_NUMBA", "0") in ("", "0") and _load_kernels() is not None


def next_pow2(d):
    """Smallest power of two ``>= d`` (``d >= 1``).

    >>> next_pow2(1), next_pow2(5), next_pow2(1024), next_pow2(1025)
    (1, 8, 1024, 2048)
    """
    return 1 << (int(d) - 1).bit_length()


def _fwht_numpy_inplace(X, scale):
    """Pure-numpy in-place FWHT of each row of the C-contiguous 2-D array ``X`` (radix-2 sweeps)."""
    n, d = X.shape
    h = 1
    while h < d:
        V = X.reshape(n, d // (2 * h), 2, h)
        a = V[:, :, 0, :]
        b = V[:, :, 1, :]
        t = a - b
        a += b
        b[...] = t
        h *= 2
    if scale != 1.0:
        X *= scale


def rotate_inplace(X, scale):
    """Unchecked in-place ``scale * FWHT`` of each row of the C-contiguous 2-D ``X`` (for the sketches,
    whose input is already validated: overflow gives inf, which ``Sketch.apply`` detects and handles)."""
    _transform_inplace(X, scale, numba_enabled())


def _transform_inplace(X, scale, use_numba):
    if X.shape[0] == 0 or X.shape[1] == 1:
        if scale != 1.0:
            X *= scale
        return
    if use_numba:
        with parallel_slot(X.size) as par:
            (_kernels.fwht_rows_inplace if par else _kernels.fwht_rows_inplace_serial)(X, scale)
    else:
        _fwht_numpy_inplace(X, scale)


def fwht(x, *, normalized=True, inplace=False):
    r"""Fast Walsh-Hadamard transform of each row: ``x @ H`` along the last axis.

    Parameters
    ----------
    x : array_like of shape (n, d) or (d,)
        Real input; ``d`` must be a power of two. float32 and float64 are kept (no up-cast); integer and
        boolean input is converted to float64 (not allowed with ``inplace=True``).
    normalized : bool, default=True
        If True, multiply by :math:`1/\sqrt{d}`, so the transform is the orthogonal, symmetric matrix
        :math:`H = H_d/\sqrt{d}`; otherwise apply the :math:`\pm 1` Sylvester matrix :math:`H_d` itself.
    inplace : bool, default=False
        If True, overwrite ``x`` (which must then be a writeable float32/float64 ndarray) and return it.

    Returns
    -------
    ndarray of the shape and float dtype of ``x``
        ``x @ H_d`` (times :math:`1/\sqrt{d}` if normalised). Since :math:`H_d` is symmetric this is also
        ``(H_d @ x.T).T``.

    Raises
    ------
    RpcheckError
        If ``d`` is not a power of two, ``x`` is not 1- or 2-dimensional or not real, or ``inplace=True`` on
        something that cannot be overwritten; if ``x`` holds NaN or inf, or its transform exceeds the float
        range.

    Notes
    -----
    Sylvester's construction :math:`H_1 = [1]`, :math:`H_{2m} = [[H_m, H_m], [H_m, -H_m]]` (Paul et al.
    2014, Sec. 2.1; Lei & Lan 2020, Sec. 1.2) factors into :math:`\log_2 d` sparse butterfly levels, so the
    cost is :math:`O(n d \log d)` operations instead of :math:`O(n d^2)`. The compiled path does three levels
    in its first sweep over each row and two per later sweep, with unit-stride inner loops (and, with
    ``RPCHECK_PARALLEL=1``, parallelises over rows). NaN or infinite entries raise
    :class:`~rpcheck.errors.RpcheckError`. Rows whose entries could overflow in a butterfly sum
    (:math:`\max|x| > \mathrm{max\_float}/d`) are transformed as :math:`x / 2^e` (exact) and scaled back;
    only a result beyond the float range is refused (with ``inplace=True`` the contents of ``x`` are then
    unspecified).

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.linalg import hadamard
    >>> x = np.arange(8.0)
    >>> np.allclose(fwht(x, normalized=False), hadamard(8) @ x)
    True
    """
    if inplace:
        if not isinstance(x, np.ndarray) or x.dtype not in (np.float32, np.float64):
            raise RpcheckError(
                "`x` must be a float32 or float64 numpy array for `inplace=True`; "
                f"got {type(x).__name__} with dtype {getattr(x, 'dtype', None)}."
            )
        if not x.flags.writeable:
            raise RpcheckError("`x` is read-only; `inplace=True` needs a writeable array.")
        A = x
    else:
        A = np.asarray(x)
        if A.dtype.kind not in "biuf":
            raise RpcheckError(f"`x` must hold real numbers; got dtype {A.dtype}.")
        if A.dtype not in (np.float32, np.float64):
            A = A.astype(np.float64)
    if A.ndim not in (1, 2):
        raise RpcheckError(
            f"`x` must be 1- or 2-dimensional; got an array of shape {A.shape} (ndim={A.ndim})."
        )
    d = A.shape[-1]
    if d < 1 or d & (d - 1):
        raise RpcheckError(
            f"the last dimension of `x` ({d}) must be a power of two (1, 2, 4, ...); pad with zero columns "
            f"to {next_pow2(max(d, 1))} first."
        )
    scale = 1.0 / np.sqrt(d) if normalized else 1.0
    # every butterfly sum is bounded by d max|x|: below this bound no overflow is possible
    big = float(np.finfo(A.dtype).max) / d
    use_numba = numba_enabled() and A.size > 0 and d > 1
    if not inplace and use_numba and A.ndim == 2:
        out = np.empty(A.shape, dtype=A.dtype)
        status = np.zeros(A.shape[0], dtype=np.int8)
        with parallel_slot(A.size) as par:
            (_kernels.fwht_rows_copy if par else _kernels.fwht_rows_copy_serial)(A, out, scale, big, status)
        _raise_on_status(status, A)
        return out
    if inplace and A.flags.c_contiguous:
        work = A.reshape(-1, d)
    else:
        work = np.array(A, dtype=A.dtype, order="C", copy=True).reshape(-1, d)
    if use_numba:
        status = np.zeros(work.shape[0], dtype=np.int8)
        with parallel_slot(work.size) as par:
            (_kernels.fwht_rows_guarded if par else _kernels.fwht_rows_guarded_serial)(work, scale, big, status)
        _raise_on_status(status, A)
    else:
        _fwht_numpy_guarded(work, scale, big, A)
    if inplace and not A.flags.c_contiguous:
        A[...] = work.reshape(A.shape)  # non-contiguous view: transform a copy and write it back
    return A if inplace else work.reshape(A.shape)


def _nonfinite_error(A):
    bad = np.argwhere(~np.isfinite(A))[0]
    return RpcheckError(
        f"`x` contains NaN or infinite entries (first at index {tuple(int(i) for i in bad)}); all entries must "
        "be finite."
    )


def _overflow_error(A):
    m = float(np.max(np.abs(A)))
    size = f"has entries up to {m:.3g}" if np.isfinite(m) else "is so large that"
    return RpcheckError(
        f"`x` {size}: its Walsh-Hadamard transform exceeds the {A.dtype.name} range (largest "
        f"finite value {np.finfo(A.dtype).max:.3g}); rescale `x`."
    )


def _raise_on_status(status, A):
    """Raise for the row codes of the guarded kernels (1: NaN/inf input, 2: overflow of the result)."""
    worst = int(status.max()) if status.size else 0
    if worst == 1 or (worst and 1 in status):
        raise _nonfinite_error(A)
    if worst == 2:
        raise _overflow_error(A)


def _fwht_numpy_guarded(work, scale, big, A):
    """The numpy fallback with the checks of the compiled ``_guarded_row``, for the whole array at once."""
    if not np.all(np.isfinite(work)):
        raise _nonfinite_error(A)
    m = float(np.max(np.abs(work))) if work.size else 0.0
    if m <= big:
        _transform_inplace(work, scale, False)
        return
    e = int(np.frexp(m)[1])
    np.ldexp(work, -e, out=work)  # exact
    _transform_inplace(work, scale, False)
    with np.errstate(over="ignore"):
        np.ldexp(work, e, out=work)
    if not np.all(np.isfinite(work)):
        raise _overflow_error(A)


def warmup_kernels(*, parallel=None, dtypes=("float64", "float32"), sparse=True):
    """Compile (or load from numba's on-disk cache) every compiled kernel for the float ``dtypes`` now.

    Call once per process before timing anything: the first call of each kernel otherwise pays the JIT
    (seconds) or the cache load (tens of milliseconds). Small inputs never reach the fused kernels, so
    warming through tiny sketches is not enough. ``parallel`` (default: ``RPCHECK_PARALLEL``) also warms the
    ``prange`` drivers. ``dtypes`` (a non-empty subset of ``("float64", "float32")``, default both) names the
    data types to warm: a caller whose inputs are all float64 passes ``("float64",)`` and halves the cost
    of the first call after an install (the JIT of the 13 serial float64 specialisations took 6.6 s of
    CPU on the 2-core development machine, the float32 ones as much again). ``sparse`` (bool, default True)
    also warms the kernels for CSR input, for both index dtypes (int32 and int64): a caller whose inputs are
    all dense passes ``False`` and skips 6 of the 13 specialisations a dtype has (2.0 of their 6.5 CPU s with
    a cold cache on that machine). Processes warming up at the same time (a run's workers) compile each
    specialisation once between them and load the others' from numba's on-disk cache (measured there: two
    processes warming the 7 dense float64 specialisations with an empty cache took 3.4 s each, one alone
    5.0 s). Returns the number of kernel specialisations touched (0 without numba).
    """
    names = []
    for dt in dtypes if isinstance(dtypes, (tuple, list)) else (dtypes,):
        try:
            name = np.dtype(dt).name
        except TypeError:  # not a dtype at all: the message shows the value as given
            name = dt
        names.append(check_choice("dtypes", name, ("float64", "float32")))
    if not names:
        raise RpcheckError("`dtypes` (()) must be a non-empty subset of 'float64', 'float32'.")
    if not isinstance(sparse, (bool, np.bool_)):
        raise RpcheckError(f"`sparse` ({sparse!r}) must be True or False.")
    if not numba_enabled():
        return 0
    if parallel is None:
        parallel = os.environ.get("RPCHECK_PARALLEL", "0") in ("1", "true", "yes")
    k = _kernels
    calls = []  # (name, thunk): one kernel specialisation each
    for dtype in dict.fromkeys(np.dtype(n).type for n in names):
        dt = np.dtype(dtype).name
        X = np.zeros((2, 4), dtype=dtype)
        out = np.empty_like(X)
        cols = np.zeros(2, dtype=np.int64)
        cols2 = np.zeros((4, 1), dtype=np.int64)
        vals2 = np.ones((4, 1), dtype=dtype)
        o2 = np.empty((2, 2), dtype=dtype)
        signs = np.ones(4, dtype=dtype)
        status = np.zeros(2, dtype=np.int8)
        drivers = [("serial", (k.fwht_rows_inplace_serial, k.fwht_rows_copy_serial, k.fwht_rows_guarded_serial,
                               k.srht_rows_serial, k.sparse_embed_dense_serial))]
        if parallel:
            drivers.append(("prange", (k.fwht_rows_inplace, k.fwht_rows_copy, k.fwht_rows_guarded, k.srht_rows,
                                       k.sparse_embed_dense)))
        for how, (inplace, copy, guarded, srht, embed) in drivers:
            calls += [
                (f"fwht-inplace-{how}-{dt}", lambda f=inplace, X=X: f(X, 1.0)),
                (f"fwht-copy-{how}-{dt}", lambda f=copy, X=X, out=out, st=status: f(X, out, 1.0, 1.0, st)),
                # strided input layout
                (f"fwht-copy-strided-{how}-{dt}",
                 lambda f=copy, X=X, st=status: f(X[:, ::2], np.empty((2, 2), dtype=X.dtype), 1.0, 1.0, st)),
                (f"fwht-guarded-{how}-{dt}", lambda f=guarded, X=X, st=status: f(X, 1.0, 1.0, st)),
                (f"srht-{how}-{dt}", lambda f=srht, X=X, s=signs, c=cols, o=o2: f(X, s, 4, c, 1.0, o)),
                (f"embed-dense-{how}-{dt}", lambda f=embed, X=X, c=cols2, v=vals2, o=o2: f(X, c, v, o)),
            ]

        def isrht_dense(X=X, signs=signs, dtype=dtype):
            sums = (np.zeros(4), np.zeros(4), np.zeros((2, 4)), np.zeros(4))
            for sup in (False, True):  # one specialisation: `supervised` is a runtime flag
                k.isrht_sums_dense(X, signs, 1.0, sup, np.ones(2), np.zeros(2, dtype=np.int64), *sums,
                                   np.empty(4, dtype=dtype))

        calls.append((f"isrht-dense-{dt}", isrht_dense))
        one = np.zeros(1)
        for itype in (np.int32, np.int64) if sparse else ():
            it = np.dtype(itype).name
            calls += [
                (f"isrht-csr-{it}-{dt}", lambda itype=itype, dtype=dtype, s=signs, one=one: k.isrht_sums_csr(
                    np.zeros(3, dtype=itype), np.zeros(0, dtype=itype), np.zeros(0, dtype=dtype), s, 1.0, False,
                    one, np.zeros(1, dtype=np.int64), one, one, one[None], one, np.empty(4, dtype=dtype))),
                (f"srht-csr-{it}-{dt}", lambda itype=itype, dtype=dtype, s=signs, c=cols, o=o2: k.srht_csr_direct(
                    np.zeros(3, dtype=itype), np.zeros(0, dtype=itype), np.zeros(0, dtype=dtype), s, c, 1.0, o)),
                (f"embed-csr-{it}-{dt}", lambda itype=itype, dtype=dtype: k.sparse_embed_csr(
                    np.zeros(3, dtype=itype), np.zeros(0, dtype=itype), np.zeros(0, dtype=dtype),
                    np.zeros((4, 1), dtype=np.int32), dtype(1.0), 2, np.zeros(3, dtype=np.int32),
                    np.zeros(0, dtype=np.int32), np.zeros(0, dtype=dtype))),
            ]
    _once_across_processes(calls)
    return len(calls)


def _lock_dir():
    return os.path.join(tempfile.gettempdir(), "rpcheck-jit-locks")


def _once_across_processes(calls):
    """Run every ``(name, thunk)`` of ``calls`` once in this process, so that processes warming up at the same
    time split the JIT between them instead of each compiling everything.

    The workers of one run start together with an empty numba cache after an install; without coordination
    each would compile all the kernels it warms (the quick profile's first run: the same 4.5 CPU s of
    specialisations in both workers of 2).
    Here each call holds an exclusive lock (``fcntl.flock`` on a file named after the
    call, this kernels module's path and the numba cache location) while it runs. A process finding a call's
    lock taken goes on with the next call and comes back to it at the end, blocking, once the other process
    has compiled it and written it to numba's on-disk cache, from which the call then loads it. Every call
    still runs in every process (a dispatcher loads or compiles a specialisation on its first call in a
    process), and the results do not depend on who compiled. Without ``fcntl`` (Windows) or a usable lock
    directory, the calls just run one after the other."""
    try:
        import fcntl
        import hashlib

        d = _lock_dir()
        os.makedirs(d, exist_ok=True)
    except (ImportError, OSError):
        for _, f in calls:
            f()
        return
    # one lock per kernels module and numba cache location: processes sharing neither share nothing to wait for
    where = os.path.abspath(_kernels.__file__) + "\0" + os.environ.get("NUMBA_CACHE_DIR", "")
    tag = hashlib.sha1(where.encode()).hexdigest()[:12]

    def locked(name, f, block):
        try:
            fd = os.open(os.path.join(d, f"{tag}-{name}.lock"), os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:  # not ours to open (another user's directory): run unlocked
            f()
            return True
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if block else fcntl.LOCK_NB))
            except BlockingIOError:
                return False
            try:
                f()
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
            return True
        finally:
            os.close(fd)

    later = [(name, f) for name, f in calls if not locked(name, f, block=False)]
    for name, f in later:
        locked(name, f, block=True)

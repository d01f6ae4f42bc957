"""One-thread BLAS/OpenMP limits for small dense linear algebra (one cached threadpoolctl controller).

Trials and IPM iterations are small products; a multi-threaded BLAS gains nothing there and, under the
engine's worker processes on a shared machine, oversubscribes the cores (measured on 2 cores: 10 ms per
zhang2013.thm2 trial single-threaded vs 25-1300 ms with the default pools; a 20x slowdown of shi2012.thm9;
an IPM solve of 0.1 s taking 4-7 s). Results do not change beyond the last bits (only the blocking across
threads differs). The controller's library discovery costs ~15 ms, so it is created once per process and
rebuilt only when modules have been imported since (a new extension module can load a new BLAS/OpenMP runtime,
e.g. scikit-learn's or numba's OpenMP, which the old controller would not see and so would leave unlimited).
"""

import functools
import sys

__all__ = ["single_thread_blas", "single_threaded"]

_CONTROLLER = None
_N_MODULES = 0  # len(sys.modules) when the controller was built


_SELECTED = {}


class _OneThread:
    """``threadpoolctl``'s ``limit(limits=1, user_api=...)`` on the cached controller's libraries, without
    its per-call ``info()`` (a dict per library, ~12 us per trial, measured; a sizeable part of the sub-
    millisecond trials): each selected pool not already at one thread is set to one on entry and restored on
    exit. The thread counts in force inside are the same."""

    __slots__ = ("libs", "changed")

    def __init__(self, libs):
        self.libs = libs
        self.changed = ()

    def __enter__(self):
        changed = []
        for lib in self.libs:
            n = lib.num_threads
            if n != 1:
                lib.set_num_threads(1)
                changed.append((lib, n))
        self.changed = changed
        return self

    def __exit__(self, *exc):
        for lib, n in reversed(self.changed):
            lib.set_num_threads(n)
        self.changed = ()
        return False


def single_thread_blas(*, user_api="blas"):
    """Context manager limiting ``user_api`` ("blas", "openmp", or None for both) to one thread."""
    global _CONTROLLER, _N_MODULES
    if _CONTROLLER is None or len(sys.modules) != _N_MODULES:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
        _N_MODULES = len(sys.modules)
        _SELECTED.clear()
    libs = _SELECTED.get(user_api)
    if libs is None:
        apis = ("blas", "openmp") if user_api is None else (user_api,)
        libs = _SELECTED[user_api] = tuple(lib for lib in _CONTROLLER.lib_controllers if lib.user_api in apis)
    return _OneThread(libs)


def single_threaded(fn=None, *, user_api=None):
    """Decorator: run a trial ``fn(params, rng)`` with ``user_api`` ("blas", "openmp", or None for both,
    the default) limited to one thread. ``@single_threaded`` or ``@single_threaded(user_api="blas")``."""
    if fn is None:
        return functools.partial(single_threaded, user_api=user_api)

    @functools.wraps(fn)
    def wrapper(params, rng):
        with single_thread_blas(user_api=user_api):
            return fn(params, rng)

    return wrapper

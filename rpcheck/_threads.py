"""One-thread BLAS/OpenMP limits for small dense linear algebra (one cached threadpoolctl controller).

Trials and IPM iterations are small products; a multi-threaded BLAS gains nothing there and, under the
engine's worker processes on a shared machine, oversubscribes the cores (measured on 2 cores: 10 ms per
zhang2013.thm2 trial single-threaded vs 25-1300 ms with the default pools; a 20x slowdown of shi2012.thm9;
an IPM solve of 0.1 s taking 4-7 s). Results do not change beyond the last bits (only the blocking across
threads differs). The controller's library discovery costs ~15 ms, so it is created once per process.
"""

import functools

__all__ = ["single_thread_blas", "single_threaded"]

_CONTROLLER = None


def single_thread_blas(*, user_api="blas"):
    """Context manager limiting ``user_api`` ("blas", "openmp", or None for both) to one thread."""
    global _CONTROLLER
    if _CONTROLLER is None:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=1, user_api=user_api)


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

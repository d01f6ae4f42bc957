"""rpcheck._threads.single_thread_blas: the pools in force inside are at one thread, restored on exit, nested."""

import numpy as np  # noqa: F401  (loads the BLAS whose pool is limited)
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from rpcheck._threads import single_thread_blas


def _threads(api):
    return [i["num_threads"] for i in threadpool_info() if i["user_api"] == api]


@pytest.mark.parametrize("user_api", ["blas", None])
def test_single_thread_blas_limits_and_restores(user_api):
    if not _threads("blas"):
        pytest.skip("no BLAS pool detected")
    with threadpool_limits(limits=2, user_api="blas"):
        before = {a: _threads(a) for a in ("blas", "openmp")}
        with single_thread_blas(user_api=user_api):
            assert set(_threads("blas")) == {1}
            if user_api is None and _threads("openmp"):
                assert set(_threads("openmp")) == {1}
            with single_thread_blas(user_api=user_api):
                assert set(_threads("blas")) == {1}
            assert set(_threads("blas")) == {1}
        assert {a: _threads(a) for a in ("blas", "openmp")} == before

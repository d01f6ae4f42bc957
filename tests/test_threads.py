"""rpcheck._threads.single_thread_blas: the pools in force inside are at one thread, restored on exit, nested."""

import os
import subprocess
import sys

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


def test_a_runtime_loaded_after_the_first_call_is_limited_too():
    """The controller is rebuilt when modules were imported since it was built: an OpenMP runtime that a later
    import brings in (scikit-learn's) is limited as well. In a fresh process, so that the import is really later."""
    code = (
        "import numpy\n"
        "from rpcheck._threads import single_thread_blas\n"
        "from threadpoolctl import threadpool_info\n"
        "with single_thread_blas(user_api=None):\n"
        "    pass\n"
        "import sklearn.svm, sklearn.ensemble\n"
        "omp = [i for i in threadpool_info() if i['user_api'] == 'openmp']\n"
        "with single_thread_blas(user_api=None):\n"
        "    inside = [i['num_threads'] for i in threadpool_info() if i['user_api'] in ('openmp', 'blas')]\n"
        "print(len(omp), sorted(set(inside)))\n"
    )
    env = dict(os.environ, OMP_NUM_THREADS="2", OPENBLAS_NUM_THREADS="2")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    n_omp, threads = out.split(" ", 1)
    if int(n_omp) == 0:
        pytest.skip("no OpenMP runtime loaded by scikit-learn here")
    assert threads.strip() == "[1]", out

"""Fixtures of the sketch tests."""

import pytest

from rpcheck.sketches import numba_enabled


@pytest.fixture(params=["numba", "numpy"])
def backend_any(request, monkeypatch):
    """Run a test on the compiled kernels and on the pure-numpy fallback (RPCHECK_DISABLE_NUMBA=1)."""
    if request.param == "numba":
        monkeypatch.delenv("RPCHECK_DISABLE_NUMBA", raising=False)
        if not numba_enabled():
            pytest.skip("numba is not importable in this environment")
    else:
        monkeypatch.setenv("RPCHECK_DISABLE_NUMBA", "1")
    return request.param

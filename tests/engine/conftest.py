"""Register the synthetic engine_test.* theorems only while the tests of this directory run."""

import _engine_claims
import pytest


@pytest.fixture(autouse=True, scope="module")
def _engine_test_theorems():
    _engine_claims.register_all()
    yield
    _engine_claims.unregister_all()

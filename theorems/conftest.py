"""Test-wide settings.

Hypothesis runs derandomized (a fixed seed derived from each test), so every property test is reproducible
and its false-alarm probability is zero for a correct implementation: a failure is a real counterexample
that hypothesis shrinks and prints.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "rpcheck-ci",
    derandomize=True,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile("rpcheck-dev", deadline=None, max_examples=200, print_blob=True)
settings.load_profile(os.environ.get("RPCHECK_HYPOTHESIS_PROFILE", "rpcheck-ci"))

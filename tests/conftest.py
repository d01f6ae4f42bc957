"""Test-wide settings: rpcheck's hypothesis profile (derandomized in CI; see
``rpcheck.testing.load_hypothesis_profile``)."""

from rpcheck.testing import load_hypothesis_profile

load_hypothesis_profile()

"""Paul et al. (2014), Sec. 4.1.4: RCV1 multi-class (Table III, Fig. 4) on a seeded stand-in.

The statement as printed, the protocol, the variants (measurements, no verdict) and the Paper vs rpcheck rules
are in the checker's module docstring (``rpcheck show paul2014.repro.rcv1_multiclass``; docs/papers/paul2014.md);
this file only runs the theorem at the session profile and asserts that nothing is unexpected."""

import pytest


@pytest.mark.theorem(id="paul2014.repro.rcv1_multiclass")
def test_rcv1_multiclass(theorem_result):
    assert theorem_result.unexpected().empty

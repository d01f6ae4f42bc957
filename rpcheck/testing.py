"""Helpers for the theorem test files ``theorems/test_*.py``.

>>> from rpcheck.testing import verify_theorem          # doctest: +SKIP
>>> def test_lemma_3_1():                                # doctest: +SKIP
...     verify_theorem("paul2014.lemma3.1")

:func:`verify_theorem` runs one theorem with the session defaults in :data:`DEFAULTS` (which the pytest
plugin fills from its ``--rpcheck-*`` options) and asserts that every (cell, variant) verdict equals the
variant's expected verdict; cells whose expected verdict is None (open questions) are only reported.
Every RunResult is appended to :data:`COLLECTED` so the plugin can summarise or report them.

The false-alarm probability of such a test is the run's: with the default family-wise ``alpha = 0.01``,
P(some true "bound"/"exact" claim is called VIOLATED) <= 0.01 and P(some false "bound" claim is called
HOLDS) <= 0.01 (Holm over the theorem's cells; see :mod:`rpcheck.engine.runner`). Deterministic
claims have no sampling error.
"""

from __future__ import annotations

__all__ = ["DEFAULTS", "COLLECTED", "verify_theorem", "assert_expected", "format_rows", "load_hypothesis_profile"]

#: Session defaults of :func:`verify_theorem` (the pytest plugin overwrites them from --rpcheck-* options).
DEFAULTS = {
    "profile": "ci",
    "seed": 0,
    "backend": "processes",
    "jobs": None,
    "alpha": 0.01,
    "trials": None,
    "overrides": None,
    "sequential": False,
    "scheduler": None,
    "out": None,
}

#: Every RunResult produced by :func:`verify_theorem` in this process, in order.
COLLECTED: list = []

_SHOWN = (
    "theorem", "variant", "cell", "params", "trials", "failures", "evaluated", "solver_errors",
    "ci_low", "ci_high", "promised", "verdict", "expected", "vacuous_reason",
)  # fmt: skip


def format_rows(df, columns=_SHOWN, *, max_rows=40):
    """Plain-text table of the rows of a cells frame (for assertion messages)."""
    cols = [c for c in columns if c in df.columns]
    lines = []
    for _, r in df.head(max_rows).iterrows():
        parts = []
        for c in cols:
            v = r[c]
            if isinstance(v, float):
                v = f"{v:.4g}"
            parts.append(f"{c}={v}")
        lines.append("  " + ", ".join(parts))
    if len(df) > max_rows:
        lines.append(f"  ... and {len(df) - max_rows} more rows")
    return "\n".join(lines)


def assert_expected(run_result):
    """Raise AssertionError listing every (cell, variant) whose verdict differs from its expected one.

    Each line shows the parameters, failures/evaluated, the confidence interval, the promised delta, the
    verdict and the expected verdict."""
    bad = run_result.unexpected()
    if len(bad):
        seed = run_result.provenance.get("seed")
        prof = run_result.provenance.get("profile")
        raise AssertionError(
            f"{len(bad)} of {len(run_result.cells)} (cell, variant) verdicts differ from the expected ones "
            f"(profile {prof!r}, root seed {seed}):\n{format_rows(bad)}"
        )
    return run_result


def verify_theorem(theorem_id, *, profile=None, **kwargs):
    """Run one theorem with :data:`DEFAULTS` (updated by ``profile`` and ``kwargs``, which are
    :func:`rpcheck.engine.run` keywords) and assert the expected verdicts.

    Returns
    -------
    RunResult
        Also appended to :data:`COLLECTED` (before the assertion, so failures are reported too).
    """
    from .engine.runner import run

    opts = dict(DEFAULTS)
    if profile is not None:
        opts["profile"] = profile
    opts.update(kwargs)
    result = run([theorem_id], **opts)
    COLLECTED.append(result)
    return assert_expected(result)


def load_hypothesis_profile():
    """Register rpcheck's hypothesis profiles and load the one named by ``RPCHECK_HYPOTHESIS_PROFILE``
    (default ``"rpcheck-ci"``). Called by the conftest files of ``tests/`` and ``theorems/``.

    ``rpcheck-ci`` runs derandomized (a fixed seed derived from each test), so every property test is
    reproducible and its false-alarm probability is zero for a correct implementation: a failure is a real
    counterexample that hypothesis shrinks and prints. ``rpcheck-dev`` explores with fresh randomness.
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

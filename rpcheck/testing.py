"""Helpers for the theorem test files ``theorems/test_*.py``.

>>> from rpcheck.testing import verify_theorem          # doctest: +SKIP
>>> def test_lemma_3_1():                                # doctest: +SKIP
...     verify_theorem("paul2014.lemma3.1")

:func:`verify_theorem` runs one theorem with the session defaults in :data:`DEFAULTS` (which the pytest
plugin fills from its ``--rpcheck-*`` options) and asserts that every (cell, variant) verdict equals the
variant's expected verdict; cells whose expected verdict is None (open questions) are only reported.
Every RunResult is appended to :data:`COLLECTED` so the plugin can summarise or report them.

Error control over a pytest run
-------------------------------
Under pytest the plugin plans one family for the whole session (:data:`FAMILY`, :func:`plan_family`): at
collection it reads the theorem ids of the selected tests' ``@pytest.mark.theorem(id=...)`` markers, takes
each id's Holm family size ``m_i`` (:func:`rpcheck.engine.family_size`, session profile and overrides) and
their sum ``M``, and :func:`verify_theorem` then runs theorem ``i`` at level ``alpha * m_i / M`` (weighted
Bonferroni over the theorem runs, Holm inside each run). Since the levels sum to ``alpha``,
P(any false VIOLATED among the statistical rows of the whole pytest run) <= alpha, and likewise for false
HOLDS. The weights only affect power: the bound holds whatever the actual family sizes, provided each
collected (test, id) runs once. A theorem test without an id on its marker (or with an id the registry does
not know, e.g. a theorem built in the test with ``theorem_check``) runs at the per-test ``alpha`` and the
plugin warns, naming the test; such runs are outside the suite-level bound. Outside pytest, or with an
explicit ``alpha=`` keyword, the run's own ``alpha`` applies: P(some true "bound"/"exact" claim is called
VIOLATED) <= alpha and P(some false claim is called HOLDS) <= alpha over that run (Holm; see
:mod:`rpcheck.stats`). Deterministic VIOLATED verdicts are concrete counterexamples.
"""

from __future__ import annotations

import os
import warnings

from .engine import registry
from .engine.runner import family_size, run
from .errors import RpcheckError, RpcheckWarning

__all__ = [
    "DEFAULTS",
    "COLLECTED",
    "FAMILY",
    "Family",
    "plan_family",
    "verify_theorem",
    "assert_expected",
    "format_rows",
    "load_hypothesis_profile",
]

#: Session defaults of :func:`verify_theorem` (the pytest plugin overwrites them from --rpcheck-* options).
DEFAULTS = {
    "profile": "ci",
    "seed": 0,
    "backend": "processes",
    "jobs": None,
    "alpha": 0.01,
    "trials": None,
    "overrides": None,
    "stop": "anytime",
    "budget": None,
    "scheduler": None,
    "out": None,
}

#: Every RunResult produced by :func:`verify_theorem` in this process, in order.
COLLECTED: list = []

#: The suite-level family planned by the pytest plugin at collection (None outside pytest).
FAMILY = None


class Family:
    """The weighted Bonferroni split of a pytest session's ``alpha`` over its theorem runs.

    Attributes
    ----------
    alpha : float
        The session's family-wise level.
    sizes : dict theorem id -> int
        Holm family size ``m_i`` of each collected id (``rpcheck.engine.family_size``).
    tests : dict theorem id -> int
        Number of collected tests marked with each id (each is one run: ``M`` counts it that often).
    outside : list of str
        Node ids of theorem tests outside the family (no id on the marker, or an unknown id).
    """

    def __init__(self, alpha, sizes, tests, outside):
        self.alpha = float(alpha)
        self.sizes = dict(sizes)
        self.tests = dict(tests)
        self.outside = list(outside)
        self.calls = {}

    @property
    def extra(self):
        """Ids of the runs beyond the collected tests marked with them (one entry per extra run)."""
        return [tid for tid, k in self.calls.items() for _ in range(max(0, k - self.tests.get(tid, 0)))]

    @property
    def rows(self):
        """``M``: the sum of the family sizes over the collected theorem runs."""
        return sum(self.sizes[k] * self.tests[k] for k in self.sizes)

    @property
    def runs(self):
        """``N``: the number of collected theorem runs in the family."""
        return sum(self.tests.values())

    def alpha_for(self, theorem_id):
        """Level of one run of ``theorem_id``: ``alpha * m_i / M`` (None when the id is not in the family or
        has no statistical row, so the run keeps the per-test alpha, which then does not matter for Holm)."""
        m = self.sizes.get(theorem_id)
        if m is None:
            return None
        self.calls[theorem_id] = self.calls.get(theorem_id, 0) + 1
        if self.calls[theorem_id] > self.tests[theorem_id]:

            warnings.warn(
                f"theorem {theorem_id!r} ran {self.calls[theorem_id]} times but only {self.tests[theorem_id]} "
                "collected test(s) are marked with it: the suite-level error bound does not cover the extra run.",
                RpcheckWarning,
                stacklevel=3,
            )
        if m == 0 or self.rows == 0:
            return None
        return self.alpha * m / self.rows

    def summary(self):
        """The line the plugin prints in its terminal summary."""
        line = (
            f"error control: P(any false VIOLATED) <= {self.alpha:g} over {self.rows} statistical rows in "
            f"{self.runs} theorem runs (weighted Bonferroni)"
        )
        if self.outside:
            line += f"; {len(self.outside)} theorem test(s) outside the family ran at alpha = {self.alpha:g} each"
        if self.extra:
            line += f"; {len(self.extra)} extra run(s) not covered"
        return line


def plan_family(marked, *, alpha, profile, overrides=None):
    """Plan the suite-level family of a pytest session (module docstring).

    Parameters
    ----------
    marked : list of (node id, theorem id or None)
        The selected theorem tests and the id on their marker.
    alpha : float
    profile : str
    overrides : dict, optional

    Returns
    -------
    Family
    """
    sizes, tests, outside = {}, {}, []
    for nodeid, tid in marked:
        if not tid:
            outside.append(nodeid)
            continue
        if tid not in sizes:
            try:
                # a theorem registered already (e.g. by a conftest) is used as is, without loading every paper
                sizes[tid] = family_size([registry.registered(tid) or tid], profile, overrides)
            except RpcheckError:
                outside.append(nodeid)
                continue
        tests[tid] = tests.get(tid, 0) + 1
    return Family(alpha, sizes, tests, outside)

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

    Under pytest the run's ``alpha`` is the theorem's weighted Bonferroni share of the session's alpha
    (module docstring), unless ``alpha`` is passed explicitly.

    Returns
    -------
    RunResult
        Also appended to :data:`COLLECTED` (before the assertion, so failures are reported too).
    """
    opts = dict(DEFAULTS)
    if profile is not None:
        opts["profile"] = profile
    opts.update(kwargs)
    if FAMILY is not None and "alpha" not in kwargs and isinstance(theorem_id, str):
        split = FAMILY.alpha_for(theorem_id)  # weighted Bonferroni share of the session's alpha
        if split is not None:
            opts["alpha"] = split
    opts["stopping"] = opts.pop("stop", None)
    if "sequential" in opts:  # run's own alias of stopping="looks"
        opts["stopping"] = "looks" if opts.pop("sequential") else opts["stopping"]
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

"""pytest plugin (entry point ``pytest11``): the ``theorem`` marker, ``--rpcheck-*`` options, the
``theorem_check`` fixture, a verdict summary and an optional HTML report.

Hooks and fixtures only: running and deciding is ``rpcheck.engine`` / ``rpcheck.testing``; rendering is
``rpcheck.report``. Heavy libraries (cvxpy, pandas, matplotlib) and rpcheck's own modules (``rpcheck.testing``,
``rpcheck.engine``: numpy and the engine, about 0.25 s) are imported inside the hooks that use them: pytest
loads this plugin in every run of an environment where rpcheck is installed, also runs that never use it.
"""

from __future__ import annotations

import pickle
from types import SimpleNamespace

import pytest

SEED_OPTION = "--rpcheck-seed"
REPORT_OPTION = "--rpcheck-report"
_RUN_KEYS = ("profile", "trials", "seed", "jobs", "backend", "scheduler", "alpha", "stop", "budget")
_MARKER_KWARGS = {"id", "source", "claimed_prob"}


def pytest_addoption(parser):
    from .options import add_run_options

    group = parser.getgroup("rpcheck", "rpcheck theorem verification")
    add_run_options(group.addoption, prefix="rpcheck-", profile_default="ci")
    group.addoption(
        REPORT_OPTION,
        default=None,
        metavar="PATH",
        help="Write the HTML verification report of the theorem tests that ran to PATH. Default: %(default)r",
    )


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "theorem(id=None, source=None, claimed_prob=None): a statistical verification of a published "
        "theorem (rpcheck); select with -m theorem",
    )
    from . import testing

    for key in _RUN_KEYS:
        value = config.getoption(f"rpcheck_{key}", default=None)
        if value is not None or key in ("trials", "jobs", "scheduler"):
            testing.DEFAULTS[key] = value
    workers = _xdist_worker_count(config)
    if workers and testing.DEFAULTS.get("jobs") is None:
        # under pytest-xdist (-n N) the N test processes share the cores: each theorem run gets its share
        # instead of a pool of cpu_count workers per test process. Verdicts do not depend on jobs.
        from .engine.backends import default_jobs

        testing.DEFAULTS["jobs"] = max(1, default_jobs() // workers)


def _xdist_worker_count(config):
    """Number of pytest-xdist workers when this process is one of them, else 0."""
    if not hasattr(config, "workerinput"):
        return 0
    return int(config.workerinput.get("workercount", 1))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """Plan the suite-level error control (weighted Bonferroni over the selected theorem tests; see
    :mod:`rpcheck.testing`, "Error control over a pytest run"). Runs after deselection by -k/-m."""
    from . import testing

    marked = []
    for item in items:
        marker = item.get_closest_marker("theorem")
        if marker is not None:
            marked.append((item, marker.kwargs.get("id")))
    if not marked:
        testing.FAMILY = None
        return
    d = testing.DEFAULTS
    testing.FAMILY = fam = testing.plan_family(
        [(item.nodeid, tid) for item, tid in marked],
        alpha=d["alpha"],
        profile=d["profile"],
        overrides=d.get("overrides"),
    )
    outside = set(fam.outside)
    for item, tid in marked:
        if item.nodeid in outside:
            why = "has no id on its theorem marker" if not tid else f"marks the unregistered id {tid!r}"
            item.warn(pytest.PytestWarning(
                f"theorem test {item.nodeid} {why}: it runs at the per-test alpha = {fam.alpha:g}, outside the "
                "suite-level error control (give @pytest.mark.theorem(id=...) a registered theorem id)."
            ))  # fmt: skip
    old = config.pluginmanager.get_plugin("rpcheck-family-summary")
    if old is not None:
        config.pluginmanager.unregister(old)
    config.pluginmanager.register(_FamilySummary(fam), "rpcheck-family-summary")


# --- pytest-xdist: each worker runs a share of the tests; the controller prints the summary -------------------
# Every worker collects the whole suite, so each plans the same family (same sizes, tests and weighted
# Bonferroni levels): the suite-level bound holds however the tests are distributed. At the end a worker sends
# its theorem results (cells, provenance and, when a report is asked for, the trial tables) and its family's
# run counts to the controller, which merges them and prints the same summary lines as a run without xdist.

_XDIST_KEY = "rpcheck"


def pytest_sessionfinish(session):
    config = session.config
    if not hasattr(config, "workeroutput"):
        return
    from . import testing

    want_tables = bool(config.getoption("rpcheck_report"))
    results = [(r.cells, r.trial_tables if want_tables else {}, r.provenance) for r in testing.COLLECTED]
    fam = testing.FAMILY
    family = None if fam is None else (fam.alpha, fam.sizes, fam.tests, fam.outside, fam.calls)
    config.workeroutput[_XDIST_KEY] = pickle.dumps((results, family), protocol=pickle.HIGHEST_PROTOCOL)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """Controller side of pytest-xdist: merge a finished worker's results into this process's state."""
    blob = getattr(node, "workeroutput", {}).get(_XDIST_KEY)
    if blob is None:
        return
    from . import testing

    results, family = pickle.loads(blob)  # our own workers' output, same run
    for cells, tables, prov in results:
        testing.COLLECTED.append(SimpleNamespace(cells=cells, trial_tables=tables, provenance=prov))
    if family is None:
        return
    alpha, sizes, tests, outside, calls = family
    config = node.config
    summary = config.pluginmanager.get_plugin("rpcheck-family-summary")
    if summary is None:
        fam = testing.Family(alpha, sizes, tests, outside)
        config.pluginmanager.register(_FamilySummary(fam), "rpcheck-family-summary")
    else:
        fam = summary.family
    for tid, k in calls.items():  # Family.extra follows from the merged counts
        fam.calls[tid] = fam.calls.get(tid, 0) + k


class _FamilySummary:
    """Prints the suite-level error control line in the terminal summary."""

    def __init__(self, family):
        self.family = family

    def pytest_terminal_summary(self, terminalreporter):
        terminalreporter.write_line(self.family.summary())


@pytest.fixture
def theorem_result(request):
    """Run the theorem named by the test's ``@pytest.mark.theorem(id=...)`` with
    :func:`rpcheck.testing.verify_theorem` (session settings, suite-level alpha share) and return its
    RunResult; an unexpected verdict fails the fixture (reported as an error at setup) with the offending rows.

    >>> @pytest.mark.theorem(id="paul2014.lemma3.1")   # doctest: +SKIP
    ... def test_lemma_3_1(theorem_result):
    ...     assert theorem_result.unexpected().empty
    """
    from . import testing

    marker = request.node.get_closest_marker("theorem")
    tid = None if marker is None else marker.kwargs.get("id")
    if not tid:
        raise pytest.UsageError(
            f"the theorem_result fixture needs @pytest.mark.theorem(id=...) on {request.node.nodeid}"
        )
    return testing.verify_theorem(tid)


def pytest_runtest_setup(item):
    for marker in item.iter_markers(name="theorem"):
        bad = set(marker.kwargs) - _MARKER_KWARGS
        if bad:
            raise pytest.UsageError(
                f"theorem mark can't have {sorted(bad)!r} keyword argument(s); allowed: {sorted(_MARKER_KWARGS)}"
            )


def pytest_report_header(config):
    return (
        f"rpcheck: profile={config.getoption('rpcheck_profile')} seed={config.getoption('rpcheck_seed')} "
        f"backend={config.getoption('rpcheck_backend')} alpha={config.getoption('rpcheck_alpha')} "
        f"(replay any run with {SEED_OPTION}={config.getoption('rpcheck_seed')})"
    )


def _collected_result():
    from . import testing

    results = list(testing.COLLECTED)
    if not results:
        return None
    import pandas as pd

    cells = pd.concat([r.cells for r in results], ignore_index=True)
    tables = {}
    for r in results:  # per theorem (one table of every theorem's columns would be rows x all columns)
        tables.update(r.trial_tables)
    prov = dict(results[0].provenance or {})
    prov["theorems"] = sorted(set(cells["theorem"]))
    return SimpleNamespace(cells=cells, trial_tables=tables, provenance=prov)


def pytest_terminal_summary(terminalreporter, config):
    result = _collected_result()
    if result is None:
        return
    cells = result.cells
    tr = terminalreporter
    tr.section("rpcheck verdicts")
    from .report.model import summary_counts, summary_line

    tr.write_line(summary_line(summary_counts(cells)))
    path = config.getoption("rpcheck_report")
    if path:
        from .report import write_report

        written = write_report(result, path)
        tr.write_line(f"rpcheck report: {written}")


@pytest.fixture
def theorem_check():
    """State your own theorem in a test and verify it with rpcheck's statistics and verdicts.

    Returns a callable ``check(*, id, trial, variants, cells, trials, statement="", kind="probabilistic",
    title="", citation=None, vacuous=None, backend="serial", **run_kwargs) -> RunResult`` that builds a
    Theorem, runs it with the session's ``--rpcheck-*`` settings, asserts every cell's expected verdict, and
    adds the result to the session summary and report. ``trial(params, rng) -> TrialRecord``. The serial
    backend is the default because a trial defined inside a test module cannot be shipped to workers.

    ``check(theorem, **run_kwargs)`` runs an existing theorem instead: a ``Theorem`` object, a registered id,
    an id provided by an installed ``rpcheck.theorems`` entry point, or ``"module:ATTRIBUTE"``
    (``docs/tutorial.md``).
    """
    from . import testing
    from .engine import Citation, Profile, Theorem

    def check(
        theorem=None,
        /,
        *,
        id=None,
        trial=None,
        variants=None,
        cells=None,
        trials=None,
        statement="",
        kind="probabilistic",
        title="",
        citation=None,
        vacuous=None,
        backend="serial",
        **run_kwargs,
    ):
        if theorem is not None:
            if isinstance(theorem, str):
                from .engine import plugins

                theorem = plugins.load_reference(theorem) if ":" in theorem else plugins.resolve(theorem)
            return testing.verify_theorem(theorem, backend=backend, **run_kwargs)
        missing = [k for k, v in (("id", id), ("trial", trial), ("variants", variants), ("cells", cells),
                                  ("trials", trials)) if v is None]  # fmt: skip
        if missing:
            raise TypeError(f"theorem_check() needs a theorem, or the keyword arguments {missing}.")
        profile = Profile(cells=tuple(cells), trials=trials)
        theorem = Theorem(
            id=id,
            paper=id.split(".")[0],
            title=title or id,
            citation=citation or Citation(authors="(user)", year=0, title=title or id, venue="", location=id),
            statement=statement,
            kind=kind,
            variants=tuple(variants),
            profiles={name: profile for name in ("quick", "ci", "standard", "full")},
            trial=trial,
            vacuous=vacuous,
        )
        return testing.verify_theorem(theorem, backend=backend, **run_kwargs)

    return check

r"""The one counterexample search: hypothesis-driven generation, :func:`hypothesis.target` and shrinking.

A deterministic claim ``statistic <= bound`` is refuted by an instance with negative *slack*
``bound - statistic`` (beyond the checker's certified tolerance, which the checker folds into its slack).
:func:`hypothesis_search` minimises the slack over a hypothesis strategy of instances (e.g. one of
:mod:`rpcheck.strategies`, or ``builds``/``tuples`` of floats parametrising an instance): hypothesis's
*generate* phase draws instances, its *target* phase (hill climbing on the choice sequence, driven by
``target(-slack)``) pushes towards small slack, and on the first counterexample its *shrink* phase reduces it
to the simplest instance that still refutes the claim. The result (:class:`SearchResult`) carries the
worst slack seen, the shrunk counterexample and how many objective evaluations were spent.

Every ``"search"``-mode checker runs this search inside one trial. A trial must be a pure function of its
per-trial seed (``rpcheck replay`` re-runs it and compares outcomes), so a checker passes
``seed=trial_seed(rng)`` and no example database; the search is then a pure function of ``(objective,
strategy, seed, budgets)``. Every search stops after a stated number of objective evaluations
(``max_examples`` before a counterexample, ``max_shrinks`` while shrinking); none loops until it finds
something. For interactive use outside trials, ``database=`` (a directory) keeps found counterexamples
and replays them first on the next call, as hypothesis does for tests.

The empirical-constant search (``find_constant``) lives in :mod:`rpcheck.engine.constant`.
"""

from __future__ import annotations

import contextlib
import math
import pickle
import threading
from dataclasses import dataclass, field
from typing import Any

from .._validation import check_int
from ..errors import RpcheckError, SolverError

__all__ = ["SearchResult", "hypothesis_search", "trial_seed", "TRACE_LIMIT", "SEED_BOUND"]

#: At most this many improvements are kept in ``SearchResult.trace`` (the first TRACE_LIMIT // 2 and the
#: last TRACE_LIMIT // 2), so a result stays small whatever the budget.
TRACE_LIMIT = 64
#: Seeds of :func:`hypothesis_search` drawn by :func:`trial_seed` lie in ``[0, SEED_BOUND)``.
SEED_BOUND = 2**32


def trial_seed(rng):
    """The hypothesis seed of a search run inside a trial: one draw ``rng.integers(2**32)`` from the trial's
    generator, so the search (and the trial) stays a pure function of the per-trial seed."""
    return int(rng.integers(SEED_BOUND))


@dataclass(frozen=True, eq=False)
class SearchResult:
    """The outcome of a bounded counterexample search (minimisation of a slack function).

    Attributes
    ----------
    worst_slack : float
        Smallest finite slack ``bound - statistic`` found (``inf`` when no evaluation succeeded).
        Negative means a counterexample.
    worst_instance : object
        The instance attaining ``worst_slack`` (as drawn from the strategy); None when no evaluation
        succeeded.
    tried : int
        Objective evaluations attempted (including failed and skipped ones, and those while shrinking).
    errors : int
        Evaluations that raised :class:`rpcheck.errors.SolverError` or returned a non-finite slack; they
        are never counted as counterexamples.
    improvements : int
        How many times the best slack improved.
    trace : tuple of (int, float)
        ``(evaluation index, best slack)`` at improvements (at most ``TRACE_LIMIT`` entries).
    method : str
        "hypothesis".
    stopped : str
        Why the search ended: "budget" (all evaluations used or hypothesis's generation ended) or
        "counterexample" (one was found and shrunk).
    shrunk_instance : object
        The counterexample after shrinking (the simplest instance with slack below the threshold, whose
        slack is ``shrunk_slack``); None when none was found.
    shrunk_slack : float
    skipped : int
        Evaluations whose instance was outside the claim's premise (the objective returned None).
    shrink_evaluations : int
        Objective evaluations spent while shrinking (at most ``max_shrinks``).

    Instances are arbitrary objects (often arrays), so results compare by identity (``eq=False``);
    compare fields explicitly.
    """

    worst_slack: float
    worst_instance: Any = field(repr=False)
    tried: int
    errors: int = 0
    improvements: int = 0
    trace: tuple = field(default=(), repr=False)
    method: str = ""
    stopped: str = "budget"
    shrunk_instance: Any = field(default=None, repr=False)
    shrunk_slack: float = math.nan
    skipped: int = 0
    shrink_evaluations: int = 0

    @property
    def counterexample(self) -> bool:
        """True when an instance with negative slack was found."""
        return self.worst_slack < 0

    @property
    def found(self) -> bool:
        """True when the search stopped on a counterexample (slack below its threshold), then shrunk."""
        return self.stopped == "counterexample"

    @property
    def slack(self) -> float:
        """The slack a checker reports: the shrunk counterexample's when one was found, else the worst."""
        return self.shrunk_slack if self.found else self.worst_slack

    @property
    def instance(self):
        """The instance a checker reports: the shrunk counterexample when one was found, else the worst."""
        return self.shrunk_instance if self.found else self.worst_instance


def _thin_trace(trace):
    if len(trace) <= TRACE_LIMIT:
        return tuple(trace)
    h = TRACE_LIMIT // 2
    return tuple(trace[:h]) + tuple(trace[-h:])


class _Tracker:
    """Running minimum of slack evaluations."""

    def __init__(self, objective):
        self.objective = objective
        self.best = math.inf
        self.best_instance = None
        self.tried = 0
        self.errors = 0
        self.skipped = 0
        self.improvements = 0
        self.trace = []

    def __call__(self, instance):
        """The slack (``inf`` for an error), or None when the instance is outside the premise."""
        i = self.tried
        self.tried += 1
        try:
            value = self.objective(instance)
        except SolverError:
            self.errors += 1
            return math.inf
        if value is None:
            self.skipped += 1
            return None
        value = float(value)
        if not math.isfinite(value):
            self.errors += 1
            return math.inf
        if value < self.best:
            self.best = value
            self.best_instance = instance
            self.improvements += 1
            self.trace.append((i, value))
        return value


_LOCAL_CONSTANTS_LOCK = threading.Lock()
_LOCAL_CONSTANTS_DEPTH = 0
_LOCAL_CONSTANTS_SAVED = None


@contextlib.contextmanager
def _without_local_constants():
    """Inside: hypothesis draws no constants from the source code of the process's local modules.

    Recent hypothesis versions (6.155.2 here) collect, in their default backend, the literals of every
    *local* module in ``sys.modules`` (any file outside site-packages and the standard library: an editable
    install of rpcheck, the user's own checker modules) and draw them as examples with probability 0.05-0.15
    per number (``hypothesis.internal.conjecture.providers._get_local_constants``). A search inside a trial
    then depends on which modules the process had imported before it, and on every literal in their
    source: measured on ``lei2020.topr`` (random cell n = 8, d = 16, r = 3, trial 1): error 94.71 in a fresh
    process, 63.82 after importing ``rpcheck.papers.shi2012``, 1745.57 after importing every checker. A trial
    must be a function of its seed, so the search runs with an empty local pool; the global constants
    (hypothesis's own fixed list) stay. The pool is hypothesis-internal: where the hook is missing (older
    hypothesis) there is nothing to remove; ``tests/engine/test_search_local_constants.py`` fails loudly if
    a new hypothesis moves it. Thread-safe (a depth count under a lock); the cache of allowed constants is
    cleared on entry and exit so that no entry built with the other pool is used.
    """
    global _LOCAL_CONSTANTS_DEPTH, _LOCAL_CONSTANTS_SAVED
    try:
        from hypothesis.internal.conjecture import providers as _providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # pragma: no cover - hypothesis before local constants existed
        yield
        return
    if not hasattr(_providers, "_get_local_constants"):  # pragma: no cover
        yield
        return
    empty = Constants()
    with _LOCAL_CONSTANTS_LOCK:
        if _LOCAL_CONSTANTS_DEPTH == 0:
            _LOCAL_CONSTANTS_SAVED = _providers._get_local_constants
            _providers._get_local_constants = lambda: empty
            _providers.CONSTANTS_CACHE.cache.clear()
        _LOCAL_CONSTANTS_DEPTH += 1
    try:
        yield
    finally:
        with _LOCAL_CONSTANTS_LOCK:
            _LOCAL_CONSTANTS_DEPTH -= 1
            if _LOCAL_CONSTANTS_DEPTH == 0:
                _providers._get_local_constants = _LOCAL_CONSTANTS_SAVED
                _LOCAL_CONSTANTS_SAVED = None
                _providers.CONSTANTS_CACHE.cache.clear()


class _Found(Exception):
    """Raised inside the hypothesis test to mark a counterexample (so hypothesis shrinks it)."""


class _BudgetSpent(BaseException):
    """Raised inside the hypothesis test when the evaluation budget is spent: hypothesis lets a
    BaseException that is not an Exception through (like KeyboardInterrupt), which ends its run at once
    instead of letting it call the test further without evaluating anything."""


def _key(example):
    """A hashable key of an example (arrays and floats included) for the memo of failing examples."""
    try:
        return pickle.dumps(example, protocol=4)
    except Exception:  # pragma: no cover - unpicklable examples fall back to their repr
        return repr(example)


def _as_database(database):
    from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

    if isinstance(database, ExampleDatabase):
        return database
    if isinstance(database, str) or hasattr(database, "__fspath__"):
        return DirectoryBasedExampleDatabase(database)
    raise RpcheckError(
        f"`database` must be None, a directory path or a hypothesis ExampleDatabase; got {type(database).__name__}."
    )


def hypothesis_search(
    objective,
    strategy,
    *,
    max_examples=200,
    seed=0,
    threshold=0.0,
    shrink=True,
    max_shrinks=None,
    database=None,
    database_key=None,
    fixed_size=False,
):
    r"""Minimise a slack over a hypothesis strategy with :func:`hypothesis.target`, then shrink.

    Every example's slack is reported to hypothesis as ``target(-slack, label="slack")``, so the
    generate and *target* phases (hypothesis's own hill climbing on the choice sequence) push towards
    small slack. When an example has slack below ``threshold`` it is a counterexample: the test fails and,
    with ``shrink=True``, hypothesis shrinks it to the simplest example (in hypothesis's order: smaller
    sizes, then numbers closer to zero / to the strategy's first choices) that still has slack below
    ``threshold``, reported as ``shrunk_instance`` / ``shrunk_slack``, as :func:`hypothesis.find` does.

    Parameters
    ----------
    objective : callable(example) -> float or None
        Slack of an example (negative = violation). :class:`rpcheck.errors.SolverError` or a non-finite
        value: counted as an error, never as a counterexample. None: the example lies outside the claim's
        premise (counted in ``skipped``; hypothesis discards it).
    strategy : hypothesis.strategies.SearchStrategy
    max_examples : int, default=200
        Objective evaluations before a counterexample is found (hypothesis's ``settings.max_examples``, and
        a hard cap: hypothesis's extra calls beyond it are not evaluated).
    seed : int, default=0
        Passed to :func:`hypothesis.seed`; with ``database=None`` the search is a pure function of
        ``(objective, strategy, seed, max_examples, threshold, shrink, max_shrinks)``. Inside a trial use
        :func:`trial_seed`.
    threshold : float or None, default=0.0
        Slack below which an example counts as a counterexample: the search stops at the first one and
        shrinks it. ``None``: pure minimisation, no example fails, the whole budget is spent on generation
        and targeting (use it to measure how small the slack gets, e.g. for an open question).
    shrink : bool, default=True
    max_shrinks : int, optional
        Objective evaluations allowed while shrinking (default ``max_examples``). Once spent, hypothesis's
        run is ended and the last counterexample its shrinker accepted (the smallest so far) is reported.
        Total evaluations never exceed ``max_examples + max_shrinks``.
    database : None, str, os.PathLike or hypothesis.database.ExampleDatabase, optional
        For interactive use only, never inside a trial (a trial must be a pure function of its seed):
        a directory (:class:`hypothesis.database.DirectoryBasedExampleDatabase`) or database in which
        hypothesis saves the shrunk counterexample, and from which the next call with the same
        ``database_key`` replays it first (hypothesis's *reuse* phase).
    database_key : str, optional
        Key of this search in ``database``; default from the objective's qualified name and the strategy's
        repr. Give distinct keys to distinct claims searched over the same strategy.
    fixed_size : bool, default=False
        Declare that every example of ``strategy`` draws the same number of choices (e.g. ``st.tuples`` of
        booleans). Hypothesis's first example (without ``database``) is its all-simplest choice sequence,
        which is then the minimum of the shrink order (shortlex over choice indices): a counterexample there
        is reported at once, without the shrink phase. Same result as shrinking, which cannot improve on it
        but still walks its passes over every choice (measured: 3 s per search over 512 booleans,
        ``lei2020.prop2``). Wrong if examples can draw fewer choices (``one_of``, lists): leave it False.

    Returns
    -------
    SearchResult
        ``worst_slack``/``worst_instance``: the smallest slack seen (during generation, targeting or
        shrinking). ``stopped="counterexample"`` when one was found; then ``shrunk_instance`` is the
        shrunk counterexample (``.instance``/``.slack`` give the reportable instance and slack).

    Notes
    -----
    Runs hypothesis with ``derandomize=False`` plus the explicit ``seed``, no deadline, all health checks
    suppressed and quiet verbosity. A failing example is memoised, so hypothesis's final replay of the
    shrunk example costs no evaluation. Do not call it from inside another ``@given`` test (hypothesis does
    not support nesting).

    Examples
    --------
    >>> from hypothesis import strategies as st
    >>> res = hypothesis_search(lambda x: 10 - x, st.integers(0, 1000), max_examples=100, seed=0)
    >>> res.found, res.shrunk_instance, res.shrunk_slack   # the smallest x with 10 - x < 0
    (True, 11, -1.0)
    """
    from hypothesis import HealthCheck, Phase, Verbosity, given, reject, settings, target
    from hypothesis import seed as hseed
    from hypothesis.strategies import SearchStrategy

    if not isinstance(strategy, SearchStrategy):
        raise RpcheckError(f"`strategy` must be a hypothesis SearchStrategy; got {type(strategy).__name__}.")
    max_examples = check_int("max_examples", max_examples, 1)
    seed = check_int("seed", seed, 0)
    max_shrinks = max_examples if max_shrinks is None else check_int("max_shrinks", max_shrinks, 0)
    if not isinstance(fixed_size, bool):
        raise RpcheckError(f"`fixed_size` must be True or False; got {fixed_size!r}.")
    threshold = None if threshold is None else float(threshold)
    db = None if database is None else _as_database(database)
    track = _Tracker(objective)
    state = {"found": False, "shrink_evals": 0, "shrunk": None}
    failing = {}  # key -> (example, slack) of every counterexample evaluated

    phases = [Phase.generate, Phase.target] + ([Phase.shrink] if shrink else [])
    if db is not None:
        phases.insert(0, Phase.reuse)

    def _fail(example, value):
        state["shrunk"] = (example, value)  # the last raise is hypothesis's final replay: the shrunk one
        raise _Found

    def _body(example):
        known = failing.get(_key(example)) if failing else None
        if known is not None:
            _fail(*known)
        if state["found"]:
            if state["shrink_evals"] >= max_shrinks:
                raise _BudgetSpent  # keep the last counterexample hypothesis accepted
            state["shrink_evals"] += 1
        elif track.tried >= max_examples:
            raise _BudgetSpent
        first = track.tried == 0
        value = track(example)
        if value is None:
            reject()
        if math.isfinite(value):
            target(-value, label="slack")
            if threshold is not None and value < threshold:
                state["found"] = True
                failing[_key(example)] = (example, value)
                if first and fixed_size and db is None:
                    state["shrunk"] = (example, value)  # the shrink order's minimum (``fixed_size``)
                    raise _BudgetSpent
                _fail(example, value)

    _search = given(strategy)(_body)
    _search = hseed(seed)(_search)  # (hypothesis.seed sets database=None; the settings below decide)
    _search = settings(
        max_examples=max_examples,
        database=db,
        derandomize=False,
        deadline=None,
        phases=phases,
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        print_blob=False,
    )(_search)
    if db is not None:
        name = f"{getattr(objective, '__module__', '')}.{getattr(objective, '__qualname__', '')}"
        key = database_key or f"{name}|{strategy!r}"
        _search._hypothesis_internal_database_key = key.encode()  # as hypothesis.find does
    stopped = "budget"
    try:
        with _without_local_constants():  # a pure function of the seed, whatever the process imported
            _search()
    except _Found:
        stopped = "counterexample"
    except _BudgetSpent:
        stopped = "counterexample" if state["found"] else "budget"
    extra = {}
    if stopped == "counterexample" and state["shrunk"] is not None:
        extra = {"shrunk_instance": state["shrunk"][0], "shrunk_slack": state["shrunk"][1]}
    return SearchResult(
        worst_slack=track.best,
        worst_instance=track.best_instance,
        tried=track.tried,
        errors=track.errors,
        improvements=track.improvements,
        trace=_thin_trace(track.trace),
        method="hypothesis",
        stopped=stopped,
        skipped=track.skipped,
        shrink_evaluations=state["shrink_evals"],
        **extra,
    )

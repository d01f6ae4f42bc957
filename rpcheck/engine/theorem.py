"""Theorem specifications: a claim declared once, used by the runner, the CLI, pytest and the report.

A checker module builds one :class:`Theorem` and registers it (``rpcheck.engine.registry.register``).
The theorem's ``trial(params, rng)`` computes, for ONE random draw, an :class:`Outcome` per
:class:`Variant` (variants share the expensive work of a trial: one projection, one pair of solves),
plus scalar diagnostics. The engine aggregates outcomes per grid cell into a verdict.

Semantics of a trial outcome
----------------------------
- ``holds``: the per-trial event of the claim (e.g. ``e <= eps``; ``gamma_proj**2 >= (1-e) gamma**2``
  up to the checker's stated numerical tolerance).
- ``vacuous``: the bound is uninformative for this draw (e.g. ``e >= 1`` makes ``(1-e) gamma**2 <= 0``).
  Vacuous trials are counted but do not count for or against the claim.
- ``undetermined``: the solver certificate's interval straddles the inequality, so the event is neither
  certified to hold nor to fail. It counts AGAINST the verdict being tested (a failure when testing HOLDS,
  a success when testing VIOLATED), as solver errors do (:mod:`rpcheck.stats`).
- ``statistic``/``bound``: the two sides of the inequality, for quantiles, plots and slack reports;
  ``slack = bound - statistic`` when the claim reads ``statistic <= bound`` (checkers state the direction
  in ``Variant.statement``).

Verdict modes (``Variant.mode``) and roles (``Variant.role``)
--------------------------------------------------------------
The decision rule of each mode ("bound", "deterministic", "exact", "search", "report"), its error rate and
the roles ("claim", "self-check", "control", "measurement") are documented in one place: the module
docstring of :mod:`rpcheck.stats`.

Parameters
----------
``Theorem.parameters`` declares the domain of every grid parameter (:class:`Param`) and
``Theorem.constraints`` the relations between them (:class:`Constraint`). Every profile cell is checked
when the Theorem is built (an invalid cell is an error at import) and :func:`rpcheck.engine.run` checks
its ``overrides`` before any trial.
"""

from __future__ import annotations

import functools
import itertools
import math
import numbers
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._validation import check_memory
from ..errors import RpcheckError
from ..stats import MODES, ROLES, Verdict
from .params import PARAM_KINDS, Constraint, Param, _friendly_init

__all__ = [
    "Verdict",
    "Citation",
    "Finding",
    "FINDING_KINDS",
    "Variant",
    "Outcome",
    "TrialRecord",
    "Profile",
    "Theorem",
    "grid",
    "Param",
    "Constraint",
    "PROFILES",
    "OPTIONAL_PROFILES",
    "ALL_PROFILES",
    "KINDS",
    "PARAM_KINDS",
    "trial_memory",
    "check_trial_memory",
    "MODES",
    "ROLES",
]

#: The profiles every theorem defines.
PROFILES = ("quick", "ci", "standard", "full")
#: Profiles a theorem may define: "paper" runs the paper's own protocol on the paper's real data at its sizes
#: (the data-driven reproductions only; a run at "paper" skips the theorems without one).
OPTIONAL_PROFILES = ("paper",)
ALL_PROFILES = PROFILES + OPTIONAL_PROFILES
KINDS = ("probabilistic", "deterministic", "empirical")


@dataclass(frozen=True)
class Citation:
    """Where a claim is printed. ``location`` uses the numbering of the cited version (for Paul et al. the
    arXiv v5 PDF numbering); ``alt_location`` the other version's numbering when they differ."""

    authors: str
    year: int
    title: str
    venue: str
    location: str
    alt_location: str = ""
    equations: str = ""

    def short(self):
        first = self.authors.split(",")[0].split(" and ")[0].strip()
        return f"{first} et al. {self.year}, {self.location}"


#: What a finding says about the paper, most serious first (the order in which the reports list them).
FINDING_KINDS = ("paper error", "proof gap", "ambiguity", "notation", "observation")

#: Words that never name the paper in a finding (it is "the paper", "the text", "Table I", ...), as patterns.
_NOT_PAPER_WORDS = (r"\bcatalogue", r"\bspec(s|ification)?\b")


@dataclass(frozen=True)
class Finding:
    """Something the paper prints that differs from what is true, proved, stated elsewhere, or measured.

    Parameters
    ----------
    key : str
        A short identifier, unique within the theorem.
    summary : str
        What differs and why: the derivation or the evidence (numbers, a counterexample, the variant).
    evidence_variant : str or None
        The variant whose verdict is the evidence (e.g. a variant of the printed statement expected
        VIOLATED); None when the evidence is the summary's arithmetic alone.
    location : str
        Where in the PAPER the disputed text is printed (theorem, equation, table, section, page, or line),
        never a document outside the repository.
    quote : str
        The printed text the finding disputes, verbatim and short (formulas transcribed to plain text).
    kind : {"paper error", "proof gap", "ambiguity", "notation", "observation"}
        "paper error": a printed statement, number or formula is false; "proof gap": the statement may hold
        but the printed proof does not establish it; "ambiguity": the text admits readings that differ in
        their consequences; "notation": a symbol or convention that a reader must read in a particular way;
        "observation": a measured or derived fact about the paper's claims that is not an error of the paper.

    Every text argument must be non-empty, ``kind`` one of :data:`FINDING_KINDS`; a bad argument raises one
    RpcheckError naming it. ``status`` is filled by the report from the evidence variant's verdict.

    Examples
    --------
    >>> Finding("k", "x", location="Table I", quote="24.1.0", kind="typo")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rpcheck.errors.RpcheckError: Finding `kind` ('typo') must be one of 'paper error', 'proof gap', ...
    """

    key: str
    summary: str
    evidence_variant: str | None = None
    location: str = ""
    quote: str = ""
    kind: str = ""

    def __post_init__(self):
        for name in ("key", "summary", "location", "quote"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise RpcheckError(f"Finding `{name}` ({value!r}) must be a non-empty string.")
        if self.evidence_variant is not None and (
            not isinstance(self.evidence_variant, str) or not self.evidence_variant.strip()
        ):
            raise RpcheckError(
                f"Finding `evidence_variant` ({self.evidence_variant!r}) must be a variant name or None."
            )
        if self.kind not in FINDING_KINDS:
            raise RpcheckError(
                f"Finding `kind` ({self.kind!r}) must be one of {', '.join(map(repr, FINDING_KINDS))}."
            )
        for name in ("summary", "location"):
            text = getattr(self, name).lower()
            for pattern in _NOT_PAPER_WORDS:
                word = re.search(pattern, text)
                if word:
                    raise RpcheckError(
                        f"Finding `{name}` of {self.key!r} uses the word {word.group(0)!r}: name the paper, its "
                        "theorem, equation, table or section instead."
                    )


Finding = _friendly_init(Finding)


# ------------------------------------------------------------------------------ claims


@_friendly_init
@dataclass(frozen=True)
class Variant:
    """One reading of a claim.

    Parameters
    ----------
    name : str
        e.g. "as_printed", "as_proved", "corrected", "stated", "upper".
    statement : str
        The inequality this variant tests, in plain math.
    mode : {"bound", "deterministic", "exact", "search", "report"}
        The decision rule (:mod:`rpcheck.stats`).
    expected : Verdict, callable(params) -> Verdict or None, or None
        The verdict the suite expects. ``None`` = open question (only reported).
    promised_failure : float or callable(params) -> float, optional
        ``delta`` for mode "bound"; the exact failure probability for mode "exact". Ignored otherwise.
    assumed : tuple of str
        Constants or readings that had to be reconstructed; shown in the report.
    note : str
    role : {"claim", "self-check", "control", "measurement"}, default="claim"
        "control": a negative control, must be expected VIOLATED. "self-check": a check of the tool.
        "measurement": a report-mode row with no rule of stated error rate (no verdict).
    exhaustive : bool, default=False
        Mode "deterministic" only: the trial evaluates the claim on fixed inputs with no randomness (e.g.
        arithmetic on a paper's printed table), so one evaluation decides it and the 90-draw rule for random
        draws does not apply (:func:`rpcheck.stats.decide_deterministic`).
    """

    name: str
    statement: str
    mode: str = "deterministic"
    expected: Any = None
    promised_failure: Any = None
    assumed: tuple = ()
    note: str = ""
    role: str = "claim"
    exhaustive: bool = False

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise RpcheckError(f"Variant `name` ({self.name!r}) must be a non-empty string.")
        if self.mode not in MODES:
            raise RpcheckError(f"Variant `mode` ({self.mode!r}) must be one of {', '.join(map(repr, MODES))}.")
        if self.role not in ROLES:
            raise RpcheckError(f"Variant `role` ({self.role!r}) must be one of {', '.join(map(repr, ROLES))}.")
        if self.expected is not None and not callable(self.expected):
            try:
                object.__setattr__(self, "expected", Verdict(self.expected))
            except ValueError:
                allowed = ", ".join(repr(v.value) for v in Verdict)
                raise RpcheckError(
                    f"Variant `expected` ({self.expected!r}) must be None, a Verdict ({allowed}) or a callable."
                ) from None
        if self.role == "control" and not callable(self.expected) and self.expected is not Verdict.VIOLATED:
            raise RpcheckError(
                f"Variant {self.name!r}: role 'control' (a negative control) requires expected VIOLATED; "
                f"got {self.expected!r}."
            )
        if self.role == "measurement" and self.mode != "report":
            raise RpcheckError(
                f"Variant {self.name!r}: role 'measurement' is for mode 'report' rows; got mode {self.mode!r}."
            )
        if isinstance(self.assumed, str):
            object.__setattr__(self, "assumed", (self.assumed,))
        if not isinstance(self.exhaustive, bool):
            raise RpcheckError(f"Variant `exhaustive` ({self.exhaustive!r}) must be True or False.")
        if self.exhaustive and self.mode != "deterministic":
            raise RpcheckError(
                f"Variant {self.name!r}: `exhaustive=True` (fixed inputs, one evaluation decides) is for mode "
                f"'deterministic'; got mode {self.mode!r}."
            )

    def expected_for(self, params: Mapping) -> Verdict | None:
        exp = self.expected(params) if callable(self.expected) else self.expected
        return None if exp is None else Verdict(exp)

    def control_problem(self, params: Mapping, expected=None) -> str | None:
        """Why this variant breaks the rule "a control is expected VIOLATED" in the cell ``params`` (None when
        it does not); ``expected``: its expected verdict there when the caller has computed it already. A
        callable expectation is checked where a profile's cell is first run (the runner) and by the contract
        test, not at registration: some expectations cost solves, and importing the checkers stays cheap."""
        if self.role != "control":
            return None
        exp = self.expected_for(params) if expected is None else expected
        if exp is Verdict.VIOLATED:
            return None
        return f"variant {self.name!r} has role 'control' but expected {exp!r}; a control must be expected VIOLATED"

    def delta_for(self, params: Mapping) -> float | None:
        p = self.promised_failure
        if p is None:
            return None
        return float(p(params) if callable(p) else p)


@_friendly_init
@dataclass(frozen=True)
class Outcome:
    """The per-trial outcome of one variant (module docstring, "Semantics of a trial outcome")."""

    holds: bool
    statistic: float = math.nan
    bound: float = math.nan
    vacuous: bool = False
    undetermined: bool = False


@_friendly_init
@dataclass(frozen=True)
class TrialRecord:
    """What one trial returns.

    outcomes : mapping variant name -> Outcome (every variant of the theorem must be present)
    diagnostics : mapping name -> float (scalars only: measured e, KKT residuals, ranks, times)
    artifacts : mapping name -> ndarray (only what is needed to replay a counterexample: the data
        instance, y, the sketch matrix or its seed). The engine keeps artifacts only of violating trials.
    """

    outcomes: Mapping[str, Outcome]
    diagnostics: Mapping[str, float] = field(default_factory=dict)
    artifacts: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if not isinstance(self.outcomes, Mapping):
            raise RpcheckError(
                f"TrialRecord `outcomes` must be a mapping variant name -> Outcome; got {type(self.outcomes).__name__}."
            )


@_friendly_init
@dataclass(frozen=True)
class Profile:
    """A named run size: the grid cells (each a dict of parameters) and the trials per cell.

    Parameters
    ----------
    cells : iterable of dict
        The grid cells, each a dict of parameter values.
    trials : int >= 1
        Trials per cell.
    more_trials : iterable of (dict, int), default=()
        Cells that need a different trial count (e.g. the cells whose promised failure ``delta`` is small
        enough that a HOLDS needs more draws than the others): pairs ``(match, n)``; a cell whose parameters
        equal every item of ``match`` runs ``n`` trials (the first matching pair wins), every other cell
        ``trials``. Each ``match`` must be a non-empty dict that matches at least one cell.

    Examples
    --------
    >>> p = Profile(grid(delta=[0.05, 0.001]), trials=500, more_trials=[({"delta": 0.001}, 12_500)])
    >>> [p.trials_for(c) for c in p.cells]
    [500, 12500]
    >>> p.describe_trials()
    '500 trials (12,500 where delta = 0.001)'
    """

    cells: tuple
    trials: int
    more_trials: tuple = ()

    def __post_init__(self):
        if isinstance(self.trials, bool) or not isinstance(self.trials, numbers.Integral) or self.trials < 1:
            raise RpcheckError(f"Profile `trials` ({self.trials!r}) must be an integer >= 1.")
        try:
            cells = tuple(dict(c) for c in self.cells)
        except (TypeError, ValueError):
            raise RpcheckError(f"Profile `cells` must be an iterable of parameter dicts; got {self.cells!r}.") from None
        object.__setattr__(self, "cells", cells)
        more = []
        for item in self.more_trials or ():
            try:
                match, n = item
                match = dict(match)
            except (TypeError, ValueError):
                raise RpcheckError(
                    f"Profile `more_trials` items must be (match dict, trials) pairs; got {item!r}."
                ) from None
            if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
                raise RpcheckError(f"Profile `more_trials`: trials ({n!r}) for {match!r} must be an integer >= 1.")
            if not match:
                raise RpcheckError("Profile `more_trials`: a match must name at least one parameter; got {}.")
            if not any(_matches(c, match) for c in cells):
                raise RpcheckError(
                    f"Profile `more_trials`: {match!r} matches no cell of the profile (a misspelt parameter or value?)."
                )
            more.append((match, int(n)))
        object.__setattr__(self, "more_trials", tuple(more))

    def trials_for(self, cell):
        """Trials of ``cell`` (a dict of parameters): the first matching ``more_trials`` count, else ``trials``."""
        for match, n in self.more_trials:
            if _matches(cell, match):
                return n
        return int(self.trials)

    @property
    def max_trials(self):
        """The largest trial count of any cell."""
        return max([int(self.trials), *(self.trials_for(c) for c in self.cells)])

    def describe_trials(self):
        """One phrase, e.g. ``"5,000 trials (12,500 where delta = 0.001)"``."""
        text = f"{self.trials:,} trial{'s' if self.trials != 1 else ''}"
        if self.more_trials:
            text += " (" + "; ".join(
                f"{n:,} where " + ", ".join(f"{k} = {v}" for k, v in m.items()) for m, n in self.more_trials
            ) + ")"
        return text


def trial_memory(theorem, params):
    """The memory model of one trial of ``theorem`` in the cell ``params``: a lower bound on the bytes it
    holds at once, with what and which parameters determine it.

    Two declarations feed it: every ``size`` parameter (:class:`Param`) is the length of a float64 array
    (8 bytes an entry), and every shape of ``Theorem.arrays`` is a float64 array of that shape. The model
    is the largest of these arrays, so it never exceeds what the trial needs; a cell it refuses could not
    run. Returns ``(nbytes, what, {name: value})``, or ``(0, "", {})`` when nothing is declared.

    >>> th = Theorem.__new__(Theorem)
    >>> object.__setattr__(th, "parameters", {"d": Param("int", low=1, size=True), "r": Param("int", low=1)})
    >>> object.__setattr__(th, "arrays", (("d", "r"),))
    >>> trial_memory(th, {"d": 1000, "r": 10})
    (80000, 'a (d, r) float64 array', {'d': 1000, 'r': 10})
    """
    best = (0, "", {})
    declared = theorem.parameters or {}
    for k, p in declared.items():
        v = params.get(k)
        if p.size and isinstance(v, numbers.Integral) and not isinstance(v, bool) and v > 0:
            if 8 * int(v) > best[0]:
                best = (8 * int(v), f"a float64 array of length {k}", {k: v})
    shapes = theorem.arrays(params) if callable(theorem.arrays) else theorem.arrays
    for shape in shapes or ():
        vals = [params.get(k) for k in shape]
        if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) and v > 0 for v in vals):
            continue  # a side that is absent or not a positive int: the domain check names it
        nbytes = 8 * math.prod(int(v) for v in vals)
        if nbytes > best[0]:
            best = (nbytes, f"a ({', '.join(shape)}) float64 array", dict(zip(shape, vals)))
    return best


def check_trial_memory(theorem, params):
    """Raise RpcheckError naming the parameters when one trial of the cell ``params`` needs more memory
    than this process can allocate (:func:`trial_memory`, :func:`rpcheck._validation.check_memory`)."""
    nbytes, what, args = trial_memory(theorem, params)
    if nbytes:
        check_memory(nbytes, what, **args)


def _matches(cell, match):
    return all(k in cell and cell[k] == v for k, v in match.items())


def grid(**axes) -> tuple:
    """Cartesian product of parameter axes, as a tuple of dicts (in the order given).

    >>> grid(r=[64, 128], kind=["gaussian"])
    ({'r': 64, 'kind': 'gaussian'}, {'r': 128, 'kind': 'gaussian'})
    """
    names = list(axes)
    values = [v if isinstance(v, list | tuple) else [v] for v in axes.values()]
    return tuple(dict(zip(names, combo)) for combo in itertools.product(*values))


@_friendly_init
@dataclass(frozen=True)
class Theorem:
    """A checkable claim.

    Parameters
    ----------
    id : str
        Stable identifier, ``<paper>.<object>`` e.g. "paul2014.lemma3.1", "shi2012.thm5".
    paper : str
        Key of the paper ("paul2014", "shi2012", "zhang2013", "alpcan2016", "lei2020").
    title : str
        One line for ``rpcheck list``.
    citation : Citation
    statement : str
        The statement as printed (text with ASCII math).
    kind : {"probabilistic", "deterministic", "empirical"}
    variants : tuple of Variant
    profiles : mapping profile name -> Profile
        Must define every name in ``PROFILES``; may define those of ``OPTIONAL_PROFILES``.
    trial : callable(params: dict, rng: numpy.random.Generator) -> TrialRecord
        Pure function of its arguments (no global state), so a trial replays from its seed alone.
        Must be picklable (a module-level function) for the process and Dask backends.
    vacuous : callable(params) -> str or None
        Why a whole cell cannot be informative (e.g. "r < rho forces e >= 1"), or None.
    tolerance : float
        Numerical tolerance applied inside ``trial`` for deterministic inequalities; ``tolerance_note``
        says where it comes from (solver certificate, floating-point error analysis).
    decide : callable(records, params) -> (Verdict, dict), optional
        Custom cell decision for mode "report" variants (reproductions, comparisons); the dict should
        hold ``"claim"``, the statement with its error rate (:func:`rpcheck.stats.decide_report`).
    findings : tuple of Finding
    constant_search : mapping, optional
        For O(.)-type target dimensions: {"param": "r", "formula": callable(params)->float,
        "variant": name}; used by the engine's empirical-constant search.
    parameters : mapping name -> Param, optional
        The domain of every grid parameter. None (not declared yet) skips the checks;
        :func:`rpcheck.engine.undeclared_parameters` lists such theorems.
    constraints : tuple of Constraint
        Relations every cell must satisfy (checked with ``parameters``).
    arrays : tuple of tuples of parameter names, or callable(params) -> such a tuple
        The shapes of float64 arrays that every trial of a cell holds at once, named by the parameters
        giving their sides, e.g. ``(("n", "d"), ("d", "r"))`` for a data matrix and a dense sketch; with
        the ``size`` parameters, the trial's memory model (:func:`trial_memory`).
    data_cells : callable(info, cells) -> tuple of dict, optional
        Set when the theorem's claims are about a given data matrix and its trial accepts the user's data
        (``rpcheck check ID --data FILE``, :mod:`rpcheck.engine.userdata`): given the file's description
        ``info`` (:func:`rpcheck.engine.userdata.data_info`: path, n, d, rank, sparse, ...) and the cells of
        the selected profile, it returns the cells of a run on that file, each holding ``data`` (the path;
        the trial then loads X and y from it instead of generating them) and the file's own ``n``, ``d``,
        ``rho``. The function's attribute ``from_file`` (default ``("n", "d")``) names the parameters that come
        from the file, which ``--set`` may not change. None: the theorem generates its data and refuses
        ``--data``.
    """

    id: str
    paper: str
    title: str
    citation: Citation
    statement: str
    kind: str
    variants: tuple
    profiles: Mapping[str, Profile]
    trial: Callable[[dict, Any], TrialRecord]
    vacuous: Callable[[Mapping], str | None] | None = None
    tolerance: float = 0.0
    tolerance_note: str = ""
    decide: Callable | None = None
    findings: tuple = ()
    constant_search: Mapping | None = None
    notes: str = ""
    parameters: Mapping[str, Param] | None = None
    constraints: tuple = ()
    arrays: Any = ()
    data_cells: Callable | None = None

    def __post_init__(self):
        if not isinstance(self.id, str) or not self.id:
            raise RpcheckError(f"Theorem `id` ({self.id!r}) must be a non-empty string.")
        if self.kind not in KINDS:
            raise RpcheckError(
                f"Theorem {self.id!r}: `kind` ({self.kind!r}) must be one of {', '.join(map(repr, KINDS))}."
            )
        if not isinstance(self.profiles, Mapping):
            raise RpcheckError(f"Theorem {self.id!r}: `profiles` must be a mapping profile name -> Profile.")
        missing = [p for p in PROFILES if p not in self.profiles]
        if missing:
            raise RpcheckError(f"theorem {self.id!r} does not define the profiles {missing}.")
        for name, prof in self.profiles.items():
            if name not in ALL_PROFILES:
                raise RpcheckError(f"Theorem {self.id!r}: profile {name!r} is not one of {ALL_PROFILES}.")
            if not isinstance(prof, Profile):
                raise RpcheckError(
                    f"Theorem {self.id!r}: profile {name!r} must be a Profile; got {type(prof).__name__}."
                )
        object.__setattr__(self, "variants", tuple(self.variants))
        bad = [v for v in self.variants if not isinstance(v, Variant)]
        if bad:
            raise RpcheckError(f"Theorem {self.id!r}: `variants` must be Variant objects; got {bad[0]!r}.")
        names = [v.name for v in self.variants]
        if len(set(names)) != len(names) or not names:
            raise RpcheckError(f"theorem {self.id!r} must have at least one variant, with unique names: {names}.")
        object.__setattr__(self, "findings", tuple(self.findings))
        keys = [f.key for f in self.findings if isinstance(f, Finding)]
        if len(keys) != len(self.findings) or len(set(keys)) != len(keys):
            raise RpcheckError(f"Theorem {self.id!r}: `findings` must be Finding objects with unique keys: {keys}.")
        unknown = [f.key for f in self.findings if f.evidence_variant is not None and f.evidence_variant not in names]
        if unknown:
            raise RpcheckError(
                f"Theorem {self.id!r}: the `evidence_variant` of finding(s) {', '.join(map(repr, unknown))} is not a "
                f"variant; variants: {', '.join(names)}."
            )
        if not callable(self.trial):
            raise RpcheckError(f"Theorem {self.id!r}: `trial` ({self.trial!r}) must be a callable(params, rng).")
        if self.parameters is not None:
            params = self.parameters
            if not isinstance(params, Mapping) or not all(isinstance(p, Param) for p in params.values()):
                raise RpcheckError(f"Theorem {self.id!r}: `parameters` must be a mapping name -> Param.")
        if not callable(self.arrays):
            ok = isinstance(self.arrays, tuple | list) and all(
                isinstance(a, tuple | list) and a and all(isinstance(k, str) for k in a) for a in self.arrays
            )
            if not ok:
                raise RpcheckError(
                    f"Theorem {self.id!r}: `arrays` ({self.arrays!r}) must be a tuple of shapes (tuples of "
                    "parameter names) or a callable(params) returning one."
                )
            object.__setattr__(self, "arrays", tuple(tuple(a) for a in self.arrays))
        if self.data_cells is not None and not callable(self.data_cells):
            raise RpcheckError(
                f"Theorem {self.id!r}: `data_cells` ({self.data_cells!r}) must be a callable(info, cells)."
            )
        object.__setattr__(self, "constraints", tuple(self.constraints))
        if not all(isinstance(c, Constraint) for c in self.constraints):
            raise RpcheckError(f"Theorem {self.id!r}: `constraints` must be Constraint objects.")
        for pname, prof in self.profiles.items():
            for idx, cell in enumerate(prof.cells):
                msg = self.cell_problem(cell)
                if msg:
                    raise RpcheckError(f"theorem {self.id!r}, profile {pname!r}, cell {idx} ({cell}): {msg}.")

    def cell_problem(self, params: Mapping, *, names=None, memory=False, constraints=True) -> str | None:
        """Why the parameter dict ``params`` is not a valid cell (None when it is, or when ``parameters``
        is not declared). ``names`` restricts the domain checks to those parameters; ``memory=True`` also
        refuses a cell whose trial needs more memory than is available (:func:`trial_memory`; not done for
        the profiles' cells at import, which must not depend on the machine); ``constraints=False`` skips
        the relations between parameters (a search over one parameter leaves the declared grid on purpose)."""
        if self.parameters is None:
            return None
        if not isinstance(params, Mapping):
            return f"the parameters must be a dict of name -> value; got {type(params).__name__}"
        for k, val in params.items():
            if names is not None and k not in names:
                continue
            p = self.parameters.get(k)
            if p is None:
                return f"parameter {k!r} is not declared (declared: {', '.join(sorted(self.parameters))})"
            why = p.problem(val)
            if why:
                return f"parameter {k!r} = {val!r} is outside its domain, {p.domain()}: {why}"
        for c in self.constraints if constraints else ():
            try:
                ok = bool(c.check(params))
            except Exception as exc:  # noqa: BLE001 - reported with the constraint's description
                return f"constraint {c.description!r} could not be evaluated ({type(exc).__name__}: {exc})"
            if not ok:
                return f"constraint {c.description!r} is not satisfied"
        if memory:
            try:
                check_trial_memory(self, params)
            except RpcheckError as exc:
                return str(exc).rstrip(".")
        return None

    @functools.cached_property
    def variant_names(self) -> tuple:
        """The variants' names, in order (computed once per Theorem)."""
        return tuple(v.name for v in self.variants)

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        raise KeyError(name)

    def vacuous_reason(self, params: Mapping) -> str | None:
        return None if self.vacuous is None else self.vacuous(params)

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
- ``statistic``/``bound``: the two sides of the inequality, for quantiles, plots and slack reports;
  ``slack = bound - statistic`` when the claim reads ``statistic <= bound`` (checkers state the direction
  in ``Variant.statement``).

Verdict modes (``Variant.mode``)
---------------------------------
- ``"bound"`` (probabilistic claim ``P(fail) <= delta``): HOLDS when the exact upper confidence bound on
  the failure rate is <= delta, VIOLATED when the lower bound is > delta, else INCONCLUSIVE.
- ``"deterministic"``: must hold for every draw. VIOLATED on any non-vacuous exception (the checker's
  tolerance is already applied in ``holds``), HOLDS when none; VACUOUS when every trial was vacuous.
- ``"exact"`` (Monte Carlo against an exact probability ``p``): HOLDS (consistent) when the two-sided
  exact binomial test of ``failures ~ Bin(trials, p)`` does not reject at the cell's level, else VIOLATED.
- ``"search"``: an open question; the cell reports the worst slack found and how many instances were
  tried. Verdict HOLDS means "no counterexample found", VIOLATED means one was found.
- ``"report"``: an empirical measurement (reproductions, comparisons); no Bernoulli claim. The checker's
  ``decide`` hook (if any) gives the verdict, otherwise INCONCLUSIVE with the measured table.
"""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Verdict",
    "Citation",
    "Finding",
    "Variant",
    "Outcome",
    "TrialRecord",
    "Profile",
    "Theorem",
    "grid",
    "PROFILES",
    "KINDS",
    "MODES",
]

PROFILES = ("quick", "ci", "standard", "full")
KINDS = ("probabilistic", "deterministic", "empirical")
MODES = ("bound", "deterministic", "exact", "search", "report")


class Verdict(enum.StrEnum):
    HOLDS = "HOLDS"
    VIOLATED = "VIOLATED"
    INCONCLUSIVE = "INCONCLUSIVE"
    VACUOUS = "VACUOUS"


@dataclass(frozen=True)
class Citation:
    """Where a claim is printed. ``location`` uses the numbering the spec uses (for Paul et al. the arXiv
    PDF numbering); ``alt_location`` the other version's numbering when they differ."""

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


@dataclass(frozen=True)
class Finding:
    """A way a printed statement differs from what is true, proved, or measured (spec §6 / issues list).

    ``evidence_variant`` names the variant whose verdict is the evidence (e.g. the ``as_printed`` variant
    expected VIOLATED). ``status`` is filled by the report from that verdict."""

    key: str
    summary: str
    evidence_variant: str | None = None
    spec_ref: str = ""


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
    expected : Verdict, callable(params) -> Verdict or None, or None
        The verdict the suite expects (from the spec). ``None`` = open question (only reported).
    promised_failure : float or callable(params) -> float, optional
        ``delta`` for mode "bound"; the exact failure probability for mode "exact". Ignored otherwise.
    assumed : tuple of str
        Constants or readings that had to be reconstructed ([R] in the specs); shown in the report.
    note : str
    """

    name: str
    statement: str
    mode: str = "deterministic"
    expected: Any = None
    promised_failure: Any = None
    assumed: tuple = ()
    note: str = ""

    def __post_init__(self):
        if self.mode not in MODES:
            raise ValueError(f"`mode` ({self.mode!r}) must be one of {', '.join(map(repr, MODES))}.")

    def expected_for(self, params: Mapping) -> Verdict | None:
        exp = self.expected(params) if callable(self.expected) else self.expected
        return None if exp is None else Verdict(exp)

    def delta_for(self, params: Mapping) -> float | None:
        p = self.promised_failure
        if p is None:
            return None
        return float(p(params) if callable(p) else p)


@dataclass(frozen=True)
class Outcome:
    holds: bool
    statistic: float = math.nan
    bound: float = math.nan
    vacuous: bool = False


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


@dataclass(frozen=True)
class Profile:
    """A named run size: the grid cells (each a dict of parameters) and the trials per cell."""

    cells: tuple
    trials: int

    def __post_init__(self):
        object.__setattr__(self, "cells", tuple(dict(c) for c in self.cells))


def grid(**axes) -> tuple:
    """Cartesian product of parameter axes, as a tuple of dicts (in the order given).

    >>> grid(r=[64, 128], kind=["gaussian"])
    ({'r': 64, 'kind': 'gaussian'}, {'r': 128, 'kind': 'gaussian'})
    """
    names = list(axes)
    values = [v if isinstance(v, list | tuple) else [v] for v in axes.values()]
    return tuple(dict(zip(names, combo)) for combo in itertools.product(*values))


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
        Must define every name in ``PROFILES``.
    trial : callable(params: dict, rng: numpy.random.Generator) -> TrialRecord
        Pure function of its arguments (no global state), so a trial replays from its seed alone.
        Must be picklable (a module-level function) for the process and Dask backends.
    vacuous : callable(params) -> str or None
        Why a whole cell cannot be informative (e.g. "r < rho forces e >= 1"), or None.
    tolerance : float
        Numerical tolerance applied inside ``trial`` for deterministic inequalities; ``tolerance_note``
        says where it comes from (solver certificate, floating-point error analysis).
    decide : callable(records, params) -> (Verdict, dict), optional
        Custom cell decision for mode "report" variants (reproductions, comparisons).
    findings : tuple of Finding
    constant_search : mapping, optional
        For O(.)-type target dimensions: {"param": "r", "formula": callable(params)->float,
        "variant": name}; used by the engine's empirical-constant search.
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

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"`kind` ({self.kind!r}) must be one of {', '.join(map(repr, KINDS))}.")
        missing = [p for p in PROFILES if p not in self.profiles]
        if missing:
            raise ValueError(f"theorem {self.id!r} does not define the profiles {missing}.")
        names = [v.name for v in self.variants]
        if len(set(names)) != len(names) or not names:
            raise ValueError(f"theorem {self.id!r} must have at least one variant, with unique names: {names}.")

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        raise KeyError(name)

    def vacuous_reason(self, params: Mapping) -> str | None:
        return None if self.vacuous is None else self.vacuous(params)

"""The verification engine: theorem specs, registry, seeded runner, verdicts."""

from .registry import all_theorems, get, register
from .theorem import (
    PROFILES,
    Citation,
    Finding,
    Outcome,
    Profile,
    Theorem,
    TrialRecord,
    Variant,
    Verdict,
    grid,
)

__all__ = [
    "PROFILES",
    "Citation",
    "Finding",
    "Outcome",
    "Profile",
    "Theorem",
    "TrialRecord",
    "Variant",
    "Verdict",
    "grid",
    "register",
    "get",
    "all_theorems",
]

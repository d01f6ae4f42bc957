"""The verification engine: theorem specs, registry, seeded runner, verdicts, result files.

Plain imports (no lazy loading): the engine sits above :mod:`rpcheck.stats` and below the checkers, and
no module of the engine imports a layer above it (``tests/test_layers.py``), so there is no cycle to break.
"""

from .counterexample import Counterexample, ReplayResult, load_counterexample, replay
from .loading import CellOutcome, RunResult, load_results, load_trials
from .registry import all_theorems, get, register, undeclared_parameters
from .runner import (
    TrialError,
    canonical_json,
    family_size,
    replay_trial,
    run,
    run_cell,
    trial_rng,
    trial_seed_sequence,
    unattainable_expectations,
)
from .theorem import (
    PROFILES,
    Citation,
    Constraint,
    Finding,
    Outcome,
    Param,
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
    "Constraint",
    "Param",
    "undeclared_parameters",
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
    "run",
    "family_size",
    "unattainable_expectations",
    "run_cell",
    "replay_trial",
    "trial_seed_sequence",
    "trial_rng",
    "canonical_json",
    "TrialError",
    "load_results",
    "load_trials",
    "replay",
    "load_counterexample",
    "ReplayResult",
    "Counterexample",
    "RunResult",
    "CellOutcome",
]

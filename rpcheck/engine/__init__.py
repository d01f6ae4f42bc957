"""The verification engine: theorem specs, registry, seeded runner, verdicts.

The theorem contract (:mod:`rpcheck.engine.theorem`) and the registry are imported eagerly; the runner,
the result store and the counterexample tools are loaded on first access (PEP 562), which keeps
``import rpcheck.engine`` light and free of import cycles with :mod:`rpcheck.stats`.
"""

from .registry import all_theorems, get, register, undeclared_parameters
from .theorem import (
    PROFILES,
    Citation,
    Constraint,
    Param,
    Finding,
    Outcome,
    Profile,
    Theorem,
    TrialRecord,
    Variant,
    Verdict,
    grid,
)

_LAZY = {
    "run": ("runner", "run"),
    "family_size": ("runner", "family_size"),
    "run_cell": ("runner", "run_cell"),
    "replay_trial": ("runner", "replay_trial"),
    "trial_seed_sequence": ("runner", "trial_seed_sequence"),
    "trial_rng": ("runner", "trial_rng"),
    "canonical_json": ("runner", "canonical_json"),
    "TrialError": ("runner", "TrialError"),
    "load_results": ("loading", "load_results"),
    "load_trials": ("loading", "load_trials"),
    "replay": ("counterexample", "replay"),
    "load_counterexample": ("counterexample", "load_counterexample"),
    "ReplayResult": ("counterexample", "ReplayResult"),
    "Counterexample": ("counterexample", "Counterexample"),
    "RunResult": ("..results", "RunResult"),
    "CellOutcome": ("..results", "CellOutcome"),
}

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
    *_LAZY,
]


def __getattr__(name):
    if name in _LAZY:
        import importlib

        mod, attr = _LAZY[name]
        full = "rpcheck." + mod[2:] if mod.startswith("..") else f"{__name__}.{mod}"
        module = importlib.import_module(full)
        value = getattr(module, attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))

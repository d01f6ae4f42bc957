"""Run options shared by the CLI (``--profile``) and the pytest plugin (``--rpcheck-profile``).

``add_run_options(addoption, prefix="")`` registers them with any argparse-like ``addoption`` callable
(``argparse.ArgumentParser.add_argument`` or pytest's ``OptionGroup.addoption``), so both doors accept the
same options with the same parsing and help text (pytest-benchmark's ``add_display_options`` pattern).
"""

from __future__ import annotations

import argparse
import ast

from .engine.plan import MAX_JOBS, MAX_TRIALS
from .engine.theorem import PROFILES

__all__ = [
    "add_run_options",
    "parse_assignment",
    "BACKENDS",
    "positive_int",
    "probability",
    "seed_int",
    "trials_int",
    "jobs_int",
    "MAX_SEED",
    "MAX_TRIALS",
    "MAX_JOBS",
    "STOPPING",
    "duration_seconds",
]

BACKENDS = ("serial", "processes", "dask")
#: The stopping rules of a run (rpcheck.engine.run's ``stopping``), the default first.
STOPPING = ("anytime", "looks", "none", "until-decided")
_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0}


def duration_seconds(text):
    """A time budget in seconds: a positive number with an optional unit s, m or h.

    >>> duration_seconds("90"), duration_seconds("10m"), duration_seconds("1.5h")
    (90.0, 600.0, 5400.0)
    """
    t = str(text).strip().lower()
    unit = _UNITS.get(t[-1:], None)
    num = t[:-1] if unit is not None else t
    try:
        value = float(num) * (unit or 1.0)
    except ValueError:
        value = float("nan")
    if not (value > 0 and value < float("inf")):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a duration: a positive number of seconds, or with a unit (90s, 10m, 1.5h)"
        )
    return value

#: Root seeds are in [0, 2**63): NumPy's SeedSequence accepts any integer >= 0, but the seed is stored in
#: the int64 ``seed`` column of the cells table (a larger seed would fail only when the table is written,
#: after the whole run).
MAX_SEED = 2**63 - 1


def _int_in(low, high, what):
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            v = None
        if v is None or v < low or (high is not None and v > high):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return v

    return parse


positive_int = _int_in(1, None, "a positive integer")
seed_int = _int_in(0, MAX_SEED, "an integer in [0, 2**63 - 1] (the seed is stored as int64)")
trials_int = _int_in(1, MAX_TRIALS, f"an integer in [1, {MAX_TRIALS:,}] (the engine's limit of trials per cell)")
jobs_int = _int_in(1, MAX_JOBS, f"an integer in [1, {MAX_JOBS}] (the engine's limit of worker processes)")


def probability(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got {text!r}") from None
    if not 0 < v < 1:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got {text!r}")
    return v


def parse_assignment(text):
    """Parse ``name=value`` (value as a Python literal when possible, else a string).

    >>> parse_assignment("r=128")
    ('r', 128)
    >>> parse_assignment("kind=srht")
    ('kind', 'srht')
    >>> parse_assignment("r=[64, 128]")
    ('r', [64, 128])
    """
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected name=value, got {text!r}")
    name, _, raw = text.partition("=")
    name = name.strip()
    if not name.isidentifier():
        raise argparse.ArgumentTypeError(f"parameter name {name!r} is not a valid identifier")
    raw = raw.strip()
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        value = raw
    return name, value


def parse_label(text):
    """A class label from the command line: a number when it reads as one, else the string.

    >>> parse_label("3"), parse_label("-1.0"), parse_label("cat")
    (3, -1.0, 'cat')
    """
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def add_run_options(addoption, *, prefix="", profile_default="ci", profiles=PROFILES):
    """Register the run options (profile, trials, seed, jobs, backend, scheduler, alpha, stop, budget)."""
    addoption(
        f"--{prefix}profile",
        choices=profiles,
        default=profile_default,
        help="Run size: quick < ci < standard < full"
        + ("; paper: the papers' protocols on their real data (only the theorems with one)" if "paper" in profiles
           else "")
        + ". Default: %(default)r",
    )
    addoption(
        f"--{prefix}trials",
        type=trials_int,
        default=None,
        metavar="N",
        help=f"Override the number of trials per cell (1..{MAX_TRIALS}). Default: the profile's",
    )
    addoption(
        f"--{prefix}seed",
        type=seed_int,
        default=0,
        metavar="S",
        help="Root seed in [0, 2**63); every trial's stream is spawned from it. Default: %(default)r",
    )
    addoption(
        f"--{prefix}jobs",
        type=jobs_int,
        default=None,
        metavar="N",
        help=f"Worker processes for the processes backend (1..{MAX_JOBS}). Default: the number of CPUs",
    )
    addoption(
        f"--{prefix}backend",
        choices=BACKENDS,
        default="processes",
        help="Where trials run. Default: %(default)r",
    )
    addoption(
        f"--{prefix}scheduler",
        default=None,
        metavar="ADDRESS",
        help="Dask scheduler address for --backend dask (a LocalCluster when omitted). Default: %(default)r",
    )
    addoption(
        f"--{prefix}alpha",
        type=probability,
        default=0.01,
        metavar="A",
        help="Family-wise false-verdict probability (Holm-Bonferroni across cells). Default: %(default)r",
    )
    addoption(
        f"--{prefix}stop",
        choices=STOPPING,
        default="anytime",
        help="When a cell stops: 'anytime' as soon as every row with a verdict rule is decided (anytime-valid "
        "e-values; Holm at the planned trials for the rest), 'looks' at 5 equally spaced looks (Bonferroni), "
        "'none' after every planned trial, 'until-decided' e-values only, doubling a cell's trials until its rows "
        "are decided. Default: %(default)r",
    )
    addoption(
        f"--{prefix}budget",
        type=duration_seconds,
        default=None,
        metavar="DURATION",
        help="Schedule no new trial after DURATION (90s, 10m, 1.5h); the rows it leaves undecided say what "
        "they would need. Default: no budget",
    )

"""Run options shared by the CLI (``--profile``) and the pytest plugin (``--rpcheck-profile``).

``add_run_options(addoption, prefix="")`` registers them with any argparse-like ``addoption`` callable
(``argparse.ArgumentParser.add_argument`` or pytest's ``OptionGroup.addoption``), so both doors accept the
same options with the same parsing and help text (pytest-benchmark's ``add_display_options`` pattern).
"""

from __future__ import annotations

import argparse
import ast

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
]

BACKENDS = ("serial", "processes", "dask")

#: Root seeds are in [0, 2**63): NumPy's SeedSequence accepts any integer >= 0, but the seed is stored in
#: the int64 ``seed`` column of the cells table (a larger seed used to fail when the table was written,
#: after the whole run).
MAX_SEED = 2**63 - 1
#: Trials per cell are at most 10**6: the runner keeps every trial's record in memory (about 1.6 KB each,
#: measured with tracemalloc for 3 variants and 4 diagnostics: ~1.6 GB per cell at the limit) and the trials
#: table has one row per trial. At 10**6 trials an exact 99% interval already resolves failure rates of
#: 1e-5, far below every failure probability the papers state.
MAX_TRIALS = 10**6
#: Worker processes are at most 1024 (each is a Python interpreter with numpy/scipy loaded, ~100 MB).
MAX_JOBS = 1024


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
nonnegative_int = _int_in(0, None, "an integer >= 0")
seed_int = _int_in(0, MAX_SEED, "an integer in [0, 2**63 - 1] (the seed is stored as int64)")
trials_int = _int_in(
    1, MAX_TRIALS, f"an integer in [1, {MAX_TRIALS}] (every trial's record is kept in memory, ~1.6 KB each)"
)
jobs_int = _int_in(1, MAX_JOBS, f"an integer in [1, {MAX_JOBS}]")


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
    """Register the run options (profile, trials, seed, jobs, backend, scheduler, alpha)."""
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

"""Run options shared by the CLI (``--profile``) and the pytest plugin (``--rpcheck-profile``).

``add_run_options(addoption, prefix="")`` registers them with any argparse-like ``addoption`` callable
(``argparse.ArgumentParser.add_argument`` or pytest's ``OptionGroup.addoption``), so both doors accept the
same options with the same parsing and help text (pytest-benchmark's ``add_display_options`` pattern).
"""

from __future__ import annotations

import argparse
import ast

from .engine.theorem import PROFILES

__all__ = ["add_run_options", "parse_assignment", "BACKENDS", "positive_int", "probability"]

BACKENDS = ("serial", "processes", "dask")


def _int_at_least(low, what):
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            v = None
        if v is None or v < low:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return v

    return parse


positive_int = _int_at_least(1, "a positive integer")
nonnegative_int = _int_at_least(0, "an integer >= 0")


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


def add_run_options(addoption, *, prefix="", profile_default="ci"):
    """Register the run options (profile, trials, seed, jobs, backend, scheduler, alpha)."""
    addoption(
        f"--{prefix}profile",
        choices=PROFILES,
        default=profile_default,
        help="Run size: quick < ci < standard < full. Default: %(default)r",
    )
    addoption(
        f"--{prefix}trials",
        type=positive_int,
        default=None,
        metavar="N",
        help="Override the number of trials per cell. Default: the profile's",
    )
    addoption(
        f"--{prefix}seed",
        type=nonnegative_int,
        default=0,
        metavar="S",
        help="Root seed; every trial's stream is spawned from it. Default: %(default)r",
    )
    addoption(
        f"--{prefix}jobs",
        type=positive_int,
        default=None,
        metavar="N",
        help="Worker processes for the processes backend. Default: the number of CPUs",
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

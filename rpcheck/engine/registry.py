"""The registry of theorems. Checker modules call :func:`register` at import time;
:func:`all_theorems` imports every paper package under ``rpcheck.checkers`` first."""

from __future__ import annotations

import contextlib
import difflib
import importlib

from ..errors import RpcheckError

__all__ = [
    "register",
    "get",
    "all_theorems",
    "ids",
    "load_builtins",
    "registered",
    "registered_ids",
    "undeclared_parameters",
    "PAPER_PACKAGES",
]

PAPER_PACKAGES = ("paul2014", "shi2012", "zhang2013", "alpcan2016", "lei2020")
_REGISTRY: dict = {}
_loaded = False


def register(theorem):
    """Register a Theorem (idempotent for the same object; a different object under a used id is an error)."""
    old = _REGISTRY.get(theorem.id)
    if old is not None and old is not theorem:
        raise RpcheckError(f"theorem id {theorem.id!r} is registered twice.")
    _REGISTRY[theorem.id] = theorem
    return theorem


def _load():
    global _loaded
    if not _loaded:
        for pkg in PAPER_PACKAGES:
            importlib.import_module(f"rpcheck.checkers.{pkg}")
        _loaded = True


def load_builtins():
    """Import every built-in theorem module (idempotent), so that every built-in id is registered."""
    _load()


def registered(theorem_id):
    """The Theorem registered under ``theorem_id`` so far, or None; imports nothing."""
    return _REGISTRY.get(theorem_id)


def registered_ids():
    """The ids registered so far, sorted; imports nothing (see :func:`ids` for every id)."""
    return sorted(_REGISTRY)


def all_theorems():
    """Every registered Theorem, sorted by id."""
    _load()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def ids():
    return [t.id for t in all_theorems()]


def get(theorem_id):
    """The Theorem with this id; an unknown id raises RpcheckError listing the closest known ids. A built-in
    id imports its paper's package first (``rpcheck show`` of one theorem need not import every checker)."""
    paper = theorem_id.split(".", 1)[0] if isinstance(theorem_id, str) else None
    if not _loaded and theorem_id not in _REGISTRY and paper in PAPER_PACKAGES:
        importlib.import_module(f"rpcheck.checkers.{paper}")
    if theorem_id in _REGISTRY:
        return _REGISTRY[theorem_id]
    _load()
    try:
        return _REGISTRY[theorem_id]
    except KeyError:
        close = difflib.get_close_matches(theorem_id, list(_REGISTRY), n=5, cutoff=0.3)
        hint = f" Closest known ids: {', '.join(close)}." if close else ""
        raise RpcheckError(f"unknown theorem id {theorem_id!r}.{hint} `rpcheck list` shows all ids.") from None


def undeclared_parameters():
    """Ids of the registered theorems that do not declare ``parameters`` yet (their cells and overrides
    are not checked against parameter domains). A test can require this list to be empty."""
    return [t.id for t in all_theorems() if t.parameters is None]


@contextlib.contextmanager
def substituted(theorem):
    """Register ``theorem`` in place of the registered theorem of the same id, for the duration of a run.

    For a derived theorem that differs from the registered one only in its profiles (and declared
    parameters), e.g. the cells of a run on the user's data (:mod:`rpcheck.engine.userdata`): its trial and
    variants must be the registered ones, because process and Dask workers look theorems up by id and call
    the registered trial with each cell's parameters. The registered theorem is restored on exit.
    """
    old = _REGISTRY.get(theorem.id)
    if old is not None and (old.trial is not theorem.trial or old.variant_names != theorem.variant_names):
        raise RpcheckError(
            f"theorem {theorem.id!r}: a substitute must keep the registered trial and variants."
        )
    _REGISTRY[theorem.id] = theorem
    try:
        yield theorem
    finally:
        if old is None:
            _REGISTRY.pop(theorem.id, None)
        else:
            _REGISTRY[theorem.id] = old

"""The registry of theorems. Theorem modules call :func:`register` at import time.

The built-in theorems are those of the ``rpcheck`` distribution's own entry points in the ``rpcheck.theorems``
group (pyproject.toml: one per paper package, named by the id prefix of its theorems); third-party
distributions register into the same group (:mod:`rpcheck.engine.plugins`). :func:`load_builtins` imports
every built-in entry point, :func:`get` only the one named by the id's prefix. Loading a module entry point
that is a package imports its public submodules too (:func:`load_entry_point`), so a package needs no
hand-kept list of its theorem modules. Nothing here names a paper.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import importlib.metadata
import pkgutil
import re

from ..errors import RpcheckError

__all__ = [
    "GROUP",
    "DISTRIBUTION",
    "register",
    "get",
    "all_theorems",
    "builtin_entry_points",
    "builtin_papers",
    "builtin_theorems",
    "ids",
    "import_submodules",
    "is_builtin",
    "load_builtins",
    "load_entry_point",
    "registered",
    "registered_ids",
    "undeclared_parameters",
]

#: The entry-point group the built-in papers and third-party packages register theorems into.
GROUP = "rpcheck.theorems"
#: The distribution whose entry points are the built-in theorems.
DISTRIBUTION = "rpcheck"

_REGISTRY: dict = {}
_loaded = False
_entry_points = None  # the built-in entry points, read from the metadata once


def register(theorem):
    """Register a Theorem (idempotent for the same object; a different object under a used id is an error)."""
    old = _REGISTRY.get(theorem.id)
    if old is not None and old is not theorem:
        raise RpcheckError(f"theorem id {theorem.id!r} is registered twice.")
    _REGISTRY[theorem.id] = theorem
    return theorem


def is_builtin(ep):
    """Whether the entry point ``ep`` is declared by the ``rpcheck`` distribution itself."""
    dist = getattr(ep, "dist", None)
    return dist is not None and re.sub(r"[-_.]+", "-", dist.name).lower() == DISTRIBUTION


def builtin_entry_points():
    """The ``rpcheck.theorems`` entry points of the ``rpcheck`` distribution, sorted by name (metadata only;
    nothing is imported).

    Raises
    ------
    RpcheckError
        The installed metadata declares none (an installation older than the sources): no built-in theorem
        could be found, which is never silently an empty catalog.
    """
    global _entry_points
    if _entry_points is None:
        try:
            eps = importlib.metadata.distribution(DISTRIBUTION).entry_points.select(group=GROUP)
        except importlib.metadata.PackageNotFoundError:
            eps = ()
        if not eps:
            raise RpcheckError(
                f"the installed metadata of the {DISTRIBUTION!r} distribution declares no {GROUP!r} entry points, "
                "so no built-in theorem can be found: reinstall rpcheck (`pip install -e .` in a checkout)."
            )
        _entry_points = sorted(eps, key=lambda ep: ep.name)
    return list(_entry_points)


def import_submodules(package):
    """Import every public submodule of ``package`` (names not starting with ``_``), in sorted order; a
    plain module (no ``__path__``) imports nothing."""
    path = getattr(package, "__path__", None)
    if path is None:
        return
    for info in sorted(pkgutil.iter_modules(path), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{package.__name__}.{info.name}")


def load_entry_point(ep):
    """``ep.load()``; for an entry point naming a module (no attribute) that is a package, its public
    submodules are imported as well (:func:`import_submodules`). Returns the loaded object."""
    obj = ep.load()
    if not ep.attr:
        import_submodules(obj)
    return obj


def builtin_papers():
    """The names of the built-in entry points, sorted: the paper keys (id prefixes) of the built-in theorems.
    Reads metadata only; imports nothing."""
    return [ep.name for ep in builtin_entry_points()]


def _builtin_prefixes():
    return tuple(ep.module for ep in builtin_entry_points())


def _load():
    global _loaded
    if not _loaded:
        for ep in builtin_entry_points():
            load_entry_point(ep)
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


def builtin_theorems():
    """The built-in Theorems (their trial functions live in the modules of a built-in entry point), sorted
    by id."""
    prefixes = _builtin_prefixes()
    return [
        t
        for t in all_theorems()
        if any((m := getattr(t.trial, "__module__", "") or "") == p or m.startswith(p + ".") for p in prefixes)
    ]


def ids():
    return [t.id for t in all_theorems()]


def get(theorem_id):
    """The Theorem with this id; an unknown id raises RpcheckError listing the closest known ids. An id whose
    prefix (before the first dot) names a built-in entry point imports that entry point only (``rpcheck show``
    of one theorem need not import every theorem module)."""
    if not _loaded and theorem_id not in _REGISTRY and isinstance(theorem_id, str):
        prefix = theorem_id.split(".", 1)[0]
        for ep in builtin_entry_points():
            if ep.name == prefix:
                load_entry_point(ep)
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

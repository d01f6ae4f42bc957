"""Third-party theorems: the ``rpcheck.theorems`` entry-point group and ``module:ATTR`` references.

A package makes its theorems known to ``rpcheck list``, ``rpcheck check``, ``rpcheck verify`` and the
``theorem_check`` pytest fixture by declaring, in its ``pyproject.toml``::

    [project.entry-points."rpcheck.theorems"]
    "mypkg.claim" = "mypkg.claims:THEOREM"   # name = the theorem id, value = module:attribute
    mypkg = "mypkg.claims"                    # or: a module that calls rpcheck.engine.register() at import;
                                              # a package: its public submodules are imported too

rpcheck's own papers are entry points of the same group (``<paper> = "rpcheck.papers.<paper>"``); they are the
built-in theorems (:mod:`rpcheck.engine.registry`); :func:`entry_points` here lists the other distributions'.
Entry points are read from the installed distributions' metadata (``importlib.metadata``); a module is
imported only when a command needs that theorem (``check ID`` loads the entry point named ``ID``; ``list`` and
``verify`` load them all). Importing a module named by installed metadata or typed by the user on the command
line is the same trust decision as installing the package; a name read from a *data file* (a counterexample
``.npz``) is never imported: :func:`resolve` looks ids up in the registry and the entry points only.

Process and Dask workers find a theorem by id after importing the module of its ``trial`` function, so that
module must call :func:`rpcheck.engine.register` at import for ``--backend processes|dask``; with
``--backend serial`` a ``module:ATTR`` theorem needs no registration.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import os
import sys

from ..errors import RpcheckError
from . import registry
from .theorem import Theorem

__all__ = ["GROUP", "entry_points", "load_entry_points", "load_reference", "resolve", "plugin_ids"]

#: The entry-point group third-party packages (and rpcheck's own papers) register theorems into.
GROUP = registry.GROUP

_loaded: dict = {}  # (name, value) -> theorems it provided


def entry_points():
    """The installed ``rpcheck.theorems`` entry points of distributions other than rpcheck itself (metadata
    only; nothing is imported)."""
    return [ep for ep in importlib.metadata.entry_points(group=GROUP) if not registry.is_builtin(ep)]


def _register_object(obj, where):
    if isinstance(obj, Theorem):
        return [registry.register(obj)]
    if isinstance(obj, list | tuple) and obj and all(isinstance(t, Theorem) for t in obj):
        return [registry.register(t) for t in obj]
    raise RpcheckError(f"{where} is a {type(obj).__name__}, not an rpcheck.engine.Theorem (or a list of them).")


def _load_one(ep):
    key = (ep.name, ep.value)
    before = set(registry.registered_ids())
    try:
        obj = registry.load_entry_point(ep)
    except Exception as exc:  # the plugin's own import error: name the entry point, keep one line
        raise RpcheckError(
            f"entry point {ep.name!r} = {ep.value!r} of group {GROUP!r} failed to load: "
            f"{type(exc).__name__}: {exc}".replace("\n", " ")
        ) from exc
    if ep.attr:
        out = _register_object(obj, f"entry point {ep.name!r} = {ep.value!r}")
    else:  # a module: the theorems it registered at import
        out = [registry.registered(k) for k in sorted(set(registry.registered_ids()) - before)]
    _loaded[key] = out
    return out


def load_entry_points(name=None):
    """Import the entry points (all, or only those named ``name``) and register their theorems.

    Returns
    -------
    list of Theorem
        The theorems they provide (a module entry point provides what it registered at import).
    """
    out = []
    for ep in entry_points():
        if name is not None and ep.name != name:
            continue
        key = (ep.name, ep.value)
        out.extend(_loaded[key] if key in _loaded else _load_one(ep))
    return out


def plugin_ids():
    """Ids of the theorems provided by entry points (imports them)."""
    return sorted({t.id for t in load_entry_points()})


def _import_from_cwd(module):
    """Import ``module``; when it is not found on ``sys.path``, look in the current directory too, as
    ``python -m`` and pytest do (the ``rpcheck`` console script, unlike ``python -m rpcheck``, does not put
    the current directory on ``sys.path``). The directory is appended (it shadows no installed module) and
    stays there, so the process pool's workers, which start with the parent's ``sys.path``, find the
    module as well."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = module.split(".")[0]
        cwd = os.getcwd()
        if exc.name != top or cwd in sys.path or not (
            os.path.isfile(os.path.join(cwd, top + ".py")) or os.path.isdir(os.path.join(cwd, top))
        ):
            raise
        sys.path.append(cwd)
        importlib.invalidate_caches()
        return importlib.import_module(module)


def load_reference(ref):
    """Import ``module:ATTR`` (typed by the user) and register the Theorem (or list of them) it names.

    Returns
    -------
    Theorem
        The first theorem named by ``ref``.
    """
    module, sep, attr = ref.partition(":")
    if not sep or not module or not attr:
        raise RpcheckError(f"theorem reference {ref!r} must be 'module:ATTRIBUTE' (e.g. 'mypkg.claims:THEOREM').")
    try:
        mod = _import_from_cwd(module)
    except ImportError as exc:
        raise RpcheckError(f"theorem reference {ref!r}: cannot import module {module!r} ({exc}).") from None
    obj = mod
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise RpcheckError(f"theorem reference {ref!r}: module {module!r} has no attribute {attr!r}.") from None
    return _register_object(obj, f"theorem reference {ref!r}")[0]


def resolve(theorem_id, *, builtins=True):
    """The Theorem registered under ``theorem_id``: already registered, a built-in theorem, or provided by
    an entry point. Never imports a module whose name comes from anywhere but installed metadata.

    Raises
    ------
    RpcheckError
        Unknown id (the message lists the closest known ids).
    """
    if not isinstance(theorem_id, str) or not theorem_id:
        raise RpcheckError(f"theorem id ({theorem_id!r}) must be a non-empty string; `rpcheck list` shows all ids.")
    th = registry.registered(theorem_id)
    if th is not None:
        return th
    for t in load_entry_points(theorem_id):  # an entry point named by the id (the documented convention)
        if t.id == theorem_id:
            return t
    if builtins:
        try:
            return registry.get(theorem_id)
        except RpcheckError:
            pass
    load_entry_points()  # module entry points may register ids other than their names
    th = registry.registered(theorem_id)
    if th is not None:
        return th
    close = difflib.get_close_matches(theorem_id, registry.registered_ids(), n=5, cutoff=0.3)
    hint = f" Closest known ids: {', '.join(close)}." if close else ""
    raise RpcheckError(f"unknown theorem id {theorem_id!r}.{hint} `rpcheck list` shows all ids.")

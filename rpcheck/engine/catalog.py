"""The catalog of theorems: what ``rpcheck list`` and ``rpcheck show`` print, as JSON-serialisable dicts.

Building the full catalog imports every theorem module (about 3 s of CPU, once), so it is cached in the user's
cache directory (``$RPCHECK_CACHE_DIR``, else ``$XDG_CACHE_HOME/rpcheck``, else ``~/.cache/rpcheck``), keyed by
the size and modification time of every source file of the package: a changed theorem module is never described
from a stale catalog. This module imports only the standard library at import time.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .. import __version__
from ..errors import RpcheckError


def jsonable(obj):
    """JSON round trip with ``str`` for anything else (tuples become lists)."""
    return json.loads(json.dumps(obj, default=str))


def expected_summary(v, theorem, budget=0.05):
    """The expected verdict of a variant as text: a verdict, None, or what it is per profile cell.

    A callable rule is evaluated on the profiles' cells (ci first) for at most ``budget`` seconds (some
    rules compute exact probabilities); the text says when cells were left out."""
    import time

    if not callable(v.expected):
        return None if v.expected is None else str(getattr(v.expected, "value", v.expected))
    counts, left, t0 = {}, 0, time.perf_counter()
    for name in ("ci", "quick", "standard", "full"):
        for cell in theorem.profiles[name].cells:
            if time.perf_counter() - t0 > budget:
                left += 1
                continue
            try:
                e = v.expected(cell)
                e = "none" if e is None else str(getattr(e, "value", e))
            except Exception:  # a rule that needs parameters this profile lacks: say so, do not guess
                e = "?"
            counts[e] = counts.get(e, 0) + 1
    text = "per cell: " + ", ".join(f"{k} ({n} cells)" for k, n in sorted(counts.items()))
    return text + (f", {left} cells not evaluated here" if left else "")


def param_info(param):
    import dataclasses

    if dataclasses.is_dataclass(param):
        return {k: v for k, v in jsonable(dataclasses.asdict(param)).items() if v not in (None, "", [])}
    return {"domain": str(param)}


def example_assignment(theorem):
    cells = theorem.profiles["ci"].cells
    if cells and cells[0]:
        k, v = next(iter(cells[0].items()))
        return f"{k}={json.dumps(v) if not isinstance(v, str) else v}"
    return "NAME=VALUE"


def theorem_info(t, source="built-in"):
    """Everything ``rpcheck show`` prints (and the catalog caches): JSON-serialisable."""
    c = t.citation
    params = getattr(t, "parameters", None) or {}
    constraints = getattr(t, "constraints", None) or ()
    tid = t.id
    commands = [
        f"rpcheck check {tid}",
        f"rpcheck check {tid} --profile standard --jobs 2 --out runs/{tid}",
        f"rpcheck check {tid} --out runs/{tid} --resume",
        f"rpcheck check {tid} --set {example_assignment(t)} --details",
    ]
    if t.constant_search:
        commands.append(f"rpcheck constant {tid}")
    accepts_file = t.data_cells is not None
    data_sets = "data_source" in params  # rpcheck.engine.data.DATA_PARAM: registered data sets (--data NAME=PATH)
    if accepts_file:
        commands.append(f"rpcheck check {tid} --data FILE")
    if data_sets:
        commands.append(f"rpcheck check {tid} --data NAME=PATH")
    commands.append(f'python -c "from rpcheck.testing import verify_theorem; verify_theorem({tid!r})"')
    return {
        "id": tid,
        "paper": t.paper,
        "title": t.title,
        "kind": t.kind,
        "source": source,
        "citation": jsonable(c.__dict__),
        "cite": f"{c.authors} ({c.year}), {c.title}. {c.venue}. {c.location}".strip(),
        "statement": t.statement,
        "variants": [
            {
                "name": v.name,
                "mode": v.mode,
                "role": getattr(v, "role", "claim"),
                "expected": expected_summary(v, t),
                "promised_failure": ("per cell" if callable(v.promised_failure) else jsonable(v.promised_failure)),
                "statement": v.statement,
                "assumed": list(v.assumed),
                "note": v.note,
            }
            for v in t.variants
        ],
        "parameters": {name: param_info(p) for name, p in params.items()},
        "constraints": [getattr(k, "description", str(k)) for k in constraints],
        "profiles": {
            name: {
                "trials": p.trials,
                "trials_text": p.describe_trials(),
                "parameters": sorted({k for cell in p.cells for k in cell}),
                "cells": jsonable(list(p.cells)),
            }
            for name, p in t.profiles.items()
        },
        "tolerance": t.tolerance,
        "tolerance_note": t.tolerance_note,
        "findings": jsonable([f.__dict__ for f in t.findings]),
        "constant_search": bool(t.constant_search),
        "accepts_data_file": accepts_file,
        "runs_registered_data": data_sets,
        "commands": commands,
    }


def cache_dir():
    env = os.environ.get("RPCHECK_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rpcheck"


def package_root():
    """The directory of the rpcheck package (its theorem modules included): what :func:`source_key` covers."""
    return Path(__file__).resolve().parents[1]


def source_key(root=None):
    """crc32 of the version and (path, size, mtime) of every .py file under ``root`` (default:
    :func:`package_root`): changes whenever any source changes."""
    import zlib

    parts = [__version__]
    for rel, path in py_files(Path(root) if root is not None else package_root()):
        st = os.stat(path)
        parts.append(f"{rel}:{st.st_size}:{st.st_mtime_ns}")
    return f"{zlib.crc32(chr(10).join(parts).encode()):08x}"


def py_files(root):
    """``(relative path, path)`` of every .py file under ``root`` (``__pycache__`` skipped), in a fixed order."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for f in sorted(filenames):
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                yield os.path.relpath(path, root), path


def read_cache(path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_cache(path, obj):
    try:  # best effort: a read-only home only makes the next call slow again
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(obj), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def builtin_theorems():
    """The built-in theorems (those of the rpcheck distribution's own entry points), sorted by id."""
    from . import registry

    return registry.builtin_theorems()


def light_index():
    """``{id: {id, paper, kind, title, source}}`` of the built-in theorems, from their declarations only."""
    return {
        t.id: {"id": t.id, "paper": t.paper, "kind": t.kind, "title": t.title, "source": "built-in"}
        for t in builtin_theorems()
    }


def builtin_index(key=None):
    """``{id: {id, paper, kind, title, source}}`` of the built-in theorems (what ``list`` prints): the full
    catalog when it is cached, else the light index (:func:`light_index`, cached too), which needs the theorem
    modules' declarations only, not :func:`theorem_info` (whose per-cell expected verdicts may solve
    problems: cvxpy, numba)."""
    key = key or source_key()
    full = read_cache(cache_dir() / f"catalog-{key}.json")
    if full is not None:
        return full
    path = cache_dir() / f"index-{key}.json"
    index = read_cache(path)
    if index is None:
        index = light_index()
        write_cache(path, index)
    return index


def builtin_info(ref):
    """``show``'s info of one built-in theorem (None when ``ref`` is not one): from the full catalog when cached,
    else computed for that theorem alone and cached per theorem."""
    key = source_key()
    full = read_cache(cache_dir() / f"catalog-{key}.json")
    if full is not None:
        return full.get(ref)
    if ref not in builtin_index(key):
        return None
    import zlib

    path = cache_dir() / f"info-{key}" / f"{zlib.crc32(ref.encode()):08x}.json"
    info = read_cache(path)
    if info is None or info.get("id") != ref:
        from . import registry

        info = theorem_info(registry.get(ref))
        write_cache(path, info)
    return info


def plugin_infos():
    from . import plugins

    return {t.id: theorem_info(t, source="plugin") for t in plugins.load_entry_points()}


def unknown_id(theorem_id, known):
    import difflib

    close = difflib.get_close_matches(theorem_id, list(known), n=5, cutoff=0.3)
    hint = f" Closest known ids: {', '.join(close)}." if close else ""
    return RpcheckError(f"unknown theorem id {theorem_id!r}.{hint} `rpcheck list` shows all ids.")


def resolve_theorem(ref):
    """The Theorem for a command-line reference: an id (built-in or plugin) or ``module:ATTRIBUTE``."""
    from . import plugins

    if not ref:
        raise RpcheckError("theorem id ('') must be a non-empty id or module:ATTRIBUTE; `rpcheck list` shows ids.")
    if ":" in ref:
        return plugins.load_reference(ref)
    return plugins.resolve(ref)



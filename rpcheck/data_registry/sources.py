"""An experiment's data: the ``data`` setting of a theorem (synthetic or a registered set) and its
resolution to a checked, hashed file (:func:`resolve`, :func:`load_source`)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import RpcheckError
from .entries import _dataset
from .fetching import _load_file, _read_manifest, _sha256, data_dir, fetch

#: Values of a theorem's ``data_source`` parameter besides an explicit mapping: "auto" (the registry's cache
#: when the set is fetched, else the stand-in), "standin" (always the stand-in), "real:<name>[,<name>...]" (the
#: named sets must be present, explicitly or in the cache: the ``paper`` profile's cells).
DATA_MODES = ("auto", "standin", "real")
_REAL = "real:"


def data_setting(mapping):
    """The ``data_source`` parameter value of an explicit ``{registry name: path}`` mapping (``--data NAME=PATH``).

    Each name must be registered and each path an existing file or directory: a file is the set's training (or
    only) file, a directory holds the set's registered file names (like ``<cache>/<name>/``), or, for a set kept
    as an archive (TechTC-300), the extracted files. The value is ``"NAME=PATH;..."`` with absolute paths,
    sorted by name (an empty mapping gives "auto"); it reaches the trials as a JSON string.

    Examples
    --------
    >>> data_setting({})
    'auto'
    """
    if isinstance(mapping, str) or not hasattr(mapping, "items"):
        raise RpcheckError(f"`data` ({mapping!r}) must be a mapping of registry name -> path.")
    out = []
    for name, path in sorted(mapping.items()):
        _dataset(name, None)
        if isinstance(path, bool) or not isinstance(path, str | os.PathLike) or not str(path).strip():
            raise RpcheckError(f"`--data {name}=...` ({path!r}) must be a file or directory path.")
        p = Path(path).expanduser().resolve()
        if not p.exists():
            raise RpcheckError(f"`--data {name}={path}`: no such file or directory ({str(p)!r}).")
        if ";" in str(p):
            raise RpcheckError(f"`--data {name}={path}`: the path must not contain ';' (the separator of entries).")
        out.append(f"{name}={p}")
    return ";".join(out) or "auto"


def parse_data(value):
    """``(mode, required, mapping)`` of a ``data_source`` parameter value: mode in :data:`DATA_MODES`, the registry
    names a "real:" value requires, and the explicit ``{name: path}`` entries of a :func:`data_setting` value."""
    if not isinstance(value, str) or not value:
        raise RpcheckError(f"`data` ({value!r}) must be 'auto', 'standin', 'real:<name>' or 'NAME=PATH;...'.")
    if value in ("auto", "standin"):
        return value, (), {}
    if value.startswith(_REAL):
        names = tuple(n for n in value[len(_REAL):].split(",") if n)
        for n in names:
            _dataset(n, None)
        if not names:
            raise RpcheckError(f"`data` ({value!r}) must name the sets it requires: 'real:<name>[,<name>...]'.")
        return "real", names, {}
    mapping = {}
    for entry in value.split(";"):
        name, eq, path = entry.partition("=")
        if not eq or not path:
            raise RpcheckError(f"`data` entry {entry!r} of {value!r} must be NAME=PATH (NAME a registry name).")
        _dataset(name, None)
        mapping[name] = path
    return "auto", (), mapping


def data_problem(value):
    """Why ``value`` is not a valid ``data_source`` parameter value (None when it is); for a theorem's Constraint."""
    try:
        parse_data(value)
    except RpcheckError as exc:
        return str(exc)
    return None


@dataclass(frozen=True)
class DataSource:
    """The data one experiment runs on: the real files of a registered set, or its stand-in.

    Attributes
    ----------
    name : str
        The registry name.
    real : bool
    files : tuple of (part, path, sha256)
        The files used (empty for a stand-in); a directory's sha256 is over its files' names and hashes.
    origin : {"--data", "cache", "stand-in"}
    """

    name: str
    real: bool
    files: tuple = ()
    origin: str = "stand-in"

    @property
    def label(self):
        """"real data: <path> sha256 <hex>" per file, or "stand-in: <name>" (a row's data column)."""
        if not self.real:
            return f"stand-in: {self.name}"
        return "; ".join(f"real data: {p} sha256 {h}" for _, p, h in self.files)

    def path(self, part="train"):
        """The path of ``part`` ("train" also finds a set's only file, "all")."""
        got = {pt: p for pt, p, _ in self.files}
        p = got.get(part) or (got.get("all") if part == "train" else None)
        if p is None:
            raise RpcheckError(f"data set {self.name!r}: no {part!r} file among {sorted(got)} ({self.label}).")
        return p


_HASHES: dict = {}


def _hash_path(path):
    """SHA-256 of a file, or of a directory's (relative name, file hash) list; memoized per (path, size, mtime)."""
    p = Path(path)
    st = p.stat()
    key = (str(p), st.st_size, st.st_mtime_ns)
    if key not in _HASHES:
        if p.is_dir():
            h = hashlib.sha256()
            for q in sorted(x for x in p.rglob("*") if x.is_file()):
                h.update(f"{q.relative_to(p)}\0{_sha256(q)}\n".encode())
            _HASHES[key] = h.hexdigest()
        else:
            _HASHES[key] = _sha256(p)
    return _HASHES[key]


def _explicit(ds, path):
    p = Path(path)
    if not p.exists():
        raise RpcheckError(f"data set {ds.name!r}: {str(p)!r} (given by --data) does not exist.")
    readable = [f for f in ds.files if f.fmt != "archive"]
    if p.is_dir() and readable:
        found = [(f.part, p / f.name) for f in readable if (p / f.name).is_file()]
        if not found:
            names = ", ".join(f.name for f in readable)
            raise RpcheckError(f"data set {ds.name!r}: directory {str(p)!r} (given by --data) holds none of {names}.")
    elif p.is_dir() or not readable:
        found = [("all", p)]
    else:
        found = [(readable[0].part, p)]
    return DataSource(ds.name, True, tuple((pt, str(q), _hash_path(q)) for pt, q in found), "--data")


def present(name, *, cache=None):
    """Whether every file of the registered set ``name`` is in the cache (no hashing: :func:`fetch` verifies)."""
    ds = _dataset(name, None)
    where = data_dir(cache) / ds.name
    return all((where / f.name).is_file() for f in ds.files)


_CACHED: dict = {}


def _from_cache(ds, cache):
    if not present(ds.name, cache=cache):
        return None
    where = data_dir(cache) / ds.name
    sig = tuple((f.name, (where / f.name).stat().st_size, (where / f.name).stat().st_mtime_ns) for f in ds.files)
    key = (str(where), sig)
    if key not in _CACHED:  # verified once per process and file version (trials call this for every draw)
        _CACHED[key] = _verify_from_cache(ds, cache)
    return _CACHED[key]


def _verify_from_cache(ds, cache):
    paths = fetch(ds.name, cache=cache, offline=True)  # verifies the hashes; never downloads
    files = _read_manifest(data_dir(cache))
    out = []
    for f in ds.files:
        if f.fmt == "archive":  # read as the extracted files beside the archive
            out.append(("all", str(paths[f.name].parent), _hash_path(paths[f.name])))
        else:
            rec = files.get(f"{ds.name}/{f.name}") or {}
            out.append((f.part, str(paths[f.name]), rec.get("sha256") or _hash_path(paths[f.name])))
    return DataSource(ds.name, True, tuple(out), "cache")


def fetch_hint(name):
    """The one-line instruction that makes the set ``name`` present."""
    return f"`rpcheck data fetch {name}` (or `--data {name}=PATH` naming a copy)"


def resolve(name, data="auto", *, cache=None):
    """The :class:`DataSource` of the registered set ``name`` under the ``data_source`` parameter value ``data``.

    Resolution: an explicit entry for ``name`` (``--data NAME=PATH``) wins; else, unless ``data`` is "standin",
    the registry's cache when every file of the set is there (verified offline, never downloaded); else the
    stand-in -- except under "real:..." naming ``name``, which raises one RpcheckError naming
    ``rpcheck data fetch NAME``. Cheap after the first call in a process (hashes are memoized).
    """
    ds = _dataset(name, None)
    mode, required, mapping = parse_data(data)
    if name in mapping:
        return _explicit(ds, mapping[name])
    if mode != "standin":
        src = _from_cache(ds, cache)
        if src is not None:
            return src
    if mode == "real" and name in required:
        raise RpcheckError(
            f"data set {name!r} is not present in {str(data_dir(cache) / name)!r}: fetch it with {fetch_hint(name)}."
        )
    return DataSource(ds.name, False)


def missing(values, *, data=None, cache=None):
    """The registry names that the ``data_source`` parameter values ``values`` require ("real:...") and that are
    neither in the explicit mapping ``data`` (``{name: path}``) nor present in the cache, sorted."""
    need = set()
    for v in values:
        need.update(parse_data(v)[1])
    return sorted(n for n in need if n not in (data or {}) and not present(n, cache=cache))


_LOADED: dict = {}


def load_source(src, part="train", *, positive=None, task=None, n_features=None):
    """The checked :class:`~rpcheck.datasets.Dataset` of ``part`` of a real :class:`DataSource` (memoized per
    process: trials of one run read the file once). Formats as registered (svmlight plain/bz2, MATLAB
    ``fea``/``gnd``, CSV); for a set kept as an archive, a TechTC-300 pair directory through
    :func:`rpcheck.datasets.load_techtc`, or one exported file through :func:`rpcheck.datasets.load_file`."""
    from ..datasets import load_file, load_techtc  # deferred: scipy (see fetching._load_file)

    if not src.real:
        raise RpcheckError(f"{src.label}: no file to load (the experiment runs its stand-in).")
    ds = _dataset(src.name, None)
    path = src.path(part)
    key = (src.name, path, part, positive, task, n_features)
    if key not in _LOADED:
        readable = {f.part: f for f in ds.files if f.fmt != "archive"}
        f = readable.get(part) or readable.get("all") or readable.get("train")
        if f is None:  # an archive set, read from its extracted copy: a directory of TechTC-300 pair files, or
            # one exported svmlight/CSV file (format by suffix)
            _LOADED[key] = (load_techtc(path, check_shape=False) if Path(path).is_dir() else
                            load_file(path, task=task or ds.task, positive=positive))
        else:
            if n_features is not None and f.fmt == "svmlight":
                out = load_file(path, fmt="svmlight", n_features=n_features, task=task or ds.task,
                                positive=positive)  # fmt: skip
            else:
                out = _load_file(f, path, positive=positive, task=task or ds.task)
            _LOADED[key] = out
    return _LOADED[key]

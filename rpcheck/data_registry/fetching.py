"""Fetch once, verify, cache (:mod:`rpcheck.data_registry`): the cache directory, its manifest, the checks
of a downloaded file, :func:`fetch`, :func:`status` and :func:`load`."""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from .._validation import check_choice
from ..errors import RpcheckError
from .entries import DATA_DIR_ENV, MANIFEST, PARTS, TIMEOUT_S, _dataset, registered


def data_dir(cache=None):
    """The cache directory: ``cache``, else ``$RPCHECK_DATA_DIR``, else ``pooch.os_cache("rpcheck")``."""
    if cache is not None:
        if isinstance(cache, bool) or not isinstance(cache, str | os.PathLike):
            raise RpcheckError(f"`cache` ({cache!r}) must be a directory path.")
        return Path(cache).expanduser()
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    import pooch

    return Path(pooch.os_cache("rpcheck"))


# --------------------------------------------------------------------------------------------- manifest
def _read_manifest(root):
    path = root / MANIFEST
    if not path.is_file():
        return {}
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RpcheckError(
            f"the data manifest {str(path)!r} is unreadable ({exc}); it records the hashes of the cached files. "
            "Delete it and fetch again to re-record them (trusting the files on disk)."
        ) from None
    files = doc.get("files") if isinstance(doc, dict) else None
    if not isinstance(files, dict):
        raise RpcheckError(f"the data manifest {str(path)!r} has no 'files' object; delete it and fetch again.")
    return files


def _write_manifest(root, files):
    """Write the manifest atomically (temporary file in the same directory, then ``os.replace``)."""
    root.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"version": 1, "files": files}, indent=1, sort_keys=True) + "\n"
    fd, tmp = tempfile.mkstemp(dir=root, prefix=f".{MANIFEST}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, root / MANIFEST)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _file_digest(path, alg):
    """Hex digest of the file's bytes by the hashlib algorithm ``alg`` (read in blocks by hashlib itself)."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, alg).hexdigest()


def _sha256(path):
    return _file_digest(path, "sha256")


def _hash_matches(path, known):
    alg, _, want = known.partition(":")
    got = _file_digest(path, alg)
    return got == want.lower(), got


# --------------------------------------------------------------------------------------------- checks
def _load_file(f, path, *, positive=None, task=None):
    """Load one file of a registered set as a Dataset (shape checks use task='regression': any finite labels)."""
    # rpcheck.datasets imports scipy: deferred, so that the CLI (which imports this registry) starts light
    from ..datasets import load_file, load_techtc, make_dataset

    if f.fmt == "svmlight":
        return load_file(path, fmt="svmlight", n_features=f.cols, task=task, positive=positive)
    if f.fmt == "csv":
        return load_file(path, fmt="csv", task=task, positive=positive)
    if f.fmt == "techtc":
        return load_techtc(path, check_shape=False)
    if f.fmt == "mat":
        import scipy.io

        try:
            m = scipy.io.loadmat(path)
        except (ValueError, OSError, TypeError) as exc:
            raise RpcheckError(f"{str(path)!r} is not a readable MATLAB file: {exc}.") from None
        if "fea" not in m or "gnd" not in m:
            keys = sorted(k for k in m if not k.startswith("__"))
            raise RpcheckError(f"{str(path)!r} must hold arrays 'fea' and 'gnd'; found {keys}.")
        return make_dataset(
            m["fea"], m["gnd"].ravel(), name=f.name, task=task or "regression", positive=positive,
            description=f"MATLAB file {path}",
        )  # fmt: skip
    raise RpcheckError(f"{f.name!r} is an archive ({f.fmt}); rpcheck stores it but does not read it.")


def _shape_problems(f, path):
    """Differences between a file's shape and the stated one (empty when none is stated or all agree)."""
    from ..datasets import MAX_FEATURES, load_file  # deferred: scipy (see _load_file)

    if f.fmt == "archive" or (f.rows, f.cols, f.nnz) == (None, None, None):
        return []
    if f.fmt == "svmlight":  # read at the file's own width: a last column without entries is no mismatch
        ds = load_file(path, fmt="svmlight", task="regression", max_features=max(MAX_FEATURES, f.cols or 0))
        width_ok = f.cols is None or ds.d <= f.cols
    else:
        ds = _load_file(f, path, task="regression" if f.fmt != "techtc" else None)
        width_ok = f.cols is None or ds.d == f.cols
    got = {"rows": ds.n, "columns": ds.d, "nonzeros": int(ds.X.nnz) if hasattr(ds.X, "nnz") else None}
    want = {"rows": f.rows, "columns": f.cols, "nonzeros": f.nnz}
    ok = {"rows": f.rows in (None, ds.n), "columns": width_ok, "nonzeros": f.nnz in (None, got["nonzeros"])}
    return [f"{k} {got[k]:,} (stated {want[k]:,})" for k in want if not ok[k]]


# --------------------------------------------------------------------------------------------- fetch
def _now():
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _download(url, staging, f):
    """Download ``url`` into ``staging/f.name`` with pooch; every failure becomes one RpcheckError."""
    import pooch
    import requests

    pooch.get_logger().setLevel("WARNING")
    downloader = pooch.HTTPDownloader(progressbar=False, timeout=TIMEOUT_S)
    try:
        return Path(pooch.retrieve(url, known_hash=f.known_hash, fname=f.name, path=staging,
                                   downloader=downloader))  # fmt: skip
    except requests.exceptions.HTTPError as exc:
        r = exc.response
        code = f"HTTP {r.status_code} {r.reason}" if r is not None else str(exc)
        raise RpcheckError(f"could not download {url}: the server answered {code}.") from None
    except (requests.exceptions.ChunkedEncodingError, requests.exceptions.ContentDecodingError) as exc:
        raise RpcheckError(
            f"the download of {url} was cut short (the connection closed before the announced length was "
            f"received: {type(exc).__name__}); nothing was cached. Fetch again."
        ) from None
    except requests.exceptions.Timeout:
        raise RpcheckError(f"could not download {url}: no answer within {TIMEOUT_S} s; nothing was cached.") from None
    except requests.exceptions.ConnectionError as exc:
        raise RpcheckError(
            f"could not download {url}: no connection to the server ({type(exc).__name__}); check the network, "
            "or use --offline with files already in the cache."
        ) from None
    except requests.exceptions.RequestException as exc:
        raise RpcheckError(f"could not download {url}: {type(exc).__name__}: {exc}.") from None
    except ValueError as exc:
        if f.known_hash is not None and "hash" in str(exc).lower():
            raise RpcheckError(
                f"the file downloaded from {url} does not match the published hash {f.known_hash} "
                f"({f.hash_source}); it was discarded, nothing was cached."
            ) from None
        raise RpcheckError(f"could not download {url}: {exc}") from None


def fetch(name, *, cache=None, offline=False, base_url=None, registry=None):
    """Make the files of a registered data set present and verified in the cache; return their paths.

    Parameters
    ----------
    name : str
        A name from :func:`registered`.
    cache : str or os.PathLike, optional
        The cache directory (default: :func:`data_dir`).
    offline : bool, default=False
        Never touch the network: a missing file is an error.
    base_url : str, optional
        Download each file from ``base_url + "/" + file name`` instead of its registered URL (a mirror, or a
        local server in tests).
    registry : sequence of RegisteredDataset, optional
        The registry to look ``name`` up in (default :data:`REGISTRY`).

    Returns
    -------
    dict
        file name -> Path of the verified cached file.

    Raises
    ------
    RpcheckError
        Unknown name; missing file offline or without a URL; no network, HTTP error, download cut short;
        published hash or recorded hash differs; shape differs from the stated one. No partial file is left.
    """
    ds = _dataset(name, registry)
    root = data_dir(cache)
    where = root / ds.name
    files = _read_manifest(root)
    out, missing = {}, []
    for f in ds.files:
        path = where / f.name
        if path.is_file():
            _verify_cached(ds, f, path, files)
            out[f.name] = path
        else:
            missing.append(f)
    if not missing:
        _record(root, ds, files, out, new=())
        return out
    for f in missing:
        url = f.url if base_url is None else base_url.rstrip("/") + "/" + f.name
        if offline:
            raise RpcheckError(
                f"data set {ds.name!r}: {f.name} is not in the cache ({str(where / f.name)!r}) and offline mode "
                f"forbids downloading; fetch it with network access (`rpcheck data fetch {ds.name}`) or copy it "
                "there."
            )
        if url is None:
            raise RpcheckError(
                f"data set {ds.name!r}: {f.name} has no confirmed download URL ({ds.url_note}). Get it from "
                f"{ds.page} and place it at {str(where / f.name)!r}; `rpcheck data fetch {ds.name}` then checks "
                "and records it."
            )
    where.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=root, prefix=".fetch-"))
    try:
        got, urls = {}, {}
        for f in missing:
            urls[f.name] = f.url if base_url is None else base_url.rstrip("/") + "/" + f.name
            got[f.name] = _download(urls[f.name], staging, f)
        for f in missing:
            _check_new(ds, f, got[f.name], urls[f.name])
        for f in missing:  # all checked: move into place (same file system: atomic renames)
            os.replace(got[f.name], where / f.name)
            out[f.name] = where / f.name
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    _record(root, ds, files, out, new=[f.name for f in missing], base_url=base_url)
    return out


def _check_new(ds, f, path, source):
    try:
        problems = _shape_problems(f, path)
    except RpcheckError as exc:
        raise RpcheckError(
            f"data set {ds.name!r}: the file downloaded from {source} is not a valid {f.fmt} file ({exc}); it "
            "was discarded, nothing was cached."
        ) from None
    if problems:
        raise RpcheckError(
            f"data set {ds.name!r}: the file downloaded from {source} has the wrong shape: "
            + "; ".join(problems)
            + f" ({f.stated_by}); it was discarded, nothing was cached."
        )


def _verify_cached(ds, f, path, files):
    key = f"{ds.name}/{f.name}"
    rec = files.get(key)
    if f.known_hash is not None:
        ok, got = _hash_matches(path, f.known_hash)
        if not ok:
            raise RpcheckError(
                f"cached {str(path)!r} does not match the published hash {f.known_hash} ({f.hash_source}); it is "
                "corrupt or another file. Delete it and fetch again."
            )
    if rec is not None:
        got = _sha256(path)
        if got != rec.get("sha256"):
            raise RpcheckError(
                f"cached {str(path)!r} has SHA-256 {got[:16]}... but {str(rec.get('sha256'))[:16]}... was recorded "
                f"when it was first fetched ({rec.get('recorded', '?')}); it changed or is corrupt. Delete it and "
                "fetch again."
            )
    elif f.known_hash is None:  # placed by hand, never recorded: check its shape before trusting it
        _check_new(ds, f, path, str(path))


def _record(root, ds, files, out, *, new, base_url=None):
    """Record the new files' hashes. The manifest is read again just before the atomic write, so a fetch of
    another set into the same cache meanwhile keeps its records (a record still lost to a race only makes the
    next fetch check that file's shape again and record it)."""
    todo = {}
    for f in ds.files:
        key = f"{ds.name}/{f.name}"
        if f.name not in out or (key in files and f.name not in new):
            continue
        path = out[f.name]
        todo[key] = {
            "sha256": _sha256(path),
            "size": path.stat().st_size,
            "url": (base_url.rstrip("/") + "/" + f.name) if (base_url and f.name in new) else f.url,
            "source": "download" if f.name in new else "placed in the cache by hand",
            "recorded": _now(),
            "trust": "published hash " + f.known_hash if f.known_hash else "first use",
        }
    if todo:
        files = _read_manifest(root)
        files.update(todo)
        _write_manifest(root, files)


def status(*, cache=None, registry=None):
    """One row per registered file: which are present in the cache, their size, path and recorded hash.

    Cheap: hashes are not recomputed (:func:`fetch` verifies them).

    Returns
    -------
    list of dict
        set, file, part, present, size, path, sha256 (recorded or None), url, stated (rows x cols and by whom).
    """
    root = data_dir(cache)
    files = _read_manifest(root)
    rows = []
    for ds in registered(registry).values():
        for f in ds.files:
            path = root / ds.name / f.name
            rec = files.get(f"{ds.name}/{f.name}") or {}
            stated = " x ".join(f"{v:,}" if v is not None else "?" for v in (f.rows, f.cols))
            rows.append(
                {
                    "set": ds.name,
                    "file": f.name,
                    "part": f.part,
                    "present": path.is_file(),
                    "size": path.stat().st_size if path.is_file() else None,
                    "path": str(path),
                    "sha256": rec.get("sha256"),
                    "url": f.url,
                    "stated": f"{stated} ({f.stated_by})" if f.stated_by else stated,
                }
            )
    return rows


def load(name, part="train", *, cache=None, offline=True, positive=None, task=None, base_url=None, registry=None):
    """A verified :class:`~rpcheck.datasets.Dataset` of one part of a registered set.

    ``part`` is "train", "test" or "all" (a set with one file has only "all"; "train" then means that file).
    The file is fetched (or, with ``offline=True``, the default, only verified) through :func:`fetch`;
    ``positive``/``task`` are passed to :func:`rpcheck.datasets.load_file` (a multi-class set needs
    ``positive=`` for a binary task).
    """
    check_choice("part", part, PARTS)
    ds = _dataset(name, registry)
    paths = fetch(name, cache=cache, offline=offline, base_url=base_url, registry=registry)
    parts = {f.part: f for f in ds.files}
    f = parts.get(part) or (parts.get("all") if part == "train" else None)
    if f is None:
        raise RpcheckError(f"data set {ds.name!r} has no part {part!r}; it has {sorted(parts)}.")
    return _load_file(f, paths[f.name], positive=positive, task=task or ds.task)

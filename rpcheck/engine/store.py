"""Result files: atomic writes, Parquet/CSV tables, the checkpoint store used by ``resume=True``.

Layout of a results directory (``ARCHITECTURE.md``, "Result tables")::

    out/
      cells.parquet        (cells.csv when pyarrow is absent)
      trials/<theorem id>.parquet   (.csv; one table per theorem, its own columns only)
      provenance.json
      counterexamples/*.npz
      checkpoints/<theorem id>/<crc32 of params>-s<root seed>/<start>-<stop>.npz

Every file is written atomically: the bytes go to a temporary file in the same directory, which is
flushed, fsync'ed and moved over the target with :func:`os.replace` (atomic on POSIX and Windows), so
a crash or SIGKILL mid-write leaves either the old file or the new one, never a torn file.
Checkpoint chunks are columnar ``.npz`` files without pickled objects (:class:`CheckpointStore`): floats
are stored as binary float64 (NaN and infinities included), so a resumed run is bit-identical to an
uninterrupted one. ``trials/`` holds the first :data:`rpcheck.engine.runner.TRIAL_SAMPLE` trials of
each cell; every trial stays in ``checkpoints/`` (:func:`rpcheck.engine.load_trials` reads them all).
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import shutil
import tempfile
import warnings
import zipfile
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from ..errors import RpcheckError, RpcheckWarning
from ._records import _FIELDS, _STATUS, ChunkResult, OutcomeRow, TrialResult, diag_columns, outcome_columns  # noqa: F401 (re-exported)
from .provenance import git_commit, package_versions

__all__ = [
    "atomic_write_bytes",
    "atomic_write_text",
    "write_table",
    "read_table",
    "table_format",
    "CheckpointStore",
    "ChunkResult",
    "MARKER",
    "prepare_results_dir",
    "ensure_results_dir",
    "read_json",
]


def _umask():
    """The process umask (read by setting and restoring it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write_bytes(path, data, *, fsync=True):
    """Write ``data`` to ``path`` atomically (temporary file in the same directory + ``os.replace``).

    The file gets the permissions of an ordinary new file (``0o666`` minus the umask), not the ``0o600``
    of :func:`tempfile.mkstemp`. ``fsync=False`` skips the fsync (the rename stays atomic, but the data may
    not survive a power loss; for temporary files)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if fsync:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


def write_concurrently(calls, threads=8):
    """Run the independent file writes ``calls`` (callables without arguments, each an atomic write of its
    own file) on ``threads`` threads, and re-raise the first error once all have ended. Every file is still
    written and fsync'ed on its own before its rename; concurrent fsyncs share the filesystem's journal
    commits (on the 2-core development machine: 2.25 ms a file one after the other, 0.18 ms with 4 threads;
    a quick run writes about 300 such files at its end)."""
    with ThreadPoolExecutor(max_workers=threads) as ex:
        futures = [ex.submit(c) for c in calls]
    for f in futures:
        f.result()


def atomic_write_text(path, text):
    return atomic_write_bytes(path, text.encode("utf-8"))


def _have_pyarrow():
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def table_format():
    """``"parquet"`` when pyarrow is importable, else ``"csv"``."""
    return "parquet" if _have_pyarrow() else "csv"


def _parquet_safe(df):
    """Make object columns storable: a column mixing types (e.g. a parameter that is an int in one theorem
    and a string in another) is stored as strings (JSON for non-strings); ``params`` (canonical JSON)
    keeps the exact values, and :func:`rpcheck.engine.load_results` rebuilds the ``p_`` columns from it."""
    import pandas as pd

    out = df.copy()
    for col in out.columns:
        if out[col].dtype != object:
            continue
        kinds = {type(v) for v in out[col] if v is not None and not (isinstance(v, float) and math.isnan(v))}
        if not kinds or kinds <= {str} or kinds == {bool}:
            continue
        if kinds <= {int, float}:
            out[col] = pd.to_numeric(out[col])
        else:
            out[col] = out[col].map(lambda v: v if isinstance(v, str) or v is None else json.dumps(v))
    return out


def write_table(df, directory, name, *, fmt=None):
    """Write ``df`` as ``directory/name.parquet`` (or ``.csv``) atomically; returns the path."""
    fmt = fmt or table_format()
    directory = Path(directory)
    if fmt == "parquet":
        buf = io.BytesIO()
        _parquet_safe(df).to_parquet(buf, index=False)
        return atomic_write_bytes(directory / f"{name}.parquet", buf.getvalue())
    return atomic_write_text(directory / f"{name}.csv", df.to_csv(index=False))


# pandas < 3.1: read_csv's default C float parser is not round-trip exact (measured on pandas 2.1.4 and
# 3.0.6: a 1-ulp error on ~36% of random doubles written by to_csv); "round_trip" is. pandas 3.1 made the
# exact parser the default and deprecated ``float_precision``.
def _csv_float_exact():
    import pandas as pd

    return {} if tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1) else {"float_precision": "round_trip"}


def read_csv_exact(path):
    """``pandas.read_csv`` that reads back every double written by ``to_csv`` exactly, on every supported
    pandas version (see ``_csv_float_exact``)."""
    import pandas as pd

    return pd.read_csv(path, **_csv_float_exact())


def read_table(directory, name):
    """Read ``directory/name.parquet`` or ``directory/name.csv`` (whichever exists, Parquet first)."""
    import pandas as pd

    directory = Path(directory)
    pq = directory / f"{name}.parquet"
    if pq.exists():
        return pd.read_parquet(pq)
    csv = directory / f"{name}.csv"
    if csv.exists():
        return pd.read_csv(csv, keep_default_na=False, na_values=["", "NaN", "nan"], **_csv_float_exact())
    raise FileNotFoundError(f"no {name}.parquet or {name}.csv in {directory}")


_CHUNK_RE = re.compile(r"^(\d+)-(\d+)\.npz$")
#: Version of the checkpoint chunk layout (4: one 2-D array per outcome field and for the diagnostics, about
#: 10 arrays per chunk whatever the number of variants; 3 had one array per (variant, field) and per diagnostic,
#: ~100 zip members per chunk, ~30 ms per chunk to write; 2 was JSON lists). Chunks of another format are
#: recomputed, never misread.
CHUNK_FORMAT = 4
def _chunk_arrays(meta, records, variants, columns=None):
    """The columns of one chunk (plain NumPy arrays: numbers, booleans and unicode strings).

    Outcome field ``f`` of variant ``j`` of trial ``t`` is ``arrays[f][t, j]`` (a trial with a solver error
    has no outcomes: NaN / False there); diagnostic ``m`` (name ``diag_names[m]``) of trial ``t`` is
    ``diag_value[t, m]`` where ``diag_present[t, m]``. ``columns``: :func:`outcome_columns` of ``records``
    when the caller has it.
    """
    if not isinstance(records, ChunkResult):
        records = ChunkResult.from_records(records, len(variants), columns)
    arrays = {"meta": np.array(json.dumps(meta, allow_nan=True)), "error": records.error}
    arrays.update(records.columns)
    arrays["diag_names"] = records.diag_names
    arrays["diag_value"], arrays["diag_present"] = records.diag_value, records.diag_present
    return arrays


def _chunk_columns(z, n_variants):
    """The columns of a chunk as Python lists: ``(idx, status, error, seconds, cols, names, dv, dp)`` with
    ``cols[f][t][j]`` field ``f`` (in ``_FIELDS`` order) of variant ``j`` of trial ``t``, ``names`` the
    diagnostic names and ``dv[t][m]`` / ``dp[t][m]`` their values and presence."""
    idx = z["i"].tolist()
    n = len(idx)
    status = [_STATUS[s] for s in z["status"].tolist()]
    error = [str(e) for e in z["error"].tolist()]
    seconds = z["seconds"].tolist()
    cols = [z[f].reshape(n, n_variants).tolist() for f, _ in _FIELDS]
    names = [str(x) for x in z["diag_names"].tolist()]
    dv = z["diag_value"].reshape(n, len(names)).tolist()
    dp = z["diag_present"].reshape(n, len(names)).tolist()
    return idx, status, error, seconds, cols, names, dv, dp


def _chunk_records(z, n_variants):
    """TrialResults back from the columns of a chunk (the inverse of :func:`_chunk_arrays`)."""
    idx, status, error, seconds, cols, names, dv, dp = _chunk_columns(z, n_variants)
    out = []
    for t, i in enumerate(idx):
        st = status[t]
        outs = () if st != "ok" else tuple(OutcomeRow(*(c[t][j] for c in cols)) for j in range(n_variants))
        diag = {k: dv[t][m] for m, k in enumerate(names) if dp[t][m]}
        out.append(TrialResult(int(i), st, error[t], float(seconds[t]), outs, diag))
    return out


class CheckpointStore:
    """Completed trial chunks of a results directory, one columnar ``.npz`` file per chunk.

    A chunk file holds, as plain NumPy arrays (read with ``allow_pickle=False``), the metadata (theorem id,
    canonical parameters, root seed, trial range, variant names) and one column per field of the trials
    ``start .. stop-1``: trial index, status, solver error message, seconds, for every variant ``j`` the
    2-D columns ``holds|statistic|bound|vacuous|undetermined`` (trial x variant), and the diagnostics
    (names in ``diag_names``) as a trial x diagnostic array of values and a presence mask. Floats are stored as
    binary float64, so they round-trip exactly. A trial record is a pure function of (theorem id, parameters,
    trial index, root seed), so chunks are reusable by any later run with the same root seed, whatever its profile,
    chunking or backend.

    ``durable=False`` (the temporary spill directory of a run without ``out``) skips the fsync of each
    chunk: a crash loses that directory anyway.
    """

    def __init__(self, root, *, durable=True):
        self.root = Path(root) / "checkpoints"
        self.durable = durable

    def check_code_version(self, resume):
        """Record the code version (rpcheck version and git commit) in ``checkpoints/manifest.json``; when
        resuming checkpoints written by another version, warn (RpcheckWarning): their trials were computed
        by different code, so the resumed run need not equal an uninterrupted run of the current code."""
        current = {"rpcheck": package_versions().get("rpcheck"), "git_commit": git_commit(cached=False)[0]}
        path = self.root / "manifest.json"
        if resume and path.exists():
            old = read_json(path, "checkpoint manifest")
            if old != current:
                warnings.warn(
                    f"resuming checkpoints written by rpcheck {old} with rpcheck {current}: reused trials were "
                    "computed by different code.",
                    RpcheckWarning,
                    stacklevel=3,
                )
                return
        atomic_write_text(path, json.dumps(current))

    def cell_dir(self, theorem_id, canonical, seed):
        key = f"{zlib.crc32(canonical.encode('utf-8')):08x}-s{seed}"
        return self.root / theorem_id / key

    def save_chunk(self, theorem_id, canonical, seed, start, stop, records, variants=(), columns=None):
        """Write the TrialResults of trials ``start .. stop-1`` (``variants``: the variant names, in order;
        ``columns``: their :func:`outcome_columns`, when already computed)."""
        meta = {
            "format": CHUNK_FORMAT,
            "theorem": theorem_id,
            "params": canonical,
            "seed": seed,
            "start": start,
            "stop": stop,
            "variants": list(variants),
        }
        buf = io.BytesIO()
        np.savez(buf, **_chunk_arrays(meta, records, list(variants), columns))
        path = self.cell_dir(theorem_id, canonical, seed) / f"{start:09d}-{stop:09d}.npz"
        atomic_write_bytes(path, buf.getvalue(), fsync=self.durable)
        return path

    def iter_chunks(self, theorem_id, canonical, seed, variants=None, *, columns=False):
        """Yield ``(start, stop, [TrialResult, ...])`` per checkpointed chunk of this cell, in file order,
        one chunk in memory at a time (``columns=True``: the chunk's columns as :func:`_chunk_columns`
        returns them, in place of the list of TrialResults).

        ``variants`` (the theorem's variant names in order) must match the names the chunk was written
        with; a chunk written for other variants is not reused."""
        d = self.cell_dir(theorem_id, canonical, seed)
        if not d.is_dir():
            return
        for p in sorted(d.iterdir()):
            if not _CHUNK_RE.match(p.name):
                continue  # temporary files of an interrupted write, chunks of an older format
            try:
                with np.load(p, allow_pickle=False) as z:
                    meta = json.loads(str(z["meta"][()]))
                    if not isinstance(meta, dict) or not {"params", "theorem", "seed", "variants"} <= set(meta):
                        raise ValueError("missing keys")
                    if meta["params"] != canonical or meta["theorem"] != theorem_id or meta["seed"] != seed:
                        continue  # crc32 collision: not this cell
                    if meta.get("format") != CHUNK_FORMAT:
                        continue
                    if variants is not None and list(meta["variants"]) != list(variants):
                        continue  # the theorem's variants changed since: recomputed
                    recs = (_chunk_columns if columns else _chunk_records)(z, len(meta["variants"]))
            except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile, EOFError) as exc:
                raise RpcheckError(
                    f"the checkpoint chunk {str(p)!r} is corrupted ({exc}); delete it to recompute its trials."
                ) from None
            yield int(meta["start"]), int(meta["stop"]), recs

    def load_cell(self, theorem_id, canonical, seed, variants=None):
        """``{trial index: TrialResult}`` of every checkpointed trial of this cell (empty when none); holds
        the whole cell in memory (the runner uses :meth:`iter_chunks`)."""
        out = {}
        for _, _, recs in self.iter_chunks(theorem_id, canonical, seed, variants):
            for r in recs:
                out[r.i] = r
        return out

    def n_trials(self):
        """Number of checkpointed trials (all cells), from the file names."""
        total = 0
        for p in self.root.rglob("*.npz"):
            m = _CHUNK_RE.match(p.name)
            if m:
                total += int(m.group(2)) - int(m.group(1))
        return total


# ------------------------------------------------------------------------------------ results directory

#: The marker written by rpcheck into every results directory it owns; rpcheck deletes nothing in a
#: directory without it.
MARKER = "rpcheck-results.json"
#: Run settings a resumed run must share with the run that wrote the directory.
RESUME_KEYS = ("theorems", "seed", "profile", "alpha")


def read_json(path, what):
    """``json.loads`` of a file rpcheck wrote; a corrupted file raises RpcheckError naming it."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RpcheckError(f"the {what} {str(path)!r} is unreadable or corrupted ({exc}).") from None


def _check_out(out):
    if out is None or (isinstance(out, str) and not out.strip()):
        raise RpcheckError(f"`out` ({out!r}) must be a directory path.")
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise RpcheckError(f"`out` ({str(path)!r}) exists and is not a directory.")
    return path


def _foreign(path):
    return path.is_dir() and any(path.iterdir()) and not (path / MARKER).is_file()


def _stray_tmp(path):
    """Temporary files of an interrupted :func:`atomic_write_bytes` (``.<name>.<random>.tmp``)."""
    return [p for p in path.rglob(".*.tmp") if p.is_file()]


def ensure_results_dir(out, key):
    """Make ``out`` a results directory of rpcheck (create it and write :data:`MARKER`) unless it is one
    already; refuse a non-empty directory that rpcheck did not write. Deletes nothing. Returns the Path."""
    path = _check_out(out)
    if _foreign(path):
        raise RpcheckError(
            f"`out` ({str(path)!r}) is a non-empty directory that rpcheck did not write (no {MARKER}); "
            "rpcheck writes results only into a new or empty directory, or one it wrote before."
        )
    path.mkdir(parents=True, exist_ok=True)
    if not (path / MARKER).is_file():
        atomic_write_text(path / MARKER, json.dumps({"format": 1, **key}, sort_keys=True, default=str))
    return path


def prepare_results_dir(out, *, resume, key):
    """Prepare the results directory of :func:`rpcheck.engine.run` before any trial.

    - a new or empty directory is created and marked (:data:`MARKER`);
    - a non-empty directory without the marker, or a ``checkpoints/`` folder that rpcheck did not write,
      is refused (RpcheckError): nothing rpcheck did not write is ever deleted;
    - ``resume=False`` on a marked directory discards its checkpoints and counterexamples (rpcheck's own
      files) and re-marks it with ``key``;
    - ``resume=True`` needs the marker's :data:`RESUME_KEYS` to equal ``key`` (another theorem set, seed,
      profile or alpha is refused, not overwritten) and removes stray temporary files of a killed run.
    """
    path = _check_out(out)
    if _foreign(path):
        raise RpcheckError(
            f"`out` ({str(path)!r}) is a non-empty directory that rpcheck did not write (no {MARKER}); "
            "choose a new or empty directory."
        )
    ckpt = path / "checkpoints"
    if ckpt.exists() and not (ckpt / "manifest.json").is_file():
        raise RpcheckError(
            f"`out` ({str(path)!r}) holds a checkpoints/ folder that rpcheck did not write (no "
            "checkpoints/manifest.json); refusing to use or delete it."
        )
    marked = (path / MARKER).is_file()
    if resume and marked:
        old = read_json(path / MARKER, "results manifest")
        if not isinstance(old, dict):
            raise RpcheckError(f"the results manifest {str(path / MARKER)!r} is corrupted (not a JSON object).")
        diff = [k for k in RESUME_KEYS if json.dumps(old.get(k), default=str) != json.dumps(key.get(k), default=str)]
        if diff:
            got = ", ".join(f"{k}={old.get(k)!r} (now {key.get(k)!r})" for k in diff)
            raise RpcheckError(
                f"`resume=True`: the results directory {str(path)!r} was written by a run with {got}; resume "
                "it with the same settings, or choose another `out`."
            )
        for p in _stray_tmp(path):
            p.unlink(missing_ok=True)
        return path
    if marked and not resume:
        if ckpt.exists():
            shutil.rmtree(ckpt)
        ce = path / "counterexamples"
        if ce.is_dir():
            for p in ce.glob("*.npz"):
                p.unlink()
        for p in _stray_tmp(path):
            p.unlink(missing_ok=True)
    path.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path / MARKER, json.dumps({"format": 1, **key}, sort_keys=True, default=str))
    return path

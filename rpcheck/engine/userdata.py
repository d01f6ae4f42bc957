r"""The user's data in a theorem run: ``rpcheck check ID --data FILE``.

A theorem whose claims are about a given data matrix (Paul et al.'s margin and enclosing-ball preservation and
main ratio, Theorems 3.5, 3.6 and 1.1; Zhang et al.'s recovery bounds, Theorems 1 and 2) declares
``Theorem.data_cells``; every other theorem generates its data and refuses a
file. :func:`run_on_data` builds the run's cells from the file's description and the selected profile (the
theorem's ``data_cells``), checks them against the theorem's declared domains, and runs them with
:func:`rpcheck.engine.run` like any other cells.

How the data reach a trial
    Parameters are JSON, so a cell holds the file's absolute path (``data``) and the first 16 hex digits of
    its SHA-256 (``data_sha256``), never the arrays. A trial calls :func:`trial_data`, which loads the file
    once per process (a cache keyed by the real path, modification time and size; the hash is checked against
    the cell's on the first load, so a file changed during a run is an error, not silently other data). Per
    trial seeds depend on the cell's canonical JSON, hence on the path string: the same file under another
    path gives other (equally valid) draws.

Sparse input
    A svmlight file loads as CSR and stays CSR where the theorem's code path allows it: sketches apply to CSR
    (``Sketch.apply``). The row-space basis ``V`` (d x rank, what every distortion ``e`` of Paul et al. is
    measured on) is a thin SVD of the densified matrix, allowed up to :data:`DENSE_ROWSPACE_MAX` entries; a
    larger file gets one error naming the limit. Which theorem densifies what is said in its ``data_cells``.

``--data NAME=PATH``
    A value whose left side of ``=`` is a registered data set of :mod:`rpcheck.data_registry` names one of
    the papers' own data sets (their experiments), not a user file: :func:`parse_data_argument` tells the two
    apart, and :func:`run_on_data` refuses the registry form with one error.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from .. import datasets
from ..errors import RpcheckError
from ..linalg import row_space_basis
from . import registry
from .registry import all_theorems
from .runner import run
from .theorem import PROFILES, Param, Profile, Theorem

__all__ = [
    "DATA_PARAM",
    "DENSE_ROWSPACE_MAX",
    "UserData",
    "parse_data_argument",
    "load_user_data",
    "trial_data",
    "data_info",
    "data_label",
    "data_theorems",
    "data_theorem",
    "run_on_data",
]

#: The cell parameter that carries the file's path.
DATA_PARAM = "data"
#: Largest ``n * d`` densified for the row-space SVD of a sparse file (160 MB of float64).
DENSE_ROWSPACE_MAX = 20_000_000

_CACHE: dict = {}


@dataclass
class UserData(datasets.MatrixShape):
    """A loaded data file: ``X`` (dense float64 or CSR), ``y`` in {-1, +1}, its identity and a per-process memo
    of derived quantities (:meth:`memo`)."""

    ref: str
    name: str
    X: Any
    y: np.ndarray
    sha256: str
    source: str  # "file" or "bundled"
    _memo: dict = field(default_factory=dict, repr=False)

    @property
    def sparse(self) -> bool:
        return bool(sp.issparse(self.X))

    def memo(self, key, fn):
        """``fn()`` computed once per process for this file (e.g. the row-space basis), on one BLAS thread as
        every trial is (:func:`rpcheck.engine._worker.one_blas_thread`): the value is the same bits whether the
        main process (building the cells, or a serial run) or a worker computes it first."""
        if key not in self._memo:
            from ._worker import one_blas_thread

            with one_blas_thread():
                self._memo[key] = fn()
        return self._memo[key]

    def row_space(self):
        """Orthonormal basis ``V`` (d x rank) of the row space of ``X`` (thin SVD; a sparse ``X`` is densified
        for the SVD only, up to :data:`DENSE_ROWSPACE_MAX` entries)."""

        def compute():
            if self.sparse and self.n * self.d > DENSE_ROWSPACE_MAX:
                raise RpcheckError(
                    f"`--data` ({self.ref!r}): the row space of a sparse {self.n} x {self.d} matrix needs a dense "
                    f"SVD of {self.n * self.d:,} entries, above the limit {DENSE_ROWSPACE_MAX:,}; use a subset "
                    "of the rows (the theorem's e is measured on the row space)."
                )
            return row_space_basis(self.X)

        return self.memo("row_space", compute)


def parse_data_argument(value):
    """Tell a user file from a registry data set in a ``--data`` value.

    Returns ``("file", path)`` or ``("registry", name, path)``; the latter when ``value`` contains ``=`` and
    its left side is a data set of :mod:`rpcheck.data_registry` (``NAME=PATH``, the papers' experiments).
    A value with ``=`` whose left side is not a registry name is a file path.

    >>> parse_data_argument("my.svmlight")
    ('file', 'my.svmlight')
    >>> parse_data_argument("a=b.csv")
    ('file', 'a=b.csv')
    """
    if not isinstance(value, str) or not value:
        raise RpcheckError(f"`--data` ({value!r}) must be a file path (or NAME=PATH for a registry data set).")
    name, sep, path = value.partition("=")
    if sep:
        from .. import data_registry

        if name in {d.name for d in data_registry.REGISTRY}:
            return ("registry", name, path)
    return ("file", value)


def _sha256_file(path):
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _sha256_arrays(X, y):
    h = hashlib.sha256()
    if sp.issparse(X):
        X = X.tocsr()
        for a in (X.indptr, X.indices, X.data):
            h.update(np.ascontiguousarray(a).tobytes())
    else:
        h.update(np.ascontiguousarray(X, dtype=np.float64).tobytes())
    h.update(np.ascontiguousarray(y, dtype=np.float64).tobytes())
    return h.hexdigest()


def _bundled_classification():
    return tuple(n for n in datasets.BUNDLED if n != "diabetes")  # diabetes is a regression set


def load_user_data(ref, *, bundled=False, arg="FILE"):
    """Load a classification data file once per process; a cached copy is reused while the file's real path,
    modification time and size are unchanged.

    Parameters
    ----------
    ref : str or os.PathLike
        A file (svmlight/LIBSVM, CSV, .npz; :func:`rpcheck.datasets.load_file`), or with ``bundled=True`` also
        a name of :func:`rpcheck.datasets.load_bundled` ("breast_cancer", "digits") when no such file exists.
    arg : str
        The argument's name in error messages (``FILE``, ``--data``).

    Returns
    -------
    UserData
    """
    ref = os.fspath(ref) if isinstance(ref, os.PathLike) else ref
    if not isinstance(ref, str) or not ref:
        raise RpcheckError(f"`{arg}` ({ref!r}) must be a path to a data file.")
    if bundled and not os.path.exists(ref) and ref in _bundled_classification():
        key = ("bundled", ref)
        hit = _CACHE.get(key)
        if hit is not None:
            return hit
        ds = datasets.load_bundled(ref)
        ud = UserData(ref, ref, ds.X, np.asarray(ds.y, dtype=float), _sha256_arrays(ds.X, ds.y), "bundled")
        _CACHE[key] = ud
        return ud
    if not os.path.isfile(ref):
        extra = f" or one of the bundled sets {', '.join(_bundled_classification())}" if bundled else ""
        raise RpcheckError(f"`{arg}` ({ref!r}) is not an existing file{extra}.")
    real = os.path.realpath(ref)
    st = os.stat(real)
    stamp = (st.st_mtime_ns, st.st_size)
    hit = _CACHE.get(real)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    try:
        ds = datasets.load_file(real)
    except (RpcheckError, OSError):
        raise
    except (ValueError, UnicodeDecodeError, EOFError) as exc:
        msg = f"{type(exc).__name__}: {exc}".splitlines()[0]
        raise RpcheckError(f"`{arg}` ({ref!r}) could not be read as a data set ({msg}).") from None
    if ds.task != "classification":
        raise RpcheckError(f"`{arg}` ({ref!r}) must be a classification data set (labels -1/+1); got {ds.task}.")
    X = ds.X.tocsr() if sp.issparse(ds.X) else np.asarray(ds.X, dtype=np.float64)
    ud = UserData(real, Path(ref).name, X, np.asarray(ds.y, dtype=float), _sha256_file(real), "file")
    _CACHE[real] = (stamp, ud)
    return ud


def trial_data(params):
    """The :class:`UserData` of a cell (``params["data"]``), checked against the cell's ``data_sha256``."""
    ud = load_user_data(params[DATA_PARAM], bundled=True)
    want = params.get("data_sha256")
    if want and not ud.sha256.startswith(want):
        raise RpcheckError(
            f"data file {params[DATA_PARAM]!r} changed during the run: SHA-256 {ud.sha256[:16]}, the cells were "
            f"built for {want}."
        )
    return ud


def data_info(ref, *, bundled=False, rank=True, arg="FILE"):
    """Description of a data file: ``path, name, n, d, sparse, nnz, sha256, source``, and with ``rank`` the
    numerical rank of ``X`` (:meth:`UserData.row_space`), ``n_pos`` / ``n_neg``."""
    ud = load_user_data(ref, bundled=bundled, arg=arg)
    info = {
        "path": ud.ref,
        "name": ud.name,
        "n": ud.n,
        "d": ud.d,
        "sparse": ud.sparse,
        "nnz": int(ud.X.nnz) if ud.sparse else int(np.count_nonzero(ud.X)),
        "sha256": ud.sha256,
        "source": ud.source,
        "n_pos": int(np.sum(ud.y > 0)),
        "n_neg": int(np.sum(ud.y < 0)),
    }
    if rank:
        info["rank"] = int(ud.row_space().shape[1])
    return info


def data_label(info):
    """``"data: FILE (n x d, sha256 0123456789ab...)"``, the line every result on user data carries."""
    kind = ", sparse" if info.get("sparse") else ""
    return f"data: {info['path']} ({info['n']} x {info['d']}{kind}, sha256 {info['sha256'][:16]}...)"


def data_theorems():
    """Ids of the registered theorems that accept user data (declare ``data_cells``), sorted."""
    return [t.id for t in all_theorems() if t.data_cells is not None]


def _refuse(theorem):
    ok = ", ".join(data_theorems())
    raise RpcheckError(
        f"theorem {theorem.id!r} does not accept `--data` (it generates its data); theorems that take a data "
        f"file: {ok}."
    )


def data_theorem(theorem, info, profile):
    """The theorem with the cells of a run on the file described by ``info`` (:func:`data_info`).

    The cells come from ``theorem.data_cells(info, cells of profile)``; each gets ``data`` (the path) and
    ``data_sha256``; every profile of the returned theorem holds them (so the run's profile name, used in
    its provenance, is the selected one). Returns a Theorem with the same id, trial and variants.
    """
    if theorem.data_cells is None:
        _refuse(theorem)
    prof = theorem.profiles[profile]
    cells = []
    for cell in theorem.data_cells(dict(info), tuple(dict(c) for c in prof.cells)):
        cell = dict(cell)
        cell[DATA_PARAM] = info["path"]
        cell["data_sha256"] = info["sha256"][:16]
        if cell not in cells:
            cells.append(cell)
    if not cells:
        raise RpcheckError(
            f"theorem {theorem.id!r} has no cell for the data {info['path']!r} ({info['n']} x {info['d']}, "
            f"rank {info.get('rank')}) in profile {profile!r}."
        )
    params = None
    if theorem.parameters is not None:
        params = dict(theorem.parameters) | {
            DATA_PARAM: Param("str", doc="path of the user's data file (rpcheck check --data)"),
            "data_sha256": Param("str", doc="first 16 hex digits of the file's SHA-256"),
        }
    data_prof = Profile(tuple(cells), trials=prof.trials)
    return dataclasses.replace(theorem, profiles={p: data_prof for p in PROFILES}, parameters=params)


def run_on_data(theorem, data, *, profile="ci", out=None, **run_kwargs):
    """Run ``theorem`` on the user's data file ``data`` (:func:`rpcheck.engine.run` keywords pass through).

    Returns ``(RunResult, info)``; ``info`` (:func:`data_info`) is also stored under ``"data"`` in the run's
    provenance (and its ``provenance.json`` when ``out`` is given), and ``RunResult.cells`` gets a ``data``
    column holding :func:`data_label`.
    """
    th = registry.get(theorem) if isinstance(theorem, str) else theorem
    if not isinstance(th, Theorem):
        raise RpcheckError(f"`theorem` must be a theorem id or Theorem; got {theorem!r}.")
    if th.data_cells is None:
        _refuse(th)
    form = parse_data_argument(os.fspath(data))
    if form[0] == "registry":
        raise RpcheckError(
            f"`--data {data}` names the registry data set {form[1]!r} (NAME=PATH: the papers' own experiments); "
            "a user file is given as a path without `NAME=`, e.g. `--data ./my.svmlight`."
        )
    fixed = {DATA_PARAM, "data_sha256", *getattr(th.data_cells, "from_file", ("n", "d"))}
    clash = sorted(fixed & set(run_kwargs.get("overrides") or {}))
    if clash:
        raise RpcheckError(
            f"`--set` cannot change {', '.join(clash)} in a run on a data file: they come from the file "
            f"({theorem if isinstance(theorem, str) else th.id} takes {', '.join(sorted(fixed))} from it)."
        )
    info = data_info(form[1], bundled=True, arg="--data")
    derived = data_theorem(th, info, profile)
    with registry.substituted(derived):
        result = run([derived], profile=profile, out=out, **run_kwargs)
    label = data_label(info)
    if result.provenance is not None:
        result.provenance["data"] = dict(info, label=label)
    if len(result.cells):
        result.cells["data"] = label
    if out is not None:
        prov = Path(out) / "provenance.json"
        if prov.is_file():
            doc = json.loads(prov.read_text())
            doc["data"] = dict(info, label=label)
            tmp = prov.with_name(f".{prov.name}.tmp")
            tmp.write_text(json.dumps(doc, indent=1, default=str))
            os.replace(tmp, prov)
    return result, info

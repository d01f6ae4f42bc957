r"""The papers' own data sets: where each comes from, what the papers state about it, and a verified cache.

:data:`REGISTRY` lists the data sets the papers run their experiments on, each with its canonical source
URL(s), format, compression, the shape the papers or the source page state (and which of them states
it), the terms of use and the rpcheck experiments (theorem ids) that stand in for it today. A URL is
recorded only where the source page or public code that downloads from it confirms it; otherwise it is
None and ``page`` says where the set is described (and ``url_note`` why there is no URL).

Fetch once, verify, cache
-------------------------
:func:`fetch` downloads the missing files of a set with pooch (``pooch.retrieve``) into a staging
directory inside the cache, checks them, and only then moves them into place, so a failure (no network,
HTTP error, a download cut short, a hash mismatch, a wrong shape) never leaves a partial file in the
cache; each failure is one :class:`~rpcheck.errors.RpcheckError`. The cache directory is the ``cache``
argument, else ``$RPCHECK_DATA_DIR``, else ``pooch.os_cache("rpcheck")``; a set's files live in
``<cache>/<set name>/`` and ``<cache>/manifest.json`` records every file's SHA-256 (written atomically).

- A file whose hash is published in advance (``SourceFile.known_hash``) is checked against it on
  download; the others are **trusted on first use**: the first download's SHA-256 is recorded in the
  manifest, and every later use checks the file against that record.
- After a download the file is loaded and its shape compared with the stated one (rows, columns, and the
  number of nonzeros where a source states it); a file of another shape is discarded.
- ``offline=True`` never touches the network: a missing file is an error naming where it should be.
- A file placed into ``<cache>/<set name>/`` by hand (a set without a confirmed URL) is checked and
  recorded by the next :func:`fetch` the same way.

:func:`load` returns a checked :class:`~rpcheck.datasets.Dataset` of one part (train/test) of a fetched
set, for the experiments that run on the papers' data.
"""

from .entries import (
    DATA_DIR_ENV,
    MANIFEST,
    REGISTRY,
    RegisteredDataset,
    SourceFile,
    registered,
)
from .entries import (
    FORMATS as FORMATS,
)
from .entries import (
    PARTS as PARTS,
)
from .entries import (
    TIMEOUT_S as TIMEOUT_S,
)
from .fetching import (
    _download as _download,
)
from .fetching import (
    _sha256 as _sha256,
)
from .fetching import (
    data_dir,
    fetch,
    load,
    status,
)
from .sources import (
    _CACHED as _CACHED,
)
from .sources import (
    _LOADED as _LOADED,
)
from .sources import (
    DATA_MODES,
    DataSource,
    data_problem,
    data_setting,
    fetch_hint,
    load_source,
    missing,
    parse_data,
    present,
    resolve,
)

__all__ = [
    "SourceFile",
    "RegisteredDataset",
    "REGISTRY",
    "registered",
    "data_dir",
    "fetch",
    "status",
    "load",
    "MANIFEST",
    "DATA_DIR_ENV",
    "DATA_MODES",
    "DataSource",
    "data_setting",
    "parse_data",
    "data_problem",
    "present",
    "resolve",
    "missing",
    "fetch_hint",
    "load_source",
]

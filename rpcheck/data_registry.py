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

from __future__ import annotations

import datetime
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ._validation import check_choice
from .errors import RpcheckError

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

#: Environment variable naming the cache directory (overridden by an explicit ``cache`` argument).
DATA_DIR_ENV = "RPCHECK_DATA_DIR"
#: File name of the hash manifest inside the cache directory.
MANIFEST = "manifest.json"
FORMATS = ("svmlight", "techtc", "mat", "csv", "archive")
PARTS = ("all", "train", "test")
#: Seconds pooch's HTTP downloader waits for the server before giving up.
TIMEOUT_S = 60

_LIBSVM = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/"
_LIBSVM_BINARY = _LIBSVM + "binary.html"
_LIBSVM_MULTI = _LIBSVM + "multiclass.html"
#: Where the LIBSVM file URLs are confirmed: the LIBSVM pages link them; the same URLs are downloaded by the
#: maintained fetchers libsvmdata (mathurinm/libsvmdata, ``libsvmdata/datasets.py``) and torchvision (usps).
_LIBSVM_CONFIRMED = "URL as linked from the LIBSVM page and downloaded by libsvmdata's fetch_libsvm"
_LIBSVM_TERMS = (
    "terms of the LIBSVM data page (sets collected from UCI, Statlog, StatLib and other sources; cite the "
    "original source named on the page)"
)


@dataclass(frozen=True)
class SourceFile:
    """One downloadable file of a registered data set.

    Attributes
    ----------
    name : str
        File name inside ``<cache>/<set name>/``.
    url : str or None
        Canonical download URL, or None when no URL could be confirmed.
    part : {"all", "train", "test"}
    fmt : {"svmlight", "techtc", "mat", "csv", "archive"}
        "techtc" is one TechTC pair's ``vectors.dat`` (read by :func:`rpcheck.datasets.load_techtc`); "mat" a
        MATLAB file with arrays ``fea`` (rows x columns) and ``gnd`` (labels); "archive" is stored only.
    compression : {None, "bz2"}
        As served; rpcheck reads the compressed file directly.
    rows, cols, nnz : int or None
        The size as ``stated_by`` states it (None: not stated, not checked).
    stated_by : str
        Which paper (section, table) or source page states the size.
    known_hash : str or None
        A hash published in advance ("md5:..." or "sha256:..."); None: trusted on first use.
    hash_source : str
        Where ``known_hash`` is published.
    """

    name: str
    url: str | None
    part: str
    fmt: str
    compression: str | None = None
    rows: int | None = None
    cols: int | None = None
    nnz: int | None = None
    stated_by: str = ""
    known_hash: str | None = None
    hash_source: str = ""

    def __post_init__(self):
        check_choice("part", self.part, PARTS)
        check_choice("fmt", self.fmt, FORMATS)


@dataclass(frozen=True)
class RegisteredDataset:
    """A data set of the papers: its files, source page, terms and the experiments that use it.

    Attributes
    ----------
    name : str
        The name used by ``rpcheck data fetch NAME`` (and by :func:`rpcheck.datasets.known_datasets` where
        ``expect`` is set).
    title : str
    page : str
        The page that describes the set (and links its files).
    files : tuple of SourceFile
    terms : str
        Licence or terms of use as the source states them.
    theorems : tuple of str
        rpcheck theorem ids whose experiments reproduce what the papers ran on it (on its real files when given or
        fetched, else on named stand-ins; :func:`resolve`).
    used_by : str
        The papers' use of it (paper, section, table).
    expect : str or None
        The :func:`rpcheck.datasets.known_datasets` entry with the papers' shape, if any.
    task : {"classification", "regression"}
    url_note : str
        How the URLs are confirmed, or why there is none.
    note : str
    """

    name: str
    title: str
    page: str
    files: tuple
    terms: str
    theorems: tuple
    used_by: str
    expect: str | None = None
    task: str = "classification"
    url_note: str = ""
    note: str = field(default="")


def _libsvm(name, path, part, rows, cols, stated_by, *, known_hash=None, hash_source=""):
    return SourceFile(
        name=name,
        url=_LIBSVM + path,
        part=part,
        fmt="svmlight",
        compression="bz2" if name.endswith(".bz2") else None,
        rows=rows,
        cols=cols,
        stated_by=stated_by,
        known_hash=known_hash,
        hash_source=hash_source,
    )


_PAUL_RCV1 = "Paul et al. 2014, Sec. 4.1.4"
_LEI_T3 = "Lei & Lan 2020, Table 3 (train + test sizes of their 70/30 split of this file)"

REGISTRY = (
    RegisteredDataset(
        name="techtc300",
        title="TechTC-300 Test Collection for Text Categorization (Davidov et al. 2004)",
        page="http://techtc.cs.technion.ac.il/techtc300/techtc300.html",
        files=(SourceFile("techtc300.zip", None, "all", "archive", stated_by="Paul et al. 2014, Sec. 4.1.2"),),
        terms=(
            "research use; the TechTC pages (now https://gabrilovich.com/resources/data/techtc/techtc.html) ask "
            "publications to cite the collection's paper and its location"
        ),
        theorems=("paul2014.repro.techtc", "paul2014.tables", "paul2014.pca", "paul2014.c3", "paul2014.e11"),
        used_by="Paul et al. 2014, Sec. 4.1.2 (Table II) and Sec. 4.2 (PCA): 295 pairs, 150-280 documents x "
        "10,000-40,000 words each",
        expect="techtc300",
        url_note=(
            "no download URL confirmed: the collection's page is known, its archive link is not; place the "
            "archive in the cache by hand, extract it, and read the pairs with rpcheck.datasets.iter_techtc"
        ),
    ),
    RegisteredDataset(
        name="rcv1-binary",
        title="RCV1-v2 binary (CCAT+ECAT vs GCAT+MCAT), LIBSVM rcv1.binary",
        page=_LIBSVM_BINARY + "#rcv1.binary",
        files=(
            _libsvm("rcv1_train.binary.bz2", "binary/rcv1_train.binary.bz2", "train", 20_242, 47_236, _PAUL_RCV1),
            _libsvm(
                "rcv1_test.binary.bz2",
                "binary/rcv1_test.binary.bz2",
                "test",
                677_399,
                47_236,
                "the LIBSVM page (677,399 test rows)",
            ),
        ),  # fmt: skip
        terms=_LIBSVM_TERMS + "; source: Lewis et al. 2004 (JMLR), RCV1-v2",
        theorems=(
            "paul2014.repro.rcv1",
            "paul2014.tables",
            "paul2014.c11",
            "paul2014.e11",
            "lei2020.table2",
            "lei2020.dlss",
            "lei2020.sparse_scale",
            "lei2020.sparse_baselines",
        ),
        used_by=(
            "Paul et al. 2014, Sec. 4.1.4 (train 20,242 x 47,236, 0.16% nonzeros; ten test sets of 20,000 rows "
            "drawn from the test file); Lei & Lan 2020, Table 3 (13,562 + 6,680 of the train file)"
        ),
        expect="rcv1-binary",
        url_note=_LIBSVM_CONFIRMED,
        note=(
            "Paul et al.'s subset: their ten 20,000-row test sets are draws from rcv1_test.binary that are not "
            "published; an experiment draws its own with a fixed seed"
        ),
    ),
    RegisteredDataset(
        name="rcv1-multiclass",
        title="RCV1-v2 multi-class (53 classes), LIBSVM rcv1.multiclass",
        page=_LIBSVM_MULTI + "#rcv1.multiclass",
        files=(
            _libsvm(
                "rcv1_train.multiclass.bz2", "multiclass/rcv1_train.multiclass.bz2", "train", 15_564, 47_236, _PAUL_RCV1
            ),
            _libsvm(
                "rcv1_test.multiclass.bz2",
                "multiclass/rcv1_test.multiclass.bz2",
                "test",
                None,
                47_236,
                _PAUL_RCV1 + " (width; the test file's row count is not stated)",
            ),
        ),  # fmt: skip
        terms=_LIBSVM_TERMS + "; source: Lewis et al. 2004 (JMLR), RCV1-v2",
        theorems=("paul2014.repro.rcv1_multiclass", "paul2014.tables"),
        used_by=(
            "Paul et al. 2014, Sec. 4.1.4 (train 15,564 x 47,236, 53 classes, 0.14% nonzeros; ten test sets of "
            "16,000 rows drawn from the test file)"
        ),
        expect="rcv1-multiclass",
        url_note=_LIBSVM_CONFIRMED,
        note="Paul et al.'s ten 16,000-row test sets are unpublished draws from rcv1_test.multiclass",
    ),
    RegisteredDataset(
        name="mushrooms",
        title="UCI Mushroom, LIBSVM mushrooms (binary expansion of 22 nominal attributes)",
        page=_LIBSVM_BINARY + "#mushrooms",
        files=(_libsvm("mushrooms", "binary/mushrooms", "all", 8_124, 112, _LEI_T3),),
        terms=_LIBSVM_TERMS + "; source: UCI Machine Learning Repository, Mushroom",
        theorems=("lei2020.table2", "lei2020.comparison", "lei2020.dlss", "lei2020.timing", "lei2020.stability"),
        used_by="Lei & Lan 2020, Table 3 (6,000 train / 2,124 test, d = 112)",
        expect="mushrooms",
        url_note=_LIBSVM_CONFIRMED,
        note="labels 1/2 as distributed",
    ),
    RegisteredDataset(
        name="usps",
        title="USPS handwritten digits (10 classes), LIBSVM usps; Lei & Lan's usps-b is a binarization of it",
        page=_LIBSVM_MULTI + "#usps",
        files=(
            _libsvm(
                "usps.bz2",
                "multiclass/usps.bz2",
                "train",
                7_291,
                256,
                "Lei & Lan 2020, Table 3",
                known_hash="md5:ec16c51db3855ca6c91edd34d0e9b197",
                hash_source="torchvision.datasets.USPS (pytorch/vision, torchvision/datasets/usps.py)",
            ),
            _libsvm(
                "usps.t.bz2",
                "multiclass/usps.t.bz2",
                "test",
                2_007,
                256,
                "Lei & Lan 2020, Table 3",
                known_hash="md5:8ea070ee2aca1ac39742fdd1ef5ed118",
                hash_source="torchvision.datasets.USPS (pytorch/vision, torchvision/datasets/usps.py)",
            ),
        ),  # fmt: skip
        terms=_LIBSVM_TERMS + "; source: Hull 1994 (USPS database)",
        theorems=("lei2020.table2", "lei2020.comparison", "lei2020.dlss", "lei2020.timing"),
        used_by="Lei & Lan 2020, Table 3 (usps-b: 7,291 train / 2,007 test, d = 256; binarization not stated)",
        expect="usps-b",
        url_note=_LIBSVM_CONFIRMED + "; the same URLs and MD5 sums are in torchvision's USPS",
        note="10 digit classes as distributed: pass positive= for a one-vs-rest task",
    ),
    RegisteredDataset(
        name="gisette",
        title="GISETTE (NIPS 2003 feature selection challenge, 4 vs 9), LIBSVM gisette_scale",
        page=_LIBSVM_BINARY + "#gisette",
        files=(
            _libsvm("gisette_scale.bz2", "binary/gisette_scale.bz2", "train", 6_000, 5_000, "Lei & Lan 2020, Table 3"),
            _libsvm(
                "gisette_scale.t.bz2", "binary/gisette_scale.t.bz2", "test", 1_000, 5_000, "Lei & Lan 2020, Table 3"
            ),
        ),  # fmt: skip
        terms=_LIBSVM_TERMS + "; source: Guyon et al., NIPS 2003 feature selection challenge (UCI Gisette)",
        theorems=("lei2020.table2", "lei2020.comparison", "lei2020.dlss", "lei2020.timing"),
        used_by="Lei & Lan 2020, Table 3 (6,000 train / 1,000 test, d = 5,000)",
        expect="gisette",
        url_note=_LIBSVM_CONFIRMED,
    ),
    RegisteredDataset(
        name="real-sim",
        title="real-sim (real vs simulated auto/aviation newsgroups), LIBSVM real-sim",
        page=_LIBSVM_BINARY + "#real-sim",
        files=(_libsvm("real-sim.bz2", "binary/real-sim.bz2", "all", 72_309, 20_958, _LEI_T3),),
        terms=_LIBSVM_TERMS + "; source: McCallum's real-sim (SRAA) collection",
        theorems=(
            "lei2020.table2",
            "lei2020.comparison",
            "lei2020.dlss",
            "lei2020.sparse_scale",
            "lei2020.sparse_baselines",
        ),
        used_by="Lei & Lan 2020, Table 3 (48,447 train / 23,862 test, d = 20,958)",
        expect="real-sim",
        url_note=_LIBSVM_CONFIRMED,
    ),
    RegisteredDataset(
        name="news20-binary",
        title="news20.binary (20 Newsgroups, two halves of the groups), LIBSVM news20.binary",
        page=_LIBSVM_BINARY + "#news20.binary",
        files=(_libsvm("news20.binary.bz2", "binary/news20.binary.bz2", "all", 19_996, 1_355_191, _LEI_T3),),
        terms=_LIBSVM_TERMS + "; source: Lang 1995 (20 Newsgroups)",
        theorems=("lei2020.table2", "lei2020.dlss", "lei2020.sparse_scale", "lei2020.sparse_baselines"),
        used_by="Lei & Lan 2020, Table 3 (13,397 train / 6,599 test, d = 1,355,191)",
        expect="news20-binary",
        url_note=_LIBSVM_CONFIRMED,
    ),
    RegisteredDataset(
        name="yalefaces",
        title="Yale faces, 165 images of 15 people at 64x64 pixels (Cai et al. 2006)",
        page="http://www.cad.zju.edu.cn/home/dengcai/Data/FaceData.html",
        files=(
            SourceFile(
                "Yale_64x64.mat",
                "http://www.cad.zju.edu.cn/home/dengcai/Data/Yale/Yale_64x64.mat",
                "all",
                "mat",
                rows=165,
                cols=4_096,
                stated_by="Paul et al. 2014, Sec. 4.3.1",
            ),
        ),
        terms="no licence found on the page; research copies of the Yale Face Database, cite Cai et al. 2006",
        theorems=("paul2014.regression_tables", "paul2014.tables"),
        used_by="Paul et al. 2014, Sec. 4.3.1 (165 x 4,096, 15 classes used as regression targets)",
        expect="yalefaces",
        task="regression",
        url_note="the URL public code downloads the file from, citing this page as its source",
    ),
    RegisteredDataset(
        name="nci60",
        title="NCI60 cDNA expression, the 1,375-gene subset of Ross et al. 2000 / Scherf et al. 2000",
        page="https://discover.nci.nih.gov/nature2000/natureintromain.jsp",
        files=(
            SourceFile("nci60.csv", None, "all", "csv", rows=60, cols=1_375, stated_by="Paul et al. 2014, Sec. 4.3.2"),
        ),  # fmt: skip
        terms="no licence found; research data published with Scherf et al. 2000 and Ross et al. 2000",
        theorems=("paul2014.regression_tables", "paul2014.tables"),
        used_by="Paul et al. 2014, Sec. 4.3.2 (60 cell lines x 1,375 genes, 10 classes as regression targets)",
        expect="nci60",
        task="regression",
        url_note=(
            "no single-file URL confirmed: the 1,375-gene matrix is distributed inside the Bioconductor package "
            "made4 as NCI60$Ross (http://www.bioinf.ucd.ie/people/aedin/R/pages/made4/html/NCI60.html); export it "
            "as nci60.csv (genes as columns, the class as the last column) into the cache"
        ),
    ),
    RegisteredDataset(
        name="hapmap-hgdp",
        title="HapMap Phase 3 + HGDP genotypes, 2,250 individuals x 492,516 SNPs (Paschou et al. 2010)",
        page="https://www.nature.com/articles/nature06742",
        files=(
            SourceFile(
                "hapmap_hgdp.csv",
                None,
                "all",
                "csv",
                rows=2_250,
                cols=492_516,
                stated_by="Paul et al. 2014, Sec. 4.1.3",
            ),
        ),  # fmt: skip
        terms="not applicable (no public file); the components carry the HGDP-CEPH and HapMap release terms",
        theorems=("paul2014.repro.hapmap", "paul2014.e11"),
        used_by="Paul et al. 2014, Sec. 4.1.3 (2,250 x 492,516, entries -1/0/+1; 5 regions, about 50 populations)",
        expect="hapmap-hgdp",
        url_note=(
            "no public file: the merged, filtered 2,250 x 492,516 matrix of Paschou et al. (2010) is not "
            "published, and the paper does not list its SNPs or individuals; its components (the HGDP-CEPH "
            "genotypes at 525,910 SNPs of Jakobsson et al. 2008, the page given, and HapMap Phase 3) are distributed "
            "separately. The matrix (1.1e9 dense entries) is also above DENSE_MAX_ENTRIES"
        ),
    ),
    RegisteredDataset(
        name="ticc-digits",
        title="TiCC handwritten characters (van der Maaten 2009), the digits of Shi et al.'s SVM test",
        page="http://lvdmaaten.github.io/publications/papers/TR%20New_Dataset_2009.pdf",
        files=(SourceFile("ticc.zip", None, "all", "archive", stated_by="van der Maaten 2009, TiCC TR 2009-002"),),
        terms="scientific, non-commercial use (the UNIPEN distribution's README); cite TiCC TR 2009-002",
        theorems=("shi2012.fig3_4",),
        used_by=(
            "Shi et al. 2012, Sec. 5.2 ('TiCC handwritten digit dataset', sizes not stated); the report states "
            "more than 40,000 characters by 250 writers"
        ),
        url_note=(
            "no download URL confirmed: the report and a README of its UNIPEN copy are public, the data file's "
            "link is not"
        ),
    ),
)
_BY_NAME = {d.name: d for d in REGISTRY}


def registered(registry=None):
    """The registered data sets (name -> :class:`RegisteredDataset`).

    Examples
    --------
    >>> sorted(registered())[:4]
    ['gisette', 'hapmap-hgdp', 'mushrooms', 'nci60']
    >>> [f.name for f in registered()["usps"].files]
    ['usps.bz2', 'usps.t.bz2']
    """
    if registry is None:
        return dict(_BY_NAME)
    return {d.name: d for d in registry}


def _dataset(name, registry):
    sets = registered(registry)
    return sets[check_choice("name", name, tuple(sorted(sets)))]


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


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _hash_matches(path, known):
    alg, _, want = known.partition(":")
    h = hashlib.new(alg)
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest() == want.lower(), h.hexdigest()


# --------------------------------------------------------------------------------------------- checks
def _load_file(f, path, *, positive=None, task=None):
    """Load one file of a registered set as a Dataset (shape checks use task='regression': any finite labels)."""
    from .datasets import load_file, load_techtc, make_dataset

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
    if f.fmt == "archive" or (f.rows, f.cols, f.nnz) == (None, None, None):
        return []
    if f.fmt == "svmlight":  # read at the file's own width: a last column without entries is no mismatch
        from .datasets import MAX_FEATURES, load_file

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


# --------------------------------------------------------------------------------------------- an experiment's data
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
            from .datasets import load_file, load_techtc

            _LOADED[key] = (load_techtc(path, check_shape=False) if Path(path).is_dir() else
                            load_file(path, task=task or ds.task, positive=positive))
        else:
            if n_features is not None and f.fmt == "svmlight":
                from .datasets import load_file

                out = load_file(path, fmt="svmlight", n_features=n_features, task=task or ds.task,
                                positive=positive)  # fmt: skip
            else:
                out = _load_file(f, path, positive=positive, task=task or ds.task)
            _LOADED[key] = out
    return _LOADED[key]

"""The registry entries: :class:`SourceFile`, :class:`RegisteredDataset` and :data:`REGISTRY`, the papers'
data sets with their sources, stated shapes and terms of use (:mod:`rpcheck.data_registry`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .._validation import check_choice

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

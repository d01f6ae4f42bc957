r"""Shared pieces of the Lei & Lan (2020) empirical checkers (claims 17-25, mode "report", run with
``rpcheck.compare``): ``comparison`` (claims 17-23), ``rsweep`` (claim 24), ``stability`` (claim 25),
and the Table 2 rows of ``dlss`` and ``timing`` (the sentences on the paper's own Table 2 are ``table2_prose``).

One trial = one repetition of the Table 2 protocol (random stratified split, [-1, 1] scaling from the
training part, C by CV inside the training part, selections fitted inside each fold, exact L1-loss SVM with
bias, KKT-certified solve_svc). Each comparative sentence becomes a verdict by the sign test of :func:`sign_decide`:
HOLDS (our runs support it), VIOLATED (they contradict it), INCONCLUSIVE (not decidable).

Data: scikit-learn's bundled breast_cancer and digits (digit 8 vs rest) at ``quick``/``ci``; at
``standard``/``full`` also every svmlight/LIBSVM file listed in the environment variable
``RPCHECK_LEI2020_DATA`` (deprecated: ``os.pathsep``-separated files read at import; the paper's sets run
through ``--data NAME=PATH`` or the data cache instead, below). A file whose name contains "usps" is binarized
as label 1 vs rest (assumed: the paper does not give its usps-b rule).

The paper's own files (``lei2020.comparison``'s cells of Table 2's dense sets, parameter ``data_source``,
:mod:`rpcheck.engine.data`): a cell ``"standin:<set>[:<n>]"`` runs on the real registered set (mushrooms, usps,
gisette of :mod:`rpcheck.data_registry`) when it is given by ``--data NAME=PATH`` or fetched into the cache
(``data_source`` "auto"; the ``paper`` profile requires it): the set's training and test files concatenated
(Table 3's train + test rows), ``n`` of them drawn once per process with :data:`STANDIN_SEED` when ``n`` is
below that, split per repetition with Table 3's test share as the stand-in; usps as digit 1 vs rest (the
assumed usps-b rule above). Its rows name the file and its SHA-256 (:func:`data_label`); else the stand-in.

Stand-ins (``lei2020.comparison`` only): ``"standin:<set>"`` names the synthetic stand-in
``rpcheck.standins.lei2020_like(<set>, split="all")`` of one of Table 2's dense sets (mushrooms, usps-b, gisette)
at Table 3's shape (train + test rows, width d), generated once per process from the fixed seed
:data:`STANDIN_SEED` like a fixed data set; ``"standin:<set>:<n>"`` the same generator with ``n`` rows at Table
3's width (cheaper cells, named as such). Each repetition splits it into Table 3's test share (mushrooms 2,124 /
8,124, usps-b 2,007 / 9,298, gisette 1,000 / 7,000; :func:`test_size`) instead of 0.3. NOT the real data.
"""

from __future__ import annotations

import os

from ... import compare as cmp
from ...data_registry import load_source, resolve
from ...datasets import BUNDLED, load_bundled, load_file
from ...engine import Constraint, Param, Profile, Verdict, grid
from ...engine.data import DATA_SOURCE, DATA_SOURCE_OK
from ...standins import LEI2020_SHAPES, lei2020_like
from ...stats import sign_test as _sign_test
from ...stats import support_count
from . import _common as c

__all__ = [
    "user_files",
    "dataset_dim",
    "data_label",
    "paper_r_grid",
    "resolve_r_values",
    "sign_test",
    "sign_decide",
    "sentence_rows",
    "with_user_files",
    "comparison_profiles",
    "STANDIN_SETS",
    "STANDIN_SEED",
    "parse_standin",
    "standin_name",
    "test_size",
    "REGISTRY_NAME",
    "source",
    "paper_cells",
    "row_data",
]

_CI_GRID = (2.0**-5, 2.0**-2, 2.0**1, 2.0**4)  # reduced C grid for ci (the paper's is 2^-5..2^5)
_DATA_CACHE: dict = {}


def user_files():
    """svmlight files named in RPCHECK_LEI2020_DATA (existing ones only), read at import time. Deprecated: the
    paper's sets run through the ``data`` parameter (``--data NAME=PATH`` or the data cache)."""
    raw = os.environ.get("RPCHECK_LEI2020_DATA", "")
    return tuple(p for p in raw.split(os.pathsep) if p and os.path.isfile(p))


#: Table 2's dense sets, the ones ``lei2020.comparison`` runs on stand-ins (the sparse ones: lei2020.sparse_scale)
STANDIN_SETS = ("mushrooms", "usps-b", "gisette")
#: seed of every stand-in (a fixed data set; the value lei2020.sparse_scale uses for its sparse stand-ins)
STANDIN_SEED = 20200207
_STANDIN = "standin:"


def _table3_rows(key):
    return LEI2020_SHAPES[key]["train"] + LEI2020_SHAPES[key]["test"]


def parse_standin(name):
    """``(set, n)`` of a stand-in name ``"standin:<set>"`` (n = Table 3's train + test rows) or
    ``"standin:<set>:<n>"``; None for any other name (a bundled set or a file). Raises ``ValueError`` naming the
    value and the allowed forms for a malformed stand-in name (unknown set, n not an integer in [50, Table 3's
    rows])."""
    name = str(name)
    if not name.startswith(_STANDIN):
        return None
    parts = name[len(_STANDIN):].split(":")
    allowed = (f"'standin:<set>' or 'standin:<set>:<n>' with <set> in {STANDIN_SETS} and 50 <= n <= Table 3's "
               "train + test rows (mushrooms 8,124, usps-b 9,298, gisette 7,000)")
    if len(parts) not in (1, 2) or parts[0] not in STANDIN_SETS:
        raise ValueError(f"`dataset` ({name!r}) is not a stand-in name; allowed: {allowed}.")
    total = _table3_rows(parts[0])
    try:
        n = int(parts[1]) if len(parts) == 2 else total
    except ValueError:
        raise ValueError(f"`dataset` ({name!r}): n ({parts[1]!r}) is not an integer; allowed: {allowed}.") from None
    if not 50 <= n <= total:
        raise ValueError(f"`dataset` ({name!r}): n = {n} is outside [50, {total}]; allowed: {allowed}.")
    return parts[0], n


def standin_name(key, n=None):
    """The ``dataset`` value of the stand-in of ``key`` with ``n`` rows (None: Table 3's train + test)."""
    return _STANDIN + key + ("" if n is None or n == _table3_rows(key) else f":{int(n)}")


def test_size(name):
    """The test part of a repetition: 0.3 (the paper's "70% / 30%") for bundled sets and user files; for a
    stand-in, Table 3's test share of its rows as a count (exactly Table 3's test rows at Table 3's shape)."""
    st = parse_standin(name)
    if st is None:
        return 0.3
    key, n = st
    return max(2, round(n * LEI2020_SHAPES[key]["test"] / _table3_rows(key)))


#: The registry name of each of Table 2's dense sets (rpcheck.data_registry)
REGISTRY_NAME = {"mushrooms": "mushrooms", "usps-b": "usps", "gisette": "gisette"}


def source(name, data="auto"):
    """The :class:`~rpcheck.data_registry.DataSource` of a ``"standin:<set>[:<n>]"`` cell under ``data``
    (None for a bundled set or a user file)."""
    st = parse_standin(name)
    return None if st is None else resolve(REGISTRY_NAME[st[0]], data)


def _real(key, n, src):
    """Table 2 set ``key`` from its real files: train and test concatenated, ``n`` rows drawn with STANDIN_SEED."""
    import numpy as np
    import scipy.sparse as sp

    from ...datasets import make_dataset

    positive = 1 if key == "usps-b" else None
    parts = [load_source(src, p, positive=positive) for p in ("train", "test") if any(f[0] == p for f in src.files)]
    if not parts:
        parts = [load_source(src, "all", positive=positive)]
    X = sp.vstack([sp.csr_matrix(p.X) for p in parts]).tocsr()
    y = np.concatenate([np.asarray(p.y, dtype=float) for p in parts])
    if n < X.shape[0]:
        keep = np.sort(np.random.default_rng(STANDIN_SEED).choice(X.shape[0], size=n, replace=False))
        X, y = X[keep], y[keep]
    return make_dataset(X.toarray(), y, name=key, task="classification",
                        description=f"{key}: {src.label} ({X.shape[0]:,} rows)")


def _dataset(name, data="auto"):
    st = parse_standin(name)
    src = source(name, data) if st is not None else None
    if src is not None and src.real:
        key = (name, src.files)
        if key not in _DATA_CACHE:
            _DATA_CACHE[key] = _real(st[0], st[1], src)
        return _DATA_CACHE[key]
    if name not in _DATA_CACHE:
        if st is not None:
            _DATA_CACHE[name] = lei2020_like(st[0], split="all", n=st[1], rng=STANDIN_SEED)
        elif name in BUNDLED:
            _DATA_CACHE[name] = load_bundled(name)
        else:
            _DATA_CACHE[name] = load_file(name, positive=1 if "usps" in os.path.basename(name).lower() else None)
    return _DATA_CACHE[name]


def paper_cells(sets=STANDIN_SETS, **kw):
    """``paper``-profile cells on Table 2's dense sets at Table 3's shape, each requiring its real file."""
    return tuple(dict(dataset=standin_name(k), data_source=f"real:{REGISTRY_NAME[k]}", **kw) for k in sets)


def row_data(params):
    """The data column of a cell's rows (:func:`data_label` under the cell's ``data_source``)."""
    name, data = params["dataset"], params.get("data_source", "auto")
    return data_label(name, _dataset(name, data).name, data)


def data_label(name, shown=None, data="auto"):
    """The data column of a Paper vs rpcheck row: a bundled data set named as real data that is not one of the
    paper's, or a user svmlight file with the paper's data set it matches (Table 3), if any; a Table 2 cell on the
    paper's real file ("real data: <path> sha256 ...") or on its stand-in ("stand-in: ...")."""
    st = parse_standin(name)
    src = source(name, data) if st is not None else None
    if src is not None and src.real:
        total = _table3_rows(st[0])
        rows = "all rows" if st[1] >= total else f"{st[1]:,} rows drawn with seed {STANDIN_SEED}"
        return f"{src.label} (the paper's {st[0]}, {rows}, test part {test_size(name):,} rows)"
    if st is not None:
        key, n = st
        sh = LEI2020_SHAPES[key]
        shape = ("at Table 3's shape" if n == _table3_rows(key) else
                 f"with {n:,} of Table 3's {_table3_rows(key):,} rows at its width")
        return (f"stand-in: synthetic stand-in of {key} {shape} ({n:,} x {sh['d']:,}, test part "
                f"{test_size(name):,} rows; rpcheck.standins.lei2020_like, seed {STANDIN_SEED}), NOT the real data")
    shown = shown or os.path.basename(str(name))
    if name in BUNDLED:
        return f"{shown} (scikit-learn bundled, real data; not one of the paper's six LIBSVM data sets)"
    key = cmp.paper_key(str(name))
    return f"{shown} (user svmlight file, real data" + (f"; the paper's {key})" if key else "; not one of the paper's)")


#: dimension d of the bundled data sets (digits = 8 x 8 pixels) and of the paper's data sets (Table 1), so
#: the parameter constraints need not load them at import; any other file is loaded (and cached) to read d.
_KNOWN_D = {"breast_cancer": 30, "digits": 64}
#: one-sided level of each sign test of the report rules (per row, no multiplicity correction)
SIGN_ALPHA = 0.01


def dataset_dim(name):
    """The input dimension d of the data set ``name`` (a bundled name or a file path)."""
    if name in _KNOWN_D:
        return _KNOWN_D[name]
    st = parse_standin(name)
    if st is not None:
        return LEI2020_SHAPES[st[0]]["d"]
    return int(_dataset(name).d)


def paper_r_grid(d):
    """The paper's r grid {d/2^6, d/2^5, ..., d/2} (Sec. 4, 'Stability Comparison', Fig. 3) with d read
    as the padded dimension d' = 2**ceil(log2 d) (the rotation's, Alg. 1 step 1), keeping the values >= 1
    (for breast_cancer, d' = 32: {1, 2, 4, 8, 16}; the paper's mushrooms, d' = 128: {2, ..., 64})."""
    dp = c.dpad(d)
    return tuple(dp >> k for k in range(6, 0, -1) if dp >> k >= 1)


def resolve_r_values(value, dataset):
    """``"paper"`` -> :func:`paper_r_grid` of the data set; else the comma-separated ints of ``value``."""
    if value == "paper":
        return paper_r_grid(dataset_dim(dataset))
    return tuple(int(x) for x in str(value).split(","))


def _r_values_ok(p, *, on_paper_grid):
    try:
        rv = resolve_r_values(p["r_values"], p["dataset"])
    except ValueError:
        return False
    dp = c.dpad(dataset_dim(p["dataset"]))
    if not rv or len(set(rv)) != len(rv) or list(rv) != sorted(rv):
        return False
    if on_paper_grid:
        return set(rv) <= set(paper_r_grid(dp))
    return all(1 <= r <= dp for r in rv)


def _dataset_ok(name):
    return name in BUNDLED and name != "diabetes" or os.path.isfile(name)


def _dataset_or_standin_ok(name):
    try:
        return parse_standin(name) is not None or _dataset_ok(name)
    except ValueError:
        return False


P_DATASET = Param("str", doc="a bundled classification data set (breast_cancer, digits) or a svmlight file")
C_DATASET = Constraint("dataset is 'breast_cancer', 'digits' or an existing file", lambda p: _dataset_ok(p["dataset"]))
P_DATASET_STANDIN = Param("str", doc="a bundled classification data set (breast_cancer, digits), a svmlight file, "
                          "or 'standin:<set>[:<n>]' (the synthetic stand-in of mushrooms, usps-b or gisette, "
                          "Table 3's shape or n rows at its width)")
C_DATASET_STANDIN = Constraint("dataset is 'breast_cancer', 'digits', an existing file or 'standin:<set>[:<n>]' "
                               "with <set> in mushrooms, usps-b, gisette and 50 <= n <= Table 3's rows",
                               lambda p: _dataset_or_standin_ok(p["dataset"]))
P_DATA = DATA_SOURCE
C_DATA = DATA_SOURCE_OK
P_RVALUES = Param("str", doc="'paper' (the grid {d'/64, ..., d'/2} of the data set, values >= 1) or "
                  "increasing comma-separated ints such as '2,8,32'")
P_FOLDS = Param("int", low=2, doc="CV folds for C")
P_CGRID = Param("choice", choices=("paper", "ci"), doc="C grid: the paper's {2^-5..2^5} or the reduced ci one")


def sign_test(k, n, alpha=SIGN_ALPHA):
    """:func:`rpcheck.stats.sign_test` of ``k`` supporting repetitions out of ``n`` independent ones."""
    return _sign_test(k, n, alpha)


def sign_decide(records, names):
    """Verdicts of ``names`` by :func:`sign_test` over the repetitions (one trial = one independent
    repetition; its ``Outcome.holds`` says whether that repetition supports the sentence; vacuous and
    undetermined outcomes are not counted) and the ``claim`` string with the error rate."""
    verdicts, parts = {}, []
    for m in names:
        k, n = support_count(rec.outcomes[m] for rec in records if m in rec.outcomes)
        verdicts[m], p_h, p_v = sign_test(k, n)
        parts.append(f"{m}: {k}/{n} repetitions support it (p_holds {p_h:.3g}, p_violated {p_v:.3g})")
    claim = (
        f"exact one-sided sign test over independent repetitions at level {SIGN_ALPHA} each way: HOLDS = "
        "P(a repetition supports the sentence) > 1/2, P(false HOLDS) <= 0.01; VIOLATED = it is < 1/2, "
        "P(false VIOLATED) <= 0.01; " + "; ".join(parts)
    )
    return verdicts, claim


def agreement(verdict):
    """Paper vs rpcheck agreement of a row decided ``verdict``: True for HOLDS, False for VIOLATED, None
    otherwise (undecided)."""
    return {Verdict.HOLDS: True, Verdict.VIOLATED: False}.get(verdict)


def agrees(verdicts, name):
    """:func:`agreement` of the row ``name`` in ``verdicts`` (a dict; anything else stands for no verdicts)."""
    return agreement(verdicts.get(name) if isinstance(verdicts, dict) else None)


def sentence_rows(records, verdicts, texts):
    """Paper vs rpcheck rows of sign-tested sentences (information only; ``verdicts`` are
    :func:`sign_decide`'s): per variant, the paper's sentence (``texts[name]``) beside the share of
    repetitions that support it, agreeing where the sign test decides HOLDS, disagreeing where it decides
    VIOLATED, undecided otherwise (always with fewer than 7 repetitions)."""
    rows = []
    for m, text in texts.items():
        k, n = support_count(rec.outcomes[m] for rec in records if m in rec.outcomes)
        rows.append({"method": m, "paper_sentence": text, "sentence": f"{k}/{n} repetitions support it",
                     "sentence_agrees": agrees(verdicts, m)})
    return rows


def _cgrid(p):
    return cmp.DEFAULT_C_GRID if p.get("c_grid", "paper") == "paper" else _CI_GRID


# ---------------------------------------------------------------------------------------------------------
# claims 17-23: Table 2
# ---------------------------------------------------------------------------------------------------------
#: variant -> (claim, sentence prefix used by compare.assess_claims)
_SENTENCES = {
    "c17_topr_gt_srht": (17, "ISRHT-top-r is significantly better than SRHT"),
    "c18_topr_gt_oblivious": (18, "ISRHT-top-r beats all four data-independent methods"),
    "c19_nps_gt_srht": (19, "ISRHT-nps gets slightly better results than SRHT"),
    "c20_topr_gt_nps": (20, "top-r obtains better accuracy than importance sampling (nps)"),
    "c21_supervised_best": (21, "ISRHT-supervised (smallest b) is best among the random projection methods"),
    "c21_largest_ge_srht": (21, "[printed 'largest b' rule] is at least as good as SRHT"),
    "c22_all_best": (22, "All features give the best accuracy"),
    "c22_pca_gt_rp": (22, "PCA is better than the random projection methods"),
    "c23_rp_faster_than_pca": (23, "All random projection methods are more efficient than PCA"),
    "c23_isrht_time": (23, "ISRHT only slightly increases running time over SRHT (ratio <= 1.5)"),
}


def with_user_files(cells, profile):
    """``cells`` plus, at the standard and full profiles, one cell per user data file (:func:`user_files`)
    at Table 2's ``r`` for that data set (16 when the paper has no row for it)."""
    if profile in ("standard", "full"):
        for path in user_files():
            ds_r = (cmp.PAPER_TABLE2.get(cmp.paper_key(path) or "", {}) or {}).get("r", 16)
            cells += grid(dataset=path, r=ds_r, folds=5, c_grid="paper")
    return cells


def comparison_profiles(cells, ci_trials, paper=False):
    """The profiles of a Table 2 comparison run: ``cells(profile)`` at each, 3 repetitions at quick,
    ``ci_trials`` at ci, 15 at standard and full (and at ``paper``, the paper's 15 runs, when ``paper``)."""
    trials = {"quick": 3, "ci": ci_trials, "standard": 15, "full": 15} | ({"paper": 15} if paper else {})
    return {name: Profile(cells=cells(name), trials=t) for name, t in trials.items()}


_CMP_PARAMS = {"dataset": P_DATASET, "r": Param("int", low=1, doc="target dimension r"), "folds": P_FOLDS,
               "c_grid": P_CGRID}
_R_LE_D = Constraint("r <= d' of the data set (SRHT and the ISRHT selections take r distinct rotated columns)",
                     lambda p: p["r"] <= c.dpad(dataset_dim(p["dataset"])))


#: report rows decided by the sign test of :func:`sign_decide` (stated error rate: 0.01 each way per row);
#: expected None (open empirical questions: reported, never asserted)
_REPORT = dict(mode="report", expected=None)


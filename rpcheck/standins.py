r"""Seeded synthetic stand-ins of the papers' data sets, at the papers' sizes.

The papers' real data (TechTC-300, RCV1, HapMap-HGDP in Paul et al. 2014, Sec. 4.1; the six LIBSVM sets of
Lei & Lan 2020, Table 3) cannot be downloaded at run time. These generators build matrices with the same
shape, sparsity pattern kind, value set and label structure, so that code paths, memory and running time
can be exercised at paper scale. **They are not the real data**: every Dataset they return says
"synthetic stand-in" in its name and description, and no accuracy or margin measured on them is a
reproduction of a number in the papers.

Every generator takes a keyword ``rng`` (None, int, SeedSequence or Generator) and is a pure function of
it: the same seed gives the same matrix bit for bit.

Sparse text model (TechTC-, RCV1- binary and multi-class, real-sim- and news20-like)
-------------------------------------------------------------
Term ``j`` has a background weight ``p_j`` proportional to ``(rank_j + 10)^(-0.8)`` (a Zipf-like law;
the column order is a random permutation). A document of class ``c`` holds a Poisson number of term
draws from ``p`` (so the count of term ``j`` is Poisson(``lam * p_j``), independently over ``j``) plus
Poisson(``boost``) extra counts of each of the ``informative`` terms of its own class. ``lam`` is solved
(bisection) so that the *expected* density equals the target exactly; the realised density is a sum of
independent Bernoulli indicators, within a few ``sqrt(nnz)`` of the target. A document left empty gets
one term (so rows can be normalised). Rows are generated in chunks, so peak memory is the output CSR
arrays plus one chunk.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._rng import as_generator
from ._validation import check_choice, check_int, check_interval
from .datasets import DENSE_MAX_ENTRIES, Dataset, make_dataset
from .errors import RpcheckError

__all__ = [
    "STANDINS",
    "LEI2020_SHAPES",
    "standin",
    "techtc_like",
    "rcv1_binary_like",
    "rcv1_multiclass_like",
    "topic_counts",
    "hapmap_like",
    "lei2020_like",
    "sparse_text",
    "yalefaces_like",
    "nci60_like",
]

_TAG = "synthetic stand-in (NOT the real data)"

#: Lei & Lan 2020, Table 3: (train, test, d, dense?) and the density the stand-in uses.
#: The paper states no densities. rcv1-binary uses Paul et al. 2014's 0.16% (Sec. 4.1.4); the others
#: are our choices, marked as such in the descriptions: real-sim 0.25% and news20-binary 0.034% (the
#: orders of magnitude of those LIBSVM files), mushrooms one-hot 22 of 112, usps and gisette dense.
LEI2020_SHAPES = {
    "mushrooms": dict(train=6_000, test=2_124, d=112, kind="onehot", density=22 / 112, density_src="ours"),
    "usps-b": dict(train=7_291, test=2_007, d=256, kind="dense", density=1.0, density_src="ours"),
    "gisette": dict(train=6_000, test=1_000, d=5_000, kind="dense", density=1.0, density_src="ours"),
    "real-sim": dict(train=48_447, test=23_862, d=20_958, kind="text", density=0.0025, density_src="ours"),
    "rcv1-binary": dict(
        train=13_562, test=6_680, d=47_236, kind="text", density=0.0016, density_src="Paul et al. 2014, Sec. 4.1.4"
    ),
    "news20-binary": dict(train=13_397, test=6_599, d=1_355_191, kind="text", density=0.00034, density_src="ours"),
}


def _binary_counts(n, frac_pos):
    n_pos = int(round(frac_pos * n))
    if not 1 <= n_pos <= n - 1:
        raise RpcheckError(f"`frac_pos` ({frac_pos}) leaves a class empty at n={n}; need 1 <= frac_pos*n <= n-1.")
    return np.array([n_pos, n - n_pos])


def _balanced_labels(n, frac_pos, rng):
    n_pos = int(_binary_counts(n, frac_pos)[0])
    y = np.full(n, -1.0)
    y[:n_pos] = 1.0
    return y[rng.permutation(n)]


def _solve_rate(p, target_per_row, boost_terms):
    """lam with sum_j (1 - exp(-lam p_j)) + extra(lam) = target_per_row (expected distinct terms per row).

    ``boost_terms`` = (cols, boost, share): a row's own informative columns get lam p_j + boost, so their
    presence probability is 1 - exp(-lam p_j - boost); ``share[k]`` is the fraction of rows owning column
    ``cols[k]`` (the share of its class; :func:`sparse_text` uses 1/2 for both classes).
    """
    cols, boost, share = boost_terms

    def expected(lam):
        q = -np.expm1(-lam * p)
        e = q.sum()
        if cols.size:
            qi = -np.expm1(-lam * p[cols] - boost)
            e += (share * (qi - q[cols])).sum()
        return e

    if expected(0.0) >= target_per_row:
        raise RpcheckError(
            f"the informative terms alone exceed the target density ({target_per_row:.3g} terms per row); "
            "lower `informative` or `boost`."
        )
    lo, hi = 0.0, 1.0
    while expected(hi) < target_per_row:
        hi *= 2.0
        if hi > 1e12:
            raise RpcheckError(
                f"target of {target_per_row:.3g} distinct terms per row is not reachable with d={p.size}."
            )
    while hi - lo > 1e-12 * hi:
        mid = 0.5 * (lo + hi)
        if expected(mid) < target_per_row:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _text_model(d, counts, share, *, density, informative, boost, values, chunk_rows, rng):
    """The K-class sparse text model of the module docstring: ``counts[c]`` documents of class ``c`` (in a
    random order), each class with ``informative`` own words; ``share[c]`` is the fraction of rows of class
    ``c`` used for the rate and the idf. Returns ``(X, cls, expected_density)``, ``cls`` in ``0..K-1``."""
    K, n = len(counts), int(np.sum(counts))
    perm = rng.permutation(d)
    p = np.empty(d)
    p[perm] = (np.arange(d) + 10.0) ** -0.8
    p /= p.sum()
    inf_cols = rng.choice(d, size=K * informative, replace=False)
    class_cols = inf_cols.reshape(K, informative)
    w = np.repeat(np.asarray(share, dtype=float), informative)
    lam = _solve_rate(p, density * d, (inf_cols, boost, w))
    q = -np.expm1(-lam * p)
    q_inf = -np.expm1(-lam * p[inf_cols] - boost)
    expected_density = float((q.sum() + (w * (q_inf - q[inf_cols])).sum()) / d)
    # document frequency (for idf): an informative column is present at the boosted rate in its class's rows
    df = q.copy()
    df[inf_cols] = (1.0 - w) * q[inf_cols] + w * q_inf
    idf = -np.log(df)
    cdf = np.cumsum(p)
    cdf[-1] = 1.0
    cls = np.repeat(np.arange(K), counts)[rng.permutation(n)]
    indptr = [np.zeros(1, np.int64)]
    ind_parts, val_parts = [], []
    offset = 0
    for start in range(0, n, chunk_rows):
        m = min(chunk_rows, n - start)
        k = rng.poisson(lam, size=m)
        rows = np.repeat(np.arange(m), k)
        cols = np.searchsorted(cdf, rng.random(rows.size), side="right").astype(np.int64)
        np.minimum(cols, d - 1, out=cols)
        if informative:
            own = class_cols[cls[start : start + m]]
            extra = rng.poisson(boost, size=own.shape)
            rows = np.concatenate([rows, np.repeat(np.repeat(np.arange(m), informative), extra.ravel())])
            cols = np.concatenate([cols, np.repeat(own.ravel(), extra.ravel())])
        C = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(m, d))
        C.sum_duplicates()
        empty = np.flatnonzero(np.diff(C.indptr) == 0)
        if empty.size:
            C = C + sp.csr_matrix(
                (np.ones(empty.size), (empty, np.searchsorted(cdf, rng.random(empty.size), side="right"))),
                shape=(m, d),
            )
            C.sum_duplicates()
        C.sort_indices()
        if values == "tfidf":
            v = (1.0 + np.log(C.data)) * idf[C.indices]
            rn = np.sqrt(np.add.reduceat(v * v, C.indptr[:-1]))
            v /= np.repeat(rn, np.diff(C.indptr))
            C.data = v
        ind_parts.append(C.indices.astype(np.int32))
        val_parts.append(C.data)
        indptr.append(C.indptr[1:].astype(np.int64) + offset)
        offset += C.nnz
        del C, rows, cols
    X = sp.csr_matrix((np.concatenate(val_parts), np.concatenate(ind_parts), np.concatenate(indptr)), shape=(n, d))
    return X, cls, expected_density


def sparse_text(n, d, *, density, informative=20, boost=2.0, frac_pos=0.5, values="tfidf", chunk_rows=4096, rng=None):
    r"""A sparse document-term matrix with two classes (the model in the module docstring).

    Parameters
    ----------
    n, d : int
        Shape.
    density : float
        Target expected fraction of nonzeros, in (0, 0.5].
    informative : int, default=20
        Terms per class whose counts are boosted in that class's documents (``2 * informative <= d``).
    boost : float, default=2.0
        Extra Poisson mean of each own-class informative term.
    frac_pos : float, default=0.5
        Fraction of rows labelled +1 (exactly ``round(frac_pos * n)``).
    values : {"counts", "tfidf"}, default="tfidf"
        "counts": integer term counts (TechTC vectors). "tfidf": ``(1 + log tf) * idf_j`` with
        ``idf_j = -log q_j`` (``q_j`` the expected document frequency), rows scaled to unit L2 norm (the
        cosine-normalised tf-idf of the LIBSVM text sets).
    chunk_rows : int, default=4096
        Rows generated at a time (bounds the temporaries).
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n, d), canonical (sorted, no duplicates, no explicit zeros)
    y : ndarray of shape (n,), labels in {-1, +1}
    expected_density : float
        The exact expectation of nnz / (n d) under the model before the empty-row fix (which adds at
        most the number of empty rows); the rate treats each class as half of the rows.
    """
    rng = as_generator(rng)
    n = check_int("n", n, 2)
    d = check_int("d", d, 2)
    density = check_interval("density", density, 0, 0.5, closed="right")
    informative = check_int("informative", informative, 0, d // 2)
    boost = check_interval("boost", boost, 0, None)
    frac_pos = check_interval("frac_pos", frac_pos, 0, 1, closed="neither")
    check_choice("values", values, ("counts", "tfidf"))
    chunk_rows = check_int("chunk_rows", chunk_rows, 1)
    counts = _binary_counts(n, frac_pos)
    X, cls, ed = _text_model(d, counts, (0.5, 0.5), density=density, informative=informative, boost=boost,
                             values=values, chunk_rows=chunk_rows, rng=rng)
    return X, np.where(cls == 0, 1.0, -1.0), ed


def _dataset(X, y, *, name, description, y_raw=None, positive=None):
    if y_raw is None:
        return Dataset(
            X=X,
            y=y,
            name=name,
            task="classification",
            description=description,
            label_map={-1.0: -1, 1.0: 1},
            y_raw=y.copy(),
        )
    return make_dataset(X, y_raw, name=name, task="classification", description=description, positive=positive)


def techtc_like(*, n=150, d=20_000, density=0.01, informative=10, boost=2.0, rng=None):
    """A TechTC-300-like pair: ``n`` documents x ``d`` words of integer term counts, two balanced classes.

    Paul et al. (2014, Sec. 4.1.2) state 150-280 documents and 10,000-40,000 words per pair; the default is
    150 x 20,000. The paper states no density: 1% (200 distinct words per document) is our choice. A few
    informative words per class (``informative``, boosted by Poisson(``boost``) extra counts) make the
    classes separable by a linear rule to a degree (see :func:`sparse_text`).

    Returns
    -------
    Dataset
        Sparse CSR, positive integer values, labels {-1, +1} with ``n // 2`` or ``n - n // 2`` of each.
    """
    X, y, ed = sparse_text(n, d, density=density, informative=informative, boost=boost, values="counts", rng=rng)
    return _dataset(
        X,
        y,
        name="techtc300-standin",
        description=f"{_TAG} for one TechTC-300 pair (Paul et al. 2014, Sec. 4.1.2): {n} x {d} term counts, "
        f"expected density {ed:.4g} (our choice; the paper states none), {informative} informative words per class",
    )


def rcv1_binary_like(
    *, n=20_242, d=47_236, density=0.0016, informative=50, boost=1.0, frac_pos=0.5, chunk_rows=4096, rng=None
):
    """An RCV1-binary-like matrix at the paper's size: 20,242 x 47,236 at 0.16% nonzeros, sparse CSR.

    Size and density from Paul et al. (2014, Sec. 4.1.4); values are cosine-normalised tf-idf as in the
    LIBSVM file; 50/50 classes (``frac_pos``) is our choice. Generated in chunks of ``chunk_rows`` rows
    (bounded memory: the output's ~1.5 M nonzeros are ~18 MB; the measured peak RSS of a fresh Python
    process generating it is in ``tests/test_standins.py``'s docstring).
    """
    X, y, ed = sparse_text(
        n,
        d,
        density=density,
        informative=informative,
        boost=boost,
        frac_pos=frac_pos,
        values="tfidf",
        chunk_rows=chunk_rows,
        rng=rng,
    )
    return _dataset(
        X,
        y,
        name="rcv1-binary-standin",
        description=f"{_TAG} for RCV1 binary (Paul et al. 2014, Sec. 4.1.4: 20,242 x 47,236, 0.16%): {n} x {d} "
        f"unit-norm tf-idf rows, expected density {ed:.4g}",
    )


def topic_counts(n, classes, *, skew=1.0, min_count=3):
    """Documents per class of :func:`rcv1_multiclass_like`: ``min_count`` each, plus the other
    ``n - classes * min_count`` split by the Zipf shares ``(c + 1)^(-skew) / sum`` (``skew = 0``: balanced) with
    largest-remainder rounding. Deterministic; sums to ``n``; non-increasing in ``c``."""
    n = check_int("n", n, 2)
    classes = check_int("classes", classes, 2)
    skew = check_interval("skew", skew, 0, None, finite=True)
    min_count = check_int("min_count", min_count, 1)
    if classes * min_count > n:
        raise RpcheckError(f"`classes` x `min_count` ({classes} x {min_count}) exceeds `n` ({n}); every class needs "
                           f"{min_count} documents.")
    share = (np.arange(classes) + 1.0) ** -skew
    quota = (n - classes * min_count) * share / share.sum()
    counts = np.floor(quota).astype(np.int64)
    left = n - classes * min_count - int(counts.sum())
    counts[np.argsort(counts - quota, kind="stable")[:left]] += 1  # largest fractional parts first
    return counts + min_count


def rcv1_multiclass_like(
    *, n=15_564, d=47_236, density=0.0014, classes=53, informative=10, boost=1.0, skew=1.0, chunk_rows=4096,
    rng=None,
):
    """An RCV1-multiclass-like matrix at the paper's size: 15,564 x 47,236 at 0.14% nonzeros, 53 classes, CSR.

    Size, density and class count from Paul et al. (2014, Sec. 4.1.4); values are cosine-normalised tf-idf as
    in the LIBSVM file; each class has ``informative`` words of its own (the text model of the module
    docstring, with ``classes`` classes in place of two). Class sizes (our choice; the paper states none): the
    Zipf-like shares of :func:`topic_counts` (``skew = 1``: class ``c`` about ``1/(c + 1)`` of the largest,
    as Reuters topics are very unequal in size -- 3,384 down to 67 documents at the default size; ``skew = 0``
    for balanced classes), at least 3 documents per class so a stratified 2/3 : 1/3 split keeps every class
    on both sides. Generated in chunks of
    ``chunk_rows`` rows (bounded memory: the output's ~1 M nonzeros are ~12 MB).

    Returns
    -------
    Dataset
        Sparse CSR with unit-norm rows; ``y_raw`` the class ids ``0..classes-1`` (0 the largest class), ``y`` class
        0 against the rest.
    """
    rng = as_generator(rng)
    n = check_int("n", n, 2)
    d = check_int("d", d, 2)
    density = check_interval("density", density, 0, 0.5, closed="right")
    classes = check_int("classes", classes, 2)
    informative = check_int("informative", informative, 0, d // classes)
    boost = check_interval("boost", boost, 0, None)
    chunk_rows = check_int("chunk_rows", chunk_rows, 1)
    counts = topic_counts(n, classes, skew=skew)
    X, cls, ed = _text_model(d, counts, counts / n, density=density, informative=informative, boost=boost,
                             values="tfidf", chunk_rows=chunk_rows, rng=rng)
    return make_dataset(
        X,
        cls.astype(np.int64),
        name="rcv1-multiclass-standin",
        task="classification",
        positive=0,
        description=f"{_TAG} for RCV1 multi-class (Paul et al. 2014, Sec. 4.1.4: 15,564 x 47,236, 0.14%, 53 "
        f"classes): {n} x {d} unit-norm tf-idf rows, expected density {ed:.4g}, {classes} classes of "
        f"{counts[-1]}..{counts[0]} documents (Zipf skew {skew:g}, our choice), {informative} informative words "
        "per class",
    )


def hapmap_like(
    *,
    n=2_250,
    d=10_000,
    regions=5,
    populations=50,
    fst_region=0.1,
    fst_population=0.02,
    coding="pm1",
    label="region",
    positive=0,
    rng=None,
):
    r"""A HapMap-HGDP-like dense genotype matrix with population structure (a low-rank profile).

    Paul et al. (2014, Sec. 4.1.3): 2,250 individuals, about 50 populations in 5 regions, 492,516 SNPs coded
    +1/-1 (homozygous) and 0 (heterozygous). The full width is 1.1e9 entries, above
    :data:`rpcheck.datasets.DENSE_MAX_ENTRIES`; the default width here is 10,000 SNPs.

    Model (Balding-Nichols, two levels): ancestral allele frequency ``p_j ~ U(0.05, 0.95)``; region
    frequency ``~ Beta(p (1-F)/F, (1-p)(1-F)/F)`` with ``F = fst_region``; population frequency drawn the same
    way around its region's with ``F = fst_population``; genotype ``~ Binomial(2, freq)``. Individuals are
    split evenly over populations, populations evenly over regions. The region means make ``regions - 1``
    large singular values of the column-centred matrix (the low-rank profile).

    Parameters
    ----------
    coding : {"pm1", "012"}, default="pm1"
        "pm1": the paper's -1/0/+1 (allele count minus 1); "012": allele counts 0/1/2.
    label : {"region", "population"}, default="region"
        The multi-class label kept in ``y_raw``; ``y`` is ``positive`` vs the rest.
    positive : int, default=0
        The class mapped to +1.

    Returns
    -------
    Dataset
        Dense float64 X with values in {-1, 0, 1} (or {0, 1, 2}); ``y_raw`` the region or population ids.
    """
    rng = as_generator(rng)
    n = check_int("n", n, 2)
    d = check_int("d", d, 1)
    regions = check_int("regions", regions, 2)
    populations = check_int("populations", populations, regions)
    if populations > n:
        raise RpcheckError(f"`populations` ({populations}) must be <= n ({n}) so every population has an individual.")
    fst_region = check_interval("fst_region", fst_region, 0, 1, closed="neither")
    fst_population = check_interval("fst_population", fst_population, 0, 1, closed="neither")
    check_choice("coding", coding, ("pm1", "012"))
    check_choice("label", label, ("region", "population"))
    if n * d > DENSE_MAX_ENTRIES:
        raise RpcheckError(
            f"`n` x `d` ({n} x {d} = {n * d:,}) exceeds DENSE_MAX_ENTRIES ({DENSE_MAX_ENTRIES:,}); the paper's "
            "2,250 x 492,516 matrix is 1.1e9 entries. Use a smaller `d`."
        )
    pop = np.arange(n) * populations // n  # even split, sorted
    region_of_pop = np.arange(populations) * regions // populations

    def beta_around(freq, F):
        a = freq * (1 - F) / F
        b = (1 - freq) * (1 - F) / F
        return rng.beta(a, b)

    X = np.empty((n, d))
    shift = -1.0 if coding == "pm1" else 0.0
    step = max(1, min(d, 2**22 // max(n, 1)))
    for j0 in range(0, d, step):
        m = min(step, d - j0)
        anc = rng.uniform(0.05, 0.95, size=m)
        reg = np.clip(beta_around(np.broadcast_to(anc, (regions, m)), fst_region), 1e-6, 1 - 1e-6)
        popf = beta_around(reg[region_of_pop], fst_population)
        X[:, j0 : j0 + m] = rng.binomial(2, popf[pop]) + shift
    y_raw = region_of_pop[pop] if label == "region" else pop
    check_int("positive", positive, 0, int(y_raw.max()))
    return make_dataset(
        X,
        y_raw.astype(np.int64),
        name="hapmap-hgdp-standin",
        task="classification",
        positive=positive,
        description=f"{_TAG} for HapMap-HGDP (Paul et al. 2014, Sec. 4.1.3: 2,250 x 492,516): {n} x {d} genotypes "
        f"coded {'-1/0/+1' if coding == 'pm1' else '0/1/2'}, {regions} regions, {populations} populations, "
        f"Balding-Nichols Fst {fst_region}/{fst_population}; labels: {label}",
    )


def lei2020_like(name, *, split="train", n=None, rng=None):
    """A stand-in for one of Lei & Lan's six LIBSVM sets at its Table 3 shape.

    Parameters
    ----------
    name : {"mushrooms", "usps-b", "gisette", "real-sim", "rcv1-binary", "news20-binary"}
    split : {"train", "test", "all"}, default="train"
        Number of rows from Table 3 (train, test, or their sum).
    n : int, optional
        Override the number of rows (e.g. for a quick test); the width always stays the paper's.
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional

    Returns
    -------
    Dataset
        - text sets (real-sim, rcv1-binary, news20-binary): sparse unit-norm tf-idf (:func:`sparse_text`);
        - mushrooms: 22 categorical attributes one-hot coded into 112 binary columns (exactly 22 ones per
          row; twenty attributes with 5 values and two with 6), 3 attributes class-dependent;
        - usps-b: 16 x 16 images in [-1, 1] from 10 smooth digit prototypes plus noise, digit 1 vs rest
          (the binarization the lei2020 checkers use; the paper gives none);
        - gisette: dense, values in [-1, 1], a planted hyperplane through 50 of the 5,000 features plus
          noise features (gisette's "probes").
    """
    check_choice("name", name, tuple(LEI2020_SHAPES))
    check_choice("split", split, ("train", "test", "all"))
    rng = as_generator(rng)
    spec = LEI2020_SHAPES[name]
    rows = spec["train"] + spec["test"] if split == "all" else spec[split]
    rows = rows if n is None else check_int("n", n, 2)
    d = spec["d"]
    src = f"Lei & Lan 2020, Table 3: {spec['train']:,} train / {spec['test']:,} test, d = {d:,}"
    label = f"{name}-standin"
    if spec["kind"] == "text":
        X, y, ed = sparse_text(rows, d, density=spec["density"], informative=50, boost=1.0, rng=rng)
        return _dataset(
            X,
            y,
            name=label,
            description=f"{_TAG} for {name} ({src}): {rows} x {d} unit-norm tf-idf, "
            f"expected density {ed:.4g} (density source: {spec['density_src']})",
        )
    if rows * d > DENSE_MAX_ENTRIES:
        raise RpcheckError(f"`n` ({rows}) x d ({d}) exceeds DENSE_MAX_ENTRIES ({DENSE_MAX_ENTRIES:,}).")
    y = _balanced_labels(rows, 0.5, rng)
    if spec["kind"] == "onehot":
        sizes = np.array([5] * 20 + [6] * 2)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        X = np.zeros((rows, d))
        for a, (s0, k) in enumerate(zip(starts, sizes, strict=True)):
            probs = rng.dirichlet(np.ones(k), size=2)  # per-class category probabilities
            if a >= 3:
                probs[1] = probs[0]  # only the first 3 attributes depend on the class
            cdf = np.cumsum(probs, axis=1)
            cdf[:, -1] = 1.0
            u = rng.random(rows)
            cls = (y > 0).astype(int)
            cat = (u[:, None] >= cdf[cls]).sum(axis=1)
            X[np.arange(rows), s0 + cat] = 1.0
        return _dataset(
            X,
            y,
            name=label,
            description=f"{_TAG} for mushrooms ({src}): {rows} x {d} one-hot, 22 "
            "attributes (sizes ours), 3 class-dependent",
        )
    if name == "usps-b":
        digit = np.arange(rows) % 10
        digit = digit[rng.permutation(rows)]
        g = np.linspace(-1, 1, 16)
        proto = np.empty((10, 256))
        for c in range(10):
            cx, cy, s = rng.uniform(-0.5, 0.5, 2).tolist() + [rng.uniform(0.3, 0.6)]
            img = np.exp(-((g[:, None] - cx) ** 2 + (g[None, :] - cy) ** 2) / (2 * s * s))
            proto[c] = (2 * img / img.max() - 1).ravel()
        X = np.clip(proto[digit] + 0.3 * rng.standard_normal((rows, 256)), -1, 1)
        return _dataset(
            X,
            None,
            y_raw=digit.astype(np.int64),
            positive=1,
            name=label,
            description=f"{_TAG} for usps-b ({src}): {rows} x 256 images in [-1, 1], 10 digit "
            "prototypes + noise; digit 1 vs rest",
        )
    # gisette
    X = rng.uniform(-1, 1, size=(rows, d))
    w = np.zeros(d)
    w[rng.choice(d, 50, replace=False)] = rng.standard_normal(50)
    s = X @ w
    y = np.where(s > np.median(s), 1.0, -1.0)
    return _dataset(
        X,
        y,
        name=label,
        description=f"{_TAG} for gisette ({src}): {rows} x {d} uniform [-1, 1], "
        "labels from a hyperplane on 50 features (median split)",
    )


def _smooth_field(side, k, rng):
    """A random low-frequency image on a ``side`` x ``side`` grid in [0, 1]^2: a cosine series with
    ``k`` x ``k`` terms and coefficients N(0, 1/(1 + a^2 + b^2)) (unit scale at the lowest frequency)."""
    t = (np.arange(side) + 0.5) / side
    a = np.arange(k)
    Cx = np.cos(np.pi * np.outer(a, t))  # (k, side)
    coef = rng.standard_normal((k, k)) / np.sqrt(1.0 + a[:, None] ** 2 + a[None, :] ** 2)
    return Cx.T @ coef @ Cx  # (side, side)


def yalefaces_like(*, people=15, per_person=11, side=64, rng=None):
    """A Yalefaces-like regression set: ``people * per_person`` grayscale images of ``side`` x ``side`` pixels
    in [0, 1], with the person id (1..people) as the real-valued target.

    Paul et al. (2014, Sec. 4.3.1): 165 images of 15 people (11 each, one per facial expression or lighting
    configuration), 4,096 features, the 15 class ids used as regression targets. Model (ours; the paper
    gives none): a shared mean face (0.5 plus a low-frequency field), a per-person low-frequency deviation,
    and per image a brightness gain U(0.75, 1.1), a left/centre/right lighting ramp (one of three,
    amplitude 0.15), an "expression" field of higher frequency (amplitude 0.04) and pixel noise N(0, 0.05^2);
    clipped to [0, 1]. Dense, full row rank (the noise), rows ordered by person. The noise level is our choice,
    made (seed 1) so that the full-data eps-SVR with C = 1, eps = 0.1 keeps every point inside the tube, as the
    paper's full-data in-sample mse 0.0098 < 0.1^2 (Table VI) indicates for the real data.
    """
    rng = as_generator(rng)
    people = check_int("people", people, 2)
    per_person = check_int("per_person", per_person, 1)
    side = check_int("side", side, 2)
    t = (np.arange(side) + 0.5) / side
    ramp = np.broadcast_to(t - 0.5, (side, side))
    mean = 0.5 + 0.12 * _smooth_field(side, 6, rng)
    X = np.empty((people * per_person, side * side))
    for p in range(people):
        face = mean + 0.06 * _smooth_field(side, 8, rng)
        for j in range(per_person):
            img = rng.uniform(0.75, 1.1) * face + 0.15 * (j % 3 - 1) * ramp
            img = img + 0.04 * _smooth_field(side, 16, rng) + 0.05 * rng.standard_normal((side, side))
            X[p * per_person + j] = np.clip(img, 0.0, 1.0).ravel()
    y = np.repeat(np.arange(1, people + 1, dtype=float), per_person)
    return Dataset(
        X=X,
        y=y,
        name="yalefaces-standin",
        task="regression",
        description=f"{_TAG} for Yalefaces (Paul et al. 2014, Sec. 4.3.1: 165 x 4,096, 15 people): {X.shape[0]} x "
        f"{X.shape[1]} pixels in [0, 1] (smooth faces, lighting ramps, noise; our model), person ids as targets",
        y_raw=y.copy(),
    )


def nci60_like(*, n=60, d=1_375, classes=10, factors=3, rng=None):
    """An NCI60-like regression set: ``n`` cell lines x ``d`` gene log-ratios, the class id (1..classes) as
    the real-valued target.

    Paul et al. (2014, Sec. 4.3.2): 60 cell lines x 1,375 genes (log-ratios of expression levels), ten
    classes used as regression targets. Model (ours; the paper gives none): class profiles N(0, 0.5^2) per
    gene, ``factors`` shared latent factors (scores N(0, 1), loadings N(0, 0.3^2)), and noise N(0, 0.7^2);
    classes split evenly, rows ordered by class.
    """
    rng = as_generator(rng)
    n = check_int("n", n, 2)
    d = check_int("d", d, 1)
    classes = check_int("classes", classes, 1, n)
    factors = check_int("factors", factors, 0)
    cls = np.arange(n) * classes // n
    prof = 0.5 * rng.standard_normal((classes, d))
    X = prof[cls] + rng.standard_normal((n, factors)) @ (0.3 * rng.standard_normal((factors, d)))
    X = X + 0.7 * rng.standard_normal((n, d))
    y = (cls + 1).astype(float)
    return Dataset(
        X=X,
        y=y,
        name="nci60-standin",
        task="regression",
        description=f"{_TAG} for NCI60 (Paul et al. 2014, Sec. 4.3.2: 60 x 1,375 log-ratios, 10 classes): {n} x {d} "
        f"(class profiles + {factors} latent factors + noise; our model), class ids as targets",
        y_raw=y.copy(),
    )


#: Names accepted by :func:`standin`.
STANDINS = (
    "techtc300", "rcv1-binary", "rcv1-multiclass", "hapmap-hgdp", *(k for k in LEI2020_SHAPES if k != "rcv1-binary"),
    "yalefaces", "nci60",
)  # fmt: skip


def standin(name, *, rng=None, **kw):
    """The stand-in for a named set of :func:`rpcheck.datasets.known_datasets` (dispatch by name)."""
    check_choice("name", name, STANDINS)
    if name == "techtc300":
        return techtc_like(rng=rng, **kw)
    if name == "rcv1-binary":
        return rcv1_binary_like(rng=rng, **kw)
    if name == "rcv1-multiclass":
        return rcv1_multiclass_like(rng=rng, **kw)
    if name == "hapmap-hgdp":
        return hapmap_like(rng=rng, **kw)
    if name == "yalefaces":
        return yalefaces_like(rng=rng, **kw)
    if name == "nci60":
        return nci60_like(rng=rng, **kw)
    return lei2020_like(name, rng=rng, **kw)

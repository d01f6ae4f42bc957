r"""Lei & Lan (2020) improved SRHT: data-dependent column selection after the Hadamard rotation.

Common pre-step (Alg. 1 steps 1-2): pad ``X`` to ``d' = 2**ceil(log2 d)`` columns,
draw Rademacher signs ``D`` and rotate, :math:`X_r = X D H` (``H`` normalised), column energies
:math:`c_j = \|X_r(:, j)\|_2^2`. Then ``fit`` chooses the sampling matrix :math:`\tilde S` (d' x r, one
nonzero per column) and ``apply(X) = X D H \tilde S`` for any (training or test) ``X``:

- ``"srht-nps"`` (eqs. 5-6): :math:`p_j = c_j / \sum c`, ``r`` i.i.d. draws with replacement, column ``t``
  scaled by :math:`1/\sqrt{r p_{i_t}}`. Every draw satisfies :math:`\mathrm{tr}(\tilde X \tilde X^T) =
  \|X\|_F^2` (each sampled column has squared norm :math:`\|X\|_F^2/r`).
- ``"srht-topr"`` (Prop. 2): the ``r`` largest energies, no rescaling; ties broken by the smaller index.
- ``"srht-supervised"`` (eqs. 8-10): scores :math:`b_k = X_r(:,k)^T L X_r(:,k)` with the signed Laplacian
  ``L = Deg - A``, :math:`A_{ij} = 1` if :math:`y_i = y_j` else :math:`-a`; ``rule="smallest"`` takes the
  ``r`` smallest ``b_k`` (the minimiser of objective (10), canonical), ``rule="largest"`` the ``r``
  largest, as printed right after eq. (10) ("The optimal solution of (10) is just to select the largest r
  elements", which contradicts the minimisation in (10)); no rescaling; ties broken by the smaller index. Scores
  use the O(n d) form of eq. (9) derived in :func:`supervised_scores` (``L`` is never formed),

  .. math:: b_k = \sum_i Deg_{ii} X_r[i,k]^2 - \tfrac{1-a}{2} (1^T X_r[:,k])^2
     - \tfrac{1+a}{2} (y^T X_r[:,k])^2, \quad Deg_{ii} = \tfrac{1-a}{2} n + \tfrac{1+a}{2} y_i (n_+ - n_-).

Memory: ``fit`` streams ``X`` row by row and never densifies it: with numba, the compiled kernels
``isrht_sums_csr``/``isrht_sums_dense`` scatter each row (times the signs) into one d'-entry buffer, transform
it and add it to the column energies (and, for ``srht-supervised``, to the three sums of the score formula);
without numba, blocks of rows (``_rotated_blocks`` of :mod:`rpcheck.sketches.srht`) are rotated, accumulated
and dropped. Peak memory beyond ``X`` is
O(``_CHUNK_ENTRIES`` + (k + 3) d') float64 entries (k = number of classes), never the (n, d') rotation;
``apply`` is bounded the same way (see ``RotationMixin._rotate_select``). Time stays O(n d' log d').
Blocked sums differ from one-shot sums only by floating-point rounding (each energy is a sum of n
nonnegative terms: relative difference <= 2 n u, u the unit roundoff of float64).

``D`` is drawn when the sketch is built; the nps draws come from a seed also fixed at construction, so
``fit`` on the same data always gives the same selection. ``apply`` and ``matrix`` before ``fit`` raise
:class:`~rpcheck.errors.RpcheckError`. Outputs are dense ndarrays; ``matrix()`` is a dense (d, r) float64.
"""

import numpy as np

from .._validation import check_choice, check_interval, check_matrix, check_memory, check_vector
from ..errors import RpcheckError
from . import _fwht
from ._base import Sketch, _ldexp, check_input, max_abs, pow2_exponent
from .srht import RotationMixin

__all__ = ["NPSSketch", "TopRSketch", "SupervisedSketch", "supervised_scores"]


def _check_labels(y, n):
    """Discrete labels (numbers or strings), 1-dimensional, finite, one per row of the ``n`` rows."""
    yy = check_vector("y", y, n)
    if yy.dtype.kind == "f" and not np.all(np.isfinite(yy)):
        raise RpcheckError("`y` contains NaN or infinite labels; labels must be finite.")
    if yy.dtype.kind not in "biufUSO":
        raise RpcheckError(f"`y` must hold discrete labels (numbers or strings); got dtype {yy.dtype}.")
    return yy


def supervised_scores(Xr, y, a=1.0):
    r"""Lei & Lan (2020) eq. (9) scores :math:`b = \mathrm{diag}(X_r^T L X_r)` in O(n d) time.

    Parameters
    ----------
    Xr : ndarray of shape (n, d)
        The rotated matrix.
    y : array_like of shape (n,)
        Labels. The paper's labels are {-1, +1}; eq. (8) only asks whether :math:`y_i = y_j`, so any
        discrete labels (several classes, or one) are accepted with the same definition of ``A``.
    a : float, default=1.0
        Weight of different-class pairs, :math:`A_{ij} = -a` when :math:`y_i \ne y_j`.

    Returns
    -------
    ndarray of shape (d,)

    Notes
    -----
    With class indicator vectors :math:`1_c`, :math:`A = (1+a) \sum_c 1_c 1_c^T - a 1 1^T`, so
    :math:`Deg_{ii} = (1+a) n_{c(i)} - a n` and

    .. math:: b_k = \sum_i Deg_{ii} X_r[i,k]^2 - (1+a) \sum_c (1_c^T X_r[:,k])^2 + a (1^T X_r[:,k])^2 ,

    which for labels in {-1, +1} reads
    :math:`\sum_i Deg_{ii} X_r[i,k]^2 - \frac{1-a}{2}(1^T X_r[:,k])^2 - \frac{1+a}{2}(y^T X_r[:,k])^2`
    (use :math:`\sum_c (1_c^T x)^2 = ((1^T x)^2 + (y^T x)^2)/2`); for a = 1 it is the paper's
    ``L = D - y y^T`` (Sec. "Algorithm Implementation and Analysis"). ``L`` is never formed. The three sums are additive
    over rows, so ``fit`` accumulates them block by block (:class:`_ScoreSums`).
    """
    Xr = np.asarray(check_matrix("Xr", Xr, allow_sparse=False), dtype=np.float64)
    yy = _check_labels(y, Xr.shape[0])
    a = check_interval("a", a, 0, None, finite=True)  # as SupervisedSketch's `a`
    sums = _ScoreSums(yy, a, Xr.shape[1])
    sums.add(0, Xr.shape[0], Xr)
    return sums.scores()


class _EnergySums:
    r"""Column energies :math:`c_j = \|X_r(:, j)\|_2^2` accumulated over blocks of rows of ``X_r``."""

    def __init__(self, width):
        self.energies = np.zeros(width)

    def add(self, lo, hi, Xr):
        self.energies += np.einsum("ij,ij->j", Xr, Xr)


class _ScoreSums(_EnergySums):
    """Energies plus the three row-additive sums of the score formula of :func:`supervised_scores`."""

    def __init__(self, y, a, width):
        super().__init__(width)
        _, inv, counts = np.unique(y, return_inverse=True, return_counts=True)
        self.inv = inv.ravel().astype(np.int64, copy=False)
        self.a = a
        self.deg = (1.0 + a) * counts[self.inv] - a * y.shape[0]
        self.weighted = np.zeros(width)  # sum_i Deg_ii X_r[i, k]^2
        self.class_sums = np.zeros((counts.size, width))  # 1_c^T X_r[:, k]
        self.total = np.zeros(width)  # 1^T X_r[:, k]

    def add(self, lo, hi, Xr):
        super().add(lo, hi, Xr)
        sq = Xr * Xr
        self.weighted += self.deg[lo:hi] @ sq
        del sq
        np.add.at(self.class_sums, self.inv[lo:hi], Xr)
        self.total += Xr.sum(axis=0)

    def scores(self):
        a = self.a
        return self.weighted - (1.0 + a) * (self.class_sums**2).sum(axis=0) + a * self.total**2


class _ImprovedSRHT(RotationMixin, Sketch):
    """Shared machinery of the data-dependent SRHT variants."""

    data_dependent = True
    _max_r_is_dpad = True

    def __init__(self, d, r, *, rng=None):
        super().__init__(d, r, rng=rng)
        self.d_pad = _fwht.next_pow2(self.d)
        self._check_build_memory()
        if self._max_r_is_dpad and self.r > self.d_pad:
            raise RpcheckError(
                f"`r` ({self.r}) must be <= the padded dimension d'={self.d_pad} (d={self.d}) for "
                f"{self.kind!r}, which selects r distinct columns of the rotated matrix."
            )
        self.signs_ = 2.0 * self._rng.integers(0, 2, size=self.d, dtype=np.int8) - 1.0
        self._fit_seed = self._rng.integers(0, 2**63 - 1, size=4)
        self.fitted_ = False

    def fit(self, X, y=None):
        """Rotate ``X`` (n, d) block by block, accumulate the column energies and select; returns ``self``.

        Peak memory beyond ``X``: one block of at most ``max(_CHUNK_ENTRIES, d')`` rotated entries (in X's
        dtype and as float64 squares) plus the (k + 3) accumulators of length d'; see the module docstring.
        """
        X, is_sparse = check_input(X, self.d)
        n = X.shape[0]
        # The selection depends on X only up to a positive factor (energies and scores are quadratic in X,
        # the nps probabilities are ratios), so badly scaled X is rotated as X / 2**e, which is exact, keeping
        # every intermediate (the FWHT sums, the squares) far from overflow and underflow. Data within
        # [2**(emin/4), 2**(emax/4)] of the dtype (float64: 1e-77..1e77) is not rescaled at all.
        m = max_abs(X)
        fi = np.finfo(X.dtype)
        e = pow2_exponent(m) if (m > 2.0 ** (fi.maxexp // 4) or 0 < m < 2.0 ** (fi.minexp // 4)) else 0
        item = np.dtype(X.dtype).itemsize
        nnz = X.nnz if is_sparse else 0
        n_classes = np.unique(self._y).size if self.kind == "srht-supervised" else 0
        check_memory(self._fit_bytes_n(n, nnz, item, is_sparse, is_sparse and X.format == "csr", bool(e), n_classes),
                     f"a block of the rotated matrix X D H (d'={self.d_pad}) and its column sums for sketch kind "
                     f"{self.kind!r}", n=n, d=self.d)
        sums = self._new_sums(self.d_pad)
        Xin = _ldexp(X, -e) if e else X
        if _fwht.numba_enabled():
            self._accumulate_compiled(Xin, is_sparse, sums)
        else:
            for lo, hi, Xr in self._rotated_blocks(Xin, is_sparse):
                sums.add(lo, hi, Xr.astype(np.float64, copy=False))
                del Xr
        self.column_energies_ = sums.energies
        self._select(sums, e)
        with np.errstate(over="ignore"):
            energies = np.ldexp(self.column_energies_, 2 * e)
        if not np.all(np.isfinite(energies)):
            raise RpcheckError(
                f"`X` has entries up to {m:.3g}: the column energies ||X D H e_j||^2 exceed the float64 range; "
                "rescale `X`."
            )
        self.column_energies_ = energies
        self.indices_ = np.asarray(self.indices_, dtype=np.int64)
        self.fitted_ = True
        return self

    def _new_sums(self, width):
        return _EnergySums(width)

    def _accumulate_compiled(self, X, is_sparse, sums):
        """Row-by-row compiled twin of the blocked loop: one d'-entry buffer, X never densified."""
        k = _fwht._kernels
        signs = self.signs_.astype(X.dtype)
        buf = np.empty(self.d_pad, dtype=X.dtype)
        scale = 1.0 / np.sqrt(self.d_pad)
        sup = isinstance(sums, _ScoreSums)
        one = np.zeros(1)
        deg, cls = (sums.deg, sums.inv) if sup else (one, np.zeros(1, dtype=np.int64))
        weighted, class_sums, total = (sums.weighted, sums.class_sums, sums.total) if sup else (one, one[None], one)
        args = (signs, scale, sup, deg, cls, sums.energies, weighted, class_sums, total, buf)
        if is_sparse:
            X = X.tocsr()
            k.isrht_sums_csr(X.indptr, X.indices, X.data, *args)
        else:
            k.isrht_sums_dense(np.ascontiguousarray(X), *args)

    def _fit_bytes(self, X, is_sparse, n_classes=0):
        """Bytes ``fit(X)`` allocates beyond the validated ``X`` (upper bound; X assumed to need rescaling)."""
        nnz = X.nnz if is_sparse else 0
        return self._fit_bytes_n(X.shape[0], nnz, np.dtype(X.dtype).itemsize, is_sparse,
                                 is_sparse and X.format == "csr", True, n_classes)

    def _fit_bytes_n(self, n, nnz, item, is_sparse, is_csr, rescaled, n_classes=0):
        """Bytes ``fit`` allocates beyond ``X`` (the memory model of the module docstring): one block
        (``_block_bytes``), the accumulators of length d', O(n) label bookkeeping, and a scaled copy of
        ``X`` when it must be rescaled by 2**-e."""
        work = self._block_bytes(n, nnz, item, is_sparse, is_csr) + 8 * self.d_pad * self._n_accumulators(n_classes)
        work += 48 * n  # supervised: class index, Deg and np.unique's sort of y
        if rescaled:
            work += nnz * item if is_sparse else n * self.d * item
        return work

    def _n_accumulators(self, n_classes):
        """Number of float64 accumulators of length d' that ``fit`` keeps."""
        return 1

    def _column_scale(self):
        return self.weights_


def _top(scores, r):
    """Indices of the r largest scores, ties to the smaller index, returned in increasing index order."""
    order = np.argsort(-scores, kind="stable")
    return np.sort(order[:r])


class NPSSketch(_ImprovedSRHT):
    r"""ISRHT-nps: norm-proportional i.i.d. sampling of rotated columns (Lei & Lan 2020, eqs. 5-6).

    Attributes (after ``fit``)
    --------------------------
    signs_ : ndarray of shape (d,)
    column_energies_ : ndarray of shape (d',)
    probabilities_ : ndarray of shape (d',)
        :math:`p_j = c_j / \sum_l c_l`.
    indices_ : ndarray of shape (r,)
        The i.i.d. draws :math:`i_t \sim p` (duplicates possible), in draw order.
    weights_ : ndarray of shape (r,)
        :math:`1/\sqrt{r p_{i_t}}`.

    Notes
    -----
    Unbiased: :math:`E[\tilde S \tilde S^T] = I` given ``X``, so :math:`E[\tilde X \tilde X^T] = X X^T`.
    ``r`` may exceed ``d'`` (sampling is with replacement).
    """

    kind = "srht-nps"
    _max_r_is_dpad = False

    def _select(self, sums, e):
        total = self.column_energies_.sum()
        if not total > 0:
            raise RpcheckError(
                "`X` is all zeros: the nps probabilities c_j / sum(c) (Lei & Lan eq. 6) are undefined."
            )
        p = self.column_energies_ / total
        self.probabilities_ = p
        rng = np.random.default_rng(self._fit_seed)
        self.indices_ = rng.choice(self.d_pad, size=self.r, replace=True, p=p)
        self.weights_ = 1.0 / np.sqrt(self.r * p[self.indices_])


class TopRSketch(_ImprovedSRHT):
    r"""ISRHT-top-r: the r rotated columns of largest energy, no rescaling (Lei & Lan 2020, Prop. 2).

    Attributes (after ``fit``): ``signs_``, ``column_energies_``, ``indices_`` (increasing), ``weights_``
    (all ones). Deterministic given ``D``; ties broken by the smaller column index.
    """

    kind = "srht-topr"

    def _select(self, sums, e):
        self.indices_ = _top(self.column_energies_, self.r)
        self.weights_ = np.ones(self.r)


class SupervisedSketch(_ImprovedSRHT):
    r"""ISRHT-supervised: columns chosen by the label-aware scores ``b_k`` (Lei & Lan 2020, eqs. 8-10).

    Parameters
    ----------
    d, r : int
    rule : {"smallest", "largest"}, default="smallest"
        ``"smallest"`` minimises objective (10) (canonical); ``"largest"`` is the rule as printed in the
        paper's text ("select the largest r elements in b"), kept to expose the contradiction.
    a : float, default=1.0
        Different-class weight in :math:`A_{ij} = -a`; ``a >= 0``. The paper uses 1.
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional

    Attributes (after ``fit(X, y)``): ``signs_``, ``column_energies_``, ``scores_`` (shape (d',)),
    ``indices_`` (increasing), ``weights_`` (all ones).
    """

    kind = "srht-supervised"

    def __init__(self, d, r, *, rule="smallest", a=1.0, rng=None):
        self.rule = check_choice("rule", rule, ("smallest", "largest"))
        self.a = check_interval("a", a, 0, None, finite=True)
        super().__init__(d, r, rng=rng)
        self.params = {"rule": self.rule, "a": self.a}

    def fit(self, X, y=None):
        """Fit on ``X`` (n, d) and labels ``y`` (n,); returns ``self``.

        The paper's labels are {-1, +1}; any discrete labels are accepted (see :func:`supervised_scores`).
        """
        if y is None:
            raise RpcheckError(
                "`y` is required for kind 'srht-supervised': call fit(X, y) with labels (e.g. in {-1, +1})."
            )
        X = check_matrix("X", X)  # 2-dimensional before its rows are counted (a 0-d X has no shape[0])
        self._y = _check_labels(y, X.shape[0])
        return super().fit(X, y)

    def _new_sums(self, width):
        return _ScoreSums(self._y, self.a, width)

    def _n_accumulators(self, n_classes):
        return 3 + n_classes  # energies, weighted, total and one sum per class

    def _select(self, sums, e):
        scores = sums.scores()  # of X / 2**e: the true scores times 2**(-2e)
        del self._y
        with np.errstate(over="ignore"):
            self.scores_ = np.ldexp(scores, 2 * e)
        if not np.all(np.isfinite(self.scores_)):
            raise RpcheckError(
                f"`a` ({self.a:g}) and the scale of `X` make the scores b_k (Lei & Lan 2020, eq. 9) exceed the "
                "float64 range; use a smaller `a` or rescale `X`."
            )
        key = -scores if self.rule == "smallest" else scores
        self.indices_ = _top(key, self.r)
        self.weights_ = np.ones(self.r)

r"""Sparse embedding followed by (I)SRHT (``"se-isrht"``): Lei & Lan (2020), Sec. "Extension to
High-dimensional Sparse Data" (Methodology).

The paper's construction for real-sim, rcv1-binary and news20-binary (Sec. "Experiments", "Experimental
setup"): first a sparse embedding (CountSketch) :math:`R_{sparse} \in \mathbb{R}^{d \times r'}`
("for each row ... randomly selected one column and assign either 1 or -1 with probability 0.5 to this
entry. All other entries are 0s"), then the SRHT or one of the paper's ISRHT selections applied to the
``r'`` columns of :math:`X R_{sparse}`, with :math:`r' = 2r` ("In our experimental setting, we set r' = 2r").
The paper credits the SE + SRHT combination to another work and improves it "by replacing the original SRHT
by our proposed ISRHT methods"; ``method="srht"`` is that original combination (the natural SRHT baseline
on the sparse sets), the other methods are the paper's:

.. math:: R = R_{sparse}\, R_{inner} \in \mathbb{R}^{d \times r}, \qquad
   R_{inner} = \sqrt{r''/r}\, D H S \ (\text{srht}) \quad\text{or}\quad D H \tilde S \ (\text{nps, topr,
   supervised}),

with ``r'' = 2**ceil(log2 r')`` the padded width of the inner transform (``r' = 2r`` is a power of two
whenever ``r`` is, as in the paper's r = 256, r' = 512). The inner sketch is the registry's own ``srht``,
``srht-nps``, ``srht-topr`` or ``srht-supervised`` on ``d = r'`` features, fitted (for the data-dependent
methods) on :math:`X R_{sparse}`.

Scaling: :math:`R_{sparse}` has unscaled :math:`\pm 1` entries, so :math:`E[R_{sparse} R_{sparse}^T] = I_d`,
and ``srht`` has :math:`E[R_{inner} R_{inner}^T] = I_{r'}`; by independence :math:`E[R R^T] = I_d` for
``method="srht"``, the registry's convention for data-oblivious kinds. ``nps`` is unbiased given the
embedded data (:math:`E[\tilde X \tilde X^T \mid R_{sparse}] = X R_{sparse} R_{sparse}^T X^T`, Lei & Lan
eqs. 5-6), hence unbiased overall; ``topr`` and ``supervised`` are not rescaled (Prop. 2, eq. 10).

Cost (the paper's statement): time O(nnz(X) + n r' log r' + n r') and memory O(nnz(X) + n r'). This
implementation is tighter in memory: the embedded matrix stays sparse (CSR, at most nnz(X) entries) and the
inner transform streams it in blocks of rows, so beyond ``X`` itself ``apply`` and ``fit`` allocate

- the CountSketch output: at most nnz(X) values and indices (``(8 + item) nnz(X)`` bytes with 4- or 8-byte
  indices, plus ``8 (n + 1)`` for ``indptr`` and ``16 r'`` of kernel workspace; the kernel allocates its
  buffers for nnz(X) entries, the true count is smaller when entries of a row share a bucket);
- one block of at most ``max(_CHUNK_ENTRIES, r'')`` densified and rotated entries (2 arrays);
- the (n, r) output (``apply``) or (k + 3) accumulators of length ``r''`` (``fit``, k classes).

Never O(n d) and never O(n r'). ``matrix()`` forms the dense (d, r) ``R`` (for oracles; O(d r) memory).
Dense ``X`` is embedded into a dense (n, r') array (dense input already costs O(n d) >= O(n r')).
"""

import numpy as np

from .._validation import MAX_DIM, check_choice, check_int, check_memory
from ..errors import RpcheckError
from . import _fwht
from ._base import Sketch, all_finite, check_input, max_abs
from .countsketch import CountSketch
from .isrht import NPSSketch, SupervisedSketch, TopRSketch
from .srht import SRHTSketch

__all__ = ["SEISRHTSketch", "SE_METHODS"]

#: Inner methods: the plain SRHT of the combination the paper builds on, and the paper's three ISRHTs.
SE_METHODS = ("srht", "nps", "topr", "supervised")

_INNER = {"srht": SRHTSketch, "nps": NPSSketch, "topr": TopRSketch, "supervised": SupervisedSketch}

#: Parameters that only one method takes, with their defaults.
_METHOD_PARAMS = {"replace": ("srht", False), "rule": ("supervised", "smallest"), "a": ("supervised", 1.0)}


class SEISRHTSketch(Sketch):
    r"""CountSketch to ``r'`` columns, then SRHT or ISRHT to ``r`` (Lei & Lan 2020, sparse-data extension).

    Parameters
    ----------
    d, r : int
        Input and output dimensions.
    method : {"srht", "nps", "topr", "supervised"}, default="srht"
        Inner transform on the ``r'`` embedded columns: the original SRHT (data-oblivious, the combination
        the paper improves) or the paper's ISRHT-nps (eqs. 5-6), ISRHT-top-r (Prop. 2), ISRHT-supervised
        (eqs. 8-10). The last three are data-dependent: call ``fit(X)`` (``fit(X, y)`` for supervised).
    r_prime : int, optional
        Width ``r'`` of the sparse embedding; default ``2 r`` (the paper's setting). For ``topr``,
        ``supervised`` and ``srht`` with ``replace=False`` the inner sketch selects ``r`` distinct columns,
        so ``r <= r''`` = ``2**ceil(log2 r')`` is required.
    replace : bool, optional
        ``method="srht"`` only: uniform columns with replacement (Paul et al. 2014, Sec. 2.1) or without
        (default, Lei & Lan eq. 2, the SRHT of this paper).
    rule : {"smallest", "largest"}, optional
        ``method="supervised"`` only (default "smallest"); see ``srht-supervised``.
    a : float, optional
        ``method="supervised"`` only (default 1.0, the paper's value); see ``srht-supervised``.
    rng : {None, int, numpy.random.Generator, numpy.random.SeedSequence}, optional
        Pseudorandom number generator state; the embedding and the inner sketch get independent streams
        spawned from it.

    Attributes
    ----------
    r_prime : int
    embedding_ : CountSketch
        The (d, r') sparse embedding :math:`R_{sparse}`.
    inner_ : Sketch
        The (r', r) SRHT/ISRHT; after ``fit`` it carries ``indices_``, ``weights_`` and (ISRHT)
        ``column_energies_`` of the embedded data.

    Notes
    -----
    ``apply`` returns a dense (n, r) ndarray of X's float dtype for dense and sparse input alike.
    """

    kind = "se-isrht"

    def __init__(self, d, r, *, method="srht", r_prime=None, replace=None, rule=None, a=None, rng=None):
        super().__init__(d, r, rng=rng)
        self.method = check_choice("method", method, SE_METHODS)
        if r_prime is None:
            if 2 * self.r > MAX_DIM:
                raise RpcheckError(
                    f"`r` ({self.r}) must be <= {MAX_DIM // 2} for kind {self.kind!r} without `r_prime`: the default "
                    f"embedding width r' = 2r (Lei & Lan 2020) must be <= {MAX_DIM}."
                )
            self.r_prime = 2 * self.r
        else:
            self.r_prime = check_int("r_prime", r_prime, 1, MAX_DIM)
        given = {"replace": replace, "rule": rule, "a": a}
        inner_params = {}
        for name, value in given.items():
            owner, default = _METHOD_PARAMS[name]
            if value is not None and owner != self.method:
                raise RpcheckError(
                    f"`{name}` ({value!r}) applies only to method={owner!r}; got method={self.method!r}. "
                    f"Parameters of method {self.method!r}: "
                    + ", ".join(["'r_prime'"] + [f"{k!r}" for k, (o, _) in _METHOD_PARAMS.items() if o == self.method])
                    + "."
                )
            if owner == self.method:
                inner_params[name] = default if value is None else value
        pad = _fwht.next_pow2(self.r_prime)
        distinct = self.method in ("topr", "supervised") or (self.method == "srht" and not inner_params["replace"])
        if distinct and self.r > pad:
            raise RpcheckError(
                f"`r` ({self.r}) must be <= 2**ceil(log2 r_prime) = {pad} (`r_prime` = {self.r_prime}) for "
                f"method={self.method!r}, whose inner sketch selects r distinct columns of the rotated "
                f"r'-dimensional embedding; use r_prime >= r (the paper's r' = 2r)."
            )
        self.data_dependent = self.method != "srht"
        # two independent child streams; the SeedSequence spawn keeps the draw a pure function of `rng`
        seeds = self._rng.integers(0, 2**63 - 1, size=(2, 4))
        self.embedding_ = CountSketch(self.d, self.r_prime, rng=np.random.SeedSequence(seeds[0].tolist()))
        self.inner_ = _INNER[self.method](self.r_prime, self.r, rng=np.random.SeedSequence(seeds[1].tolist()),
                                          **inner_params)
        self.params = {"method": self.method, "r_prime": self.r_prime, **inner_params}
        self.fitted_ = not self.data_dependent

    # -- protocol -------------------------------------------------------------------------------------------
    def fit(self, X, y=None):
        """Embed ``X`` with :math:`R_{sparse}` and fit the inner ISRHT on it; returns ``self``.

        A no-op apart from validation for ``method="srht"``. Memory as in the module docstring.
        """
        if not self.data_dependent:
            return super().fit(X, y)
        if self.method == "supervised" and y is None:
            raise RpcheckError(
                "`y` is required for kind 'se-isrht' with method='supervised': call fit(X, y) with labels "
                "(e.g. in {-1, +1})."
            )
        X, is_sparse = check_input(X, self.d)
        try:  # y itself is validated by the inner sketch; here only its class count for the memory estimate
            n_classes = np.unique(np.asarray(y).ravel()).size if self.method == "supervised" else 0
        except TypeError:
            n_classes = X.shape[0]
        check_memory(self._fit_bytes(X, is_sparse, n_classes),
                     f"the sparse embedding X R_sparse (r'={self.r_prime}) and a block of its rotation for sketch "
                     f"kind {self.kind!r}", n=X.shape[0], r_prime=self.r_prime)
        self.fitted_ = False
        Xs = self._embed(X, is_sparse)
        self.inner_.fit(Xs, y)
        self.fitted_ = True
        return self

    def _embed(self, X, is_sparse):
        """:math:`X R_{sparse}`: CSR for sparse ``X``, a dense (n, r') array for dense ``X``."""
        with np.errstate(over="ignore", invalid="ignore"):
            Xs = self.embedding_._apply_sparse(X) if is_sparse else self.embedding_._apply_dense(X)
        if not all_finite(Xs):  # a signed sum of finite entries beyond the float range
            raise RpcheckError(
                f"`X` has entries up to {max_abs(X):.3g}: the sparse embedding X R_sparse (sums of up to d={self.d} "
                f"entries) exceeds the {np.dtype(X.dtype).name} range for sketch kind {self.kind!r}; rescale `X`."
            )
        return Xs

    def _embed_bytes(self, X, is_sparse):
        """Bytes of :math:`X R_{sparse}` and its workspace (the memory model of the module docstring).

        Sparse, compiled kernel: output values and indices allocated for nnz(X) entries (``item + 8`` bytes
        each, 8 n for ``indptr``), accumulator and marker (16 r'), the packed (column, sign) table and its
        temporaries (<= 24 d). Without numba scipy relabels and sums duplicates: three nnz-sized copies.
        Non-CSR input is first converted (one CSR copy). Dense: the (n, r') output plus O(d) tables.
        """
        item = np.dtype(X.dtype).itemsize
        n = X.shape[0]
        if not is_sparse:
            return n * self.r_prime * item * (1 if _fwht.numba_enabled() else 3) + 24 * self.d
        per_nnz = (item + 8) * (1 if _fwht.numba_enabled() else 3)
        conv = 0 if X.format == "csr" else X.nnz * (item + 8) + 8 * (n + 1)
        return X.nnz * per_nnz + 8 * (n + 1) + 16 * self.r_prime + 24 * self.d + conv

    def _fit_bytes(self, X, is_sparse, n_classes=0):
        item = np.dtype(X.dtype).itemsize
        n = X.shape[0]
        # the embedded matrix is CSR (at most nnz(X) entries) or dense (n, r'); rescaling copies it
        nnz = X.nnz if is_sparse else 0
        return self._embed_bytes(X, is_sparse) + self.inner_._fit_bytes_n(n, nnz, item, is_sparse, True, True,
                                                                              n_classes)

    def _apply_bytes(self, X, is_sparse):
        item = np.dtype(X.dtype).itemsize
        n = X.shape[0]
        nnz = X.nnz if is_sparse else 0
        inner = self.inner_
        return (self._embed_bytes(X, is_sparse) + n * self.r * (item + 1) + self.r_prime * item
                + inner._block_bytes(n, nnz, item, is_sparse, True))

    def _apply_any(self, X, is_sparse):
        # an overflow in the embedding gives inf/NaN in the output, which Sketch.apply detects and retries on
        # X / 2**e (exact); the embedding of that is then far from the float range
        with np.errstate(over="ignore", invalid="ignore"):
            Xs = self.embedding_._apply_sparse(X) if is_sparse else self.embedding_._apply_dense(X)
        inner = self.inner_
        return inner._apply_sparse(Xs) if is_sparse else inner._apply_dense(np.ascontiguousarray(Xs))

    def _matrix(self):
        Rs = self.embedding_._matrix()  # (d, r') csr_array, one +-1 per row
        return np.asarray(Rs @ self.inner_._matrix())

    def _matrix_bytes(self):
        return 8 * self.d * self.r + self.inner_._matrix_bytes() + 24 * self.d

    def __getattr__(self, name):
        # the inner selection's attributes, for convenience (columns of the rotated r''-dim embedding)
        if name in _DELEGATED and "inner_" in self.__dict__:
            return getattr(self.__dict__["inner_"], name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


_DELEGATED = ("indices_", "weights_", "column_energies_", "probabilities_", "scores_")

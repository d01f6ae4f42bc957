r"""scikit-learn compatible transformers for the constructions ``sklearn.random_projection`` lacks.

Same API as :class:`sklearn.random_projection.GaussianRandomProjection`: ``n_components`` (int or
``"auto"``, then the Johnson-Lindenstrauss bound ``johnson_lindenstrauss_min_dim(n_samples, eps=eps)``),
``eps``, ``random_state``, ``fit``/``transform``/``fit_transform``, ``n_components_`` and ``components_``
(shape (n_components, n_features), i.e. ``R^T``; computed on access from the fitted sketch, so a large SRHT
never stores a dense matrix). ``transform(X) = X @ components_.T``, computed with the fast paths of
:mod:`rpcheck.sketches`. The fitted sketch is ``sketch_``.

``random_state`` follows scikit-learn (None, int or ``RandomState``); it is converted once per ``fit``
into a seed for ``numpy.random.default_rng`` (the only place rpcheck accepts ``random_state``).

This module imports scikit-learn; it is not imported by ``rpcheck.sketches`` itself.
"""

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.exceptions import DataDimensionalityWarning, NotFittedError
from sklearn.random_projection import johnson_lindenstrauss_min_dim
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data
except ImportError:  # scikit-learn 1.4-1.5 (the oldest supported versions)

    def validate_data(estimator, X, **kwargs):
        return estimator._validate_data(X, **kwargs)

from .._validation import check_sparse_matrix
from ..errors import RpcheckError
from . import make_sketch

__all__ = [
    "SRHTRandomProjection",
    "CountSketchRandomProjection",
    "CWRandomProjection",
    "NPSRandomProjection",
    "TopRRandomProjection",
    "SupervisedSRHTRandomProjection",
]


class _SketchRandomProjection(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Base class: subclasses set ``_kind`` and implement ``_sketch_params()``."""

    _kind = None
    #: True when the construction selects distinct columns of the rotated (n, d') matrix, so at most
    #: d' = 2**ceil(log2 n_features) components exist.
    _at_most_dpad = False
    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "eps": [Interval(Real, 0, None, closed="neither")],
        "random_state": ["random_state"],
    }

    def __init__(self, n_components="auto", *, eps=0.1, random_state=None):
        # the parameters of CountSketch, NPS and top-r; the other subclasses declare their own __init__
        # (scikit-learn reads the parameter names from the signature)
        self.n_components = n_components
        self.eps = eps
        self.random_state = random_state

    def _sketch_params(self):
        return {}

    def _resolve_n_components(self, n_samples, n_features):
        k = self._requested_n_components(n_samples, n_features)
        if self._max_components(n_features) is not None and k > self._max_components(n_features):
            # scikit-learn's convention when more components are asked for than exist (FastICA; see
            # sklearn/decomposition/_fastica.py): warn and use the largest possible number.
            kmax = self._max_components(n_features)
            warnings.warn(
                f"n_components is too large: it will be set to {kmax}. {type(self).__name__} selects distinct "
                f"columns of the rotated data, of which there are d' = 2**ceil(log2 n_features) = {kmax} for "
                f"n_features={n_features} (n_components={self.n_components}).",
                DataDimensionalityWarning,
                stacklevel=4,
            )
            k = kmax
        return k

    def _max_components(self, n_features):
        """Largest possible n_components_ for ``n_features`` features, or None when unbounded."""
        if not self._at_most_dpad:
            return None
        return 1 << max(int(n_features) - 1, 0).bit_length()

    def _requested_n_components(self, n_samples, n_features):
        if self.n_components == "auto":
            k = int(johnson_lindenstrauss_min_dim(n_samples=n_samples, eps=self.eps))
            if k > n_features:
                raise ValueError(
                    f"eps={self.eps:f} and n_samples={n_samples} lead to a target dimension of {k} which is "
                    f"larger than the original space with n_features={n_features}"
                )
            return k
        if self.n_components > n_features:
            warnings.warn(
                "The number of components is higher than the number of features: n_features < "
                f"n_components ({n_features} < {self.n_components}). The dimensionality of the problem will "
                "not be reduced.",
                DataDimensionalityWarning,
                stacklevel=4,
            )
        return int(self.n_components)

    def _fit_sketch(self, X, y):
        self._validate_params()
        X = validate_data(self, X, accept_sparse=["csr", "csc"], dtype=[np.float64, np.float32])
        if sp.issparse(X):  # scikit-learn checks the dtype, not the index arrays: a matrix transform would refuse
            X = check_sparse_matrix("X", X, formats=(X.format,))
        n_samples, n_features = X.shape
        self.n_components_ = self._resolve_n_components(n_samples, n_features)
        seed = check_random_state(self.random_state).randint(0, 2**31 - 1, size=4)
        try:
            self.sketch_ = make_sketch(
                self._kind, n_features, self.n_components_, rng=np.random.SeedSequence(seed.tolist()),
                **self._sketch_params(),
            )
        except RpcheckError as exc:  # the sketch's target dimension r is this estimator's n_components
            msg = str(exc).replace("`r` (", "`n_components` (").replace("`d` (", "`n_features` (")
            raise RpcheckError(msg) from None
        if self.sketch_.data_dependent:
            self.sketch_.fit(X, y)
        self._n_features_out = self.n_components_
        return X

    def fit(self, X, y=None):
        """Draw the projection (and, for data-dependent variants, select columns on ``X``).

        Parameters
        ----------
        X : {ndarray, sparse matrix} of shape (n_samples, n_features)
        y : Ignored, except by :class:`SupervisedSRHTRandomProjection`.

        Returns
        -------
        self : object
        """
        self._fit_sketch(X, y)
        return self

    def transform(self, X):
        """Project ``X``: returns ``X @ components_.T`` of shape (n_samples, n_components_).

        Dense output of X's float dtype, except CountSketch/CW on sparse input (CSR output).
        """
        check_is_fitted(self, "sketch_")
        X = validate_data(self, X, accept_sparse=["csr", "csc"], dtype=[np.float64, np.float32], reset=False)
        return self.sketch_.apply(X)

    @property
    def components_(self):
        """ndarray or sparse matrix of shape (n_components_, n_features_in_): the transpose of ``R``."""
        if not hasattr(self, "sketch_"):
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet; call 'fit' first.")
        return self.sketch_.matrix().T

    def __sklearn_tags__(self):  # scikit-learn >= 1.6
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        tags.input_tags.sparse = True
        return tags

    def _more_tags(self):  # scikit-learn < 1.6
        return {"preserves_dtype": [np.float64, np.float32], "X_types": ["2darray", "sparse"]}


class SRHTRandomProjection(_SketchRandomProjection):
    r"""Subsampled randomized Hadamard transform, :math:`R = \sqrt{d'/r} D H S` (Paul et al. 2014, eq. 11).

    Parameters
    ----------
    n_components : int or "auto", default="auto"
    replace : bool, default=True
        Column sampling with replacement (Paul et al.) or without (Lei & Lan 2020, eq. 2).
    eps : float, default=0.1
        JL distortion used when ``n_components="auto"``.
    random_state : int, RandomState instance or None, default=None

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).standard_normal((20, 100))
    >>> SRHTRandomProjection(16, random_state=0).fit_transform(X).shape
    (20, 16)
    """

    _kind = "srht"
    _parameter_constraints: dict = {**_SketchRandomProjection._parameter_constraints, "replace": ["boolean"]}

    def __init__(self, n_components="auto", *, replace=True, eps=0.1, random_state=None):
        self.n_components = n_components
        self.replace = replace
        self.eps = eps
        self.random_state = random_state

    def _sketch_params(self):
        return {"replace": bool(self.replace)}

    @property
    def _at_most_dpad(self):
        return not self.replace


class CountSketchRandomProjection(_SketchRandomProjection):
    r"""CountSketch: one :math:`\pm 1` per row of ``R`` (Clarkson & Woodruff 2013). O(nnz(X)) transform.

    Parameters
    ----------
    n_components : int or "auto", default="auto"
    eps : float, default=0.1
    random_state : int, RandomState instance or None, default=None
    """

    _kind = "countsketch"


class CWRandomProjection(_SketchRandomProjection):
    r"""Clarkson-Woodruff sparse embedding with ``a`` nonzeros :math:`\pm 1/\sqrt{a}` per row of ``R``.

    Parameters
    ----------
    n_components : int or "auto", default="auto"
        Must equal ``q * v * a``; with ``v=None``, ``v = n_components // (q a)`` and an integer
        ``n_components`` must be divisible by ``q a`` (``"auto"`` is rounded up to a multiple of ``q a``).
    q : int, default=1
        Hash buckets.
    v : int, default=None
    a : int, default=1
    eps : float, default=0.1
    random_state : int, RandomState instance or None, default=None
    """

    _kind = "cw"
    _parameter_constraints: dict = {
        **_SketchRandomProjection._parameter_constraints,
        "q": [Interval(Integral, 1, None, closed="left")],
        "v": [Interval(Integral, 1, None, closed="left"), None],
        "a": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(self, n_components="auto", *, q=1, v=None, a=1, eps=0.1, random_state=None):
        self.n_components = n_components
        self.q = q
        self.v = v
        self.a = a
        self.eps = eps
        self.random_state = random_state

    def _resolve_n_components(self, n_samples, n_features):
        k = super()._resolve_n_components(n_samples, n_features)
        if self.n_components == "auto" and self.v is None:
            block = self.q * self.a
            k = -(-k // block) * block
        return k

    def _sketch_params(self):
        return {"q": self.q, "v": self.v, "a": self.a}


class NPSRandomProjection(_SketchRandomProjection):
    r"""ISRHT-nps (Lei & Lan 2020, eqs. 5-6): rotated columns sampled i.i.d. with probability proportional
    to their energy on the training data, scaled by :math:`1/\sqrt{r p}`.

    Parameters
    ----------
    n_components : int or "auto", default="auto"
    eps : float, default=0.1
    random_state : int, RandomState instance or None, default=None
    """

    _kind = "srht-nps"


class TopRRandomProjection(_SketchRandomProjection):
    """ISRHT-top-r (Lei & Lan 2020, Prop. 2): the r rotated columns of largest training energy.

    Parameters
    ----------
    n_components : int or "auto", default="auto"
    eps : float, default=0.1
    random_state : int, RandomState instance or None, default=None
    """

    _kind = "srht-topr"
    _at_most_dpad = True


class SupervisedSRHTRandomProjection(_SketchRandomProjection):
    r"""ISRHT-supervised (Lei & Lan 2020, eqs. 8-10): rotated columns ranked by the label-aware score b_k.

    ``fit(X, y)`` needs labels. The paper's are {-1, +1}; since eq. (8) only asks whether two labels are
    equal, any discrete labels are accepted (:func:`rpcheck.sketches.supervised_scores`).

    Parameters
    ----------
    n_components : int or "auto", default="auto"
    rule : {"smallest", "largest"}, default="smallest"
        ``"smallest"`` minimises objective (10); ``"largest"`` is the rule as printed in the paper's text.
    a : float, default=1.0
        Different-class weight, :math:`A_{ij} = -a`.
    eps : float, default=0.1
    random_state : int, RandomState instance or None, default=None
    """

    _kind = "srht-supervised"
    _at_most_dpad = True
    _parameter_constraints: dict = {
        **_SketchRandomProjection._parameter_constraints,
        "rule": [StrOptions({"smallest", "largest"})],
        "a": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, n_components="auto", *, rule="smallest", a=1.0, eps=0.1, random_state=None):
        self.n_components = n_components
        self.rule = rule
        self.a = a
        self.eps = eps
        self.random_state = random_state

    def _sketch_params(self):
        return {"rule": self.rule, "a": float(self.a)}

    def fit(self, X, y):
        """Select columns using ``X`` and the labels ``y``."""
        if y is None:
            raise ValueError(
                "requires y to be passed, but the target y is None: SupervisedSRHTRandomProjection.fit(X, y) "
                "needs class labels."
            )
        y = np.asarray(y)
        self.classes_ = np.unique(y)
        self._fit_sketch(X, y)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def _more_tags(self):
        return {**super()._more_tags(), "requires_y": True}

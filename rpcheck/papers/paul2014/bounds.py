r"""Bounds and target dimensions of Paul, Boutsidis, Magdon-Ismail and Drineas (2014).

"Random Projections for Linear Support Vector Machines", ACM TKDD 8(4):22 (2014); arXiv:1211.6085v5.
Equation numbers (1)-(22) are the same in both versions; lemma/theorem numbers follow the arXiv PDF
(TKDD numbering in brackets): Lemma 3.1 [3.1] SRHT, Lemma 3.2 [3.3] random signs, Lemma 3.3 [3.5] CW,
Lemma 3.4 [3.7] Gaussian, Theorem 3.5 [3.9], Theorem 3.6 [3.11], Theorem 3.7 [3.14], Theorem 1.1 [1.1].

Every target dimension of Sec. 1.3 (eqs. 7-10) is printed as ``r = O(f(rho, eps, delta, d))`` with an
unspecified constant and an unspecified log base. Here ``log`` is the natural log and the constant is the
explicit argument ``c``: :func:`target_dim` returns ``ceil(c * f)``; the ``eq*`` functions return ``f``
(constant 1). With ``c = 1`` the SRHT and CW formulas exceed ``d`` for moderate ``d`` (Sec. 1.3), so
the checkers treat ``c`` as a free, reported parameter.

Examples (rho=10, d=1024, eps=0.5, delta=0.05, constant 1):

>>> round(eq7_srht(10, 1024, 0.5, 0.05))
4495
>>> round(eq8_cw(10, 0.5, 0.05))
13123
>>> round(eq9_sign(10, 1024, 0.5))
638
>>> round(eq10_gaussian(10, 0.5, 0.05))
212
"""

from __future__ import annotations

import math

from ..._validation import check_choice, check_int, check_interval

__all__ = [
    "eq7_srht",
    "eq8_cw",
    "eq9_sign",
    "eq10_gaussian",
    "target_shape",
    "target_dim",
    "cw_parameters",
    "c1a_row_norm_bound",
    "c1a_row_norm_bound_as_printed",
    "c1a_as_printed_delta",
    "hdv_row_norm_tail_upper",
    "countsketch_coherent_failure",
    "sparse_embedding_markov_r",
    "gaussian_embedding_failure_bound",
    "mp_distortion",
    "margin_lower_stated",
    "margin_lower_proof",
    "margin_upper",
    "ratio_bound_stated",
    "ratio_bound_proof",
    "objective_upper_derived",
    "objective_lower_derived",
    "thm11_failure_printed",
    "thm11_failure_corrected",
]


def _common(rho, eps, delta, *, eps_high=1.0, eps_closed_high=True):
    rho = check_int("rho", rho, 1)
    eps = check_interval("eps", eps, 0, eps_high, closed="right" if eps_closed_high else "neither")
    if delta is not None:
        delta = check_interval("delta", delta, 0, 1, closed="right")
    return rho, eps, delta


def eq7_srht(rho, d, eps, delta):
    r"""Eq. (7) / Lemma 3.1 (SRHT), constant 1, natural log.

    .. math:: f = \rho \epsilon^{-2} \ln(\rho d/\delta) \ln(\rho \epsilon^{-2} \delta^{-1} \ln(\rho d/\delta))

    ``eps`` in (0, 1/2], ``delta`` in (0, 1] (Lemma 3.1 allows delta = 1). ``d`` is the padded
    dimension ``d' = 2**ceil(log2 d)`` when the caller pads (Sec. 2, eq. (11)).

    >>> round(eq7_srht(5, 256, 0.5, 0.1), 1)
    1427.1
    """
    rho, eps, delta = _common(rho, eps, delta, eps_high=0.5)
    d = check_int("d", d, 1)
    L = math.log(rho * d / delta)
    return rho * eps**-2 * L * math.log(rho * eps**-2 / delta * L)


def eq8_cw(rho, eps, delta):
    r"""Eq. (8) / Lemma 3.3 (Clarkson-Woodruff), constant 1, natural log.

    .. math:: f = \rho \epsilon^{-4} \ln(\rho/(\delta\epsilon)) (\rho + \ln(1/(\delta\epsilon)))

    Eq. (8) says eps in (0, 1); Lemma 3.3 says (0, 1/2]. Accepted: (0, 1).

    >>> round(eq8_cw(5, 0.5, 0.1))
    2946
    """
    rho, eps, delta = _common(rho, eps, delta, eps_closed_high=False)
    if delta >= 1:
        delta = check_interval("delta", delta, 0, 1, closed="neither")
    return rho * eps**-4 * math.log(rho / (delta * eps)) * (rho + math.log(1 / (delta * eps)))


def eq9_sign(rho, d, eps):
    r"""Eq. (9) / Lemma 3.2 (random signs), constant 1, natural log: ``rho eps^-2 ln(rho) ln(d)``.

    No delta is given (the lemma's probability is "1 - 1/n" with n not part of the lemma; Lemma 3.2,
    item 5). For ``rho = 1`` the printed formula is 0 (ln 1 = 0); it is returned as printed.

    >>> round(eq9_sign(5, 256, 0.5), 1)
    178.5
    """
    rho, eps, _ = _common(rho, eps, None, eps_high=0.5)
    d = check_int("d", d, 1)
    return rho * eps**-2 * math.log(rho) * math.log(d)


def eq10_gaussian(rho, eps, delta):
    r"""Eq. (10) / Lemma 3.4 (Gaussian), constant 1, natural log: ``rho eps^-2 ln(rho/delta)``.

    >>> round(eq10_gaussian(5, 0.5, 0.1), 1)
    78.2
    """
    rho, eps, delta = _common(rho, eps, delta, eps_high=0.5)
    if delta >= 1:
        delta = check_interval("delta", delta, 0, 1, closed="neither")
    return rho * eps**-2 * math.log(rho / delta)


#: sketch kind -> the equation its lemma prints (Li-sparse and CountSketch are compared at the
#: Gaussian / CW formulas: the paper gives no formula for Li-sparse; CountSketch is CW with q=a=1).
_KIND_EQ = {
    "srht": "eq7",
    "cw": "eq8",
    "countsketch": "eq8",
    "sign": "eq9",
    "gaussian": "eq10",
    "sparse": "eq10",
}


def target_shape(kind, rho, d, eps, delta):
    """The constant-1 formula ``f(rho, eps, delta, d)`` that the lemma of ``kind`` prints.

    ``kind`` in {'srht', 'cw', 'countsketch', 'sign', 'gaussian', 'sparse'}; 'sparse' (Li et al.) has no
    formula in the paper and is given eq. (10), 'countsketch' eq. (8).

    >>> round(target_shape("gaussian", 10, 1024, 0.5, 0.05))
    212
    """
    check_choice("kind", kind, tuple(_KIND_EQ))
    eq = _KIND_EQ[kind]
    if eq == "eq7":
        return eq7_srht(rho, d, eps, delta)
    if eq == "eq8":
        return eq8_cw(rho, eps, delta)
    if eq == "eq9":
        return eq9_sign(rho, d, eps)
    return eq10_gaussian(rho, eps, delta)


def target_dim(kind, rho, d, eps, delta, *, c):
    """``r = ceil(c * f)`` with ``f = target_shape(...)`` and the O(.) constant ``c`` > 0 stated explicitly.

    >>> target_dim("gaussian", 10, 1024, 0.5, 0.05, c=1.0)
    212
    >>> target_dim("gaussian", 10, 1024, 0.5, 0.05, c=0.5)
    106
    """
    c = check_interval("c", c, 0, None, closed="neither")
    return max(1, math.ceil(c * target_shape(kind, rho, d, eps, delta)))


def cw_parameters(rho, eps, delta, *, c_q=1.0, c_v=1.0, c_a=1.0):
    r"""The CW block sizes of Sec. 2, with explicit constants.

    ``a = ceil(c_a eps^-1 ln(rho/(eps delta)))``, ``v = ceil(c_v / eps)``,
    ``q = ceil(c_q rho eps^-2 (rho + ln(1/(eps delta))))``; ``r = q v a`` matches eq. (8).

    >>> cw_parameters(10, 0.5, 0.05)
    (548, 2, 12)
    """
    rho, eps, delta = _common(rho, eps, delta, eps_closed_high=False)
    a = max(1, math.ceil(c_a / eps * math.log(rho / (eps * delta))))
    v = max(1, math.ceil(c_v / eps))
    q = max(1, math.ceil(c_q * rho / eps**2 * (rho + math.log(1 / (eps * delta)))))
    return q, v, a


def c1a_row_norm_bound(rho, d, delta):
    r"""C1a, corrected: ``max_i ||(H D V)_(i)||^2 <= 2 rho ln(2 d rho / delta) / d`` w.p. >= 1 - delta.

    Hoeffding on each of the ``d rho`` entries of ``H D V`` (each a Rademacher sum with coefficient
    vector of norm ``1/sqrt(d)``) plus a union bound (proof of Lemma 3.1).

    >>> c1a_row_norm_bound(10, 1024, 0.05) == c1a_row_norm_bound_as_printed(10, 1024)
    True
    """
    rho = check_int("rho", rho, 1)
    d = check_int("d", d, 1)
    delta = check_interval("delta", delta, 0, 1, closed="right")
    return 2 * rho * math.log(2 * d * rho / delta) / d


def c1a_row_norm_bound_as_printed(rho, d):
    """C1a as printed in the proof of Lemma 3.1: ``2 rho ln(40 d rho) / d`` (claimed w.p. >= 1 - delta).

    >>> round(c1a_row_norm_bound_as_printed(10, 1024), 4)
    0.2524
    """
    rho = check_int("rho", rho, 1)
    d = check_int("d", d, 1)
    return 2 * rho * math.log(40 * d * rho) / d


def c1a_as_printed_delta():
    """The failure probability the printed constant 40 actually corresponds to: ``2/40 = 1/20``.

    >>> c1a_as_printed_delta()
    0.05
    """
    return 2 / 40


def hdv_row_norm_tail_upper(rho, d, b, *, one_row=False):
    r"""A rigorous upper bound on ``P(max_i ||(H D V)_(i)||^2 > b)`` for EVERY orthonormal ``d x rho`` matrix V
    (H the normalised ``d x d`` Hadamard matrix, D diagonal with i.i.d. Rademacher signs): our derivation, used
    for the power of paul2014.c1a's HOLDS rows (not a claim of the paper).

    Row i of ``H D V`` is ``A_i D`` with ``A_i = V^T diag(h_i)`` (``h_i`` row i of H, every entry ``+-1/sqrt(d)``),
    so ``A_i A_i^T = V^T V / d = I_rho / d`` exactly. ``y -> exp(lam ||y||^2)`` is convex, and a Rademacher sum
    is dominated in convex order by the Gaussian sum scaled by ``sqrt(pi/2)`` (Ledoux & Talagrand 1991, (4.8):
    ``E F(sum eps_k x_k) <= E F(sqrt(pi/2) sum g_k x_k)`` for convex F), so with ``A_i g ~ N(0, I_rho/d)``
    ``E exp(lam ||A_i D||^2) <= (1 - s)^(-rho/2)``, ``s = pi lam / d < 1``. Markov (Chernoff) and a union over
    the ``d`` rows: ``P <= d (1 - s)^(-rho/2) exp(-s b d / pi)``, minimised at ``1 - s = rho pi / (2 b d)``:

    ``P <= d exp((rho/2) ln(2 b d / (rho pi)) - b d / pi + rho/2)``  when ``2 b d > rho pi`` (else the bound 1).

    At C1a's threshold ``b = 2 rho ln(2 d rho / delta) / d`` with ``L = ln(2 d rho / delta)`` the exponent is
    ``rho ((1/2) ln(4 L / pi) - 2 L / pi + 1/2)``: far below the Hoeffding-and-union ``delta`` of the proof.

    >>> p = hdv_row_norm_tail_upper(5, 1024, c1a_row_norm_bound(5, 1024, 0.05))   # C1a's loosest cell
    >>> p < 2e-10
    True
    >>> hdv_row_norm_tail_upper(5, 1024, 5 / 1024)   # at the mean row norm: no information
    1.0

    ``one_row=True`` gives the bound for one fixed row i, before the union (the above without the factor d).
    """
    rho = check_int("rho", rho, 1)
    d = check_int("d", d, 1)
    b = check_interval("b", b, 0, math.inf, closed="neither")
    x = b * d  # = 2 rho L at C1a's threshold
    if 2 * x <= rho * math.pi:
        return 1.0
    log_p = (0.0 if one_row else math.log(d)) + 0.5 * rho * math.log(2 * x / (rho * math.pi)) - x / math.pi + 0.5 * rho
    return float(min(1.0, math.exp(log_p)))


def countsketch_coherent_failure(rho, r):
    r"""Exact ``P(e >= 1)`` for CountSketch on the coherent basis ``V = [e_1 ... e_rho]`` (paul2014.c2).

    ``V^T R`` is the first ``rho`` rows of ``R``: one +-1 each, in bucket ``h(j)``. If two rows share a
    bucket, the 2x2 block ``[[1, s], [s, 1]]`` of ``V^T R R^T V`` has eigenvalue 0 and ``e >= 1``;
    otherwise ``V^T R R^T V = I`` and ``e = 0``. Hence for every ``eps < 1``

    .. math:: P(e > \epsilon) = P(\text{collision}) = 1 - \prod_{k=1}^{\rho-1} (1 - k/r).

    >>> round(countsketch_coherent_failure(10, 320), 4)
    0.1324
    >>> countsketch_coherent_failure(3, 2)
    1.0
    """
    rho = check_int("rho", rho, 1)
    r = check_int("r", r, 1)
    p = 1.0
    for k in range(1, rho):
        p *= max(0.0, 1 - k / r)
    return 1.0 - p


def sparse_embedding_markov_r(rho, eps, delta):
    r"""A derived sufficient target dimension for CountSketch and the CW matrix (and Gaussian/sign R):
    ``r = ceil((rho^2 + rho) / (eps^2 delta))`` gives ``P(||E||_2 > eps) <= delta`` for EVERY orthonormal V.

    Derivation (second moment + Markov; not in the paper, which gives eq. (8) only up to O(.)): for unit
    ``x, y`` and ``R`` with independent +-1 signs per nonzero, ``E[R R^T] = I`` and every off-diagonal entry
    of ``R R^T`` has variance ``1/r`` (CW: the ``a`` sub-blocks contribute ``a (1/(q v)) (1/a)^2 = 1/r``;
    CountSketch: ``q = a = 1, v = r``), entries of different unordered pairs are uncorrelated (independent
    signs), so ``Var(x^T R R^T y) = (1/r) (sum_{k != l} x_k^2 y_l^2 + x_k y_k x_l y_l) <= (||x||^2 ||y||^2 +
    (x^T y)^2)/r``. Summing over the pairs of columns of V, ``E ||E||_F^2 <= (rho^2 + rho)/r`` and
    ``P(||E||_2 > eps) <= P(||E||_F^2 > eps^2) <= (rho^2 + rho)/(r eps^2) <= delta``. (The same variance
    bound holds for Gaussian and +-1 entries scaled by 1/sqrt(r).)

    >>> sparse_embedding_markov_r(10, 0.5, 0.1)
    4400
    """
    rho = check_int("rho", rho, 1)
    eps = check_interval("eps", eps, 0, 1, closed="neither")
    delta = check_interval("delta", delta, 0, 1, closed="right")
    return math.ceil((rho * rho + rho) / (eps * eps * delta) - 1e-9)


def gaussian_embedding_failure_bound(rho, r, eps):
    r"""A derived upper bound on ``P(e > eps)`` for the Gaussian sketch (``R`` d x r, i.i.d. N(0, 1/r); Lemma 3.4's
    RG), for EVERY orthonormal ``V`` (d x rho) and every d: the Gordon / Gaussian-concentration bound on the extreme
    singular values of a Gaussian matrix (not in the paper, which gives eq. (10) up to constants).

    Derivation: the columns of ``V^T R`` are ``V^T R_{:,j} ~ N(0, I_rho / r)``, independent, so ``V^T R = G^T /
    sqrt(r)`` with ``G`` an r x rho standard Gaussian matrix (rotation invariance; V's coherence does not matter).
    For r >= rho and every t >= 0, ``P(s_max(G) >= sqrt r + sqrt rho + t) <= exp(-t^2/2)`` and ``P(s_min(G) <= sqrt
    r - sqrt rho - t) <= exp(-t^2/2)`` (Gordon's bounds on the expectations, then concentration of the 1-Lipschitz
    maps s_max, s_min; Vershynin 2012, "Introduction to the non-asymptotic analysis of random matrices", Cor. 5.35
    and its proof). ``e = max_i |1 - s_i(G)^2 / r|`` exceeds eps only if ``s_max(G) > sqrt(r (1 + eps))`` or
    ``s_min(G) < sqrt(r (1 - eps))``; with ``t_+ = sqrt(r)(sqrt(1 + eps) - 1) - sqrt(rho)`` and ``t_- = sqrt(r)(1 -
    sqrt(1 - eps)) - sqrt(rho)`` (each side counted as 1 when its t is negative)

    .. math:: P(e > \epsilon) \le e^{-t_+^2/2} + e^{-t_-^2/2}.

    >>> round(gaussian_embedding_failure_bound(40, 1918, 0.5), 5)
    0.00205
    >>> gaussian_embedding_failure_bound(10, 20, 0.5)  # r too small for the bound to say anything
    1.0
    """
    rho = check_int("rho", rho, 1)
    r = check_int("r", r, 1)
    eps = check_interval("eps", eps, 0, 1, closed="neither")
    if r < rho:
        return 1.0
    p = 0.0
    for t in (math.sqrt(r) * (math.sqrt(1 + eps) - 1) - math.sqrt(rho),
              math.sqrt(r) * (1 - math.sqrt(1 - eps)) - math.sqrt(rho)):
        p += 1.0 if t <= 0 else math.exp(-t * t / 2)
    return min(1.0, p)


def mp_distortion(rho, r):
    r"""Marchenko-Pastur rule of thumb for a Gaussian R (derived here, not in the paper):
    ``e ~ 2 sqrt(rho/r) + rho/r`` (large rho). ``e < 1`` needs ``r > ~5.8 rho``.

    >>> round(mp_distortion(10, 160), 3)
    0.562
    """
    rho = check_int("rho", rho, 1)
    r = check_int("r", r, 1)
    return 2 * math.sqrt(rho / r) + rho / r


def margin_lower_stated(e):
    """Thm 3.5 / 3.7 as stated: ``gamma~^2 >= (1 - e) gamma^2``; returns the factor ``1 - e``.

    >>> margin_lower_stated(0.25)
    0.75
    """
    return 1.0 - e


def margin_lower_proof(e):
    """What the proof of Thm 3.5 reaches, eq. (21): factor ``(1 - 2e)/(1 - e)`` (vacuous for e >= 1/2).

    ``(1 - 2e)/(1 - e) < 1 - e`` for every e in (0, 1), since ``1 - 2e < (1 - e)^2``.

    >>> margin_lower_proof(0.25) < margin_lower_stated(0.25)
    True
    >>> round(margin_lower_proof(0.25), 4)
    0.6667
    """
    return (1.0 - 2 * e) / (1.0 - e) if e < 1 else -math.inf


def margin_upper(e):
    """Upper bound ``gamma~^2 <= (1 + e) gamma^2`` (true with zero slack; not in the paper).

    >>> margin_upper(0.5)
    1.5
    """
    return 1.0 + e


def ratio_bound_stated(eps):
    """Thm 1.1: ``B~^2/gamma~^2 <= ((1 + eps)/(1 - eps)) B^2/gamma^2``; returns the factor.

    >>> ratio_bound_stated(0.5)
    3.0
    """
    return (1.0 + eps) / (1.0 - eps) if eps < 1 else math.inf


def ratio_bound_proof(eps):
    """The factor the proof of Thm 1.1 reaches via eq. (21): ``(1 + eps)(1 - eps)/(1 - 2 eps)``.

    >>> round(ratio_bound_proof(0.25), 4)
    1.875
    """
    return (1.0 + eps) * (1.0 - eps) / (1.0 - 2 * eps) if eps < 0.5 else math.inf


def objective_upper_derived(e):
    """Corollary of (17) (derived here, not in the paper): ``Z~_opt <= ((1 - e)/(1 - 2e)) Z_opt`` for e < 1/2.

    >>> objective_upper_derived(0.25)
    1.5
    """
    return (1.0 - e) / (1.0 - 2 * e) if e < 0.5 else math.inf


def objective_lower_derived(e):
    """Derived here (not in the paper): ``Z~_opt >= (1 - e) Z_opt`` (a* feasible for (5) and ``1/2||w*||^2 <= Z_opt``).

    >>> objective_lower_derived(0.25)
    0.75
    """
    return 1.0 - e


def thm11_failure_printed(delta):
    """Failure probability printed in Thm 1.1 (union bound over Lemma 3.1 for V and V_B): ``2 delta``.

    >>> thm11_failure_printed(0.1)
    0.2
    """
    delta = check_interval("delta", delta, 0, 1, closed="neither")
    return 2 * delta


def thm11_failure_corrected(delta):
    """Failure probability that holds: ``delta`` (x_B lies in rowspace(X), so ``E_B`` is similar to ``E``
    and one embedding event suffices; proof of Theorem 1.1).

    >>> thm11_failure_corrected(0.1)
    0.1
    """
    return check_interval("delta", delta, 0, 1, closed="neither")

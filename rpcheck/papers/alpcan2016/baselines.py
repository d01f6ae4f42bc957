r"""Alpcan, Rubinstein and Leckie (CDC 2016): the random-projection baselines they restate, the
Johnson-Lindenstrauss lemma and Arriaga & Vempala's margin preservation.

Statement as printed (Introduction, the paragraph on random projections)
    "The Johnson-Lindenstrauss Lemma [32] established the existence of low-dimensional linear projections that
    approximately preserve inter-point distances, a key characteristic used by many learning algorithms."
    "In their landmark paper, [33] built on this property of random projections to show that model classes
    (that are robust, with some margin) are still PAC learnable [34] when randomly projected by
    data-independent mappings."
    The available text restates both results without formulas, so the constants checked are those of the
    cited results in their standard explicit forms (tag [I], imported; recorded in ``Variant.assumed``):
    JL with the Dasgupta-Gupta constants, ``k >= 2 ln(n(n-1)/delta)/(eps^2/2 - eps^3/3)`` (every one of the
    ``n(n-1)/2`` squared pair distances within ``1 +- eps`` w.p. ``>= 1 - delta``;
    :func:`rpcheck.papers.lei2020.bounds.jl_min_dim`), and Arriaga & Vempala's inner-product bound
    ``P(|u'.v' - u.v| >= c) <= 4 exp(-(c^2 - c^3) k/4)`` for ``||u||, ||v|| <= 1`` with ``c = l/2`` and a union
    bound over the ``m`` points: an ``l``-margin half-space (unit ``w``, unit points, ``y w.x >= l``) keeps
    margin ``l/2`` (``min_i y_i w'.x_i' >= l/2``) w.p. ``>= 1 - delta`` once ``4 m exp(-(c^2 - c^3) k/4) <=
    delta`` (:func:`av_min_dim`).

Protocol of one trial: Gaussian ``R`` (``d x k``, i.i.d. ``N(0, 1/k)``, ``make_sketch("gaussian", d, k)``),
``x' = R^T x``. ``d`` enters neither bound nor any law below (rotation invariance), so the cells use ``d = 64``
(``k > d`` is allowed: ``R`` is then no dimension reduction, and the laws are the same). JL: ``n`` Gaussian
points in ``R^d``, every pair's squared-distance ratio. Margin: a random unit
``w``, ``m`` unit points ``x_i = y_i (l_i w + sqrt(1 - l_i^2) z_i)`` (``z_i`` unit, orthogonal to ``w``,
``l_1 = l`` exactly, the others uniform in ``[l, 1)``), so the margin is exactly ``l``, attained by ``x_1``.

Derivations of the expected verdicts (exact chi-square laws; ``q(k, t) = P(|chi2_k/k - 1| >= t)``)
    ``jl`` (bound, promised ``delta``): for Gaussian ``R`` and any fixed ``u``, ``||R^T u||^2/||u||^2 ~
    chi2_k/k`` exactly, so ``P(fail) <= C(n, 2) q(k, eps)`` (union bound; :func:`jl_failure_upper`).
    ``av_margin`` (bound, promised ``delta``): with ``a = ||w + x||^2``, ``b = ||w - x||^2`` (``a + b = 4``),
    ``w'.x' - w.x = (a (A - 1) - b (B - 1))/4`` with ``A, B ~ chi2_k/k``, so ``|w'.x' - w.x| < c`` whenever
    both ``|A - 1|, |B - 1| < c``: ``P(fail) <= 2 m q(k, l/2)`` (:func:`av_failure_upper`). The same polarisation
    with the Dasgupta-Gupta tail ``2 exp(-k(t^2/2 - t^3/3)/2) <= 2 exp(-(t^2 - t^3) k/4)`` proves the imported
    inequality.
    Both rows: expected HOLDS where :func:`rpcheck.stats.holds_power` at that bound is >= 0.99 (row level
    0.01/500, the fewest trials of the profiles).
    Negative controls (role control, VIOLATED):
    ``control_jl_tight`` (bound, promised ``delta``): the JL event at ``eps/10`` with the same ``k`` (a planted
    tenfold error in the accuracy, i.e. a hundredfold error in the constant of ``k``). Each draw fails with
    probability ``>= q(k, eps/10)`` (one pair suffices), 0.52-0.60 in the cells.
    ``control_margin_no_loss`` (bound, promised ``delta``): "the margin is preserved without loss",
    ``min_i y_i w'.x_i' >= l``. For ``x_1`` (``w.x_1 = l``) with ``g = R^T(w + x_1)``, ``h = R^T(w - x_1)``
    independent (``w + x_1 ⟂ w - x_1`` for unit vectors), ``w'.x_1' = ((1 + l) A - (1 - l) B)/2`` with ``A, B``
    independent ``chi2_k/k``, so each draw fails with probability at least
    ``P((1 + l) A - (1 - l) B < 2 l)`` (:func:`no_loss_failure`, exact by quadrature; 0.50-0.51 in the cells;
    ``w'.x_1'`` within the 1e-9 allowance of ``l`` has probability ~1e-8).
    Both: expected VIOLATED where :func:`rpcheck.stats.violated_power` at that probability is >= 0.99.

Trials: the largest of the least counts deciding every expected row with probability >= 0.99
(:func:`rpcheck.stats.trials_for_power`, anytime and fixed-n rules, row level 0.01/500), computed at import:
quick and ci (``delta = 0.1``: HOLDS of a bound row at 0.1 needs >= 103 draws at all; a control failing with
probability ~0.5 cannot refute a promise of 1/2, so no cell has ``delta = 1/2``).
"""

from __future__ import annotations

import math

import numpy as np

from ..._threads import single_threaded
from ...engine import Finding, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, register
from ...sketches import make_sketch
from ..lei2020.bounds import jl_min_dim
from ._common import cite

__all__ = ["THEOREM", "trial", "av_min_dim", "jl_failure_upper", "av_failure_upper", "chi2_two_sided"]

THEOREM_ID = "alpcan2016.baselines"
ROW_LEVEL = 0.01 / 500
POWER = 0.99
#: relative rounding allowance on the distance ratios and inner products (float64 on unit-scale data)
FP = 1e-9
ASSUMED_JL = "JL constants of Dasgupta & Gupta (2003): k >= 2 ln(n(n-1)/delta)/(eps^2/2 - eps^3/3) [I]"
ASSUMED_AV = "Arriaga & Vempala (2006): P(|u'.v' - u.v| >= c) <= 4 exp(-(c^2 - c^3) k/4), ||u||, ||v|| <= 1 [I]"


def chi2_two_sided(k, t):
    """``q(k, t) = P(|chi2_k/k - 1| >= t)`` (exact)."""
    from scipy.stats import chi2

    return float(chi2.cdf(k * (1 - t), k) + chi2.sf(k * (1 + t), k)) if t < 1 else float(chi2.sf(k * (1 + t), k))


def av_min_dim(m, margin, delta):
    """Least ``k`` with ``4 m exp(-(c^2 - c^3) k/4) <= delta``, ``c = margin/2``."""
    c = margin / 2
    return int(math.ceil(4 * math.log(4 * m / delta) / (c * c - c**3) - 1e-12))


def jl_failure_upper(n, k, eps):
    return min(1.0, n * (n - 1) / 2 * chi2_two_sided(k, eps))


def av_failure_upper(m, k, margin):
    return min(1.0, 2 * m * chi2_two_sided(k, margin / 2))


def _dims(params):
    n, m, eps, l, delta = (params[x] for x in ("n", "m", "eps", "margin", "delta"))
    return jl_min_dim(n, eps, delta), av_min_dim(m, l, delta)


def _margin_data(m, d, l, rng):
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    Zp = rng.standard_normal((m, d))
    Zp -= np.outer(Zp @ w, w)
    Zp /= np.linalg.norm(Zp, axis=1)[:, None]
    li = np.concatenate([[l], rng.uniform(l, 1.0, m - 1)])
    y = np.where(rng.random(m) < 0.5, -1.0, 1.0)
    X = y[:, None] * (li[:, None] * w + np.sqrt(1 - li**2)[:, None] * Zp)
    return w, X, y


def _le(stat, bound):
    """Outcome of ``stat <= bound`` with the rounding allowance (undetermined within FP)."""
    if stat <= bound - FP:
        return Outcome(True, stat, bound)
    if stat > bound + FP:
        return Outcome(False, stat, bound)
    return Outcome(bool(stat <= bound), stat, bound, undetermined=True)


@single_threaded
def trial(params, rng):
    n, d, m, eps, l = (params[x] for x in ("n", "d", "m", "eps", "margin"))
    k_jl, k_av = _dims(params)
    X = rng.standard_normal((n, d))
    Z = np.asarray(make_sketch("gaussian", d, k_jl, rng=rng).apply(X))
    i, j = np.triu_indices(n, 1)
    ratio = np.sum((Z[i] - Z[j]) ** 2, axis=1) / np.sum((X[i] - X[j]) ** 2, axis=1)
    dist = float(np.max(np.abs(ratio - 1)))
    w, Xm, y = _margin_data(m, d, l, rng)
    R = np.asarray(make_sketch("gaussian", d, k_av, rng=rng).matrix())
    wp = w @ R
    marg = y * ((Xm @ R) @ wp)
    low = float(marg.min())
    out = {
        "jl": _le(dist, eps),
        "av_margin": _le(-low, -l / 2),
        "control_jl_tight": _le(dist, eps / 10),
        "control_margin_no_loss": _le(-low, -l),
    }
    diags = {"k_jl": float(k_jl), "k_av": float(k_av), "jl_distortion": dist, "projected_margin": low}
    return TrialRecord(outcomes=out, diagnostics=diags)


def _cell(delta, n=30, d=64, m=50, eps=0.5, margin=0.5):
    return {"n": n, "d": d, "m": m, "eps": eps, "margin": margin, "delta": delta}


def no_loss_failure(k, margin):
    """``P(((1 + l) A - (1 - l) B)/2 < l)`` for independent ``A, B ~ chi2_k/k`` (exact, by quadrature over ``B``):
    the probability that ``x_1`` alone breaks "no loss"."""
    from scipy import integrate
    from scipy.stats import chi2

    l = margin

    def f(s):  # s = chi2_k value of B
        return chi2.cdf(k * (2 * l + (1 - l) * s / k) / (1 + l), k) * chi2.pdf(s, k)

    lo, hi = chi2.ppf(1e-15, k), chi2.isf(1e-15, k)
    val, _ = integrate.quad(f, lo, hi, limit=200, epsabs=1e-12)
    return float(val) - 2e-15  # the truncated tails (each < 1e-15)


def _rates(cell):
    """(HOLDS rows' failure upper bounds, controls' failure lower bounds) of a cell."""
    k_jl, k_av = _dims(cell)
    holds = (jl_failure_upper(cell["n"], k_jl, cell["eps"]), av_failure_upper(cell["m"], k_av, cell["margin"]))
    viol = (chi2_two_sided(k_jl, cell["eps"] / 10), no_loss_failure(k_av, cell["margin"]))
    return holds, viol


def _trials(cells):
    from ...stats import trials_for_power

    need = []
    for c in cells:
        holds, viol = _rates(c)
        for verdict, ps in (("HOLDS", holds), ("VIOLATED", viol)):
            for p in ps:
                for anytime in (True, False):
                    n = trials_for_power("bound", verdict, p, c["delta"], ROW_LEVEL, power=POWER, anytime=anytime)
                    if n is None:
                        raise ValueError(f"alpcan2016.baselines: cell {c} cannot decide a {verdict} row")
                    need.append(n)
    return max(need)


QUICK = (_cell(0.1),)
CI = (_cell(0.1), _cell(0.1, eps=0.3, margin=0.6))
PROFILES = {
    "quick": Profile(QUICK, trials=_trials(QUICK)),
    "ci": Profile(CI, trials=_trials(CI)),
    "standard": Profile(CI + (_cell(0.05, n=60, m=100),), trials=_trials(CI + (_cell(0.05, n=60, m=100),))),
    "full": Profile(CI + (_cell(0.05, n=60, m=100), _cell(0.01, n=100, m=200)), trials=2000),
}
_FEWEST = {}
for _p in PROFILES.values():
    for _c in _p.cells:
        _key = tuple(sorted(_c.items()))
        _FEWEST[_key] = min(_FEWEST.get(_key, _p.trials), _p.trials)


def _n(params):
    return _FEWEST.get(tuple(sorted(params.items())), 20)


def _expect_holds(index):
    def f(params):
        from ...stats import holds_power

        p = _rates(params)[0][index]
        return Verdict.HOLDS if holds_power("bound", _n(params), p, params["delta"], ROW_LEVEL) >= POWER else None

    return f


def _expect_violated(index):
    def f(params):
        from ...stats import violated_power

        p = _rates(params)[1][index]
        return Verdict.VIOLATED if violated_power("bound", _n(params), p, params["delta"], ROW_LEVEL) >= POWER \
            else None

    return f


def _delta(p):
    return float(p["delta"])


THEOREM = register(
    Theorem(
        id=THEOREM_ID,
        paper="alpcan2016",
        title="Baselines restated: JL (Dasgupta-Gupta constants) and Arriaga-Vempala margin l -> l/2 (constants [I])",
        citation=cite("Introduction (the sentences citing [32] and [33])"),
        statement="The Johnson-Lindenstrauss Lemma [32] established the existence of low-dimensional linear "
        "projections that approximately preserve inter-point distances ... [33] built on this property of random "
        "projections to show that model classes (that are robust, with some margin) are still PAC learnable [34] "
        "when randomly projected by data-independent mappings.",
        kind="probabilistic",
        variants=(
            Variant("jl", "every squared pair distance within 1 +- eps at k = 2 ln(n(n-1)/delta)/(eps^2/2 - eps^3/3)",
                    mode="bound", expected=_expect_holds(0), promised_failure=_delta, assumed=(ASSUMED_JL,)),
            Variant("av_margin", "min_i y_i w'.x_i' >= l/2 at the least k with 4m exp(-(c^2 - c^3)k/4) <= delta, "
                    "c = l/2", mode="bound", expected=_expect_holds(1), promised_failure=_delta,
                    assumed=(ASSUMED_AV,)),
            Variant("control_jl_tight", "negative control: the JL event at eps/10 with the same k", mode="bound",
                    expected=_expect_violated(0), promised_failure=_delta, role="control"),
            Variant("control_margin_no_loss", "negative control: min_i y_i w'.x_i' >= l (margin kept without loss)",
                    mode="bound", expected=_expect_violated(1), promised_failure=_delta, role="control"),
        ),
        profiles=PROFILES,
        trial=trial,
        parameters={
            "n": Param("int", low=2, doc="points of the JL set", size=True),
            "d": Param("int", low=2, doc="dimension", size=True),
            "m": Param("int", low=1, doc="points of the margin set", size=True),
            "eps": Param("float", low=0.0, high=1.0, closed="neither", doc="JL accuracy"),
            "margin": Param("float", low=0.0, high=1.0, closed="neither", doc="margin l of the unit half-space"),
            "delta": Param("float", low=0.0, high=1.0, closed="neither", doc="failure probability"),
        },
        tolerance=FP,
        tolerance_note="float64 ratios and inner products on unit-scale data: 1e-9 absolute allowance",
        findings=(
            Finding(
                "baselines-no-constants",
                "The available text restates the Johnson-Lindenstrauss lemma and Arriaga & Vempala's result in "
                "words only; rpcheck checks them with the constants of the cited results in their standard "
                "explicit forms (Dasgupta-Gupta; Arriaga-Vempala's inner-product bound with c = l/2).",
                evidence_variant="jl",
                location="Introduction (the sentences citing [32] and [33])",
                quote="The well-known Johnson-Lindenstrauss Lemma [32] formalizes this idea.",
                kind="observation",
            ),
        ),
        notes="Gaussian R (N(0, 1/k)); exact chi-square laws in every derivation.",
    )
)

r"""Corollary 7 of Zhang et al. (2013): concentration of ``A A^T / m`` for an ``r x m`` Gaussian ``A``.

Statement (Corollary 7; the form is [T], the constants [R])
    For ``0 < eps <= 1/2`` [R], with probability at least ``1 - delta`` [R],
    ``||(1/m) A A^T - I||_2 <= eps`` provided ``m >= (r + 1) log(2r/delta) / (c eps^2)``, ``c = 1/4`` [R].

Per trial: ``eps_R = ||A A^T/m - I||_2`` with ``A A^T`` drawn exactly (Bartlett decomposition of the
Wishart law, ``sampler="bartlett"``) or from an explicit ``R = make_sketch("gaussian", d, m)`` and a Haar
``V`` (``A/sqrt(m) = V^T R``, ``sampler="sketch"``): the two are equal in law, which
``tests/checkers/test_zhang2013_cor7.py`` checks.

Variants
    ``stated`` (mode "bound", promised ``delta``): event ``eps_R <= eps``. Expected verdicts are derived
    per cell (``_expected_stated``): HOLDS where the matrix Laplace upper bound on the failure probability
    (:func:`rpcheck.papers.zhang2013.bounds.cor7_failure_upper`) gives the support test power >= 0.99 (every
    ``c = 1/4`` cell); VIOLATED where the chi-square lower bound
    (:func:`rpcheck.papers.zhang2013.bounds.cor7_failure_lower`) gives the refutation test power >= 0.999 (``c = 4``,
    ``m`` 16 times smaller than prescribed, small ``r``: a power check, not a claim of the paper); reported
    elsewhere.
    ``control_tightened`` (mode "bound", role "control"): ``eps_R <= eps/100``, provably failing with
    probability >= 0.9985 in every cell; expected VIOLATED.
    ``implied_constant`` (mode "report", role "measurement"): the constant
    ``c_hat = (r+1) log(2r/delta) / (m q^2)`` with ``q`` the empirical ``(1 - delta)``-quantile of ``eps_R``
    at the cell's ``m``, i.e. the ``c`` for which the printed formula, at the measured ``eps = q``, returns
    this ``m``. Reported (no verdict rule with a stated error rate). The definition of ``c_emp`` (solve for
    the ``m`` at which the quantile equals ``eps``) is :func:`empirical_constant`; the engine's
    ``rpcheck.engine.constant`` (``rpcheck constant``) searches ``m`` with ``constant_search`` below (its
    factor is ``m_needed / m_printed = (1/4) / c_emp``).
"""

from __future__ import annotations

import math

import numpy as np

from ..._rng import as_generator
from ...engine import Constraint, Finding, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, register
from ._common import (  # noqa: F401  (re-exported)
    ASSUMED_C,
    ASSUMED_EPS,
    ASSUMED_PROB,
    ROW_LEVEL,
    cite,
    delta_failure,
    power_holds,
    power_violated,
    sketch_matrix,
    stated_variant,
    wishart_gram,
)
from .bounds import C_COR7, cor7_failure_lower, cor7_failure_upper, cor7_min_dim

__all__ = ["THEOREM", "trial", "empirical_constant", "implied_constant"]

THEOREM_ID = "zhang2013.cor7"
SAMPLERS = ("bartlett", "sketch")


def _eps_R(r, m, rng, sampler="bartlett", d=None):
    if sampler == "bartlett":
        W = wishart_gram(r, m, rng=rng)
        return float(np.max(np.abs(np.linalg.eigvalsh(W) - 1.0)))
    from ...generators import haar_orthonormal
    from ...linalg import embedding_distortion

    d = int(d) if d else 2 * m
    V = haar_orthonormal(d, r, rng=rng)
    R = sketch_matrix("gaussian", d, m, rng=rng)
    return float(embedding_distortion(V, VtR=V.T @ R))


def trial(params, rng):
    r, eps = int(params["r"]), float(params["eps"])
    m = int(params["m"])
    e = _eps_R(r, m, rng, params.get("sampler", "bartlett"), params.get("d"))
    return TrialRecord(
        outcomes={
            "stated": Outcome(bool(e <= eps), e, eps),
            "control_tightened": Outcome(bool(e <= CONTROL_FACTOR * eps), e, CONTROL_FACTOR * eps),
            "implied_constant": Outcome(True, e, eps),
        },
        diagnostics={"eps_R": e, "m": float(m)},
    )


def implied_constant(eps_values, r, m, delta):
    r"""``c_hat = (r+1) log(2r/delta) / (m q^2)``, ``q`` the empirical ``(1-delta)``-quantile of ``eps_R``."""
    q = float(np.quantile(np.asarray(eps_values, dtype=float), 1.0 - delta, method="higher"))
    return (r + 1) * math.log(2 * r / delta) / (m * q * q), q


def empirical_constant(r, eps, delta, *, trials=2000, rng=None, m_max=None):
    r"""The empirical constant ``c_emp``: the ``c`` at which the ``(1 - delta)``-quantile of ``eps_R`` equals ``eps``
    for ``m = (r+1) log(2r/delta) / (c eps^2)``.

    Bisection over integer ``m`` on fresh exact (Bartlett) samples of ``trials`` draws per ``m``; the
    quantile is a Monte Carlo estimate (its standard error at ``trials = 2000``, ``delta = 0.1`` is about
    ``sqrt(0.09/2000)/f(q) ~`` a few percent of ``q``), so ``c_emp`` is an estimate, reported, not asserted.

    Returns
    -------
    dict with ``c_emp``, ``m_emp`` and ``m_printed`` (the Cor. 7 ``m`` at the assumed ``c = 1/4``).
    """
    rng = as_generator(rng)
    K = (r + 1) * math.log(2 * r / delta)
    m_printed = cor7_min_dim(r, eps, delta, C_COR7)
    lo, hi = max(r, 1), int(m_max or 4 * m_printed)

    def ok(m):
        e = [_eps_R(r, m, rng) for _ in range(trials)]
        return float(np.quantile(e, 1.0 - delta)) <= eps

    if not ok(hi):
        return {"c_emp": math.nan, "m_emp": math.nan, "m_printed": m_printed}
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return {"c_emp": K / (hi * eps * eps), "m_emp": hi, "m_printed": m_printed}


def decide(records, params):
    r, delta, m = int(params["r"]), float(params["delta"]), int(params["m"])
    e = [rec.outcomes["implied_constant"].statistic for rec in records]
    if not e:
        return {"implied_constant": Verdict.INCONCLUSIVE}, {}
    c_hat, q = implied_constant(e, r, m, delta)
    # A measurement (role "measurement"): the empirical quantile has no stated error rate here, so no
    # verdict; whether c = 1/4 is safe is the "stated" row's bound test at c = 1/4.
    return {"implied_constant": Verdict.INCONCLUSIVE}, {"c_hat": c_hat, "quantile_eps_R": q, "c_assumed": C_COR7}


def _cells(rs, epss, cs, delta=0.1, sampler="bartlett"):
    out = []
    for r in rs:
        for eps in epss:
            for c in cs:
                cell = {"r": r, "eps": eps, "delta": delta, "c": c, "m": cor7_min_dim(r, eps, delta, c)}
                if sampler != "bartlett":
                    cell.update(sampler=sampler, d=2 * cell["m"])
                out.append(cell)
    return tuple(out)


#: Power required for an expected HOLDS (support test) and for an expected VIOLATED (refutation test).
POWER_HOLDS = 0.99
POWER_VIOLATED = 0.999
#: Factor of the negative control's threshold: the event eps_R <= eps/100 (see ``_control_failure``).
CONTROL_FACTOR = 0.01


def _trials(params):
    # the fewest trials of any profile holding this exact cell (both powers grow with n here: the failure
    # probability bounds are far from delta), so the derived expectation is valid in every profile
    return _TRIALS_FOR.get(_key(params), 200)


def _key(params):
    return tuple(sorted((k, v) for k, v in params.items()))


def _expected_stated(params):
    """Expected verdict of "stated", derived (never measured):

    * HOLDS where the matrix Laplace bound ``p <= cor7_failure_upper(r, m, eps)`` gives the support test
      power >= 0.99 at the row level 0.01/500 (every c = 1/4 cell: p <= 0.0054, power 1.000 at 200 trials);
    * VIOLATED where the diagonal lower bound ``p >= cor7_failure_lower(r, m, eps)`` gives the refutation
      test power >= 0.999 at that level (the c = 4 cells with small r: r = 2, p >= 0.36-0.42; r = 5,
      p >= 0.25-0.28 at 400 trials);
    * None (reported) elsewhere: neither bound decides (c = 4 with r >= 10, where the diagonal bound is
      below 0.08, and every 1/4 < c < 4 cell). A measured failure rate never sets an expected verdict here: it is
      derived where possible and reported otherwise.
    """
    r, m, eps, delta = int(params["r"]), int(params["m"]), float(params["eps"]), float(params["delta"])
    n = _trials(params)
    if power_holds(n, cor7_failure_upper(r, m, eps), delta) >= POWER_HOLDS:
        return Verdict.HOLDS
    if power_violated(n, cor7_failure_lower(r, m, eps), delta) >= POWER_VIOLATED:
        return Verdict.VIOLATED
    return None


def _control_failure(params):
    """Lower bound on P(eps_R > eps/100) (``cor7_failure_lower``): >= 0.9985 in every cell of every profile."""
    return cor7_failure_lower(int(params["r"]), int(params["m"]), CONTROL_FACTOR * float(params["eps"]))


PROFILES = {
    "quick": Profile(_cells([2, 10], [0.5], [0.25, 4.0]), trials=200),
    "ci": Profile(
        _cells([2, 5, 20], [0.5, 0.25], [0.25, 4.0]) + _cells([2], [0.5], [0.25, 4.0], sampler="sketch"),
        trials=400,
    ),
    "standard": Profile(
        _cells([2, 5, 10, 20, 50], [0.5, 0.25, 0.1], [0.25, 1.0, 4.0]) + _cells([5], [0.5], [0.25], sampler="sketch"),
        trials=1000,
    ),
    "full": Profile(_cells([2, 5, 10, 20, 50], [0.5, 0.25, 0.1], [0.25, 0.5, 1.0, 2.0, 4.0], delta=0.01), trials=3000),
}

PARAMETERS = {
    "r": Param("int", low=1, doc="rank r (A is r x m)"),
    "eps": Param("float", low=0.0, high=0.5, closed="right", doc="accuracy eps in (0, 1/2] (Cor. 7)"),
    "delta": Param("float", low=0.0, high=1.0, closed="neither", doc="failure probability"),
    "c": Param("float", low=0.0, closed="neither", doc="constant c of m >= (r+1) log(2r/delta)/(c eps^2)"),
    "m": Param("int", low=1, doc="number of projections (= Cor. 7's m at the cell's c)"),
    "sampler": Param("choice", choices=SAMPLERS, doc="exact Wishart (bartlett) or explicit Gaussian sketch"),
    "d": Param("int", low=1, doc="ambient dimension of the explicit sketch (sampler 'sketch')"),
}
CONSTRAINTS = (
    Constraint(
        "m = ceil((r+1) log(2r/delta)/(c eps^2)) (Cor. 7's m at the cell's constant c)",
        lambda p: int(p["m"]) == cor7_min_dim(int(p["r"]), float(p["eps"]), float(p["delta"]), float(p["c"])),
    ),
    Constraint(
        "d >= r (a d x r orthonormal V exists; sampler 'sketch')", lambda p: int(p.get("d", p["r"])) >= int(p["r"])
    ),
)

_TRIALS_FOR = {}
for _prof in PROFILES.values():
    for _c in _prof.cells:
        _TRIALS_FOR[_key(_c)] = min(_TRIALS_FOR.get(_key(_c), _prof.trials), _prof.trials)

THEOREM = register(
    Theorem(
        id=THEOREM_ID,
        paper="zhang2013",
        title="Cor 7: ||AA^T/m - I|| <= eps w.p. 1-delta for m >= (r+1)log(2r/delta)/(c eps^2), c = 1/4 [R]",
        citation=cite("Corollary 7", "m >= (r+1) log(2r/delta) / (c eps^2)"),
        statement="For 0 < eps <= 1/2, with probability at least 1 - delta, ||(1/m) A A^T - I||_2 <= eps "
        "provided m >= (r+1) log(2r/delta)/(c eps^2), c >= 1/4 (constants reconstructed [R]).",
        kind="probabilistic",
        variants=(
            stated_variant(
                "eps_R = ||A A^T/m - I||_2 <= eps",
                _expected_stated,
                note="Expected verdicts derived per cell: HOLDS from the matrix Laplace upper bound, VIOLATED "
                "(c = 4, small r: m is 1/16 of the prescribed m) from the chi-square lower bound, else reported.",
            ),
            Variant(
                "control_tightened",
                "eps_R <= eps/100 (negative control: the same event with the threshold tightened 100-fold)",
                mode="bound",
                expected=Verdict.VIOLATED,
                promised_failure=delta_failure,
                role="control",
                # Derivation: eps_R >= max_i |W_ii - 1| with W_ii ~ chi2_m/m independent, so
                # P(eps_R > eps/100) >= 1 - P(|chi2_m/m - 1| <= eps/100)^r >= 0.9985 in every cell (the
                # smallest, 0.99859, at r = 2, c = 1/4); the refutation test of p <= delta (0.1 at quick/ci)
                # at the level 0.01/500 then has power 1.0000 at 200 trials
                # (tests/checkers/test_zhang2013.py::test_cor7_expectations_are_derived).
            ),
            Variant(
                "implied_constant",
                "c_hat = (r+1) log(2r/delta)/(m q_{1-delta}(eps_R)^2) (measured; the assumed c is 1/4)",
                mode="report",
                expected=None,
                role="measurement",
                assumed=(ASSUMED_C,),
            ),
        ),
        profiles=PROFILES,
        trial=trial,
        decide=decide,
        parameters=PARAMETERS,
        constraints=CONSTRAINTS,
        tolerance=0.0,
        tolerance_note="Exact eigenvalues of an r x r matrix; no tolerance.",
        constant_search={
            "param": "m",
            "formula": lambda p: cor7_min_dim(int(p["r"]), float(p["eps"]), float(p["delta"]), C_COR7),
            "variant": "stated",
        },
        findings=(
            Finding(
                "cor7-constant-conservative",
                "With c = 1/4 (rpcheck's assumed value: the value of c is not legible in the available text of the "
                "paper) the condition is conservative: the implied constant at the prescribed m is about 1 (c_emp ~ "
                "1.04-1.34 measured), so the prescribed m is about 4x larger than needed and the failure rate there "
                "is ~0.",
                evidence_variant="implied_constant",
                location="Corollary 7 (Section 5.1)",
                quote="m >= (r + 1) log(2r/delta)/(c eps^2)",
                kind="observation",
            ),
            Finding(
                "cor7-no-log-r",
                "The implied constant grows with r (about 1.07 at r = 2, 1.09 at r = 5, 1.38 at r = 20 for eps = "
                "1/2, ci): the printed (r+1) log(2r/delta) overstates the growth of the needed m in r, consistent "
                "with m = O((r + log 1/delta)/eps^2) for Gaussian A and not with an r log r growth, which the remark "
                "after Theorem 2 relates to 'the coupon collector's problem'.",
                evidence_variant="implied_constant",
                location="Corollary 7; Section 4.1, the remark after Theorem 2",
                quote="m >= (r + 1) log(2r/delta)/(c eps^2)",
                kind="observation",
            ),
            Finding(
                "cor7-same-distortion-as-paul",
                "Zhang's ||U^T R_paper R_paper^T U/m - I|| and Paul et al.'s ||I - V^T R R^T V|| (R scaled so that "
                "E[R R^T] = I) are the same quantity: the explicit-sketch cells (Paul's form via "
                "rpcheck.linalg.embedding_distortion) behave as the exact Wishart cells (same law: KS test in "
                "tests/checkers/test_zhang2013.py).",
                evidence_variant="stated",
                location="Corollary 7; Paul et al. 2014 Lemma 3.4",
                quote="||(1/m) A A^T - I||_2 <= eps",
                kind="observation",
            ),
        ),
        notes="A A^T/m sampled exactly by the Bartlett decomposition (sampler='bartlett') or from an "
        "explicit Gaussian sketch (sampler='sketch').",
    )
)

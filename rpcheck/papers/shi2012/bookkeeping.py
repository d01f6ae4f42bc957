r"""Union-bound bookkeeping and non-vacuity regions of Shi et al. (2012) (the n thresholds of Theorems 6, 8, 9
and the domains where their margin bounds are positive), as deterministic
checks on randomly drawn parameters (each trial draws ``eps, gamma, m, L, delta, n`` from the cell's ranges).

- the exponent identity ``(n/2)(eps^2/2 - eps^3/3) = n(3eps^2 - 2eps^3)/12``;
- the n thresholds of Theorems 6, 8, 9 invert ``6 N E(n, eps) = delta`` exactly (N = m, Lm, m(L-1));
- the charged count 6m dominates the count Theorem 6's proof needs, (4m+2)E;
- the non-vacuity regions: the margin bounds are > 0 exactly on ``eps < gamma/(2+gamma)`` (Thm 6),
  ``eps < gamma/(2-gamma)`` (Thm 6 as proved), ``eps < thm8_eps_max(gamma)`` (Thm 8), ``eps < g/(2-g)``,
  ``g = gamma/sqrt(2L)`` (Thm 9);
- the promised values dominate the exact failure probabilities: ``2E >= chi^2`` tail (Lemma 10) and
  ``6E >= Pearson-r`` tail (Theorem 5).

The margin checkers (``shi2012.thm6``, ``thm8``, ``thm9``) use the same functions to report every cell outside
these regions as VACUOUS.
"""

from __future__ import annotations

import math

import numpy as np

from ...engine import Finding, Outcome, Profile, Theorem, TrialRecord, Variant, grid, register
from . import _common as c
from . import bounds as B

__all__ = ["BOOKKEEPING"]

RTOL = 1e-10  # closed forms in float64 (exp/log of moderate arguments): relative error < 1e-13


def _draw(params, rng):
    eps = float(rng.uniform(0.01, 0.95))
    gamma = float(rng.uniform(0.01, 1.0))
    m = int(rng.integers(1, 1000))
    L = int(rng.integers(2, 20))
    delta = float(10 ** rng.uniform(-6, -0.01))
    n = int(rng.integers(1, params["n_max"]))
    return eps, gamma, m, L, delta, n


def _trial(params, rng):
    eps, gamma, m, L, delta, n = _draw(params, rng)
    e1 = (n / 2) * (eps**2 / 2 - eps**3 / 3)
    ok_exp = math.isclose(e1, B.exponent(n, eps), rel_tol=RTOL)
    inv_err = 0.0
    for thm in ("thm6", "thm8", "thm9"):
        N = B.union_count(thm, m=m, L=L)
        nt = B.n_threshold(eps, N, delta)
        inv_err = max(inv_err, abs(B.union_failure_bound(thm, nt, eps, m=m, L=L) / delta - 1))
    union_ok = B.true_union_count_thm6(m) <= 6 * m
    reg = []
    reg.append((B.thm6_margin_bound(gamma, eps) > 0) == (eps < B.thm6_eps_max(gamma)))
    reg.append((B.thm6_margin_bound(gamma, eps, "as_proved") > 0) == (eps < B.thm6_eps_max(gamma, "as_proved")))
    for form in ("as_printed", "corrected"):
        reg.append((B.thm8_margin_bound(gamma, eps, form) > 0) == (eps < B.thm8_eps_max(gamma, form)))
    reg.append((B.thm9_margin_bound(gamma, eps, L) > 0) == (eps < B.thm9_eps_max(gamma, L)))
    n_small = 1 + n % 400
    l10 = B.lemma10_failure_bound(n_small, eps) >= B.lemma10_exact_failure(n_small, eps)
    cc = float(rng.uniform(-0.95, 0.95))
    n5 = 2 + n % 300
    t5 = min(1.0, B.thm5_failure_bound(n5, eps)) >= B.thm5_exact_failure(cc, n5, eps) * (1 - 1e-8)
    # I8: Theorem 9 allows eps in (0, 1]; at eps = 1 its bound divides by 1 - eps = 0
    with np.errstate(divide="ignore", invalid="ignore"):
        one = np.float64(1.0)
        b9 = -2 * one / (1 - one) + (1 + one) * gamma / (np.sqrt(2.0 * L) * (1 - one))
    out = {
        "thm9_domain_as_printed": Outcome(holds=bool(np.isfinite(b9)), statistic=float(b9), bound=0.0),
        "exponent_identity": Outcome(holds=ok_exp, statistic=abs(e1 - B.exponent(n, eps)), bound=RTOL * e1),
        "thresholds_invert": Outcome(holds=inv_err <= RTOL, statistic=inv_err, bound=RTOL),
        "union_count_conservative": Outcome(holds=union_ok, statistic=4 * m + 2, bound=6 * m),
        "nonvacuity_regions": Outcome(holds=all(reg), statistic=float(sum(not r for r in reg)), bound=0.0),
        "lemma10_dominates_exact": Outcome(holds=bool(l10)),
        "thm5_dominates_exact": Outcome(holds=bool(t5)),
    }
    return TrialRecord(outcomes=out, diagnostics={"eps": eps, "gamma": gamma, "m": m, "L": L, "n": n})


BOOKKEEPING = register(Theorem(
    id="shi2012.bookkeeping",
    paper="shi2012",
    title="C14/C15: exponent identity, n thresholds invert 6NE = delta, union counts, non-vacuity regions",
    citation=c.citation("Theorems 5, 6, 8, 9 (thresholds on n) and Lemma 10", ""),
    statement=("n > 12/(3eps^2 - 2eps^3) ln(6N/delta) with N = m (Thm 6), Lm (Thm 8), m(L-1) (Thm 9), and "
               "exp(-(n/2)(eps^2/2 - eps^3/3)) throughout."),
    kind="deterministic",
    variants=(Variant("thm9_domain_as_printed", "Theorem 9's bound is defined on its printed domain eps in "
                                                "(0, 1] "
                      "(evaluated at eps = 1)", mode="deterministic", expected=c.V,
                      note="I8: eps = 1 divides by zero."),) + tuple(
        Variant(name, text, mode="deterministic", expected=c.H) for name, text in (
        ("exponent_identity", "(n/2)(eps^2/2 - eps^3/3) = n(3eps^2 - 2eps^3)/12"),
        ("thresholds_invert", "6 N E(n_threshold, eps) = delta for N = m, Lm, m(L-1)"),
        ("union_count_conservative", "(4m+2) <= 6m: the charged count dominates the needed one"),
        ("nonvacuity_regions", "margin bound > 0 <=> eps below the stated threshold (Thms 6, 6 proved, 8, 8 "
         "corrected, 9)"),
        ("lemma10_dominates_exact", "2E(n,eps) >= exact chi^2 two-sided tail"),
        ("thm5_dominates_exact", "min(1, 6E(n,eps)) >= exact P(c' outside [Lo, Up])"),
    )),
    profiles={
        # >= 90 draws per cell: a deterministic HOLDS needs them (rules v2); trials are closed forms (~1 ms)
        "quick": Profile(cells=grid(n_max=5000), trials=90),
        "ci": Profile(cells=grid(n_max=[500, 5000]), trials=90),
        "standard": Profile(cells=grid(n_max=[500, 5000, 50000]), trials=500),
        "full": Profile(cells=grid(n_max=[500, 5000, 50000]), trials=5000),
    },
    parameters={"n_max": c.INT(2, doc="n is drawn uniformly from {1, ..., n_max - 1}")},
    trial=_trial,
    tolerance=RTOL,
    tolerance_note="float64 closed forms, relative 1e-10",
    findings=(
        Finding(
            "I8",
            "Theorem 9 states delta, eps in (0, 1]; eps = 1 makes 1 - eps = 0 in its bound.",
            evidence_variant="thm9_domain_as_printed",
            location="Theorem 9",
            quote="then for any delta, eps in (0, 1]",
            kind="paper error",
        ),
        Finding(
            "C14",
            "The n thresholds invert 6NE(n, eps) = delta exactly; the charged union count 6m exceeds the (4m+2) "
            "events Theorem 6's proof needs (conservative, valid).",
            evidence_variant="union_count_conservative",
            location="Theorems 6, 8, 9 (n thresholds); Lemma 10",
            quote="n > 12/(3 eps^2 - 2 eps^3) ln(6m/delta)",
            kind="observation",
        ),
        Finding(
            "C15",
            "The non-vacuity regions are exactly eps < gamma/(2+gamma) (Thm 6), gamma/(2-gamma) (Thm 6 as proved), "
            "thm8_eps_max (Thm 8; about half for the corrected bound at small gamma), g/(2-g) (Thm 9); the margin "
            "checkers report every cell outside them as VACUOUS.",
            evidence_variant="nonvacuity_regions",
            location="Theorems 6, 8, 9 (margin bounds)",
            quote="is linearly separable by margin gamma - 2 eps/(1 - eps)",
            kind="observation",
        ),
    ),
))

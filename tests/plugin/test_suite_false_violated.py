"""Suite-level false-VIOLATED rate of the pytest plugin's error control, measured on a synthetic suite of
true claims.

The suite: ``M`` theorems (``SUITE``), theorem ``i`` with ``m_i`` "bound" rows, each row ``n`` Bernoulli
trials whose failure probability is exactly the promised ``delta`` (the boundary of a true claim: the
hardest case for false VIOLATED). Each suite draw takes the failure counts in closed form
(``Binomial(n, delta)``), gives theorem ``i`` the plugin's weighted-Bonferroni level ``alpha m_i / M_rows``
(:meth:`rpcheck.testing.Family.alpha_for`) and runs Holm inside the theorem on the refutation p-values
``P_delta(X >= k)`` (:mod:`rpcheck.stats`). Any rejection is a false VIOLATED. The suites use one fixed
root seed, so the test is deterministic; each assertion's false-alarm probability (for a correct rule and
an unlucky seed) is stated next to it.
"""

import numpy as np
import pytest
from scipy.stats import binom, binomtest

from rpcheck.stats import Counts, bound_pvalues, central_pvalue, clopper_pearson, holm
from rpcheck.testing import Family

#: (theorem id, [(trials n, promised delta) per row]): 12 theorems, 39 rows, n from 20 to 2000 and
#: delta from 0.005 to 0.3, so the discrete tests' sizes differ from row to row.
SUITE = [
    ("t01", [(100, 0.05)]),
    ("t02", [(200, 0.01), (200, 0.1)]),
    ("t03", [(500, 0.02), (500, 0.05), (1000, 0.005)]),
    ("t04", [(90, 0.1), (90, 0.2), (300, 0.05), (300, 0.3)]),
    ("t05", [(2000, 0.01)] * 5),
    ("t06", [(50, 0.1), (50, 0.2)]),
    ("t07", [(400, 0.03), (800, 0.03), (1600, 0.03)]),
    ("t08", [(20, 0.3), (40, 0.25), (60, 0.15), (120, 0.1), (240, 0.05), (480, 0.02)]),
    ("t09", [(1000, 0.1)]),
    ("t10", [(150, 0.08)] * 4),
    ("t11", [(700, 0.04), (700, 0.06), (700, 0.08)]),
    ("t12", [(250, 0.12)] * 5),
]
SUITES = 20_000  # independent suite draws
FALSE_ALARM = 1e-3  # level of each assertion


def _levels(alpha):
    fam = Family(alpha, {t: len(rows) for t, rows in SUITE}, {t: 1 for t, _ in SUITE}, [])
    return fam, {t: fam.alpha_for(t) for t, _ in SUITE}


def _size(n, delta, t):
    """Exact P_delta(P_delta(X >= K) <= t): the size of one row's refutation test at level t."""
    k = np.arange(n + 1)
    return float(binom.pmf(k, n, delta)[binom.sf(k - 1, n, delta) <= t].sum())


def _simulate(alpha, seed):
    """Per suite draw: whether any row was called VIOLATED; also the counts and p-values per theorem."""
    rng = np.random.default_rng(seed)
    _, levels = _levels(alpha)
    any_v = np.zeros(SUITES, dtype=bool)
    per = {}
    for tid, rows in SUITE:
        k = np.stack([rng.binomial(n, d, size=SUITES) for n, d in rows], axis=1)
        pv = np.stack([binom.sf(k[:, j] - 1, n, d) for j, (n, d) in enumerate(rows)], axis=1)
        # Holm at level a over m p-values rejects something iff its first step does: min p <= a / m
        any_v |= pv.min(axis=1) <= levels[tid] / len(rows)
        per[tid] = (k, pv)
    return any_v, per


@pytest.mark.parametrize("alpha", [0.01, 0.05])
def test_suite_false_violated_rate_at_most_alpha(alpha):
    fam, levels = _levels(alpha)
    assert fam.rows == 39 and sum(levels.values()) == pytest.approx(alpha)
    any_v, per = _simulate(alpha, seed=20240611 + int(alpha * 1000))

    # the vectorised shortcut agrees with the engine's own p-values and Holm on the first 100 suites and on
    # the first 50 suites with a false VIOLATED (where the decision is a rejection)
    check = sorted(set(range(100)) | set(np.flatnonzero(any_v)[:50].tolist()))
    for tid, rows in SUITE:
        k, pv = per[tid]
        for s in check:
            ps = [bound_pvalues(Counts(int(k[s, j]), n, 0, 0, 0), d)[0] for j, (n, d) in enumerate(rows)]
            np.testing.assert_allclose(ps, pv[s], rtol=1e-9, atol=1e-300)
            assert holm(ps, levels[tid]).reject.any() == (pv[s].min() <= levels[tid] / len(rows))

    errors = int(any_v.sum())
    # exact rate: suites err iff some row's p-value <= alpha / M_rows (independent rows)
    exact = 1 - np.prod([1 - _size(n, d, alpha / fam.rows) for _, rows in SUITE for n, d in rows])
    assert exact <= alpha
    # consistent with the exact rate (central exact test; false alarm FALSE_ALARM)
    assert central_pvalue(errors, SUITES, exact) > FALSE_ALARM, (errors, exact)
    # not above alpha (one-sided exact binomial test; false alarm <= FALSE_ALARM when the rate is <= alpha)
    assert binomtest(errors, SUITES, alpha, alternative="greater").pvalue > FALSE_ALARM, (errors, alpha)
    lo, hi = clopper_pearson(errors, SUITES, 0.99)
    print(f"alpha={alpha}: {errors}/{SUITES} suites with a false VIOLATED = {errors / SUITES:.5f}, "
          f"exact 99% CI [{lo:.5f}, {hi:.5f}], exact rate {exact:.5f}")  # fmt: skip

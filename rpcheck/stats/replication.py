"""Tests of a paper's reported results from independent repetitions: the sign test of a sentence and the
one-sample t test of a printed mean.
"""

from __future__ import annotations

import math

import numpy as np

from .rules import Verdict


def sign_test(k, n, alpha=0.01):
    """Exact one-sided sign test of "P(a paired draw supports the statement) > 1/2" from ``k`` supporting draws
    out of ``n`` independent ones (ties removed by the caller, or counted as not supporting).

    HOLDS when ``P(X >= k | n, 1/2) <= alpha`` (if the true probability is <= 1/2, P(HOLDS) <= alpha);
    VIOLATED when ``P(X <= k | n, 1/2) <= alpha`` (if it is >= 1/2, P(VIOLATED) <= alpha); else
    INCONCLUSIVE (with n < 7 neither is reachable at alpha = 0.01: 2^-7 = 0.0078).

    Returns ``(verdict, p_holds, p_violated)``.

    >>> sign_test(7, 7)[0], sign_test(0, 7)[0], sign_test(3, 6)[0]
    (<Verdict.HOLDS: 'HOLDS'>, <Verdict.VIOLATED: 'VIOLATED'>, <Verdict.INCONCLUSIVE: 'INCONCLUSIVE'>)
    """
    if n == 0:
        return Verdict.INCONCLUSIVE, 1.0, 1.0
    from scipy.stats import binom  # lazy: scipy.stats costs ~1 s to import (rpcheck list/show)

    p_h = float(binom.sf(k - 1, n, 0.5))
    p_v = float(binom.cdf(k, n, 0.5))
    v = Verdict.HOLDS if p_h <= alpha else (Verdict.VIOLATED if p_v <= alpha else Verdict.INCONCLUSIVE)
    return v, p_h, p_v


def support_count(outcomes):
    """``(k, n)`` for :func:`sign_test` from per-draw outcomes (objects with ``holds``, ``vacuous`` and
    ``undetermined``): vacuous and undetermined draws are not counted; ``k`` of the other ``n`` hold.

    >>> from types import SimpleNamespace as O
    >>> support_count([O(holds=True, vacuous=False, undetermined=False), O(holds=False, vacuous=True,
    ...               undetermined=False), O(holds=False, vacuous=False, undetermined=False)])
    (1, 2)
    """
    outs = [o for o in outcomes if not o.vacuous and not o.undetermined]
    return sum(bool(o.holds) for o in outs), len(outs)


def printed_mean_test(values, printed, alpha=0.01):
    """Two-sided one-sample t test of "the mean of our per-draw ``values`` equals the paper's ``printed``
    number": ``(agrees, p)`` with ``agrees`` False when ``p < alpha`` (a false DISAGREES has probability
    ``alpha`` per row when our draws are independent and their mean is normal, by the t distribution with
    k - 1 degrees of freedom), True otherwise; ``(None, nan)`` below two finite draws or with a zero spread.
    The printed number is taken as exact: its rounding and the paper's own sampling error are not added, so
    the stated rate holds against the exact value the paper estimates only when those are negligible beside
    our standard error (a DISAGREES says "not this number", not which side erred).

    Examples
    --------
    >>> printed_mean_test([1.0, 1.1, 0.9, 1.0], 1.0)[0]
    True
    >>> printed_mean_test([1.0, 1.01, 0.99, 1.0], 2.0)[0]
    False
    """

    from scipy import stats as _st

    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size < 2 or not np.isfinite(printed):
        return None, math.nan
    se = float(v.std(ddof=1) / math.sqrt(v.size))
    if se == 0:
        return None, math.nan
    t = (float(v.mean()) - float(printed)) / se
    p = float(2 * _st.t.sf(abs(t), v.size - 1))
    return bool(p >= alpha), p

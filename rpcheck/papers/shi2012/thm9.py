r"""Theorem 9 of Shi et al. (2012) (one-parameter method): the printed and the proved denominators, the
Kronecker ordering, the proof structure (Theorem 9, eq. (6), and its proof).

``R = [R_1, ..., R_L]`` (``n x Ld``, i.i.d. N(0, 1/n)); one ``make_sketch("gaussian", L d, n)`` per trial,
whose row block ``y`` is ``R_y^T``. Witnesses ``w_y`` are unit; ``u = [w_1; ...; w_L]`` and
``v = R u = sum_y R_y w_y`` (random: it depends on R, although the statement quantifies v before R). For every
point and wrong class ``y'``, ``z = e_y ⊗ x - e_{y'} ⊗ x`` (``np.kron(e_y, x)``: block layout matching ``u``).

Notation of the proof: it writes ``x ⊗ e_y`` and calls ``⊗`` "the tensor product". Read as the tensor
``x e_y^T`` (a d x L matrix whose column y is x) stacked column by column, ``vec(x e_y^T)``, it has block y
equal to x and zeros elsewhere: exactly ``np.kron(e_y, x)``, the layout of ``u = [w_1; ...; w_L]``, so the
proof's identities ``<u, z> = <w_y, x> - <w_{y'}, x>`` and ``R z = R_y x - R_{y'} x`` hold. Only the other
ordering convention, NumPy's ``np.kron(x, e_y)`` (x's entries interleaved with stride L), breaks them; the
self-check ``kron_x_major_layout`` confirms that this reading is the inconsistent one (expected VIOLATED), and
``kron_block_order`` that the block reading is the consistent one (expected HOLDS).

Negative control ``as_proved_control`` (role control, mode bound, promised 0.05; expected VIOLATED): the check of
``as_proved`` with a planted fault, ``eps`` replaced by ``EPS_CONTROL = 1e-3`` in the bound
(``-2e-3/0.999 + 1.001 gamma_u/(0.999 sqrt(2L))``), claimed to fail with probability <= 0.05. Derivation: the
statistic is the minimum over pairs of ``cos(Ru, Rz)``; for the pair ``z*`` with the smallest ``c* = cos(u, z*)``
(``= gamma_u/sqrt(2L)`` when ``gamma_u < 1``) the projected cosine has the exact Pearson-r law with ``rho = c*``
and ``N = n + 1`` (R is Gaussian on ``R^{Ld}``), so the failure probability is
``>= P(cos(Ru, Rz*) < bound) >= 0.464`` in every cell of every profile (0.478 at the ci cell (0.8, 0.15, 1100)),
and ``rpcheck.stats.violated_power("bound", 600, 0.464, 0.05, 0.01/500) = 1`` to 1e-15.
"""

from __future__ import annotations

import functools

import numpy as np

from ..._threads import single_threaded
from ...engine import Finding, Outcome, Theorem, TrialRecord, Variant, register
from ...generators import multiclass_dataset, multiclass_margins
from ...sketches import make_sketch
from . import _common as c
from . import bounds as B

__all__ = ["THM9"]

#: eps of the negative control's bound (a planted fault: the bound nearly equals min_pairs cos(u, z))
EPS_CONTROL = 1e-3


@functools.lru_cache(maxsize=64)
def _data(m, d, L, gamma):
    D = multiclass_dataset(m, d, L, margin=gamma, rng=c.instance_rng("thm9", m, d, L, gamma))
    W = D.witnesses / np.linalg.norm(D.witnesses, axis=1)[:, None]
    gu = min(1.0, float(multiclass_margins(D.X, D.y, W).min()))
    E = np.eye(L)
    Z, Zw, pairs = [], [], []
    for i, (x, yi) in enumerate(zip(D.X, D.y)):
        for yp in range(L):
            if yp != yi:
                Z.append(np.kron(E[yi], x) - np.kron(E[yp], x))
                Zw.append(np.kron(x, E[yi]) - np.kron(x, E[yp]))   # NumPy's kron(x, e_y): x-major layout
                pairs.append((i, int(yi), yp))
    return D.X, D.y, W, gu, np.array(Z), np.array(Zw), np.array(pairs)


@single_threaded(user_api="blas")
def _trial(params, rng):
    m, d, L, gamma, n, eps = (params[k] for k in ("m", "d", "L", "gamma", "n", "eps"))
    X, y, W, gu, Z, Zw, pairs = _data(m, d, L, gamma)
    u = W.reshape(-1)                                   # [w_1; ...; w_L]
    M = make_sketch("gaussian", L * d, n, rng=rng).matrix()     # (Ld, n): block y = R_y^T
    v = u @ M
    RyX = np.stack([X @ M[k * d:(k + 1) * d] for k in range(L)])    # (L, m, n): R_y x_i
    i, yi, yp = pairs[:, 0], pairs[:, 1], pairs[:, 2]
    a, b = RyX[yi, i], RyX[yp, i]
    nv = np.linalg.norm(v)
    num = (a - b) @ v
    printed = num / (nv * np.sqrt(np.einsum("ij,ij->i", a, a) + np.einsum("ij,ij->i", b, b)))
    proved = num / (nv * np.linalg.norm(a - b, axis=1))
    bound = B.thm9_margin_bound(gu, eps, L)
    bound_c = B.thm9_margin_bound(gu, EPS_CONTROL, L)
    # Lemma-10 events of the proof: u, every z, every zhat - uhat
    Zh = Z / np.linalg.norm(Z, axis=1)[:, None]
    V = np.vstack([u, Z, Zh - u / np.linalg.norm(u)])
    q = c.sq_ratio(V @ M, V)
    events = bool(np.all(np.abs(q - 1) <= eps))
    # Kronecker identities: R z must equal R_y x - R_{y'} x and <u, z> = <w_y,x> - <w_{y'},x>
    RZ = Z @ M
    scale = max(1.0, float(np.abs(RZ).max()))
    err_block = float(np.abs(RZ - (a - b)).max()) / scale
    err_printed = float(np.abs(Zw @ M - (a - b)).max()) / scale
    true_gap = np.einsum("ij,ij->i", W[yi], X[i]) - np.einsum("ij,ij->i", W[yp], X[i])
    gap_err_printed = float(np.abs(Zw @ u - true_gap).max() / max(1.0, np.abs(true_gap).max()))
    tol_id = 1e-12 * L * d
    gp, gv = float(printed.min()), float(proved.min())
    out = {
        "as_printed": Outcome(holds=gp >= bound, statistic=gp, bound=bound, vacuous=bound <= 0),
        "as_proved": Outcome(holds=gv >= bound, statistic=gv, bound=bound, vacuous=bound <= 0),
        "proof_structure": Outcome(holds=gv >= bound - c.TOL, statistic=gv, bound=bound - c.TOL, vacuous=not events),
        "as_proved_control": Outcome(holds=gv >= bound_c, statistic=gv, bound=bound_c),
        "kron_block_order": Outcome(holds=err_block <= tol_id, statistic=err_block, bound=tol_id),
        "kron_x_major_layout": Outcome(holds=max(err_printed, gap_err_printed) <= tol_id,
                                         statistic=max(err_printed, gap_err_printed), bound=tol_id),
    }
    ratio = np.sqrt(np.einsum("ij,ij->i", a, a) + np.einsum("ij,ij->i", b, b)) / np.linalg.norm(a - b, axis=1)
    diag = {"min_printed": gp, "min_proved": gv, "denominator_ratio_min": float(ratio.min()),
            "denominator_ratio_max": float(ratio.max()), "events": float(events), "gamma_u": gu}
    return TrialRecord(outcomes=out, diagnostics=diag)


def _promised(p):
    return B.union_failure_bound("thm9", p["n"], p["eps"], m=p["m"], L=p["L"])


def _exp(p):
    gu = _data(p["m"], p["d"], p["L"], p["gamma"])[3]
    return c.expect_bound(_promised(p), applies=B.thm9_margin_bound(gu, p["eps"], p["L"]) > 0)


def _cell(gamma, eps, n, m=10, d=20, L=3):
    return {"gamma": gamma, "eps": eps, "n": n, "m": m, "d": d, "L": L}


_CI = (
    _cell(0.8, 0.15, 1100),  # bound 0.089 > 0, 6m(L-1)E = 0.45
    _cell(0.8, 0.15, 300),   # 6m(L-1)E > 1: vacuous
    _cell(0.5, 0.2, 1100),   # bound < 0 (eps >= g/(2-g) = 0.114): vacuous
)
_STANDARD = _CI + (_cell(1.0, 0.2, 800, L=2), _cell(0.8, 0.1, 3000, L=5, d=10))

THM9 = register(Theorem(
    id="shi2012.thm9",
    paper="shi2012",
    title="Theorem 9 (one-parameter): printed vs proved denominator; Kronecker order; w.p. >= 1 - 6m(L-1)E",
    citation=c.citation("Theorem 9 and its proof", "(6)"),
    statement=(
        "If S is separable by margin gamma in (0,1], then for delta, eps in (0,1] and n > 12/(3eps^2-2eps^3) "
        "ln(6m(L-1)/delta) there exists v in R^n such that Pr(for all (x,y), y' != y: (<v,R_y x> - <v,R_y' "
        "x>)/"
        "(||v|| sqrt(||R_y x||^2 + ||R_y' x||^2)) >= -2eps/(1-eps) + (1+eps) gamma/(sqrt(2L)(1-eps))) >= "
        "1-delta."
    ),
    kind="probabilistic",
    variants=(
        Variant("as_printed", "P(min over pairs of the printed statistic (sqrt-sum denominator) < bound) <= "
                "6m(L-1)E", mode="bound", expected=_exp, promised_failure=_promised),
        Variant("as_proved", "P(min over pairs of cos(Ru, Rz) (denominator ||R_y x - R_y' x||) < bound) <= "
                "6m(L-1)E", mode="bound", expected=_exp, promised_failure=_promised),
        Variant("proof_structure", "Lemma-10 events for u, z, zhat-uhat => cos(Ru, Rz) >= bound, every draw",
                mode="deterministic", expected=c.H),
        Variant("as_proved_control", "negative control: the as_proved check with eps = 1e-3 planted in the bound, "
                "P(min over pairs of cos(Ru, Rz) < bound(1e-3)) <= 0.05 (exactly >= 0.464)", mode="bound",
                expected=c.V, promised_failure=0.05, role="control"),
        Variant("kron_block_order", "z = e_y ⊗ x - e_y' ⊗ x: R z = R_y x - R_y' x (identity, every draw)",
                mode="deterministic", expected=c.H, role="self-check"),
        Variant("kron_x_major_layout", "z = kron(x, e_y) - kron(x, e_y') (NumPy's ordering, x-major): R z = "
                "R_y x - R_y' x and <u,z> = <w_y,x> - <w_y',x>", mode="deterministic", expected=c.V,
                role="self-check",
                note="The alternative reading of the proof's x ⊗ e_y, checked to be the inconsistent one: x-major "
                "interleaving does not match u = [w_1; ...; w_L] (a single wrong identity certifies VIOLATED). The "
                "paper's tensor product read as vec(x e_y^T) is kron_block_order's layout."),
    ),
    profiles=c.multiclass_profiles(_CI, _STANDARD),
    parameters=c.multiclass_parameters(c.FLOAT(0.0, 1.0, closed="neither", doc="eps in (0, 1) (the printed "
                                                                                "(0, 1] divides by 1 - eps = 0 at "
                                                                                "eps = 1)")),
    constraints=(c.L_LE_D,),
    trial=_trial,
    tolerance=c.TOL,
    tolerance_note="float64 cosines; Kronecker identities to 1e-12 L d relative",
    findings=(
        Finding(
            "I7-denominator",
            "The printed denominator sqrt(||R_y x||^2 + ||R_y' x||^2) is not the proved ||R_y x - R_y' x|| (ratio "
            "ranges recorded in diag.denominator_ratio_*); the printed form is not what the proof bounds, although "
            "it is not observed to fail at the promised rate.",
            evidence_variant="as_printed",
            location="Theorem 9, eq. (6), and its proof",
            quote="(<v, R_y x> - <v, R_y' x>)/(||v|| sqrt(||R_y x||^2 + ||R_y' x||^2))",
            kind="proof gap",
        ),
        Finding(
            "I7-kronecker",
            "The proof writes z = x ⊗ e_y - x ⊗ e_y' with '⊗ the tensor product' and u = [w_1; ...; w_L]. Read as "
            "vec(x e_y^T) (the d x L tensor x e_y^T stacked column by column), x ⊗ e_y has block y equal to x: "
            "exactly u's block layout (np.kron(e_y, x)), and the proof's identities hold (self-check "
            "kron_block_order). Only NumPy's kron(x, e_y) ordering (x-major interleaving) breaks them (self-check "
            "kron_x_major_layout, expected VIOLATED): a note on how to read the symbol, not an error.",
            evidence_variant="kron_block_order",
            location="Proof of Theorem 9 (the definition of z_{x,y'})",
            quote="x ⊗ e_y ... and ⊗ is the tensor product",
            kind="notation",
        ),
        Finding(
            "I7-quantifier",
            "'There exists v such that Pr(...) >= 1-delta' has the quantifiers in the wrong order: the checker uses "
            "v = Ru, which depends on R.",
            evidence_variant="proof_structure",
            location="Theorem 9, eq. (6), and the end of its proof",
            quote="there exists a parameter vector v in R^n, such that Pr(...) >= 1 - delta",
            kind="proof gap",
        ),
    ),
))

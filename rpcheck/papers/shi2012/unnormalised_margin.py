r"""Shi et al. (2012), the remark after Theorem 8: the unnormalised multiclass margin against the normalised one.

Statement as printed (Sec. 3, the paragraph after the proof of Theorem 8)
    "Note the above result can be easily extended to the widely accepted definition of the multiclass
    unnormalised margin from Crammer & Singer (2001) by bounding the distortion on ||R u_y|| ||R x|| and
    ||R u_y'|| ||R x||. However, larger multiclass unnormalised margin does not mean smaller angle (i.e. larger
    normalised margin), thus may not provide tighter preservation."

What is checked: the second sentence, the decoupling of the two margins (the first sentence states no bound: the
extension is not written out). Unnormalised margin (Crammer & Singer) of data ``X``, labels ``y`` and witnesses
``U``: ``min_i (<u_{y_i}, x_i> - max_{y' != y_i} <u_{y'}, x_i>)`` (:func:`unnormalised_margin`); normalised
margin: Definition 7 / eq. (5) (:func:`rpcheck.generators.multiclass_margins`).

Protocol of one trial: two data sets of :func:`exact_margin_data` (``m`` unit points, ``L`` classes, Haar
orthonormal witnesses, normalised margin exactly ``gamma`` at every point), ``B`` with ``gamma_B`` and ``A`` with
``gamma_A < gamma_B``, ``A``'s points scaled by ``s = 2 gamma_B/gamma_A``.

Variants (deterministic; the derivations are exact identities)
    ``decoupled`` (HOLDS): ``A`` has the larger unnormalised margin and the smaller normalised margin. With unit
    witnesses, ``<u_y, x> - <u_y', x> = ||x|| (cos(u_y, x) - cos(u_y', x))``, so the unnormalised margin of
    points of equal norm ``s`` is ``s`` times the normalised one: ``2 gamma_B`` for ``A`` against ``gamma_B`` for
    ``B``, while the normalised margins are ``gamma_A < gamma_B`` (exact by construction, to rounding).
    ``witness_scaling`` (HOLDS): on ``B``, witnesses scaled by 2 double the unnormalised margin and leave the
    normalised one unchanged (cosines are scale-free), to 1e-12 relative.
    Negative controls (role control, VIOLATED): ``control_monotone``, "larger unnormalised margin implies larger
    normalised margin" on the pair ``(A, B)`` (false in every draw by the derivation above);
    ``control_scale_free``, "scaling the witnesses leaves the unnormalised margin unchanged" (it doubles).

Trials: :func:`rpcheck.stats.deterministic_trials` (no vacuous draw) = 90.
"""

from __future__ import annotations

import numpy as np

from ...engine import Finding, Outcome, Profile, Theorem, TrialRecord, Variant, register
from ...generators import haar_orthonormal, multiclass_margins
from ...stats import deterministic_trials
from . import _common as c

__all__ = ["THEOREM", "unnormalised_margin", "exact_margin_data"]

#: relative allowance of the identities (float64 cosines and inner products)
TOL = 1e-12


def unnormalised_margin(X, y, U):
    """Crammer & Singer's multiclass margin ``min_i (<u_{y_i}, x_i> - max_{y' != y_i} <u_{y'}, x_i>)``."""
    S = np.asarray(X, dtype=float) @ np.asarray(U, dtype=float).T
    idx = np.arange(S.shape[0])
    own = S[idx, y].copy()
    S[idx, y] = -np.inf
    return float(np.min(own - S.max(axis=1)))


def exact_margin_data(m, L, d, gamma, rng):
    """Unit points with normalised margin exactly ``gamma`` at every point: Haar orthonormal witnesses ``u_0..u_{L-1}``
    (rows of ``U``), labels with every class present, ``x_i = a u_{y_i} + b u_{y_i + 1 mod L}`` with ``a = cos(phi)``,
    ``b = sin(phi)``, ``phi = acos(gamma/sqrt(2)) - pi/4`` (so ``a - b = gamma``, ``a^2 + b^2 = 1``, ``a > b >= 0``):
    ``cos(u_y, x) = a`` and ``max_{y' != y} cos(u_y', x) = b``."""
    U = haar_orthonormal(d, L, rng=rng).T
    y = np.concatenate([np.arange(L), rng.integers(0, L, size=m - L)])[rng.permutation(m)]
    phi = np.arccos(gamma / np.sqrt(2.0)) - np.pi / 4
    X = np.cos(phi) * U[y] + np.sin(phi) * U[(y + 1) % L]
    return X, y, U


def _close(a, b):
    return abs(a - b) <= TOL * max(1.0, abs(a), abs(b))


def trial(params, rng):
    m, d, L, ga, gb = (params[k] for k in ("m", "d", "L", "gamma_a", "gamma_b"))
    Xb, yb, Ub = exact_margin_data(m, L, d, gb, rng)
    Xa, ya, Ua = exact_margin_data(m, L, d, ga, rng)
    s = 2 * gb / ga
    Xa = s * Xa
    ua, ub = unnormalised_margin(Xa, ya, Ua), unnormalised_margin(Xb, yb, Ub)
    na, nb = float(multiclass_margins(Xa, ya, Ua).min()), float(multiclass_margins(Xb, yb, Ub).min())
    ub2, nb2 = unnormalised_margin(Xb, yb, 2 * Ub), float(multiclass_margins(Xb, yb, 2 * Ub).min())
    out = {
        "decoupled": Outcome(ua > ub and na < nb, min(ua - ub, nb - na), 0.0),
        "witness_scaling": Outcome(_close(ub2, 2 * ub) and _close(nb2, nb), abs(nb2 - nb), TOL),
        "control_monotone": Outcome(not (ua > ub) or na > nb, na - nb, 0.0),
        "control_scale_free": Outcome(_close(ub2, ub), ub2 - ub, 0.0),
    }
    diag = {"unnormalised_A": ua, "unnormalised_B": ub, "normalised_A": na, "normalised_B": nb}
    return TrialRecord(outcomes=out, diagnostics=diag)


def _cell(gamma_a=0.2, gamma_b=0.6, m=20, d=10, L=3):
    return {"gamma_a": gamma_a, "gamma_b": gamma_b, "m": m, "d": d, "L": L}


_TRIALS = deterministic_trials(0.0)
_CELLS = (_cell(), _cell(gamma_a=0.05, gamma_b=0.1, L=5))

THEOREM = register(Theorem(
    id="shi2012.unnormalised_margin",
    paper="shi2012",
    title="Remark after Theorem 8: a larger unnormalised multiclass margin does not mean a larger normalised one",
    citation=c.citation("Sec. 3, the paragraph after the proof of Theorem 8", "Definition 7, (5)"),
    statement="However, larger multiclass unnormalised margin does not mean smaller angle (i.e. larger normalised "
    "margin), thus may not provide tighter preservation.",
    kind="deterministic",
    variants=(
        Variant("decoupled", "data A: larger unnormalised margin and smaller normalised margin than data B",
                mode="deterministic", expected=c.H),
        Variant("witness_scaling", "witnesses x2: unnormalised margin x2, normalised margin unchanged",
                mode="deterministic", expected=c.H),
        Variant("control_monotone", "negative control: larger unnormalised margin => larger normalised margin, on "
                "(A, B)", mode="deterministic", expected=c.V, role="control"),
        Variant("control_scale_free", "negative control: witnesses x2 leave the unnormalised margin unchanged",
                mode="deterministic", expected=c.V, role="control"),
    ),
    profiles={name: Profile(cells=_CELLS, trials=_TRIALS) for name in ("quick", "ci", "standard", "full")},
    parameters={"gamma_a": c.FLOAT(0.0, 1.0, closed="right", doc="planted normalised margin of A"),
                "gamma_b": c.FLOAT(0.0, 1.0, closed="right", doc="planted normalised margin of B"),
                "m": c.INT(2, doc="points"), "d": c.INT(2, doc="dimension"), "L": c.INT(2, doc="classes")},
    constraints=(c.Constraint("gamma_a < gamma_b", lambda p: p["gamma_a"] < p["gamma_b"]),
                 c.Constraint("L <= d (orthonormal witnesses)", lambda p: p["L"] <= p["d"]),
                 c.Constraint("m >= L (every class present)", lambda p: p["m"] >= p["L"])),
    trial=trial,
    tolerance=TOL,
    tolerance_note="float64 identities to 1e-12 relative",
    findings=(
        Finding(
            "thm8-unnormalised-extension-unstated",
            "The extension of Theorem 8 to the unnormalised margin is announced ('can be easily extended ... by "
            "bounding the distortion on ||R u_y|| ||R x||') but not written out, so it has no bound to check; the "
            "decoupling the next sentence states holds (variant decoupled: the unnormalised margin scales with "
            "||x|| and ||u||, the normalised one does not).",
            evidence_variant="decoupled",
            location="Sec. 3, the paragraph after the proof of Theorem 8",
            quote="the above result can be easily extended to the widely accepted definition of the multiclass "
            "unnormalised margin",
            kind="observation",
        ),
    ),
))

r"""Reproductions of Sec. 4 of Paul et al. (2014): the synthetic recipe (Table I) and bundled real data.

Synthetic recipe (arXiv v5 Sec. 4.1.1, Table I, Fig. 1 = TKDD Sec. 4.1.1, "Table 4.1")
    w in R^d with i.i.d. N(mu, sigma) entries (D1: N(0,1), D2: N(1,1.5), D3: N(2,2); the pairing of
    distributions to families is ambiguous and statistically irrelevant), w^ = w/||w||, X_ij ~ N(0,1),
    y_i = sign(w^T x_i). D1: 200 x 5,000, D2: 250 x 10,000, D3: 300 x 20,000. Linear SVM with C = 1000;
    r in {256, 512, 1024}; RG, RS, FHT, CW. Paper (Table I, D1): eps_out 15.10% on the full data,
    24.08-24.34% at r = 256, ...; gamma 7.74 full, 5.67-5.76 at r = 256.

Per trial (one data set of the family): k-fold cross-validation (ci: 3 folds, one repetition; full: 10
folds, paper sizes), one projection per (kind, r) applied to all points (data-oblivious, so the same as
projecting each fold), the certified soft-margin dual with C = 1000 on each training fold, bias from the
solver; out-of-sample error pooled over the folds; margins gamma = 1/||w|| averaged over the folds; the
distortion e of each projection on the row space of the whole data set. Every quantity is a scalar
diagnostic; the cell's ``decide`` builds Table I (ours beside the paper's) and gives the verdicts:

- ``error_vs_paper`` (report): HOLDS if the paper's full-data eps_out lies in the exact 99% Clopper-
  Pearson interval of our pooled full-data test errors, VIOLATED otherwise. Expected VIOLATED: the
  derivation at the variant predicts about 45-50% for the literal recipe (no learner can reach 15% with ~180 labels in
  d = 5000). We report what we measure.
- ``margin_vs_paper`` (report): HOLDS if the paper's full-data gamma lies within our mean +- 3 standard
  errors (over data sets and folds), else VIOLATED. Reported (development runs: about 5.2 vs 7.74 for D1).
- ``margin_trend`` (report): the paper's claim that gamma~ grows with r (for every kind). Expected HOLDS.
- ``error_trend`` (report): the paper's claim that eps_out decreases with r. Reported (None): with errors
  near 50% the trend is within noise.

Bundled real data (no downloads): scikit-learn's breast_cancer and digits (8 vs rest) for classification
(features z-scored, C = 1), diabetes for regression (features standardised by scikit-learn, target
z-scored, eps_svr = 0.1, C = 1). Per trial: one random 2-fold split; for each (kind, r): measured e, margin
ratio gamma~^2/gamma^2, MEB ratio B~^2/B^2, the Thm 1.1 ratio (B~^2/gamma~^2)/(B^2/gamma^2), out-of-sample
error (classification) or MSE (regression). Variants:

- ``ball_given_e`` (deterministic, HOLDS): (1 - e) B^2 <= B~^2 <= (1 + e) B^2 on real data (Thm 3.6 and
  its derived lower bound; vacuous sides dropped when e >= 1), certified MEB intervals.
- ``r_below_rho`` (deterministic, HOLDS): every r < rho has e >= 1 (C3) on the real data.
- ``margin_given_e`` (deterministic, open -> None): gamma~^2 >= (1 - e) gamma^2 on the real (soft-margin)
  problems: reported.
- ``table`` (report): the measured table; ``decide`` returns INCONCLUSIVE (a measurement, no claim).

A user-supplied file is run with a cell ``{"dataset": "file:<path>", "kind": ..., "rs": "16,64,256",
"max_n": 0}`` (e.g. ``rpcheck.engine.run(..., overrides=...)`` or a custom Profile); nothing is downloaded.
"""

from __future__ import annotations

import math

import numpy as np

from ...engine import Constraint, Finding, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, register
from ...errors import SolverError
from ...linalg import row_space_basis
from ...sketches import make_sketch
from ...stats import BinomialCount
from ._common import FP_REL, P, cite, distortion, svc_bounds, svr_bounds

__all__ = ["SYNTHETIC", "BUNDLED", "PAPER_TABLE_I", "synthetic_trial", "bundled_trial"]

#: Paper's four methods -> rpcheck kinds. CW's (q, v, a) are never given; CountSketch (q = a = 1) is used.
METHODS = {"CW": "countsketch", "RS": "sign", "FHT": "srht", "RG": "gaussian"}

#: Table I of the paper (Sec. 4.1.1): eps_out (%) and gamma means, r = 256 | 512 | 1024 | full.
PAPER_TABLE_I = {
    "D1": {
        "shape": (200, 5000), "w": (0.0, 1.0),
        "eps_out": {"CW": (24.08, 19.45, 16.66), "RS": (24.10, 19.46, 16.36), "FHT": (23.52, 19.59, 16.67),
                    "RG": (24.34, 19.73, 16.69), "full": 15.10, "full_sigma": 2.60},
        "gamma": {"CW": (5.72, 6.67, 7.16), "RS": (5.73, 6.66, 7.18), "FHT": (5.76, 6.64, 7.15),
                  "RG": (5.67, 6.60, 7.13), "full": 7.74, "full_sigma": 0.59},
    },
    "D2": {
        "shape": (250, 10000), "w": (1.0, 1.5),
        "eps_out": {"CW": (25.94, 21.07, 17.33), "RS": (25.80, 20.80, 17.47), "FHT": (25.33, 21.23, 17.58),
                    "RG": (25.43, 20.54, 17.25), "full": 15.44, "full_sigma": 2.54},
        "gamma": {"CW": (6.62, 8.09, 8.88), "RS": (6.65, 8.10, 8.88), "FHT": (6.66, 8.06, 8.84),
                  "RG": (6.66, 8.13, 8.90), "full": 9.78, "full_sigma": 0.66},
    },
    "D3": {
        "shape": (300, 20000), "w": (2.0, 2.0),
        "eps_out": {"CW": (27.62, 22.97, 18.93), "RS": (28.15, 23.00, 18.72), "FHT": (27.92, 23.41, 18.73),
                    "RG": (27.71, 22.85, 18.96), "full": 15.83, "full_sigma": 2.00},
        "gamma": {"CW": (7.69, 9.84, 11.07), "RS": (7.61, 9.85, 11.05), "FHT": (7.63, 9.83, 11.11),
                  "RG": (7.69, 9.85, 11.04), "full": 12.46, "full_sigma": 0.69},
    },
}  # fmt: skip
PAPER_RS = (256, 512, 1024)
C_SYNTH = 1000.0


def _kw(kind):
    return {"replace": True} if kind == "srht" else {}


def _rs(params):
    return [int(v) for v in str(params["rs"]).split(",")]


def _methods(params):
    return str(params["methods"]).split(",")


def _folds(n, k, rng):
    perm = rng.permutation(n)
    return np.array_split(perm, k)


def _fit_predict(Xtr, ytr, Xte, C):
    from ...svm import solve_svc

    res = solve_svc(Xtr, ytr, C)
    pred = np.sign(Xte @ res.w + res.b)
    pred[pred == 0] = 1
    return res, pred


def synthetic_trial(params, rng):
    """One data set of the family: CV errors and margins, full and projected (see module docstring)."""
    fam = params["family"]
    n, d = params["n"], params["d"]
    mu, sigma = PAPER_TABLE_I[fam]["w"]
    w = rng.normal(mu, sigma, size=d)
    w /= np.linalg.norm(w)
    X = rng.standard_normal((n, d))
    y = np.sign(X @ w)
    y[y == 0] = 1
    folds = _folds(n, params["folds"], rng)
    V = row_space_basis(X)
    proj = {}
    diags = {"rho": float(V.shape[1])}
    for meth in _methods(params):
        for r in _rs(params):
            sk = make_sketch(METHODS[meth], d, r, rng=rng, **_kw(METHODS[meth]))
            proj[(meth, r)] = np.asarray(sk.apply(X))
            diags[f"e.{meth}.{r}"] = distortion(V, sk)
    errs = {"full": 0}
    gam = {"full": []}
    for key in proj:
        errs[key], gam[key] = 0, []
    n_err = 0
    for f in range(len(folds)):
        te = folds[f]
        tr = np.concatenate([folds[g] for g in range(len(folds)) if g != f])
        for key, Xk in [("full", X)] + list(proj.items()):
            try:
                res, pred = _fit_predict(Xk[tr], y[tr], Xk[te], C_SYNTH)
            except SolverError:
                # counted and reported (diag solver_errors); the fold's test points count as errors of
                # unknown outcome: they are excluded from that method's error rate (n_eval.<key>).
                n_err += 1
                errs[key] = errs[key] if isinstance(errs[key], int) else errs[key]
                gam[key].append(math.nan)
                diags[f"skipped.{key if key == 'full' else '.'.join(map(str, key))}"] = diags.get(
                    f"skipped.{key if key == 'full' else '.'.join(map(str, key))}", 0.0
                ) + len(te)
                continue
            errs[key] += int(np.sum(pred != y[te]))
            gam[key].append(res.margin)
    diags["solver_errors"] = float(n_err)
    ne_full = n - diags.get("skipped.full", 0.0)
    diags["err.full"] = errs["full"] / ne_full if ne_full else math.nan
    diags["errcount.full"] = float(errs["full"])
    diags["n_eval.full"] = float(ne_full)
    diags["gamma.full"] = float(np.nanmean(gam["full"]))
    for meth, r in proj:
        ne = n - diags.get(f"skipped.{meth}.{r}", 0.0)
        diags[f"err.{meth}.{r}"] = errs[(meth, r)] / ne if ne else math.nan
        diags[f"gamma.{meth}.{r}"] = float(np.nanmean(gam[(meth, r)])) if ne else math.nan
    dummy = {
        "error_vs_paper": Outcome(True, diags["err.full"] * 100, PAPER_TABLE_I[fam]["eps_out"]["full"]),
        "margin_vs_paper": Outcome(True, diags["gamma.full"], PAPER_TABLE_I[fam]["gamma"]["full"]),
        "margin_trend": Outcome(True),
        "error_trend": Outcome(True),
    }
    return TrialRecord(outcomes=dummy, diagnostics=diags)


def synthetic_decide(records, params):
    """Table I, ours beside the paper's, and the report verdicts."""
    fam = params["family"]
    paper = PAPER_TABLE_I[fam]
    D = {k: np.array([rec.diagnostics[k] for rec in records]) for k in records[0].diagnostics}
    # pooled CP interval of the full-data error (all test predictions of all data sets)
    k = int(D["errcount.full"].sum())
    m = int(D["n_eval.full"].sum())
    ci = BinomialCount(k, m).proportion_ci(confidence_level=0.99)
    lo, hi = ci.low, ci.high
    p_err = paper["eps_out"]["full"] / 100
    g = D["gamma.full"]
    se = g.std(ddof=1) / math.sqrt(len(g)) if len(g) > 1 else math.inf
    table = {"family": fam, "n": params["n"], "d": params["d"], "folds": params["folds"], "datasets": len(records),
             "full": {"eps_out_%": 100 * k / m, "eps_out_ci99_%": [100 * lo, 100 * hi],
                      "paper_eps_out_%": paper["eps_out"]["full"], "gamma": float(g.mean()),
                      "gamma_se": float(se), "paper_gamma": paper["gamma"]["full"]}}  # fmt: skip
    margin_mono, err_mono = True, True
    for meth in _methods(params):
        row = {}
        gs, es = [], []
        for r in _rs(params):
            gm = float(D[f"gamma.{meth}.{r}"].mean())
            em = float(100 * D[f"err.{meth}.{r}"].mean())
            gs.append(gm)
            es.append(em)
            pi = PAPER_RS.index(r) if r in PAPER_RS else None
            row[str(r)] = {
                "eps_out_%": em, "gamma": gm, "e_median": float(np.median(D[f"e.{meth}.{r}"])),
                "paper_eps_out_%": paper["eps_out"][meth][pi] if pi is not None else None,
                "paper_gamma": paper["gamma"][meth][pi] if pi is not None else None,
            }  # fmt: skip
        margin_mono &= bool(np.all(np.diff(gs) > 0))
        err_mono &= bool(np.all(np.diff(es) <= 0))
        table[meth] = row
    few = len(g) < 2  # one data set: no standard error, no margin verdict
    # two-sided 99% t interval over data sets (each data set's fold-averaged gamma is one observation)
    from scipy.stats import t as _t

    tq = float(_t.ppf(0.995, len(g) - 1)) if not few else math.inf
    table["claim"] = (
        "error_vs_paper: VIOLATED when the paper's eps_out lies outside the exact two-sided 99% Clopper-Pearson "
        "interval of our pooled test errors (P(false VIOLATED) <= 0.01 if the pooled predictions are i.i.d. at "
        "the paper's rate); margin_vs_paper: VIOLATED when the paper's gamma lies outside the two-sided 99% t "
        f"interval mean +- {tq:.3g} SE over {len(g)} data sets (P(false VIOLATED) <= 0.01 for normal "
        "per-data-set means)"
    )
    verdicts = {
        "error_vs_paper": Verdict.INCONCLUSIVE if lo <= p_err <= hi else Verdict.VIOLATED,
        "margin_vs_paper": Verdict.INCONCLUSIVE
        if few
        else (Verdict.INCONCLUSIVE if abs(g.mean() - paper["gamma"]["full"]) <= tq * se else Verdict.VIOLATED),
        "margin_trend": Verdict.HOLDS if margin_mono else Verdict.VIOLATED,
        "error_trend": Verdict.HOLDS if err_mono else Verdict.VIOLATED,
    }
    return verdicts, table


def _syn_cells(families, scale, folds, rs, methods):
    cells = []
    for fam in families:
        n, d = PAPER_TABLE_I[fam]["shape"]
        cells.append({"family": fam, "n": n, "d": int(d * scale), "folds": folds,
                      "rs": ",".join(map(str, rs)), "methods": ",".join(methods)})  # fmt: skip
    return tuple(cells)


_ALL = list(METHODS)
SYNTHETIC = register(
    Theorem(
        id="paul2014.repro.synthetic",
        paper="paul2014",
        title="Sec. 4.1.1 / Table I: the synthetic recipe D1-D3 (eps_out, gamma vs r), ours beside the paper's",
        citation=cite("Theorem 1.1", "Sec. 4.1.1, Table I, Fig. 1"),
        statement="Table I: eps_out 15.10/15.44/15.83% (full data, D1-D3), rising to 24-28% at r = 256; gamma "
        "7.74/9.78/12.46 (full); eps_out decreases and gamma increases with r for all four methods.",
        kind="empirical",
        variants=(
            Variant(
                "error_vs_paper",
                "paper's full-data eps_out within our 99% CP interval",
                mode="report",
                expected=Verdict.VIOLATED,
                note="Derivation of VIOLATED: for this model a unit vector v has test error angle(v, w)/pi; "
                "with ~133 training labels in d = 5000 any estimator has overlap |v.w| well below 0.3 (the "
                "Hebbian sum_i y_i x_i reaches ~0.15), so the error is >= arccos(0.3)/pi = 0.40. At ci the "
                "pooled count is 400 predictions (2 data sets x 200); at a true rate 0.40 the 99% CP interval's "
                "lower end is ~0.34, and ~0.28 even if fold correlation cut the effective count to 100: both "
                "far above the paper's 0.151.",
            ),
            Variant(
                "margin_vs_paper",
                "paper's full-data gamma within our two-sided 99% t interval over data sets",
                mode="report",
                expected=None,
                note="Expected gamma ~5.2 (D1) vs the paper's 7.74; with 2-3 data sets the t quantile (63.7 at "
                "2, 9.92 at 3) leaves the power underived, so the row is reported. Not rejecting is "
                "INCONCLUSIVE (absence of evidence), never HOLDS.",
            ),
            Variant(
                "margin_trend",
                "gamma~ increases with r for every method",
                mode="report",
                expected=None,
                role="measurement",
                note="Means over a few data sets; no test with a stated error rate: measured.",
            ),
            Variant(
                "error_trend",
                "eps_out decreases with r for every method",
                mode="report",
                expected=None,
                role="measurement",
                note="Errors near 50%: measured, no verdict rule.",
            ),
        ),
        profiles={
            "quick": Profile(_syn_cells(["D1"], 1.0, 2, [256, 1024], ["RG", "FHT"]), trials=2),
            "ci": Profile(_syn_cells(["D1"], 1.0, 3, PAPER_RS, _ALL), trials=2),
            "standard": Profile(_syn_cells(["D1", "D2", "D3"], 1.0, 5, PAPER_RS, _ALL), trials=3),
            "full": Profile(_syn_cells(["D1", "D2", "D3"], 1.0, 10, PAPER_RS, _ALL), trials=10),
        },
        trial=synthetic_trial,
        decide=synthetic_decide,
        parameters={
            "family": Param("choice", choices=tuple(PAPER_TABLE_I), doc="Table I family"),
            "n": Param("int", low=4, doc="points"),
            "d": Param("int", low=1, doc="features"),
            "folds": Param("int", low=2, doc="cross-validation folds"),
            "rs": Param("str", doc="comma-separated target dimensions"),
            "methods": Param("str", doc="comma-separated methods among CW, RS, FHT, RG"),
        },
        constraints=(
            Constraint("rs: comma-separated ints >= 1", lambda p: all(int(x) >= 1 for x in str(p["rs"]).split(","))),
            Constraint("methods among CW, RS, FHT, RG", lambda p: set(_methods(p)) <= set(METHODS)),
            Constraint("folds <= n", lambda p: p["folds"] <= p["n"]),
        ),
        findings=(
            Finding(
                "synthetic-error",
                "The literal recipe gives eps_out near 50% (development run: ~48%), not "
                "the paper's 15%: with ~180 labels in d = 5000 no learner can reach 15% (information argument at the variant error_vs_paper).",
                evidence_variant="error_vs_paper",
                spec_ref="Sec. 4.1.1, Table I",
            ),
            Finding(
                "synthetic-margin",
                "Full-data margins differ from Table I (development run: 5.2 vs 7.74 for D1).",
                evidence_variant="margin_vs_paper",
                spec_ref="Sec. 4.1.1, Table I",
            ),
            Finding(
                "theory-vs-experiments",
                "At the paper's r (256-1024) with rho = 180-270 training rows, e is "
                "about 1 or more (diagnostics e.<method>.<r>): the theorems say nothing about these runs.",
                evidence_variant="margin_trend",
                spec_ref="Secs. 4.1.1-4.1.2; Lemmas 3.1-3.4",
            ),
        ),  # fmt: skip
        notes="ci: D1 at the paper's size (200 x 5000), 3-fold CV, 2 data sets, one projection per (method, "
        "r); standard/full: D1-D3 at paper sizes with 5/10 folds. CW = CountSketch (q, v, a not given).",
    )
)


# ----------------------------------------------------------------------------------- bundled real data

_BUNDLED_C = 1.0
_SVR_EPS = 0.1


def _load(name, max_n, rng):
    """A bundled data set by name, or a user file given as ``"file:<path>"`` (svmlight/LIBSVM, CSV with
    the target in the last column, or .npz; :func:`rpcheck.datasets.load_file`)."""
    from ...datasets import load_bundled, load_file

    ds = load_file(name[5:]) if name.startswith("file:") else load_bundled(name)
    X = ds.X.toarray() if hasattr(ds.X, "toarray") else np.asarray(ds.X, dtype=float)
    X = np.asarray(X, dtype=float)
    y = np.asarray(ds.y, dtype=float)
    if ds.task == "classification":
        sd = X.std(axis=0)
        X = (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    else:
        y = (y - y.mean()) / y.std()
    if max_n and X.shape[0] > max_n:
        idx = rng.choice(X.shape[0], size=max_n, replace=False)
        X, y = X[idx], y[idx]
    return X, y, ds.task


def _solve(task, G, y):
    from ...svm import solve_svc, solve_svr

    if task == "classification":
        res = solve_svc(G, y, _BUNDLED_C)
        return res, svc_bounds(G, y, _BUNDLED_C, res.alpha, res.b)
    res = solve_svr(G, y, _BUNDLED_C, _SVR_EPS)
    return res, svr_bounds(G, y, _BUNDLED_C, _SVR_EPS, res.alpha, res.b)


def _test_error(task, res, Xte, yte):
    f = Xte @ res.w + res.b
    if task == "classification":
        pred = np.where(f >= 0, 1.0, -1.0)
        return float(np.mean(pred != yte))
    return float(np.mean((f - yte) ** 2))


def bundled_trial(params, rng):
    """One random 2-fold split of a bundled data set; e, margin/MEB/Thm 1.1 ratios and test error vs r."""
    from ...svm import min_enclosing_ball

    X, y, task = _load(params["dataset"], params.get("max_n", 0), rng)
    n, d = X.shape
    perm = rng.permutation(n)
    tr, te = perm[: n // 2], perm[n // 2 :]
    Xtr, ytr = X[tr], y[tr]
    if task == "classification" and np.all(ytr == ytr[0]):  # pragma: no cover - both classes are frequent
        ytr = ytr.copy()
        ytr[0] = -ytr[0]
    V = row_space_basis(Xtr)
    rho = V.shape[1]
    res, b = _solve(task, Xtr, ytr)
    ball = min_enclosing_ball(Xtr)
    diags = {"rho": float(rho), "n_train": float(len(tr)), "err.full": _test_error(task, res, X[te], y[te]),
             "gamma.full": 1 / math.sqrt(b["w_norm_sq"]) if b["w_norm_sq"] > 0 else math.inf}  # fmt: skip
    ball_ok, rank_ok, margin_ok = True, True, True
    ball_und, ctrl_ok, ctrl_vac, rank_ctrl_ok, rank_ctrl_vac = False, True, True, True, True
    ball_vac, rank_vac, margin_vac = True, True, True
    worst_ball, worst_margin = -math.inf, -math.inf
    for r in _rs(params):
        sk = make_sketch(params["kind"], d, r, rng=rng, **_kw(params["kind"]))
        e = distortion(V, sk)
        XRtr = np.asarray(sk.apply(Xtr))
        rt, bt = _solve(task, XRtr, ytr)
        ball_t = min_enclosing_ball(XRtr)
        key = f"{r}"
        diags[f"e.{key}"] = e
        diags[f"err.{key}"] = _test_error(task, rt, np.asarray(sk.apply(X[te])), y[te])
        mr = b["w_norm_sq"] / bt["w_norm_sq"] if bt["w_norm_sq"] > 0 else math.nan
        br = ball_t.radius_sq / ball.radius_sq
        diags[f"margin_ratio.{key}"] = mr
        diags[f"ball_ratio.{key}"] = br
        diags[f"thm11_ratio.{key}"] = br / mr if mr > 0 else math.nan
        # Thm 3.6 + derived lower bound, certified: (1-e) B^2 <= B~^2 <= (1+e) B^2 (three-valued)
        st_up = ball_check(1 + e, ball, ball_t, upper=True)
        st_lo = "holds" if e >= 1 else ball_check(1 - e, ball, ball_t, upper=False)
        ball_ok &= st_up == "holds" and st_lo == "holds"
        ball_und |= "undetermined" in (st_up, st_lo) and "fails" not in (st_up, st_lo)
        # control: the upper check with 1 + e replaced by half the certified measured ratio (provably fails)
        if ball.radius_sq > 0 and ball_t.dual_value > 0:
            ctrl_ok &= ball_check(ball_t.dual_value / (2 * ball.radius_sq), ball, ball_t, upper=True) == "holds"
            ctrl_vac = False
        ball_vac = False
        worst_ball = max(worst_ball, br / (1 + e) - 1)
        if r < rho:
            rank_vac = False
            rank_ok &= bool(e >= 1 - 1e-12)
            # control: the same check on the planted R = V (V^T R = I, e = 0)
            from ...linalg import embedding_distortion

            rank_ctrl_vac = False
            rank_ctrl_ok &= bool(float(embedding_distortion(V, VtR=V.T @ V)) >= 1 - 1e-12)
        if e < 1 and not (b["degenerate"] or bt["degenerate"]):
            margin_vac = False
            margin_ok &= bool(b["wsq"].hi * (1 + FP_REL) >= (1 - e) * bt["wsq"].lo)
            worst_margin = max(worst_margin, (1 - e) / mr - 1)
    out = {
        "ball_given_e": Outcome(ball_ok, worst_ball, 0.0, vacuous=ball_vac, undetermined=ball_und and not ball_ok),
        "ball_control": Outcome(ctrl_ok, math.nan, math.nan, vacuous=ctrl_vac),
        "rank_control": Outcome(rank_ctrl_ok, 1.0, 0.0, vacuous=rank_ctrl_vac),
        "r_below_rho": Outcome(rank_ok, 1.0, 1.0, vacuous=rank_vac),
        "margin_given_e": Outcome(margin_ok, worst_margin, 0.0, vacuous=margin_vac),
        "table": Outcome(True, diags["err.full"], math.nan),
    }
    return TrialRecord(outcomes=out, diagnostics=diags)


def ball_check(k, ball, ball_t, *, upper):
    """``B~^2 <= k B^2`` (``upper``) or ``B~^2 >= k B^2`` on the certified MEB intervals: "holds",
    "fails" or "undetermined" (:func:`._common.certified_ge`)."""
    from ._common import Interval, certified_ge

    B = Interval(max(ball.dual_value, 0.0), ball.radius_sq)
    Bt = Interval(max(ball_t.dual_value, 0.0), ball_t.radius_sq)
    holds, und = certified_ge(B.scale(k), Bt) if upper else certified_ge(Bt, B.scale(k))
    return "holds" if holds else ("undetermined" if und else "fails")


def bundled_decide(records, params):
    """The measured table for one (data set, kind): mean e, ratios and test error per r."""
    D = {k: np.array([rec.diagnostics[k] for rec in records]) for k in records[0].diagnostics}
    table = {"dataset": params["dataset"], "kind": params["kind"], "splits": len(records),
             "rho": float(np.median(D["rho"])), "n_train": float(np.median(D["n_train"])),
             "full": {"test_error": float(D["err.full"].mean()), "gamma": float(D["gamma.full"].mean())}}  # fmt: skip
    for r in _rs(params):
        table[str(r)] = {
            "e_median": float(np.median(D[f"e.{r}"])),
            "margin_ratio": float(np.nanmean(D[f"margin_ratio.{r}"])),
            "ball_ratio": float(np.nanmean(D[f"ball_ratio.{r}"])),
            "thm11_ratio": float(np.nanmean(D[f"thm11_ratio.{r}"])),
            "test_error": float(D[f"err.{r}"].mean()),
        }
    table.update(_bundled_paper_vs(D, params, len(records)))
    return {"table": Verdict.INCONCLUSIVE}, table


#: The paper's trend sentences for its real data (none of its data sets is bundled, so no number can be set
#: beside ours; the comparison is the direction the text states).
PAPER_TRENDS = {
    "classification": {
        "error_drop": "eps_out 'improve[s] as r increases' (Sec. 4.1.2, Table II; Sec. 4.1.1, Table I)",
        "margin_gain": "the margin gamma 'improve[s] as r increases' (Sec. 4.1.2, Table II; Sec. 4.1.1, Table I)",
    },
    "regression": {
        "error_drop": "in-sample mse 'decreases with an increase in the number of random projections' (Sec. 4.3.1, "
                      "Table VI; ours is out-of-sample)",
        "margin_gain": "'The margin increases as the number of random projections increases' (Sec. 4.3.1, Table VI)",
    },
}


def _bundled_paper_vs(D, params, splits):
    """Paper vs rpcheck for the bundled data (report only: the ``table`` row is a measurement). Per split,
    the drop of the test error (or MSE) and the gain of gamma~^2/gamma^2 from the smallest to the largest r of
    the cell; mean and standard error over the splits. Agreement with the paper's direction when the two-sided
    99% normal interval (mean +- 2.576 se) lies above 0, disagreement when it lies below, else undecided;
    undecided also with fewer than ``MIN_SPLITS_AGREEMENT`` splits (the quick and ci profiles' 1-2 splits:
    their standard error is no basis for a normal interval, and two equal differences give se = 0)."""
    rs = _rs(params)
    name = str(params["dataset"])
    if name.startswith("file:"):
        from ...datasets import load_file

        task = load_file(name[5:]).task
    else:
        task = "regression" if name == "diabetes" else "classification"
    where = "a user file" if name.startswith("file:") else "scikit-learn bundled"
    out = {"data": f"{name} ({where}, real data; not one of the paper's data sets)",
           "protocol": f"{splits} random 2-fold splits; {'eps-SVR (eps = 0.1)' if task == 'regression' else 'L1-loss SVM with bias (eq. (3))'}, "
                       f"C = 1, exact dual, certified; {params['kind']} projections, r in {list(rs)}"}
    for q, a, b in (("error_drop", D[f"err.{rs[0]}"], D[f"err.{rs[-1]}"]),
                    ("margin_gain", D[f"margin_ratio.{rs[-1]}"], D[f"margin_ratio.{rs[0]}"])):
        d = np.asarray(a, float) - np.asarray(b, float)
        d = d[np.isfinite(d)]
        mean = float(d.mean()) if d.size else None
        se = float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else None
        agrees = None
        if mean is not None and se is not None and d.size >= MIN_SPLITS_AGREEMENT:
            agrees = True if mean - Z99 * se > 0 else (False if mean + Z99 * se < 0 else None)
        out[f"paper_{q}"] = PAPER_TRENDS[task][q]
        out[q], out[f"{q}_se"], out[f"{q}_agrees"] = mean, se, agrees
    return out


#: two-sided 99% normal quantile
Z99 = 2.5758293035489004
#: fewest splits for an agreement call in the Paper vs rpcheck rows (standard: 5, full: 20)
MIN_SPLITS_AGREEMENT = 5


def _bundled_cells(kinds, max_n):
    rs_by_dataset = {
        "breast_cancer": "8,16,32,64,256",
        "digits": "16,32,64,128,512",
        "diabetes": "5,10,20,40,80",
    }
    return tuple(
        {"dataset": ds, "kind": k, "rs": rs, "max_n": max_n.get(ds, 0)} for ds, rs in rs_by_dataset.items() for k in kinds
    )


BUNDLED = register(
    Theorem(
        id="paul2014.repro.bundled",
        paper="paul2014",
        title="Real data bundled with scikit-learn: measured e, margin/MEB/Thm 1.1 ratios, test error vs r",
        citation=cite("Theorem 1.1", "Secs. 4.1.2-4.3 (real-data experiments), Thms 3.5-3.7"),
        statement="Random projection preserves margin, enclosing ball and the ratio B^2/gamma^2 on real data, "
        "with out-of-sample error close to the full data (Secs. 4-5).",
        kind="empirical",
        variants=(
            Variant(
                "ball_given_e",
                "(1 - e) B^2 <= B~^2 <= (1 + e) B^2 for every r (Thm 3.6 + derived)",
                expected=Verdict.HOLDS,
            ),
            Variant("r_below_rho", "e >= 1 for every r < rho (C3)", expected=Verdict.HOLDS),
            Variant(
                "ball_control",
                "B~^2 <= k_c B^2 with k_c = half the certified measured ratio (negative control of ball_given_e)",
                expected=Verdict.VIOLATED,
                role="control",
                note="Same certified check (ball_check) with a constant the statistic exceeds by a factor 2.",
            ),
            Variant(
                "rank_control",
                "e >= 1 for the planted R = V (e = 0; negative control of r_below_rho)",
                expected=Verdict.VIOLATED,
                role="control",
                note="Vacuous where no r < rho is in the cell's list (none here: every list has r < d = rho).",
            ),
            Variant("margin_given_e", "gamma~^2 >= (1 - e) gamma^2 where e < 1 (soft margin: open)", expected=None),
            Variant(
                "table",
                "measured table (e, ratios, test error vs r)",
                mode="report",
                expected=None,
                role="measurement",
            ),
        ),  # fmt: skip
        profiles={
            "quick": Profile(
                _bundled_cells(["gaussian"], {"digits": 300, "breast_cancer": 300, "diabetes": 300}), trials=1
            ),
            "ci": Profile(_bundled_cells(["gaussian", "srht"], {"digits": 400}), trials=2),
            "standard": Profile(_bundled_cells(["gaussian", "srht", "sign", "countsketch"], {}), trials=5),
            "full": Profile(_bundled_cells(["gaussian", "srht", "sign", "countsketch"], {}), trials=20),
        },  # fmt: skip
        trial=bundled_trial,
        decide=bundled_decide,
        parameters={
            "dataset": Param("str", doc="'breast_cancer', 'digits', 'diabetes' or 'file:<path>'"),
            "kind": P["kind"],
            "rs": Param("str", doc="comma-separated target dimensions"),
            "max_n": Param("int", low=0, doc="subsample size (0: all points)"),
        },
        constraints=(
            Constraint("rs: comma-separated ints >= 1", lambda p: all(int(x) >= 1 for x in str(p["rs"]).split(","))),
            Constraint(
                "dataset is 'breast_cancer', 'digits', 'diabetes' or 'file:<path>'",
                lambda p: p["dataset"] in ("breast_cancer", "digits", "diabetes") or str(p["dataset"]).startswith("file:"),
            ),
        ),
        tolerance=FP_REL,
        tolerance_note="Certified MEB intervals and certified ||w*||^2 intervals (see _common).",
        findings=(
            Finding(
                "real-data-e",
                "On the bundled data (n > d, so rho = d) every r < d has e >= 1: the "
                "theorems only speak for r >> rho, i.e. for projections to MORE dimensions than d.",
                evidence_variant="r_below_rho",
                spec_ref="Secs. 4.1.1-4.1.2; Lemmas 3.1-3.4",
            ),
        ),  # fmt: skip
        notes="Classification features z-scored, C = 1; diabetes target z-scored, eps_svr = 0.1, C = 1. One "
        "random 2-fold split per trial, one projection per r. digits = 8 vs rest (subsampled to 400 at ci).",
    )
)

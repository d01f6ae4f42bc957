r"""Lei & Lan (2020), Sec. 4 checked by arithmetic on the paper's OWN Tables 2 and 3 and the Fig. 3 grid,
``lei2020.table2`` (no data, no solver).

The comparative sentences of Sec. 4 about Table 2's accuracies and times (claims 17-23) are decided once, quoted
verbatim, in ``lei2020.table2_prose``; this theorem holds the rest of the printed arithmetic: Table 3's sizes and
dimensions, Table 2's SRHT times across data sets and the Fig. 3 grid, one evaluation per data set (exact
``fractions.Fraction`` arithmetic, no randomness: ``exhaustive=True``):

- ``split_70_30`` (claim; Sec. 4, Experiments, first paragraph: for mushrooms, real-sim, rcv1-binary and
  news20-binary "randomly select 70% of the original training data as training data and the rest 30% as
  test data"). Event: train / (train + test) of Table 3 reads as the printed "70%", i.e. lies within half a
  percent of 0.70 (the sentence prints whole percents). Table 3: mushrooms 6,000 / 8,124 = 0.7386 (74%),
  real-sim 48,447 / 72,309 = 0.6700, rcv1-binary 13,562 / 20,242 = 0.6700, news20-binary 13,397 / 19,996 =
  0.6700 (67%, i.e. 2/3): all four outside [0.695, 0.705], expected VIOLATED. usps-b and gisette are not
  named by the sentence (standard LIBSVM train/test files): vacuous, expected VACUOUS.
- ``split_rule_self_check`` (self-check, the same event on a planted exact 70/30 split of the same total N:
  train' = round(7 N / 10)): |train'/N - 0.7| <= 1/(2N) <= 1/(2 * 8,124) < 0.005, so expected HOLDS on the four
  named sets (VACUOUS on the other two): the event can hold, so the VIOLATED rows are the table's numbers.
- ``srht_time_vs_rows`` (measurement, the sparse sets): SRHT's Table 2 time relative to rcv1-binary's beside
  the ratio of Table 3's training rows. All three use Sparse Embedding + SRHT with r = 256 and r' = 2r = 512
  (Sec. 'Extension to High-dimensional Sparse Data'), whose printed cost O(nnz(X) + n r' log(r') + n r')
  has its r'-terms in the ratio of n: real-sim 23.3 / 0.5 = 46.6 for 48,447 / 13,562 = 3.57 rows (a factor
  13.0 left to nnz(X) and the SVM's iterations, neither printed); news20-binary 0.7 / 0.5 = 1.4 for 0.99.
  No verdict: the paper does not say what its times include (no rule decides the 46.6), so the rows are
  Paper vs rpcheck text with ``agrees`` None.
- ``fig3_r_grid_integral`` (claim; Sec. 4, 'Stability Comparison Between ISRHT and SRHT', Fig. 3: "reduced
  dimension r is chosen from {d/2^6, d/2^5, ..., d/2}"). Event: every grid value is an integer at Table 3's
  d. Mushrooms (the data set of Fig. 3), d = 112: 112/64 = 1.75 and 112/32 = 3.5, VIOLATED; gisette 5000/64 =
  78.125, real-sim 20958/64, rcv1-binary 47236/64, news20-binary 1355191/2 (odd d): VIOLATED; usps-b d = 256:
  4, ..., 128, HOLDS.
- ``fig3_r_grid_padded`` (claim, the reading rpcheck uses: d read as the padded d' = 2^ceil(log2 d), after
  the footnote of Preliminaries, 'Subsampled Randomized Hadamard Transform': "We can ensure this by padding
  zeros", as ``lei2020.stability`` does): d'/2^k is an integer for
  k <= 6 whenever d' >= 64, and every Table 3 d' is >= 128: HOLDS everywhere.
- ``control_fig3_grid_one_step_further`` (negative control: the same integrality event on the padded grid
  extended to d'/2^(q+1), q = log2 d', i.e. the value 1/2): VIOLATED everywhere.
"""

from __future__ import annotations

from fractions import Fraction

from ... import compare as cmp
from ...engine import Finding, Outcome, Param, Profile, Theorem, TrialRecord, Variant, Verdict, grid, register
from ...standins import LEI2020_SHAPES
from . import _common as c
from .table2_prose import SPARSE_SETS  # Sec. 'Extension to High-dimensional Sparse Data': Sparse Embedding + SRHT

__all__ = ["THEOREM", "trial", "decide"]


def trial(params, rng):
    return TrialRecord(outcomes=_table3_fig3_outcomes(params["dataset"]))


# ---------------------------------------------------------------------------------------------------------
# Table 3 split sizes, Table 2's SRHT times, the Fig. 3 r grid (exact arithmetic; module docstring)
# ---------------------------------------------------------------------------------------------------------
#: Sec. 4, Experiments (first paragraph): the data sets split "70% ... training data and the rest 30% as test"
SPLIT_70_30 = ("mushrooms", "real-sim", "rcv1-binary", "news20-binary")
_SEVENTY = Fraction(7, 10)
_HALF_PERCENT = Fraction(1, 200)  # "70%" is printed in whole percents


def train_fraction(key):
    """train / (train + test) of Table 3 for the data set ``key``, exactly."""
    t = LEI2020_SHAPES[key]
    return Fraction(t["train"], t["train"] + t["test"])


def reads_as_70(f):
    """True when the fraction ``f`` rounds to the printed "70%" (within half a percent of 0.70)."""
    return abs(f - _SEVENTY) < _HALF_PERCENT


def fig3_r_grid(d, steps=6):
    """The Fig. 3 grid {d/2^steps, ..., d/2} (Sec. 4, 'Stability Comparison'), exactly."""
    return [Fraction(d, 2**k) for k in range(steps, 0, -1)]


def _integral(grid_values):
    return all(v.denominator == 1 for v in grid_values)


def _table3_fig3_outcomes(key):
    named = key in SPLIT_70_30
    total = LEI2020_SHAPES[key]["train"] + LEI2020_SHAPES[key]["test"]
    planted = Fraction(round(_SEVENTY * total), total)  # an exact 70/30 split of the same total
    d = LEI2020_SHAPES[key]["d"]
    dp = c.dpad(d)
    q = dp.bit_length() - 1
    return {
        "split_70_30": Outcome(holds=named and reads_as_70(train_fraction(key)), vacuous=not named,
                               statistic=float(train_fraction(key))),
        "split_rule_self_check": Outcome(holds=named and reads_as_70(planted), vacuous=not named,
                                         statistic=float(planted)),
        "srht_time_vs_rows": Outcome(holds=True),  # measurement row: built by decide (sparse sets only)
        "fig3_r_grid_integral": Outcome(holds=_integral(fig3_r_grid(d))),
        "fig3_r_grid_padded": Outcome(holds=_integral(fig3_r_grid(dp))),
        "control_fig3_grid_one_step_further": Outcome(holds=_integral(fig3_r_grid(dp, steps=q + 1))),
    }


def _fmt_grid(values):
    return ", ".join(f"{float(v):g}" for v in values)


def _table3_fig3_rows(key):
    """Paper vs rpcheck rows of the Table 3 / Fig. 3 / SRHT-time arithmetic for the data set ``key``."""
    t2, t3 = cmp.PAPER_TABLE2[key], LEI2020_SHAPES[key]
    rows = []
    if key in SPLIT_70_30:
        f = train_fraction(key)
        rows.append({"method": "split_70_30",
                     "paper_train_fraction": "'randomly select 70% of the original training data as training "
                                             "data and the rest 30% as test data' (Sec. 4, Experiments)",
                     "train_fraction": f"{t3['train']:,} / {t3['train'] + t3['test']:,} = {float(f):.4f} "
                                       f"(Table 3)",
                     "train_fraction_agrees": reads_as_70(f)})
    if key in SPARSE_SETS and key != "rcv1-binary":
        ref, ref3 = cmp.PAPER_TABLE2["rcv1-binary"], LEI2020_SHAPES["rcv1-binary"]
        rows.append({"method": "srht_time_vs_rows",
                     "paper_srht_time_ratio_to_rcv1": f"SRHT {t2['srht'][2]} s / {ref['srht'][2]} s = "
                                                      f"{t2['srht'][2] / ref['srht'][2]:.1f} (Table 2)",
                     "srht_time_ratio_to_rcv1": f"training rows {t3['train']:,} / {ref3['train']:,} = "
                                                f"{t3['train'] / ref3['train']:.2f} (Table 3): the ratio of the "
                                                "n r' log r' + n r' terms at r' = 2r = 512 on both; nnz(X) and "
                                                "the SVM's iterations are not printed",
                     "srht_time_ratio_to_rcv1_agrees": None})
    d, dp = t3["d"], c.dpad(t3["d"])
    rows.append({"method": "fig3_r_grid_integral",
                 "paper_fig3_r_grid": "'reduced dimension r is chosen from {d/2^6, d/2^5, ..., d/2}' (Sec. 4, "
                                      "Stability Comparison, Fig. 3)",
                 "fig3_r_grid": f"d = {d:,} (Table 3): {_fmt_grid(fig3_r_grid(d))}; padded d' = {dp:,}: "
                                f"{_fmt_grid(fig3_r_grid(dp))}",
                 "fig3_r_grid_agrees": _integral(fig3_r_grid(d))})
    return rows


def decide(records, params):
    """Paper vs rpcheck rows of the Table 3 / Fig. 3 / SRHT-time arithmetic (the ``srht_time_vs_rows``
    measurement row has no verdict; the other rows are decided by the engine from the trial)."""
    key = params["dataset"]
    return {}, {
        "data": f"the paper's own Tables 2 and 3, {key} (sizes, d and times as printed)",
        "protocol": "exact arithmetic on the printed numbers",
        "table3_fig3_times": _table3_fig3_rows(key),
    }


_V, _H, _VAC = Verdict.VIOLATED, Verdict.HOLDS, Verdict.VACUOUS
#: Expected verdicts of the Table 3 / Fig. 3 rows, derived in the module docstring.
_EXPECTED = {
    # Table 3: 73.9% (mushrooms), 67.0% (real-sim, rcv1-binary, news20-binary); usps-b, gisette not named
    "split_70_30": {k: (_V if k in SPLIT_70_30 else _VAC) for k in cmp.PAPER_TABLE2},
    "split_rule_self_check": {k: (_H if k in SPLIT_70_30 else _VAC) for k in cmp.PAPER_TABLE2},
    # Table 3's d: only usps-b (d = 256) gives an integral grid; mushrooms 112/64 = 1.75
    "fig3_r_grid_integral": {k: (_H if k == "usps-b" else _V) for k in cmp.PAPER_TABLE2},
    "fig3_r_grid_padded": {k: _H for k in cmp.PAPER_TABLE2},
    "control_fig3_grid_one_step_further": {k: _V for k in cmp.PAPER_TABLE2},
}


def _t2_expected(v):
    return lambda p: _EXPECTED[v].get(p["dataset"])


THEOREM = register(
    Theorem(
        id="lei2020.table2",
        paper="lei2020",
        title="Table 3's splits, Table 2's SRHT times and the Fig. 3 r grid checked by arithmetic on the paper's "
        "own printed numbers ([TABLE]; the comparative sentences are lei2020.table2_prose)",
        citation=c.citation("Sec. 4, Tables 2 and 3, Fig. 3 and the text around them"),
        statement="The 70/30 split against Table 3's sizes, SRHT's Table 2 times against Table 3's rows and the "
        "Fig. 3 grid {d/2^6, ..., d/2} against Table 3's d, evaluated exactly on the published numbers.",
        kind="deterministic",
        variants=(
            Variant("split_70_30", "train / (train + test) of Table 3 reads as the printed 70% (within half a "
                    "percent) for mushrooms, real-sim, rcv1-binary, news20-binary (Sec. 4, Experiments)",
                    expected=_t2_expected("split_70_30"), exhaustive=True),
            Variant("split_rule_self_check", "self-check: the same event on a planted exact 70/30 split of the "
                    "same total (train' = round(0.7 N)) holds", expected=_t2_expected("split_rule_self_check"),
                    role="self-check", exhaustive=True),
            Variant("srht_time_vs_rows", "measurement (sparse sets): SRHT's Table 2 time relative to rcv1-binary's "
                    "beside the ratio of Table 3's training rows (Paper vs rpcheck table)", mode="report",
                    expected=None, role="measurement"),
            Variant("fig3_r_grid_integral", "every r of the grid {d/2^6, ..., d/2} is an integer at Table 3's d "
                    "(Sec. 4, Stability Comparison, Fig. 3)", expected=_t2_expected("fig3_r_grid_integral"),
                    exhaustive=True),
            Variant("fig3_r_grid_padded", "every r of the grid is an integer with d read as the padded d' = "
                    "2^ceil(log2 d) (Preliminaries, SRHT footnote: padding zeros)",
                    expected=_t2_expected("fig3_r_grid_padded"),
                    assumed=("d in the Fig. 3 grid read as the padded dimension d'",), exhaustive=True),
            Variant("control_fig3_grid_one_step_further", "negative control: the same integrality event on the "
                    "padded grid extended to d'/2^(log2 d' + 1) = 1/2", expected=Verdict.VIOLATED, role="control",
                    exhaustive=True),
        ),
        profiles={
            p: Profile(cells=grid(dataset=list(cmp.PAPER_TABLE2)), trials=1)
            for p in ("quick", "ci", "standard", "full")
        },
        trial=trial,
        decide=decide,
        parameters={"dataset": Param("choice", choices=tuple(cmp.PAPER_TABLE2), doc="a data set of Table 2")},
        findings=(
            Finding(
                "t3_split",
                "The '70% / 30%' split of Sec. 4 is not Table 3's: mushrooms 6,000 / 8,124 = 73.9% training; "
                "real-sim, rcv1-binary and news20-binary 67.0% (2/3).",
                evidence_variant="split_70_30",
                location="Experiments, first paragraph, against Table 3",
                quote="randomly select 70% of the original training data as training data and the rest 30% as test "
                "data",
                kind="paper error",
            ),
            Finding(
                "t2_srht_time_anomaly",
                "SRHT takes 23.3 s on real-sim but 0.5 s on rcv1-binary in Table 2: 46.6x the time for 3.57x the "
                "training rows (Table 3), both with r = 256 and r' = 2r = 512, whose printed cost O(nnz(X) + n r' "
                "log r' + n r') scales its r'-terms with n; what the times include is not stated.",
                evidence_variant="srht_time_vs_rows",
                location="Table 2 (SRHT running times: real-sim 23.3s, rcv1-binary 0.5s) against Table 3",
                quote="0.3s 0.3s 1.5s 23.3s 0.5s 0.7s",
                kind="observation",
            ),
            Finding(
                "fig3_grid",
                "The Fig. 3 grid r in {d/2^6, ..., d/2} is not integral for mushrooms' d = 112 (1.75, 3.5, ...) "
                "unless d means the padded d' = 128; likewise for every Table 3 d except usps-b's 256.",
                evidence_variant="fig3_r_grid_integral",
                location="Experiments, 'Stability Comparison Between ISRHT and SRHT' paragraph (Fig. 3), against "
                "Table 3",
                quote="reduced dimension r is chosen from {d/2^6, d/2^5, ..., d/2}",
                kind="ambiguity",
            ),
        ),
    )
)

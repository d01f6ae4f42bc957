"""lei2020.comparison on the stand-ins of Table 2's dense sets: the 'standin:<set>[:<n>]' names, the Table 3
split, the data label and the paper's numbers beside ours (only at Table 2's r)."""

import numpy as np
import pytest

from rpcheck import compare as cmp
from rpcheck.engine import TrialRecord, registry
from rpcheck.papers.lei2020 import _empirical as E
from rpcheck.papers.lei2020 import comparison as C
from rpcheck.standins import LEI2020_SHAPES


def test_parse_and_name_round_trip():
    assert E.parse_standin("breast_cancer") is None and E.parse_standin("/tmp/mushrooms") is None
    assert E.parse_standin("standin:mushrooms") == ("mushrooms", 8124)
    assert E.parse_standin("standin:gisette:150") == ("gisette", 150)
    for key in E.STANDIN_SETS:
        total = LEI2020_SHAPES[key]["train"] + LEI2020_SHAPES[key]["test"]
        assert E.standin_name(key) == f"standin:{key}" == E.standin_name(key, total)
        assert E.parse_standin(E.standin_name(key, 300)) == (key, 300)


@pytest.mark.parametrize("bad", ["standin:rcv1-binary", "standin:foo", "standin:gisette:x", "standin:gisette:49",
                                 "standin:gisette:7001", "standin:usps-b:10:2"])
def test_bad_standin_names_are_one_clear_error(bad):
    with pytest.raises(ValueError, match="dataset") as exc:
        E.parse_standin(bad)
    assert repr(bad) in str(exc.value) and "mushrooms" in str(exc.value)
    th = registry.get("lei2020.comparison")
    assert "not satisfied" in th.cell_problem({"dataset": bad, "r": 8, "folds": 3, "c_grid": "ci"})


def test_test_part_is_table3s_share():
    assert E.test_size("breast_cancer") == 0.3  # the existing cells: unchanged default of run_repetition
    for key in E.STANDIN_SETS:  # at Table 3's shape: exactly Table 3's test rows
        assert E.test_size(E.standin_name(key)) == LEI2020_SHAPES[key]["test"]
    assert E.test_size("standin:gisette:150") == round(150 * 1000 / 7000)


def test_dimension_without_generating_and_r_constraint():
    E._DATA_CACHE.pop("standin:gisette", None)
    assert E.dataset_dim("standin:gisette") == 5000 and "standin:gisette" not in E._DATA_CACHE
    th = registry.get("lei2020.comparison")
    assert th.cell_problem({"dataset": "standin:mushrooms", "r": 128, "folds": 5, "c_grid": "paper"}) is None
    assert "not satisfied" in th.cell_problem({"dataset": "standin:mushrooms", "r": 129, "folds": 5,
                                               "c_grid": "paper"})


def test_standin_data_is_the_fixed_generator_and_named_so():
    ds = E._dataset("standin:usps-b:120")
    assert ds.X.shape == (120, 256) and set(np.unique(ds.y)) == {-1.0, 1.0}
    lab = E.data_label("standin:usps-b:120")
    assert "NOT the real data" in lab and "synthetic stand-in of usps-b" in lab and "120 of Table 3's 9,298" in lab
    assert "at Table 3's shape" in E.data_label("standin:gisette")


def _records(n=4):
    rng = np.random.default_rng(0)
    out = []
    for _ in range(n):
        diag = {}
        for m in cmp.METHODS:
            diag[f"acc.{m}"], diag[f"time.{m}"], diag[f"C.{m}"] = 90 + rng.normal(), 1.0, 1.0
        out.append(TrialRecord(outcomes=C.sentence_outcomes(diag), diagnostics=diag))
    return out


def test_decide_puts_the_paper_beside_the_standin_at_table2s_r_only():
    recs = _records()
    _, info = C.decide(recs, {"dataset": "standin:gisette:150", "r": 256, "folds": 3, "c_grid": "ci"})
    assert info["paper_dataset"] == "gisette" and "NOT the real data" in info["data"]
    rows = {r["method"]: r for r in info["summary"]}
    assert rows["srht"]["paper_acc_mean"] == cmp.PAPER_TABLE2["gisette"]["srht"][0]
    assert rows["srht"]["paper_acc_std"] == cmp.PAPER_TABLE2["gisette"]["srht"][1]
    assert rows["srht"]["acc_mean_se"] > 0
    assert "test part of 21 rows" in info["protocol"]
    _, info = C.decide(recs, {"dataset": "standin:gisette:150", "r": 64, "folds": 3, "c_grid": "ci"})
    assert info["paper_dataset"] == "" and all("paper_acc_mean" not in r for r in info["summary"])


def test_every_variant_of_a_standin_cell_is_a_report_row():
    th = registry.get("lei2020.comparison")
    for cell in th.profiles["ci"].cells:
        for v in th.variants:
            assert v.mode == "report" and v.expected_for(cell) is None


def test_standin_cells_also_run_dlss_after_the_other_methods_bundled_cells_do_not():
    assert C.methods_of("breast_cancer") == cmp.METHODS  # the existing cells: unchanged method list (and seeds)
    assert C.methods_of("standin:gisette:150") == cmp.METHODS + cmp.DLSS_METHODS  # DLSS last: earlier seeds kept


def test_dlss_rows_beside_table2s_dlss_with_the_rank_stated_and_no_sentence_changes():
    rng = np.random.default_rng(1)
    recs = []
    for _ in range(4):
        diag = {}
        for m in cmp.METHODS + cmp.DLSS_METHODS:
            diag[f"acc.{m}"], diag[f"time.{m}"], diag[f"C.{m}"] = 90 + rng.normal(), 1.0, 1.0
        # a DLSS accuracy above "all" must not move the "all features best" sentence (DLSS is in no sentence here)
        diag["acc.dlss-r"] = 200.0
        without = {k: v for k, v in diag.items() if "dlss" not in k}
        assert C.sentence_outcomes(diag) == C.sentence_outcomes(without)
        recs.append(TrialRecord(outcomes=C.sentence_outcomes(diag), diagnostics=diag))
    _, info = C.decide(recs, {"dataset": "standin:mushrooms:300", "r": 16, "folds": 3, "c_grid": "ci"})
    rows = {r["method"]: r for r in info["summary"]}
    for m in cmp.DLSS_METHODS:
        assert rows[m]["paper_acc_mean"] == cmp.PAPER_TABLE2["mushrooms"]["dlss"][0] == 94.66
        assert rows[m]["acc_mean_se"] >= 0 and "assumed" in rows[m]["dlss_rank"]
    assert rows["dlss-r/4"]["dlss_rank"].startswith("k = r/4 = 4")
    assert "dlss_rank" not in rows["pca"]
    # gisette's 150-row cell: k = r = 256 is capped by the CV fold's rows, and the row says so
    _, info = C.decide(recs, {"dataset": "standin:gisette:150", "r": 256, "folds": 3, "c_grid": "ci"})
    rows = {r["method"]: r for r in info["summary"]}
    assert "capped at min(n, d)" in rows["dlss-r"]["dlss_rank"]

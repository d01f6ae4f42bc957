"""The decision rate of a run (rpcheck.report.decision) on synthetic cells tables, and its HTML card."""

import json
import math
from types import SimpleNamespace

import pandas as pd
import pytest

from rpcheck import stats
from rpcheck.report import render_report
from rpcheck.report.decision import MAX_LISTED, decision_lines, decision_rate

PROV = {"alpha": 0.01, "family_size": {"violated": 40, "holds": 30}, "stopping": "anytime"}


def _row(cell, verdict, declared, *, role="claim", mode="bound", failures=0, evaluated=50, promised=0.05, claim=""):
    return dict(
        theorem="t.one", paper="t", variant=f"v_{role}", mode=mode, cell=cell, params=json.dumps({"r": cell}),
        trials=evaluated, evaluated=evaluated, failures=failures, undetermined=0, solver_errors=0, vacuous_trials=0,
        promised=promised, verdict=verdict, expected=declared, expected_declared=declared,
        as_expected=verdict == declared, role=role, claim=claim,
    )  # fmt: skip


def _cells():
    rows = [
        _row(0, "HOLDS", "HOLDS"),
        _row(1, "VIOLATED", "VIOLATED"),
        _row(2, "VIOLATED", "HOLDS"),  # decided, though not as declared (an unexpected verdict, counted elsewhere)
        _row(3, "INCONCLUSIVE", "HOLDS", claim="HOLDS needs >= 90 draws"),
        _row(4, "VACUOUS", "HOLDS"),
        _row(5, "INCONCLUSIVE", "", claim="no declared expectation"),  # not counted
        _row(6, "INCONCLUSIVE", "VACUOUS"),  # declared VACUOUS: not counted
        _row(7, "INCONCLUSIVE", "VIOLATED", role="control"),  # controls are left out
        _row(8, "INCONCLUSIVE", "", role="measurement", mode="report"),
        _row(9, "HOLDS", "HOLDS", role="self-check", mode="deterministic"),
        _row(10, "INCONCLUSIVE", "HOLDS", role="self-check", mode="deterministic", evaluated=30),
        _row(11, "INCONCLUSIVE", "HOLDS", mode="search"),
    ]
    return pd.DataFrame(rows)


def test_counts_claims_and_self_checks_separately():
    d = decision_rate(_cells(), PROV)
    assert (d["decided"], d["total"]) == (3, 6)
    assert [e["cell"] for e in d["undecided"]] == [3, 11]
    assert [e["cell"] for e in d["no_evidence"]] == [4]
    sc = d["self_checks"]
    assert (sc["decided"], sc["total"], [e["cell"] for e in sc["undecided"]], sc["no_evidence"]) == (1, 2, [10], [])


def test_undecided_rows_say_what_would_decide_them():
    d = decision_rate(_cells(), PROV)
    e = d["undecided"][0]
    assert e["claim"] == "HOLDS needs >= 90 draws" and e["expected"] == "HOLDS" and e["params"] == {"r": 3}
    # the estimate is trials_to_decide at the anytime e-Bonferroni level of the run (share of alpha, family m)
    from rpcheck.engine.plan import ANYTIME_SHARE

    need = stats.trials_to_decide("bound", stats.Counts(0, 50), 0.05, alpha=ANYTIME_SHARE * 0.01, m=40)
    assert need.trials > 0 and e["more_draws"] == need.trials and e["toward"] == "HOLDS"
    assert f"about {need.trials} more draws" in e["needs"] and e["decidable_by_draws"] is True
    search = d["undecided"][1]  # a search row: no draw-count estimate applies, its claim text stands alone
    assert search["more_draws"] is None and search["decidable_by_draws"] is None and search["needs"] == ""
    det = d["self_checks"]["undecided"][0]
    assert det["more_draws"] == stats.trials_to_decide("deterministic", stats.Counts(0, 30), alpha=0.001, m=40).trials


def test_without_alpha_in_the_provenance_there_is_no_estimate():
    d = decision_rate(_cells(), {})
    assert d["undecided"][0]["more_draws"] is None and d["undecided"][0]["needs"] == ""
    assert d["undecided"][0]["claim"] == "HOLDS needs >= 90 draws"


def test_a_table_without_role_or_declared_columns_counts_every_row_as_a_claim():
    cells = _cells().drop(columns=["role", "expected_declared"])
    d = decision_rate(cells, PROV)
    # `expected` stands for the declared one; every row a claim: rows 7 and 10 join, 9 joins the decided
    assert d["total"] == 9 and d["decided"] == 4 and d["self_checks"]["total"] == 0


def test_empty_table():
    d = decision_rate(pd.DataFrame(), PROV)
    assert (d["decided"], d["total"], d["undecided"]) == (0, 0, [])
    assert decision_lines(d) == ["decided 0 of 0 claims with an expectation; 0 undecided"]


def test_lines_open_with_the_rate_and_list_at_most_the_limit():
    rows = [_row(k, "INCONCLUSIVE", "HOLDS", claim=f"needs more {k}") for k in range(MAX_LISTED + 5)]
    rows.append(_row(99, "HOLDS", "HOLDS"))
    lines = decision_lines(decision_rate(pd.DataFrame(rows), PROV))
    assert lines[0] == f"decided 1 of {MAX_LISTED + 6} claims with an expectation; {MAX_LISTED + 5} undecided"
    assert lines[1] == "undecided:"
    listed = [ln for ln in lines if ln.startswith("  t.one")]
    assert len(listed) == MAX_LISTED and "needs more 0" in listed[0] and "about" in listed[0]
    assert lines[-1] == "  ... and 5 more"


def test_self_checks_get_their_own_line():
    lines = decision_lines(decision_rate(_cells(), PROV))
    assert lines[:2] == [
        "decided 3 of 6 claims with an expectation; 2 undecided, 1 vacuous (no evidence)",
        "decided 1 of 2 self-checks with an expectation; 1 undecided",
    ]
    assert lines[2] == "undecided:" and len([ln for ln in lines if ln.startswith("  t.one")]) == 4


def test_json_safe():
    d = decision_rate(_cells(), PROV)
    text = json.dumps(d, allow_nan=False)  # no NaN or infinity anywhere
    assert json.loads(text)["total"] == 6
    assert not any(isinstance(e["more_draws"], float) and math.isinf(e["more_draws"]) for e in d["undecided"])


@pytest.mark.parametrize("n_undecided", [0, 3])
def test_report_opens_with_the_decision_card(n_undecided):
    rows = [_row(k, "HOLDS", "HOLDS") for k in range(4)]
    rows += [_row(10 + k, "INCONCLUSIVE", "HOLDS", claim=f"needs <{k}>") for k in range(n_undecided)]
    html = render_report(SimpleNamespace(cells=pd.DataFrame(rows), trials=None, provenance=PROV))
    overview = html[html.index('<section id="overview">'):]
    first_card = overview[overview.index('<div class="card '):]
    assert first_card.startswith('<div class="card decision" id="decision">')
    assert f"decided <b>4</b> of {4 + n_undecided} claims" in first_card
    if n_undecided:
        card = first_card[: first_card.index("</table>")]
        assert "Undecided (3)" in card and "needs &lt;2&gt;" in card and "more draws" in card
    else:
        assert "Undecided" not in first_card[: first_card.index("</div>")]

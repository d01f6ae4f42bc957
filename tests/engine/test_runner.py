"""The runner: table schema, verdict rules per mode, solver errors, bugs, overrides, run_cell, testing.

All runs use fixed root seeds; the statistical assertions state their false-alarm probability where one
exists (a fixed seed makes each test deterministic; the probability says how unlucky that seed could be).
"""

import json

import _engine_claims as claims  # the engine_test.* theorems; conftest.py registers them
import numpy as np
import pandas as pd
import pytest

from rpcheck import testing
from rpcheck.engine import (
    RunResult,
    TrialError,
    Verdict,
    canonical_json,
    load_results,
    replay_trial,
    run,
    run_cell,
    trial_seed_sequence,
)
from rpcheck.engine import registry as rpcheck_registry
from rpcheck.errors import RpcheckError
from rpcheck.results import CELL_COLUMNS, TRIAL_COLUMNS

SEED = 20240601  # any fixed root seed


@pytest.fixture(scope="module")
def serial_run():
    return run(["engine_test.bernoulli", "engine_test.det", "engine_test.report"], backend="serial", seed=SEED)


def test_cells_schema(serial_run):
    cells = serial_run.cells
    pcols = [c for c in cells.columns if c.startswith("p_")]
    assert list(cells.columns[:6]) == list(CELL_COLUMNS[:6])
    rest = [c for c in cells.columns if not c.startswith("p_")]
    assert rest[: len(CELL_COLUMNS)] == list(CELL_COLUMNS)
    assert set(pcols) == {"p_p", "p_delta", "p_sleep", "p_fail_p", "p_solver_p", "p_vac_p", "p_mu"}
    # one row per (theorem, variant, cell)
    assert len(cells) == 3 * 1 + 3 * 2 + 2 * 1
    for _, r in cells.iterrows():
        assert json.loads(r["params"]) == {k[2:]: r[k] for k in pcols if not pd.isna(r[k])}
        assert r["trials"] == r["evaluated"] + r["vacuous_trials"] + r["solver_errors"]
        assert r["as_expected"] == (r["expected"] == "" or r["expected"] == r["verdict"])
    assert cells["verdict"].isin([v.value for v in Verdict]).all()
    # contract v2: every row has a role and an undetermined count; every HOLDS states its claim
    assert {"role", "claim", "undetermined"} <= set(cells.columns)
    assert (cells.loc[cells["verdict"] == "HOLDS", "claim"].str.len() > 0).all()
    assert cells["undetermined"].dtype == "int64" and cells["p_delta"].dtype == "float64"


def test_trials_schema(serial_run):
    t = serial_run.trials
    assert list(t.columns[:6]) == list(TRIAL_COLUMNS)
    for v in ("bound", "claim", "always", "mean"):
        for f in ("holds", "statistic", "bound", "vacuous"):
            assert f"{v}.{f}" in t.columns
    assert {"diag.u", "diag.norm", "diag.draw2", "diag.x"} <= set(t.columns)
    assert set(t["status"]) == {"ok", "solver_error"}
    assert len(t) == 3 * 1000 + 3 * 100 + 2 * 50
    assert t.groupby(["theorem", "cell"])["trial"].apply(lambda s: list(s) == list(range(len(s)))).all()


def test_bound_mode_verdicts(serial_run):
    """p = 0.002 and p = 0.2 against delta = 0.05 with 1000 trials: the HOLDS / VIOLATED decisions have
    error probability <= 0.01 each (Holm); at these distances the power is > 1 - 1e-6 (exact binomial)."""
    c = serial_run.cells.set_index(["theorem", "cell", "variant"])
    assert c.loc[("engine_test.bernoulli", 0, "bound"), "verdict"] == "HOLDS"
    assert c.loc[("engine_test.bernoulli", 2, "bound"), "verdict"] == "VIOLATED"
    row = c.loc[("engine_test.bernoulli", 2, "bound")]
    assert row["ci_low"] > row["promised"] and row["pvalue"] <= row["alpha_adjusted"]
    row = c.loc[("engine_test.bernoulli", 0, "bound")]
    assert row["ci_high"] <= row["promised"] and row["pvalue_holds"] <= row["alpha_adjusted_holds"]
    # Holm levels: the family is the 3 bound cells; levels are alpha/3, alpha/2 or alpha
    fam = serial_run.cells[serial_run.cells["mode"] == "bound"]
    assert set(np.round(fam["alpha_adjusted"] * 3 / 0.01, 9)) <= {1.0, 1.5, 3.0}
    assert serial_run.provenance["family_size"] == {"violated": 3, "holds": 3}


def test_deterministic_mode_solver_errors_and_vacuous(serial_run):
    c = serial_run.cells.set_index(["theorem", "cell", "variant"])
    r0 = c.loc[("engine_test.det", 0, "claim")]
    # rules v2: solver errors count against HOLDS, so a deterministic row with solver errors and no
    # certified failure is INCONCLUSIVE (P(no solver error in 100 draws at solver_p = 0.1) = 0.9**100 < 3e-5)
    assert r0["verdict"] == "INCONCLUSIVE" and r0["failures"] == 0
    assert "solver errors" in r0["claim"] and r0["role"] == "claim" and r0["undetermined"] == 0
    assert r0["solver_errors"] > 0 and r0["vacuous_trials"] > 0  # 10% and 20% of 100 draws
    t = serial_run.trials
    det0 = t[(t["theorem"] == "engine_test.det") & (t["cell"] == 0)]
    errs = det0[det0["status"] == "solver_error"]
    assert len(errs) == r0["solver_errors"]
    assert errs["error"].str.contains("SolverError: synthetic solver failure").all()
    assert errs["error"].str.contains("status=numerical_error").all()
    assert errs["claim.holds"].isna().all()
    r1 = c.loc[("engine_test.det", 1, "claim")]
    assert r1["verdict"] == "VIOLATED" and r1["failures"] > 0 and r1["slack_min"] < 0
    assert r1["counterexample"].startswith("counterexamples/")
    assert c.loc[("engine_test.det", 2, "claim"), "verdict"] == "VACUOUS"
    # 100 >= 90 certified draws, no failure, no solver error: HOLDS with its claim
    r2 = c.loc[("engine_test.det", 2, "always")]
    assert r2["verdict"] == "HOLDS"
    assert r2["claim"] == "no counterexample in 100 draws: P(counterexample) <= 0.0451 at 99%"


def test_report_mode_uses_decide(serial_run):
    c = serial_run.cells.set_index(["theorem", "cell", "variant"])
    assert c.loc[("engine_test.report", 0, "mean"), "verdict"] == "VIOLATED"  # mean of N(-2, 1)
    assert c.loc[("engine_test.report", 1, "mean"), "verdict"] == "HOLDS"
    info = json.loads(c.loc[("engine_test.report", 1, "mean"), "decide_info"])
    assert info["n"] == 50 and info["mean"] > 0


def test_unexpected_and_verify_theorem(serial_run):
    assert serial_run.unexpected().empty
    before = len(testing.COLLECTED)
    res = testing.verify_theorem("engine_test.bernoulli", backend="serial", seed=SEED)
    assert isinstance(res, RunResult) and len(testing.COLLECTED) == before + 1
    # an expected verdict the data do not give: the message lists the offending row. With 5 trials, cell 0's
    # declared HOLDS is unattainable (0 failures give the support p-value 0.95**5 = 0.77 > 0.01), so its
    # effective expected verdict is INCONCLUSIVE and it is not listed; cell 2's VIOLATED (p = 0.2 vs
    # delta = 0.05) is attainable (5 failures: 0.05**5 = 3e-7) but this seed draws 0 failures (probability
    # 0.8**5 = 0.33), so cell 2 is the unexpected row.
    with pytest.raises(
        AssertionError,
        match=r"(?s)1 of 3 .*differ from the expected.*p.:0\.2,.*verdict=INCONCLUSIVE, expected=VIOLATED",
    ):
        testing.verify_theorem("engine_test.bernoulli", backend="serial", seed=SEED, trials=5)
    assert len(testing.COLLECTED) == before + 2
    # these runs exercise the machinery (one is deliberately unexpected): keep them out of the session's
    # verdict summary and --rpcheck-report, which describe the theorem tests
    del testing.COLLECTED[before:]


def test_vacuous_cell_still_runs_trials():
    res = run("engine_test.bernoulli", backend="serial", overrides={"delta": 0.6}, trials=20)
    assert (res.cells["verdict"] == "VACUOUS").all()
    assert (res.cells["trials"] == 20).all()
    assert res.cells["vacuous_reason"].str.contains("delta >= 0.5").all()
    assert res.provenance["family_size"] == {"violated": 0, "holds": 0}


def test_overrides_and_dedup():
    res = run("engine_test.bernoulli", backend="serial", overrides={"p": 0.5}, trials=30)
    assert len(res.cells) == 1 and res.cells["p_p"].iloc[0] == 0.5
    with pytest.raises(RpcheckError, match=r"`overrides` names parameters \['nope'\]"):
        run("engine_test.bernoulli", backend="serial", overrides={"nope": 1})


def test_argument_validation():
    with pytest.raises(RpcheckError, match="`profile`"):
        run("engine_test.bernoulli", profile="huge")
    with pytest.raises(RpcheckError, match="`backend`"):
        run("engine_test.bernoulli", backend="threads")
    with pytest.raises(RpcheckError, match="`seed`"):
        run("engine_test.bernoulli", seed=-1)
    with pytest.raises(RpcheckError, match="`alpha`"):
        run("engine_test.bernoulli", alpha=0.7)
    with pytest.raises(
        RpcheckError,
        match=r"`trials` \(1000000000000\) must be an integer in the range \[1, 1000000\]",
    ):
        run("engine_test.bernoulli", trials=10**12)
    with pytest.raises(RpcheckError, match=r"`jobs` \(100000\) must be an integer in the range \[1, 4096\]"):
        run("engine_test.bernoulli", jobs=100_000)
    with pytest.raises(RpcheckError, match="`resume=True` needs `out`"):
        run("engine_test.bernoulli", resume=True)
    with pytest.raises(RpcheckError, match="unknown theorem id 'engine_test.bernouli'.*engine_test.bernoulli"):
        run("engine_test.bernouli")


@pytest.mark.parametrize("backend", ["serial", "processes"])
def test_bug_in_trial_propagates_with_context(backend):
    with pytest.raises(TrialError, match=r"trial \d+ of theorem 'engine_test.buggy' with params \{\"k\":3\}") as ei:
        run("engine_test.buggy", backend=backend, jobs=2)
    assert "ZeroDivisionError" in str(ei.value) and "original traceback" in str(ei.value)


def test_seeding_and_replay_trial(serial_run):
    params = {"delta": 0.05, "p": 0.2, "sleep": 0.0}
    ss = trial_seed_sequence("engine_test.bernoulli", params, 7, SEED)
    assert ss.spawn_key[2] == 7 and ss.entropy == SEED
    assert trial_seed_sequence("engine_test.bernoulli", canonical_json(params), 7, SEED).spawn_key == ss.spawn_key
    rec = replay_trial("engine_test.bernoulli", params, 7, SEED)
    t = serial_run.trials
    row = t[(t["theorem"] == "engine_test.bernoulli") & (t["cell"] == 2) & (t["trial"] == 7)].iloc[0]
    assert rec.diagnostics["u"] == row["diag.u"] and rec.diagnostics["draw2"] == row["diag.draw2"]


def test_run_cell_matches_run(serial_run):
    out = run_cell("engine_test.bernoulli", {"p": 0.2, "delta": 0.05, "sleep": 0.0}, trials=1000, seed=SEED)
    row = serial_run.cells.set_index(["theorem", "cell", "variant"]).loc[("engine_test.bernoulli", 2, "bound")]
    assert out.trials == 1000 and out.variants["bound"].failures == row["failures"]
    ci = out.proportion_ci("bound", 0.99, alternative="less")
    assert ci.high > out.variants["bound"].failures / 1000
    t = serial_run.trials
    ref = t[(t["theorem"] == "engine_test.bernoulli") & (t["cell"] == 2)].reset_index(drop=True)
    assert np.array_equal(out.table["diag.u"].to_numpy(), ref["diag.u"].to_numpy())


def test_save_and_load_roundtrip(serial_run, tmp_path):
    saved = serial_run.save(tmp_path / "res")
    assert saved.path == tmp_path / "res"
    for name in ("cells.parquet", "provenance.json"):
        assert (tmp_path / "res" / name).exists()
    tids = serial_run.theorem_ids()
    assert len(tids) > 1 and sorted(serial_run.trial_tables) == tids
    for tid in tids:  # one trials table per theorem, holding only its own columns
        assert (tmp_path / "res" / "trials" / f"{tid}.parquet").exists()
        own = {f"{v.name}.holds" for v in rpcheck_registry.get(tid).variants}
        t = serial_run.trials_of(tid)
        assert set(t["theorem"]) == {tid} and own <= set(t.columns)
        assert not [c for c in t.columns if c.endswith(".holds") and c not in own]
    back = load_results(tmp_path / "res")
    pd.testing.assert_frame_equal(back.cells, serial_run.cells, check_dtype=False)
    pd.testing.assert_frame_equal(back.trials, serial_run.trials, check_dtype=False)
    for tid in tids:
        pd.testing.assert_frame_equal(back.trials_of(tid), serial_run.trials_of(tid), check_dtype=False)
    assert back.provenance["seed"] == SEED
    assert (tmp_path / "res" / back.cells["counterexample"].loc[lambda s: s != ""].iloc[0]).exists()


def test_results_with_one_trials_table_still_load(serial_run, tmp_path):
    """Results written before per-theorem trial tables (one ``trials`` table) load and split by theorem."""
    from rpcheck.engine.store import write_table

    saved = serial_run.save(tmp_path / "old")
    import shutil

    shutil.rmtree(tmp_path / "old" / "trials")
    write_table(serial_run.trials, saved.path, "trials")
    back = load_results(saved.path)
    assert sorted(back.trial_tables) == serial_run.theorem_ids()
    for tid in back.trial_tables:
        a, b = back.trials_of(tid), serial_run.trials_of(tid)
        pd.testing.assert_frame_equal(a, b[a.columns], check_dtype=False)
    assert back.trials_of("no.such.theorem").empty


def test_csv_fallback_roundtrip(serial_run, tmp_path, monkeypatch):
    from rpcheck.engine import store

    monkeypatch.setattr(store, "_have_pyarrow", lambda: False)
    serial_run.save(tmp_path / "csv")
    assert (tmp_path / "csv" / "cells.csv").exists() and not (tmp_path / "csv" / "cells.parquet").exists()
    back = load_results(tmp_path / "csv")
    num = ["trials", "failures", "evaluated", "ci_low", "ci_high", "pvalue"]
    pd.testing.assert_frame_equal(back.cells[num], serial_run.cells[num], check_dtype=False)
    assert list(back.cells["verdict"]) == list(serial_run.cells["verdict"])
    assert np.array_equal(back.trials["diag.u"].to_numpy(), serial_run.trials["diag.u"].to_numpy(), equal_nan=True)


def test_provenance(serial_run):
    p = serial_run.provenance
    for key in (
        "versions",
        "solver",
        "seed",
        "profile",
        "alpha",
        "backend",
        "jobs",
        "started_utc",
        "finished_utc",
    ):
        assert key in p
    for pkg in ("python", "numpy", "scipy", "cvxpy", "clarabel", "pandas"):
        assert p["versions"][pkg]
    import socket

    assert socket.gethostname() not in json.dumps(p)


def test_progress_callback():
    calls = []
    run(
        "engine_test.det",
        backend="serial",
        trials=10,
        progress=lambda d, t, i: calls.append((d, t, i["event"])),
    )
    assert calls[0] == (0, 30, "start") and calls[-1] == (30, 30, "end")
    assert [c[0] for c in calls] == sorted(c[0] for c in calls)


def _unregistered(id, title, kind, variants, prof, trial):
    """A theorem defined inside a test (never registered), with ``prof`` as every profile."""
    from rpcheck.engine import Citation, Theorem

    return Theorem(
        id=id,
        paper="test",
        title=title,
        citation=Citation(authors="T", year=2024, title="t", venue="t", location="t"),
        statement="-",
        kind=kind,
        variants=variants,
        profiles={k: prof for k in ("quick", "ci", "standard", "full")},
        trial=trial,
    )


def _local_theorem(p):
    from rpcheck.engine import Profile, Variant

    prof = Profile(cells=({"p": p, "delta": 0.5, "sleep": 0.0},), trials=20)
    return _unregistered("engine_test.local", "defined inside a test, never registered", "probabilistic",
                         (Variant("bound", "-", mode="bound", promised_failure=0.4),), prof, claims.bernoulli_trial)


def test_unregistered_theorem_objects_run_serially():
    # two different objects under one id: fine serially (each run uses the object it was given)
    a = run(_local_theorem(0.0), backend="serial")
    b = run(_local_theorem(1.0), backend="serial")
    assert a.cells["failures"].iloc[0] == 0 and b.cells["failures"].iloc[0] == 20
    # process workers only receive ids: an unregistered id cannot be found there
    with pytest.raises(RpcheckError, match="not registered"):
        run(_local_theorem(0.0), backend="processes", jobs=2)


def test_conflicting_registered_id_is_refused_for_workers():
    from dataclasses import replace

    clone = replace(claims.BERNOULLI, title="a different object")
    with pytest.raises(RpcheckError, match="different theorem is registered under the id"):
        run(clone, backend="processes")
    assert len(run(clone, backend="serial", trials=5).cells) == 3


def test_family_size_matches_the_run_without_running():
    from rpcheck.engine import family_size

    # bernoulli: 3 bound cells; chi2: 24 cells x 2 exact variants; det: deterministic (outside the family)
    assert family_size(["engine_test.bernoulli", "engine_test.det"], "ci") == 3
    assert family_size("engine_test.chi2", "ci") == 48
    assert family_size("engine_test.bernoulli", "ci", overrides={"delta": 0.6}) == 0  # vacuous cells
    assert family_size("engine_test.bernoulli", "ci", overrides={"p": 0.5}) == 1  # deduplicated cells
    res = run("engine_test.bernoulli", backend="serial", trials=30)
    assert res.provenance["family_size"]["violated"] == family_size("engine_test.bernoulli", "ci")


def test_unattainable_expected_becomes_inconclusive():
    """engine_test.det's "always" variant is expected HOLDS where solver_p = 0 (cells 1, 2). With 40 trials a
    deterministic HOLDS is unattainable (it needs 90 evaluated draws, rpcheck.stats.DETERMINISTIC_MIN_DRAWS):
    the effective expected verdict is INCONCLUSIVE, the declared one stays in expected_declared, and the
    claim says why. engine_test.bernoulli cell 0 (expected HOLDS, delta = 0.05): 0 failures in 40 draws give
    the support p-value 0.95**40 = 0.129 > alpha = 0.01, so HOLDS is unattainable too (needs 90 draws);
    cell 2 (p = 0.2, expected VIOLATED): 0.05**40 << 0.01, attainable."""
    res = run(["engine_test.det", "engine_test.bernoulli"], backend="serial", trials=40, seed=SEED)
    c = res.cells.set_index(["theorem", "cell", "variant"])
    r = c.loc[("engine_test.det", 1, "always")]
    assert r["expected_declared"] == "HOLDS" and r["expected"] == "INCONCLUSIVE"
    assert r["verdict"] == "INCONCLUSIVE" and r["as_expected"]
    assert r["claim"].endswith("; HOLDS unattainable: 40 draws, the rule needs 90")
    b = c.loc[("engine_test.bernoulli", 0, "bound")]
    assert b["expected_declared"] == "HOLDS" and b["expected"] == "INCONCLUSIVE"
    assert "HOLDS unattainable: 40 draws, the rule needs 90" in b["claim"]
    v = c.loc[("engine_test.bernoulli", 2, "bound")]
    assert v["expected_declared"] == v["expected"] == "VIOLATED"
    # rows without a declared expected verdict keep both columns empty
    assert c.loc[("engine_test.det", 0, "claim"), "expected_declared"] == ""
    # with the profile's 100 trials the declared HOLDS is attainable and kept
    assert (serial_run_expected := run("engine_test.det", backend="serial", seed=SEED).cells)["expected"].tolist() == \
        serial_run_expected["expected_declared"].tolist()


def test_runresult_notebook_api(tmp_path):
    # RunResult in a notebook: overview table, typed frame, atomic Parquet that never replaces a user's file
    import json

    import pytest

    from rpcheck.engine import run
    from rpcheck.errors import RpcheckError

    res = run(["engine_test.cheap"], profile="quick", backend="serial", trials=5)
    ov = res.overview()
    assert list(ov["theorem"]) == ["engine_test.cheap"]
    assert int(ov[["HOLDS", "VIOLATED", "INCONCLUSIVE", "VACUOUS"]].to_numpy().sum()) + int(
        ov[["measured", "self-checks", "controls"]].to_numpy().sum()) == len(res.cells)
    html = res._repr_html_()
    assert "<table" in html and "engine_test.cheap" in html and "<script" not in html
    fr = res.to_frame()
    for p, row in zip(fr["params"], fr.itertuples()):
        for k, v in json.loads(p).items():
            assert getattr(row, f"p_{k}") == v and type(getattr(row, f"p_{k}")) is type(v)
    out = tmp_path / "cells.parquet"
    res.to_parquet(out)
    import pandas as pd

    assert len(pd.read_parquet(out)) == len(res.cells)
    with pytest.raises(RpcheckError, match="exists"):
        res.to_parquet(out)
    with pytest.raises(RpcheckError, match="`path`"):
        res.to_parquet("")


def test_r_prescribed_column_from_the_theorems_formula():
    # The report marks the r a theorem's formula prescribes: ceil(c * f(params)) from constant_search
    import math

    from rpcheck.engine import get, run

    th = get("paul2014.lemma3.1")
    res = run([th.id], profile="quick", backend="serial", trials=1)
    for p, rp in zip(res.cells["params"], res.cells["r_prescribed"]):
        params = json.loads(p)
        assert rp == math.ceil(params["c"] * th.constant_search["formula"](params))
    res2 = run(["engine_test.cheap"], profile="quick", backend="serial", trials=1)
    assert res2.cells["r_prescribed"].isna().all()  # no formula: no marker


def _vacuous_trial(params, rng):
    from rpcheck.engine import Outcome, TrialRecord

    u = rng.random()
    # "often": vacuous unless u < 0.5; "always": the hypothesis never holds; "fails": evaluated and fails
    return TrialRecord(outcomes={
        "often": Outcome(holds=True, vacuous=bool(u >= 0.5)),
        "always": Outcome(holds=True, vacuous=True),
        "fails": Outcome(holds=False, vacuous=bool(u >= 0.5)),
    })


def test_all_vacuous_row_with_expected_holds_is_vacuous_as_expected():
    """A deterministic HOLDS needs 90 evaluated draws; a row whose every draw is vacuous has none, and the
    rule names it VACUOUS: no evidence either way, as with the unattainable INCONCLUSIVE. A row with some
    evaluated draws stays INCONCLUSIVE-as-expected, and a failure stays unexpected."""
    from rpcheck.engine import Profile, Variant

    prof = Profile(cells=({"k": 1},), trials=40)
    th = _unregistered("engine_test.vacuous_rows", "vacuous rows", "deterministic",
                       tuple(Variant(n, "-", expected="HOLDS") for n in ("often", "always", "fails")), prof,
                       _vacuous_trial)
    c = run(th, backend="serial", seed=SEED).cells.set_index("variant")
    assert c.loc["always", "verdict"] == "VACUOUS" and c.loc["always", "as_expected"]
    assert c.loc["always", "claim"].endswith("every draw vacuous: VACUOUS also as expected")
    assert c.loc["often", "verdict"] == "INCONCLUSIVE" and c.loc["often", "as_expected"]
    assert c.loc["fails", "verdict"] == "VIOLATED" and not c.loc["fails", "as_expected"]


def test_more_trials_runs_the_matching_cells_longer():
    from rpcheck.engine import Profile, Variant

    prof = Profile(
        cells=({"p": 0.0, "delta": 0.5, "sleep": 0.0}, {"p": 0.0, "delta": 0.25, "sleep": 0.0}),
        trials=20,
        more_trials=[({"delta": 0.25}, 35)],
    )
    assert [prof.trials_for(c) for c in prof.cells] == [20, 35] and prof.max_trials == 35
    assert prof.describe_trials() == "20 trials (35 where delta = 0.25)"
    th = _unregistered("engine_test.more_trials", "per-cell trial counts", "probabilistic",
                       (Variant("bound", "-", mode="bound", promised_failure=lambda c: c["delta"]),), prof,
                       claims.bernoulli_trial)
    res = run(th, backend="serial")
    assert res.cells.sort_values("cell")["trials"].tolist() == [20, 35]
    # an explicit `trials` overrides every cell, the matched ones too
    assert run(th, backend="serial", trials=7).cells["trials"].tolist() == [7, 7]


@pytest.mark.parametrize(
    "more, match",
    [
        ([({"delta": 0.3}, 10)], "matches no cell"),
        ([({"nope": 0.25}, 10)], "matches no cell"),
        ([({}, 10)], "at least one parameter"),
        ([({"delta": 0.25}, 0)], "must be an integer >= 1"),
        ([({"delta": 0.25}, True)], "must be an integer >= 1"),
        ([({"delta": 0.25},)], r"\(match dict, trials\) pairs"),
    ],
)
def test_more_trials_is_validated(more, match):
    from rpcheck.engine import Profile

    with pytest.raises(RpcheckError, match=match):
        Profile(cells=({"delta": 0.25},), trials=5, more_trials=more)


def test_unattainable_expectations_lists_what_the_run_reconciles():
    """The bookkeeping agrees with the run of test_unattainable_expected_becomes_inconclusive, without a trial:
    at 40 trials engine_test.det's deterministic HOLDS rows (cells 1, 2; 90 draws needed) and
    engine_test.bernoulli's HOLDS (cell 0: 0.95**40 = 0.129 > 0.01/3) are out of reach; the VIOLATED of
    bernoulli cell 2 (0.05**40) is not. At the profiles' 100 trials nothing is, as that run shows."""
    from rpcheck.engine import unattainable_expectations

    rows = unattainable_expectations(["engine_test.det", "engine_test.bernoulli"], "ci", trials=40)
    got = {(r["theorem"], r["cell"], r["variant"], r["expected"]) for r in rows}
    assert {("engine_test.det", 1, "always", "HOLDS"), ("engine_test.det", 2, "always", "HOLDS"),
            ("engine_test.bernoulli", 0, "bound", "HOLDS")} <= got
    assert not any(r["expected"] == "VIOLATED" for r in rows)
    assert all(r["reason"].startswith("HOLDS unattainable") and r["trials"] == 40 for r in rows)
    # the family (bound/exact rows: bernoulli's 3) sets the level of the statistical rows; deterministic ones get alpha
    assert {r["mode"]: r["level"] for r in rows} == {"deterministic": 0.01, "bound": pytest.approx(0.01 / 3)}
    assert unattainable_expectations("engine_test.bernoulli", "ci", trials=40, modes=("deterministic",)) == []
    assert unattainable_expectations(["engine_test.det", "engine_test.bernoulli"], "ci") == []
    res = run(["engine_test.det", "engine_test.bernoulli"], backend="serial", trials=40, seed=SEED).cells
    reconciled = res[res["claim"].str.contains("unattainable")]
    assert set(zip(reconciled["theorem"], reconciled["cell"], reconciled["variant"])) == \
        {(t, c, v) for t, c, v, _ in got}
    with pytest.raises(RpcheckError, match="`modes`"):
        unattainable_expectations("engine_test.det", modes=("bogus",))
    with pytest.raises(RpcheckError, match="`alpha`"):
        unattainable_expectations("engine_test.det", alpha=0.7)

"""`rpcheck calibrate` (rpcheck.engine.calibrate): seed parsing, resume, tabulation, exit codes, bad input.

The integration tests use a synthetic deterministic claim whose trial fails with probability ``q``: the
unexpected seeds are recomputed independently from the per-trial streams (``trial_rng``), not taken from
the engine.
"""

import json
import os

import pandas as pd
import pytest

from rpcheck.cli import main
from rpcheck.engine import Citation, Outcome, Profile, Theorem, TrialRecord, Variant, Verdict, registry
from rpcheck.engine._worker import canonical_json, trial_rng
from rpcheck.engine.calibrate import CALIBRATION_COLUMNS, calibrate, parse_seeds, tabulate
from rpcheck.errors import RpcheckError

N = 100  # trials per cell: >= 90 (rpcheck.stats.DETERMINISTIC_MIN_DRAWS), so HOLDS is attainable
CELLS = ({"q": 0.0}, {"q": 0.01})


def flaky_trial(params, rng):
    u = rng.random()
    return TrialRecord(outcomes={"claim": Outcome(holds=bool(u >= params["q"]), statistic=u, bound=params["q"])})


# Expected HOLDS in both cells. Cell q = 0 never fails, so it is HOLDS in every seed (100 draws >= 90). Cell
# q = 0.01 fails in a run with probability 1 - 0.99**100 = 0.63, so some seeds are unexpected (VIOLATED).
FLAKY = Theorem(
    id="engine_test.calib_flaky",
    paper="test",
    title="deterministic claim that fails with probability q per draw",
    citation=Citation(authors="Test", year=2024, title="synthetic", venue="tests", location="none"),
    statement="U >= q for every draw",
    kind="deterministic",
    variants=(Variant("claim", "U >= q", mode="deterministic", expected=Verdict.HOLDS),),
    profiles={p: Profile(cells=CELLS, trials=N) for p in ("quick", "ci", "standard", "full")},
    trial=flaky_trial,
)


@pytest.fixture(scope="module", autouse=True)
def _flaky_registered():
    registry.register(FLAKY)
    yield
    if registry._REGISTRY.get(FLAKY.id) is FLAKY:
        del registry._REGISTRY[FLAKY.id]


def _oracle_unexpected(seed, cell):
    """Whether cell ``cell`` of FLAKY fails in some trial under root ``seed`` (independent recomputation)."""
    params = CELLS[cell]
    can = canonical_json(params)
    return any(trial_rng(FLAKY.id, can, i, seed).random() < params["q"] for i in range(N))


# ------------------------------------------------------------------------------------------ seed parsing


def test_parse_seeds_forms():
    assert parse_seeds("1-20") == tuple(range(1, 21))
    assert parse_seeds("1,5,7") == (1, 5, 7)
    assert parse_seeds("0-2, 9") == (0, 1, 2, 9)
    assert parse_seeds("4") == (4,)


@pytest.mark.parametrize("bad", ["", "x", "5-1", "1,1", "1-2,2", "-3", "1-", "1.5", "0-20000", "1-2-3", str(2**63)])
def test_parse_seeds_bad_input_names_argument_value_and_allowed(bad):
    with pytest.raises(RpcheckError) as e:
        parse_seeds(bad)
    msg = str(e.value)
    assert "`--seeds`" in msg and repr(bad) in msg and "1-20" in msg and "1,5,7" in msg and "\n" not in msg


def test_cli_bad_seeds_exits_2_with_one_line(tmp_path, capsys):
    code = main(["calibrate", "--seeds", "7-3", "--theorem", FLAKY.id, "--out", str(tmp_path / "c")])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and "`--seeds`" in err and "'7-3'" in err and "1-20" in err
    assert not (tmp_path / "c").exists()  # refused before anything was written


def test_cli_bad_profile_and_unknown_theorem_exit_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["calibrate", "--seeds", "1", "--profile", "huge"])
    assert e.value.code == 2
    code = main(["calibrate", "--seeds", "1", "--theorem", "nope.thm", "--out", str(tmp_path / "c")])
    assert code == 2 and "nope.thm" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------- tabulation


def _cells(rows):
    return pd.DataFrame(
        [
            {"theorem": t, "variant": v, "cell": c, "params": "{}", "mode": "bound", "role": "claim",
             "verdict": verdict, "expected": exp, "as_expected": verdict == exp or exp == ""}
            for t, v, c, verdict, exp in rows
        ]
    )  # fmt: skip


def test_tabulate_counts_per_row():
    # per seed: (theorem, variant, cell, verdict, expected) of rows a.x.0, a.x.1, b.y.0 ("" = no expected verdict)
    verdicts = {1: ("HOLDS", "VIOLATED", "HOLDS"), 2: ("VIOLATED", "VIOLATED", "VIOLATED"),
                5: ("INCONCLUSIVE", "HOLDS", "HOLDS")}  # fmt: skip
    keys = (("a", "x", 0, "HOLDS"), ("a", "x", 1, "VIOLATED"), ("b", "y", 0, ""))
    frames = {s: _cells([(t, v, c, got, exp) for (t, v, c, exp), got in zip(keys, vs)]) for s, vs in verdicts.items()}
    t = tabulate(frames).set_index(["theorem", "variant", "cell"])
    assert list(tabulate(frames).columns) == list(CALIBRATION_COLUMNS)
    r = t.loc[("a", "x", 0)]
    assert (r.seeds, r.unexpected, r.HOLDS, r.VIOLATED, r.INCONCLUSIVE, r.unexpected_seeds) == (3, 2, 1, 1, 1, "2,5")
    assert r.unexpected_rate == pytest.approx(2 / 3)
    r = t.loc[("a", "x", 1)]
    assert (r.unexpected, r.VIOLATED, r.HOLDS, r.unexpected_seeds) == (1, 2, 1, "5")
    r = t.loc[("b", "y", 0)]  # no expected verdict: never unexpected
    assert (r.unexpected, r.unexpected_seeds, r.expected) == (0, "", "")


# ------------------------------------------------------------------------- runs, resume and exit codes


def test_calibrate_matches_independent_oracle_and_resumes(tmp_path):
    out = tmp_path / "cal"
    seen = []
    res = calibrate(
        FLAKY.id, seeds=(1, 2, 3, 4), out=out, backend="serial", on_seed=lambda s, st, c: seen.append((s, st))
    )
    assert seen == [(s, "ran") for s in (1, 2, 3, 4)]
    want = {c: [s for s in (1, 2, 3, 4) if _oracle_unexpected(s, c)] for c in (0, 1)}
    assert want[0] == [] and 0 < len(want[1]) < 4  # these seeds exercise both outcomes
    t = res.table.set_index("cell")
    for c in (0, 1):
        assert t.loc[c, "unexpected_seeds"] == ",".join(map(str, want[c]))
        assert t.loc[c, "unexpected"] == len(want[c]) and t.loc[c, "seeds"] == 4
    assert res.runs_unexpected == tuple(want[1]) and res.unexpected == len(want[1])
    line = res.summary_line()
    assert line.startswith(f"4 seeds x 2 rows: {len(want[1])} unexpected; runs with any unexpected: {len(want[1])}/4")
    assert "exact 99% CI" in line and "false-VIOLATED probability <= 0.01" in line
    csv = pd.read_csv(out / "calibration.csv", keep_default_na=False)
    assert list(csv.columns) == list(CALIBRATION_COLUMNS) and csv["unexpected"].sum() == len(want[1])
    assert not list(out.glob(".*.tmp"))

    # resume: finished seeds are read back, not rerun (their files untouched); a new seed runs
    stamp = {p: p.stat().st_mtime_ns for p in (out / "seed-2").rglob("*") if p.is_file()}
    seen.clear()
    res2 = calibrate(
        FLAKY.id, seeds=(1, 2, 3, 4, 5), out=out, backend="serial", on_seed=lambda s, st, c: seen.append((s, st))
    )
    assert seen == [(1, "complete"), (2, "complete"), (3, "complete"), (4, "complete"), (5, "ran")]
    assert res2.skipped == (1, 2, 3, 4)
    assert stamp == {p: p.stat().st_mtime_ns for p in (out / "seed-2").rglob("*") if p.is_file()}
    assert res2.table.set_index("cell").loc[1, "unexpected"] == len(want[1]) + _oracle_unexpected(5, 1)

    # another profile/alpha in the same directory is refused, not overwritten
    with pytest.raises(RpcheckError, match="alpha=0.01 \\(now 0.05\\)"):
        calibrate(FLAKY.id, seeds=(1,), out=out, backend="serial", alpha=0.05)


def test_interrupted_seed_is_resumed_not_discarded(tmp_path):
    out = tmp_path / "cal"
    calibrate(FLAKY.id, seeds=(7,), out=out, backend="serial")
    os.unlink(out / "seed-7" / "provenance.json")  # as if killed before the run's last write
    chunks = sorted((out / "seed-7" / "checkpoints").rglob("*.npz"))
    assert chunks
    stamp = {p: p.stat().st_mtime_ns for p in chunks}
    seen = []
    calibrate(FLAKY.id, seeds=(7,), out=out, backend="serial", on_seed=lambda s, st, c: seen.append(st))
    assert seen == ["ran"] and (out / "seed-7" / "provenance.json").is_file()
    assert stamp == {p: p.stat().st_mtime_ns for p in chunks}  # checkpoints reused, not rewritten


def test_foreign_directory_is_refused(tmp_path):
    (tmp_path / "mine.txt").write_text("user data")
    with pytest.raises(RpcheckError, match="did not write"):
        calibrate(FLAKY.id, seeds=(1,), out=tmp_path, backend="serial")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]


def test_cli_exit_codes_and_output(tmp_path, capsys):
    bad = next(s for s in range(1, 20) if _oracle_unexpected(s, 1))
    good = next(s for s in range(1, 20) if not _oracle_unexpected(s, 1))
    code = main(
        ["calibrate", "--seeds", str(bad), "--theorem", FLAKY.id, "--out", str(tmp_path / "a"), "--backend", "serial"]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert f"UNEXPECTED {FLAKY.id} · claim (deterministic, claim) cell 1" in out
    assert f"  seed {bad}: VIOLATED (expected HOLDS)" in out
    assert "1 seeds x 2 rows: 1 unexpected; runs with any unexpected: 1/1" in out
    code = main(
        ["calibrate", "--seeds", str(good), "--theorem", FLAKY.id, "--out", str(tmp_path / "b"), "--backend", "serial"]
    )
    out = capsys.readouterr().out
    assert code == 0 and "1 seeds x 2 rows: 0 unexpected; runs with any unexpected: 0/1" in out
    assert json.loads((tmp_path / "b" / "rpcheck-calibration.json").read_text())["theorems"] == [FLAKY.id]

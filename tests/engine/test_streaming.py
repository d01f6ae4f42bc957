"""The parent's memory is flat in the number of trials: counts and extremes are aggregated, only the first
TRIAL_SAMPLE trials of a cell are kept, every trial is streamed to the checkpoint files (a temporary
directory when there is no ``out``), and report-mode hooks read their cell back from those files.

Oracle: the same run with a sample larger than every cell (the whole cell kept, as before streaming)."""

import bisect

import _engine_claims  # noqa: F401  (the engine_test.* theorems; conftest.py registers them)
import numpy as np
import pandas as pd
import pytest

from rpcheck.engine import aggregate, decide, load_trials, plan, run

SEED = 77


@pytest.fixture(scope="module")
def full_and_sampled(tmp_path_factory):
    out = tmp_path_factory.mktemp("streaming") / "res"
    ths = ["engine_test.bernoulli", "engine_test.det", "engine_test.report"]
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(plan, "TRIAL_SAMPLE", 10**6)
        full = run(ths, backend="serial", seed=SEED)
        mp.setattr(plan, "TRIAL_SAMPLE", 30)
        sampled = run(ths, backend="serial", seed=SEED, out=out)
    finally:
        mp.undo()
    return full, sampled, out


def test_counts_extremes_and_verdicts_do_not_depend_on_the_sample(full_and_sampled):
    full, sampled, _ = full_and_sampled
    same = [c for c in full.cells.columns if c not in ("seconds", "stat_q05", "stat_q50", "stat_q95", "bound_q50")]
    pd.testing.assert_frame_equal(sampled.cells[same], full.cells[same], check_exact=True)
    # the report hook saw all 50 trials of its cells although only 30 were kept in memory
    assert set(sampled.cells.loc[sampled.cells["theorem"] == "engine_test.report", "decide_info"].map(
        lambda s: __import__("json").loads(s)["n"])) == {50}  # fmt: skip
    # a counterexample (worst failure over all trials) is found whatever the sample
    assert (sampled.cells["counterexample"] == full.cells["counterexample"]).all()


def test_trials_is_the_first_sample_and_load_trials_reads_all(full_and_sampled):
    full, sampled, out = full_and_sampled
    t = sampled.trials
    assert (t.groupby(["theorem", "cell"])["trial"].max() == 29).all() and len(t) == 8 * 30
    ref = full.trials.drop(columns=["seconds"])
    head = ref[ref["trial"] < 30].reset_index(drop=True)
    pd.testing.assert_frame_equal(t.drop(columns=["seconds"]), head, check_exact=True)
    everything = load_trials(out).drop(columns=["seconds"])
    pd.testing.assert_frame_equal(everything, ref, check_exact=True)


def test_quantiles_come_from_the_sample(full_and_sampled):
    full, sampled, _ = full_and_sampled
    row = sampled.cells[(sampled.cells["theorem"] == "engine_test.bernoulli") & (sampled.cells["cell"] == 1)].iloc[0]
    t = full.trials
    u = t[(t["theorem"] == "engine_test.bernoulli") & (t["cell"] == 1) & (t["trial"] < 30)]["bound.statistic"]
    assert row["stat_q50"] == float(np.quantile(u.to_numpy(), 0.5))
    cell_1 = t[(t["theorem"] == "engine_test.bernoulli") & (t["cell"] == 1)]
    assert row["stat_max"] == float(cell_1["bound.statistic"].max())


def test_spill_directory_is_removed(monkeypatch):
    import tempfile

    made = []
    real = tempfile.mkdtemp

    def spy(*a, **k):
        made.append(real(*a, **k))
        return made[-1]

    monkeypatch.setattr(tempfile, "mkdtemp", spy)
    run("engine_test.det", backend="serial", trials=5, seed=SEED)
    assert len(made) == 1 and made[0].split("/")[-1].startswith("rpcheck-run-")
    assert not __import__("os").path.exists(made[0])


def test_aggregate_is_order_independent():
    """Ingesting the chunks of a cell in any order (as parallel backends do) gives the same aggregate."""
    from rpcheck.engine._worker import _run_chunk

    th = _engine_claims.DET
    canonical = '{"fail_p":0.3,"solver_p":0.1,"vac_p":0.2}'
    chunks = [(s, s + 7, _run_chunk(th, None, canonical, s, s + 7, 3)) for s in range(0, 63, 7)]

    def agg(order):
        a = aggregate._CellAggregate((21, 42, 63), 2, 63, 10)
        for k in order:
            a.ingest(*chunks[k])
        a.ingest(*chunks[0])  # a duplicate chunk is ignored
        return a

    a, b = agg(range(9)), agg([8, 3, 0, 5, 1, 7, 2, 6, 4])
    assert np.array_equal(a.bins, b.bins) and a.intervals == b.intervals == [(0, 63)]
    for nb in (1, 2, 3):
        for j in (0, 1):
            assert a.counts(j, nb) == b.counts(j, nb)
            wa, wb = a.worst_failure(j, nb), b.worst_failure(j, nb)
            assert (wa is None and wb is None) or wa[0] == wb[0]
    assert a.missing(70) == [(63, 70)] and sorted(a.sample) == list(range(10))


def test_hook_records_read_back_equal_the_trials_records(tmp_path, monkeypatch):
    """The decide hook's records, read back from the chunk columns (outcomes built on access), equal the
    records the trial function returned, trial by trial: every variant's Outcome and every diagnostic."""
    from rpcheck.engine import get
    from rpcheck.engine._worker import run_trial

    seen = {}
    th = get("engine_test.report")

    def spy(records, params):
        seen[params["mu"]] = records
        return _engine_claims.report_decide(records, params)

    monkeypatch.setattr(decide, "_decide_hook", lambda t, cell, recs: (spy(recs, dict(cell.params))[0], {}))
    run([th], backend="serial", seed=SEED, out=tmp_path / "r")
    assert set(seen) == {-2.0, 2.0}
    for mu, recs in seen.items():
        assert len(recs) == 50
        for i, rec in enumerate(recs):
            _, want = run_trial(th, {"mu": mu}, i, SEED)
            assert repr(dict(rec.outcomes)) == repr(dict(want.outcomes)) and list(rec.outcomes) == ["mean"]  # NaN bound
            assert len(rec.outcomes) == 1 and "mean" in rec.outcomes and "other" not in rec.outcomes
            assert rec.diagnostics == want.diagnostics
        with pytest.raises(KeyError):
            recs[0].outcomes["other"]


def _add_one(self, r):
    """One trial at a time into the aggregate ``self``: the engine's former ``_CellAggregate._add``, the
    reference for the vectorised ``_CellAggregate.ingest``."""
    i = r.i
    b = bisect.bisect_right(self.looks, i)
    self.ingested += 1
    self.attempted[b] += 1
    self.seconds[b] += r.seconds
    if i < self.sample_size:
        self.sample[i] = r
    bins = self.bins[b]
    if r.status != "ok":
        bins[:, 3] += 1
        return
    smax, smin, worst, first = self.stat_max[b], self.slack_min[b], self.worst[b], self.first_fail[b]
    for j, o in enumerate(r.outcomes):
        if o.vacuous:
            bins[j, 4] += 1
            continue
        bins[j, 1] += 1
        stat = o.statistic
        slack = o.bound - stat
        if stat == stat and not (stat <= smax[j]):  # NaN statistics are ignored
            smax[j] = stat
        slack_ok = slack == slack
        if slack_ok and not (slack >= smin[j]):
            smin[j] = slack
        if o.undetermined:
            bins[j, 2] += 1
        elif not o.holds:
            bins[j, 0] += 1
            if first[j] is None or i < first[j][0]:
                first[j] = (i, r)
            if slack_ok and (worst[j] is None or (slack, i) < worst[j][:2]):
                worst[j] = (slack, i, r)


def _agg_state(a):
    def rec_id(x):
        return None if x is None else (x[0], x[1], id(x[-1])) if len(x) == 3 else (x[0], id(x[1]))

    return (a.bins.tolist(), a.attempted.tolist(), repr(a.stat_max), repr(a.slack_min),
            [[rec_id(w) for w in row] for row in a.worst], [[rec_id(f) for f in row] for row in a.first_fail],
            {i: id(r) for i, r in a.sample.items()}, a.intervals, a.ingested)  # fmt: skip


@pytest.mark.parametrize("seed", range(12))
def test_vectorised_ingest_equals_adding_one_trial_at_a_time(seed):
    """``_CellAggregate.ingest`` (vectorised per chunk) against ``_add_one`` in trial order, on chunks with
    NaN statistics and slacks, +-0.0 and equal extremes, ties of the worst slack, vacuous and undetermined
    outcomes, solver errors, trials beyond n, look segments inside a chunk, and a chunk given twice."""
    from rpcheck.engine._worker import OutcomeRow, TrialResult

    rng = np.random.default_rng(seed)
    n, v = 120, 3
    looks = (30, 75, 120)
    pool = np.array([0.0, -0.0, 1.0, -1.0, 0.5, np.nan, np.inf, -np.inf])
    recs = []
    for i in range(n + 5):
        if rng.random() < 0.1:
            recs.append(TrialResult(i, "solver_error", "SolverError: x", 0.001, (), {}))
            continue
        outs = tuple(OutcomeRow(bool(rng.random() < 0.6), float(rng.choice(pool)), float(rng.choice(pool)),
                                bool(rng.random() < 0.15), bool(rng.random() < 0.1)) for _ in range(v))  # fmt: skip
        recs.append(TrialResult(i, "ok", "", float(rng.random()), outs, {}))
    ref = aggregate._CellAggregate(looks, v, n, 40)
    for r in recs:
        if r.i < n:
            _add_one(ref, r)
    ref._cover(0, n)
    got = aggregate._CellAggregate(looks, v, n, 40)
    cuts = sorted(set(rng.choice(np.arange(1, n + 5), size=6, replace=False).tolist()) | {0, n + 5})
    chunks = [(a, b, recs[a:b]) for a, b in zip(cuts[:-1], cuts[1:])]
    order = rng.permutation(len(chunks))
    for k in order:
        got.ingest(*chunks[k])
    got.ingest(*chunks[order[0]])  # a duplicate chunk changes nothing
    assert _agg_state(got) == _agg_state(ref)


def _retained_records(agg):
    """Records a cell's aggregate holds: the sample, plus the worst and first failures kept per segment."""
    kept = {id(r) for r in agg.sample.values()}
    for seg in (*agg.worst, *agg.first_fail):
        kept |= {id(t[-1]) for t in seg if t is not None}
    return len(kept)


def test_parent_retained_records_per_cell_stay_bounded_as_trials_grow(monkeypatch):
    """The memory model of rpcheck.engine.aggregate ("Memory"): per cell, the parent keeps the first TRIAL_SAMPLE
    records plus one worst and one first failure per variant and look segment, whatever the number of trials."""
    from rpcheck.engine import plan as runner_mod  # where _Cell reads TRIAL_SAMPLE and builds its aggregate

    monkeypatch.setattr(runner_mod, "TRIAL_SAMPLE", 40)
    aggs = []
    real = runner_mod._CellAggregate

    def spy(*a, **k):
        aggs.append(real(*a, **k))
        return aggs[-1]

    monkeypatch.setattr(runner_mod, "_CellAggregate", spy)
    kept = {}
    for n in (100, 1000, 4000):
        aggs.clear()
        res = run("engine_test.bernoulli", trials=n, backend="serial", seed=3)
        n_variants = len(res.cells["variant"].unique())
        bound = 40 + 2 * n_variants * len(aggs[0].looks)
        kept[n] = [_retained_records(a) for a in aggs]
        assert all(k <= bound for k in kept[n]), (n, kept[n], bound)
        assert res.trials.groupby("cell").size().max() == 40  # RunResult.trials: the sample only
        assert int(res.cells["evaluated"].max()) == n  # while the counts cover every trial
    assert max(kept[4000]) <= max(kept[100]) + 2, kept  # flat in the number of trials

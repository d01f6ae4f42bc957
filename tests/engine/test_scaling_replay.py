"""benchmarks/full_scaling_estimate.py: its replay of the engine's scheduling must keep the bounds any schedule
of the same chunks obeys, chunk a cell as the engine does, and read a run directory's trial times (the
2,000-trial sample extended to the cell's recorded total) as the engine wrote them."""

import numpy as np
import pytest
from _bench_scripts import load_bench_script

from rpcheck.engine import run
from rpcheck.engine import runner as runner_mod


@pytest.fixture(scope="module")
def mod():
    return load_bench_script("full_scaling_estimate")


def _cells(seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(12):
        n = int(rng.integers(1, 400))
        scale = 10.0 ** rng.uniform(-4, 1)  # microseconds to seconds a trial
        out.append(rng.exponential(scale, n))
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("workers", [1, 2, 5, 64])
def test_replay_obeys_the_scheduling_bounds(mod, seed, workers):
    """No schedule beats max(work / P, longest trial); a greedy one of chains probe -> rest is within
    work / P + the longest chain (Graham), and a chain is at most its cell's total."""
    cells = _cells(seed)
    span, chunks = mod.replay(cells, workers)
    work = sum(float(c.sum()) for c in cells)
    longest = max(float(c.max()) for c in cells)
    assert span >= max(work / workers, longest) * (1 - 1e-12)
    assert span <= work / workers + max(float(c.sum()) for c in cells) * (1 + 1e-12)
    assert chunks >= len(cells)
    if workers == 1:
        assert span == pytest.approx(work, rel=1e-12)  # one worker is never idle


def test_replay_chunks_a_cell_as_the_engine_does(mod):
    """The engine's serial run of engine_test.bernoulli (64 microsecond trials a cell) makes a probe and one
    more chunk per cell; the replay, given trials of microseconds on one worker, makes the same chunks."""
    chunks = []

    def progress(done, total, info):
        if info["event"] == "chunk":
            chunks.append(done)

    run(["engine_test.bernoulli"], backend="serial", trials=64, seed=1, progress=progress)
    n_cells = len(chunks) // 2
    _, replayed = mod.replay([np.full(64, 1e-6)] * n_cells, 1, backend="serial")
    assert replayed == len(chunks) == 2 * n_cells


def _results_dir(out, n, seed):
    """A results directory of engine_test.bernoulli with ``n`` trials a cell, in the layout of ``rpcheck check
    --out`` (cells.parquet, trials/<id>.parquet), and the run's result."""
    res = run(["engine_test.bernoulli"], backend="serial", trials=n, seed=seed, out=out)
    res.cells.to_parquet(out / "cells.parquet")
    (out / "trials").mkdir(exist_ok=True)
    res.trials.to_parquet(out / "trials" / "engine_test.bernoulli.parquet")
    return res


def test_load_cells_reads_the_sample_and_the_cell_totals(mod, tmp_path):
    """A cell of more than TRIAL_SAMPLE trials keeps only its first TRIAL_SAMPLE trial times; the loader
    extends them to the cell's size with the cell's recorded total, and scales by the ledger's CPU."""
    out = tmp_path / "res"
    n = runner_mod.TRIAL_SAMPLE + 500
    res = _results_dir(out, n, seed=3)
    totals = res.cells.groupby("cell")["seconds"].max()
    assert (res.trials.groupby("cell").size() == runner_mod.TRIAL_SAMPLE).all()
    trial_seconds = float(totals.sum())
    row = {"cpu_seconds": 2 * trial_seconds + 1.0, "phase_seconds": {"decide_and_tabulate": 1.0}}
    cells, factor = mod.load_cells(out, row)
    assert factor == pytest.approx(2.0, rel=1e-12)
    assert sorted(cells) == sorted(int(c) for c in totals.index)
    for c, s in cells.items():
        assert len(s) == n
        assert float(s.sum()) == pytest.approx(2.0 * float(totals.loc[c]), rel=1e-9)
    # a lower-bound CPU leaves the times unscaled
    cells, factor = mod.load_cells(out, dict(row, cpu_is_lower_bound=True))
    assert factor == 1.0
    assert sum(float(s.sum()) for s in cells.values()) == pytest.approx(trial_seconds, rel=1e-9)
    # a SIGSTOP hold is taken off every sampled trial that lasted longer, and off its cell's total
    hold = float(np.median(res.trials["seconds"]))
    cells, _ = mod.load_cells(out, dict(row, cpu_is_lower_bound=True, paused_seconds=hold))
    for c, s in cells.items():
        sample = res.trials.loc[res.trials["cell"] == c, "seconds"].to_numpy()
        removed = hold * int((sample > hold).sum())
        assert float(s.sum()) == pytest.approx(float(totals.loc[c]) - removed, rel=1e-9)


def test_a_committed_trace_replays_as_its_results_directory(mod, tmp_path):
    """full_by_theorem.write_trace keeps, in the repository, the columns the replay reads: loaded from the trace,
    every cell's trial times are the results directory's, to the bit, and so is the replay."""
    driver = load_bench_script("full_by_theorem")
    runs = tmp_path / "runs"
    out = runs / "engine_test.bernoulli"
    res = _results_dir(out, runner_mod.TRIAL_SAMPLE + 300, seed=4)
    dst = driver.write_trace("engine_test.bernoulli", runs, dest=tmp_path / "traces")
    assert dst == tmp_path / "traces" / "engine_test.bernoulli"
    row = {"cpu_seconds": 3.0 * float(res.cells.groupby("cell")["seconds"].max().sum()) + 0.5,
           "phase_seconds": {"decide_and_tabulate": 0.5}}
    from_dir, f_dir = mod.load_cells(out, row)
    from_trace, f_trace = mod.load_cells(dst, row)
    assert f_trace == f_dir
    assert sorted(from_trace) == sorted(from_dir)
    for c in from_dir:
        np.testing.assert_array_equal(from_trace[c], from_dir[c])
    assert mod.replay(list(from_trace.values()), 3) == mod.replay(list(from_dir.values()), 3)
    # a directory without completed results writes nothing
    assert driver.write_trace("engine_test.missing", runs, dest=tmp_path / "traces") is None
    assert not (tmp_path / "traces" / "engine_test.missing").exists()

"""Reading a results directory back into a :class:`rpcheck.results.RunResult`."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ..errors import RpcheckError
from .store import read_json, read_table

__all__ = ["load_results", "load_trials"]


def load_results(path):
    """Load ``cells``, ``trials`` (Parquet or CSV), ``provenance.json`` of a results directory.

    The ``p_<name>`` columns are rebuilt from the canonical ``params`` JSON, so their values are exact even
    when a column had to be stored as strings (a parameter with different types across theorems).
    Counterexamples stay on disk (the ``counterexample`` column holds paths relative to ``path``; use
    :func:`rpcheck.engine.load_counterexample` or :func:`rpcheck.engine.replay`).
    """
    from ..results import RunResult

    path = Path(path)
    if not path.is_dir():
        raise RpcheckError(f"`path` ({str(path)!r}) is not a results directory.")
    try:
        cells = read_table(path, "cells")
        trials = read_table(path, "trials")
    except FileNotFoundError as exc:
        raise RpcheckError(f"`path` ({str(path)!r}) holds no complete results: {exc}.") from None
    prov = read_json(path / "provenance.json", "provenance file")
    if len(cells):
        decoded = [json.loads(p) for p in cells["params"]]
        for col in [c for c in cells.columns if c.startswith("p_")]:
            name = col[2:]
            cells[col] = [d.get(name) for d in decoded]
        for col in ("expected", "expected_declared", "vacuous_reason", "counterexample", "assumed", "decide_info", "claim"):
            if col in cells:
                cells[col] = [("" if pd.isna(v) else str(v)) for v in cells[col]]
        cells["as_expected"] = cells["as_expected"].astype(bool)
    if len(trials) and "error" in trials:
        trials["error"] = [("" if pd.isna(v) else str(v)) for v in trials["error"]]
    return RunResult(cells, trials, prov, {}, path)


def load_trials(path):
    """Every trial of a results directory, read from its checkpoint files (``checkpoints/``), as a frame with
    the columns of ``RunResult.trials``.

    ``RunResult.trials`` and ``trials.parquet`` hold only the first
    :data:`rpcheck.engine.runner.TRIAL_SAMPLE` trials of each cell (the parent's memory stays flat in the
    number of trials); this function loads all of them (the trials ``< trials`` of each cell row, so a
    sequential cell that stopped early gets exactly the trials its verdict used), in memory.
    """
    from .runner import _concat_trial_frames, _records_frame
    from .store import CheckpointStore

    res = load_results(path)
    if not (Path(path) / "checkpoints").is_dir():
        raise RpcheckError(f"`path` ({str(path)!r}) has no checkpoints/ folder: its trials were not kept.")
    seed = int(res.provenance["seed"])
    store = CheckpointStore(path)
    frames = []
    cells = res.cells
    for (tid, cell), rows in cells.groupby(["theorem", "cell"], sort=True):
        names = list(dict.fromkeys(rows["variant"]))
        canonical = str(rows["params"].iloc[0])
        stop = int(rows["trials"].iloc[0])
        found = {}
        for _, _, recs in store.iter_chunks(tid, canonical, seed, names):
            for r in recs:
                if r.i < stop:
                    found[r.i] = r
        frames.append(_records_frame(tid, int(cell), names, [found[i] for i in sorted(found)]))
    return _concat_trial_frames(frames)

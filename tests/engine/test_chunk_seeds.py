"""The vectorised per-chunk seeding (rpcheck.engine._worker._chunk_rngs) equals the documented per-trial
SeedSequence, draw for draw, including the seed sequence's own behaviour (spawn, attributes, pickling), and
the columnar checkpoint writer equals a per-trial reference."""

import math
import pickle

import numpy as np
import pytest

from rpcheck.engine._worker import (
    OutcomeRow,
    TrialResult,
    _chunk_rngs,
    _chunk_seed_words,
    trial_rng,
)
from rpcheck.engine.store import _FIELDS, _chunk_arrays

SEEDS = (0, 1, 45, 2**32 - 1, 2**32, 2**63 - 1, 2**64 + 5, 2**127, 2**130 + 7)
RANGES = ((0, 5), (250, 256), (2**32 - 3, 2**32))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("start,stop", RANGES)
def test_chunk_rngs_equal_trial_rng(seed, start, stop):
    tid, can = "shi2012.fig1", '{"a":0.5,"kind":"gaussian"}'
    assert _chunk_seed_words(tid, can, seed, start, stop) is not None  # the shortcut applies
    for i, g in zip(range(start, stop), _chunk_rngs(tid, can, seed, start, stop), strict=True):
        r = trial_rng(tid, can, i, seed)
        assert g.bit_generator.state == r.bit_generator.state
        assert np.array_equal(g.standard_normal(4), r.standard_normal(4))
        ss_g, ss_r = g.bit_generator.seed_seq, r.bit_generator.seed_seq
        assert (ss_g.entropy, ss_g.spawn_key) == (ss_r.entropy, ss_r.spawn_key)
        assert np.array_equal(ss_g.generate_state(3), ss_r.generate_state(3))


def test_chunk_rngs_spawn_and_pickle_like_the_real_seed_sequence():
    tid, can, seed = "x.y", "{}", 7
    g = next(_chunk_rngs(tid, can, seed, 3, 4))
    r = trial_rng(tid, can, 3, seed)
    assert [c.random() for c in g.spawn(3)] == [c.random() for c in r.spawn(3)]
    assert [c.random() for c in g.spawn(1)] == [c.random() for c in r.spawn(1)]  # children counted alike
    g2 = pickle.loads(pickle.dumps(next(_chunk_rngs(tid, can, seed, 3, 4))))
    assert g2.random() == trial_rng(tid, can, 3, seed).random()


def test_chunk_rngs_fall_back_beyond_32_bit_indices():
    tid, can = "x.y", "{}"
    assert _chunk_seed_words(tid, can, 0, 2**32, 2**32 + 2) is None
    for i, g in zip(range(2**32, 2**32 + 2), _chunk_rngs(tid, can, 0, 2**32, 2**32 + 2), strict=True):
        assert g.random() == trial_rng(tid, can, i, 0).random()


def _reference_chunk_arrays(records, v):
    """The per-trial construction of the outcome and diagnostic columns (before they were batched)."""
    n = len(records)
    out = {}
    for k, (f, dt) in enumerate(_FIELDS):
        col = np.full((n, v), np.nan if dt is np.float64 else False, dtype=dt)
        for t, r in enumerate(records):
            if r.status == "ok":
                col[t, :] = [o[k] for o in r.outcomes]
        out[f] = col
    names = sorted({k for r in records for k in r.diagnostics})
    value = np.full((n, len(names)), np.nan)
    present = np.zeros((n, len(names)), dtype=bool)
    for t, r in enumerate(records):
        for k, x in r.diagnostics.items():
            value[t, names.index(k)] = x
            present[t, names.index(k)] = True
    out["diag_value"], out["diag_present"] = value, present
    return out


def test_chunk_arrays_equal_the_per_trial_construction():
    rng = np.random.default_rng(0)
    for _ in range(200):
        n, v = int(rng.integers(0, 10)), int(rng.integers(1, 4))
        recs = []
        for i in range(n):
            if rng.random() < 0.2:
                recs.append(TrialResult(i, "solver_error", "SolverError: x", 0.1, (), {}))
                continue
            outs = tuple(
                OutcomeRow(bool(rng.random() < 0.5), float(rng.choice([rng.normal(), math.nan, -math.inf])),
                           float(rng.normal()), bool(rng.random() < 0.1), bool(rng.random() < 0.1))
                for _ in range(v)
            )  # fmt: skip
            keys = ["a", "b"] if rng.random() < 0.7 else list(rng.choice(["a", "z"], size=int(rng.integers(0, 3))))
            recs.append(TrialResult(i, "ok", "", float(rng.random()), outs, {k: float(rng.normal()) for k in keys}))
        got = _chunk_arrays({}, recs, ["v"] * v)
        for k, want in _reference_chunk_arrays(recs, v).items():
            assert got[k].dtype == want.dtype and got[k].shape == want.shape, k
            assert got[k].tobytes() == want.tobytes(), k


def _same_result(a, b):
    """Two TrialResults equal field by field, NaN equal to NaN and -0.0 told apart from 0.0 (bitwise)."""
    assert (a.i, a.status, a.error) == (b.i, b.status, b.error)
    assert np.float64(a.seconds).tobytes() == np.float64(b.seconds).tobytes()
    assert len(a.outcomes) == len(b.outcomes)
    for x, y in zip(a.outcomes, b.outcomes, strict=True):
        assert type(x) is type(y) and [type(f) for f in x] == [type(f) for f in y]
        assert np.array(x, dtype=np.float64).tobytes() == np.array(y, dtype=np.float64).tobytes()
    assert sorted(a.diagnostics) == list(b.diagnostics)  # rebuilt in sorted-name order, as from a checkpoint
    for k in a.diagnostics:
        assert np.float64(a.diagnostics[k]).tobytes() == np.float64(b.diagnostics[k]).tobytes()


def test_chunk_result_rebuilds_every_trial_result_and_survives_pickling():
    """What a worker sends (store.ChunkResult) gives back, by position, TrialResults equal to the worker's,
    and the same checkpoint columns as the list it was built from."""
    from rpcheck.engine.store import ChunkResult

    rng = np.random.default_rng(1)
    specials = [math.nan, -math.inf, math.inf, -0.0, 0.0, 5e-324]
    for _ in range(200):
        n, v = int(rng.integers(0, 10)), int(rng.integers(0, 4))
        recs = []
        for i in range(n):
            if rng.random() < 0.2:
                recs.append(TrialResult(10 + i, "solver_error", f"SolverError: x{i}", 0.1, (), {}))
                continue
            outs = tuple(
                OutcomeRow(bool(rng.random() < 0.5), float(rng.choice([rng.normal(), *specials])),
                           float(rng.choice([rng.normal(), *specials])), bool(rng.random() < 0.1),
                           bool(rng.random() < 0.1))
                for _ in range(v)
            )  # fmt: skip
            keys = ["b", "a"] if rng.random() < 0.7 else list(rng.choice(["a", "z"], size=int(rng.integers(0, 3))))
            diag = {str(k): float(rng.choice([rng.normal(), *specials])) for k in keys}
            recs.append(TrialResult(10 + i, "ok", "", float(rng.random()), outs, diag))
        chunk = pickle.loads(pickle.dumps(ChunkResult.from_records(recs, v), protocol=5))
        assert len(chunk) == n and bool(chunk) == bool(n)
        for t in range(n):
            _same_result(recs[t], chunk[t])
            _same_result(recs[t], chunk[np.int64(t)])
        assert [r.i for r in chunk] == [r.i for r in recs]
        with pytest.raises(IndexError):
            chunk[n]
        want = _chunk_arrays({}, recs, ["v"] * v)
        got = _chunk_arrays({}, chunk, ["v"] * v)
        assert sorted(got) == sorted(want)
        for k in want:
            assert got[k].dtype == want[k].dtype and got[k].tobytes() == want[k].tobytes(), k

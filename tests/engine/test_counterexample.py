"""Counterexamples of violated deterministic claims: saved as .npz without pickles, loaded, replayed."""

import json

import _engine_claims  # noqa: F401  (the engine_test.* theorems; conftest.py registers them)
import numpy as np
import pytest

from rpcheck.engine import load_counterexample, replay, replay_trial, run


@pytest.fixture(scope="module")
def violated(tmp_path_factory):
    out = tmp_path_factory.mktemp("ce")
    res = run("engine_test.det", backend="processes", jobs=2, trials=60, seed=5, out=out)
    return out, res


def test_counterexample_saved_for_violated_deterministic_cell(violated):
    out, res = violated
    rows = res.cells[res.cells["counterexample"] != ""]
    assert list(zip(rows["variant"], rows["cell"])) == [("claim", 1)]
    assert (rows["verdict"] == "VIOLATED").all()
    path = out / rows["counterexample"].iloc[0]
    assert path.exists() and path.parent.name == "counterexamples"
    with np.load(path, allow_pickle=False) as z:  # readable without pickles
        meta = json.loads(str(z["meta"][()]))
    assert meta["theorem"] == "engine_test.det" and meta["variant"] == "claim" and meta["seed"] == 5
    assert meta["reproduced"] is True
    assert meta["replayed_in"] == "the main process"  # a trial of well under REPLAY_IN_WORKERS_SECONDS


def test_slow_replays_run_in_workers_and_save_the_same_file(violated, tmp_path, monkeypatch):
    """With every replay counted as slow, the worst trial is recomputed in a worker process of the backend
    that ran the trials (opened once for both); the file is the same as the main process's, except where the
    replay ran."""
    from rpcheck.engine import backends, replays

    out, res = violated
    opened, real = [], backends.open_backend
    monkeypatch.setattr(backends, "open_backend", lambda *a, **kw: opened.append(a) or real(*a, **kw))
    monkeypatch.setattr(replays, "REPLAY_IN_WORKERS_SECONDS", 0.0)
    res2 = run("engine_test.det", backend="processes", jobs=2, trials=60, seed=5, out=tmp_path)
    assert opened == [("processes",)]
    rel = res.cells.loc[res.cells["counterexample"] != "", "counterexample"].iloc[0]
    assert list(res2.cells["counterexample"]) == list(res.cells["counterexample"])
    with np.load(out / rel, allow_pickle=False) as a, np.load(tmp_path / rel, allow_pickle=False) as b:
        assert sorted(a.files) == sorted(b.files)
        for name in a.files:
            if name != "meta":
                assert np.array_equal(a[name], b[name]), name
        ma, mb = json.loads(str(a["meta"][()])), json.loads(str(b["meta"][()]))
    assert mb["replayed_in"] == "a worker process" and mb["reproduced"] is True
    assert {k: v for k, v in ma.items() if k != "replayed_in"} == {k: v for k, v in mb.items() if k != "replayed_in"}


def test_worst_violating_trial_is_saved(violated):
    out, res = violated
    ce = load_counterexample(out / res.cells.loc[res.cells["counterexample"] != "", "counterexample"].iloc[0])
    t = res.trials
    cell = t[(t["theorem"] == "engine_test.det") & (t["cell"] == 1) & (t["claim.holds"] == False)]  # noqa: E712
    slack = cell["claim.bound"] - cell["claim.statistic"]
    assert ce.meta["trial"] == int(cell.loc[slack.idxmin(), "trial"])
    assert ce.meta["outcomes"]["claim"]["holds"] is False
    assert ce.params == {"fail_p": 0.05, "solver_p": 0.0, "vac_p": 0.0}
    # the artifacts are the trial's data instance, exactly
    rec = replay_trial("engine_test.det", ce.params, ce.meta["trial"], 5)
    assert np.array_equal(ce.artifacts["X"], rec.artifacts["X"])
    assert str(ce.artifacts["label"]) == "synthetic"


def test_replay_recomputes_and_matches(violated):
    out, res = violated
    r = replay(out / res.cells.loc[res.cells["counterexample"] != "", "counterexample"].iloc[0])
    assert r.matches and r.matches_close and r.still_violated
    assert r.recomputed["outcomes"] == r.saved["outcomes"]
    d = r.to_dict()
    assert d["matches"] and "record" not in d
    json.dumps(d)


def test_replay_detects_a_mismatch(violated, tmp_path):
    out, res = violated
    src = out / res.cells.loc[res.cells["counterexample"] != "", "counterexample"].iloc[0]
    with np.load(src, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays.pop("meta")[()]))
    meta["outcomes"]["claim"]["statistic"] += 1e-3  # tamper with the saved value
    bad = tmp_path / "tampered.npz"
    np.savez(bad, meta=np.asarray(json.dumps(meta)), **arrays)
    r = replay(bad)
    assert not r.matches and not r.matches_close and r.still_violated


def test_counterexample_kept_in_memory_without_out():
    res = run("engine_test.det", backend="serial", trials=60, seed=5)
    (rel,) = res.counterexamples
    assert res.cells["counterexample"].str.len().gt(0).sum() == 1
    arrays, meta = res.counterexamples[rel]
    assert arrays["artifact.X"].shape == (4, 3) and meta["cell"] == 1


def test_replay_api_never_imports_the_module_named_in_the_file(violated, tmp_path, monkeypatch):
    # Regression (issue "Reliability" item 5): replay() imported meta["module"] from an untrusted .npz. A module
    # planted first on sys.path, named in the file, would run on import; replay must resolve the theorem id
    # through the registry/entry points only.
    import sys

    from rpcheck.errors import RpcheckError

    out, res = violated
    src = out / res.cells.loc[res.cells["counterexample"] != "", "counterexample"].iloc[0]
    with np.load(src, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays.pop("meta")[()]))
    marker = tmp_path / "imported.txt"
    (tmp_path / "evil_mod_rpcheck.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for theorem in (meta["theorem"], "no.such.theorem"):
        meta2 = dict(meta, module="evil_mod_rpcheck", theorem=theorem)
        bad = tmp_path / f"planted-{theorem}.npz"
        np.savez(bad, meta=np.asarray(json.dumps(meta2)), **arrays)
        if theorem == meta["theorem"]:
            assert replay(bad).matches  # a known id replays through the registry
        else:
            with pytest.raises(RpcheckError, match="no.such.theorem"):
                replay(bad)
    assert not marker.exists() and "evil_mod_rpcheck" not in sys.modules

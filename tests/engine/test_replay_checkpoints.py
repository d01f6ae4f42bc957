"""benchmarks/replay_checkpoints.py: the evidence it gives for reusing checkpoints across commits must
detect a changed trial, and must report a match when nothing changed."""

import json

import numpy as np
from _bench_scripts import load_bench_script


def _replay_module():
    return load_bench_script("replay_checkpoints")


def test_replay_matches_then_detects_a_changed_statistic(tmp_path):
    from rpcheck.engine import run

    out = tmp_path / "res"
    run(["engine_test.cheap"], profile="quick", backend="serial", trials=40, out=out)
    mod = _replay_module()
    rep = tmp_path / "rep.json"
    assert mod.main([str(out), "--theorem", "engine_test.cheap", "--budget", "1", "--json", str(rep)]) == 0
    r = json.loads(rep.read_text())["engine_test.cheap"]
    assert r["status"] == "match" and r["trials"] >= 1 and r["differences"] == []

    # plant a fault: one stored statistic differs from what the code computes
    chunks = sorted((out / "checkpoints" / "engine_test.cheap").glob("*/*.npz"))
    assert chunks
    for path in chunks:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        arrays["statistic"] = arrays["statistic"] + 1.0
        np.savez(path, **arrays)
    assert mod.main([str(out), "--theorem", "engine_test.cheap", "--budget", "1", "--json", str(rep)]) == 1
    r = json.loads(rep.read_text())["engine_test.cheap"]
    assert r["status"] == "differs" and r["differences"] == ["variant bound: statistic"]


def test_timing_only_differences_are_named_as_such():
    mod = _replay_module()
    assert mod._TIMING.search("diagnostic time.srht")
    assert mod._TIMING.search("variant c23_rp_faster_than_pca: holds")
    assert not mod._TIMING.search("variant bound: statistic")
    assert not mod._TIMING.search("diagnostic names ['u']")

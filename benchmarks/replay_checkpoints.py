"""Does this code reproduce the trials a results directory's checkpoints hold?

A run resumed with ``--resume`` reuses checkpointed trials even when the code changed since they were
written (the engine only warns: ``checkpoints/manifest.json`` records the writing commit). This script
gives the evidence for such a reuse, or against it: for every theorem with checkpoints it recomputes a
sample of stored trials with the code on ``sys.path`` and compares every stored column but ``seconds``
(status, error text, the five outcome fields of every variant, every diagnostic) bit for bit; NaN equals
NaN.

Sampling: per theorem, the first trials of one chunk of each of up to ``--cells`` cells (chosen with a
fixed seed), as many trials as fit in ``--budget`` seconds by the stored per-trial time (at least one). A
theorem whose stored trials took more than ``--max-trial-seconds`` each is not replayed (``not-sampled``).
A sample that matches does not prove every trial identical (a code path the sample never takes, such as
a solver fallback, could differ); read it beside the diff of the trial code. A mismatch does prove the
code changed the trials: those checkpoints must not be reused (move the theorem's directory aside).

Usage::

    PYTHONPATH=. python benchmarks/replay_checkpoints.py RESULTS_DIR [--theorem ID ...] [--budget 3]
        [--cells 2] [--max-trial-seconds 60] [--skip ID ...] [--json OUT]

Differences confined to diagnostics and variants named as running times (``time.*``, ``t_rp``, "faster",
...) are reported as ``timing-only``: measured times differ between any two runs. Exit status 0 when every
sampled trial matched (or differed in timing only, or the theorem's variants changed: listed, not compared,
since the engine does not reuse such chunks), 1 when any sampled trial differs otherwise.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time
from pathlib import Path

import numpy as np

from rpcheck.engine import registry
from rpcheck.engine._worker import _run_chunk

_CHUNK = re.compile(r"^(\d{9})-(\d{9})\.npz$")
#: names of diagnostics and variants that are (or derive from) measured running times: they differ from run
#: to run whatever the code, so a difference confined to them is reported as "timing-only"
_TIMING = re.compile(r"(diagnostic|variant) \S*(time|faster|slower|t_rp|t_run|t_svm|trp|trun|seconds|speed)", re.I)
_FIELDS = ("holds", "statistic", "bound", "vacuous", "undetermined")  # per variant (status: per trial)


def _same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        a, b = a.astype(float), b.astype(float)
        return bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))
    return bool(np.array_equal(a, b))


def _diags(names, values, present):
    """Per trial: its diagnostics as a dict name -> value."""
    return [{str(n): float(values[t, m]) for m, n in enumerate(names) if present[t, m]}
            for t in range(values.shape[0])]


def replay_theorem(th, tdir, budget, cells, rng, max_trial_seconds=60.0):
    """Compare a sample of ``th``'s checkpointed trials; returns a dict (status 'match', 'differs',
    'variants-changed' or 'no-chunks')."""
    cell_dirs = sorted(p for p in tdir.iterdir() if p.is_dir())
    chunks = []
    for d in rng.sample(cell_dirs, min(cells, len(cell_dirs))):
        files = sorted(p for p in d.iterdir() if _CHUNK.match(p.name))
        if files:
            chunks.append(rng.choice(files))
    if not chunks:
        return {"status": "no-chunks"}
    out = {"status": "match", "trials": 0, "cells": len(chunks), "seconds": 0.0, "differences": []}
    for path in chunks:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"][()]))
            stored = {k: z[k] for k in z.files}
        if list(meta["variants"]) != list(th.variant_names):
            out["status"] = "variants-changed"
            return out
        per = float(np.mean(stored["seconds"])) if stored["seconds"].size else 1.0
        if per > max_trial_seconds:
            out["status"] = "not-sampled"
            out["differences"] = [f"a stored trial took {per:.0f} s > --max-trial-seconds"]
            return out
        k = int(max(1, min(stored["i"].size, math.floor(budget / max(per, 1e-9)))))
        start = int(meta["start"])
        t0 = time.perf_counter()
        res = _run_chunk(th.id, None, meta["params"], start, start + k, int(meta["seed"]))
        out["seconds"] += time.perf_counter() - t0
        out["trials"] += k
        cols = res.columns
        if not _same(cols["i"], stored["i"][:k]) or not _same(cols["status"], stored["status"][:k]):
            out["differences"].append(f"{path.parent.name}/{path.name}: trial indices or status")
        for f in _FIELDS:
            for j, v in enumerate(meta["variants"]):
                if not _same(cols[f][:, j], stored[f][:k, j]):
                    out["differences"].append(f"variant {v}: {f}")
        if [str(e) for e in res.error] != [str(e) for e in stored["error"][:k]]:
            out["differences"].append(f"{path.parent.name}/{path.name}: error text")
        new_d = _diags(res.diag_names, res.diag_value, res.diag_present)
        old_d = _diags(stored["diag_names"], stored["diag_value"][:k], stored["diag_present"][:k])
        for a, b in zip(new_d, old_d):
            if a.keys() != b.keys():
                out["differences"].append(f"diagnostic names {sorted(a.keys() ^ b.keys())}")
            out["differences"] += [f"diagnostic {n}" for n in sorted(a.keys() & b.keys()) if not _same(a[n], b[n])]
    out["differences"] = sorted(set(out["differences"]))
    if out["differences"]:
        timing = all(_TIMING.search(d) for d in out["differences"])
        out["status"] = "timing-only" if timing else "differs"
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results")
    ap.add_argument("--theorem", action="append", default=[])
    ap.add_argument("--budget", type=float, default=3.0, help="seconds of stored trial time per chunk")
    ap.add_argument("--cells", type=int, default=2)
    ap.add_argument("--max-trial-seconds", type=float, default=60.0,
                    help="do not replay a theorem whose stored trials took longer (status not-sampled)")
    ap.add_argument("--skip", action="append", default=[], help="theorem ids not to replay")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    root = Path(a.results) / "checkpoints"
    rng = random.Random(a.seed)
    report = {}
    bad = False
    for tdir in sorted(p for p in root.iterdir() if p.is_dir()):
        if (a.theorem and tdir.name not in a.theorem) or tdir.name in a.skip:
            continue
        th = {t.id: t for t in registry.all_theorems()}.get(tdir.name)
        if th is None:
            report[tdir.name] = {"status": "not-registered"}
        else:
            try:
                report[tdir.name] = replay_theorem(th, tdir, a.budget, a.cells, rng, a.max_trial_seconds)
            except Exception as exc:  # e.g. a cell whose stored parameters the current theorem no longer takes
                report[tdir.name] = {"status": "differs", "differences": [f"replay raised {type(exc).__name__}: "
                                                                          f"{str(exc).splitlines()[0][:200]}"]}
        r = report[tdir.name]
        bad |= r["status"] == "differs"
        print(f"{tdir.name:40s} {r['status']:17s} trials {r.get('trials', 0):6d} "
              f"{r.get('seconds', 0):7.1f} s  {'; '.join(r.get('differences', [])[:4])}", flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

"""Parent memory of a long run: RSS growth of ``run("engine_test.cheap", trials=N, backend="serial")``.

Not a test (not collected: the file name does not start with ``test_``). Run from the repository root::

    python benchmarks/memory_trials.py [--trials 300000] [--out]

Method (Linux /proc): import everything and run a small warm-up (2,000 trials) so that libraries, caches and
the allocator's first arenas are in place; collect garbage and read VmRSS (the warm baseline); reset the
peak (``echo 5 > /proc/self/clear_refs`` resets VmHWM); run N trials; report

- retained: VmRSS after the run (the RunResult still referenced) minus the baseline;
- peak: VmHWM during the run minus the baseline;
- seconds of the run;
- with ``--out``, the size of ``checkpoints/`` and bytes per trial.

Each configuration should run in a fresh process (this script is one).
"""

import argparse
import gc
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "engine"))  # _engine_claims
sys.path.insert(0, str(HERE.parent))  # this checkout's rpcheck, not an installed one


def _status(key):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
    raise KeyError(key)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=300_000)
    ap.add_argument("--out", action="store_true", help="write a results directory and measure its checkpoints")
    args = ap.parse_args()
    import _engine_claims

    from rpcheck.engine import run

    _engine_claims.register_all()
    run("engine_test.cheap", trials=2000, backend="serial", seed=1)
    gc.collect()
    base = _status("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")
    tmp = Path(tempfile.mkdtemp(prefix="rpcheck-mem-"))
    t0 = time.perf_counter()
    res = run("engine_test.cheap", trials=args.trials, backend="serial", seed=0, out=(tmp / "r") if args.out else None)
    secs = time.perf_counter() - t0
    gc.collect()
    retained = _status("VmRSS") - base
    peak = _status("VmHWM") - base
    line = (
        f"trials={args.trials} retained=+{retained / 2**20:.1f} MB peak=+{peak / 2**20:.1f} MB "
        f"seconds={secs:.1f} rows_in_trials={len(res.trials)} failures={int(res.cells['failures'].iloc[0])}"
    )
    if args.out:
        ck = tmp / "r" / "checkpoints"
        size = sum(p.stat().st_size for p in ck.rglob("*") if p.is_file())
        files = sum(1 for _ in ck.rglob("*.np*")) or sum(1 for _ in ck.rglob("*.json"))
        line += f" checkpoints={size / 2**20:.1f} MB in {files} files ({size / args.trials:.1f} bytes/trial)"
    print(line)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

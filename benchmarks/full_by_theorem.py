"""Run the ``full`` profile one theorem at a time and keep a ledger of every completed theorem in the repository.

Why one theorem at a time: the ``full`` profile costs about 48 CPU hours (PROFILES.md), and a machine whose
scratch space is not kept between working periods (only the git repository is) would lose the checkpoints of
one ``rpcheck verify --profile full`` over all theorems at every reset. Run theorem by theorem, each completed
theorem is a finished ``rpcheck check ID --profile full``
whose verdicts, trial count and costs are written to the ledger (``docs/full-run/ledger.jsonl``, one JSON
line per theorem) and whose verdict table goes to ``docs/full-run/cells/<id>.csv``; both are committed.
A theorem interrupted by a stop (``--stop-at``, a reset) is resumed from its checkpoints (``--resume``) when they are
still there and were written by the same ``rpcheck/`` code (else the old directory is moved to ``<out>/stale/``
and the theorem starts again, unless ``--resume-across-commits``); the ledger records the wall and CPU seconds
of the completing process (plus, in ``prior_segments``, those of the interrupted ones: a segment the driver
stopped at ``--stop-at`` adds its workers' CPU read from /proc before the SIGTERM).

Usage::

    OMP_NUM_THREADS=1 nice -n 19 python benchmarks/full_by_theorem.py --out /scratch/full \
        --stop-at 2026-11-28T09:00 ID [ID ...]

``--stop-at`` ends a stretch of work cleanly: the theorem in flight gets SIGTERM, its results directory is packed
into ``docs/full-run/partial/<id>.tar.gz`` (when at most ``--pack-limit-mb``; commit it), and the next invocation
unpacks it and resumes. Checked on lei2020.supervised: stopped after 20 s, packed, unpacked in a fresh scratch
directory and resumed, its verdict table equal to the uninterrupted run's in every column.

Each completed theorem also leaves its trial-time trace in ``docs/full-run/traces/<id>/`` (:func:`write_trace`;
commit it): what ``benchmarks/full_scaling_estimate.py`` replays, kept in the repository because the results
directories in scratch space do not survive a machine reset.

Theorems already in the ledger for the same code (``tree``: the git tree hash of ``rpcheck/``) are skipped;
``--rerun`` runs them again. The run's own verdict logic is untouched: this script only calls the CLI and
copies what it printed (``--json``) and what GNU ``/usr/bin/time`` reports of the child process and the
workers it reaped: user + system CPU seconds and the peak resident set of the largest process.
"""

from __future__ import annotations

import argparse
import csv
import datetime as _dt
import json
import os
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]  # the code that runs: a pinned worktree, so edits elsewhere do not leak in
LEDGER_DIR = REPO / "docs" / "full-run"  # replaced by --ledger-dir
CELL_COLUMNS = (
    "variant", "cell", "params", "mode", "role", "trials", "failures", "failure_rate", "ci_low", "ci_high",
    "verdict", "expected", "as_expected", "solver_errors", "vacuous_trials", "undetermined", "stopped_early",
    "claim",
)


def _git(*args):
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()


def code_identity():
    """(commit, tree hash of rpcheck/, dirty flag): the code the trials ran on."""
    commit = _git("rev-parse", "HEAD")
    tree = _git("rev-parse", "HEAD:rpcheck")
    dirty = bool(_git("status", "--porcelain", "--", "rpcheck"))
    return commit, tree, dirty


def read_ledger(path):
    rows = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                rows[row["id"]] = row
    return rows


def write_ledger(path, rows):
    from rpcheck.engine.store import atomic_write_text

    atomic_write_text(path, "".join(json.dumps(rows[k], sort_keys=True) + "\n" for k in sorted(rows)))


def _descendants(pid):
    """Every process below ``pid`` (from /proc: pid -> ppid), children before grandchildren."""
    parent = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    stat = fh.read()
            except OSError:  # exited meanwhile
                continue
            parent[int(entry)] = int(stat[stat.rindex(")") + 2:].split()[1])
    out, frontier = [], [pid]
    while frontier:
        kids = [p for p, pp in parent.items() if pp in frontier]
        out += kids
        frontier = kids
    return out


def _cpu_seconds(pid):
    """User + system CPU seconds of ``pid`` and of its children it has reaped (/proc/<pid>/stat fields 14-17)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            stat = fh.read()
    except OSError:
        return 0.0
    utime, stime, cutime, cstime = (int(x) for x in stat[stat.rindex(")") + 2:].split()[11:15])
    return (utime + stime + cutime + cstime) / os.sysconf("SC_CLK_TCK")


def _run_until(cmd, env, stop_at):
    """Run ``cmd`` (GNU time wrapping ``rpcheck check``); at ``stop_at`` (a UTC datetime or None) send SIGTERM
    to the rpcheck process (GNU time's child) and wait for it. Returns ``(returncode, stdout, stderr,
    workers_cpu)``: ``workers_cpu`` is the CPU seconds of the rpcheck process's descendants (its workers) read
    from /proc just before the SIGTERM (None when not stopped). A stopped rpcheck process leaves its workers to
    init, so GNU time counts only its own CPU; the sum of the two is the segment's CPU up to the clock ticks of
    the last instant."""
    workers_cpu = None
    with tempfile.TemporaryFile("w+") as fo, tempfile.TemporaryFile("w+") as fe:
        proc = subprocess.Popen(cmd, stdout=fo, stderr=fe, text=True, cwd=REPO, env=env)
        while proc.poll() is None:
            if stop_at is not None and _dt.datetime.now(_dt.UTC) >= stop_at:
                kids = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
                workers_cpu = sum(_cpu_seconds(w) for pid in kids for w in _descendants(int(pid)))
                for pid in kids:  # the rpcheck process under GNU time; its workers exit when it is gone
                    os.kill(int(pid), signal.SIGTERM)
                proc.wait()
                break
            time.sleep(5)
        fo.seek(0)
        fe.seek(0)
        return proc.returncode, fo.read(), fe.read(), workers_cpu


def stale_checkpoints(res_dir):
    """The commit that wrote ``res_dir``'s checkpoints when its ``rpcheck/`` tree differs from this code's, else
    None. The engine only warns when it resumes trials written by other code (``store.check_code_version``), so
    a scratch directory left by an older commit would silently mix two codes' trials in one ledger row."""
    manifest = res_dir / "checkpoints" / "manifest.json"
    if not manifest.exists():
        return None
    old = json.loads(manifest.read_text()).get("git_commit")
    if not old:
        return "unknown"
    try:
        old_tree = _git("rev-parse", f"{old}:rpcheck")
    except subprocess.CalledProcessError:
        return old  # a commit this repository does not know
    return None if old_tree == code_identity()[1] else old


def run_one(theorem, out, jobs, log, stop_at=None, resume_across_commits=False):
    """Run ``rpcheck check THEOREM --profile full`` to completion; return the ledger row (or None on error)."""
    res_dir = out / theorem
    packed = LEDGER_DIR / "partial" / f"{theorem}.tar.gz"
    if not res_dir.exists() and packed.exists():  # checkpoints committed by an earlier --pack
        with tarfile.open(packed) as tar:
            tar.extractall(out, filter="data")
    stale = None if resume_across_commits else stale_checkpoints(res_dir)
    if stale is not None:  # start afresh on this code; the old directory is kept aside, never deleted
        aside = out / "stale" / f"{theorem}-{stale[:12]}"
        aside.parent.mkdir(parents=True, exist_ok=True)
        os.replace(res_dir, aside)
        log.write(f"{theorem}: checkpoints of {stale[:12]} (other rpcheck/ code) moved to {aside}; starting afresh\n")
    resumed = (res_dir / "checkpoints").is_dir()
    cmd = [sys.executable, "-m", "rpcheck.cli", "check", theorem, "--profile", "full", "--jobs", str(jobs),
           "--out", str(res_dir), "--json", "--quiet"]
    if resumed:
        cmd.append("--resume")
    # /usr/bin/time (GNU time) reports, from wait4, the CPU seconds of the child and of every descendant it
    # reaped (the worker processes) and the peak RSS of the largest of them: per theorem, unlike this
    # process's RUSAGE_CHILDREN, whose ru_maxrss is the maximum over every child it ever had.
    timing = out / f".{theorem}.time"
    cmd = ["/usr/bin/time", "-f", "%e %U %S %M", "-o", str(timing), *cmd]
    started = _dt.datetime.now(_dt.UTC)
    t0 = time.perf_counter()
    env = dict(os.environ, PYTHONPATH=str(REPO))  # the pinned code, also in the worker processes
    returncode, stdout, stderr, workers_cpu = _run_until(cmd, env, stop_at)
    proc = subprocess.CompletedProcess(cmd, returncode, stdout, stderr)
    wall = time.perf_counter() - t0
    ended = _dt.datetime.now(_dt.UTC)
    fields = timing.read_text().split()[-4:]
    user, system, maxrss_kb = float(fields[1]), float(fields[2]), float(fields[3])
    cpu = user + system
    workers = "" if workers_cpu is None else f" (+ workers {workers_cpu:.1f}s, read before the SIGTERM)"
    log.write(f"{ended:%FT%TZ} {theorem} rc={proc.returncode} wall={wall:.1f}s cpu={cpu:.1f}s{workers}\n")
    log.flush()
    segment = {"started_utc": f"{started:%FT%TZ}", "finished_utc": f"{ended:%FT%TZ}", "wall_seconds": round(wall, 1),
               "cpu_seconds": round(cpu, 1), "max_rss_mb": round(maxrss_kb / 1024.0, 1), "exit_code": proc.returncode,
               "commit": code_identity()[0],
               # a process stopped by a signal (SIGTERM: 143) leaves its workers to init, so GNU time counts
               # only the parent's CPU seconds; when the driver stopped it, its workers' CPU read from /proc
               # just before the SIGTERM is added (``workers_cpu_seconds``). Otherwise the CPU is a lower bound.
               "cpu_is_lower_bound": proc.returncode not in (0, 1) and workers_cpu is None}
    if workers_cpu is not None:
        segment["workers_cpu_seconds"] = round(workers_cpu, 1)
        segment["cpu_seconds"] = round(cpu + workers_cpu, 1)
    segments_file = res_dir / "segments.jsonl"  # inside the results directory, so --pack carries it along
    if proc.returncode not in (0, 1):
        if res_dir.exists():  # interrupted (130: SIGINT) or failed: its checkpoints stay for --resume
            with open(segments_file, "a") as fh:
                fh.write(json.dumps(segment, sort_keys=True) + "\n")
        (out / f"{theorem}.stderr").write_text(proc.stderr)
        return None
    doc = json.loads(proc.stdout)
    cells = doc["cells"]
    (LEDGER_DIR / "cells").mkdir(parents=True, exist_ok=True)
    with open(LEDGER_DIR / "cells" / f"{theorem}.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(CELL_COLUMNS)
        for c in cells:
            w.writerow([json.dumps(c.get(k), sort_keys=True) if isinstance(c.get(k), (dict, list))
                        else c.get(k) for k in CELL_COLUMNS])
    prior = ([json.loads(x) for x in segments_file.read_text().splitlines() if x.strip()]
             if segments_file.exists() else [])
    commit, tree, dirty = code_identity()
    prov = doc["provenance"]
    th = doc["theorems"][0]
    return {
        "id": theorem,
        "profile": "full",
        "commit": commit,
        "tree": tree,
        "dirty": dirty,
        "started_utc": f"{started:%FT%TZ}",
        "finished_utc": f"{ended:%FT%TZ}",
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "max_rss_mb": round(maxrss_kb / 1024.0, 1),
        "resumed": resumed,
        "jobs": jobs,
        "exit_code": proc.returncode,
        # trials per cell: the variants of a cell share its trials, so the largest count among its rows
        "trials": int(sum(max(int(c.get("trials") or 0) for c in cells if c.get("cell") == k)
                          for k in {c.get("cell") for c in cells})),
        "trial_seconds": th.get("seconds"),
        "rows": doc["summary"]["rows"],
        "cells": len({c.get("cell") for c in cells}),
        "counts": th["counts"],
        "unexpected": th["unexpected"],
        "solver_errors": int(sum(int(c.get("solver_errors") or 0) for c in cells)),
        "phase_seconds": prov.get("phase_seconds"),
        # earlier, interrupted processes of this theorem (their trials were resumed from the checkpoints)
        "prior_segments": prior,
        "wall_seconds_total": round(wall + sum(x["wall_seconds"] for x in prior), 1),
        "cpu_seconds_total": round(cpu + sum(x["cpu_seconds"] for x in prior), 1),
    }


def pack(theorem, out):
    """Pack ``out/<theorem>`` (checkpoints, marker, segments) into <ledger-dir>/partial/<theorem>.tar.gz."""
    (LEDGER_DIR / "partial").mkdir(parents=True, exist_ok=True)
    src = out / theorem
    if not (src / "checkpoints").is_dir():
        print(f"{theorem}: no checkpoints in {src}, nothing to pack")
        return None
    dst = LEDGER_DIR / "partial" / f"{theorem}.tar.gz"
    with tarfile.open(dst.with_suffix(".tmp"), "w:gz") as tar:
        tar.add(src, arcname=theorem)
    os.replace(dst.with_suffix(".tmp"), dst)
    print(f"{theorem}: {dst} ({dst.stat().st_size / 1e6:.1f} MB)")
    return dst


def write_trace(theorem, out, dest=None):
    """Keep in the repository what ``benchmarks/full_scaling_estimate.py`` replays of a completed theorem.

    The replay reads a results directory's per-trial ``seconds`` (``trials/*.parquet``: each cell's first
    2,000 trials) and each cell's recorded trial count and summed seconds (``cells.parquet``). The results
    directories live in scratch space, which a machine reset wipes. This writes the same layout, those columns only, to
    ``<dest>/<theorem>/`` (default ``<ledger-dir>/traces``), so ``full_scaling_estimate.py --runs
    docs/full-run/traces`` replays from the repository. The values are copied unchanged (float64)."""
    import pandas as pd

    from rpcheck.engine.store import atomic_write_bytes, atomic_write_text

    src = out / theorem
    files = sorted((src / "trials").glob("*.parquet"))
    if not files or not (src / "cells.parquet").exists():
        print(f"{theorem}: no completed results in {src} (trials/*.parquet, cells.parquet), no trace written")
        return None
    dst = (LEDGER_DIR / "traces" if dest is None else dest) / theorem
    (dst / "trials").mkdir(parents=True, exist_ok=True)
    t = pd.concat([pd.read_parquet(f, columns=["cell", "trial", "seconds"]) for f in files])
    t = t.drop_duplicates(["cell", "trial"]).sort_values(["cell", "trial"]).reset_index(drop=True)
    c = pd.read_parquet(src / "cells.parquet", columns=["cell", "trials", "seconds"])
    c = c.groupby("cell", as_index=False).agg(trials=("trials", "max"), seconds=("seconds", "max"))
    for frame, path in ((t, dst / "trials" / f"{theorem}.parquet"), (c, dst / "cells.parquet")):
        atomic_write_bytes(path, frame.to_parquet(None, compression="zstd", index=False))
    if (src / "provenance.json").exists():  # the commit the trials ran on (the estimate flags another commit)
        prov = json.loads((src / "provenance.json").read_text())
        atomic_write_text(dst / "provenance.json", json.dumps({"git_commit": prov.get("git_commit")}) + "\n")
    size = sum(f.stat().st_size for f in dst.rglob("*") if f.is_file())
    print(f"{theorem}: trace {dst} ({len(t):,} trial times, {len(c)} cells, {size / 1e3:.0f} kB)")
    return dst


def main(argv=None):
    global LEDGER_DIR
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("theorems", nargs="+")
    ap.add_argument("--out", type=Path, required=True, help="scratch directory for the results directories")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rerun", action="store_true", help="run theorems already in the ledger for this code")
    ap.add_argument("--ledger-dir", type=Path, default=LEDGER_DIR,
                    help="where ledger.jsonl and cells/ go (default: docs/full-run of this checkout)")
    ap.add_argument("--pack", action="store_true",
                    help="instead of running: pack each named theorem's unfinished results directory (checkpoints, "
                         "marker, segments) into <ledger-dir>/partial/<id>.tar.gz, to be committed; a later run "
                         "unpacks it and resumes")
    ap.add_argument("--trace", action="store_true",
                    help="instead of running: write each named theorem's trial-time trace (what "
                         "full_scaling_estimate.py replays) from its completed results directory into "
                         "<ledger-dir>/traces/<id>/, to be committed")
    ap.add_argument("--stop-at", default=None,
                    help="UTC time (ISO, e.g. 2026-11-27T09:00) at which to stop: the theorem in flight gets SIGTERM "
                         "(its checkpoints stay), is packed as with --pack when its results directory is at most "
                         "--pack-limit-mb, and no further theorem starts")
    ap.add_argument("--pack-limit-mb", type=float, default=20.0)
    ap.add_argument("--resume-across-commits", action="store_true",
                    help="resume checkpoints written by a commit whose rpcheck/ tree differs from this one (only "
                         "when the theorem's trials are known to be unchanged, e.g. a profile-only change); by "
                         "default such a results directory is moved to <out>/stale/ and the theorem starts afresh")
    args = ap.parse_args(argv)
    stop_at = None
    if args.stop_at:
        stop_at = _dt.datetime.fromisoformat(args.stop_at).replace(tzinfo=_dt.UTC)
    LEDGER_DIR = args.ledger_dir
    ledger_path = LEDGER_DIR / "ledger.jsonl"
    if args.pack:
        for theorem in args.theorems:
            pack(theorem, args.out)
        return 0
    if args.trace:
        for theorem in args.theorems:
            write_trace(theorem, args.out)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "driver.log", "a") as log:
        for theorem in args.theorems:
            while (args.out / "PAUSE").exists():  # a measurement that needs the machine quiet: wait between theorems
                time.sleep(10)
            rows = read_ledger(ledger_path)
            _, tree, _ = code_identity()
            if not args.rerun and theorem in rows and rows[theorem]["tree"] == tree:
                log.write(f"skip {theorem}: in the ledger for this code\n")
                continue
            if stop_at is not None and _dt.datetime.now(_dt.UTC) >= stop_at:
                log.write(f"stop-at reached before {theorem}\n")
                break
            row = run_one(theorem, args.out, args.jobs, log, stop_at, args.resume_across_commits)
            if row is None and stop_at is not None and _dt.datetime.now(_dt.UTC) >= stop_at:
                size = sum(f.stat().st_size for f in (args.out / theorem).rglob("*") if f.is_file())
                if size <= args.pack_limit_mb * 1e6:
                    pack(theorem, args.out)
                    log.write(f"stopped {theorem} at --stop-at and packed it ({size / 1e6:.1f} MB on disk)\n")
                else:
                    log.write(f"stopped {theorem} at --stop-at; NOT packed ({size / 1e6:.1f} MB > "
                              f"{args.pack_limit_mb} MB): it starts again next time\n")
                break
            if row is None:
                continue
            rows = read_ledger(ledger_path)
            rows[theorem] = row
            write_ledger(ledger_path, rows)
            write_trace(theorem, args.out)
            packed = LEDGER_DIR / "partial" / f"{theorem}.tar.gz"
            if packed.exists():  # completed: its packed checkpoints are no longer needed (git rm it)
                packed.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())

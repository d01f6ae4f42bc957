"""The ``full`` profile's per-theorem table for PROFILES.md, from the committed ledger ``docs/full-run/ledger.jsonl``.

Usage::

    python benchmarks/full_ledger_table.py [--ledger docs/full-run/ledger.jsonl]

Prints one Markdown row per completed theorem (the code it ran on, wall and CPU seconds of its process tree, with
every segment of a theorem resumed after a stop and without the seconds it was held by SIGSTOP,
``paused_seconds``,
peak RSS of its largest process, trials, verdict rows by verdict for claims, self-checks and controls,
unexpected verdicts, solver errors), the totals, and the theorems not yet in the ledger (the registered built-in ids,
``rpcheck.engine.catalog.builtin_index``).

A segment stopped by a signal before the driver read its workers' CPU from /proc (``cpu_is_lower_bound``: the
workers were left to init, so GNU time counted only the parent) makes the theorem's CPU a lower bound: the row
prints ``>= cpu (<= hi)`` with ``hi`` adding ``jobs x wall`` for each such segment (at most ``jobs`` workers,
each busy at most the segment's wall time), and the totals give both ends.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ORDER = ("HOLDS", "VIOLATED", "INCONCLUSIVE", "VACUOUS")


def _fmt(counter):
    return " / ".join(f"{counter.get(v, 0)}" for v in ORDER)


def split_counts(counts):
    """(claims, self-checks, controls, measured) from a ledger row's ``counts`` (the CLI's --json field)."""
    claims, selfc, ctrl = Counter(), Counter(), Counter()
    measured = 0
    for key, val in counts.items():
        if key == "measured":
            measured += int(val)
        elif key == "self-checks":
            selfc.update(val)
        elif key == "controls":
            ctrl.update(val)
        else:
            claims.update(val)
    return claims, selfc, ctrl, measured


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ledger", type=Path, default=REPO / "docs" / "full-run" / "ledger.jsonl")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in args.ledger.read_text().splitlines() if line.strip()]
    rows.sort(key=lambda r: r["id"])
    print("| theorem | code | wall s | CPU s | peak RSS GB | trials | claims H / V / I / Vac | self-checks "
          "H / V / I / Vac | controls H / V / I / Vac | measured | unexpected | solver errors |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    tot = Counter()
    for r in rows:
        claims, selfc, ctrl, measured = split_counts(r["counts"])
        # every process of the theorem (interrupted segments included), minus time it was held by SIGSTOP
        wall = r.get("wall_seconds_total", r["wall_seconds"]) - r.get("paused_seconds", 0.0)
        cpu = r.get("cpu_seconds_total", r["cpu_seconds"])
        lost = [seg for seg in r.get("prior_segments", ()) if seg.get("cpu_is_lower_bound")]
        cpu_hi = cpu + sum(r["jobs"] * seg["wall_seconds"] for seg in lost)
        cpu_cell = f">= {cpu:,.0f} (<= {cpu_hi:,.0f})" if lost else f"{cpu:,.0f}"
        r = dict(r, wall_seconds=wall, cpu_seconds=cpu)
        print(f"| {r['id']} | {r['commit'][:7]} | {r['wall_seconds']:,.0f} | {cpu_cell} | "
              f"{r['max_rss_mb'] / 1024:.2f} | {r['trials']:,} | {_fmt(claims)} | {_fmt(selfc)} | {_fmt(ctrl)} | "
              f"{measured} | {r['unexpected']} | {r['solver_errors']} |")
        tot.update(wall=r["wall_seconds"], cpu=r["cpu_seconds"], cpu_hi=cpu_hi, lost=bool(lost), trials=r["trials"],
                   unexpected=r["unexpected"], solver_errors=r["solver_errors"], rows=r["rows"])
    cpu_tot = (f"**{tot['cpu']:,.0f}**" if not tot["lost"]
               else f"**>= {tot['cpu']:,.0f} (<= {tot['cpu_hi']:,.0f})**")
    print(f"| **{len(rows)} theorems** | | **{tot['wall']:,.0f}** | {cpu_tot} | | **{tot['trials']:,}** | "
          f"| | | | **{tot['unexpected']}** | **{tot['solver_errors']}** |")
    from rpcheck.engine.catalog import builtin_index

    missing = sorted(set(builtin_index()) - {r["id"] for r in rows})
    cpu_h = (f"{tot['cpu'] / 3600:.2f} CPU h" if not tot["lost"]
             else f"{tot['cpu'] / 3600:.2f}-{tot['cpu_hi'] / 3600:.2f} CPU h (CPU of {tot['lost']} theorems' stopped "
                  "segments known only within bounds: see the CPU column)")
    print(f"\nTotal: {tot['wall'] / 3600:.2f} h wall, {cpu_h}, {tot['rows']:,} verdict rows.")
    print(f"Not yet run at full ({len(missing)}): {', '.join(missing) if missing else 'none'}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

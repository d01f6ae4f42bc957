"""CPU per trial of a processes run (parent + workers) against the trial function's own CPU.

    python benchmarks/chunk_transport.py THEOREM_ID [N1 N2]

Runs the first ``ci`` cell of the theorem with ``--jobs 2`` twice, with N1 and N2 trials, each in a fresh
interpreter, and takes the difference of the CPU seconds of the whole process tree (the pool is shut down
before ``getrusage``, so the workers are counted): per-trial cost without the one-time start-up (imports,
spawning the workers). The trial function's CPU per trial is measured in this process on the same trials.
Not a pass/fail test: record the numbers in a ledger row of benchmarks/results/.
"""

import json
import subprocess
import sys
import time

CHILD = r"""
import json, resource, sys
from rpcheck.engine import registry
from rpcheck.engine.backends import shutdown_pools
from rpcheck.engine.execute import execute_cells
from rpcheck.engine.plan import RunSettings, _Cell
from rpcheck.engine._worker import canonical_json
th = registry.get(sys.argv[1]); n = int(sys.argv[2])
canonical = canonical_json(dict(th.profiles["ci"].cells[0])); decoded = json.loads(canonical)
cell = _Cell(th, 0, canonical, decoded, n, (n,), th.vacuous_reason(decoded), sample_size=100)
execute_cells([cell], RunSettings(seed=1, backend="processes", jobs=2))
shutdown_pools()
s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps([s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime]))
"""


def tree_cpu(tid, n):
    out = subprocess.run([sys.executable, "-c", CHILD, tid, str(n)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(tid, n1=20_000, n2=100_000):
    from rpcheck.engine import registry
    from rpcheck.engine._worker import _chunk_rngs, canonical_json

    th = registry.get(tid)
    can = canonical_json(dict(th.profiles["ci"].cells[0]))
    params = json.loads(can)
    m = 20_000
    rngs = list(_chunk_rngs(th.id, can, 1, 0, m))
    t = time.process_time()
    for g in rngs:
        th.trial(params, g)
    per_trial = (time.process_time() - t) / m
    (pa, ca), (pb, cb) = tree_cpu(tid, n1), tree_cpu(tid, n2)
    per = ((pb + cb) - (pa + ca)) / (n2 - n1)
    parent = (pb - pa) / (n2 - n1)
    print(f"{tid}: {1e6 * per:.1f} us CPU per trial (parent {1e6 * parent:.1f}, workers {1e6 * (per - parent):.1f}); "
          f"trial function {1e6 * per_trial:.1f} us; outside the trial function {1 - per_trial / per:.1%}")


if __name__ == "__main__":
    main(sys.argv[1], *map(int, sys.argv[2:]))

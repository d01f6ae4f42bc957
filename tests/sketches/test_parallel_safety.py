"""Serial and parallel kernel drivers agree, and parallel kernels are never launched where that is unsafe.

GNU OpenMP (numba's usual threading layer on Linux) aborts a forked child that starts a parallel region
once the parent has used one ("Terminating: fork() called from a process already using GNU OpenMP").
rpcheck routes forked children, and threads that find another parallel kernel running, to the serial
drivers (rpcheck.sketches._fwht.parallel_slot).
"""

import json
import multiprocessing as mp
import os
import subprocess
import sys
import threading

import numpy as np
import pytest
import scipy.sparse as sp
from _sketch_cases import build, dense, typical_kernel_calls

from rpcheck.sketches import _fwht, fwht, make_sketch, numba_enabled

pytestmark = pytest.mark.skipif(not numba_enabled(), reason="numba is not importable (only numpy paths exist)")


@pytest.fixture(autouse=True)
def _parallel_enabled(monkeypatch):
    monkeypatch.setenv("RPCHECK_PARALLEL", "1")  # inherited by forked children

KINDS = [("srht", {"replace": True}), ("srht-topr", {}), ("countsketch", {}), ("cw", {"q": 2, "v": 2, "a": 2})]


def _workload(seed=0):
    X = np.random.default_rng(seed).standard_normal((80, 1000))  # 80 x 1024 padded >= PARALLEL_MIN_ENTRIES
    out = [fwht(np.ascontiguousarray(X[:, :512]))]
    for kind, params in KINDS:
        out.append(build(kind, params, 1000, 8, rng=1, X=X).apply(X))
    return out


def test_serial_drivers_equal_parallel_drivers(monkeypatch):
    with _fwht.parallel_slot(10**9) as p:
        assert p is True
    par = _workload()
    with _fwht._PARALLEL_LOCK:  # another "thread" holds the slot: every call takes the serial driver
        with _fwht.parallel_slot(10**9) as p:
            assert p is False
        ser = _workload()
    for a, b in zip(par, ser):
        np.testing.assert_array_equal(a, b)  # same per-row arithmetic, same order
    monkeypatch.setenv("RPCHECK_PARALLEL", "0")  # the default: serial drivers
    with _fwht.parallel_slot(10**9) as p:
        assert p is False
    for a, b in zip(par, _workload()):
        np.testing.assert_array_equal(a, b)


def test_threads_share_the_parallel_slot():
    results, errors = {}, []

    def run(i):
        try:
            results[i] = _workload()
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors and len(results) == 3
    for i in (1, 2):
        for a, b in zip(results[0], results[i]):
            np.testing.assert_array_equal(a, b)


def _child(_):
    return [float(np.abs(a).sum()) for a in _workload()]


@pytest.mark.skipif("fork" not in mp.get_all_start_methods(), reason="fork start method not available")
def test_forked_children_do_not_start_parallel_regions():
    parent = _workload()  # the parent has used the parallel kernels
    ctx = mp.get_context("fork")
    with ctx.Pool(2) as pool:
        res = pool.map_async(_child, range(2))
        got = res.get(timeout=120)  # a GNU OpenMP abort would hang or kill the pool
    for g in got:
        np.testing.assert_allclose(g, [float(np.abs(a).sum()) for a in parent], rtol=1e-12)


def test_sparse_input_unaffected():
    X = sp.random(50, 1000, density=0.01, random_state=0, format="csr")
    S = make_sketch("countsketch", 1000, 16, rng=0)
    np.testing.assert_allclose(dense(S.apply(X)), X.toarray() @ S.matrix().toarray(), rtol=0, atol=1e-12)


def test_warmup_kernels_touches_every_kernel(monkeypatch):
    """After warmup_kernels(), typical calls on both dtypes need no new numba specialisation."""
    from rpcheck.sketches import _kernels, warmup_kernels

    # 6 row kernels (with the guarded fwht) + 2 csr embeddings + 3 streamed ISRHT sums (dense, csr x 2 itypes)
    # + 2 direct sparse SRHT applies (csr x 2 itypes)
    assert warmup_kernels(parallel=False) == 2 * (6 + 2 + 3 + 2)
    assert warmup_kernels(parallel=True) == 2 * (12 + 2 + 3 + 2)
    names = [n for n in dir(_kernels) if hasattr(getattr(_kernels, n), "signatures")]
    before = {n: len(getattr(_kernels, n).signatures) for n in names}
    for parallel in ("0", "1"):
        monkeypatch.setenv("RPCHECK_PARALLEL", parallel)
        for dt in (np.float64, np.float32):
            typical_kernel_calls(dt)
    after = {n: len(getattr(_kernels, n).signatures) for n in names}
    assert after == before


_FLOAT64_ONLY = r"""
import json
import sys

sys.path.insert(0, sys.argv[1])
from _sketch_cases import typical_kernel_calls
from rpcheck.sketches import _kernels, warmup_kernels

sparse = sys.argv[2] == "sparse"
assert warmup_kernels(parallel=False, dtypes=("float64",), sparse=sparse) == 6 + 1 + (2 + 2 + 2) * sparse
names = [n for n in dir(_kernels) if hasattr(getattr(_kernels, n), "signatures")]
sigs = lambda: {n: [str(s) for s in getattr(_kernels, n).signatures] for n in names}
before = sigs()
typical_kernel_calls("float64", sparse=sparse)
print(json.dumps({"before": before, "after": sigs()}))
"""

_CSR_KERNELS = ("isrht_sums_csr", "srht_csr_direct", "sparse_embed_csr")


@pytest.mark.parametrize("sparse", ["sparse", "dense"])
def test_warmup_kernels_float64_only(sparse):
    """``dtypes=("float64",)`` (what the timing checkers pass) warms every float64 path and no float32 one;
    with ``sparse=False`` (dense inputs only: lei2020.timing, the Table 2 protocol on dense data) every
    dense float64 path and no CSR kernel.

    A fresh interpreter, so that specialisations made by other tests in this process cannot hide a gap."""
    proc = subprocess.run([sys.executable, "-c", _FLOAT64_ONLY, os.path.dirname(__file__), sparse],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "RPCHECK_PARALLEL": "0"})
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["after"] == got["before"]
    assert not any("float32" in s for sig in got["before"].values() for s in sig)
    assert any("float64" in s for sig in got["before"].values() for s in sig)
    csr = [s for n in _CSR_KERNELS for s in got["before"][n]]
    assert len(csr) == (6 if sparse == "sparse" else 0)


@pytest.mark.parametrize("bad", [None, 0, 1, "yes", np.array([True])])
def test_warmup_kernels_rejects_bad_sparse(bad):
    from rpcheck.errors import RpcheckError
    from rpcheck.sketches import warmup_kernels

    with pytest.raises(RpcheckError, match="`sparse`"):
        warmup_kernels(dtypes=("float64",), sparse=bad)


@pytest.mark.parametrize("bad", [(), ("int8",), ("x",), "float16", [np.float64, "complex128"]])
def test_warmup_kernels_rejects_bad_dtypes(bad):
    from rpcheck.errors import RpcheckError
    from rpcheck.sketches import warmup_kernels

    with pytest.raises(RpcheckError, match="`dtypes`"):
        warmup_kernels(dtypes=bad)


_SPLIT_WARMUP = r"""
import json, os, sys, time

go = sys.argv[1]
from rpcheck.sketches import _fwht, warmup_kernels

_fwht._load_kernels()
k = _fwht._kernels
while not os.path.exists(go):  # both processes start their warm-up together
    time.sleep(0.005)
n = warmup_kernels(parallel=False, dtypes=("float64",), sparse=False)
names = ["fwht_rows_inplace_serial", "fwht_rows_copy_serial", "fwht_rows_guarded_serial", "srht_rows_serial",
         "sparse_embed_dense_serial", "isrht_sums_dense"]
out = {m: {"compiled": sum(getattr(k, m)._cache_misses.values()), "loaded": sum(getattr(k, m)._cache_hits.values()),
           "specialisations": len(getattr(k, m).signatures)} for m in names}
print(json.dumps({"n": n, "kernels": out}))
"""


def test_concurrent_warmups_split_the_jit(tmp_path):
    """Two processes warming up at once with an empty numba cache (the workers of a run's first time after
    an install) compile each of the warmed specialisations once between them: the other process loads it
    from the on-disk cache (``_fwht._once_across_processes``). Whatever the interleaving, every
    specialisation ends up in both processes, compiled by exactly one of them."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "RPCHECK_PARALLEL": "0"}
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", _SPLIT_WARMUP, str(go)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env) for _ in range(2)]
    go.write_text("")
    got = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        got.append(json.loads(out.strip().splitlines()[-1]))
    assert [g["n"] for g in got] == [7, 7]
    for name in got[0]["kernels"]:
        a, b = got[0]["kernels"][name], got[1]["kernels"][name]
        specs = 2 if name == "fwht_rows_copy_serial" else 1  # C-contiguous and strided input
        assert a["specialisations"] == b["specialisations"] == specs, name
        assert a["compiled"] + b["compiled"] == specs, (name, a, b)
        assert a["compiled"] + a["loaded"] == specs and b["compiled"] + b["loaded"] == specs, (name, a, b)


def test_warmup_runs_every_call_without_a_lock_directory(monkeypatch, tmp_path):
    """No usable lock directory (a file in its place): the warm-up calls still all run, unlocked."""
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setattr(_fwht, "_lock_dir", lambda: str(blocker / "locks"))
    ran = []
    _fwht._once_across_processes([(str(i), lambda i=i: ran.append(i)) for i in range(5)])
    assert ran == [0, 1, 2, 3, 4]

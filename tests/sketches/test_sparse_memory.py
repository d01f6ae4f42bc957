"""Peak memory of SRHT/ISRHT/se-isrht on wide sparse input stays within the documented memory model.

Each case runs in a fresh child process (``CHILD`` below) that warms the code path on a tiny input of the
same width, generates a CSR matrix with ``k`` stored entries per row (one uniform column in each of ``k``
equal strata, so the entries are distinct and sorted; N(0, 1) values), resets the peak-RSS counter, builds
and fits the sketch, applies it, and reports the peak resident set size of that phase.

Why not ``ru_maxrss``: on Linux the child's ``getrusage(RUSAGE_SELF).ru_maxrss`` (and the parent's
``RUSAGE_CHILDREN``) includes the RSS of the process it was forked from at ``exec`` time (the kernel
keeps ``signal->maxrss`` across exec): a child of a parent holding 1.6 GB reported ru_maxrss = 1551 MB
with VmHWM = 8.8 MB. So the child reads ``VmHWM`` from ``/proc/self/status``, which is the high-water mark
of its own address space, and resets it (``echo 5 > /proc/self/clear_refs``) after generating the input.

Bound (derived from the memory model, not from a measurement):

    peak <= RSS at reset (interpreter, kernels, X and y)
            + construction (the sketch's own check_memory estimate: signs, column indices, CountSketch tables)
            + validation of X (np.isfinite of the stored values: nnz bytes; np.diff of indptr: 16 (n + 1))
            + max(fit workspace, apply workspace and output)  (S._fit_bytes / S._apply_bytes, the numbers
              check_memory uses; see the docstrings of rpcheck.sketches.srht/isrht/se_isrht)
            + 64 MiB allocator allowance (glibc raises its mmap threshold up to 32 MiB after a large free and
              then serves blocks below it from the heap, whose freed space is only trimmed above
              M_TRIM_THRESHOLD = 2 x the threshold: up to 64 MiB of freed memory can stay resident)

The dense alternative (an (n, d') float64 rotation) is printed next to it for scale.
"""

import json
import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent(
    r"""
    import gc, json, resource, sys, time
    import numpy as np, scipy.sparse as sp
    from rpcheck.sketches import make_sketch, warmup_kernels

    a = json.loads(sys.argv[1])
    kind, params, n, d, k, r = a["kind"], a["params"], a["n"], a["d"], a["k"], a["r"]
    if a["chunk"]:
        import rpcheck.sketches.srht as srht_mod
        srht_mod._CHUNK_ENTRIES = a["chunk"]

    def status(key):
        with open("/proc/self/status") as f:
            return int(f.read().split(key + ":")[1].split()[0]) * 1024

    def gen(n, seed):
        rng = np.random.default_rng(seed)
        w, nnz = d // k, n * k
        itype = np.int32 if max(nnz, d) < 2**31 - 1 else np.int64
        indices, data = np.empty(nnz, itype), np.empty(nnz)
        base = (np.arange(k) * w).astype(itype)
        step = max(1, (1 << 20) // k)
        for lo in range(0, n, step):
            hi = min(n, lo + step)
            indices[lo * k:hi * k] = (base + rng.integers(0, w, size=(hi - lo, k), dtype=itype)).ravel()
            data[lo * k:hi * k] = rng.standard_normal((hi - lo) * k)
        y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
        y[0], y[-1] = -1.0, 1.0
        return sp.csr_matrix((data, indices, np.arange(0, nnz + 1, k, dtype=itype)), shape=(n, d)), y

    def run(X, y):
        S = make_sketch(kind, d, r, rng=1, **params)
        t0 = time.perf_counter()
        if S.data_dependent:
            S.fit(X, y)
        t1 = time.perf_counter()
        out = S.apply(X)
        t2 = time.perf_counter()
        return S, out, t1 - t0, t2 - t1

    warmup_kernels()
    run(*gen(4, 0))  # the same code path on 4 rows: numba specialisations, scipy imports
    X, y = gen(n, 1)
    x_bytes = X.data.nbytes + X.indices.nbytes + X.indptr.nbytes
    gc.collect()
    life_before = status("VmHWM")
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    rss0 = status("VmRSS")
    S, out, t_fit, t_apply = run(X, y)
    peak = status("VmHWM")
    classes = 2 if params.get("method", kind) in ("supervised", "srht-supervised") else 0
    model_fit = S._fit_bytes(X, True, classes) if S.data_dependent else 0
    model_apply = S._apply_bytes(X, True)
    if kind == "se-isrht":
        inner = S.inner_
        build = 58 * d + 4 * d + 9 * S.r_prime + 8 * r + 8 * inner.d_pad  # CountSketch tables + packed, inner
        dpad = inner.d_pad
    else:
        build = 9 * d + 8 * r + 8 * S.d_pad + 32
        dpad = S.d_pad
    validation = X.nnz + 16 * (n + 1)
    print(json.dumps(dict(
        rss0=rss0, peak=peak, life_before=life_before, x_bytes=x_bytes, nnz=int(X.nnz), build=build,
        validation=validation, model_fit=model_fit, model_apply=model_apply, t_fit=t_fit, t_apply=t_apply,
        dense_rotation=8 * n * (1 << (d - 1).bit_length()), out_shape=list(out.shape),
        ru_maxrss=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    )))
    """
)

ALLOWANCE = 64 << 20


def measure(kind, params, n, d, k, r, chunk=None, timeout=3600):
    arg = json.dumps(dict(kind=kind, params=params, n=n, d=d, k=k, r=r, chunk=chunk))
    proc = subprocess.run([sys.executable, "-c", CHILD, arg], capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    m = json.loads(proc.stdout.strip().splitlines()[-1])
    m["bound"] = m["rss0"] + m["build"] + m["validation"] + max(m["model_fit"], m["model_apply"]) + ALLOWANCE
    return m


def report(label, m):
    mib = 1 << 20
    return (f"{label}: nnz={m['nnz']:,} X={m['x_bytes'] / mib:.0f} MiB; peak RSS {m['peak'] / mib:.0f} MiB "
            f"(rss at reset {m['rss0'] / mib:.0f} MiB, +{(m['peak'] - m['rss0']) / mib:.0f} MiB) <= bound "
            f"{m['bound'] / mib:.0f} MiB (model fit {m['model_fit'] / mib:.0f} / apply {m['model_apply'] / mib:.0f} "
            f"MiB); dense (n, d') rotation would be {m['dense_rotation'] / 2**30:.1f} GiB; fit {m['t_fit']:.2f} s, "
            f"apply {m['t_apply']:.2f} s")


def _check(label, m, n, r):
    print(report(label, m))
    assert m["out_shape"] == [n, r]
    assert m["peak"] <= m["bound"], report(label, m)


# The default-run versions use blocks of 2**18 entries (2 MiB of float64), so the bound is far below the
# dense (n, d') rotation (2.0 GiB and 0.4 GiB here): an implementation that densified X, or X D H, would fail.
def test_se_isrht_memory_model_scaled_down():
    """Default run: 2000 x 130,000 at 0.05% (65 entries per row), the same code path as the heavy test."""
    n, d, k, r = 2000, 130_000, 65, 256
    m = measure("se-isrht", {"method": "supervised"}, n, d, k, r, chunk=1 << 18)
    _check("se-isrht supervised 2000x130k", m, n, r)
    assert m["bound"] - m["rss0"] < m["dense_rotation"] / 8


def test_blocked_isrht_memory_model_scaled_down():
    """Default run: the streamed ISRHT fit and apply on 400 rows of width 130,000 (d' = 2**17)."""
    n, d, k, r = 400, 130_000, 65, 256
    m = measure("srht-supervised", {}, n, d, k, r, chunk=1 << 18)
    _check("srht-supervised 400x130k", m, n, r)
    assert m["bound"] - m["rss0"] < m["dense_rotation"] / 2


# heavy: the issue's size, 20,000 x 1.3M at 0.05% (13 M stored entries); minutes of CPU and ~1 GB of RAM
@pytest.mark.heavy
@pytest.mark.parametrize("method", ["srht", "nps", "topr", "supervised"])
def test_se_isrht_memory_model_issue_size(method):
    n, d, k, r = 20_000, 1_300_000, 650, 256
    _check(f"se-isrht {method} 20000x1.3M", measure("se-isrht", {"method": method}, n, d, k, r), n, r)


# heavy: the plain (I)SRHT on the full width (d' = 2**21). SRHT apply on sparse rows uses the direct
# O(nnz r) kernel (~0.5 ms per row here), so it runs at the issue's 20,000 rows; the ISRHT fit must
# transform every row to get all d' column energies (~14 ms per row on the development machine: ~5 min for
# 20,000 rows), so those use 1,000 rows, which exercise the same row streaming and the same memory model
# (it does not grow with n apart from the (n, r) output and the O(n) label bookkeeping)
@pytest.mark.heavy
@pytest.mark.parametrize("kind, n", [("srht", 20_000), ("srht-topr", 1_000), ("srht-supervised", 1_000)])
def test_blocked_srht_memory_model_full_width(kind, n):
    d, k, r = 1_300_000, 650, 256
    params = {"replace": False} if kind == "srht" else {}
    _check(f"{kind} {n}x1.3M", measure(kind, params, n, d, k, r), n, r)

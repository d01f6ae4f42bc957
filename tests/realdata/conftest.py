"""Fixtures of the real-data tests: an empty data cache per test and small files in the registered formats."""

import bz2

import numpy as np
import pytest

from rpcheck import data_registry as reg


@pytest.fixture(autouse=True)
def empty_cache(tmp_path, monkeypatch):
    """Each test starts with an empty cache of its own (the machine's cache never leaks into a test)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv(reg.DATA_DIR_ENV, str(cache))
    reg._LOADED.clear()
    reg._CACHED.clear()
    return cache


def write_svmlight(path, X, y, *, compress=False):
    """``X`` (dense, zeros left out) and labels ``y`` as svmlight lines, 1-based indices."""
    lines = []
    for row, lab in zip(X, y, strict=True):
        feats = " ".join(f"{j + 1}:{v:.6g}" for j, v in enumerate(row) if v != 0)
        lines.append(f"{lab:g} {feats}".rstrip())
    data = ("\n".join(lines) + "\n").encode()
    path.write_bytes(bz2.compress(data) if compress else data)
    return path


def sparse_binary(n, d, rng, *, density=0.05, labels=(-1, 1)):
    """A small sparse two-class matrix whose classes differ on the first 10 columns."""
    y = np.array([labels[i % 2] for i in range(n)], dtype=float)
    X = (rng.random((n, d)) < density) * rng.random((n, d))
    X[:, :10] += np.where(y[:, None] == labels[1], 0.5, 0.0) * (rng.random((n, 10)) < 0.5)
    return X, y


def write_techtc(root, pairs=2, n=40, d=1200, rng=None):
    """``pairs`` TechTC-300-layout pair folders ``Exp_<i>_<j>/vectors.dat`` (term counts, labels +1/-1, ids
    from 1) and ``features.idx`` under ``root``."""
    rng = rng or np.random.default_rng(0)
    for i in range(pairs):
        pair = root / f"Exp_{100 + i}_{200 + i}"
        pair.mkdir(parents=True)
        X, y = sparse_binary(n, d, rng, density=0.02)
        counts = np.ceil(X * 3)
        write_svmlight(pair / "vectors.dat", counts, y)
        (pair / "features.idx").write_text("# id word\n" + "".join(f"{j + 1} w{j + 1}\n" for j in range(d)))
    return root


def dense_sets(root, rng=None):
    """Small files of Table 2's dense sets in the registered layout: mushrooms (one file, labels 1/2, 112
    columns), usps and gisette (train + test bz2, 256 and 5,000 columns); returns ``{registry name: path}``."""
    rng = rng or np.random.default_rng(11)
    root.mkdir(parents=True, exist_ok=True)
    X, y = sparse_binary(120, 112, rng, density=0.2, labels=(1, 2))
    out = {"mushrooms": str(write_svmlight(root / "mushrooms", X, y))}
    for name, files, d in (("usps", ("usps.bz2", "usps.t.bz2"), 256),
                           ("gisette", ("gisette_scale.bz2", "gisette_scale.t.bz2"), 5000)):
        where = root / name
        where.mkdir()
        for f, n in zip(files, (80, 40), strict=True):
            X = rng.random((n, d)) * (rng.random((n, d)) < 0.05)
            lab = np.arange(n) % 10 + 1 if name == "usps" else np.where(np.arange(n) % 2, 1, -1)
            write_svmlight(where / f, X, lab, compress=True)
        out[name] = str(where)
    return out

"""lei2020.sparse_scale and lei2020.sparse_baselines on a LIBSVM rcv1_train.binary-format file (bz2)."""

import json

import numpy as np

from rpcheck import data_registry as reg
from rpcheck import engine

from .conftest import sparse_binary, write_svmlight


def _info(result):
    return next(json.loads(s) for s in result.cells["decide_info"] if isinstance(s, str) and '"data"' in s)


def _file(tmp_path, n=3100):
    X, y = sparse_binary(n, 400, np.random.default_rng(9), density=0.01)
    return write_svmlight(tmp_path / "rcv1_train.binary.bz2", X, y, compress=True)


def test_sparse_scale_on_the_real_format(tmp_path):
    f = _file(tmp_path)
    res = engine.run(["lei2020.sparse_scale"], profile="quick", trials=2, backend="serial",
                     overrides={"data_source": reg.data_setting({"rcv1-binary": str(f)}), "r": 8})
    info = _info(res)
    assert info["data"].startswith(f"real data: {f.resolve()} sha256 {reg._sha256(f)} (3,000 of the file's 3,100 rows")
    rows = [r for r in info["table"] if r.get("paper_acc") is not None]
    assert rows and all(isinstance(r["acc_agrees"], bool | type(None)) for r in rows)
    mem = res.cells[res.cells["variant"] == "memory_model"].iloc[0]
    assert mem["verdict"] != "VIOLATED"  # the memory model is derived for any sparse input


def test_sparse_baselines_on_the_real_format(tmp_path):
    f = _file(tmp_path)
    res = engine.run(["lei2020.sparse_baselines"], profile="quick", trials=1, backend="serial",
                     overrides={"data_source": reg.data_setting({"rcv1-binary": str(f)}), "r": 8, "folds": 2})
    info = _info(res)
    assert info["data"].startswith(f"real data: {f.resolve()} sha256 ")
    assert any(r.get("method") == "all" and "paper_acc" in r for r in info["table"])

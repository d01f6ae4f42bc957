"""paul2014.repro.rcv1 on LIBSVM-format files (bz2): the split protocol and the paper's train/test protocol."""

import json

import numpy as np
import pytest

from rpcheck import data_registry as reg
from rpcheck import engine
from rpcheck.errors import RpcheckError

from .conftest import sparse_binary, write_svmlight

TID = "paul2014.repro.rcv1"
SMALL = {"rs": "64,128", "methods": "CW,RG"}


def _info(result):
    row = result.cells[result.cells["variant"] == "table4_error"].iloc[0]
    return json.loads(row["decide_info"])


def test_bz2_training_file_split_protocol(tmp_path):
    X, y = sparse_binary(90, 300, np.random.default_rng(3))
    f = write_svmlight(tmp_path / "rcv1_train.binary.bz2", X, y, compress=True)
    res = engine.run([TID], profile="quick", trials=2, backend="serial",
                     overrides={"data_source": reg.data_setting({"rcv1-binary": str(f)}), "n": 60, **SMALL})
    info = _info(res)
    assert info["data"] == f"real data: {f.resolve()} sha256 {reg._sha256(f)}"
    full = info["paper_vs"][0]
    assert full["method"].startswith("full data, real, 60 training rows")
    assert isinstance(full["eps_out_agrees"], bool) or full["eps_out_agrees"] is None
    assert "printed_mean_test" in info["verdict_rule"]


def test_train_and_test_files_paper_protocol(tmp_path):
    rng = np.random.default_rng(4)
    for name, n in (("rcv1_train.binary.bz2", 60), ("rcv1_test.binary.bz2", 80)):
        write_svmlight(tmp_path / name, *sparse_binary(n, 300, rng), compress=True)
    res = engine.run([TID], profile="quick", trials=1, backend="serial",
                     overrides={"data_source": reg.data_setting({"rcv1-binary": str(tmp_path)}), "n": 60,
                                "test_rows": 30, **SMALL})
    info = _info(res)
    assert info["data"].count("real data: ") == 2  # both files named, each with its hash
    assert "30 test rows from the test file" in info["paper_vs"][0]["method"]


def test_standin_when_nothing_is_given():
    res = engine.run([TID], profile="quick", trials=1, backend="serial", overrides=SMALL)
    assert _info(res)["data"].startswith("stand-in: rcv1-binary")


def test_missing_directory_file_is_one_error(tmp_path):
    with pytest.raises(RpcheckError, match="holds none of"):
        reg.resolve("rcv1-binary", reg.data_setting({"rcv1-binary": str(tmp_path)}))


def test_multiclass_bz2_keeps_the_class_labels(tmp_path):
    rng = np.random.default_rng(8)
    n, d = 90, 300
    y = np.arange(n) % 3 + 1
    X = (rng.random((n, d)) < 0.05) * rng.random((n, d))
    X[np.arange(n), y * 5] += 1.0  # one word per class
    f = write_svmlight(tmp_path / "rcv1_train.multiclass.bz2", X, y, compress=True)
    res = engine.run(["paul2014.repro.rcv1_multiclass"], profile="quick", trials=2, backend="serial",
                     overrides={"data_source": reg.data_setting({"rcv1-multiclass": str(f)}), "n": 90,
                                "methods": "CW,RG"})
    row = res.cells[res.cells["variant"] == "table3_error"].iloc[0]
    info = json.loads(row["decide_info"])
    assert info["data"] == f"real data: {f.resolve()} sha256 {reg._sha256(f)}"
    assert info["paper_vs"][0]["method"].startswith("full data, real, 90 training rows")
    assert "eps_out_agrees" in info["paper_vs"][0]

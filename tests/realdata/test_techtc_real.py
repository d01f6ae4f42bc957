"""paul2014.repro.techtc and paul2014.pca on TechTC-300 pair folders (vectors.dat + features.idx)."""

import json

import numpy as np

from rpcheck import data_registry as reg
from rpcheck import engine

from .conftest import write_techtc


def _infos(result, variant):
    return [json.loads(r["decide_info"]) for _, r in result.cells[result.cells["variant"] == variant].iterrows()]


def test_repro_techtc_on_pair_folders(tmp_path):
    root = write_techtc(tmp_path / "techtc")
    res = engine.run(["paul2014.repro.techtc"], profile="quick", trials=2, backend="serial",
                     overrides={"data_source": reg.data_setting({"techtc300": str(root)}), "folds": 2})
    infos = _infos(res, "table2_eps_out")
    assert infos and all(i["data"].startswith(f"real data: {root.resolve()} sha256 ") for i in infos)
    full = next(r for r in infos[0]["paper_vs"] if str(r.get("method", "")).startswith("full data, real"))
    assert isinstance(full.get("eps_out_agrees"), bool | type(None)) and "printed_mean_test" in infos[0]["verdict_rule"]


def test_pair_draws_come_from_the_folders(tmp_path):
    from rpcheck.papers.paul2014._realdata import techtc_pair, techtc_pairs

    root = write_techtc(tmp_path / "techtc", pairs=3)
    src = reg.resolve("techtc300", reg.data_setting({"techtc300": str(root)}))
    assert [p.name for p in techtc_pairs(src)] == ["Exp_100_200", "Exp_101_201", "Exp_102_202"]
    ds = techtc_pair(src, np.random.default_rng(0))
    assert ds.n == 40 and set(np.unique(ds.y)) == {-1.0, 1.0}


def test_cached_extracted_collection_is_used(empty_cache):
    where = empty_cache / "techtc300"
    write_techtc(where)
    (where / "techtc300.zip").write_bytes(b"PK\x05\x06" + b"\0" * 18)  # the archive as stored (not read)
    src = reg.resolve("techtc300")
    assert src.real and src.origin == "cache" and src.path("all") == str(where)


def test_pca_on_pair_folders(tmp_path):
    root = write_techtc(tmp_path / "techtc", n=30, d=1100)
    res = engine.run(["paul2014.pca"], profile="quick", trials=2, backend="serial",
                     overrides={"data_source": reg.data_setting({"techtc300": str(root)}), "folds": 2, "r": 64})
    rows = res.cells
    info = _infos(res, "eps_out_rg")[0]
    assert info["data"].startswith(f"real data: {root.resolve()} sha256 ")
    assert isinstance(info["rg"].get("eps_out_agrees"), bool | type(None)) and "verdict_rule" in info
    # the exact identity holds on any data: never a counterexample on the real pairs
    ident = rows[rows["variant"] == "full_rank_pca_equals_full"].iloc[0]
    assert ident["verdict"] != "VIOLATED"

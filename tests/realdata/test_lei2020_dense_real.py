"""lei2020.dlss, lei2020.rsweep and lei2020.stability at their ``paper`` profile on small files of the paper's
dense sets (the profile's own code path; sizes reduced by overrides)."""

import json

import pytest

from rpcheck import data_registry as reg
from rpcheck import engine
from rpcheck.errors import RpcheckError

from .conftest import dense_sets

SMALL = {"dataset": "standin:mushrooms:100", "folds": 2, "c_grid": "ci"}


def _info(result):
    return next(json.loads(s) for s in result.cells["decide_info"] if isinstance(s, str) and '"data' in s)


@pytest.mark.parametrize(("tid", "extra"), [
    ("lei2020.dlss", {"r": 16}),
    ("lei2020.rsweep", {"r_values": "2,8"}),
    ("lei2020.stability", {"r_values": "2,8"}),
])
def test_paper_profile_on_small_real_files(tmp_path, tid, extra):
    sets = dense_sets(tmp_path / "data")
    over = {**SMALL, **extra, "data_source": reg.data_setting(sets)}
    if tid == "lei2020.stability":
        over.pop("folds")
    res = engine.run([tid], profile="paper", trials=2, backend="serial", overrides=over)
    text = json.dumps(_info(res))
    assert f"real data: {reg.data_setting(sets).split(';')[1].split('=')[1]} sha256 " in text  # mushrooms


def test_stability_paper_needs_only_mushrooms(tmp_path):
    with pytest.raises(RpcheckError, match=r"'mushrooms' is not present.*rpcheck data fetch mushrooms") as e:
        engine.run(["lei2020.stability"], profile="paper", backend="serial")
    assert "gisette" not in str(e.value)

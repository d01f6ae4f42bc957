"""shi2012.fig3_4's Fig. 4 cells on a CSV export of handwritten digits (the TiCC registry entry)."""

import json

import numpy as np

from rpcheck import data_registry as reg
from rpcheck import engine


def test_fig4_cell_on_a_csv_file(tmp_path):
    rng = np.random.default_rng(12)
    n, d = 700, 64
    y = np.arange(n) % 10
    X = rng.random((n, d)) * 0.3
    X[np.arange(n), y * 6] += 1.0
    f = tmp_path / "ticc_digits.csv"
    np.savetxt(f, np.column_stack([X, y]), delimiter=",", fmt="%.5g")
    res = engine.run(["shi2012.fig3_4"], profile="ci", trials=2, backend="serial",
                     overrides={"data_source": reg.data_setting({"ticc-digits": str(f)})})
    rows = res.cells[res.cells["variant"] == "fig4_accuracy"]
    info = json.loads(next(s for s in rows["decide_info"] if isinstance(s, str) and "fig4" in s))
    assert info["data"].startswith(f"real data: {f.resolve()} sha256 {reg._sha256(f)}")
    assert 0.0 <= info["fig4"]["accuracy_projected"] <= 1.0
    fig3 = [json.loads(r["decide_info"]) for _, r in res.cells[res.cells["variant"] == "fig3a"].iterrows()
            if json.loads(r["params"])["panel"] == "fig3"]
    assert fig3 and all("stand-in of Fig. 3" in i["data"] for i in fig3)  # the Fig. 3 cells keep their stand-in

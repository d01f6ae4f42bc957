"""lei2020.sparse_scale: the three Table 2 sparse sets (domains, cells, the control's budget derivation)."""

import numpy as np
import pytest
import scipy.sparse as sp

from rpcheck.papers.lei2020 import _common as c
from rpcheck.papers.lei2020 import sparse_scale as ss
from rpcheck.sketches import make_sketch
from rpcheck.standins import LEI2020_SHAPES

TH = ss.THEOREM

#: the module docstring's density caps rho (nnz <= rho n d) for the control's derivation
RHO = {"rcv1-binary": 0.0017, "real-sim": 0.0026, "news20-binary": 0.00036}


def test_rcv1_cells_unchanged():
    """The rcv1-binary cells (which long runs use) keep their parameter dicts exactly (with the data source
    "auto": the real file when given or fetched, else the stand-in)."""
    rcv1 = {
        "quick": dict(dataset="rcv1-binary", n=3000, r=32, c_grid="fixed", folds=0, data_source="auto"),
        "ci": dict(dataset="rcv1-binary", n=3000, r=64, c_grid="fixed", folds=0, data_source="auto"),
        "standard": dict(dataset="rcv1-binary", n=20242, r=256, c_grid="ci", folds=3, data_source="auto"),
        "full": dict(dataset="rcv1-binary", n=20242, r=256, c_grid="paper", folds=5, data_source="auto"),
    }
    for prof, cell in rcv1.items():
        cells = TH.profiles[prof].cells
        assert cells[0] == cell, prof
        assert [k for k in cells if k["dataset"] == "rcv1-binary"] == [cell], prof


def test_every_set_covered_at_ci_with_paper_width():
    seen = {cell["dataset"] for cell in TH.profiles["ci"].cells}
    assert seen == set(ss.DATASETS)
    for prof in ("standard", "full"):
        for cell in TH.profiles[prof].cells:
            assert cell["n"] == ss.PAPER_ROWS[cell["dataset"]], (prof, cell)  # Table 3's rows at the larger profiles


def test_paper_rows_and_numbers():
    assert ss.PAPER_ROWS == {"rcv1-binary": 20_242, "real-sim": 72_309, "news20-binary": 19_996}
    from rpcheck.compare import PAPER_TABLE2

    for name in ss.DATASETS:
        assert set(ss.PAPER_KEY.values()) <= set(PAPER_TABLE2[name]), name


@pytest.mark.parametrize(
    "params, ok",
    [
        (dict(dataset="real-sim", n=72_309, r=256, c_grid="paper", folds=5), True),
        (dict(dataset="news20-binary", n=19_996, r=256, c_grid="paper", folds=5), True),
        (dict(dataset="news20-binary", n=19_997, r=256, c_grid="paper", folds=5), False),
        (dict(dataset="rcv1-binary", n=20_243, r=64, c_grid="fixed", folds=0), False),
        (dict(dataset="real-sim", n=2_999, r=64, c_grid="fixed", folds=0), False),
        (dict(dataset="gisette", n=3000, r=64, c_grid="fixed", folds=0), False),
    ],
)
def test_domains(params, ok):
    why = TH.cell_problem(params)
    assert (why is None) == ok, why


def _csr_with(n, d, nnz):
    """A CSR matrix of shape (n, d) with about ``nnz`` stored entries (the memory model reads only
    shape, nnz, dtype and format)."""
    k = max(1, nnz // n)
    indptr = np.arange(n + 1, dtype=np.int64) * k
    indices = np.tile(np.arange(k, dtype=np.int32), n)
    return sp.csr_matrix((np.ones(n * k), indices, indptr), shape=(n, d))


@pytest.mark.parametrize("name", ss.DATASETS)
@pytest.mark.parametrize("r", [32, 64, 256])
def test_control_certain_from_the_budget_bound(name, r):
    """The docstring's bound budget <= 40 nnz + 48 d + (64 + 9 r) n + 2^29 + 2^21 holds for the implementation's
    model, and 8 n d' exceeds it at n = 3000 and at Table 3's rows, with nnz at the density cap rho."""
    d = LEI2020_SHAPES[name]["d"]
    for n in (3000, ss.PAPER_ROWS[name]):
        X = _csr_with(n, d, int(RHO[name] * n * d))
        S = make_sketch("se-isrht", d, r, method="topr", rng=0)
        budget = S._fit_bytes(X, True) + S._apply_bytes(X, True) + ss._PY_OBJECTS
        bound = 40 * X.nnz + 48 * d + (64 + 9 * r) * n + 2**29 + 2**21
        assert budget <= bound, (name, n, r, budget, bound)
        assert 8.0 * n * c.dpad(d) > bound, (name, n, r)

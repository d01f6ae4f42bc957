"""``rpcheck advise FILE``: the smallest r per sketch kind (rpcheck.advise)."""

import json
import re

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file

from rpcheck import advise as adv
from rpcheck.cli import EXIT_OK, EXIT_USAGE, main
from rpcheck.stats import clopper_pearson

COLUMNS = ["kind", "event", "r_hat", "status", "bracket_low", "failures", "trials", "rate", "ci_low", "ci_high",
           "upper", "confirmed", "r_paper", "formula", "r_derived"]  # fmt: skip


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def sparse_file(tmp_path_factory):
    """A sparse svmlight fixture (120 x 300, ~3% nonzeros): one label column 2 y, one constant column, noise."""
    rng = np.random.default_rng(20261202)
    n, d = 120, 300
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    noise = sp.random(n, d - 2, density=0.03, random_state=np.random.RandomState(1), format="csr")
    X = sp.hstack([sp.csr_matrix(np.column_stack([2.0 * y, np.ones(n)])), noise]).tocsr()
    path = tmp_path_factory.mktemp("advise") / "fixture.svmlight"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    return str(path)


def _check_table(res, max_r):
    df = res.frame()
    assert list(df.columns) == COLUMNS
    assert len(df) == len(res.rows)
    for row in res.rows:
        assert row.status in ("found", "at_minimum", "not_found")
        if row.r_hat is None:
            assert row.status == "not_found" and row.bracket_low == max_r
            continue
        assert 1 <= row.r_hat <= max_r
        assert row.bracket_low is None or row.bracket_low < row.r_hat
        # the exact intervals at r_hat contain the measured rate, and the one-sided bound passed
        assert row.ci_low <= row.rate <= row.ci_high
        assert row.upper <= res.delta
        assert row.trials == res.trials  # r_hat passed: its cell ran every trial
        assert (row.ci_low, row.ci_high) == clopper_pearson(row.failures, row.trials, res.per_test_confidence)
        assert row.r_paper >= 1 and row.formula.endswith("c = 1")


def _check_html(path):
    text = path.read_text()
    assert text.startswith("<!DOCTYPE html>")
    assert re.search(r'<img [^>]*src="data:image/png;base64,[A-Za-z0-9+/=]{100,}"', text)
    # self-contained: no external resource of any kind
    assert not re.search(r'(src|href)="(?!data:)', text) and "http" not in text and "<script" not in text
    assert "r_hat" in text and "Clopper-Pearson" in text


@pytest.fixture(scope="module")
def bundled_advice():
    return adv.advise("breast_cancer", kinds=("gaussian", "srht"))


def test_advise_on_a_bundled_set(bundled_advice, tmp_path):
    res = bundled_advice
    assert res.data["n"] == 569 and res.data["d"] == 30 and res.max_r == 30
    _check_table(res, 30)
    assert {(r.kind, r.event) for r in res.rows} == {(k, e) for k in ("gaussian", "srht") for e in adv.EVENTS}
    _check_html(adv.write_html(res, tmp_path))
    assert (tmp_path / "advise.csv").is_file()
    # the rule states the test and the table's error rate
    assert "Clopper-Pearson" in res.rule and f"<= {1 - res.confidence:.3g}" in res.rule


def test_advise_on_a_sparse_fixture(capsys, sparse_file, tmp_path):
    code, out, err = run(capsys, "advise", sparse_file, "--kinds", "gaussian", "countsketch", "--out", str(tmp_path),
                         "--json")  # fmt: skip
    assert code == EXIT_OK, err
    doc = json.loads(out)
    assert doc["data"]["sparse"] and (doc["data"]["n"], doc["data"]["d"]) == (120, 300)
    assert doc["label"].startswith("data: ") and "(120 x 300, sparse" in doc["label"]
    rows = doc["rows"]
    assert [list(r) for r in rows] == [COLUMNS] * 4
    for r in rows:
        if r["r_hat"] is not None:
            assert 1 <= r["r_hat"] <= 300 and r["ci_low"] <= r["rate"] <= r["ci_high"] and r["upper"] <= 0.1
    acc = [r for r in rows if r["event"] == "accuracy"]
    assert all(r["r_hat"] is not None and r["r_hat"] < 300 for r in acc)  # the label column survives small r
    _check_html(tmp_path / "advise.html")
    assert doc["html"] == str(tmp_path / "advise.html")


def test_advise_prints_the_table(capsys, sparse_file):
    code, out, _ = run(capsys, "advise", sparse_file, "--kinds", "countsketch", "--max-r", "64")
    assert code == EXIT_OK
    lines = out.splitlines()
    assert lines[0].startswith("data: ") and "(120 x 300, sparse" in lines[0]
    header = lines[2].split()
    assert header == COLUMNS
    assert any(line.startswith("rule: ") for line in lines)


def test_advise_agrees_with_rpcheck_constant(capsys):
    """Same data, event, seed, trials and per-test confidence: `rpcheck constant rpcheck.advise:THEOREM`
    (THEOREM's cell is breast_cancer at the defaults; its constant_search variant is "accuracy") finds the
    same r and bracket as advise with the same search budget."""
    res = adv.advise("breast_cancer", kinds=("gaussian",), events=("accuracy",), trials=100, bisect_steps=8, seed=3)
    (row,) = res.rows
    code, out, err = run(capsys, "constant", "rpcheck.advise:THEOREM", "--backend", "serial", "--trials", "100",
                         "--seed", "3", "--confidence", repr(res.search_confidence), "--json")  # fmt: skip
    assert code == EXIT_OK, err
    (const,) = json.loads(out)
    assert const["empirical"] == row.r_hat and const["status"] == row.status
    assert const["bracket_low"] == row.bracket_low


def test_early_stop_keeps_the_full_cells_decision():
    """A value stopped after its first trials is one the full cell also rejects (same seeds, prefix counts)."""
    from rpcheck.engine.runner import run_cell

    res = adv.advise("breast_cancer", kinds=("gaussian",), events=("margin",), trials=100)
    (row,) = res.rows
    early = [e for e in row.evaluations if e.n < 100]
    assert early  # the margin search rejects its values after a few draws
    params = dict(adv.THEOREM.profiles["ci"].cells[0], r=int(early[0].value))
    full = run_cell(adv.THEOREM, params, trials=100, seed=0).variants["margin"]
    assert full.failures >= early[0].failures
    assert clopper_pearson(full.failures, full.evaluated, res.per_test_confidence, "less")[1] > res.delta


@pytest.mark.parametrize(
    "argv, name",
    [
        (["--eps", "1.5"], "`eps`"),
        (["--eps", "0"], "`eps`"),
        (["--delta", "1"], "`delta`"),
        (["--kinds", "gaussian", "nope"], "`kinds`"),
        (["--test-fraction", "1.2"], "`test_fraction`"),
    ],
)
def test_bad_arguments_exit_2_one_line(capsys, argv, name):
    code, out, err = run(capsys, "advise", "breast_cancer", *argv)
    assert code == EXIT_USAGE and out == ""
    assert len(err.strip().splitlines()) == 1 and name in err


def test_missing_file_exit_2_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "advise", str(tmp_path / "missing.svmlight"))
    assert code == EXIT_USAGE and len(err.strip().splitlines()) == 1 and "`FILE`" in err


def test_rank_is_the_row_space_dimension():
    """advise's rank (singular values only) equals the dimension of rpcheck.linalg.row_space_basis (the oracle) on a
    rank-deficient wide matrix, dense and CSR."""
    import types

    import scipy.sparse as sp

    from rpcheck.advise import _rank
    from rpcheck.linalg import row_space_basis

    rng = np.random.default_rng(3)
    X = rng.standard_normal((30, 7)) @ rng.standard_normal((7, 400))
    X[:, rng.random(400) < 0.5] = 0.0
    train = np.arange(25)
    oracle = row_space_basis(X[train]).shape[1]
    assert oracle == 7
    for data, sparse in ((X, False), (sp.csr_matrix(X), True)):
        ud = types.SimpleNamespace(X=data, sparse=sparse, d=400)
        assert _rank(ud, train) == (oracle, False)


def test_streamed_sketches_give_the_explicit_paths_table(sparse_file, monkeypatch):
    """Gaussian and sparse R drawn in row blocks (the fast path) and as explicit matrices through make_sketch
    (the slow path) draw the same R; on this small input the two tables agree in every searched r, status,
    bracket and count."""
    fast = adv.advise(sparse_file, kinds=("gaussian", "sparse"), max_r=64, trials=80)
    monkeypatch.setattr(adv, "STREAMED_KINDS", ())
    slow = adv.advise(sparse_file, kinds=("gaussian", "sparse"), max_r=64, trials=80, seed=0)
    keys = ("kind", "event", "r_hat", "status", "bracket_low", "failures", "trials")
    assert [[getattr(r, k) for k in keys] for r in fast.rows] == [[getattr(r, k) for k in keys] for r in slow.rows]
    assert [r.evaluations for r in fast.rows] != [] and all(
        [(e.value, e.failures, e.n) for e in a.evaluations] == [(e.value, e.failures, e.n) for e in b.evaluations]
        for a, b in zip(fast.rows, slow.rows)
    )


def test_every_trial_runs_once(sparse_file, monkeypatch):
    """The early-stopping probes and the two events' searches re-read the trials already run: over a whole
    table, no (cell, trial seed) is computed twice, and a kept record is the one a fresh computation gives."""
    from rpcheck.engine import canonical_json, trial_rng

    seen = []
    inner = adv._trial

    def counting(ud, params, rng):
        seen.append((canonical_json(params), repr(rng.bit_generator.state)))
        return inner(ud, params, rng)

    monkeypatch.setattr(adv, "_trial", counting)
    res = adv.advise(sparse_file, kinds=("countsketch",), max_r=64, trials=80, seed=7)
    assert seen and len(seen) == len(set(seen))
    # the records are those of a fresh computation (same outcomes)
    cell = dict(adv.THEOREM.profiles["ci"].cells[0], data=res.data["path"], kind="countsketch", r=16,
                data_sha256=res.data["sha256"][:16])  # fmt: skip
    assert any((canonical_json(cell), repr(trial_rng(adv.THEOREM.id, cell, 0, 7).bit_generator.state)) == s
               for s in seen)  # fmt: skip
    rng_a = trial_rng(adv.THEOREM.id, cell, 0, 7)
    kept = adv.advise_trial(cell, rng_a)
    fresh = inner(adv.trial_data(cell), cell, trial_rng(adv.THEOREM.id, cell, 0, 7))
    assert {k: o.holds for k, o in kept.outcomes.items()} == {k: o.holds for k, o in fresh.outcomes.items()}
    assert kept.diagnostics == fresh.diagnostics


def test_every_trial_runs_once_negative_control(sparse_file, monkeypatch):
    """Without the kept records (a fresh store per trial), the probes recompute their first trials: the count
    of the test above sees repeats."""
    seen = []
    inner = adv._trial
    real = adv.trial_data

    class Forgetful:
        def __init__(self, ud):
            self._ud = ud

        def __getattr__(self, name):
            return getattr(self._ud, name)

        def memo(self, key, fn):
            return {} if key == ("advise_trials",) else self._ud.memo(key, fn)

    def counting(ud, params, rng):
        seen.append((params["r"], repr(rng.bit_generator.state)))
        return inner(ud, params, rng)

    monkeypatch.setattr(adv, "trial_data", lambda params: Forgetful(real(params)))
    monkeypatch.setattr(adv, "_trial", counting)
    adv.advise(sparse_file, kinds=("countsketch",), max_r=32, trials=80, seed=7)
    assert len(seen) > len(set(seen))

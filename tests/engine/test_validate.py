"""One validation path for a cell's parameters (rpcheck.engine.validate): ``--set``, ``run(overrides=...)``,
``run_cell`` and ``replay`` refuse the same bad values, with one error naming the parameter, before any trial;
the memory model (rpcheck.engine.theorem.trial_memory) refuses a cell whose trial cannot fit."""

import json

import numpy as np
import pytest

from rpcheck.cli import main
from rpcheck.engine import _worker, registry, run, run_cell
from rpcheck.engine.theorem import PROFILES, Param, Theorem, trial_memory
from rpcheck.engine.validate import check_params
from rpcheck.errors import RpcheckError

LEMMA = "paul2014.lemma3.4"
MARGIN = "paul2014.thm3.5"
GIB = 2**30


@pytest.fixture
def one_gib(monkeypatch):
    """A machine-independent memory limit (rpcheck._validation.available_memory honours it)."""
    monkeypatch.setenv("RPCHECK_MAX_MEMORY", str(GIB))


@pytest.fixture
def no_trial(monkeypatch):
    """Fail the test if any trial starts (the checks must come first)."""

    def boom(*a, **k):
        raise AssertionError("a trial ran before the parameters were validated")

    monkeypatch.setattr(_worker, "_execute_trial", boom)


def _cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_memory_model_is_the_largest_declared_array():
    th = registry.get(LEMMA)
    cell = dict(th.profiles["quick"].cells[0])
    nbytes, what, args = trial_memory(th, {**cell, "r": 10**12})
    assert nbytes == 8 * cell["d"] * 10**12 and args == {"d": cell["d"], "r": 10**12} and "(d, r)" in what
    # a sparse kind holds no dense (d, r) matrix: only V (d, rho) and vectors of length r
    sparse = {**cell, "kind": "countsketch", "r": 10**6}
    assert trial_memory(th, sparse)[0] == 8 * 10**6
    # the margin theorem declares X (n, d) and X R (n, r)
    m = registry.get(MARGIN)
    mc = dict(m.profiles["quick"].cells[0])
    assert trial_memory(m, {**mc, "n": 200_000, "d": 200_000})[0] == 8 * 200_000**2


def test_declared_cells_fit_the_memory_model_of_a_small_machine():
    """Every profile's own cells need at most 1 GiB by the model (0.47 GiB at most, paul2014.lemma3.2 at full)."""
    for th in registry.all_theorems():
        for prof in PROFILES:
            for cell in th.profiles[prof].cells:
                assert trial_memory(th, cell)[0] <= GIB, (th.id, prof, cell)


def test_set_a_huge_legal_value_is_a_usage_error_before_any_trial(capsys, one_gib, no_trial):
    code, out, err = _cli(capsys, "check", LEMMA, "--profile", "quick", "--trials", "3", "--backend", "serial",
                          "--quiet", "--set", "r=1000000000000")  # fmt: skip
    assert code == 2, err
    assert err.count("\n") == 1 and "`r` (1000000000000)" in err and "reduce `d` or `r`" in err
    assert "internal error" not in err


def test_run_and_run_cell_share_the_checks(one_gib, no_trial):
    th = registry.get(LEMMA)
    cell = dict(th.profiles["quick"].cells[0])
    with pytest.raises(RpcheckError, match=r"`r` \(1000000000000\)"):
        run(LEMMA, profile="quick", trials=2, backend="serial", overrides={"r": 10**12})
    for bad, pattern in [
        ({**cell, "r": 10**12}, r"`d` \(\d+\) and `r` \(1000000000000\) need"),
        ({**cell, "r": "abc"}, r"parameter 'r' = 'abc' is outside its domain"),
        ({**cell, "kind": "nope"}, r"parameter 'kind' = 'nope'"),
        ({**cell, "r": object()}, r"not JSON-serialisable"),
        ({**cell, "zzz": 1}, r"parameter 'zzz' is not declared"),
        ([("r", 1)], r"must be a dict"),
    ]:
        with pytest.raises(RpcheckError, match=pattern):
            run_cell(LEMMA, bad, trials=1, seed=0)


def test_check_params_accepts_every_declared_cell():
    th = registry.get(MARGIN)
    for cell in th.profiles["ci"].cells:
        assert check_params(th, cell) == cell


def test_param_size_is_for_ints_and_arrays_must_name_parameters():
    with pytest.raises(RpcheckError, match="size=True"):
        Param("float", size=True)
    th = registry.get(LEMMA)
    kw = {k: getattr(th, k) for k in ("id", "paper", "title", "citation", "statement", "kind", "variants",
                                      "profiles", "trial", "parameters", "constraints")}  # fmt: skip
    with pytest.raises(RpcheckError, match="`arrays`"):
        Theorem(**kw, arrays=("d", "r"))  # a shape, not a tuple of shapes


# ------------------------------------------------------------------ replay trusts nothing stored in the file


def _save_npz(dst, **arrays):
    with open(dst, "wb") as fh:
        np.savez(fh, **arrays)


def _with_meta(src, dst, **changes):
    with np.load(src, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays.pop("meta")[()]))
    meta.update(changes)
    _save_npz(dst, meta=np.asarray(json.dumps(meta)), **arrays)
    return dst


@pytest.fixture(scope="module")
def counterexample(tmp_path_factory):
    out = tmp_path_factory.mktemp("cx") / "run"
    code = main(["check", "lei2020.topr", "--profile", "quick", "--backend", "serial", "--out", str(out), "--quiet"])
    assert code == 0
    (path,) = sorted((out / "counterexamples").glob("*.npz"))
    return path


def test_replay_refuses_stored_params_outside_the_domain(capsys, tmp_path, counterexample, no_trial):
    bad = _with_meta(counterexample, tmp_path / "abc.npz", params=json.dumps({"instance": "printed", "r": "abc"}))
    code, out, err = _cli(capsys, "replay", str(bad))
    assert code == 2 and err.count("\n") == 1, err
    assert "`params` stored in" in err and "'r' = 'abc'" in err and "an int in [1, inf)" in err


def test_replay_refuses_stored_params_too_large_for_memory(capsys, tmp_path, counterexample, one_gib, no_trial):
    m = registry.get(MARGIN)
    params = {**m.profiles["quick"].cells[0], "n": 200_000, "d": 200_000}
    bad = _with_meta(counterexample, tmp_path / "big.npz", theorem=MARGIN, variant=m.variant_names[0],
                     params=json.dumps(params, sort_keys=True))  # fmt: skip
    code, out, err = _cli(capsys, "replay", str(bad))
    assert code == 2 and err.count("\n") == 1, err
    assert "`n` (200000) and `d` (200000) need" in err and "298 GiB" in err


def test_run_cell_leaves_constraints_to_the_searches_but_not_domains_or_memory(one_gib):
    """run_cell is the searches' layer (engine.constant varies m below Cor. 7's prescribed m)."""
    th = registry.get("zhang2013.cor7")
    cell = dict(th.profiles["quick"].cells[0])
    off_grid = {**cell, "m": cell["m"] - 1}
    with pytest.raises(RpcheckError, match="constraint"):
        check_params(th, off_grid)
    assert check_params(th, off_grid, constraints=False) == off_grid
    with pytest.raises(RpcheckError, match="outside its domain"):
        check_params(th, {**cell, "m": 0}, constraints=False)


# ------------------------------------------------------------------ a trial that runs out of memory anyway

_MEM_MODULE = '''
from rpcheck.engine import Citation, Outcome, Profile, Theorem, TrialRecord, Variant, register
from rpcheck._validation import check_memory


def trial(params, rng):
    if params["how"] == "numpy":
        raise MemoryError("Unable to allocate 298. GiB for an array with shape (200000, 200000)")
    check_memory(2**70, "a (n, d) float64 matrix", n=2**35, d=2**32)


THEOREM = register(Theorem(
    id="memtest.big", paper="memtest", title="t", citation=Citation("A", 2025, "T", "", "1"),
    statement="s", kind="probabilistic",
    variants=(Variant("v", "s", mode="bound", promised_failure=0.05),),
    profiles={p: Profile(cells=({"how": "numpy"}, {"how": "rpcheck"}), trials=2)
              for p in ("quick", "ci", "standard", "full")},
    trial=trial,
))
'''


def test_a_trial_out_of_memory_is_a_usage_error_naming_the_cell(tmp_path, monkeypatch, capsys):
    """The safety net behind the declared memory models: a trial's MemoryError, or rpcheck's own refusal
    (MemoryLimitError), ends the run with exit 2 and one line naming the trial and its parameters."""
    import pickle

    from rpcheck.engine import TrialError

    err = pickle.loads(pickle.dumps(TrialError("boom", True)))  # crosses process boundaries with its flag
    assert err.memory and str(err) == "boom"
    (tmp_path / "memtest_mod.py").write_text(_MEM_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    for how in ("numpy", "rpcheck"):
        code, out, err = _cli(capsys, "check", "memtest_mod:THEOREM", "--backend", "serial", "--quiet",
                              "--set", f"how={how}")  # fmt: skip
        assert code == 2 and err.count("\n") == 1, err
        assert "memtest.big" in err and f'"how":"{how}"' in err and "too large for this machine" in err
        assert ("MemoryError" if how == "numpy" else "MemoryLimitError") in err
    from rpcheck.engine.backends import shutdown_pools

    shutdown_pools()  # a pool cached by an earlier test was started without tmp_path on its workers' sys.path
    with pytest.raises(TrialError) as info:
        run("memtest.big", profile="quick", backend="processes", jobs=1, trials=1, overrides={"how": "numpy"})
    assert info.value.memory


# ------------------------------------------------------------------ one vector per row (_validation.check_vector)


def test_check_vector_returns_the_array_or_names_argument_and_rows():
    from rpcheck._validation import check_vector

    out = check_vector("y", [1, -1, 1], 3)
    assert isinstance(out, np.ndarray) and out.tolist() == [1, -1, 1]
    assert check_vector("t", np.zeros(7)).shape == (7,)  # n=None: any length
    with pytest.raises(RpcheckError, match=r"^`t` must be 1-dimensional; got shape \(3, 1\)\.$"):
        check_vector("t", np.zeros((3, 1)), 3)
    with pytest.raises(RpcheckError, match=r"^`t` has length 2 but X has 3 rows; they must match\.$"):
        check_vector("t", [0.0, 1.0], 3)

"""rpcheck.engine.bench and `rpcheck bench`: the category of each profiled function, the attribution of
library time to its callers, and one real (tiny) run through the CLI."""

import json
import os

import pytest

from rpcheck.cli import EXIT_OK, EXIT_USAGE, main
from rpcheck.engine.bench import CATEGORIES, _attribute, bench_theorem, category_of

SITE = os.path.join(os.sep, "venv", "lib", "python3.11", "site-packages")
RP = os.path.join(os.sep, "src", "rpcheck")


@pytest.mark.parametrize(
    ("path", "func", "cat"),
    [
        (os.path.join(RP, "sketches", "srht.py"), "apply", "sketch"),
        (os.path.join(RP, "svm", "svc.py"), "solve_svc", "solve"),
        (os.path.join(RP, "svm", "_ipm.py"), "_newton", "solve"),
        (os.path.join(RP, "svm", "kkt.py"), "decision_values", "certificate"),
        (os.path.join(RP, "svm", "drp.py"), "hinge_dual_gap", "certificate"),
        (os.path.join(RP, "papers", "paul2014", "margin.py"), "trial", "trial"),
        (os.path.join(RP, "linalg.py"), "embedding_distortion", "trial"),
        (os.path.join(RP, "engine", "store.py"), "save_chunk", "engine"),
        (os.path.join(RP, "stats", "rules.py"), "decide", "engine"),
        (os.path.join(SITE, "cvxpy", "problems", "problem.py"), "get_problem_data", "canonicalisation"),
        (os.path.join(SITE, "cvxpy", "reductions", "solvers", "conic_solvers", "clarabel_conif.py"),
         "solve_via_data", "solve"),
        (os.path.join(SITE, "clarabel", "__init__.py"), "solve", "solve"),
        (os.path.join(SITE, "numpy", "linalg", "_linalg.py"), "svd", None),
        ("~", "<built-in method numpy.core._multiarray_umath.c_einsum>", None),
    ],
)
def test_category_of(path, func, cat):
    assert category_of(path, func) == cat


def _key(path, name):
    return (path, 1, name)


def test_attribution_passes_library_time_to_callers_in_proportion():
    svd = _key(os.path.join(SITE, "numpy", "linalg", "_linalg.py"), "svd")
    chk = _key(os.path.join(RP, "papers", "x.py"), "trial")
    ipm = _key(os.path.join(RP, "svm", "_ipm.py"), "_newton")
    root = _key("~", "<root>")
    stats = {
        # svd: 4 s own time, 1 s of it called from the checker and 3 s from the IPM
        svd: (2, 2, 4.0, 4.0, {chk: (1, 1, 1.0, 1.0), ipm: (1, 1, 3.0, 3.0)}),
        chk: (1, 1, 0.5, 1.5, {root: (1, 1, 0.5, 1.5)}),
        ipm: (1, 1, 0.25, 3.25, {root: (1, 1, 0.25, 3.25)}),
        root: (1, 1, 0.1, 4.85, {}),
    }
    sec = _attribute(stats)
    assert set(sec) == set(CATEGORIES)
    assert sec["trial"] == pytest.approx(0.5 + 1.0)
    assert sec["solve"] == pytest.approx(0.25 + 3.0)
    assert sec["other"] == pytest.approx(0.1)
    assert sum(sec.values()) == pytest.approx(sum(v[2] for v in stats.values()))


def test_attribution_survives_recursion():
    f = _key(os.path.join(SITE, "pkg", "m.py"), "f")
    chk = _key(os.path.join(RP, "papers", "x.py"), "trial")
    stats = {f: (3, 1, 2.0, 2.0, {f: (2, 2, 1.0, 1.0), chk: (1, 1, 1.0, 2.0)}), chk: (1, 1, 0.0, 2.0, {})}
    sec = _attribute(stats)
    assert sum(sec.values()) == pytest.approx(2.0)
    assert sec["trial"] > 0


def test_bench_theorem_counts_trials_and_shares_sum_to_one():
    row = bench_theorem("shi2012.fig1.margins", profile="quick", trials=3)
    assert row.trials == 3 * row.cells and row.cells >= 1
    assert row.wall_s > 0 and row.trials_per_s > 0
    assert sum(row.shares.values()) == pytest.approx(1.0)
    assert 0 <= row.fixed_share <= 1
    # the unprofiled measure: the trial functions' summed time is part of the wall time
    assert 0 < row.trial_s < row.wall_s
    assert 0 < row.outside_share < 1 and row.outside_share <= row.fixed_share_unprofiled <= 1
    assert 0 <= row.per_trial_share <= row.outside_share and 0 <= row.per_run_s < row.wall_s
    assert row.fixed_per_trial <= row.fixed_share_unprofiled
    assert row.over_limit == (row.fixed_per_trial > 0.20)


def test_cli_bench_json_and_errors(capsys, tmp_path):
    out = tmp_path / "b.csv"
    code = main(["bench", "shi2012.fig1.margins", "--profile", "quick", "--trials", "2", "--json", "--out", str(out)])
    rows = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK and rows[0]["theorem"] == "shi2012.fig1.margins" and out.exists()
    # never overwrites, unknown ids and bad trial counts are one-line usage errors
    for argv in (["bench", "shi2012.fig1.margins", "--out", str(out)], ["bench", "nosuch.id"],
                 ["bench", "shi2012.fig1.margins", "--trials", "0"]):  # fmt: skip
        with pytest.raises(SystemExit) if argv[-1] == "0" else _nullcontext() as exc:
            code = main(argv)
        code = exc.value.code if argv[-1] == "0" else code
        err = capsys.readouterr().err
        assert code == EXIT_USAGE, argv
        assert err.strip().count("\n") == 0 and "error" in err


class _nullcontext:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

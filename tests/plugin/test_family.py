"""Suite-level error control of the pytest plugin: weighted Bonferroni over the collected theorem tests
(alpha * m_i / M per theorem run, Holm inside each run), the warning for tests outside the family, the summary
line and the theorem_result fixture."""

import os
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = str(Path(__file__).resolve().parent.parent.parent)


@pytest.fixture(autouse=True)
def _this_checkout(monkeypatch):
    """The subprocess imports the plugin (entry point rpcheck.pytest_plugin) from this checkout."""
    monkeypatch.setenv("PYTHONPATH", ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))

CONFTEST = """
from rpcheck.engine import Citation, Outcome, Profile, TrialRecord, Variant, Verdict, registry
from rpcheck.engine import Theorem

CIT = Citation(authors="Test", year=2024, title="synthetic", venue="tests", location="none")


def trial(params, rng):
    u = rng.random()
    o = Outcome(holds=u >= params["p"], statistic=u, bound=params["p"])
    return TrialRecord(outcomes={"bound": o, "det": Outcome(holds=True)})


def make(tid, cells, det=False):
    variants = [Variant("bound", "U >= p", mode="bound", promised_failure=0.2, expected=Verdict.HOLDS)]
    if det:
        variants.append(Variant("det", "always", mode="deterministic"))
    prof = Profile(cells=tuple(cells), trials=400)
    return registry.register(Theorem(
        id=tid, paper="fam", title=tid, citation=CIT, statement="P(U < p) <= 0.2", kind="probabilistic",
        variants=tuple(variants), profiles={k: prof for k in ("quick", "ci", "standard", "full")}, trial=trial,
    ))


# P(U < p) = p <= 0.2 / 4: with 400 draws HOLDS has power > 0.999 at any level >= 0.01 / 3 (exact binomial;
# not asserted here, the tests below only look at levels)
make("fam.a", [{"p": 0.01}, {"p": 0.02}])          # family size 2
make("fam.b", [{"p": 0.01}], det=True)             # family size 1 (the deterministic row is outside Holm)
"""

TESTS = """
import pytest
from rpcheck.testing import verify_theorem


@pytest.mark.theorem(id="fam.a")
def test_a(theorem_result):
    assert theorem_result.provenance["alpha"] == pytest.approx(0.01 * 2 / 3)


@pytest.mark.theorem(id="fam.b")
def test_b():
    res = verify_theorem("fam.b")
    assert res.provenance["alpha"] == pytest.approx(0.01 * 1 / 3)


@pytest.mark.theorem
def test_without_id():
    res = verify_theorem("fam.b", alpha=0.01)   # explicit alpha: the per-test level
    assert res.provenance["alpha"] == 0.01
"""


def _run(pytester, *args):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_fam=TESTS)
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", "--rpcheck-backend=serial", *args)


def test_weighted_bonferroni_split_and_summary(pytester):
    result = _run(pytester)
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines([
        "*test_without_id has no id on its theorem marker*outside the suite-level error control*",
        "error control: P(any false VIOLATED) <= 0.01 over 3 statistical rows in 2 theorem runs (weighted "
        "Bonferroni); 1 theorem test(s) outside the family ran at alpha = 0.01 each",
    ])  # fmt: skip


def test_split_follows_the_selection(pytester):
    """With -k test_b only fam.b is in the family: M = 1, so its run gets the whole alpha."""
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(
        test_sel="""
import pytest
from rpcheck.testing import verify_theorem

@pytest.mark.theorem(id="fam.a")
def test_a(theorem_result):
    pass

@pytest.mark.theorem(id="fam.b")
def test_b(theorem_result):
    assert theorem_result.provenance["alpha"] == 0.01
"""
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--rpcheck-backend=serial", "-k", "test_b")
    result.assert_outcomes(passed=1, deselected=1)
    result.stdout.fnmatch_lines(["error control: * <= 0.01 over 1 statistical rows in 1 theorem runs*"])


def test_theorem_result_needs_an_id(pytester):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(
        test_x="""
import pytest

@pytest.mark.theorem
def test_x(theorem_result):
    pass
"""
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--rpcheck-backend=serial")
    result.stdout.fnmatch_lines(["*theorem_result fixture needs @pytest.mark.theorem(id=...)*"])
    assert result.ret != 0


def test_same_summary_under_xdist(pytester):
    """Under pytest-xdist (-n 2) every worker plans the same family and the controller merges the workers'
    results: the error-control line and the verdict summary are those of the run without xdist, and the
    report (written by the controller from the workers' trial tables) covers both theorems."""
    serial = _run(pytester)
    serial.assert_outcomes(passed=3)
    lines = serial.stdout.lines
    control = next(x for x in lines if x.startswith("error control:"))
    verdicts = lines[lines.index(next(x for x in lines if "rpcheck verdicts" in x)) + 1]
    report = pytester.path / "xdist-report.html"
    result = _run(pytester, "-n", "2", f"--rpcheck-report={report}")
    result.assert_outcomes(passed=3)
    out = result.stdout.lines
    assert control in out
    assert verdicts in out
    assert verdicts.startswith("2 theorems")
    html = report.read_text()
    assert "fam.a" in html and "fam.b" in html

"""The pytest plugin: options, marker, header, the theorem_check fixture, summary and report."""

import pytest

pytest_plugins = ["pytester"]

USER_TEST = """
import numpy as np
import pytest
from rpcheck.engine import Outcome, TrialRecord, Variant, Verdict


def _trial(params, rng):
    # ||g||^2 / n for a standard Gaussian g in R^n is chi2_n / n; the claim "it is <= 1 + eps" fails with
    # probability P(chi2_n > n(1+eps)) = 0.0007... for n=400, eps=0.25 (promised 0.05: holds) and
    # about 0.44 for n=4, eps=0.25 (promised 0.05: violated).
    g = rng.standard_normal(params["n"])
    stat = float(g @ g / params["n"])
    bound = 1 + params["eps"]
    return TrialRecord(outcomes={"stated": Outcome(holds=stat <= bound, statistic=stat, bound=bound)})


@pytest.mark.theorem(id="user.chi2")
def test_user_theorem(theorem_check):
    result = theorem_check(
        id="user.chi2",
        statement="||g||^2/n <= 1 + eps with probability >= 0.95",
        trial=_trial,
        variants=[Variant("stated", "||g||^2/n <= 1+eps", mode="bound", promised_failure=0.05,
                          expected=lambda p: Verdict.HOLDS if p["n"] >= 100 else Verdict.VIOLATED)],
        cells=[{"n": 400, "eps": 0.25}, {"n": 4, "eps": 0.25}],
        trials=300,
    )
    verdicts = dict(zip(result.cells["p_n"], result.cells["verdict"]))
    assert verdicts == {400: "HOLDS", 4: "VIOLATED"}
"""


def test_theorem_check_fixture_in_an_external_project(pytester):
    pytester.makepyfile(test_user=USER_TEST)
    report = pytester.path / "report.html"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--rpcheck-seed=7", f"--rpcheck-report={report}"
    )
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        ["rpcheck: profile=ci seed=7*", "*rpcheck verdicts*", "*claims (bound: 1 HOLDS, 1 VIOLATED)*"]
    )
    text = report.read_text(encoding="utf-8")
    assert "user.chi2" in text and "VIOLATED" in text


def test_marker_rejects_unknown_keywords(pytester):
    pytester.makepyfile(
        """
        import pytest
        @pytest.mark.theorem(bogus=1)
        def test_x():
            pass
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["*theorem mark can't have *bogus* keyword*"])
    assert result.ret != 0


def test_options_are_validated(pytester):
    pytester.makepyfile("def test_x():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--rpcheck-alpha=2")
    result.stderr.fnmatch_lines(["*--rpcheck-alpha*expected a number in (0, 1)*"])
    assert result.ret == pytest.ExitCode.USAGE_ERROR

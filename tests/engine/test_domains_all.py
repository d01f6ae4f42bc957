"""Every registered theorem declares the domain of every parameter, and every profile cell lies in it."""

import pytest

from rpcheck.engine import all_theorems, run, undeclared_parameters
from rpcheck.engine.theorem import PROFILES
from rpcheck.errors import RpcheckError

PAPERS = ("paul2014", "shi2012", "zhang2013", "alpcan2016", "lei2020")


def test_every_theorem_declares_its_parameters():
    # the synthetic engine_test.* claims of tests/engine are registered by its conftest and exempt
    assert [t for t in undeclared_parameters() if t.split(".")[0] in PAPERS] == []


@pytest.mark.parametrize("th", all_theorems(), ids=lambda t: t.id)
def test_every_profile_cell_is_in_the_declared_domain(th):
    # Theorem construction already refuses an invalid cell (an error at import); this re-checks the registry
    for prof in PROFILES:
        for cell in th.profiles[prof].cells:
            assert th.cell_problem(cell) is None, (th.id, prof, cell)


@pytest.mark.parametrize(
    "theorem, key, value",
    [
        ("paul2014.lemma3.4", "eps", -0.5),  # the review's reproducer: ran and reported VIOLATED 3/3
        ("paul2014.lemma3.4", "eps", 2),
        ("paul2014.lemma3.4", "delta", 0),
        ("paul2014.lemma3.4", "r", 2.5),
        ("paul2014.lemma3.4", "r", True),
        ("paul2014.lemma3.4", "r", -5),
        ("paul2014.lemma3.4", "r", "abc"),
    ],
)
def test_bad_overrides_are_refused_before_any_trial(theorem, key, value):
    with pytest.raises(RpcheckError, match=f"`?{key}`?"):
        run([theorem], profile="quick", trials=1, backend="serial", overrides={key: value})

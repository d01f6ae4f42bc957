"""The theorem contract v2: constructor errors, roles, parameter domains and constraints, overrides."""

import _engine_claims as claims
import pytest

from rpcheck.engine import (
    Constraint,
    Outcome,
    Param,
    Profile,
    Theorem,
    TrialError,
    TrialRecord,
    Variant,
    Verdict,
    registry,
    run,
    undeclared_parameters,
)
from rpcheck.errors import RpcheckError


def _theorem(cells=({"p": 0.1, "delta": 0.2, "sleep": 0.0},), trial=claims.bernoulli_trial, **kw):
    prof = Profile(cells=cells, trials=5)
    args = dict(
        id="engine_test.contract",
        paper="test",
        title="t",
        citation=claims.CIT,
        statement="-",
        kind="probabilistic",
        variants=(Variant("bound", "-", mode="bound", promised_failure=lambda q: q["delta"]),),
        profiles={k: prof for k in ("quick", "ci", "standard", "full")},
        trial=trial,
    )
    args.update(kw)
    return Theorem(**args)


PARAMS = {
    "p": Param("float", 0, 1, doc="failure probability"),
    "delta": Param("float", 0, 1, closed="right"),
    "sleep": Param("float", low=0),
}


def test_misused_constructors_name_the_argument_and_the_allowed_ones():
    with pytest.raises(
        RpcheckError,
        match=r"Variant\(\) got the unknown argument\(s\) 'delta' \(`delta`: use promised_failure\); allowed: name, "
              r"statement, mode",
    ):
        Variant("v", "-", mode="bound", delta=0.1)
    with pytest.raises(
        RpcheckError,
        match=r"Outcome\(\) got the unknown argument\(s\) 'hold'.*allowed: holds, statistic, bound, vacuous, "
              r"undetermined",
    ):
        Outcome(hold=True)
    with pytest.raises(
        RpcheckError,
        match=r"TrialRecord\(\) got the unknown argument\(s\) 'outcome'; allowed: outcomes",
    ):
        TrialRecord(outcome={})
    with pytest.raises(RpcheckError, match=r"Profile\(\) got the unknown argument\(s\) 'grid' \(`grid`: use cells\)"):
        Profile(grid=(), trials=3)
    with pytest.raises(
        RpcheckError,
        match=r"Theorem\(\) got the unknown argument\(s\) 'params' \(`params`: use parameters\)",
    ):
        _theorem(params={})
    with pytest.raises(RpcheckError, match=r"Profile\(\): .*missing.*trials"):
        Profile(cells=())
    with pytest.raises(RpcheckError, match=r"Profile `trials` \(0\)"):
        Profile(cells=(), trials=0)
    with pytest.raises(RpcheckError, match=r"`mode` \('bounds'\) must be one of"):
        Variant("v", "-", mode="bounds")


def test_roles():
    assert Variant("v", "-").role == "claim"
    with pytest.raises(
        RpcheckError,
        match=r"`role` \('check'\) must be one of 'claim', 'self-check', 'control', 'measurement'",
    ):
        Variant("v", "-", role="check")
    with pytest.raises(RpcheckError, match="role 'control'.*requires expected VIOLATED"):
        Variant("v", "-", role="control", expected=Verdict.HOLDS)
    Variant("v", "-", role="control", expected="VIOLATED")
    with pytest.raises(RpcheckError, match="role 'measurement' is for mode 'report'"):
        Variant("v", "-", role="measurement", mode="bound")
    # a callable control expectation is checked where a declared cell runs (registration stays cheap)
    th = _theorem(variants=(Variant("c", "-", role="control", expected=lambda q: Verdict.HOLDS),))
    assert "a control must be expected VIOLATED" in th.variants[0].control_problem({})
    with pytest.raises(RpcheckError, match="cell 0 .*role 'control' but expected .*HOLDS.*a control must be"):
        run(th, profile="quick", backend="serial")


def test_every_control_is_expected_violated_in_every_cell():
    """Every built-in control, in every cell of every profile (what registration checked before the
    expectations became lazy)."""
    for t in registry.all_theorems():
        for prof in t.profiles.values():
            for cell in prof.cells:
                for v in t.variants:
                    assert v.control_problem(cell) is None, (t.id, v.name, cell)


def test_param_domains():
    assert Param("int", low=1).problem(True) == "True is a bool, not an int"
    assert Param("int", low=1).problem("abc") == "'abc' is not an int"
    assert Param("int", low=1).problem(0) == "0 is outside the domain"
    assert Param("int", low=1).problem(3) is None
    assert Param("float", 0, 1, closed="neither").problem(1.0) == "1.0 is outside the domain"
    assert Param("bool").problem(1) == "1 is not a bool"
    assert Param("choice", choices=("a", "b")).problem("a") is None
    with pytest.raises(RpcheckError, match="`kind`"):
        Param("list")


def test_invalid_profile_cell_is_an_error_at_construction():
    with pytest.raises(
        RpcheckError,
        match=r"theorem 'engine_test.contract', profile 'quick', cell 1 .*parameter 'p' = 1.5 is outside its domain, a "
              r"float in \[0, 1\]",
    ):
        _theorem(
            cells=({"p": 0.1, "delta": 0.2, "sleep": 0.0}, {"p": 1.5, "delta": 0.2, "sleep": 0.0}), parameters=PARAMS
        )
    with pytest.raises(RpcheckError, match=r"parameter 'x' is not declared"):
        _theorem(cells=({"p": 0.1, "delta": 0.2, "sleep": 0.0, "x": 1},), parameters=PARAMS)
    with pytest.raises(RpcheckError, match=r"constraint 'p <= delta' is not satisfied"):
        _theorem(cells=({"p": 0.3, "delta": 0.2, "sleep": 0.0},), parameters=PARAMS,
                 constraints=(Constraint("p <= delta", lambda q: q["p"] <= q["delta"]),))  # fmt: skip


def test_overrides_are_validated_before_any_trial():
    th = _theorem(parameters=PARAMS, constraints=(Constraint("p <= delta", lambda q: q["p"] <= q["delta"]),))
    calls = []
    progress = lambda d, t, i: calls.append(i["event"])  # noqa: E731
    with pytest.raises(
        RpcheckError,
        match=r"^`overrides`: parameter 'p' = 'abc' is outside its domain, a float in \[0, 1\] \(theorem "
              r"'engine_test.contract'\): 'abc' is not a number\.$",
    ):
        run(th, backend="serial", overrides={"p": "abc"}, progress=progress)
    with pytest.raises(RpcheckError, match=r"parameter 'p' = True .*True is a bool"):
        run(th, backend="serial", overrides={"p": True}, progress=progress)
    with pytest.raises(
        RpcheckError,
        match=r"`overrides` make cell 0 of theorem 'engine_test.contract' invalid: constraint 'p <= delta'",
    ):
        run(th, backend="serial", overrides={"p": 0.5}, progress=progress)
    assert calls == []  # no trial ran
    assert len(run(th, backend="serial", overrides={"p": 0.15}).cells) == 1


def test_undeclared_parameters_lists_theorems_without_domains():
    ids = undeclared_parameters()
    assert isinstance(ids, list) and "engine_test.bernoulli" in ids


def _returns_dict(params, rng):
    return {"bound": True}


def _returns_bool_outcome(params, rng):
    return TrialRecord(outcomes={"bound": True})


def test_trial_returning_the_wrong_type_names_the_theorem_and_the_value():
    with pytest.raises(
        TrialError,
        match=r"theorem 'engine_test.contract'.*returned dict \(\{'bound': True\}\), not a TrialRecord",
    ):
        run(_theorem(trial=_returns_dict), backend="serial")
    with pytest.raises(TrialError, match=r"returned bool \(True\) for variant 'bound', not an Outcome"):
        run(_theorem(trial=_returns_bool_outcome), backend="serial")

"""The runner's stage modules (plan, execute, aggregate, decide, replays): public names stay where they were,
no stage module shadows a public attribute of ``rpcheck.engine``, and no function of the runner or its stages
takes long positional argument lists (configuration travels as the frozen ``RunSettings``/``Plan``)."""

import dataclasses
import importlib
import inspect

import _engine_claims  # noqa: F401  (the engine_test.* theorems; conftest.py registers them)
import pytest

import rpcheck.engine as engine
from rpcheck.engine import counterexample, runner
from rpcheck.engine.plan import Plan, RunSettings, _build_cells, make_plan

STAGES = ("plan", "execute", "aggregate", "decide", "replays", "runner")
MAX_POSITIONAL = 6


def test_stage_modules_do_not_shadow_public_engine_names():
    for name in STAGES:
        importlib.import_module(f"rpcheck.engine.{name}")
    assert set(STAGES).isdisjoint(set(engine.__all__) - {"runner"})
    assert engine.replay is counterexample.replay and callable(engine.replay)
    for name in engine.__all__:
        assert not inspect.ismodule(getattr(engine, name)), name


def test_public_names_importable_from_runner_and_engine():
    for name in runner.__all__:
        assert hasattr(runner, name), name
    for name in ("run", "run_cell", "family_size", "unattainable_expectations", "trial_seed_sequence",
                 "replay_trial", "trial_rng", "canonical_json", "TrialError"):  # fmt: skip
        assert getattr(engine, name) is getattr(runner, name)


@pytest.mark.parametrize("name", STAGES)
def test_no_function_takes_more_than_six_positional_arguments(name):
    mod = importlib.import_module(f"rpcheck.engine.{name}")
    too_long = []
    for fname, obj in vars(mod).items():
        funcs = [obj] if inspect.isfunction(obj) else []
        if inspect.isclass(obj) and obj.__module__ == mod.__name__ and not dataclasses.is_dataclass(obj):
            funcs = [f for f in vars(obj).values() if inspect.isfunction(f)]
        for f in funcs:
            if f.__module__ != mod.__name__:
                continue
            kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            n = sum(p.kind in kinds and p.name != "self" for p in inspect.signature(f).parameters.values())
            if n > MAX_POSITIONAL:
                too_long.append(f"{fname}.{f.__name__} ({n})")
    assert not too_long


def test_plan_is_frozen_and_fixes_the_sequential_levels():
    ths = [engine.get("engine_test.bernoulli")]
    settings = RunSettings(seed=3, alpha=0.02, stopping="looks")
    plan = make_plan(ths, settings, profile="ci")
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.settings = settings
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.seed = 4
    m = sum(spec.in_family for c in _build_cells(ths, "ci", None, None, "looks") for spec in c.specs)
    # 3 cells (p = 0.002, 0.03, 0.2) x 1 "bound" variant, none vacuous (delta = 0.05 < 0.5)
    assert isinstance(plan, Plan) and plan.m_v == plan.m_h == m == 3
    assert plan.settings.seq_levels == {"v": 0.02 / (3 * 5), "h": 0.02 / (3 * 5)}
    assert settings.seq_levels is None  # the caller's settings are not changed

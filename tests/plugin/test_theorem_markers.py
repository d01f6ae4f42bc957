"""Every theorem test in theorems/ is inside the suite-level family of the pytest plugin.

A theorem test whose marker has no registered id runs at the full per-test alpha, outside the weighted
Bonferroni split (rpcheck.testing, "Error control over a pytest run"), so P(any false VIOLATED in the run)
<= alpha would no longer hold for the default test run. This test reads the marks the way pytest collects
them (the function's own marks, then its module's ``pytestmark``; for a parametrized test, each
``pytest.param``'s marks first), without running any trial, and plans the family with the plugin's own
:func:`rpcheck.testing.plan_family` at the ``ci`` profile.
"""

import importlib.util
import inspect
from pathlib import Path

import pytest

from rpcheck.testing import plan_family

THEOREMS = Path(__file__).resolve().parents[2] / "theorems"


def _marks(obj):
    m = getattr(obj, "pytestmark", [])
    return list(m) if isinstance(m, list | tuple) else [m]


def _theorem_id(marks):
    """The id of the closest ``theorem`` mark in ``marks`` (closest first); None without one, "" without id."""
    for m in marks:
        if m.name == "theorem":
            return m.kwargs.get("id") or ""
    return None


def _theorem_items():
    """(node id, theorem id) of every test of theorems/ that carries a theorem mark."""
    items = []
    for path in sorted(THEOREMS.glob("test_*.py")):
        spec = importlib.util.spec_from_file_location(f"_theorems_{path.stem}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        module_marks = _marks(mod)
        for name, fn in inspect.getmembers(mod, inspect.isfunction):
            if not name.startswith("test") or fn.__module__ != mod.__name__:
                continue
            own = _marks(fn)
            params = [p for m in own if m.name == "parametrize" for p in m.args[1]]
            if params and any(hasattr(p, "marks") and _theorem_id(p.marks) is not None for p in params):
                for k, p in enumerate(params):
                    tid = _theorem_id(list(getattr(p, "marks", ())) + own + module_marks)
                    if tid is not None:
                        items.append((f"{path.name}::{name}[{getattr(p, 'id', None) or k}]", tid))
            else:
                tid = _theorem_id(own + module_marks)
                if tid is not None:
                    items.append((f"{path.name}::{name}", tid))
    return items


def test_every_theorem_test_is_in_the_family():
    items = _theorem_items()
    assert len(items) >= 50  # theorems/ holds 59 theorem tests (pytest theorems --collect-only)
    fam = plan_family(items, alpha=0.01, profile="ci")
    hint = "theorem tests outside the family (give them @pytest.mark.theorem(id=...)):\n"
    assert fam.outside == [], hint + "\n".join(fam.outside)
    assert "outside the family" not in fam.summary()
    assert fam.runs == len(items)


@pytest.mark.parametrize("bad", ["pytestmark = pytest.mark.theorem", "pytestmark = pytest.mark.theorem(id='no.such')"])
def test_the_check_catches_a_test_outside(tmp_path, monkeypatch, bad):
    (tmp_path / "test_x.py").write_text(f"import pytest\n{bad}\n\ndef test_x():\n    pass\n")
    monkeypatch.setattr(__import__(__name__), "THEOREMS", tmp_path)
    items = _theorem_items()
    assert items == [("test_x.py::test_x", "" if "id=" not in bad else "no.such")]
    assert plan_family(items, alpha=0.01, profile="ci").outside == ["test_x.py::test_x"]


def test_every_theorem_test_follows_the_one_template():
    """Each theorem test names its id once, in its mark, and takes the run from the ``theorem_result`` fixture
    (docs/tutorial.md): no ``verify_theorem("<id>")`` call that repeats the id."""
    import ast

    bad = []
    for path in sorted(THEOREMS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            name = getattr(node.func, "id", getattr(node.func, "attr", "")) if isinstance(node, ast.Call) else ""
            if name == "verify_theorem":
                bad.append(f"{path.name}:{node.lineno} calls verify_theorem")
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                marked = any("theorem" in ast.unparse(d) for d in node.decorator_list)
                if marked and "theorem_result" not in [a.arg for a in node.args.args]:
                    bad.append(f"{path.name}:{node.lineno} {node.name} does not take theorem_result")
    assert not bad, "\n".join(bad)

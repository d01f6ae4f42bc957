"""Static checks of the source tree: no dead code (vulture) and no lint finding (ruff).

Both tools are in the ``dev`` extra and configured in pyproject.toml (``[tool.vulture]``, ``[tool.ruff]``);
each test runs its tool in a fresh process from the repository root, so the configuration applies, and skips
with the reason when the tool is not installed.
"""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run_tool(module, *args):
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (it is in the dev extra: pip install -e '.[dev]')")
    return subprocess.run(
        [sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_no_dead_code():
    """Every function, class, method, attribute and variable under rpcheck/ is used (vulture at confidence
    60, whitelist in tools/vulture_whitelist.py for names used from outside rpcheck/)."""
    proc = _run_tool("vulture")
    assert proc.returncode == 0 and proc.stdout == "", (
        "vulture reports unused code (remove it, or whitelist a name used from outside rpcheck/ in "
        f"tools/vulture_whitelist.py with its reader):\n{proc.stdout}{proc.stderr}"
    )


def test_ruff_finds_nothing():
    """``ruff check .``: the rules of pyproject.toml hold over the whole tree."""
    proc = _run_tool("ruff", "check", ".", "--output-format", "concise", "--no-cache")
    assert proc.returncode == 0, f"ruff check . reports:\n{proc.stdout}{proc.stderr}"


def test_a_dead_function_is_reported(tmp_path):
    """Negative control: vulture with the repository's settings flags an unused function in a new module."""
    if importlib.util.find_spec("vulture") is None:
        pytest.skip("vulture is not installed (it is in the dev extra: pip install -e '.[dev]')")
    mod = tmp_path / "mod.py"
    mod.write_text("def used():\n    return 1\n\n\ndef never_called():\n    return 2\n\n\nused()\n")
    proc = subprocess.run(
        [sys.executable, "-m", "vulture", "--min-confidence", "60", str(mod)],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode != 0 and "unused function 'never_called'" in proc.stdout, proc.stdout + proc.stderr

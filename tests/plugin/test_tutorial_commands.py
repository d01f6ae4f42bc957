"""docs/tutorial.md's first commands, run literally in a fresh directory with no PYTHONPATH pointing at it:
save ``mychi2.py`` in the current directory, then ``rpcheck check mychi2:THEOREM``. A ``module:ATTR``
reference resolves from the current directory (rpcheck.engine.plugins), also through the ``rpcheck`` console
script, which does not put the current directory on ``sys.path``; ``python -m rpcheck`` is the same command."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"


def _this_checkout(cmd, cwd, env):
    """Whether ``cmd`` (a python or the console script's interpreter) imports this checkout's rpcheck."""
    proc = subprocess.run([*cmd, "-c", "import rpcheck; print(rpcheck.__file__)"], cwd=cwd, env=env,
                          capture_output=True, text=True)  # fmt: skip
    return proc.returncode == 0 and Path(proc.stdout.strip()).resolve().parent == ROOT / "rpcheck"


@pytest.fixture
def fresh(tmp_path):
    """A fresh directory holding only the tutorial's module, and an environment without PYTHONPATH (or, when
    the installed rpcheck is another checkout, with PYTHONPATH naming this checkout only, never the directory)."""
    (module,) = [b for b in re.findall(r"```python\n(.*?)```", TUTORIAL.read_text(encoding="utf-8"), flags=re.S)
                 if "register(Theorem(" in b]  # fmt: skip
    text = TUTORIAL.read_text(encoding="utf-8")
    assert "Save this as `mychi2.py`" in text and "e.g. the current directory" in text
    assert "`rpcheck check mychi2:THEOREM`" in text
    work = tmp_path / "fresh"
    work.mkdir()
    (work / "mychi2.py").write_text(module)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["RPCHECK_CACHE_DIR"] = str(tmp_path / "cache")
    if not _this_checkout([sys.executable, "-P"], work, env):
        env["PYTHONPATH"] = str(ROOT)
    return work, env


def _check(proc):
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert {r["p_n"]: r["verdict"] for r in doc["cells"]} == {400: "HOLDS", 4: "VIOLATED"}


def test_tutorial_command_with_the_console_script_or_its_equivalent(fresh):
    """``rpcheck check mychi2:THEOREM`` verbatim (``--json`` added to read the verdicts). Without an ``rpcheck``
    script of this checkout, ``python -P -m rpcheck`` stands in for it: ``-P`` keeps the current directory off
    ``sys.path``, exactly as for a console script."""
    work, env = fresh
    script = shutil.which("rpcheck", path=env.get("PATH"))
    cmd = [script] if script and "PYTHONPATH" not in env else [sys.executable, "-P", "-m", "rpcheck"]
    if script and "PYTHONPATH" not in env:
        head = Path(script).read_text(errors="replace").splitlines()[0]
        if not (head.startswith("#!") and _this_checkout([head[2:].strip()], work, env)):
            cmd = [sys.executable, "-P", "-m", "rpcheck"]
    _check(subprocess.run([*cmd, "check", "mychi2:THEOREM", "--json"], cwd=work, env=env, capture_output=True,
                          text=True, timeout=600))  # fmt: skip


def test_python_dash_m_rpcheck_is_the_command(fresh):
    work, env = fresh
    proc = subprocess.run([sys.executable, "-m", "rpcheck", "check", "mychi2:THEOREM", "--json", "--backend", "serial"],
                          cwd=work, env=env, capture_output=True, text=True, timeout=600)  # fmt: skip
    _check(proc)

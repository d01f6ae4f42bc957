"""Third-party theorems: the ``rpcheck.theorems`` entry-point group, ``module:ATTR`` and docs/tutorial.md
(whose code blocks are executed here, so the tutorial runs in CI)."""

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"


def _blocks(lang):
    return re.findall(rf"```{lang}\n(.*?)```", TUTORIAL.read_text(encoding="utf-8"), flags=re.S)


def _install_metadata(site, name, group_entries):
    """A ``*.dist-info`` directory on ``site`` (importlib.metadata finds it as an installed distribution)."""
    info = site / f"{name.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    lines = [
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()) for group, entries in group_entries.items()
    ]
    (info / "entry_points.txt").write_text("\n".join(lines))


@pytest.fixture
def site(tmp_path):
    """tmp_path with the tutorial's module and an installed distribution declaring the tutorial's entry point."""
    (module,) = [b for b in _blocks("python") if "register(Theorem(" in b]
    (tmp_path / "mychi2.py").write_text(module)
    (toml,) = _blocks("toml")
    groups = tomllib.loads("[project]\n" + toml.replace("[project.", "["))
    _install_metadata(tmp_path, "mine-chi2", groups["entry-points"])
    return tmp_path


def _cli(site, *argv):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    env.setdefault("RPCHECK_CACHE_DIR", str(site / "cache"))
    return subprocess.run([sys.executable, "-m", "rpcheck.cli", *argv], cwd=site, env=env, capture_output=True,
                          text=True, timeout=600)  # fmt: skip


def test_tutorial_module_runs_from_the_cli(site):
    proc = _cli(site, "check", "mychi2:THEOREM", "--json")  # the tutorial's command (default processes backend)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert {r["p_n"]: r["verdict"] for r in doc["cells"]} == {400: "HOLDS", 4: "VIOLATED"}


def test_entry_point_theorem_is_listed_shown_and_checked(site):
    proc = _cli(site, "list", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {r["id"]: r for r in json.loads(proc.stdout)}
    assert rows["mine.chi2"]["source"] == "plugin" and "shi2012.fig1" in rows
    proc = _cli(site, "show", "mine.chi2")
    assert proc.returncode == 0 and "rpcheck check mine.chi2" in proc.stdout
    proc = _cli(site, "check", "mine.chi2", "--profile", "quick")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("mine.chi2") and "bound: 1 HOLDS, 1 VIOLATED" in proc.stdout


def test_discovery_function_finds_the_entry_point(site, monkeypatch):
    from rpcheck.engine import plugins, registry

    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.setattr(plugins, "_loaded", {})
    assert [ep.name for ep in plugins.entry_points()] == ["mine.chi2"]
    assert plugins.resolve("mine.chi2").id == "mine.chi2"


def test_broken_entry_point_is_one_line_exit_2(site):
    _install_metadata(site, "broken-plugin", {"rpcheck.theorems": {"bad.one": "no_such_module_zz:THEOREM"}})
    proc = _cli(site, "list")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "bad.one" in proc.stderr and "no_such_module_zz" in proc.stderr


def test_tutorial_pytest_block_and_entry_point_in_the_fixture(site, pytester, monkeypatch):
    (tests,) = [b for b in _blocks("python") if "theorem_check" in b]
    pytester.makepyfile(
        test_tutorial=tests + '\n\ndef test_entry_point(theorem_check):\n    theorem_check("mine.chi2")\n'
    )
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), str(ROOT)]))  # this checkout's rpcheck
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--rpcheck-profile=quick")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*rpcheck verdicts*"])
    import rpcheck

    assert Path(rpcheck.__file__).resolve().is_relative_to(ROOT)


def test_entry_point_theorem_runs_in_verify(site, monkeypatch, tmp_path_factory, capsys):
    """`rpcheck verify` loads the entry-point group before it runs: the plugin's theorem is among the
    theorems verified. The built-in papers are left out of the registry here (no built-in entry point) so the
    run is only the plugin's; everything else is the CLI's own verify path."""
    from rpcheck import cli
    from rpcheck.engine import plugins, registry

    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(registry, "_REGISTRY", {})
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(registry, "builtin_entry_points", lambda: [])
    monkeypatch.setattr(plugins, "_loaded", {})
    out = tmp_path_factory.mktemp("verify") / "run"
    code = cli.main(["verify", "--backend", "serial", "--out", str(out), "--json", "--no-report"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {r["theorem"] for r in doc["cells"]} == {"mine.chi2"}
    assert {r["p_n"]: r["verdict"] for r in doc["cells"]} == {400: "HOLDS", 4: "VIOLATED"}


def test_tutorial_power_block_runs(site, monkeypatch, capsys):
    """The tutorial's "Is the profile big enough?" block, executed as printed (its asserts are part of it)."""
    from rpcheck.engine import registry

    (block,) = [b for b in _blocks("python") if "unattainable_expectations" in b]
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.delitem(sys.modules, "mychi2", raising=False)
    try:
        exec(compile(block, "tutorial.md", "exec"), {})
    finally:
        sys.modules.pop("mychi2", None)  # imported from this test's tmp_path
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("0 HOLDS unattainable: 50 draws, the rule needs 104")
    assert float(out[1]) >= 0.9999999


_PKG_MODULE = '''
from rpcheck.engine import Citation, Profile, Theorem, TrialRecord, Variant, register
from . import ORDER

ORDER.append(__name__.rsplit(".", 1)[1])
THEOREM = register(Theorem(
    id="mypapers." + ORDER[-1], paper="mypapers", title="t", statement="-", kind="deterministic",
    citation=Citation(authors="Test", year=2024, title="t", venue="tests", location="none"),
    variants=(Variant("v", "-", mode="bound"),),
    profiles={p: Profile(cells=({},), trials=1) for p in ("quick", "ci", "standard", "full")},
    trial=lambda params, rng: TrialRecord(outcomes={}),
))
'''


def test_a_package_entry_point_imports_its_public_modules_sorted(tmp_path, monkeypatch):
    """A module entry point that is a package needs no list of its modules: loading it imports every public
    submodule in sorted order (as rpcheck's own paper packages), never a private one; the built-in entry points
    of the rpcheck distribution are not plugins."""
    import sys

    from rpcheck.engine import plugins, registry

    pkg = tmp_path / "mypapers"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("ORDER = []\n")
    for name in ("zeta", "alpha", "mid"):
        (pkg / f"{name}.py").write_text(_PKG_MODULE)
    (pkg / "_private.py").write_text("raise RuntimeError('a private module is never imported')\n")
    _install_metadata(tmp_path, "my-papers", {"rpcheck.theorems": {"mypapers": "mypapers"}})
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.setattr(plugins, "_loaded", {})
    assert [ep.name for ep in plugins.entry_points()] == ["mypapers"]  # rpcheck's own papers are built-ins
    assert sorted(t.id for t in plugins.load_entry_points()) == ["mypapers.alpha", "mypapers.mid", "mypapers.zeta"]
    assert sys.modules["mypapers"].ORDER == ["alpha", "mid", "zeta"] and "mypapers._private" not in sys.modules
    assert "mypapers.alpha" not in {t.id for t in registry.builtin_theorems()}
    for name in [m for m in sys.modules if m == "mypapers" or m.startswith("mypapers.")]:
        monkeypatch.delitem(sys.modules, name)

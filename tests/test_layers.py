"""Import layering of the rpcheck package (ARCHITECTURE.md, "Layers").

An AST scan of every module under ``rpcheck/`` (module-level AND function-local imports) fails on

- an *upward* import: a module importing a module of a higher layer in :data:`LAYERS`;
- a *circular* import: a cycle in the graph of imports between rpcheck modules (a package's own
  ``__init__`` importing its submodules is not a cycle with them: Python runs the parent package first);
- a *private* import across units: a module importing a ``_private`` module or name of another unit
  (a unit is a top-level module or package of rpcheck; each paper package under ``rpcheck.papers`` is
  its own unit, so one paper's theorem modules do not reach into another paper's private helpers).

Existing violations in code whose owner has not fixed them yet are listed in :data:`ALLOWLIST`, each with
its owner; nothing else may be added without a reason.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "rpcheck"

#: Layer of each top-level unit of rpcheck; imports may only go to the same or a lower layer.
#: The same table is in ARCHITECTURE.md ("Layers").
LAYERS = {
    # 0: foundations
    "rpcheck": 0, "errors": 0, "_rng": 0, "_validation": 0, "_threads": 0, "_heap": 0,
    # 1: numerical kernels
    "sketches": 1, "linalg": 1,
    # 2: solvers
    "svm": 2,
    # 3: statistics and verdict rules
    "stats": 3, "sequential": 3,
    # 4: engine and the libraries the checkers use
    "engine": 4, "strategies": 4, "generators": 4, "datasets": 4, "data_registry": 4, "standins": 4,
    "compare": 4,
    # 5: the papers (theorem modules, helpers and bounds), and advise (searches on the user's data with the engine)
    "papers": 5, "advise": 5,
    # 6: interfaces
    # (rpcheck/cli/ is a package: main.py and one module per command, all one unit)
    "results": 6, "report": 6, "cli": 6, "pytest_plugin": 6, "testing": 6, "options": 6, "__main__": 6,
}  # fmt: skip

#: Known violations, (importing module, imported module or name, kind) -> owner who should fix it.
ALLOWLIST = {
    # options (layer 6) is imported by nothing below; engine.theorem import is downward: no entry needed.
}


def _unit(module):
    parts = module.split(".")
    if len(parts) == 1:
        return "rpcheck"
    if parts[1] == "papers" and len(parts) > 2:
        return ".".join(parts[:3])
    return parts[1]


def _layer(module):
    top = module.split(".")[1] if "." in module else "rpcheck"
    if top not in LAYERS:
        raise AssertionError(f"module {module} is in no layer: add its top-level unit {top!r} to LAYERS")
    return LAYERS[top]


def scan_modules(root=ROOT):
    """``{module name: (source, is_package)}`` of every .py file under ``root``."""
    out = {}
    for p in sorted(root.rglob("*.py")):
        parts = list(p.relative_to(root.parent).with_suffix("").parts)
        pkg = parts[-1] == "__init__"
        if pkg:
            parts = parts[:-1]
        out[".".join(parts)] = (p.read_text(encoding="utf-8"), pkg)
    return out


def imports(modules):
    """Every import between the given modules: ``(source, target, name, lineno, local)``; ``target`` is a
    module in ``modules`` (the most specific one), ``name`` the imported dotted name."""
    found = []
    for mod, (src, pkg) in modules.items():
        tree = ast.parse(src)
        local_nodes = set()
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                local_nodes.update(id(n) for n in ast.walk(fn) if n is not fn)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = mod.split(".") if pkg else mod.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    b = ".".join(base + ([node.module] if node.module else []))
                else:
                    b = node.module or ""
                names = [f"{b}.{a.name}" for a in node.names]
            else:
                continue
            for name in names:
                if name.split(".")[0] != "rpcheck":
                    continue
                target = name
                while target not in modules and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in modules:
                    found.append((mod, target, name, node.lineno, id(node) in local_nodes))
    return found


def violations(modules):
    """``{(source, target or name, kind): description}`` for kind in {"upward", "private", "cycle"}."""
    out = {}
    edges = {}
    for src, tgt, name, line, local in imports(modules):
        where = f"{src} line {line} ({'function-local' if local else 'module-level'})"
        if src.startswith(tgt + ".") or src == tgt:
            continue  # a submodule importing its own package (already running) or itself
        edges.setdefault(src, set()).add(tgt)
        if _layer(tgt) > _layer(src):
            out[(src, tgt, "upward")] = f"{where} imports {name} (layer {_layer(tgt)} > {_layer(src)})"
        if _unit(src) != _unit(tgt):
            unit = _unit(tgt) if _unit(tgt).startswith("rpcheck") else "rpcheck." + _unit(tgt)
            rest = name[len(unit) :] if name.startswith(unit) else name
            if any(p.startswith("_") and not p.startswith("__") for p in rest.split(".") if p):
                key = tgt if tgt != unit and tgt[len(unit) :].lstrip(".").startswith("_") else name
                out[(src, key, "private")] = f"{where} imports the private {name} of another unit"
    # cycles: strongly connected components of the import graph (Tarjan)
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    for comp in comps:
        out[(comp[0], comp[-1], "cycle")] = f"import cycle between {', '.join(comp)}"
    return out


def new_violations(modules):
    """The violations of ``modules`` that are not in :data:`ALLOWLIST` (what the tree test fails on)."""
    return {k: v for k, v in violations(modules).items() if k not in ALLOWLIST}


def test_rpcheck_imports_follow_the_layers():
    new = new_violations(scan_modules())
    assert not new, "import layering violated (tests/test_layers.py, ARCHITECTURE.md 'Layers'):\n" + "\n".join(
        sorted(new.values())
    )


def test_every_unit_has_a_layer():
    for mod in scan_modules():
        _layer(mod)


def _planted(extra):
    base = {
        "rpcheck": ("", True),
        "rpcheck.errors": ("", False),
        "rpcheck.stats": ("from .errors import RpcheckError\n", False),
        "rpcheck.engine": ("from .runner import run\n", True),
        "rpcheck.engine.runner": ("from ..stats import decide\nfrom . import _worker\n", False),
        "rpcheck.engine._worker": ("import numpy\n", False),
        "rpcheck.papers": ("", True),
        "rpcheck.papers.a": ("", True),
        "rpcheck.papers.a._common": ("", False),
        "rpcheck.papers.b": ("", True),
        "rpcheck.papers.b.thm": ("from ...engine import run\n", False),
        "rpcheck.cli": ("import rpcheck.engine\n", False),
    }
    base.update(extra)
    return base


def test_the_checker_accepts_a_clean_tree():
    assert violations(_planted({})) == {}


@pytest.mark.parametrize(
    "module,source,kind",
    [
        ("rpcheck.stats", "from .engine.runner import run\n", "upward"),  # module-level, upward
        ("rpcheck.stats", "def f():\n    from rpcheck.cli import main\n", "upward"),  # function-local
        ("rpcheck.engine._worker", "def f():\n    import rpcheck.papers.b.thm\n", "upward"),
        ("rpcheck.papers.b.thm", "from ..a._common import X\n", "private"),  # another paper's private module
        ("rpcheck.cli", "from rpcheck.engine._worker import _run_chunk\n", "private"),
        ("rpcheck.engine._worker", "def f():\n    from . import runner\n", "cycle"),  # runner -> _worker -> runner
    ],
)
def test_the_checker_finds_a_planted_violation(module, source, kind):
    mods = _planted({module: (source, module in ("rpcheck.engine",))})
    found = violations(mods)
    assert any(k[2] == kind and (k[0] == module or module in k) for k in found), found


def test_the_scan_sees_module_level_and_function_local_imports():
    found = imports(scan_modules())
    assert len(found) > 100
    assert any(s == "rpcheck.engine.runner" and t == "rpcheck.stats" and not local for s, t, _, _, local in found)
    # runner imports rpcheck.engine.data inside run(): data pulls scipy in through rpcheck.datasets
    assert any(s == "rpcheck.engine.runner" and t == "rpcheck.engine.data" and local for s, t, _, _, local in found)


#: Upward imports planted into the real tree: (module, appended source, imported module).
PLANTED_UPWARD = (
    # a solver (layer 2) importing the command line (layer 6), at module level
    ("rpcheck.svm.svc", "\nfrom rpcheck.cli import main\n", "rpcheck.cli.main"),
    # a sketch (layer 1) importing a paper's checker (layer 5) inside a function, relative import
    ("rpcheck.sketches.gaussian", "\ndef _planted():\n    from ..papers.paul2014 import embedding\n",
     "rpcheck.papers.paul2014.embedding"),
    # the statistics (layer 3) importing the engine (layer 4)
    ("rpcheck.stats", "\nimport rpcheck.engine.runner\n", "rpcheck.engine.runner"),
)  # fmt: skip


def test_the_tree_check_fails_on_upward_imports_planted_in_the_real_tree():
    """The real scanned sources with planted upward imports: the same filter the tree test fails on
    (``new_violations``, ALLOWLIST applied) reports each, naming the module, the target and the layers."""
    mods = scan_modules()
    for module, planted, _ in PLANTED_UPWARD:
        src, pkg = mods[module]
        mods[module] = (src + planted, pkg)
    new = new_violations(mods)
    for module, _, target in PLANTED_UPWARD:
        key = (module, target, "upward")
        assert key in new, (key, new)
        assert new[key].startswith(module) and f"layer {_layer(target)} > {_layer(module)}" in new[key]


def test_the_tree_check_fails_on_a_command_reaching_into_a_private_name():
    """The command modules compose the engine and the presentation through public names only: a private
    name of another unit imported by one of them (here the engine's plan, from ``rpcheck.cli.check``) is
    reported, and the real command modules hold no such import."""
    mods = scan_modules()
    commands = [m for m in mods if m.startswith("rpcheck.cli.")]
    assert {"rpcheck.cli.main", "rpcheck.cli.check", "rpcheck.cli.verify", "rpcheck.cli.list"} <= set(commands)
    assert not [k for k in violations(mods) if k[0] in commands and k[2] == "private"]
    src, pkg = mods["rpcheck.cli.check"]
    mods["rpcheck.cli.check"] = (src + "\ndef _planted():\n    from ..engine.plan import _resolve_theorems\n", pkg)
    new = new_violations(mods)
    assert ("rpcheck.cli.check", "rpcheck.engine.plan._resolve_theorems", "private") in new, new


# --------------------------------------------------------------------------------------------- no paper below papers

#: The units that know nothing of any paper: the engine, the statistics, the sketches and the solvers.
PAPER_FREE = ("engine", "stats", "sketches", "svm")


def _paper_keys():
    """The built-in papers: the names of rpcheck's own ``rpcheck.theorems`` entry points in pyproject.toml."""
    import tomllib

    meta = tomllib.loads((ROOT.parent / "pyproject.toml").read_text(encoding="utf-8"))
    return tuple(sorted(meta["project"]["entry-points"]["rpcheck.theorems"]))


def paper_mentions(modules, papers):
    """``[(module, line, what)]``: imports of ``rpcheck.papers`` (or of a module named like a paper) and string
    literals naming a paper, in the modules of :data:`PAPER_FREE`. Docstrings are prose and not scanned."""
    found = []
    for mod, (src, _) in modules.items():
        parts = mod.split(".")
        if len(parts) < 2 or not parts[1].startswith(PAPER_FREE):
            continue
        tree = ast.parse(src)
        docs = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and n.body
            and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                if any(p in n.split(".") for n in names for p in (*papers, "papers")):
                    found.append((mod, node.lineno, f"imports {', '.join(n for n in names if n)}"))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                hit = [p for p in papers if p in node.value]
                if hit:
                    found.append((mod, node.lineno, f"string naming {', '.join(hit)}"))
    return found


def test_the_engine_statistics_sketches_and_solvers_never_name_a_paper():
    papers = _paper_keys()
    assert len(papers) == 5, papers
    found = paper_mentions(scan_modules(), papers)
    assert not found, "a paper named below rpcheck.papers (the engine never names a paper):\n" + "\n".join(
        f"{m} line {line}: {what}" for m, line, what in found
    )


@pytest.mark.parametrize(
    "source",
    [
        "from ..papers import shi2012\n",
        "def f():\n    import rpcheck.papers.paul2014.margin\n",
        "PACKAGES = ('lei2020', 'zhang2013')\n",
        "def f(x):\n    return f'rpcheck.papers.{x}' if x else 'alpcan2016.xar'\n",
    ],
)
def test_the_paper_scan_finds_a_planted_paper_name(source):
    mods = scan_modules()
    src, pkg = mods["rpcheck.engine.registry"]
    mods["rpcheck.engine.registry"] = (src + "\n" + source, pkg)
    assert any(m == "rpcheck.engine.registry" for m, _, _ in paper_mentions(mods, _paper_keys()))

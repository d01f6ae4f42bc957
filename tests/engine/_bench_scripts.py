"""Import an operator script of benchmarks/ (not a package) as a module, for the tests of its logic."""

import importlib.util
import pathlib

BENCH = pathlib.Path(__file__).parents[2] / "benchmarks"


def load_bench_script(name):
    """The module ``benchmarks/<name>.py``, executed fresh."""
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod

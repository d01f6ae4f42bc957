"""Doctests of the package in the default test run.

``testpaths`` (pyproject.toml) includes ``rpcheck``; this hook collects the examples (``>>>``) in the
docstrings of every module under ``rpcheck/`` as doctests, and nothing else there. It is not
``--doctest-modules`` for the whole run because that would also import the helper modules of ``tests/``
(``tests/engine/_engine_claims.py`` registers test theorems at import) and the benchmark scripts.
Examples that cannot run in a test (they would start a theorem run) carry ``# doctest: +SKIP``.
Run only the doctests with ``python -m pytest rpcheck``.
"""

from pathlib import Path

import pytest
from _pytest.doctest import DoctestModule  # the class --doctest-modules uses (no public alias)

PACKAGE = Path(__file__).resolve().parent / "rpcheck"


def pytest_collect_file(file_path, parent):
    if parent.config.getoption("doctestmodules", False):  # --doctest-modules given: pytest collects them itself
        return None
    if file_path.suffix != ".py" or file_path.name in ("__main__.py", "conftest.py"):
        return None
    if PACKAGE not in file_path.resolve().parents:
        return None
    if b">>>" not in file_path.read_bytes():
        return None
    return DoctestModule.from_parent(parent, path=file_path)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Doctests carry the ``doctest`` marker (``-m doctest`` / ``-m 'not doctest'``)."""
    for item in items:
        if type(item).__name__ == "DoctestItem":
            item.add_marker("doctest")

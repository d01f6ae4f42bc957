"""The built-in papers: one package per paper, holding its theorem modules (one theorem per module), its shared
helpers (``_common.py`` and other private modules) and its bounds (``bounds.py``). Each paper package is an
entry point of the ``rpcheck.theorems`` group (pyproject.toml), the group third-party packages use; loading it
imports the package's public modules, which register their theorems (see ``rpcheck.engine.registry``). Theorem
modules use ``rpcheck.sketches``, ``rpcheck.linalg``, ``rpcheck.svm``, ``rpcheck.stats`` and the engine; they
never import the CLI, the pytest plugin or the report."""

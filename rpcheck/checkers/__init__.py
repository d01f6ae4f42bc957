"""One subpackage per paper, one module per theorem. Importing a paper package registers its theorems
(see ``rpcheck.engine.registry``). Checkers use ``rpcheck.sketches``, ``rpcheck.linalg`` and
``rpcheck.svm``; they never import the CLI, the pytest plugin or the report."""

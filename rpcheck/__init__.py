"""rpcheck: verify theorems about random projections for linear SVMs, empirically and rigorously.

Layers (each uses only the ones above it):

- ``rpcheck.sketches``, ``rpcheck.linalg``: random-projection constructions and exact linear algebra;
- ``rpcheck.svm``: exact SVM / SVR / enclosing-ball solvers with KKT certificates;
- ``rpcheck.stats``, ``rpcheck.engine``, ``rpcheck.strategies``: theorem specs, seeded trial runner,
  exact binomial statistics and verdicts;
- ``rpcheck.papers``: one package per paper (its theorem modules and bounds), registered through the
  ``rpcheck.theorems`` entry points;
- ``rpcheck.cli``, ``rpcheck.pytest_plugin``, ``rpcheck.report``: presentation only.
"""

__version__ = "0.1.0"

"""Names vulture cannot see used: read by tests, by users of the public result types, or by a library.

``vulture`` (configured in pyproject.toml, ``[tool.vulture]``) scans ``rpcheck/`` only, so a name whose only
readers are in ``tests/``, in a notebook, or inside a third-party library looks unused to it. Each entry below
names such a use. pytest hooks (``pytest_*``) and fixtures are ignored by the configuration itself. This file is
parsed by vulture, never imported or run (``tests/test_dead_code.py``).
"""

from rpcheck.advise import Advice, AdviceRow
from rpcheck.data_registry.entries import RegisteredDataset, SourceFile
from rpcheck.engine.counterexample import ReplayResult
from rpcheck.engine.loading import RunResult
from rpcheck.engine.search import SearchResult
from rpcheck.engine.store import CheckpointStore
from rpcheck.generators.labelled import BinaryData
from rpcheck.sketches.transformers import SupervisedSRHTRandomProjection, _SketchRandomProjection
from rpcheck.stats.anytime import FamilyLevels
from rpcheck.stats.binomial import BinomialCount
from rpcheck.svm import ERMResult, KKTResiduals, L2SVCResult, MarginResult, MulticlassResult, SVCResult, SVRResult

_ = None  # the placeholder of vulture's whitelists: only the attribute name after it matters

# Documented fields of public result types: what a caller reads (the tests, `rpcheck advise --json`, users).
AdviceRow.bracket_low
Advice.search_confidence
SourceFile.compression
RegisteredDataset.used_by
ReplayResult.record
SearchResult.shrink_evaluations
BinaryData.certificate
FamilyLevels.levels_violated
FamilyLevels.levels_holds
FamilyLevels.log_e_violated
FamilyLevels.log_e_holds
FamilyLevels.violated
BinomialCount.failure_rate
KKTResiduals.complementarity_abs
KKTResiduals.gap_abs
SVCResult.n_bounded
SVCResult.kkt_unpolished
SVRResult.kkt_unpolished
L2SVCResult.kkt_pg
L2SVCResult.n_sv
MarginResult.direction
MarginResult.svc
MulticlassResult.violation
ERMResult.dual_objective
ERMResult.gap_computed
ERMResult.gap_threshold
RunResult.trials_of
CheckpointStore.load_cell  # tests/engine/test_store.py: the chunk reader of one cell

# Protocols of other libraries.
RunResult._repr_html_  # IPython/Jupyter rich display
_SketchRandomProjection.components_  # scikit-learn random-projection API
_SketchRandomProjection._n_features_out  # scikit-learn get_feature_names_out (ClassNamePrefixFeaturesOutMixin)
SupervisedSRHTRandomProjection.classes_  # scikit-learn classifier-aware estimators (labels seen in fit)
_.preserves_dtype  # scikit-learn >= 1.6 estimator tags (TransformerTags.preserves_dtype)
_.__signature__  # inspect.signature (rpcheck.engine.params: the keyword-checked constructors)
_._hypothesis_internal_database_key  # hypothesis: the example-database key of a function (as hypothesis.find)
# clarabel.DefaultSettings fields set before a solve (rpcheck.svm.joint, rpcheck.svm.multiclass, rpcheck.svm.drp)
_.verbose
_.tol_gap_abs
_.tol_gap_rel
_.tol_feas
_.tol_ktratio

# Fields of the results of rpcheck.svm.drp (documented in their docstrings; read by tests and users).
_.n_upper
_.dual_coef
_.dual_coef_path
# Failure bounds of theorem modules whose readers are the tests of those modules (tests/checkers/).
_.derived_failure_upper  # lei2020 dkm: the DKM power derivation
_.gaussian_failure_upper  # lei2020 jl: the chi-square union bound
_._control_failure  # zhang2013 cor7: the negative control's failure probability


# PEP 562 module attributes of rpcheck.report (the HTML writers load on first use): called by the import system.
__getattr__  # rpcheck/report/__init__.py
__dir__  # rpcheck/report/__init__.py

"""Presentation of runs: the model every renderer reads (:mod:`rpcheck.report.model`), the HTML report
(:mod:`rpcheck.report.html`), the Markdown pages (:mod:`rpcheck.report.markdown`) and the decision rate
(:mod:`rpcheck.report.decision`).

The HTML writers are attached lazily (SPEC 1): ``import rpcheck.report.model`` imports neither pandas nor
the page code, and ``rpcheck.report.write_report`` imports :mod:`rpcheck.report.html` on first use.
"""

import importlib

__all__ = ["render_report", "render_theorem_section", "write_report"]

_HTML_ATTRS = frozenset(__all__)


def __getattr__(name):
    if name in _HTML_ATTRS:
        return getattr(importlib.import_module(".html", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _HTML_ATTRS)

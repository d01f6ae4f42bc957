"""The ``rpcheck`` command line (:mod:`rpcheck.cli.main`): one module per command, a parser that dispatches
to them, and the terminal renderer of the presentation model.

``python -m rpcheck.cli`` and the ``rpcheck`` console script (``rpcheck.cli:console_main``) run
:func:`console_main`; tests and notebooks call :func:`main` with an argument list.
"""

from ..report.model import JSON_SCHEMA_VERSION
from ._base import EXIT_BROKEN_PIPE, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE
from ._output import render_summary
from ._run import parse_data_assignment
from .main import COMMANDS, build_parser, console_main, main

__all__ = [
    "main",
    "console_main",
    "build_parser",
    "COMMANDS",
    "render_summary",
    "parse_data_assignment",
    "JSON_SCHEMA_VERSION",
    "EXIT_OK",
    "EXIT_UNEXPECTED",
    "EXIT_USAGE",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_BROKEN_PIPE",
]

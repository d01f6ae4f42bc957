"""The ``rpcheck`` command line (:mod:`rpcheck.cli.main`)."""

from .main import *  # noqa: F401,F403
from .main import EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE, build_parser, console_main, main, render_summary  # noqa: F401
from .main import _cell_records, _console, _print_cells, parse_data_assignment  # noqa: F401

"""Exit codes of the command line and the argument parser class of every command."""

from __future__ import annotations

import argparse

__all__ = [
    "EXIT_OK",
    "EXIT_UNEXPECTED",
    "EXIT_USAGE",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_BROKEN_PIPE",
    "Parser",
]

EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 0, 1, 2, 3, 130, 141


class Parser(argparse.ArgumentParser):
    """An ``argparse`` parser whose usage errors are one line and exit 2 (argparse's own convention)."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")

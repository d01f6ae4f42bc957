"""``python -m rpcheck``: the ``rpcheck`` command (:func:`rpcheck.cli.console_main`)."""

import sys

from .cli import console_main

if __name__ == "__main__":
    sys.exit(console_main())

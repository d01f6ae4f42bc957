"""``python -m rpcheck.cli``: the ``rpcheck`` command."""

import sys

from .main import console_main

sys.exit(console_main())

"""The ``rpcheck`` command line (presentation only; the logic lives in rpcheck.engine)."""

import argparse
import sys

from . import __version__


def build_parser():
    parser = argparse.ArgumentParser(prog="rpcheck", description=__doc__)
    parser.add_argument("--version", action="version", version=f"rpcheck {__version__}")
    return parser


def main(argv=None):
    parser = build_parser()
    parser.parse_args(argv)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())

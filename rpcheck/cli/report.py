"""``rpcheck report RESULTS``: re-render the HTML report of a saved results directory."""

from __future__ import annotations

from pathlib import Path

from ..engine import load_results
from ..engine.loading import CELL_COLUMNS, TRIAL_COLUMNS, trial_table_files
from ..engine.store import read_csv_exact, read_table
from ..errors import RpcheckError
from ..report import model
from ._base import EXIT_OK
from ._checks import check_out_file

NAME = "report"


def setup_arguments(subparsers):
    p = subparsers.add_parser(NAME, help="re-render the HTML report from saved results")
    p.add_argument("results", metavar="RESULTS", help="a results directory written by check/verify")
    p.add_argument("-o", "--output", default=None, help="output file (default: RESULTS/report.html)")
    return p


def load_results_checked(path):
    """``load_results`` with every way a results directory can be unreadable turned into one RpcheckError."""
    p = Path(path)
    if not p.exists():
        raise RpcheckError(f"`RESULTS` ({str(path)!r}) does not exist.")
    if not p.is_dir():
        raise RpcheckError(f"`RESULTS` ({str(path)!r}) is not a results directory written by check/verify.")
    if not (p / "provenance.json").is_file():
        raise RpcheckError(f"`RESULTS` ({str(path)!r}) has no provenance.json: not a complete results directory.")

    def unreadable(exc):
        msg = f"{type(exc).__name__}: {exc}".splitlines()[0]
        return RpcheckError(f"`RESULTS` ({str(path)!r}) holds unreadable result files ({msg}).")

    files = trial_table_files(p)  # one trials table per theorem, or (older results) one for the run
    tables = [(p, "cells", CELL_COLUMNS)] + [(d, stem, TRIAL_COLUMNS) for d, stem in (files or [(p, "trials")])]
    for where, name, cols in tables:
        try:
            table = read_table(where, name)
        except FileNotFoundError:
            raise RpcheckError(
                f"`RESULTS` ({str(path)!r}) has no {name} table: not a complete results directory."
            ) from None
        except PermissionError:
            raise
        except Exception as exc:  # parsing untrusted files: pyarrow, pandas and json raise many types
            raise unreadable(exc) from None
        missing = [c for c in cols if c not in table.columns]
        if missing:
            raise RpcheckError(
                f"`RESULTS` ({str(path)!r}): the {name} table lacks the columns {missing} (corrupted, or written by "
                "an incompatible rpcheck)."
            )
    try:
        result = load_results(p)
    except (RpcheckError, PermissionError):
        raise
    except Exception as exc:  # parsing untrusted files: pyarrow, pandas and json raise many types
        raise unreadable(exc) from None
    if not isinstance(result.provenance, dict):
        raise RpcheckError(f"`RESULTS` ({str(path)!r}): provenance.json is not a JSON object.")
    bad = sorted(set(map(str, result.cells["verdict"])) - set(model.VERDICTS))
    if bad:
        raise RpcheckError(f"`RESULTS` ({str(path)!r}): unknown verdicts {bad} in the cells table.")
    return result


def run(args):
    from ..report.html import write_report  # imports pandas

    result = load_results_checked(args.results)
    output = args.output if args.output is not None else str(Path(args.results) / "report.html")
    check_out_file(output, "-o/--output")
    constants_csv = Path(args.results) / "constants.csv"
    constants = None
    if constants_csv.exists():
        try:
            constants = read_csv_exact(constants_csv)
        except (ValueError, UnicodeDecodeError) as exc:
            raise RpcheckError(f"`RESULTS` ({args.results!r}): constants.csv is unreadable ({exc}).") from None
    try:
        path = write_report(result, output, constants=constants)
    except OSError as exc:  # the atomic write's hidden temporary file is not what the user named
        raise RpcheckError(
            f"`-o/--output` ({str(output)!r}) could not be written: {exc.strerror or type(exc).__name__}."
        ) from None
    print(f"report: {path}")
    return EXIT_OK

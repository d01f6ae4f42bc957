"""``rpcheck replay COUNTEREXAMPLE``: recompute a saved counterexample and print the quantities."""

from __future__ import annotations

import json
from pathlib import Path

from ..engine import load_counterexample, plugins, replay
from ..errors import RpcheckError
from ..options import MAX_SEED
from ._base import EXIT_OK, EXIT_UNEXPECTED

NAME = "replay"


def setup_arguments(subparsers):
    p = subparsers.add_parser(NAME, help="recompute a saved counterexample and print the quantities")
    p.add_argument("counterexample", metavar="COUNTEREXAMPLE")
    p.add_argument("--json", action="store_true")
    return p


def _is_int(v, low=0, high=MAX_SEED):
    return isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def check_counterexample(path):
    """Load a counterexample file and validate its metadata; resolve its theorem through the registry and
    the installed entry points only (the ``module`` field of the file is never imported).

    Returns the Theorem.
    """
    p = Path(path)
    if not p.exists():
        raise RpcheckError(f"`COUNTEREXAMPLE` ({str(path)!r}) does not exist.")
    if not p.is_file():
        raise RpcheckError(f"`COUNTEREXAMPLE` ({str(path)!r}) is not a file.")
    what = f"`COUNTEREXAMPLE` ({str(path)!r})"
    try:
        ce = load_counterexample(p)
        meta = ce.meta
    except PermissionError:
        raise
    except Exception as exc:  # parsing an untrusted file: zipfile, numpy and json raise many types
        msg = f"{type(exc).__name__}: {exc}".splitlines()[0]
        raise RpcheckError(f"{what} is not a counterexample file written by rpcheck ({msg}).") from None
    if not isinstance(meta, dict):
        raise RpcheckError(f"{what}: its metadata is not a JSON object.")
    problems = []
    if not isinstance(meta.get("theorem"), str) or not meta.get("theorem"):
        problems.append("theorem (a theorem id)")
    if not isinstance(meta.get("variant"), str):
        problems.append("variant (a variant name)")
    params = None
    try:
        params = json.loads(meta.get("params"))
    except (TypeError, ValueError):
        pass
    if not isinstance(params, dict):
        problems.append("params (canonical JSON of a dict)")
    if not _is_int(meta.get("trial")):
        problems.append("trial (an integer >= 0)")
    if not _is_int(meta.get("seed")):
        problems.append("seed (an integer in [0, 2**63))")
    outcomes = meta.get("outcomes")
    if not isinstance(outcomes, dict) or not all(
        isinstance(o, dict) and {"holds", "statistic", "bound", "vacuous"} <= set(o) for o in outcomes.values()
    ):
        problems.append("outcomes ({variant: {holds, statistic, bound, vacuous}})")
    diags = meta.get("diagnostics")
    if not isinstance(diags, dict) or not all(isinstance(v, int | float) or v is None for v in diags.values()):
        problems.append("diagnostics ({name: number})")
    if problems:
        raise RpcheckError(f"{what}: invalid or missing metadata fields: {'; '.join(problems)}.")
    try:
        th = plugins.resolve(meta["theorem"])
    except RpcheckError as exc:
        raise RpcheckError(
            f"{what} names theorem {meta['theorem']!r}, which is neither built in nor provided by an installed "
            f"plugin ({exc}); replay never imports modules named in the file."
        ) from None
    names = [v.name for v in th.variants]
    if meta["variant"] not in names:
        raise RpcheckError(f"{what}: variant {meta['variant']!r} is not one of {th.id}'s variants {names}.")
    known = [set(c) for prof in th.profiles.values() for c in prof.cells]
    if known and set(params) not in known:
        raise RpcheckError(f"{what}: params {sorted(params)} are not the parameters of {th.id} ({sorted(known[0])}).")
    return th


def run(args):
    check_counterexample(args.counterexample)  # registers the theorem: replay() then imports nothing
    rep = replay(args.counterexample).to_dict()
    if args.json:
        print(json.dumps(rep, indent=1, default=str))
    else:
        for key in ("path", "theorem", "variant", "params", "trial", "seed"):
            print(f"{key}: {rep[key]}")
        for which in ("saved", "recomputed"):
            print(f"{which}:")
            for group, values in rep[which].items():
                print(f"  {group}: {json.dumps(values, default=str)}")
        print(
            f"bit-identical: {rep['matches']}; within 1e-9 relative: {rep['matches_close']}; "
            f"claim still violated: {rep['still_violated']}"
        )
    return EXIT_OK if rep["matches_close"] and rep["still_violated"] else EXIT_UNEXPECTED

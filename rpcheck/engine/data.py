"""The data of a run: which theorems a profile runs, and whether the real data sets its cells require are there.

A theorem that reads a registered data set (:mod:`rpcheck.data_registry`) has a parameter ``data_source`` in its cells:
"auto" (the registry's cache when the set is fetched, else the named stand-in), "standin", "real:<name>[,...]"
(the named sets must be present: the ``paper`` profile), or the explicit mapping ``NAME=PATH;...`` of
``rpcheck check/verify --data NAME=PATH`` (passed as the override ``data_source``; see
:func:`rpcheck.data_registry.data_setting`). Each trial resolves its set with
:func:`rpcheck.data_registry.resolve` and records the source in its row ("real data: <path> sha256 ..." or
"stand-in: <name>"). :func:`check_data` runs before any trial: a required set that is neither given nor in the
cache is one RpcheckError naming ``rpcheck data fetch NAME``.
"""

from __future__ import annotations

from .. import data_registry
from ..errors import RpcheckError
from .theorem import PROFILES, Constraint, Param

__all__ = ["DATA_PARAM", "DATA_SOURCE", "DATA_SOURCE_OK", "select_for_profile", "check_data"]

#: The cell parameter naming a theorem's data source.
DATA_PARAM = "data_source"
#: Its declaration (a theorem's ``parameters[DATA_PARAM]``) and its constraint.
DATA_SOURCE = Param("str", doc="data source: 'auto' (the fetched file, else the stand-in), 'standin', "
                    "'real:<set>' (required), or 'NAME=PATH;...' (rpcheck check --data NAME=PATH)")
DATA_SOURCE_OK = Constraint("data_source is 'auto', 'standin', 'real:<set>' or 'NAME=PATH;...' with registered "
                            "names", lambda p: data_registry.data_problem(p.get(DATA_PARAM, "auto")) is None)


def select_for_profile(theorems, profile, *, explicit):
    """``(selected, skipped)``: the theorems that define ``profile`` and the ids of those that do not.

    Every theorem defines the profiles of :data:`~rpcheck.engine.theorem.PROFILES`; an optional one
    ("paper") only some. An ``explicit`` selection of a theorem without it is an error; a run over all
    theorems skips them (the caller says which)."""
    if profile in PROFILES:
        return list(theorems), []
    selected = [th for th in theorems if profile in th.profiles]
    skipped = [th.id for th in theorems if profile not in th.profiles]
    if skipped and explicit:
        raise RpcheckError(
            f"theorem {skipped[0]!r} has no {profile!r} profile; the theorems with one: "
            f"{', '.join(th.id for th in selected) or 'none'}."
        )
    if not selected:
        raise RpcheckError(f"no selected theorem has a {profile!r} profile.")
    return selected, skipped


def check_data(theorems, profile, overrides=None):
    """Raise one RpcheckError, before any trial, when a cell of ``profile`` requires a real data set
    ("real:<name>") that the override ``data_source`` does not name and the registry's cache does not hold."""
    values = [c[DATA_PARAM] for th in theorems for c in th.profiles[profile].cells if DATA_PARAM in c]
    if not values:
        return
    given = (overrides or {}).get(DATA_PARAM)
    mapping = data_registry.parse_data(given)[2] if isinstance(given, str) else {}
    absent = data_registry.missing(values, data=mapping)
    if absent:
        users = sorted({th.id for th in theorems for c in th.profiles[profile].cells
                        if any(n in data_registry.parse_data(c.get(DATA_PARAM, "auto"))[1] for n in absent)})
        raise RpcheckError(
            f"profile {profile!r} runs on the real data and {', '.join(map(repr, absent))} "
            f"{'is' if len(absent) == 1 else 'are'} not present (needed by {', '.join(users)}): fetch with "
            + ", ".join(f"`rpcheck data fetch {n}`" for n in absent)
            + " (or name a copy with `--data NAME=PATH`)."
        )

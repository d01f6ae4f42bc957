"""Domains of a theorem's grid parameters (:class:`Param`) and the relations between them
(:class:`Constraint`), and the constructor wrapper every declaration class of :mod:`rpcheck.engine.theorem`
shares (a misused argument is one RpcheckError naming it)."""

from __future__ import annotations

import inspect
import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import RpcheckError

PARAM_KINDS = ("int", "float", "bool", "str", "choice")


#: Hints for keyword arguments that are easy to get wrong, per class.
_ARG_HINTS = {
    "Variant": {
        "delta": "use promised_failure",
        "promised": "use promised_failure",
        "p": "use promised_failure",
        "expect": "use expected",
    },
    "Theorem": {"profile": "use profiles", "params": "use parameters"},
    "Outcome": {"holds_": "use holds", "value": "use statistic"},
    "Profile": {"n_trials": "use trials", "grid": "use cells"},
    "Finding": {"spec_ref": "use location", "where": "use location", "text": "use quote"},
}


def _friendly_init(cls):
    """Wrap a dataclass ``__init__`` so a misused constructor (unknown or missing argument) raises one
    RpcheckError naming the bad argument and the allowed ones. Costs nothing on the happy path."""
    init = cls.__init__
    sig = inspect.signature(init)
    allowed = [p for p in sig.parameters if p != "self"]

    def __init__(self, *args, **kwargs):
        try:
            init(self, *args, **kwargs)
        except TypeError as exc:
            try:
                sig.bind(self, *args, **kwargs)
            except TypeError:
                hints = _ARG_HINTS.get(cls.__name__, {})
                bad = [k for k in kwargs if k not in allowed]
                if bad:
                    extra = "; ".join(f"`{k}`: {hints[k]}" for k in bad if k in hints)
                    raise RpcheckError(
                        f"{cls.__name__}() got the unknown argument(s) {', '.join(map(repr, bad))}"
                        + (f" ({extra})" if extra else "")
                        + f"; allowed: {', '.join(allowed)}."
                    ) from None
                raise RpcheckError(f"{cls.__name__}(): {exc}; arguments: {', '.join(allowed)}.") from None
            raise

    __init__.__doc__ = init.__doc__
    __init__.__signature__ = sig
    cls.__init__ = __init__
    return cls


def _fmt(v):
    return repr(v)


# ------------------------------------------------------------------------------ parameters


@_friendly_init
@dataclass(frozen=True)
class Param:
    """The domain of one grid parameter.

    Parameters
    ----------
    kind : {"int", "float", "bool", "str", "choice"}
        "int" accepts Python/NumPy integers but not booleans; "float" accepts any real number (not a
        boolean); "choice" any of ``choices``.
    low, high : float, optional
        Bounds for "int" and "float" (None = unbounded); ``closed`` in {"both", "left", "right", "neither"}
        says which ends belong to the domain.
    choices : tuple, optional
        The allowed values of a "choice" (and optionally of a "str") parameter.
    doc : str
        What the parameter is (shown by ``rpcheck show``).
    size : bool, default=False
        "int" only: the value is the length of an array that every trial allocates (a dimension ``d``, a
        number of points ``n``, a target dimension ``r``), so a cell whose value would need more memory
        than is available is refused before any trial (:func:`trial_memory`).

    Examples
    --------
    >>> Param("int", low=1).domain()
    'an int in [1, inf)'
    >>> Param("int", low=1).problem(True)
    'True is a bool, not an int'
    >>> Param("choice", choices=("gaussian", "srht")).problem("sign")
    "'sign' is not one of 'gaussian', 'srht'"
    """

    kind: str
    low: Any = None
    high: Any = None
    closed: str = "both"
    choices: Any = None
    doc: str = ""
    size: bool = False

    def __post_init__(self):
        if self.kind not in PARAM_KINDS:
            raise RpcheckError(f"Param `kind` ({self.kind!r}) must be one of {', '.join(map(repr, PARAM_KINDS))}.")
        if self.closed not in ("both", "left", "right", "neither"):
            raise RpcheckError(f"Param `closed` ({self.closed!r}) must be one of 'both', 'left', 'right', 'neither'.")
        if self.kind == "choice" and not self.choices:
            raise RpcheckError("Param of kind 'choice' needs `choices` (a non-empty tuple).")
        if self.choices is not None:
            object.__setattr__(self, "choices", tuple(self.choices))
        if (self.low is not None or self.high is not None) and self.kind not in ("int", "float"):
            raise RpcheckError(f"Param `low`/`high` apply to kinds 'int' and 'float', not {self.kind!r}.")
        if self.size and self.kind != "int":
            raise RpcheckError(f"Param `size=True` (an array length) applies to kind 'int', not {self.kind!r}.")

    def domain(self):
        """The domain in words, e.g. "an int in [1, inf)"."""
        if self.kind in ("int", "float"):
            if self.low is None and self.high is None:
                return f"a{'n' if self.kind == 'int' else ''} {self.kind}"
            lb = "[" if self.closed in ("both", "left") and self.low is not None else "("
            rb = "]" if self.closed in ("both", "right") and self.high is not None else ")"
            lo = "-inf" if self.low is None else self.low
            hi = "inf" if self.high is None else self.high
            return f"a{'n' if self.kind == 'int' else ''} {self.kind} in {lb}{lo}, {hi}{rb}"
        if self.choices:
            return "one of " + ", ".join(map(_fmt, self.choices))
        return "a bool" if self.kind == "bool" else "a string"

    def problem(self, value):
        """Why ``value`` is outside the domain, or None when it is inside."""
        k = self.kind
        if k == "int":
            if isinstance(value, bool):
                return f"{value!r} is a bool, not an int"
            if not isinstance(value, numbers.Integral):
                return f"{value!r} is not an int"
        elif k == "float":
            if isinstance(value, bool):
                return f"{value!r} is a bool, not a number"
            if not isinstance(value, numbers.Real):
                return f"{value!r} is not a number"
            if math.isnan(float(value)):
                return "nan is not a number in the domain"
        elif k == "bool":
            if not isinstance(value, bool):
                return f"{value!r} is not a bool"
        elif k == "str":
            if not isinstance(value, str):
                return f"{value!r} is not a string"
        if self.choices is not None and value not in self.choices:
            return f"{value!r} is not one of {', '.join(map(_fmt, self.choices))}"
        if k in ("int", "float"):
            v = float(value)
            lo_ok = self.low is None or (v >= self.low if self.closed in ("both", "left") else v > self.low)
            hi_ok = self.high is None or (v <= self.high if self.closed in ("both", "right") else v < self.high)
            if not (lo_ok and hi_ok):
                return f"{value!r} is outside the domain"
        return None


@_friendly_init
@dataclass(frozen=True)
class Constraint:
    """A relation between parameters that every cell must satisfy.

    ``check(params) -> bool``; ``description`` says it in words, e.g.
    "r <= d' (the padded dimension 2**ceil(log2 d))".
    """

    description: str
    check: Callable[[Mapping], bool]

    def __post_init__(self):
        if not isinstance(self.description, str) or not self.description:
            raise RpcheckError("Constraint `description` must be a non-empty string.")
        if not callable(self.check):
            raise RpcheckError(f"Constraint `check` ({self.check!r}) must be a callable(params) -> bool.")

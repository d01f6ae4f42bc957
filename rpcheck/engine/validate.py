"""One validation path for the parameters of a cell, whatever door they come through.

``--set`` and ``run(overrides=...)`` (each changed cell), ``run_cell(params=...)``, the pytest fixture (which
calls :func:`rpcheck.engine.run`) and ``replay`` of a counterexample file (whose ``params`` are data someone
may have sent) all check a cell with :meth:`Theorem.cell_problem` and ``memory=True``:

1. the JSON form: a dict with string keys and JSON values (what crosses a process boundary);
2. the declared domain of every parameter (:class:`rpcheck.engine.theorem.Param`) and the theorem's
   constraints (not for ``run_cell``, the searches' layer: :func:`check_params`);
3. the memory model of one trial (:func:`rpcheck.engine.theorem.trial_memory`): a cell whose trial would
   need more memory than is available is refused before any trial runs, naming the parameters to reduce.

A theorem that declares no ``parameters`` gets only the first check.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import RpcheckError
from ._worker import canonical_json

__all__ = ["check_params"]


def _json_problem(params):
    if not isinstance(params, Mapping):
        return f"must be a dict of parameter -> value; got {type(params).__name__}"
    bad = [k for k in params if not isinstance(k, str)]
    if bad:
        return f"parameter names must be strings; got {bad[0]!r}"
    try:
        canonical_json(params)
    except RpcheckError as exc:
        return str(exc).rstrip(".")
    return None


def check_params(theorem, params, *, what="`params`", constraints=True):
    """Validate the parameter dict of one cell of ``theorem``; return it as a plain dict.

    Raises one RpcheckError, prefixed with ``what`` (the argument as the caller knows it), naming the
    parameter, its value and what is allowed. ``constraints=False`` skips the relations between parameters
    (:meth:`Theorem.cell_problem`): ``run_cell`` is the layer of the searches over one parameter
    (:mod:`rpcheck.engine.constant`, :mod:`rpcheck.engine.search`), whose cells leave the declared grid's
    relations on purpose (e.g. a target dimension below the one a formula prescribes); domains and memory
    still apply.

    >>> from rpcheck.engine import registry
    >>> th = registry.get("paul2014.lemma3.4")
    >>> check_params(th, {**th.profiles["quick"].cells[0], "r": "abc"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rpcheck.errors.RpcheckError: `params` of paul2014.lemma3.4: parameter 'r' = 'abc' is outside its domain, ...
    """
    why = _json_problem(params)
    if why is None:
        why = theorem.cell_problem(params, memory=True, constraints=constraints)
    if why:
        raise RpcheckError(f"{what} of {theorem.id}: {why}.")
    return dict(params)

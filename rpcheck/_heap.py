"""The process's import-time heap and the cyclic garbage collector (a switch the CLI and rpcheck's own
worker processes turn on; a library user's process is left alone)."""

import gc

#: Set in rpcheck's own worker processes (``engine.backends._init_worker``) and by the CLI: after importing a
#: theorem's module, the heap of imported modules is moved out of the cyclic garbage collector's reach
#: (:func:`freeze_import_heap`).
FREEZE_IMPORT_HEAP = False

__all__ = ["FREEZE_IMPORT_HEAP", "freeze_import_heap"]


_frozen = False


def freeze_import_heap(*, once=False):
    """``gc.collect()`` then ``gc.freeze()``: the objects alive now (modules, functions, classes: about
    100,000 once the checkers, numpy, scipy and pandas are imported) are never scanned again by a full
    collection. Each full collection otherwise walks all of them; with trials of 60-100 us (shi2012.fig1,
    shi2012.thm8.final_step) that was 5-7 us per trial (measured: 22.5% -> 18.5% time outside the trial
    function, thm8.final_step at ci). Garbage collected before the freeze is not kept; only objects alive at
    that moment become permanent, and later garbage is collected as usual. ``once=True``: nothing if this
    process froze its heap before (a process that runs the engine several times, as ``rpcheck calibrate``
    does serially, freezes its imports, not the results of its earlier runs)."""
    global _frozen
    if once and _frozen:
        return
    gc.collect()
    gc.freeze()
    _frozen = True

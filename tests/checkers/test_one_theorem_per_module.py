"""One theorem per checker module (docs/adding-a-theorem.md): a module under ``rpcheck.papers`` registers at
most one theorem per trial function. Several theorems may share one trial only when it is literally the same
function object (variants of one trial, e.g. the Lemma 3.1-3.4 rows of ``paul2014.embedding``); two
theorems with different ``trial`` functions belong in two modules."""

from collections import defaultdict

from rpcheck.engine import registry

#: Modules allowed to keep several trials, with the reason. ``paul2014.embedding`` registers its Lemma
#: 3.1-3.4 rows (and c2 / c2.countsketch_exact) from the shared ``embedding_trial`` and keeps ``paul2014.c1a``
#: (``c1a_trial``) beside them; it is left as it is until it is split too.
ALLOWED = {"rpcheck.papers.paul2014.embedding"}


def _by_module():
    """Registered theorems grouped by the module that defines their trial (``functools.wraps`` decorators such
    as ``single_threaded`` keep the defining module)."""
    groups = defaultdict(list)
    for th in registry.all_theorems():
        groups[th.trial.__module__].append(th)
    return groups


def test_checker_modules_register_one_trial_each():
    bad = {}
    for module, theorems in _by_module().items():
        if not module.startswith("rpcheck.papers.") or module in ALLOWED:
            continue
        trials = {id(th.trial) for th in theorems}
        if len(trials) > 1:
            bad[module] = sorted(th.id for th in theorems)
    assert not bad, f"checker modules registering theorems with different trial functions (split them): {bad}"


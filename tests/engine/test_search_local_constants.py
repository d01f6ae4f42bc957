"""A search inside a trial is a function of its seed: it must not depend on which local modules the process
imported (hypothesis draws literals from their source code; rpcheck.engine.search._without_local_constants)."""

import subprocess
import sys
import textwrap

_SEARCH = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {moddir!r})
    if {load!r}:
        import rpcheck_local_constants_fixture  # a local module full of float literals
    from hypothesis import strategies as st
    from rpcheck.engine.search import hypothesis_search
    import math

    def objective(s):
        return sum(math.sin(7.3 * x + j) for j, x in enumerate(s)) + 3.5

    res = hypothesis_search(objective, st.tuples(*[st.floats(-1.0, 1.0, allow_nan=False)] * 6),
                            max_examples=60, max_shrinks=20, seed=1234)
    print(repr((res.worst_slack, res.worst_instance, res.tried, res.stopped)))
    """
)


def _run(tmp_path, load):
    code = _SEARCH.format(moddir=str(tmp_path), load=load)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path)
    return out.stdout.strip()


def test_search_ignores_literals_of_imported_local_modules(tmp_path):
    consts = ", ".join(f"{k / 97 - 0.5!r}" for k in range(97))
    (tmp_path / "rpcheck_local_constants_fixture.py").write_text(f"VALUES = [{consts}]\n")
    plain, loaded = _run(tmp_path, False), _run(tmp_path, True)
    assert plain == loaded


def test_hook_exists_in_this_hypothesis():
    # the pool lives in hypothesis internals: if a new hypothesis moves it, the guard above does nothing and
    # this test says so (the guard then needs updating, not removing)
    from hypothesis.internal.conjecture import providers

    assert hasattr(providers, "_get_local_constants") and hasattr(providers, "CONSTANTS_CACHE")


def test_guard_restores_hypothesis_state():
    from hypothesis.internal.conjecture import providers

    from rpcheck.engine.search import _without_local_constants

    before = providers._get_local_constants
    with _without_local_constants():
        with _without_local_constants():  # nested (another thread's search) keeps it off
            assert len(providers._get_local_constants().floats) == 0
        assert providers._get_local_constants is not before
    assert providers._get_local_constants is before

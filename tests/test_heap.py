"""rpcheck._heap: the import-time heap is frozen only in rpcheck's own processes, once per process when asked."""

import gc

from rpcheck import _heap


def test_freeze_moves_the_live_heap_out_of_the_collector_and_once_is_once(monkeypatch):
    monkeypatch.setattr(_heap, "_frozen", False)
    try:
        _heap.freeze_import_heap(once=True)
        first = gc.get_freeze_count()
        assert first > 1000 and _heap._frozen  # the modules, functions and classes imported so far
        junk = [[i] for i in range(5000)]  # noqa: F841  (alive, tracked by the collector)
        _heap.freeze_import_heap(once=True)
        assert gc.get_freeze_count() == first  # once: nothing more is frozen
        _heap.freeze_import_heap()
        assert gc.get_freeze_count() >= first + 5000
    finally:
        gc.unfreeze()


def test_a_library_process_is_left_alone(capsys):
    # importing rpcheck, running the engine or calling cli.main from Python does not switch it on; the
    # `rpcheck` command (cli.console_main) and the process pool's worker initializer do
    from rpcheck.cli import main

    assert main(["list"]) == 0
    capsys.readouterr()
    assert _heap.FREEZE_IMPORT_HEAP is False

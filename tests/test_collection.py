"""Test modules have unique basenames across tests/ and theorems/.

The test directories are not packages (rootdir-relative imports), so two modules with the same basename make
pytest's collection of the default run fail ("import file mismatch") -- the whole run, not one test. Unit
tests of a theorem's trial live in tests/checkers/test_<paper>_<name>_trial.py beside the theorem test
theorems/test_<paper>_<name>.py.
"""

from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_test_module_basenames_are_unique():
    seen = defaultdict(list)
    for d in ("tests", "theorems"):
        for p in (ROOT / d).rglob("test_*.py"):
            seen[p.name].append(p.relative_to(ROOT).as_posix())
    clashes = {k: v for k, v in seen.items() if len(v) > 1}
    assert not clashes, f"test modules sharing a basename (rename one to *_trial.py): {clashes}"

"""BENCHMARKS.md and PROFILES.md are generated from the ledgers (``benchmarks/results/``, ``docs/full-run/``) by
``python -m benchmarks.make_docs``: the committed files must equal a fresh rendering, and stay one short current
reference each."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ("BENCHMARKS.md", "PROFILES.md")
MAX_LINES = 300


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    out = tmp_path_factory.mktemp("docs")
    subprocess.run([sys.executable, "-m", "benchmarks.make_docs", "--out", str(out)], cwd=ROOT, check=True)
    return out


@pytest.mark.parametrize("name", DOCS)
def test_committed_document_equals_a_fresh_rendering(rendered, name):
    fresh = (rendered / name).read_text(encoding="utf-8")
    committed = (ROOT / name).read_text(encoding="utf-8")
    assert committed == fresh, f"{name} is stale: run `python -m benchmarks.make_docs` and commit it"


@pytest.mark.parametrize("name", DOCS)
def test_document_is_short(rendered, name):
    n = len((rendered / name).read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"{name} has {n} lines (at most {MAX_LINES}): drop superseded rows from the ledger"


def test_check_mode_reports_a_stale_file(tmp_path):
    """``--check`` exits 1 on a stale document and writes nothing (a copy of the repository's inputs)."""
    import shutil

    for sub in ("benchmarks", "docs/full-run"):
        shutil.copytree(ROOT / sub, tmp_path / sub, ignore=shutil.ignore_patterns("__pycache__", "cells", "traces",
                                                                                   "superseded", "partial"))
    for name in DOCS:
        shutil.copy(ROOT / name, tmp_path / name)
    ok = subprocess.run([sys.executable, "-m", "benchmarks.make_docs", "--check"], cwd=tmp_path,
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    (tmp_path / "PROFILES.md").write_text("stale\n", encoding="utf-8")
    bad = subprocess.run([sys.executable, "-m", "benchmarks.make_docs", "--check"], cwd=tmp_path,
                         capture_output=True, text=True)
    assert bad.returncode == 1 and "PROFILES.md is stale" in bad.stderr
    assert (tmp_path / "PROFILES.md").read_text(encoding="utf-8") == "stale\n"


def test_every_ledger_row_is_complete_and_cited():
    """Each row names what, how, which code, which machine and when, and each id is unique and in its document."""
    machines = json.loads((ROOT / "benchmarks/results/machines.json").read_text(encoding="utf-8"))
    seen = set()
    for ledger in ("benchmarks.jsonl", "profiles.jsonl"):
        for line in (ROOT / "benchmarks/results" / ledger).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            for key in ("id", "doc", "section", "what", "command", "code", "recorded_in", "machine", "date"):
                assert row.get(key), (ledger, row.get("id"), key)
            assert row["machine"] in machines, row["id"]
            assert row["id"] not in seen, row["id"]
            seen.add(row["id"])
            assert f"row `{row['id']}`" in (ROOT / f"{row['doc']}.md").read_text(encoding="utf-8") or \
                f"`{row['id']}`" in (ROOT / f"{row['doc']}.md").read_text(encoding="utf-8"), row["id"]

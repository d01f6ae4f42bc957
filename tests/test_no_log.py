"""The repository speaks in the present tense: no work log in its documents, docstrings or comments.

Documentation says what is and why; when something was measured or changed, and by whom, lives in git and in the
ledgers (``benchmarks/results/``, ``docs/full-run/``). This test scans

- every Markdown file of the repository except ``CHANGES.md`` (the one place for what each round delivered) and
  the ledger directories (``docs/full-run/``, ``benchmarks/results/``: their rows and notes name commits and
  dates by design);
- the comments (``tokenize``) and the docstrings and other bare string statements (``ast``) of every ``.py`` file
  under ``rpcheck/``, ``tests/``, ``theorems/`` and ``benchmarks/``, plus the root ``conftest.py``. String
  literals that are data (messages, regexes, test inputs) are not scanned.

and rejects the marks of a diary (:data:`PATTERNS`): a numbered work session or a reference to "this" one,
an agent who did the work, a numbered round of work, an issue-tracker number of this project, and a commit hash
(a hexadecimal word of 7 to 40 characters that git resolves to a commit of this repository; without git, a hex
word written right after "commit"). Legitimate uses stay legal: a pytest session (``scope="session"``,
``pytest_sessionstart``, "the session profile"), a browser or HTTP session, a helper function, measurement
rounds, an upstream project's issue (``dask/distributed#9045``), hex constants that are not commits.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PY_AREAS = ("rpcheck", "tests", "theorems", "benchmarks")
MD_EXCLUDED = {"CHANGES.md"}
#: Directories never scanned: generated output and ledgers (their rows carry dates and code versions by design).
SKIP_DIRS = {".git", "reports", "results", "full-run", "__pycache__", ".venv", ".venv-ci", ".tox", "build", "dist"}

#: (name, compiled pattern) of the marks of a diary. Case-insensitive unless a pattern says otherwise.
PATTERNS = [
    ("numbered session", re.compile(r"\bsessions?[- ]\d+", re.I)),
    ("this/that/other session", re.compile(
        r"\b(this|that|previous|earlier|later|next|another|other|same|working|helper|each|every) sessions?\b"
        r"(?![- ]?(scoped|fixture|start|finish|profile|summary|defaults?))", re.I)),
    ("helper as agent", re.compile(
        r"\bhelper s\d\w*|\bhelpers?'s?\s+(sessions?|worktree|branch|run)\b"
        r"|\b(another|other|two|three|four|a second) helpers?\b(?!\s+(functions?|modules?|methods?|class))"
        r"|\bhelpers? (shared|ran|running|owned|owns|own|wrote|measured|found)\b"
        r"|\b(owned|run|written|measured|found|done|fixed) by (a |an |another |other |the )?helpers?\b", re.I)),
    ("numbered round of work", re.compile(
        r"\bround \d+\b(?! of)|\b(this|previous|last|next|earlier|first|second|third|fourth|fifth) round\b"
        r"(?!'s| of| trip|[- ]robin|s?\s+(of|per))", re.I)),
    ("issue number", re.compile(r"\bissues? #?\d+\b|\(#\d+[),]|\b(PR|pull request) #?\d+\b", re.I)),
]
HEX = re.compile(r"(?<![\w.])[0-9a-f]{7,40}(?![\w])")
COMMIT_WORD = re.compile(r"\bcommits?\s+([0-9a-f]{7,40})\b", re.I)


def _git_commits(words):
    """The subset of ``words`` that git resolves to commits of this repository (None: git is not available)."""
    if not words:
        return set()
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), "cat-file", "--batch-check"],
            input="".join(f"{w}^{{commit}}\n" for w in words), capture_output=True, text=True, timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    lines = out.stdout.splitlines()
    if len(lines) != len(words):
        return None
    return {w for w, line in zip(words, lines) if line.endswith(" commit") or " commit " in line}


def _docs_of_python(text):
    """(line, text) of every comment, docstring and bare string statement of a Python source."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                out.append((tok.start[0], tok.string))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return out
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            for k, line in enumerate(node.value.value.splitlines()):
                out.append((node.lineno + k, line))
    return out


def scan_text(pieces):
    """Offences in ``pieces`` ((line, text) pairs): a list of (line, kind, matched text), hashes unresolved."""
    found, hexes = [], []
    for line, text in pieces:
        for kind, pat in PATTERNS:
            for m in pat.finditer(text):
                found.append((line, kind, m.group(0)))
        for m in HEX.finditer(text):
            w = m.group(0)
            if re.search(r"\d", w) and re.search(r"[a-f]", w):
                hexes.append((line, w, text))
    return found, hexes


def _files():
    md, py = [], []
    for p in sorted(ROOT.rglob("*")):
        rel = p.relative_to(ROOT)
        if any(part in SKIP_DIRS for part in rel.parts[:-1]) or not p.is_file():
            continue
        if p.suffix == ".md" and rel.as_posix() not in MD_EXCLUDED:
            md.append(p)
        elif p.suffix == ".py" and (rel.parts[0] in PY_AREAS or rel.as_posix() == "conftest.py"):
            py.append(p)
    return md, py


def offenders(area=None):
    """Every offence under ``area`` (a top-level directory, "*.md" for the Markdown files, None: everything)."""
    md, py = _files()
    per_file = {}
    for p in md + py:
        rel = p.relative_to(ROOT).as_posix()
        if area == "*.md" and p.suffix != ".md":
            continue
        if area not in (None, "*.md") and (p.suffix != ".py" or not (rel.startswith(area + "/") or rel == area)):
            continue
        text = p.read_text(encoding="utf-8", errors="replace")
        pieces = _docs_of_python(text) if p.suffix == ".py" else list(enumerate(text.splitlines(), 1))
        per_file[rel] = scan_text(pieces)
    words = sorted({w for _, hexes in per_file.values() for _, w, _ in hexes})
    commits = _git_commits(words)
    result = []
    for rel, (found, hexes) in per_file.items():
        result += [f"{rel}:{line}: {kind}: {text!r}" for line, kind, text in found]
        for line, w, text in hexes:
            if commits is None:
                if any(m.group(1) == w for m in COMMIT_WORD.finditer(text)):
                    result.append(f"{rel}:{line}: commit hash: {w!r}")
            elif w in commits:
                result.append(f"{rel}:{line}: commit hash: {w!r}")
    return sorted(result)


@pytest.mark.parametrize("area", ["*.md", "conftest.py", *PY_AREAS])
def test_no_work_log(area):
    bad = offenders(area)
    assert not bad, (
        f"{len(bad)} diary marks in {area} (say what is and why; history belongs in git and the ledgers):\n"
        + "\n".join(bad[:200])
    )


# Planted diaries, assembled from pieces so that no line of this file is itself a diary mark.
@pytest.mark.parametrize("text", [
    "measured in " + "session 12 on the shared machine",
    "the " + "Session 9 numbers",
    "as this " + "session found",
    "fixed by " + "helper s12cs",
    "owned by other " + "helpers",
    "the " + "round 2 kernel",
    "see " + "issue #12",
    "lazy imports (" + "#12)",
])
def test_the_patterns_catch_a_diary(text):
    found, _ = scan_text([(1, text)])
    assert found, text


@pytest.mark.parametrize("text", [
    'a fixture with scope="session"',
    "pytest_sessionstart collects the family",
    "runs the theorem at the session profile and asserts the session summary",
    "a browser session over the DevTools protocol; an HTTP session",
    "the comparison helpers above; a helper function",
    "the minimum over the three rounds; the first round's X R",
    "dask/distributed#9045 lists at most 5 workers",
    "color #333 and seed 20261127",
])
def test_the_patterns_leave_legitimate_uses_alone(text):
    found, _ = scan_text([(1, text)])
    assert not found, found


def test_commit_hashes_are_resolved_by_git():
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        pytest.skip("not a git checkout")
    sha = head.stdout.strip()
    assert _git_commits([sha[:7], sha, "deadbee0"]) == {sha[:7], sha}
    _, hexes = scan_text([(1, f"measured at {sha}")])  # the full hash: a short prefix may be all digits
    assert [w for _, w, _ in hexes] == [sha]

"""The repository is self-contained: no file refers to anything outside it.

Code and docs cite the PAPER (theorem, equation, table, section as "Sec. N", page), never a document that is
not in the repository (a specification or catalogue kept elsewhere, its section signs or item numbers) and
never a machine path. Scanned: ``rpcheck/``, ``tests/``, ``theorems/``, ``docs/``, ``.ci/``, ``README.md``,
``ARCHITECTURE.md``, ``*.toml`` and ``tox.ini`` at the root. Generated run output (``reports/``) is not scanned.

The patterns are written so that this file does not match them itself (e.g. ``[/]`` for a slash).
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DIRS = ("rpcheck", "tests", "theorems", "docs", ".ci")
TOP = ("README.md", "ARCHITECTURE.md", "tox.ini")
TEXT = {".py", ".md", ".toml", ".ini", ".cfg", ".txt", ".json", ".yml", ".yaml", ".rst", ".sh", ""}

#: (regex, what it is). Case-insensitive.
FORBIDDEN = (
    (r"\.\.[/\\]shared", "a relative path out of the repository"),
    (r"shared[/\\]spec", "the external specification directory"),
    (r"\bspec[/\\](?:paul2014|shi2012|zhang2013|lei2020)\.md", "a paper's external specification file"),
    (r"(?<![\w.-])[/\\]work[/\\]", "an absolute machine path"),
    (r"\bspec(?:ification)?\s+(?:[a-z]+\d{4}\s+)?(?:\u00a7|sec\b|sec\.|section\b)", "a section of an external spec"),
    (
        r"(?-i:\bspec)\s+(?:[A-Z]\.?\d|\d|claim\b|item\b|paul2014|shi2012|zhang2013|lei2020)",
        "an item of an external spec",
    ),
    ("\u00a7", "a section sign (cite a paper section as 'Sec. N'; the sign was only used for the external spec)"),
)


def files():
    out = [ROOT / name for name in TOP] + sorted(ROOT.glob("*.toml"))
    for d in DIRS:
        for p in sorted((ROOT / d).rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix in TEXT:
                out.append(p)
    return [p for p in out if p.is_file()]


def offenders(text, name="text"):
    """``[(line number, what, line)]`` of every forbidden reference in ``text``."""
    found = []
    for i, line in enumerate(text.splitlines(), 1):
        for pattern, what in FORBIDDEN:
            if re.search(pattern, line, flags=re.IGNORECASE):
                found.append((i, what, line.strip()))
    return found


def test_the_scan_sees_the_tree():
    names = {p.relative_to(ROOT).as_posix() for p in files()}
    assert {"README.md", "ARCHITECTURE.md", "pyproject.toml", "tox.ini", "rpcheck/svm/meb.py"} <= names
    assert any(n.startswith("docs/papers/") for n in names) and any(n.startswith("theorems/") for n in names)


def test_no_file_refers_outside_the_repository():
    bad = []
    for p in files():
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for line, what, src in offenders(text):
            bad.append(f"{p.relative_to(ROOT).as_posix()}:{line}: {what}: {src[:160]}")
    assert not bad, (
        "files refer to something outside the repository; cite the paper (theorem, eq., table, 'Sec. N') "
        "instead:\n" + "\n".join(bad)
    )


@pytest.mark.parametrize(
    "text",
    [
        "see ../" + "shared/papers/x.txt",
        "from the shared" + "/spec/" + "paul2014.md",
        "Section 1.5 of ``spec/" + "paul2014.md``",
        "written to /" + "work/wt/x",
        "data radius (spec \u00a7" + "1.5)",
        "(spec" + " shi2012 \u00a71 D2)",
        "spec" + " sec. 6",
        "Spec" + " Section 3",
        "\u00a7" + "6 item 12",
        "identity (spec" + " C5)",
        "(spec" + " A.3, from Section 5.2)",
        "(spec" + " claim 20)",
        "Sec. 1.6 (spec" + " paul2014.md)",
    ],
)
def test_the_scan_catches_a_planted_reference(text):
    assert offenders(f"ok line\n{text}\n") and offenders(text)[0][0] == 1


@pytest.mark.parametrize(
    "text",
    [
        "Paul et al. 2014, Sec. 1.1.1; Theorems 1.1 and 3.6",
        "the one random-number convention of rpcheck (SPEC 7)",
        "inspect.signature; the shared pieces of the checkers",
        "networks/working/x and ./work/x are relative",
    ],
)
def test_the_scan_accepts_paper_citations(text):
    assert offenders(text) == []

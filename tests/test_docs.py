"""docs/papers/ (issue #14): the Markdown pages generated from the theorem registry are checked in and must be
byte-identical to a fresh rendering, so a changed theorem (statement, variant, expected verdict, finding,
profile cell) cannot leave its page stale. Regenerate with ``rpcheck docs --out docs/papers``."""

from pathlib import Path

import pytest

from rpcheck.cli import EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE, main
from rpcheck.engine import registry
from rpcheck.report import markdown

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "papers"
HOW = (
    f"run `{markdown.REGENERATE}` from the repository root (or `PYTHONPATH=. python -m rpcheck.cli docs "
    "--out docs/papers`) and commit docs/papers/"
)


@pytest.fixture(scope="module")
def pages():
    return markdown.render_pages()


def test_one_page_per_paper_and_an_index(pages):
    assert sorted(pages) == sorted([*(f"{p}.md" for p in registry.PAPER_PACKAGES), "index.md"])
    ids = [t.id for t in markdown.builtin_theorems()]
    assert ids == sorted(ids) and len(ids) > 50
    for t in markdown.builtin_theorems():
        page = pages[f"{t.paper}.md"]
        assert f'<a id="{t.id}"></a>' in page, t.id
        assert f"]({t.paper}.md#{t.id})" in pages["index.md"], t.id
        for v in t.variants:
            assert f"| `{v.name}` | {v.role} | {v.mode} |" in page, (t.id, v.name)
        for f in t.findings:
            assert f"- **{markdown._prose(f.key)}**" in page, (t.id, f.key)
        for name, prof in t.profiles.items():
            assert f"#### `{name}`: {len(prof.cells)} cell" in page, (t.id, name)


def test_regenerating_yields_the_checked_in_pages(pages, tmp_path):
    written = markdown.write_pages(tmp_path, pages)
    assert [p.name for p in written] == sorted(pages)
    differ = [
        p.name for p in written if not (DOCS / p.name).is_file() or (DOCS / p.name).read_bytes() != p.read_bytes()
    ]
    extra = sorted(p.name for p in DOCS.glob("*.md") if p.name not in pages)
    assert not differ and not extra, (
        f"docs/papers is stale: {', '.join(differ + extra)} differ from the theorem registry; {HOW}."
    )


def test_pages_are_deterministic_and_machine_independent(pages):
    for name, text in pages.items():
        assert text.endswith("\n") and "\r" not in text, name
        assert str(ROOT) not in text and "/tmp/" not in text, name
        assert " at 0x" not in text, f"{name}: an object repr (memory address) would change on every run"


def test_docs_check_names_the_stale_pages(pages, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(markdown, "render_pages", lambda *a, **k: pages)
    out = tmp_path / "papers"
    assert main(["docs", "--out", str(out)]) == EXIT_OK
    assert main(["docs", "--out", str(out), "--check"]) == EXIT_OK
    (out / "shi2012.md").write_text("edited by hand\n", encoding="utf-8")
    (out / "gone2019.md").write_text("a removed paper\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["docs", "--out", str(out), "--check"]) == EXIT_UNEXPECTED
    msg = capsys.readouterr().out
    assert "shi2012.md" in msg and "gone2019.md" in msg and "rpcheck docs --out" in msg
    assert "paul2014.md" not in msg


def test_show_markdown_of_a_paper_a_theorem_and_everything(pages, monkeypatch, capsys):
    assert main(["show", "--markdown", "alpcan2016"]) == EXIT_OK
    assert capsys.readouterr().out == pages["alpcan2016.md"]
    assert main(["show", "--markdown", "alpcan2016.xar"]) == EXIT_OK
    out = capsys.readouterr().out
    assert out.startswith('<a id="alpcan2016.xar"></a>\n\n# `alpcan2016.xar`') and "## Statement as printed" in out
    monkeypatch.setattr(markdown, "render_pages", lambda *a, **k: pages)
    assert main(["show", "--markdown"]) == EXIT_OK
    out = capsys.readouterr().out
    assert out.startswith(pages["index.md"]) and all(pages[f"{p}.md"] in out for p in registry.PAPER_PACKAGES)


def test_show_without_an_id_is_a_usage_error(capsys):
    assert main(["show"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--markdown" in err
    with pytest.raises(SystemExit) as exc:
        main(["show", "x", "--json", "--markdown"])
    assert exc.value.code == EXIT_USAGE


def test_prose_is_escaped_and_code_is_kept():
    assert markdown._prose("a*b | c_ [x] `k*|` <i>") == "a\\*b \\| c\\_ \\[x\\] `k*|` &lt;i>"
    assert markdown._prose("as_printed x_i") == "as_printed x_i"
    assert markdown._code("``x``") == "``` ``x`` ```"
    assert markdown._block("a ``` b").startswith("````text\n")
    assert markdown._cell("a|b\nc") == "a\\|b c"


def test_the_shipped_index_of_the_builtin_theorems_is_current():
    """rpcheck/papers/index.json lets the first `rpcheck list` after an install answer without importing the
    checkers; it is used only while its key matches the checkers' sources, and must list what they register."""
    import json

    from rpcheck.engine import catalog

    shipped = json.loads(catalog.SHIPPED_INDEX.read_text(encoding="utf-8"))
    assert shipped["key"] == catalog.checkers_key() and shipped["theorems"] == catalog.compute_index(), (
        f"rpcheck/papers/index.json is stale; {HOW} and rpcheck/papers/index.json."
    )
    assert catalog.shipped_index() == shipped["theorems"]

"""docs/papers/: the Markdown pages generated from the theorem registry are checked in and must be
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
    assert sorted(pages) == sorted([*(f"{p}.md" for p in registry.builtin_papers()), "index.md"])
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
    assert out.startswith(pages["index.md"]) and all(pages[f"{p}.md"] in out for p in registry.builtin_papers())


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


def test_the_catalog_lists_exactly_the_registered_builtin_ids(tmp_path, monkeypatch):
    """The index `rpcheck list` prints (a cold cache here) holds exactly the theorems registered by the rpcheck
    distribution's own entry points: one per paper package under rpcheck.papers, never a theorem registered by
    anything else (here a synthetic one registered by this test)."""
    import importlib.metadata

    from rpcheck.engine import Citation, Profile, Theorem, TrialRecord, Variant, catalog

    monkeypatch.setenv("RPCHECK_CACHE_DIR", str(tmp_path))
    dist = importlib.metadata.distribution("rpcheck")
    eps = sorted(ep.name for ep in dist.entry_points.select(group=registry.GROUP))
    assert eps == registry.builtin_papers() and len(eps) == 5
    assert all(ep.value == f"rpcheck.papers.{ep.name}" for ep in dist.entry_points.select(group=registry.GROUP))
    stranger = Theorem(
        id="docs_test.stranger", paper="docs_test", title="registered by a test", statement="-",
        citation=Citation(authors="Test", year=2024, title="t", venue="tests", location="none"),
        kind="deterministic", variants=(Variant("v", "-", mode="bound"),),
        profiles={p: Profile(cells=({},), trials=1) for p in ("quick", "ci", "standard", "full")},
        trial=lambda params, rng: TrialRecord(outcomes={}),
    )  # fmt: skip
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    registry.register(stranger)
    ids = set(catalog.builtin_index())
    under_papers = {
        t.id for t in registry.all_theorems() if t.trial.__module__.startswith(f"rpcheck.papers.{t.paper}.")
    }
    assert ids == {t.id for t in registry.builtin_theorems()} == under_papers
    assert stranger.id in registry.ids() and stranger.id not in ids  # registered, but not by an entry point
    assert {t.paper for t in registry.builtin_theorems()} == set(eps)


def test_a_changed_source_invalidates_the_catalog_cache(tmp_path, monkeypatch):
    """The cache key covers every theorem module, changes with a file's mtime or size, and a new key is never
    answered from the old key's cache file."""
    import inspect
    import os
    import shutil

    from rpcheck.engine import catalog

    covered = {os.path.realpath(path) for _, path in catalog.py_files(catalog.package_root())}
    for t in markdown.builtin_theorems():
        assert os.path.realpath(inspect.getsourcefile(inspect.unwrap(t.trial))) in covered, t.id
    copy = tmp_path / "pkg"
    shutil.copytree(ROOT / "rpcheck" / "papers" / "alpcan2016", copy, ignore=shutil.ignore_patterns("__pycache__"))
    key = catalog.source_key(copy)
    assert catalog.source_key(copy) == key
    st = os.stat(copy / "margin.py")
    os.utime(copy / "margin.py", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    touched = catalog.source_key(copy)
    assert touched != key
    with open(copy / "xar.py", "a", encoding="utf-8") as fh:
        fh.write("\n")
    assert catalog.source_key(copy) not in (key, touched)

    cache = tmp_path / "cache"
    monkeypatch.setenv("RPCHECK_CACHE_DIR", str(cache))
    stale = {"stale.id": {"id": "stale.id", "paper": "stale", "kind": "-", "title": "-", "source": "built-in"}}
    catalog.write_cache(cache / "index-k1.json", stale)
    assert catalog.builtin_index("k1") == stale  # the cache answers for its own key
    monkeypatch.setattr(catalog, "source_key", lambda root=None: "k2")
    assert set(catalog.builtin_index()) == {t.id for t in registry.builtin_theorems()}  # a new key recomputes
    assert (cache / "index-k2.json").is_file()

"""Findings ("what differs from the paper"): the contract of :class:`rpcheck.engine.Finding` and the audit
evidence every registered finding carries (the printed text it disputes, where it is printed, its kind).

Whether each quote occurs in the paper is checked by reading the paper, not here (the repository holds no copy
of the papers); this file checks that the evidence is there and well formed, and that the reports show it,
grouped by kind, paper errors first."""

import re

import pytest

from rpcheck.engine import Finding, registry
from rpcheck.engine.theorem import FINDING_KINDS
from rpcheck.errors import RpcheckError

ALL = [(t, f) for t in registry.all_theorems() for f in t.findings]
IDS = [f"{t.id}:{f.key}" for t, f in ALL]

#: Words that name a paper location (the ``location`` of every finding contains one).
PAPER_PLACES = re.compile(
    r"\b(Sec\.|Secs\.|Section|Theorem|Theorems|Lemma|Lemmas|Corollary|Proposition|Definition|eqs?\.|Table|Tables|"
    r"Fig\.|Figs\.|Figure|Algorithm|Abstract|Introduction|Preliminaries|Methodology|Experiments|footnote|proof|"
    r"Proof|p\.|pp\.|sentence|paragraph)"
)
#: Words that never name the paper.
NOT_THE_PAPER = re.compile(r"\bcatalogue|\bspec(s|ification)?\b", re.IGNORECASE)

GOOD = dict(key="k", summary="s", evidence_variant=None, location="Table I", quote="24.1.0", kind="paper error")


def test_every_theorem_module_declares_findings_in_the_registry():
    assert len(ALL) >= 100


@pytest.mark.parametrize(("theorem", "finding"), ALL, ids=IDS)
def test_finding_carries_its_audit_evidence(theorem, finding):
    f = finding
    assert f.kind in FINDING_KINDS
    assert f.quote.strip() and len(f.quote) <= 300, "a short verbatim quote of the printed text"
    assert f.quote.strip() != f.summary.strip()
    assert PAPER_PLACES.search(f.location), f"location {f.location!r} does not name a place in the paper"
    for name in ("summary", "location", "quote"):
        assert not NOT_THE_PAPER.search(getattr(f, name)), (name, getattr(f, name))
    if f.evidence_variant is not None:
        assert f.evidence_variant in theorem.variant_names


@pytest.mark.parametrize("theorem", registry.all_theorems(), ids=lambda t: t.id)
def test_finding_keys_are_unique_within_a_theorem(theorem):
    keys = [f.key for f in theorem.findings]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"quote": ""}, "`quote`"),
        ({"quote": "   "}, "`quote`"),
        ({"location": ""}, "`location`"),
        ({"kind": ""}, "`kind`"),
        ({"kind": "typo"}, "`kind`"),
        ({"summary": ""}, "`summary`"),
        ({"key": None}, "`key`"),
        ({"evidence_variant": ""}, "`evidence_variant`"),
        ({"summary": "the catalogue's value"}, "`summary`"),
        ({"location": "the spec, p. 3"}, "`location`"),
    ],
)
def test_bad_finding_raises_one_error_naming_the_argument(change, named):
    with pytest.raises(RpcheckError, match=re.escape(named)):
        Finding(**{**GOOD, **change})


def test_missing_audit_fields_and_old_names_are_rejected():
    with pytest.raises(RpcheckError, match="`quote`"):
        Finding("k", "s", location="Table I", kind="observation")
    with pytest.raises(RpcheckError, match="spec_ref.*use location"):
        Finding("k", "s", spec_ref="Table I", quote="q", kind="observation")


def test_words_that_contain_spec_are_allowed():
    f = Finding(**{**GOOD, "summary": "a special case of the spectral norm, in specific respects"})
    assert f.kind == "paper error"


def test_theorem_rejects_a_finding_whose_evidence_variant_does_not_exist():
    from rpcheck.engine import Outcome, Profile, Theorem, TrialRecord, Variant

    with pytest.raises(RpcheckError, match="evidence_variant.*'k'"):
        Theorem(
            id="user.finding", paper="user", title="t", citation=None, statement="s", kind="deterministic",
            variants=(Variant("a", "s", mode="deterministic"),),
            profiles={name: Profile(({},), trials=1) for name in ("quick", "ci", "standard", "full")},
            trial=lambda p, rng: TrialRecord(outcomes={"a": Outcome(True)}),
            findings=(Finding(**{**GOOD, "evidence_variant": "nope"}),),
        )


def test_known_readings_are_not_called_paper_errors():
    """The two findings a referee disputed: Zhang et al. print neither the chi-square law nor the event of
    zhang2013.thm3.chi2, and Shi et al.'s tensor product read as vec(x e_y^T) is the block layout."""
    chi2 = registry.get("zhang2013.thm3.chi2")
    assert not any("as_printed" in v or "catalogue" in v for v in chi2.variant_names)
    assert {f.kind for f in chi2.findings} == {"observation"}
    assert chi2.variant("half_threshold_law").role == "self-check"
    thm9 = registry.get("shi2012.thm9")
    kron = next(f for f in thm9.findings if f.key == "I7-kronecker")
    assert kron.kind == "notation"
    assert "kron_as_printed_order" not in thm9.variant_names
    assert thm9.variant("kron_x_major_layout").role == "self-check"


def _kind_positions(text, findings):
    return [text.index(f.key) for f in findings]


def test_markdown_groups_findings_by_kind_paper_errors_first():
    from rpcheck.report.markdown import theorem_markdown

    t = registry.get("paul2014.tables")
    kinds = {f.kind for f in t.findings}
    assert {"paper error", "observation"} <= kinds
    md = theorem_markdown(t)
    section = md[md.index("Findings (what differs from the paper"):]
    heads = [section.index(f"*{k.capitalize()}* (") for k in FINDING_KINDS if k in kinds]
    assert heads == sorted(heads)
    for f in t.findings:
        assert f.key in section and f.location.split(";")[0].strip() in section
        assert " ".join(f.quote.split())[:40] in section


def test_html_groups_findings_by_kind_and_shows_quote_location_kind():
    from rpcheck.report.html import _findings

    tids = ["paul2014.tables", "shi2012.thm9"]
    html, counts = _findings([], tids, lambda kind, tid: f"{kind}-{tid}")
    fs = [f for tid in tids for f in registry.get(tid).findings]
    order = [k for k in FINDING_KINDS if any(f.kind == k for f in fs)]
    heads = [html.index(f'<tr class="kind-row"><th colspan="6">{h}') for h in
             [{"paper error": "Paper errors", "proof gap": "Proof gaps", "ambiguity": "Ambiguities",
               "notation": "Notation", "observation": "Observations"}[k] for k in order]]
    assert heads == sorted(heads)
    for f in fs:
        pos = html.index(f"<code>{f.key}</code>")
        group = max(h for h in heads if h < pos)
        assert heads[order.index(f.kind)] == group, f.key
    assert "<blockquote class='printed'>24.1.0</blockquote>" in html
    assert sum(counts.values()) == len(fs) and counts["not run"] + counts["no evidence variant"] == len(fs)

"""`rpcheck check` opens its summary with the decision rate, in the terminal and in the --json document."""

import json

from rpcheck.cli import EXIT_OK, main


def _run(capsys, *argv):
    code = main(["check", "engine_test.bernoulli", "--profile", "quick", "--backend", "serial", *argv])
    return code, capsys.readouterr().out


def test_decided_run_says_so_first(capsys):
    code, out = _run(capsys)
    lines = out.splitlines()
    assert code == EXIT_OK
    # the cells p = 0.002 (HOLDS) and p = 0.2 (VIOLATED) carry an expectation, p = 0.03 none (_bern_expected)
    first = next(i for i, ln in enumerate(lines) if ln.startswith("decided "))
    assert lines[first] == "decided 2 of 2 claims with an expectation; 0 undecided"
    assert lines[first + 1].startswith("1 theorems, 3 rows")


def test_undecided_rows_are_listed_with_what_would_decide_them(capsys):
    _, out = _run(capsys, "--trials", "20", "--json")
    doc = json.loads(out)
    dec = doc["decision"]
    assert (dec["decided"], dec["total"]) == (0, 2) and dec["no_evidence"] == []
    holds = next(e for e in dec["undecided"] if e["expected"] == "HOLDS")
    # 20 clean draws cannot support P(fail) <= 0.05 at the run's level; the estimate counts the draws missing
    assert holds["params"]["p"] == 0.002 and holds["verdict"] == "INCONCLUSIVE" and holds["claim"]
    assert isinstance(holds["more_draws"], int) and holds["more_draws"] > 0 and holds["toward"] == "HOLDS"
    cells = {(c["cell"], c["variant"]): c for c in doc["cells"]}
    assert cells[(holds["cell"], holds["variant"])]["claim"] == holds["claim"]
    _, text = _run(capsys, "--trials", "20")
    lines = text.splitlines()
    i = lines.index("decided 0 of 2 claims with an expectation; 2 undecided")
    assert lines[i + 1] == "undecided:" and f"about {holds['more_draws']} more draws" in "\n".join(lines[i + 2 : i + 4])

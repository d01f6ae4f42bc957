"""The command line's stopping options: --stop, --until-decided, --budget (the engine side is tested in
tests/engine/test_anytime.py)."""

import json

import pytest

from rpcheck.cli import EXIT_OK, EXIT_USAGE, main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_default_stop_is_anytime_and_the_summary_states_it(capsys):
    code, out, _ = run(capsys, "check", "lei2020.energy", "--profile", "quick", "--backend", "serial", "--json")
    assert code == EXIT_OK
    doc = json.loads(out)
    assert doc["provenance"]["stopping"] == "anytime"
    assert "anytime-valid" in doc["summary"]["error_rate"]
    rows = [c for c in doc["cells"] if c["expected_declared"] in ("HOLDS", "VIOLATED")]
    assert rows and all(c["verdict"] == c["expected_declared"] for c in rows)


def test_stop_none_runs_every_planned_trial(capsys):
    code, out, _ = run(capsys, "check", "lei2020.energy", "--profile", "quick", "--backend", "serial", "--json",
                       "--stop", "none")
    assert code == EXIT_OK
    doc = json.loads(out)
    assert doc["provenance"]["stopping"] == "none"
    assert not any(c["stopped_early"] for c in doc["cells"])
    assert "Holm" in doc["summary"]["error_rate"]


def test_until_decided_decides_a_profile_too_small_to(capsys):
    """lei2020.energy's deterministic HOLDS rows cannot be decided with 10 trials; --until-decided doubles the
    cell until 90 clean draws are in."""
    code, out, _ = run(capsys, "check", "lei2020.energy", "--profile", "quick", "--trials", "10", "--backend",
                       "serial", "--json", "--until-decided")
    assert code == EXIT_OK
    doc = json.loads(out)
    assert doc["provenance"]["stopping"] == "until-decided"
    det = [c for c in doc["cells"] if c["mode"] == "deterministic" and c["expected_declared"] == "HOLDS"]
    assert det and all(c["verdict"] == "HOLDS" and 90 <= c["trials"] <= 160 for c in det)


@pytest.mark.parametrize("value", ["abc", "0", "-3m", "inf", "10x"])
def test_bad_budget_is_a_usage_error(capsys, value):
    with pytest.raises(SystemExit) as exc:
        main(["check", "lei2020.energy", "--budget", value])
    assert exc.value.code == EXIT_USAGE
    assert "--budget" in capsys.readouterr().err

"""Error messages name what the user typed: ``report -o`` names the ``-o`` path, never the hidden temporary
file of the atomic write; the ``--trials`` limit states the memory model of rpcheck.engine.runner; ``--jobs`` and
run()'s ``jobs`` share the engine's one limit and state its range."""

import errno
import tempfile

import pytest

from rpcheck import options
from rpcheck.cli import main
from rpcheck.engine import runner
from rpcheck.errors import RpcheckError


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "res"
    code = main(["check", "paul2014.lemma3.4", "--profile", "quick", "--trials", "3", "--backend", "serial",
                 "--quiet", "--out", str(out)])  # fmt: skip
    assert code == 0
    return out


def test_report_into_an_unwritable_directory_names_the_output_path(results, tmp_path, monkeypatch, capsys):
    target = tmp_path / "ro"
    target.mkdir()
    real = tempfile.mkstemp

    def refuse(*a, dir=None, **k):  # a read-only directory (the tests may run as root, who writes anywhere)
        if dir is not None and str(dir) == str(target):
            raise PermissionError(errno.EACCES, "Permission denied", f"{target}/.report.html.tmp-hidden")
        return real(*a, dir=dir, **k)

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    out = target / "report.html"
    code = main(["report", str(results), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "`-o/--output`" in err and str(out) in err and "tmp-hidden" not in err and "Permission denied" in err


def test_a_failed_report_write_names_the_output_path(results, tmp_path, monkeypatch, capsys):
    from rpcheck.engine import store

    def full(path, text, **k):
        raise OSError(errno.ENOSPC, "No space left on device", f"{path.parent}/.{path.name}.tmp-hidden")

    monkeypatch.setattr(store, "atomic_write_text", full)
    out = tmp_path / "report.html"
    code = main(["report", str(results), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert f"`-o/--output` ({str(out)!r})" in err and "tmp-hidden" not in err and "No space left" in err


def test_the_trials_limit_is_the_engines_one_constant(capsys):
    assert options.MAX_TRIALS is runner.MAX_TRIALS  # one constant, rpcheck.engine.plan.MAX_TRIALS
    with pytest.raises(SystemExit):
        main(["check", "paul2014.lemma3.4", "--trials", str(options.MAX_TRIALS + 1)])
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--trials" in err and f"[1, {options.MAX_TRIALS:,}]" in err
    assert "1.6 KB" not in err and "every trial's record is kept in memory" not in err


def test_the_jobs_limit_is_the_engines_one_constant(capsys):
    assert options.MAX_JOBS is runner.MAX_JOBS  # one constant, rpcheck.engine.plan.MAX_JOBS
    assert options.jobs_int(str(options.MAX_JOBS)) == options.MAX_JOBS
    with pytest.raises(SystemExit):
        main(["check", "paul2014.lemma3.4", "--jobs", str(options.MAX_JOBS + 1)])
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--jobs" in err and f"[1, {options.MAX_JOBS}]" in err, err
    with pytest.raises(RpcheckError, match=rf"`jobs` \({options.MAX_JOBS + 1}\) must be an integer in the range "
                       rf"\[1, {options.MAX_JOBS}\]"):
        runner.run("paul2014.lemma3.4", profile="quick", backend="serial", jobs=options.MAX_JOBS + 1)

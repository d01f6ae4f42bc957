"""The pieces of the Sec. 4.1.4 protocol shared by paul2014.repro.rcv1 and paul2014.repro.rcv1_multiclass."""

import math

import numpy as np
import pytest

from rpcheck.data_registry import resolve
from rpcheck.engine import registry
from rpcheck.papers.paul2014 import repro_rcv1 as rc
from rpcheck.papers.paul2014._common import RS_IN_D


def test_mean_outcomes_average_every_projected_fit_and_skip_failed_fits_only_where_asked():
    diags = {"err.full": 1.0, "err.CW.8": 2.0, "err.RG.8": math.nan, "t_svm.full": 9.0, "t_svm.CW.8": 0.5,
             "t_svm.RG.8": 1.5}
    out = rc.mean_outcomes(diags, {"error": ("err", True), "time": ("t_svm", False)})
    assert list(out) == ["error", "time"]
    assert out["error"].statistic == 2.0  # the failed RG fit (NaN) is skipped, the full data is not averaged
    assert out["time"].statistic == 1.0 and out["time"].holds
    assert math.isnan(rc.mean_outcomes(diags, {"strict": ("err", False)})["strict"].statistic)


def test_data_size_names_the_real_rows_or_the_stand_in():
    stand_in = resolve("rcv1-binary", "standin")
    assert not stand_in.real
    assert rc.data_size({"n": 200}, stand_in, "stand-in 200 x 2048") == "stand-in 200 x 2048"

    class Real:
        real = True

    assert rc.data_size({"n": 20242, "test_rows": 20000}, Real(), "x") == (
        "real, 20,242 training rows, 20,000 test rows from the test file")
    assert rc.data_size({"n": 300}, Real(), "x") == "real, 300 training rows"


def test_printed_verdicts_test_only_the_named_quantities():
    D = {"err.full": np.array([4.4, 4.6, 4.5]), "gamma.full": np.array([0.5, 0.6, 0.55])}
    row = {"paper_eps_out": 4.51, "paper_gamma": 0.0152}
    both = rc.printed_verdicts(D, "full", row)
    assert both == {"eps_out_agrees": True, "gamma_agrees": False}
    assert rc.printed_verdicts(D, "full", row, (("eps_out", "err"),)) == {"eps_out_agrees": True}


@pytest.mark.parametrize("theorem", ["paul2014.repro.rcv1", "paul2014.repro.rcv1_multiclass"])
def test_both_reproductions_declare_the_protocol_parameters_and_constraints(theorem):
    th = registry.get(theorem)
    assert list(th.parameters)[-4:] == ["rs", "methods", "data_source", "test_rows"]
    assert all(c in th.constraints for c in rc.PROTOCOL_CONSTRAINTS) and rc.WORDS_FIT in th.constraints
    assert RS_IN_D.check({"rs": "256,512", "d": 512}) and not RS_IN_D.check({"rs": "256,1024", "d": 512})
    assert not RS_IN_D.check({"rs": "0,256", "d": 512})
    assert rc.WORDS_FIT.check({"density": 0.01, "d": 2048}) and not rc.WORDS_FIT.check({"density": 0.01, "d": 1000})

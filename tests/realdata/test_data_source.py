"""The data_source values and their resolution (rpcheck.data_registry.resolve, rpcheck.engine.data)."""

import pytest

from rpcheck import data_registry as reg
from rpcheck.engine import registry
from rpcheck.engine.data import check_data, select_for_profile
from rpcheck.errors import RpcheckError


def test_parse_data_values():
    assert reg.parse_data("auto") == ("auto", (), {})
    assert reg.parse_data("standin") == ("standin", (), {})
    assert reg.parse_data("real:usps,gisette") == ("real", ("usps", "gisette"), {})
    assert reg.parse_data("usps=/a;gisette=/b") == ("auto", (), {"usps": "/a", "gisette": "/b"})
    for bad in ("", "real:", "real:nope", "nope=/a", "usps", 3):
        with pytest.raises(RpcheckError):
            reg.parse_data(bad)
        assert reg.data_problem(bad) is not None


def test_data_setting_checks_names_and_paths(tmp_path):
    f = tmp_path / "mushrooms"
    f.write_text("1 1:1\n")
    assert reg.data_setting({"mushrooms": str(f)}) == f"mushrooms={f.resolve()}"
    with pytest.raises(RpcheckError, match="nope"):
        reg.data_setting({"nope": str(f)})
    with pytest.raises(RpcheckError, match="no such file"):
        reg.data_setting({"mushrooms": str(tmp_path / "absent")})
    with pytest.raises(RpcheckError, match="mapping"):
        reg.data_setting("mushrooms=x")


def test_real_mode_without_the_set_is_one_error_naming_the_fetch():
    with pytest.raises(RpcheckError, match=r"rpcheck data fetch mushrooms"):
        reg.resolve("mushrooms", "real:mushrooms")
    assert not reg.resolve("mushrooms", "real:usps").real  # another set's requirement: the stand-in
    assert reg.missing(["real:mushrooms", "auto"], data={}) == ["mushrooms"]
    assert reg.missing(["real:mushrooms"], data={"mushrooms": "/x"}) == []


def test_explicit_file_label_has_its_hash(tmp_path):
    f = tmp_path / "m"
    f.write_text("1 1:1\n2 2:1\n")
    src = reg.resolve("mushrooms", reg.data_setting({"mushrooms": str(f)}))
    assert src.real and src.origin == "--data" and src.label == f"real data: {f.resolve()} sha256 {reg._sha256(f)}"
    assert src.path("train") == str(f.resolve())


def test_select_for_profile():
    ths = registry.all_theorems()
    sel, skipped = select_for_profile(ths, "paper", explicit=False)
    assert {t.id for t in sel} >= {"paul2014.regression_tables", "lei2020.comparison"} and skipped
    assert select_for_profile(ths, "ci", explicit=True) == (ths, [])
    with pytest.raises(RpcheckError, match="has no 'paper' profile"):
        select_for_profile([registry.get("paul2014.c5")], "paper", explicit=True)
    with pytest.raises(RpcheckError, match="rpcheck data fetch yalefaces"):
        check_data([registry.get("paul2014.regression_tables")], "paper")
    check_data([registry.get("paul2014.regression_tables")], "ci")  # auto: nothing required


def test_printed_mean_test_false_alarm_rate_and_power():
    """Under the null (draws centred on the printed number) DISAGREES comes with probability 0.01: 4,000
    replications of 10 normal draws give a Binomial(4000, 0.01) count, whose central 99.9% range is [21, 62]; a
    shift of two standard deviations of the draws is found with probability 0.9934 (noncentral t, 9 degrees of
    freedom, noncentrality 2 sqrt(10)), so at least 190 of 200 (P(fewer) < 1e-3)."""
    import numpy as np

    from rpcheck.stats import printed_mean_test

    rng = np.random.default_rng(20261202)
    false = sum(printed_mean_test(rng.normal(5.0, 1.0, 10), 5.0)[0] is False for _ in range(4000))
    assert 21 <= false <= 62
    found = sum(printed_mean_test(rng.normal(7.0, 1.0, 10), 5.0)[0] is False for _ in range(200))
    assert found >= 190
    assert printed_mean_test([1.0], 1.0) == (None, printed_mean_test([1.0], 1.0)[1])

"""Benchmarks (pytest-benchmark): everything under benchmarks/ is marked ``bench``. The directory is outside
the default run's ``testpaths`` (pyproject.toml) and its addopts deselect ``bench``, so a plain
``python -m pytest`` never times anything. Run with

    python -m pytest benchmarks -m bench --benchmark-only

Every run's JSON (machine, commit, every round) is kept: unless the command line says where
(``--benchmark-json``, ``--benchmark-save``, ``--benchmark-autosave`` or ``--benchmark-storage``), the run is
autosaved into ``benchmarks/results/pytest-benchmark/`` (:func:`pytest_configure`).

After the run a "ratios" table is printed: for each benchmark group, every entry's time relative to the
group's ``role="ours"`` entry, and the throughput (GB/s) of entries that declare ``bytes_moved``.
"""

import pathlib

import pytest

_HERE = pathlib.Path(__file__).parent
#: Where runs are autosaved when the command line names no destination.
STORAGE = _HERE / "results" / "pytest-benchmark"
_DEFAULT_STORAGE = "file://./.benchmarks"


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """Autosave into :data:`STORAGE` unless the command line chose a destination (before pytest-benchmark's
    own ``pytest_configure`` reads the options)."""
    opt = config.option
    if not hasattr(opt, "benchmark_autosave"):  # pytest-benchmark not installed
        return
    if opt.benchmark_json or opt.benchmark_save or opt.benchmark_autosave:
        return
    if str(opt.benchmark_storage) != _DEFAULT_STORAGE:
        return
    from pytest_benchmark.utils import get_tag  # the name --benchmark-autosave gives: commit, date, dirty flag

    opt.benchmark_autosave = get_tag()
    opt.benchmark_storage = f"file://{STORAGE}"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if _HERE in pathlib.Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.bench)


def _summary_rows(benchmarks):
    groups = {}
    for b in benchmarks:
        if b.stats is None or not getattr(b.stats, "data", None):
            continue
        groups.setdefault(b.group, []).append(b)
    rows = []
    for group, entries in groups.items():
        ours = [b for b in entries if b.extra_info.get("role") == "ours"]
        ref = ours[0] if ours else None
        for b in entries:
            st = b.stats
            row = {
                "group": group,
                "name": b.name,
                "role": b.extra_info.get("role", ""),
                "min_s": st.min,
                "median_s": st.median,
                "rounds": st.rounds,
            }
            if ref is not None:
                row["ratio_min"] = st.min / ref.stats.min
                row["ratio_median"] = st.median / ref.stats.median
            nbytes = b.extra_info.get("bytes_moved")
            if nbytes:
                row["gbps_min"] = nbytes / st.min / 1e9
            rows.append(row)
    return rows


def pytest_terminal_summary(terminalreporter, config):
    bs = getattr(config, "_benchmarksession", None)
    if bs is None or not bs.benchmarks:
        return
    rows = _summary_rows(bs.benchmarks)
    tr = terminalreporter
    tr.section("rpcheck benchmark ratios (time / time of role=ours in the same group)")
    tr.write_line(f"{'group':28s} {'name':48s} {'min s':>10s} {'median s':>10s} {'x ours(min)':>12s} "
                  f"{'x ours(med)':>12s} {'GB/s':>7s}")
    for r in rows:
        tr.write_line(
            f"{r['group']:28s} {r['name'][:48]:48s} {r['min_s']:10.4f} {r['median_s']:10.4f} "
            f"{r.get('ratio_min', float('nan')):12.2f} {r.get('ratio_median', float('nan')):12.2f} "
            f"{r.get('gbps_min', float('nan')):7.2f}"
        )

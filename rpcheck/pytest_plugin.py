"""pytest plugin (entry point ``pytest11``): registers the ``theorem`` marker.

Hooks and fixtures only; the logic lives in ``rpcheck.engine`` and ``rpcheck.report``."""


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "theorem(id=None): a statistical verification of a published theorem (rpcheck); "
        "select with -m theorem",
    )

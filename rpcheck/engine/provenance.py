"""Provenance of a run: package versions, solver, seed, profile, git commit, times (no hostname)."""

from __future__ import annotations

import datetime as _dt
import functools
import importlib.metadata
import os
import platform
import subprocess
import sys
from pathlib import Path

__all__ = ["collect_provenance", "package_versions", "git_commit", "utc_now"]

PACKAGES = ("rpcheck", "numpy", "scipy", "cvxpy", "clarabel", "osqp", "pandas", "pyarrow", "scikit-learn")
DEFAULT_SOLVER = "CLARABEL"


def utc_now():
    """Current UTC time as ISO 8601 with a ``Z`` suffix."""
    return _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@functools.lru_cache(maxsize=4)
def _versions(packages):
    out = {"python": platform.python_version()}
    for name in packages:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def package_versions(packages=PACKAGES):
    """``{name: version or None}`` from the installed distributions (None when not installed); cached."""
    return dict(_versions(tuple(packages)))


def git_commit(path=None, timeout=5.0, *, cached=True):
    """``(commit, dirty)`` of the checkout containing rpcheck; see :func:`_git_commit`. ``cached=True``
    reuses the first answer of this process (one ``git`` call per process for provenance)."""
    return _git_commit_cached(path, timeout) if cached else _git_commit(path, timeout)


@functools.lru_cache(maxsize=8)
def _git_commit_cached(path, timeout):
    return _git_commit(path, timeout)


def _git_commit(path=None, timeout=5.0):
    """``git rev-parse HEAD`` of the checkout containing rpcheck (None when unavailable), plus whether the
    working tree had uncommitted changes to tracked files (None, None when git is unavailable)."""
    cwd = Path(path) if path is not None else Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if head.returncode != 0:
            return None, None
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        return head.stdout.strip(), (bool(dirty.stdout.strip()) if dirty.returncode == 0 else None)
    except (OSError, subprocess.SubprocessError):
        return None, None


def collect_provenance(**run_info):
    """The provenance dict of a run: ``run_info`` (seed, profile, alpha, backend, jobs, ...) plus versions,
    solver, platform (OS and machine type, never the host name), CPU count and git commit."""
    commit, dirty = git_commit()
    prov = {
        "versions": package_versions(),
        "solver": DEFAULT_SOLVER,
        "platform": f"{platform.system()}-{platform.release()}-{platform.machine()}",
        "implementation": sys.implementation.name,
        "cpu_count": os.cpu_count(),
        "git_commit": commit,
        "git_dirty": dirty,
    }
    prov.update(run_info)
    return prov

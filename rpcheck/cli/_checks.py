"""Checks of the options that name output paths and a Dask scheduler, shared by several commands."""

from __future__ import annotations

import os
import re
import socket
import tempfile
from pathlib import Path

from ..errors import RpcheckError

__all__ = ["check_out_dir", "check_out_file", "check_scheduler"]


def _probe_writable(directory):
    fd, probe = tempfile.mkstemp(dir=directory, prefix=".rpcheck-write-test.")
    os.close(fd)
    os.unlink(probe)


def check_out_dir(path, flag="--out"):
    """``path`` is (or is created as) a writable directory; RpcheckError naming ``flag`` otherwise."""
    if not str(path).strip():
        raise RpcheckError(f"`{flag}` ({str(path)!r}) must be a directory path.")
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise RpcheckError(f"`{flag}` ({str(path)!r}) exists and is not a directory.")
    try:
        p.mkdir(parents=True, exist_ok=True)
        _probe_writable(p)
    except OSError as exc:
        raise RpcheckError(f"`{flag}` ({str(path)!r}) is not a writable directory: {exc.strerror or exc}.") from None
    return p


def check_out_file(path, flag):
    """``path`` names a file that can be written (its existing ancestor is a directory, its directory, when it
    exists, is writable); RpcheckError naming ``flag`` otherwise."""
    if not str(path).strip():
        raise RpcheckError(f"`{flag}` ({str(path)!r}) must be a file path.")
    p = Path(path)
    if p.is_dir():
        raise RpcheckError(f"`{flag}` ({str(path)!r}) is a directory; give a file path.")
    for parent in p.parents:
        if parent.exists():
            if not parent.is_dir():
                raise RpcheckError(f"`{flag}` ({str(path)!r}): {str(parent)!r} is not a directory.")
            if p.parent == parent:  # the file is written there (through a temporary file): probe it
                try:
                    _probe_writable(parent)
                except OSError as exc:
                    raise RpcheckError(
                        f"`{flag}` ({str(path)!r}) cannot be written: its directory {str(parent)!r} is not "
                        f"writable ({exc.strerror or type(exc).__name__})."
                    ) from None
            break
    return p


def check_scheduler(args):
    """``--scheduler`` (with ``--backend dask`` only) is a reachable Dask scheduler address."""
    if args.scheduler is None:
        return
    if args.backend != "dask":
        raise RpcheckError(f"`--scheduler` ({args.scheduler!r}) is only used with `--backend dask`.")
    m = re.fullmatch(r"(?:(tcp|tls)://)?(\[[0-9A-Fa-f:]+\]|[A-Za-z0-9.-]+):(\d{1,5})", args.scheduler.strip())
    if not m or not 0 < int(m.group(3)) < 65536:
        raise RpcheckError(
            f"`--scheduler` ({args.scheduler!r}) must be a Dask scheduler address like 'tcp://HOST:8786'."
        )
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise RpcheckError("`--backend dask` needs dask.distributed: pip install 'rpcheck[dask]'.") from None
    host, port = m.group(2).strip("[]"), int(m.group(3))
    try:
        socket.create_connection((host, port), timeout=5).close()
    except OSError as exc:
        raise RpcheckError(
            f"`--scheduler` ({args.scheduler!r}): cannot connect ({exc.strerror or type(exc).__name__}); "
            "is the scheduler running at that address?"
        ) from None

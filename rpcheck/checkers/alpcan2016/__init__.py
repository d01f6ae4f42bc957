"""Checkers for Alpcan, Rubinstein, Leckie 2016 (CDC): reuse of Paul et al. eq. (16). Modules register on import."""

from . import xar  # noqa: F401  (imported for registration)

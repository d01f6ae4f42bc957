"""Bounds and target-dimension formulas, one module per paper (``rpcheck.bounds.paul2014`` ...).

Each bound is a public, doctested function; checkers and tests call them and never hard-code a number."""

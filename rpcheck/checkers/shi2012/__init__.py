"""Checkers for shi2012. Each module registers its Theorem(s) on import; list them here."""

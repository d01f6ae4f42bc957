"""Checkers for paul2014. Each module registers its Theorem(s) on import; list them here."""

"""Checkers for zhang2013. Each module registers its Theorem(s) on import; list them here."""

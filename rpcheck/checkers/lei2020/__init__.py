"""Checkers for lei2020. Each module registers its Theorem(s) on import; list them here."""

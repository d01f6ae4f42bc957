"""HTML verification reports (presentation only)."""

from .html import render_report, render_theorem_section, write_report

__all__ = ["render_report", "render_theorem_section", "write_report"]

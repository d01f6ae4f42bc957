"""HTML verification reports (presentation only)."""

from .html import render_report, write_report

__all__ = ["render_report", "write_report"]

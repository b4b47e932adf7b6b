"""Maintenance scripts (README pictures)."""

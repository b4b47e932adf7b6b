"""Fixtures of the reliability campaign: the cog tests' bot driver, shared here."""

from __future__ import annotations

from tests.cogs.conftest import driver

__all__ = ["driver"]

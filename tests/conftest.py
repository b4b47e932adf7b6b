"""Test-wide setup: the toy game is registered here, from the tests alone."""

from __future__ import annotations

from bot.games import register
from tests.toy.bundle import BUNDLE as RELAY

register(RELAY)

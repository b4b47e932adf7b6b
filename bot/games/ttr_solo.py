"""Ticket to Ride Solo as a Junction game: the standard game's presenter with the Station Clock,
a daily deal and a best-result board."""

from __future__ import annotations

from bot.ai.ttr_expert import TtrExpertPolicy
from bot.ai.ttr_normal import NormalTtrPolicy
from bot.engine.ttr import SOLO_GAME
from bot.games.bundle import GameBundle, computer_players
from bot.games.ttr import arena_metrics, presenter

BUNDLE = GameBundle(
    game=SOLO_GAME,
    presenter=presenter(solo=True),
    policies=computer_players(NormalTtrPolicy, TtrExpertPolicy),
    default_policy="normal",
    arena_metrics=arena_metrics,
)
__all__ = ["BUNDLE"]

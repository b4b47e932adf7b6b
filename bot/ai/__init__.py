"""Computer players: one :class:`~bot.ai.base.Policy` interface for every Junction game.

A policy sees exactly what a seated human sees — the seat's private view — and answers with the
notation of one legal action. ``get_policy(game_key, name)`` finds one by name; ``random`` plays
any game, ``normal`` is the card-counting Mille Bornes opponent (``mille_normal``). The arena
(``bot.arena``) plays policies against each other to measure them.
"""

from __future__ import annotations

from bot.ai.base import Policy, get_policy, policy_names

__all__ = ["Policy", "get_policy", "policy_names"]

"""Computer players: one :class:`~bot.ai.base.Policy` interface for every Junction game.

A policy sees exactly what a seated human sees — the seat's private view — and answers with the
notation of one legal action. Each game's bundle (``bot.games``) names its policies; ``random``
(``random_policy``) plays every game. The arena (``bot.arena``) plays policies against each
other to measure them.
"""

from __future__ import annotations

from bot.ai.base import Policy

__all__ = ["Policy"]

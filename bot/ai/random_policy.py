"""``random``: a uniform choice among the legal actions. It plays every game, badly on purpose.

It is the floor every real policy must beat, and a cheap way to wander through many different
game states in tests.
"""

from __future__ import annotations

import random
from typing import Any

from bot.ai.base import Policy


class RandomPolicy(Policy):
    """Picks uniformly among ``view.legal``."""

    name = "random"

    def choose(self, view: Any, rng: random.Random) -> str:
        legal: tuple[str, ...] = tuple(view.legal)
        if not legal:
            raise ValueError("The random player was asked to act with no legal action.")
        return rng.choice(legal)

"""The computer-player interface (each game's bundle names its policies, see ``bot.games``).

A policy decides from one seat's private view alone (``game.private_view(state, seat)``): its
own hand plus everything public. It never receives the full state, so it cannot peek at the
opponent's hand or the order of the draw pile — the seam calls
``policy.choose(game.private_view(state, seat), rng)`` and nothing else.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any


class Policy(ABC):
    """A computer player: given what one seat may see, the notation of one legal action."""

    name: str = ""
    searches: bool = False
    """True for players that think for a while (a search): the bot sends them to its thinking
    worker process; the quick heuristics decide in a thread, never queued behind a search."""

    @abstractmethod
    def choose(self, view: Any, rng: random.Random) -> str:
        """One of ``view.legal``; ``rng`` is the only source of chance a policy may use."""

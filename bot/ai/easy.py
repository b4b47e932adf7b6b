"""``easy``: a weakened computer player for any game — a good player's move half the time.

Each decision, with chance ``share`` it plays what the stronger player (a game's ``normal``)
would, otherwise a uniformly random legal move. Both draws come from the ``rng`` it is given, so
it replays exactly. It decides from the private view alone, like the player it weakens.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

from bot.ai.base import Policy

DEFAULT_SHARE = 0.5


class WeakenedPolicy(Policy):
    """``base``'s move with chance ``share``, else a random legal move."""

    name = "easy"

    def __init__(self, base: Policy, share: float = DEFAULT_SHARE) -> None:
        if not 0.0 <= share <= 1.0:
            raise ValueError("share must be between 0 and 1")
        self.base = base
        self.share = share

    def choose(self, view: Any, rng: random.Random) -> str:
        legal: tuple[str, ...] = tuple(view.legal)
        if not legal:
            raise ValueError("The easy player was asked to act with no legal action.")
        if len(legal) == 1:
            return legal[0]
        if rng.random() < self.share:
            return self.base.choose(view, rng)
        return rng.choice(legal)


def _weakened(base: Callable[[], Policy], share: float) -> Policy:
    return WeakenedPolicy(base(), share)


def easy(base: Callable[[], Policy], share: float = DEFAULT_SHARE) -> Callable[[], Policy]:
    """A factory of ``easy`` players weakening the players ``base`` makes (for a bundle).

    A ``partial`` of module-level names, not a closure: the bot sends factories to the worker
    process where computer players think, so they must pickle.
    """
    return partial(_weakened, base, share)

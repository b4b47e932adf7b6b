"""The computer-player interface and the registry of policies by game and name.

A policy decides from one seat's private view alone (``game.private_view(state, seat)``): its
own hand plus everything public. It never receives the full state, so it cannot peek at the
opponent's hand or the order of the draw pile — the seam calls
``policy.choose(game.private_view(state, seat), rng)`` and nothing else.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from bot.engine.core import BadOption, get_game

ANY_GAME = "*"
"""Registry key for policies that play every game (they only need ``view.legal``)."""


class Policy(ABC):
    """A computer player: given what one seat may see, the notation of one legal action."""

    name: str = ""

    @abstractmethod
    def choose(self, view: Any, rng: random.Random) -> str:
        """One of ``view.legal``; ``rng`` is the only source of chance a policy may use."""


PolicyFactory = Callable[[], Policy]

_POLICIES: dict[str, dict[str, PolicyFactory]] = {}


def register_policy(name: str, factory: PolicyFactory, game_key: str = ANY_GAME) -> None:
    """Make a policy available as ``name`` for one game (or every game with ``ANY_GAME``)."""
    games = _POLICIES.setdefault(game_key, {})
    if name in games and games[name] is not factory:
        raise RuntimeError(f"two policies registered as {name!r} for {game_key!r}")
    games[name] = factory


def _factories(game_key: str) -> dict[str, PolicyFactory]:
    _load_builtin_policies()
    found = dict(_POLICIES.get(ANY_GAME, {}))
    found.update(_POLICIES.get(game_key, {}))
    return found


def policy_names(game_key: str) -> list[str]:
    """The computer players available for a game, by name."""
    key = get_game(game_key).info.key  # an unknown game is a readable BadOption
    return sorted(_factories(key))


def get_policy(game_key: str, name: str) -> Policy:
    """A fresh policy called ``name`` for the game; an unknown name is a readable BadOption."""
    game = get_game(game_key)
    factories = _factories(game.info.key)
    wanted = name.strip().lower()
    factory = factories.get(wanted)
    if factory is None:
        known = ", ".join(sorted(factories))
        raise BadOption(
            f"There is no computer player called '{name}' for {game.info.title}. "
            f"Choose one of: {known}."
        )
    return factory()


def _load_builtin_policies() -> None:
    # Importing a policy module registers it; done lazily so base has no import cycle.
    from bot.ai import mille_normal, random_policy, solo_policies  # noqa: F401

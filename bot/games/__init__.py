"""Junction's games as plug-ins: one bundle per game (engine, presenter, computer players).

Adding a game means adding its own packages (``bot/engine/<game>/``, ``bot/ai/<game>_*.py``,
``bot/render/<game>.py``, ``bot/games/<game>.py``) and one line below; nothing else in the bot
names a game (``DEFAULT_GAME`` below aside: what the console plays when none is named; and the
made-up results ``bot/bench_boards.py`` times, which a new game need not join). See
``docs/architecture.md`` ("Adding a game").
"""

from __future__ import annotations

from bot.games.bundle import GameBundle, MoveChoice, Presenter
from bot.games.registry import (
    all_bundles,
    bundle,
    get_game,
    get_policy,
    hint_policy,
    policy_factory,
    policy_names,
    register,
    suggest_move,
    title_of,
    unregister,
)

BUILTIN: tuple[str, ...] = (
    "bot.games.mille",
    "bot.games.solo",
    "bot.games.race",
    "bot.games.dragon",
    "bot.games.ttr",
    "bot.games.ttr_solo",
)
"""The registration lines: one module per built-in game, each exposing ``BUNDLE``."""

DEFAULT_GAME = "mille"
"""What the console plays when no game is named (``junction run`` without a token)."""

__all__ = [
    "BUILTIN",
    "DEFAULT_GAME",
    "GameBundle",
    "MoveChoice",
    "Presenter",
    "all_bundles",
    "bundle",
    "get_game",
    "get_policy",
    "hint_policy",
    "policy_factory",
    "policy_names",
    "register",
    "suggest_move",
    "title_of",
    "unregister",
]

"""The registry of game bundles: look a game up by key, list them, find its computer players.

Built-in games are registered lazily from ``bot.games.BUILTIN`` (one line per game), so
importing this module costs nothing and has no import cycle. Tests register games of their own
with :func:`register` (and take them away with :func:`unregister`).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any

from bot.ai.base import Policy
from bot.ai.random_policy import RandomPolicy
from bot.engine.core import BadOption, Game
from bot.games.bundle import GameBundle, PolicyFactory
from bot.typed_moves import typed_move

KEY_PATTERN = re.compile(r"[a-z][a-z0-9-]{0,23}")
"""Game keys: lower-case letters, digits and hyphens (``race``, ``tic-tac``), up to 24 long."""

_BUNDLES: dict[str, GameBundle] = {}
_loaded = False


def register(bundle: GameBundle) -> GameBundle:
    """Make a game available by its key; a second, different bundle for a key is a bug."""
    key = bundle.key
    if not KEY_PATTERN.fullmatch(key):
        raise ValueError(f"game key {key!r} must match {KEY_PATTERN.pattern}")
    if key in _BUNDLES and _BUNDLES[key] is not bundle:
        raise RuntimeError(f"two games registered as {key!r}")
    if bundle.default_policy not in policy_factories(bundle):
        raise ValueError(f"{key}: default policy {bundle.default_policy!r} is not one of its own")
    _BUNDLES[key] = bundle
    return bundle


def unregister(key: str) -> None:
    """Forget a game (tests that registered one of their own)."""
    _BUNDLES.pop(key, None)


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from bot.games import BUILTIN

    for module in BUILTIN:
        register(importlib.import_module(module).BUNDLE)


def bundle(key: str) -> GameBundle:
    """The bundle of the game called ``key``; an unknown key is a player-readable BadOption.

    A name typed in a command's game field is read as a typed move is (``typed_move``:
    "ｍｉｌｌｅ" from a full-width keyboard, a zero-width space pasted in); a stored key,
    plain lower-case letters, reads the same either way."""
    _load_builtin()
    wanted = typed_move(str(key)).lower()
    found = _BUNDLES.get(wanted) or _titled(wanted)
    if found is None:
        known = ", ".join(sorted(_BUNDLES))
        shown = wanted[:40]
        raise BadOption(f"There is no game called '{shown}'. Games: {known}.")
    return found


def _titled(wanted: str) -> GameBundle | None:
    """The game a member named by its title, or as the game field's suggestions write it
    ("Mille Bornes (mille)"): typed out and sent without picking a suggestion, Discord sends
    those words rather than the key."""
    said = " ".join(wanted.split())
    for found in _BUNDLES.values():
        title = found.info.title.lower()
        if said in (title, f"{title} ({found.key})"):
            return found
    return None


def title_of(key: str) -> str:
    """The title of the game called ``key``, for saved games and lobbies that name it; a
    plug-in game no longer installed is named by its key (its records outlive it)."""
    try:
        return bundle(key).info.title
    except BadOption:
        return key


def all_bundles() -> list[GameBundle]:
    """Every registered game, by key."""
    _load_builtin()
    return [_BUNDLES[key] for key in sorted(_BUNDLES)]


def get_game(key: str) -> Game[Any, Any]:
    """The rules of the game called ``key``."""
    return bundle(key).game


def policy_factories(found: GameBundle) -> dict[str, PolicyFactory]:
    """A bundle's computer players by name, ``random`` included."""
    return {"random": RandomPolicy, **found.policies}


def policy_names(key: str) -> list[str]:
    """The computer players available for a game, by name."""
    return sorted(policy_factories(bundle(key)))


def get_policy(key: str, name: str | None = None) -> Policy:
    """A fresh computer player for the game (its default when ``name`` is None)."""
    policy: Policy = policy_factory(key, name)()
    return policy


def policy_factory(key: str, name: str | None = None) -> PolicyFactory:
    """The factory of a game's computer player (its default when ``name`` is None)."""
    found = bundle(key)
    factories = policy_factories(found)
    wanted = (name or found.default_policy).strip().lower()
    factory = factories.get(wanted)
    if factory is None:
        known = ", ".join(sorted(factories))
        raise BadOption(
            f"There is no computer player called '{wanted[:40]}' for {found.info.title}. "
            f"Choose one of: {known}."
        )
    return factory


def choose_move(factory: PolicyFactory, view: Any, seed: str) -> str:
    """One computer decision from a seat's private view, seeded for replays.

    Module-level, with picklable arguments only (a policy class travels by reference), so the
    bot can run it in a worker process — a search that thinks for a few hundred milliseconds
    must not hold the event loop's GIL — and the worker needs no registry of its own.
    """
    import random

    return factory().choose(view, random.Random(seed))


def hint_policy(key: str) -> str:
    """The computer player whose choice a hint shows: the game's expert, else its default."""
    found = bundle(key)
    return "expert" if "expert" in policy_factories(found) else found.default_policy


def suggest_move(
    hint: Callable[[Any], tuple[str, str] | None] | None,
    factory: PolicyFactory,
    name: str,
    view: Any,
) -> tuple[str, str]:
    """A hint for a seat's private view: the game's own hint, else its ``name`` player's move.

    Module-level with picklable arguments (the hint function and the policy class travel by
    reference), so ``/hint`` runs in the same worker process as the computer players: an
    expert's search must not hold the event loop's GIL while other channels wait.
    """
    import random

    if hint is not None:
        hinted = hint(view)
        if hinted is not None:
            return hinted
    move = factory().choose(view, random.Random(0))
    return move, f"it is what the {name} computer player would do here."

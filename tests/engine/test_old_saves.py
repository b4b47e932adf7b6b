"""Games saved by older versions of Junction still resume after an upgrade.

Each file in ``tests/engine/old_saves/`` is a game as an earlier commit wrote it (named in its
``written_by``), stopped at a moment worth keeping: a reaction window, Ticket to Ride's opening
tickets, Mille Bornes' extension question, the 1000 Mile Race's end-of-turn discard, a Dragon
side choice. ``save`` is the state as the ``games`` table held it; where the move log is short,
``initial`` (the stored deal) and ``moves`` (the log's seats and notation) come with it.

Today's code must load every save, show it and play it to the end, and replay every log from
the deal with today's notation. A change that breaks any of these breaks games in play for
operators who upgrade: read the old field or spelling instead (a default, an alias) rather
than editing the fixture. ``old_saves/README.md`` says how to add one.
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine.core import Game
from bot.games import BUILTIN, get_game
from bot.move_log import LEAVE

FIXTURES = sorted((Path(__file__).parent / "old_saves").glob("*.json"))
LOGGED = [path for path in FIXTURES if "moves" in json.loads(path.read_text())]


def _load(path: Path) -> tuple[dict[str, Any], Game[Any, Any]]:
    fixture = json.loads(path.read_text())
    return fixture, get_game(fixture["game"])


def _menus(game: Game[Any, Any], state: Any) -> Iterator[tuple[int, list[str]]]:
    """Each seat to act with its legal moves, in notation, in the order menus show them."""
    for seat in sorted(game.to_act(state)):
        yield seat, [game.format_action(a) for a in game.legal_actions(state, seat)]


def test_every_game_has_an_old_save() -> None:
    """The guard covers every built-in game."""
    kept = {json.loads(path.read_text())["game"] for path in FIXTURES}
    builtin = {importlib.import_module(module).BUNDLE.info.key for module in BUILTIN}
    assert builtin <= kept


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_old_save_loads_with_its_views_and_moves(path: Path) -> None:
    """The save loads mid-game, every seat's view is drawn and each seat to act has moves."""
    fixture, game = _load(path)
    state = game.from_dict(fixture["save"])
    assert game.outcome(state) is None
    game.public_view(state)
    for seat in range(len(state.players)):
        game.private_view(state, seat)
    menus = dict(_menus(game, state))
    assert menus and all(menus.values())


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_old_save_plays_to_the_end(path: Path) -> None:
    """From the save, random legal moves (each through its notation) finish the game."""
    fixture, game = _load(path)
    state = game.from_dict(fixture["save"])
    rng = random.Random(path.stem)
    for _ in range(game.info.max_moves):
        if game.outcome(state) is not None:
            break
        seat = rng.choice(sorted(game.to_act(state)))
        action = rng.choice(list(game.legal_actions(state, seat)))
        state = game.apply(state, seat, game.parse_action(game.format_action(action)))
    assert game.outcome(state) is not None
    assert game.to_dict(game.from_dict(game.to_dict(state))) == game.to_dict(state)


@pytest.mark.parametrize("path", LOGGED, ids=[p.stem for p in LOGGED])
def test_old_move_log_replays_to_the_saved_decision(path: Path) -> None:
    """The log, read with today's notation from the stored deal as replays and earlier
    buttons read it, reaches the position saved: the same seats to act, the same moves."""
    fixture, game = _load(path)
    state = game.from_dict(fixture["initial"])
    for seat, text in fixture["moves"]:
        if text == LEAVE:
            state = game.leave(state, seat)
        else:
            state = game.apply(state, seat, game.parse_action(text))
    assert list(_menus(game, state)) == list(_menus(game, game.from_dict(fixture["save"])))

"""Seat names in sentences: no game writes "'s" after a player's name.

Computers are seated as "Computer (normal)" and "Computer 2 (expert)", and a member's name can
end in anything, so "Computer (normal)'s 100 miles" is what a possessive gave (found by a
newcomer's review). Sentences name the player another way: "the 100 miles Ann played", "the
front of Bob", "It is not your turn: Ann is playing." These playouts, with computers' names at
every seat, collect what players read — captions, move labels, hands and tables in words,
refusals of a move out of turn, results, and every text drawn in the images — and look for a
name followed by "'s".
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.engine.core import GameError
from bot.games import all_bundles, bundle
from bot.render import common

NAMES = [
    "Computer (normal)",
    "Computer 2 (expert)",
    "Computer 3 (easy)",
    "Computer 4 (normal)",
    "Computer 5 (expert)",
    "Computer 6 (easy)",
]
TABLES = [
    (b.key, n) for b in all_bundles() for n in range(b.info.min_players, b.info.max_players + 1)
]
MOVES = 400  # per playout: enough for reactions, damage, robberies and empty libraries
DRAW_EVERY = 40  # images are slow: one frame in this many is drawn


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the renderers draw (they all go through ``Canvas.text``)."""
    seen: list[str] = []
    original = common.Canvas.text

    def text(self: common.Canvas, xy: Any, text: str, *a: Any, **k: Any) -> None:
        seen.append(text)
        original(self, xy, text, *a, **k)

    monkeypatch.setattr(common.Canvas, "text", text)
    yield seen


def _said(key: str, seats: int, seed: int, drawn: list[str]) -> list[str]:
    """What players read over one seeded random playout with computers' names."""
    found = bundle(key)
    game, shown = found.game, found.presenter
    rng = random.Random(seed)
    state = game.new_game(NAMES[:seats], seed)
    said: list[str] = []
    for step in range(MOVES):
        if game.outcome(state) is not None:
            break
        public = game.public_view(state)
        said += [game.caption(state), shown.console_table(public)]
        acting = sorted(game.to_act(state))
        for seat in acting:
            legal = game.legal_actions(state, seat)
            said += [game.describe_action(state, seat, a) for a in legal[:40]]
            said.append(shown.console_hand(game.private_view(state, seat)))
            # The same move, tried by a seat that is not to act: its refusal names who is.
            for other in range(seats):
                if other not in acting:
                    try:
                        game.apply(state, other, legal[0])
                    except GameError as refused:
                        said.append(str(refused))
        if step % DRAW_EVERY == 0:
            shown.table_png(public)
            if found.info.private_hands:
                shown.hand_png(game.private_view(state, acting[0]))
        seat = rng.choice(acting)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    outcome = game.outcome(state)
    said += [game.caption(state), shown.console_table(game.public_view(state))]
    if outcome is not None:
        said.append(outcome.reason)
    return [*said, *drawn]


@pytest.mark.parametrize(("key", "seats"), TABLES, ids=[f"{k}-{n}" for k, n in TABLES])
def test_no_sentence_puts_an_apostrophe_s_after_a_seat_name(
    key: str, seats: int, drawn: list[str]
) -> None:
    texts = [text for seed in range(3) for text in _said(key, seats, seed, drawn)]
    found = sorted({t for t in texts for name in NAMES[:seats] if f"{name}'s" in t})
    assert found == [], "\n".join(found[:5])

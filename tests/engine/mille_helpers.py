"""Stacked-deck helpers for Mille Bornes tests."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.mille.cards import Card
from bot.engine.mille.game import MilleBornes
from bot.engine.mille.state import MilleState
from bot.games import get_game

GAME = get_game("mille")
assert isinstance(GAME, MilleBornes)
G: MilleBornes = GAME


def start(
    hand0: Sequence[str],
    hand1: Sequence[str],
    draws: Sequence[str] = (),
    **options: str,
) -> MilleState:
    """A game where seat 0 holds ``hand0``, seat 1 ``hand1``; ``draws`` are drawn in order."""
    assert len(hand0) == 6 and len(hand1) == 6
    return G.new_game(["Ann", "Bob"], seed=1, options=options, deck=[*hand0, *hand1, *draws])


def act(state: MilleState, seat: int, *moves: str) -> MilleState:
    """Apply several moves in notation for one seat."""
    for move in moves:
        state = G.apply(state, seat, G.parse_action(move))
    return state


def codes(cards: Sequence[Card]) -> list[str]:
    return sorted(card.value for card in cards)

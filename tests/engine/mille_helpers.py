"""Stacked-deck helpers for Mille Bornes tests."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.mille.cards import Card
from bot.engine.mille.game import MilleBornes
from bot.engine.mille.state import MilleState
from bot.games import get_game

# The bsd deck card by card, as docs/rules/mille.md lists it; the modern deck has one more of
# every hazard. Written from the rules page, not read from the engine, so a test can catch it.
BSD_DECK = {
    "25": 10,
    "50": 10,
    "75": 10,
    "100": 12,
    "200": 4,
    "out-of-gas": 2,
    "flat-tire": 2,
    "accident": 2,
    "stop": 4,
    "speed-limit": 3,
    "gasoline": 6,
    "spare-tire": 6,
    "repairs": 6,
    "go": 14,
    "end-of-limit": 6,
    "extra-tank": 1,
    "puncture-proof": 1,
    "driving-ace": 1,
    "right-of-way": 1,
}
HAZARDS = frozenset({"out-of-gas", "flat-tire", "accident", "stop", "speed-limit"})


def deck_counts(deck: str) -> dict[str, int]:
    """The cards of the ``deck`` option ("bsd" or "modern"), code by code."""
    extra = 1 if deck == "modern" else 0
    return {code: n + (extra if code in HAZARDS else 0) for code, n in BSD_DECK.items()}


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

"""The deal: both players reveal for the first player, reshuffle and draw seven."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine.race.cards import (
    MILES,
    MILES_OF,
    NAME,
    OPENING_HAND,
    TYPE_OF,
    sort_cards,
)
from bot.engine.race.state import RaceState, Side
from bot.engine.race.turns import begin_turn


def reveal_first_player(libraries: Sequence[Sequence[str]]) -> tuple[int, list[list[str]]]:
    """Both players reveal from the top until each shows a miles card; higher miles starts.

    A tie repeats, each continuing from where they stopped. Returns the first seat and what
    each seat revealed. If both libraries run out of miles still tied (only possible with
    identically stacked decks), Red (seat 0) starts.
    """
    pos = [0, 0]
    shown: list[list[str]] = [[], []]
    while True:
        found: list[int] = []
        for seat in (0, 1):
            lib = libraries[seat]
            value = -1
            while pos[seat] < len(lib):
                card = lib[pos[seat]]
                pos[seat] += 1
                shown[seat].append(card)
                if TYPE_OF[card] == MILES:
                    value = MILES_OF[card]
                    break
            found.append(value)
        if found[0] != found[1]:
            return (0 if found[0] > found[1] else 1), shown
        if found[0] < 0:
            return 0, shown


def deal(state: RaceState, libraries: Sequence[Sequence[str]], shuffle: bool) -> None:
    """Set up a new game in place: reveal for the first player, reshuffle, deal seven each.

    ``libraries`` are the two decks top first. With ``shuffle`` false (a stacked deck) the
    reshuffle after the reveal keeps the given order, so tests control every draw.
    """
    first, shown = reveal_first_player(libraries)
    state.first_player = first
    state.reveal = (tuple(shown[0]), tuple(shown[1]))
    sides = []
    for seat, deck in enumerate(libraries):
        cards = list(deck)
        if shuffle:
            random.Random(f"race:{state.seed}:deal:{seat}").shuffle(cards)
        hand = sort_cards(cards[:OPENING_HAND])
        sides.append(Side(library=cards[OPENING_HAND:][::-1], hand=hand))
    state.sides = sides
    names = state.players
    revealed = "; ".join(
        f"{names[s]} revealed {', '.join(NAME[c] for c in shown[s])}" for s in (0, 1)
    )
    intro = f"{revealed}. {_why_first(shown, first)}{names[first]} goes first."
    begin_turn(state, first)
    state.caption = f"{intro} {state.caption}".strip()


def _why_first(shown: Sequence[Sequence[str]], first: int) -> str:
    """Why the reveal chose ``first``, for a newcomer who sees two lists of cards: "100 miles
    beats 50 miles: ", after any ties ("A tie at 50 miles, then …")."""
    miles = [[MILES_OF[c] for c in cards if TYPE_OF[c] == MILES] for cards in shown]
    pairs = list(zip(miles[0], miles[1], strict=False))
    ties = [a for a, b in pairs if a == b]
    before = "".join(f"a tie at {m} miles, then " for m in ties)
    if len(miles[0]) == len(miles[1]) and len(ties) == len(pairs):
        # Identically stacked decks: no miles card ever differed.
        return "No miles card differed, so Red starts: "
    if len(miles[first]) > len(miles[1 - first]):
        # The other library ran out of miles cards (a stacked deck).
        why = f"{before}only one player revealed a miles card: "
    else:
        why = f"{before}{miles[first][-1]} miles beats {miles[1 - first][-1]} miles: "
    return why[0].upper() + why[1:]

"""Stacked-deck helpers for 1000 Mile Race tests.

A game is dealt from two stacked libraries, top first: the first seven cards are the opening
hand and the next ones the draws. The reveal for the first player reads the same libraries, so
the first miles card of each hand decides who starts.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.engine.core import GameError
from bot.engine.race import GAME
from bot.engine.race.cards import sort_cards
from bot.engine.race.game import MileRace
from bot.engine.race.state import Phase, RaceState

G: MileRace = GAME

FILLER = ("flat-tire", "out-of-gas", "accident", "red-light", "speed-trap", "repairs", "gasoline")
"""Seven cards with no miles: a hand that loses every reveal and holds no reaction."""


def start(
    red_hand: Sequence[str],
    blue_hand: Sequence[str],
    red_draws: Sequence[str] = (),
    blue_draws: Sequence[str] = (),
) -> RaceState:
    """A game where Red holds ``red_hand`` and Blue ``blue_hand`` (seven cards each, or fewer
    padded from ``FILLER``), with the next draws given; the reveal picks the first player."""
    red = _seven(red_hand)
    blue = _seven(blue_hand)
    return G.new_game(["Ann", "Bob"], seed=1, deck=[*red, *red_draws, "/", *blue, *blue_draws])


def _seven(hand: Sequence[str]) -> list[str]:
    cards = list(hand)
    assert len(cards) <= 7
    spare = [c for c in FILLER if c not in cards]
    return cards + spare[: 7 - len(cards)]


def act(state: RaceState, seat: int, *moves: str) -> RaceState:
    """Apply several moves in notation for one seat."""
    for move in moves:
        state = G.apply(state, seat, G.parse_action(move))
    return state


def snapshot(state: RaceState) -> str:
    return json.dumps(G.to_dict(state), sort_keys=True)


def refused(state: RaceState, seat: int, move: str) -> str:
    """The refusal ``move`` meets; asserts it leaves the state exactly as it was."""
    before = snapshot(state)
    try:
        G.apply(state, seat, G.parse_action(move))
    except GameError as error:
        assert snapshot(state) == before
        return str(error)
    raise AssertionError(f"{move!r} was accepted")


def lay_miles(state: RaceState, seat: int, cards: Sequence[str]) -> None:
    """Put miles cards from ``seat``'s library into play (in place, keeping every card)."""
    side = state.sides[seat]
    for card in cards:
        side.library.remove(card)
        side.miles.append(card)
        side.total += int(card)


def empty_library(state: RaceState, seat: int, reshuffled: bool = False) -> None:
    """Move ``seat``'s whole library onto the junkyard (in place), the reshuffle used or not."""
    side = state.sides[seat]
    side.junkyard.extend(side.library)
    side.library = []
    side.reshuffled = reshuffled


def hazard_on(state: RaceState, seat: int, *hazards: str) -> None:
    """Move hazards from the opponent's library onto ``seat`` (as if played earlier)."""
    for hazard in hazards:
        state.sides[1 - seat].library.remove(hazard)
        state.sides[seat].hazards.append(hazard)


def trump_for(state: RaceState, seat: int, trump: str) -> None:
    """Put ``seat``'s own trump from their library into play."""
    state.sides[seat].library.remove(trump)
    state.sides[seat].trumps.append(trump)


def to_hand(state: RaceState, seat: int, count: int) -> None:
    """Move the top ``count`` library cards of ``seat`` into their hand (kept sorted)."""
    side = state.sides[seat]
    side.hand = sort_cards([*side.hand, *side.library[-count:]])
    del side.library[-count:]


def legal(state: RaceState, seat: int) -> list[str]:
    return [G.format_action(a) for a in G.legal_actions(state, seat)]


def view_of(state: RaceState) -> Any:
    return G.public_view(state)


# The opening most rules tests deal: Red (seat 0) starts, both hands known, Red's draws known.
RED = ["100", "50", "25", "flat-tire", "spare-tire", "extra-tank", "pit-crew"]
BLUE = ["25", "75", "gasoline", "repairs", "accident", "out-of-gas", "green-light"]
BLUE_CHEATS = ["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"]
RED_DRAWS = ["75", "50", "200", "green-light", "repairs"]


def red_first(red: list[str] = RED, blue: list[str] = BLUE) -> RaceState:
    """A race dealt with these hands in which Red plays first."""
    state = start(red, blue, RED_DRAWS)
    assert state.turn == 0 and state.phase is Phase.PLAY
    return state

"""1000 Mile Race: rules a rule-by-rule audit found without a stacked-deck test of their own
(docs/rules/race.md), one behaviour per test.

Unless a test says otherwise Red (Ann, seat 0) reveals 100 against Blue's (Bob, seat 1) 25, so
Red starts and has drawn her first card, the first of ``RED_DRAWS``.
"""

from __future__ import annotations

import pytest

from bot.engine.race.cards import OPENING_HAND, full_deck, sort_cards
from bot.engine.race.dealing import deal
from bot.engine.race.state import Phase, RaceState
from tests.engine.race_helpers import (
    BLUE_CHEATS,
    G,
    act,
    empty_library,
    hazard_on,
    legal,
    red_first,
    refused,
    to_hand,
    trump_for,
)


def test_after_the_reveal_both_decks_are_shuffled_again() -> None:
    """Setting up: the reveal reads the libraries as they lie, then every card goes back and
    each deck is shuffled again before the seven-card hands are drawn, so the hands and the
    libraries are not the revealed decks' own order."""
    red = full_deck()
    red.remove("100")
    red.insert(0, "100")  # Red reveals 100 at once
    blue = full_deck()  # Blue reveals a 25 at once
    state = RaceState(players=("Ann", "Bob"), seed=3, sides=[], first_player=0, reveal=((), ()))
    deal(state, [red, blue], shuffle=True)
    assert state.reveal == (("100",), ("25",)) and state.turn == 0
    drawn = (OPENING_HAND + 1, OPENING_HAND)  # Red, first, has drawn her turn's card
    for seat, deck in enumerate((red, blue)):
        side = state.sides[seat]
        assert sorted([*side.hand, *side.library]) == sorted(deck)  # every card went back
        assert len(side.hand) == drawn[seat]
        assert side.hand != sort_cards(deck[: drawn[seat]])
        assert side.library[::-1] != deck[drawn[seat] :]


def test_a_speed_trap_beside_a_stopping_hazard_allows_no_miles() -> None:
    """Hazards stack: a Speed Trap lets 25s and 50s through, but a Flat Tire beside it still
    stops every miles card."""
    state = red_first()
    hazard_on(state, 0, "speed-trap", "flat-tire")
    assert "Flat Tire targets you" in refused(state, 0, "play 25")
    assert not [text for text in legal(state, 0) if text in ("play 25", "play 50")]


@pytest.mark.parametrize("card", ["extra-tank", "pit-crew"])
def test_a_jammed_trump_or_pit_crew_uses_up_no_play(card: str) -> None:
    """Trumps and cheats never count as the turn's play, even when a Jammer cancels them: the
    miles, hazard and removal plays and the cycle all stay open."""
    state = act(red_first(blue=BLUE_CHEATS), 0, f"play {card}")
    state = act(state, 1, "react jammer")
    assert state.sides[0].junkyard == [card]
    assert {"play 100", "play flat-tire", "cycle 25"} <= set(legal(state, 0))
    state = act(state, 0, "cycle 25")
    assert state.cycled


def test_two_legendary_pairs_in_one_turn_are_all_junked() -> None:
    """The legendary rule takes every pair: Red playing Extra Tank and Driving Ace against
    Blue's two sends all four cards to their owners' junkyards at the end of the turn."""
    state = red_first(["100", "extra-tank", "driving-ace"])
    trump_for(state, 1, "extra-tank")
    trump_for(state, 1, "driving-ace")
    state = act(state, 0, "play extra-tank", "play driving-ace", "end")
    assert state.sides[0].trumps == [] and state.sides[1].trumps == []
    for side in state.sides:
        assert {"extra-tank", "driving-ace"} <= set(side.junkyard)


def test_a_turn_that_ends_by_itself_still_cuts_the_hand_to_ten() -> None:
    """The hand limit applies however the turn ends: a cycle that leaves nothing else to do
    ends the turn by itself, and a hand of 12 is still cut back to 10."""
    red = ["100", "50", "25", "flat-tire", "spare-tire", "gasoline", "repairs"]
    state = red_first(red)
    to_hand(state, 0, 4)
    assert len(state.sides[0].hand) == 12
    state = act(state, 0, "cycle 25")
    assert state.phase is Phase.DISCARD and state.turn == 0
    assert state.caption.endswith("Ann must discard 2 cards down to 10.")


def test_a_turn_that_passes_by_itself_counts_as_quiet() -> None:
    """With both draws skipped, a turn that passes by itself (an empty hand) is one of the two
    quiet turns that end the game: Red ends without playing, Bob can do nothing, and the game
    is decided on miles (level here, so a draw)."""
    state = red_first()
    for seat in (0, 1):
        empty_library(state, seat, reshuffled=True)
    blue = state.sides[1]
    blue.junkyard.extend(blue.hand)
    blue.hand = []
    state = act(state, 0, "end")
    outcome = G.outcome(state)
    assert outcome is not None and outcome.is_draw
    assert "two turns in a row" in outcome.reason

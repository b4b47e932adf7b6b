"""Ticket to Ride: The Card Game: rules a rule-by-rule fidelity audit found without a test that
checks their effect, one behaviour per test, on stacked decks and laid-out tables.

Standard games are laid out card by card (``ttr_helpers.lay``); solo games are dealt from a
stacked deck (``test_ttr_solo.solo``).
"""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalMove
from bot.engine.ttr.cards import CITY_BONUS, DALLAS, TICKETS
from bot.engine.ttr.scoring import score_solo
from bot.engine.ttr.state import ACT, OVER, PICK2
from tests.engine.test_ttr_solo import PURPLE_CLOCK, solo
from tests.engine.test_ttr_sources import codes, snapshot
from tests.engine.ttr_helpers import SOLO, G, card, counts, hand_of, lay, play, slot_codes, yard_of

# --- drawing train cards --------------------------------------------------------------------------


def test_a_face_up_locomotive_cannot_follow_a_blind_first_card() -> None:
    """A face-up Locomotive is a whole draw: after a blind first card it is refused as the
    second, is not offered, and nothing changes."""
    s = lay(hands=[[], []], slots=["loco", "red", "blue", "green", "white"], deck=["red"] * 4)
    s = play(s, 0, "take blind")
    assert s.phase == PICK2
    before = snapshot(s)
    assert "take 1" not in {G.format_action(a) for a in G.legal_actions(s, 0)}
    with pytest.raises(IllegalMove, match="counts as both of your draws"):
        play(s, 0, "take 1")
    assert snapshot(s) == before


def test_a_blind_locomotive_can_be_the_second_card() -> None:
    """A Locomotive drawn blind counts as one card, so it may be the second of two."""
    s = lay(hands=[[], []], deck=["loco", "white"])
    s = play(s, 0, "take 1", "take blind")
    assert hand_of(s, 0) == {"red": 1, "loco": 1}
    assert s.turn == 1 and s.phase == ACT


# --- the Railyard ---------------------------------------------------------------------------------


def test_a_single_cannot_join_a_colour_already_in_your_own_railyard() -> None:
    """Three singles are three sets: one of a colour you already have adds to it, which is
    refused; no trio with that colour is offered, and nothing changes."""
    s = lay(hands=[["red", "green", "blue", "white"], []], yards=[{"red": (2, 0)}], deck=["red"])
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="already have a Red set"):
        play(s, 0, "yard red green blue")
    assert snapshot(s) == before
    trios = [a.singles for a in G.legal_actions(s, 0) if a.singles]
    assert trios == [(card("green"), card("blue"), card("white"))]


def test_a_colour_whose_set_has_all_gone_on_the_track_can_be_played_again() -> None:
    """Only a colour still in your Railyard takes no more cards: once its last card has moved to
    the On-the-Track stack, a new set of it may be played."""
    s = lay(hands=[["red", "red"], []], yards=[{"red": (2, 0)}], deck=["white"] * 8, turn=1)
    s = play(s, 1, "take blind", "take blind")  # Ann's turn: one of her two Red moves
    assert yard_of(s, 0) == {"red": (1, 0)}
    with pytest.raises(IllegalMove, match="already have a Red set"):
        play(s, 0, "yard red red")
    s = play(s, 0, "take blind", "take blind")
    s = play(s, 1, "take blind", "take blind")  # Ann's turn: her last Red moves
    assert yard_of(s, 0) == {} and s.track[0] == counts("red", "red")
    s = play(s, 0, "yard red red")
    assert yard_of(s, 0) == {"red": (2, 0)}


# --- the end of the first deck --------------------------------------------------------------------


def test_a_locomotive_reset_that_empties_the_first_deck_starts_the_final_round() -> None:
    """The five cards dealt after three Locomotives showed take the deck's last card: the first
    deck has run out, so everyone takes one final turn, the drawer last."""
    slots = ["loco", "loco", "red", "blue", "green"]
    deck = ["loco", "white", "black", "orange", "yellow", "purple", "green"]
    s = lay(3, hands=[[], [], []], slots=slots, deck=deck, turn=1)
    s = play(s, 1, "take 3", "take 4")  # the refill shows a third Locomotive: reset
    assert slot_codes(s) == ["black", "orange", "yellow", "purple", "green"]
    assert s.deck == [] and s.final_round
    assert s.turn == 2 and s.final_queue == [0, 1]


def test_the_railyard_feeds_the_track_at_each_final_turn() -> None:
    """The final turns are whole turns: each begins with the Railyard feeding the track."""
    s = lay(hands=[[], []], yards=[{"red": (2, 0)}, {}], deck=["white"], turn=1)
    s = play(s, 1, "take blind", "take 1")  # Bob draws the last card
    assert s.final_round and s.turn == 0 and s.final_queue == [1]
    assert yard_of(s, 0) == {"red": (1, 0)} and s.track[0] == counts("red")


# --- solo: the Station Clock ----------------------------------------------------------------------


def test_cards_dealt_after_a_station_clock_match_can_rob_your_set() -> None:
    """Robbing follows every change to the draw area: three Blue dealt in place of the Yellow a
    Station Clock Yellow discarded outnumber your two Blue, which are discarded before your
    Railyard feeds the track."""
    clock = ["purple", "yellow", *["purple"] * 8, *["loco"] * 6]
    up = ["yellow", "yellow", "yellow", "black"]
    s = solo(clock, up=up, draws=["white", "red", "blue", "blue", "blue"])
    s.yard_nat[0][card("blue")] = 2  # no Blue face up: stable
    s = play(s, 0, "take blind", "take blind")  # turn 2: the Station Clock turns up Yellow
    assert s.clock_card == card("yellow")
    assert slot_codes(s) == ["blue", "blue", "blue", "black"]
    assert yard_of(s, 0) == {} and s.track[0] == [0] * len(s.track[0])
    assert s.discard[card("blue")] == 2 and s.discard[card("yellow")] == 3


def test_a_station_clock_match_with_an_empty_train_deck_leaves_the_slots_empty() -> None:
    """The face-up cards a Station Clock match discards are replaced only while the train deck
    has cards: with it empty, their slots stay empty and the game goes on."""
    clock = ["purple", "yellow", *["purple"] * 8, *["loco"] * 6]
    s = solo(clock, up=["yellow", "orange", "yellow", "black"])
    s.deck = []
    s = play(s, 0, "take 2", "take 4")  # nothing to refill: slots 2 and 4 stay empty
    assert s.clock_turn == 2 and s.clock_card == card("yellow")
    assert slot_codes(s) == [None, None, None, None]
    assert s.discard[card("yellow")] == 2 and s.phase == ACT


def test_the_station_clock_card_can_be_the_second_card() -> None:
    """The Station Clock card is one of the five face-up cards: it may be taken second too."""
    s = solo(PURPLE_CLOCK, draws=["white", "red"])
    s = play(s, 0, "take 1")
    assert "take clock" in {SOLO.format_action(a) for a in SOLO.legal_actions(s, 0)}
    s = play(s, 0, "take clock")
    assert hand_of(s, 0)["orange"] == 1 and hand_of(s, 0)["purple"] == 1
    assert s.clock_turn == 2 and s.clock_card == card("purple")


def test_no_railyard_card_moves_after_the_sixteenth_turn() -> None:
    """The game ends after the sixteenth turn's action: no seventeenth turn feeds the track, so
    the cards still in the Railyard never score."""
    s = solo(PURPLE_CLOCK, up=["orange", "yellow", "black", "white"])
    for _ in range(14):
        s = play(s, 0, "tickets", "keep none")
    assert s.clock_turn == 15
    s = play(s, 0, "yard red red red")  # turn 16 begins: one Red goes on the track
    assert s.clock_turn == 16 and s.track[0] == counts("red")
    s = play(s, 0, "tickets", "keep none")
    assert s.phase == OVER
    assert yard_of(s, 0) == {"red": (2, 0)} and s.track[0] == counts("red")
    assert s.result is not None and s.result.seats[0].track == tuple(counts("red"))


def test_a_solo_ticket_draw_returns_the_others_under_the_ticket_deck() -> None:
    """Solo draws tickets as the standard game does: the ones not kept go to the bottom."""
    s = solo(PURPLE_CLOCK, draws=["green"] * 4)
    s.ticket_deck = codes("T20", "T21", "T22", "T23", "T24")
    s = play(s, 0, "tickets", "keep T21")
    assert s.ticket_deck == codes("T24", "T20", "T22", "T23")
    assert codes("T21")[0] in s.tickets[0]


# --- solo: scoring --------------------------------------------------------------------------------


def test_a_big_city_tie_with_the_hidden_tickets_scores_for_both() -> None:
    """Ties all score, the hidden opponent included: one completed Dallas ticket each gives
    both sides the Dallas bonus."""
    result = score_solo(codes("T07"), counts("yellow", "yellow", "blue", "blue"), codes("T01"))
    assert result.city_winners[DALLAS] == (0, -1)
    assert result.seats[0].total == TICKETS[codes("T07")[0]].points + CITY_BONUS[DALLAS]
    assert result.opponent is not None
    assert result.opponent.total == TICKETS[codes("T01")[0]].points + CITY_BONUS[DALLAS]


def test_a_big_city_nobody_touches_scores_for_nobody_in_solo() -> None:
    """A Big City needs at least one completed ticket: one neither side touches gives neither
    side its bonus."""
    result = score_solo(codes("T13"), counts(*["green"] * 3, "purple", "purple"), codes("T14"))
    assert all(winners == () for winners in result.city_winners)
    assert result.seats[0].bonus == 0 and result.opponent is not None
    assert result.opponent.bonus == 0 and result.margin == 8 - 9

"""Ticket to Ride standard game rules, one behaviour per test, on stacked decks and laid tables."""

from __future__ import annotations

import json

import pytest

from bot.engine.core import IllegalMove, NotationError, NotYourTurn
from bot.engine.ttr.cards import LOCO, TICKETS
from bot.engine.ttr.state import ACT, KEEP, OVER, PICK2, SETUP, TtrState
from tests.engine.ttr_helpers import (
    G,
    card,
    counts,
    deal,
    hand_of,
    keep_first,
    lay,
    play,
    slot_codes,
    yard_of,
)

RED7 = ["red"] * 7
BLUE7 = ["blue"] * 7
UP = ["green", "yellow", "black", "white", "orange"]
SIX = [f"T{i:02d}" for i in range(1, 13)]


def snapshot(state: TtrState) -> str:
    return json.dumps(G.to_dict(state), sort_keys=True)


# --- setup --------------------------------------------------------------------------------------


def test_each_player_starts_with_a_locomotive_and_seven_cards() -> None:
    """Setup: a starting Locomotive from the sixteen plus the seven cards dealt."""
    s = deal([RED7, BLUE7], UP)
    assert hand_of(s, 0) == {"red": 7, "loco": 1}
    assert hand_of(s, 1) == {"blue": 7, "loco": 1}
    assert slot_codes(s) == UP


def test_setup_offers_six_tickets_to_every_seat_at_once() -> None:
    """Every seat chooses its opening tickets at the same time."""
    s = deal([RED7, BLUE7], UP, tickets=SIX)
    assert s.phase == SETUP and G.to_act(s) == {0, 1}
    assert s.offered[0] == [0, 1, 2, 3, 4, 5] and s.offered[1] == [6, 7, 8, 9, 10, 11]
    assert len(G.legal_actions(s, 0)) == 63  # every non-empty subset of six


def test_a_seat_that_chose_waits_for_the_others() -> None:
    """After keeping, a seat leaves to_act while the others still choose."""
    s = deal([RED7, BLUE7], UP, tickets=SIX)
    s = play(s, 1, "keep T07 T08")
    assert G.to_act(s) == {0} and s.tickets[1] == [6, 7]
    with pytest.raises(NotYourTurn, match="already chosen"):
        play(s, 1, "keep T09")


def test_keeping_no_ticket_at_setup_is_refused_and_changes_nothing() -> None:
    """At setup at least one ticket must be kept."""
    s = deal([RED7, BLUE7], UP, tickets=SIX)
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="at least one"):
        play(s, 0, "keep none")
    assert snapshot(s) == before


def test_keeping_a_ticket_not_offered_is_refused() -> None:
    """Only the tickets offered can be kept."""
    s = deal([RED7, BLUE7], UP, tickets=SIX)
    with pytest.raises(IllegalMove, match="not offered T07"):
        play(s, 0, "keep T07")


def test_unwanted_setup_tickets_are_shuffled_back_and_seat_zero_starts() -> None:
    """Returned tickets rejoin the deck (shuffled) and the first seat plays first."""
    s = deal([RED7, BLUE7], UP, tickets=SIX)
    s = play(s, 0, "keep T01")
    s = play(s, 1, "keep T07 T08 T09 T10 T11 T12")
    assert s.phase == ACT and s.turn == 0
    assert len(s.ticket_deck) == 46 - 12 + 5
    assert {1, 2, 3, 4, 5} <= set(s.ticket_deck)


def test_returned_setup_tickets_are_shuffled_into_the_deck_not_put_under_it() -> None:
    """At setup the unwanted tickets are shuffled back (a later draw returns them to the
    bottom instead): the deck is not the dealt deck with them laid underneath."""
    dealt = deal([RED7, BLUE7], UP, tickets=SIX)
    s = play(dealt, 0, "keep T01")
    s = play(s, 1, "keep T07 T08 T09 T10 T11 T12")
    underneath = [*dealt.ticket_deck, 1, 2, 3, 4, 5]
    assert sorted(s.ticket_deck) == sorted(underneath) and s.ticket_deck != underneath


# --- drawing ------------------------------------------------------------------------------------


def test_two_blind_draws_take_the_top_two_cards() -> None:
    """Drawing blind twice takes the deck's top two cards, then the turn passes."""
    s = keep_first(deal([RED7, BLUE7], UP, draws=["purple", "white", "black"]))
    s = play(s, 0, "take blind")
    assert s.phase == PICK2 and s.turn == 0
    s = play(s, 0, "take blind")
    assert hand_of(s, 0) == {"red": 7, "loco": 1, "purple": 1, "white": 1}
    assert s.turn == 1 and s.phase == ACT


def test_face_up_slot_stays_empty_until_the_draw_action_ends() -> None:
    """The first face-up card taken is not replaced before the second pick; then slots refill."""
    s = keep_first(deal([RED7, BLUE7], UP, draws=["purple", "white", "black"]))
    s = play(s, 0, "take 2")
    assert slot_codes(s)[1] is None and s.phase == PICK2
    s = play(s, 0, "take 1")
    assert slot_codes(s) == ["purple", "white", "black", "white", "orange"]
    assert hand_of(s, 0)["yellow"] == 1 and hand_of(s, 0)["green"] == 1


def test_a_face_up_locomotive_counts_as_both_draws() -> None:
    """Taking a face-up Locomotive first ends the draw action."""
    up = ["loco", "yellow", "black", "white", "orange"]
    s = keep_first(deal([RED7, BLUE7], up, draws=["purple", "white"]))
    s = play(s, 0, "take 1")
    assert hand_of(s, 0)["loco"] == 2
    assert s.turn == 1 and slot_codes(s)[0] == "purple"


def test_a_face_up_locomotive_cannot_be_the_second_card() -> None:
    """After a first non-Locomotive card, a face-up Locomotive is refused, nothing changes."""
    up = ["loco", "yellow", "black", "white", "orange"]
    s = keep_first(deal([RED7, BLUE7], up, draws=["purple", "white"]))
    s = play(s, 0, "take 2")
    before = snapshot(s)
    assert "take 1" not in {G.format_action(a) for a in G.legal_actions(s, 0)}
    with pytest.raises(IllegalMove, match="counts as both"):
        play(s, 0, "take 1")
    assert snapshot(s) == before


def test_no_second_card_after_a_face_up_locomotive() -> None:
    """The player who took a face-up Locomotive cannot take another card: the turn is over."""
    up = ["loco", "yellow", "black", "white", "orange"]
    s = keep_first(deal([RED7, BLUE7], up, draws=["purple", "white"]))
    s = play(s, 0, "take 1")
    before = snapshot(s)
    with pytest.raises(NotYourTurn):
        play(s, 0, "take blind")
    assert snapshot(s) == before


def test_a_blind_locomotive_counts_as_one_card() -> None:
    """A Locomotive drawn blind leaves the second draw to take."""
    s = keep_first(deal([RED7, BLUE7], UP, draws=["loco", "white"]))
    s = play(s, 0, "take blind")
    assert s.phase == PICK2 and hand_of(s, 0)["loco"] == 2


def test_three_face_up_locomotives_after_the_refill_reset_the_draw_area() -> None:
    """Refill brings a third Locomotive: all five are discarded and five new are dealt."""
    up = ["loco", "loco", "black", "white", "orange"]
    draws = ["loco", "red", "green", "blue", "yellow", "purple", "black"]
    s = keep_first(deal([RED7, BLUE7], up, draws=draws))
    s = play(s, 0, "take 3", "take 4")  # the refill shows loco, loco, loco, red, orange
    assert slot_codes(s) == ["green", "blue", "yellow", "purple", "black"]
    assert s.discard == counts("loco", "loco", "loco", "red", "orange")


def test_the_locomotive_reset_repeats_while_three_show() -> None:
    """A fresh five with three Locomotives is discarded too, until fewer than three show."""
    up = ["loco", "loco", "black", "white", "orange"]
    again = ["loco", "loco", "loco", "red", "red"]
    draws = ["loco", "green", *again, "blue", "yellow", "purple", "black", "white"]
    s = keep_first(deal([RED7, BLUE7], up, draws=draws))
    s = play(s, 0, "take 3", "take 4")
    assert slot_codes(s) == ["blue", "yellow", "purple", "black", "white"]
    assert s.discard[LOCO] == 6


def test_the_second_pick_is_skipped_when_nothing_can_be_taken() -> None:
    """With the deck empty and only Locomotives face up, the first card ends the draw."""
    s = lay(hands=[[], []], slots=["red", "loco", None, None, None], deck=[])
    s = play(s, 0, "take 1")
    assert s.turn == 1 and hand_of(s, 0) == {"red": 1}


def test_taking_an_empty_slot_is_refused() -> None:
    """An empty face-up slot cannot be taken."""
    s = lay(hands=[[], []], slots=["red", None, "blue", "green", "white"], deck=["red"])
    with pytest.raises(IllegalMove, match="Slot 2 is empty"):
        play(s, 0, "take 2")


# --- the Railyard ---------------------------------------------------------------------------------


def test_a_colour_set_with_locomotives_goes_to_the_railyard() -> None:
    """Two reds and a Locomotive form one red set of three."""
    s = lay(hands=[["red", "red", "red", "loco", "loco"], []], deck=["red"] * 4)
    s = play(s, 0, "yard red red loco")
    assert yard_of(s, 0) == {"red": (2, 1)}
    assert hand_of(s, 0) == {"red": 1, "loco": 1}


def test_adding_to_a_colour_already_in_the_railyard_is_refused() -> None:
    """A colour already in your Railyard cannot be played again."""
    s = lay(hands=[["red", "red"], []], yards=[{"red": (1, 0)}], deck=["red"] * 4)
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="already have a Red set"):
        play(s, 0, "yard red red")
    assert snapshot(s) == before


def test_a_refusal_names_an_orange_set_with_its_article() -> None:
    """Adding to an Orange set, or tying one, is refused in English: before the fix the
    sentences read "You already have a Orange set" and "Bob has a Orange set of 2 cards"."""
    s = lay(hands=[["orange"] * 2, []], yards=[{"orange": (1, 0)}, {}], deck=["red"] * 4)
    with pytest.raises(IllegalMove, match="You already have an Orange set in your Railyard"):
        play(s, 0, "yard orange orange")
    s = lay(hands=[["orange"] * 2, []], yards=[{}, {"orange": (2, 0)}], deck=["red"] * 4)
    with pytest.raises(IllegalMove, match="Bob has an Orange set of 2 cards"):
        play(s, 0, "yard orange orange")


def test_a_tie_with_an_opponent_set_is_refused() -> None:
    """Playing as many cards as an opponent's set of that colour is not enough."""
    s = lay(hands=[["red", "red", "loco"], []], yards=[{}, {"red": (2, 1)}], deck=["red"] * 4)
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="Bob has a Red set of 3 cards"):
        play(s, 0, "yard red red loco")
    assert snapshot(s) == before


def test_a_larger_set_robs_every_opponent_set_of_that_colour() -> None:
    """Outnumbering robs: each opponent with that colour discards it, other colours stay."""
    s = lay(
        3,
        hands=[["red"] * 3 + ["loco"], [], []],
        yards=[{}, {"red": (2, 0), "blue": (2, 0)}, {"red": (1, 2)}],
        deck=["red"] * 4,
    )
    s = play(s, 0, "yard red red red loco")
    assert yard_of(s, 0) == {"red": (3, 1)}
    assert yard_of(s, 2) == {} and yard_of(s, 1) == {"blue": (1, 0)}  # Bob's turn moved one
    assert s.discard[card("red")] == 3 and s.discard[LOCO] == 2
    assert "robbing Bob of their Red set (2 cards) and Cat of their Red set (3 cards)" in s.caption


def test_a_set_must_beat_the_largest_opponent_set() -> None:
    """Beating one opponent is not enough while another's set is as large."""
    s = lay(
        3,
        hands=[["red"] * 3, [], []],
        yards=[{}, {"red": (2, 0)}, {"red": (3, 0)}],
        deck=["red"] * 4,
    )
    with pytest.raises(IllegalMove, match="Cat has a Red set of 3 cards"):
        play(s, 0, "yard red red red")


def test_three_single_cards_of_different_colours_are_three_sets() -> None:
    """Three singles go in as three sets of one."""
    s = lay(hands=[["red", "green", "blue", "blue"], []], deck=["red"] * 4)
    s = play(s, 0, "yard red green blue")
    assert yard_of(s, 0) == {"red": (1, 0), "green": (1, 0), "blue": (1, 0)}


def test_a_single_card_cannot_go_where_an_opponent_has_that_colour() -> None:
    """Each single is checked on its own: one cannot beat any existing set."""
    s = lay(hands=[["red", "green", "blue"], []], yards=[{}, {"green": (1, 0)}], deck=["red"] * 4)
    with pytest.raises(IllegalMove, match="Bob has a Green set of 1 card"):
        play(s, 0, "yard red green blue")
    assert all(a.singles == () for a in G.legal_actions(s, 0) if a.kind == "yard")


def test_singles_exclude_locomotives_and_pairs() -> None:
    """Singles are exactly three colour cards of three colours."""
    with pytest.raises(NotationError, match="three single cards"):
        G.parse_action("yard red green loco")
    with pytest.raises(NotationError, match="three single cards"):
        G.parse_action("yard red green")


def test_a_set_needs_two_cards_and_a_card_of_its_colour() -> None:
    """One card alone, or Locomotives alone, are not a set."""
    s = lay(hands=[["red", "loco", "loco"], []], deck=["red"] * 4)
    with pytest.raises(IllegalMove, match="at least two cards"):
        play(s, 0, "yard red")
    with pytest.raises(NotationError, match="at least one card of its colour"):
        G.parse_action("yard loco loco")


def test_playing_more_cards_than_held_is_refused() -> None:
    """You can only play cards you hold."""
    s = lay(hands=[["red", "loco"], []], deck=["red"] * 4)
    with pytest.raises(IllegalMove, match="only 1 Red"):
        play(s, 0, "yard red red")
    with pytest.raises(IllegalMove, match="only 1 Locomotive"):
        play(s, 0, "yard red loco loco")


def test_legal_railyard_plays_list_every_size_and_locomotive_mix() -> None:
    """Per colour: every count of it (at least one) and of Locomotives making two or more."""
    s = lay(hands=[["red", "red", "loco"], []], yards=[{}, {"red": (2, 0)}], deck=["red"] * 4)
    plays = {G.format_action(a) for a in G.legal_actions(s, 0) if a.kind == "yard"}
    assert plays == {"yard red red loco"}


# --- the On-the-Track stack ----------------------------------------------------------------------


def test_each_railyard_set_sends_one_card_on_the_track_locomotives_first() -> None:
    """At the start of a turn, every set gives one card to the stack, Locomotives first."""
    s = lay(
        hands=[["green"], []],
        yards=[{"red": (2, 1), "blue": (1, 0)}, {}],
        deck=["white"] * 6,
        turn=1,
    )
    s = play(s, 1, "take blind", "take blind")
    assert s.turn == 0
    assert yard_of(s, 0) == {"red": (2, 0)}
    assert s.track[0] == counts("loco", "blue")
    # The rules' name for the stack, as the table image and the console say it.
    assert "Ann moves 2 cards from the Railyard to the On-the-Track stack." in s.caption


def test_the_track_is_filled_only_at_the_owner_turn() -> None:
    """Another player's turn does not move your Railyard."""
    s = lay(hands=[["green"] * 2, []], yards=[{"red": (2, 0)}, {}], deck=["white"] * 6)
    s = play(s, 0, "take blind", "take blind")
    assert yard_of(s, 0) == {"red": (2, 0)} and s.track[0] == [0] * 9


# --- tickets ------------------------------------------------------------------------------------


def test_drawing_tickets_offers_four_and_returns_the_rest_to_the_bottom() -> None:
    """Draw four, keep any (none included); the others go under the deck in order."""
    s = lay(hands=[[], []], deck=["red"] * 4)
    s.ticket_deck = [20, 21, 22, 23, 24, 25]
    s = play(s, 0, "tickets")
    assert s.phase == KEEP and s.offered[0] == [20, 21, 22, 23]
    assert len(G.legal_actions(s, 0)) == 16
    kept_before = list(s.tickets[0])
    s = play(s, 0, "keep T22 T24")
    assert s.tickets[0] == sorted([*kept_before, 21, 23])
    assert s.ticket_deck == [24, 25, 20, 22]
    assert s.turn == 1


def test_keeping_no_drawn_ticket_is_allowed() -> None:
    """During the game any number of the four may be kept, none included."""
    s = lay(hands=[[], []], deck=["red"] * 4)
    s.ticket_deck = [20, 21, 22, 23]
    s = play(s, 0, "tickets", "keep none")
    assert s.ticket_deck == [20, 21, 22, 23] and s.turn == 1


def test_tickets_cannot_be_drawn_from_an_empty_deck() -> None:
    """With the ticket deck empty, drawing tickets is refused."""
    s = lay(hands=[[], []], deck=["red"] * 4)
    s.ticket_deck = []
    with pytest.raises(IllegalMove, match="ticket deck is empty"):
        play(s, 0, "tickets")


def test_only_a_keep_answers_a_ticket_draw() -> None:
    """While choosing tickets, other moves are refused."""
    s = lay(hands=[[], []], deck=["red"] * 4)
    s = play(s, 0, "tickets")
    with pytest.raises(IllegalMove, match="choose which tickets to keep"):
        play(s, 0, "take blind")


# --- passing and the end ------------------------------------------------------------------------


def test_pass_only_when_nothing_else_is_possible() -> None:
    """No card to take, no ticket, no play: the only move is to pass."""
    s = lay(hands=[["red"], []], slots=[None] * 5, deck=[])
    s.ticket_deck = []
    assert [G.format_action(a) for a in G.legal_actions(s, 0)] == ["pass"]
    s2 = lay(hands=[["red"], []], deck=["red"])
    with pytest.raises(IllegalMove, match="only allowed when nothing else"):
        play(s2, 0, "pass")


def test_the_first_deck_running_out_gives_everyone_a_final_turn() -> None:
    """The drawer of the last card plays last in the final round; then the second deck."""
    s = lay(3, hands=[[], [], []], deck=["red", "blue"], turn=1)
    s.discard = counts(*["white"] * 10, *["black"] * 10)  # enough for a second deck
    s = play(s, 1, "take blind", "take blind")  # Bob drew the last card
    assert s.final_round and s.turn == 2 and s.final_queue == [0, 1]
    s = play(s, 2, "take 1", "take 2")
    s = play(s, 0, "take 3", "take 4")
    assert s.turn == 1 and s.deck_number == 1
    s = play(s, 1, "take 5")  # no second card left anywhere
    assert s.deck_number == 2 and not s.final_round and s.turn == 2


def test_the_second_deck_takes_everything_but_the_hands_and_deals_four_more() -> None:
    """Discards, Railyards, On-the-Track stacks and the face-up cards become the second deck;
    hands stay and get four more cards each."""
    s = lay(
        hands=[["green"] * 3, ["white"] * 2],
        yards=[{"red": (5, 0)}, {"blue": (4, 2)}],
        slots=[None] * 5,
        deck=["black"],
    )
    s.track = [counts("red", "red", "loco"), counts("purple")]
    s.discard = counts("orange", "orange", "yellow")
    total = sum(G.census(s).get(code, 0) for code in ("red", "orange", "yellow", "green"))
    total += sum(G.census(s).get(code, 0) for code in ("blue", "purple", "black", "white", "loco"))
    s = play(s, 0, "take blind")  # the last card; no second card exists
    assert s.turn == 1 and s.final_queue == [0]
    s = play(s, 1, "tickets", "keep none")
    s = play(s, 0, "tickets", "keep none")
    assert s.deck_number == 2 and s.turn == 1
    assert hand_of(s, 0).get("green", 0) >= 3 and sum(s.hands[0]) == 4 + 4
    assert sum(s.hands[1]) == 2 + 4
    assert s.track == [[0] * 9, [0] * 9] and yard_of(s, 0) == {} and yard_of(s, 1) == {}
    assert sum(s.discard) == 0
    assert len(s.deck) + 5 + sum(s.hands[0]) + sum(s.hands[1]) == total


def test_the_game_ends_when_the_second_deck_runs_out() -> None:
    """The turn that empties the second deck is the last; the game is scored."""
    s = lay(hands=[[], []], deck=["red", "blue", "green"])
    s.deck_number = 2
    s = play(s, 0, "take blind", "take blind")
    assert s.phase == ACT and s.turn == 1
    s = play(s, 1, "take blind")
    s = play(s, 1, "take 1")
    assert s.phase == OVER and G.outcome(s) is not None
    assert "second train deck has run out" in s.end_reason


def test_only_the_seat_to_play_may_act() -> None:
    """Out of turn moves are refused with NotYourTurn and change nothing."""
    s = lay(hands=[[], ["red", "red"]], deck=["red"] * 4)
    before = snapshot(s)
    with pytest.raises(NotYourTurn, match="It is not your turn: Ann is playing"):
        play(s, 1, "yard red red")
    assert snapshot(s) == before


def test_ticket_table_matches_the_rulings() -> None:
    """Spot checks of the ticket data: T01, T20 (two cities) and T45 (five colours)."""
    assert TICKETS[0].requirement() == "3 Red" and TICKETS[0].points == 5
    assert TICKETS[19].cities == (0, 1)  # New York and Chicago
    assert TICKETS[44].requirement() == "3 Purple, 2 Red, 2 Orange, 2 Green, 2 White"
    assert TICKETS[44].points == 22


def test_the_keep_option_leaves_the_on_the_track_stacks_in_place() -> None:
    """With tracks=keep the stacks survive the making of the second deck."""
    s = G.new_game(["Ann", "Bob"], 3, options={"tracks": "keep"})
    s = keep_first(s)
    s.deck = [card("black")]
    s.slots = [-1] * 5
    s.track = [counts("red", "red", "loco"), counts("purple")]
    s.discard = counts(*["orange"] * 10, *["yellow"] * 10)
    s = play(s, 0, "take blind")
    s = play(s, 1, "tickets", "keep none")
    s = play(s, 0, "tickets", "keep none")
    assert s.deck_number == 2
    assert s.track[0] == counts("red", "red", "loco") and s.track[1] == counts("purple")


def test_the_tracks_option_is_checked() -> None:
    """An unknown value for the option is refused with the choices."""
    from bot.engine.core import BadOption

    with pytest.raises(BadOption, match="reshuffle, keep"):
        G.new_game(["Ann", "Bob"], 3, options={"tracks": "burn"})


def test_a_second_deck_used_up_by_its_deal_ends_the_game_at_once() -> None:
    """If dealing four each and five face up empties the second deck, the game is scored."""
    s = lay(hands=[[], []], slots=[None] * 5, deck=["black"])
    s.discard = counts("red", "red", "blue")
    s = play(s, 0, "take blind")
    s = play(s, 1, "tickets", "keep none")
    s = play(s, 0, "tickets", "keep none")
    assert s.phase == OVER and "ran out as it was dealt" in s.end_reason


def test_a_second_deck_too_small_for_four_each_does_not_say_everyone_draws_four() -> None:
    """Three cards cannot give two players four each: the caption says they are dealt until
    none are left (it said everyone draws four cards)."""
    s = lay(hands=[[], []], slots=[None] * 5, deck=["black"])
    s.discard = counts("red", "red", "blue")
    s = play(s, 0, "take blind")
    s = play(s, 1, "tickets", "keep none")
    s = play(s, 0, "tickets", "keep none")
    assert sum(s.hands[0]) + sum(s.hands[1]) == 4
    assert "everyone draws four" not in s.caption
    assert "form the second train deck, and its cards are dealt until none are left." in s.caption


def test_the_second_deck_caption_names_the_face_up_cards_it_takes() -> None:
    """The face-up cards go into the second deck with the discards, Railyards and stacks, and
    the caption says so (it left them out)."""
    s = lay(hands=[[], []], slots=["red", "blue", None, None, None], deck=["black"])
    s.discard = counts(*["orange"] * 10)
    s = play(s, 0, "take blind", "take 1")
    s = play(s, 1, "tickets", "keep none")
    s = play(s, 0, "tickets", "keep none")
    assert s.deck_number == 2
    assert (
        "the discards, face-up cards, Railyards and On-the-Track stacks form the second train "
        "deck, and everyone draws four cards." in s.caption
    )


def test_a_ticket_draw_takes_what_is_left_when_fewer_than_four_remain() -> None:
    """With two tickets left, drawing tickets offers those two."""
    s = lay(hands=[[], []], deck=["red"] * 4)
    s.ticket_deck = [30, 31]
    s = play(s, 0, "tickets")
    assert s.offered[0] == [30, 31] and len(G.legal_actions(s, 0)) == 4


def test_the_ticket_draw_says_how_many_it_offers_when_few_are_left() -> None:
    """With two tickets left, the move reads "Draw the last 2 Destination Tickets". Before the
    fix its button read "Draw four Destination Tickets (2 in the deck)", promising four."""
    s = lay(hands=[[], []], deck=["red"] * 4)
    s.ticket_deck = [30, 31]
    assert G.describe_action(s, 0, G.parse_action("tickets")) == (
        "Draw the last 2 Destination Tickets"
    )


def test_a_face_up_locomotive_is_legal_as_the_first_card() -> None:
    """The legal first picks include a face-up Locomotive; the second picks do not."""
    s = lay(hands=[[], []], slots=["loco", "red", "blue", "green", "white"], deck=["red"] * 4)
    first = {G.format_action(a) for a in G.legal_actions(s, 0) if a.kind == "take"}
    assert first == {"take 1", "take 2", "take 3", "take 4", "take 5", "take blind"}
    s = play(s, 0, "take 2")
    second = {G.format_action(a) for a in G.legal_actions(s, 0)}
    assert second == {"take 3", "take 4", "take 5", "take blind"}


# --- audit: deck, tickets, layouts, the end -------------------------------------------------------

# The 46 tickets written out a second time: code, points, requirement (r o y g b p k=black w),
# Big Cities (NY CH LA DA SE MI). An independent transcription: the data must match it.
_TICKET_TABLE = (
    "T01 5 3r | DA",
    "T02 5 3g | SE",
    "T03 6 2k 2w | CH",
    "T04 6 2o 2y | NY",
    "T05 6 2b 2p | LA",
    "T06 7 2w 2o | MI",
    "T07 7 2y 2b | DA",
    "T08 7 2p 2k | SE",
    "T09 8 3r 2g | CH",
    "T10 8 3b 2p | NY",
    "T11 8 3k 2w | LA",
    "T12 8 3o 2y | MI",
    "T13 8 3g 2p | ",
    "T14 9 3w 2r | ",
    "T15 9 3y 2b | DA",
    "T16 9 3k 2o | SE",
    "T17 10 3r 3g | LA",
    "T18 10 3p 3b | CH",
    "T19 10 3w 3o | ",
    "T20 11 2y 2k 2g | CH NY",
    "T21 11 2p 2r 2y | CH DA",
    "T22 11 2w 2o 2b | LA",
    "T23 12 3k 2y 2g | MI",
    "T24 12 3p 2r 2w | SE",
    "T25 12 3o 2b 2r | NY",
    "T26 13 3g 2k 2y | DA",
    "T27 13 3w 2b 2p | CH",
    "T28 13 3o 2y 2k | MI",
    "T29 14 3r 3b 2p | SE",
    "T30 14 3g 3w 2y | LA",
    "T31 14 3k 3p 2r | ",
    "T32 15 3o 3y 2g | DA",
    "T33 15 3b 3r 2k | NY",
    "T34 16 2w 2g 2p 2o | CH MI",
    "T35 16 2k 2w 2y 2b | DA NY",
    "T36 17 3o 2g 2p 2r | SE",
    "T37 17 3b 2k 2w 2y | LA DA",
    "T38 18 3r 2g 2p 2w | CH LA",
    "T39 18 3y 2k 2o 2g | MI DA",
    "T40 18 3p 2b 2k 2w | MI",
    "T41 19 3r 3o 2y 2g | NY MI",
    "T42 19 3b 3p 2k 2w | CH SE",
    "T43 20 3r 3o 2y 2g | SE LA",
    "T44 20 3b 3k 2w 2y | ",
    "T45 22 3p 2g 2w 2r 2o | LA NY",
    "T46 21 3y 2g 2b 2k 2w | SE MI",
)
_LETTER = {"r": 0, "o": 1, "y": 2, "g": 3, "b": 4, "p": 5, "k": 6, "w": 7}
_CITY = {"NY": 0, "CH": 1, "LA": 2, "DA": 3, "SE": 4, "MI": 5}


def test_every_ticket_matches_the_rulings_table() -> None:
    """All 46 tickets: code, points, colour counts and Big Cities as the table above lists them."""
    assert len(TICKETS) == len(_TICKET_TABLE) == 46
    for ticket, row in zip(TICKETS, _TICKET_TABLE, strict=True):
        left, right = row.split("|")
        code, points, *parts = left.split()
        need = [0] * 8
        for part in parts:
            need[_LETTER[part[1]]] += int(part[0])
        assert (ticket.code, ticket.points, ticket.need) == (code, int(points), tuple(need))
        assert ticket.cities == tuple(sorted(_CITY[c] for c in right.split())), code


def test_ticket_distribution_follows_the_seed() -> None:
    """2 one-colour (5), 17 two-colour (6–10), 14 three (11–15), 11 four (16–20), 2 five (21–22)."""
    by_colours: dict[int, list[int]] = {}
    for ticket in TICKETS:
        by_colours.setdefault(ticket.colours, []).append(ticket.points)
    assert {k: len(v) for k, v in by_colours.items()} == {1: 2, 2: 17, 3: 14, 4: 11, 5: 2}
    spans = {1: (5, 5), 2: (6, 10), 3: (11, 15), 4: (16, 20), 5: (21, 22)}
    for colours, (low, high) in spans.items():
        assert min(by_colours[colours]) == low and max(by_colours[colours]) == high


def test_big_city_bonus_values() -> None:
    """New York 15, Chicago 14, Los Angeles 13, Dallas 12, Seattle 11, Miami 10."""
    from bot.engine.ttr.cards import CITIES, CITY_BONUS

    assert dict(zip(CITIES, CITY_BONUS, strict=True)) == {
        "New York": 15,
        "Chicago": 14,
        "Los Angeles": 13,
        "Dallas": 12,
        "Seattle": 11,
        "Miami": 10,
    }


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_game_holds_96_train_cards_and_46_tickets(seats: int) -> None:
    """Ten of each of eight colours and 16 Locomotives, the starting ones among them."""
    s = G.new_game(["Ann", "Bob", "Cat", "Dan"][:seats], 5)
    census = G.census(s)
    colours = ("red", "orange", "yellow", "green", "blue", "purple", "black", "white")
    assert all(census[c] == 10 for c in colours) and census["loco"] == 16
    assert sum(census[c] for c in (*colours, "loco")) == 96
    assert sum(n for code, n in census.items() if code.startswith("T")) == 46
    assert all(hand_of(s, seat)["loco"] >= 1 for seat in range(seats))


def test_a_stacked_deck_cannot_use_the_starting_locomotives_twice() -> None:
    """Two players' starting Locomotives leave fourteen of the sixteen to deal."""
    from bot.engine.core import BadOption

    with pytest.raises(BadOption, match="15 × Locomotive; only 14"):
        G.new_game(["Ann", "Bob"], 1, deck=["loco"] * 15)
    G.new_game(["Ann", "Bob"], 1, deck=["loco"] * 14)


def test_three_face_up_locomotives_at_setup_reset_the_draw_area() -> None:
    """The first layout is checked too: three Locomotives in it are discarded with the rest."""
    up = ["loco", "red", "loco", "blue", "loco"]
    draws = ["green", "yellow", "black", "white", "orange"]
    s = deal([RED7, BLUE7], up, draws=draws)
    assert slot_codes(s) == draws
    assert s.discard == counts("loco", "loco", "loco", "red", "blue")


def test_the_second_deck_layout_is_checked_for_three_locomotives() -> None:
    """The five cards laid from the second deck never keep three Locomotives while it has cards."""
    s = lay(hands=[[], []], slots=[None] * 5, deck=["black"])
    s.discard = counts(*["loco"] * 15, *["red"] * 10)
    s = play(s, 0, "take blind")
    s = play(s, 1, "tickets", "keep none")
    s = play(s, 0, "tickets", "keep none")
    assert s.deck_number == 2 and s.deck
    assert s.discard[LOCO] >= 3  # a reset happened (the discard pile was emptied)
    assert slot_codes(s).count("loco") < 3


def test_one_colour_card_and_a_locomotive_make_a_set() -> None:
    """A set is two or more cards of one colour, Locomotives allowed: red + Locomotive is one."""
    s = lay(hands=[["red", "loco"], []], deck=["red"] * 4)
    assert "yard red loco" in {G.format_action(a) for a in G.legal_actions(s, 0)}
    s = play(s, 0, "yard red loco")
    assert yard_of(s, 0) == {"red": (1, 1)}


@pytest.mark.parametrize("singles", [(0, 0, 3), (0, 3, LOCO), (0, 3)])
def test_singles_must_be_three_colour_cards_of_three_colours(singles: tuple[int, ...]) -> None:
    """Built directly (not parsed), a repeated colour, a Locomotive or two cards are refused."""
    from bot.engine.ttr.state import Action

    s = lay(hands=[["red", "red", "green", "loco"], []], deck=["red"] * 4)
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="three at a time, in three different colours"):
        G.apply(s, 0, Action("yard", singles=singles))
    assert snapshot(s) == before


def test_the_first_deck_can_run_out_on_the_refill() -> None:
    """A refill that takes the deck's last card ends the first deck: the final round begins."""
    s = lay(3, hands=[[], [], []], deck=["red"], turn=1)
    s = play(s, 1, "take 1", "take 2")  # the refill takes the last card
    assert s.deck == [] and s.final_round
    assert s.turn == 2 and s.final_queue == [0, 1]


def test_railyard_and_hand_cards_do_not_score() -> None:
    """At the end only On-the-Track cards complete tickets; Railyard and hand cards do not."""
    s = lay(hands=[["red"] * 3, []], yards=[{"red": (3, 0)}, {}], deck=["blue"], turn=1)
    s.deck_number = 2
    s.tickets = [[0], [12]]  # T01: 3 red; T13
    s.track[0] = counts("red", "red")
    s = play(s, 1, "take blind", "take 1")  # the second deck runs out: the game is scored
    assert s.phase == OVER and s.result is not None
    line = s.result.seats[0].lines[0]
    assert not line.completed and s.result.seats[0].total == -5


def test_equal_totals_share_the_win_and_the_place() -> None:
    """Equal final totals tie for first; the lower total takes the next place."""
    s = lay(3, hands=[[], [], []], deck=["blue"])
    s.deck_number = 2
    s.tickets = [[12], [8], [18]]  # T13 8, T09 8, T19 10: none completed
    s = play(s, 0, "take blind", "take 1")
    outcome = G.outcome(s)
    assert outcome is not None and outcome.scores == (-8, -8, -10)
    assert outcome.winners == (0, 1) and outcome.places == (0, 0, 2)
    # The reason is why the game ended; the tie is the result line's ("🏆 Ann and Bob tie for
    # the win!").
    assert outcome.reason == "The second train deck has run out."

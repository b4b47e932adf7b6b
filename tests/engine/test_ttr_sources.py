"""Ticket to Ride: The Card Game: statements of docs/rules/ttr.md that a statement-by-statement
audit found without a test of their own (or without the refusal of the bad input).

Section names in parentheses are sections of that page. Standard games are laid out card by card
(``ttr_helpers.lay``); solo games are dealt from a stacked deck (``test_ttr_solo.solo``).
"""

from __future__ import annotations

import json

import pytest

from bot.engine.core import IllegalMove
from bot.engine.ttr.cards import LOCO, TICKETS, ticket_index
from bot.engine.ttr.scoring import best_standard, score_standard
from bot.engine.ttr.state import ACT, KEEP, TtrState
from tests.engine.test_ttr_solo import PURPLE_CLOCK, solo
from tests.engine.ttr_helpers import SOLO, G, card, counts, hand_of, lay, play, slot_codes, yard_of


def snapshot(state: TtrState) -> str:
    game = SOLO if state.solo else G
    return json.dumps(game.to_dict(state), sort_keys=True)


def codes(*tickets: str) -> list[int]:
    """Ticket indexes from their codes: ``codes("T01", "T17")``."""
    found = [ticket_index(code) for code in tickets]
    assert None not in found, tickets
    return [index for index in found if index is not None]


# --- an empty train deck (Rulings: An empty deck) ------------------------------------------------


def test_a_blind_draw_from_an_empty_train_deck_is_refused() -> None:
    """With the train deck empty, 'take blind' is refused with a sentence saying what to do
    instead, is not offered, and changes nothing."""
    s = lay(hands=[[], []], deck=[])
    before = snapshot(s)
    with pytest.raises(IllegalMove, match=r"^The train deck is empty: take a face-up card\.$"):
        play(s, 0, "take blind")
    assert snapshot(s) == before
    assert "take blind" not in {G.format_action(a) for a in G.legal_actions(s, 0)}


def test_a_blind_draw_with_nothing_face_up_either_does_not_send_to_a_face_up_card() -> None:
    """With the deck empty and every slot taken (late in the final turns), 'take blind' is
    refused without sending the player to a face-up card that is not there."""
    s = lay(hands=[["red"], []], slots=[None] * 5, deck=[])
    with pytest.raises(IllegalMove) as refused:
        play(s, 0, "take blind")
    assert str(refused.value) == "The train deck is empty and no face-up card can be taken."


def test_finishing_a_draw_from_an_empty_deck_names_only_the_face_up_takes() -> None:
    """Another move in the middle of a draw is told to take a second card, among the takes
    there are: no 'take blind' from an empty deck, no slot just emptied."""
    s = lay(hands=[[], []], deck=[])
    s = play(s, 0, "take 1")
    with pytest.raises(IllegalMove) as refused:
        play(s, 0, "tickets")
    assert str(refused.value) == (
        "Finish your draw first: take a second card ('take 2', 'take 3', 'take 4' or 'take 5')."
    )


def test_a_second_face_up_locomotive_refused_with_an_empty_deck_suggests_no_blind_draw() -> None:
    """A face-up Locomotive cannot be the second card; with the deck empty the refusal names
    the card that can be taken instead, not a blind draw."""
    s = lay(hands=[[], []], slots=["red", "loco", "orange", None, None], deck=[])
    s = play(s, 0, "take 1")
    with pytest.raises(IllegalMove) as refused:
        play(s, 0, "take 2")
    assert str(refused.value).endswith("cannot be your second card: take another ('take 3').")


def test_an_empty_train_deck_leaves_a_taken_face_up_slot_empty() -> None:
    """The refill after a draw stops when the deck runs out: the slot taken stays empty."""
    s = lay(hands=[[], []], deck=["white"])
    s = play(s, 0, "take 1", "take blind")  # the blind draw takes the deck's last card
    assert s.deck == [] and slot_codes(s) == [None, "orange", "yellow", "green", "blue"]
    assert hand_of(s, 0) == {"red": 1, "white": 1}


# --- the three-Locomotive reset (Rulings: Three-Locomotive reset) ---------------------------------


def test_three_locomotives_stay_when_the_deck_cannot_deal_new_ones() -> None:
    """The reset repeats only while the deck has cards: a refill that takes the deck's last card
    and shows a third Locomotive leaves the three face up."""
    s = lay(hands=[[], []], slots=["loco", "loco", "red", "blue", "green"], deck=["loco"])
    s = play(s, 0, "take 3", "take 4")  # slot 3 refills with the last card, a Locomotive
    assert s.deck == [] and slot_codes(s) == ["loco", "loco", "loco", None, "green"]
    assert s.discard == [0] * len(s.discard)


def test_robbing_replacements_are_not_checked_for_three_locomotives() -> None:
    """Solo: two Locomotives dealt in place of robbed face-up cards stay beside a third; only a
    draw's refill or a fresh layout resets the draw area."""
    s = solo(PURPLE_CLOCK, up=["red", "red", "loco", "orange"], draws=["loco", "loco", "green"])
    s = play(s, 0, "yard red red red")  # robs the two face-up red; two Locomotives replace them
    assert s.discard[card("red")] == 2 and s.discard[LOCO] == 0
    assert slot_codes(s) == ["loco", "loco", "loco", "orange"]
    assert "Three Locomotives" not in s.caption


# --- standard Railyard plays (Rulings: Railyard legality) ---------------------------------------


def test_the_draw_area_plays_no_part_in_a_standard_railyard_play() -> None:
    """Only opponents' sets limit a play in the standard game: a Red pair goes down although
    three Red show face up, and those three stay where they are."""
    up = ["red", "red", "red", "blue", "green"]
    s = lay(hands=[["red", "red"], []], slots=up, deck=["white"])
    s = play(s, 0, "yard red red")
    assert yard_of(s, 0) == {"red": (2, 0)}
    assert slot_codes(s) == up and s.discard[card("red")] == 0


# --- the On-the-Track stack (A turn) ----------------------------------------------------------


def test_every_locomotive_of_a_set_goes_on_the_track_before_its_colour_cards() -> None:
    """A set of one Red and two Locomotives sends a Locomotive at each of its owner's next two
    turns, and its Red only at the third."""
    s = lay(hands=[[], []], yards=[{"red": (1, 2)}, {}], deck=["white"] * 4, turn=1)
    tracks = []
    for _ in range(3):
        s = play(s, 1, "tickets", "keep none")  # Bob's turn; then Ann's begins
        tracks.append(list(s.track[0]))
        s = play(s, 0, "tickets", "keep none")
    assert tracks == [counts("loco"), counts("loco", "loco"), counts("loco", "loco", "red")]
    assert yard_of(s, 0) == {}


# --- the scoring allocation (Rulings: Scoring allocation) --------------------------------------


def test_equal_points_prefer_los_angeles_over_dallas() -> None:
    """From 3 Red and 3 Green: T17 Los Angeles – Phoenix (10) or T01 Dallas + T02 Seattle (5 + 5).
    Los Angeles comes before Dallas, so T17 is completed, although the pair touches two cities."""
    track = counts("red", "red", "red", "green", "green", "green")
    assert best_standard(codes("T01", "T02", "T17"), track) == tuple(codes("T17"))


@pytest.mark.parametrize(
    ("preferred", "other"),
    [("T07", "T08"), ("T08", "T06"), ("T12", "T13")],
    ids=["dallas-over-seattle", "seattle-over-miami", "miami-over-no-city"],
)
def test_equal_points_follow_the_big_city_order_to_the_end(preferred: str, other: str) -> None:
    """Two tickets of equal points, room for one: Dallas before Seattle, Seattle before Miami,
    Miami before a ticket touching no Big City."""
    one, two = TICKETS[codes(preferred)[0]], TICKETS[codes(other)[0]]
    assert one.points == two.points and one.cards == two.cards
    track = counts(*["loco"] * one.cards)
    assert best_standard(codes(other, preferred), track) == (one.index,)


def test_a_ticket_touching_two_big_cities_counts_for_both_in_the_allocation() -> None:
    """T39 Miami – Dallas and T40 Boston – Miami are worth 18 and need 9 cards each: both touch
    Miami, and T39 touches Dallas too, which comes first in the order, so T39 is completed."""
    assert TICKETS[codes("T39")[0]].points == TICKETS[codes("T40")[0]].points == 18
    track = counts(*["loco"] * 9)
    assert best_standard(codes("T40", "T39"), track) == tuple(codes("T39"))


def test_big_city_bonuses_are_counted_after_the_allocation_is_chosen() -> None:
    """The standard allocation maximises ticket points, then New York first; the bonuses are
    counted from it. Ann can complete T04 New York – Washington or T03 Chicago – Saint Louis
    (6 each): New York decides, so she completes T04 and loses New York to Bob's two tickets,
    although T03 would have won her Chicago's 14."""
    ann = codes("T03", "T04")
    bob = codes("T10", "T25")  # New York – Montreal, New York – Atlanta
    bob_track = counts(*["blue"] * 5, "purple", "purple", *["orange"] * 3, "red", "red")
    result = score_standard([ann, bob], [counts(*["loco"] * 4), bob_track], [True, True])
    completed = [line.ticket for line in result.seats[0].lines if line.completed]
    assert completed == codes("T04")
    assert result.city_winners[0] == (1,) and result.city_winners[1] == ()
    assert result.seats[0].total == 6 - 6


# --- tickets (Tickets, Solo) ---------------------------------------------------------------------


def test_a_solo_ticket_draw_after_the_setup_keeps_any_number() -> None:
    """The highest-value rule is the opening choice's: a later draw of four keeps any of them,
    none included."""
    s = solo(PURPLE_CLOCK, draws=["green"] * 4)
    s = play(s, 0, "tickets")
    assert s.phase == KEEP and len(s.offered[0]) == 4
    assert len(SOLO.legal_actions(s, 0)) == 16
    kept = list(s.tickets[0])
    s = play(s, 0, "keep none")
    assert s.tickets[0] == kept and s.clock_turn == 2


# --- solo Railyard plays (Solo: Robbing) -------------------------------------------------------


def test_solo_singles_cannot_include_a_colour_showing_face_up() -> None:
    """Each single is a set of one: one card never beats a face-up card of its colour, so three
    singles with one such colour are refused with the reason, and nothing changes."""
    s = solo(PURPLE_CLOCK, up=["red", "orange", "yellow", "black"], draws=["green"] * 4)
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="The draw area shows 1 Red: play more than 1 Red"):
        play(s, 0, "yard red green blue")
    assert snapshot(s) == before
    singles = [a.singles for a in SOLO.legal_actions(s, 0) if a.singles]
    assert singles and all(card("red") not in trio for trio in singles)


# --- solo robbing after the draw (Rulings: Solo robbing) ----------------------------------------


def test_solo_robbing_is_checked_after_the_three_locomotive_reset() -> None:
    """The five dealt after three Locomotives showed bring two Green against your one: your
    Green set is robbed there and then, before the next Station Clock card (Green too) would
    have discarded both face-up Green and left a tie."""
    clock = ["purple", "green", *["purple"] * 9, *["loco"] * 5]
    draws = ["loco", "red", "green", "green", "blue", "orange", "yellow", "white"]
    s = solo(clock, up=["loco", "loco", "black", "white"], draws=draws)
    s.yard_nat[0][card("green")] = 1  # no Green face up: stable
    s = play(s, 0, "take 3", "take 4")  # the refill shows a third Locomotive: reset
    assert "Three Locomotives showed" in s.caption and "rob your Green set" in s.caption
    assert yard_of(s, 0) == {} and s.track[0] == [0] * len(s.track[0])
    assert s.clock_card == card("green") and s.discard[card("green")] == 3


# --- leaving (Rulings: Leaving) ----------------------------------------------------------------


def test_a_leaver_in_the_middle_of_a_draw_has_it_refilled_and_the_next_player_plays() -> None:
    """Ann leaves after her first card: the slot she took is refilled and Bob plays."""
    s = lay(3, hands=[[], [], []], deck=["white", "black"])
    s = play(s, 0, "take 1")
    assert slot_codes(s)[0] is None
    s = G.leave(s, 0)
    assert s.phase == ACT and s.turn == 1
    assert slot_codes(s) == ["white", "orange", "yellow", "green", "blue"]


def test_a_leavers_railyard_and_stack_go_to_the_discard_pile() -> None:
    """With three or more seats, the leaver's hand, Railyard and On-the-Track stack are
    discarded; the others keep theirs."""
    s = lay(3, hands=[[], ["blue"], []], yards=[{}, {"red": (2, 1)}, {"red": (1, 1)}], deck=["red"])
    s.track[1] = counts("green", "loco")
    s = G.leave(s, 1)
    assert s.discard == counts("blue", "red", "red", "loco", "green", "loco")
    assert yard_of(s, 1) == {} and s.track[1] == [0] * len(s.track[1])
    assert yard_of(s, 2) == {"red": (1, 1)}


def test_a_leavers_tickets_go_under_the_ticket_deck() -> None:
    """The leaver's tickets are put under the ticket deck; the deck's order above them stays."""
    s = lay(3, hands=[[], [], []], deck=["red"])
    s.tickets[1] = codes("T20", "T31")
    s.ticket_deck = codes("T01", "T02")
    s = G.leave(s, 1)
    assert s.ticket_deck == codes("T01", "T02", "T20", "T31") and s.tickets[1] == []


# --- the solo result (Solo: The end) -----------------------------------------------------------


def test_giving_up_solo_tells_the_score_as_it_stood_and_names_no_winner() -> None:
    """Giving up is a loss, even ahead; its reason gives both totals as they stood. It has no "The
    hidden tickets win." verdict, so the result line reads the plain "Game over."."""
    s = solo(PURPLE_CLOCK)
    s.tickets[0] = codes("T01")
    s.hidden_tickets = codes("T02")  # Seattle – Portland: 5, plus Seattle 11
    s.track[0] = counts("red", "red", "red")  # T01 complete: 5, plus Dallas 12
    s = SOLO.leave(s, 0)
    outcome = SOLO.outcome(s)
    assert outcome is not None and outcome.winners == () and outcome.loss_verdict == ""
    assert outcome.reason == "You gave up. The score stood at 17 to 16."


def test_solo_leaderboards_rank_wins_then_score_then_margin() -> None:
    """The best-results board orders runs by a win first, then the score, then the margin over
    the hidden tickets, which every finished run reports."""
    assert SOLO.info.ranking.keys == ("won", "score", "margin")
    s = solo(PURPLE_CLOCK)
    for _ in range(16):
        s = play(s, 0, "tickets", "keep none")
    outcome = SOLO.outcome(s)
    assert outcome is not None and s.result is not None
    assert outcome.seat_details[0]["margin"] == s.result.margin

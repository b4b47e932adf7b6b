"""Ticket to Ride Solo: the Station Clock, robbing both ways, the sixteen turns, the setup keep."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from bot.engine.core import IllegalMove, NotationError
from bot.engine.ttr.cards import LOCO, TICKETS
from bot.engine.ttr.state import ACT, OVER, PICK2, SETUP, TtrState
from tests.engine.ttr_helpers import SOLO, card, counts, hand_of, play, slot_codes, yard_of

HAND = ["red", "red", "red", "blue", "blue", "green", "white"]
# Tickets: T29 (14) is the highest-value of the six offered; T01–T06 hidden for the opponent.
OFFER = ["T29", "T07", "T08", "T09", "T10", "T11"]
HIDDEN = ["T01", "T02", "T03", "T04", "T05", "T06"]


def solo(
    clock: Sequence[str],
    up: Sequence[str] = ("orange", "yellow", "black", "white"),
    draws: Sequence[str] = (),
    hand: Sequence[str] = HAND,
    keep: str | None = "keep T29",
) -> TtrState:
    """A solo deal: ``hand`` (seven), the Station Clock deck (``clock``, sixteen, turn 1's card
    first), four face up, then the train deck; the opening keep is made unless ``keep`` is None."""
    assert len(clock) == 16 and len(up) == 4
    deck = [*hand, *clock, *up, *draws, *OFFER, *HIDDEN]
    state = SOLO.new_game(["Ann"], 1, deck=deck)
    return play(state, 0, keep) if keep else state


PURPLE_CLOCK = ["purple"] * 10 + ["loco"] * 6


def snapshot(state: TtrState) -> str:
    return json.dumps(SOLO.to_dict(state), sort_keys=True)


# --- setup --------------------------------------------------------------------------------------


def test_solo_setup_deals_clock_deck_draw_area_and_hidden_tickets() -> None:
    """Seven cards and a Locomotive, four face up plus the first Station Clock card, six hidden."""
    s = solo(PURPLE_CLOCK, keep=None)
    assert s.phase == SETUP and hand_of(s, 0) == {
        "red": 3,
        "blue": 2,
        "green": 1,
        "white": 1,
        "loco": 1,
    }
    assert slot_codes(s) == ["orange", "yellow", "black", "white"]
    assert s.clock_card == card("purple") and len(s.clock_deck) == 15
    assert sorted(s.hidden_tickets) == [0, 1, 2, 3, 4, 5]
    assert s.clock_turn == 1


def test_solo_must_keep_the_highest_value_ticket() -> None:
    """Keeping others without the highest-value ticket is refused; keeping it alone is fine."""
    s = solo(PURPLE_CLOCK, keep=None)
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="highest-value ticket: T29"):
        play(s, 0, "keep T07 T08")
    assert snapshot(s) == before
    assert all(28 in a.tickets for a in SOLO.legal_actions(s, 0))
    assert len(SOLO.legal_actions(s, 0)) == 2**5  # T29 with any of the other five offered
    s = play(s, 0, "keep T29")
    assert s.phase == ACT and s.tickets[0] == [28]


def test_solo_highest_value_tie_lets_either_be_kept() -> None:
    """Two tickets sharing the highest value: keeping either one satisfies the rule."""
    deck = [*HAND, *PURPLE_CLOCK, "orange", "yellow", "black", "white"]
    tickets = ["T43", "T44", "T01", "T02", "T03", "T04", "T05", "T06", "T07", "T08", "T09"]
    s = SOLO.new_game(["Ann"], 1, deck=[*deck, *tickets])
    assert TICKETS[42].points == TICKETS[43].points == 20
    play(s, 0, "keep T44")
    play(s, 0, "keep T43 T01")


def test_solo_setup_tickets_left_out_are_shuffled_back_but_the_hidden_six_stay_apart() -> None:
    """The five tickets not kept at the solo setup rejoin the ticket deck shuffled, as in the
    standard game; the opponent's six hidden tickets never join it."""
    dealt = solo(PURPLE_CLOCK, keep=None)
    s = play(dealt, 0, "keep T29")
    returned = [TICKETS.index(t) for t in TICKETS if t.code in OFFER[1:]]
    underneath = [*dealt.ticket_deck, *returned]
    assert sorted(s.ticket_deck) == sorted(underneath) and s.ticket_deck != underneath
    assert not set(s.hidden_tickets) & set(s.ticket_deck)
    assert len(s.ticket_deck) == 46 - 12 + 5


# --- the Station Clock ---------------------------------------------------------------------


def test_station_clock_colour_match_discards_every_matching_face_up_card() -> None:
    """A clock card matching face-up cards discards them all; they are replaced from the deck."""
    clock = ["purple", "yellow", *["purple"] * 8, *["loco"] * 6]
    s = solo(clock, up=["yellow", "orange", "yellow", "black"], draws=["white", "red"] * 2)
    s = play(s, 0, "take blind", "take blind")  # turn 2: the clock turns up yellow
    assert s.clock_card == card("yellow") and s.clock_turn == 2
    assert slot_codes(s) == ["white", "orange", "red", "black"]
    assert s.discard[card("yellow")] == 2 and s.discard[card("purple")] == 1


def test_a_station_clock_match_of_one_card_says_it_is_discarded() -> None:
    """The Station Clock turns up Yellow beside one face-up Yellow. Before the fix the caption
    read "matching 1 face-up Yellow: they are discarded"."""
    clock = ["purple", "yellow", *["purple"] * 8, *["loco"] * 6]
    s = solo(clock, up=["yellow", "orange", "red", "black"], draws=["white", "red"] * 2)
    s = play(s, 0, "take blind", "take blind")
    assert "matching 1 face-up Yellow: it is discarded." in s.caption, s.caption


def test_station_clock_replacements_never_cascade() -> None:
    """A replacement of the matched colour stays: only the clock card itself triggers."""
    clock = ["purple", "yellow", *["purple"] * 8, *["loco"] * 6]
    s = solo(
        clock, up=["yellow", "orange", "red", "black"], draws=["white", "red", "yellow", "black"]
    )
    s = play(s, 0, "take blind", "take blind")
    assert slot_codes(s)[0] == "yellow" and s.clock_card == card("yellow")
    assert s.discard[card("yellow")] == 1


def test_a_station_clock_locomotive_sweeps_the_other_locomotives() -> None:
    """A clock Locomotive removes every other face-up Locomotive (replaced from the deck)."""
    clock = ["purple", "loco", *["purple"] * 8, *["loco"] * 6]
    s = solo(clock, up=["loco", "orange", "loco", "black"], draws=["white", "red", "blue", "blue"])
    assert slot_codes(s) == ["loco", "orange", "loco", "black"]
    s = play(s, 0, "take blind", "take blind")
    assert s.clock_card == LOCO and slot_codes(s) == ["blue", "orange", "blue", "black"]
    assert s.discard[LOCO] == 2


def test_an_untaken_station_clock_card_is_discarded_when_the_next_turns_up() -> None:
    """Only one Station Clock card shows: the old one goes to the discard pile."""
    s = solo(PURPLE_CLOCK, draws=["white", "red", "white", "red"])
    s = play(s, 0, "take blind", "take blind")
    assert s.clock_card == card("purple") and s.discard[card("purple")] == 1


def test_the_station_clock_card_can_be_taken_and_is_not_replaced() -> None:
    """'take clock' takes it; its place stays empty until the next turn."""
    s = solo(PURPLE_CLOCK, draws=["white", "red", "white", "red"])
    s = play(s, 0, "take clock")
    assert s.phase == PICK2 and s.clock_card == -1 and hand_of(s, 0)["purple"] == 1
    s = play(s, 0, "take blind")
    assert s.clock_card == card("purple") and s.clock_turn == 2


RED_SECOND_CLOCK = ["purple", "red", *["purple"] * 8, *["loco"] * 6]
"""Turn 2's Station Clock card is Red: a Red set of three in the Railyard robs it."""


def _clock_robbed() -> TtrState:
    """Turn 2, its Red Station Clock card robbed by the Red set played on turn 1."""
    s = solo(RED_SECOND_CLOCK, draws=["green"] * 6)
    s = play(s, 0, "yard red red red")
    assert s.clock_turn == 2 and s.clock_card == -1 and "rob the draw area's 1 Red" in s.caption
    return s


def test_a_robbed_station_clock_card_is_refused_as_robbed_not_taken() -> None:
    """'take clock' after your Railyard robbed the Station Clock card says it was robbed
    (it said the card had already been taken, though nobody had drawn it)."""
    s = _clock_robbed()
    before = snapshot(s)
    with pytest.raises(IllegalMove) as refused:
        play(s, 0, "take clock")
    said = str(refused.value)
    assert said == "The Station Clock card is gone this turn: your Railyard robbed it."
    assert snapshot(s) == before


def test_a_card_not_face_up_offers_no_take_clock_once_the_clock_card_is_gone() -> None:
    """Naming a card that is not face up lists the takes there are: no 'take clock' when no
    Station Clock card shows."""
    s = _clock_robbed()
    with pytest.raises(NotationError) as refused:
        SOLO.parse_for(s, 0, "take red")
    assert str(refused.value).endswith(": 'take 1' to 'take 4' or 'take blind'.")


def test_the_clock_deck_refusal_offers_no_take_clock_once_the_clock_card_is_gone() -> None:
    """Asking for the Station Clock deck is refused; 'take clock' is suggested only while a
    Station Clock card shows."""
    s = _clock_robbed()
    with pytest.raises(IllegalMove) as refused:
        play(s, 0, "take clock deck")
    assert str(refused.value) == (
        "The Station Clock deck is never drawn from: it turns up one card at the start of each "
        "turn."
    )


def test_a_station_clock_locomotive_cannot_be_the_second_card() -> None:
    """The clock card is a face-up card: as a Locomotive it counts as both draws."""
    clock = ["loco", *["purple"] * 10, *["loco"] * 5]
    s = solo(clock, draws=["white", "red", "white", "red"])
    s = play(s, 0, "take 1")
    with pytest.raises(IllegalMove, match="counts as both"):
        play(s, 0, "take clock")


def test_drawing_from_the_station_clock_deck_is_refused() -> None:
    """The Station Clock deck only turns over at the start of a turn."""
    s = solo(PURPLE_CLOCK, draws=["white", "red"])
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="Station Clock deck is never drawn from"):
        play(s, 0, "take clock deck")
    assert snapshot(s) == before


def test_the_solo_game_lasts_sixteen_turns() -> None:
    """The game ends after the action of the turn that turned up the sixteenth clock card."""
    s = solo(PURPLE_CLOCK)
    for turn in range(1, 17):
        assert s.clock_turn == turn and s.phase == ACT
        s = play(s, 0, "tickets", "keep none")
    assert s.phase == OVER and s.clock_deck == []
    assert "turn 16 is over" in s.end_reason


# --- robbing ------------------------------------------------------------------------------------


def test_solo_railyard_play_must_beat_the_face_up_cards_of_its_colour() -> None:
    """A colour showing face up can only be played with more cards than show (ties refused)."""
    s = solo(PURPLE_CLOCK, up=["red", "red", "black", "white"], draws=["green"] * 6)
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="draw area shows 2 Red"):
        play(s, 0, "yard red red")
    assert snapshot(s) == before


def test_you_rob_the_game_when_you_play_more_than_show() -> None:
    """Three red against two face-up red: those two are discarded and replaced."""
    s = solo(PURPLE_CLOCK, up=["red", "red", "black", "orange"], draws=["green", "yellow", "white"])
    s = play(s, 0, "yard red red red")
    assert s.discard[card("red")] == 2
    assert slot_codes(s) == ["green", "yellow", "black", "orange"]
    # The next turn has begun: one red has gone on the track.
    assert yard_of(s, 0) == {"red": (2, 0)} and s.track[0] == counts("red")
    assert "Your Railyard sends 1 card to your On-the-Track stack." in s.caption


def test_the_game_robs_you_when_more_show_than_you_have() -> None:
    """Your set shrinking below the face-up count of its colour gets it robbed."""
    s = solo(PURPLE_CLOCK, up=["red", "red", "black", "orange"], draws=["green", "yellow"])
    s.yard_nat[0][card("red")] = 2  # a tie with the two face-up red: stable
    s = play(s, 0, "take blind", "take blind")
    # Turn 2: one red goes on the track, leaving one against two face up: robbed.
    assert yard_of(s, 0) == {} and s.track[0] == counts("red")
    assert s.discard[card("red")] == 1
    assert "rob your Red set" in s.caption


def test_two_sets_robbed_at_once_are_told_in_one_sentence() -> None:
    """The draw area robbing two of your sets in one change reads as one sentence naming both,
    not the same sentence twice."""
    s = solo(PURPLE_CLOCK, up=["red", "red", "blue", "blue"], draws=["green", "yellow"])
    s.yard_nat[0][card("red")] = 2  # ties with the face-up pairs: stable
    s.yard_nat[0][card("blue")] = 2
    s = play(s, 0, "take blind", "take blind")
    # Turn 2: one card of each set goes on the track, leaving one against two face up.
    assert yard_of(s, 0) == {} and s.discard[card("red")] == s.discard[card("blue")] == 1
    assert s.caption.count("The draw area") == 1, s.caption
    assert (
        "The draw area's 2 Red rob your Red set (1 card discarded) and its 2 Blue your Blue "
        "set (1 card discarded)."
    ) in s.caption


def test_a_cascade_of_robberies_of_your_sets_is_one_sentence() -> None:
    """Your play robs the draw area, and the cards dealt in its place rob two of your sets:
    those two robberies are one sentence, after the one saying what you robbed."""
    s = solo(
        PURPLE_CLOCK,
        up=["red", "red", "black", "orange"],
        draws=["green", "blue"],
        hand=["red", "red", "red", "white", "white", "yellow", "yellow"],
    )
    s.yard_nat[0][card("green")] = 1
    s.yard_nat[0][card("blue")] = 1
    s.slots[2] = card("green")  # a tie with your one green: stable until the refill
    s.slots[3] = card("blue")
    s = play(s, 0, "yard red red red")
    assert s.caption.count("The draw area") == 1, s.caption
    assert "Your 3 Red rob the draw area's 2 Red." in s.caption
    assert (
        "The draw area's 2 Green rob your Green set (1 card discarded) and its 2 Blue your "
        "Blue set (1 card discarded)."
    ) in s.caption


def test_several_of_your_sets_robbing_the_draw_area_are_told_in_one_sentence() -> None:
    """Your play robs the draw area, and your Green and Blue sets rob the cards dealt in its
    place: one sentence naming all three robberies, not "Your 2 Green rob…" and "Your 2 Blue
    rob…" after it as sentences of their own."""
    s = solo(
        PURPLE_CLOCK,
        up=["red", "red", "black", "orange"],
        draws=["blue", "green", "yellow", "white"],
        hand=["red", "red", "red", "white", "white", "yellow", "yellow"],
    )
    s.yard_nat[0][card("blue")] = 2  # neither shows face up: stable until the refill
    s.yard_nat[0][card("green")] = 2
    s = play(s, 0, "yard red red red")
    assert s.discard[card("red")] == 2
    assert s.discard[card("blue")] == s.discard[card("green")] == 1
    assert slot_codes(s) == ["white", "yellow", "black", "orange"]  # green is checked first
    assert s.caption.count("rob the draw area") == 1, s.caption
    assert (
        "Your 3 Red rob the draw area's 2 Red, your 2 Green its 1 Green and your 2 Blue its 1 Blue."
    ) in s.caption


def test_a_set_robbing_again_on_the_refill_is_told_in_brackets_among_others() -> None:
    """Your Red robs the draw area twice (the refill shows Red again) and your Blue robs it
    too: the second Red robbery stays with the first, in brackets, in the one sentence."""
    from bot.engine.ttr.station_clock import settle

    s = solo(PURPLE_CLOCK, up=["red", "blue", "black", "orange"], draws=["red", "yellow", "white"])
    s.yard_nat[0][card("red")] = 2  # both outnumber the face-up cards of their colour
    s.yard_nat[0][card("blue")] = 2
    assert settle(s) == [
        "Your 2 Red rob the draw area's 1 Red (then 1 more as it was refilled) and your 2 Blue "
        "its 1 Blue."
    ]
    assert slot_codes(s) == ["yellow", "white", "black", "orange"]


def test_a_single_set_robbing_again_as_the_draw_area_is_refilled_reads_as_before() -> None:
    """One set robbing twice keeps its sentence: "…, then 1 more as it was refilled."."""
    from bot.engine.ttr.station_clock import settle

    s = solo(PURPLE_CLOCK, up=["red", "green", "black", "orange"], draws=["red", "yellow"])
    s.yard_nat[0][card("red")] = 2
    assert settle(s) == ["Your 2 Red rob the draw area's 1 Red, then 1 more as it was refilled."]


def test_robbing_repeats_until_stable_both_ways() -> None:
    """Your play robs the game, a replacement is robbed by your set, the next one robs you."""
    hand = ["red", "red", "red", "white", "white", "yellow", "yellow"]
    s = solo(
        PURPLE_CLOCK,
        up=["red", "red", "black", "orange"],
        draws=["green", "blue", "green"],
        hand=hand,
    )
    s.yard_nat[0][card("green")] = 1
    s.yard_nat[0][card("blue")] = 3
    s = play(s, 0, "yard red red red")
    # Red robs the two face-up red (replaced by green, blue); blue 3 > 1 robs that blue
    # (replaced by green); then two face-up green > your one green: your green is robbed.
    assert s.discard[card("red")] == 2 and s.discard[card("blue")] == 1
    assert s.discard[card("green")] == 1
    assert slot_codes(s) == ["green", "green", "black", "orange"]
    assert yard_of(s, 0) == {"red": (2, 0), "blue": (2, 0)}


def test_ties_never_rob_in_solo() -> None:
    """Equal counts face up and in your Railyard leave both alone."""
    s = solo(PURPLE_CLOCK, up=["red", "red", "black", "orange"], draws=["green"] * 4)
    s.yard_nat[0][card("red")] = 2
    from bot.engine.ttr.station_clock import settle

    assert settle(s) == [] and yard_of(s, 0) == {"red": (2, 0)}
    assert slot_codes(s)[:2] == ["red", "red"]


def test_taking_a_card_can_let_your_set_rob_the_rest() -> None:
    """Robbing is checked after every change to the draw area, a taken card included."""
    s = solo(PURPLE_CLOCK, up=["red", "red", "black", "orange"], draws=["green", "blue", "white"])
    s.yard_nat[0][card("red")] = 2
    s = play(s, 0, "take 1")  # one red left face up against your two: you rob it
    assert slot_codes(s)[1] == "green" and slot_codes(s)[0] is None
    assert s.discard[card("red")] == 1


def test_the_refill_ending_a_draw_can_rob_you_at_once() -> None:
    """The refill after a draw is a change to the draw area: a second face-up green robs your
    one green there and then, before the next Station Clock card (green too) would have
    discarded both face-up greens and left a tie."""
    clock = ["purple", "green", *["purple"] * 9, *["loco"] * 5]
    s = solo(clock, up=["red", "green", "black", "white"], draws=["blue", "green", "orange"] * 2)
    s.yard_nat[0][card("green")] = 1  # a tie with the face-up green: stable
    s = play(s, 0, "take 1", "take blind")  # slot 1 refills with a green
    assert "rob your Green set" in s.caption
    assert yard_of(s, 0) == {} and s.track[0] == [0] * len(s.track[0])
    assert s.discard[card("green")] == 3  # your set, then the two face-up greens


def test_a_railyard_play_robs_the_draw_area_at_once_even_on_the_last_turn() -> None:
    """Robbing follows each of your plays: three red on turn 16 rob the two face-up red
    although no Station Clock card turns up after it."""
    s = solo(PURPLE_CLOCK, up=["red", "red", "black", "orange"], draws=["green", "yellow"])
    for _ in range(15):
        s = play(s, 0, "tickets", "keep none")
    assert s.clock_turn == 16 and slot_codes(s)[:2] == ["red", "red"]
    s = play(s, 0, "yard red red red")
    assert s.phase == OVER and s.discard[card("red")] == 2
    assert slot_codes(s) == ["green", "yellow", "black", "orange"]


def test_solo_scoring_decides_the_win_strictly() -> None:
    """Equal totals lose: the win needs a strictly higher total than the hidden opponent."""
    from bot.engine.ttr.scoring import score_solo

    hidden = [0]  # T01 Dallas – Houston: 5, plus Dallas 12 = 17 for the opponent
    mine = [1]  # T02 Seattle – Portland: 5, plus Seattle 11 = 16
    assert score_solo(mine, counts("green", "green", "green"), hidden).won is False
    stack = counts("green", "green", "green", "black", "black", "white", "white")
    mine_more = score_solo([1, 2], stack, hidden)
    assert mine_more.won is True and mine_more.margin > 0
    tie = score_solo([0], counts("red", "red", "red"), [0])  # 5 + 12 each: tie
    assert tie.margin == 0 and tie.won is False


@pytest.mark.parametrize("won", [True, False])
def test_the_end_gives_both_totals_and_leaves_the_verdict_to_the_result_line(won: bool) -> None:
    """The reason ends with both totals, never a verdict: the result line says "🏆 You won!"
    and the image "You beat the hidden tickets!" (or "The hidden tickets win."), and the reason
    said "You win, 33 to 17." after them."""
    from bot.engine.ttr.ending import finish

    s = solo(PURPLE_CLOCK)
    s.hidden_tickets = [0]  # T01 Dallas – Houston: 5, plus Dallas 12 = 17
    s.tickets[0] = [1, 2] if won else [1]
    stack = ("green", "green", "green", "black", "black", "white", "white")
    s.track[0] = counts(*stack) if won else counts("green", "green", "green")
    finish(s, "The last Station Clock card has been played: turn 16 is over.")
    assert s.result is not None and s.result.won is won and s.winners == ((0,) if won else ())
    me, hidden = s.result.seats[0].total, 17
    assert s.end_reason == (
        "The last Station Clock card has been played: turn 16 is over. "
        f"You scored {me}, the hidden tickets {hidden}."
    )


# --- audit: the clock card's colour, Locomotives, an empty deck --------------------------------

YELLOW_CLOCK = ["yellow", *["black"] * 9, *["loco"] * 6]


def test_the_setup_station_clock_card_is_turn_one_and_matches_the_draw_area() -> None:
    """The Station Clock card turned up at setup applies its colour match at once."""
    clock = ["orange", *["purple"] * 9, *["loco"] * 6]
    s = solo(clock, up=["orange", "yellow", "orange", "white"], draws=["red", "green"], keep=None)
    assert s.clock_card == card("orange") and s.clock_turn == 1
    assert slot_codes(s) == ["red", "yellow", "green", "white"]
    assert s.discard[card("orange")] == 2


def test_the_station_clock_card_counts_for_its_colour() -> None:
    """A face-up yellow (a replacement) and a yellow Station Clock card make two: a pair ties."""
    hand = ["yellow", "yellow", "yellow", "red", "red", "blue", "green"]
    s = solo(YELLOW_CLOCK, up=["yellow", "orange", "green", "white"], draws=["yellow"], hand=hand)
    assert slot_codes(s)[0] == "yellow" and s.clock_card == card("yellow")
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="draw area shows 2 Yellow"):
        play(s, 0, "yard yellow yellow")
    assert snapshot(s) == before
    assert "yard yellow yellow yellow" in {SOLO.format_action(a) for a in SOLO.legal_actions(s, 0)}


def test_a_robbed_station_clock_card_is_discarded_and_not_replaced() -> None:
    """Your larger set robs the Station Clock card too; only the slots are refilled."""
    from bot.engine.ttr.station_clock import settle

    s = solo(YELLOW_CLOCK, up=["yellow", "orange", "green", "white"], draws=["yellow", "red"])
    s.yard_nat[0][card("yellow")] = 3
    settle(s)
    assert s.clock_card == -1 and slot_codes(s) == ["red", "orange", "green", "white"]
    assert s.discard[card("yellow")] == 3 and yard_of(s, 0) == {"yellow": (3, 0)}


def test_face_up_locomotives_count_for_no_colour_in_robbing() -> None:
    """Your Locomotive counts as its set's colour; face-up Locomotives count for none."""
    s = solo(PURPLE_CLOCK, up=["loco", "loco", "red", "orange"], draws=["green", "blue"])
    assert "yard red loco" in {SOLO.format_action(a) for a in SOLO.legal_actions(s, 0)}
    s = play(s, 0, "yard red loco")  # two against the one face-up red: it is robbed
    assert s.discard[card("red")] == 1
    assert slot_codes(s) == ["loco", "loco", "green", "orange"]
    # Turn 2: the Locomotive went on the track; one red is left, two face-up Locomotives
    # do not rob it.
    assert yard_of(s, 0) == {"red": (1, 0)} and s.track[0] == counts("loco")


def test_three_locomotives_counting_the_station_clock_card_reset_the_draw_area() -> None:
    """A Station Clock Locomotive and two refilled ones make three: the draw area is dealt
    again after the draw."""
    clock = ["loco", *["purple"] * 9, *["loco"] * 6]
    draws = ["loco", "loco", "red", "green", "blue", "red"]
    s = solo(clock, draws=draws)
    assert s.clock_card == LOCO
    s = play(s, 0, "take 1", "take 2")  # the refill shows loco, loco, black, white
    assert "Three Locomotives showed" in s.caption
    assert slot_codes(s) == ["red", "green", "blue", "red"]
    assert s.discard[card("black")] == 1 and s.discard[card("white")] == 1


def test_the_station_clock_card_stays_through_a_locomotive_reset() -> None:
    """The reset replaces the four other face-up cards; the Station Clock card stays."""
    from bot.engine.ttr.table import locomotive_reset

    s = solo(["loco", *["purple"] * 10, *["loco"] * 5], draws=["green"] * 4)
    s.slots = [LOCO, LOCO, card("black"), card("white")]
    s.deck = [card("blue")] * 4
    assert locomotive_reset(s)
    assert s.clock_card == LOCO and slot_codes(s) == ["blue"] * 4
    assert s.discard[LOCO] == 2


def test_a_station_clock_locomotive_taken_first_is_the_whole_draw() -> None:
    """The Station Clock card is face up: as a Locomotive it counts as both draws."""
    s = solo(["loco", *["purple"] * 10, *["loco"] * 5], draws=["red"] * 4)
    s = play(s, 0, "take clock")
    assert hand_of(s, 0)["loco"] == 2 and s.clock_turn == 2 and s.phase == ACT


def test_solo_play_goes_on_after_the_train_deck_runs_out() -> None:
    """Only the Station Clock times the solo game: an empty train deck ends nothing."""
    s = solo(PURPLE_CLOCK, draws=["red"])
    s.deck = [card("red")]
    s = play(s, 0, "take blind", "take 1")  # the deck is empty: slot 1 stays empty
    assert s.phase == ACT and s.clock_turn == 2 and s.deck == []
    assert slot_codes(s)[0] is None
    assert "take blind" not in {SOLO.format_action(a) for a in SOLO.legal_actions(s, 0)}
    for _ in range(15):
        s = play(s, 0, "tickets", "keep none")
    assert s.phase == OVER and s.clock_turn == 16


def test_robbing_is_checked_as_soon_as_the_station_clock_card_turns_up() -> None:
    """Your two black rob a lone black Station Clock card before your set feeds the track."""
    clock = ["purple", "black", *["purple"] * 9, *["loco"] * 5]
    s = solo(clock, up=["orange", "yellow", "green", "white"], draws=["red", "red"])
    s.yard_nat[0][card("black")] = 2
    s = play(s, 0, "take blind", "take blind")
    assert s.clock_turn == 2 and s.clock_card == -1
    assert s.discard[card("black")] == 1
    assert yard_of(s, 0) == {"black": (1, 0)} and s.track[0] == counts("black")


def test_a_solo_second_draw_refusal_names_the_solo_choices() -> None:
    """Mid-draw, another move is refused with the slots still showing a card and the clock
    card; nothing moves."""
    s = solo(PURPLE_CLOCK, draws=["red", "red"])
    s = play(s, 0, "take 1")
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="'take 2', 'take 3', 'take 4', 'take clock' or 'take bl"):
        play(s, 0, "tickets")
    assert snapshot(s) == before


def test_station_clock_replacements_are_not_checked_for_three_locomotives() -> None:
    """Two Locomotives replacing swept ones stay beside a Station Clock Locomotive: only a draw's
    refill or a fresh layout resets the draw area."""
    clock = ["purple", "loco", *["purple"] * 9, *["loco"] * 5]
    draws = ["red", "red", "loco", "loco", "green"]
    s = solo(clock, up=["loco", "loco", "black", "white"], draws=draws)
    s = play(s, 0, "take blind", "take blind")
    assert s.clock_turn == 2 and s.clock_card == LOCO
    assert slot_codes(s) == ["loco", "loco", "black", "white"]
    assert s.discard[LOCO] == 2


# --- captions: the solo game speaks to its player ------------------------------------------------


def test_solo_captions_speak_to_the_player_as_mille_bornes_solo_does() -> None:
    """Every solo caption says "you", as Mille Bornes Solo's do ("You sacrifice…", "Your Railyard
    sends…", "You keep 1 ticket"); the player's own moves were told in the third person by name
    ("Ann takes orange from slot 1"), one game speaking of its player two ways."""
    s = solo(PURPLE_CLOCK, up=["orange", "loco", "black", "white"], draws=["green"] * 8)
    said = []
    for move in ("take 1", "take blind", "take clock", "take 3", "take 2", "yard red red red"):
        s = play(s, 0, move)
        said.append(s.caption)
    s = play(s, 0, "tickets")
    said.append(s.caption)
    s = play(s, 0, "keep none")
    said.append(s.caption)
    assert said[0].startswith("You take Orange from slot 1 and now take a second card."), said
    assert said[1].startswith("You then draw blind."), said
    assert said[2].startswith("You take the Station Clock card (Purple) and now take"), said
    assert said[3].startswith("You then take Black from slot 3."), said
    # As the button says it ("Take the Locomotive from slot 2"): "You take Locomotive" before.
    assert said[4].startswith("You take the Locomotive from slot 2: a face-up Locomotive"), said
    assert said[5].startswith("You play 3 Red to the Railyard."), said
    assert said[6] == "You draw 4 tickets and choose which to keep.", said
    assert said[7].startswith("You keep 0 of 4 tickets."), said
    assert not [c for c in said if "Ann" in c], said


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_solo_caption_names_the_player(seed: int) -> None:
    """A whole solo game played at random: no caption calls the player by name."""
    import random

    rng = random.Random(seed)
    s = SOLO.new_game(["Ann"], seed)
    while s.phase != OVER:
        s = SOLO.apply(s, 0, rng.choice(SOLO.legal_actions(s, 0)))
        assert "Ann" not in s.caption, s.caption

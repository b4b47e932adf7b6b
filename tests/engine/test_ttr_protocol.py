"""The engine protocol for Ticket to Ride: notation, saves, views and hidden cards, leaving,
outcomes, and the conformance playouts for every seat count and the solo game."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from bot.engine.core import BadOption, CorruptSave, GameError, IllegalMove, NotationError
from bot.engine.ttr.cards import CARD_NAMES, COLOURS, set_words
from bot.engine.ttr.state import BLIND, CLOCK, OVER, Action, TtrState
from bot.engine.ttr.views import robbed_by
from bot.games import get_game
from tests.conformance.engine_checks import check_playout
from tests.engine.ttr_helpers import SOLO, G, card, counts, keep_first, lay, play


def _random_to_end(seed: int, seats: int) -> TtrState:
    rng = random.Random(seed)
    game = SOLO if seats == 1 else G
    state = game.new_game([f"P{i}" for i in range(seats)], seed)
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return state


# --- registry and options ------------------------------------------------------------------------


def test_both_games_are_registered_with_their_info() -> None:
    """'ttr' seats two to four and is rated; 'ttr-solo' is a daily solitaire ranked by score."""
    assert get_game("ttr") is G and get_game("TTR-Solo") is SOLO
    assert (G.info.min_players, G.info.max_players, G.info.ranking.kind) == (2, 4, "rating")
    assert SOLO.info.daily_deal and SOLO.info.private_hands
    assert SOLO.info.ranking.kind == "best" and SOLO.info.ranking.keys[0] == "won"


def test_player_counts_are_checked() -> None:
    """The standard game refuses one or five players; solo refuses two."""
    with pytest.raises(BadOption, match="2 to 4"):
        G.new_game(["A"], 1)
    with pytest.raises(BadOption, match="2 to 4"):
        G.new_game(list("ABCDE"), 1)
    with pytest.raises(BadOption, match="exactly 1"):
        SOLO.new_game(["A", "B"], 1)


def test_a_stacked_deck_cannot_hold_more_cards_than_exist() -> None:
    """Eleven reds, or an unknown code, are refused."""
    with pytest.raises(BadOption, match="11 × Red"):
        G.new_game(["A", "B"], 1, deck=["red"] * 11)
    with pytest.raises(BadOption, match="not a card or ticket"):
        G.new_game(["A", "B"], 1, deck=["unicorn"])


def test_the_same_seed_deals_the_same_game() -> None:
    """Chance lives in the seed: two deals from one seed are equal, another seed's differ."""

    def dealt(seed: int) -> dict[str, object]:
        # Without the seed itself, which the save holds and which differs whatever the deal.
        return {k: v for k, v in G.to_dict(G.new_game(["A", "B"], seed)).items() if k != "seed"}

    assert dealt(7) == dealt(7)
    assert dealt(7) != dealt(8)


# --- notation -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("take 3", "take 3"),
        ("T 3", "take 3"),
        ("3", "take 3"),
        ("draw slot 5", "take 5"),
        ("take blind", "take blind"),
        ("blind", "take blind"),
        ("take deck", "take blind"),
        ("take clock", "take clock"),
        ("clock", "take clock"),
        ("yard red red loco", "yard red red loco"),
        ("yard 2 red loco", "yard red red loco"),
        ("Yard R R L", "yard red red loco"),
        ("yard rrl", "yard red red loco"),
        ("play 2red wild", "yard red red loco"),
        ("red, red + locomotive", "yard red red loco"),
        ("yard pink pink", "yard purple purple"),
        ("yard blue red green", "yard red green blue"),
        ("tickets", "tickets"),
        ("draw tickets", "tickets"),
        ("keep t4 17", "keep T04 T17"),
        ("keep T17 T04 T04", "keep T04 T17"),
        ("keep none", "keep none"),
        ("pass", "pass"),
        ("take clock deck", "take clock deck"),
        # "and" as "&" already was; before the fix "There is no ticket 'and'".
        ("keep T04 and T17", "keep T04 T17"),
        ("yard red, red and loco", "yard red red loco"),
    ],
)
def test_forgiving_parse_and_canonical_format(text: str, canonical: str) -> None:
    """Notation reads loosely and prints one canonical form."""
    assert G.format_action(G.parse_action(text)) == canonical


def test_a_count_of_zero_adds_no_card() -> None:
    """ "yard 2 white 0 loco" plays two White and no Locomotive. Before the fix a 0 read as no
    count at all, so the move played one Locomotive the player had just said not to play."""
    assert G.format_action(G.parse_action("yard 2 white 0 loco")) == "yard white white"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "take",
        "take 9",
        "take 0",
        "keep",
        "keep T99",
        "yard",
        "yard red blue",
        "fly away",
        "x" * 300,
    ],
)
def test_bad_notation_is_a_readable_error(text: str) -> None:
    """Garbage raises NotationError with a short sentence (never the whole input)."""
    with pytest.raises(NotationError) as error:
        G.parse_action(text)
    assert len(str(error.value)) < 200


def test_every_action_kind_round_trips() -> None:
    """parse(format(a)) == a for every kind of action."""
    actions = [
        Action("take", slot=BLIND),
        Action("take", slot=CLOCK),
        Action("take", slot=4),
        Action("yard", colour=6, naturals=3, locos=2),
        Action("yard", singles=(0, 3, 7)),
        Action("tickets"),
        Action("keep", tickets=()),
        Action("keep", tickets=(3, 45)),
        Action("pass"),
        Action("clockdeck"),
    ]
    for action in actions:
        assert G.parse_action(G.format_action(action)) == action


def test_descriptions_name_robberies() -> None:
    """A menu line says whom a Railyard play robs."""
    s = lay(hands=[["red"] * 3, []], yards=[{}, {"red": (2, 0)}], deck=["red"] * 3)
    text = G.describe_action(s, 0, G.parse_action("yard red red red"))
    assert text == "Railyard: 3 Red (robs Bob)"


def test_a_set_is_worded_with_card_names_and_counted_locomotives() -> None:
    """One wording of a Railyard set, colours capitalised as the cards and tickets print them."""
    assert set_words(card("red"), 3, 0) == "3 Red"
    assert set_words(card("red"), 3, 1) == "3 Red + 1 Locomotive"
    assert set_words(card("white"), 1, 2) == "1 White + 2 Locomotives"


def test_whom_a_set_robs_is_read_from_the_table() -> None:
    """Every rival with a set of the colour, named; nobody for an unheld colour; solo, the face-up
    cards of the colour (the Station Clock card among them)."""
    s = lay(
        3,
        hands=[["red"] * 4 + ["green"] * 2, [], []],
        yards=[{}, {"red": (2, 0)}, {"red": (1, 1), "blue": (2, 0)}],
    )
    table = G.public_view(s)
    assert robbed_by(table, 0, G.parse_action("yard red red red red")) == "Bob and Cat"
    assert robbed_by(table, 0, G.parse_action("yard green green")) == ""
    assert robbed_by(table, 1, G.parse_action("yard blue blue blue")) == "Cat"
    assert robbed_by(table, 0, G.parse_action("take 1")) == ""
    assert G.describe_action(s, 0, G.parse_action("yard red red red red")) == (
        "Railyard: 4 Red (robs Bob and Cat)"
    )
    alone = SOLO.new_game(["Ann"], 1)
    alone.slots = [card("red"), card("red"), card("black"), card("white")]
    alone.clock_card = card("red")
    alone.hands[0] = counts(*["red"] * 4)
    yard = SOLO.parse_action("yard red red red red")
    assert robbed_by(SOLO.public_view(alone), 0, yard) == "the draw area's 3 Red"
    assert SOLO.describe_action(alone, 0, yard) == "Railyard: 4 Red (robs the draw area's 3 Red)"


# --- saves --------------------------------------------------------------------------------------


def test_json_round_trip_mid_game_and_at_the_end() -> None:
    """A state survives JSON unchanged, the final scoring included."""
    for seats in (1, 2, 4):
        state = _random_to_end(seats, seats)
        game = SOLO if seats == 1 else G
        text = json.dumps(game.to_dict(state))
        back = game.from_dict(json.loads(text))
        assert game.to_dict(back) == game.to_dict(state)
        assert game.public_view(back) == game.public_view(state)


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("deck"),
        lambda d: d.update(schema_version=99),
        lambda d: d.update(phase="dancing"),
        lambda d: d.update(slots=[1, 2]),
        lambda d: d.update(hands=[[0] * 9]),
        lambda d: d.update(deck=[42]),
    ],
)
def test_damaged_saves_are_refused(damage: Callable[[dict[str, Any]], object]) -> None:
    """Missing, mistyped or out-of-range data is a CorruptSave."""
    data = G.to_dict(G.new_game(["A", "B"], 1))
    damage(data)
    with pytest.raises(CorruptSave):
        G.from_dict(data)


def test_a_save_of_the_other_variant_is_refused() -> None:
    """A solo save does not load as a standard game."""
    with pytest.raises(CorruptSave, match="other Ticket to Ride variant"):
        G.from_dict(SOLO.to_dict(SOLO.new_game(["A"], 1)))


# --- views and hidden cards ----------------------------------------------------------------------


def test_on_the_track_stacks_show_only_their_size_even_to_their_owner() -> None:
    """Views carry the stack's size; its cards appear nowhere until the scoring."""
    s = lay(hands=[["red"], []], yards=[{"red": (3, 0)}, {}], deck=["white"] * 8, turn=1)
    s = play(s, 1, "take blind", "take blind")
    assert s.track[0] == counts("red")
    view = G.private_view(s, 0)
    assert view.public.seats[0].track_count == 1 and view.public.result is None
    other = s.clone()
    other.track[0] = counts("blue")
    assert G.private_view(other, 0) == view and G.public_view(other) == view.public


def test_tickets_are_private_to_their_holder() -> None:
    """A seat sees its own tickets and only the count of the others'."""
    s = keep_first(G.new_game(["A", "B"], 4))
    view = G.private_view(s, 0)
    assert [t.index for t in view.tickets] == s.tickets[0]
    assert view.public.seats[1].ticket_count == len(s.tickets[1])
    assert not any(t.index in s.tickets[1] for t in view.tickets)


def test_the_scoring_is_public_after_the_end() -> None:
    """Once over, the public view shows every stack and ticket in the final scoring."""
    state = _random_to_end(3, 2)
    view = G.public_view(state)
    assert view.phase == OVER and view.result is not None
    assert [line.ticket for line in view.result.seats[0].lines] == state.tickets[0]
    assert view.result.seats[1].track == tuple(state.track[1])


def test_resampling_moves_hidden_cards_but_no_view() -> None:
    """resample_hidden deals stacks, hands, decks and tickets anew; views stay the same."""
    s = keep_first(G.new_game(["A", "B", "C"], 5))
    s = play(s, 0, "yard " + " ".join(["red"] * 2)) if s.hands[0][0] >= 2 else s
    rng = random.Random(1)
    changed = False
    for _ in range(5):
        other = G.resample_hidden(s, 0, rng)
        assert G.private_view(other, 0) == G.private_view(s, 0)
        assert G.census(other) == G.census(s)
        changed |= other.hands[1] != s.hands[1] or other.ticket_deck != s.ticket_deck
    assert changed


def test_solo_resampling_covers_the_hidden_tickets_and_the_clock_deck() -> None:
    """Solo: the opponent's tickets and the Station Clock deck's order are hidden too."""
    s = keep_first(SOLO.new_game(["A"], 5))
    rng = random.Random(2)
    seen = {tuple(SOLO.resample_hidden(s, 0, rng).hidden_tickets) for _ in range(5)}
    clocks = {tuple(SOLO.resample_hidden(s, 0, rng).clock_deck) for _ in range(5)}
    assert len(seen) > 1 and len(clocks) > 1
    assert SOLO.private_view(SOLO.resample_hidden(s, 0, rng), 0) == SOLO.private_view(s, 0)


# --- leaving and outcomes -----------------------------------------------------------------------


def test_leaving_a_two_player_game_loses_at_once() -> None:
    """With two seats, the leaver loses and the other wins."""
    s = keep_first(G.new_game(["A", "B"], 1))
    s = G.leave(s, 0)
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == (1,) and outcome.places == (1, 0)
    with pytest.raises(IllegalMove, match="already over"):
        G.leave(s, 1)


def test_a_leaver_drops_out_of_a_bigger_game_and_ranks_last() -> None:
    """With three or more, the leaver's cards are discarded and the others play on."""
    s = keep_first(G.new_game(["A", "B", "C", "D"], 1))
    held = sum(s.hands[1])
    discard = sum(s.discard)
    s = G.leave(s, 1)
    assert s.phase != OVER and sum(s.hands[1]) == 0 and sum(s.discard) == discard + held
    assert s.tickets[1] == [] and 1 not in G.to_act(s)
    s = G.leave(s, 0)  # the seat to play leaves: the turn passes on
    assert s.turn == 2
    s = G.leave(s, 3)
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == (2,)
    assert outcome.places == (2, 3, 0, 1)  # later leavers rank above earlier ones


def test_leaving_during_setup_lets_the_others_start() -> None:
    """A seat leaving while tickets are chosen no longer holds up the start."""
    s = G.new_game(["A", "B", "C"], 1)
    s = play(s, 0, "keep T" + f"{s.offered[0][0] + 1:02d}")
    s = play(s, 2, "keep T" + f"{s.offered[2][0] + 1:02d}")
    s = G.leave(s, 1)
    assert s.phase == "act" and s.turn == 0


def test_a_leavers_caption_says_what_it_means_for_the_game() -> None:
    """B leaves on another seat's turn at a table of four: the caption says where B will
    finish, what became of B's cards and tickets, who plays on and whose turn it is (it said
    "B left the game; the others play on.")."""
    s = G.leave(keep_first(G.new_game(["A", "B", "C", "D"], 1)), 1)
    assert s.caption == (
        "B left the game and will finish 4th: their cards are discarded and their tickets go "
        "under the ticket deck. A, C and D play on, A to play."
    )


def test_the_seat_to_play_leaving_is_told_whose_turn_it_is_now() -> None:
    """A leaves on its own turn after D left: A will finish 3rd (above D), and the turn is
    said to be B's, before what B's turn begins with."""
    s = G.leave(G.leave(keep_first(G.new_game(["A", "B", "C", "D"], 1)), 3), 0)
    assert s.turn == 1
    assert s.caption.startswith(
        "A left the game and will finish 3rd: their cards are discarded and their tickets go "
        "under the ticket deck. B and C play on, B to play."
    ), s.caption


def test_leaving_during_the_opening_tickets_is_told_the_last_place() -> None:
    """Leavers during the opening choice of tickets share the last place: B is told "last"
    (two of them would both be 3rd of four, not 4th), and the start that follows is said."""
    s = G.new_game(["A", "B", "C"], 1)
    s = play(s, 0, "keep T" + f"{s.offered[0][0] + 1:02d}")
    s = play(s, 2, "keep T" + f"{s.offered[2][0] + 1:02d}")
    s = G.leave(s, 1)
    assert s.caption.startswith(
        "B left the game and will finish last: their cards are discarded and their tickets go "
        "under the ticket deck. A and C play on. Tickets kept — A: 1, C: 1. A starts."
    ), s.caption


def test_giving_up_solo_is_a_loss() -> None:
    """Solo: leaving ends the run as a loss."""
    s = keep_first(SOLO.new_game(["A"], 1))
    s = SOLO.leave(s, 0)
    outcome = SOLO.outcome(s)
    assert outcome is not None and outcome.winners == () and "gave up" in outcome.reason


def test_outcome_ranks_by_total_and_ties_share() -> None:
    """Places follow the totals; equal totals share a place."""
    state = _random_to_end(11, 4)
    outcome = G.outcome(state)
    assert outcome is not None
    totals = outcome.scores
    for a in range(4):
        for b in range(4):
            if totals[a] > totals[b]:
                assert outcome.places[a] < outcome.places[b]
            if totals[a] == totals[b]:
                assert outcome.places[a] == outcome.places[b]


def test_refusals_are_game_errors_that_change_nothing() -> None:
    """Applying an illegal action raises a GameError and leaves the state as it was."""
    s = keep_first(G.new_game(["A", "B"], 2))
    before = json.dumps(G.to_dict(s), sort_keys=True)
    for text in ("take clock", "take clock deck", "keep T01", "pass", "yard red"):
        with pytest.raises(GameError):
            play(s, s.turn, text)
    assert json.dumps(G.to_dict(s), sort_keys=True) == before


# --- conformance --------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", range(40))
def test_conformance_playouts(seats: int, seed: int) -> None:
    """Random playouts keep every engine invariant (some with players leaving)."""
    leave = 0.01 if seats > 2 and seed % 2 else 0.0
    report = check_playout(G, seats, seed, leave_chance=leave, every=6)
    assert report.outcome is not None


@pytest.mark.parametrize("seed", range(40))
def test_solo_conformance_playouts(seed: int) -> None:
    """Random solo playouts keep every engine invariant."""
    report = check_playout(SOLO, 1, seed)
    assert report.outcome is not None and report.moves >= 17


# --- refusals speak of the game being played and the tickets on offer -----------------------


@pytest.mark.parametrize("text", ["take 9", "take", "take the crimson one"])
def test_a_take_refusal_in_the_standard_game_says_nothing_of_solo(text: str) -> None:
    """A two-player game's refusal names its own five slots and no Station Clock card. Before
    the fix 'take 9' answered '… slot 1 to 5 (1 to 4 in solo) …'."""
    state = keep_first(G.new_game(["Ann", "Bob"], 1))
    with pytest.raises(NotationError) as error:
        G.parse_for(state, 0, text)
    said = str(error.value)
    assert "solo" not in said.lower() and "clock" not in said.lower(), said
    assert "'take 1' to 'take 5'" in said or "slot 1 to 5" in said, said


def test_a_take_refusal_in_solo_names_its_four_slots_and_the_clock_card() -> None:
    """Solo has four face-up slots and the Station Clock card: 'take 5' is no slot there."""
    state = keep_first(SOLO.new_game(["Ann"], 1))
    with pytest.raises(NotationError) as error:
        SOLO.parse_for(state, 0, "take 5")
    said = str(error.value)
    assert "slot 1 to 4" in said and "'take clock'" in said and "solo" not in said, said


@pytest.mark.parametrize(
    ("typed", "slot"),
    [("take purple", 2), ("Take the Loco", 4), ("take a red card", 1), ("draw pink", 2)],
)
def test_a_face_up_card_is_taken_by_its_name(typed: str, slot: int) -> None:
    """A new player types the card they see, not its slot: 'take purple' takes the first slot
    showing Purple. Before the fix it answered "I can't tell which card 'purple' means"."""
    state = lay(2, hands=[["red"] * 3, ["blue"] * 3], slots=["red", "purple", "purple", "loco"])
    state.slots.append(-1)  # slot 5 empty
    assert G.parse_for(state, 0, typed) == G.parse_action(f"take {slot}")


def test_a_card_not_face_up_is_refused_with_what_shows() -> None:
    """Naming a card nobody can take says what the draw area shows and how to take instead."""
    state = lay(2, hands=[["red"] * 3, ["blue"] * 3])
    with pytest.raises(NotationError) as error:
        G.parse_for(state, 0, "take white")
    said = str(error.value)
    assert said.startswith("No White card is face up"), said
    assert "Red, Orange, Yellow, Green, Blue" in said and "'take blind'" in said, said


def test_solo_takes_the_station_clock_card_by_name_and_asks_when_a_slot_shows_it_too() -> None:
    """In solo the Station Clock card is not replaced and a slot is: when both show the card
    named, the player is asked which; when only the Station Clock card does, it is taken."""
    state = keep_first(SOLO.new_game(["Ann"], 1))
    shown = state.clock_card
    other = next(c for c in range(len(COLOURS)) if c != shown)
    state.slots = [other, other, other, other]
    name = CARD_NAMES[shown].lower()
    assert SOLO.parse_for(state, 0, f"take {name}") == SOLO.parse_action("take clock")
    state.slots = [other, shown, other, other]
    with pytest.raises(NotationError) as error:
        SOLO.parse_for(state, 0, f"take {name}")
    assert "'take 2' or 'take clock'" in str(error.value), error.value


@pytest.mark.parametrize("typed", ["yard", "keep", "play", "keep T99"])
def test_a_half_written_move_in_a_two_card_draw_asks_for_the_second_card(typed: str) -> None:
    """Between the two draws of a turn only a take is allowed: a Railyard play or a keep that
    does not even parse is refused for that, not for its missing words. Before the fix 'yard'
    answered "Say which cards to play" and 'keep' asked which tickets to keep."""
    state = play(lay(2, hands=[["red"] * 3, ["blue"] * 3]), 0, "take 1")
    with pytest.raises(NotationError) as error:
        G.parse_for(state, 0, typed)
    assert str(error.value).startswith("Finish your draw first"), error.value


def test_a_half_written_keep_with_no_tickets_on_offer_says_so() -> None:
    """'keep' on a turn with no tickets drawn says to draw tickets first."""
    state = lay(2, hands=[["red"] * 3, ["blue"] * 3])
    with pytest.raises(NotationError) as error:
        G.parse_for(state, 0, "keep")
    assert str(error.value).startswith("You have no tickets to choose from"), error.value


def test_a_half_written_move_out_of_turn_says_whose_turn_it_is() -> None:
    """A seat that is not to move hears whose turn it is, whatever it half-typed."""
    state = lay(2, hands=[["red"] * 3, ["blue"] * 3])
    with pytest.raises(NotationError) as error:
        G.parse_for(state, 1, "yard")
    assert str(error.value).startswith("It is not your turn"), error.value


def test_a_half_written_move_the_step_allows_keeps_its_own_error() -> None:
    """Where a Railyard play is allowed, a bare 'yard' still asks which cards to play."""
    state = lay(2, hands=[["red"] * 3, ["blue"] * 3])
    with pytest.raises(NotationError) as error:
        G.parse_for(state, 0, "yard")
    assert str(error.value).startswith("Say which cards to play"), error.value


def _codes(text: str) -> set[str]:
    return set(re.findall(r"T\d\d", text))


@pytest.mark.parametrize("typed", ["keep", "take 1", "", "fly away"])
def test_a_keep_example_names_only_the_tickets_on_offer(typed: str) -> None:
    """While a player chooses tickets, every example names tickets they were offered, and
    typing the example works. Before the fix it was always 'keep T04 T17'."""
    state = G.new_game(["Ann", "Bob"], 1)
    offered = {t.code for t in G.private_view(state, 0).offered}
    assert not {"T04", "T17"} <= offered  # the old example would name strangers here
    with pytest.raises(GameError) as error:
        G.apply(state, 0, G.parse_for(state, 0, typed))
    said = str(error.value)
    example = re.search(r"'(keep T\d\d[^']*)'", said)
    assert example is not None and _codes(said) <= offered, said
    assert "'keep none'" not in said  # the opening choice keeps at least one ticket
    G.apply(state, 0, G.parse_action(example[1]))  # accepted


def test_a_mid_game_keep_example_offers_keep_none_too() -> None:
    """After 'tickets' the four drawn tickets are the example, and keeping none is allowed."""
    state = play(keep_first(G.new_game(["Ann", "Bob"], 1)), 0, "tickets")
    offered = {t.code for t in G.private_view(state, 0).offered}
    with pytest.raises(NotationError) as error:
        G.parse_for(state, 0, "keep")
    said = str(error.value)
    assert _codes(said) <= offered and len(_codes(said)) == 2 and "'keep none'" in said, said


def test_the_solo_opening_example_keeps_the_highest_value_ticket() -> None:
    """Solo's opening keep must include the highest-value ticket: the example does."""
    state = SOLO.new_game(["Ann"], 1)
    with pytest.raises(IllegalMove) as error:
        SOLO.apply(state, 0, SOLO.parse_action("take 1"))
    example = re.search(r"'(keep T\d\d[^']*)'", str(error.value))
    assert example is not None, error.value
    SOLO.apply(state, 0, SOLO.parse_action(example[1]))  # accepted

"""1000 Mile Race: statements of docs/rules/race.md that a statement-by-statement audit found
without a test of their own (or without the refusal of the bad input).

Section names in parentheses are sections of that page. Each test deals stacked hands
(``race_helpers.start``): Red (Ann, seat 0) reveals 100 against Blue's (Bob, seat 1) 25, so Red
starts and has drawn her first card, the first of ``RED_DRAWS``.
"""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalMove
from bot.engine.race.cards import COLOURS
from bot.engine.race.notation import format_action, parse_action
from bot.engine.race.state import Phase, RaceState
from bot.render.race import card_face, junkyard_summary, render_table
from tests.engine.race_helpers import (
    G,
    act,
    empty_library,
    hazard_on,
    lay_miles,
    legal,
    red_first,
    refused,
    snapshot,
    to_hand,
)


def refused_action(state: RaceState, seat: int, action: tuple[str, ...]) -> str:
    """The refusal a raw action meets (one the notation would read otherwise); asserts it
    leaves the state exactly as it was."""
    before = snapshot(state)
    with pytest.raises(IllegalMove) as info:
        G.apply(state, seat, action)
    assert snapshot(state) == before
    return str(info.value)


# --- the decks (In short) ------------------------------------------------------------------


def test_seat_one_plays_the_red_deck_and_seat_two_the_blue() -> None:
    """Two identical decks, Red and Blue: the first seat plays Red, the second Blue (In short)."""
    sides = G.public_view(red_first()).sides
    assert COLOURS == ("Red", "Blue")
    assert [side.colour for side in sides] == ["Red", "Blue"]


# Which colour channel a card's band shows: the rule book's text colours.
_HUES = {
    "25": "white",
    "flat-tire": "red",
    "gasoline": "green",
    "extra-tank": "yellow",
    "jammer": "blue",
}


def _hue(rgb: tuple[int, ...]) -> str:
    r, g, b = rgb[:3]
    if min(r, g, b) > 200:
        return "white"
    if r > 200 and g > 150 and b < 100:
        return "yellow"
    return ("red", "green", "blue")[max(range(3), key=lambda i: rgb[i])]


@pytest.mark.parametrize(("card", "hue"), list(_HUES.items()))
def test_each_card_type_wears_its_rule_book_colour(card: str, hue: str) -> None:
    """Card colours follow the printed text colours: miles white, hazards red, removals
    green, trumps yellow, cheats blue (The cards)."""
    pixel = card_face(card, 70, 98).getpixel((35, 2))  # the band above the card's name
    assert isinstance(pixel, tuple)
    assert _hue(pixel) == hue


# --- a turn: play (A turn) -----------------------------------------------------------------


def test_two_trumps_in_one_turn() -> None:
    """Trumps don't count towards the turn's plays: play as many as you hold, each clearing
    its own hazards (In short)."""
    state = red_first(["100", "extra-tank", "driving-ace"])
    hazard_on(state, 0, "out-of-gas", "accident")
    state = act(state, 0, "play extra-tank", "play driving-ace")
    assert state.sides[0].trumps == ["extra-tank", "driving-ace"]
    assert state.sides[0].hazards == [] and state.turn == 0


@pytest.mark.parametrize("card", ["flat-tire", "spare-tire"])
def test_no_hazard_or_removal_after_a_cycle(card: str) -> None:
    """Cycling ends the play phase: a hazard, or a removal whose hazard is on you, is refused
    after it, and the refusal says why (A turn)."""
    state = red_first()
    hazard_on(state, 0, "flat-tire")
    state = act(state, 0, "cycle 25")
    assert state.turn == 0 and state.phase is Phase.PLAY  # trump and Pit Crew still to play
    assert refused(state, 0, f"play {card}") == (
        "You cycled this turn, so your play phase is over (trumps and Pit Crew still go)."
    )
    assert f"play {card}" not in legal(state, 0)


def test_a_trump_in_the_opponents_turn_is_refused_with_the_reason() -> None:
    """Trumps are played only in your own turn: Ann's Extra Tank during Bob's turn is refused
    with a sentence and changes nothing (Rulings: Trumps)."""
    state = act(red_first(), 0, "end")
    assert state.turn == 1 and "extra-tank" in state.sides[0].hand
    assert refused(state, 0, "play extra-tank") == "It is not your turn: Bob is playing."


def test_a_tow_truck_with_no_hazard_on_you_is_refused() -> None:
    """Removals need their hazard on you, the Tow Truck too: with no hazard on Ann it is
    refused, says why and changes nothing (Rulings: Removals)."""
    state = red_first(["100", "tow-truck"])
    assert state.sides[0].hazards == []
    assert refused(state, 0, "play tow-truck") == (
        "No hazard targets you, so there is nothing for the Tow Truck to remove."
    )
    assert refused(state, 0, "play tow-truck on flat-tire") == (
        "No hazard targets you, so there is nothing for the Tow Truck to remove."
    )


@pytest.mark.parametrize("card", ["roadblock", "jammer"])
def test_roadblock_and_jammer_are_never_played_in_your_own_play_phase(card: str) -> None:
    """Roadblock and Jammer, like Coup Fourré, are only ever played as reactions: played as a
    card of your turn they are refused, and never offered (Rulings: Coup Fourré, Roadblock and
    Jammer)."""
    state = red_first(["100", card])
    name = {"roadblock": "Roadblock", "jammer": "Jammer"}[card]
    assert refused_action(state, 0, ("play", card)) == (
        f"{name} is only played as a reaction, when the game offers it to you."
    )
    assert refused(state, 0, f"react {card}") == (
        "There is nothing to react to right now: it is your own play phase."
    )
    assert not [text for text in legal(state, 0) if card in text and "cycle" not in text]


# --- Pit Crew (The cards; Rulings: The one reshuffle) ---------------------------------------


def test_pit_crew_goes_to_the_junkyard_once_it_has_drawn() -> None:
    """A Pit Crew that was not jammed draws two and lies in its owner's junkyard (The cards:
    cheats are junked once played)."""
    state = act(red_first(), 0, "play pit-crew")
    me = state.sides[0]
    assert me.junkyard == ["pit-crew"] and "pit-crew" not in me.hand
    assert {"50", "200"} <= set(me.hand)  # the next two draws


def test_a_pit_crew_that_empties_the_library_shuffles_itself_back_in() -> None:
    """Pit Crew with one card left in the library draws it, then the one reshuffle takes the
    junkyard, the Pit Crew just junked included, and the second card comes from it (Rulings:
    The one reshuffle)."""
    state = red_first()
    me = state.sides[0]
    me.junkyard.extend(me.library[1:])
    del me.library[1:]
    junked = len(me.junkyard)
    state = act(state, 0, "play pit-crew")
    me = state.sides[0]
    assert me.reshuffled and me.junkyard == []
    assert len(me.hand) == 8 - 1 + 2
    assert len(me.library) == junked + 1 - 1  # the junkyard and the Pit Crew, one drawn
    assert "pit-crew" in me.library or "pit-crew" in me.hand
    assert "Ann shuffles the junkyard into the library." in state.caption


# --- running out of cards (Running out of cards; Rulings: Running dry) ----------------------


def test_drawing_the_last_card_leaves_the_junkyard_until_a_draw_needs_it() -> None:
    """The reshuffle happens when a draw meets an empty library, not when the library runs
    out: the turn's draw takes the last card and the junkyard stays (Running out of cards)."""
    state = act(red_first(), 0, "end")
    me = state.sides[0]
    me.junkyard.extend(me.library[1:])
    del me.library[1:]
    junked = len(me.junkyard)
    state = act(state, 1, "end")  # Red's draw takes her last library card
    me = state.sides[0]
    assert me.library == [] and not me.reshuffled and len(me.junkyard) == junked
    state = act(state, 0, "play pit-crew")
    assert state.sides[0].reshuffled and state.sides[0].junkyard == []


def test_two_quiet_turns_with_unequal_miles_are_won_on_miles() -> None:
    """With both draws skipped, two turns in a row without a play end the game, and the player
    with more miles wins (Running out of cards)."""
    state = red_first()
    lay_miles(state, 1, ["100"])
    for seat in (0, 1):
        empty_library(state, seat, reshuffled=True)
    state = act(state, 0, "end")
    state = act(state, 1, "end")
    outcome = G.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.scores == (0, 100)
    assert "two turns in a row" in outcome.reason


def test_quiet_turns_are_not_counted_while_one_player_still_draws() -> None:
    """The quiet turns count only while both players' draws are skipped: with Red still
    drawing, four turns without a play leave the game running (Rulings: Running dry)."""
    state = red_first()
    empty_library(state, 1, reshuffled=True)
    for seat in (0, 1, 0, 1):
        state = act(state, seat, "end")
        assert state.idle_turns == 0 and G.outcome(state) is None
    assert state.turn == 0 and state.turn_number == 5


def test_an_empty_hand_with_skipped_draws_passes_by_itself() -> None:
    """A player whose draw is skipped and who holds nothing can only end: the turn ends by
    itself and the opponent plays on (Rulings: The turn ends by itself)."""
    state = red_first()
    blue = state.sides[1]
    empty_library(state, 1, reshuffled=True)
    blue.junkyard.extend(blue.hand)
    blue.hand = []
    state = act(state, 0, "end")
    assert state.turn == 0 and state.turn_number == 3 and state.phase is Phase.PLAY
    assert "Bob can do nothing and passes." in state.caption
    assert G.outcome(state) is None


# --- the end of the turn (A turn; Rulings: End of turn order) -------------------------------


def test_a_hand_of_exactly_ten_is_kept() -> None:
    """The hand limit cuts only a hand of more than 10: ending with 10 asks for no discard
    (A turn)."""
    state = red_first()
    to_hand(state, 0, 2)
    assert len(state.sides[0].hand) == 10
    state = act(state, 0, "end")
    assert state.turn == 1 and state.phase is Phase.PLAY
    assert len(state.sides[0].hand) == 10 and "discard" not in state.caption


def test_no_pit_crew_during_the_hand_limit_discard() -> None:
    """The turn is over by the time you discard: Pit Crew is refused then, with the state
    unchanged, and not offered (A turn)."""
    state = red_first()
    to_hand(state, 0, 3)
    state = act(state, 0, "end")
    assert state.phase is Phase.DISCARD and "pit-crew" in state.sides[0].hand
    assert refused(state, 0, "play pit-crew") == (
        "Your turn is ending with 11 cards: discard down to 10 first, one card at a time "
        "(e.g. 'discard 25')."
    )
    assert "play pit-crew" not in legal(state, 0)


def test_the_hand_limit_refusal_names_a_card_of_the_hand() -> None:
    """Ending with eleven cards and no 25 among them, 'end' again was told "… one card at a
    time (e.g. 'discard 25')", and the example, typed, was refused ("You do not hold 25
    miles"); the example is a card of the hand, and typed, it is discarded."""
    state = red_first()
    state.sides[0].junkyard.append("25")
    state.sides[0].hand.remove("25")
    to_hand(state, 0, 4)
    state = act(state, 0, "end")
    assert state.phase is Phase.DISCARD and "25" not in state.sides[0].hand
    said = refused(state, 0, "end")
    example = said.rpartition("(e.g. '")[2].removesuffix("').")
    assert example == f"discard {state.sides[0].hand[0]}", said
    assert act(state, 0, example).caption.startswith("Ann discards")


def test_the_turn_cannot_end_while_a_reaction_is_awaited() -> None:
    """Waiting reactions are settled first: Red's 'end' while Bob may Roadblock her miles is
    refused and changes nothing (Rulings: End of turn order)."""
    state = act(red_first(blue=["25", "75", "roadblock"]), 0, "play 100")
    assert state.phase is Phase.REACT
    assert refused(state, 0, "end") == "Waiting for Bob to react or pass before anything else."


def test_miles_cancelled_on_the_way_to_1000_win_nothing() -> None:
    """The win needs exactly 1000 miles in play: a Roadblock on the miles card that would
    reach 1000 leaves Red at 900 and her turn goes on (In short: Win)."""
    state = red_first(blue=["25", "75", "roadblock"])
    lay_miles(state, 0, ["200", "200", "100", "100", "100", "100", "100"])
    state = act(state, 0, "play 100")
    state = act(state, 1, "react roadblock")
    assert G.outcome(state) is None
    assert state.sides[0].total == 900 and state.turn == 0 and state.phase is Phase.PLAY


def test_nothing_is_played_once_the_race_is_won() -> None:
    """Exactly 1000 wins the game: after it every move, and leaving, is refused with a
    sentence and nothing changes (In short: Win)."""
    state = red_first()
    lay_miles(state, 0, ["200", "200", "100", "100", "100", "100", "100"])
    state = act(state, 0, "play 100")
    assert state.phase is Phase.OVER
    assert refused(state, 1, "play 25") == "This game is over."
    assert refused(state, 0, "end") == "This game is over."
    before = snapshot(state)
    with pytest.raises(IllegalMove) as info:
        G.leave(state, 1)
    assert str(info.value) == "The game is already over."
    assert snapshot(state) == before


# --- what players type and see (Moves; Rulings: Looking through the junkyards) -------------


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("flat tire", "play flat-tire"),
        ("gas", "play gasoline"),
        ("cf", "react coup-fourre"),
        ("red light", "play red-light"),
    ],
)
def test_the_loosely_typed_names_the_page_gives(typed: str, meant: str) -> None:
    """The page's examples of loosely typed names, each typed bare, play (or react with) the
    card it names (Moves)."""
    assert format_action(parse_action(typed)) == meant


def test_the_junkyard_list_puts_removals_before_hazards_and_miles() -> None:
    """The hand image lists a junkyard spent cheats and trumps first, then removals, hazards
    and miles, with counts (Rulings: Looking through the junkyards)."""
    state = red_first()
    state.sides[0].junkyard = ["25", "flat-tire", "gasoline", "25", "pit-crew", "driving-ace"]
    assert junkyard_summary(G.public_view(state).sides[0]) == (
        "Pit Crew, Driving Ace, Gasoline, Flat Tire, 25 miles ×2"
    )


def test_the_table_shows_a_junkyards_top_card_and_size_only() -> None:
    """The table shows each junkyard's top card and its size: a different top card or one
    more card changes the picture, a different card beneath the top does not (Rulings:
    Looking through the junkyards)."""

    def table_with(junkyard: list[str]) -> bytes:
        state = red_first()
        state.sides[0].junkyard = junkyard
        return render_table(G.public_view(state)).tobytes()

    shown = table_with(["25", "flat-tire", "jammer"])
    assert table_with(["25", "flat-tire", "extra-tank"]) != shown  # another top card
    assert table_with(["25", "25", "flat-tire", "jammer"]) != shown  # one card more
    assert table_with(["50", "gasoline", "jammer"]) == shown  # only beneath the top

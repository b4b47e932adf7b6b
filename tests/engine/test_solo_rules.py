"""Mille Bornes Solo rules (docs/rules/solo.md) and protocol, one behaviour per test, on stacked
decks.

``deal`` stacks a deck from what a test cares about (highway cards top down, the hand, the
tank) and fills the rest from the deck's unused cards; ``lay`` sets a table up directly for
the end-of-game situations a deal would need dozens of moves to reach.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from bot.engine.core import (
    BadOption,
    CorruptSave,
    IllegalMove,
    NotationError,
    NotYourTurn,
)
from bot.engine.mille.cards import Card, card_from_text, deck_counts, full_deck
from bot.engine.solo import rules
from bot.engine.solo.game import MilleBornesSolo
from bot.engine.solo.state import Action, SoloState
from bot.games import get_game
from bot.games.solo import start_notice

GAME = get_game("solo")
assert isinstance(GAME, MilleBornesSolo)
G: MilleBornesSolo = GAME

# Cards that pair with nothing in these tables' tops, used to pad hands.
JUNK = ["25", "25", "25", "25", "25", "25", "25"]


def deal(
    highways: Sequence[Sequence[str]] = (),
    hand: Sequence[str] = JUNK,
    tank: Sequence[str] | None = None,
    deck: str = "bsd",
    **options: str,
) -> SoloState:
    """A game dealt from a stacked deck.

    ``highways[i]`` lists highway i+1's cards from the face-up top down; unlisted cards (and
    unlisted highways) are filled with the deck's unused cards, distance cards last so that
    filler rarely pairs with anything. ``tank`` lists the draws in order (None: every unused
    card, in the filler order).
    """
    left = deck_counts(deck)
    wanted = [c for pile in highways for c in pile] + list(hand) + list(tank or ())
    for code in wanted:
        card = card_from_text(code)
        assert card is not None, code
        left[card] -= 1
        assert left[card] >= 0, f"too many {code}"
    pool: list[str] = []
    for card in reversed(full_deck(deck)):
        if left[card] > 0:
            left[card] -= 1
            pool.append(card.value)
    order: list[str] = []
    for i in range(7):
        listed = list(highways[i]) if i < len(highways) else []
        pile = listed + [pool.pop(0) for _ in range(7 - len(listed))]
        order += list(reversed(pile))  # dealt bottom up: the top card is the seventh
    assert len(hand) == 7
    order += list(hand)
    order += list(tank) if tank is not None else pool
    return G.new_game(["Ann"], seed=1, options={"deck": deck, **options}, deck=order)


def lay(
    highways: Sequence[Sequence[str]],
    hand: Sequence[str],
    tank: Sequence[str] = (),
    discard: Sequence[str] = (),
    miles: Sequence[str] = (),
    seed: int = 1,
    **options: str,
) -> SoloState:
    """A table laid out directly (highways top down), then settled as after a move."""
    s = G.new_game(["Ann"], seed=seed, options=options)
    s.highways = [[Card(c) for c in reversed(pile)] for pile in highways]
    s.highways += [[] for _ in range(7 - len(s.highways))]
    s.hand = [Card(c) for c in hand]
    s.tank = [Card(c) for c in reversed(tank)]
    s.discard = [Card(c) for c in discard]
    s.miles = [Card(c) for c in miles]
    s.events = []
    rules.settle(s)
    return s


def act(state: SoloState, *moves: str) -> SoloState:
    for move in moves:
        state = G.apply(state, 0, G.parse_action(move))
    return state


def tops(state: SoloState) -> list[str | None]:
    return [None if not p else p[-1].value for p in state.highways]


# Seven tops that nothing in JUNK (25s) pairs with.
QUIET = [["go"], ["go"], ["go"], ["go"], ["go"], ["go"], ["go"]]


def table(top: str) -> list[list[str]]:
    """Highway 1 shows ``top``; highway 2 a Stop, so a Go in hand keeps a move in reserve
    and no automatic draw muddles the pile being tested; the rest show Gos."""
    return [[top], ["stop"], *QUIET[2:]]


# --- the deal ------------------------------------------------------------------------------


def test_deal_order_is_pile_by_pile_then_hand_then_tank() -> None:
    """Highway 1 takes cards 1–7 (the 7th face up), and so on; then the hand; then the tank."""
    order = full_deck("bsd")  # unshuffled: 25s, 50s, … hazards, remedies, safeties
    s = G.new_game(["Ann"], seed=1, deck=[c.value for c in order])
    assert s.highways == [order[i * 7 : i * 7 + 7] for i in range(7)]
    assert s.top(1) is Card.D25 and s.top(7) is Card.FLAT_TIRE
    # The hand (cards 50–56) and the next seven pair with nothing: both are wiped, in order,
    # and the third hand holds a Spare Tire for the Flat Tire.
    assert s.discard == order[49:63] and s.hand == order[63:70] and s.wipes == 2
    assert s.tank[-1] is order[70]


def test_stacked_tank_is_drawn_in_order() -> None:
    """The first tank card in the stacked deck is the first one drawn."""
    s = deal([["stop", "right-of-way"], *QUIET[1:]], ["go", *JUNK[:6]], tank=["200", "75", "100"])
    s = act(s, "clear 1 with go")
    assert Card.D200 in s.hand and s.tank == [Card.D100, Card.D75]


def test_fresh_game_has_seven_highways_of_seven() -> None:
    """A seeded deal: 7 highways of 7, a hand of 7 and the rest (45 cards, bsd) in the tank."""
    s = G.new_game(["Ann"], seed=42)
    assert [len(p) for p in s.highways] == [7] * 7
    assert len(s.hand) + len(s.tank) + len(s.discard) == 101 - 49
    assert s.all_cards() == deck_counts("bsd")


def test_the_deal_asks_for_all_49_cards_only_where_they_can_all_come_off() -> None:
    """The classic preset (and the daily deal) can never be cleared completely, as the daily
    deal's first message says: its deal said "clear all 49 cards!" all the same, on the table
    and to a screen reader, just under that message."""
    captions = {
        preset: G.new_game(["Ann"], seed=42, options={"preset": preset}).caption
        for preset in ("classic", "refuel", "easy")
    }
    assert captions == {
        "classic": "Seven highways are dealt: clear as many of the 49 cards as you can!",
        "refuel": "Seven highways are dealt: clear all 49 cards!",
        "easy": "Seven highways are dealt: clear all 49 cards!",
    }


def test_modern_deck_has_106_cards() -> None:
    """The modern deck (one more of every hazard) is dealt whole."""
    s = G.new_game(["Ann"], seed=42, options={"deck": "modern"})
    assert sum(s.all_cards().values()) == 106


def test_seed_decides_the_deal() -> None:
    """The same seed deals the same game; another seed another."""
    a, b, c = (G.new_game(["Ann"], seed=n) for n in (5, 5, 6))
    assert G.to_dict(a) == G.to_dict(b) != G.to_dict(c)


def test_resampling_deals_the_face_down_cards_and_the_tank_again() -> None:
    """Dealing the hidden cards again moves the face-down highway cards and the tank; the
    highways' tops, the hand and the view stay."""
    s = G.new_game(["Ann"], seed=5)
    other = G.resample_hidden(s, 0, random.Random(2))
    assert [pile[-1] for pile in other.highways] == [pile[-1] for pile in s.highways]
    assert other.hand == s.hand and G.census(other) == G.census(s)
    assert G.private_view(other, 0) == G.private_view(s, 0)
    downs = [pile[:-1] for pile in other.highways]
    assert (downs, other.tank) != ([pile[:-1] for pile in s.highways], s.tank)


def test_solitaire_has_one_seat() -> None:
    """Only one player can sit down, and only seat 0 acts until the end."""
    with pytest.raises(BadOption, match="exactly 1"):
        G.new_game(["Ann", "Bob"], seed=1)
    s = deal([["stop"], *QUIET[1:]], ["go", *JUNK[:6]])
    assert G.to_act(s) == frozenset({0}) and G.legal_actions(s, 1) == []


def test_other_seat_is_not_your_turn() -> None:
    """A move from any other seat is NotYourTurn."""
    s = deal([["stop"], *QUIET[1:]], ["go", *JUNK[:6]])
    with pytest.raises(NotYourTurn):
        G.apply(s, 1, G.parse_action("clear 1 with go"))


# --- clearing pairs --------------------------------------------------------------------------

HAZARD_REMEDY = [
    ("out-of-gas", "gasoline"),
    ("flat-tire", "spare-tire"),
    ("accident", "repairs"),
    ("stop", "go"),
    ("speed-limit", "end-of-limit"),
]


@pytest.mark.parametrize(("hazard", "remedy"), HAZARD_REMEDY)
def test_remedy_from_hand_clears_its_hazard(hazard: str, remedy: str) -> None:
    """A remedy from the hand on its hazard: both are discarded."""
    hand = [remedy, "go", *JUNK[:5]]
    s = act(deal([[hazard, "100"], *table("go")[1:]], hand), f"clear 1 with {remedy}")
    assert s.discard == [Card(hazard), Card(remedy)] and s.top(1) is Card.D100
    assert len(s.hand) == 6 and s.cleared == 1


@pytest.mark.parametrize(("hazard", "remedy"), HAZARD_REMEDY)
def test_hazard_from_hand_clears_its_remedy(hazard: str, remedy: str) -> None:
    """A hazard from the hand on its remedy: both are discarded."""
    s = act(
        deal([[remedy, "100"], *table("go")[1:]], [hazard, "go", *JUNK[:5]]),
        f"clear 1 with {hazard}",
    )
    assert s.discard == [Card(remedy), Card(hazard)] and s.top(1) is Card.D100


@pytest.mark.parametrize("miles", ["25", "50", "75", "100", "200"])
def test_equal_distance_keeps_one_in_front_of_you(miles: str) -> None:
    """Equal distance cards clear: one goes in front of you (it scores), one is discarded."""
    s = act(deal(table(miles), [miles, "go", *JUNK[:5]]), f"clear 1 with {miles}")
    assert s.miles == [Card(miles)] and s.discard == [Card(miles)]
    assert s.mileage == int(miles)


@pytest.mark.parametrize("safety", ["extra-tank", "puncture-proof", "driving-ace", "right-of-way"])
def test_any_safety_takes_a_highway_200(safety: str) -> None:
    """A safety from the hand on a 200: the 200 goes in front of you, the safety is discarded."""
    s = act(deal(table("200"), [safety, "go", *JUNK[:5]]), f"clear 1 with {safety}")
    assert s.miles == [Card.D200] and s.discard == [Card(safety)] and s.mileage == 200


@pytest.mark.parametrize("safety", ["extra-tank", "puncture-proof", "driving-ace", "right-of-way"])
def test_a_200_from_hand_clears_any_highway_safety(safety: str) -> None:
    """A 200 from the hand on a safety: the 200 goes in front of you, the safety is discarded."""
    s = act(deal(table(safety), ["200", "go", *JUNK[:5]]), "clear 1 with 200")
    assert s.miles == [Card.D200] and s.discard == [Card(safety)]


def test_sacrifice_clears_and_lowers_the_score() -> None:
    """A claimed 100 sacrificed on a highway 100: both discarded, its miles leave the score."""
    s = act(deal([["100", "100"], *table("go")[1:]], ["100", "go", *JUNK[:5]]), "clear 1 with 100")
    assert s.mileage == 100 and s.top(1) is Card.D100
    s = act(s, "sacrifice 100 on 1")
    assert s.mileage == 0 and s.miles == [] and s.discard[-2:] == [Card.D100, Card.D100]
    assert s.cleared == 2


def test_sacrifice_needs_a_claimed_card() -> None:
    """Without that value claimed in front of you, no sacrifice."""
    s = deal(table("100"), ["100", "go", *JUNK[:5]])
    with pytest.raises(IllegalMove, match="no claimed 100 miles"):
        act(s, "sacrifice 100 on 1")


def test_sacrifice_needs_an_equal_distance_on_the_highway() -> None:
    """A claimed card can only be sacrificed on a distance card of its value."""
    s = act(deal([["100", "75"], *table("go")[1:]], ["100", "go", *JUNK[:5]]), "clear 1 with 100")
    with pytest.raises(IllegalMove, match="same value"):
        act(s, "sacrifice 100 on 1")
    assert "sacrifice 100 on 1" not in G.public_view(s).legal


@pytest.mark.parametrize(
    ("top", "card"),
    [
        ("accident", "go"),  # a remedy for another hazard
        ("stop", "stop"),  # identical hazards cancel only in the easy preset
        ("out-of-gas", "extra-tank"),  # a safety on its hazard: only in easy
        ("speed-limit", "right-of-way"),
        ("100", "75"),  # unequal distance
        ("100", "200"),
        ("100", "extra-tank"),  # safeties pair with 200s only
        ("go", "end-of-limit"),  # two remedies
    ],
)
def test_nothing_else_matches(top: str, card: str) -> None:
    """Any other pair is refused with a sentence, and is never offered."""
    s = deal(table(top), [card, "go", *JUNK[:5]])
    assert f"clear 1 with {card}" not in G.public_view(s).legal
    with pytest.raises(IllegalMove, match="does not clear it"):
        act(s, f"clear 1 with {card}")


def test_playing_a_card_not_held_is_refused() -> None:
    """Naming a card you do not hold is an IllegalMove."""
    s = deal([["stop"], *QUIET[1:]], ["go", *JUNK[:6]])
    with pytest.raises(IllegalMove, match="do not hold Gasoline"):
        act(s, "clear 1 with gasoline")


def test_illegal_move_leaves_the_state_untouched() -> None:
    """A refused move changes nothing: apply never mutates the state it is given."""
    s = deal([["stop"], *QUIET[1:]], ["go", *JUNK[:6]])
    before = G.to_dict(s)
    with pytest.raises(IllegalMove):
        act(s, "clear 2 with go")
    assert G.to_dict(s) == before


# --- the highways --------------------------------------------------------------------------


def test_next_card_turns_face_up_at_once_and_is_playable() -> None:
    """Clearing a top reveals the card under it, which can be cleared straight away."""
    s = deal([["stop", "go", "gasoline"], *QUIET[1:]], ["go", "stop", *JUNK[:5]])
    s = act(s, "clear 1 with go")
    assert s.top(1) is Card.GO and "clear 1 with stop" in G.public_view(s).legal
    assert G.public_view(s).highways[0].top is Card.GO
    s = act(s, "clear 1 with stop")
    assert s.top(1) is Card.GASOLINE and s.cleared == 2


def test_emptied_highway_stays_empty() -> None:
    """A highway whose seven cards are all cleared stays empty for the rest of the game."""
    pile = ["stop", "stop", "stop", "accident", "accident", "out-of-gas", "out-of-gas"]
    hand = ["go", "go", "go", "repairs", "repairs", "gasoline", "gasoline"]
    s = deal([pile, *QUIET[1:]], hand, tank=["stop", *["50"] * 7])
    for card in hand:
        s = act(s, f"clear 1 with {card}")
    assert s.highways[0] == [] and s.top(1) is None and s.cleared == 7
    view = G.public_view(s)
    assert view.highways[0].depth == 0 and not any(m.split()[1] == "1" for m in view.legal)
    with pytest.raises(IllegalMove, match="already cleared"):
        act(s, "clear 1 with go")


# --- automatic steps -----------------------------------------------------------------------


def test_there_are_no_voluntary_discards_or_draws() -> None:
    """Only clearing moves exist: discarding or drawing by choice is not a move."""
    s = deal([["stop"], *QUIET[1:]], ["go", *JUNK[:6]])
    assert all(a.verb in ("clear", "sacrifice") for a in G.legal_actions(s, 0))
    # "défausser 25" as a French speaker types it (it read "Name one highway, numbered 1 to 7").
    for text in ("discard 25", "draw", "pass", "défausser 25"):
        with pytest.raises(NotationError, match="no voluntary discards"):
            G.parse_action(text)


def test_stuck_with_fewer_than_seven_draws_up_to_seven() -> None:
    """No move and fewer than seven cards: the hand is filled up to seven from the tank."""
    s = deal([["stop", "right-of-way"], *QUIET[1:]], ["go", *JUNK[:6]], tank=["200", "50", "50"])
    s = act(s, "clear 1 with go")
    assert len(s.hand) == 7 and Card.D200 in s.hand and len(s.tank) == 2
    assert s.events == ["No move: you draw 1 card."]


def test_caption_tells_the_move_then_the_automatic_steps() -> None:
    """The caption the bot posts says what was played, then what the engine did by itself."""
    s = deal([["stop", "right-of-way"], *QUIET[1:]], ["go", *JUNK[:6]], tank=["200", "50"])
    s = act(s, "clear 1 with go")
    assert s.last_move == "Go clears the Stop on highway 1. Highway 1 now shows Right of Way."
    assert s.caption == f"{s.last_move} No move: you draw 1 card."
    view = G.public_view(s)
    assert (view.last_move, view.events, view.caption) == (
        s.last_move,
        ("No move: you draw 1 card.",),
        s.caption,
    )


def test_stuck_with_seven_wipes_the_whole_hand_and_draws_seven() -> None:
    """No move with seven cards: the whole hand is discarded and seven new cards drawn."""
    s = deal(QUIET, JUNK, tank=["stop", *["50"] * 6, *["75"] * 3])
    assert s.hand == [Card.STOP, *[Card.D50] * 6] and s.discard == [Card.D25] * 7
    assert s.wipes == 1
    assert s.events[0] == "No move: the whole hand is discarded and 7 new cards drawn."


def test_a_wipe_repeats_until_a_move_exists() -> None:
    """After a wipe, a second full hand with no move is wiped too."""
    s = deal(QUIET, JUNK, tank=["50"] * 7 + ["stop", *["75"] * 6])
    assert s.wipes == 2 and Card.STOP in s.hand and "clear 1 with stop" in G.public_view(s).legal
    assert s.events == ["No move: the whole hand is discarded twice, 7 new cards drawn each time."]


def test_a_run_of_wipes_is_one_sentence_with_its_count() -> None:
    """Three wipes in a row are told once, with how many there were (the caption said "The
    whole hand is discarded again and 7 new cards drawn." for each, a dozen times after one
    move of a refuel game)."""
    s = deal(QUIET, JUNK, tank=["50"] * 7 + ["75"] * 7 + ["stop", *["100"] * 6])
    assert s.wipes == 3 and Card.STOP in s.hand
    assert s.events == [
        "No move: the whole hand is discarded 3 times, 7 new cards drawn each time."
    ]


def test_a_run_of_wipes_emptying_the_tank_says_its_last_draw() -> None:
    """A run of wipes whose last one takes the tank's last cards says how many each drew."""
    s = deal(QUIET, JUNK, tank=["50"] * 7 + ["75"] * 7 + ["stop", "100"])
    assert s.wipes == 3 and s.hand == [Card.STOP, Card.D100] and not s.tank
    assert s.events == [
        "No move: the whole hand is discarded 3 times, 7 new cards drawn twice and then the "
        "last 2 cards."
    ]


def test_wipes_either_side_of_a_refuel_are_told_in_their_order() -> None:
    """Wipes before a refuel and after it are two sentences, with the refuel and the draw
    between them where they happened."""
    s = lay(QUIET, ["25"] * 7, tank=["50"] * 7 + ["75"] * 3, preset="refuel")
    assert s.events[:4] == [
        "No move: the whole hand is discarded twice, 7 new cards drawn once and then the last "
        "3 cards.",
        "Refuel: the discard pile (14 cards) goes back into the tank (1 refuel left).",
        "You draw 4 cards.",
        "The whole hand is discarded twice, 7 new cards drawn once and then the last 3 cards.",
    ]


def test_a_caption_of_several_steps_says_no_move_once() -> None:
    """A draw, then two wipes in a row: "No move" leads the first step only (the caption
    said it before every step)."""
    s = deal([["stop", "go"], *QUIET[1:]], ["go", *JUNK[:6]], tank=[*["50"] * 8, "stop"])
    s = act(s, "clear 1 with go")
    assert s.events == [
        "No move: you draw 1 card.",
        "The whole hand is discarded twice, 7 new cards drawn once and then the last card.",
    ]
    assert s.caption == f"{s.last_move} {' '.join(s.events)}"


def test_a_short_tank_gives_what_is_left() -> None:
    """Drawing from a short tank takes the cards that are left."""
    s = deal([["stop"] * 3, *QUIET[1:]], ["go", "go", "go", *JUNK[:4]], tank=["50", "75"])
    s = act(s, "clear 1 with go", "clear 1 with go", "clear 1 with go")
    assert len(s.hand) == 6 and not s.tank
    assert s.events[0] == "No move: you draw the last 2 cards from the tank."


def test_a_wipe_from_a_short_tank_draws_what_is_left() -> None:
    """With seven cards and a short tank, the hand is wiped and the last cards drawn."""
    s = deal(QUIET, JUNK, tank=["stop", "50"])
    assert s.hand == [Card.STOP, Card.D50]
    assert s.events[0] == "No move: the whole hand is discarded and the last 2 cards drawn."


def test_a_single_last_card_is_the_last_card() -> None:
    """One card left in the tank: "the last card", never "the last 1 card" (what the caption
    said before the fix, in both the draw and the wipe)."""
    s = deal(QUIET, JUNK, tank=["stop"])
    assert s.events[0] == "No move: the whole hand is discarded and the last card drawn."
    s = deal([["stop"] * 3, *QUIET[1:]], ["go", "go", "go", *JUNK[:4]], tank=["50"])
    s = act(s, "clear 1 with go", "clear 1 with go", "clear 1 with go")
    assert s.events[0] == "No move: you draw the last card from the tank."


# --- refuels ---------------------------------------------------------------------------------

STUCK_TOPS = [["go"]] * 7  # no card in the laid hands or discard pile pairs with a Go


@pytest.mark.parametrize(("preset", "refuels"), [("classic", 0), ("refuel", 2), ("easy", 1)])
def test_refuels_per_preset(preset: str, refuels: int) -> None:
    """Stuck with an empty tank: classic never refuels, refuel twice, easy once; then lost."""
    s = lay(STUCK_TOPS, ["25"] * 6, discard=["50"] * 5, preset=preset)
    assert s.result == "lost" and s.refuels_used == refuels
    assert sum(e.startswith("Refuel:") for e in s.events) == refuels


def test_no_refuel_from_an_empty_discard_pile() -> None:
    """Stuck with an empty tank and nothing discarded: the run is lost and no refuel is spent
    (there is nothing to refuel with)."""
    s = lay(STUCK_TOPS, ["25"] * 6, discard=[], preset="refuel")
    assert s.result == "lost" and s.refuels_used == 0
    assert not any(e.startswith("Refuel:") for e in s.events)


def test_refuel_shuffles_the_discard_pile_into_the_tank() -> None:
    """A refuel moves the whole discard pile into the tank, then the draw happens."""
    discard = ["50"] * 4 + ["go"] + ["75"] * 3
    s = lay([["stop"], *[["go"]] * 6], ["25"] * 6, discard=discard, preset="refuel")
    assert s.refuels_used == 1 and s.result is None and Card.GO in s.hand
    assert s.events[0] == (
        "Refuel: the discard pile (8 cards) goes back into the tank (1 refuel left)."
    )


def test_the_last_refuel_says_none_are_left() -> None:
    """The easy preset's one refuel says no refuels are left, not "0 refuels"."""
    discard = ["50"] * 4 + ["go"] + ["75"] * 3
    s = lay([["stop"], *[["go"]] * 6], ["25"] * 6, discard=discard, preset="easy")
    assert s.refuels_used == 1 and s.refuels_left == 0
    assert s.events[0] == (
        "Refuel: the discard pile (8 cards) goes back into the tank (no refuels left)."
    )


def test_dealing_again_after_a_refuel_keeps_the_known_tank() -> None:
    """After a refuel the tank holds the old discards, which the player has seen: dealing the
    hidden cards again shuffles the tank on its own and the face-down cards among themselves,
    so the view stays the same. Before the fix the two were mixed, putting face-down 100s and
    200s into a tank known to hold 50s, 75s and a Go."""
    s = G.new_game(["Ann"], seed=5, options={"preset": "refuel"})
    s.refuels_used = 1  # as after a refuel: the tank's cards are known, their order is not
    assert len(s.tank) > 1 and G.private_view(s, 0).public.tank_known is not None
    for seed in range(5):
        other = G.resample_hidden(s, 0, random.Random(seed))
        assert G.private_view(other, 0) == G.private_view(s, 0)
        assert Counter(other.tank) == Counter(s.tank)
        downs = Counter(card for pile in other.highways for card in pile[:-1])
        assert downs == Counter(card for pile in s.highways for card in pile[:-1])


def test_refuel_shuffle_replays_from_the_seed() -> None:
    """The refuel shuffle comes from the stored seed: the same game replays the same tank,
    and games of other seeds refill it in other orders."""
    discard = ["50", "75", "100", "go"] * 2

    def refuelled(seed: int) -> SoloState:
        return lay(
            [["stop"], *[["go"]] * 6], ["25"] * 6, discard=discard, seed=seed, preset="refuel"
        )

    a, b = refuelled(1), refuelled(1)
    assert a.refuels_used == 1 and a.tank == b.tank and a.hand == b.hand
    orders = {(tuple(s.tank), tuple(s.hand)) for s in map(refuelled, range(1, 6))}
    assert len(orders) > 1, "every seed refuels in the same order: the pile is not shuffled"


# --- the easy preset -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "card"),
    [
        ("stop", "stop"),  # identical cards cancel
        ("go", "go"),
        ("gasoline", "gasoline"),
        ("out-of-gas", "extra-tank"),  # a safety and its family
        ("extra-tank", "gasoline"),
        ("flat-tire", "puncture-proof"),
        ("accident", "driving-ace"),
        ("repairs", "repairs"),
        ("stop", "right-of-way"),
        ("right-of-way", "go"),
        ("speed-limit", "speed-limit"),
        ("end-of-limit", "end-of-limit"),
    ],
)
def test_easy_cards_of_one_family_cancel(top: str, card: str) -> None:
    """In the easy preset any two cards of a family cancel, identical cards included."""
    hand = [card, *JUNK[:6]]
    s = deal([[top], *[["50"]] * 6], hand, preset="easy")
    s = act(s, f"clear 1 with {card}")
    # Both cards go to the discard pile first (an automatic draw may follow: nothing else fits).
    assert s.cleared == 1 and s.miles == [] and s.discard[:2] == [Card(top), Card(card)]


@pytest.mark.parametrize(("top", "card"), [("speed-limit", "right-of-way"), ("stop", "gasoline")])
def test_easy_families_do_not_mix(top: str, card: str) -> None:
    """Easy families are exactly docs/rules/solo.md's: Right of Way is in Stop/Go's only."""
    s = deal([[top], ["go"], *[["50"]] * 5], [card, "stop", *JUNK[:5]], preset="easy")
    with pytest.raises(IllegalMove, match="does not clear it"):
        act(s, f"clear 1 with {card}")


def test_easy_still_pairs_safeties_with_200s() -> None:
    """The easy preset keeps the ordinary pairs: a safety still takes a 200."""
    s = deal([["200"], *[["50"]] * 6], ["extra-tank", *JUNK[:6]], preset="easy")
    assert act(s, "clear 1 with extra-tank").miles == [Card.D200]


# --- the end -------------------------------------------------------------------------------


def test_stuck_with_an_empty_tank_loses() -> None:
    """No move, an empty tank and no refuel: the game is lost, and says how far you got."""
    s = lay([["stop"], ["go"]], ["25"] * 6, miles=["50"])
    assert s.result == "lost" and G.to_act(s) == frozenset() and G.legal_actions(s, 0) == []
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == () and outcome.scores == (50,)
    assert "47/49" in outcome.reason


def test_clearing_the_last_card_wins() -> None:
    """Clearing the 49th card wins; the score is the miles in front of you."""
    s = lay([["stop"]], ["go", "25"], tank=["50"], miles=["100", "75"])
    s = act(s, "clear 1 with go")
    outcome = G.outcome(s)
    assert s.result == "won" and outcome is not None and outcome.winners == (0,)
    assert outcome.scores == (175,) and "49/49" in outcome.reason


def test_win_with_an_empty_tank_by_default() -> None:
    """Without require_fuel_left, a win needs no card left in the tank."""
    s = act(lay([["stop"]], ["go"]), "clear 1 with go")
    assert s.result == "won"


def test_require_fuel_left_loses_with_an_empty_tank() -> None:
    """With require_fuel_left on, clearing everything with an empty tank is a loss."""
    s = act(lay([["stop"]], ["go"], require_fuel_left="on"), "clear 1 with go")
    assert s.result == "lost" and s.cleared == 49 and "tank is empty" in s.end_reason


def test_require_fuel_left_wins_with_a_card_in_the_tank() -> None:
    """With require_fuel_left on, one card left in the tank is enough."""
    s = act(lay([["stop"]], ["go"], tank=["25"], require_fuel_left="on"), "clear 1 with go")
    assert s.result == "won"


def test_a_win_comes_before_being_stuck() -> None:
    """Clearing the last card with an empty hand and tank still wins."""
    s = act(lay([["stop"]], ["go"]), "clear 1 with go")
    assert s.hand == [] and not s.tank and s.result == "won"


def test_no_move_after_the_end() -> None:
    """Once the game is over every move is refused."""
    s = act(lay([["stop"]], ["go", "stop"]), "clear 1 with go")
    with pytest.raises(IllegalMove, match="over"):
        act(s, "clear 1 with stop")


def test_rank_key_orders_wins_then_cleared_then_miles() -> None:
    """Leaderboards: any win beats any loss, then more cards cleared, then more miles."""
    won = act(lay([["stop"]], ["go"]), "clear 1 with go")
    lost_far = lay([["stop"]], ["25"], miles=["200"])
    lost_short = lay([["stop"], ["go"]], ["25"], miles=["200", "200"])
    keys = [rules.rank_key(s) for s in (won, lost_far, lost_short)]
    assert keys == sorted(keys, reverse=True)


# --- notation, options, saves --------------------------------------------------------------


def test_notation_round_trips_for_every_action() -> None:
    """format then parse gives the same action, for every highway and card."""
    actions = [Action("clear", n, card) for n in range(1, 8) for card in Card]
    actions += [Action("sacrifice", n, card) for n in range(1, 8) for card in Card if card.miles]
    for action in actions:
        assert G.parse_action(G.format_action(action)) == action


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("clear 3 with go", Action("clear", 3, Card.GO)),
        ("CLEAR highway 3 with Go", Action("clear", 3, Card.GO)),
        ("go on 3", Action("clear", 3, Card.GO)),
        ("3 go", Action("clear", 3, Card.GO)),
        ("h3 feu vert", Action("clear", 3, Card.GO)),
        ("play end of limit on #2", Action("clear", 2, Card.END_OF_LIMIT)),
        ("clear 7 with 75", Action("clear", 7, Card.D75)),
        ("sacrifice 100 on 5", Action("sacrifice", 5, Card.D100)),
        ("sac 5 100", Action("sacrifice", 5, Card.D100)),
        ("jouer feu rouge sur 1", Action("clear", 1, Card.STOP)),
    ],
)
def test_notation_is_forgiving(text: str, expected: Action) -> None:
    """Case, filler words, either order, French names and short verbs are understood."""
    assert G.parse_action(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "clear go",
        "clear 3",
        "clear 9 with go",
        "clear 3 with unicorn",
        "sacrifice go 3",
        "clear 2 3 with go",
    ],
)
def test_bad_notation_is_a_notation_error(text: str) -> None:
    """Text that is not a move gives a NotationError with advice."""
    with pytest.raises(NotationError):
        G.parse_action(text)


def test_describe_action_in_plain_words() -> None:
    """Menu labels name the card, the top card and the highway."""
    s = deal(table("200"), ["extra-tank", "go", *JUNK[:5]])
    labels = {G.describe_action(s, 0, a) for a in G.legal_actions(s, 0)}
    assert "Extra Tank on 200 miles (highway 1) +200" in labels
    assert "Go on Stop (highway 2)" in labels


@pytest.mark.parametrize(
    ("preset", "warned"), [("classic", True), ("refuel", False), ("easy", False)]
)
def test_the_classic_preset_says_it_cannot_be_won(preset: str, warned: bool) -> None:
    """Starting classic tells the player plainly it is unwinnable and names the winnable presets."""
    notice = start_notice(G.new_game(["Ann"], seed=1, options={"preset": preset}).options)
    if warned:
        assert "cannot be cleared completely" in notice and "score attack" in notice
        assert "preset:refuel" in notice and "preset:easy" in notice
    else:
        assert notice == ""


def test_default_options() -> None:
    """Defaults: classic preset, BSD deck, no fuel needed to win, English names."""
    s = G.new_game(["Ann"], seed=1)
    assert s.options == {
        "preset": "classic",
        "deck": "bsd",
        "require_fuel_left": "off",
        "names": "en",
    }


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"preset": "nightmare"}, "classic, refuel, easy"),
        ({"deck": "tarot"}, "bsd, modern"),
        ({"require_fuel_left": "maybe"}, "off, on"),
        ({"speed": "fast"}, "no option called 'speed'"),
    ],
)
def test_bad_options_are_refused(options: dict[str, str], message: str) -> None:
    """Unknown options and values are refused with the choices."""
    with pytest.raises(BadOption, match=message):
        G.new_game(["Ann"], seed=1, options=options)


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        (["go"] * 10, "at least 56"),
        (["extra-tank"] * 60, "only has 1"),
        (["banana"] * 60, "banana"),
    ],
)
def test_bad_stacked_decks_are_refused(deck: list[str], message: str) -> None:
    """Stacked decks must be real cards, in the deck's numbers, enough for the deal."""
    with pytest.raises(BadOption, match=message):
        G.new_game(["Ann"], seed=1, deck=deck)


def test_state_survives_json() -> None:
    """A state mid-game written to JSON and read back is the same state."""
    s = act(deal([["stop", "go"], *QUIET[1:]], ["go", "stop", *JUNK[:5]]), "clear 1 with go")
    data = json.loads(json.dumps(G.to_dict(s)))
    assert G.to_dict(G.from_dict(data)) == G.to_dict(s)


def test_old_schema_is_refused() -> None:
    """A save in another format version is a CorruptSave with a sentence."""
    data = G.to_dict(G.new_game(["Ann"], seed=3))
    data["schema_version"] = 99
    with pytest.raises(CorruptSave, match="cannot be resumed"):
        G.from_dict(data)


@pytest.mark.parametrize(
    "damage",
    [
        "missing",
        "bad_card",
        "not_a_dict",
        "two_players",
        "extra_copies",
        "eight_highways",
        "mille_save",
        "bad_preset",
    ],
)
def test_damaged_save_is_refused(damage: str) -> None:
    """Missing fields, unknown cards, impossible tables and nonsense are CorruptSave."""
    data: object = G.to_dict(G.new_game(["Ann"], seed=3))
    assert isinstance(data, dict)
    if damage == "missing":
        del data["highways"]
    elif damage == "bad_card":
        data["tank"][0] = "banana"
    elif damage == "two_players":
        data["players"] = ["Ann", "Bob"]
    elif damage == "extra_copies":
        data["hand"] = ["extra-tank"] * 2
    elif damage == "eight_highways":
        data["highways"].append([])
    elif damage == "mille_save":
        data["game"] = "mille"
    elif damage == "bad_preset":
        data["options"]["preset"] = "nightmare"
    else:
        data = ["not", "a", "game"]
    with pytest.raises(CorruptSave):
        G.from_dict(data)  # type: ignore[arg-type]


# --- review additions: rules whose tests could pass with the rule broken ----------------------


def test_a_sacrifice_counts_as_a_move() -> None:
    """When the only move is a sacrifice, nothing is drawn or wiped: the player chooses."""
    s = lay([["100"], *QUIET[1:]], ["25"] * 7, tank=["50"] * 3, miles=["100"])
    assert s.events == [] and len(s.tank) == 3 and s.wipes == 0
    assert G.legal_actions(s, 0) == [G.parse_action("sacrifice 100 on 1")]


def test_refuel_only_when_the_tank_is_empty() -> None:
    """A short tank is drawn dry first; no refuel is spent while cards remain in it."""
    s = lay(
        [["stop"], *QUIET[1:]], ["25"] * 5, tank=["go", "75"], discard=["50"] * 4, preset="refuel"
    )
    assert s.refuels_used == 0 and not s.tank and Card.GO in s.hand


def test_refuel_only_when_stuck() -> None:
    """An empty tank is not refilled while a move is still possible."""
    s = lay([["stop"], *QUIET[1:]], ["go", *["25"] * 4], discard=["50"] * 4, preset="refuel")
    assert s.refuels_used == 0 and not s.tank and s.result is None


def test_refuel_shuffles_with_the_games_own_random_state() -> None:
    """The refilled tank is the discard pile shuffled by the game's seed and refuel number."""
    discard = ["50", "75", "100", "go", "gasoline", "repairs", "end-of-limit", "spare-tire"]
    s = lay([["stop"], *QUIET[1:]], ["go", *["25"] * 4], preset="refuel")
    s.discard = [Card(c) for c in discard]
    rules._refuel(s)
    expected = [Card(c) for c in discard]
    random.Random(f"solo:{s.seed}:refuel:1").shuffle(expected)
    assert expected != [Card(c) for c in discard]  # this seed really reorders the pile
    assert s.tank == expected and s.discard == [] and s.refuels_used == 1


@pytest.mark.parametrize(
    ("deck", "hazards"), [("bsd", (2, 2, 2, 4, 3)), ("modern", (3, 3, 3, 5, 4))]
)
def test_deck_compositions_follow_rulings_0(deck: str, hazards: tuple[int, ...]) -> None:
    """Both decks hold exactly the counts of docs/rules/mille.md, card by card."""
    counts = deck_counts(deck)
    named = ("out-of-gas", "flat-tire", "accident", "stop", "speed-limit")
    assert tuple(counts[Card(c)] for c in named) == hazards
    fixed = {"25": 10, "50": 10, "75": 10, "100": 12, "200": 4, "gasoline": 6, "spare-tire": 6}
    fixed |= {"repairs": 6, "go": 14, "end-of-limit": 6}
    fixed |= {s: 1 for s in ("extra-tank", "puncture-proof", "driving-ace", "right-of-way")}
    assert all(counts[Card(c)] == n for c, n in fixed.items())


@pytest.mark.parametrize(
    ("top", "card"),
    [
        ("extra-tank", "driving-ace"),
        ("stop", "out-of-gas"),
        ("stop", "100"),
        ("right-of-way", "stop"),
    ],
)
def test_nothing_else_matches_in_classic(top: str, card: str) -> None:
    """Safety on safety, hazard on another hazard, distance on a hazard: no match."""
    s = lay([[top], ["stop"], *QUIET[2:]], [card, "go", *["25"] * 5])
    assert not any(
        m.startswith(f"clear 1 with {card}")
        for m in (G.format_action(a) for a in G.legal_actions(s, 0))
    )

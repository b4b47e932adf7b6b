"""Mille Bornes Solo: rules of docs/rules/solo.md that a rule-by-rule fidelity audit found
with no test pinning their effect, one behaviour per test, on stacked tables.

The tables come from the helpers of ``test_solo_rules``: ``deal`` stacks a deck (highways top
card first, the hand, the tank), ``lay`` sets a table up directly and lets the automatic steps
run.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from bot.engine.core import IllegalMove
from bot.engine.mille.cards import Card
from bot.engine.solo import rules
from tests.engine.test_solo_rules import JUNK, QUIET, G, act, deal, lay

# --- the highways (Play) -------------------------------------------------------------------


def test_any_highway_can_be_cleared_first() -> None:
    """Every face-up top is open to play, in any order: clearing highway 7 while highway 1
    also has a move takes highway 7's card and leaves highway 1 as it was."""
    highways = [["stop", "100"], *QUIET[1:6], ["accident", "gasoline"]]
    s = act(deal(highways, ["go", "repairs", *JUNK[:5]]), "clear 7 with repairs")
    assert s.top(7) is Card.GASOLINE and s.top(1) is Card.STOP
    assert s.discard == [Card.ACCIDENT, Card.REPAIRS] and s.cleared == 1


def test_a_sacrifice_turns_up_the_next_card() -> None:
    """A sacrifice removes the highway's top like any clearing move: the card under it turns
    face up at once and can be cleared straight away."""
    s = lay([["100", "stop", "75"], *QUIET[1:]], ["go", *JUNK[:4]], tank=["50"], miles=["100"])
    s = act(s, "sacrifice 100 on 1")
    assert s.top(1) is Card.STOP and len(s.highways[0]) == 2
    assert "clear 1 with go" in G.public_view(s).legal


@pytest.mark.parametrize("miles", ["25", "50", "75", "200"])
def test_every_distance_value_can_be_sacrificed_on_its_equal(miles: str) -> None:
    """A claimed distance card of any value, 200 included, is sacrificed onto an equal highway
    card: both are discarded and its miles leave the score."""
    s = lay([[miles], *QUIET[1:]], JUNK[:5], tank=["50"], miles=[miles, "100"])
    s = act(s, f"sacrifice {miles} on 1")
    assert s.miles == [Card.D100] and s.discard[-2:] == [Card(miles), Card(miles)]
    assert s.mileage == 100


def test_a_claimed_card_is_not_played_from_the_hand() -> None:
    """Cards in front of you serve only the score and sacrifices: a claimed 100 cannot be
    played as if held (no 100 goes in front of you a second time), and nothing changes."""
    s = lay([["100"], ["stop"], *QUIET[2:]], ["go", *JUNK[:4]], tank=["50"], miles=["100"])
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="do not hold 100 miles"):
        act(s, "clear 1 with 100")
    assert G.to_dict(s) == before and "clear 1 with 100" not in G.public_view(s).legal


# --- the easy preset's families (Play) -----------------------------------------------------

# The five families as docs/rules/solo.md lists them, written out independently of the engine.
FAMILIES = [
    {"out-of-gas", "gasoline", "extra-tank"},
    {"flat-tire", "spare-tire", "puncture-proof"},
    {"accident", "repairs", "driving-ace"},
    {"stop", "go", "right-of-way"},
    {"speed-limit", "end-of-limit"},
]
CLASSIC = {
    frozenset(pair)
    for pair in [
        ("out-of-gas", "gasoline"),
        ("flat-tire", "spare-tire"),
        ("accident", "repairs"),
        ("stop", "go"),
        ("speed-limit", "end-of-limit"),
    ]
}
NON_DISTANCE = sorted(set().union(*FAMILIES))
SAFETIES = {"extra-tank", "puncture-proof", "driving-ace", "right-of-way"}


def _easy_clears(top: str, card: str) -> bool:
    same_family = any(top in family and card in family for family in FAMILIES)
    return same_family or frozenset((top, card)) in CLASSIC


@pytest.mark.parametrize(
    ("top", "card"),
    [
        (top, card)
        for top, card in product(NON_DISTANCE, NON_DISTANCE)
        # The deck holds one copy of each safety: a safety never meets itself.
        if not (top == card and top in SAFETIES)
    ],
)
def test_easy_pairs_are_exactly_the_listed_families(top: str, card: str) -> None:
    """In ``easy`` a hazard, remedy or safety clears a top exactly when the two are of one of
    the five listed families (or a classic pair): every combination is checked both ways, so a
    card put in the wrong family shows."""
    # Highway 2's 200 and the 200 in hand keep a move in reserve: nothing is drawn.
    s = lay([[top], ["200"], *QUIET[2:]], [card, "200", *JUNK[:3]], preset="easy")
    offered = f"clear 1 with {card}" in G.public_view(s).legal
    assert offered == _easy_clears(top, card)


# --- automatic steps (Play) ----------------------------------------------------------------


def test_a_refuel_comes_before_the_wipe_of_a_full_hand() -> None:
    """Stuck with seven cards and an empty tank: the refuel is made first (only the discard
    pile goes into the tank), then the whole hand is thrown away and seven new cards drawn,
    so the thrown-away hand is not shuffled back into the tank."""
    discard = ["stop", "50", "50", "50", "50", "75", "75"]
    s = lay(QUIET, ["25"] * 7, discard=discard, preset="refuel")
    assert s.refuels_used == 1 and s.wipes == 1 and s.result is None
    assert s.discard == [Card.D25] * 7 and not s.tank
    assert Counter(s.hand) == Counter(Card(c) for c in discard)
    assert s.events[0].startswith("Refuel:") and "whole hand is discarded" in s.events[1]


# --- the end and the score (Play, Rulings) -------------------------------------------------


def test_a_sacrifice_clearing_the_49th_card_wins() -> None:
    """Clearing the last highway card by a sacrifice wins at once; the score is the miles left
    in front of you after it."""
    s = lay([["100"]], JUNK[:3], miles=["100", "50"])
    s = act(s, "sacrifice 100 on 1")
    outcome = G.outcome(s)
    assert s.result == "won" and outcome is not None and outcome.winners == (0,)
    assert outcome.scores == (50,) and s.cleared == 49


def test_a_loss_shows_cards_cleared_and_miles() -> None:
    """Stuck with an empty tank, the result says how many of the 49 cards were cleared and the
    miles in front of you."""
    s = lay([["stop"], ["go"]], ["25"] * 6, miles=["75", "50"])
    assert s.result == "lost"
    assert "47/49 cards cleared" in s.end_reason and "125 miles" in s.end_reason


def test_the_outcome_gives_the_board_wins_cards_cleared_and_miles() -> None:
    """The leaderboard ranks by wins, then cards cleared, then miles, read from the outcome:
    a loss carries no winner, its cards cleared and its miles as the score."""
    s = lay([["stop", "go"], ["go"], ["go"]], ["25"] * 6, miles=["200", "25"])
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == ()
    assert outcome.seat_details == ({"cleared": 45},) and outcome.scores == (225,)
    assert G.info.ranking.keys == ("won", "cleared", "score")


def test_miles_break_a_tie_in_cards_cleared() -> None:
    """Two runs that cleared as many cards rank by miles: more miles first."""
    more = lay([["stop"], ["go"]], ["25"] * 6, miles=["200"])
    fewer = lay([["stop"], ["go"]], ["25"] * 6, miles=["100"])
    assert more.cleared == fewer.cleared
    assert rules.rank_key(more) > rules.rank_key(fewer)

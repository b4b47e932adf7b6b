"""Mille Bornes Solo: statements of docs/rules/solo.md that a statement-by-statement audit
found without a test of their own (or whose refusal was not checked to leave the game
unchanged).

Section names in parentheses are sections of that page. The tables are stacked with the
helpers of ``test_solo_rules``: ``lay`` sets the highways (top card first), the hand, the tank
and the cards in front of you directly, then lets the automatic steps run.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from bot.engine.core import IllegalMove
from bot.engine.mille.cards import Card, Kind, deck_counts
from bot.engine.solo.rules import pairs
from bot.engine.solo.state import HIGHWAY_CARDS, SoloState
from tests.engine.test_solo_rules import QUIET, G, act, lay

# Highway 2 shows a Stop and the hand holds a Go: a move stays in reserve, so no automatic
# step muddles the highway under test.
HAND = ["go", "25", "25", "25", "25"]


def _refused(s: SoloState, move: str, message: str) -> None:
    """``move`` is refused with a sentence containing ``message``, and nothing changes."""
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match=message) as refusal:
        act(s, move)
    assert str(refusal.value).endswith(".")
    assert G.to_dict(s) == before
    assert move not in G.public_view(s).legal


# --- sacrifices (Play) ---------------------------------------------------------------------


def test_a_claimed_200_cannot_be_sacrificed_on_a_highway_safety() -> None:
    """Only a distance card of the same value takes a sacrifice: a claimed 200 does not clear
    a safety on a highway (a 200 from the hand would), and the refusal changes nothing (Play:
    no other pair counts)."""
    s = lay([["extra-tank"], ["stop"], *QUIET[2:]], HAND, tank=["50"], miles=["200"])
    _refused(s, "sacrifice 200 on 1", "same value")


@pytest.mark.parametrize(
    ("top", "miles", "move", "message"),
    [
        ("100", [], "sacrifice 100 on 1", "no claimed 100 miles"),
        ("75", ["100"], "sacrifice 100 on 1", "same value"),
    ],
    ids=["nothing claimed", "unequal value"],
)
def test_a_refused_sacrifice_changes_nothing(
    top: str, miles: list[str], move: str, message: str
) -> None:
    """A sacrifice without that value in front of you, or onto another value, is refused with
    a sentence and leaves the game as it was (Play)."""
    s = lay([[top], ["stop"], *QUIET[2:]], HAND, tank=["50"], miles=miles)
    _refused(s, move, message)


def test_an_emptied_highway_refuses_every_move_and_changes_nothing() -> None:
    """A highway with no cards left takes no card, claimed or held (Rulings: Turning cards
    up)."""
    s = lay([[], ["stop"], *QUIET[2:]], HAND, tank=["50"], miles=["25"])
    _refused(s, "clear 1 with go", "already cleared")
    _refused(s, "sacrifice 25 on 1", "already cleared")


# --- the easy preset (Play, Rulings) -------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "card"),
    [
        ("50", "25"),  # distance cards are no family: values must still be equal
        ("100", "extra-tank"),  # a safety still takes only a 200
        ("extra-tank", "driving-ace"),  # safeties of two families
        ("gasoline", "spare-tire"),  # remedies of two families
        ("out-of-gas", "flat-tire"),  # hazards of two families
    ],
)
def test_easy_still_refuses_cards_of_different_families(top: str, card: str) -> None:
    """In ``easy`` only two cards of one family cancel (besides the classic pairs): cards of
    different families, and distance cards of unequal value, still do not (Play)."""
    s = lay([[top], ["stop"], *QUIET[2:]], [card, *HAND[:4]], tank=["50"], preset="easy")
    _refused(s, f"clear 1 with {card}", "does not clear it")


# --- the end (Play) ------------------------------------------------------------------------


def test_an_empty_tank_is_no_loss_while_a_move_remains() -> None:
    """You lose when stuck with an empty tank, not when the tank runs dry: with the tank empty
    and a pair still in hand the game goes on (Play)."""
    s = lay([["stop", "go"], *QUIET[1:]], ["go", "25"], tank=[])
    assert s.result is None and not s.tank
    assert G.legal_actions(s, 0) == [G.parse_action("clear 1 with go")]
    cleared = s.cleared
    s = act(s, "clear 1 with go")  # now stuck: the run ends
    assert s.result == "lost" and s.cleared == cleared + 1


def test_giving_up_ends_the_run_with_what_was_cleared() -> None:
    """``/resign`` ends the run as a loss and keeps the cards cleared and the miles so far
    (Rulings: Giving up)."""
    s = act(
        lay([["100", "stop"], ["stop"], *QUIET[2:]], ["100", *HAND], tank=["50"]),
        "clear 1 with 100",
    )
    after = G.leave(s, 0)
    outcome = G.outcome(after)
    assert after.result == "lost" and G.to_act(after) == frozenset()
    assert outcome is not None and outcome.winners == () and outcome.scores == (100,)
    assert "cleared" in outcome.reason and f"{s.cleared}/49" in outcome.reason


def test_giving_up_a_finished_game_is_refused() -> None:
    """Once the game is over, giving up is refused with a sentence and changes nothing."""
    won = act(lay([["stop"]], ["go"]), "clear 1 with go")
    before = G.to_dict(won)
    with pytest.raises(IllegalMove, match="already over"):
        G.leave(won, 0)
    assert G.to_dict(won) == before and won.result == "won"


# --- the classic preset cannot be won (Rulings) ------------------------------------------


def _classic_bound(deck: str) -> int:
    """The most highway cards a classic game can clear, counted from the deck.

    Every clearing takes exactly one highway card. A hazard/remedy clearing discards a hazard,
    so there are at most as many as hazards. A value with n copies: an equal pair uses two
    copies (one claimed), a sacrifice one more copy and a claimed one; with a pairs and b ≤ a
    sacrifices, 2a + b ≤ n copies clear a + b ≤ 2n/3 cards. The 200s also pair with safeties
    (the 200 is claimed, and may be sacrificed later): every clearing with a 200 — a pair, a
    safety, a sacrifice — brings one copy into play for the first time, so there are at most
    n(200) of them. Classic never refuels, so a discarded card never comes back.
    """
    counts = deck_counts(deck)
    hazards = sum(n for card, n in counts.items() if card.is_hazard)
    values = sum(2 * n // 3 for card, n in counts.items() if card.is_distance and card.miles < 200)
    return hazards + values + counts[Card.D200]


def _kind_of_pair(card: Card, top: Card) -> str | None:
    if card.is_distance and card is top:
        return "equal distance"
    if {card.kind, top.kind} == {Kind.HAZARD, Kind.REMEDY}:
        return "hazard and remedy"
    if Card.D200 in (card, top) and (card.is_safety or top.is_safety):
        return "safety and 200"
    return None


def test_classic_pairs_are_only_those_the_count_relies_on() -> None:
    """In classic, a card clears a top only as a hazard with a remedy, two equal distance
    cards, or a safety with a 200: the kinds of pair the count below is made of (Play)."""
    cleared_by = [(c, t) for c, t in product(Card, Card) if pairs(c, t, easy=False)]
    assert [(c, t) for c, t in cleared_by if _kind_of_pair(c, t) is None] == []
    assert {_kind_of_pair(c, t) for c, t in cleared_by} == {
        "equal distance",
        "hazard and remedy",
        "safety and 200",
    }


@pytest.mark.parametrize(("deck", "bound"), [("bsd", 43), ("modern", 48)])
def test_classic_can_never_clear_all_49_cards(deck: str, bound: int) -> None:
    """No classic deal clears more than 43 (bsd) or 48 (modern) of the 49 cards, so classic
    cannot be won (Rulings: The classic preset cannot be won): the count from the deck, and
    random play that never goes past it."""
    assert _classic_bound(deck) == bound < HIGHWAY_CARDS
    rng = random.Random(deck)
    for seed in range(40):
        s = G.new_game(["Ann"], seed=seed, options={"deck": deck})
        while s.result is None:
            s = G.apply(s, 0, rng.choice(G.legal_actions(s, 0)))
        assert s.result == "lost" and s.cleared <= bound

"""Mille Bornes Solo: statements of docs/rules/solo.md that a statement-by-statement audit
found without a test of their own (or whose refusal was not checked to leave the game
unchanged).

Section names in parentheses are sections of that page. The tables are stacked with the
helpers of ``test_solo_rules``: ``lay`` sets the highways (top card first), the hand, the tank
and the cards in front of you directly, then lets the automatic steps run.
"""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalMove
from bot.engine.solo.state import SoloState
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

"""Rules where Junction must match the bsd-games ``mille`` program (docs/rules/mille.md).

Go under Right of Way (Go goes on an empty battle pile, a Stop or a remedy, with no exception;
a pile a safety has cleared counts as the BSD program leaves it); the hand-end check with the
deck empty (the draw is a move, and a card counts as playable as the program's ``canplay``
says); and how many cards a draw takes (it fills the hand towards seven, at most two).
"""

from __future__ import annotations

import json

import pytest

from bot.engine.core import IllegalMove
from bot.engine.mille.cards import Card, full_deck
from bot.engine.mille.state import MilleState, Phase
from tests.conformance.engine_checks import check_playout
from tests.engine.mille_helpers import GAME, G, act, start

FILLER = ["75", "75", "75", "50", "50", "50"]


def _with_rest_of_deck(codes: list[str]) -> list[str]:
    """``codes`` on top, then every other card of the bsd deck (unshuffled: 25s first)."""
    rest = full_deck("bsd")
    for code in codes:
        rest.remove(Card(code))
    return [*codes, *(card.value for card in rest)]


def _legal(s: MilleState, seat: int) -> list[str]:
    return [G.format_action(a) for a in G.legal_actions(s, seat)]


def _labels(s: MilleState, seat: int) -> dict[str, int]:
    return {line.label: line.points for line in s.results[0].lines[seat]}


# --- Go under Right of Way ------------------------------------------------------------------


def test_go_is_legal_on_an_empty_battle_pile_under_right_of_way() -> None:
    """With Right of Way played, Go may still be played on an empty battle pile."""
    deck = _with_rest_of_deck(
        ["right-of-way", "go", "25", "50", "75", "100"] + ["end-of-limit"] * 3 + ["repairs"] * 3
    )
    s = G.new_game(["Ann", "Bob"], seed=1, deck=deck)
    s = act(s, 0, "play right-of-way")
    assert s.turn == 0 and s.phase is Phase.ACT and len(s.tableaus[0].hand) == 7
    assert "play go" in _legal(s, 0)
    s = act(s, 0, "play go")
    assert s.tableaus[0].battle == [Card.GO] and s.turn == 1


def test_go_is_legal_on_a_remedy_under_right_of_way() -> None:
    """With Right of Way, Go may be played on the remedy that answered a hazard."""
    s = start(
        ["right-of-way", "gasoline", "go", *FILLER[:3]],
        ["out-of-gas", *FILLER[:5]],
        ["25"] * 6,
    )
    s = act(s, 0, "play right-of-way", "discard 75")
    s = act(act(s, 1, "play out-of-gas"), 0, "play gasoline")
    s = act(s, 1, "discard 75")
    assert "play go" in _legal(s, 0)
    assert act(s, 0, "play go").tableaus[0].battle_top is Card.GO


def test_a_safety_clearing_its_hazard_leaves_the_pile_counting_as_go() -> None:
    """A safety removing the showing hazard makes the pile count as Go, not the card beneath."""
    s = start(
        ["right-of-way", "puncture-proof", "go", *FILLER[:3]],
        ["flat-tire", *FILLER[:5]],
        ["25"] * 6,
    )
    s = act(s, 0, "play right-of-way", "discard 75")
    s = act(s, 1, "play flat-tire")
    s = act(s, 0, "play puncture-proof")  # a coup fourré, before drawing
    me = s.tableaus[0]
    assert me.battle == [] and me.battle_shows is Card.GO and Card.FLAT_TIRE in s.discard
    assert G.public_view(s).tableaus[0].battle_counts_as is Card.GO
    assert "play go" not in _legal(s, 0)
    with pytest.raises(IllegalMove, match="already have a Go"):
        act(s, 0, "play go")


def test_right_of_way_clearing_a_stop_leaves_an_empty_pile() -> None:
    """Right of Way on a Stop leaves the pile counting as empty (BSD): Go may go on it."""
    s = start(
        ["go", "right-of-way", "go", *FILLER[:3]],
        ["stop", *FILLER[:5]],
        ["25"] * 6,
    )
    s = act(act(s, 0, "play go"), 1, "play stop")
    s = act(s, 0, "draw", "play right-of-way")
    me = s.tableaus[0]
    assert me.battle == [Card.GO] and me.battle_shows is None and Card.STOP in s.discard
    assert "play go" in _legal(s, 0)


def test_right_of_way_lifting_a_speed_limit_sets_the_pile_to_go() -> None:
    """Right of Way against a Speed Limit on an empty battle pile makes it count as Go (BSD)."""
    s = start(["right-of-way", "go", *FILLER[:4]], ["speed-limit", *FILLER[:5]], ["25"] * 6)
    s = act(act(s, 0, "discard 75"), 1, "play speed-limit")
    s = act(s, 0, "play right-of-way")
    me = s.tableaus[0]
    assert me.speed == [] and me.battle == [] and me.battle_shows is Card.GO
    with pytest.raises(IllegalMove, match="already have a Go"):
        act(s, 0, "play go")


def test_right_of_way_lifting_a_speed_limit_leaves_a_flat_tire_showing() -> None:
    """Right of Way lifts a Speed Limit, but a Flat Tire under it still shows: the pile does not
    count as Go, and no distance may be played until a Spare Tire."""
    s = start(
        ["go", "right-of-way", *FILLER[:4]], ["speed-limit", "flat-tire", *FILLER[:4]], ["25"] * 8
    )
    s = act(act(s, 0, "play go"), 1, "play speed-limit")
    s = act(act(s, 0, "draw", "discard 75"), 1, "play flat-tire")
    s = act(s, 0, "draw", "play right-of-way")
    me = s.tableaus[0]
    assert me.speed == [] and me.battle_shows is Card.FLAT_TIRE
    assert not [move for move in _legal(s, 0) if move.startswith("play ")]


def test_a_card_on_a_cleared_pile_shows_as_itself_again() -> None:
    """Once a hazard lands on a cleared pile, the pile counts as its top card again."""
    s = start(
        ["right-of-way", "puncture-proof", *FILLER[:4]],
        ["flat-tire", "accident", *FILLER[:4]],
        ["25"] * 8,
    )
    s = act(s, 0, "play right-of-way", "discard 75")
    s = act(act(s, 1, "play flat-tire"), 0, "play puncture-proof", "discard 75")
    s = act(s, 1, "play accident")
    assert s.tableaus[0].battle_shows is Card.ACCIDENT and "play 50" not in _legal(s, 0)


def test_go_under_right_of_way_does_not_keep_the_hand_going_with_the_deck_empty() -> None:
    """With the deck empty, a Go held under Right of Way does not count as playable (BSD)."""
    s = start(
        ["right-of-way", "go", "gasoline", "gasoline", "gasoline", "gasoline"],
        ["spare-tire"] * 6,
        ["repairs", "repairs"],
    )
    s = act(s, 0, "play right-of-way")  # draws the last card: only the Go could still be played
    assert s.hand_number == 2
    assert "neither player can play" in s.results[0].reason


def test_go_without_right_of_way_keeps_the_hand_going_with_the_deck_empty() -> None:
    """With the deck empty, a Go a stopped player could play still counts as playable."""
    s = start(["go", *["gasoline"] * 5], ["spare-tire"] * 6, ["repairs"])
    s = act(s, 0, "discard gasoline")
    assert not s.draw_pile and not s.results and s.turn == 1


def _limit_in_hand_with_bob_at(miles: list[Card]) -> MilleState:
    """Ann holds a Speed Limit and Gasolines, Bob only Spare Tires; the deck is empty."""
    s = start(["speed-limit", *["gasoline"] * 5], ["spare-tire"] * 6, ["repairs"])
    s.tableaus[1].miles = miles
    return act(s, 0, "discard gasoline")


def test_speed_limit_near_the_target_does_not_keep_the_hand_going() -> None:
    """With the deck empty, a Speed Limit on an opponent 50 or fewer miles from the target
    does not count as playable (BSD): the hand ends."""
    s = _limit_in_hand_with_bob_at([Card.D200, Card.D200, Card.D100, Card.D100, Card.D50])
    assert s.hand_number == 2 and "neither player can play" in s.results[0].reason


def test_speed_limit_far_from_the_target_keeps_the_hand_going() -> None:
    """With the deck empty, a Speed Limit on an opponent more than 50 miles short counts."""
    s = _limit_in_hand_with_bob_at([Card.D200, Card.D200, Card.D100, Card.D100, Card.D25])
    assert s.hand_number == 1 and not s.results and s.turn == 1


def test_speed_limit_is_still_a_legal_play_near_the_target() -> None:
    """The end-of-hand check aside, a Speed Limit may still be played near the target."""
    s = start(["speed-limit", *["gasoline"] * 5], ["spare-tire"] * 6, ["repairs"] * 3)
    s.tableaus[1].miles = [Card.D200, Card.D200, Card.D100, Card.D100, Card.D50]
    s = act(s, 0, "play speed-limit")
    assert s.tableaus[1].speed_top is Card.SPEED_LIMIT


# --- how many cards a draw takes -----------------------------------------------------------


def _two_safeties_before_drawing() -> MilleState:
    """Ann has an old Speed Limit and a fresh Flat Tire showing and both safeties in hand."""
    s = start(
        ["go", "puncture-proof", "right-of-way", *FILLER[:3]],
        ["speed-limit", "flat-tire", *FILLER[:4]],
        [*["25"] * 7, *["100"] * 7],
    )
    s = act(act(s, 0, "play go"), 1, "play speed-limit")
    s = act(act(s, 0, "draw", "discard 75"), 1, "play flat-tire")
    assert G.private_view(s, 0).phase == "draw"
    return act(s, 0, "play puncture-proof", "play right-of-way")


def test_two_safeties_before_drawing_still_draw_two() -> None:
    """Two safeties played before one draw: the draw takes two cards, not three (BSD)."""
    s = _two_safeties_before_drawing()
    me = s.tableaus[0]
    assert s.turn == 0 and s.phase is Phase.ACT and len(me.hand) == 6
    assert me.coups == [Card.PUNCTURE_PROOF] and me.speed_top is None


def test_a_hand_of_five_draws_two_on_the_next_turn() -> None:
    """A hand left at five cards draws two at the start of its next turn (BSD)."""
    s = act(_two_safeties_before_drawing(), 0, "discard 75")
    assert len(s.tableaus[0].hand) == 5
    s = act(s, 1, "discard 75")
    assert s.turn == 0 and len(s.tableaus[0].hand) == 7


def test_the_public_view_counts_the_two_card_draw_before_it_happens() -> None:
    """While a hand of five decides before drawing, the table already shows seven cards."""
    s = start(
        ["go", "puncture-proof", "right-of-way", "driving-ace", *FILLER[:2]],
        ["speed-limit", "flat-tire", "accident", *FILLER[:3]],
        [*["25"] * 7, *["100"] * 7],
    )
    s = act(act(s, 0, "play go"), 1, "play speed-limit")
    s = act(act(s, 0, "draw", "discard 75"), 1, "play flat-tire")
    s = act(s, 0, "play puncture-proof", "play right-of-way", "play 25")
    s = act(s, 1, "play accident")  # Ann holds five cards and may parry before drawing
    assert G.private_view(s, 0).phase == "draw" and len(s.tableaus[0].hand) == 5
    assert G.public_view(s).tableaus[0].hand_count == 7


def test_a_cleared_pile_survives_json() -> None:
    """What a cleared battle pile counts as is saved and read back."""
    s = start(["right-of-way", "go", *FILLER[:4]], ["speed-limit", *FILLER[:5]], ["25"] * 6)
    s = act(act(s, 0, "discard 75"), 1, "play speed-limit")
    s = act(s, 0, "play right-of-way")
    back = G.from_dict(json.loads(json.dumps(G.to_dict(s))))
    assert back.tableaus[0].battle_shows is Card.GO and G.to_dict(back) == G.to_dict(s)


def test_a_save_from_before_cleared_piles_still_loads() -> None:
    """A saved game without the cleared-pile field reads as piles counting as their top card."""
    data = G.to_dict(act(start(["go", *FILLER[:5]], FILLER, ["25"] * 4), 0, "play go"))
    for tableau in data["tableaus"]:
        del tableau["battle_mark"]
    back = G.from_dict(data)
    assert back.tableaus[0].battle_shows is Card.GO and back.tableaus[1].battle_shows is None


# --- the hand-end check after the draw that empties the deck --------------------------------


def test_hand_ends_right_after_the_draw_that_empties_the_deck() -> None:
    """If neither player can play after the last card is drawn, the hand ends at once."""
    s = start(
        ["go", "100", "gasoline", "gasoline", "gasoline", "gasoline"],
        ["spare-tire"] * 6,
        ["gasoline", "repairs", "gasoline", "repairs", "repairs"],
        length="hand",
    )
    s = act(act(s, 0, "play go"), 1, "discard spare-tire")
    s = act(s, 0, "play 100")
    s = act(s, 1, "discard spare-tire")  # Ann draws the last card: nobody can play
    assert not s.draw_pile and s.phase is Phase.OVER
    assert "neither player can play" in s.results[0].reason
    assert _labels(s, 0) == {"Milestones": 100} and _labels(s, 1) == {"Milestones": 0}
    assert s.completed_by is None and not s.delayed_action


def test_hand_ends_after_the_double_draw_of_a_coup_that_empties_the_deck() -> None:
    """The two-card draw after a coup fourré is checked too; the coup still scores."""
    s = start(
        ["go", "extra-tank", "gasoline", "gasoline", "gasoline", "gasoline"],
        ["out-of-gas", *["spare-tire"] * 5],
        ["repairs"] * 4,
    )
    s = act(act(s, 0, "play go"), 1, "play out-of-gas")
    s = act(s, 0, "play extra-tank")  # draws the last two cards: nobody can play
    assert s.hand_number == 2 and "neither player can play" in s.results[0].reason
    assert _labels(s, 0) == {"Milestones": 0, "Safeties ×1": 100, "Coups fourrés ×1": 300}


def test_a_player_who_can_play_after_the_last_draw_plays_on() -> None:
    """After the last draw the hand goes on while someone holds a playable card."""
    s = start(["go", *FILLER[:5]], ["100"] * 6, ["75", "25"])
    s = act(s, 0, "play go")  # Bob draws the last card; Ann can drive 75 next turn
    assert not s.draw_pile and s.turn == 1 and not s.results


# --- the public view still hides every hidden card ------------------------------------------


@pytest.mark.parametrize("seed", range(30))
def test_single_hand_playouts_keep_the_engine_invariants(seed: int) -> None:
    """Random single hands keep every conformance invariant (hidden cards stay hidden)."""
    report = check_playout(GAME, 2, seed, options={"length": "hand"})
    assert report.outcome is not None and report.outcome.reason

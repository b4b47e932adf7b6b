"""Classic Mille Bornes rules (docs/rules/mille.md), one behaviour per test, on stacked decks."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine.core import IllegalMove, NotYourTurn
from bot.engine.mille.cards import Card
from bot.engine.mille.rules import playable_cards, why_not_play
from bot.engine.mille.state import MilleState, Phase
from tests.engine.mille_helpers import G, act, codes, start

FILLER = ["75", "75", "75", "50", "50", "50"]


# --- deal and turn flow ------------------------------------------------------------------


def test_deal_gives_six_each_and_the_first_player_draws_automatically() -> None:
    """Each player gets six cards; seat 0 starts and its draw happens by itself."""
    s = start(["go", "25", "50", "75", "100", "gasoline"], FILLER, ["stop", "200", "25"])
    assert s.turn == 0 and s.phase is Phase.ACT
    assert len(s.tableaus[0].hand) == 7 and Card.STOP in s.tableaus[0].hand
    assert len(s.tableaus[1].hand) == 6
    assert len(s.draw_pile) == 2


def test_turn_passes_and_the_next_player_draws() -> None:
    """After a play the opponent draws one card and acts."""
    s = act(start(["go", *FILLER[:5]], FILLER, ["25", "200"]), 0, "play go")
    assert s.turn == 1 and Card.D200 in s.tableaus[1].hand and len(s.tableaus[1].hand) == 7


def test_safeties_cannot_be_discarded() -> None:
    """A safety can be played but never discarded."""
    s = start(["extra-tank", *FILLER[:5]], FILLER, ["25"])
    with pytest.raises(IllegalMove, match="never be discarded"):
        act(s, 0, "discard extra-tank")


def test_a_safety_gives_another_turn_with_a_fresh_draw() -> None:
    """Playing a safety keeps the turn: the player draws again and acts again."""
    s = act(start(["extra-tank", *FILLER[:5]], FILLER, ["25", "50", "25"]), 0, "play extra-tank")
    assert s.turn == 0 and s.phase is Phase.ACT
    assert Card.D50 in s.tableaus[0].hand and len(s.tableaus[0].hand) == 7
    assert s.tableaus[0].safeties == [Card.EXTRA_TANK] and not s.tableaus[0].coups


def test_not_your_turn() -> None:
    """Acting out of turn is refused with NotYourTurn."""
    s = start(["go", *FILLER[:5]], ["go", *FILLER[:5]], ["25"])
    with pytest.raises(NotYourTurn):
        act(s, 1, "play go")


def test_cannot_play_a_card_not_held() -> None:
    """Naming a card that is not in your hand is refused."""
    s = start(["go", *FILLER[:5]], FILLER, ["25"])
    with pytest.raises(IllegalMove, match="do not hold"):
        act(s, 0, "play repairs")


def test_illegal_move_leaves_the_state_untouched() -> None:
    """A refused move changes nothing: apply never mutates the state it is given."""
    s = start(["100", *FILLER[:5]], FILLER, ["25", "25"])
    before = G.to_dict(s)
    with pytest.raises(IllegalMove):
        act(s, 0, "play 100")
    assert G.to_dict(s) == before


# --- battle pile -------------------------------------------------------------------------


def test_distance_needs_a_go() -> None:
    """Without a Go (or Right of Way) no distance may be played."""
    s = start(["100", *FILLER[:5]], FILLER, ["25", "25"])
    with pytest.raises(IllegalMove, match="cannot move"):
        act(s, 0, "play 100")


def test_go_on_an_empty_battle_pile_lets_you_drive() -> None:
    """Go on an empty battle pile, then distance the next turn."""
    s = start(["go", "100", *FILLER[:4]], FILLER, ["25", "25", "25"])
    s = act(s, 0, "play go")
    s = act(s, 1, "discard 75")
    s = act(s, 0, "play 100")
    assert s.tableaus[0].mileage == 100


def test_go_cannot_cover_a_go() -> None:
    """A second Go on a Go is refused."""
    s = start(["go", "go", *FILLER[:4]], FILLER, ["25", "25", "25"])
    s = act(act(s, 0, "play go"), 1, "discard 75")
    with pytest.raises(IllegalMove, match="already have a Go"):
        act(s, 0, "play go")


def test_go_covers_a_stop() -> None:
    """Go may be played on a Stop."""
    s = start(["go", "go", *FILLER[:4]], ["stop", *FILLER[:5]], ["25", "25", "25"])
    s = act(act(s, 0, "play go"), 1, "play stop")
    s = act(s, 0, "play go")
    assert s.tableaus[0].battle_top is Card.GO


def test_go_cannot_cover_out_of_gas() -> None:
    """Out of Gas needs Gasoline first; Go alone is refused."""
    s = start(["go", "go", *FILLER[:4]], ["out-of-gas", *FILLER[:5]], ["25"] * 4)
    s = act(act(s, 0, "play go"), 1, "play out-of-gas")
    with pytest.raises(IllegalMove, match="Out of Gas"):
        act(s, 0, "play go")


def test_remedy_then_go_restarts() -> None:
    """Gasoline on Out of Gas stops nothing else: the player still needs a Go to move."""
    s = start(
        ["go", "gasoline", "go", "100", "75", "75"],
        ["out-of-gas", *FILLER[:5]],
        ["25", "25", "25", "25", "25"],
    )
    s = act(act(s, 0, "play go"), 1, "play out-of-gas")
    s = act(act(s, 0, "play gasoline"), 1, "discard 75")
    assert "play 100" not in G.private_view(s, 0).legal
    s = act(act(s, 0, "play go"), 1, "discard 75")
    s = act(s, 0, "play 100")
    assert s.tableaus[0].mileage == 100


def test_remedy_only_on_its_own_hazard() -> None:
    """Spare Tire does not repair Out of Gas."""
    s = start(["go", "spare-tire", *FILLER[:4]], ["out-of-gas", *FILLER[:5]], ["25"] * 4)
    s = act(act(s, 0, "play go"), 1, "play out-of-gas")
    with pytest.raises(IllegalMove, match="only repairs Flat Tire"):
        act(s, 0, "play spare-tire")


@pytest.mark.parametrize(
    ("hazard", "remedy"),
    [("out-of-gas", "gasoline"), ("flat-tire", "spare-tire"), ("accident", "repairs")],
)
def test_each_remedy_goes_on_its_own_hazard(hazard: str, remedy: str) -> None:
    """Gasoline answers Out of Gas, Spare Tire a Flat Tire, Repairs an Accident."""
    s = start(["go", remedy, *FILLER[:4]], [hazard, *FILLER[:5]], ["25"] * 6)
    s = act(act(s, 0, "play go"), 1, f"play {hazard}")
    assert act(s, 0, f"play {remedy}").tableaus[0].battle_top is Card(remedy)


def test_hazard_needs_a_moving_opponent() -> None:
    """A battle hazard can only go on an opponent who can go."""
    s = start(["stop", *FILLER[:5]], FILLER, ["25", "25"])
    with pytest.raises(IllegalMove, match="not moving"):
        act(s, 0, "play stop")


def test_hazards_do_not_stack() -> None:
    """A second hazard cannot be played on a player already stopped by one."""
    s = start(["go", *FILLER[:5]], ["stop", "out-of-gas", *FILLER[:4]], ["25"] * 5)
    s = act(act(s, 0, "play go"), 1, "play stop")
    s = act(s, 0, "discard 75")
    with pytest.raises(IllegalMove, match="not moving"):
        act(s, 1, "play out-of-gas")


@pytest.mark.parametrize(
    ("safety", "hazard"),
    [("extra-tank", "out-of-gas"), ("puncture-proof", "flat-tire"), ("driving-ace", "accident")],
)
def test_safety_protects_against_its_hazard(safety: str, hazard: str) -> None:
    """Each safety's own hazard is refused on a player who has played it."""
    s = start([safety, "go", *FILLER[:4]], [hazard, *FILLER[:5]], ["25", "25", "25"])
    s = act(s, 0, f"play {safety}", "play go")
    with pytest.raises(IllegalMove, match="protected"):
        act(s, 1, f"play {hazard}")


# --- speed pile ----------------------------------------------------------------------------


def test_speed_limit_on_a_standing_opponent() -> None:
    """Speed Limit may be played whether or not the opponent is moving."""
    s = act(start(["speed-limit", *FILLER[:5]], FILLER, ["25"] * 4), 0, "play speed-limit")
    assert s.tableaus[1].speed_top is Card.SPEED_LIMIT


def test_no_second_speed_limit() -> None:
    """A limited opponent cannot be limited again."""
    s = start(["speed-limit", "speed-limit", *FILLER[:4]], FILLER, ["25"] * 4)
    s = act(act(s, 0, "play speed-limit"), 1, "discard 75")
    with pytest.raises(IllegalMove, match="already under"):
        act(s, 0, "play speed-limit")


def test_speed_limit_allows_only_25_and_50() -> None:
    """Under a Speed Limit only 25 and 50 may be played."""
    s = start(["go", "75", "50", *FILLER[:3]], ["speed-limit", *FILLER[:5]], ["25", "25", "25"])
    s = act(act(s, 0, "play go"), 1, "play speed-limit")
    with pytest.raises(IllegalMove, match="Speed Limit"):
        act(s, 0, "play 75")
    assert act(s, 0, "play 50").tableaus[0].mileage == 50


def test_end_of_limit_lifts_the_limit() -> None:
    """End of Limit goes on a Speed Limit and lifts it."""
    s = start(["end-of-limit", *FILLER[:5]], ["speed-limit", *FILLER[:5]], ["25"] * 5)
    s = act(act(s, 0, "discard 75"), 1, "play speed-limit")
    s = act(s, 0, "play end-of-limit")
    assert s.tableaus[0].speed_top is Card.END_OF_LIMIT


def test_end_of_limit_needs_a_limit() -> None:
    """End of Limit is refused when not limited."""
    s = start(["end-of-limit", *FILLER[:5]], FILLER, ["25", "25"])
    with pytest.raises(IllegalMove, match="not under a Speed Limit"):
        act(s, 0, "play end-of-limit")


# --- distance ------------------------------------------------------------------------------


def test_at_most_two_200s() -> None:
    """A third 200 in one hand is refused."""
    s = start(["go", "200", "200", "200", "75", "75"], FILLER, ["25"] * 7)
    s = act(act(s, 0, "play go"), 1, "discard 75")
    s = act(act(s, 0, "play 200"), 1, "discard 75")
    s = act(act(s, 0, "play 200"), 1, "discard 75")
    with pytest.raises(IllegalMove, match="two 200s"):
        act(s, 0, "play 200")


def test_distance_may_not_pass_the_target() -> None:
    """The trip must end exactly: 100 at 650 miles is refused, 50 is fine."""
    s = start(["go", "100", "50", *FILLER[:3]], FILLER, ["25"] * 3)
    s = act(act(s, 0, "play go"), 1, "discard 75")
    s.tableaus[0].miles = [Card.D200, Card.D200, Card.D100, Card.D100, Card.D50]
    with pytest.raises(IllegalMove, match="past 700"):
        act(s, 0, "play 100")
    assert act(s, 0, "play 50").phase is Phase.EXTENSION


# --- Right of Way and the other safeties ---------------------------------------------------


def test_right_of_way_is_a_permanent_go() -> None:
    """With Right of Way a player moves without any Go card."""
    s = start(["right-of-way", "100", *FILLER[:4]], FILLER, ["25", "25"])
    s = act(s, 0, "play right-of-way", "play 100")
    assert s.tableaus[0].mileage == 100


def test_right_of_way_still_refuses_go_on_a_go() -> None:
    """With Right of Way, Go may go on an empty pile, but not on another Go."""
    s = start(["right-of-way", "go", "go", *FILLER[:3]], FILLER, ["25"] * 4)
    s = act(s, 0, "play right-of-way", "play go")
    s = act(s, 1, "discard 75")
    with pytest.raises(IllegalMove, match="already have a Go"):
        act(s, 0, "play go")


def test_right_of_way_protects_against_stop_and_speed_limit() -> None:
    """Neither Stop nor Speed Limit can be played on a Right of Way holder."""
    s = start(["right-of-way", *FILLER[:5]], ["stop", "speed-limit", *FILLER[:4]], ["25", "25"])
    s = act(s, 0, "play right-of-way", "discard 75")
    for card in ("stop", "speed-limit"):
        with pytest.raises(IllegalMove, match=r"Right of Way|protected"):
            act(s, 1, f"play {card}")


def test_right_of_way_clears_stop_and_speed_limit() -> None:
    """Right of Way played after drawing removes a showing Stop and Speed Limit."""
    s = start(
        ["go", "right-of-way", *FILLER[:4]],
        ["speed-limit", "stop", *FILLER[:4]],
        ["25", "25", "25", "25", "25"],
    )
    s = act(act(s, 0, "play go"), 1, "play speed-limit")
    s = act(act(s, 0, "draw", "discard 75"), 1, "play stop")
    s = act(s, 0, "draw", "play right-of-way")
    me = s.tableaus[0]
    assert me.battle_top is Card.GO and me.speed_top is None and not me.coups


def test_hazard_on_right_of_way_holder_then_remedy_alone_restarts() -> None:
    """With Right of Way a remedy alone gets you moving again."""
    s = start(
        ["right-of-way", "gasoline", "100", *FILLER[:3]],
        ["out-of-gas", *FILLER[:5]],
        ["25"] * 6,
    )
    s = act(s, 0, "play right-of-way", "discard 75")
    s = act(s, 1, "play out-of-gas")
    s = act(act(s, 0, "play gasoline"), 1, "discard 75")
    s = act(s, 0, "play 100")
    assert s.tableaus[0].mileage == 100


def test_hazard_lands_on_a_remedy_of_a_right_of_way_holder() -> None:
    """Under Right of Way a remedy showing means moving, so a hazard may land right on it."""
    s = start(
        ["right-of-way", "gasoline", *FILLER[:4]],
        ["out-of-gas", "flat-tire", *FILLER[:4]],
        [*["25"] * 6, *["100"] * 4],
    )
    s = act(s, 0, "play right-of-way", "discard 75")
    s = act(act(s, 1, "play out-of-gas"), 0, "play gasoline")
    s = act(s, 1, "play flat-tire")
    assert s.tableaus[0].battle == [Card.OUT_OF_GAS, Card.GASOLINE, Card.FLAT_TIRE]


def test_hazard_cannot_land_on_a_remedy_without_right_of_way() -> None:
    """Without Right of Way a remedy showing still needs a Go: no hazard may land on it."""
    s = start(
        ["go", "gasoline", *FILLER[:4]],
        ["out-of-gas", "flat-tire", *FILLER[:4]],
        ["25"] * 6,
    )
    s = act(act(s, 0, "play go"), 1, "play out-of-gas")
    s = act(s, 0, "play gasoline")
    with pytest.raises(IllegalMove, match="not moving"):
        act(s, 1, "play flat-tire")


def test_safety_removes_a_showing_hazard_and_you_may_go() -> None:
    """A safety played after drawing removes its hazard: no coup, but you may go again."""
    s = start(
        ["go", "puncture-proof", "100", *FILLER[:3]],
        ["flat-tire", *FILLER[:5]],
        ["25"] * 6,
    )
    s = act(act(s, 0, "play go"), 1, "play flat-tire")
    s = act(s, 0, "draw", "play puncture-proof", "play 100")
    assert s.tableaus[0].mileage == 100 and not s.tableaus[0].coups
    assert Card.FLAT_TIRE in s.discard


# --- coup fourré ---------------------------------------------------------------------------


def _accident_on_ann() -> MilleState:
    return start(
        ["go", "driving-ace", *FILLER[:4]],
        ["accident", *FILLER[:5]],
        ["25", "50", "100", "200", "25"],
    )


def test_coup_fourre_is_offered_before_drawing() -> None:
    """After a hazard lands, the victim holding its safety may play it before drawing."""
    s = act(act(_accident_on_ann(), 0, "play go"), 1, "play accident")
    view = G.private_view(s, 0)
    assert view.phase == "draw" and set(view.legal) == {"draw", "play driving-ace"}


def test_coup_fourre_scores_removes_the_hazard_and_draws_two() -> None:
    """The coup is recorded, the hazard goes, the player keeps the turn and draws two."""
    s = act(act(_accident_on_ann(), 0, "play go"), 1, "play accident")
    s = act(s, 0, "play driving-ace")
    me = s.tableaus[0]
    assert me.coups == [Card.DRIVING_ACE] and me.battle_top is Card.GO
    assert s.turn == 0 and s.phase is Phase.ACT and len(me.hand) == 7
    assert codes(me.hand).count("100") == 1 and codes(me.hand).count("200") == 1


def test_safety_after_drawing_on_a_fresh_hazard_is_no_coup() -> None:
    """Once the victim draws, the hazard is no longer fresh: the safety is no coup."""
    s = act(act(_accident_on_ann(), 0, "play go"), 1, "play accident")
    s = act(s, 0, "draw", "play driving-ace")
    assert s.tableaus[0].coups == [] and s.tableaus[0].safeties == [Card.DRIVING_ACE]


def test_pre_draw_safety_against_an_old_hazard_is_no_coup_but_draws_two() -> None:
    """A safety before drawing against an old hazard removes it and draws two, with no coup."""
    s = start(
        ["go", "75", *FILLER[:4]],
        ["accident", *FILLER[:5]],
        ["25", "50", "driving-ace", "25", "25", "25", "25"],
    )
    s = act(act(s, 0, "play go"), 1, "play accident")
    s = act(act(s, 0, "discard 75"), 1, "discard 75")  # Ann drew the Driving Ace
    assert G.private_view(s, 0).phase == "draw"
    s = act(s, 0, "play driving-ace")
    assert s.tableaus[0].coups == [] and len(s.tableaus[0].hand) == 7


def test_coup_fourre_with_the_deck_empty() -> None:
    """With the deck empty the safety is a coup if the hazard landed since the last turn."""
    s = start(["go", "driving-ace", *FILLER[:4]], ["accident", *FILLER[:5]], ["25", "50"])
    s = act(act(s, 0, "play go"), 1, "play accident")
    assert not s.draw_pile and s.phase is Phase.ACT
    s = act(s, 0, "play driving-ace")
    assert s.tableaus[0].coups == [Card.DRIVING_ACE]


def test_deck_empty_old_hazard_is_no_coup() -> None:
    """With the deck empty, a hazard from before your last turn gives no coup."""
    s = start(["go", "driving-ace", *FILLER[:4]], ["accident", *FILLER[:5]], ["25", "50"])
    s = act(act(s, 0, "play go"), 1, "play accident")
    s = act(act(s, 0, "discard 75"), 1, "discard 75")
    s = act(s, 0, "play driving-ace")
    assert s.tableaus[0].coups == []


def test_right_of_way_coup_against_a_speed_limit() -> None:
    """Right of Way parries a fresh Speed Limit as a coup fourré."""
    s = start(["right-of-way", *FILLER[:5]], ["speed-limit", *FILLER[:5]], ["25"] * 4)
    s = act(act(s, 0, "discard 75"), 1, "play speed-limit")
    s = act(s, 0, "play right-of-way")
    assert s.tableaus[0].coups == [Card.RIGHT_OF_WAY] and s.tableaus[0].speed_top is None


def test_pending_coup_does_not_show_in_the_public_view() -> None:
    """Onlookers cannot tell a pending coup fourré from an ordinary turn."""
    with_ace = start(["go", "driving-ace", *FILLER[:4]], ["accident", *FILLER[:5]], ["25"] * 4)
    without = start(["go", "repairs", *FILLER[:4]], ["accident", *FILLER[:5]], ["25"] * 4)
    views = []
    for s in (with_ace, without):
        s = act(act(s, 0, "play go"), 1, "play accident")
        views.append(G.public_view(s))
    assert G.private_view(act(with_ace, 0, "play go"), 0).phase == "wait"
    assert views[0] == views[1]


# --- extension -----------------------------------------------------------------------------


def _ann_at(miles: list[Card], hand: list[str], draws: list[str], **options: str) -> MilleState:
    s = start(["go", *hand], FILLER, draws, **options)
    s = act(act(s, 0, "play go"), 1, "discard 75")
    s.tableaus[0].miles = miles
    return s


AT_600 = [Card.D100] * 6


def test_landing_on_700_asks_the_lander_about_the_extension() -> None:
    """Exactly 700 stops play and asks the lander whether to extend."""
    s = act(_ann_at(AT_600, ["100", *FILLER[:4]], ["25"] * 6), 0, "play 100")
    assert G.to_act(s) == frozenset({0}) and set(G.legal_actions(s, 0)) == {
        G.parse_action("extend yes"),
        G.parse_action("extend no"),
    }
    with pytest.raises(NotYourTurn):
        act(s, 1, "extend yes")


def test_declining_the_extension_ends_the_hand_with_the_trip_bonus() -> None:
    """Stopping at 700 scores the completed trip (400 + safe trip 300 here)."""
    s = act(_ann_at(AT_600, ["100", *FILLER[:4]], ["25"] * 6), 0, "play 100", "extend no")
    result = s.results[0]
    labels = {line.label: line.points for line in result.lines[0]}
    assert labels["Trip completed"] == 400 and labels["Safe trip (no 200s)"] == 300
    assert "Shut-out" in labels  # Bob never moved
    assert s.hand_number == 2


def test_declining_the_extension_is_told_once() -> None:
    """Before the fix: "Ann stops at 700 miles. Hand 1 is over: Ann completed the trip at 700
    miles. Hand 2: Bob starts." (the 700 told twice)."""
    s = act(_ann_at(AT_600, ["100", *FILLER[:4]], ["25"] * 6), 0, "play 100", "extend no")
    assert s.caption == (
        "Ann declines the extension. Hand 1 is over: Ann completed the trip at 700 miles. "
        "Hand 2: Bob starts."
    )


def test_calling_the_extension_makes_the_target_1000_and_passes_the_turn() -> None:
    """An extension raises the target for both players and play goes on."""
    s = act(_ann_at(AT_600, ["100", *FILLER[:4]], ["25"] * 6), 0, "play 100", "extend yes")
    assert s.target == 1000 and s.turn == 1 and s.extension_called
    assert s.phase is Phase.ACT


def test_after_an_extension_the_opponent_may_drive_past_700() -> None:
    """The extended target of 1000 holds for both players."""
    s = start(["go", "100", *FILLER[:4]], ["go", "100", *FILLER[:4]], ["25"] * 8)
    s = act(act(s, 0, "play go"), 1, "play go")
    s.tableaus[0].miles = list(AT_600)
    s.tableaus[1].miles = [Card.D200, Card.D200, Card.D100, Card.D100, Card.D50]
    s = act(act(s, 0, "play 100", "extend yes"), 1, "play 100")
    assert s.tableaus[1].mileage == 750 and s.hand_number == 1


def test_only_one_extension_per_hand() -> None:
    """Reaching 1000 after an extension ends the hand without asking again."""
    s = act(_ann_at(AT_600, ["100", *FILLER[:4]], ["25"] * 6), 0, "play 100", "extend yes")
    s = act(s, 1, "discard 50")
    s.tableaus[0].miles = [*AT_600, Card.D100, Card.D100, Card.D100]
    s.tableaus[0].hand.append(Card.D100)
    s = act(s, 0, "play 100")
    assert s.hand_number == 2 and s.results[0].lines[0][0].points == 1000


def test_extension_not_reached_means_no_trip_bonus() -> None:
    """If nobody reaches 1000 after an extension, nobody earns trip bonuses."""
    s = act(_ann_at(AT_600, ["100", *FILLER[:4]], ["25"]), 0, "play 100", "extend yes")
    while s.hand_number == 1:
        seat = s.turn
        s = G.apply(s, seat, G.legal_actions(s, seat)[-1])
    labels = [line.label for line in s.results[0].lines[0]]
    assert "Trip completed" not in labels and "Extension" not in labels


def test_completing_the_extension_scores_the_extension_bonus() -> None:
    """Reaching 1000 after an extension earns 400 trip + 200 extension."""
    s = act(
        _ann_at(AT_600, ["100", "100", "100", "100", "75"], ["25"] * 6),
        0,
        "play 100",
        "extend yes",
    )
    for _ in range(3):
        s = act(act(s, 1, "discard 50"), 0, "play 100")
    labels = {line.label: line.points for line in s.results[0].lines[0]}
    assert labels["Trip completed"] == 400 and labels["Extension"] == 200
    assert s.results[0].lines[0][0].points == 1000


def test_extension_is_asked_even_with_the_deck_empty_and_scores_delayed_action() -> None:
    """Landing on 700 after the deck ran out asks about the extension; completion is delayed."""
    s = act(_ann_at(AT_600, ["100", *FILLER[:4]], ["25", "25"]), 0, "play 100")
    assert not s.draw_pile and s.phase is Phase.EXTENSION
    s = act(s, 0, "extend no")
    labels = {line.label: line.points for line in s.results[0].lines[0]}
    assert labels["Delayed action"] == 300


# --- deck exhaustion -----------------------------------------------------------------------


def test_hand_ends_when_deck_is_empty_and_nobody_can_play() -> None:
    """With the deck empty, the hand ends once neither player holds a playable card."""
    s = start(["go", *FILLER[:5]], ["100"] * 6, ["75"])
    s = act(s, 0, "discard go")
    assert s.hand_number == 2 and "neither player can play" in s.results[0].reason


def test_the_hand_end_reads_as_one_sentence() -> None:
    """Found by a newcomer's review: the caption read "Hand 1 is over: The deck ran out…", a
    capital after the colon. The reason goes on lower-case there, and keeps its capital where
    it stands alone (the score sheet's "Hand 1: The deck ran out…")."""
    s = start(["go", *FILLER[:5]], ["100"] * 6, ["75"])
    s = act(s, 0, "discard go")
    assert "Hand 1 is over: the deck ran out and neither player can play. " in s.caption, s.caption
    assert s.results[0].reason == "The deck ran out and neither player can play."


def test_play_goes_on_with_the_deck_empty_while_someone_can_play() -> None:
    """With the deck empty players keep alternating while a playable card remains."""
    s = start(["go", *FILLER[:5]], ["100"] * 6, ["75"])
    assert not s.draw_pile
    s = act(s, 0, "discard 75")
    assert s.hand_number == 1 and s.turn == 1 and len(s.tableaus[1].hand) == 6


def test_a_player_with_an_empty_hand_is_skipped() -> None:
    """With the deck empty, a player with no cards passes and the other plays on."""
    s = start(["go", "25", *FILLER[:4]], FILLER, ["75"])
    s.tableaus[1].hand = []
    s = act(s, 0, "play go")
    assert s.turn == 0 and s.hand_number == 1


# --- match ---------------------------------------------------------------------------------


def test_next_hand_is_dealt_and_the_first_player_alternates() -> None:
    """After a hand, a new hand starts with the other player first."""
    s = start(["go", *FILLER[:5]], ["100"] * 6, ["75"])
    s = act(s, 0, "discard go")
    assert s.hand_number == 2 and s.first_player == 1 and s.turn == 1
    assert len(s.tableaus[0].hand) == 6 and len(s.tableaus[1].hand) == 7


def test_match_ends_at_5000_with_the_higher_total_winning() -> None:
    """Once someone has 5000 after a hand, the higher total wins the match."""
    s = start(["go", "25", *FILLER[:4]], ["100"] * 6, ["75"])
    s.scores = [4990, 3000]
    while G.outcome(s) is None:
        seat = s.turn
        s = G.apply(s, seat, G.legal_actions(s, seat)[0])
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.scores[0] >= 5000 and s.hand_number == 1


def test_equal_totals_are_a_draw() -> None:
    """Equal match totals at the end are a draw."""
    s = start(["go", *FILLER[:5]], ["100"] * 6, ["75"])
    s.scores = [5000, 5000]
    s = act(s, 0, "discard go")
    outcome = G.outcome(s)
    assert outcome is not None and outcome.is_draw and outcome.winners == ()


def test_single_hand_length_ends_after_one_hand() -> None:
    """With length=hand the game ends after one hand, won on hand score."""
    s = start(["go", "100", *FILLER[:4]], FILLER, ["75", "25", "75"], length="hand")
    s = act(act(s, 0, "play go"), 1, "discard 75")
    s = act(s, 0, "play 100")
    while G.outcome(s) is None:
        seat = s.turn
        s = G.apply(s, seat, G.legal_actions(s, seat)[-1])
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == (0,) and outcome.scores[0] >= 100


def test_match_scores_add_hand_results() -> None:
    """The match totals are the sums of the hand breakdowns."""
    s = act(_ann_at(AT_600, ["100", *FILLER[:4]], ["25"] * 6), 0, "play 100", "extend no")
    assert s.scores == list(s.results[0].totals)
    assert s.scores[0] == 700 + 400 + 300 + 500


def test_a_held_safety_keeps_the_hand_going_with_the_deck_empty() -> None:
    """With the deck empty, a safety in hand counts as playable: the hand is not over yet."""
    s = start(["extra-tank", *FILLER[:5]], ["100"] * 6, ["75"])
    s = act(s, 0, "discard 75")
    assert s.hand_number == 1 and not s.results
    s = act(s, 1, "discard 100")
    s = act(s, 0, "play extra-tank")
    assert s.hand_number == 2 and s.results[0].lines[0][1].label == "Safeties ×1"


def test_any_other_safety_needs_a_draw_first() -> None:
    """Before drawing only the safety answering a showing hazard may be played."""
    s = start(
        ["go", "driving-ace", "extra-tank", *FILLER[:3]],
        ["accident", *FILLER[:5]],
        ["25"] * 5,
    )
    s = act(act(s, 0, "play go"), 1, "play accident")
    assert [G.format_action(a) for a in G.legal_actions(s, 0)] == ["draw", "play driving-ace"]
    with pytest.raises(IllegalMove, match="draw first"):
        act(s, 0, "play extra-tank")


def test_a_save_from_before_the_draw_rule_fix_still_loads() -> None:
    """Saves written when the draw size was stored (``pending_draw``) load unchanged: the
    engine now works the draw size out from the hand."""
    state = G.new_game(["Ann", "Bob"], seed=3)
    data = G.to_dict(state)
    assert "pending_draw" not in data
    old = json.loads(json.dumps({**data, "pending_draw": 3}))
    assert G.to_dict(G.from_dict(old)) == data


@pytest.mark.parametrize("seed", range(12))
def test_playable_cards_agree_with_the_reasons(seed: int) -> None:
    """The fast ``playable_cards`` answers exactly as ``why_not_play`` for every card (held or
    not) at every act-phase state of random games, both decks, extensions included."""
    rng = random.Random(seed)
    deck = "modern" if seed % 2 else "bsd"
    s = G.new_game(["A", "B"], seed, {"deck": deck, "length": "hand"})
    checked = 0
    while G.outcome(s) is None:
        seat = min(G.to_act(s))
        if s.phase is Phase.ACT:
            for who in (0, 1):
                allowed = [c for c in Card if why_not_play(s, who, c) is None]
                assert playable_cards(s, who, list(Card)) == allowed
                checked += 1
        s = G.apply(s, seat, rng.choice(G.legal_actions(s, seat)))
    assert checked > 20

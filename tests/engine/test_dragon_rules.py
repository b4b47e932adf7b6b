"""Dragon Mille Bornes: the turn, the two decks and the Mille Bornes side, as
docs/rules/dragon.md states them (section names in parentheses).

Each test deals stacked hands (``dragon_helpers.start``); seat 0 starts.
"""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalMove, NotYourTurn
from bot.engine.dragon.ending import check_end
from bot.engine.dragon.state import Phase
from bot.engine.mille.cards import Card
from tests.engine.dragon_helpers import G, act, codes, legal, moving, rig, start

# --- two decks, the deal (The two decks, Setting up) ---------------------------------------


def test_deal_six_mille_bornes_and_five_car_wars_cards() -> None:
    """Everyone is dealt 6 Mille Bornes and 5 Car Wars cards; seat 0 then draws to 7 and 6."""
    s = G.new_game(["A", "B", "C"], seed=3)
    assert [len(c.mb.hand) for c in s.cars] == [7, 6, 6]
    assert [len(c.cw_hand) for c in s.cars] == [6, 5, 5]


def test_each_deck_has_its_own_discard_pile() -> None:
    """A Mille Bornes discard goes on the Mille Bornes pile, Car Wars cards on theirs."""
    s = start(mb=[["75"], []], cw=[["swerve"], []], mb_draw=["25"] * 2, cw_draw=["jam"] * 2)
    s = act(s, 0, "discard 75", "cw-discard swerve")
    assert s.turn == 1 and s.mb_discard == [Card.D75] and s.cw_discard == ["swerve"]


# --- the turn (A turn) ---------------------------------------------------------------------


def test_turn_draws_up_to_seven_and_six() -> None:
    """At the start of a turn the player draws until holding 7 MB and 6 CW cards."""
    s = start(mb=[["75"], ["50"]], mb_draw=["100", "25"], cw_draw=["spin", "jam"])
    assert len(s.cars[0].mb.hand) == 7 and len(s.cars[0].cw_hand) == 6
    assert s.cars[0].mb.hand[-1] is Card.D100 and s.cars[0].cw_hand[-1] == "spin"
    s = act(s, 0, "discard 75", "end")
    assert len(s.cars[1].mb.hand) == 7 and s.cars[1].mb.hand[-1] is Card.D25
    assert len(s.cars[1].cw_hand) == 6 and s.cars[1].cw_hand[-1] == "jam"


def test_car_wars_move_may_come_first() -> None:
    """The Car Wars action may come before the Mille Bornes one; the turn ends after both."""
    s = start(mb=[["75"], []], cw=[["swerve"], []])
    s = act(s, 0, "cw-discard swerve")
    assert s.turn == 0 and s.cw_done
    s = act(s, 0, "discard 75")
    assert s.turn == 1


def test_mille_bornes_move_then_car_wars_move_ends_the_turn() -> None:
    """After one MB action and one CW action the turn passes by itself."""
    s = start(mb=[["75"], []], cw=[["swerve"], []])
    s = act(s, 0, "discard 75")
    assert s.turn == 0
    s = act(s, 0, "cw-discard swerve")
    assert s.turn == 1


def test_second_car_wars_action_is_refused() -> None:
    """A second Car Wars action in one turn is refused and changes nothing."""
    s = start(mb=[["75"], []], cw=[["swerve", "spin"], []])
    s = act(s, 0, "cw-discard swerve")
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="already made your Car Wars move"):
        act(s, 0, "cw-discard spin")
    with pytest.raises(IllegalMove, match="already made your Car Wars move"):
        act(s, 0, "mg-back @1")
    assert G.to_dict(s) == before


def test_second_mille_bornes_action_is_refused() -> None:
    """Only one Mille Bornes card is played or discarded per turn."""
    s = start(mb=[["75", "50"], []])
    s = act(s, 0, "discard 75")
    with pytest.raises(IllegalMove, match="already made your Mille Bornes move"):
        act(s, 0, "discard 50")


def test_car_wars_discard_takes_any_number() -> None:
    """The Car Wars discard may throw away several cards at once."""
    s = start(cw=[["swerve", "spin", "jam"], []])
    s = act(s, 0, "cw-discard swerve spin jam")
    assert sorted(s.cw_discard) == ["jam", "spin", "swerve"] and len(s.cars[0].cw_hand) == 2


def test_discard_menu_lists_every_distinct_choice() -> None:
    """Every distinct set of Car Wars cards to discard is one legal action."""
    s = start(cw=[["swerve", "swerve", "spin", "jam", "stampede"], []])
    menu = [a for a in legal(s, 0) if a.startswith("cw-discard")]
    # 2 swerves x spin x jam x stampede: 3*2*2*2 = 24 choices, minus the empty one.
    assert len(menu) == 23 and menu[-1] == "cw-discard all"
    assert "cw-discard swerve swerve spin jam stampede" not in menu


def test_end_needs_the_mille_bornes_move_first() -> None:
    """'end' is refused until the Mille Bornes action is made; afterwards it skips the CW one."""
    s = start(mb=[["75"], []])
    with pytest.raises(IllegalMove, match="Mille Bornes move first"):
        act(s, 0, "end")
    s = act(s, 0, "discard 75", "end")
    assert s.turn == 1


def test_safeties_cannot_be_discarded() -> None:
    """A Mille Bornes safety is never discarded."""
    s = start(mb=[["driving-ace"], []])
    assert "discard driving-ace" not in legal(s, 0)
    with pytest.raises(IllegalMove, match="never be discarded"):
        act(s, 0, "discard driving-ace")


def test_safety_on_own_turn_gives_one_more_mille_bornes_action() -> None:
    """A safety played in your own turn keeps your Mille Bornes action."""
    s = start(mb=[["driving-ace", "75"], []])
    s = act(s, 0, "play driving-ace")
    assert s.mb_left == 1 and Card.DRIVING_ACE in s.cars[0].mb.safeties
    s = act(s, 0, "discard 75")
    assert s.mb_left == 0


def test_safety_removes_its_hazard_and_the_car_moves_again() -> None:
    """A safety removes the hazard it answers; the Go beneath shows again."""
    s = start(mb=[["extra-tank"], []])
    s = rig(s, 0, battle=["go", "out-of-gas"])
    s = act(s, 0, "play extra-tank")
    assert s.cars[0].mb.battle == [Card.GO]


def test_no_draw_except_at_the_start_of_the_turn() -> None:
    """A reaction spends a card out of turn, and nothing is drawn until one's own turn."""
    s = moving(start(cw=[["mg-front"], ["swerve"]], cw_draw=["jam"]), 1)
    s = act(s, 0, "mg-front @1")
    s = act(s, 1, "swerve")
    assert len(s.cars[1].cw_hand) == 4


# --- reshuffles (The two decks) ------------------------------------------------------------


def test_mille_bornes_discards_are_reshuffled_when_the_deck_runs_out() -> None:
    """An empty Mille Bornes draw pile is refilled from its discards, as often as needed."""
    s = start(mb=[["75"], ["50"]])
    assert not s.mb_draw
    s = act(s, 0, "discard 75", "end")
    assert s.cars[1].mb.hand[-1] is Card.D75 and s.mb_shuffles == 1
    s = act(s, 1, "discard 50", "end")
    assert s.cars[0].mb.hand[-1] is Card.D50 and s.mb_shuffles == 2


def test_car_wars_discards_are_reshuffled_when_the_deck_runs_out() -> None:
    """An empty Car Wars draw pile is refilled from its discards."""
    s = start(mb=[["75"], ["50"]], cw=[["swerve", "spin"], []])
    s = act(s, 0, "discard 75", "cw-discard swerve spin")
    assert sorted(s.cars[1].cw_hand[-1:]) in (["spin"], ["swerve"]) and s.cw_shuffles == 1
    assert len(s.cars[1].cw_hand) == 6


def test_reshuffles_replay_identically() -> None:
    """A reshuffle uses the stored seed: the same moves give the same order."""
    a = act(start(mb=[["75"], ["50"]], cw=[["swerve", "spin", "jam"], []]), 0, "cw-discard all")
    b = act(start(mb=[["75"], ["50"]], cw=[["swerve", "spin", "jam"], []]), 0, "cw-discard all")
    a, b = act(a, 0, "discard 75"), act(b, 0, "discard 75")
    assert a.cars[1].cw_hand == b.cars[1].cw_hand and a.cw_draw == b.cw_draw


# --- winning (The end) --------------------------------------------------------------------


def test_exactly_1000_miles_wins_at_once() -> None:
    """Landing exactly on 1000 miles wins the game on the spot."""
    s = moving(start(mb=[["100"], []]), 0)
    s = rig(s, 0, miles=["200", "200", "100", "100", "100", "100", "100"])
    s = act(s, 0, "play 100")
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == (0,) and s.phase is Phase.OVER
    assert outcome.scores[0] == 1000


def test_distance_past_1000_is_refused() -> None:
    """Distance may not take a car past 1000 miles."""
    s = moving(start(mb=[["100"], []]), 0)
    s = rig(s, 0, miles=["200", "200", "100", "100", "100", "100", "75", "75"])
    assert "play 100" not in legal(s, 0)
    with pytest.raises(IllegalMove, match="past 1000"):
        act(s, 0, "play 100")


def test_reaching_700_does_not_stop_the_race() -> None:
    """There is no 700-mile trip or extension: 700 is just a mile marker."""
    s = moving(start(mb=[["100"], []]), 0)
    s = rig(s, 0, miles=["200", "200", "100", "100"])
    s = act(s, 0, "play 100")
    assert G.outcome(s) is None and s.phase is Phase.TURN


def test_third_200_is_refused() -> None:
    """At most two 200-mile cards per car."""
    s = moving(start(mb=[["200"], []]), 0)
    s = rig(s, 0, miles=["200", "200"])
    with pytest.raises(IllegalMove, match="two 200s"):
        act(s, 0, "play 200")


def test_speed_limit_allows_only_25_and_50() -> None:
    """Under a Speed Limit only 25 and 50 miles may be played."""
    s = moving(start(mb=[["75", "50"], []]), 0)
    s.cars[0].mb.speed = [Card.SPEED_LIMIT]
    assert "play 50" in legal(s, 0) and "play 75" not in legal(s, 0)


def test_last_driver_alive_wins() -> None:
    """When every other driver is dead the survivor wins, whatever the miles."""
    s = start(cw=[["rocket-front"], []])
    s = rig(s, 1, hits=[12, 0, 0, 0], driver=4, miles=["200"])
    s = act(s, 0, "rocket-front @1")
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == (0,) and "last driver" in outcome.reason


def test_last_drivers_dying_together_more_miles_wins() -> None:
    """If the last drivers die in the same step, the one with more miles wins."""
    s = start(seats=3)
    for seat, miles in ((0, 300), (1, 500), (2, 100)):
        car = s.cars[seat]
        car.alive, car.final_miles, car.out_at = False, miles, 7
    s.cars[2].out_at = 3  # died earlier
    assert check_end(s)
    assert s.winners == (1,) and s.places == (1, 0, 2)


def test_last_drivers_dying_together_with_equal_miles_is_a_draw() -> None:
    """Equal miles among drivers who die together is a draw."""
    s = start()
    for car in s.cars:
        car.alive, car.final_miles, car.out_at = False, 400, 5
    assert check_end(s)
    outcome = G.outcome(s)
    assert outcome is not None and outcome.is_draw and outcome.places == (0, 0)


# --- Mille Bornes on a multi-car table -----------------------------------------------------


def test_hazard_names_its_target_car() -> None:
    """A hazard goes on the car it names, and only on a moving car."""
    s = moving(start(mb=[["stop"], [], []]), 2)
    assert legal(s, 0).count("play stop @2") == 1 and "play stop @1" not in legal(s, 0)
    s = act(s, 0, "play stop @2")
    assert s.cars[2].mb.battle == [Card.GO, Card.STOP]


def test_hazard_on_a_stopped_car_is_refused() -> None:
    """Battle hazards need the target to be moving."""
    s = start(mb=[["accident"], []])
    with pytest.raises(IllegalMove, match="not moving"):
        act(s, 0, "play accident @1")


def test_hazard_without_target_is_refused() -> None:
    """Every hazard names its target car."""
    s = moving(start(mb=[["stop"], []]), 1)
    with pytest.raises(IllegalMove, match="Name the car"):
        act(s, 0, "play stop")


def test_hazard_on_a_dead_car_is_refused() -> None:
    """A dead car is out of the race: no hazard may be played on it."""
    s = moving(start(mb=[["stop"], [], []]), 2)
    s.cars[2].alive = False
    with pytest.raises(IllegalMove, match="out of the race"):
        act(s, 0, "play stop @2")


def test_mille_bornes_hazards_do_no_car_wars_damage() -> None:
    """An Accident stops the car but puts no hits on it (Mille Bornes on a crowded track)."""
    s = moving(start(mb=[["accident"], []]), 1)
    s = act(s, 0, "play accident @1")
    car = s.cars[1]
    assert car.hits == [0, 0, 0, 0] and car.tires == 0 and car.driver == 0


def test_remedied_hazard_and_what_it_covered_are_discarded() -> None:
    """Only the battle pile's top card stays: a remedy discards the hazard it answers."""
    s = start(mb=[["repairs"], []])
    s = rig(s, 0, battle=["go", "accident"])
    s = act(s, 0, "play repairs")
    assert s.cars[0].mb.battle == [Card.REPAIRS] and codes(s.mb_discard) == ["accident", "go"]


def test_coup_fourre_window_opens_for_the_holder_of_the_safety() -> None:
    """A hazard on a car holding its safety opens that seat's coup fourré window."""
    s = moving(start(mb=[["out-of-gas"], ["extra-tank"]]), 1)
    s = act(s, 0, "play out-of-gas @1")
    assert s.phase is Phase.COUP and G.to_act(s) == {1}
    assert legal(s, 1) == ["pass", "play extra-tank"]
    assert G.default_action(s, 1) == G.parse_action("pass")
    assert G.public_view(s).pending.text == (  # type: ignore[union-attr]
        "Bob may react to Out of Gas with a coup fourré."
    )
    s = act(s, 1, "play extra-tank")
    assert s.caption.endswith("Coup fourré! Bob reacts with Extra Tank."), s.caption


def test_coup_fourre_removes_the_hazard_and_gives_no_turn() -> None:
    """A coup fourré clears the hazard, scores nothing and gives no extra turn or draw."""
    s = moving(start(mb=[["out-of-gas", "75"], ["extra-tank"]]), 1)
    s = act(act(s, 0, "play out-of-gas @1"), 1, "play extra-tank")
    car = s.cars[1]
    assert car.mb.battle == [Card.GO] and car.mb.coups == [Card.EXTRA_TANK]
    assert s.turn == 0 and s.phase is Phase.TURN and len(car.mb.hand) == 5


def test_a_coup_fourre_draws_no_card() -> None:
    """Unlike classic Mille Bornes, the coup fourré's player draws nothing, though cards wait."""
    s = moving(start(mb=[["out-of-gas"], ["extra-tank"]], mb_draw=["25"] * 3), 1)
    s = act(act(s, 0, "play out-of-gas @1"), 1, "play extra-tank")
    assert len(s.cars[1].mb.hand) == 5 and len(s.mb_draw) == 2


def test_no_coup_window_without_the_safety() -> None:
    """A victim without the safety is never asked."""
    s = moving(start(mb=[["out-of-gas"], []]), 1)
    s = act(s, 0, "play out-of-gas @1")
    assert s.phase is Phase.TURN and G.to_act(s) == {0}


def test_skid_stop_needs_a_go() -> None:
    """A car stopped by a skid cannot drive until it plays a Go, even over a Go."""
    s = moving(start(mb=[["75", "go"], []]), 0)
    s.cars[0].skidded = True
    with pytest.raises(IllegalMove, match="skidded"):
        act(s, 0, "play 75")
    s = act(s, 0, "play go")
    assert not s.cars[0].skidded and s.cars[0].mb.battle == [Card.GO]


def test_right_of_way_owner_still_needs_a_go_after_a_skid() -> None:
    """Right of Way does not lift a skid: a Go is needed, and allowed."""
    s = start(mb=[["go"], []])
    s = rig(s, 0, safeties=["right-of-way"])
    s.cars[0].skidded = True
    assert "play go" in legal(s, 0)


def test_shot_tires_stop_the_car() -> None:
    """Nine tire hits stop the car; Spare Tire then Go gets it going (The cars)."""
    s = moving(start(mb=[["75", "spare-tire"], []]), 0)
    s = rig(s, 0, tires=9)
    with pytest.raises(IllegalMove, match="tires are shot"):
        act(s, 0, "play 75")
    s = act(s, 0, "play spare-tire")
    assert s.cars[0].tires == 0 and s.cars[0].mb.battle == [Card.SPARE_TIRE]


def test_right_of_way_needs_only_the_spare_after_shot_tires() -> None:
    """With Right of Way, the Spare Tire alone gets a car with shot tires moving."""
    s = start(mb=[["spare-tire"], []])
    s = rig(s, 0, safeties=["right-of-way"], tires=9)
    s = act(s, 0, "play spare-tire")
    from bot.engine.dragon.table import moving as is_moving

    assert is_moving(s.cars[0])


def test_not_your_turn() -> None:
    """A seat that is not to act is told whom the table waits for."""
    s = start()
    with pytest.raises(NotYourTurn, match="waiting for Ann"):
        act(s, 1, "discard 75")


def test_a_hazard_without_target_is_refused_with_an_example_in_the_buttons_words() -> None:
    """Alice types "play stop" and reads "Name the car for Stop, for example 'play stop @1'":
    seat numbers no button or image shows. The example is now the move as its button and
    /move's list say it, aimed at a car it may hit (Carol: Bob is not moving), and typed into
    /move it is that move."""
    s = moving(start(mb=[["stop"], [], []]), 2)
    with pytest.raises(IllegalMove) as refused:
        act(s, 0, "play stop")
    example = f"'Stop on {s.players[2]}'"
    assert str(refused.value) == f"Name the car for Stop, for example {example}.", refused.value
    assert "@" not in str(refused.value)
    assert G.parse_for(s, 0, example.strip("'")) == G.parse_action("play stop @2")


def test_an_attack_without_target_is_refused_with_an_example_in_the_buttons_words() -> None:
    """The same for a shot: "for example 'mg-left @1'" became the button's words."""
    s = start(cw=[["mg-left"], []])
    with pytest.raises(IllegalMove) as refused:
        act(s, 0, "mg-left")
    example = f"Machine Gun (Left) on {s.players[1]}"
    assert str(refused.value) == f"Name the car to attack, for example '{example}'."
    assert G.parse_for(s, 0, example) == G.parse_action("mg-left @1")

"""Dragon Mille Bornes: Car Wars combat, as docs/rules/dragon.md states it
(section names in parentheses).

Every shot names its target car; reactions are out-of-turn windows opened only for a seat
holding a legal one. Each test deals stacked hands (``dragon_helpers.start``); seat 0 starts.
"""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalMove, NotationError, NotYourTurn
from bot.engine.dragon.cards import SPECS
from bot.engine.dragon.state import DragonState, Phase
from bot.engine.mille.cards import Card
from tests.engine.dragon_helpers import G, act, legal, moving, rig, start

# --- the weapons ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "side", "hits"),
    [
        ("mg-front", 0, 3),
        ("ac-back", 1, 4),
        ("rocket-left", 2, 5),
        ("laser-right", 3, 4),
        ("flame-front", 0, 2),
    ],
)
def test_weapon_hits_its_side(card: str, side: int, hits: int) -> None:
    """Each weapon puts its hits on the side it names (The two decks)."""
    s = act(start(cw=[[card], []]), 0, f"{card} @1")
    expected = [0, 0, 0, 0]
    expected[side] = hits
    assert s.cars[1].hits == expected and card in s.cw_discard


def test_attack_names_its_target_among_many_cars() -> None:
    """With several cars, the shot lands only on the car it names."""
    s = act(start(cw=[["mg-left"], [], [], []]), 0, "mg-left @3")
    assert [c.hits[2] for c in s.cars] == [0, 0, 0, 3]


def test_attack_without_target_is_refused() -> None:
    """Every attack names its target car."""
    s = start(cw=[["mg-left"], []])
    with pytest.raises(IllegalMove, match="Name the car"):
        act(s, 0, "mg-left")


def test_attack_on_a_dead_car_is_refused() -> None:
    """A dead car cannot be attacked, and the refusal changes nothing."""
    s = start(cw=[["rocket-front"], [], []])
    s.cars[2].alive = False
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="out of the race"):
        act(s, 0, "rocket-front @2")
    assert G.to_dict(s) == before
    assert not any(a.endswith("@2") for a in legal(s, 0))


def test_attacking_your_own_car_is_refused() -> None:
    """A car cannot shoot itself."""
    s = start(cw=[["rocket-front"], []])
    with pytest.raises(IllegalMove, match="own car"):
        act(s, 0, "rocket-front @0")


def test_called_shot_hits_the_named_side() -> None:
    """A Called Shot puts 4 hits on the side the attacker names."""
    s = act(start(cw=[["called-shot"], []]), 0, "called-shot @1 left")
    assert s.cars[1].hits == [0, 0, 4, 0]


def test_called_shot_never_hits_tires() -> None:
    """A Called Shot cannot be aimed at the tires (The two decks)."""
    s = start(cw=[["called-shot"], []])
    assert not any("tire" in a for a in legal(s, 0) if a.startswith("called-shot"))
    with pytest.raises(NotationError, match="never hits the tires"):
        act(s, 0, "called-shot @1 tires")
    with pytest.raises(IllegalMove, match="names a side"):
        G.apply(s, 0, G.parse_action("called-shot @1 left").__class__("cw", "called-shot", 1))


@pytest.mark.parametrize("typed", ["tire-shot @1 left", "rocket-front @1 left", "swerve left"])
def test_a_side_named_for_a_card_that_cannot_aim_is_refused(typed: str) -> None:
    """Only a Called Shot picks its side; a side typed after another card was dropped without
    a word, so the player thought they had aimed."""
    with pytest.raises(NotationError, match="Only a Called Shot names the side it hits"):
        G.parse_action(typed)


def test_tire_shot_hits_the_tires() -> None:
    """A Tire Shot puts 3 hits on the tires, in the shooter's own turn."""
    s = act(start(cw=[["tire-shot"], []]), 0, "tire-shot @1")
    assert s.cars[1].tires == 3 and s.cars[1].hits == [0, 0, 0, 0]


def test_tire_shot_is_not_a_reaction() -> None:
    """A Tire Shot is only played on one's own turn: it is never offered out of turn."""
    s = moving(start(cw=[["mg-front"], ["tire-shot", "swerve"]]), 1)
    s = act(s, 0, "mg-front @1")
    assert not any("tire-shot" in a for a in legal(s, 1))


def test_tire_hits_stop_at_nine() -> None:
    """Tires take at most 9 hits; the extra is lost, never carried to the driver."""
    s = rig(start(cw=[["tire-shot"], []]), 1, tires=8)
    s = act(s, 0, "tire-shot @1")
    assert s.cars[1].tires == 9 and s.cars[1].driver == 0


# --- breaches carry onto the driver (The cars) ---------------------------------------------


def test_breach_example_ten_hits_then_machine_gun() -> None:
    """The cars: 10 hits on the right, then a Machine Gun (3): the side is breached and the
    driver takes 1."""
    s = rig(start(cw=[["mg-right"], []]), 1, hits=[0, 0, 0, 10])
    s = act(s, 0, "mg-right @1")
    assert s.cars[1].hits[3] == 12 and s.cars[1].driver == 1
    assert "breached" in s.caption


def test_breach_example_built_by_shots() -> None:
    """The same example reached by play: 3 + 3 + 4 hits on the right, then a Machine Gun."""
    s = start(cw=[["mg-right", "mg-right", "ac-right", "mg-right"], []])
    for shot in ("mg-right", "mg-right", "ac-right"):
        s = act(s, 0, f"{shot} @1", _a_discard(s, 0))
        s = act(s, 1, _a_discard(s, 1), "end")
    assert s.cars[1].hits[3] == 10 and s.cars[1].driver == 0
    s = act(s, 0, "mg-right @1")
    assert s.cars[1].hits[3] == 12 and s.cars[1].driver == 1


def test_breach_caption_says_who_takes_the_driver_hit() -> None:
    """The caption names the car whose driver is hit, with the count in hits."""
    s = rig(start(cw=[["mg-right"], []]), 1, hits=[0, 0, 0, 10])
    s = act(s, 0, "mg-right @1")
    assert f"{s.players[1]} takes 1 hit to the driver." in s.caption


def test_flame_caption_says_who_loses_the_extra_tank() -> None:
    """The caption names the car that loses its Extra Tank to the flames."""
    s = rig(start(cw=[["flame-back"], []]), 1, safeties=["extra-tank"])
    s = act(s, 0, "flame-back @1")
    assert f"{s.players[1]} loses the Extra Tank to the flames!" in s.caption


def test_shot_tires_caption_says_who_stops() -> None:
    """The ninth tire hit's caption says the car stops, naming it."""
    s = rig(start(cw=[["tire-shot"], []]), 1, tires=8)
    s = act(s, 0, "tire-shot @1")
    assert f"The tires are shot: {s.players[1]} stops." in s.caption


def test_a_tire_shot_at_shot_out_tires_says_the_hits_are_lost() -> None:
    """Tires already at 9 take nothing more: the caption says the hits are lost, not that the
    (long stopped) car stops."""
    s = rig(start(cw=[["tire-shot"], []]), 1, tires=9)
    s = act(s, 0, "tire-shot @1")
    assert s.cars[1].tires == 9
    assert "The tires are already shot out: the hits are lost." in s.caption
    assert "stops" not in s.caption


def _a_discard(state: DragonState, seat: int) -> str:
    return next(a for a in legal(state, seat) if a.startswith("discard "))


def test_hits_on_a_breached_side_all_reach_the_driver() -> None:
    """Once a side is breached, every hit on it goes to the driver."""
    s = rig(start(cw=[["mg-front"], []]), 1, hits=[12, 0, 0, 0])
    s = act(s, 0, "mg-front @1")
    assert s.cars[1].driver == 3 and s.cars[1].hits[0] == 12


def test_hits_on_a_breached_side_are_told_as_hits_on_the_driver_only() -> None:
    """The caption calls the side breached, so its hits are not read twice. Found by a six-car
    review: "3 hits to the front. Bob takes 3 hits to the driver." read as six hits, the front's
    count unchanged on the image."""
    s = rig(start(cw=[["mg-front"], []]), 1, hits=[12, 0, 0, 0])
    s = act(s, 0, "mg-front @1")
    assert f"3 hits to the breached front. {s.players[1]} takes 3 hits to the driver." in s.caption


def test_driver_dies_at_five_hits_and_the_kill_is_credited() -> None:
    """Five driver hits kill; the attacker is credited; hand and car cards are discarded."""
    s = start(mb=[[], ["75", "extra-tank"]], cw=[["rocket-back"], ["swerve"]], seats=3)
    s = rig(s, 1, hits=[0, 12, 0, 0], driver=1, miles=["100"], battle=["go"])
    s.cars[1].fireproof = ["fireproof"]
    s = rig(s, 1, hits=[0, 12, 0, 0])
    s.cars[1].mb.battle = []  # stopped: no swerve
    s = act(s, 0, "rocket-back @1")
    dead = s.cars[1]
    assert not dead.alive and dead.killed_by == 0 and s.cars[0].kills == 1
    assert dead.mb.hand == [] and dead.cw_hand == [] and dead.mb.miles == []
    assert dead.fireproof == [] and "fireproof" in s.cw_discard and Card.D100 in s.mb_discard
    assert dead.final_miles == 100 and G.outcome(s) is None


def test_dead_drivers_never_act_again() -> None:
    """A dead car's turn is skipped."""
    s = start(mb=[["75"], [], []], cw=[["rocket-back"], [], []], seats=3)
    s = rig(s, 1, hits=[0, 12, 0, 0], driver=4)
    s = act(s, 0, "rocket-back @1", "discard 75")
    assert s.turn == 2 and G.legal_actions(s, 1) == []


# --- armor ---------------------------------------------------------------------------------


def test_armor_window_opens_for_the_victim() -> None:
    """The victim holding armor for the side hit is asked; 'pass' is the default."""
    s = act(start(cw=[["mg-front"], ["armor-front"]]), 0, "mg-front @1")
    assert s.phase is Phase.REACT and G.to_act(s) == {1}
    assert legal(s, 1) == ["pass", "armor front"]
    assert G.format_action(G.default_action(s, 1)) == "pass"  # type: ignore[arg-type]


def test_no_window_without_a_legal_reaction() -> None:
    """A victim with no reaction for this shot is never asked (armor for another side)."""
    s = act(start(cw=[["mg-front"], ["armor-back"]]), 0, "mg-front @1")
    assert s.phase is Phase.TURN and s.cars[1].hits[0] == 3


def test_armor_stops_three_hits() -> None:
    """One Armor card stops 3 hits of the shot on its side."""
    s = act(start(cw=[["rocket-front"], ["armor-front"]]), 0, "rocket-front @1")
    s = act(s, 1, "armor front")
    assert s.cars[1].hits[0] == 2 and "armor-front" in s.cw_discard


def test_the_caption_counts_one_hit_in_the_singular() -> None:
    """A laser (4) armored down to one hit says '1 hit', never '1 hits'."""
    s = act(start(cw=[["laser-front"], ["armor-front"]]), 0, "laser-front @1")
    s = act(s, 1, "armor front")
    assert s.cars[1].hits[0] == 1
    assert "1 hit to the front." in s.caption and "1 hits" not in s.caption


def test_two_armor_cards_stack() -> None:
    """A second Armor may follow the first against the same hit."""
    s = act(start(cw=[["rocket-front"], ["armor-front"] * 3]), 0, "rocket-front @1")
    s = act(s, 1, "armor front")
    assert s.phase is Phase.REACT and legal(s, 1) == ["pass", "armor front"]
    s = act(s, 1, "armor front")
    assert s.cars[1].hits[0] == 0 and s.phase is Phase.TURN
    assert s.cars[1].cw_hand.count("armor-front") == 1


def test_no_second_armor_when_the_first_stops_everything() -> None:
    """A machine gun's 3 hits are stopped by one Armor: no second one is asked for."""
    s = act(start(cw=[["mg-front"], ["armor-front"] * 2]), 0, "mg-front @1")
    s = act(s, 1, "armor front")
    assert s.phase is Phase.TURN and s.cars[1].hits[0] == 0


def test_armor_on_the_wrong_side_is_refused() -> None:
    """Armor must cover the side that is hit; the refusal changes nothing."""
    s = act(start(cw=[["mg-front"], ["armor-front", "armor-left"]]), 0, "mg-front @1")
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="armor must cover that side"):
        act(s, 1, "armor left")
    assert G.to_dict(s) == before


def test_armor_works_on_a_breached_side() -> None:
    """Armor still stops hits on a breached side (Rulings: Armor)."""
    s = rig(start(cw=[["mg-front"], ["armor-front"]]), 1, hits=[12, 0, 0, 0])
    s = act(act(s, 0, "mg-front @1"), 1, "armor front")
    assert s.cars[1].driver == 0


def test_armor_cannot_be_played_as_a_turn_move() -> None:
    """Armor is only played when a hit arrives."""
    s = start(cw=[["armor-front"], []])
    with pytest.raises(IllegalMove, match="no hit to react to"):
        act(s, 0, "play armor-front")
    assert not any(a.startswith("armor") for a in legal(s, 0))


def test_armor_does_not_cover_tires() -> None:
    """A Tire Shot cannot be armored."""
    s = moving(start(cw=[["tire-shot"], ["armor-front", "swerve"]]), 1)
    s = act(s, 0, "tire-shot @1")
    assert legal(s, 1) == ["pass", "swerve"]


def test_no_armor_answers_a_tire_shot() -> None:
    """A stopped car holding Armor for every side is not asked about a Tire Shot: it lands."""
    armors = ["armor-front", "armor-back", "armor-left", "armor-right"]
    s = act(start(cw=[["tire-shot"], armors]), 0, "tire-shot @1")
    assert s.phase is Phase.TURN and s.cars[1].tires == 3


# --- swerve, spin, skid --------------------------------------------------------------------


def test_swerve_makes_the_shot_miss() -> None:
    """A moving victim may swerve: the shot misses."""
    s = moving(start(cw=[["rocket-front"], ["swerve"]]), 1)
    s = act(act(s, 0, "rocket-front @1"), 1, "swerve")
    assert s.cars[1].hits == [0, 0, 0, 0] and "swerve" in s.cw_discard


def test_swerve_needs_the_car_moving() -> None:
    """A stopped car cannot swerve: it is not asked, and the shot lands (Mille Bornes on a
    crowded track)."""
    s = act(start(cw=[["rocket-front"], ["swerve"]]), 0, "rocket-front @1")
    assert s.phase is Phase.TURN and s.cars[1].hits[0] == 5


def test_swerve_while_stopped_is_refused() -> None:
    """In a window opened for armor, a stopped car's swerve is refused with the reason, and the
    refusal changes nothing."""
    s = act(start(cw=[["rocket-front"], ["swerve", "armor-front"]]), 0, "rocket-front @1")
    assert legal(s, 1) == ["pass", "armor front"]
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="must be moving"):
        act(s, 1, "swerve")
    assert G.to_dict(s) == before


def test_shot_tires_mean_no_swerve() -> None:
    """A car stopped by shot tires is not moving, so it cannot swerve."""
    s = rig(moving(start(cw=[["rocket-front"], ["swerve"]]), 1), 1, tires=9)
    s = act(s, 0, "rocket-front @1")
    assert s.cars[1].hits[0] == 5


def test_spin_needs_the_car_moving() -> None:
    """A stopped car cannot spin either: holding only a Spin, it is not asked (Mille Bornes on a
    crowded track)."""
    s = act(start(cw=[["rocket-front"], ["spin"]]), 0, "rocket-front @1")
    assert s.phase is Phase.TURN and s.cars[1].hits[0] == 5 and "spin" in s.cars[1].cw_hand


def test_spin_makes_the_shot_miss_and_stops_further_attacks() -> None:
    """A Spin makes the shot miss and the attacker may not attack again this turn."""
    s = moving(start(cw=[["rocket-front", "mg-back"], ["spin"]]), 1)
    s = act(act(s, 0, "rocket-front @1"), 1, "spin")
    assert s.cars[1].hits == [0, 0, 0, 0] and s.spun
    with pytest.raises(IllegalMove, match="spun"):
        act(s, 0, "mg-back @1")


def test_skid_window_after_a_swerve() -> None:
    """The shooter holding Skid Into a Wall may play it on the car that swerved."""
    s = moving(start(cw=[["mg-front", "skid"], ["swerve"]]), 1)
    s = act(act(s, 0, "mg-front @1"), 1, "swerve")
    assert s.phase is Phase.SKID and G.to_act(s) == {0}
    assert legal(s, 0) == ["pass", "skid @1"]


def test_skid_into_a_wall_victim_picks_the_side_and_stops() -> None:
    """A skid: 3 hits on the side the victim picks, and the victim stops (Shots and reactions)."""
    s = moving(start(cw=[["mg-front", "skid"], ["swerve"]]), 1)
    s = act(act(s, 0, "mg-front @1"), 1, "swerve")
    s = act(s, 0, "skid @1")
    assert s.phase is Phase.WALL and G.to_act(s) == {1}
    assert legal(s, 1)[:4] == ["side front", "side back", "side left", "side right"]
    s = act(s, 1, "side left")
    car = s.cars[1]
    assert car.hits == [0, 0, 3, 0] and car.skidded and s.phase is Phase.TURN
    from bot.engine.dragon.table import moving as is_moving

    assert not is_moving(car)


def test_skid_default_side_is_the_least_damaged() -> None:
    """When the victim does not choose, the least damaged side takes the skid."""
    s = moving(start(cw=[["mg-front", "skid"], ["swerve"]]), 1)
    s = rig(s, 1, hits=[5, 2, 0, 4])
    s = act(act(act(s, 0, "mg-front @1"), 1, "swerve"), 0, "skid @1")
    assert G.format_action(G.default_action(s, 1)) == "side left"  # type: ignore[arg-type]


def test_skid_may_be_armored() -> None:
    """Armor on the chosen side stops the skid's hits, but the car still stops."""
    s = moving(start(cw=[["mg-front", "skid"], ["swerve", "armor-back"]]), 1)
    s = act(act(act(s, 0, "mg-front @1"), 1, "swerve"), 0, "skid @1")
    s = act(s, 1, "armor back")
    assert s.cars[1].hits == [0, 0, 0, 0] and s.cars[1].skidded


def test_driving_ace_is_immune_to_skids() -> None:
    """A car with the Driving Ace in play cannot be skidded (Shots and reactions)."""
    s = moving(start(cw=[["mg-front", "skid"], ["swerve"]]), 1)
    s = rig(s, 1, safeties=["driving-ace"])
    s = act(act(s, 0, "mg-front @1"), 1, "swerve")
    assert s.phase is Phase.TURN


def test_driving_ace_as_coup_fourre_against_a_skid() -> None:
    """The Driving Ace in hand may be played as a coup fourré when the skid comes."""
    s = moving(start(mb=[[], ["driving-ace"]], cw=[["mg-front", "skid"], ["swerve"]]), 1)
    s = act(act(act(s, 0, "mg-front @1"), 1, "swerve"), 0, "skid @1")
    assert "play driving-ace" in legal(s, 1)
    s = act(s, 1, "play driving-ace")
    car = s.cars[1]
    assert not car.skidded and car.hits == [0, 0, 0, 0] and car.mb.coups == [Card.DRIVING_ACE]
    assert s.phase is Phase.TURN and s.turn == 0


def test_skid_is_only_offered_to_the_shooter() -> None:
    """Only the car whose shot was dodged may skid the dodger."""
    s = moving(start(cw=[["mg-front"], ["swerve"], ["skid"]]), 1)
    s = act(act(s, 0, "mg-front @1"), 1, "swerve")
    assert s.phase is Phase.TURN and G.to_act(s) == {0}


# --- backfire ------------------------------------------------------------------------------


def test_backfire_turns_the_autocannon_on_the_shooter() -> None:
    """Autocannon Backfires cancels the shot; its 4 hits strike the shooter's front."""
    s = act(start(cw=[["ac-left"], ["backfire"]]), 0, "ac-left @1")
    assert "backfire" in legal(s, 1)
    s = act(s, 1, "backfire")
    assert s.cars[1].hits == [0, 0, 0, 0] and s.cars[0].hits == [4, 0, 0, 0]


def test_backfire_only_answers_an_autocannon() -> None:
    """No backfire window against a machine gun."""
    s = act(start(cw=[["mg-left"], ["backfire"]]), 0, "mg-left @1")
    assert s.phase is Phase.TURN and s.cars[1].hits[2] == 3


def test_armor_may_reduce_a_backfire() -> None:
    """The shooter may armor its front against its own backfire (Shots and reactions)."""
    s = act(start(cw=[["ac-left", "armor-front"], ["backfire"]]), 0, "ac-left @1")
    s = act(s, 1, "backfire")
    assert s.phase is Phase.BACKFIRE and G.to_act(s) == {0}
    s = act(s, 0, "armor front")
    assert s.cars[0].hits == [1, 0, 0, 0]


def test_backfire_kill_is_credited_to_the_victim_who_backfired() -> None:
    """A shooter killed by a backfire is a kill for the car that backfired."""
    s = start(mb=[["75"], [], []], cw=[["ac-left"], ["backfire"], []], seats=3)
    s = rig(s, 0, hits=[12, 0, 0, 0], driver=2)
    s = act(act(s, 0, "ac-left @1"), 1, "backfire")
    assert not s.cars[0].alive and s.cars[1].kills == 1 and s.turn == 1


# --- jams ----------------------------------------------------------------------------------


def test_jam_stops_machine_guns() -> None:
    """A jammed car cannot fire machine guns; the refusal changes nothing."""
    s = start(mb=[["75"], ["50"]], cw=[["jam"], ["mg-front", "rocket-front"]])
    s = act(s, 0, "jam @1", "discard 75")
    assert s.cars[1].jammed and s.turn == 1
    assert "mg-front @0" not in legal(s, 1) and "rocket-front @0" in legal(s, 1)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="jammed"):
        act(s, 1, "mg-front @0")
    assert G.to_dict(s) == before


def test_discarding_the_whole_car_wars_hand_unjams() -> None:
    """Discarding the whole Car Wars hand (the CW action) unjams the guns (A turn)."""
    s = rig(start(cw=[["mg-front"], []]), 0, jammed=True)
    s = act(s, 0, "cw-discard all")
    assert not s.cars[0].jammed and s.cars[0].cw_hand == []


def test_discarding_part_of_the_hand_does_not_unjam() -> None:
    """A partial discard leaves the guns jammed."""
    s = rig(start(cw=[["mg-front"], []]), 0, jammed=True)
    s = act(s, 0, "cw-discard mg-front")
    assert s.cars[0].jammed


def test_unjamming_keeps_the_mille_bornes_hand() -> None:
    """Unjamming needs no Mille Bornes discard; the MB action is still to come."""
    s = rig(start(mb=[["75"], []], cw=[["mg-front"], []]), 0, jammed=True)
    s = act(s, 0, "cw-discard all")
    assert len(s.cars[0].mb.hand) == 6 and s.mb_left == 1 and s.turn == 0


# --- stampede ------------------------------------------------------------------------------


def test_stampede_asks_every_other_car_at_once() -> None:
    """A Stampede puts every other live car in the to-act set at the same time."""
    s = start(cw=[["stampede"], [], [], []])
    s.cars[2].alive = False
    s = act(s, 0, "stampede")
    assert s.phase is Phase.STAMPEDE and G.to_act(s) == {1, 3}


def test_stampede_hits_the_side_each_victim_picks() -> None:
    """Each victim takes 2 hits on the side it picks; the turn resumes after the last one."""
    s = act(start(cw=[["stampede"], [], []]), 0, "stampede")
    s = act(s, 2, "side back")
    assert G.to_act(s) == {1}
    s = act(s, 1, "side right")
    assert s.cars[1].hits == [0, 0, 0, 2] and s.cars[2].hits == [0, 2, 0, 0]
    assert s.phase is Phase.TURN and s.turn == 0


def test_stampede_may_be_armored() -> None:
    """A victim with armor may take the stampede on that side and stop it."""
    s = act(start(cw=[["stampede"], ["armor-left"]]), 0, "stampede")
    assert "armor left" in legal(s, 1)
    s = act(s, 1, "armor left")
    assert s.cars[1].hits == [0, 0, 0, 0]


def test_stampede_default_is_the_least_damaged_side() -> None:
    """A victim that does not choose takes the stampede on its least damaged side."""
    s = rig(start(cw=[["stampede"], []]), 1, hits=[1, 1, 1, 0])
    s = act(s, 0, "stampede")
    assert G.format_action(G.default_action(s, 1)) == "side right"  # type: ignore[arg-type]


# --- flame, Fireproof Armor and the Extra Tank ---------------------------------------------


def test_fireproof_armor_ignores_flame() -> None:
    """Fireproof Armor stays on the car and flame does no damage to it."""
    s = start(mb=[["75"], ["50"]], cw=[["fireproof"], ["flame-front"]], mb_draw=["25"] * 3)
    s = act(s, 0, "fireproof", "discard 75")
    assert s.cars[0].fireproof == ["fireproof"]
    s = act(s, 1, "flame-front @0")
    assert s.cars[0].hits == [0, 0, 0, 0]


def test_fireproof_armor_protects_the_driver_after_a_breach() -> None:
    """A breached side with Fireproof Armor still keeps the flames off the driver (Shots and
    reactions)."""
    s = rig(start(cw=[["flame-front"], []]), 1, hits=[12, 0, 0, 0], fireproof=True)
    s = act(s, 0, "flame-front @1")
    assert s.cars[1].driver == 0


def test_fireproof_armor_does_not_protect_tires() -> None:
    """Fireproof Armor does nothing for the tires (Shots and reactions)."""
    s = rig(start(cw=[["tire-shot"], []]), 1, fireproof=True)
    s = act(s, 0, "tire-shot @1")
    assert s.cars[1].tires == 3


def test_fireproof_armor_refused_after_flame_damage() -> None:
    """After flame damage Fireproof Armor cannot go on; the refusal changes nothing."""
    s = start(mb=[["75"], ["50"]], cw=[["flame-left"], ["fireproof"]], mb_draw=["25"] * 3)
    s = act(s, 0, "flame-left @1", "discard 75")
    assert s.cars[1].flamed and "fireproof" not in legal(s, 1)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="flame damage"):
        act(s, 1, "fireproof")
    assert G.to_dict(s) == before


def test_repairs_allow_fireproof_armor_again() -> None:
    """Repairs clears the flame damage, so Fireproof Armor may go on again (Repairs and Spare
    Tire)."""
    s = rig(start(mb=[["repairs"], []], cw=[["fireproof"], []]), 0, flamed=True, hits=[2, 0, 0, 0])
    s = act(s, 0, "play repairs", "fireproof")
    assert s.cars[0].fireproof == ["fireproof"]


def test_flame_destroys_the_extra_tank() -> None:
    """Flame damage on the armor destroys the Extra Tank (Shots and reactions)."""
    s = rig(start(cw=[["flame-back"], []]), 1, safeties=["extra-tank"])
    s = act(s, 0, "flame-back @1")
    assert Card.EXTRA_TANK not in s.cars[1].mb.safeties and Card.EXTRA_TANK in s.mb_discard
    assert s.cars[1].alive


def test_flame_through_fireproof_armor_still_destroys_the_tank() -> None:
    """The tank is outside the Fireproof Armor: flamed, but nothing else is damaged."""
    s = rig(start(cw=[["flame-back"], []]), 1, safeties=["extra-tank"], fireproof=True)
    s = act(s, 0, "flame-back @1")
    assert Card.EXTRA_TANK not in s.cars[1].mb.safeties and s.cars[1].hits == [0, 0, 0, 0]


def test_flame_reaching_the_driver_with_a_tank_kills() -> None:
    """Flame that reaches the driver while the Extra Tank is in play explodes it: dead."""
    s = rig(start(cw=[["flame-back"], []], seats=3), 1, safeties=["extra-tank"], hits=[0, 11, 0, 0])
    s = act(s, 0, "flame-back @1")
    assert not s.cars[1].alive and s.cars[0].kills == 1


def test_flame_reaching_the_driver_without_a_tank_only_wounds() -> None:
    """Without the tank the same flame only hurts the driver."""
    s = rig(start(cw=[["flame-back"], []]), 1, hits=[0, 11, 0, 0])
    s = act(s, 0, "flame-back @1")
    assert s.cars[1].alive and s.cars[1].driver == 1


def test_armor_protects_the_tank() -> None:
    """Armor that stops all the flame hits keeps the Extra Tank."""
    s = rig(start(cw=[["flame-back"], ["armor-back"]]), 1, safeties=["extra-tank"])
    s = act(act(s, 0, "flame-back @1"), 1, "armor back")
    assert Card.EXTRA_TANK in s.cars[1].mb.safeties


def test_extra_tank_may_be_dropped_on_your_turn() -> None:
    """The owner may discard the Extra Tank in its own turn (a free action)."""
    s = rig(start(mb=[["75"], []]), 0, safeties=["extra-tank"])
    assert "drop tank" in legal(s, 0)
    s = act(s, 0, "drop tank")
    assert s.cars[0].mb.safeties == [] and s.mb_left == 1 and s.mb_discard == [Card.EXTRA_TANK]


# --- Repairs and Spare Tire ----------------------------------------------------------------


def test_repairs_removes_body_hits_but_not_tires_and_unjams() -> None:
    """Repairs clears every body hit and unjams the guns; tire hits stay (Repairs and Spare
    Tire)."""
    s = rig(start(mb=[["repairs"], []]), 0, hits=[3, 4, 5, 12], tires=4, jammed=True)
    s = act(s, 0, "play repairs")
    car = s.cars[0]
    assert car.hits == [0, 0, 0, 0] and car.tires == 4 and not car.jammed


def test_repairs_does_not_heal_the_driver() -> None:
    """There is no way to fix damage to a driver (The cars)."""
    s = rig(start(mb=[["repairs"], []]), 0, hits=[12, 0, 0, 0], driver=3)
    s = act(s, 0, "play repairs")
    assert s.cars[0].driver == 3


def test_repairs_while_moving_stops_the_car_until_a_go() -> None:
    """A moving car stops voluntarily to play Repairs, then needs a Go (Repairs and Spare Tire)."""
    s = moving(start(mb=[["repairs", "75"], []]), 0)
    s = rig(s, 0, hits=[3, 0, 0, 0])
    s = act(s, 0, "play repairs")
    assert s.cars[0].mb.battle == [Card.REPAIRS]
    from bot.engine.dragon.table import moving as is_moving

    assert not is_moving(s.cars[0])


def test_repairs_with_another_hazard_showing_leaves_it() -> None:
    """Repairs played for its Car Wars effect under a Stop leaves the Stop showing."""
    s = rig(start(mb=[["repairs"], []]), 0, battle=["go", "stop"], hits=[3, 0, 0, 0])
    s = act(s, 0, "play repairs")
    assert s.cars[0].mb.battle == [Card.GO, Card.STOP] and s.cars[0].hits == [0, 0, 0, 0]
    assert Card.REPAIRS in s.mb_discard


def test_repairs_with_nothing_to_repair_is_refused() -> None:
    """Repairs needs an Accident, body hits, jammed guns or flame damage."""
    s = start(mb=[["repairs"], []])
    assert "play repairs" not in legal(s, 0)


def test_spare_tire_removes_tire_hits() -> None:
    """A Spare Tire clears every tire hit (Repairs and Spare Tire)."""
    s = rig(start(mb=[["spare-tire"], []]), 0, tires=5, hits=[1, 0, 0, 0])
    s = act(s, 0, "play spare-tire")
    assert s.cars[0].tires == 0 and s.cars[0].hits == [1, 0, 0, 0]


# --- reactions are out of turn and chain ---------------------------------------------------


def test_reaction_window_belongs_to_the_victim_only() -> None:
    """While a reaction is pending, the turn player cannot act."""
    s = act(start(cw=[["mg-front", "swerve"], ["armor-front"]]), 0, "mg-front @1")
    assert G.legal_actions(s, 0) == []
    with pytest.raises(NotYourTurn, match="waiting for Bob"):
        act(s, 0, "discard 75")


def test_reactions_outside_a_window_are_refused() -> None:
    """Swerve with no shot pending is refused with a sentence."""
    s = start(cw=[["swerve"], []])
    with pytest.raises(IllegalMove, match="no hit to react to"):
        act(s, 0, "swerve")


def test_mille_bornes_move_still_due_after_a_chain() -> None:
    """After the chain the turn player goes on with the Mille Bornes move."""
    s = start(mb=[["75"], []], cw=[["mg-front"], ["armor-front"]])
    s = act(act(s, 0, "mg-front @1"), 1, "pass")
    assert s.turn == 0 and s.phase is Phase.TURN and s.cw_done
    s = act(s, 0, "discard 75")
    assert s.turn == 1


# --- nobody flees (The end) ----------------------------------------------------------------


def test_no_fleeing_a_stopped_car_is_still_a_target() -> None:
    """No car can leave the arena: stopped or far ahead, it is still a target (The end)."""
    s = rig(start(cw=[["mg-front"], []]), 1, miles=["200", "200", "200", "200"])
    assert "mg-front @1" in legal(s, 0)
    assert not any(a.startswith(("flee", "leave", "exit")) for a in legal(s, 0))


# --- the Oil Slick option (Oil Slick) ------------------------------------------------------


def test_oil_slick_is_off_by_default() -> None:
    """Without the option the Car Wars deck has no Oil Slick cards."""
    census = G.census(G.new_game(["A", "B"], seed=2))
    assert census["oil-slick"] == 0 and sum(n for c, n in census.items() if c in SPECS) == 110
    census = G.census(G.new_game(["A", "B"], seed=2, options={"oil_slick": "on"}))
    assert census["oil-slick"] == 2


def test_oil_slick_makes_the_shooter_roll_after_the_shot() -> None:
    """With the option, the victim may drop an Oil Slick; after the shot the shooter rolls."""
    s = start(cw=[["mg-front"], ["oil-slick", "armor-front"]], oil_slick="on")
    s = act(s, 0, "mg-front @1")
    assert legal(s, 1) == ["pass", "armor front", "oil-slick"]
    s = act(s, 1, "oil-slick")
    assert s.phase is Phase.REACT and legal(s, 1) == ["pass", "armor front"]
    s = act(s, 1, "pass")
    assert s.rolls == 1 and "rolls" in s.caption and s.cars[1].hits[0] == 3


def _roll_fails(driver: int, seeds: range) -> int:
    """A seed whose first roll exceeds 5 - driver."""
    import random

    for seed in seeds:
        if random.Random(f"dragon:{seed}:roll:1").randint(1, 6) > 5 - driver:
            return seed
    raise AssertionError("no failing roll")


def test_failed_oil_slick_roll_skids_the_shooter() -> None:
    """A failed control roll skids the shooter: it picks a side, takes 3 hits and stops."""
    s = start(cw=[["mg-front"], ["oil-slick"]], oil_slick="on")
    s = moving(rig(s, 0, driver=3), 0)
    s.seed = _roll_fails(3, range(100))
    s = act(act(s, 0, "mg-front @1"), 1, "oil-slick")
    assert s.phase is Phase.WALL and G.to_act(s) == {0}
    assert "play driving-ace" not in legal(s, 0)
    s = act(s, 0, "side back")
    assert s.cars[0].hits[1] == 3 and s.cars[0].skidded


def test_driving_ace_may_answer_an_oil_slick() -> None:
    """The shooter may play the Driving Ace as a coup fourré when an Oil Slick is dropped."""
    s = start(mb=[["driving-ace"], []], cw=[["mg-front"], ["oil-slick"]], oil_slick="on")
    s = act(act(s, 0, "mg-front @1"), 1, "oil-slick")
    assert s.phase is Phase.OIL_ACE and G.to_act(s) == {0}
    s = act(s, 0, "play driving-ace")
    assert Card.DRIVING_ACE in s.cars[0].mb.coups and s.rolls == 1


def test_driving_ace_is_not_immune_to_the_oil_slick_but_rolls_one_less() -> None:
    """With the Driving Ace in play the shooter still rolls, one less on the die."""
    s = start(cw=[["mg-front"], ["oil-slick"]], oil_slick="on")
    s = rig(s, 0, safeties=["driving-ace"], driver=4)
    s = act(act(s, 0, "mg-front @1"), 1, "oil-slick")
    assert "(-1, Driving Ace)" in s.caption


def test_oil_slick_card_refused_when_the_option_is_off() -> None:
    """Oil Slick cannot be stacked into a game without the option."""
    from bot.engine.core import BadOption

    with pytest.raises(BadOption, match="Oil Slick"):
        G.new_game(["A", "B"], seed=1, deck=["oil-slick"])


# --- more rulings --------------------------------------------------------------------------


def test_no_dodging_after_armor() -> None:
    """Once the victim has armored against a shot it can no longer swerve it."""
    s = moving(start(cw=[["rocket-front"], ["armor-front", "armor-front", "swerve"]]), 1)
    s = act(act(s, 0, "rocket-front @1"), 1, "armor front")
    assert legal(s, 1) == ["pass", "armor front"]
    with pytest.raises(IllegalMove, match="can no longer be dodged"):
        act(s, 1, "swerve")


def test_stampede_cannot_be_swerved() -> None:
    """A Stampede is not a shot: its victims pick a side (or armor it), never swerve."""
    s = moving(start(cw=[["stampede"], ["swerve"]]), 1)
    s = act(s, 0, "stampede")
    assert not any(a in ("swerve", "spin") for a in legal(s, 1))


def test_jam_on_jammed_guns_is_refused() -> None:
    """Jamming guns that are already jammed is refused."""
    s = rig(start(cw=[["jam"], []]), 1, jammed=True)
    assert "jam @1" not in legal(s, 0)
    with pytest.raises(IllegalMove, match="already has jammed machine guns"):
        act(s, 0, "jam @1")


def test_second_fireproof_armor_is_refused() -> None:
    """A car carries one Fireproof Armor."""
    s = rig(start(cw=[["fireproof"], []]), 0, fireproof=True)
    with pytest.raises(IllegalMove, match="already has Fireproof Armor"):
        act(s, 0, "fireproof")


def test_a_stopped_car_may_still_shoot() -> None:
    """Shooting needs no Go: a stopped car fires like any other."""
    s = start(cw=[["mg-front"], []])
    from bot.engine.dragon.table import moving as is_moving

    assert not is_moving(s.cars[0]) and "mg-front @1" in legal(s, 0)


def test_skid_kill_is_credited_to_the_shooter() -> None:
    """A skid that kills is a kill for the car that played the skid."""
    s = moving(start(cw=[["mg-front", "skid"], ["swerve"], []]), 1)
    s = rig(s, 1, hits=[12, 12, 12, 12], driver=4)
    s = act(act(act(s, 0, "mg-front @1"), 1, "swerve"), 0, "skid @1")
    s = act(s, 1, "side left")
    assert not s.cars[1].alive and s.cars[0].kills == 1


def test_arena_closes_after_quiet_rounds() -> None:
    """25 rounds in a row with no mile driven and no driver hurt end the game: most miles
    wins (our ruling, so that every game ends)."""
    from bot.engine.dragon.ending import QUIET_ROUNDS

    s = rig(start(mb=[["75"], ["50"]]), 1, miles=["100"])
    for _ in range(QUIET_ROUNDS):
        for seat in (0, 1):
            if G.outcome(s) is None:
                s = act(s, seat, _a_discard(s, seat), "end")
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == (1,) and "arena closes" in outcome.reason


def test_quiet_rounds_reset_when_a_car_drives() -> None:
    """Driving miles resets the count of quiet rounds."""
    s = moving(start(mb=[["25"], []]), 0)
    s.quiet = 40
    s = act(s, 0, "play 25")
    assert s.quiet == 0


def test_arena_closing_with_equal_miles_is_a_draw() -> None:
    """When the arena closes on equal miles the game is a draw."""
    from bot.engine.dragon.ending import QUIET_ROUNDS

    s = start(mb=[["75"], ["50"]])
    for _ in range(QUIET_ROUNDS):
        for seat in (0, 1):
            if G.outcome(s) is None:
                s = act(s, seat, _a_discard(s, seat), "end")
    outcome = G.outcome(s)
    assert outcome is not None and outcome.is_draw and outcome.places == (0, 0)


def test_a_car_leaving_keeps_the_quiet_rounds_counted_so_far() -> None:
    """The arena closes after 25 quiet rounds even when a car leaves along the way: 20 quiet
    rounds of three cars, then a leave, leave 5 rounds of the two cars still racing."""
    from bot.engine.dragon.ending import QUIET_ROUNDS

    s = rig(start(seats=3), 1, miles=["100"])

    def quiet_turn(s: DragonState) -> DragonState:
        return act(s, s.turn, _a_discard(s, s.turn), "end")

    for _ in range(20 * 3):
        s = quiet_turn(s)
    s = G.leave(s, 2)
    for _ in range(2 * (QUIET_ROUNDS - 20) - 1):
        s = quiet_turn(s)
    assert G.outcome(s) is None
    s = quiet_turn(s)
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == (1,) and "arena closes" in outcome.reason

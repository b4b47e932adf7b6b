"""Dragon Mille Bornes: statements of docs/rules/dragon.md that a statement-by-statement
audit found without a test of their own (or without the refusal of the bad input).

Section names in parentheses are sections of that page. Each test deals stacked hands
(``dragon_helpers.start``); seat 0 starts.
"""

from __future__ import annotations

import random

import pytest

from bot.engine.core import IllegalMove, NotYourTurn
from bot.engine.dragon.state import Phase
from bot.engine.dragon.table import moving as is_moving
from bot.engine.mille.cards import Card
from tests.engine.dragon_helpers import G, act, legal, moving, rig, start

# --- only a moving car spins (Mille Bornes on a crowded track) -----------------------------


def test_spin_while_stopped_is_refused() -> None:
    """In a window opened for armor, a stopped car's Spin is refused with the reason and the
    state is unchanged (Mille Bornes on a crowded track)."""
    s = act(start(cw=[["rocket-front"], ["spin", "armor-front"]]), 0, "rocket-front @1")
    assert legal(s, 1) == ["pass", "armor front"]
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="must be moving to spin"):
        act(s, 1, "spin")
    assert G.to_dict(s) == before


# --- other Car Wars damage does not stop a car (Mille Bornes on a crowded track) -----------


def test_body_and_driver_damage_do_not_stop_the_car() -> None:
    """A moving car with a breached side, a hurt driver, 8 tire hits and jammed guns still
    drives: only shot tires and skids stop it (Mille Bornes on a crowded track)."""
    s = start(mb=[["50"], ["75"]], cw=[["mg-front"], []])
    s = rig(moving(s, 1), 1, hits=[12, 5, 5, 5], tires=8, jammed=True)
    s = act(s, 0, "mg-front @1", "discard 50")
    assert s.cars[1].driver == 3 and s.turn == 1
    assert is_moving(s.cars[1]) and "play 75" in legal(s, 1)


# --- what flame destroys, and what is permanent (Shots and reactions) ----------------------


def test_flame_destroys_only_the_extra_tank() -> None:
    """Flame on the armor costs the Extra Tank; every other safety stays (Shots and reactions)."""
    s = rig(start(cw=[["flame-back"], []]), 1, safeties=["extra-tank", "driving-ace"])
    s = act(s, 0, "flame-back @1")
    assert s.cars[1].mb.safeties == [Card.DRIVING_ACE]


def test_fireproof_armor_stays_on_after_stopping_flames() -> None:
    """Fireproof Armor is permanent: it stays on the car after stopping a flamethrower, and
    only the flamethrower goes to the discard (Rulings: Car Wars cards)."""
    s = rig(start(cw=[["flame-back"], []]), 1, fireproof=True)
    s = act(s, 0, "flame-back @1")
    assert s.cars[1].fireproof == ["fireproof"] and s.cw_discard == ["flame-back"]


def test_repairs_leaves_fireproof_armor_on_the_car() -> None:
    """Repairs clears the body hits but Fireproof Armor stays fitted (Repairs and Spare Tire)."""
    s = rig(start(mb=[["repairs"], []]), 0, hits=[3, 0, 0, 0], fireproof=True)
    s = act(s, 0, "play repairs")
    assert s.cars[0].hits == [0, 0, 0, 0] and s.cars[0].fireproof == ["fireproof"]


def test_swerve_protects_the_tank() -> None:
    """A moving car that swerves a flamethrower keeps its Extra Tank (Shots and reactions)."""
    s = rig(moving(start(cw=[["flame-back"], ["swerve"]]), 1), 1, safeties=["extra-tank"])
    s = act(act(s, 0, "flame-back @1"), 1, "swerve")
    assert s.cars[1].mb.safeties == [Card.EXTRA_TANK] and s.cars[1].hits == [0, 0, 0, 0]


def test_dropping_an_extra_tank_you_do_not_have_is_refused() -> None:
    """'drop tank' needs an Extra Tank in play; the refusal changes nothing."""
    s = start(mb=[["75"], []])
    assert "drop tank" not in legal(s, 0)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="no Extra Tank in play"):
        act(s, 0, "drop tank")
    assert G.to_dict(s) == before


def test_extra_tank_is_dropped_only_on_your_turn() -> None:
    """The Extra Tank is discarded on its owner's turn, never in another's (A turn)."""
    s = rig(start(), 1, safeties=["extra-tank"])
    assert "drop tank" not in legal(s, 1)
    with pytest.raises(NotYourTurn, match="waiting for Ann"):
        act(s, 1, "drop tank")


# --- the card table: Tire Shot, Skid Into a Wall, Autocannon Backfires ---------------------


def test_tire_shot_refused_as_an_answer() -> None:
    """A Tire Shot is played in your own turn only: typed in an answer window it is refused
    with that reason and nothing changes (The two decks)."""
    s = act(start(cw=[["mg-front"], ["tire-shot", "armor-front"]]), 0, "mg-front @1")
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="Tire Shot is played in your own turn"):
        act(s, 1, "tire-shot @0")
    assert G.to_dict(s) == before


def test_skid_cannot_be_played_as_a_turn_move() -> None:
    """Skid Into a Wall is only played on a car that just dodged: never as the Car Wars move."""
    s = moving(start(cw=[["skid"], []]), 1)
    assert not any(a.startswith("skid") for a in legal(s, 0))
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="only follows a shot of yours that a car has just"):
        act(s, 0, "skid @1")
    assert G.to_dict(s) == before


def test_skid_on_a_car_that_did_not_dodge_is_refused() -> None:
    """The skid goes on the car that just swerved, not on another car; nothing changes."""
    s = moving(start(cw=[["mg-front", "skid"], ["swerve"], []]), 1, 2)
    s = act(act(s, 0, "mg-front @1"), 1, "swerve")
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="Only Bob, who just dodged your shot"):
        act(s, 0, "skid @2")
    assert G.to_dict(s) == before


def test_backfire_against_a_machine_gun_is_refused() -> None:
    """In a window opened for armor, Autocannon Backfires against a machine gun is refused."""
    s = act(start(cw=[["mg-left"], ["backfire", "armor-left"]]), 0, "mg-left @1")
    assert legal(s, 1) == ["pass", "armor left"]
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="only reacts to an autocannon"):
        act(s, 1, "backfire")
    assert G.to_dict(s) == before


# --- the discard takes the place of the play (A turn) --------------------------------------


def test_mille_bornes_play_after_a_discard_is_refused() -> None:
    """A Mille Bornes discard is the turn's Mille Bornes move: no card may be played after it."""
    s = act(moving(start(mb=[["75", "50"], []]), 0), 0, "discard 75")
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="already made your Mille Bornes move"):
        act(s, 0, "play 50")
    assert G.to_dict(s) == before


# --- used cards go to the discard (Rulings) ------------------------------------------------


def test_spin_goes_to_the_discard() -> None:
    """The shot and the Spin that dodged it are discarded at once (Rulings)."""
    s = moving(start(cw=[["mg-front"], ["spin"]]), 1)
    s = act(act(s, 0, "mg-front @1"), 1, "spin")
    assert sorted(s.cw_discard) == ["mg-front", "spin"]


def test_oil_slick_goes_to_the_discard() -> None:
    """A dropped Oil Slick is discarded with the shot (Rulings)."""
    s = start(cw=[["mg-front"], ["oil-slick"]], oil_slick="on")
    s = act(act(s, 0, "mg-front @1"), 1, "oil-slick")
    assert sorted(s.cw_discard) == ["mg-front", "oil-slick"]


def test_a_go_discards_the_remedy_it_covers() -> None:
    """Only the battle pile's top card stays: a Go sends the Repairs beneath it to the
    discard (Rulings)."""
    s = rig(start(mb=[["go"], []]), 0, battle=["repairs"])
    s = act(s, 0, "play go")
    assert s.cars[0].mb.battle == [Card.GO] and s.mb_discard == [Card.REPAIRS]


# --- the Driving Ace is not immune to an Oil Slick skid (Oil Slick) ------------------------


def _failing_seed(driver: int) -> int:
    """A game seed whose first control roll fails for a driver with these hits."""
    for seed in range(200):
        if random.Random(f"dragon:{seed}:roll:1").randint(1, 6) > 5 - driver:
            return seed
    raise AssertionError("no failing roll")


def test_driving_ace_in_hand_cannot_cancel_an_oil_slick_skid() -> None:
    """A shooter who let the Ace's coup-fourré moment pass, then fails the roll, skids: the
    Ace in hand is not offered against the wall, and typing it is refused (Oil Slick)."""
    s = start(mb=[["driving-ace"], []], cw=[["mg-front"], ["oil-slick"]], oil_slick="on")
    s = rig(s, 0, driver=4)
    s.seed = _failing_seed(4)
    s = act(act(s, 0, "mg-front @1"), 1, "oil-slick")
    s = act(s, 0, "pass")
    assert s.phase is Phase.WALL and G.to_act(s) == {0}
    assert "play driving-ace" not in legal(s, 0)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="no protection against an Oil Slick skid"):
        act(s, 0, "play driving-ace")
    assert G.to_dict(s) == before


def test_driving_ace_is_no_answer_to_a_stampede() -> None:
    """A Stampede is not a skid: the Driving Ace in hand does not cancel it, and says so."""
    s = act(start(mb=[[], ["driving-ace"]], cw=[["stampede"], []]), 0, "stampede")
    assert "play driving-ace" not in legal(s, 1)
    with pytest.raises(IllegalMove, match="A Stampede is not a skid"):
        act(s, 1, "play driving-ace")


def _seed_rolling(roll: int) -> int:
    """A game seed whose first control roll is exactly ``roll``."""
    for seed in range(200):
        if random.Random(f"dragon:{seed}:roll:1").randint(1, 6) == roll:
            return seed
    raise AssertionError("no such roll")


def test_oil_slick_roll_equal_to_the_remaining_hits_keeps_control() -> None:
    """'The driver's remaining hits or less': with 2 driver hits (3 left) a roll of 3 holds."""
    s = moving(start(cw=[["mg-front"], ["oil-slick"]], oil_slick="on"), 0)
    s = rig(s, 0, driver=2)
    s.seed = _seed_rolling(3)
    s = act(act(s, 0, "mg-front @1"), 1, "oil-slick")
    assert "rolls 3 on the Oil Slick and keeps control" in s.caption
    assert s.phase is Phase.TURN and not s.cars[0].skidded


def test_driving_ace_in_play_takes_one_off_the_roll() -> None:
    """With 4 driver hits (1 left) a roll of 2 fails, but the Driving Ace's -1 makes it hold
    (Oil Slick)."""
    s = start(cw=[["mg-front"], ["oil-slick"]], oil_slick="on")
    s.seed = _seed_rolling(2)
    plain = act(act(rig(s, 0, driver=4), 0, "mg-front @1"), 1, "oil-slick")
    assert plain.phase is Phase.WALL
    ace = rig(s, 0, driver=4, safeties=["driving-ace"])
    ace = act(act(ace, 0, "mg-front @1"), 1, "oil-slick")
    assert ace.phase is Phase.TURN and "keeps control" in ace.caption


# --- the card table: Swerve answers every shot; a coup fourré answers every hazard ---------


@pytest.mark.parametrize("shot", ["laser-left @1", "called-shot @1 back", "tire-shot @1"])
def test_swerve_answers_every_kind_of_shot(shot: str) -> None:
    """A side weapon, a Called Shot and a Tire Shot are all attacks: a moving car swerves them
    and takes nothing (The two decks)."""
    code = shot.split()[0]
    s = moving(start(cw=[[code], ["swerve"]]), 1)
    s = act(act(s, 0, shot), 1, "swerve")
    assert s.cars[1].hits == [0, 0, 0, 0] and s.cars[1].tires == 0


@pytest.mark.parametrize(
    ("hazard", "safety"),
    [
        ("out-of-gas", "extra-tank"),
        ("flat-tire", "puncture-proof"),
        ("accident", "driving-ace"),
        ("stop", "right-of-way"),
        ("speed-limit", "right-of-way"),
    ],
)
def test_every_safety_answers_its_hazard_as_a_coup_fourre(hazard: str, safety: str) -> None:
    """The holder of the safety is asked, plays it out of turn, and the hazard is discarded;
    the turn stays with the attacker (Mille Bornes on a crowded track)."""
    s = moving(start(mb=[[hazard], [safety]]), 1)
    s = act(s, 0, f"play {hazard} @1")
    assert s.phase is Phase.COUP and legal(s, 1) == ["pass", f"play {safety}"]
    s = act(s, 1, f"play {safety}")
    car = s.cars[1]
    assert car.mb.coups == [Card(safety)] and Card(hazard) in s.mb_discard
    assert car.mb.battle == [Card.GO] and car.mb.speed == [] and s.turn == 0


# --- Fireproof Armor is barred only by flame damage actually taken (Shots and reactions) ----


def test_flame_stopped_by_armor_leaves_fireproof_armor_allowed() -> None:
    """A flamethrower fully stopped by Armor does no flame damage, so Fireproof Armor may
    still be fitted on the next turn."""
    s = start(mb=[["75"], ["50"]], cw=[["flame-left"], ["armor-left", "fireproof"]])
    s = act(act(s, 0, "flame-left @1"), 1, "armor left")
    s = act(s, 0, "discard 75")
    assert s.turn == 1 and not s.cars[1].flamed and "fireproof" in legal(s, 1)


def test_discarding_every_card_by_name_also_unjams() -> None:
    """Naming every Car Wars card held in the discard is discarding the whole hand: the guns
    are unjammed just as with 'cw-discard all' (A turn)."""
    s = rig(start(cw=[["mg-front", "swerve"], []]), 0, jammed=True)
    hand = " ".join(s.cars[0].cw_hand)
    s = act(s, 0, f"cw-discard {hand}")
    assert s.cars[0].cw_hand == [] and not s.cars[0].jammed


# --- a second clause-by-clause audit ------------------------------------------------------


def test_puncture_proof_does_not_stop_a_tire_shot() -> None:
    """Puncture Proof keeps off Flat Tires only: a Tire Shot still hits, shot tires still stop
    the car, and a Spare Tire still mends them (Mille Bornes on a crowded track)."""
    s = rig(moving(start(cw=[["tire-shot"], []], mb=[[], ["spare-tire"]]), 1), 1, tires=6)
    s = rig(s, 1, safeties=["puncture-proof"])
    s = act(s, 0, "tire-shot @1")
    assert s.cars[1].tires == 9 and not is_moving(s.cars[1])
    s = act(s, 0, "discard gasoline")
    assert s.turn == 1 and "play spare-tire" in legal(s, 1)


def test_a_spin_leaves_mille_bornes_hazards_allowed() -> None:
    """A hazard is not a Car Wars attack: after a Spin the shooter may still play one
    (Rulings: Spin)."""
    s = moving(start(mb=[["stop"], []], cw=[["mg-front"], ["spin"]]), 1)
    s = act(act(s, 0, "mg-front @1"), 1, "spin")
    assert s.spun and "play stop @1" in legal(s, 0)
    s = act(s, 0, "play stop @1")
    assert s.cars[1].mb.battle[-1] is Card.STOP


def test_driving_ace_coup_fourre_against_an_oil_slick_takes_one_off_the_roll() -> None:
    """The Ace played against the Oil Slick does not cancel it: the shooter still rolls, one
    less on the die, and its Mille Bornes move is neither used nor given back (Oil Slick)."""
    s = start(mb=[["driving-ace"], []], cw=[["mg-front"], ["oil-slick"]], oil_slick="on")
    s = rig(s, 0, driver=4)
    s.seed = _seed_rolling(2)  # fails with 1 hit left, unless one comes off
    s = act(act(s, 0, "mg-front @1"), 1, "oil-slick")
    s = act(s, 0, "play driving-ace")
    assert s.rolls == 1 and "rolls 2 (-1, Driving Ace)" in s.caption
    assert "keeps control" in s.caption and s.phase is Phase.TURN and s.mb_left == 1


def test_right_of_way_played_in_your_turn_lifts_a_speed_limit() -> None:
    """Right of Way answers Speed Limit too: played in your own turn it lifts one showing."""
    s = start(mb=[["right-of-way"], []])
    s.cars[0].mb.speed = [Card.SPEED_LIMIT]
    s = act(s, 0, "play right-of-way")
    assert s.cars[0].mb.speed == [] and s.mb_discard == [Card.SPEED_LIMIT]


def test_oil_slick_is_no_answer_to_a_stampede() -> None:
    """A Stampede is not a shot: a victim holding an Oil Slick only picks a side."""
    s = act(start(cw=[["stampede"], ["oil-slick"]], oil_slick="on"), 0, "stampede")
    assert "oil-slick" not in legal(s, 1)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="Pick the side"):
        act(s, 1, "oil-slick")
    assert G.to_dict(s) == before


def test_car_wars_discard_after_a_car_wars_play_is_refused() -> None:
    """A Car Wars discard is the turn's Car Wars move: none may follow a Car Wars play."""
    s = act(start(mb=[["75"], []], cw=[["mg-front", "swerve"], []]), 0, "mg-front @1")
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="already made your Car Wars move"):
        act(s, 0, "cw-discard swerve")
    assert G.to_dict(s) == before

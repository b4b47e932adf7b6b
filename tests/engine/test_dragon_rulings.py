"""Dragon Mille Bornes: statements of docs/rules/dragon.md (and of the Mille Bornes
cards on docs/rules/mille.md) that the rule audit found untested; section names in parentheses.

Each test deals stacked hands (``dragon_helpers.start``); seat 0 starts.
"""

from __future__ import annotations

import random

import pytest

from bot.engine.core import IllegalMove
from bot.engine.dragon.cards import SIDES
from bot.engine.dragon.state import Phase
from bot.engine.dragon.table import moving as is_moving
from bot.engine.mille.cards import Card
from tests.engine.dragon_helpers import G, act, legal, moving, rig, start
from tests.engine.mille_helpers import deck_counts

# --- the Mille Bornes deck, its pairs and its names (The two decks; mille.md) --------------


@pytest.mark.parametrize(("deck", "total"), [("bsd", 101), ("modern", 106)])
def test_mille_bornes_deck_counts(deck: str, total: int) -> None:
    """The Mille Bornes deck is the BSD one (101 cards), or the modern one (106) by option."""
    census = G.census(G.new_game(["A", "B"], seed=5, options={"deck": deck}))
    mb = {card.value: census[card.value] for card in Card}
    assert mb == deck_counts(deck)
    assert sum(mb.values()) == total


@pytest.mark.parametrize(
    ("hazard", "remedy"),
    [("out-of-gas", "gasoline"), ("flat-tire", "spare-tire"), ("accident", "repairs")],
)
def test_each_remedy_answers_its_own_hazard(hazard: str, remedy: str) -> None:
    """A remedy covers the hazard it answers; the car then needs a Go (mille.md, The cards)."""
    s = rig(start(mb=[[remedy], []]), 0, battle=["go", hazard])
    s = act(s, 0, f"play {remedy}")
    assert s.cars[0].mb.battle == [Card(remedy)] and not is_moving(s.cars[0])


def test_go_answers_a_stop() -> None:
    """Go covers a Stop and the car moves again."""
    s = rig(start(mb=[["go"], []]), 0, battle=["go", "stop"])
    s = act(s, 0, "play go")
    assert s.cars[0].mb.battle == [Card.GO] and is_moving(s.cars[0])


def test_end_of_limit_answers_a_speed_limit() -> None:
    """End of Limit lifts a Speed Limit."""
    s = moving(start(mb=[["end-of-limit"], []]), 0)
    s.cars[0].mb.speed = [Card.SPEED_LIMIT]
    s = act(s, 0, "play end-of-limit")
    assert s.cars[0].mb.speed == [Card.END_OF_LIMIT]


def test_a_remedy_for_another_hazard_is_refused() -> None:
    """Gasoline does not mend a Flat Tire; the refusal is a sentence and changes nothing."""
    s = rig(start(mb=[["gasoline"], []]), 0, battle=["go", "flat-tire"])
    assert "play gasoline" not in legal(s, 0)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="Gasoline only answers Out of Gas"):
        act(s, 0, "play gasoline")
    assert G.to_dict(s) == before


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
def test_a_safety_in_play_protects_against_its_hazards(hazard: str, safety: str) -> None:
    """A car with the safety in play cannot be given its hazard; the state is unchanged."""
    s = rig(moving(start(mb=[[hazard], []]), 1), 1, safeties=[safety])
    assert f"play {hazard} @1" not in legal(s, 0)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match=r"protected against|Right of Way"):
        act(s, 0, f"play {hazard} @1")
    assert G.to_dict(s) == before


def test_speed_limit_may_hit_a_stopped_car() -> None:
    """A Speed Limit needs no moving target, unlike the battle hazards."""
    s = act(start(mb=[["speed-limit"], []]), 0, "play speed-limit @1")
    assert s.cars[1].mb.speed == [Card.SPEED_LIMIT]


def test_right_of_way_coup_fourre_against_a_speed_limit() -> None:
    """Right of Way answers a Speed Limit as a coup fourré: the limit goes to the discard."""
    s = act(start(mb=[["speed-limit"], ["right-of-way"]]), 0, "play speed-limit @1")
    assert s.phase is Phase.COUP and G.to_act(s) == {1}
    s = act(s, 1, "play right-of-way")
    car = s.cars[1]
    assert car.mb.speed == [] and car.mb.coups == [Card.RIGHT_OF_WAY]
    assert Card.SPEED_LIMIT in s.mb_discard and s.turn == 0


def test_french_card_names_option() -> None:
    """With names: fr the Mille Bornes cards are shown by their French names."""
    s = moving(start(mb=[["stop"], []], names="fr"), 1)
    assert G.describe_action(s, 0, G.parse_action("play stop @1")) == "Feu rouge on Bob"


# --- the Car Wars card list (The two decks) ------------------------------------------------

_CW_TABLE = {
    **{f"mg-{side}": 4 for side in SIDES},
    **{f"ac-{side}": 2 for side in SIDES},
    **{f"rocket-{side}": 2 for side in SIDES},
    **{f"laser-{side}": 2 for side in SIDES},
    **{f"flame-{side}": 2 for side in SIDES},
    "called-shot": 4,
    "tire-shot": 6,
    **{f"armor-{side}": 7 for side in SIDES},
    "fireproof": 2,
    "swerve": 10,
    "spin": 2,
    "skid": 4,
    "jam": 2,
    "backfire": 2,
    "stampede": 2,
}


@pytest.mark.parametrize("oil", ["off", "on"])
def test_car_wars_deck_holds_each_card_of_the_table(oil: str) -> None:
    """Every Car Wars card comes in the number the rules page's table gives; Oil Slick by option."""
    census = G.census(G.new_game(["A", "B"], seed=6, options={"oil_slick": oil}))
    expected = {**_CW_TABLE, **({"oil-slick": 2} if oil == "on" else {})}
    assert {code: census[code] for code in census if code in {*_CW_TABLE, "oil-slick"}} == expected


def test_called_shot_may_name_any_of_the_four_sides() -> None:
    """A Called Shot is offered against each of the four sides of a car."""
    s = start(cw=[["called-shot"], []])
    assert [a for a in legal(s, 0) if a.startswith("called-shot @1")] == [
        f"called-shot @1 {side}" for side in SIDES
    ]


# --- the breach example, stopped (The cars) ------------------------------------------------


def test_breach_example_armor_keeps_the_driver_whole() -> None:
    """10 hits on the right and a Machine Gun, answered by Armor: no hit lands (The cars)."""
    s = rig(start(cw=[["mg-right"], ["armor-right"]]), 1, hits=[0, 0, 0, 10])
    s = act(act(s, 0, "mg-right @1"), 1, "armor right")
    assert s.cars[1].hits[3] == 10 and s.cars[1].driver == 0


def test_breach_example_swerve_keeps_the_driver_whole() -> None:
    """The same Machine Gun swerved by a moving car does nothing (The cars)."""
    s = rig(moving(start(cw=[["mg-right"], ["swerve"]]), 1), 1, hits=[0, 0, 0, 10])
    s = act(act(s, 0, "mg-right @1"), 1, "swerve")
    assert s.cars[1].hits[3] == 10 and s.cars[1].driver == 0


# --- flame, Fireproof Armor and the Extra Tank (Shots and reactions) -----------------------


def test_fireproof_armor_on_a_breached_side_with_a_tank() -> None:
    """Flame on a breached, fireproofed side destroys the tank but hurts nobody (Shots and
    reactions)."""
    s = rig(start(cw=[["flame-back"], []]), 1, hits=[0, 12, 0, 0], safeties=["extra-tank"])
    s = rig(s, 1, fireproof=True)
    s = act(s, 0, "flame-back @1")
    car = s.cars[1]
    assert car.alive and car.driver == 0 and Card.EXTRA_TANK not in car.mb.safeties


# --- Repairs and Spare Tire need the car stopped (Repairs and Spare Tire) ------------------


def test_spare_tire_while_moving_stops_the_car_until_a_go() -> None:
    """A moving car with tire hits stops to put on a Spare Tire, then needs a Go (Repairs and
    Spare Tire)."""
    s = rig(moving(start(mb=[["spare-tire"], []]), 0), 0, tires=3)
    s = act(s, 0, "play spare-tire")
    car = s.cars[0]
    assert car.tires == 0 and car.mb.battle == [Card.SPARE_TIRE] and not is_moving(car)


def test_spare_tire_with_nothing_to_mend_is_refused() -> None:
    """Spare Tire needs a Flat Tire or tire hits; the refusal changes nothing."""
    s = moving(start(mb=[["spare-tire"], []]), 0)
    assert "play spare-tire" not in legal(s, 0)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="neither"):
        act(s, 0, "play spare-tire")
    assert G.to_dict(s) == before


def test_shot_tires_then_spare_tire_then_go_moves_again() -> None:
    """After shot tires, the Spare Tire and then a Go get the car moving (The cars)."""
    s = rig(moving(start(mb=[["spare-tire", "go"], ["75"]]), 0), 0, tires=9)
    s = act(s, 0, "play spare-tire", "end")
    s = act(s, 1, "discard 75", "end")
    s = act(s, 0, "play go")
    assert is_moving(s.cars[0])


def test_right_of_way_restarts_after_repairs() -> None:
    """With Right of Way, a car that stopped to play Repairs is moving again at once."""
    s = rig(moving(start(mb=[["repairs"], []]), 0), 0, hits=[3, 0, 0, 0])
    s = rig(s, 0, safeties=["right-of-way"])
    s = act(s, 0, "play repairs")
    assert s.cars[0].mb.battle == [Card.REPAIRS] and is_moving(s.cars[0])


# --- swerve, spin, skid, jam, backfire -----------------------------------------------------


def test_skid_may_follow_a_spin() -> None:
    """Skid Into a Wall may be played on a car that just spun, not only on one that swerved."""
    s = moving(start(cw=[["mg-front", "skid"], ["spin"]]), 1)
    s = act(act(s, 0, "mg-front @1"), 1, "spin")
    assert s.phase is Phase.SKID and legal(s, 0) == ["pass", "skid @1"]


def test_a_jam_is_not_a_shot() -> None:
    """Machine Gun Jams opens no window: a moving car holding a Swerve is not asked."""
    s = moving(start(cw=[["jam"], ["swerve", "armor-front"]]), 1)
    s = act(s, 0, "jam @1")
    assert s.phase is Phase.TURN and s.cars[1].jammed and G.to_act(s) == {0}


def test_backfire_without_front_armor_lands_at_once() -> None:
    """A shooter with no front Armor is not asked about its backfire: the hits land."""
    s = act(start(cw=[["ac-left"], ["backfire"]]), 0, "ac-left @1")
    s = act(s, 1, "backfire")
    assert s.phase is Phase.TURN and G.to_act(s) == {0} and s.cars[0].hits[0] == 4


def test_a_backfire_cannot_be_swerved() -> None:
    """A moving shooter holding a Swerve cannot dodge its own backfire: only front Armor helps."""
    s = moving(start(cw=[["ac-left", "swerve", "armor-front"], ["backfire"]]), 0)
    s = act(act(s, 0, "ac-left @1"), 1, "backfire")
    assert s.phase is Phase.BACKFIRE and legal(s, 0) == ["pass", "armor front"]
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="armor front"):
        act(s, 0, "swerve")
    assert G.to_dict(s) == before


def test_no_backfire_after_armor() -> None:
    """A victim that armored against an autocannon can no longer backfire it."""
    s = act(start(cw=[["ac-front"], ["armor-front", "armor-front", "backfire"]]), 0, "ac-front @1")
    assert "backfire" in legal(s, 1)
    s = act(s, 1, "armor front")
    assert legal(s, 1) == ["pass", "armor front"]
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="already armored"):
        act(s, 1, "backfire")
    assert G.to_dict(s) == before


# --- played cards go straight to their discard pile (Rulings) ------------------------------


def test_jam_goes_to_the_discard() -> None:
    """A played Machine Gun Jams is discarded at once (Rulings)."""
    s = act(start(cw=[["jam"], []]), 0, "jam @1")
    assert s.cw_discard == ["jam"]


def test_stampede_goes_to_the_discard() -> None:
    """A played Stampede is discarded at once (Rulings)."""
    s = act(start(cw=[["stampede"], []]), 0, "stampede")
    assert s.cw_discard == ["stampede"]


def test_skid_and_swerve_go_to_the_discard() -> None:
    """The shot, the Swerve and the Skid all end on the Car Wars discard (Rulings)."""
    s = moving(start(cw=[["mg-front", "skid"], ["swerve"]]), 1)
    s = act(act(act(s, 0, "mg-front @1"), 1, "swerve"), 0, "skid @1")
    s = act(s, 1, "side left")
    assert sorted(s.cw_discard) == ["mg-front", "skid", "swerve"]


def test_backfire_goes_to_the_discard() -> None:
    """The autocannon and the Autocannon Backfires are discarded (Rulings)."""
    s = act(act(start(cw=[["ac-left"], ["backfire"]]), 0, "ac-left @1"), 1, "backfire")
    assert sorted(s.cw_discard) == ["ac-left", "backfire"]


def test_a_speed_limit_discards_the_end_of_limit_it_covers() -> None:
    """Only the top card of a pile stays: a new Speed Limit sends the End of Limit it lands on
    to the discard (Rulings)."""
    s = rig(start(mb=[["speed-limit"], []]), 1)
    s.cars[1].mb.speed = [Card.END_OF_LIMIT]
    s = act(s, 0, "play speed-limit @1")
    assert s.cars[1].mb.speed == [Card.SPEED_LIMIT] and s.mb_discard == [Card.END_OF_LIMIT]


def test_a_dead_cars_piles_and_safeties_go_to_the_discard() -> None:
    """A driver with 5 hits is out: the battle and speed piles and the safeties on the car are
    discarded with the hands, so the deck can use them again."""
    s = start(cw=[["rocket-back"], []], seats=3)
    s = rig(s, 1, hits=[0, 12, 0, 0], driver=4, battle=["stop"], safeties=["puncture-proof"])
    s.cars[1].mb.speed = [Card.SPEED_LIMIT]
    s = act(s, 0, "rocket-back @1")
    dead = s.cars[1].mb
    assert not s.cars[1].alive and dead.battle == dead.speed == dead.safeties == []
    assert {Card.STOP, Card.SPEED_LIMIT, Card.PUNCTURE_PROOF} <= set(s.mb_discard)


# --- kills ---------------------------------------------------------------------------------


def test_stampede_kill_is_credited_to_the_stampeder() -> None:
    """A driver killed by a Stampede is a kill for the car that started it."""
    s = rig(start(cw=[["stampede"], [], []]), 1, hits=[12, 12, 12, 12], driver=4)
    s = act(act(s, 0, "stampede"), 1, "side front")
    assert not s.cars[1].alive and s.cars[1].killed_by == 0 and s.cars[0].kills == 1


def _oil_seed(fails: bool, driver: int) -> int:
    """A game seed whose first control roll fails (or holds) for a driver with these hits."""
    for seed in range(200):
        roll = random.Random(f"dragon:{seed}:roll:1").randint(1, 6)
        if (roll > 5 - driver) == fails:
            return seed
    raise AssertionError("no such roll")


def test_oil_slick_kill_is_credited_to_the_car_that_dropped_it() -> None:
    """A shooter killed skidding on an Oil Slick is a kill for the victim who dropped it."""
    s = start(cw=[["mg-front"], ["oil-slick"], []], oil_slick="on")
    s = rig(s, 0, hits=[12, 12, 12, 12], driver=4)
    s.seed = _oil_seed(True, 4)
    s = act(s, 0, "mg-front @1")
    s = act(s, 1, "oil-slick")
    assert s.phase is Phase.WALL and G.to_act(s) == {0}
    s = act(s, 0, "side back")
    assert not s.cars[0].alive and s.cars[0].killed_by == 1 and s.cars[1].kills == 1


# --- the Oil Slick (Oil Slick) -------------------------------------------------------------


def test_oil_slick_roll_that_holds_keeps_the_shooter_moving() -> None:
    """A roll at most the driver's remaining hits keeps control: no skid."""
    s = moving(start(cw=[["mg-front"], ["oil-slick"]], oil_slick="on"), 0)
    s = rig(s, 0, driver=2)
    s.seed = _oil_seed(False, 2)
    s = act(act(s, 0, "mg-front @1"), 1, "oil-slick")
    assert s.rolls == 1 and "keeps control" in s.caption
    assert s.phase is Phase.TURN and not s.cars[0].skidded


def test_one_oil_slick_per_shot() -> None:
    """Once an Oil Slick is down for a shot, a second one is not offered."""
    s = start(cw=[["mg-front"], ["oil-slick", "oil-slick", "armor-front"]], oil_slick="on")
    s = act(act(s, 0, "mg-front @1"), 1, "oil-slick")
    assert "oil-slick" not in legal(s, 1)
    with pytest.raises(IllegalMove, match="already down"):
        act(s, 1, "oil-slick")


def test_oil_slick_roll_comes_after_the_skid() -> None:
    """With an Oil Slick down, the shooter rolls only once the whole chain, skid included,
    is over."""
    s = moving(start(cw=[["mg-front", "skid"], ["oil-slick", "swerve"]], oil_slick="on"), 1)
    s = act(act(s, 0, "mg-front @1"), 1, "oil-slick")
    s = act(act(s, 1, "swerve"), 0, "skid @1")
    assert s.phase is Phase.WALL and s.rolls == 0
    s = act(s, 1, "side left")
    assert s.rolls == 1 and s.cars[1].hits[2] == 3


# --- a stampede hits every victim at once (Rulings: Stampede; The end) ----------------------


def test_drivers_killed_by_one_stampede_die_together() -> None:
    """Victims pick their sides at the same time, so drivers a Stampede kills go out together
    and are placed by miles, not by who answered first (The end: Places)."""
    s = start(cw=[["stampede"], [], []])
    s = rig(s, 1, hits=[12, 12, 12, 12], driver=4, miles=["200"])
    s = rig(s, 2, hits=[12, 12, 12, 12], driver=4, miles=["25"])
    s = act(act(act(s, 0, "stampede"), 1, "side front"), 2, "side front")
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == (0,)
    assert s.cars[1].out_at == s.cars[2].out_at
    assert outcome.places == (0, 1, 2)  # Bob, with more miles, above Cy who answered last

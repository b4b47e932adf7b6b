"""What the table learns of a car's Car Wars hand from windows that open or do not."""

from __future__ import annotations

import random

import pytest

from bot.engine.dragon.cards import SPECS
from bot.engine.dragon.facts import learn, shed
from bot.engine.dragon.legality import why_not_cw
from bot.engine.dragon.moves import playable_codes
from bot.engine.dragon.state import NONE_OF, ONE_OF, UNPLAYED, Car, HandFact, Phase
from bot.engine.mille.state import Tableau
from tests.engine.dragon_helpers import G, act, moving, rig, start


def test_a_shot_with_no_window_shows_the_victim_holds_no_answer() -> None:
    """No window for a moving victim: none of its five cards is the side's armor, a Swerve
    or a Spin."""
    s = moving(start(cw=[["mg-front"], []]), 1)
    s = act(s, 0, "mg-front @1")
    assert s.phase is Phase.TURN
    assert s.cars[1].facts == [HandFact(NONE_OF, ("armor-front", "swerve", "spin"), 5)]


def test_a_stopped_victim_is_known_only_to_lack_the_armor() -> None:
    """A stopped car could not swerve anyway: the table learns only about its armor."""
    s = act(start(cw=[["mg-front"], []]), 0, "mg-front @1")
    assert s.cars[1].facts == [HandFact(NONE_OF, ("armor-front",), 5)]


def test_an_autocannon_with_no_window_rules_out_a_backfire() -> None:
    """Against an autocannon the Backfire is one of the answers the victim lacks."""
    s = act(start(cw=[["ac-left"], []]), 0, "ac-left @1")
    assert s.cars[1].facts == [HandFact(NONE_OF, ("armor-left", "backfire"), 5)]


def test_a_window_let_pass_shows_the_victim_holds_an_answer() -> None:
    """The window opened and its player passed: it holds one of the answers."""
    s = moving(start(cw=[["mg-front"], ["swerve"]]), 1)
    s = act(act(s, 0, "mg-front @1"), 1, "pass")
    assert s.cars[1].facts == [HandFact(ONE_OF, ("armor-front", "swerve", "spin"), 5)]


def test_no_second_armor_window_shows_no_second_armor() -> None:
    """One Armor played and no second one asked for: no more armor for that side."""
    s = act(start(cw=[["rocket-front"], ["armor-front"]]), 0, "rocket-front @1")
    s = act(s, 1, "armor front")
    assert s.phase is Phase.TURN
    assert s.cars[1].facts == [HandFact(NONE_OF, ("armor-front",), 4)]


def test_a_swerve_with_no_skid_window_shows_the_shooter_holds_no_skid() -> None:
    """The victim swerved and the shooter was not asked: none of the four cards the shooter
    has left is a Skid."""
    s = moving(start(cw=[["rocket-front"], ["swerve"]]), 1)
    s = act(act(s, 0, "rocket-front @1"), 1, "swerve")
    assert s.cars[0].facts == [HandFact(NONE_OF, ("skid",), 4)]


def test_facts_are_public_and_survive_a_save() -> None:
    """The public view shows the facts, and a JSON round trip keeps them."""
    s = moving(start(cw=[["mg-front"], []]), 1)
    s = act(s, 0, "mg-front @1")
    assert G.public_view(s).cars[1].facts == tuple(s.cars[1].facts)
    assert G.from_dict(G.to_dict(s)).cars[1].facts == s.cars[1].facts


def test_a_save_from_before_facts_loads_with_none() -> None:
    """Saves written before the table kept facts still load."""
    data = G.to_dict(act(start(cw=[["mg-front"], []]), 0, "mg-front @1"))
    for car in data["cars"]:
        del car["facts"]
    assert all(car.facts == [] for car in G.from_dict(data).cars)


def test_a_save_from_before_unplayed_facts_reads_their_flag() -> None:
    """Saves written before the 'unplayed' fact told its two kinds by a none_of flag: they load
    with the same meaning (they were refused as damaged, and the game could not go on)."""
    data = G.to_dict(start())
    data["cars"][1]["facts"] = [
        {"none_of": True, "codes": ["armor-front", "swerve"], "cards": 5},
        {"none_of": False, "codes": ["skid"], "cards": 3},
    ]
    assert G.from_dict(data).cars[1].facts == [
        HandFact(NONE_OF, ("armor-front", "swerve"), 5),
        HandFact(ONE_OF, ("skid",), 3),
    ]


def _car(hand: list[str], *facts: HandFact) -> Car:
    return Car(mb=Tableau(), cw_hand=hand, facts=list(facts))


def test_a_card_leaving_the_hand_narrows_a_none_of() -> None:
    """Which card left is not public, so a "none of" covers one card fewer."""
    car = _car(["mg-front", "laser-back"], HandFact(NONE_OF, ("swerve",), 3))
    shed(car, ("rocket-back",))
    assert car.facts == [HandFact(NONE_OF, ("swerve",), 2)]
    car.cw_hand = []
    shed(car, ("mg-front", "laser-back"))
    assert car.facts == []


def test_a_one_of_is_forgotten_when_one_of_its_cards_leaves() -> None:
    """The Swerve that left may have been the answer it held."""
    car = _car(["mg-front"], HandFact(ONE_OF, ("armor-front", "swerve"), 2))
    shed(car, ("swerve",))
    assert car.facts == []


def test_a_one_of_outlives_other_cards_leaving() -> None:
    """Another card leaving leaves the answer in the hand."""
    car = _car(["mg-front", "swerve"], HandFact(ONE_OF, ("swerve",), 3))
    shed(car, ("rocket-back",))
    assert car.facts == [HandFact(ONE_OF, ("swerve",), 2)]


def test_a_newer_none_of_replaces_an_older_one_it_contains() -> None:
    """A fact about every card held now makes an older one of fewer codes idle."""
    car = _car(["mg-front"] * 4, HandFact(NONE_OF, ("swerve",), 2))
    learn(car, NONE_OF, ("swerve", "spin"))
    assert car.facts == [HandFact(NONE_OF, ("swerve", "spin"), 4)]


def test_nothing_is_learnt_about_an_empty_hand() -> None:
    """A car with no Car Wars cards holds nothing: no fact is kept."""
    car = _car([])
    learn(car, NONE_OF, ("swerve",))
    assert car.facts == []


def test_a_turn_with_no_car_wars_play_notes_what_could_have_been_played() -> None:
    """Ending the turn without a Car Wars move: the hand's five cards passed up every card
    that could have been played (guns free, no Fireproof Armor fitted)."""
    s = act(start(mb=[["75"], []], cw=[[], []]), 0, "discard 75", "end")
    fact = s.cars[0].facts[-1]
    assert fact.kind == UNPLAYED and fact.cards == 5
    assert {"mg-front", "rocket-left", "tire-shot", "jam", "fireproof"} <= set(fact.codes)
    assert "swerve" not in fact.codes and "armor-front" not in fact.codes


def test_a_car_wars_discard_notes_the_cards_kept() -> None:
    """Discarding two Car Wars cards as the turn's Car Wars move: the three kept are noted."""
    s = act(start(cw=[["swerve", "spin"], []]), 0, "cw-discard swerve spin")
    fact = s.cars[0].facts[-1]
    assert fact.kind == UNPLAYED and fact.cards == 3


def test_jammed_guns_are_not_counted_as_passed_up() -> None:
    """Machine guns cannot fire while jammed: a quiet turn says nothing about holding them."""
    s = rig(start(mb=[["75"], []], cw=[[], []]), 0, jammed=True)
    s = act(s, 0, "discard 75", "end")
    codes = s.cars[0].facts[-1].codes
    assert not any(code.startswith("mg-") for code in codes) and "rocket-front" in codes


def test_a_car_wars_play_notes_nothing_passed_up() -> None:
    """A turn whose Car Wars move was a shot passes nothing up."""
    s = act(start(mb=[["75"], []], cw=[["mg-front"], []]), 0, "mg-front @1", "discard 75")
    assert all(f.kind != UNPLAYED for f in s.cars[0].facts)


@pytest.mark.parametrize("seed", [3, 4])
def test_playable_codes_agree_with_the_rules(seed: int) -> None:
    """Over a random game, the cards noted as playable are exactly those ``why_not_cw`` allows
    the turn player with some target and side."""
    rng = random.Random(seed)
    s = G.new_game(list("ABCD"), seed)
    checked = 0
    while G.outcome(s) is None and checked < 300:
        seat = min(G.to_act(s))
        if s.phase is Phase.TURN and not s.cw_done:
            checked += 1
            allowed = {
                code
                for code in SPECS
                if any(
                    why_not_cw(s, seat, code, target, side) is None
                    for target in (None, *range(4))
                    for side in (None, 0)
                )
            }
            assert set(playable_codes(s, seat)) == allowed
        s = G.apply(s, seat, rng.choice(G.legal_actions(s, seat)))
    assert checked >= 100

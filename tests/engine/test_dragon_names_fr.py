"""Dragon Mille Bornes with ``names: fr``: the rare sentences name Mille Bornes cards in French.

The playouts of ``tests/test_card_names_fr.py`` seldom reach an Oil Slick, a skid answered with
the Driving Ace (As du volant), an Extra Tank (Citerne d'essence) that explodes or a refusal
typed out of place, so each is dealt here with stacked hands. Car Wars cards keep their English
names ("Oil Slick", "Fireproof Armor").
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.ai.dragon_reasons import explain
from bot.ai.search import SearchReport
from bot.engine.core import IllegalMove
from bot.engine.dragon.ending import check_end, stalemate
from bot.engine.dragon.views import public_view
from bot.engine.mille.cards import Card
from tests.engine.dragon_helpers import G, act, moving, rig, start
from tests.test_card_names_fr import ENGLISH

ACE = Card.DRIVING_ACE.name_in("fr")
TANK = Card.EXTRA_TANK.name_in("fr")


def _refusal(state: object, seat: int, move: str) -> str:
    with pytest.raises(IllegalMove) as refused:
        act(state, seat, move)  # type: ignore[arg-type]
    return str(refused.value)


def _failing_roll(driver: int) -> int:
    """A seed whose first Oil Slick roll exceeds what a driver with ``driver`` hits may roll."""
    for seed in range(100):
        if random.Random(f"dragon:{seed}:roll:1").randint(1, 6) > 5 - driver:
            return seed
    raise AssertionError("no failing roll")


def _oil_ace_window() -> str:
    s = start(
        mb=[["driving-ace"], []], cw=[["mg-front"], ["oil-slick"]], oil_slick="on", names="fr"
    )
    s = act(act(s, 0, "mg-front @1"), 1, "oil-slick")
    pending = public_view(s).pending
    assert pending is not None
    return pending.text


def _oil_ace_played() -> str:
    s = start(
        mb=[["driving-ace"], []], cw=[["mg-front"], ["oil-slick"]], oil_slick="on", names="fr"
    )
    return act(act(act(s, 0, "mg-front @1"), 1, "oil-slick"), 0, "play driving-ace").caption


def _oil_roll_with_ace() -> str:
    s = start(cw=[["mg-front"], ["oil-slick"]], oil_slick="on", names="fr")
    s = rig(s, 0, safeties=["driving-ace"], driver=4)
    return act(act(s, 0, "mg-front @1"), 1, "oil-slick").caption


def _oil_skid_ace_refused() -> str:
    s = start(cw=[["mg-front"], ["oil-slick"]], oil_slick="on", names="fr")
    s = moving(rig(s, 0, driver=3), 0)
    s.seed = _failing_roll(3)
    return _refusal(act(act(s, 0, "mg-front @1"), 1, "oil-slick"), 0, "play driving-ace")


def _skid_wall(mb: list[str]) -> object:
    s = start(mb=[[], mb], cw=[["mg-front", "skid"], ["swerve"]], names="fr")
    return act(act(act(moving(s, 1), 0, "mg-front @1"), 1, "swerve"), 0, "skid @1")


def _wall_ace_played() -> str:
    return act(_skid_wall(["driving-ace"]), 1, "play driving-ace").caption  # type: ignore[arg-type]


def _wall_no_ace() -> str:
    return _refusal(_skid_wall([]), 1, "play driving-ace")


def _tank_burnt() -> str:
    s = rig(start(cw=[["flame-back"], []], names="fr"), 1, safeties=["extra-tank"])
    return act(s, 0, "flame-back @1").caption


def _tank_explodes() -> str:
    s = start(cw=[["flame-back"], []], seats=3, names="fr")
    s = rig(s, 1, safeties=["extra-tank"], hits=[0, 11, 0, 0])
    return act(s, 0, "flame-back @1").caption


def _no_tank_to_drop() -> str:
    return _refusal(start(mb=[["75"], []], names="fr"), 0, "drop tank")


def _fireproof_after_flame() -> str:
    s = start(
        mb=[["75"], ["50"]], cw=[["flame-left"], ["fireproof"]], mb_draw=["25"] * 3, names="fr"
    )
    return _refusal(act(s, 0, "flame-left @1", "discard 75"), 1, "fireproof")


def _swerve_when_stopped() -> str:
    s = start(cw=[["mg-front"], ["swerve", "armor-front"]], names="fr")
    return _refusal(act(s, 0, "mg-front @1"), 1, "swerve")


def _skid_hint() -> str:
    s = start(cw=[["mg-front", "skid"], ["swerve"]], names="fr")
    s = act(act(moving(s, 1), 0, "mg-front @1"), 1, "swerve")
    view = G.private_view(s, 0)
    assert "skid @1" in view.legal
    return explain(view, "skid @1", SearchReport(move="skid @1", candidates=["skid @1"]))


CASES: dict[str, tuple[Callable[[], str], str]] = {
    "oil slick window": (_oil_ace_window, ACE),
    "oil slick answered": (_oil_ace_played, ACE),
    "oil slick roll with the ace": (_oil_roll_with_ace, ACE),
    "oil slick skid": (_oil_skid_ace_refused, ACE),
    "wall answered": (_wall_ace_played, ACE),
    "wall without the ace": (_wall_no_ace, ACE),
    "tank burnt": (_tank_burnt, TANK),
    "tank explodes": (_tank_explodes, TANK),
    "no tank to drop": (_no_tank_to_drop, TANK),
    "fireproof after flame": (_fireproof_after_flame, Card.REPAIRS.name_in("fr")),
    "swerve when stopped": (_swerve_when_stopped, Card.GO.name_in("fr")),
    "hint to skid": (_skid_hint, Card.GO.name_in("fr")),
}


@pytest.mark.parametrize("case", CASES)
def test_rare_sentences_use_the_french_names(case: str) -> None:
    said, french = CASES[case]
    text = said()
    assert french in text, text
    assert not ENGLISH.search(text), text


def test_the_oil_slick_window_puts_an_before_as_du_volant() -> None:
    """The window left open for the Driving Ace read "Ann may react to the Oil Slick with a As
    du volant." with French names; the article follows the name: "an As du volant"."""
    assert _oil_ace_window() == f"Ann may react to the Oil Slick with an {ACE}."


def test_the_rare_endings_and_refusals_count_in_bornes() -> None:
    """The sentences a played-through game seldom reaches said miles beside cards named "75
    bornes": the arena closing ("without a mile driven … the most miles", "equal miles"),
    the last drivers dying together ("had more miles", "equal miles") and the refusals "only
    25 and 50 miles", "past 1000 miles". With the French names they count in bornes."""
    said: list[str] = []
    for final in ((300, 500), (400, 400)):
        s = start(names="fr")
        for car, final_miles in zip(s.cars, final, strict=True):
            car.alive, car.final_miles, car.out_at = False, final_miles, 5
        assert check_end(s)
        said.append(s.end_reason)
    for driven in (["100"], []):
        s = rig(moving(start(names="fr")), 0, miles=driven)
        stalemate(s)
        said.append(s.end_reason)
    limited = rig(start(mb=[["75"], []], names="fr"), 0, battle=["go"])
    limited.cars[0].mb.speed = [Card.SPEED_LIMIT]
    said.append(_refusal(limited, 0, "play 75"))
    far = rig(start(mb=[["100"], []], names="fr"), 0, battle=["go"], miles=["200"] * 2)
    far.cars[0].mb.miles += [Card.D100] * 5 + [Card.D75]  # 975
    said.append(_refusal(far, 0, "play 100"))
    assert said == [
        "The last drivers died together; Bob had more bornes.",
        "The last drivers died together with equal bornes.",
        "The arena closes after 25 rounds without any bornes driven or a driver hurt: Ann has "
        "the most bornes.",
        "The arena closes after 25 rounds without any bornes driven or a driver hurt: equal "
        "bornes.",
        f"You are under a {Card.SPEED_LIMIT.name_in('fr')}: only 25 and 50 bornes may be played.",
        "That would take you past 1000 bornes; the race ends exactly on 1000.",
    ], said

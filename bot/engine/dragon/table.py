"""Reading a Dragon table: the cars, who is moving, what a player is called.

Nothing here changes the game except ``car_w``, which makes a car private to the state about
to change (copy on write).
"""

from __future__ import annotations

from bot.engine.dragon.cards import SIDES, TIRE_TRACK
from bot.engine.dragon.state import Car, DragonState
from bot.engine.mille.cards import HAZARD_SET, Card, distance_word
from bot.engine.mille.rules import can_go
from bot.engine.mille.state import BattleMark


def car_w(state: DragonState, seat: int) -> Car:
    """The car at ``seat``, made private to ``state`` before it is changed (copy on write)."""
    own = state.own
    if own is not None and not own[seat]:
        state.cars[seat] = state.cars[seat].clone()
        own[seat] = True
    return state.cars[seat]


def moving(car: Car) -> bool:
    """Is the car moving: Mille Bornes can-go, tires not shot, not skidded.

    docs/rules/dragon.md (Rulings: Moving) says the same to players. ``can_go`` read the fast
    way (menus ask this of every rival, every turn): Dragon never marks a battle pile, so it
    shows its top card; a test holds this to ``can_go``."""
    if not car.alive or car.skidded or car.tires >= TIRE_TRACK:
        return False
    t = car.mb
    if t.battle_mark is not _TOP:
        return can_go(t)
    battle = t.battle
    if battle:
        top = battle[-1]
        if top is _GO:
            return True
        if top in HAZARD_SET:
            return False
    return _RIGHT_OF_WAY in t.safeties


_TOP = BattleMark.TOP
_GO = Card.GO
_RIGHT_OF_WAY = Card.RIGHT_OF_WAY


def body_damaged(car: Car) -> bool:
    return any(car.hits)


def needs_repairs(car: Car) -> bool:
    """Would Repairs do anything for the car's Car Wars side?"""
    return body_damaged(car) or car.jammed or car.flamed


def living(state: DragonState) -> list[int]:
    return [seat for seat, car in enumerate(state.cars) if car.alive]


def sensible_side(car: Car) -> int:
    """The side a car would rather take a hit on: the least damaged (front first on ties)."""
    return min(range(len(SIDES)), key=lambda side: (car.hits[side], side))


def name(state: DragonState, seat: int) -> str:
    return state.players[seat]


def mb_name(state: DragonState, card: Card) -> str:
    return card.name_in(state.options.get("names", "en"))


def mb_unit(state: DragonState) -> str:
    """What the race counts in, as the distance cards' names say it: "miles", or "bornes" with
    the French names ("75 bornes")."""
    return distance_word(state.options.get("names", "en"))

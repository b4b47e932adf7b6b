"""Reading a Dragon table: the cars, who is moving, what a player is called.

Nothing here changes the game except ``car_w``, which makes a car private to the state about
to change (copy on write).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from bot.engine.dragon.cards import SIDES, TIRE_TRACK
from bot.engine.dragon.state import Car, DragonState
from bot.engine.mille.cards import Card
from bot.engine.mille.rules import can_go


def car_w(state: DragonState, seat: int) -> Car:
    """The car at ``seat``, made private to ``state`` before it is changed (copy on write)."""
    own = state.own
    if own is not None and not own[seat]:
        state.cars[seat] = state.cars[seat].clone()
        own[seat] = True
    return state.cars[seat]


def moving(car: Car) -> bool:
    """Is the car moving (seed 6.1): Mille Bornes can-go, tires not shot, not skidded."""
    return car.alive and can_go(car.mb) and car.tires < TIRE_TRACK and not car.skidded


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


@lru_cache(maxsize=256)
def _looks(name: str) -> str:
    """What a name looks like, roughly: case, width (``Ｂｏｂ``), spaces and invisible
    characters do not tell two names apart on a button. Cached: captions name drivers on
    every move, the expert's imagined ones included."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(char for char in folded if char.isprintable() and not char.isspace())


def car_name(players: Sequence[str], seat: int) -> str:
    """The driver of car ``seat`` as menus name it: the seat's name, followed by the car's
    badge (``(@2)``, as the table image shows it) when another driver's name looks the same.
    Names are members' own text, and two members may share one: a move aimed "on Sam" must
    say which Sam's car it hits."""
    name = players[seat]
    if any(_looks(other) == _looks(name) for i, other in enumerate(players) if i != seat):
        return f"{name} (@{seat})"
    return name


def name(state: DragonState, seat: int) -> str:
    """A driver as captions name them (see ``car_name``)."""
    return car_name(state.players, seat)


def mb_name(state: DragonState, card: Card) -> str:
    return card.name_in(state.options.get("names", "en"))

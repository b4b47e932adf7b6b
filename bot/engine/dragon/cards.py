"""The Car Wars card list of Dragon Mille Bornes, as data (the table in
docs/rules/dragon.md, The two decks), and the car's parts.

The Mille Bornes cards are the classic ones (``bot.engine.mille.cards``); this module adds the
Car Wars deck. Car Wars cards are kept as their code strings (``mg-front``, ``swerve``…) in
states and notation; :data:`SPECS` says what each one does. The list is a reconstruction of the
1991 Car Wars card game, which Dragon Mille Bornes builds on, kept here as one table so it
can be tuned.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

SIDES = ("front", "back", "left", "right")
"""The four armoured sides of a car, by index (0 = front)."""

SIDE_TRACK = 12  # hits a side takes before it is breached
TIRE_TRACK = 9  # hits that destroy the tires (the car stops)
DRIVER_TRACK = 5  # hits that kill the driver
ARMOR_STOPS = 3  # hits one Armor card stops
MAX_ARMOR = 2  # Armor cards that may be stacked against one hit
SKID_HITS = 3  # a Skid Into a Wall's hits
STAMPEDE_HITS = 2  # a Stampede's hits to each other car

MB_HAND = 7  # Mille Bornes cards held after the draw
CW_HAND = 6  # Car Wars cards held after the draw
MB_DEAL = 6
CW_DEAL = 5
TRIP = 1000


@dataclass(frozen=True)
class CwSpec:
    """One Car Wars card face: what it is, what it does and how many the deck holds."""

    code: str
    name: str
    kind: str  # weapon, called-shot, tire-shot, armor, fireproof, swerve, spin, skid, jam,
    # backfire, stampede, oil-slick
    count: int
    side: int = -1  # the side a weapon fires at or an armor card covers (-1: none)
    hits: int = 0
    flame: bool = False
    weapon: str = ""  # mg, ac, rocket, laser, flame for the side weapons
    optional: bool = False  # only in the deck with the Oil Slick option

    @property
    def is_attack(self) -> bool:
        """A shot fired at one car: it may be swerved or spun."""
        return self.kind in ("weapon", "called-shot", "tire-shot")


# Weapon families: code prefix, name, hits, copies of each side, flame.
_WEAPONS = (
    ("mg", "Machine Gun", 3, 4, False),
    ("ac", "Autocannon", 4, 2, False),
    ("rocket", "Rocket", 5, 2, False),
    ("laser", "Laser", 4, 2, False),
    ("flame", "Flamethrower", 2, 2, True),
)


def _build() -> dict[str, CwSpec]:
    specs: list[CwSpec] = []
    for prefix, name, hits, count, flame in _WEAPONS:
        for side, side_name in enumerate(SIDES):
            specs.append(
                CwSpec(
                    f"{prefix}-{side_name}",
                    f"{name} ({side_name.title()})",
                    "weapon",
                    count,
                    side=side,
                    hits=hits,
                    flame=flame,
                    weapon=prefix,
                )
            )
    specs += [
        CwSpec("called-shot", "Called Shot", "called-shot", 4, hits=4),
        CwSpec("tire-shot", "Tire Shot", "tire-shot", 6, hits=3),
    ]
    for side, side_name in enumerate(SIDES):
        specs.append(CwSpec(f"armor-{side_name}", f"Armor ({side_name.title()})", "armor", 7, side))
    specs += [
        CwSpec("fireproof", "Fireproof Armor", "fireproof", 2),
        CwSpec("swerve", "Swerve", "swerve", 10),
        CwSpec("spin", "Spin", "spin", 2),
        CwSpec("skid", "Skid Into a Wall", "skid", 4, hits=SKID_HITS),
        CwSpec("jam", "Machine Gun Jams", "jam", 2),
        CwSpec("backfire", "Autocannon Backfires", "backfire", 2),
        CwSpec("stampede", "Stampede", "stampede", 2, hits=STAMPEDE_HITS),
        CwSpec("oil-slick", "Oil Slick", "oil-slick", 2, optional=True),
    ]
    return {spec.code: spec for spec in specs}


SPECS: dict[str, CwSpec] = _build()
CW_ORDER: dict[str, int] = {code: index for index, code in enumerate(SPECS)}
"""A fixed order of the Car Wars cards (hands and menus are sorted by it)."""


def in_cw_order(codes: Iterable[str]) -> list[str]:
    """Car Wars ``codes`` in ``CW_ORDER``: the order a hand is shown in, on its image and in
    its words, as its moves and menus list the cards (the Mille Bornes hand beside it goes in
    ``bot.engine.mille.cards.in_deck_order``), so the cards read left to right as the
    buttons do."""
    return sorted(codes, key=CW_ORDER.__getitem__)


ARMOR_FOR_SIDE = tuple(f"armor-{side}" for side in SIDES)


def cw_deck_counts(oil_slick: bool) -> Counter[str]:
    """How many of each Car Wars card the deck holds (Oil Slick only with its option)."""
    return Counter(
        {spec.code: spec.count for spec in SPECS.values() if oil_slick or not spec.optional}
    )


def full_cw_deck(oil_slick: bool) -> list[str]:
    """Every Car Wars card in a fixed (unshuffled) order."""
    return [code for code, count in cw_deck_counts(oil_slick).items() for _ in range(count)]


def cw_name(code: str) -> str:
    return SPECS[code].name


_NOT_ALNUM = re.compile(r"[\W_]+")


def _key(text: str) -> str:
    return _NOT_ALNUM.sub("", text.lower())


_WEAPON_WORDS = {
    "mg": "mg",
    "machinegun": "mg",
    "gun": "mg",
    "ac": "ac",
    "autocannon": "ac",
    "cannon": "ac",
    "rocket": "rocket",
    "rl": "rocket",
    "laser": "laser",
    "flame": "flame",
    "flamethrower": "flame",
    "armor": "armor",
    "armour": "armor",
}
_SIDE_WORDS = {
    "front": 0,
    "f": 0,
    "back": 1,
    "b": 1,
    "rear": 1,
    "left": 2,
    "l": 2,
    "right": 3,
    "r": 3,
}

_ALIASES: dict[str, str] = {}


def _build_aliases() -> None:
    for spec in SPECS.values():
        _ALIASES[_key(spec.code)] = spec.code
        _ALIASES[_key(spec.name)] = spec.code
    for word, prefix in _WEAPON_WORDS.items():
        for side_word, side in _SIDE_WORDS.items():
            _ALIASES[word + side_word] = f"{prefix}-{SIDES[side]}"
    _ALIASES.update(
        {
            "called": "called-shot",
            "calledshot": "called-shot",
            "tire": "tire-shot",
            "tireshot": "tire-shot",
            "tyreshot": "tire-shot",
            "fireproofarmor": "fireproof",
            "fireproofarmour": "fireproof",
            "skidintoawall": "skid",
            "skidintowall": "skid",
            "wall": "skid",
            "jams": "jam",
            "machinegunjams": "jam",
            "mgjam": "jam",
            "backfires": "backfire",
            "autocannonbackfires": "backfire",
            "oil": "oil-slick",
            "oilslick": "oil-slick",
        }
    )


_build_aliases()


def cw_from_text(text: str) -> str | None:
    """The Car Wars card a player means by ``text`` (code, name or a common alias)."""
    return _ALIASES.get(_key(text))


def side_from_text(text: str) -> int | None:
    """A side index from ``front``/``f``/``rear``…; None when it is not a side."""
    return _SIDE_WORDS.get(_key(text))

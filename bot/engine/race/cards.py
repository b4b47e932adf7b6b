"""The 1000 Mile Race cards: the deck as a table of data, card facts and names.

Every player owns one identical 60-card deck (Red and Blue). The table below is the whole deck
(docs/rules/race.md, The cards); tune the game by editing it. A card is its code: the code is
what notation and saved games use, and every fact about a card is looked up from its code.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

MILES = "miles"
HAZARD = "hazard"
REMOVAL = "removal"
TRUMP = "trump"
CHEAT = "cheat"
TYPES = (MILES, HAZARD, REMOVAL, TRUMP, CHEAT)
"""The five card types, in the order the rule book lists them."""

COLOURS = ("Red", "Blue")
"""The two decks; seat 0 plays Red, seat 1 Blue."""

TARGET = 1000
HAND_LIMIT = 10
OPENING_HAND = 7
MAX_200S = 2

# code, name, type, copies, miles, hazards it answers (removal or trump), aliases
_DECK_TABLE: tuple[tuple[str, str, str, int, int, tuple[str, ...], tuple[str, ...]], ...] = (
    ("25", "25 miles", MILES, 6, 25, (), ("25mi", "25miles")),
    ("50", "50 miles", MILES, 8, 50, (), ("50mi", "50miles")),
    ("75", "75 miles", MILES, 6, 75, (), ("75mi", "75miles")),
    ("100", "100 miles", MILES, 8, 100, (), ("100mi", "100miles")),
    ("200", "200 miles", MILES, 2, 200, (), ("200mi", "200miles")),
    ("flat-tire", "Flat Tire", HAZARD, 2, 0, (), ("flat", "flattyre")),
    ("out-of-gas", "Out of Gas", HAZARD, 2, 0, (), ("empty", "nogas", "outofgasoline")),
    ("accident", "Accident", HAZARD, 2, 0, (), ("crash",)),
    ("red-light", "Red Light", HAZARD, 2, 0, (), ("red", "stop", "redlight")),
    ("speed-trap", "Speed Trap", HAZARD, 2, 0, (), ("trap", "speedlimit", "limit")),
    ("spare-tire", "Spare Tire", REMOVAL, 2, 0, ("flat-tire",), ("spare", "sparetyre")),
    ("gasoline", "Gasoline", REMOVAL, 2, 0, ("out-of-gas",), ("gas", "fuel", "petrol")),
    ("repairs", "Repairs", REMOVAL, 2, 0, ("accident",), ("repair",)),
    ("green-light", "Green Light", REMOVAL, 2, 0, ("red-light",), ("green", "go")),
    ("end-of-limit", "End of Limit", REMOVAL, 2, 0, ("speed-trap",), ("eol", "endlimit")),
    (
        "tow-truck",
        "Tow Truck",
        REMOVAL,
        2,
        0,
        ("flat-tire", "out-of-gas", "accident", "red-light", "speed-trap"),
        ("tow", "towtruck"),
    ),
    ("puncture-proof", "Puncture-Proof", TRUMP, 1, 0, ("flat-tire",), ("punctureproof",)),
    ("extra-tank", "Extra Tank", TRUMP, 1, 0, ("out-of-gas",), ("tank",)),
    ("driving-ace", "Driving Ace", TRUMP, 1, 0, ("accident",), ("ace",)),
    (
        "right-of-way",
        "Right of Way",
        TRUMP,
        1,
        0,
        ("red-light", "speed-trap"),
        ("row", "priority", "rightofway"),
    ),
    ("coup-fourre", "Coup Fourré", CHEAT, 1, 0, (), ("cf", "coup", "coupfourre")),
    ("roadblock", "Roadblock", CHEAT, 1, 0, (), ("block", "rb")),
    ("jammer", "Jammer", CHEAT, 1, 0, (), ("jam",)),
    ("pit-crew", "Pit Crew", CHEAT, 1, 0, (), ("pit", "crew", "pitcrew")),
)


@dataclass(frozen=True)
class CardInfo:
    """Everything the rules need to know about one card face."""

    code: str
    name: str
    type: str
    copies: int  # in one player's deck
    miles: int  # miles cards only
    answers: tuple[str, ...]  # removals and trumps: the hazards they junk
    order: int  # canonical position (hands, cycles and menus are listed in this order)


CARDS: dict[str, CardInfo] = {
    row[0]: CardInfo(row[0], row[1], row[2], row[3], row[4], row[5], order)
    for order, row in enumerate(_DECK_TABLE)
}
CODES: tuple[str, ...] = tuple(CARDS)
ORDER: dict[str, int] = {code: info.order for code, info in CARDS.items()}
TYPE_OF: dict[str, str] = {code: info.type for code, info in CARDS.items()}
NAME: dict[str, str] = {code: info.name for code, info in CARDS.items()}
MILES_OF: dict[str, int] = {code: info.miles for code, info in CARDS.items()}
ANSWERS: dict[str, tuple[str, ...]] = {code: info.answers for code, info in CARDS.items()}

MILES_CARDS = tuple(c for c in CODES if TYPE_OF[c] == MILES)
HAZARDS = tuple(c for c in CODES if TYPE_OF[c] == HAZARD)
REMOVALS = tuple(c for c in CODES if TYPE_OF[c] == REMOVAL)
TRUMPS = tuple(c for c in CODES if TYPE_OF[c] == TRUMP)
CHEATS = tuple(c for c in CODES if TYPE_OF[c] == CHEAT)

SPEED_TRAP = "speed-trap"
STOPPING_HAZARDS = tuple(h for h in HAZARDS if h != SPEED_TRAP)
"""While any of these targets you, you cannot play miles."""
SLOW_MILES = ("25", "50")
"""The only miles allowed while a Speed Trap targets you."""
TOW_TRUCK = "tow-truck"

COUP_FOURRE = "coup-fourre"
ROADBLOCK = "roadblock"
JAMMER = "jammer"
PIT_CREW = "pit-crew"
REACTIONS = (COUP_FOURRE, ROADBLOCK, JAMMER)
"""Cheats that are only ever played out of turn, as answers."""

DECK_SIZE = sum(info.copies for info in CARDS.values())


def deck_counts() -> Counter[str]:
    """How many of each card one player's deck holds."""
    return Counter({code: info.copies for code, info in CARDS.items()})


def full_deck() -> list[str]:
    """One player's deck in the table's (unshuffled) order."""
    return [code for code, info in CARDS.items() for _ in range(info.copies)]


def sort_cards(cards: list[str] | tuple[str, ...]) -> list[str]:
    """Cards in canonical order: miles by value, then hazards, removals, trumps, cheats."""
    return sorted(cards, key=ORDER.__getitem__)


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


_ALIASES: dict[str, str] = {}
for _code, _info in CARDS.items():
    for _alias in (_code, _info.name, *_DECK_TABLE[_info.order][6]):
        _ALIASES[_key(_alias)] = _code


def card_from_text(text: str) -> str | None:
    """The card a player means by ``text`` (code, name or a common alias), or None. A plural
    is read as the card ("25s", "speed traps", "gases"): the rules speak of "25s and 50s"."""
    key = _key(text)
    found = _ALIASES.get(key)
    if found is None and key.endswith("s"):
        found = _ALIASES.get(key[:-1])
        if found is None and key.endswith("es"):
            found = _ALIASES.get(key[:-2])
    return found


def card_name(code: str) -> str:
    return NAME[code]

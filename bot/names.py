"""Telling members' names apart: names that look alike, and numbering the later of them.

Members may share a name, or pick one drawn like another's (``Ｓａｍ``, "Воb" in Cyrillic,
"Ian" and "lan"), and every caption, target button, result line and board names players by
name. A table numbers a name that looks like an earlier seat's ("Sam (2)"); the lobby uses
``looks`` to keep members from sitting under a computer's name; forgetting a member picks a
former player's name that looks like no one else's.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import replace

from bot.store.base import SeatRecord

_DRAWN_ALIKE = str.maketrans(
    # Cyrillic, case-folded: "Воb" is "Bob" to the eye (capitals В, Н, К, М, Т look Latin).
    "авекмнорстухѕіјԁһӏԝԛү"
    # Greek, case-folded (capitals Α, Β, Ε, Ζ, Η, Ι, Κ, Μ, Ν, Ο, Ρ, Τ, Υ, Χ look Latin).
    "αβεζηικμνορτυχϲ",
    "abekmhopctyxsijdhlwqy"  # the Cyrillic letters' Latin look-alikes
    "abezhikmnoptyxc",  # the Greek ones
)
"""Letters of other alphabets drawn like Latin ones, as the Latin letter they look like."""


_CAPITAL_I = str.maketrans("IΙІ", "lll")
"""A capital I (Latin, Greek or Cyrillic) as the small l it is drawn like: "Ian" is "lan"."""


def looks(name: str) -> str:
    """What a name looks like, roughly: letter case, width (``Ｓａｍ``, which the images draw
    as "Sam"), spaces and invisible characters do not tell two names apart, nor letters of
    another alphabet drawn alike ("Воb" in Cyrillic). ``readings`` adds the capital I."""
    return _shown(unicodedata.normalize("NFKC", name))


def readings(name: str) -> frozenset[str]:
    """How a name may be read (``looks``), its capital I taken as an i ("Ian" is "ian") and as
    the l it is drawn like ("Ian" is "lan"). Two names look alike when they share a reading;
    "Ali" and "All" do not, since a small i is never drawn as an l."""
    normal = unicodedata.normalize("NFKC", name)
    return frozenset((_shown(normal), _shown(normal.translate(_CAPITAL_I))))


def _shown(name: str) -> str:
    folded = name.casefold().translate(_DRAWN_ALIKE)
    return "".join(char for char in folded if char.isprintable() and not char.isspace())


def distinct_names(seats: Sequence[SeatRecord]) -> list[SeatRecord]:
    """The seats, a name that looks like one an earlier seat goes by numbered: "Sam",
    "Ｓａｍ (2)". Members may share a name, and every caption, target button, result line,
    ratings line and board names players by name: "Sam won", or a shot aimed "on Sam", must
    say which Sam."""
    named: list[SeatRecord] = []
    for seat in seats:
        name = unused_name(seat.name, [s.name for s in named])
        named.append(seat if name == seat.name else replace(seat, name=name))
    return named


def unused_name(name: str, taken: Iterable[str]) -> str:
    """``name``, numbered ("Sam (2)", "Sam (3)"...) until it looks like none of ``taken``."""
    seen = set().union(*map(readings, taken))
    candidate, count = name, 1
    while readings(candidate) & seen:
        count += 1
        candidate = f"{name} ({count})"
    return candidate

"""Telling members' names apart: names that look alike, and numbering the later of them.

Members may share a name, or pick one drawn like another's (``Ｓａｍ``, "Воb" in Cyrillic,
"Ian" and "lan"), and every caption, target button, result line and board names players by
name. A table numbers a name that looks like an earlier seat's ("Sam (2)"); the lobby uses
``looks`` to keep members from sitting under a computer's name; forgetting a member picks a
former player's name that looks like no one else's.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Iterable, Sequence, Set
from dataclasses import replace

from confusable_homoglyphs import utils as confusable_data

from bot.seats import without_level
from bot.store.base import SeatRecord

_LATIN = frozenset(string.ascii_letters + string.digits)


def _drawn_alike() -> dict[int, str]:
    """Every character drawn like a Latin letter or digit, as that letter or digit: Unicode's
    confusables (UTS #39), as the ``confusable-homoglyphs`` package ships them.

    ASCII itself is left alone, so a name typed on an ordinary keyboard reads as typed: "0" and
    "O", "1" and "l", "rn" and "m" stay apart ("Arnie" and "Amie" are two people), except for
    the capital I (``_CAPITAL_I``). A small letter with no look-alike of its own reads as its
    capital's ("в" as "В", so "b"), since case never tells names apart. A capital drawn like
    an "l" (Greek "Ι", Cyrillic "І") is kept a capital "I", which ``_CAPITAL_I`` reads both
    ways, as the Latin one is."""
    # The package's data is a graph (each character with the ones it is confused with, both
    # ways), loaded here once and dropped: the package's own module would keep all 18 MB of it.
    graph: dict[str, list[dict[str, str]]] = confusable_data.load("confusables.json")

    def own(char: str) -> str | None:
        if char.isascii():
            return None
        alike = [entry["c"] for entry in graph.get(char, ()) if entry["c"] in _LATIN]
        return alike[0] if alike else None

    table: dict[int, str] = {}
    for char in graph:
        if len(char) != 1 or char.isascii():
            continue
        capital = char.upper()
        latin = own(char) or (own(capital) if len(capital) == 1 else None)
        if latin is None:
            continue
        if latin == "l" and char.isupper():
            latin = "I"
        table[ord(char)] = latin if own(char) else latin.lower()
    return table


_DRAWN_ALIKE = _drawn_alike()
"""Letters of other alphabets (and Latin letters outside ASCII: "ɑ", "ı") drawn like Latin
letters or digits, as the Latin letter or digit they look like: "Воb" in Cyrillic is "Bob"."""

_CAPITAL_I = {ord(c): "l" for c in ["I", *(chr(k) for k, v in _DRAWN_ALIKE.items() if v == "I")]}
"""A capital I (Latin, or one drawn alike: Greek, Cyrillic...) as the small l it is drawn like:
"Ian" is "lan"."""


def looks(name: str) -> str:
    """What a name looks like, roughly: letter case, width (``Ｓａｍ``, which the images draw
    as "Sam"), spaces and invisible characters do not tell two names apart, nor letters of
    another alphabet drawn alike ("Воb" in Cyrillic, "Ꮯօco" in Cherokee and Armenian), with
    the same marks ("Mӓx" in Cyrillic is "Mäx"). ``readings`` adds the capital I."""
    return _shown(unicodedata.normalize("NFKD", name))


def readings(name: str) -> frozenset[str]:
    """How a name may be read (``looks``), its capital I taken as an i ("Ian" is "ian") and as
    the l it is drawn like ("Ian" is "lan"). Two names look alike when they share a reading;
    "Ali" and "All" do not, since a small i is never drawn as an l."""
    normal = unicodedata.normalize("NFKD", name)
    return frozenset((_shown(normal), _shown(normal.translate(_CAPITAL_I))))


def _shown(name: str) -> str:
    # Decomposed (NFKD), so a mark is read apart from its letter ("ӓ" is "а" and a diaeresis);
    # read again once case-folded, for letters only their capital has a look-alike for.
    folded = name.translate(_DRAWN_ALIKE).casefold().translate(_DRAWN_ALIKE)
    shown = unicodedata.normalize("NFC", folded)
    return "".join(char for char in shown if char.isprintable() and not char.isspace())


def distinct_names(seats: Sequence[SeatRecord]) -> list[SeatRecord]:
    """The seats, a name that looks like one an earlier seat goes by numbered: "Sam",
    "Ｓａｍ (2)". Members may share a name, and every caption, target button, result line,
    ratings line and board names players by name: "Sam won", or a shot aimed "on Sam", must
    say which Sam.

    A member's name is also numbered when it looks like a computer's seat name without its
    level (``without_level``): a six-car image with no room for levels draws "Computer
    (normal)" as "Computer", and a member called "Computer" at that table was drawn alike."""
    short = [without_level(s.name) for s in seats if s.is_computer]
    drawn = [name for name in short if name is not None]
    named: list[SeatRecord] = []
    for seat in seats:
        taken = [s.name for s in named] + ([] if seat.is_computer else drawn)
        name = unused_name(seat.name, taken)
        named.append(seat if name == seat.name else replace(seat, name=name))
    return named


def unused_name(name: str, taken: Iterable[str] = (), *, seen: Set[str] = frozenset()) -> str:
    """``name``, numbered ("Sam (2)", "Sam (3)"...) until it looks like none of ``taken``.

    ``seen``: readings (``readings``) of further names already taken, for a caller numbering
    many names in turn, which keeps them rather than reading every earlier name again."""
    seen = set(seen).union(*map(readings, taken)) if taken else seen
    candidate, count = name, 1
    while readings(candidate) & seen:
        count += 1
        candidate = f"{name} ({count})"
    return candidate

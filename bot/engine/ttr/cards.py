"""Ticket to Ride: The Card Game as data: the 96 train cards, the 46 tickets, the Big Cities.

Train cards are small integers (``0``–``7`` the eight colours in ``COLOURS`` order, ``LOCO`` the
Locomotive) so hands and stacks are plain count vectors; their codes (``"red"``, ``"loco"``) are
what stacked decks, saves, the census and the views use. Tickets are indexes ``0``–``45`` into
``TICKETS``; their codes are ``T01``–``T46``, in the order of the table below.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.words import plural

COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple", "black", "white")
NCOL = len(COLOURS)  # colour card kinds are 0 .. NCOL - 1
LOCO = 8
KINDS = 9  # eight colours and the Locomotive
CARD_CODES: tuple[str, ...] = (*COLOURS, "loco")
PER_COLOUR = 10
LOCOS = 16
DECK_SIZE = len(COLOURS) * PER_COLOUR + LOCOS  # 96

CARD_NAMES: tuple[str, ...] = (
    "Red",
    "Orange",
    "Yellow",
    "Green",
    "Blue",
    "Purple",
    "Black",
    "White",
    "Locomotive",
)

# Forgiving names a player may type for a card (codes, initials, common synonyms).
_CARD_ALIASES: dict[str, int] = {
    "r": 0,
    "red": 0,
    "reds": 0,
    "o": 1,
    "orange": 1,
    "oranges": 1,
    "y": 2,
    "yellow": 2,
    "yellows": 2,
    "g": 3,
    "green": 3,
    "greens": 3,
    "b": 4,
    "bl": 4,
    "blue": 4,
    "blues": 4,
    "p": 5,
    "pu": 5,
    "purple": 5,
    "purples": 5,
    "pink": 5,
    "k": 6,
    "bk": 6,
    "black": 6,
    "blacks": 6,
    "w": 7,
    "white": 7,
    "whites": 7,
    "l": LOCO,
    "loc": LOCO,
    "loco": LOCO,
    "locos": LOCO,
    "locomotive": LOCO,
    "locomotives": LOCO,
    "wild": LOCO,
    "wilds": LOCO,
    "joker": LOCO,
}


def card_from_text(text: str) -> int | None:
    """The card a word names (``"red"``, ``"r"``, ``"loco"``, ``"wild"``…), or None."""
    return _CARD_ALIASES.get(text.strip().lower())


def set_words(colour: int, naturals: int, locos: int) -> str:
    """A Railyard colour set in players' words: "3 Red", "3 Red + 1 Locomotive".

    The one wording of a set: the engine's move descriptions and captions and the hand's
    pickers all use it, so a button never names a set differently from the move it plays.
    Colours are capitalised as card names, as the hand image and the tickets print them."""
    text = f"{naturals} {CARD_NAMES[colour]}"
    return f"{text} + {plural(locos, 'Locomotive')}" if locos else text


def full_counts() -> list[int]:
    """How many of each card the game holds: ten of each colour and sixteen Locomotives."""
    return [PER_COLOUR] * len(COLOURS) + [LOCOS]


# --- Big Cities -----------------------------------------------------------------------------

CITIES: tuple[str, ...] = ("New York", "Chicago", "Los Angeles", "Dallas", "Seattle", "Miami")
CITY_BONUS: tuple[int, ...] = (15, 14, 13, 12, 11, 10)
NEW_YORK, CHICAGO, LOS_ANGELES, DALLAS, SEATTLE, MIAMI = range(6)


# --- tickets ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ticket:
    """One Destination Ticket: which cards complete it, its points, the Big Cities it touches.

    ``need`` holds a count per colour (eight entries, ``COLOURS`` order).
    """

    index: int
    code: str
    route: str
    need: tuple[int, ...]
    points: int
    cities: tuple[int, ...]

    @property
    def cards(self) -> int:
        return sum(self.need)

    @property
    def colours(self) -> int:
        return sum(1 for n in self.need if n)

    def requirement(self) -> str:
        """``"3 Red, 2 Green"`` — the larger counts first, as printed."""
        parts = sorted(
            ((n, c) for c, n in enumerate(self.need) if n), key=lambda item: (-item[0], item[1])
        )
        return ", ".join(f"{n} {CARD_NAMES[c]}" for n, c in parts)


def _need(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(name, 0) for name in COLOURS)


_NY, _CH, _LA, _DA, _SE, _MI = range(6)

# (route, requirement, points, Big Cities) for T01..T46: this table is the ticket list.
_TICKET_ROWS: tuple[tuple[str, tuple[int, ...], int, tuple[int, ...]], ...] = (
    ("Dallas – Houston", _need(red=3), 5, (_DA,)),
    ("Seattle – Portland", _need(green=3), 5, (_SE,)),
    ("Chicago – Saint Louis", _need(black=2, white=2), 6, (_CH,)),
    ("New York – Washington", _need(orange=2, yellow=2), 6, (_NY,)),
    ("Los Angeles – San Francisco", _need(blue=2, purple=2), 6, (_LA,)),
    ("Miami – Atlanta", _need(white=2, orange=2), 7, (_MI,)),
    ("Dallas – Oklahoma City", _need(yellow=2, blue=2), 7, (_DA,)),
    ("Seattle – Vancouver", _need(purple=2, black=2), 7, (_SE,)),
    ("Chicago – Pittsburgh", _need(red=3, green=2), 8, (_CH,)),
    ("New York – Montreal", _need(blue=3, purple=2), 8, (_NY,)),
    ("Los Angeles – Las Vegas", _need(black=3, white=2), 8, (_LA,)),
    ("Miami – New Orleans", _need(orange=3, yellow=2), 8, (_MI,)),
    ("Denver – Salt Lake City", _need(green=3, purple=2), 8, ()),
    ("Kansas City – Nashville", _need(white=3, red=2), 9, ()),
    ("Dallas – El Paso", _need(yellow=3, blue=2), 9, (_DA,)),
    ("Seattle – Calgary", _need(black=3, orange=2), 9, (_SE,)),
    ("Los Angeles – Phoenix", _need(red=3, green=3), 10, (_LA,)),
    ("Chicago – Duluth", _need(purple=3, blue=3), 10, (_CH,)),
    ("Boston – Pittsburgh", _need(white=3, orange=3), 10, ()),
    ("Chicago – New York", _need(yellow=2, black=2, green=2), 11, (_CH, _NY)),
    ("Chicago – Dallas", _need(purple=2, red=2, yellow=2), 11, (_CH, _DA)),
    ("Los Angeles – El Paso", _need(white=2, orange=2, blue=2), 11, (_LA,)),
    ("Miami – Washington", _need(black=3, yellow=2, green=2), 12, (_MI,)),
    ("Seattle – Helena", _need(purple=3, red=2, white=2), 12, (_SE,)),
    ("New York – Atlanta", _need(orange=3, blue=2, red=2), 12, (_NY,)),
    ("Dallas – Atlanta", _need(green=3, black=2, yellow=2), 13, (_DA,)),
    ("Chicago – Denver", _need(white=3, blue=2, purple=2), 13, (_CH,)),
    ("Miami – Houston", _need(orange=3, yellow=2, black=2), 13, (_MI,)),
    ("Seattle – San Francisco", _need(red=3, blue=3, purple=2), 14, (_SE,)),
    ("Los Angeles – Denver", _need(green=3, white=3, yellow=2), 14, (_LA,)),
    ("Denver – Winnipeg", _need(black=3, purple=3, red=2), 14, ()),
    ("Dallas – Kansas City", _need(orange=3, yellow=3, green=2), 15, (_DA,)),
    ("New York – Nashville", _need(blue=3, red=3, black=2), 15, (_NY,)),
    ("Chicago – Miami", _need(white=2, green=2, purple=2, orange=2), 16, (_CH, _MI)),
    ("Dallas – New York", _need(black=2, white=2, yellow=2, blue=2), 16, (_DA, _NY)),
    ("Seattle – Denver", _need(orange=3, green=2, purple=2, red=2), 17, (_SE,)),
    ("Los Angeles – Dallas", _need(blue=3, black=2, white=2, yellow=2), 17, (_LA, _DA)),
    ("Chicago – Los Angeles", _need(red=3, green=2, purple=2, white=2), 18, (_CH, _LA)),
    ("Miami – Dallas", _need(yellow=3, black=2, orange=2, green=2), 18, (_MI, _DA)),
    ("Boston – Miami", _need(purple=3, blue=2, black=2, white=2), 18, (_MI,)),
    ("New York – Miami", _need(red=3, orange=3, yellow=2, green=2), 19, (_NY, _MI)),
    ("Chicago – Seattle", _need(blue=3, purple=3, black=2, white=2), 19, (_CH, _SE)),
    ("Seattle – Los Angeles", _need(red=3, orange=3, yellow=2, green=2), 20, (_SE, _LA)),
    ("Winnipeg – Houston", _need(blue=3, black=3, white=2, yellow=2), 20, ()),
    (
        "Los Angeles – New York",
        _need(purple=3, green=2, white=2, red=2, orange=2),
        22,
        (_LA, _NY),
    ),
    ("Seattle – Miami", _need(yellow=3, green=2, blue=2, black=2, white=2), 21, (_SE, _MI)),
)

TICKETS: tuple[Ticket, ...] = tuple(
    Ticket(i, f"T{i + 1:02d}", route, need, points, tuple(sorted(cities)))
    for i, (route, need, points, cities) in enumerate(_TICKET_ROWS)
)
TICKET_COUNT = len(TICKETS)  # 46
_TICKET_BY_CODE = {t.code: t.index for t in TICKETS}


def ticket_from_text(text: str) -> int | None:
    """The ticket a word names: ``T04``, ``t4``, ``4`` or ``04``; None if there is none."""
    word = text.strip().upper().removeprefix("T").removeprefix("#")
    if not word.isdecimal() or len(word) > 3:
        return None
    number = int(word)
    return number - 1 if 1 <= number <= TICKET_COUNT else None


def ticket_code(index: int) -> str:
    return TICKETS[index].code


def ticket_index(code: str) -> int | None:
    return _TICKET_BY_CODE.get(code)

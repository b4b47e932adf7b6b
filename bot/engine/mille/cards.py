"""The Mille Bornes cards: kinds, pairings, deck compositions and names in English and French."""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from enum import Enum

from bot.engine.core import BadOption


class Kind(Enum):
    DISTANCE = "distance"
    HAZARD = "hazard"
    REMEDY = "remedy"
    SAFETY = "safety"


class Card(Enum):
    """One card face. The value is the card's code in notation and saved games."""

    D25 = "25"
    D50 = "50"
    D75 = "75"
    D100 = "100"
    D200 = "200"
    OUT_OF_GAS = "out-of-gas"
    FLAT_TIRE = "flat-tire"
    ACCIDENT = "accident"
    STOP = "stop"
    SPEED_LIMIT = "speed-limit"
    GASOLINE = "gasoline"
    SPARE_TIRE = "spare-tire"
    REPAIRS = "repairs"
    GO = "go"
    END_OF_LIMIT = "end-of-limit"
    EXTRA_TANK = "extra-tank"
    PUNCTURE_PROOF = "puncture-proof"
    DRIVING_ACE = "driving-ace"
    RIGHT_OF_WAY = "right-of-way"

    # Members are singletons, so identity hashing is exact; Enum's own __hash__ is Python
    # code, and playouts hash cards millions of times (see ``junction bench``).
    __hash__ = object.__hash__

    @property
    def kind(self) -> Kind:
        return _KIND[self]

    @property
    def miles(self) -> int:
        """Distance in miles; 0 for every card that is not a distance card."""
        return _MILES.get(self, 0)

    @property
    def is_distance(self) -> bool:
        return self in _MILES

    @property
    def is_hazard(self) -> bool:
        return _KIND[self] is Kind.HAZARD

    @property
    def is_remedy(self) -> bool:
        return _KIND[self] is Kind.REMEDY

    @property
    def is_safety(self) -> bool:
        return _KIND[self] is Kind.SAFETY

    def name_in(self, lang: str = "en") -> str:
        """The printed name, in English (``en``) or French (``fr``)."""
        return (FRENCH_NAMES if lang == "fr" else ENGLISH_NAMES)[self]

    @property
    def title(self) -> str:
        return ENGLISH_NAMES[self]


DECK_PLACE: dict[Card, int] = {card: place for place, card in enumerate(Card)}
"""Each card's place in the deck's order: distances from 25 to 200, hazards, remedies, then
safeties."""


def in_deck_order(cards: Iterable[Card]) -> list[Card]:
    """``cards`` in the deck's order (BSD mille's sorted hand): the order a hand is shown in, on
    its image and in its words, and the order its moves are listed in (plays first, then
    discards, each in this order), so the cards read left to right as the buttons do."""
    return sorted(cards, key=DECK_PLACE.__getitem__)


def distance_word(lang: str = "en", *, short: bool = False) -> str:
    """What the trip is counted in, as the distance cards' names say it: "miles" ("mi" where
    room is short, ``short``), or "bornes" with the French names ("75 bornes"), so a line never
    says "drives 75 miles" of a card the table calls 75 bornes."""
    if lang == "fr":
        return "bornes"
    return "mi" if short else "miles"


DISTANCES = (Card.D25, Card.D50, Card.D75, Card.D100, Card.D200)
BATTLE_HAZARDS = (Card.OUT_OF_GAS, Card.FLAT_TIRE, Card.ACCIDENT, Card.STOP)
HAZARDS = (*BATTLE_HAZARDS, Card.SPEED_LIMIT)
REMEDIES = (Card.GASOLINE, Card.SPARE_TIRE, Card.REPAIRS, Card.GO, Card.END_OF_LIMIT)
SAFETIES = (Card.EXTRA_TANK, Card.PUNCTURE_PROOF, Card.DRIVING_ACE, Card.RIGHT_OF_WAY)

_MILES = {Card.D25: 25, Card.D50: 50, Card.D75: 75, Card.D100: 100, Card.D200: 200}
_KIND: dict[Card, Kind] = {
    **{card: Kind.DISTANCE for card in DISTANCES},
    **{card: Kind.HAZARD for card in HAZARDS},
    **{card: Kind.REMEDY for card in REMEDIES},
    **{card: Kind.SAFETY for card in SAFETIES},
}

MILES_OF: dict[Card, int] = dict(_MILES)
"""Miles per distance card (a plain dict: hot paths skip the ``miles`` property)."""
SAFETY_SET = frozenset(SAFETIES)
HAZARD_SET = frozenset(HAZARDS)
REMEDY_SET = frozenset(REMEDIES)

REMEDY_FOR: dict[Card, Card] = {
    Card.OUT_OF_GAS: Card.GASOLINE,
    Card.FLAT_TIRE: Card.SPARE_TIRE,
    Card.ACCIDENT: Card.REPAIRS,
    Card.STOP: Card.GO,
    Card.SPEED_LIMIT: Card.END_OF_LIMIT,
}
HAZARD_FOR: dict[Card, Card] = {remedy: hazard for hazard, remedy in REMEDY_FOR.items()}
SAFETY_FOR: dict[Card, Card] = {
    Card.OUT_OF_GAS: Card.EXTRA_TANK,
    Card.FLAT_TIRE: Card.PUNCTURE_PROOF,
    Card.ACCIDENT: Card.DRIVING_ACE,
    Card.STOP: Card.RIGHT_OF_WAY,
    Card.SPEED_LIMIT: Card.RIGHT_OF_WAY,
}
"""The safety that protects against each hazard (Right of Way covers two)."""

HAZARDS_STOPPED_BY: dict[Card, tuple[Card, ...]] = {
    safety: tuple(h for h in HAZARDS if SAFETY_FOR[h] is safety) for safety in SAFETIES
}

ENGLISH_NAMES: dict[Card, str] = {
    Card.D25: "25 miles",
    Card.D50: "50 miles",
    Card.D75: "75 miles",
    Card.D100: "100 miles",
    Card.D200: "200 miles",
    Card.OUT_OF_GAS: "Out of Gas",
    Card.FLAT_TIRE: "Flat Tire",
    Card.ACCIDENT: "Accident",
    Card.STOP: "Stop",
    Card.SPEED_LIMIT: "Speed Limit",
    Card.GASOLINE: "Gasoline",
    Card.SPARE_TIRE: "Spare Tire",
    Card.REPAIRS: "Repairs",
    Card.GO: "Go",
    Card.END_OF_LIMIT: "End of Limit",
    Card.EXTRA_TANK: "Extra Tank",
    Card.PUNCTURE_PROOF: "Puncture Proof",
    Card.DRIVING_ACE: "Driving Ace",
    Card.RIGHT_OF_WAY: "Right of Way",
}

FRENCH_NAMES: dict[Card, str] = {
    Card.D25: "25 bornes",
    Card.D50: "50 bornes",
    Card.D75: "75 bornes",
    Card.D100: "100 bornes",
    Card.D200: "200 bornes",
    Card.OUT_OF_GAS: "Panne d'essence",
    Card.FLAT_TIRE: "Crevaison",
    Card.ACCIDENT: "Accident",
    Card.STOP: "Feu rouge",
    Card.SPEED_LIMIT: "Limite de vitesse",
    Card.GASOLINE: "Essence",
    Card.SPARE_TIRE: "Roue de secours",
    Card.REPAIRS: "Réparations",
    Card.GO: "Feu vert",
    Card.END_OF_LIMIT: "Fin de limite",
    Card.EXTRA_TANK: "Citerne d'essence",
    Card.PUNCTURE_PROOF: "Increvable",
    Card.DRIVING_ACE: "As du volant",
    Card.RIGHT_OF_WAY: "Véhicule prioritaire",
}

_BSD_COUNTS: dict[Card, int] = {
    Card.D25: 10,
    Card.D50: 10,
    Card.D75: 10,
    Card.D100: 12,
    Card.D200: 4,
    Card.OUT_OF_GAS: 2,
    Card.FLAT_TIRE: 2,
    Card.ACCIDENT: 2,
    Card.STOP: 4,
    Card.SPEED_LIMIT: 3,
    Card.GASOLINE: 6,
    Card.SPARE_TIRE: 6,
    Card.REPAIRS: 6,
    Card.GO: 14,
    Card.END_OF_LIMIT: 6,
    Card.EXTRA_TANK: 1,
    Card.PUNCTURE_PROOF: 1,
    Card.DRIVING_ACE: 1,
    Card.RIGHT_OF_WAY: 1,
}
# The modern printing adds one of every hazard (docs/rules/mille.md, Options).
_MODERN_COUNTS: dict[Card, int] = {
    card: count + (1 if card.is_hazard else 0) for card, count in _BSD_COUNTS.items()
}
DECK_COUNTS: dict[str, dict[Card, int]] = {"bsd": _BSD_COUNTS, "modern": _MODERN_COUNTS}


def deck_counts(deck: str) -> Counter[Card]:
    """How many of each card the named deck holds."""
    return Counter(DECK_COUNTS[deck])


def full_deck(deck: str) -> list[Card]:
    """Every card of the named deck in a fixed (unshuffled) order."""
    return [card for card, count in DECK_COUNTS[deck].items() for _ in range(count)]


_ALIASES: dict[str, Card] = {}


def _alias_key(text: str) -> str:
    """``text`` as the aliases are looked up: lower case, letters and digits only, accents
    dropped (a keyboard without them types "vehicule prioritaire" for Véhicule prioritaire)."""
    bare = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in bare if ch.isalnum() and not unicodedata.combining(ch))


def _build_aliases() -> None:
    key = _alias_key
    for card in Card:
        for alias in (card.value, ENGLISH_NAMES[card], FRENCH_NAMES[card], card.name):
            _ALIASES[key(alias)] = card
    extra = {
        "roll": Card.GO,
        "greenlight": Card.GO,
        "redlight": Card.STOP,
        "gas": Card.GASOLINE,
        "empty": Card.OUT_OF_GAS,
        "outofgas": Card.OUT_OF_GAS,
        "flat": Card.FLAT_TIRE,
        "spare": Card.SPARE_TIRE,
        "repair": Card.REPAIRS,
        "crash": Card.ACCIDENT,
        "limit": Card.SPEED_LIMIT,
        "endlimit": Card.END_OF_LIMIT,
        "tank": Card.EXTRA_TANK,
        "citerne": Card.EXTRA_TANK,  # as many French decks print it
        "puncture": Card.PUNCTURE_PROOF,
        "ace": Card.DRIVING_ACE,
        "rightway": Card.RIGHT_OF_WAY,
        "row": Card.RIGHT_OF_WAY,
        "emergency": Card.RIGHT_OF_WAY,
    }
    _ALIASES.update(extra)
    for card in DISTANCES:
        _ALIASES[key(card.value + "miles")] = card
        _ALIASES[key(card.value + "mi")] = card


_build_aliases()


def card_from_text(text: str) -> Card | None:
    """The card a player means by ``text`` (code, English or French name, common alias)."""
    return _ALIASES.get(_alias_key(text))


def stacked_deck(codes: Sequence[str], deck: str, fewest: int, too_few: str) -> list[Card]:
    """The cards of a stacked deck (``codes``, top first) for a game dealt from ``deck``.

    Classic Mille Bornes and Mille Bornes Solo read a stacked deck alike: every code must name
    a card (any spelling ``card_from_text`` knows), and no card may come more often than the
    named deck holds it. Only how many cards a deal needs is the game's own: fewer than
    ``fewest`` is refused with the sentence ``too_few``. Each refusal is a ``BadOption``, in
    that order (a bad code first, then too few cards, then too many copies).
    """
    cards: list[Card] = []
    for code in codes:
        card = card_from_text(code)
        if card is None:
            raise BadOption(f"'{code}' in the stacked deck is not a Mille Bornes card.")
        cards.append(card)
    if len(cards) < fewest:
        raise BadOption(too_few)
    counts = deck_counts(deck)
    for card in set(cards):
        if cards.count(card) > counts[card]:
            raise BadOption(
                f"The stacked deck has {cards.count(card)} × {card.title}; the {deck} "
                f"deck only has {counts[card]}."
            )
    return cards

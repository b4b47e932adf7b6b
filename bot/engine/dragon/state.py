"""The state of a Dragon Mille Bornes game and its JSON form.

States are values: ``rules.apply`` clones before it changes anything. Each car carries its
Mille Bornes side as a classic :class:`~bot.engine.mille.state.Tableau` (hand, battle and speed
piles, safeties, miles), so the Mille Bornes helpers read it directly, plus its Car Wars side:
the Car Wars hand, hits per side, tires and driver, jammed guns, Fireproof Armor.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from bot.engine.core import CorruptSave, check_save_format
from bot.engine.dragon.cards import SIDES, SPECS
from bot.engine.mille.cards import Card
from bot.engine.mille.state import Tableau

SCHEMA_VERSION = 1

_new = object.__new__


class Phase(Enum):
    TURN = "turn"  # the turn player's Mille Bornes and Car Wars actions
    REACT = "react"  # a shot's victim may react: armor, swerve, spin, backfire, oil slick
    SKID = "skid"  # the shooter may skid the car that swerved or spun into a wall
    WALL = "wall"  # a skidding car picks the side that hits the wall (or plays Driving Ace)
    BACKFIRE = "backfire"  # the shooter may armor its front against a backfire
    COUP = "coup"  # a Mille Bornes hazard's victim may answer with its safety (coup fourré)
    STAMPEDE = "stampede"  # every other car picks the side the stampede hits
    OIL_ACE = "oil-ace"  # the shooter may answer an Oil Slick with the Driving Ace
    OVER = "over"


@dataclass(slots=True)
class Pending:
    """A decision the rules wait for in the middle of a turn (a reaction chain).

    ``actor`` decides (except in a stampede, where every seat in ``waiting`` does), ``car`` is
    the car the hit lands on, ``by`` the car credited with it (and with any kill). ``card`` is
    the card that started it, ``side`` the side hit (-1: tires, or none), ``hits`` the hits
    before armor and ``armor`` the Armor cards played against them. ``oil_by`` is the seat whose
    Oil Slick makes the shooter roll once the shot is over (-1: none). ``ace``: the Driving Ace
    may cancel this skid.
    """

    kind: Phase
    actor: int
    car: int
    by: int
    card: str
    side: int = -1
    hits: int = 0
    armor: int = 0
    oil_by: int = -1
    ace: bool = False
    waiting: list[int] = field(default_factory=list)

    def clone(self) -> Pending:
        return Pending(
            self.kind,
            self.actor,
            self.car,
            self.by,
            self.card,
            self.side,
            self.hits,
            self.armor,
            self.oil_by,
            self.ace,
            list(self.waiting),
        )


NONE_OF = "none-of"
ONE_OF = "one-of"
UNPLAYED = "unplayed"


@dataclass(frozen=True, slots=True)
class HandFact:
    """Something the whole table has learnt about a car's Car Wars hand from what happened in
    the open, about the ``cards`` oldest cards of it (those held when it was learnt and still
    held, counted down as cards leave the hand: which ones leave is not public).

    ``kind``: ``none-of`` — a shot came and no window opened, so none of those cards is one of
    ``codes`` (the answers that would have opened it); ``one-of`` — a window opened and its
    player let it pass, so it holds one of ``codes`` (forgotten once a card of ``codes`` leaves
    the hand: it may have been that one); ``unplayed`` — its turn's Car Wars move was a discard
    or nothing, although ``codes`` could have been played (a player who plays what it can holds
    none of them). Rules never read these; computer players may, as a player at a real table
    would remember them.
    """

    kind: str
    codes: tuple[str, ...]
    cards: int

    @property
    def excludes(self) -> bool:
        """Whether the fact speaks of cards the hand lacks (not of one it holds)."""
        return self.kind != ONE_OF


# The slots' own setters (member descriptors), which a frozen class's __setattr__ never sees.
_SET_KIND = HandFact.__dict__["kind"].__set__
_SET_CODES = HandFact.__dict__["codes"].__set__
_SET_CARDS = HandFact.__dict__["cards"].__set__


def new_fact(kind: str, codes: tuple[str, ...], cards: int) -> HandFact:
    """``HandFact(kind, codes, cards)``, made several times faster: the frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__``, and a random playout makes
    one on most moves. The slots are filled directly; a test holds it to the
    constructor."""
    fact = _new(HandFact)
    _SET_KIND(fact, kind)
    _SET_CODES(fact, codes)
    _SET_CARDS(fact, cards)
    return fact


MAX_FACTS = 8
"""Facts kept per car (the newest); older ones say little once a few turns have passed."""


@dataclass(slots=True)
class Car:
    """One player's car: the Mille Bornes tableau plus the Car Wars damage and cards."""

    mb: Tableau
    cw_hand: list[str] = field(default_factory=list)
    hits: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # by SIDES
    tires: int = 0
    driver: int = 0
    jammed: bool = False
    fireproof: list[str] = field(default_factory=list)  # Fireproof Armor on the car
    flamed: bool = False  # took flame damage since the last Repairs
    skidded: bool = False  # stopped by a skid: needs a Go
    alive: bool = True  # False once dead or gone
    left: bool = False  # the player left the game
    kills: int = 0
    killed_by: int = -1
    out_at: int = -1  # the step at which the car died or left
    final_miles: int = 0  # miles when the car went out (its cards are discarded)
    facts: list[HandFact] = field(default_factory=list)  # what the table knows of cw_hand

    def clone(self) -> Car:
        # Field by field on a bare object: much faster than the dataclass __init__, and a
        # playout clones the cars each move changes.
        other = _new(Car)
        other.mb = self.mb.clone()
        other.cw_hand = self.cw_hand[:]
        other.hits = self.hits[:]
        other.tires = self.tires
        other.driver = self.driver
        other.jammed = self.jammed
        other.fireproof = self.fireproof[:]
        other.flamed = self.flamed
        other.skidded = self.skidded
        other.alive = self.alive
        other.left = self.left
        other.kills = self.kills
        other.killed_by = self.killed_by
        other.out_at = self.out_at
        other.final_miles = self.final_miles
        other.facts = self.facts[:]
        return other

    @property
    def miles(self) -> int:
        return self.mb.mileage if self.alive else self.final_miles


@dataclass(slots=True)
class DragonState:
    players: tuple[str, ...]
    options: dict[str, str]
    seed: int
    cars: list[Car]
    mb_draw: list[Card]  # top last
    mb_discard: list[Card]  # top last
    cw_draw: list[str]
    cw_discard: list[str]
    turn: int
    phase: Phase
    pending: Pending | None = None
    mb_left: int = 1  # Mille Bornes actions left this turn
    cw_done: bool = False  # the Car Wars action of this turn is used
    spun: bool = False  # the turn player was spun: no more attacks this turn
    mb_shuffles: int = 0
    cw_shuffles: int = 0
    rolls: int = 0
    step: int = 0  # resolution steps so far (cars going out in one step go out together)
    quiet: int = 0  # turns since a car last drove or a driver was hurt (the stalemate rule)
    caption: str = ""
    winners: tuple[int, ...] | None = None  # set when the game is over (empty: a draw)
    places: tuple[int, ...] = ()
    end_reason: str = ""
    # Copy on write (never saved): ``own[seat]`` says this state already holds a private copy
    # of that car; None means every car is its own. ``rules.car_w`` copies before a change.
    own: list[bool] | None = None

    def clone(self) -> DragonState:
        """A deep copy: nothing is shared with this state."""
        return self._copy([car.clone() for car in self.cars], None)

    def fork(self) -> DragonState:
        """A copy that shares the cars until one is changed (``rules.car_w``)."""
        return self._copy(list(self.cars), [False] * len(self.cars))

    def _copy(self, cars: list[Car], own: list[bool] | None) -> DragonState:
        # Field by field on a bare object (see ``Car.clone``): every ``apply`` makes one.
        other = _new(DragonState)
        other.players = self.players
        other.options = self.options
        other.seed = self.seed
        other.cars = cars
        other.mb_draw = self.mb_draw[:]
        other.mb_discard = self.mb_discard[:]
        other.cw_draw = self.cw_draw[:]
        other.cw_discard = self.cw_discard[:]
        other.turn = self.turn
        other.phase = self.phase
        pending = self.pending
        other.pending = None if pending is None else pending.clone()
        other.mb_left = self.mb_left
        other.cw_done = self.cw_done
        other.spun = self.spun
        other.mb_shuffles = self.mb_shuffles
        other.cw_shuffles = self.cw_shuffles
        other.rolls = self.rolls
        other.step = self.step
        other.quiet = self.quiet
        other.caption = self.caption
        other.winners = self.winners
        other.places = self.places
        other.end_reason = self.end_reason
        other.own = own
        return other


def _mb(codes: Any) -> list[Card]:
    return [Card(str(code)) for code in codes]


_CODE = {card: card.value for card in Card}


def _mb_codes(cards: list[Card]) -> list[str]:
    return [_CODE[card] for card in cards]


def _cw(codes: Any) -> list[str]:
    cards = [str(code) for code in codes]
    for code in cards:
        if code not in SPECS:
            raise ValueError(f"unknown Car Wars card {code[:40]!r}")
    return cards


def _fact_kind(fact: Mapping[str, Any]) -> str:
    if "kind" not in fact and isinstance(fact.get("none_of"), bool):
        # Saves from before the 'unplayed' fact: a flag told none-of from one-of.
        return NONE_OF if fact["none_of"] else ONE_OF
    kind = fact["kind"]
    if kind not in (NONE_OF, ONE_OF, UNPLAYED):
        raise ValueError(f"unknown kind of hand fact {str(kind)[:20]!r}")
    return str(kind)


def _car_to_dict(car: Car) -> dict[str, Any]:
    t = car.mb
    return {
        "mb_hand": _mb_codes(t.hand),
        "battle": _mb_codes(t.battle),
        "speed": _mb_codes(t.speed),
        "safeties": _mb_codes(t.safeties),
        "coups": _mb_codes(t.coups),
        "miles": _mb_codes(t.miles),
        "cw_hand": list(car.cw_hand),
        "hits": list(car.hits),
        "tires": car.tires,
        "driver": car.driver,
        "jammed": car.jammed,
        "fireproof": list(car.fireproof),
        "flamed": car.flamed,
        "skidded": car.skidded,
        "alive": car.alive,
        "left": car.left,
        "kills": car.kills,
        "killed_by": car.killed_by,
        "out_at": car.out_at,
        "final_miles": car.final_miles,
        "facts": [{"kind": f.kind, "codes": list(f.codes), "cards": f.cards} for f in car.facts],
    }


def _car_from_dict(data: Mapping[str, Any]) -> Car:
    hits = [int(h) for h in data["hits"]]
    if len(hits) != len(SIDES):
        raise ValueError("a car has four sides")
    return Car(
        mb=Tableau(
            hand=_mb(data["mb_hand"]),
            battle=_mb(data["battle"]),
            speed=_mb(data["speed"]),
            safeties=_mb(data["safeties"]),
            coups=_mb(data["coups"]),
            miles=_mb(data["miles"]),
        ),
        cw_hand=_cw(data["cw_hand"]),
        hits=hits,
        tires=int(data["tires"]),
        driver=int(data["driver"]),
        jammed=bool(data["jammed"]),
        fireproof=_cw(data["fireproof"]),
        flamed=bool(data["flamed"]),
        skidded=bool(data["skidded"]),
        alive=bool(data["alive"]),
        left=bool(data["left"]),
        kills=int(data["kills"]),
        killed_by=int(data["killed_by"]),
        out_at=int(data["out_at"]),
        final_miles=int(data["final_miles"]),
        # Saves from before the table kept facts have none.
        facts=[
            HandFact(_fact_kind(f), tuple(_cw(f["codes"])), int(f["cards"]))
            for f in data.get("facts", ())
        ],
    )


def _pending_to_dict(p: Pending | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {
        "kind": p.kind.value,
        "actor": p.actor,
        "car": p.car,
        "by": p.by,
        "card": p.card,
        "side": p.side,
        "hits": p.hits,
        "armor": p.armor,
        "oil_by": p.oil_by,
        "ace": p.ace,
        "waiting": list(p.waiting),
    }


def _pending_from_dict(data: Any) -> Pending | None:
    if data is None:
        return None
    return Pending(
        kind=Phase(data["kind"]),
        actor=int(data["actor"]),
        car=int(data["car"]),
        by=int(data["by"]),
        card=str(data["card"]),
        side=int(data["side"]),
        hits=int(data["hits"]),
        armor=int(data["armor"]),
        oil_by=int(data["oil_by"]),
        ace=bool(data["ace"]),
        waiting=[int(s) for s in data["waiting"]],
    )


def state_to_dict(state: DragonState) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "game": "dragon",
        "players": list(state.players),
        "options": dict(state.options),
        "seed": state.seed,
        "cars": [_car_to_dict(car) for car in state.cars],
        "mb_draw": _mb_codes(state.mb_draw),
        "mb_discard": _mb_codes(state.mb_discard),
        "cw_draw": list(state.cw_draw),
        "cw_discard": list(state.cw_discard),
        "turn": state.turn,
        "phase": state.phase.value,
        "pending": _pending_to_dict(state.pending),
        "mb_left": state.mb_left,
        "cw_done": state.cw_done,
        "spun": state.spun,
        "mb_shuffles": state.mb_shuffles,
        "cw_shuffles": state.cw_shuffles,
        "rolls": state.rolls,
        "step": state.step,
        "quiet": state.quiet,
        "caption": state.caption,
        "winners": None if state.winners is None else list(state.winners),
        "places": list(state.places),
        "end_reason": state.end_reason,
    }


def state_from_dict(data: Mapping[str, Any]) -> DragonState:
    """Read a saved game back; anything missing, mistyped or unknown is a CorruptSave."""
    check_save_format(data, SCHEMA_VERSION)
    try:
        if data.get("game") != "dragon":
            raise ValueError("not a Dragon Mille Bornes game")
        winners = data["winners"]
        state = DragonState(
            players=tuple(str(p) for p in data["players"]),
            options={str(k): str(v) for k, v in data["options"].items()},
            seed=int(data["seed"]),
            cars=[_car_from_dict(car) for car in data["cars"]],
            mb_draw=_mb(data["mb_draw"]),
            mb_discard=_mb(data["mb_discard"]),
            cw_draw=_cw(data["cw_draw"]),
            cw_discard=_cw(data["cw_discard"]),
            turn=int(data["turn"]),
            phase=Phase(data["phase"]),
            pending=_pending_from_dict(data["pending"]),
            mb_left=int(data["mb_left"]),
            cw_done=bool(data["cw_done"]),
            spun=bool(data["spun"]),
            mb_shuffles=int(data["mb_shuffles"]),
            cw_shuffles=int(data["cw_shuffles"]),
            rolls=int(data["rolls"]),
            step=int(data["step"]),
            quiet=int(data["quiet"]),
            caption=str(data["caption"]),
            winners=None if winners is None else tuple(int(w) for w in winners),
            places=tuple(int(p) for p in data["places"]),
            end_reason=str(data["end_reason"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise CorruptSave(f"This saved game is damaged and cannot be resumed ({error}).") from None
    seats = len(state.players)
    if not 2 <= seats <= 6 or len(state.cars) != seats:
        raise CorruptSave("This saved game is damaged: Dragon Mille Bornes needs 2 to 6 cars.")
    if not 0 <= state.turn < seats:
        raise CorruptSave("This saved game is damaged: the seat to play is not at the table.")
    if state.phase not in (Phase.TURN, Phase.OVER) and state.pending is None:
        raise CorruptSave("This saved game is damaged: a reaction is pending with no details.")
    return state

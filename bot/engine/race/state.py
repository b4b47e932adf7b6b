"""The state of a 1000 Mile Race game, its actions and its JSON form.

States are values to callers: ``rules.apply`` clones before changing anything. Internally they
are plain mutable dataclasses because random playouts copy thousands of them a second.

Card ownership needs no bookkeeping: a player's library, hand, miles, trumps and junkyard hold
only their own cards, and the hazards targeting a player are always the opponent's (only the
opponent plays hazards on you). A card leaving play goes to its owner's junkyard.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NamedTuple

from bot.engine.core import CorruptSave, check_save_format
from bot.engine.race.cards import CARDS, sort_cards

SCHEMA_VERSION = 1

_new = object.__new__


class Phase(Enum):
    PLAY = "play"  # the active player plays, cycles or ends the turn
    REACT = "react"  # a reaction window: the seat answering the top of the stack decides
    DISCARD = "discard"  # end of turn: the active player discards down to the hand limit
    OVER = "over"


Action = tuple[str, ...]
"""One move, as a tuple of words (plain tuples: random playouts build thousands of cycles):

``("play", card)``, ``("play", "tow-truck", hazard)``, ``("cycle", *cards)`` with the junked
cards in canonical order, ``("react", card)``, ``("pass",)``, ``("discard", card)``,
``("end",)``.
"""

PASS: Action = ("pass",)
END: Action = ("end",)
VERBS = ("play", "cycle", "react", "pass", "discard", "end")


class Entry(NamedTuple):
    """A card waiting on the stack: who played it, the card, and a Tow Truck's target."""

    seat: int
    card: str
    target: str = ""


@dataclass(slots=True)
class Side:
    """One player's cards. Piles list their top card last."""

    library: list[str] = field(default_factory=list)  # top last
    hand: list[str] = field(default_factory=list)  # kept in canonical order
    miles: list[str] = field(default_factory=list)  # in the order played
    hazards: list[str] = field(default_factory=list)  # the opponent's hazards targeting me
    trumps: list[str] = field(default_factory=list)
    junkyard: list[str] = field(default_factory=list)  # top last
    reshuffled: bool = False  # the one junkyard reshuffle is used up
    total: int = 0  # miles in play (kept with ``miles``: playouts ask for it constantly)

    @property
    def skipped(self) -> bool:
        """Are this player's draws being skipped (library empty, reshuffle used)?"""
        return self.reshuffled and not self.library

    def clone(self) -> Side:
        # Attribute by attribute on a bare object: twice as fast as the dataclass __init__,
        # and playouts clone two sides per move.
        other = _new(Side)
        other.library = self.library[:]
        other.hand = self.hand[:]
        other.miles = self.miles[:]
        other.hazards = self.hazards[:]
        other.trumps = self.trumps[:]
        other.junkyard = self.junkyard[:]
        other.reshuffled = self.reshuffled
        other.total = self.total
        return other


@dataclass(slots=True)
class RaceState:
    players: tuple[str, ...]
    seed: int
    sides: list[Side]
    first_player: int
    reveal: tuple[tuple[str, ...], ...]  # each seat's cards revealed to pick the first player
    turn: int = 0  # the active seat
    turn_number: int = 0
    phase: Phase = Phase.PLAY
    stack: list[Entry] = field(default_factory=list)  # pending cards, bottom first
    played_miles: bool = False  # this turn's plays of each limited kind (cancelled ones too)
    played_hazard: bool = False
    played_removal: bool = False
    cycled: bool = False
    acted: bool = False  # somebody played a card or cycled this turn
    idle_turns: int = 0  # consecutive idle turns while both players' draws are skipped
    caption: str = ""
    winners: tuple[int, ...] | None = None
    end_reason: str = ""

    def clone(self) -> RaceState:
        other = _new(RaceState)
        other.players = self.players
        other.seed = self.seed
        other.sides = [side.clone() for side in self.sides]
        other.first_player = self.first_player
        other.reveal = self.reveal
        other.turn = self.turn
        other.turn_number = self.turn_number
        other.phase = self.phase
        other.stack = self.stack[:]
        other.played_miles = self.played_miles
        other.played_hazard = self.played_hazard
        other.played_removal = self.played_removal
        other.cycled = self.cycled
        other.acted = self.acted
        other.idle_turns = self.idle_turns
        other.caption = self.caption
        other.winners = self.winners
        other.end_reason = self.end_reason
        return other

    @property
    def reactor(self) -> int | None:
        """The seat a reaction window waits for (the opponent of the top card's player)."""
        if self.phase is not Phase.REACT or not self.stack:
            return None
        return 1 - self.stack[-1].seat


def state_to_dict(state: RaceState) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "game": "race",
        "players": list(state.players),
        "seed": state.seed,
        "sides": [
            {
                "library": list(s.library),
                "hand": list(s.hand),
                "miles": list(s.miles),
                "hazards": list(s.hazards),
                "trumps": list(s.trumps),
                "junkyard": list(s.junkyard),
                "reshuffled": s.reshuffled,
            }
            for s in state.sides
        ],
        "first_player": state.first_player,
        "reveal": [list(r) for r in state.reveal],
        "turn": state.turn,
        "turn_number": state.turn_number,
        "phase": state.phase.value,
        "stack": [[e.seat, e.card, e.target] for e in state.stack],
        "played": {
            "miles": state.played_miles,
            "hazard": state.played_hazard,
            "removal": state.played_removal,
            "cycled": state.cycled,
            "acted": state.acted,
        },
        "idle_turns": state.idle_turns,
        "caption": state.caption,
        "winners": None if state.winners is None else list(state.winners),
        "end_reason": state.end_reason,
    }


def _cards(data: Any) -> list[str]:
    if not isinstance(data, list):
        raise TypeError("a pile is not a list")
    for code in data:
        if code not in CARDS:
            raise ValueError(f"unknown card {str(code)[:40]!r}")
    return [str(code) for code in data]


def _flag(data: Any) -> bool:
    if not isinstance(data, bool):
        raise TypeError("a flag is not true or false")
    return data


def state_from_dict(data: Mapping[str, Any]) -> RaceState:
    """Read a saved game back; anything missing, mistyped or unknown is a CorruptSave."""
    check_save_format(data, SCHEMA_VERSION)
    try:
        sides = [
            Side(
                _cards(s["library"]),
                sort_cards(_cards(s["hand"])),
                _cards(s["miles"]),
                _cards(s["hazards"]),
                _cards(s["trumps"]),
                _cards(s["junkyard"]),
                _flag(s["reshuffled"]),
            )
            for s in data["sides"]
        ]
        for side in sides:
            side.total = sum(CARDS[c].miles for c in side.miles)
        played = data["played"]
        winners = data["winners"]
        stack = [
            Entry(int(seat), _cards([card])[0], str(target)) for seat, card, target in data["stack"]
        ]
        state = RaceState(
            players=tuple(str(p) for p in data["players"]),
            seed=int(data["seed"]),
            sides=sides,
            first_player=int(data["first_player"]),
            reveal=tuple(tuple(_cards(r)) for r in data["reveal"]),
            turn=int(data["turn"]),
            turn_number=int(data["turn_number"]),
            phase=Phase(data["phase"]),
            stack=stack,
            played_miles=_flag(played["miles"]),
            played_hazard=_flag(played["hazard"]),
            played_removal=_flag(played["removal"]),
            cycled=_flag(played["cycled"]),
            acted=_flag(played["acted"]),
            idle_turns=int(data["idle_turns"]),
            caption=str(data["caption"]),
            winners=None if winners is None else tuple(int(w) for w in winners),
            end_reason=str(data["end_reason"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise CorruptSave(f"This saved game is damaged and cannot be resumed ({error}).") from None
    if len(state.players) != 2 or len(state.sides) != 2 or len(state.reveal) != 2:
        raise CorruptSave("This saved game is damaged: 1000 Mile Race needs two players.")
    if state.turn not in (0, 1) or state.first_player not in (0, 1):
        raise CorruptSave("This saved game is damaged: the seat to play is not at the table.")
    if any(e.seat not in (0, 1) for e in state.stack):
        raise CorruptSave("This saved game is damaged: a pending card has no owner.")
    if state.phase is Phase.REACT and not state.stack:
        raise CorruptSave("This saved game is damaged: a reaction waits on nothing.")
    return state

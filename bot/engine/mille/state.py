"""The state of a Mille Bornes match and its JSON form.

States are treated as values: ``rules.apply`` clones before it changes anything, so a state a
caller holds never moves under it. They are plain mutable dataclasses internally because a
playout copies thousands of them a second (see ``junction bench``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from bot.engine.core import CorruptSave, check_save_format
from bot.engine.mille.cards import MILES_OF, Card

SCHEMA_VERSION = 1

_new = object.__new__


class Phase(Enum):
    DRAW = "draw"  # the seat to act may still play a safety before drawing (coup fourré)
    ACT = "act"  # play one card or discard one
    EXTENSION = "extension"  # the player who landed on 700 decides whether to go on to 1000
    OVER = "over"  # the match (or single hand) has ended


@dataclass(frozen=True)
class Action:
    """One move: ``draw``, ``play``/``discard`` a card, or answer the extension question."""

    verb: str
    card: Card | None = None
    extend: bool | None = None


class BattleMark(Enum):
    """What a battle pile counts as, when a safety has cleared it.

    The BSD program keeps one card per battle pile and overwrites it when a safety clears a
    hazard: Extra Tank, Puncture Proof and Driving Ace set it to Go; Right of Way sets a Stop to
    nothing (an empty pile), and when it lifts a Speed Limit it sets an empty or remedy battle
    pile to Go. Junction keeps the real cards, so the pile's top may differ from what it counts
    as; the mark says so until the next card lands on the pile. No card is created.
    """

    TOP = "top"  # the pile counts as its top card (or as empty when it has none)
    GO = "go"  # the pile counts as a Go, whatever lies beneath
    EMPTY = "empty"  # the pile counts as empty, whatever lies beneath


DRAW = Action("draw")
EXTEND = Action("extend", extend=True)
DECLINE_EXTENSION = Action("extend", extend=False)


@dataclass(slots=True)
class Tableau:
    """One player's cards for the current hand."""

    hand: list[Card] = field(default_factory=list)
    battle: list[Card] = field(default_factory=list)  # battle pile, top last
    speed: list[Card] = field(default_factory=list)  # speed pile, top last
    safeties: list[Card] = field(default_factory=list)
    coups: list[Card] = field(default_factory=list)  # safeties played as coups fourrés
    miles: list[Card] = field(default_factory=list)
    # Hazards that landed on this player since their last draw (or, with the deck empty, since
    # their last turn ended): playing the matching safety on them now is a coup fourré.
    fresh_hazards: list[Card] = field(default_factory=list)
    battle_mark: BattleMark = BattleMark.TOP  # set when a safety clears the battle pile

    @property
    def mileage(self) -> int:
        return sum(map(MILES_OF.__getitem__, self.miles))

    @property
    def two_hundreds(self) -> int:
        return self.miles.count(Card.D200)

    @property
    def battle_top(self) -> Card | None:
        return self.battle[-1] if self.battle else None

    @property
    def battle_shows(self) -> Card | None:
        """What the battle pile counts as for the rules (None: as an empty pile)."""
        if self.battle_mark is BattleMark.GO:
            return Card.GO
        if self.battle_mark is BattleMark.EMPTY:
            return None
        return self.battle_top

    @property
    def speed_top(self) -> Card | None:
        return self.speed[-1] if self.speed else None

    def clone(self) -> Tableau:
        # Attribute by attribute on a bare object: much faster than the dataclass __init__,
        # and playouts clone two tableaus per move.
        other = _new(Tableau)
        other.hand = self.hand[:]
        other.battle = self.battle[:]
        other.speed = self.speed[:]
        other.safeties = self.safeties[:]
        other.coups = self.coups[:]
        other.miles = self.miles[:]
        other.fresh_hazards = self.fresh_hazards[:]
        other.battle_mark = self.battle_mark
        return other


@dataclass(frozen=True)
class ScoreLine:
    label: str
    points: int


@dataclass(frozen=True)
class HandResult:
    """The scoring of one finished hand: a breakdown per seat and why the hand ended."""

    number: int
    lines: tuple[tuple[ScoreLine, ...], ...]
    reason: str

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(line.points for line in seat_lines) for seat_lines in self.lines)


@dataclass(slots=True)
class MilleState:
    players: tuple[str, ...]
    options: dict[str, str]
    seed: int
    hand_number: int
    first_player: int
    scores: list[int]  # match totals from finished hands
    tableaus: list[Tableau]
    draw_pile: list[Card]  # top last
    discard: list[Card]  # top last
    turn: int
    phase: Phase
    target: int = 700
    extension_decided: bool = False
    extension_called: bool = False
    completed_by: int | None = None
    delayed_action: bool = False
    results: list[HandResult] = field(default_factory=list)
    caption: str = ""  # what just happened, in words, for the table image
    winners: tuple[int, ...] | None = None  # set when the match is over (empty: a draw)
    end_reason: str = ""

    def clone(self) -> MilleState:
        other = _new(MilleState)
        other.players = self.players
        other.options = self.options
        other.seed = self.seed
        other.hand_number = self.hand_number
        other.first_player = self.first_player
        other.scores = self.scores[:]
        other.tableaus = [t.clone() for t in self.tableaus]
        other.draw_pile = self.draw_pile[:]
        other.discard = self.discard[:]
        other.turn = self.turn
        other.phase = self.phase
        other.target = self.target
        other.extension_decided = self.extension_decided
        other.extension_called = self.extension_called
        other.completed_by = self.completed_by
        other.delayed_action = self.delayed_action
        other.results = self.results  # finished hands never change: sharing is safe
        other.caption = self.caption
        other.winners = self.winners
        other.end_reason = self.end_reason
        return other

    def opponent(self, seat: int) -> int:
        return 1 - seat


def _cards(codes: list[str]) -> list[Card]:
    return [Card(code) for code in codes]


def _codes(cards: list[Card]) -> list[str]:
    return [card.value for card in cards]


def state_to_dict(state: MilleState) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "game": "mille",
        "players": list(state.players),
        "options": dict(state.options),
        "seed": state.seed,
        "hand_number": state.hand_number,
        "first_player": state.first_player,
        "scores": list(state.scores),
        "tableaus": [
            {
                "hand": _codes(t.hand),
                "battle": _codes(t.battle),
                "speed": _codes(t.speed),
                "safeties": _codes(t.safeties),
                "coups": _codes(t.coups),
                "miles": _codes(t.miles),
                "fresh_hazards": _codes(t.fresh_hazards),
                "battle_mark": t.battle_mark.value,
            }
            for t in state.tableaus
        ],
        "draw_pile": _codes(state.draw_pile),
        "discard": _codes(state.discard),
        "turn": state.turn,
        "phase": state.phase.value,
        "target": state.target,
        "extension_decided": state.extension_decided,
        "extension_called": state.extension_called,
        "completed_by": state.completed_by,
        "delayed_action": state.delayed_action,
        "results": [
            {
                "number": r.number,
                "reason": r.reason,
                "lines": [[[line.label, line.points] for line in seat] for seat in r.lines],
            }
            for r in state.results
        ],
        "caption": state.caption,
        "winners": None if state.winners is None else list(state.winners),
        "end_reason": state.end_reason,
    }


def state_from_dict(data: Mapping[str, Any]) -> MilleState:
    """Read a saved match back; anything missing, mistyped or unknown is a CorruptSave."""
    check_save_format(data, SCHEMA_VERSION)
    try:
        winners = data["winners"]
        state = MilleState(
            players=tuple(str(p) for p in data["players"]),
            options={str(k): str(v) for k, v in data["options"].items()},
            seed=int(data["seed"]),
            hand_number=int(data["hand_number"]),
            first_player=int(data["first_player"]),
            scores=[int(s) for s in data["scores"]],
            tableaus=[
                Tableau(
                    _cards(t["hand"]),
                    _cards(t["battle"]),
                    _cards(t["speed"]),
                    _cards(t["safeties"]),
                    _cards(t["coups"]),
                    _cards(t["miles"]),
                    _cards(t["fresh_hazards"]),
                    # Saves from before the mark existed: every pile counts as its top card.
                    BattleMark(t.get("battle_mark", BattleMark.TOP.value)),
                )
                for t in data["tableaus"]
            ],
            draw_pile=_cards(data["draw_pile"]),
            discard=_cards(data["discard"]),
            turn=int(data["turn"]),
            phase=Phase(data["phase"]),
            target=int(data["target"]),
            extension_decided=bool(data["extension_decided"]),
            extension_called=bool(data["extension_called"]),
            completed_by=_optional_int(data["completed_by"]),
            delayed_action=bool(data["delayed_action"]),
            results=[
                HandResult(
                    number=int(r["number"]),
                    reason=str(r["reason"]),
                    lines=tuple(
                        tuple(ScoreLine(str(label), int(points)) for label, points in seat)
                        for seat in r["lines"]
                    ),
                )
                for r in data["results"]
            ],
            caption=str(data["caption"]),
            winners=None if winners is None else tuple(int(w) for w in winners),
            end_reason=str(data["end_reason"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise CorruptSave(f"This saved game is damaged and cannot be resumed ({error}).") from None
    if len(state.players) != 2 or len(state.tableaus) != 2 or len(state.scores) != 2:
        raise CorruptSave("This saved game is damaged: Mille Bornes needs two players.")
    if state.turn not in (0, 1):
        raise CorruptSave("This saved game is damaged: the seat to play is not at the table.")
    return state


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)

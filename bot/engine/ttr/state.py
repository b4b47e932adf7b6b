"""The state of a Ticket to Ride card game (standard or solo), its actions and its JSON form.

Cards are ints (``cards.py``): hands, On-the-Track stacks and the discard pile are count vectors
(nine entries, Locomotive last); a Railyard is two vectors of eight, the colour cards and the
Locomotives of each colour set. The train deck and the Station Clock deck are lists with their
top card *last*; the ticket deck is a list with its top *first* (tickets return to its bottom).

States are values: ``rules.apply`` clones before changing anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.engine.core import CorruptSave, check_save_format
from bot.engine.ttr.cards import COLOURS, KINDS, TICKET_COUNT
from bot.engine.ttr.scoring import FinalScore

SCHEMA_VERSION = 1

SETUP = "setup"  # every seat still choosing its opening tickets acts (at once)
ACT = "act"  # the seat to play chooses its action (or the first of its two draws)
PICK2 = "pick2"  # the seat took one non-Locomotive card and takes its second
KEEP = "keep"  # the seat drew tickets and chooses which to keep
OVER = "over"
PHASES = (SETUP, ACT, PICK2, KEEP, OVER)

BLIND = 0  # ``take`` slot: the top of the train deck
CLOCK = 6  # ``take`` slot: the Station Clock card (solo)
SLOTS = 5  # face-up slots in the standard game (solo: four plus the Station Clock card)
SOLO_SLOTS = 4
CLOCK_CARDS = 16
HAND_START = 7
OPENING_TICKETS = 6
TICKET_DRAW = 4
SECOND_DECK_DEAL = 4


class Action(NamedTuple):
    """One move.

    ``take`` (``slot`` 1–5 a face-up card, ``BLIND`` the deck, ``CLOCK`` the Station Clock
    card), ``clockdeck`` (drawing from the Station Clock deck: never legal, parsed only to
    refuse it), ``yard`` (a colour set: ``colour``, ``naturals`` of it and ``locos``; or three
    ``singles``), ``tickets`` (draw four), ``keep`` (``tickets`` kept, ascending) and ``pass``.
    """

    kind: str
    slot: int = 0
    colour: int = -1
    naturals: int = 0
    locos: int = 0
    singles: tuple[int, ...] = ()
    tickets: tuple[int, ...] = ()


DRAW_TICKETS = Action("tickets")
PASS = Action("pass")
CLOCK_DECK = Action("clockdeck")


@dataclass(slots=True)
class TtrState:
    players: tuple[str, ...]
    solo: bool
    seed: int
    shuffles: int  # shuffles done so far: the next one is seeded from (seed, shuffles)
    hands: list[list[int]]  # per seat, nine counts
    yard_nat: list[list[int]]  # per seat, the colour cards of each colour set
    yard_loco: list[list[int]]  # per seat, the Locomotives in each colour set
    track: list[list[int]]  # per seat, the On-the-Track stack as nine counts
    tickets: list[list[int]]  # per seat, kept tickets
    offered: list[list[int]]  # per seat, tickets dealt or drawn and not yet decided
    deck: list[int]  # top last
    slots: list[int]  # face-up cards, -1 for an empty slot
    discard: list[int]  # nine counts
    ticket_deck: list[int]  # top first
    phase: str
    turn: int
    clock_card: int = -1  # solo: the Station Clock card showing, -1 if none
    clock_deck: list[int] = field(default_factory=list)  # solo: top last
    hidden_tickets: list[int] = field(default_factory=list)  # solo: the opponent's six
    clock_turn: int = 0  # solo: the turn number, 1–16
    deck_number: int = 1  # standard: 1 for the first train deck, 2 after the reshuffle
    keep_tracks: bool = False  # option: On-the-Track stacks survive the second deck's making
    exhausted: bool = False  # the current train deck has run out
    final_round: bool = False  # standard: the last turns after the first deck ran out
    final_queue: list[int] = field(default_factory=list)  # seats still owed a final turn
    left: list[bool] = field(default_factory=list)
    leave_order: list[int] = field(default_factory=list)
    # The first ``opening_leavers`` of ``leave_order`` left during the opening choice of tickets,
    # before anyone played: they share a place (several running out of time there together are
    # equally late, whichever the bot handled first).
    opening_leavers: int = 0
    caption: str = ""
    end_reason: str = ""
    winners: tuple[int, ...] | None = None
    result: FinalScore | None = None  # the final scoring (derived; rebuilt on load)

    @property
    def seats(self) -> int:
        return len(self.players)

    def active(self, seat: int) -> bool:
        return not self.left[seat]

    def clone(self) -> TtrState:
        # Built attribute by attribute (no keyword __init__): a playout clones every move.
        new: TtrState = object.__new__(TtrState)
        new.players = self.players
        new.solo = self.solo
        new.seed = self.seed
        new.shuffles = self.shuffles
        new.hands = [h[:] for h in self.hands]
        new.yard_nat = [y[:] for y in self.yard_nat]
        new.yard_loco = [y[:] for y in self.yard_loco]
        new.track = [t[:] for t in self.track]
        new.tickets = [t[:] for t in self.tickets]
        new.offered = [o[:] for o in self.offered]
        new.deck = self.deck[:]
        new.slots = self.slots[:]
        new.discard = self.discard[:]
        new.ticket_deck = self.ticket_deck[:]
        new.phase = self.phase
        new.turn = self.turn
        new.clock_card = self.clock_card
        new.clock_deck = self.clock_deck[:]
        new.hidden_tickets = self.hidden_tickets[:]
        new.clock_turn = self.clock_turn
        new.deck_number = self.deck_number
        new.keep_tracks = self.keep_tracks
        new.exhausted = self.exhausted
        new.final_round = self.final_round
        new.final_queue = self.final_queue[:]
        new.left = self.left[:]
        new.leave_order = self.leave_order[:]
        new.opening_leavers = self.opening_leavers
        new.caption = self.caption
        new.end_reason = self.end_reason
        new.winners = self.winners
        new.result = self.result
        return new


# --- JSON -------------------------------------------------------------------------------------


def state_to_dict(state: TtrState) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "game": "ttr-solo" if state.solo else "ttr",
        "players": list(state.players),
        "solo": state.solo,
        "seed": state.seed,
        "shuffles": state.shuffles,
        "hands": [list(h) for h in state.hands],
        "yard_nat": [list(y) for y in state.yard_nat],
        "yard_loco": [list(y) for y in state.yard_loco],
        "track": [list(t) for t in state.track],
        "tickets": [list(t) for t in state.tickets],
        "offered": [list(o) for o in state.offered],
        "deck": list(state.deck),
        "slots": list(state.slots),
        "discard": list(state.discard),
        "ticket_deck": list(state.ticket_deck),
        "phase": state.phase,
        "turn": state.turn,
        "clock_card": state.clock_card,
        "clock_deck": list(state.clock_deck),
        "hidden_tickets": list(state.hidden_tickets),
        "clock_turn": state.clock_turn,
        "deck_number": state.deck_number,
        "keep_tracks": state.keep_tracks,
        "exhausted": state.exhausted,
        "final_round": state.final_round,
        "final_queue": list(state.final_queue),
        "left": list(state.left),
        "leave_order": list(state.leave_order),
        "opening_leavers": state.opening_leavers,
        "caption": state.caption,
        "end_reason": state.end_reason,
        "winners": None if state.winners is None else list(state.winners),
    }


def _ints(value: Any, size: int | None = None, low: int = 0, high: int | None = None) -> list[int]:
    if not isinstance(value, list):
        raise TypeError("expected a list")
    out = [int(v) for v in value]
    if size is not None and len(out) != size:
        raise ValueError("a list has the wrong length")
    if any(v < low or (high is not None and v > high) for v in out):
        raise ValueError("a number is out of range")
    return out


def _per_seat(value: Any, seats: int, size: int | None, high: int | None = None) -> list[list[int]]:
    if not isinstance(value, list) or len(value) != seats:
        raise ValueError("a per-seat list has the wrong length")
    return [_ints(v, size, 0, high) for v in value]


def state_from_dict(data: Mapping[str, Any]) -> TtrState:
    """Read a saved game back; anything missing, mistyped or out of range is a CorruptSave."""
    check_save_format(data, SCHEMA_VERSION)
    try:
        players = tuple(str(p) for p in data["players"])
        seats = len(players)
        if not 1 <= seats <= 4:
            raise ValueError("a Ticket to Ride table seats one to four players")
        last_card = KINDS - 1
        last_ticket = TICKET_COUNT - 1
        winners = data["winners"]
        state = TtrState(
            players=players,
            solo=bool(data["solo"]),
            seed=int(data["seed"]),
            shuffles=int(data["shuffles"]),
            hands=_per_seat(data["hands"], seats, KINDS),
            yard_nat=_per_seat(data["yard_nat"], seats, len(COLOURS)),
            yard_loco=_per_seat(data["yard_loco"], seats, len(COLOURS)),
            track=_per_seat(data["track"], seats, KINDS),
            tickets=_per_seat(data["tickets"], seats, None, last_ticket),
            offered=_per_seat(data["offered"], seats, None, last_ticket),
            deck=_ints(data["deck"], None, 0, last_card),
            slots=_ints(data["slots"], None, -1, last_card),
            discard=_ints(data["discard"], KINDS),
            ticket_deck=_ints(data["ticket_deck"], None, 0, last_ticket),
            phase=str(data["phase"]),
            turn=int(data["turn"]),
            clock_card=int(data["clock_card"]),
            clock_deck=_ints(data["clock_deck"], None, 0, last_card),
            hidden_tickets=_ints(data["hidden_tickets"], None, 0, last_ticket),
            clock_turn=int(data["clock_turn"]),
            deck_number=int(data["deck_number"]),
            keep_tracks=bool(data["keep_tracks"]),
            exhausted=bool(data["exhausted"]),
            final_round=bool(data["final_round"]),
            final_queue=_ints(data["final_queue"], None, 0, seats - 1),
            left=[bool(v) for v in data["left"]],
            leave_order=_ints(data["leave_order"], None, 0, seats - 1),
            # Absent from games saved before it was kept: their leavers rank in order.
            opening_leavers=int(data.get("opening_leavers", 0)),
            caption=str(data["caption"]),
            end_reason=str(data["end_reason"]),
            winners=None if winners is None else tuple(int(w) for w in winners),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise CorruptSave(f"This saved game is damaged and cannot be resumed ({error}).") from None
    if state.phase not in PHASES:
        raise CorruptSave("This saved game is damaged: its phase is unknown.")
    if not 0 <= state.turn < seats or len(state.left) != seats:
        raise CorruptSave("This saved game is damaged: the seat to play is not at the table.")
    if len(state.slots) != (SOLO_SLOTS if state.solo else SLOTS) or state.clock_card > KINDS - 1:
        raise CorruptSave("This saved game is damaged: the draw area is malformed.")
    if state.solo != (seats == 1):
        raise CorruptSave("This saved game is damaged: solo games have exactly one seat.")
    if not 0 <= state.opening_leavers <= len(state.leave_order):
        raise CorruptSave("This saved game is damaged: its leavers are miscounted.")
    return state

"""What leaves the engine: the public table and one seat's private view.

On-the-Track stacks are face down for everyone, their owner included, until the final scoring:
views carry their sizes only (the scoring, public after the end, shows them). Tickets are
private to their holder; the ticket deck, the train deck and the Station Clock deck are face
down. Hands are counted per colour (nine counts, Locomotive last, ``CARD_CODES`` order).
"""

from __future__ import annotations

from collections.abc import Sequence, Sized
from dataclasses import dataclass

from bot.engine.ttr.cards import CARD_CODES, CARD_NAMES, COLOURS, TICKETS, Ticket
from bot.engine.ttr.moves import keep_rule, legal_actions, to_act
from bot.engine.ttr.scoring import FinalScore, OpponentScore, SeatScore, TicketLine
from bot.engine.ttr.state import CLOCK_CARDS, OVER, SETUP, Action, TtrState
from bot.engine.words import names

__all__ = [
    "FinalScore",
    "OpponentScore",
    "SeatScore",
    "SeatView",
    "TicketLine",
    "TtrPublicView",
    "TtrSeatView",
    "YardSet",
    "private_view",
    "public_view",
    "robbed_by",
]


@dataclass(frozen=True)
class YardSet:
    """One colour set in a Railyard: its colour cards and the Locomotives that joined them."""

    colour: str
    naturals: int
    locos: int

    @property
    def size(self) -> int:
        return self.naturals + self.locos


@dataclass(frozen=True)
class SeatView:
    """One player's side of the table as everyone sees it."""

    seat: int
    name: str
    hand_count: int
    yard: tuple[YardSet, ...]
    track_count: int  # the On-the-Track stack's size (its cards stay hidden)
    ticket_count: int  # tickets kept
    choosing: int  # tickets in front of them still to decide on (0 if none)
    left: bool


@dataclass(frozen=True)
class TtrPublicView:
    game: str  # "ttr" or "ttr-solo"
    solo: bool
    players: tuple[str, ...]
    phase: str  # "setup", "act", "pick2" (second draw), "keep", "over"
    turn: int | None  # the seat playing (None while tickets are chosen at setup, and at the end)
    slots: tuple[str | None, ...]  # face-up cards, None for an empty slot
    clock_card: str | None  # solo: the Station Clock card showing
    clock_left: int  # solo: cards left in the Station Clock deck
    clock_turn: int  # solo: this turn's number
    clock_turns: int  # solo: the number of turns (16)
    deck_count: int
    discard_count: int
    ticket_deck_count: int
    hidden_ticket_count: int  # solo: the opponent's face-down tickets
    deck_number: int  # 1, or 2 after the first deck ran out
    keep_tracks: bool  # option: the On-the-Track stacks survive into the second deck's play
    final_round: bool  # the first deck has run out: everyone's last turn before the second
    final_queue: tuple[int, ...]  # seats still owed that final turn, in order
    seats: tuple[SeatView, ...]
    caption: str
    result: FinalScore | None  # the final scoring, once the game is over
    winners: tuple[int, ...] | None
    end_reason: str

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def drawn(self) -> bool:
        """Every seat level on the highest total (``all_level``): nobody won."""
        return not self.solo and self.winners is not None and all_level(self.winners, self.seats)


def all_level(winners: Sequence[int], seats: Sized) -> bool:
    """Whether the winners are every seat of a game of several: Ticket to Ride has no
    tie-breaker (docs/rules/ttr.md, The end), so equal totals share first place and, with
    every seat sharing it, nobody won. A draw, as /history ("drew"), /stats and the ratings
    read the equal places; "Alice and Bob tie for the win!" on the table said otherwise."""
    return len(seats) > 1 and len(winners) == len(seats)


@dataclass(frozen=True)
class TtrSeatView:
    """One seat's view: the public table plus its hand, its tickets and what it may do now."""

    public: TtrPublicView
    seat: int
    hand: tuple[int, ...]  # nine counts, CARD_CODES order
    tickets: tuple[Ticket, ...]  # kept
    offered: tuple[Ticket, ...]  # dealt or drawn, to choose from now
    keep_minimum: int  # how many of ``offered`` must be kept at least
    keep_one_of: tuple[Ticket, ...]  # solo setup: one of these (the highest value) must be kept
    phase: str  # "setup", "act", "pick2", "keep", "wait" or "over" for this seat
    legal: tuple[str, ...]  # notation of every legal action, in the engine's order

    @property
    def hand_size(self) -> int:
        return sum(self.hand)


def robbed_by(view: TtrPublicView, seat: int, action: Action) -> str:
    """Whom ``seat`` playing ``action`` to its Railyard would rob, in players' words: "Bob",
    "Bob and Cat", in solo "the draw area's 2 Red"; "" when it robs nobody (or is no Railyard
    play).

    Read from the public table, so the engine's move descriptions and the hand's pickers (which
    see only views) say the same. A legal set is bigger than every rival set of its colour, so
    every rival holding the colour is robbed; solo, the face-up cards of its colour are."""
    if action.kind != "yard":
        return ""
    colours = [COLOURS[c] for c in (action.singles or (action.colour,))]
    if view.solo:
        face_up = [*view.slots, view.clock_card]
        shown = [(face_up.count(code), code) for code in colours]
        return names(
            [f"the draw area's {n} {CARD_NAMES[COLOURS.index(code)]}" for n, code in shown if n]
        )
    return names(
        [
            other.name
            for other in view.seats
            if other.seat != seat and any(ys.colour in colours for ys in other.yard)
        ]
    )


def _code(card: int) -> str | None:
    return None if card < 0 else CARD_CODES[card]


def public_view(state: TtrState) -> TtrPublicView:
    seats = []
    for s in range(state.seats):
        nat, loco = state.yard_nat[s], state.yard_loco[s]
        yard = tuple(
            YardSet(COLOURS[c], nat[c], loco[c]) for c in range(len(COLOURS)) if nat[c] + loco[c]
        )
        seats.append(
            SeatView(
                seat=s,
                name=state.players[s],
                hand_count=sum(state.hands[s]),
                yard=yard,
                track_count=sum(state.track[s]),
                ticket_count=len(state.tickets[s]),
                choosing=len(state.offered[s]),
                left=state.left[s],
            )
        )
    over = state.phase == OVER
    return TtrPublicView(
        game="ttr-solo" if state.solo else "ttr",
        solo=state.solo,
        players=state.players,
        phase=state.phase,
        turn=None if state.phase in (SETUP, OVER) else state.turn,
        slots=tuple(_code(c) for c in state.slots),
        clock_card=_code(state.clock_card),
        clock_left=len(state.clock_deck),
        clock_turn=state.clock_turn,
        clock_turns=CLOCK_CARDS if state.solo else 0,
        deck_count=len(state.deck),
        discard_count=sum(state.discard),
        ticket_deck_count=len(state.ticket_deck),
        hidden_ticket_count=len(state.hidden_tickets),
        deck_number=state.deck_number,
        keep_tracks=state.keep_tracks,
        final_round=state.final_round,
        final_queue=tuple(state.final_queue),
        seats=tuple(seats),
        caption=state.caption,
        result=state.result if over else None,
        winners=state.winners,
        end_reason=state.end_reason,
    )


def private_view(state: TtrState, seat: int) -> TtrSeatView:
    from bot.engine.ttr.notation import format_action

    acting = seat in to_act(state)
    if state.phase == OVER:
        phase = "over"
    elif not acting:
        phase = "wait"
    else:
        phase = state.phase
    minimum, must = keep_rule(state, seat) if state.offered[seat] else (0, ())
    return TtrSeatView(
        public=public_view(state),
        seat=seat,
        hand=tuple(state.hands[seat]),
        tickets=tuple(TICKETS[t] for t in state.tickets[seat]),
        offered=tuple(TICKETS[t] for t in state.offered[seat]),
        keep_minimum=minimum,
        keep_one_of=tuple(TICKETS[t] for t in must),
        phase=phase,
        legal=tuple(format_action(a) for a in legal_actions(state, seat)) if acting else (),
    )

"""What leaves the 1000 Mile Race engine: the public table and one seat's private view.

Public: both playing fields (miles, hazards targeting each player, trumps), both junkyards in
full (they are face up), library and hand sizes, the cards waiting on the stack and whose answer
the game waits for, the turn's plays so far, the first-player reveal and the last move. The
public view never depends on a hidden card (hands, library order).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.core import build_frozen
from bot.engine.race.cards import (
    COLOURS,
    HAND_LIMIT,
    SPEED_TRAP,
    STOPPING_HAZARDS,
    TARGET,
)
from bot.engine.race.moves import legal_actions, pending_answer
from bot.engine.race.notation import format_action
from bot.engine.race.state import Phase, RaceState


@dataclass(frozen=True)
class SideView:
    """One player's side of the table as everyone sees it."""

    seat: int
    name: str
    colour: str  # "Red" or "Blue"
    miles: tuple[str, ...]  # miles cards in play, in the order played
    total: int
    two_hundreds: int
    hazards: tuple[str, ...]  # hazards targeting this player, in the order played
    trumps: tuple[str, ...]
    junkyard: tuple[str, ...]  # top last
    library_count: int
    hand_count: int
    reshuffled: bool  # the one junkyard reshuffle is used up
    skipped: bool  # draws are being skipped (library empty, reshuffle used)

    @property
    def stopped(self) -> bool:
        return any(h in STOPPING_HAZARDS for h in self.hazards)

    @property
    def trapped(self) -> bool:
        return SPEED_TRAP in self.hazards


@dataclass(frozen=True)
class StackCard:
    """A card waiting for an answer: who played it, the card, and a Tow Truck's target."""

    seat: int
    card: str
    target: str


@dataclass(frozen=True)
class RacePublicView:
    game: str
    players: tuple[str, ...]
    target: int
    hand_limit: int
    turn: int  # the active seat
    turn_number: int
    phase: str  # "play", "react", "discard" or "over"
    reactor: int | None  # the seat asked to answer (phase "react")
    answer: str | None  # the card that would answer the top of the stack
    stack: tuple[StackCard, ...]  # bottom first
    sides: tuple[SideView, ...]
    played_miles: bool
    played_hazard: bool
    played_removal: bool
    cycled: bool
    idle_turns: int
    first_player: int
    reveal: tuple[tuple[str, ...], ...]
    caption: str
    winners: tuple[int, ...] | None
    end_reason: str

    @property
    def is_over(self) -> bool:
        return self.winners is not None


@dataclass(frozen=True)
class RaceSeatView:
    """One seat's view: the public table plus its own hand and what it may do now."""

    public: RacePublicView
    seat: int
    hand: tuple[str, ...]  # canonical order
    phase: str  # for this seat: "play", "react", "discard", "wait" or "over"
    legal: tuple[str, ...]  # notation of every legal action, in the engine's order


def public_view(state: RaceState) -> RacePublicView:
    sides = tuple(
        build_frozen(
            SideView,
            seat=seat,
            name=state.players[seat],
            colour=COLOURS[seat],
            miles=tuple(s.miles),
            total=s.total,
            two_hundreds=s.miles.count("200"),
            hazards=tuple(s.hazards),
            trumps=tuple(s.trumps),
            junkyard=tuple(s.junkyard),
            library_count=len(s.library),
            hand_count=len(s.hand),
            reshuffled=s.reshuffled,
            skipped=s.skipped,
        )
        for seat, s in enumerate(state.sides)
    )
    return build_frozen(
        RacePublicView,
        game="race",
        players=state.players,
        target=TARGET,
        hand_limit=HAND_LIMIT,
        turn=state.turn,
        turn_number=state.turn_number,
        phase=state.phase.value,
        reactor=state.reactor,
        answer=pending_answer(state),
        stack=tuple(StackCard(e.seat, e.card, e.target) for e in state.stack),
        sides=sides,
        played_miles=state.played_miles,
        played_hazard=state.played_hazard,
        played_removal=state.played_removal,
        cycled=state.cycled,
        idle_turns=state.idle_turns,
        first_player=state.first_player,
        reveal=state.reveal,
        caption=state.caption,
        winners=state.winners,
        end_reason=state.end_reason,
    )


def seat_phase(state: RaceState, seat: int) -> str:
    if state.phase is Phase.OVER:
        return "over"
    if state.phase is Phase.REACT:
        return "react" if state.reactor == seat else "wait"
    return state.phase.value if seat == state.turn else "wait"


def private_view(state: RaceState, seat: int) -> RaceSeatView:
    return build_frozen(
        RaceSeatView,
        public=public_view(state),
        seat=seat,
        hand=tuple(state.sides[seat].hand),
        phase=seat_phase(state, seat),
        legal=tuple(format_action(a) for a in legal_actions(state, seat)),
    )

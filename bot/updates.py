"""What the seam hands back to front ends: refusals, updates, steps and outcomes.

Kept apart from ``bot/tables.py`` (which does the work) so front ends and tests can name these
types without reading the seam's machinery.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.core import Game, GameError, Outcome, get_game
from bot.store.base import SeatRecord, StoredGame, TimeoutAction


class NoGameHere(GameError):
    """The channel has no game running."""


class NotSeated(GameError):
    """The member is not one of this game's players."""


class StaleButton(GameError):
    """A button from an earlier turn was pressed."""


class TableBusy(GameError):
    """A game is already running in the channel."""


class NoReplay(GameError):
    """The game cannot be replayed: it is still running, or it predates stored deals."""


@dataclass(frozen=True)
class Step:
    """One move that happened: who made it, its notation and the caption it left.

    ``timed_out`` marks a move the computer made for a member whose turn ran out (the seat is
    the member's; ``by_computer`` is then True as well).
    """

    seat: int
    action: str
    caption: str
    by_computer: bool
    timed_out: bool = False


@dataclass(frozen=True)
class Timeout:
    """A turn that ran out: the members who did not act and what the guild's setting did."""

    seats: tuple[SeatRecord, ...]
    action: TimeoutAction

    @property
    def caption(self) -> str:
        """A line for the channel, e.g. "⏰ Ann ran out of time: the computer played for them"."""
        names = _and_list([seat.name for seat in self.seats])
        if self.action == "forfeit":
            # Only one seat ever forfeits (see Tables.expire_turn).
            return f"⏰ {names} ran out of time and forfeits the game."
        return f"⏰ {names} ran out of time: the computer played for them."


@dataclass(frozen=True)
class TableUpdate:
    """The table after a request: the stored game, its public view and what just happened."""

    game: StoredGame
    public: Any
    steps: tuple[Step, ...] = ()
    outcome: Outcome | None = None
    repeated: bool = False  # the request was a repeat of one already applied
    previous: Any = None  # the public view before this request, when it changed the table
    timeout: Timeout | None = None  # set when a turn timer ran out (``Tables.expire_turn``)

    @property
    def to_act(self) -> tuple[SeatRecord, ...]:
        """The seats the game waits for now."""
        seats = get_game(self.game.game_key).to_act(state_of(self.game))
        return tuple(self.game.seats[s] for s in sorted(seats))


@dataclass(frozen=True)
class MoveChoice:
    """A legal move for a menu: its notation and a plain-words label."""

    notation: str
    label: str


def state_of(stored: StoredGame) -> Any:
    return get_game(stored.game_key).from_dict(stored.state)


def waiting_members(stored: StoredGame) -> tuple[SeatRecord, ...]:
    """The members (not computer seats) the game waits for: whom a reminder mentions."""
    if stored.status != "active":
        return ()
    seats = get_game(stored.game_key).to_act(state_of(stored))
    return tuple(stored.seats[s] for s in sorted(seats) if not stored.seats[s].is_computer)


def outcome_of(game: Game[Any, Any], stored: StoredGame, state: Any) -> Outcome | None:
    """The game's outcome, counting a resignation as a loss for the seat that resigned."""
    resigned = stored.state.get("resigned")
    if isinstance(resigned, int):
        winners = tuple(s.seat for s in stored.seats if s.seat != resigned)
        played = game.outcome(state)
        scores = played.scores if played else tuple(0 for _ in stored.seats)
        return Outcome(winners, scores, f"{stored.seats[resigned].name} resigned.")
    return game.outcome(state)


def caption_of(state: Any) -> str:
    return str(getattr(state, "caption", ""))


def _and_list(names: Sequence[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def outcome_line(update: TableUpdate, *, markdown: bool = False) -> str:
    """The result in one line for any front end; ``markdown`` bolds the verdict for Discord."""
    outcome = update.outcome
    if outcome is None:
        return ""

    def strong(text: str) -> str:
        return f"**{text}**" if markdown else text

    names = [s.name for s in update.game.seats]
    scores = " · ".join(f"{n} {s}" for n, s in zip(names, outcome.scores, strict=True))
    if len(names) == 1:
        # Played alone there is no draw: no winner means the run ended without clearing.
        verdict = "🏆 " + strong("You won!") if outcome.winners else "⛽ " + strong("Out of road.")
        return f"{verdict} {outcome.reason}"
    if outcome.is_draw:
        return f"🤝 {strong('Draw!')} {scores}. {outcome.reason}"
    winners = " and ".join(strong(names[w]) for w in outcome.winners)
    return f"🏆 {winners} won! {scores}. {outcome.reason}"

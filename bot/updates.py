"""What the seam hands back to front ends: refusals, updates, steps and outcomes.

Kept apart from ``bot/tables.py`` (which does the work) so front ends and tests can name these
types without reading the seam's machinery. Everything here is computed once per request from
the state the seam already holds; nothing rebuilds a state from JSON again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bot.engine.core import GameError, Outcome
from bot.engine.words import ordinal
from bot.games.bundle import MoveChoice
from bot.store.base import SeatRecord, StoredGame

__all__ = [
    "NOBODY_PLAYS",
    "MoveChoice",
    "NoGameHere",
    "NoReplay",
    "NotSeated",
    "StaleButton",
    "Step",
    "TableBusy",
    "TableUpdate",
    "Timeout",
    "outcome_line",
    "told",
]


class NoGameHere(GameError):
    """The channel has no game running."""


class NotSeated(GameError):
    """The member is not one of this game's players."""


class StaleButton(GameError):
    """A button from an earlier turn (or another game) was pressed."""


class TableBusy(GameError):
    """A game is already running in the channel."""


class DailyDealt(GameError):
    """The member has already been dealt today's deal of that game."""


class NoReplay(GameError):
    """The game cannot be replayed: it is still running, or it predates stored deals."""


@dataclass(frozen=True)
class Step:
    """One move that happened: who made it, its notation and the caption it left.

    ``timed_out`` marks a move the bot made for a member whose time ran out (a turn played by
    the computer, or "no reaction" when a reaction window closed); ``by_computer`` is then True.
    ``left`` marks a seat leaving the game (a resignation or a forfeit). ``round_ended`` marks
    the move that finished a round (a Mille Bornes hand) while the game goes on: a front end
    tells the round's end and score apart from the next round's moves.
    """

    seat: int
    action: str
    caption: str
    by_computer: bool
    timed_out: bool = False
    left: bool = False
    round_ended: bool = False


TimeoutAction = Literal["computer", "forfeit", "default", "abandon", "idle"]

NOBODY_PLAYS = "Nobody has played their last three turns: the game ends with no result."
"""What the channel reads when the computer has played every member's last turns
(``Tables.wake``, ``IDLE_TURNS``)."""


@dataclass(frozen=True)
class Timeout:
    """Time that ran out: the members who did not act and what the bot did for them.

    ``computer``: the computer played their turn; ``forfeit``: they left the game;
    ``default``: their reaction window closed with no reaction; ``abandon``: every member still
    playing was late together (a forfeit would have let one win by it), so the game ended with
    no result; ``idle``: the computer has played every member's last three turns (they are the
    ``seats``), so the game ended with no result.
    """

    seats: tuple[SeatRecord, ...]
    action: TimeoutAction
    answers: tuple[str, ...] = ()
    """For ``default``: what the bot played for each seat, in the game's words ("No reaction",
    or "Take it on the front" where a Dragon victim picks a side)."""

    @property
    def caption(self) -> str:
        """A line for the channel, e.g. "⏰ Ann ran out of time: the computer played for them"."""
        names = and_list([seat.name for seat in self.seats])
        if self.action == "forfeit":
            verb = "forfeits" if len(self.seats) == 1 else "forfeit"
            return f"⏰ {names} ran out of time and {verb} the game."
        if self.action == "abandon":
            every = "both" if len(self.seats) == 2 else "all"
            return f"⏰ {names} {every} ran out of time: the game ends with no result."
        if self.action == "idle":
            return f"⏰ {NOBODY_PLAYS}"
        if self.action == "default":
            return f"⏰ {names} did not react in time: {self._answered()}."
        return f"⏰ {names} ran out of time: the computer played for them."

    def _answered(self) -> str:
        """What the bot played for the late seats: "no reaction" said for every window closed
        it, although a Dragon victim late to pick a side takes the hits on one."""
        said = [answer[:1].lower() + answer[1:] for answer in self.answers]
        if len(set(said)) <= 1:
            return said[0] if said else "no reaction"
        return "; ".join(f"{a} for {s.name}" for a, s in zip(said, self.seats, strict=True))


@dataclass(frozen=True)
class TableUpdate:
    """The table after a request: the stored game, its public view and what just happened.

    ``waiting`` are the seats the game waits for now; ``reacting`` those of them deciding in a
    reaction window (out of their turn), whom a front end asks with a deadline.
    """

    game: StoredGame
    public: Any
    steps: tuple[Step, ...] = ()
    outcome: Outcome | None = None
    repeated: bool = False  # the request was a repeat of one already applied
    previous: Any = None  # the public view before this request, when it changed the table
    timeout: Timeout | None = None  # set when time ran out (``Tables.wake``)
    waiting: tuple[SeatRecord, ...] = ()
    reacting: tuple[SeatRecord, ...] = ()
    # A new game's own line (who starts and why: the Race's revealed cards, "Hand 1: Computer
    # starts."), read from the deal's public view, when computers moved after the deal in the
    # same request: no step repeats it, and the table image shows their last move instead.
    # Front ends also put a new round's first line here ("Hand 2: Bob starts.", split off the
    # caption of the move that ended the round before) to head the new round's table.
    dealt: str = ""
    # The seats that left the game (resigned or forfeited), read from the move log once the
    # game is over: the result line says so in place of the score they stopped at.
    left: frozenset[int] = frozenset()
    # The seats out of the game when it ended without leaving it (a Dragon driver killed): the
    # result line marks them, or a dead driver placed below a live one with fewer miles read as
    # a mistake ("3rd Bob 50 · 4th Carol 75").
    out: frozenset[int] = frozenset()
    # The seats the game waited for already when the member's move came, and waits for still
    # (others of a choice all make at once, the tickets each member keeps at the start): the
    # table calls on them again, but their turn is no news, and they were told when it began.
    still_waiting: frozenset[int] = frozenset()

    @property
    def to_act(self) -> tuple[SeatRecord, ...]:
        """The seats the game waits for now (an alias kept for front ends)."""
        return self.waiting

    @property
    def waiting_members(self) -> tuple[SeatRecord, ...]:
        """The members (not computer seats) the game waits for: whom a message mentions."""
        return tuple(s for s in self.waiting if not s.is_computer)


def and_list(names: Sequence[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def outcome_line(
    update: TableUpdate, *, markdown: bool = False, escape: Callable[[str], str] = str
) -> str:
    """The result in one line for any front end; ``markdown`` bolds the verdict for Discord,
    and ``escape`` makes the players' names and the reason plain text there."""
    outcome = update.outcome
    if outcome is None:
        return ""

    def strong(text: str) -> str:
        return f"**{text}**" if markdown else text

    names = [escape(s.name) for s in update.game.seats]
    figures = [f" {score}" for score in outcome.scores] or [""] * len(names)
    # A seat the game gives no total (Ticket to Ride's leaver: "alice 0 · Computer -31" read as
    # if the leaver had outscored the winner) shows that it left, at two seats too.
    gone = {seat for seat, details in enumerate(outcome.seat_details) if details.get("left")}
    figures = [" (left)" if seat in gone else f for seat, f in enumerate(figures)]
    if len(names) > 2:
        # Past two seats the winner alone does not say who came second, and the figures do
        # not always (a Dragon driver killed early may have driven further): every seat by
        # its place, ties sharing one.
        # A seat that left shows that, not the score it stopped at ("4th Carol 0" beside
        # negative scores read as if Carol had scored more).
        shown = [
            " (left)" if seat in update.left else f"{f} (out)" if seat in update.out else f
            for seat, f in enumerate(figures)
        ]
        order = sorted(range(len(names)), key=lambda seat: (outcome.places[seat], seat))
        scores = " · ".join(
            f"{ordinal(outcome.places[seat] + 1)} {names[seat]}{shown[seat]}" for seat in order
        )
    elif outcome.scores:
        # A Dragon driver killed is marked here too: "Alice won! Alice 0 · Bob 50" read as if
        # the miles had decided it, and against Bob.
        shown = [f"{f} (out)" if seat in update.out else f for seat, f in enumerate(figures)]
        scores = " · ".join(f"{n}{f}" for n, f in zip(names, shown, strict=True))
    else:
        scores = ""
    tail = f" {scores}." if scores else ""
    if len(names) == 1:
        # Played alone there is no draw: no winner means the run ended without winning, and
        # the game names whoever beat the player when someone did (the hidden tickets).
        lost = outcome.loss_verdict or "Game over."
        verdict = "🏆 " + strong("You won!") if outcome.winners else "🏁 " + strong(lost)
        return f"{verdict} {escape(outcome.reason)}"
    if outcome.is_draw:
        return f"🤝 {strong('Draw!')}{tail} {escape(outcome.reason)}"
    winners = and_list([strong(names[w]) for w in outcome.winners])
    # Several winners share first place (Ticket to Ride's equal totals): said as the score
    # image and /history say it ("tie for the win", "tied for first"), where "Ann and Bob
    # won!" read as if they had played together.
    verdict = "won!" if len(outcome.winners) == 1 else "tie for the win!"
    return f"🏆 {winners} {verdict}{tail} {escape(outcome.reason)}"


def told(captions: Iterable[str], reason: str = "") -> list[str]:
    """The captions of the steps of one request, each event told once.

    A caption may go on from the one before it (a shot, then the armor that met it: the
    second repeats the first and adds to it), so a caption the next one begins with is left
    out (an identical caption is another event, and kept); and the game's end ``reason`` is
    left to the result line.
    """
    kept: list[str] = []
    for caption in captions:
        caption = caption.replace(reason, "").strip() if reason else caption.strip()
        if not any(char.isalnum() for char in caption):
            continue  # nothing, or only the marker of the reason taken out of it ("🏳️")
        if kept and len(caption) > len(kept[-1]) and caption.startswith(kept[-1]):
            kept[-1] = caption
        else:
            kept.append(caption)
    return kept

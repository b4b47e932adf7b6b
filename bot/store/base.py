"""The storage interface the seam talks to; SQLite and PostgreSQL implement it.

A game row holds the latest state snapshot and a ``version`` that grows by one per move. A move
is one transaction: check the version, append to ``moves``, replace the snapshot. The
``interaction_id`` of a move is unique, so a request delivered twice is applied once.

A game row also keeps the state it was dealt with (``initial_state``, for replays) and its turn
timer (``remind_at``, ``turn_deadline``). The timer lives in the database rather than in the
bot's memory so a restart does not lose it; the timers' clock stops while the bot is down
(``heartbeat``, ``resume_timers``): a deadline still running then gets the downtime back.
Finished games get a row in ``results`` (leaderboards, stats, history), and each guild has its
turn-timer settings in ``guild_settings``.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from bot.ratings import ResultRecord

GameStatus = Literal["active", "finished", "aborted"]
TimeoutAction = Literal["computer", "forfeit"]
TimerKind = Literal["remind", "expire"]
LobbyStatus = Literal["open", "started", "cancelled", "expired"]
Answer = Literal["pending", "accepted", "declined"]
DEFAULT_REACTION_SECONDS = 45

CONSOLE_CHANNEL = 0
"""The local console's "channel" (no Discord channel has id 0). Its games record no result:
the leaderboards are for members of a server."""

VOIDED = "voided"
"""The label (in a result's options) of a result an operator voided (``junction void-game``),
its value the reason given (maybe empty). The store's reads of results (``Store.results``,
``Store.results_after``) leave such a result out, so ratings, every board, /stats and /history
read as if the game had never been played; the row stays, so it can be counted again."""

VoidState = Literal["no game", "in play", "aborted", "no result", "counted", "voided", "damaged"]
"""Where a game's result stands for ``Store.void_result``: no game of that id, a game in play
or aborted (no result to void), finished without a result recorded (a console game, or one
the bot records at its next start), a result that counts, one voided, or one whose options
(where the void is kept) cannot be read."""

UNPOSTED_SECONDS = 60.0
"""A lobby with no message this long after it was stored will never get one: an invitation is
posted as the answer to the press that opened it, which Discord takes only within 3 seconds."""


class StoreError(Exception):
    """A storage problem the seam turns into a player-readable sentence."""


class ChannelBusy(StoreError):
    """The channel already has an active game."""


class DailyClaimed(StoreError):
    """The member has already been dealt that daily deal (``create_game``'s ``daily``)."""


@dataclass(frozen=True)
class DailyClaim:
    """A member's claim on a game's daily deal: one per server, game and day."""

    guild_id: int
    game_key: str
    day: str
    user_id: int


class MemberSeated(StoreError):
    """``Store.forget_member`` found the member in a game it was not given: one started (and
    perhaps ended) after the games to rewrite were read. Nothing was changed; read them again."""


class SeatingBusy(StoreError):
    """``Store.seating`` waited ``SEATING_WAIT`` for the member's claim, which another request
    (in another process) still holds: the request is refused, to be sent again, rather than
    left unanswered past Discord's three seconds."""


class StaleVersion(StoreError):
    """Somebody else's move was stored first; reload and try again."""


class DuplicateInteraction(StoreError):
    """This interaction id was already stored as a move: the request is a repeat."""


@dataclass(frozen=True)
class SeatRecord:
    """Who sits at a seat: a member (``user_id``) or the computer (``policy``)."""

    seat: int
    name: str
    user_id: int | None = None
    policy: str | None = None

    @property
    def is_computer(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class StoredGame:
    id: int
    channel_id: int
    guild_id: int | None
    game_key: str
    seats: tuple[SeatRecord, ...]
    options: Mapping[str, str]
    state: Mapping[str, Any]
    version: int
    status: GameStatus
    message_id: int | None
    created_at: float
    updated_at: float
    # The turn timer (Unix seconds), None when no timer runs. A stored move or the end of the
    # game clears both; the seam then arms the next turn's timer (``Store.set_timer``).
    turn_deadline: float | None = None
    remind_at: float | None = None


@dataclass(frozen=True)
class MoveRecord:
    game_id: int
    seq: int
    seat: int
    action: str
    interaction_id: str | None
    created_at: float


@dataclass(frozen=True)
class StoredResult:
    """A finished game's result with what a front end shows beside it.

    ``names`` are the seat names at the table (in seat order); ``channel_id`` and
    ``message_id`` come from the game's row, so a history line can link to the table.
    """

    record: ResultRecord
    names: tuple[str, ...]
    channel_id: int
    message_id: int | None


@dataclass(frozen=True)
class NumberedResults:
    """One ladder's results written after a number (``Store.results_after``).

    Every result is numbered as it is written, higher than any number handed out before, and
    every change or delete of a stored result adds one to a count of changes. ``results`` are
    those numbered above the number asked for, oldest first as ``Store.results`` orders them,
    ``numbers`` their numbers in the same order. ``changes`` is the count of changes, read
    after the results when a number was given (so if it is the count a reader read before, the
    results it read then are all still there as they were when these were read) and before
    them when none was (so a change made while they are read moves it on).
    """

    results: tuple[StoredResult, ...]
    numbers: tuple[int, ...]
    changes: int


@dataclass(frozen=True)
class GuildSettings:
    """A guild's turn timer: seconds per turn (None: no timer) and what a timeout does.

    ``on_timeout`` is "computer" (the computer plays one move for the absent member) or
    "forfeit" (the absent member resigns). Raises ValueError for a value outside those, or
    for ``turn_seconds`` below 1: use None to switch the timer off.
    """

    guild_id: int
    turn_seconds: int | None = None
    on_timeout: TimeoutAction = "computer"
    # How long a reaction window (a coup fourré, armor, a jammer…) stays open.
    reaction_seconds: int = DEFAULT_REACTION_SECONDS

    def __post_init__(self) -> None:
        if not 5 <= self.reaction_seconds <= 3600:
            raise ValueError("reaction_seconds must be between 5 and 3600")
        if self.on_timeout not in ("computer", "forfeit"):
            raise ValueError(f"on_timeout must be 'computer' or 'forfeit', not {self.on_timeout!r}")
        if self.turn_seconds is not None and self.turn_seconds < 1:
            raise ValueError("turn_seconds must be at least 1; use None for no turn timer")


@dataclass(frozen=True)
class Invitee:
    """A member invited to a lobby and their answer so far."""

    user_id: int
    name: str
    answer: Answer = "pending"


@dataclass(frozen=True)
class LobbyRecord:
    """A table being gathered: who hosts, who is invited and how they answered.

    Lobbies live in the database so a button only ever carries a lobby's id. ``computers``
    computer seats (playing ``policy``) sit after the members; ``version`` grows with every
    change (answers, start), so two presses at once cannot both start the game.
    ``rematch_of`` is the finished game a Rematch button asked to replay (None for a
    /challenge): at most one such lobby per game is open at a time (``open_rematch``).
    ``open_seats`` is set for an open table (/host): the seats offered to any member who
    presses Join; the members who joined are ``invited``, each accepted, in the order they
    joined. None for an invitation naming its members.
    """

    id: int
    channel_id: int
    guild_id: int | None
    game_key: str
    host_id: int
    host_name: str
    invited: tuple[Invitee, ...]
    options: Mapping[str, str]
    computers: int
    policy: str
    thread: bool
    status: LobbyStatus
    expires_at: float
    created_at: float
    version: int = 0
    game_id: int | None = None
    message_id: int | None = None
    rematch_of: int | None = None
    open_seats: int | None = None

    def invitee(self, user_id: int) -> Invitee | None:
        return next((i for i in self.invited if i.user_id == user_id), None)

    @property
    def free_seats(self) -> int:
        """The seats of an open table nobody has taken yet (0 for an invitation)."""
        return 0 if self.open_seats is None else max(self.open_seats - len(self.invited), 0)

    @property
    def answered(self) -> bool:
        return all(i.answer != "pending" for i in self.invited)


@dataclass(frozen=True)
class TimerDue:
    """An active game whose reminder or deadline has come ("expire" when both have)."""

    game: StoredGame
    kind: TimerKind


@dataclass(frozen=True)
class GameRewrite:
    """An ended game's rows with a member taken out (``Store.forget_member``): its seats, its
    final state and the state it was dealt with (None: the stored one stays as it is, which
    is none kept, or one too damaged to read)."""

    game_id: int
    seats: tuple[SeatRecord, ...]
    state: Mapping[str, Any]
    initial_state: Mapping[str, Any] | None


@dataclass(frozen=True)
class Forgotten:
    """What ``Store.forget_member`` changed: games and results rewritten, lobbies deleted,
    ``seats`` freed at open tables others host, and the newest lobby ``kept`` (closed, the
    member taken out of it: ``forget_member``) rather than deleted. ``damaged_games`` and
    ``damaged_results`` are the games whose seats, and the results (by game id) whose seats or
    names, hold the member's id in their text but cannot be read: left as they are, as nothing
    can say which of their seats is the member's; ``damaged_deals`` the rewritten games whose
    initial state cannot be read, kept as it was (``GameRewrite``)."""

    games: int
    results: int
    lobbies: int
    seats: int = 0
    kept: int = 0
    damaged_games: tuple[int, ...] = ()
    damaged_results: tuple[int, ...] = ()
    damaged_deals: tuple[int, ...] = ()


@dataclass(frozen=True)
class Shards:
    """The gateway shards one process runs, of ``count`` (``junction run --shard-ids``): it
    acts only for the servers those shards hold, as Discord assigns a server to a shard."""

    count: int
    ids: tuple[int, ...]

    def holds(self, guild_id: int | None) -> bool:
        """Whether a server (None: no server, a direct message) is one of these shards'."""
        return guild_id is None or (guild_id >> 22) % self.count in self.ids


@dataclass(frozen=True)
class Resumed:
    """What ``Store.resume_timers`` gave the time back to: how many games, and which open
    lobbies (their messages show the old closing time until edited)."""

    games: int = 0
    lobbies: tuple[int, ...] = ()


SEATING_LEASE: Final = 30.0
"""Seconds a claim to seat a member (``Store.seating``) holds at most: longer than a request
takes to store its game (Discord gives it 15 minutes once deferred, but a seat is stored within
seconds), short enough that a process that died holding one delays the member only so long."""
SEATING_POLL: Final = 0.02
"""Seconds between tries at a claim another request holds."""
SEATING_WAIT: Final = 1.5
"""Seconds a request waits for a claim another request holds before it is refused
(``SeatingBusy``): Discord takes the answer to a press only within three seconds, and a claim
may be held for its whole lease by a process that died holding it."""


class Store(ABC):
    """Async storage of games and their move logs."""

    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date (numbered migrations)."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def create_game(
        self,
        *,
        channel_id: int,
        guild_id: int | None,
        game_key: str,
        seats: Sequence[SeatRecord],
        options: Mapping[str, str],
        state: Mapping[str, Any],
        deadline: float | None = None,
        daily: DailyClaim | None = None,
    ) -> StoredGame:
        """Store a new active game at version 0; ChannelBusy if the channel has one.

        ``daily``: the game is a member's daily deal, claimed in the same transaction, so a
        deal is never stored without its claim nor a claim without its deal (a kill in between
        loses nothing), and of two at once exactly one is stored: DailyClaimed for the other.

        ``state`` is also kept as the game's initial state (see ``initial_state``);
        ``deadline`` arms its timer in the same statement (a computer seat due to open).
        """

    @abstractmethod
    async def get_game(self, game_id: int) -> StoredGame | None: ...

    @abstractmethod
    async def highest_game_id(self) -> int:
        """The highest id the store has handed out to a game (0: none yet), its row kept or
        not: a game id above it never named a game, as a forged button's may."""

    @abstractmethod
    async def active_game(self, channel_id: int) -> StoredGame | None: ...

    @abstractmethod
    async def active_games(self) -> list[StoredGame]: ...

    @abstractmethod
    async def finished_without_result(self) -> list[StoredGame]:
        """Finished games with no result: the result's write failed after the last move was
        stored (``Tables.settle_missing`` writes it again). The console's games
        (``CONSOLE_CHANNEL``) record none on purpose and are not among them."""

    @abstractmethod
    async def last_finished_game(
        self, channel_id: int, game_keys: Collection[str] | None = None
    ) -> StoredGame | None:
        """The channel's most recently finished game (for replays), None if it has none; with
        ``game_keys``, the most recent of those games only (the games still installed)."""

    @abstractmethod
    async def record_move(
        self,
        *,
        game_id: int,
        expected_version: int,
        seat: int,
        action: str,
        interaction_id: str | None,
        state: Mapping[str, Any],
        status: GameStatus = "active",
        remind_at: float | None = None,
        deadline: float | None = None,
    ) -> StoredGame:
        """Append a move and replace the snapshot in one transaction.

        Raises StaleVersion when the stored version is not ``expected_version`` and
        DuplicateInteraction when ``interaction_id`` was stored before; either way nothing
        is written. Returns the game at its new version (``expected_version + 1``).

        The move also replaces the game's timer in the same transaction (``remind_at`` and
        ``deadline``, None clears them): the turn it timed is over, and setting the next one
        atomically means a crash right after the move still leaves the game due to be looked
        at (a computer seat that must reply, a reaction window that must close). Votes to
        abort the game lapse with it: they were cast for the position before the move.
        """

    @abstractmethod
    async def end_game(
        self, *, game_id: int, expected_version: int, status: GameStatus, state: Mapping[str, Any]
    ) -> StoredGame:
        """Mark a game finished or aborted without a move (resign, abort); bumps the version.

        Clears the turn timer: an ended game has no turns left to time.
        """

    @abstractmethod
    async def moves(self, game_id: int) -> list[MoveRecord]:
        """The move log in order."""

    @abstractmethod
    async def add_labels(self, game_id: int, labels: Mapping[str, str]) -> None:
        """Add ``labels`` to a game's stored options (they ride into its result, as the daily
        deal's date does), replacing a label of the same name; the version does not change.
        StoreError for an unknown game."""

    @abstractmethod
    async def set_message(self, game_id: int, message_id: int | None, version: int) -> bool:
        """Remember the table message (Discord) of the game at ``version`` (the version the
        table shows), so /mygames and /history link to it; the version does not change.

        Only while the game is still at ``version``: two tables of one game posted at the same
        moment (a move's and a timer's, or two processes') may be remembered in either order,
        and the older must not replace the newer. Returns whether ``message_id`` is the game's
        table message now: False when the game has moved on (a newer table exists or is on its
        way; not an error). StoreError for an unknown game. A repost of the same version
        (/table) does replace it."""

    @abstractmethod
    async def forget_table_messages(self, channel_id: int, message_ids: Collection[int]) -> int:
        """Forget the table messages among ``message_ids`` in a channel (a moderator deleted
        them), so /mygames and /history give no link that opens nothing; /mygames then says
        /table posts the table again. Neither the game's version nor ``updated_at`` changes.
        How many games' table message was forgotten (0: none of them was a table)."""

    @abstractmethod
    async def close_deleted_lobbies(self, channel_id: int, message_ids: Collection[int]) -> int:
        """Cancel the open lobbies (invitations, open tables) whose message is among
        ``message_ids`` in a channel (a moderator deleted it): nobody can press their buttons
        any more, so they must not go on holding their members' seats (the games-at-once and
        open-tables limits, /mygames) until their time runs out. Each one's version moves on,
        so a press that read it before changes nothing. How many were cancelled (0: none of
        the messages was an open lobby's)."""

    @abstractmethod
    async def forget_channel_tables(self, channel_id: int) -> int:
        """Forget the table messages of every game of a channel or thread a moderator deleted
        (Discord sends no MESSAGE_DELETE for the messages that go with it), as
        ``forget_table_messages`` forgets one: /history and /mygames link to nothing there.
        The games themselves are untouched. How many games' table message was forgotten."""

    @abstractmethod
    async def close_channel_lobbies(self, channel_id: int) -> int:
        """Cancel the open lobbies posted in a channel or thread a moderator deleted, as
        ``close_deleted_lobbies`` cancels one whose message was deleted: nobody can press their
        buttons any more, so their members' seats count no longer. How many were cancelled."""

    @abstractmethod
    async def initial_state(self, game_id: int) -> Mapping[str, Any] | None:
        """The state the game was dealt with; None for an unknown game or one stored before
        initial states were kept (schema version 1)."""

    @abstractmethod
    async def games_of_member(self, user_id: int, *, active: bool = False) -> list[StoredGame]:
        """Every game with ``user_id`` in a seat, oldest first: whatever its status, or only
        the games in play (``active``)."""

    @abstractmethod
    async def last_aborted_game_of(
        self, user_id: int, channel_id: int, after: int = 0
    ) -> StoredGame | None:
        """The aborted game on ``channel_id`` with ``user_id`` in a seat that ended last, of
        those numbered above ``after``; None if there is none. Only that game is parsed: a
        member may have played thousands in one channel."""

    @abstractmethod
    async def forget_member(
        self, user_id: int, *, alias: int, name: str, games: Sequence[GameRewrite]
    ) -> Forgotten:
        """Take a member out of the database, in one transaction: each of ``games`` rewritten
        (a StoreError, and nothing changed, if one is still active or gone; MemberSeated if
        another game seats them by then, started while the rewrites were made); in the results
        their user id becomes ``alias`` and their seat name ``name``; their daily-deal claims
        move to ``alias``; their abort votes and every lobby naming them are deleted — but at
        an open table another member hosts, still open, only their seat is freed (its version
        moves on), so the others seated keep it; and the newest lobby is kept, closed, with
        ``alias`` and ``name`` in their place, so its id is never handed out again (as
        ``delete_closed_lobbies`` keeps it)."""

    @abstractmethod
    async def forget_preview(self, user_id: int) -> Forgotten:
        """What ``forget_member`` would change now, with every game of theirs rewritten,
        counted the same way; reads only (``junction forget-member`` without ``--yes``, on a
        database this account may only read too)."""

    # -- results ----------------------------------------------------------------------------

    @abstractmethod
    async def record_result(self, record: ResultRecord, names: Sequence[str]) -> None:
        """Store a finished game's result; a second call for the same game changes nothing.

        ``names`` gives one seat name per seat. The game must exist (``record.game_id``).
        """

    @abstractmethod
    async def results(
        self,
        *,
        game_key: str | None = None,
        guild_id: int | None = None,
        since: float | None = None,
        user_id: int | None = None,
        newest: int | None = None,
    ) -> list[StoredResult]:
        """Stored results, oldest first (by ``finished_at``, then game id).

        Each filter given narrows the list: exactly this game key, this guild, finished at or
        after ``since``, and ``user_id`` seated at the table. ``newest``: only the last this
        many of them (still oldest first), read without reading the older ones.
        """

    @abstractmethod
    async def results_after(
        self, *, game_key: str, guild_id: int | None, after: int = 0
    ) -> NumberedResults:
        """The results of one game key (on one guild, or on all for None) numbered above
        ``after`` (0: all of them), and the count of changes (``NumberedResults``): what a kept
        ladder reads to catch up (bot/kept_results.py)."""

    @abstractmethod
    async def result_state(self, game_id: int) -> tuple[VoidState, str]:
        """Where the game's result stands (``VoidState``), for ``void_result``, and the reason
        it was voided with ("" unless it is voided, or when none was given)."""

    @abstractmethod
    async def void_result(self, game_id: int, reason: str | None) -> VoidState:
        """Void the game's result with ``reason`` (``VOIDED``), or with None count it again,
        in one transaction; returns the state found (``result_state``). Only a result that
        counts is voided and only a voided one counted again: any other state changes
        nothing. A change adds one to the count of changes (``NumberedResults``), so a
        ladder kept from the results is read again whole at its next read."""

    # -- turn timers ------------------------------------------------------------------------

    @abstractmethod
    async def set_timer(
        self,
        game_id: int,
        *,
        remind_at: float | None,
        deadline: float | None,
        expected_version: int | None = None,
    ) -> bool:
        """Set (or with None clear) a game's reminder time and turn deadline; whether it did.

        Neither the version nor ``updated_at`` changes (a timer is not a move). With
        ``expected_version``, only while the game is still at that version (False otherwise):
        a timer worked out from a position must not replace the one a move made meanwhile
        (by another process) set for the position after it. StoreError for an unknown game.
        """

    @abstractmethod
    async def timers_due(self, now: float) -> list[TimerDue]:
        """Active games whose deadline (``"expire"``) or reminder (``"remind"``) is at or
        before ``now``, in game id order; a game with both due is listed once, as "expire"."""

    @abstractmethod
    async def heartbeat(self, shards: Shards, now: float) -> None:
        """Record ``now`` as the last timer sweep of each of ``shards`` (a process without
        shards is ``Shards(1, (0,))``): what ``resume_timers`` dates a downtime from."""

    @abstractmethod
    async def resume_timers(self, shards: Shards, now: float, *, started: float) -> Resumed:
        """Stop the timers' clock for the time ``shards`` were down (the bot stopped, or their
        gateway connection lost): move the deadlines (and reminders) of the active games those
        shards time that were still running at their shard's last ``heartbeat`` on by the time
        since (since the game's last move, when it came after), and the closing time of their
        open lobbies still open then (since the lobby's opening, when it came after), and
        record ``now`` as the heartbeat, in one transaction (so it applies once). A game moved,
        or a lobby opened, since ``started`` is left alone: at a start, when this process
        started (its time was set after the downtime). How many games moved, and which lobbies
        (``bot/store/heartbeats.py``)."""

    @abstractmethod
    async def last_sweeps(self, shards: Shards) -> dict[int, float]:
        """When each of ``shards`` last swept (its ``heartbeat``, or a newer one under another
        shard count): what ``resume_timers`` would give the time back from. A shard never seen
        sweeping is left out."""

    # -- lobbies, abort votes, secrets ----------------------------------------------------------

    @abstractmethod
    async def create_lobby(self, lobby: LobbyRecord) -> LobbyRecord:
        """Store a new lobby (its ``id`` and ``version`` are ignored); returns it with its id."""

    @abstractmethod
    async def get_lobby(self, lobby_id: int) -> LobbyRecord | None: ...

    @abstractmethod
    async def update_lobby(self, lobby: LobbyRecord, expected_version: int) -> LobbyRecord:
        """Replace a lobby's answers, status, game and message if it is still at
        ``expected_version``; StaleVersion otherwise. Returns it at the next version. A
        ``message_id`` of None keeps the stored one (an answer may have read the lobby before
        ``set_lobby_message`` recorded it)."""

    @abstractmethod
    async def open_rematch(self, lobby: LobbyRecord, now: float) -> tuple[LobbyRecord, bool]:
        """Store ``lobby`` (its ``rematch_of`` set) unless an invitation to the same rematch
        is still open: returns ``(the new lobby, True)``, or ``(the open one, False)``.

        One transaction, and a unique key on the open lobbies' ``rematch_of``: presses at the
        same moment in any number of processes store one lobby. An open lobby that can no
        longer be answered is marked expired first and does not count: one past its
        ``expires_at``, or one created more than ``UNPOSTED_SECONDS`` before ``now`` that has
        no message (its process died before posting it, or before storing which message it
        was)."""

    @abstractmethod
    async def set_lobby_message(self, lobby_id: int, message_id: int) -> bool:
        """Remember the message that carries the lobby's buttons, unless it already has one:
        returns whether ``message_id`` is the lobby's message now (the first one recorded
        stays). StoreError for an unknown lobby. The version does not change, as for
        ``set_message``: an answer pressed the moment the invitation appears must not be told
        that someone else pressed first."""

    @abstractmethod
    async def open_lobbies_of(self, user_id: int, guild_id: int, now: float) -> list[LobbyRecord]:
        """The lobbies still open on a server (``guild_id``) that ``user_id`` hosts, has a seat
        at or is invited to without having declined, oldest first (for /mygames). One past its
        ``expires_at`` at ``now`` is left out: it can no longer be answered, though its status
        says open until the sweep (``lobbies_due``) or a press marks it expired. A lobby whose
        row cannot be read is skipped."""

    @abstractmethod
    async def games_in_play_of(self, user_id: int, guild_id: int) -> list[tuple[int, int]]:
        """The games in play on ``guild_id`` where ``user_id`` holds a seat (left or not), as
        (game id, channel id), oldest first: the games-at-once count, which reads only the
        seats (``games_of_member`` parses every state, 7 ms for nine games on PostgreSQL)."""

    @abstractmethod
    async def claim_seating(self, user_id: int, guild_id: int, holder: str, lease: float) -> bool:
        """Claim the right to seat ``user_id`` on ``guild_id`` for ``lease`` seconds, as
        ``holder`` (a token of the request's own): True when claimed, False while another
        holder's claim runs. Several processes sharing the store claim through one row, so of
        two requests seating one member at the same moment only one counts their games and
        stores its own at a time (``seating``). A claim past its lease may be taken over."""

    @abstractmethod
    async def release_seating(self, user_id: int, guild_id: int, holder: str) -> None:
        """Let go of ``holder``'s claim (``claim_seating``); nothing if it was taken over."""

    @contextlib.asynccontextmanager
    async def seating(
        self,
        user_id: int,
        guild_id: int,
        *,
        lease: float = SEATING_LEASE,
        wait: float = SEATING_WAIT,
    ) -> AsyncIterator[None]:
        """Hold ``user_id``'s claim to be seated on ``guild_id`` (``claim_seating``) inside the
        block, waiting for another request's claim, in this process or another, to be let go
        (or to run out, should its process have died holding it); ``SeatingBusy`` once
        ``wait`` seconds have passed without it."""
        holder = uuid.uuid4().hex
        give_up = asyncio.get_running_loop().time() + wait
        while not await self.claim_seating(user_id, guild_id, holder, lease):
            if asyncio.get_running_loop().time() >= give_up:
                raise SeatingBusy(f"member {user_id} is being seated on {guild_id} elsewhere")
            await asyncio.sleep(SEATING_POLL)
        try:
            yield
        finally:
            await self.release_seating(user_id, guild_id, holder)

    @abstractmethod
    async def lobbies_due(
        self, now: float, limit: int, shards: Shards | None = None
    ) -> list[LobbyRecord]:
        """Open lobbies past their ``expires_at`` at ``now``, the longest overdue first, at
        most ``limit`` of them (for the sweep that marks them expired); with ``shards``, only
        those on a server those shards hold (or on none), so a process never returns lobbies
        it leaves to another, and another's backlog never takes up its ``limit``.

        A due lobby whose row cannot be read is marked expired here instead (nobody can answer
        it, and it would come back at every call ahead of the readable ones)."""

    @abstractmethod
    async def lobbies_to_reshow(self, limit: int, shards: Shards | None = None) -> list[int]:
        """The ids of at most ``limit`` open lobbies (on the servers ``shards`` hold, or on
        none) whose closing time ``resume_timers`` moved on since their message last showed
        it, lowest first: the mark outlives the process, so a stop before their messages
        were edited leaves them to the next start."""

    @abstractmethod
    async def lobby_reshown(self, lobby_id: int, version: int) -> bool:
        """Clear ``lobbies_to_reshow``'s mark on a lobby whose message now shows it as it was at
        ``version``; the version does not change. False (the mark stays) when the lobby has
        moved on meanwhile: a press changed it, and it is drawn again."""

    @abstractmethod
    async def delete_closed_lobbies(
        self, before: float, limit: int, shards: Shards | None = None
    ) -> int:
        """Delete at most ``limit`` closed lobbies (started, cancelled, expired) whose
        ``expires_at`` is before ``before``, the longest past first; with ``shards``, only those
        on a server those shards hold (or on none). How many were deleted.

        The newest lobby is kept, whatever its status: a new lobby's id is then always higher
        than every id handed out before (SQLite would number it one above the highest left),
        so an old message's buttons never name a lobby opened since."""

    @abstractmethod
    async def add_abort_vote(self, game_id: int, user_id: int) -> frozenset[int]:
        """Record that a member wants the game aborted; every member who does so far. A move
        (``record_move``) lets every vote cast before it lapse."""

    @abstractmethod
    async def abort_votes(self, game_id: int) -> frozenset[int]:
        """The members who asked or agreed to abort the game."""

    @abstractmethod
    async def daily_claimed(self, claim: DailyClaim) -> bool:
        """Whether the member has been dealt that daily deal (``create_game`` claims it)."""

    @abstractmethod
    async def secret(self, name: str, make: Callable[[], str]) -> str:
        """The bot's secret called ``name``, made with ``make()`` and kept the first time.

        Two processes asking at once get the same value: the first insert wins.
        """

    # -- guild settings ---------------------------------------------------------------------

    @abstractmethod
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings; the defaults (no turn timer) when it has none stored."""

    @abstractmethod
    async def set_guild_settings(self, settings: GuildSettings) -> None:
        """Store the guild's settings, replacing any stored before."""

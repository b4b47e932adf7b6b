"""The seam between front ends (Discord cogs, the console) and the games.

Everything a front end does to a game goes through :class:`Tables`: start a game in a channel,
apply a member's move (seat lookup, per-channel lock, engine, one store transaction), let the
computer seats move, let a member leave, and hand back views. It imports no Discord types, so it
is tested with a temporary database and nothing else, and the local console drives the very
same code. It never names a game: everything game-specific comes from the game's bundle.

Every stored move also stores when the game must be looked at next (``Store.record_move``'s
timer), so nothing waits in memory only:

* a computer seat is due → a deadline a few seconds ahead. The bot normally answers at once and
  that answer replaces the timer; if it crashed in between, the sweep (or the next request that
  touches the game) lets the computer move — exactly once, under the channel lock and the
  store's version check;
* a member must decide in a reaction window (the engine names a default action for the seat)
  → the guild's reaction deadline; when it passes the bot plays the default;
* a member's turn in a guild with a turn timer → a reminder at half time and the deadline.

``wake`` (driven by ``bot.timers.sweep``) handles whichever is due; ``remind_turn`` the
reminders. A finished game gets its result recorded (leaderboards), and ``replay`` rebuilds a
finished game from its deal and move log.

What a request reads the game as is a :class:`~bot.position.Position` (``bot/position.py``);
the move log's marks and its replay are ``bot/move_log.py``'s, and how typed text is read is
``bot/typed_moves.py``'s.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.engine.core import Game, GameError, IllegalMove, NotationError, NotYourTurn
from bot.games import bundle, get_policy
from bot.games.bundle import MoveChoice, PolicyFactory
from bot.games.registry import choose_move, policy_factory
from bot.move_log import LATE_MARK, LEAVE, late_turns_in_a_row, replay_frames, replay_states
from bot.names import distinct_names
from bot.position import Position, move_caption, round_ended
from bot.results import ASSISTED, on_best_board, result_of
from bot.store.base import (
    ChannelBusy,
    DailyClaim,
    DailyClaimed,
    DuplicateInteraction,
    GuildSettings,
    MoveRecord,
    SeatRecord,
    StaleVersion,
    Store,
    StoredGame,
)
from bot.typed_moves import MAX_MOVE_TEXT, TOO_LONG, typed_move
from bot.updates import (
    DailyDealt,
    NoGameHere,
    NoReplay,
    NotSeated,
    StaleButton,
    Step,
    TableBusy,
    TableUpdate,
    Timeout,
)

__all__ = [
    "MoveChoice",
    "NoGameHere",
    "NoReplay",
    "NotSeated",
    "StaleButton",
    "Step",
    "TableBusy",
    "TableUpdate",
    "Tables",
    "Timeout",
]

log = logging.getLogger(__name__)

DAILY_DEALT = (
    "You have already been dealt today's deal (an aborted one counts too). "
    "A new one comes at midnight UTC."
)
NO_GAME_HERE = "There is no game running in this channel. Start one with /play."
EARLIER_TURN = (
    "That is from an earlier turn. Use the buttons on the newest table "
    "(or /table to post it again)."
)
NOT_THIS_TABLE = (
    "That does not match this table. Use the buttons on the newest table "
    "(or /table to post it again)."
)
"""A turn mark (a button's, a suggestion's) past the game's stored version: no real button or
suggestion was ever shown for it, so it is forged or from another copy of the game, and "an
earlier turn" would be untrue."""
ALREADY_MADE = "You have already made that move."
"""A button pressed again once its move was made (a double click): "from an earlier turn" left
the member wondering whether their move counted. Followed by what they may do now."""
NEXT_MOVE = "Use the newest table for your next one (or /table to post it again)."
PLAYED_FOR_YOU = (
    "Your time ran out, so the computer played that turn for you. Use the newest table "
    "(or /table to post it again)."
)
WINDOW_CLOSED = "Your time to react ran out, so the bot answered for you: {answer}."
"""A reaction's button pressed after its window ran out and the bot played the default: "from
an earlier turn" did not say that the chance to react had passed, nor what was played."""
ABORTED_NOT_REPLAYED = "your game #{game} here was aborted, and aborted games are not replayed."
NO_REPLAY_BEFORE = "This game was played before Junction kept replays, so it cannot be replayed."

IDLE_TURNS = 3
"""Under ``on_timeout: computer``, once every member still playing has had this many turns in a
row played by the computer, the game ends with no result: nobody plays it any more, and the
computer would play it to its end and rate it, in a channel nobody may read."""

TIMED_OUT_TURN_MOVES = 40
"""At most this many moves of a late member's turn are played for them at once (a turn that
never ends must not hold the channel's lock forever)."""

_STALE_RETRIES = 3  # retries when another process stored a move first (PostgreSQL shards)
COMPUTER_GRACE = 3.0  # seconds before the sweep steps in for a computer seat that is due
_SETTINGS_TTL = 30.0  # seconds a guild's settings are cached
_QUICK_CHECK_AFTER = 3  # rounds of computer moves in one request between asks of who is left


Thinker = Callable[[PolicyFactory, Any, str], Awaitable[str]]
"""Runs ``choose_move(policy factory, view, seed)`` somewhere off the event loop."""


async def _think_in_thread(factory: PolicyFactory, view: Any, seed: str) -> str:
    return await asyncio.to_thread(choose_move, factory, view, seed)


LEFT_THE_GAME = "You have left this game; the players still in it decide."


class Tables:
    """Games in channels, backed by a store.

    ``clock`` gives the time (Unix seconds) for result records and timers; tests pass their
    own to move time forward without waiting.
    """

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        thinker: Thinker | None = None,
        *,
        record_results: bool = True,
    ) -> None:
        self.store = store
        self.clock = clock
        # The console plays in the bot's database but is nobody's Discord account: its games
        # must not rank on the servers' boards (anyone with a shell could stack a deck).
        self.record_results = record_results
        # A result's write failed: settle_missing should run at the next sweep.
        self.settle_due = False
        # Where computer players think: a thread by default; the bot passes a worker process.
        self.thinker: Thinker = thinker or _think_in_thread
        # Weak: a channel's lock lives only while a move holds or awaits it, so a bot that has
        # served many channels does not keep a lock for every one of them.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._settings: dict[int, tuple[float, GuildSettings]] = {}

    def lock(self, channel_id: int) -> asyncio.Lock:
        """One lock per channel: moves in a channel are applied one at a time."""
        found = self._locks.get(channel_id)
        if found is None:
            found = self._locks[channel_id] = asyncio.Lock()
        return found

    # --- reading --------------------------------------------------------------------------

    def position(self, stored: StoredGame) -> Position:
        """The stored game with its state rebuilt (a CorruptSave if it cannot be read)."""
        found = bundle(stored.game_key)
        return Position(stored, found, found.game.from_dict(stored.state))

    async def current(self, channel_id: int) -> StoredGame:
        stored = await self.store.active_game(channel_id)
        if stored is None:
            raise NoGameHere(NO_GAME_HERE)
        return stored

    async def game_by_id(self, game_id: int) -> StoredGame:
        stored = await self._find_game(game_id)
        if stored is None:
            raise NoGameHere("That game no longer exists.")
        return stored

    async def _find_game(self, game_id: int) -> StoredGame | None:
        """The game with this id, if any (an id beyond the database's integers, such as a
        forged button's, names none)."""
        return await self.store.get_game(game_id) if 0 <= game_id < 2**63 else None

    async def table(self, channel_id: int) -> TableUpdate:
        """The channel's game as it stands (after any computer move that was due)."""
        async with self.lock(channel_id):
            here = self.position(await self.current(channel_id))
            here, steps = await self._catch_up(here)
            return await self._update(here, steps)

    def seat_of(self, stored: StoredGame, user_id: int) -> int:
        for record in stored.seats:
            if record.user_id == user_id:
                return record.seat
        raise NotSeated("You are not playing in this game; only its players can do that.")

    def private_view(self, here: Position, user_id: int) -> Any:
        """A seated member's own view (their hand); anyone else is refused."""
        return here.game.private_view(here.state, self.seat_of(here.stored, user_id))

    def hand(self, stored: StoredGame, user_id: int) -> tuple[Any, list[MoveChoice]]:
        """A seated member's private view and legal moves, from one rebuild of the state."""
        here = self.position(stored)
        return self.private_view(here, user_id), self.legal_moves(here, user_id)

    def legal_moves(self, here: Position, user_id: int) -> list[MoveChoice]:
        """The member's legal moves now, for menus and autocomplete (empty if not their turn)."""
        seat = self.seat_of(here.stored, user_id)
        if seat not in here.acting:
            return []
        game, state = here.game, here.state
        return [
            MoveChoice(game.format_action(a), game.describe_action(state, seat, a))
            for a in game.legal_actions(state, seat)
        ]

    # --- starting ----------------------------------------------------------------------------

    async def start(
        self,
        *,
        channel_id: int,
        guild_id: int | None,
        game_key: str,
        seats: Sequence[SeatRecord],
        options: Mapping[str, str] | None = None,
        seed: int | None = None,
        labels: Mapping[str, str] | None = None,
        deck: Sequence[str] | None = None,
        before_computers: Callable[[], Awaitable[None]] | None = None,
        daily: DailyClaim | None = None,
    ) -> TableUpdate:
        """Deal a new game in a channel and let computer seats open if they sit first.

        ``daily``: the game is a member's daily deal, claimed with the game in one transaction
        (DailyDealt if it was claimed before).

        ``before_computers`` is awaited once the game is stored, when computers move first
        (see ``move``)."""
        found = bundle(game_key)
        game = found.game
        seats = distinct_names(seats)
        members = [s.user_id for s in seats if s.user_id is not None]
        if len(members) != len(set(members)):
            raise IllegalMove("A member can hold only one seat: you cannot play against yourself.")
        for record in seats:
            if record.policy is not None:
                get_policy(found.key, record.policy)  # unknown policy: a readable error now
        async with self.lock(channel_id):
            if await self.store.active_game(channel_id) is not None:
                raise TableBusy(
                    "A game is already running in this channel. Finish it, or /resign or "
                    "/abort it first."
                )
            seed = secrets.randbelow(2**31) if seed is None else seed
            state = game.new_game([s.name for s in seats], seed, options, deck)
            computer_first = any(seats[s].is_computer for s in game.to_act(state))
            try:
                stored = await self.store.create_game(
                    channel_id=channel_id,
                    guild_id=guild_id,
                    game_key=found.key,
                    seats=list(seats),
                    # Labels (e.g. the daily deal's date) ride with the options into results.
                    options={**game.resolve_options(options), **(labels or {})},
                    state=game.to_dict(state),
                    deadline=self.clock() + COMPUTER_GRACE if computer_first else None,
                    daily=daily,
                )
            except ChannelBusy:
                raise TableBusy("A game is already running in this channel.") from None
            except DailyClaimed:
                raise DailyDealt(DAILY_DEALT) from None
            here = Position(stored, found, state)
            if before_computers is not None and here.computers_due():
                await _answer_first(before_computers)
            steps, here = await self._computer_turns(here)
            if not steps:
                here = await self._arm(here)
            await self._settle(here)
        update = await self._update(here, steps)
        if steps:
            # Computers moved first: say why, from the deal's public view (the only view a
            # channel may see), before their moves.
            dealt = str(getattr(game.public_view(state), "caption", "") or "").strip()
            update = replace(update, dealt=dealt)
        return update

    # --- moving -----------------------------------------------------------------------------

    async def move(
        self,
        *,
        channel_id: int,
        user_id: int,
        action: str,
        interaction_id: str | None = None,
        game_id: int | None = None,
        expected_version: int | None = None,
        shown_at: int | None = None,
        before_computers: Callable[[], Awaitable[None]] | None = None,
    ) -> TableUpdate:
        """Apply a member's move, stored before this returns, then the computer's replies.

        ``game_id`` and ``expected_version`` come from a button (or an autocomplete choice): a
        move made for another game or an earlier turn is refused rather than applied to a
        position it was not made for. ``shown_at``: the version a hand (or a choice) was shown
        at, for a decision several seats make at once; while it still stands
        (``decision_shown``, read under the channel's lock), another seat's choice stored
        first does not make this one stale. A repeated ``interaction_id`` returns the table without
        applying anything twice. ``before_computers`` is awaited once the member's move is
        stored, when computers are to answer it: an expert may think for a while, so the bot
        acknowledges the interaction first (the move can no longer be refused by then).
        """
        # Typed text is read once here, for every game and front end. The cap comes first
        # and again after: folding can lengthen text ('ﷺ' is 18 letters), and a refusal
        # quotes what it could not read.
        if len(action) > MAX_MOVE_TEXT:
            raise NotationError(TOO_LONG)
        typed = typed_move(action)
        if len(typed) > MAX_MOVE_TEXT:
            raise NotationError(TOO_LONG)
        async with self.lock(channel_id):
            for attempt in range(_STALE_RETRIES):
                here = await self._here(channel_id, game_id)
                here, before_steps = await self._catch_up(here)
                if expected_version is not None and here.stored.version != expected_version:
                    stale = await self._stale(
                        here.stored, user_id, typed, expected_version, shown_at
                    )
                    if stale is not None:
                        raise stale
                game, stored = here.game, here.stored
                seat = self.seat_of(stored, user_id)
                if seat not in here.acting:
                    raise NotYourTurn(await self.refusal(here, seat))
                parsed = game.parse_for(here.state, seat, typed)
                previous = game.public_view(here.state)
                new_state = game.apply(here.state, seat, parsed)
                text = game.format_action(parsed)
                try:
                    after = await self._commit(here, seat, text, new_state, interaction_id)
                except DuplicateInteraction:
                    latest = self.position(await self.game_by_id(stored.id))
                    return await self._update(latest, (), repeated=True)
                except StaleVersion:
                    if attempt + 1 < _STALE_RETRIES and expected_version is None:
                        continue
                    raise StaleButton(
                        "Someone moved at the same moment; look at the table and try again."
                    ) from None
                step = Step(
                    seat,
                    text,
                    move_caption(game, here.state, new_state),
                    False,
                    round_ended=round_ended(here.bundle, here.state, new_state),
                )
                if before_computers is not None and after.computers_due():
                    await _answer_first(before_computers)
                more, after = await self._computer_turns(after)
                await self._settle(after)
                return await self._update(after, (*before_steps, step, *more), previous=previous)
        raise AssertionError("unreachable")  # pragma: no cover

    async def leave(
        self,
        *,
        channel_id: int,
        user_id: int,
        before_computers: Callable[[], Awaitable[None]] | None = None,
    ) -> TableUpdate:
        """The member leaves the game: with two seats they lose; with more the others play on.

        ``before_computers`` is awaited once the leaving is stored, when computers are to move
        next (as for ``move``: the front end answers first, the computers think after)."""
        async with self.lock(channel_id):
            here = await self._here(channel_id, None)
            seat = self.seat_of(here.stored, user_id)
            previous = here.game.public_view(here.state)
            try:
                here, step = await self._leave_seat(here, seat, None)
            except StaleVersion:
                raise StaleButton("Someone moved at the same moment; try again.") from None
            if before_computers is not None and here.computers_due():
                await _answer_first(before_computers)
            more, here = await self._computer_turns(here)
            await self._settle(here)
        return await self._update(here, (step, *more), previous=previous)

    async def abort(self, *, channel_id: int) -> StoredGame:
        """End the channel's game with no result, at once. The front end has decided it may:
        its last member still playing asks, a moderator ends it, its channel was deleted, the
        console starts anew. Where several members must agree, ``vote_abort`` counts them."""
        async with self.lock(channel_id):
            return await self._end_with_no_result(await self.current(channel_id))

    async def vote_abort(self, *, game_id: int, user_id: int) -> tuple[StoredGame, bool]:
        """A member asks (or agrees) to abort; True when every member has, and it is aborted.

        The first vote is the request; only the game's other members still playing can add
        theirs, each once, before the next move (a move lets the votes lapse). Votes are
        stored, so nobody can agree on someone else's behalf.
        """
        stored = await self.game_by_id(game_id)
        if stored.status != "active":
            raise GameError("That game has already ended.")
        seat = self.seat_of(stored, user_id)
        playing = await self.members_playing(stored)
        if all(s.seat != seat for s in playing):
            raise GameError(LEFT_THE_GAME)
        members = {s.user_id for s in playing}
        voted = await self.store.abort_votes(game_id)
        if user_id in voted and not members <= voted:
            raise GameError("You have already asked for this; the other players must agree.")
        # Everyone agreed already (a crash came between the last vote and the abort): this
        # request completes it.
        votes = voted if user_id in voted else await self.store.add_abort_vote(game_id, user_id)
        if not members <= votes:
            return stored, False
        async with self.lock(stored.channel_id):
            current = await self.game_by_id(game_id)
            if current.status != "active":
                raise GameError("That game has already ended.")
            ended = await self._end_with_no_result(current)
        return ended, True

    # --- timers -------------------------------------------------------------------------------

    async def remind_turn(self, game_id: int) -> TableUpdate | None:
        """Take a due reminder off the game (its deadline stays) and return the table.

        None when there is nothing to remind: the game ended, or its reminder was already
        taken (another sweep) or is not due yet. The front end then mentions
        ``update.waiting_members``.
        """
        found = await self.store.get_game(game_id)
        if found is None or found.status != "active":
            return None
        async with self.lock(found.channel_id):
            stored = await self.store.get_game(game_id)
            if stored is None or stored.status != "active":
                return None
            if stored.remind_at is None or stored.remind_at > self.clock():
                return None
            await self.store.set_timer(stored.id, remind_at=None, deadline=stored.turn_deadline)
            return await self._update(self.position(replace(stored, remind_at=None)), ())

    async def wake(self, game_id: int) -> TableUpdate | None:
        """Do what a game's passed deadline calls for; None when nothing was due.

        A computer seat that is due moves. A reaction window that ran out gets each waiting
        member's default ("no reaction"). A member's turn that ran out is played by the
        computer or forfeited, as the guild's ``on_timeout`` says; once the computer has played
        the last ``IDLE_TURNS`` turns of every member still playing, the game ends with no
        result instead of going on. The update's ``timeout`` says who ran out of time and what
        happened; its steps list the moves made.
        """
        found = await self.store.get_game(game_id)
        if found is None or found.status != "active":
            return None
        async with self.lock(found.channel_id):
            # Read again under the lock: a move may have landed (and moved the deadline) while
            # this request waited for it.
            stored = await self.store.get_game(game_id)
            if stored is None or stored.status != "active":
                return None
            if stored.turn_deadline is None or stored.turn_deadline > self.clock():
                return None
            here = self.position(stored)
            previous = here.game.public_view(here.state)
            timeout: Timeout | None = None
            steps: list[Step] = []
            if not here.computers_due():
                reacting = here.reacting()
                waiting = [s for s in here.acting if not here.stored.seats[s].is_computer]
                if reacting:
                    game = here.game
                    answers = tuple(
                        game.describe_action(here.state, s, default)
                        for s in reacting
                        if (default := game.default_action(here.state, s)) is not None
                    )
                    late = tuple(stored.seats[s] for s in reacting)
                    timeout = Timeout(late, "default", answers)
                    steps, here = await self._play_defaults(here, reacting)
                elif waiting and await self._on_timeout(stored) == "forfeit":
                    late = tuple(stored.seats[s] for s in waiting)
                    playing = {s.seat for s in await self.members_playing(stored)}
                    if len(playing) >= 2 and playing <= set(waiting):
                        # Everyone still playing is late, and equally so: nobody wins by it.
                        ended = await self._end_with_no_result(stored)
                        abandon = Timeout(late, "abandon")
                        return await self._update(
                            self.position(ended), (), previous=previous, timeout=abandon
                        )
                    timeout = Timeout(late, "forfeit")
                    for seat in waiting:
                        if here.game.outcome(here.state) is not None or seat not in here.acting:
                            break
                        # The timeout's own line says it; the step needs no caption of its own.
                        here, step = await self._leave_seat(here, seat, "")
                        steps.append(step)
                elif waiting:
                    timeout = Timeout(tuple(stored.seats[s] for s in waiting), "computer")
                    steps, here = await self._play_for(here, waiting)
                    away = await self._members_away(here) if steps else ()
                    if away:
                        # Before the computers' replies: nobody is left to play them for.
                        ended = await self._end_with_no_result(here.stored)
                        idle = Timeout(away, "idle")
                        # The late turn just played is on the table's image: its line is said.
                        return await self._update(
                            self.position(ended), steps, previous=previous, timeout=idle
                        )
                else:
                    await self.store.set_timer(stored.id, remind_at=None, deadline=None)
                    return None
            more, here = await self._computer_turns(here)
            if not steps and not more:
                return None
            await self._settle(here)
        return await self._update(here, (*steps, *more), previous=previous, timeout=timeout)

    async def _stale(
        self,
        stored: StoredGame,
        user_id: int,
        typed: str,
        expected_version: int,
        shown_at: int | None,
    ) -> StaleButton | None:
        """The refusal of a move offered at ``expected_version`` (from a hand shown at
        ``shown_at``) to a game now at another version: None while the decision that hand
        offered still stands (``decision_shown``). The move log is read at most once, for that
        and for every reason the refusal may give."""
        if shown_at is None and expected_version > stored.version:
            return StaleButton(NOT_THIS_TABLE)
        moves = await self.store.moves(stored.id)
        # Two victims pressing their sides at once both read the same version before either
        # held the lock: the second's decision still stands.
        if (
            shown_at is not None
            and await self.decision_shown(stored, user_id, shown_at, moves=moves) is not None
        ):
            return None
        if expected_version > stored.version:
            return StaleButton(NOT_THIS_TABLE)
        since = expected_version if shown_at is None else shown_at
        first = await self.first_move_since(stored, user_id, since, moves=moves)
        made = await self.already_made(stored, first, typed, moves=moves)
        if made is None and played_for(first):
            made = PLAYED_FOR_YOU
        if made is None and await self.has_left(stored, user_id, moves=moves):
            made = LEFT_THE_GAME
        if made is None:
            made = await self.window_closed(stored, first, moves=moves)
        return StaleButton(made or EARLIER_TURN)

    async def _moves_of(
        self, stored: StoredGame, moves: Sequence[MoveRecord] | None
    ) -> Sequence[MoveRecord]:
        """The game's move log: ``moves`` when the caller read it already (a refusal reads it
        once for all its reasons), else read now."""
        return await self.store.moves(stored.id) if moves is None else moves

    # --- decisions made at the same time -------------------------------------------------------

    async def still_deciding(self, stored: StoredGame, user_id: int, since: int) -> bool:
        """Whether the decision a member was offered at version ``since`` still stands (see
        ``decision_shown``)."""
        return await self.decision_shown(stored, user_id, since) is not None

    async def decision_shown(
        self,
        stored: StoredGame,
        user_id: int,
        since: int,
        *,
        moves: Sequence[MoveRecord] | None = None,
    ) -> Position | None:
        """The position a member's hand was shown at, while the decision it offered still
        stands: the game moved on only by other seats' moves, and the member must still make
        the same choice (None otherwise).

        Several seats may decide at once (every victim's side in a stampede, everyone's
        opening tickets): a member's hand shown before another chose stays good, while a hand
        the member has acted on since (a double click) does not. Nor does one whose decision
        changed under it: an attacker who leaves closes the victim's window and may hand the
        victim the turn, where an old "Coup fourré!" button would play an ordinary safety.
        ``moves``: the move log, when the caller read it already (``_moves_of``).
        """
        if stored.status != "active" or not 0 <= since <= stored.version:
            return None
        seat = self.seat_of(stored, user_id)
        here = self.position(stored)
        if seat not in here.acting:
            return None
        if since == stored.version:
            return here
        moves = await self._moves_of(stored, moves)
        if any(move.seq > since and move.seat == seat for move in moves):
            return None
        shown = await self.as_of(stored, since, moves=moves)
        if shown is None or seat not in shown.acting:
            return None
        game = here.game
        if game.legal_actions(shown.state, seat) != game.legal_actions(here.state, seat):
            return None
        return shown

    async def first_move_since(
        self,
        stored: StoredGame,
        user_id: int,
        since: int,
        *,
        moves: Sequence[MoveRecord] | None = None,
    ) -> MoveRecord | None:
        """The member's first stored move after version ``since`` (None: none yet, or not
        seated), read once for every reason a move offered then may be refused now
        (``own_move``, ``played_for``, ``already_made``). ``moves``: the move log, when the
        caller read it already (``_moves_of``)."""
        try:
            seat = self.seat_of(stored, user_id)
        except NotSeated:
            return None
        moves = await self._moves_of(stored, moves)
        return next((m for m in moves if m.seq > since and m.seat == seat), None)

    async def window_closed(
        self,
        stored: StoredGame,
        first: MoveRecord | None,
        *,
        moves: Sequence[MoveRecord] | None = None,
    ) -> str | None:
        """When the member's move ``first`` (``first_move_since``) is the default the bot played
        for them as their reaction window ran out, the refusal that says so and what it played
        ("no reaction", a side): None otherwise. A window's default is the one move of a
        member's seat stored with no interaction id that is not their leaving. ``moves``: the
        move log, when the caller read it already (``_moves_of``)."""
        if first is None or first.interaction_id is not None or first.action == LEAVE:
            return None
        before = await self.as_of(stored, first.seq - 1, moves=moves)
        if before is None:
            return None
        game = before.game
        default = game.default_action(before.state, first.seat)
        if default is None or game.format_action(default) != first.action:
            return None
        answer = game.describe_action(before.state, first.seat, default)
        said = WINDOW_CLOSED.format(answer=answer[:1].lower() + answer[1:])
        return f"{said} {NEXT_MOVE}"

    async def already_made(
        self,
        stored: StoredGame,
        first: MoveRecord | None,
        action: str,
        *,
        moves: Sequence[MoveRecord] | None = None,
    ) -> str | None:
        """When ``action``, offered to a member before their move ``first``
        (``first_move_since``: a button, a suggestion), is that very move — a double click
        whose first press was applied — the refusal that says so, and what they may do now
        (None otherwise: it is only from an earlier turn). ``moves``: the move log, when the
        caller read it already (``_moves_of``)."""
        made = own_move(first)
        if made is None:
            return None
        here = self.position(stored)
        try:
            again = here.game.format_action(here.game.parse_action(typed_move(action)))
        except GameError:
            return None
        if again != made.action:
            return None
        if made.seat in here.acting:
            return f"{ALREADY_MADE} {NEXT_MOVE}"
        # Not theirs to move now: why (the others choosing their tickets, a turn) helps more
        # than a table to press on.
        return f"{ALREADY_MADE} {await self.refusal(here, made.seat, moves=moves)}"

    async def as_of(
        self, stored: StoredGame, version: int, *, moves: Sequence[MoveRecord] | None = None
    ) -> Position | None:
        """The game as it stood at ``version``, rebuilt from its deal and move log (None if
        the log cannot rebuild it), for reading a button shown then. ``moves``: the move log,
        when the caller read it already (``_moves_of``)."""
        if version == stored.version:
            return self.position(stored)
        initial = await self.store.initial_state(stored.id)
        if initial is None:
            return None
        moves = [move for move in await self._moves_of(stored, moves) if move.seq <= version]
        found = bundle(stored.game_key)
        played, state = await asyncio.to_thread(
            lambda: deque(replay_states(found.game, initial, moves), maxlen=1)[0]
        )
        if played != len(moves):
            return None
        earlier = replace(stored, version=version, state=found.game.to_dict(state))
        return Position(earlier, found, state)

    # --- replays ---------------------------------------------------------------------------------

    async def last_replayable(self, channel_id: int, user_id: int | None = None) -> StoredGame:
        """The channel's last finished game, if it can be replayed (else a readable refusal
        that says when ``user_id``'s own game here was aborted, ``aborted_here``)."""
        last = await self.store.last_finished_game(channel_id)
        if last is None:
            aborted = None if user_id is None else await self.aborted_here(channel_id, user_id)
            said = "No game has finished in this channel yet"
            if aborted is None:
                raise NoReplay(f"{said}.")
            raise NoReplay(f"{said}: {ABORTED_NOT_REPLAYED.format(game=aborted.id)}")
        if await self.store.initial_state(last.id) is None:
            raise NoReplay(NO_REPLAY_BEFORE)
        return last

    async def aborted_here(
        self, channel_id: int, user_id: int, after: int = 0
    ) -> StoredGame | None:
        """The member's last game in this channel, when it was aborted and is newer than game
        ``after``: /replay shows the last finished game, and without a word the member took
        it for the game they had just aborted."""
        mine = [g for g in await self.store.games_of_member(user_id) if g.channel_id == channel_id]
        ended = [g for g in mine if g.status != "active" and g.id > after]
        last = max(ended, key=lambda g: g.id, default=None)
        return last if last is not None and last.status == "aborted" else None

    async def replay(self, game_id: int) -> list[Any]:
        """The public view after every move of an ended game; frame 0 is the deal.

        Rebuilt from the stored deal and the move log, so it shows exactly what the table
        showed. Public views only: no frame can reveal a hand.
        """
        stored = await self.game_by_id(game_id)
        if stored.status == "active":
            raise NoReplay("Replays are for finished games; this one is still being played.")
        initial = await self.store.initial_state(game_id)
        if initial is None:
            raise NoReplay(NO_REPLAY_BEFORE)
        moves = await self.store.moves(game_id)
        # Replaying hundreds of moves is CPU work: keep it off the event loop.
        return await asyncio.to_thread(replay_frames, bundle(stored.game_key).game, initial, moves)

    # --- internals --------------------------------------------------------------------------

    async def _here(self, channel_id: int, game_id: int | None) -> Position:
        """The channel's game; a button naming another game is told what became of it."""
        stored = await self.store.active_game(channel_id)
        if game_id is not None and (stored is None or stored.id != game_id):
            other = await self._find_game(game_id)
            if other is None:
                raise StaleButton("That button does not belong to any game.")
            if other.status == "active":
                raise StaleButton(
                    f"That button belongs to a game in another channel (<#{other.channel_id}>)."
                )
            raise StaleButton("That button belongs to a game that has ended.")
        if stored is None:
            raise NoGameHere(NO_GAME_HERE)
        return self.position(stored)

    async def _end_with_no_result(self, stored: StoredGame) -> StoredGame:
        """Store the game as aborted, as it stands: no result is recorded, no rating moves."""
        return await self.store.end_game(
            game_id=stored.id,
            expected_version=stored.version,
            status="aborted",
            state=stored.state,
        )

    async def _catch_up(self, here: Position) -> tuple[Position, list[Step]]:
        """Let computer seats that are due move first (a crash left them waiting)."""
        if not here.computers_due():
            return here, []
        steps, here = await self._computer_turns(here)
        await self._settle(here)
        return here, steps

    async def _leave_seat(
        self, here: Position, seat: int, caption: str | None
    ) -> tuple[Position, Step]:
        """Store a seat leaving the game (resignation or forfeit) as a move of the log."""
        new_state = here.game.leave(here.state, seat)
        after = await self._commit(here, seat, LEAVE, new_state, None)
        text = f"🏳️ {here.stored.seats[seat].name} left the game." if caption is None else caption
        return after, Step(seat, LEAVE, text, False, left=True)

    async def _play_defaults(
        self, here: Position, seats: Sequence[int]
    ) -> tuple[list[Step], Position]:
        """Each seat's default action (its reaction window closed), stored like any move."""
        steps: list[Step] = []
        for seat in seats:
            default = here.game.default_action(here.state, seat)
            if default is None or seat not in here.acting:
                continue  # an earlier default already closed this window
            text = here.game.format_action(default)
            before = here.state
            new_state = here.game.apply(before, seat, default)
            try:
                here = await self._commit(here, seat, text, new_state, None, defaulted=True)
            except StaleVersion:
                break
            ended = round_ended(here.bundle, before, new_state)
            steps.append(
                Step(seat, text, here.game.caption(new_state), True, True, round_ended=ended)
            )
        return steps, here

    async def _play_for(self, here: Position, seats: Sequence[int]) -> tuple[list[Step], Position]:
        """The computer plays the turn of each member whose time ran out, to the turn's end.

        A turn may be several moves (Dragon's two actions, a race's plays and its end, two
        draws): after the first, the computer goes on while that seat alone must act,
        computers answering in between, so an absent member's turn costs one timer, not one
        a move. In a solitaire every move is a turn.
        """
        steps: list[Step] = []
        most = 1 if len(here.stored.seats) == 1 else TIMED_OUT_TURN_MOVES
        for seat in seats:
            for done in range(most):
                if here.game.outcome(here.state) is not None or seat not in here.acting:
                    break
                if done and here.acting != [seat]:
                    break
                moved, here = await self._play_one_for(here, seat)
                if moved is None:
                    return steps, here
                steps.append(moved)
                if moved.round_ended:
                    # A new hand is a new turn, even when the late member starts it (who
                    # starts a Mille Bornes hand switches): it gets its own timer.
                    break
                if seat not in here.acting:
                    # Computers answering in a reaction window: the turn goes on after them.
                    # Anyone else to act means the turn is over (or a member must react).
                    more, here = await self._computer_turns(here, windows_only=True)
                    steps += more
        return steps, here

    async def _members_away(self, here: Position) -> tuple[SeatRecord, ...]:
        """The members still playing, when every one of them has had their last ``IDLE_TURNS``
        turns in a row played by the computer (none otherwise).

        Counted from the move log's late marks, so a restart loses no count. A member out of
        the game (a Dragon driver killed) has no turns left and is not asked about."""
        if here.stored.status != "active":
            return ()
        moves = await self.store.moves(here.stored.id)
        out = here.game.out(here.state)
        playing = [s for s in await self.members_playing(here.stored) if s.seat not in out]
        if not playing or not all(_late_since_own(moves, s.seat) >= IDLE_TURNS for s in playing):
            # A member with fewer late moves since their last own one cannot have missed
            # enough turns: no need to rebuild the game to count them.
            return ()
        initial = await self.store.initial_state(here.stored.id)
        if initial is None:
            return ()  # a game from before deals were stored: it plays on as it did
        found = here.bundle
        counts = await asyncio.to_thread(
            late_turns_in_a_row,
            found.game,
            initial,
            moves,
            solitaire=len(here.stored.seats) == 1,
            ends_round=lambda before, after: round_ended(found, before, after),
        )
        if counts is None or any(counts.get(s.seat, 0) < IDLE_TURNS for s in playing):
            return ()
        return tuple(playing)

    def ranks_own_play(self, stored: StoredGame) -> bool:
        """Whether the game would reach a best-result board as the member's own play: a
        solitaire at the standard settings the computer has not helped play (``ASSISTED``)."""
        found = bundle(stored.game_key)
        return found.info.ranking.kind == "best" and on_best_board(found, stored.options)

    async def mark_assisted(self, stored: StoredGame, how: str) -> StoredGame:
        """Label a game ``ranks_own_play`` says a best-result board would rank as the member's
        own as helped by the computer (``how``: hint, timeout); the game as labelled."""
        if not self.ranks_own_play(stored):
            return stored
        await self.store.add_labels(stored.id, {ASSISTED: how})
        return replace(stored, options={**stored.options, ASSISTED: how})

    async def _play_one_for(self, here: Position, seat: int) -> tuple[Step | None, Position]:
        """One computer move for a late member's seat (None if another process moved first)."""
        here = Position(await self.mark_assisted(here.stored, "timeout"), here.bundle, here.state)
        # Seeded like _computer_turns, so the same position always gets the same move.
        seed = f"{here.stored.id}:{here.stored.version}"
        view = here.game.private_view(here.state, seat)
        chosen = await self.thinker(policy_factory(here.bundle.key), view, seed)
        action = here.game.parse_action(chosen)
        text = here.game.format_action(action)
        before = here.state
        new_state = here.game.apply(before, seat, action)
        try:
            here = await self._commit(here, seat, text, new_state, None, late=seat)
        except (StaleVersion, DuplicateInteraction):
            # Another process moved this game; what was stored so far stands. When it played
            # this very late move, its late: mark (this move's too) is what the store refuses.
            return None, here
        ended = round_ended(here.bundle, before, new_state)
        caption = move_caption(here.game, before, new_state)
        return Step(seat, text, caption, True, timed_out=True, round_ended=ended), here

    async def _on_timeout(self, stored: StoredGame) -> str:
        if stored.options.get("daily"):
            # The daily deal's board ranks the member's own play: were the computer to play
            # each late move, they could sit the deal out and rank its game as theirs.
            return "forfeit"
        if stored.guild_id is None:
            return "computer"
        return (await self._guild_settings(stored.guild_id)).on_timeout

    async def _guild_settings(self, guild_id: int) -> GuildSettings:
        cached = self._settings.get(guild_id)
        now = time.monotonic()
        if cached is not None and now - cached[0] < _SETTINGS_TTL:
            return cached[1]
        settings = await self.store.guild_settings(guild_id)
        self._settings[guild_id] = (now, settings)
        return settings

    def forget_settings(self, guild_id: int) -> None:
        """Drop a guild's cached settings (after /settings changed them)."""
        self._settings.pop(guild_id, None)

    async def time_untimed(self, guild_id: int) -> int:
        """Give the guild's games in play that wait with no timer the one its settings now
        set (after /settings turned a turn timer on); how many got one.

        A game stuck on the turn of a member who is gone (left the server, stopped answering)
        would otherwise never see the timer: settings apply from a game's next move, and none
        comes. A game already timed keeps its deadline: it applies from its next move."""
        timed = 0
        for found in await self.store.active_games():
            if found.guild_id != guild_id or found.turn_deadline is not None:
                continue
            async with self.lock(found.channel_id):
                stored = await self.store.get_game(found.id)
                if stored is None or stored.status != "active" or stored.turn_deadline is not None:
                    continue
                try:
                    here = self.position(stored)
                except GameError:  # a save that cannot be read: /abort ends it
                    log.warning("game %s: unreadable save left untimed", stored.id, exc_info=True)
                    continue
                timed += (await self._arm(here)).stored.turn_deadline is not None
        return timed

    async def _timer(
        self, stored: StoredGame, game: Game[Any, Any], state: Any
    ) -> tuple[float | None, float | None]:
        """When to look at this position again: (reminder, deadline), None for none."""
        if game.outcome(state) is not None:
            return None, None
        acting = sorted(game.to_act(state))
        now = self.clock()
        if any(stored.seats[s].is_computer for s in acting):
            return None, now + COMPUTER_GRACE
        if not acting:
            return None, None
        settings = (
            await self._guild_settings(stored.guild_id) if stored.guild_id is not None else None
        )
        if any(game.default_action(state, s) is not None for s in acting):
            seconds = settings.reaction_seconds if settings else GuildSettings(0).reaction_seconds
            return None, now + seconds
        if settings is None or settings.turn_seconds is None:
            return None, None
        return now + settings.turn_seconds / 2, now + settings.turn_seconds

    async def _commit(
        self,
        here: Position,
        seat: int,
        action_text: str,
        new_state: Any,
        interaction_id: str | None,
        *,
        late: int | None = None,
        defaulted: bool = False,
    ) -> Position:
        """Store one move with the timer of the position it leads to; the new position.

        ``late``: the move was played for a seat whose time ran out; while that seat still
        acts in the same hand, its turn stays due at once (a restart mid-turn finishes it at the
        next sweep instead of granting the absent member a fresh timer). ``defaulted``: the
        move is a window's default, played when the window ran out."""
        game = here.game
        finished = game.outcome(new_state) is not None
        remind_at, deadline = await self._timer(here.stored, game, new_state)
        if late is not None:
            # Marked in the log, so a window in the middle of the turn cannot lose it.
            interaction_id = f"{LATE_MARK}{here.stored.id}:{here.stored.version}"
            # A move that ends a hand ends the turn: the next hand's first turn is timed anew,
            # even when the late seat starts it.
            new_hand = round_ended(here.bundle, here.state, new_state)
            if not finished and not new_hand and late in game.to_act(new_state):
                remind_at, deadline = None, self.clock()
        elif remind_at is not None and await self._late_turn_resumes(
            here, seat, new_state, defaulted
        ):
            remind_at, deadline = None, self.clock()
        elif deadline is not None and self._others_still_deciding(here, seat, new_state):
            # A decision several members make at once (opening tickets, stampede sides): the
            # others' time ran from when it was offered. Timing them anew at each member's
            # choice let the slowest hold the table for a turn per member, reminded each time.
            remind_at, deadline = here.stored.remind_at, here.stored.turn_deadline
        stored = await self.store.record_move(
            game_id=here.stored.id,
            expected_version=here.stored.version,
            seat=seat,
            action=action_text,
            interaction_id=interaction_id,
            state=game.to_dict(new_state),
            status="finished" if finished else "active",
            remind_at=remind_at,
            deadline=deadline,
        )
        return Position(stored, here.bundle, new_state)

    def _others_still_deciding(self, here: Position, seat: int, new_state: Any) -> bool:
        """Whether ``seat``'s move leaves members who were deciding with it still deciding
        the same thing, timed: it was one of several to act, it is done, and those left to act
        were all acting before it. Members only: while a computer acts, the stored deadline
        is the computer's grace, not a member's time."""
        game = here.game
        before, after = game.to_act(here.state), game.to_act(new_state)
        return (
            here.stored.turn_deadline is not None
            and seat in before
            and seat not in after
            and bool(after)
            and after < before
            and not any(here.stored.seats[s].is_computer for s in before)
        )

    async def _late_turn_resumes(
        self, here: Position, seat: int, new_state: Any, defaulted: bool
    ) -> bool:
        """Whether ``seat``'s move closes a window in the middle of a turn that had already run
        out: the computer was playing a late member's turn when one of its moves opened the
        window, and the turn goes back to that member now. Its rest is then due at once, as it
        would have been without the window (a fresh timer would let an absent member hold the
        table for another full turn).

        The late member's last move is marked in the log; every move since it was an answer in
        a window (read from the positions they were made in, rebuilt from the log)."""
        game = here.game
        acting = sorted(game.to_act(new_state))
        if len(acting) != 1 or game.default_action(here.state, seat) is None:
            return False  # not a window closing on one member's turn
        if acting[0] == seat and not defaulted:
            # The late member answered a window of their own (a Jammer against the Coup
            # Fourré that met their hazard): they are back. One they let run out is not.
            return False
        owner = acting[0]
        moves = await self.store.moves(here.stored.id)
        mine = [m for m in moves if m.seat == owner]
        if not mine or not (mine[-1].interaction_id or "").startswith(LATE_MARK):
            return False
        since = [m for m in moves if m.seq > mine[-1].seq]
        shown = await self.as_of(here.stored, mine[-1].seq)
        if shown is None:
            return False
        state = shown.state
        for move in since:
            # Each move since was a window's answer while the owner waited, not a turn of its own.
            if game.default_action(state, move.seat) is None or owner in game.to_act(state):
                return False
            if move.action == LEAVE:
                return False
            state = game.apply(state, move.seat, game.parse_action(move.action))
        return True

    async def _arm(self, here: Position) -> Position:
        """Set the timer of a position that was not reached by a stored move (a new game)."""
        remind_at, deadline = await self._timer(here.stored, here.game, here.state)
        if (remind_at, deadline) == (here.stored.remind_at, here.stored.turn_deadline):
            return here
        await self.store.set_timer(here.stored.id, remind_at=remind_at, deadline=deadline)
        stored = replace(here.stored, remind_at=remind_at, turn_deadline=deadline)
        return Position(stored, here.bundle, here.state)

    async def _computer_turns(
        self, here: Position, *, windows_only: bool = False
    ) -> tuple[list[Step], Position]:
        """Let computer seats move until only members are to act or the game ends
        (``windows_only``: until no computer is deciding in a reaction window).

        Each move is stored before the next is chosen. A computer deciding in a reaction
        window decides at once, like any other computer move. Once every member has left a
        game of three or more (or is out of it, as a Dragon driver killed), the computers play
        it out with the game's default player: an expert's search is for a member's benefit,
        and nobody waits on it any more.
        """
        steps: list[Step] = []
        quick = False
        # Read once: nobody leaves while the computers move (a leave waits for the channel's
        # lock, which this request holds); only who is out changes, and the state says that.
        playing: list[SeatRecord] | None = None
        while here.game.outcome(here.state) is None:
            movers = here.computers_due()
            if windows_only:
                movers = [s for s in movers if here.game.default_action(here.state, s) is not None]
            if not movers:
                break
            seat = movers[0]
            every = _QUICK_CHECK_AFTER * len(here.stored.seats)
            if not quick and steps and len(steps) % every == 0:
                # A member still seated but out (a Dragon driver killed) decides nothing more
                # either: searching for their benefit only kept the channel waiting. Asked
                # again every few rounds: the last member driving may be killed by any move.
                if playing is None:
                    playing = await self.members_playing(here.stored)
                out = here.game.out(here.state)
                quick = all(s.seat in out for s in playing)
            name = None if quick else here.stored.seats[seat].policy
            view = here.game.private_view(here.state, seat)
            # Seeded by the game and its version so a replay makes the same choices. Policies
            # are CPU work (a search thinks for a few hundred ms): never on the event loop.
            seed = f"{here.stored.id}:{here.stored.version}"
            text = await self.thinker(policy_factory(here.bundle.key, name), view, seed)
            action = here.game.parse_action(text)
            before = here.state
            new_state = here.game.apply(before, seat, action)
            text = here.game.format_action(action)
            here = await self._commit(here, seat, text, new_state, None)
            ended = round_ended(here.bundle, before, new_state)
            caption = move_caption(here.game, before, new_state)
            steps.append(Step(seat, text, caption, True, round_ended=ended))
        return steps, here

    async def refusal(
        self, here: Position, seat: int, *, moves: Sequence[MoveRecord] | None = None
    ) -> str:
        """Why ``seat``, not deciding now, may not move (``Position.refusal``), or that it has
        left: a member who resigned from a game of three or more was told "It is not your
        turn", as if a turn were still to come. Who left is the move log's to know (``moves``,
        when the caller read it already)."""
        if all(s.seat != seat for s in await self.members_playing(here.stored, moves=moves)):
            return LEFT_THE_GAME
        return here.refusal(seat)

    async def seats_left(
        self, stored: StoredGame, *, moves: Sequence[MoveRecord] | None = None
    ) -> frozenset[int]:
        """The seats whose members left the game (resigned or forfeited; read from the move
        log, or ``moves`` when the caller read it already)."""
        return frozenset(m.seat for m in await self._moves_of(stored, moves) if m.action == LEAVE)

    async def has_left(
        self, stored: StoredGame, user_id: int, *, moves: Sequence[MoveRecord] | None = None
    ) -> bool:
        """Whether ``user_id`` holds a seat of ``stored`` and has left it (resigned, or forfeited
        when their time ran out): an old move of theirs is refused for that, not as one of "an
        earlier turn" whose newest table would not help them. ``moves``: as ``seats_left``."""
        seats = [s.seat for s in stored.seats if s.user_id == user_id]
        return bool(seats) and seats[0] in await self.seats_left(stored, moves=moves)

    async def members_playing(
        self, stored: StoredGame, *, moves: Sequence[MoveRecord] | None = None
    ) -> list[SeatRecord]:
        """The members' seats that have not left the game (read from the move log, or
        ``moves`` when the caller read it already)."""
        left = await self.seats_left(stored, moves=moves)
        return [s for s in stored.seats if not s.is_computer and s.seat not in left]

    async def _settle(self, here: Position, finished_at: float | None = None) -> bool:
        """Record the result of a game that just finished (leaderboards); False if the write
        failed, which ``settle_missing`` redoes."""
        if here.stored.status != "finished" or not self.record_results:
            return True
        outcome = here.game.outcome(here.state)
        if outcome is None:  # pragma: no cover - a finished game always has an outcome
            return True
        when = self.clock() if finished_at is None else finished_at
        record = result_of(here.stored, outcome, when, moves=here.stored.version)
        try:
            await self.store.record_result(record, [seat.name for seat in here.stored.seats])
        except Exception:
            # The game itself is stored as finished; failing the player's move now would show
            # an error for a move that happened. The record is idempotent: the next sweep
            # writes it again (``settle_due``).
            log.exception("could not record the result of game %s", here.stored.id)
            self.settle_due = True
            return False
        return True

    async def settle_missing(self) -> int:
        """Record the results that failed to be written (a finished game of a server with no
        result), dated when the game ended; how many were recorded. The bot calls it on
        starting and after a failed write (``settle_due``), so a database that blinked as a
        game ended loses no result."""
        self.settle_due = False
        recorded = 0
        for stored in await self.store.finished_without_result():
            try:
                here = self.position(stored)
            except GameError:
                log.exception("finished game %s no longer loads: no result", stored.id)
                continue
            recorded += await self._settle(here, finished_at=stored.updated_at)
        return recorded

    async def _update(
        self,
        here: Position,
        steps: Sequence[Step],
        *,
        repeated: bool = False,
        previous: Any = None,
        timeout: Timeout | None = None,
    ) -> TableUpdate:
        game, stored = here.game, here.stored
        acting = here.acting
        outcome = game.outcome(here.state)
        # The result line says who left rather than the score they stopped at (read from the
        # move log only once the game is over).
        left = await self.seats_left(stored) if outcome is not None else frozenset()
        return TableUpdate(
            game=stored,
            public=game.public_view(here.state),
            steps=tuple(steps),
            outcome=outcome,
            left=left,
            repeated=repeated,
            previous=previous,
            timeout=timeout,
            waiting=tuple(stored.seats[s] for s in acting),
            reacting=tuple(stored.seats[s] for s in here.reacting()),
        )


def own_move(first: MoveRecord | None) -> MoveRecord | None:
    """``first`` (a member's first move after some version) when they made it themselves: a
    move the computer played for them when their time ran out, a reaction window's default
    or their leaving was not theirs to have "already made"."""
    if first is None or first.action == LEAVE or first.interaction_id is None:
        return None
    return None if first.interaction_id.startswith(LATE_MARK) else first


def played_for(first: MoveRecord | None) -> bool:
    """Whether ``first`` is a move the computer played for the member when their turn ran out:
    a button of that turn, pressed late, is refused with that reason ("from an earlier turn"
    left them wondering what became of it)."""
    return first is not None and (first.interaction_id or "").startswith(LATE_MARK)


def _late_since_own(moves: Sequence[MoveRecord], seat: int) -> int:
    """How many moves the computer played for ``seat``, late, since the seat's last move of its
    own (windows the bot closed for it aside)."""
    late = 0
    for move in reversed(moves):
        if move.seat != seat or move.interaction_id is None:
            continue
        if not move.interaction_id.startswith(LATE_MARK):
            break
        late += 1
    return late


async def _answer_first(before_computers: Callable[[], Awaitable[None]]) -> None:
    """Await a front end's ``before_computers`` hook (it answers its member before computers
    think). What it raises is logged and goes no further: the game is stored by then (the
    deal, the move, the leaving), so a failure to answer Discord must neither leave the
    computers unplayed until the sweep nor have the front end say that nothing was changed.
    The front end still gets the table and posts it."""
    try:
        await before_computers()
    except Exception:
        log.exception("the answer before the computers' turn failed; the game goes on")

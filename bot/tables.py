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
the move log's marks and its replay are ``bot/move_log.py``'s, what the log says about a press
made on an earlier table (and who has left) is ``bot/hindsight.py``'s (``Tables.hindsight``),
and how typed text is read is ``bot/typed_moves.py``'s.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.engine.core import Game, GameError, IllegalMove, NotationError, NotYourTurn
from bot.games import bundle, get_policy
from bot.games.bundle import MoveChoice, PolicyFactory
from bot.games.registry import choose_move, policy_factory
from bot.hindsight import LEFT_THE_GAME, Hindsight, find_game, no_game
from bot.move_log import LATE_MARK, LEAVE, late_turns_in_a_row
from bot.names import distinct_names
from bot.position import Position, move_caption, position_of, round_ended, seat_of
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
NO_GAME_HERE = "There is no game running here. Start one with /play."
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
        # Reads of the move log: refusals of old presses, who has left, the game as it was.
        self.hindsight = Hindsight(store)

    def lock(self, channel_id: int) -> asyncio.Lock:
        """One lock per channel: moves in a channel are applied one at a time."""
        found = self._locks.get(channel_id)
        if found is None:
            found = self._locks[channel_id] = asyncio.Lock()
        return found

    # --- reading --------------------------------------------------------------------------

    def position(self, stored: StoredGame) -> Position:
        """The stored game with its state rebuilt (a CorruptSave if it cannot be read)."""
        return position_of(stored)

    async def current(self, channel_id: int) -> StoredGame:
        stored = await self.store.active_game(channel_id)
        if stored is None:
            raise NoGameHere(NO_GAME_HERE)
        return stored

    async def game_by_id(self, game_id: int) -> StoredGame:
        stored = await find_game(self.store, game_id)
        if stored is None:
            raise await no_game(self.store, game_id)
        return stored

    async def table(self, channel_id: int) -> TableUpdate:
        """The channel's game as it stands (after any computer move that was due)."""
        async with self.lock(channel_id):
            here = self.position(await self.current(channel_id))
            here, steps = await self._catch_up(here)
            return await self._update(here, steps)

    def seat_of(self, stored: StoredGame, user_id: int) -> int:
        return seat_of(stored, user_id)

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
            running = await self.store.active_game(channel_id)
            if running is not None:
                if any(s.user_id in members for s in running.seats if s.user_id is not None):
                    raise TableBusy(
                        "A game is already running here. Finish it, or /resign or /abort it first."
                    )
                # Not theirs to finish, resign or abort: say where they can play instead.
                raise TableBusy(
                    "Another game is being played in this channel. Start yours in another "
                    "channel, or with thread:true in a thread of its own."
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
                raise TableBusy("A game is already running here.") from None
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
                    stale = await self.hindsight.stale(
                        here.stored, user_id, typed, expected_version, shown_at
                    )
                    if stale is not None:
                        raise stale
                game, stored = here.game, here.stored
                seat = self.seat_of(stored, user_id)
                if seat not in here.acting:
                    raise NotYourTurn(await self.hindsight.refusal(here, seat))
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
                # Nothing moved but this member's move (no late turn caught up, no computer):
                # whom the game waited for and still does was called on by the table before.
                still = (
                    _still_deciding(here, after) if not before_steps and not more else frozenset()
                )
                return await self._update(
                    after, (*before_steps, step, *more), previous=previous, still_waiting=still
                )
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
            before = here
            try:
                here, step = await self._leave_seat(here, seat)
            except StaleVersion:
                raise StaleButton("Someone moved at the same moment; try again.") from None
            if before_computers is not None and here.computers_due():
                await _answer_first(before_computers)
            more, here = await self._computer_turns(here)
            await self._settle(here)
        # As for a move: whom the game waited for and still does was called on before.
        still = _still_deciding(before, here) if not more else frozenset()
        return await self._update(here, (step, *more), previous=previous, still_waiting=still)

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
        playing = await self.hindsight.members_playing(stored)
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
                    playing = {s.seat for s in await self.hindsight.members_playing(stored)}
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
                        here, step = await self._leave_seat(here, seat, forfeit=True)
                        steps.append(step)
                    if here.game.outcome(here.state) is not None:
                        # The forfeits ended the game: the timeout's line and the result say
                        # it all, not who "plays on" for the moment between two of them.
                        steps = [replace(step, caption="") for step in steps]
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

    # --- internals --------------------------------------------------------------------------

    async def _here(self, channel_id: int, game_id: int | None) -> Position:
        """The channel's game; a button naming another game is told what became of it."""
        stored = await self.store.active_game(channel_id)
        if game_id is not None and (stored is None or stored.id != game_id):
            other = await find_game(self.store, game_id)
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
        self, here: Position, seat: int, *, forfeit: bool = False
    ) -> tuple[Position, Step]:
        """Store a seat leaving the game (resignation or forfeit) as a move of the log.

        A resignation is said "🏳️ Ann left the game."; a forfeit needs no line of its own, the
        timeout's line announces it. With three seats or more and the game going on, the
        engine's caption follows the flag (or stands alone after a forfeit's line): it says
        what the leaving means for the game (who plays on, whose turn it is, where the leaver
        will finish), which "Ann left the game." alone left the table to work out."""
        game = here.game
        new_state = game.leave(here.state, seat)
        after = await self._commit(here, seat, LEAVE, new_state, None)
        going_on = len(here.stored.seats) > 2 and game.outcome(new_state) is None
        said = game.caption(new_state) if going_on else ""
        left = f"{here.stored.seats[seat].name} left the game."
        text = said if forfeit else f"🏳️ {said or left}"
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
            # A decision taken by every seat at once (the opening tickets) is a turn of its
            # own: the late member's next turn gets its own timer.
            together = here.game.simultaneous(here.state)
            for done in range(most):
                if here.game.outcome(here.state) is not None or seat not in here.acting:
                    break
                if done and (together or here.acting != [seat]):
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
        members = await self.hindsight.members_playing(here.stored)
        playing = [s for s in members if s.seat not in out]
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
        now = time.monotonic()
        # Kept in the order read (re-read: moved last), so the expired ones are at the front
        # and go here: one entry was kept for good per server ever played on, left ones too.
        self._settings.pop(guild_id, None)
        self._settings[guild_id] = (now, settings)
        for gone, (read_at, _) in list(self._settings.items()):
            if now - read_at < _SETTINGS_TTL:
                break
            del self._settings[gone]
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
            # even when the late seat starts it. So does a decision every seat took at once.
            new_hand = round_ended(here.bundle, here.state, new_state)
            turn_over = new_hand or game.simultaneous(here.state)
            if not finished and not turn_over and late in game.to_act(new_state):
                remind_at, deadline = None, self.clock()
        elif action_text == LEAVE and self._bystander_left(here, seat, new_state):
            # The seats deciding decide the same thing as before: a resignation elsewhere at
            # the table gave a reaction window (or a turn) its whole time again.
            remind_at, deadline = here.stored.remind_at, here.stored.turn_deadline
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

    def _bystander_left(self, here: Position, seat: int, new_state: Any) -> bool:
        """Whether ``seat``, leaving, was not among the members deciding, and they still decide
        as before: the same seats, each in a reaction window as before or in a turn as before.
        Members only, as in ``_others_still_deciding``: a computer's grace is no member's time."""
        game = here.game
        before, after = game.to_act(here.state), game.to_act(new_state)
        return (
            here.stored.turn_deadline is not None
            and seat not in before
            and bool(after)
            and after == before
            and game.outcome(new_state) is None
            and not any(here.stored.seats[s].is_computer for s in after)
            and _same_kind(game, here.state, new_state, after) == frozenset(after)
        )

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
        shown = await self.hindsight.as_of(here.stored, mine[-1].seq)
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
        set_ = await self.store.set_timer(
            here.stored.id,
            remind_at=remind_at,
            deadline=deadline,
            expected_version=here.stored.version,
        )
        if not set_:
            # A move stored meanwhile by another process (time_untimed reads outside any
            # move) set the timer of the position after it, which this one must not replace.
            return here
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
                    playing = await self.hindsight.members_playing(here.stored)
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
        still_waiting: frozenset[int] = frozenset(),
    ) -> TableUpdate:
        game, stored = here.game, here.stored
        acting = here.acting
        outcome = game.outcome(here.state)
        # The result line says who left rather than the score they stopped at (read from the
        # move log only once the game is over).
        left = await self.hindsight.seats_left(stored) if outcome is not None else frozenset()
        return TableUpdate(
            game=stored,
            public=game.public_view(here.state),
            steps=tuple(steps),
            outcome=outcome,
            left=left,
            out=game.out(here.state) if outcome is not None else frozenset(),
            repeated=repeated,
            previous=previous,
            timeout=timeout,
            waiting=tuple(stored.seats[s] for s in acting),
            reacting=tuple(stored.seats[s] for s in here.reacting()),
            still_waiting=still_waiting,
        )


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


def _still_deciding(before: Position, after: Position) -> frozenset[int]:
    """The seats the game waited for before a move and still waits for, in the same kind of
    decision: the table called on them already. Only the same decision: a shooter leaving in
    her victim's reaction window hands him his own turn, which is news (a window has a
    default, a turn none)."""
    common = frozenset(before.acting) & frozenset(after.acting)
    return _same_kind(after.game, before.state, after.state, common)


def _same_kind(game: Any, before: Any, after: Any, seats: Iterable[int]) -> frozenset[int]:
    """Those of ``seats`` deciding the same kind of thing in the states ``before`` and
    ``after``: a reaction window in both (it has a default answer) or a turn in both (none)."""
    return frozenset(
        s
        for s in seats
        if (game.default_action(before, s) is None) == (game.default_action(after, s) is None)
    )


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

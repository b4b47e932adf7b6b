"""The seam between front ends (Discord cogs, the console) and the games.

Everything a front end does to a game goes through :class:`Tables`: start a game in a channel,
apply a member's move (seat lookup, per-channel lock, engine, one store transaction), let the
computer seats move, and hand back views. It imports no Discord types, so it is tested with a
temporary database and nothing else, and the local console drives the very same code.

Around the moves it keeps the bookkeeping a front end should not have to remember: a game that
finishes gets its result recorded (leaderboards), every turn a member must take is timed when
the guild asked for a turn timer (``expire_turn`` / ``remind_turn``, driven by
``bot.timers.sweep``), and a finished game can be replayed from its deal (``replay``).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.ai.base import get_policy, policy_names
from bot.engine.core import Game, NotYourTurn, get_game
from bot.results import result_of
from bot.store.base import (
    ChannelBusy,
    DuplicateInteraction,
    MoveRecord,
    SeatRecord,
    StaleVersion,
    Store,
    StoredGame,
    TimeoutAction,
)
from bot.updates import (
    MoveChoice,
    NoGameHere,
    NoReplay,
    NotSeated,
    StaleButton,
    Step,
    TableBusy,
    TableUpdate,
    Timeout,
    caption_of,
    outcome_of,
    state_of,
    waiting_members,
)

# The seam's result types live in bot.updates; importing them from here keeps working.
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
    "outcome_of",
    "waiting_members",
]

log = logging.getLogger(__name__)

# How often a move is retried when another process stored a move first (PostgreSQL shards).
_STALE_RETRIES = 3


class Tables:
    """Games in channels, backed by a store.

    ``clock`` gives the time (Unix seconds) for result records and turn timers; tests pass
    their own to move time forward without waiting.
    """

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, channel_id: int) -> asyncio.Lock:
        """One lock per channel: moves in a channel are applied one at a time."""
        return self._locks.setdefault(channel_id, asyncio.Lock())

    # --- starting and reading ---------------------------------------------------------------

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
    ) -> TableUpdate:
        """Deal a new game in a channel and let the computer open if it sits first."""
        game = get_game(game_key)
        for record in seats:
            if record.policy is not None:
                get_policy(game.info.key, record.policy)  # unknown policy: a readable error now
        async with self.lock(channel_id):
            if await self.store.active_game(channel_id) is not None:
                raise TableBusy(
                    "A game is already running in this channel. Finish it, or /resign or "
                    "/abort it first."
                )
            seed = secrets.randbelow(2**31) if seed is None else seed
            state = game.new_game([s.name for s in seats], seed, options, deck)
            try:
                stored = await self.store.create_game(
                    channel_id=channel_id,
                    guild_id=guild_id,
                    game_key=game.info.key,
                    seats=list(seats),
                    # Labels (e.g. the daily deal's date) ride with the options into results.
                    options={**game.resolve_options(options), **(labels or {})},
                    state=game.to_dict(state),
                )
            except ChannelBusy:
                raise TableBusy("A game is already running in this channel.") from None
            steps, stored = await self._computer_turns(game, stored, state)
            stored = await self._settle(game, stored)
        return self._update(game, stored, steps)

    async def current(self, channel_id: int) -> StoredGame:
        stored = await self.store.active_game(channel_id)
        if stored is None:
            raise NoGameHere("There is no game running in this channel. Start one with /play.")
        return stored

    async def table(self, channel_id: int) -> TableUpdate:
        """The channel's game as it stands."""
        stored = await self.current(channel_id)
        return self._update(get_game(stored.game_key), stored, ())

    async def game_by_id(self, game_id: int) -> StoredGame:
        stored = await self.store.get_game(game_id)
        if stored is None:
            raise NoGameHere("That game no longer exists.")
        return stored

    def seat_of(self, stored: StoredGame, user_id: int) -> int:
        for record in stored.seats:
            if record.user_id == user_id:
                return record.seat
        raise NotSeated("You are not playing in this game; only its players can do that.")

    def private_view(self, stored: StoredGame, user_id: int) -> Any:
        """A seated member's own view (their hand); anyone else is refused."""
        seat = self.seat_of(stored, user_id)
        return get_game(stored.game_key).private_view(state_of(stored), seat)

    def legal_moves(self, stored: StoredGame, user_id: int) -> list[MoveChoice]:
        """The member's legal moves now, for menus and autocomplete (empty if not their turn)."""
        game = get_game(stored.game_key)
        seat = self.seat_of(stored, user_id)
        state = game.from_dict(stored.state)
        return [
            MoveChoice(game.format_action(a), game.describe_action(state, seat, a))
            for a in game.legal_actions(state, seat)
        ]

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
    ) -> TableUpdate:
        """Apply a member's move, stored before this returns, then the computer's replies.

        ``game_id`` and ``expected_version`` come from a button: a button from another game
        or an earlier turn is refused rather than applied to a position it was not made for.
        A repeated ``interaction_id`` returns the table without applying anything twice.
        """
        async with self.lock(channel_id):
            for attempt in range(_STALE_RETRIES):
                stored = await self.current(channel_id)
                game = get_game(stored.game_key)
                if game_id is not None and stored.id != game_id:
                    raise StaleButton("That button belongs to a game that has ended.")
                if expected_version is not None and stored.version != expected_version:
                    raise StaleButton(
                        "That button is from an earlier turn. Use the buttons on the newest "
                        "table (or /table to post it again)."
                    )
                seat = self.seat_of(stored, user_id)
                state = game.from_dict(stored.state)
                if seat not in game.to_act(state):
                    waiting = ", ".join(stored.seats[s].name for s in sorted(game.to_act(state)))
                    raise NotYourTurn(f"It is not your turn; waiting for {waiting}.")
                parsed = game.parse_action(action)
                new_state = game.apply(state, seat, parsed)
                try:
                    stored = await self._commit(
                        game, stored, seat, parsed, new_state, interaction_id
                    )
                except DuplicateInteraction:
                    latest = await self.game_by_id(stored.id)
                    return self._update(game, latest, (), repeated=True)
                except StaleVersion:
                    if attempt + 1 < _STALE_RETRIES and expected_version is None:
                        continue
                    raise StaleButton(
                        "Someone moved at the same moment; look at the table and try again."
                    ) from None
                step = Step(seat, game.format_action(parsed), caption_of(new_state), False)
                more, stored = await self._computer_turns(game, stored, new_state)
                stored = await self._settle(game, stored)
                return self._update(game, stored, (step, *more), previous=game.public_view(state))
        raise AssertionError("unreachable")  # pragma: no cover

    async def resign(self, *, channel_id: int, user_id: int) -> TableUpdate:
        """The member gives up: every other seat wins (and the result is recorded)."""
        async with self.lock(channel_id):
            stored = await self.current(channel_id)
            seat = self.seat_of(stored, user_id)
            stored = await self._resign_seat(stored, seat)
        return self._update(get_game(stored.game_key), stored, ())

    async def abort(self, *, channel_id: int) -> StoredGame:
        """End the channel's game with no result (the players agreed)."""
        async with self.lock(channel_id):
            stored = await self.current(channel_id)
            return await self.store.end_game(
                game_id=stored.id,
                expected_version=stored.version,
                status="aborted",
                state=stored.state,
            )

    # --- turn timers --------------------------------------------------------------------------

    async def remind_turn(self, game_id: int) -> StoredGame | None:
        """Take a due reminder off the game (its deadline stays) and return the game.

        None when there is nothing to remind: the game ended, or its reminder was already
        taken (another sweep) or is not due yet. The front end then mentions
        ``waiting_members(game)``.
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
            return replace(stored, remind_at=None)

    async def expire_turn(self, game_id: int) -> TableUpdate | None:
        """Act for the members whose turn ran out, as the guild's ``on_timeout`` says.

        "computer": the computer makes one move for each member the game waits for (the
        "normal" player where the game has one, else "random"), stored like any move; then the
        computer seats reply and the next turn is timed. "forfeit": the (first) waiting member
        resigns and the result is recorded. The update's ``timeout`` says who ran out of time
        and what happened; its steps list the moves made.

        None when there is nothing to do: the game ended, its deadline moved or has not passed
        (someone moved in time), or another process acted first.
        """
        found = await self.store.get_game(game_id)
        if found is None or found.status != "active":
            return None
        async with self.lock(found.channel_id):
            # Read again under the lock: a move may have landed (and re-armed the timer) while
            # this request waited for it.
            stored = await self.store.get_game(game_id)
            if stored is None or stored.status != "active":
                return None
            if stored.turn_deadline is None or stored.turn_deadline > self.clock():
                return None
            game = get_game(stored.game_key)
            state = game.from_dict(stored.state)
            absent = waiting_members(stored)
            if not absent:
                # Only computer seats are to act (a crash between their moves): no member to
                # time, so drop the timer rather than expire it again on every sweep.
                await self.store.set_timer(stored.id, remind_at=None, deadline=None)
                return None
            before = game.public_view(state)
            if await self._on_timeout(stored) == "forfeit":
                try:
                    ended = await self._resign_seat(stored, absent[0].seat)
                except StaleVersion:
                    return None
                return self._update(
                    game, ended, (), previous=before, timeout=Timeout(absent[:1], "forfeit")
                )
            steps, stored, state = await self._play_for(game, stored, state, absent)
            if not steps:
                return None
            more, stored = await self._computer_turns(game, stored, state)
            stored = await self._settle(game, stored)
            played_for = tuple(stored.seats[step.seat] for step in steps)
        return self._update(
            game,
            stored,
            (*steps, *more),
            previous=before,
            timeout=Timeout(played_for, "computer"),
        )

    async def _play_for(
        self,
        game: Game[Any, Any],
        stored: StoredGame,
        state: Any,
        absent: Sequence[SeatRecord],
    ) -> tuple[list[Step], StoredGame, Any]:
        """One computer move for each absent member still to act; the moves made so far."""
        names = policy_names(game.info.key)
        policy = get_policy(game.info.key, "normal" if "normal" in names else "random")
        steps: list[Step] = []
        for record in absent:
            # An earlier move (for another absent seat) may have ended the game or the turn.
            if game.outcome(state) is not None or record.seat not in game.to_act(state):
                continue
            # Seeded like _computer_turns, so the same position always gets the same move.
            rng = random.Random(f"{stored.id}:{stored.version}")
            action = game.parse_action(policy.choose(game.private_view(state, record.seat), rng))
            new_state = game.apply(state, record.seat, action)
            try:
                stored = await self._commit(game, stored, record.seat, action, new_state, None)
            except StaleVersion:
                break  # another process moved this game; what was stored so far stands
            state = new_state
            text = game.format_action(action)
            steps.append(
                Step(record.seat, text, caption_of(state), by_computer=True, timed_out=True)
            )
        return steps, stored, state

    async def _on_timeout(self, stored: StoredGame) -> TimeoutAction:
        if stored.guild_id is None:
            return "computer"
        return (await self.store.guild_settings(stored.guild_id)).on_timeout

    # --- replays ---------------------------------------------------------------------------------

    async def replay(self, game_id: int) -> list[Any]:
        """The public view after every move of an ended game; frame 0 is the deal.

        Rebuilt from the stored deal and the move log, so it shows exactly what the table
        showed. Public views only: no frame can reveal a hand. A resignation is not a move,
        so a resigned game's last frame is the position the player resigned in.
        """
        stored = await self.game_by_id(game_id)
        if stored.status == "active":
            raise NoReplay("Replays are for finished games; this one is still being played.")
        initial = await self.store.initial_state(game_id)
        if initial is None:
            raise NoReplay(
                "This game was played before Junction kept replays, so it cannot be replayed."
            )
        moves = await self.store.moves(game_id)
        # Replaying hundreds of moves is CPU work: keep it off the event loop.
        return await asyncio.to_thread(_replay_frames, get_game(stored.game_key), initial, moves)

    # --- internals --------------------------------------------------------------------------

    async def _resign_seat(self, stored: StoredGame, seat: int) -> StoredGame:
        """End the game with ``seat`` resigned (every other seat wins) and record the result."""
        state = dict(stored.state)
        # The resignation rides along in the snapshot so the outcome can be read back.
        state["resigned"] = seat
        ended = await self.store.end_game(
            game_id=stored.id,
            expected_version=stored.version,
            status="finished",
            state=state,
        )
        # end_game bumped the version without a move: the log holds one move fewer.
        await self._record_result(get_game(ended.game_key), ended, moves=ended.version - 1)
        return ended

    async def _settle(self, game: Game[Any, Any], stored: StoredGame) -> StoredGame:
        """After moves were stored: record the result of a finished game, else time the turn."""
        if stored.status == "finished":
            await self._record_result(game, stored, moves=stored.version)
            return stored
        return await self._arm(game, stored)

    async def _record_result(self, game: Game[Any, Any], stored: StoredGame, *, moves: int) -> None:
        outcome = outcome_of(game, stored, game.from_dict(stored.state))
        if outcome is None:  # pragma: no cover - a finished game always has an outcome
            return
        record = result_of(stored, outcome, self.clock(), moves=moves)
        try:
            await self.store.record_result(record, [seat.name for seat in stored.seats])
        except Exception:
            # The game itself is stored as finished; failing the player's move now would show
            # an error for a move that happened. The record is idempotent, so it can be redone.
            log.exception("could not record the result of game %s", stored.id)

    async def _arm(self, game: Game[Any, Any], stored: StoredGame) -> StoredGame:
        """Time the turn if the guild has a turn timer and a member is to act; else clear it.

        A stored move already cleared the timer, so most calls write only when arming.
        """
        remind_at: float | None = None
        deadline: float | None = None
        if stored.status == "active" and stored.guild_id is not None and waiting_members(stored):
            seconds = (await self.store.guild_settings(stored.guild_id)).turn_seconds
            if seconds is not None:
                now = self.clock()
                remind_at, deadline = now + seconds / 2, now + seconds
        if (remind_at, deadline) == (stored.remind_at, stored.turn_deadline):
            return stored
        await self.store.set_timer(stored.id, remind_at=remind_at, deadline=deadline)
        return replace(stored, remind_at=remind_at, turn_deadline=deadline)

    async def _commit(
        self,
        game: Game[Any, Any],
        stored: StoredGame,
        seat: int,
        action: Any,
        new_state: Any,
        interaction_id: str | None,
    ) -> StoredGame:
        return await self.store.record_move(
            game_id=stored.id,
            expected_version=stored.version,
            seat=seat,
            action=game.format_action(action),
            interaction_id=interaction_id,
            state=game.to_dict(new_state),
            status="finished" if game.outcome(new_state) is not None else "active",
        )

    async def _computer_turns(
        self, game: Game[Any, Any], stored: StoredGame, state: Any
    ) -> tuple[list[Step], StoredGame]:
        """Let computer seats move until a member must act or the game ends; each is stored."""
        steps: list[Step] = []
        while game.outcome(state) is None:
            movers = [s for s in sorted(game.to_act(state)) if stored.seats[s].is_computer]
            if not movers:
                break
            seat = movers[0]
            policy = get_policy(game.info.key, stored.seats[seat].policy or "normal")
            # Seeded by the game and its version so a replay makes the same choices.
            rng = random.Random(f"{stored.id}:{stored.version}")
            text = policy.choose(game.private_view(state, seat), rng)
            action = game.parse_action(text)
            state = game.apply(state, seat, action)
            stored = await self._commit(game, stored, seat, action, state, None)
            steps.append(Step(seat, text, caption_of(state), True))
        return steps, stored

    def _update(
        self,
        game: Game[Any, Any],
        stored: StoredGame,
        steps: Sequence[Step],
        *,
        repeated: bool = False,
        previous: Any = None,
        timeout: Timeout | None = None,
    ) -> TableUpdate:
        state = game.from_dict(stored.state)
        return TableUpdate(
            game=stored,
            public=game.public_view(state),
            steps=tuple(steps),
            outcome=outcome_of(game, stored, state),
            repeated=repeated,
            previous=previous,
            timeout=timeout,
        )


def _replay_frames(
    game: Game[Any, Any], initial: Mapping[str, Any], moves: Sequence[MoveRecord]
) -> list[Any]:
    """The public view after the deal and after every stored move."""
    state = game.from_dict(initial)
    frames = [game.public_view(state)]
    for move in moves:
        state = game.apply(state, move.seat, game.parse_action(move.action))
        frames.append(game.public_view(state))
    return frames

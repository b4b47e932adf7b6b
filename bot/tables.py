"""The seam between front ends (Discord cogs, the console) and the games.

Everything a front end does to a game goes through :class:`Tables`: start a game in a channel,
apply a member's move (seat lookup, per-channel lock, engine, one store transaction), let the
computer seats move, and hand back views. It imports no Discord types, so it is tested with a
temporary database and nothing else, and the local console drives the very same code.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.ai.base import get_policy
from bot.engine.core import Game, GameError, NotYourTurn, Outcome, get_game
from bot.store.base import (
    ChannelBusy,
    DuplicateInteraction,
    SeatRecord,
    StaleVersion,
    Store,
    StoredGame,
)

# How often a move is retried when another process stored a move first (PostgreSQL shards).
_STALE_RETRIES = 3


class NoGameHere(GameError):
    """The channel has no game running."""


class NotSeated(GameError):
    """The member is not one of this game's players."""


class StaleButton(GameError):
    """A button from an earlier turn was pressed."""


class TableBusy(GameError):
    """A game is already running in the channel."""


@dataclass(frozen=True)
class Step:
    """One move that happened: who made it, its notation and the caption it left."""

    seat: int
    action: str
    caption: str
    by_computer: bool


@dataclass(frozen=True)
class TableUpdate:
    """The table after a request: the stored game, its public view and what just happened."""

    game: StoredGame
    public: Any
    steps: tuple[Step, ...] = ()
    outcome: Outcome | None = None
    repeated: bool = False  # the request was a repeat of one already applied
    previous: Any = None  # the public view before this request, when it changed the table

    @property
    def to_act(self) -> tuple[SeatRecord, ...]:
        """The seats the game waits for now."""
        seats = get_game(self.game.game_key).to_act(_state_of(self.game))
        return tuple(self.game.seats[s] for s in sorted(seats))


@dataclass(frozen=True)
class MoveChoice:
    """A legal move for a menu: its notation and a plain-words label."""

    notation: str
    label: str


def _state_of(stored: StoredGame) -> Any:
    return get_game(stored.game_key).from_dict(stored.state)


class Tables:
    """Games in channels, backed by a store."""

    def __init__(self, store: Store) -> None:
        self.store = store
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
                    options=game.resolve_options(options),
                    state=game.to_dict(state),
                )
            except ChannelBusy:
                raise TableBusy("A game is already running in this channel.") from None
            steps, stored = await self._computer_turns(game, stored, state)
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
        return get_game(stored.game_key).private_view(_state_of(stored), seat)

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
                step = Step(seat, game.format_action(parsed), _caption(new_state), False)
                more, stored = await self._computer_turns(game, stored, new_state)
                return self._update(game, stored, (step, *more), previous=game.public_view(state))
        raise AssertionError("unreachable")  # pragma: no cover

    async def resign(self, *, channel_id: int, user_id: int) -> TableUpdate:
        """The member gives up: every other seat wins."""
        async with self.lock(channel_id):
            stored = await self.current(channel_id)
            seat = self.seat_of(stored, user_id)
            state = dict(stored.state)
            # The resignation rides along in the snapshot so the outcome can be read back.
            state["resigned"] = seat
            stored = await self.store.end_game(
                game_id=stored.id,
                expected_version=stored.version,
                status="finished",
                state=state,
            )
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

    # --- internals --------------------------------------------------------------------------

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
            steps.append(Step(seat, text, _caption(state), True))
        return steps, stored

    def _update(
        self,
        game: Game[Any, Any],
        stored: StoredGame,
        steps: Sequence[Step],
        *,
        repeated: bool = False,
        previous: Any = None,
    ) -> TableUpdate:
        state = game.from_dict(stored.state)
        return TableUpdate(
            game=stored,
            public=game.public_view(state),
            steps=tuple(steps),
            outcome=outcome_of(game, stored, state),
            repeated=repeated,
            previous=previous,
        )


def outcome_of(game: Game[Any, Any], stored: StoredGame, state: Any) -> Outcome | None:
    """The game's outcome, counting a resignation as a loss for the seat that resigned."""
    resigned = stored.state.get("resigned")
    if isinstance(resigned, int):
        winners = tuple(s.seat for s in stored.seats if s.seat != resigned)
        played = game.outcome(state)
        scores = played.scores if played else tuple(0 for _ in stored.seats)
        return Outcome(winners, scores, f"{stored.seats[resigned].name} resigned.")
    return game.outcome(state)


def _caption(state: Any) -> str:
    return str(getattr(state, "caption", ""))

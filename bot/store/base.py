"""The storage interface the seam talks to; SQLite and PostgreSQL implement it.

A game row holds the latest state snapshot and a ``version`` that grows by one per move. A move
is one transaction: check the version, append to ``moves``, replace the snapshot. The
``interaction_id`` of a move is unique, so a request delivered twice is applied once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

GameStatus = Literal["active", "finished", "aborted"]


class StoreError(Exception):
    """A storage problem the seam turns into a player-readable sentence."""


class ChannelBusy(StoreError):
    """The channel already has an active game."""


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


@dataclass(frozen=True)
class MoveRecord:
    game_id: int
    seq: int
    seat: int
    action: str
    interaction_id: str | None
    created_at: float


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
    ) -> StoredGame:
        """Store a new active game at version 0; ChannelBusy if the channel has one."""

    @abstractmethod
    async def get_game(self, game_id: int) -> StoredGame | None: ...

    @abstractmethod
    async def active_game(self, channel_id: int) -> StoredGame | None: ...

    @abstractmethod
    async def active_games(self) -> list[StoredGame]: ...

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
    ) -> StoredGame:
        """Append a move and replace the snapshot in one transaction.

        Raises StaleVersion when the stored version is not ``expected_version`` and
        DuplicateInteraction when ``interaction_id`` was stored before; either way nothing
        is written. Returns the game at its new version (``expected_version + 1``).
        """

    @abstractmethod
    async def end_game(
        self, *, game_id: int, expected_version: int, status: GameStatus, state: Mapping[str, Any]
    ) -> StoredGame:
        """Mark a game finished or aborted without a move (resign, abort); bumps the version."""

    @abstractmethod
    async def moves(self, game_id: int) -> list[MoveRecord]:
        """The move log in order."""

    @abstractmethod
    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the table message (Discord) so it can be edited later."""

"""The timers' clock stops while the bot is down (``Store.heartbeat``, ``Store.resume_timers``,
migration 0011) — on SQLite and PostgreSQL alike. Before, a deadline that ran on while the bot
was down was handled at the first sweep after it: a member forfeited a turn they could not play.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.store.base import LobbyRecord, Resumed, Shards, Store, StoredGame
from bot.store.rows import LOBBIES_TO_RESHOW, shard_condition
from tests.store.helpers import SEATS, STATE, Backend, lobby_record

T0 = 1_700_000_000.0
HOUR = 3600.0
ALL = Shards(1, (0,))
"""A process without shards."""
CHANNELS = itertools.count(100)


class Clock:
    """The store's clock (a game's ``updated_at``), moved by hand."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def timed(backend: Backend, clock: Clock) -> AsyncIterator[Store]:
    """An open store whose games are stored at the test's clock."""
    s = backend.store(clock=clock)
    await s.open()
    try:
        yield s
    finally:
        await s.close()


async def _game(
    store: Store, deadline: float, remind_at: float | None = None, guild_id: int | None = 7
) -> StoredGame:
    """A game in play whose turn runs out at ``deadline`` (reminded at ``remind_at``)."""
    game = await store.create_game(
        channel_id=next(CHANNELS),
        guild_id=guild_id,
        game_key="mille",
        seats=SEATS,
        options={},
        state=STATE,
    )
    await store.set_timer(game.id, remind_at=remind_at, deadline=deadline)
    return game


async def _timer(store: Store, game: StoredGame) -> tuple[float | None, float | None]:
    found = await store.get_game(game.id)
    assert found is not None
    return found.remind_at, found.turn_deadline


async def test_a_deadline_running_when_the_bot_went_down_gets_the_downtime_back(
    timed: Store,
) -> None:
    """Last sweep at T0+10, a turn running to T0+60 (reminder at T0+30); back an hour later:
    both move on by the hour, the 50 s left and the reminder's 20 s kept."""
    game = await _game(timed, T0 + 60, remind_at=T0 + 30)
    await timed.heartbeat(ALL, T0 + 10)
    assert (await timed.resume_timers(ALL, T0 + 10 + HOUR, started=T0 + HOUR)).games == 1
    assert await _timer(timed, game) == (T0 + 30 + HOUR, T0 + 60 + HOUR)


async def test_a_deadline_past_before_the_bot_went_down_is_left_alone(timed: Store) -> None:
    """A deadline at T0+5, the last sweep at T0+10 (its game not handled yet, say its channel
    did not answer): it ran out while the bot was up, and is handled as before."""
    game = await _game(timed, T0 + 5)
    await timed.heartbeat(ALL, T0 + 10)
    assert (await timed.resume_timers(ALL, T0 + HOUR, started=T0 + HOUR)).games == 0
    assert await _timer(timed, game) == (None, T0 + 5)


async def test_a_reminder_due_before_the_bot_went_down_stays_due(timed: Store) -> None:
    """The reminder (T0+5) was due at the last sweep (T0+10) but not sent yet: it is sent at
    the next sweep; the deadline gets the downtime back."""
    game = await _game(timed, T0 + 60, remind_at=T0 + 5)
    await timed.heartbeat(ALL, T0 + 10)
    await timed.resume_timers(ALL, T0 + 10 + HOUR, started=T0 + HOUR)
    assert await _timer(timed, game) == (T0 + 5, T0 + 60 + HOUR)


async def test_the_downtime_is_given_back_once(timed: Store) -> None:
    """A second start 2 s after the first, before any other sweep (the first crashed at once):
    the hour is not given again, only the 2 s since the first wrote the heartbeat with it."""
    game = await _game(timed, T0 + 60)
    await timed.heartbeat(ALL, T0 + 10)
    await timed.resume_timers(ALL, T0 + 10 + HOUR, started=T0 + HOUR)
    await timed.resume_timers(ALL, T0 + 12 + HOUR, started=T0 + 11 + HOUR)
    assert await _timer(timed, game) == (None, T0 + 62 + HOUR)


async def test_two_downtimes_in_a_row_are_each_given_back(timed: Store) -> None:
    """Down an hour, back for 20 s of sweeps, down half an hour: 50 s left before the first,
    30 s before the second; 30 s left after both."""
    game = await _game(timed, T0 + 60)
    await timed.heartbeat(ALL, T0 + 10)
    await timed.resume_timers(ALL, T0 + 10 + HOUR, started=T0 + HOUR)
    await timed.heartbeat(ALL, T0 + 30 + HOUR)
    back = T0 + 30 + HOUR + HOUR / 2
    await timed.resume_timers(ALL, back, started=back - 5)
    assert await _timer(timed, game) == (None, back + 30)


async def test_nothing_moves_without_a_heartbeat(timed: Store) -> None:
    """The first start after the migration: nobody knows when the bot went down."""
    game = await _game(timed, T0 + 60)
    assert (await timed.resume_timers(ALL, T0 + HOUR, started=T0 + HOUR)).games == 0
    assert await _timer(timed, game) == (None, T0 + 60)


async def test_a_game_moved_since_the_process_started_keeps_its_deadline(
    timed: Store, clock: Clock
) -> None:
    """The process started at T0+HOUR and took a move at once, before its first sweep: that
    game's deadline was set by the bot up and running, and is not moved."""
    await timed.heartbeat(ALL, T0 + 10)
    clock.now = T0 + HOUR + 2
    game = await _game(timed, T0 + HOUR + 62)
    assert (await timed.resume_timers(ALL, T0 + HOUR + 5, started=T0 + HOUR)).games == 0
    assert await _timer(timed, game) == (None, T0 + HOUR + 62)


async def test_a_shard_gives_back_its_own_downtime_to_its_own_servers(timed: Store) -> None:
    """Two shards: shard 1 was down an hour, shard 0 swept all along. Shard 1's game gets the
    hour back; shard 0's is left alone."""
    mine = await _game(timed, T0 + 60, guild_id=(1001 << 22) + 5)
    theirs = await _game(timed, T0 + 61, guild_id=(1000 << 22) + 5)
    await timed.heartbeat(Shards(2, (1,)), T0 + 10)
    await timed.heartbeat(Shards(2, (0,)), T0 + HOUR)
    assert (
        await timed.resume_timers(Shards(2, (1,)), T0 + 10 + HOUR, started=T0 + HOUR)
    ).games == 1
    assert await _timer(timed, mine) == (None, T0 + 60 + HOUR)
    assert await _timer(timed, theirs) == (None, T0 + 61)


async def test_a_game_on_no_server_is_not_given_another_shards_downtime(timed: Store) -> None:
    """Discord sends direct messages to shard 0 only: shard 1 back after an hour (shard 0 swept
    all along) leaves a direct message's game as it is."""
    dm = await _game(timed, T0 + HOUR + 30, guild_id=None)
    await timed.heartbeat(Shards(2, (1,)), T0 + 10)
    await timed.heartbeat(Shards(2, (0,)), T0 + HOUR)
    assert (await timed.resume_timers(Shards(2, (1,)), T0 + HOUR + 4, started=T0 + HOUR)).games == 0
    assert await _timer(timed, dm) == (None, T0 + HOUR + 30)


async def test_a_game_on_no_server_gets_shard_0s_downtime_back(timed: Store) -> None:
    """Shard 0 lost Discord for an hour while shard 1 swept on: a direct message's game (only
    shard 0 carries its members' presses) gets the hour back when shard 0 does."""
    dm = await _game(timed, T0 + 60, guild_id=None)
    await timed.heartbeat(Shards(2, (0,)), T0 + 10)
    await timed.heartbeat(Shards(2, (1,)), T0 + HOUR)
    back = T0 + 10 + HOUR
    assert (await timed.resume_timers(Shards(2, (0,)), back, started=back)).games == 1
    assert await _timer(timed, dm) == (None, T0 + 60 + HOUR)


async def test_a_game_moved_after_the_last_sweep_gets_back_the_time_since_its_move(
    timed: Store, clock: Clock
) -> None:
    """The last sweep at T0+10; a move under way as the connection went is stored at T0+12,
    Bob's minute running to T0+72 (reminder at T0+42). Back an hour after the sweep, Bob has
    his whole minute and the reminder its 30 s: the time since the move, not since the sweep,
    which would give him 2 s he never waited."""
    await timed.heartbeat(ALL, T0 + 10)
    clock.now = T0 + 12
    game = await _game(timed, T0 + 72, remind_at=T0 + 42)
    back = T0 + 10 + HOUR
    assert (await timed.resume_timers(ALL, back, started=back)).games == 1
    assert await _timer(timed, game) == (back + 30, back + 60)


async def test_newer_sweeps_under_other_shards_win_over_a_stale_row(timed: Store) -> None:
    """The bot ran without shards until T0+10, with two shards until T0+HOUR, and without
    again from T0+HOUR+60: its old row is an hour stale, the game lost only the minute."""
    game = await _game(timed, T0 + HOUR + 30)
    await timed.heartbeat(ALL, T0 + 10)
    await timed.heartbeat(Shards(2, (0, 1)), T0 + HOUR)
    await timed.resume_timers(ALL, T0 + HOUR + 60, started=T0 + HOUR + 55)
    assert await _timer(timed, game) == (None, T0 + HOUR + 90)


async def test_two_processes_starting_at_once_give_the_downtime_once(
    backend: Backend, clock: Clock
) -> None:
    """Both shard processes come back together after an hour: a direct message's game, timed by
    both, gets the hour back once, not twice."""
    first, second = backend.store(clock=clock), backend.store(clock=clock)
    await first.open()
    await second.open()
    try:
        dm = await _game(first, T0 + 60, guild_id=None)
        await first.heartbeat(Shards(2, (0, 1)), T0 + 10)
        back = T0 + 10 + HOUR
        await asyncio.gather(
            first.resume_timers(Shards(2, (0,)), back, started=back - 5),
            second.resume_timers(Shards(2, (1,)), back, started=back - 5),
        )
        assert await _timer(first, dm) == (None, T0 + 60 + HOUR)
    finally:
        await first.close()
        await second.close()


# -- open lobbies (invitations, open tables) get the same time back ---------------------------


async def _lobby(
    store: Store, expires_at: float, created_at: float = T0, guild_id: int | None = 7
) -> LobbyRecord:
    """An open invitation opened at ``created_at``, closing at ``expires_at``."""
    return await store.create_lobby(
        lobby_record(expires_at=expires_at, created_at=created_at, guild_id=guild_id)
    )


async def _closes(store: Store, lobby: LobbyRecord) -> tuple[str, float]:
    found = await store.get_lobby(lobby.id)
    assert found is not None
    return found.status, found.expires_at


async def test_an_open_lobby_gets_the_downtime_back_with_the_games(timed: Store) -> None:
    """An invitation open to T0+600, the last sweep at T0+10, back an hour later: it closes at
    T0+600+HOUR, in the same transaction as the game's deadline moves, and is named."""
    game = await _game(timed, T0 + 60)
    lobby = await _lobby(timed, T0 + 600)
    await timed.heartbeat(ALL, T0 + 10)
    resumed = await timed.resume_timers(ALL, T0 + 10 + HOUR, started=T0 + HOUR)
    assert resumed == Resumed(1, (lobby.id,))
    assert await _closes(timed, lobby) == ("open", T0 + 600 + HOUR)
    assert await _timer(timed, game) == (None, T0 + 60 + HOUR)
    moved = await timed.get_lobby(lobby.id)
    assert moved is not None and moved.version == lobby.version + 1


async def test_a_lobby_given_back_its_downtime_once(timed: Store) -> None:
    """A second start 2 s after the first: the lobby gets the 2 s, not the hour again."""
    lobby = await _lobby(timed, T0 + 600)
    await timed.heartbeat(ALL, T0 + 10)
    await timed.resume_timers(ALL, T0 + 10 + HOUR, started=T0 + HOUR)
    await timed.resume_timers(ALL, T0 + 12 + HOUR, started=T0 + 11 + HOUR)
    assert await _closes(timed, lobby) == ("open", T0 + 602 + HOUR)


async def test_lobbies_past_their_time_closed_or_new_are_left_alone(timed: Store) -> None:
    """Past its time at the last sweep (the expiry sweep had not closed it yet), cancelled, or
    opened after the restart: none moves."""
    late = await _lobby(timed, T0 + 5)
    cancelled = await _lobby(timed, T0 + 600)
    cancelled = await timed.update_lobby(replace(cancelled, status="cancelled"), 0)
    fresh = await _lobby(timed, T0 + HOUR + 300, created_at=T0 + HOUR + 1)
    await timed.heartbeat(ALL, T0 + 10)
    resumed = await timed.resume_timers(ALL, T0 + HOUR + 5, started=T0 + HOUR)
    assert resumed.lobbies == ()
    assert await _closes(timed, late) == ("open", T0 + 5)
    assert await _closes(timed, cancelled) == ("cancelled", T0 + 600)
    assert await _closes(timed, fresh) == ("open", T0 + HOUR + 300)


async def test_a_lobby_opened_after_the_last_sweep_gets_the_time_since_its_opening(
    timed: Store,
) -> None:
    """Opened at T0+12, after the last sweep (T0+10), the bot down at once: back at T0+12+HOUR,
    it gets the hour, not the hour and 2 s."""
    lobby = await _lobby(timed, T0 + 612, created_at=T0 + 12)
    await timed.heartbeat(ALL, T0 + 10)
    await timed.resume_timers(ALL, T0 + 12 + HOUR, started=T0 + HOUR)
    assert await _closes(timed, lobby) == ("open", T0 + 612 + HOUR)


async def test_a_lobby_gets_its_own_shards_downtime(timed: Store) -> None:
    """Two shards: shard 1's process is back an hour after its last sweep; the lobby of a
    server on shard 0 (guild 7) is left to shard 0's process."""
    on_0 = await _lobby(timed, T0 + 600, guild_id=7)
    on_1 = await _lobby(timed, T0 + 600, guild_id=1 << 22)
    await timed.heartbeat(Shards(2, (0, 1)), T0 + 10)
    resumed = await timed.resume_timers(Shards(2, (1,)), T0 + 10 + HOUR, started=T0 + HOUR)
    assert resumed.lobbies == (on_1.id,)
    assert await _closes(timed, on_0) == ("open", T0 + 600)
    assert await _closes(timed, on_1) == ("open", T0 + 600 + HOUR)


async def test_last_sweeps_says_what_a_resume_would_give_back_from(timed: Store) -> None:
    """Nothing before any sweep; then each shard's own last sweep, a newer one under another
    shard count winning (what a press on a lobby past its time asks before the first sweep)."""
    assert await timed.last_sweeps(Shards(2, (0, 1))) == {}
    await timed.heartbeat(Shards(2, (0, 1)), T0 + 10)
    await timed.heartbeat(Shards(2, (1,)), T0 + 20)
    assert await timed.last_sweeps(Shards(2, (0, 1))) == {0: T0 + 10, 1: T0 + 20}
    await timed.heartbeat(ALL, T0 + 15)
    assert await timed.last_sweeps(Shards(2, (0, 1))) == {0: T0 + 15, 1: T0 + 20}


async def test_two_processes_resuming_the_same_shard_at_once_give_a_lobby_the_downtime_once(
    backend: Backend, clock: Clock
) -> None:
    """An old process not yet gone as its successor starts (a quick restart): both resume
    shard 0 after an hour at once; the invitation gets the hour once, and the one that reads
    second gets nothing (on PostgreSQL the lock puts one after the other)."""
    first, second = backend.store(clock=clock), backend.store(clock=clock)
    await first.open()
    await second.open()
    try:
        lobby = await _lobby(first, T0 + 600)
        await first.heartbeat(ALL, T0 + 10)
        back = T0 + 10 + HOUR
        resumed = await asyncio.gather(
            first.resume_timers(ALL, back, started=back - 5),
            second.resume_timers(ALL, back, started=back - 5),
        )
        assert sorted(len(r.lobbies) for r in resumed) == [0, 1]
        assert await _closes(first, lobby) == ("open", T0 + 600 + HOUR)
    finally:
        await first.close()
        await second.close()


async def test_the_lobbies_given_time_back_stay_marked_until_drawn(
    timed: Store, backend: Backend
) -> None:
    """Two invitations given the hour back, a third past its time (not moved): the two are
    marked, and the mark outlives the store object (a process stopped before it edited their
    messages leaves them to the next). Cleared at the version drawn, not at an older one (a
    press changed it since: drawn again), and without moving the version; a lobby closed
    while marked is no longer asked about."""
    drawn = await _lobby(timed, T0 + 600)
    pressed = await _lobby(timed, T0 + 600)
    closed = await _lobby(timed, T0 + 600)
    await _lobby(timed, T0 + 5)
    await timed.heartbeat(ALL, T0 + 10)
    assert await timed.lobbies_to_reshow(50) == []
    resumed = await timed.resume_timers(ALL, T0 + 10 + HOUR, started=T0 + HOUR)
    assert resumed.lobbies == (drawn.id, pressed.id, closed.id)
    again = backend.store()
    await again.open()
    try:
        assert await again.lobbies_to_reshow(50) == [drawn.id, pressed.id, closed.id]
        assert await again.lobbies_to_reshow(2) == [drawn.id, pressed.id]
    finally:
        await again.close()
    shifted = await timed.get_lobby(drawn.id)
    assert shifted is not None and shifted.version == drawn.version + 1
    assert await timed.lobby_reshown(drawn.id, shifted.version)
    after = await timed.get_lobby(drawn.id)
    assert after is not None and after.version == shifted.version
    moved = await timed.get_lobby(pressed.id)
    assert moved is not None
    await timed.update_lobby(moved, moved.version)  # a press after the edit was sent
    assert not await timed.lobby_reshown(pressed.id, moved.version)
    gone = await timed.get_lobby(closed.id)
    assert gone is not None
    await timed.update_lobby(replace(gone, status="cancelled"), gone.version)
    assert await timed.lobbies_to_reshow(50) == [pressed.id]
    assert await timed.lobby_reshown(pressed.id, moved.version + 1)
    assert await timed.lobbies_to_reshow(50) == []


async def test_only_the_shards_own_marked_lobbies_are_asked_for(timed: Store) -> None:
    """A process running shard 1 of 2 redraws its servers' lobbies and those on no server."""
    on_0 = await _lobby(timed, T0 + 600, guild_id=7)
    on_1 = await _lobby(timed, T0 + 600, guild_id=1 << 22)
    await timed.heartbeat(Shards(2, (0, 1)), T0 + 10)
    await timed.resume_timers(Shards(2, (0, 1)), T0 + 10 + HOUR, started=T0 + HOUR)
    assert await timed.lobbies_to_reshow(50) == [on_0.id, on_1.id]
    assert await timed.lobbies_to_reshow(50, Shards(2, (1,))) == [on_1.id]


async def test_the_marked_lobbies_are_found_through_an_index(
    timed: Store, backend: Backend
) -> None:
    """The lobby sweep asks while any may be marked: migration 0016's index of the marked
    open lobbies answers, not a read of every lobby kept."""
    plan = await backend.plan(LOBBIES_TO_RESHOW.format(shards=shard_condition(None)), 50)
    assert "lobbies_to_reshow" in plan, plan

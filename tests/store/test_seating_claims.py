"""The games-at-once limit across processes (``Store.seating``, ``cogs.limits.seating``).

Several bot processes may share one PostgreSQL store (shards; a SQLite file is served by one
bot process, whose own lock is enough, so it claims nothing). Two processes serving the same
server for a while (a quick restart, the old process not yet gone) each counted a member's
requests alone (the limit is per server, so two servers never share one):
each counted the member's games, both passed, both stored a game, and the member held one past
the limit (twice the limit with requests enough). Each "process" here is a store of its own on
the same database (its own pool), with a ``Tables`` and a bot of its own for ``cogs.limits``.
"""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import pytest

from bot.engine.core import BadOption
from bot.store.base import SeatingBusy, SeatRecord, Store
from bot.store.sqlite import SqliteStore
from bot.tables import Tables
from cogs import limits
from tests.store.helpers import Backend

ALICE = 111_111_111_111_111_111
GUILD = 7
ALICE_SEATS = [SeatRecord(0, "Alice", user_id=ALICE), SeatRecord(1, "C", policy="normal")]


async def test_a_claim_holds_off_another_holder_until_let_go(store: Store) -> None:
    """One holder at a time per member and server; other members and servers are free."""
    assert await store.claim_seating(ALICE, GUILD, "first", 30.0)
    assert not await store.claim_seating(ALICE, GUILD, "second", 30.0)
    assert await store.claim_seating(ALICE, GUILD + 1, "elsewhere", 30.0)
    assert await store.claim_seating(ALICE + 1, GUILD, "someone else", 30.0)
    await store.release_seating(ALICE, GUILD, "second")  # not its claim: nothing let go
    assert not await store.claim_seating(ALICE, GUILD, "second", 30.0)
    await store.release_seating(ALICE, GUILD, "first")
    assert await store.claim_seating(ALICE, GUILD, "second", 30.0)


async def test_a_claim_past_its_lease_is_taken_over(backend: Backend) -> None:
    """A process that died holding a claim delays the member only for its lease; its late
    release then lets go of nothing it no longer holds."""
    now = [1000.0]
    store = backend.store(clock=lambda: now[0])
    await store.open()
    try:
        assert await store.claim_seating(ALICE, GUILD, "dead", 30.0)
        now[0] += 29.0
        assert not await store.claim_seating(ALICE, GUILD, "alive", 30.0)
        now[0] += 2.0
        assert await store.claim_seating(ALICE, GUILD, "alive", 30.0)
        await store.release_seating(ALICE, GUILD, "dead")
        assert not await store.claim_seating(ALICE, GUILD, "third", 30.0)
    finally:
        await store.close()


def process(store: Store) -> Any:
    """What ``cogs.limits`` reads of a bot: its tables (on ``store``); its cooldowns are set
    on it when first needed, one set per process."""
    return SimpleNamespace(tables=Tables(store))


def request(client: Any) -> Any:
    """Alice's request on the server, delivered to the process of ``client``."""
    return SimpleNamespace(client=client, user=SimpleNamespace(id=ALICE), guild_id=GUILD)


async def take_seat(client: Any, channel_id: int) -> bool:
    """Alice starts a game in ``channel_id`` as /play does: counted, then (after the time it
    takes to answer Discord) stored; False when refused for the limit."""
    async with limits.seating(request(client)):
        try:
            await limits.check_room(client.tables, ALICE, GUILD)
        except BadOption:
            return False
        await asyncio.sleep(0.05)  # the table posted meanwhile
        await client.tables.start(
            channel_id=channel_id, guild_id=GUILD, game_key="mille", seats=ALICE_SEATS
        )
        return True


async def test_a_claim_held_too_long_is_refused_not_waited_for(store: Store) -> None:
    """A request waits for another's claim only so long (its member is told to press again):
    a claim may be held for its whole lease by a process that died holding it, and Discord
    takes the answer to a press only within three seconds."""
    assert await store.claim_seating(ALICE, GUILD, "dead", 30.0)
    if isinstance(store, SqliteStore):
        # One process serves a SQLite file: its own lock is the claim, and it never waits here.
        async with store.seating(ALICE, GUILD, wait=0.1):
            return
    began = time.monotonic()
    with pytest.raises(SeatingBusy):
        async with store.seating(ALICE, GUILD, wait=0.1):
            raise AssertionError("the claim was another's")
    assert time.monotonic() - began < 1.0


async def test_a_member_whose_claim_another_process_holds_is_told_to_press_again(
    pg_url: str,
) -> None:
    """Alice's /play reaches a process while another (one that died, say) holds her claim: she
    is refused in a sentence within Discord's three seconds, and nothing is stored."""
    backend = Backend("postgresql", pg_url)
    store = backend.store()
    await store.open()
    try:
        assert await store.claim_seating(ALICE, GUILD, "dead", 30.0)
        began = time.monotonic()
        with pytest.raises(BadOption, match="press again in a moment"):
            await take_seat(process(store), 100)
        assert time.monotonic() - began < 2.5
        assert await store.games_of_member(ALICE, active=True) == []
    finally:
        await store.close()


async def test_two_processes_seat_a_member_at_most_to_the_limit(pg_url: str) -> None:
    """Alice one game from the limit sends /play to two processes at the same moment: one game
    starts, the other is refused (before: both started, eleven games)."""
    backend = Backend("postgresql", pg_url)
    first, second = backend.store(), backend.store()
    await first.open()
    await second.open()
    try:
        one, two = process(first), process(second)
        for channel_id in range(1, limits.GAMES_AT_ONCE):
            await one.tables.start(
                channel_id=channel_id, guild_id=GUILD, game_key="mille", seats=ALICE_SEATS
            )
        started = await asyncio.gather(take_seat(one, 100), take_seat(two, 200))
        assert sorted(started) == [False, True]
        games = await first.games_of_member(ALICE, active=True)
        assert len(games) == limits.GAMES_AT_ONCE
        assert await backend.raw("SELECT COUNT(*) FROM seating_claims") == [(0,)]
    finally:
        await first.close()
        await second.close()


async def test_every_claim_is_let_go_once_the_seat_is_taken(pg_url: str) -> None:
    """A request refused or seated leaves no claim behind: the member's next request (from
    either process) is not kept waiting for a lease."""
    backend = Backend("postgresql", pg_url)
    first, second = backend.store(), backend.store()
    await first.open()
    await second.open()
    try:
        assert await take_seat(process(first), 1)
        assert await take_seat(process(second), 2)
        assert await backend.raw("SELECT COUNT(*) FROM seating_claims") == [(0,)]
    finally:
        await first.close()
        await second.close()


async def test_the_games_in_play_counted_are_the_members_on_that_server(store: Store) -> None:
    """Only games in play, on that server, where the member holds a seat: not a game on another
    server, not a finished one, not one seating a member whose id contains hers."""
    mine = await store.create_game(
        channel_id=1, guild_id=GUILD, game_key="mille", seats=ALICE_SEATS, options={}, state={}
    )
    await store.create_game(
        channel_id=2, guild_id=GUILD + 1, game_key="mille", seats=ALICE_SEATS, options={}, state={}
    )
    lookalike = [SeatRecord(0, "Al", user_id=int(f"{ALICE}9")), SeatRecord(1, "C", policy="normal")]
    await store.create_game(
        channel_id=3, guild_id=GUILD, game_key="mille", seats=lookalike, options={}, state={}
    )
    ended = await store.create_game(
        channel_id=4, guild_id=GUILD, game_key="mille", seats=ALICE_SEATS, options={}, state={}
    )
    await store.end_game(
        game_id=ended.id, expected_version=ended.version, status="finished", state={}
    )
    assert await store.games_in_play_of(ALICE, GUILD) == [(mine.id, 1)]
    assert await store.games_in_play_of(ALICE, GUILD + 2) == []

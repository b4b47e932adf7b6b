"""Whether a member already played today's deal (``bot.daily.played_today``, /play daily:true),
on SQLite and PostgreSQL: read from the member's own results of the day, through the index of
who sat at each result (migration 0017's ``result_members``), not from every result of the game
on the server that day.

The timings before and after were measured by a script (a store of 365 days × 500 daily
results), never asserted here.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.daily import daily_date, played_today
from bot.ratings import ResultRecord
from bot.store.base import SeatRecord, Store
from bot.store.sql import SqlStore
from tests.store.helpers import Backend, finished_game

ANN, BEA = 42, 420  # 420 holds Ann's digits: a false friend of a search by the seats' text
GUILD, OTHER_GUILD = 7, 8
DAY = 86_400.0
NOW = 1_780_012_800.0 + 13 * 3600.0  # 13:00 UTC
TODAY = daily_date(NOW)
YESTERDAY = daily_date(NOW - DAY)


async def _result(
    store: Store,
    user: int,
    *,
    at: float,
    deal: str | None,
    guild: int = GUILD,
    game_key: str = "solo",
) -> int:
    """A finished one-seat game of ``user``, its result recorded at ``at``: labelled the daily
    deal of ``deal`` (None: a game of the member's own settings)."""
    seats = (SeatRecord(0, f"P{user}", user),)
    options = {} if deal is None else {"daily": deal}
    game = await finished_game(
        store, channel_id=1, guild_id=guild, game_key=game_key, seats=seats, options=options
    )
    record = ResultRecord(
        game_id=game.id,
        game_key=game_key,
        guild_id=guild,
        finished_at=at,
        seats=(user,),
        ranks=(0,),
        scores=(4000,),
        options=options,
        counted=False,
    )
    await store.record_result(record, [seats[0].name])
    return game.id


async def _played(store: Store, user: int, *, guild: int = GUILD, game_key: str = "solo") -> bool:
    return await played_today(store, guild_id=guild, game_key=game_key, user_id=user, now=NOW)


async def test_only_the_members_own_result_of_todays_deal_counts(store: Store) -> None:
    """Ann finished today's deal; Bea (whose id holds Ann's digits) did not. Bea's deal of
    yesterday finished after midnight, her game of her own settings today, her deal on another
    server and of another game do not count as today's deal here, nor does a voided result."""
    await _result(store, ANN, at=NOW - 3600, deal=TODAY)
    await _result(store, BEA, at=NOW - 12 * 3600, deal=YESTERDAY)  # 01:00, dealt yesterday
    await _result(store, BEA, at=NOW - 3600, deal=None)
    await _result(store, BEA, at=NOW - 3600, deal=TODAY, guild=OTHER_GUILD)
    await _result(store, BEA, at=NOW - 3600, deal=TODAY, game_key="ttr-solo")
    await _result(store, BEA, at=NOW - DAY, deal=TODAY)  # a clock gone wrong: before today
    assert await _played(store, ANN) is True
    assert await _played(store, BEA) is False
    assert await _played(store, BEA, guild=OTHER_GUILD) is True
    assert await _played(store, BEA, game_key="ttr-solo") is True
    assert await _played(store, ANN, guild=OTHER_GUILD) is False

    voided = await _result(store, 4242, at=NOW - 60, deal=TODAY)
    assert await _played(store, 4242) is True
    await store.void_result(voided, "a test")
    assert await _played(store, 4242) is False


@pytest.mark.parametrize("user", [ANN, BEA])
async def test_the_check_reads_the_members_results_through_their_index(
    store: Store, backend: Backend, monkeypatch: pytest.MonkeyPatch, user: int
) -> None:
    """The query the check runs, as run, goes through ``result_members_newest``: no result of
    the server's day is read but the member's, no table is read whole, nothing is sorted."""
    for hour in range(1, 12):
        await _result(store, 1000 + hour, at=NOW - hour * 3600, deal=TODAY)
    await _result(store, ANN, at=NOW - 3600, deal=TODAY)
    assert isinstance(store, SqlStore)
    ran: list[tuple[str, tuple[Any, ...]]] = []
    read = store._read

    async def recorded(sql: str, *args: Any) -> Any:
        ran.append((sql, args))
        return await read(sql, *args)

    monkeypatch.setattr(store, "_read", recorded)
    assert await _played(store, user) is (user == ANN)
    assert len(ran) == 1, ran
    plan = await backend.plan(ran[0][0], *ran[0][1])
    assert "result_members_newest" in plan, plan
    assert "TEMP B-TREE" not in plan and "Sort" not in plan, plan
    # SQLite's SCAN, PostgreSQL's Seq Scan: a table read whole.
    assert not any(line.startswith("SCAN") for line in plan.splitlines()), plan
    assert "Seq Scan" not in plan, plan

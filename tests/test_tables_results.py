"""The seam records a result when a game finishes (by a move or a resignation), never on abort."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store.base import SeatRecord
from bot.store.sqlite import SqliteStore
from bot.tables import Tables, TableUpdate
from tests.seam import finish_randomly

CHANNEL, GUILD = 500, 9
ANN, BOB = 11, 22
NOW = 1_700_000_000.0


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Tables]:
    store = SqliteStore(tmp_path / "t.db")
    await store.open()
    yield Tables(store, clock=lambda: NOW)
    await store.close()


def _members() -> list[SeatRecord]:
    return [SeatRecord(0, "Ann", user_id=ANN), SeatRecord(1, "Bob", user_id=BOB)]


async def _start(tables: Tables, seats: list[SeatRecord], game_key: str = "mille") -> TableUpdate:
    options = {"length": "hand"} if game_key == "mille" else {}
    return await tables.start(
        channel_id=CHANNEL,
        guild_id=GUILD,
        game_key=game_key,
        seats=seats,
        options=options,
        seed=7,
    )


async def test_finishing_move_records_the_result(tables: Tables) -> None:
    """A member's move that ends a game between members records a counted result."""
    final = await finish_randomly(tables, await _start(tables, _members()), seed=1)
    assert final.outcome is not None
    [stored] = await tables.store.results()
    record = stored.record
    assert (record.game_id, record.game_key, record.guild_id) == (final.game.id, "mille", GUILD)
    assert record.seats == (ANN, BOB) and record.counted
    assert record.ranks == ((0, 1) if final.outcome.winners == (0,) else (1, 0))
    assert record.scores == final.outcome.scores
    assert record.finished_at == NOW
    assert record.options["moves"] == str(final.game.version)
    assert stored.names == ("Ann", "Bob") and stored.channel_id == CHANNEL


async def test_game_against_the_computer_is_recorded_uncounted(tables: Tables) -> None:
    """A game that ends with the computer at the table is recorded but does not count."""
    seats = [SeatRecord(0, "Ann", user_id=ANN), SeatRecord(1, "Computer", policy="random")]
    final = await finish_randomly(tables, await _start(tables, seats), seed=1)
    [stored] = await tables.store.results()
    assert stored.record.game_id == final.game.id
    assert stored.record.seats == (ANN, None) and not stored.record.counted
    assert stored.names == ("Ann", "Computer")


async def test_solo_game_is_recorded(tables: Tables) -> None:
    """A solo game that ends is recorded, uncounted, with its one seat."""
    final = await finish_randomly(
        tables, await _start(tables, [SeatRecord(0, "Ann", user_id=ANN)], "solo"), seed=1
    )
    [stored] = await tables.store.results()
    assert stored.record.game_id == final.game.id and stored.record.game_key == "solo"
    assert stored.record.seats == (ANN,) and not stored.record.counted


async def test_a_running_game_has_no_result(tables: Tables) -> None:
    """Moves that do not end the game record nothing."""
    start = await _start(tables, _members())
    user = start.to_act[0].user_id
    assert user is not None
    await tables.move(
        channel_id=CHANNEL, user_id=user, action=tables.hand(start.game, user)[1][0].notation
    )
    assert await tables.store.results() == []


async def test_resignation_records_the_result(tables: Tables) -> None:
    """Resigning records a result: the other seat first, the resigned seat last."""
    await _start(tables, _members())
    update = await tables.leave(channel_id=CHANNEL, user_id=ANN)
    [stored] = await tables.store.results()
    assert stored.record.game_id == update.game.id
    assert stored.record.ranks == (1, 0) and stored.record.counted
    assert stored.record.finished_at == NOW
    # Leaving is logged like a move (replays end on it), so it counts as one.
    assert stored.record.options["moves"] == "1"


async def test_abort_records_no_result(tables: Tables) -> None:
    """An aborted game leaves no result."""
    await _start(tables, _members())
    await tables.abort(channel_id=CHANNEL)
    assert await tables.store.results() == []


async def test_computer_move_that_ends_the_game_records_it(tables: Tables) -> None:
    """A game the computer ends (computer against computer, played out at start) is recorded."""
    seats = [SeatRecord(0, "North", policy="random"), SeatRecord(1, "South", policy="normal")]
    start = await _start(tables, seats)
    assert start.game.status == "finished" and start.steps[-1].by_computer
    [stored] = await tables.store.results()
    assert stored.record.game_id == start.game.id and stored.record.seats == (None, None)
    assert stored.record.options["moves"] == str(start.game.version)


async def test_a_result_whose_write_failed_is_recorded_by_settle_missing(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database fails the result's write as the last move is stored: the move stands and
    the game is finished, and the seam asks for ``settle_missing``, which records the result
    dated when the game ended, once."""
    store = tables.store
    write = store.record_result

    async def failing(*args: object, **kwargs: object) -> None:
        raise OSError("the database blinked")

    monkeypatch.setattr(store, "record_result", failing)
    final = await finish_randomly(tables, await _start(tables, _members()), seed=1)
    assert final.game.status == "finished" and await store.results() == []
    assert tables.settle_due
    monkeypatch.setattr(store, "record_result", write)
    recorded = await tables.settle_missing()
    assert (recorded, tables.settle_due) == (1, False)
    [stored] = await store.results()
    assert stored.record.game_id == final.game.id and stored.record.counted
    assert stored.record.finished_at == final.game.updated_at
    assert await tables.settle_missing() == 0
    assert len(await store.results()) == 1

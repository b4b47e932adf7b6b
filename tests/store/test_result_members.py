"""A member's results are found through the index of who sat at each result (migration 0017's
``result_members``), on SQLite and PostgreSQL: the index says exactly what the results' seats
say after every way a result is written (recorded, a member forgotten, voided and counted
again, ``junction migrate-db`` both ways, a hand-made statement, the migration's own backfill
of an older database), and /history's and /stats' reads go through it, not through every
result of the server.

The timings before and after are ``junction bench --boards``' ``history`` and ``stats`` lines,
never asserted here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.forget import forget_member
from bot.ratings import ResultRecord
from bot.store.base import SeatRecord, Store
from bot.store.migrate import migrate_db
from bot.store.rows import MEMBER_RESULT_SELECT, results_filter, results_order
from bot.store.sql import SqlStore
from bot.store.sqlite import SqliteStore
from tests.store.helpers import Backend, finished_game

ANN, BEA = 42, 420  # 420 holds Ann's digits: a false friend of a search by the seats' text
CAL = 4_200_000_000_000_000_042  # a snowflake-sized id, holding them too
GUILD = 7
INDEX = "result_members_newest"

Row = tuple[int, int, int | None, str, float]


async def _game(store: Store, channel_id: int, *seated: int | None, guild: int = GUILD) -> int:
    """A finished game of ``seated`` (None: the computer), its result recorded: Mille Bornes,
    finishing at ``channel_id`` seconds, the first seat winning."""
    seats = tuple(
        SeatRecord(i, f"P{user}", user, None if user else "greedy") for i, user in enumerate(seated)
    )
    game = await finished_game(
        store, channel_id=channel_id, guild_id=guild, game_key="mille", seats=seats
    )
    record = ResultRecord(
        game_id=game.id,
        game_key="mille",
        guild_id=guild,
        finished_at=float(channel_id),
        seats=tuple(seated),
        ranks=tuple(range(len(seated))),
    )
    await store.record_result(record, [s.name for s in seats])
    return game.id


def _named(seats: str) -> set[int]:
    """The members a result's stored seats name: the whole numbers of a JSON list (not the
    computer's nulls); nobody for seats that are not one (a damaged row)."""
    try:
        users = json.loads(seats)
    except ValueError:
        return set()
    return {user for user in users if type(user) is int} if isinstance(users, list) else set()


async def _index(backend: Backend) -> set[Row]:
    rows = await backend.raw(
        "SELECT game_id, user_id, guild_id, game_key, finished_at FROM result_members"
    )
    return {(int(g), int(u), guild, str(k), float(f)) for g, u, guild, k, f in rows}


async def _from_seats(backend: Backend) -> set[Row]:
    """What the index should hold: one row for each member each result's seats name."""
    rows = await backend.raw("SELECT game_id, seats, guild_id, game_key, finished_at FROM results")
    return {
        (int(game), user, guild, str(key), float(at))
        for game, seats, guild, key, at in rows
        for user in _named(seats)
    }


async def _check_index(backend: Backend) -> set[Row]:
    """The index, checked against the results' seats (and not empty: a test that wrote no
    result, or an index that kept nothing, proves nothing)."""
    index = await _index(backend)
    assert index == await _from_seats(backend)
    assert index
    return index


async def _ids(store: Store, user_id: int, **kwargs: Any) -> list[int]:
    return [r.record.game_id for r in await store.results(user_id=user_id, **kwargs)]


async def test_the_index_names_each_member_of_each_recorded_result(
    store: Store, backend: Backend
) -> None:
    """Recorded results are indexed by member (not the computer), and a member's results are
    theirs alone: not those of ids holding their digits, in the order of the whole list."""
    ann_first = await _game(store, 30, ANN, None)
    bea = await _game(store, 10, BEA, CAL)
    ann_then = await _game(store, 50, CAL, ANN)
    elsewhere = await _game(store, 20, ANN, BEA, guild=8)
    index = await _check_index(backend)
    assert {(g, u) for g, u, *_ in index} == {
        (ann_first, ANN),
        (bea, BEA),
        (bea, CAL),
        (ann_then, CAL),
        (ann_then, ANN),
        (elsewhere, ANN),
        (elsewhere, BEA),
    }
    assert await _ids(store, ANN, guild_id=GUILD) == [ann_first, ann_then]
    assert await _ids(store, ANN) == [elsewhere, ann_first, ann_then]
    assert await _ids(store, ANN, guild_id=GUILD, newest=1) == [ann_then]
    assert await _ids(store, BEA, guild_id=GUILD) == [bea]
    assert await _ids(store, CAL, guild_id=GUILD, game_key="mille", since=40.0) == [ann_then]
    assert await _ids(store, 4, guild_id=GUILD) == []
    # Recorded again (a retry): the first record stays, and so does its index.
    await store.record_result(
        ResultRecord(ann_first, "mille", GUILD, 99.0, (BEA, None), (0, 1)), ["B", "C"]
    )
    assert await _check_index(backend) == index


async def test_a_forgotten_member_leaves_the_index(store: Store, backend: Backend) -> None:
    """``junction forget-member`` rewrites the member's seats to a former player's: the index
    follows, naming the alias where it named them, and their id nowhere."""
    await _game(store, 10, ANN, BEA)
    await _game(store, 20, BEA, None)
    await _game(store, 30, CAL, ANN)
    done = await forget_member(store, ANN)
    assert done.results == 2
    index = await _check_index(backend)
    assert ANN not in {user for _, user, *_ in index}
    assert {user for _, user, *_ in index if user < 0}, "the former player is not indexed"
    assert await store.results(user_id=ANN) == []
    assert len(await _ids(store, BEA)) == 2


async def test_a_voided_result_stays_indexed_and_is_left_out(
    store: Store, backend: Backend
) -> None:
    """Voiding changes the result's options only: the index stays as it was, the member's
    reads leave the result out (a read of the newest goes further back for it), and counting it
    again brings it back."""
    first = await _game(store, 10, ANN, BEA)
    voided = await _game(store, 20, ANN, None)
    index = await _check_index(backend)
    assert await store.void_result(voided, "abuse") == "counted"
    assert await _check_index(backend) == index
    assert await _ids(store, ANN, guild_id=GUILD, newest=1) == [first]
    assert await store.void_result(voided, None) == "voided"
    assert await _check_index(backend) == index
    assert await _ids(store, ANN, guild_id=GUILD, newest=1) == [voided]


async def test_a_hand_made_statement_keeps_the_index(store: Store, backend: Backend) -> None:
    """The triggers keep the index whatever writes the results: an update of a result's seats,
    its time or its server, a delete, and on PostgreSQL a TRUNCATE, which fires no row's."""
    game = await _game(store, 10, ANN, BEA)
    other = await _game(store, 20, BEA, None)
    await backend.raw(
        f"UPDATE results SET seats = '[{CAL},null]', finished_at = 15.5, guild_id = 9"
        f" WHERE game_id = {game}"
    )
    index = await _check_index(backend)
    assert (game, CAL, 9, "mille", 15.5) in index
    assert await _ids(store, ANN) == []
    await backend.raw(f"DELETE FROM results WHERE game_id = {other}")
    assert {g for g, *_ in await _check_index(backend)} == {game}
    # A game deleted takes its result by the foreign key's cascade (the store's connection
    # enforces foreign keys), and the cascade its index rows.
    last = await _game(store, 30, ANN, None)
    assert isinstance(store, SqlStore)
    await store._write("DELETE FROM games WHERE id = $1", last)
    assert {g for g, *_ in await _check_index(backend)} == {game}
    if backend.name == "postgresql":
        await backend.raw("TRUNCATE results")
        assert await _index(backend) == set()


async def test_damaged_seats_name_nobody_and_refuse_no_write(
    store: Store, backend: Backend
) -> None:
    """Seats that are not a JSON list of ids (no result the store writes) index nobody, and a
    seat that is not a whole number nobody, alike on both stores, rather than failing the
    statement that wrote them."""
    game = await _game(store, 10, ANN, BEA)
    for damaged in ("not json", '{"a": 5}', "[1.5]", "7", "[true]", '["5"]'):
        await backend.raw(f"UPDATE results SET seats = '{damaged}' WHERE game_id = {game}")
        assert await _index(backend) == set(), damaged
    await backend.raw(f"UPDATE results SET seats = '[\"x\",{BEA},2.5]' WHERE game_id = {game}")
    assert await _check_index(backend) == {(game, BEA, GUILD, "mille", 10.0)}
    await backend.raw(f"UPDATE results SET seats = '[{ANN},{ANN}]' WHERE game_id = {game}")
    assert await _check_index(backend) == {(game, ANN, GUILD, "mille", 10.0)}


async def test_migrate_db_carries_the_index_both_ways(backend: Backend, tmp_path: Path) -> None:
    """``junction migrate-db`` copies results in bulk (PostgreSQL's COPY): the target's index
    is the copied results', even when ``--force`` replaces results the target held, and so
    is a copy's back from it."""
    path = tmp_path / "source.db"
    async with SqliteStore(path) as source:
        games = [
            await _game(source, 10, ANN, BEA),
            await _game(source, 20, CAL, None),
            await _game(source, 30, BEA, ANN, guild=8),
        ]
    target = backend.store()
    await target.open()
    try:
        # The target's own results, naming other members, on game ids the copy reuses and one
        # past them: --force deletes them, and their index rows with them.
        await _game(target, 40, 99, None)
        await _game(target, 50, 98, None)
        await _game(target, 60, 97, None)
        await _game(target, 70, 96, None)
    finally:
        await target.close()
    await migrate_db(f"sqlite:///{path}", backend.url, force=True)
    index = await _check_index(backend)
    assert {g for g, *_ in index} == set(games)
    copied = backend.store()
    await copied.open()
    try:
        assert await _ids(copied, ANN) == [games[0], games[2]]
        assert await copied.results(user_id=99) == []
    finally:
        await copied.close()
    back = tmp_path / "back.db"
    await migrate_db(backend.url, f"sqlite:///{back}")
    there = Backend("sqlite", f"sqlite:///{back}", back)
    assert await _check_index(there) == index


async def test_an_old_database_is_indexed_as_it_opens(backend: Backend) -> None:
    """A database at schema 16 (results in it, damaged seats among them) opens with every
    member of every result indexed, and the member's reads find theirs through the index."""
    await backend.migrate_to(16)
    seats = {
        1: f"[{ANN},null]",
        2: f"[{BEA},{CAL}]",
        3: f"[{CAL},{ANN}]",
        4: "[null]",
        5: "damaged",
        6: f"[{ANN},{ANN}]",
    }
    for game, seated in seats.items():
        await backend.raw(
            "INSERT INTO games (id, channel_id, guild_id, game_key, seats, options, state,"
            f" version, status, created_at, updated_at) VALUES ({game}, {game}, {GUILD},"
            " 'mille', '[]', '{}', '{}', 1, 'finished', 1.0, 1.0)"
        )
        await backend.raw(
            "INSERT INTO results (game_id, game_key, guild_id, finished_at, seats, names, ranks,"
            f" scores, options, counted, details) VALUES ({game}, 'mille', {GUILD}, {game}.0,"
            f" '{seated}', '[\"a\",\"b\"]', '[0,1]', '[]', '{{}}', TRUE, '[]')"
        )
    store = backend.store()
    await store.open()
    try:
        # Seats not a list of ids name nobody ("damaged": its row fails to read as before).
        assert {(g, u) for g, u, *_ in await _check_index(backend)} == {
            (1, ANN),
            (2, BEA),
            (2, CAL),
            (3, CAL),
            (3, ANN),
            (6, ANN),
        }
        assert await _ids(store, ANN, guild_id=GUILD, newest=10) == [1, 3, 6]
        assert await _ids(store, BEA, guild_id=GUILD) == [2]
    finally:
        await store.close()


@pytest.mark.parametrize("game_key", [None, "mille"])
async def test_a_members_results_are_read_through_the_index(
    store: Store, backend: Backend, game_key: str | None
) -> None:
    """/history's read (a member's newest results on a server) and /stats' (all of them) go
    through the index in its order: no read of the server's results, no sort."""
    await _game(store, 10, ANN, BEA)
    for newest in (True, False):
        where, parameters = results_filter(
            game_key=game_key, guild_id=GUILD, since=None, user_id=ANN
        )
        query = f"{MEMBER_RESULT_SELECT}{where}{results_order(ANN, newest=newest)} LIMIT 10"
        plan = await backend.plan(query, *parameters)
        assert INDEX in plan, plan
        assert "TEMP B-TREE" not in plan and "Sort" not in plan, plan
        # SQLite's SCAN, PostgreSQL's Seq Scan: a table read whole.
        assert not any(line.startswith("SCAN") for line in plan.splitlines()), plan
        assert "Seq Scan" not in plan, plan

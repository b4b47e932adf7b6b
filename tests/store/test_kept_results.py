"""Kept ladders (``bot.kept_results``) caught up with only the results written since answer
exactly as a full replay of the stored results, on SQLite and PostgreSQL: after new results, a
result written late, a member forgotten, a result deleted, in another store and in a database
that had results before results were numbered."""

from __future__ import annotations

import gc
import random
import tracemalloc
import weakref
from pathlib import Path

import pytest

from bot.boards import (
    Board,
    kept_rating_changes,
    leaderboard,
    member_stats,
    names_of,
    rating_changes,
)
from bot.kept_results import KeptLadder, KeptResults
from bot.ratings import ResultRecord, Scope, rating_history, standings
from bot.render.stats import MemberStats
from bot.store.base import GameRewrite, NumberedResults, SeatRecord, Store, StoredResult
from bot.store.sqlite import SqliteStore
from tests.store.helpers import Backend, finished_game

GUILDS = (7, 8)
MEMBERS = (11, 12, 13, 14, 15, 16)
ALIAS = -5
NOW = 2_000_000_000.0


async def _write(
    store: Store, rng: random.Random, finished_at: float, *, guild_id: int | None = None
) -> int:
    """One finished Dragon game (2–6 seats, ties, now and then the computer) and its result."""
    size = rng.randint(2, 6)
    users: list[int | None] = list(rng.sample(MEMBERS, size))
    if rng.random() < 0.15:
        users[-1] = None
    seats = tuple(
        SeatRecord(i, f"Name {u} {rng.randrange(3)}" if u else "Computer", u, None if u else "x")
        for i, u in enumerate(users)
    )
    guild = rng.choice(GUILDS) if guild_id is None else guild_id
    game = await finished_game(
        store, channel_id=rng.randrange(1, 10**12), guild_id=guild, game_key="dragon", seats=seats
    )
    record = ResultRecord(
        game_id=game.id,
        game_key="dragon",
        guild_id=guild,
        finished_at=finished_at,
        seats=tuple(users),
        ranks=tuple(rng.randrange(size) for _ in users),
        counted=None not in users,
    )
    await store.record_result(record, [s.name for s in seats])
    return game.id


async def _season(store: Store, seed: int, count: int, start: float = 1_000_000.0) -> float:
    """``count`` results a day or a few minutes apart; the time of the last."""
    rng = random.Random(seed)
    when = start
    for _ in range(count):
        when += rng.choice((600.0, 86_400.0))
        await _write(store, rng, when)
    return when


async def _boards(
    kept: KeptResults, store: Store, game: str = "dragon"
) -> tuple[list[Board], list[MemberStats]]:
    """Every board and card this test looks at, from the kept ladders (of ``game``)."""
    boards, cards = [], []
    for guild in (7, None):
        ladder = await kept.read(store, game_key=game, guild_id=guild)
        boards.append(
            leaderboard([], game_key=game, guild_id=guild, caller=11, now=NOW, here=7, kept=ladder)
        )
        for member in (11, 12, ALIAS):
            own = await store.results(guild_id=guild, user_id=member)
            cards.append(
                member_stats(
                    own,
                    user_id=member,
                    name="Me",
                    game_key=game,
                    guild_id=guild,
                    now=NOW,
                    kept=ladder,
                )
            )
    return boards, cards


async def _replayed(store: Store, game: str = "dragon") -> tuple[list[Board], list[MemberStats]]:
    """The same boards and cards replayed from every stored result."""
    boards, cards = [], []
    for guild in (7, None):
        results = await store.results(game_key=game, guild_id=guild)
        boards.append(
            leaderboard(results, game_key=game, guild_id=guild, caller=11, now=NOW, here=7)
        )
        for member in (11, 12, ALIAS):
            own = await store.results(guild_id=guild, user_id=member)
            merged = list({r.record.game_id: r for r in (*results, *own)}.values())
            cards.append(
                member_stats(
                    merged, user_id=member, name="Me", game_key=game, guild_id=guild, now=NOW
                )
            )
    return boards, cards


async def _same_as_a_full_replay(kept: KeptResults, store: Store) -> None:
    assert await _boards(kept, store) == await _replayed(store)
    # The chart points and names too, for every member (a card shows one member's).
    for guild in (7, None):
        ladder = await kept.read(store, game_key="dragon", guild_id=guild)
        results = await store.results(game_key="dragon", guild_id=guild)
        records = [r.record for r in results]
        for member in (*MEMBERS, ALIAS):
            assert ladder.card(member, NOW) == (
                standings(records, Scope("dragon", guild), NOW),
                rating_history(records, Scope("dragon", guild), member),
                names_of(results),
            )


async def test_new_results_are_rated_onto_the_kept_ladder(store: Store) -> None:
    """Results written after a board was read are rated onto the kept ladder, which then
    answers as a full replay; the ladder is not read whole again."""
    kept = KeptResults()
    last = await _season(store, 1, 25)
    await _same_as_a_full_replay(kept, store)
    read_whole = kept.full_reads
    rng = random.Random(2)
    for step in range(3):
        for _ in range(step + 1):
            last += 600.0
            await _write(store, rng, last)
        await _same_as_a_full_replay(kept, store)
    assert kept.full_reads == read_whole


async def test_a_result_written_late_is_rated_in_its_place(store: Store) -> None:
    """A result dated before the newest kept one (written late) is rated where it finished,
    as a full replay rates it."""
    kept = KeptResults()
    await _season(store, 3, 25)
    await _same_as_a_full_replay(kept, store)
    await _write(store, random.Random(4), 1_000_000.0 + 86_400.0 * 2.5, guild_id=7)
    await _same_as_a_full_replay(kept, store)


async def test_a_forgotten_member_leaves_the_kept_ladder(store: Store) -> None:
    """After a member is forgotten (their seats in every result rewritten to an alias and a
    former player's name), the kept ladder answers as a full replay: no rating, name or
    chart point of theirs is left under their id."""
    kept = KeptResults()
    await _season(store, 5, 25)
    await _same_as_a_full_replay(kept, store)
    games = await store.games_of_member(12)
    rewrites = [
        GameRewrite(
            g.id,
            tuple(
                SeatRecord(s.seat, "Former player", ALIAS) if s.user_id == 12 else s
                for s in g.seats
            ),
            {},
            None,
        )
        for g in games
    ]
    await store.forget_member(12, alias=ALIAS, name="Former player", games=rewrites)
    await _same_as_a_full_replay(kept, store)
    board, _ = await _boards(kept, store)
    assert 12 not in {row.player for row in board[0].rows}


async def test_a_deleted_result_leaves_the_kept_ladder(store: Store, backend: Backend) -> None:
    """A result deleted from the store (by hand, or a store emptied and filled again) is no
    longer rated on the kept ladder."""
    kept = KeptResults()
    await _season(store, 6, 25)
    await _same_as_a_full_replay(kept, store)
    [(first,)] = await backend.raw(
        "SELECT MIN(game_id) FROM results WHERE guild_id = 7 AND counted"
    )
    await backend.raw(f"DELETE FROM results WHERE game_id = {int(first)}")
    await _same_as_a_full_replay(kept, store)


async def test_another_store_has_ladders_of_its_own(backend: Backend, tmp_path: Path) -> None:
    """Two stores read through the same kept ladders each get their own results' answer, even
    when their results are numbered alike."""
    kept = KeptResults()
    first = backend.store()
    await first.open()
    try:
        await _season(first, 7, 12)
        await _same_as_a_full_replay(kept, first)
    finally:
        await first.close()
    other = Backend("sqlite", "", tmp_path / "other.db")
    second = other.store()
    await second.open()
    try:
        await _season(second, 8, 12)
        await _same_as_a_full_replay(kept, second)
    finally:
        await second.close()


def _sql_value(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


async def test_results_stored_before_numbering_are_numbered(backend: Backend) -> None:
    """A database with results from before migration 0008 has them numbered when it is opened,
    every later result numbered above them, and its kept ladders answer as a full replay."""
    from bot.bench_boards import season_rows
    from bot.store.migrate import GAME_COLUMNS, RESULT_COLUMNS

    await backend.migrate_to(7)
    games, results, _ = season_rows(60, members=8, now=1_500_000_000.0)
    for table, columns, rows in (
        ("games", GAME_COLUMNS, games),
        ("results", RESULT_COLUMNS, results),
    ):
        values = ", ".join("(" + ", ".join(_sql_value(v) for v in row) + ")" for row in rows)
        await backend.raw(f"INSERT INTO {table} ({', '.join(columns)}) VALUES {values}")
    if backend.name == "postgresql":  # as migrate-db does: new games numbered after these
        await backend.raw(
            "SELECT setval(pg_get_serial_sequence('games', 'id'), MAX(id)) FROM games"
        )
    store = backend.store()
    await store.open()
    try:
        kept = KeptResults()
        before = await store.results_after(game_key="dragon", guild_id=None)
        stored = await store.results(game_key="dragon", guild_id=None)
        assert before.results == tuple(stored) and stored
        assert len(set(before.numbers)) == len(before.numbers)
        await _same_as_a_full_replay(kept, store)
        await _season(store, 10, 3, start=1_600_000_000.0)
        after = await store.results_after(
            game_key="dragon", guild_id=None, after=max(before.numbers)
        )
        assert len(after.results) == 3 and min(after.numbers) > max(before.numbers)
        await _same_as_a_full_replay(kept, store)
    finally:
        await store.close()


async def test_postgresql_commits_results_in_the_order_they_are_numbered(pg_url: str) -> None:
    """On PostgreSQL a result is numbered before commit: a second result written meanwhile
    waits until the first commits, so no reader can see a number before a lower one commits
    (and never read the lower one)."""
    import asyncio

    import asyncpg

    from bot.store.postgres import RESULTS_LOCK_KEY, PostgresStore

    store = PostgresStore(pg_url)
    await store.open()
    holder = await asyncpg.connect(pg_url)
    try:
        rng = random.Random(11)
        await _write(store, rng, 1_000_000.0)
        async with holder.transaction():
            # Another writer of a result, between its number and its commit.
            await holder.execute("SELECT pg_advisory_xact_lock($1)", RESULTS_LOCK_KEY)
            writing = asyncio.create_task(_write(store, rng, 1_000_600.0))
            await asyncio.sleep(0.5)
            assert not writing.done()
        await asyncio.wait_for(writing, 10)
        numbered = await store.results_after(game_key="dragon", guild_id=None)
        assert len(numbered.results) == 2
    finally:
        await holder.close()
        await store.close()


async def test_the_ladders_of_a_store_dropped_go_with_it(tmp_path: Path) -> None:
    """A store closed and dropped (a restart of the store, another database) leaves no ladder
    behind: the memory kept is for stores in use."""
    kept = KeptResults()
    for name in ("first.db", "second.db"):
        store = SqliteStore(tmp_path / name)
        await store.open()
        try:
            await _season(store, 12, 5)
            await kept.read(store, game_key="dragon", guild_id=7)
            await kept.read(store, game_key="dragon", guild_id=None)
        finally:
            await store.close()
        del store
        gc.collect()
    assert len(kept) == 2


async def test_the_rating_line_from_a_kept_ladder_matches_a_full_replay(store: Store) -> None:
    """The line posted after each rated game (each member's rating before and after it) is,
    from the kept ladder caught up with the game, the line a replay of every result gives."""
    kept = KeptResults()
    when = await _season(store, 13, 10)
    rng = random.Random(14)
    lines = 0
    for _ in range(12):
        when += 600.0
        game_id = await _write(store, rng, when, guild_id=7)
        ladder = await kept.read(store, game_key="dragon", guild_id=7)
        results = await store.results(game_key="dragon", guild_id=7)
        if not next(r for r in results if r.record.game_id == game_id).record.counted:
            continue  # with the computer: no line is posted
        replayed = rating_changes(results, game_id=game_id, game_key="dragon", guild_id=7)
        assert kept_rating_changes(ladder, game_id) == replayed
        lines += 1
    assert lines >= 6


async def test_past_keep_ladders_the_least_used_is_dropped(store: Store) -> None:
    """With more ladders asked for than ``keep``, the one asked for least recently is dropped
    (read whole when asked again); one asked for again since is kept."""
    kept = KeptResults(keep=2)
    await _season(store, 15, 12)
    for guild in (7, 8, 7, None):  # 7 asked again after 8: 8 is the least used
        await kept.read(store, game_key="dragon", guild_id=guild)
    assert len(kept) == 2
    read_whole = kept.full_reads
    await kept.read(store, game_key="dragon", guild_id=7)
    assert kept.full_reads == read_whole
    await kept.read(store, game_key="dragon", guild_id=8)
    assert kept.full_reads == read_whole + 1


async def test_past_keep_bytes_the_least_used_ladder_is_dropped(store: Store) -> None:
    """Ladders holding more than ``keep_bytes`` in all lose the least used one,
    never the one just asked for; up to the bound, both stay."""
    kept = KeptResults()
    await _season(store, 16, 30)
    server = await kept.read(store, game_key="dragon", guild_id=7)
    everywhere = await kept.read(store, game_key="dragon", guild_id=None)
    kept.keep_bytes = server.held + everywhere.held
    await kept.read(store, game_key="dragon", guild_id=None)
    assert len(kept) == 2
    kept.keep_bytes -= 1
    await kept.read(store, game_key="dragon", guild_id=None)
    assert len(kept) == 1
    read_whole = kept.full_reads
    await kept.read(store, game_key="dragon", guild_id=None)
    assert kept.full_reads == read_whole
    await kept.read(store, game_key="dragon", guild_id=7)
    assert kept.full_reads == read_whole + 1


def _made_up_results(count: int, members: int) -> NumberedResults:
    """``count`` rated results of 2–6 members among ``members``, on two servers, named."""
    rng = random.Random(17)
    results = []
    for game_id in range(1, count + 1):
        seats = tuple(rng.sample(range(1, members + 1), rng.randint(2, 6)))
        record = ResultRecord(
            game_id=game_id,
            game_key="dragon",
            guild_id=rng.choice(GUILDS),
            finished_at=1_000_000.0 + 600.0 * game_id,
            seats=seats,
            ranks=tuple(rng.sample(range(len(seats)), len(seats))),
        )
        names = tuple(f"Member {user} {rng.randrange(3)}" for user in seats)
        results.append(StoredResult(record, names, 1, None))
    return NumberedResults(tuple(results), tuple(range(1, count + 1)), 0)


def test_what_a_ladder_counts_as_held_covers_its_memory(tmp_path: Path) -> None:
    """``KeptLadder.held``, which ``keep_bytes`` bounds, is at least the memory a ladder keeps
    once the results it was read from are gone, and not far above it."""
    store = SqliteStore(tmp_path / "unused.db")
    for guild in (7, None):  # names per server too, on a ladder across servers
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            ladder = KeptLadder(Scope("dragon", guild), weakref.ref(store))
            ladder.take(_made_up_results(3_000, members=400), fresh=True)
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        assert held <= ladder.held <= 2 * held


async def test_a_ladder_read_whole_again_holds_one_read_at_a_time(
    store: Store, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store emptied and filled again numbers every result above those a kept ladder read:
    the read of what is new brings every result, then the count of changes says to read the
    ladder whole. The first read is let go before the whole one, so catching up holds one
    read of every result at a time, as a first read does, not two."""
    kept = KeptResults()
    await _season(store, 18, 20)
    await kept.read(store, game_key="dragon", guild_id=None)
    await backend.raw("DELETE FROM results")
    await _season(store, 19, 20)
    reads: list[weakref.ref[NumberedResults]] = []
    earlier_alive: list[bool] = []
    read = store.results_after

    async def watched(*, game_key: str, guild_id: int | None, after: int = 0) -> NumberedResults:
        gc.collect()
        earlier_alive.append(any(earlier() is not None for earlier in reads))
        numbered = await read(game_key=game_key, guild_id=guild_id, after=after)
        reads.append(weakref.ref(numbered))
        return numbered

    monkeypatch.setattr(store, "results_after", watched)
    await kept.read(store, game_key="dragon", guild_id=None)
    assert kept.full_reads == 2
    assert earlier_alive == [False, False]


async def test_a_catch_up_taken_twice_rates_its_results_once(store: Store) -> None:
    """A request cancelled while its catch-up rates in a worker thread lets the next request
    read the same new results: the second catch-up rates none of them again."""
    kept = KeptResults()
    last = await _season(store, 5, 12)
    ladder = await kept.read(store, game_key="dragon", guild_id=None)
    rng = random.Random(6)
    for _ in range(3):
        last += 600.0
        await _write(store, rng, last)
    numbered = await store.results_after(game_key="dragon", guild_id=None, after=ladder.last_number)
    assert len(numbered.results) == 3
    ladder.take(numbered, fresh=False)
    ladder.take(numbered, fresh=False)
    await _same_as_a_full_replay(kept, store)

"""``junction bench --boards``: how long a big, old server waits for its boards.

A store is filled, through the store's own bulk path (``junction migrate-db``'s), with a season
of made-up results: ``sizes`` results over two years, across a few thousand members, every
game, tables of two to six seats (some with the computer, some solitaires). Then the work
/leaderboard (each scope and period), /stats, /history, the rating line after a game and
/replay's look-up of a channel's last game do is timed as the cogs do it (the store's read, the
board or card off the event loop, the picture drawn), each several times for p50 and p95, and
the event loop's worst stall while a board is built: how late a command of another channel
would be answered meanwhile. Figures are wall time (the member's wait), so a busy machine shows
slower; the last line of ``junction bench`` is one JSON object with them.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.timing import percentile

if TYPE_CHECKING:
    from bot.store.base import Store

Renderer = Callable[..., Awaitable[Any]]
"""Draws a picture off the event loop: ``renderer(function, *args)``, as the cogs' renderer."""

DAY = 86_400.0
GUILD = 1_000  # the big, old server the boards are asked on
OTHER_GUILDS = (1_001, 1_002)  # smaller servers, for the boards across servers
CHANNELS = 40
NO_GAMES = 9_999  # a member of the big server with no games in the season (/history of them)
# (game key, fewest seats, most seats, share of results): dragon is the 3–6 seat game.
MIX: tuple[tuple[str, int, int, float], ...] = (
    ("mille", 2, 2, 0.30),
    ("race", 2, 2, 0.15),
    ("dragon", 2, 6, 0.20),
    ("ttr", 2, 4, 0.15),
    ("solo", 1, 1, 0.12),
    ("ttr-solo", 1, 1, 0.08),
)


@dataclass(frozen=True)
class Season:
    """What was stored: the newest result's time, a busy member of the big server, and the
    big server's latest rated Mille Bornes game (whose rating line is asked)."""

    now: float
    busy_member: int
    results: int
    last_rated_mille: int = 0


def season_rows(
    count: int, *, members: int = 3_000, seed: int = 1, now: float | None = None
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], Season]:
    """``count`` made-up finished games and their results, as migrate-db's bulk rows.

    Member activity is skewed (a few regulars play most games), 85 % of games are on ``GUILD``,
    one in ten multi-seat games has a computer seat, and finishing times spread over two years.
    """
    from bot.store.rows import dump_json

    rng = random.Random(seed)
    end = time.time() if now is None else now
    start = end - 730 * DAY
    weights = list(itertools.accumulate(1.0 / (1 + i) ** 0.8 for i in range(members)))
    people = list(range(10_001, 10_001 + members))
    keys = [key for key, *_ in MIX]
    shares = [share for *_, share in MIX]
    spans = {key: (low, high) for key, low, high, _ in MIX}
    times = sorted(rng.uniform(start, end) for _ in range(count))
    games: list[tuple[Any, ...]] = []
    results: list[tuple[Any, ...]] = []
    last_rated_mille = 0
    for game_id, finished in enumerate(times, start=1):
        key = rng.choices(keys, shares)[0]
        low, high = spans[key]
        size = rng.randint(low, high)
        guild = GUILD if rng.random() < 0.85 else rng.choice(OTHER_GUILDS)
        seated: list[int | None] = []
        while len(seated) < size:
            user = rng.choices(people, cum_weights=weights)[0]
            if user not in seated:
                seated.append(user)
        if size > 1 and rng.random() < 0.1:
            seated[-1] = None  # a computer seat: recorded, never rated
        counted = size > 1 and None not in seated
        if counted and key == "mille" and guild == GUILD:
            last_rated_mille = game_id
        order = list(range(size))
        rng.shuffle(order)
        ranks = [0] * size
        for place, seat in enumerate(order):
            ranks[seat] = place
        if size > 2 and rng.random() < 0.05:
            ranks[order[-1]] = ranks[order[-2]]  # two sharing last place
        scores = [rng.randint(0, 1000) for _ in range(size)]
        details = [{"won": int(r == 0), "score": s} for r, s in zip(ranks, scores, strict=True)]
        if size == 1:
            won = rng.random() < 0.3
            details = [{"won": int(won), "score": scores[0], "cleared": rng.randint(10, 48)}]
            ranks = [0 if won else 1]
        names = [f"Member {u}" if u is not None else "Computer (normal)" for u in seated]
        seats = [
            {"seat": i, "name": n, "user_id": u, "policy": None if u else "normal"}
            for i, (u, n) in enumerate(zip(seated, names, strict=True))
        ]
        channel = guild * 100 + rng.randrange(CHANNELS)
        games.append(
            (
                game_id,
                channel,
                guild,
                key,
                dump_json(seats),
                "{}",
                "{}",
                40,
                "finished",
                900_000 + game_id,
                finished - 1_200,
                finished,
                None,
                None,
                None,
            )
        )
        results.append(
            (
                game_id,
                key,
                guild,
                finished,
                dump_json(seated),
                dump_json(names),
                dump_json(ranks),
                dump_json(scores),
                "{}",
                counted,
                dump_json(details),
            )
        )
    return games, results, Season(end, people[0], count, last_rated_mille)


async def fill_store(store: Store, count: int, *, seed: int = 1) -> Season:
    """Empty the (open) store and store ``count`` results through migrate-db's bulk path."""
    from bot.store.migrate import _transaction

    games, results, season = season_rows(count, seed=seed)
    async with _transaction(store) as writer:
        await writer.clear()
        for first in range(0, count, 5_000):
            await writer.add(games[first : first + 5_000], [], results[first : first + 5_000])
        await writer.finish()
    return season


async def _store_a_game(store: Store, season: Season, n: int) -> None:
    """A Mille Bornes game between two of the big server's members, ended and its result
    stored as the bot stores one (``n`` makes each later than the last)."""
    from bot.ratings import ResultRecord
    from bot.store.base import SeatRecord

    players = (season.busy_member, season.busy_member + 1)
    seats = tuple(SeatRecord(i, f"Member {u}", u) for i, u in enumerate(players))
    game = await store.create_game(
        channel_id=GUILD * 100 + CHANNELS,
        guild_id=GUILD,
        game_key="mille",
        seats=seats,
        options={},
        state={},
    )
    await store.end_game(game_id=game.id, expected_version=0, status="finished", state={})
    record = ResultRecord(
        game_id=game.id,
        game_key="mille",
        guild_id=GUILD,
        finished_at=season.now + n,
        seats=players,
        ranks=(n % 2, 1 - n % 2),
    )
    await store.record_result(record, [s.name for s in seats])


async def _stall_during(work: Callable[[], Awaitable[Any]]) -> tuple[float, float]:
    """``work``'s wall seconds, and the event loop's worst lateness meanwhile (seconds): how
    long a command from another channel would wait to be answered."""
    worst = 0.0
    done = False

    async def tick() -> None:
        nonlocal worst
        while not done:
            before = time.perf_counter()
            await asyncio.sleep(0.005)
            worst = max(worst, time.perf_counter() - before - 0.005)

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0)
    start = time.perf_counter()
    try:
        await work()
    finally:
        elapsed = time.perf_counter() - start
        done = True
        await ticker
    return elapsed, worst


def _commands(
    store: Store, season: Season, renderer: Renderer
) -> dict[str, Callable[[], Awaitable[Any]]]:
    """Each board command's work as its cog does it, minus Discord."""
    from functools import partial

    from bot.boards import (
        HISTORY_GAMES,
        KEPT,
        history_lines,
        kept_rating_changes,
        leaderboard,
        member_stats,
        rating_changes,
        since,
    )
    from bot.render.leaderboard import leaderboard_png
    from bot.render.stats import stats_png

    now = season.now
    me = season.busy_member

    def board(game: str, scope: str, period: str) -> Callable[[], Awaitable[Any]]:
        guild = GUILD if scope == "server" else None
        # As the cog: the all-time ladder (or best-results board) is kept (bot/kept_results.py).
        kept = period == "all"

        async def run() -> None:
            if kept:
                ladder = await KEPT.read(store, game_key=game, guild_id=guild)
                results = []
            else:
                ladder = None
                results = await store.results(
                    game_key=game, guild_id=guild, since=since(period, now)
                )
            made = await asyncio.to_thread(
                partial(
                    leaderboard,
                    results,
                    game_key=game,
                    guild_id=guild,
                    caller=me,
                    now=now,
                    here=GUILD,
                    kept=ladder,
                )
            )
            await renderer(leaderboard_png, game, made.rows, made.caller_row, period, "Rating")

        return run

    def stats(game: str) -> Callable[[], Awaitable[Any]]:
        async def run() -> None:
            own = await store.results(guild_id=GUILD, user_id=me)
            kept = await KEPT.read(store, game_key=game, guild_id=GUILD)
            card = await asyncio.to_thread(
                partial(
                    member_stats,
                    own,
                    user_id=me,
                    name="Member",
                    game_key=game,
                    guild_id=GUILD,
                    now=now,
                    kept=kept,
                )
            )
            await renderer(stats_png, card)

        return run

    def history(member: int) -> Callable[[], Awaitable[Any]]:
        async def run() -> None:
            results = await store.results(guild_id=GUILD, user_id=member, newest=HISTORY_GAMES)
            history_lines(results, member, escape=str)

        return run

    last_rated = season.last_rated_mille

    async def rating_line() -> None:
        # The line under a game's last table, as the cog: the kept ladder, or a replay of
        # every result for a game no longer among its latest.
        kept = await KEPT.read(store, game_key="mille", guild_id=GUILD)
        changes = await asyncio.to_thread(kept_rating_changes, kept, last_rated)
        if changes is None:
            results = await store.results(game_key="mille", guild_id=GUILD)
            await asyncio.to_thread(
                partial(
                    rating_changes,
                    results,
                    game_id=last_rated,
                    game_key="mille",
                    guild_id=GUILD,
                )
            )

    jobs: dict[str, Callable[[], Awaitable[Any]]] = {}
    for scope in ("server", "global"):
        for period in ("all", "month", "week"):
            jobs[f"leaderboard_mille_{scope}_{period}"] = board("mille", scope, period)
    jobs["leaderboard_dragon_server_all"] = board("dragon", "server", "all")
    jobs["leaderboard_solo_server_all"] = board("solo", "server", "all")
    jobs["stats_mille"] = stats("mille")
    jobs["stats_dragon"] = stats("dragon")
    jobs["stats_solo"] = stats("solo")
    jobs["history"] = history(me)
    # Any member may be named: one with no games on the server read every result of it while
    # a member's results were found by their seats' text (0.56 s at 200 000).
    jobs["history_no_games"] = history(NO_GAMES)

    async def replay_lookup() -> None:
        # /replay's reads before any picture (bot/hindsight.py): the channel's last finished
        # game, and the member's last aborted game there.
        channel = GUILD * 100
        await store.last_finished_game(channel)
        await store.last_aborted_game_of(me, channel)

    jobs["replay_lookup"] = replay_lookup
    jobs["rating_line_mille"] = rating_line
    # Last, as it adds results: a game ends, its result is stored, and the all-time board is
    # asked, as after every game on a busy server (what the new result costs the board).
    played = itertools.count(1)
    server_board = board("mille", "server", "all")

    async def board_after_a_game() -> None:
        await _store_a_game(store, season, next(played))
        await server_board()

    jobs["leaderboard_mille_after_game"] = board_after_a_game
    return jobs


async def bench_boards_store(
    store: Store, sizes: Sequence[int], repeats: int, say: Callable[[str], None] = print
) -> dict[str, float]:
    """Fill the open ``store`` to each size in turn and time every board command on it."""

    async def renderer(function: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(function, *args)

    figures: dict[str, float] = {}
    for size in sizes:
        season = await fill_store(store, size)
        for name, job in _commands(store, season, renderer).items():
            # The first run after a restart replays the ladder; later ones extend it.
            cold, _ = await _stall_during(job)
            figures[f"{size}_{name}_first_ms"] = cold * 1000
            times, stalls = [], []
            for _ in range(repeats):
                elapsed, stall = await _stall_during(job)
                times.append(elapsed * 1000)
                stalls.append(stall * 1000)
            p50, p95 = statistics.median(times), percentile(times, 0.95)
            stall = max(stalls)
            say(
                f"{size:>7} {name:<30} first {cold * 1000:7.0f} ms  p50 {p50:7.0f} ms"
                f"  p95 {p95:7.0f} ms  stall {stall:5.0f} ms"
            )
            figures[f"{size}_{name}_p50_ms"] = p50
            figures[f"{size}_{name}_p95_ms"] = p95
            figures[f"{size}_{name}_stall_ms"] = stall
    return figures


async def _not_the_benches(url: str) -> str | None:
    """What the database at ``url`` holds that neither bench wrote, in words (None: nothing).

    The benches' own rows may be emptied again: this module's season (its servers, ``GUILD``
    and ``OTHER_GUILDS``) and ``junction bench --store``'s games (game key ``bench``). Any
    other game (a server's, the console's) or server setting is someone's.
    """
    from bot.engine.words import plural
    from bot.store import opened_store
    from bot.store.sql import SqlStore

    store = await opened_store(url)
    try:
        assert isinstance(store, SqlStore)  # PostgreSQL: bench_pg took no other URL
        servers = ", ".join(str(guild) for guild in (GUILD, *OTHER_GUILDS))
        [row] = await store._read(
            "SELECT (SELECT count(*) FROM games WHERE game_key <> 'bench'"
            f" AND (guild_id IS NULL OR guild_id NOT IN ({servers}))) AS games,"
            " (SELECT count(*) FROM guild_settings) AS settings"
        )
    finally:
        await store.close()
    games, settings = int(row["games"]), int(row["settings"])
    held = [plural(games, "game")] if games else []
    if settings:
        held.append(f"the settings of {plural(settings, 'server')}")
    return " and ".join(held) or None


def run_boards_bench(*, quick: bool = False) -> int:
    """``junction bench --boards``: board timings on SQLite (and PostgreSQL when
    ``JUNCTION_BENCH_PG`` names a scratch database) at growing numbers of results."""
    import resource
    import tempfile
    from pathlib import Path

    from bot.store import opened_store, redact_url

    sizes = (2_000, 10_000) if quick else (10_000, 50_000, 200_000)
    repeats = 3 if quick else 5
    urls = []
    with tempfile.TemporaryDirectory() as folder:
        urls.append(("sqlite", f"sqlite:///{Path(folder) / 'boards.db'}"))
        from bot.bench import bench_pg

        pg_url, refused = bench_pg()
        if refused:
            return refused
        if pg_url:
            held = asyncio.run(_not_the_benches(pg_url))
            if held:
                # Filling the store empties it first (fill_store): pointed at the bot's own
                # database, this wiped every game and result the servers had.
                print(
                    f"junction bench: JUNCTION_BENCH_PG: {redact_url(pg_url)} holds {held} "
                    "that no bench made, and --boards empties the database it measures; "
                    "name a scratch database.",
                    file=sys.stderr,
                )
                return 2
            urls.append(("postgresql", pg_url))
        figures: dict[str, float] = {}
        print(
            f"results, command: the first run (a replay), then wall p50/p95 over {repeats} runs"
            " and the event loop's worst stall"
        )
        for name, url in urls:

            async def measure(url: str = url) -> dict[str, float]:
                store = await opened_store(url)
                try:
                    return await bench_boards_store(store, sizes, repeats)
                finally:
                    await store.close()

            print(name)
            figures.update({f"{name}_{k}": v for k, v in asyncio.run(measure()).items()})
    figures["peak_memory_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if not pg_url:
        print("postgresql skipped: set JUNCTION_BENCH_PG=postgresql://… to a scratch database")
    print(f"peak memory {figures['peak_memory_mb']:.1f} MB")
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}))
    return 0

"""``junction bench``: timings of the parts a player waits on, printed, never asserted.

Figures per game (``--game K`` for one, at ``--players N`` or its largest table): table render + PNG
encode (median, p95, bytes), random full games per second on one core, its default computer player's
time per decision, and for a game whose ``expert`` searches, how many of its imagined playouts
(rollouts) one core runs per second — all in CPU time of the one core doing the work; then stored
moves per second (one SQLite transaction each, on a file) and the process's peak memory. With
``--discord``, interaction-to-reply latency through a local fake Discord and the bot's resident
memory. With ``--store``, only the stores under load instead: SQLite, and PostgreSQL when
``JUNCTION_BENCH_PG`` names a server, at 1, 10 and 100 channels moving at once. The last line is one
JSON object with every figure, for benchmark files.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from bot.engine.core import BadOption, players_wanted
from bot.games import all_bundles, bundle, get_game, get_policy
from bot.timing import percentile


def _clock() -> float:
    """CPU seconds of this process: what one core spends, whatever else the machine runs.

    The engine, renderers and computer players are single-threaded CPU work, so their cost is
    the CPU time they take; wall time on a shared machine would add other jobs' time.
    """
    return time.process_time()


def _random_states(
    game_key: str,
    seats: int,
    count: int,
    *,
    skip: int = 10,
    options: Mapping[str, str] | None = None,
) -> list[Any]:
    """Positions from random playouts, sampled every ``skip`` moves (busy tables included)."""
    game = get_game(game_key)
    states: list[Any] = []
    seed = 0
    while len(states) < count and seed < count * 50:
        rng = random.Random(seed)
        state = game.new_game([f"P{i}" for i in range(seats)], seed, options)
        played = 0
        while game.outcome(state) is None and len(states) < count:
            seat = min(game.to_act(state))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            played += 1
            if played % skip == 0:
                states.append(state)
        seed += 1
    return states


def bench_render(game_key: str, seats: int, repeats: int) -> dict[str, float]:
    found = bundle(game_key)
    table_png = found.presenter.table_png
    views = [found.game.public_view(s) for s in _random_states(game_key, seats, 20)]
    table_png(views[0])  # warm the font and card-face caches, as a running bot has them
    times, sizes = [], []
    for i in range(repeats):
        start = _clock()
        png = table_png(views[i % len(views)])
        times.append((_clock() - start) * 1000)
        sizes.append(len(png))
    return {
        "render_median_ms": statistics.median(times),
        "render_p95_ms": percentile(times, 0.95),
        "png_median_kb": statistics.median(sizes) / 1024,
        "png_max_kb": max(sizes) / 1024,
    }


def bench_playouts(
    game_key: str, seats: int, seconds: float, options: Mapping[str, str] | None = None
) -> dict[str, float]:
    """Whole games of uniformly random legal play, engine only, on this one core."""
    game = get_game(game_key)
    games = moves = 0
    start = _clock()
    while _clock() - start < seconds:
        rng = random.Random(games)
        state = game.new_game([f"P{i}" for i in range(seats)], games, options)
        while game.outcome(state) is None:
            seat = min(game.to_act(state))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            moves += 1
        games += 1
    elapsed = _clock() - start
    return {"games_per_s": games / elapsed, "engine_moves_per_s": moves / elapsed}


def bench_policy(
    game_key: str, seats: int, decisions: int, options: Mapping[str, str] | None = None
) -> dict[str, float]:
    """The game's default computer player's time per decision, in seat 0 against random."""
    found = bundle(game_key)
    game = found.game
    chosen, rival = get_policy(found.key), get_policy(found.key, "random")
    rng = random.Random(7)
    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        state = game.new_game([f"P{i}" for i in range(seats)], seed, options)
        seed += 1
        while game.outcome(state) is None and len(times) < decisions:
            seat = min(game.to_act(state))
            view = game.private_view(state, seat)
            if seat == 0:
                start = _clock()
                text = chosen.choose(view, rng)
                times.append((_clock() - start) * 1000)
            else:
                text = rival.choose(view, rng)
            state = game.apply(state, seat, game.parse_action(text))
    return {
        f"{found.default_policy}_median_ms": statistics.median(times),
        f"{found.default_policy}_p95_ms": percentile(times, 0.95),
    }


def bench_rollouts(
    game_key: str, seats: int, seconds: float, options: Mapping[str, str] | None = None
) -> dict[str, float]:
    """The searching expert's rollouts per second from each deal's first decision (what a
    search's strength buys with its time), and its imagined deals (determinizations) per
    second, which each round of the search pays for too; empty for a game without one."""
    found = bundle(game_key)
    if "expert" not in found.policies:
        return {}
    domain = getattr(found.policies["expert"](), "domain", None)
    if domain is None:
        return {}  # an expert that does not search (the open-handed solo game's)
    game = found.game
    rng = random.Random(11)
    rollouts = 0
    elapsed = dealing = 0.0
    seed = 0
    while elapsed + dealing < seconds:
        state = game.new_game([f"P{i}" for i in range(seats)], seed, options)
        seed += 1
        seat = min(game.to_act(state))
        view = game.private_view(state, seat)
        for _ in range(10):
            start = _clock()
            world = domain.determinize(view, rng)
            dealt = _clock()
            domain.rollout(world, seat, rng)
            dealing += dealt - start
            elapsed += _clock() - dealt
            rollouts += 1
    return {"expert_rollouts_per_s": rollouts / elapsed, "expert_deals_per_s": rollouts / dealing}


def bench_store(moves: int) -> dict[str, float]:
    from bot.store.bench import bench_store_moves

    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(bench_store_moves(str(Path(folder) / "bench.db"), moves))
    return {
        "store_moves_per_s": figures["moves_per_s"],
        "store_p50_ms": figures["p50_ms"],
        "store_p99_ms": figures["p99_ms"],
    }


def bench_pg() -> tuple[str, int]:
    """The scratch PostgreSQL of ``JUNCTION_BENCH_PG`` ("" when unset) and 0, or ("", 2) once
    one that cannot be used has been said in one sentence (the bench then exits 2)."""
    url = os.environ.get("JUNCTION_BENCH_PG", "").strip()
    why = asyncio.run(_unusable_pg(url)) if url else None
    if why is None:
        return url, 0
    print(f"junction bench: JUNCTION_BENCH_PG: {why}", file=sys.stderr)
    return "", 2


async def _unusable_pg(url: str) -> str | None:
    """Why the scratch PostgreSQL cannot be measured, or None. Said before the SQLite half
    runs, not as a traceback after it."""
    from bot.store import StoreUnavailable, opened_store, redact_url

    # Checked first: opened_store takes anything without a scheme for a SQLite file to create.
    if url.partition("://")[0].lower() not in ("postgresql", "postgres"):
        return f"a postgresql:// URL to a scratch database is needed, not {redact_url(url)!r}"
    try:
        store = await opened_store(url)
    except StoreUnavailable as error:
        return str(error)
    await store.close()
    return None


def run_store_bench(*, quick: bool = False) -> int:
    """``junction bench --store``: moves/s and p99 latency per store at 1, 10, 100 channels."""
    from bot.store.base import Store
    from bot.store.bench import CHANNEL_LEVELS, bench_store_levels
    from bot.store.sqlite import SqliteStore

    total = 400 if quick else 2000
    stores: list[tuple[str, Callable[[], Store]]] = []
    folder = tempfile.TemporaryDirectory()
    stores.append(("sqlite", lambda: SqliteStore(Path(folder.name) / "bench.db")))
    pg_url, refused = bench_pg()
    if refused:
        return refused
    if pg_url:
        from bot.store.postgres import PostgresStore

        stores.append(("postgresql", lambda: PostgresStore(pg_url)))
    figures: dict[str, float] = {}
    print(f"{total} moves per level, one transaction each, ~3 KB state; p99 per move")
    with folder:
        for name, make in stores:
            levels = asyncio.run(bench_store_levels(make(), total, CHANNEL_LEVELS))
            for channels, result in levels.items():
                print(
                    f"{name:<11} {channels:>3} channels  {result['moves_per_s']:>8.0f} moves/s"
                    f"  p50 {result['p50_ms']:6.2f} ms  p99 {result['p99_ms']:7.2f} ms"
                )
                for key in ("moves_per_s", "p99_ms"):
                    figures[f"{name}_{channels}ch_{key}"] = result[key]
    if not pg_url:
        print("postgresql  skipped: set JUNCTION_BENCH_PG=postgresql://… to a scratch database")
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}))
    return 0


def run_bench(
    *,
    quick: bool = False,
    discord: bool = False,
    game: str | None = None,
    players: int | None = None,
) -> int:
    """Time every game (or one): render + PNG, random playouts, its computer player."""
    scale = 0.2 if quick else 1.0
    figures: dict[str, float] = {}
    if discord:
        from bot.bench_discord import check_discord_bench

        check_discord_bench()  # before a minute of timings, not after them
    keys = [bundle(game).key] if game else [b.key for b in all_bundles()]
    # (heading, prefix of its JSON keys, measure): the prefix is kept apart from the heading so
    # the heading's wording ("1 seat", "4 seats") never changes the keys benchmark files use.
    sections: list[tuple[str, str, Callable[[], dict[str, float]]]] = []
    for key in keys:
        found = bundle(key)
        # The busiest table the game allows, unless asked otherwise.
        seats = found.info.max_players if players is None else players
        # Refused now, before any timing is printed, rather than by the first game dealt, and
        # by the count alone: a list of that many names to check was built before, and for
        # `--players 99999999999999999999` it filled the memory instead of refusing.
        if not found.info.min_players <= seats <= found.info.max_players:
            wanted = players_wanted(found.info.min_players, found.info.max_players)
            raise BadOption(f"{found.info.title} needs {wanted}, not {seats}.")

        def per_game(key: str = key, seats: int = seats) -> dict[str, float]:
            figures = bench_render(key, seats, int(200 * scale))
            figures.update(bench_playouts(key, seats, 3.0 * scale))
            figures.update(bench_policy(key, seats, int(2000 * scale)))
            figures.update(bench_rollouts(key, seats, 3.0 * scale))
            return figures

        noun = "seat" if seats == 1 else "seats"
        sections.append((f"{key} ({seats} {noun})", f"{key}_", per_game))
    if game is None:
        sections.append(("store (SQLite file)", "", lambda: bench_store(int(2000 * scale))))
    if discord:
        from bot.bench_discord import bench_discord

        sections.append(("through fake Discord", "", lambda: bench_discord(quick)))
    for title, prefix, measure in sections:
        result = measure()
        figures.update({prefix + k: v for k, v in result.items()})
        shown = ", ".join(f"{k} {v:.2f}" for k, v in result.items())
        print(f"{title:<22} {shown}")
    # ru_maxrss is in kilobytes on Linux.
    figures["peak_memory_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'peak memory':<22} {figures['peak_memory_mb']:.1f} MB")
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}))
    return 0

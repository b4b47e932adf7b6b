"""``junction bench``: timings of the parts a player waits on, printed, never asserted.

Figures: table render + PNG encode (median, p95, bytes), engine full hands per second with
random play on one core, the ``normal`` computer's time per decision, stored moves per second
(one SQLite transaction each, on a file) and the process's peak memory. With ``--discord``,
interaction-to-reply latency through a local fake Discord and the bot's resident memory.
With ``--store``, only the stores under load instead: SQLite, and PostgreSQL when
``JUNCTION_BENCH_PG`` names a server, at 1, 10 and 100 channels moving at once.
The last line is one JSON object with every figure, for benchmark files.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.ai.base import get_policy
from bot.engine.core import get_game
from bot.timing import percentile


def _mid_game_states(count: int, moves: int = 60) -> list[Any]:
    """Positions a few dozen random moves into a hand, where the table is busiest."""
    game = get_game("mille")
    states = []
    for seed in range(count):
        rng = random.Random(seed)
        state = game.new_game(["Ann", "Computer (normal)"], seed=seed)
        for _ in range(moves):
            if game.outcome(state) is not None:
                break
            (seat,) = game.to_act(state)
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        states.append(state)
    return states


def bench_render(repeats: int) -> dict[str, float]:
    from bot.render.mille import table_png

    game = get_game("mille")
    views = [game.public_view(s) for s in _mid_game_states(20)]
    table_png(views[0])  # warm the font and card-face caches, as a running bot has them
    times, sizes = [], []
    for i in range(repeats):
        start = time.perf_counter()
        png = table_png(views[i % len(views)])
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png))
    return {
        "render_median_ms": statistics.median(times),
        "render_p95_ms": percentile(times, 0.95),
        "png_median_kb": statistics.median(sizes) / 1024,
        "png_max_kb": max(sizes) / 1024,
    }


def bench_playouts(seconds: float) -> dict[str, float]:
    """Whole hands of uniformly random legal play, engine only, on this one core."""
    game = get_game("mille")
    hands = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rng = random.Random(hands)
        state = game.new_game(["A", "B"], seed=hands, options={"length": "hand"})
        while game.outcome(state) is None:
            (seat,) = game.to_act(state)
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            moves += 1
        hands += 1
    elapsed = time.perf_counter() - start
    return {"hands_per_s": hands / elapsed, "engine_moves_per_s": moves / elapsed}


def bench_normal(decisions: int) -> dict[str, float]:
    game = get_game("mille")
    normal, rival = get_policy("mille", "normal"), get_policy("mille", "random")
    rng = random.Random(7)
    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        state = game.new_game(["N", "R"], seed=seed, options={"length": "hand"})
        seed += 1
        while game.outcome(state) is None and len(times) < decisions:
            (seat,) = game.to_act(state)
            view = game.private_view(state, seat)
            if seat == 0:
                start = time.perf_counter()
                text = normal.choose(view, rng)
                times.append((time.perf_counter() - start) * 1000)
            else:
                text = rival.choose(view, rng)
            state = game.apply(state, seat, game.parse_action(text))
    return {
        "normal_median_ms": statistics.median(times),
        "normal_p95_ms": percentile(times, 0.95),
    }


def bench_store(moves: int) -> dict[str, float]:
    from bot.store.bench import bench_store_moves

    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(bench_store_moves(str(Path(folder) / "bench.db"), moves))
    return {
        "store_moves_per_s": figures["moves_per_s"],
        "store_p50_ms": figures["p50_ms"],
        "store_p99_ms": figures["p99_ms"],
    }


def run_store_bench(*, quick: bool = False) -> int:
    """``junction bench --store``: moves/s and p99 latency per store at 1, 10, 100 channels."""
    from bot.store.base import Store
    from bot.store.bench import CHANNEL_LEVELS, bench_store_levels
    from bot.store.sqlite import SqliteStore

    total = 400 if quick else 2000
    stores: list[tuple[str, Callable[[], Store]]] = []
    folder = tempfile.TemporaryDirectory()
    stores.append(("sqlite", lambda: SqliteStore(Path(folder.name) / "bench.db")))
    pg_url = os.environ.get("JUNCTION_BENCH_PG", "").strip()
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


def run_bench(*, quick: bool = False, discord: bool = False) -> int:
    scale = 0.2 if quick else 1.0
    figures: dict[str, float] = {}
    sections: list[tuple[str, Callable[[], dict[str, float]]]] = [
        ("table render + PNG", lambda: bench_render(int(300 * scale))),
        ("engine playouts", lambda: bench_playouts(3.0 * scale)),
        ("normal policy", lambda: bench_normal(int(3000 * scale))),
        ("store (SQLite file)", lambda: bench_store(int(2000 * scale))),
    ]
    if discord:
        from bot.bench_discord import bench_discord

        sections.append(("through fake Discord", lambda: bench_discord(quick)))
    for title, measure in sections:
        result = measure()
        figures.update(result)
        shown = ", ".join(f"{k} {v:.2f}" for k, v in result.items())
        print(f"{title:<22} {shown}")
    # ru_maxrss is in kilobytes on Linux.
    figures["peak_memory_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'peak memory':<22} {figures['peak_memory_mb']:.1f} MB")
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}))
    return 0

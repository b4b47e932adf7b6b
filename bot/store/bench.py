"""How fast the SQLite store records moves: one transaction per move against a real file.

Run it with ``python -m bot.store.bench [path] [moves]``. The numbers depend on the disk; with
WAL and ``synchronous=NORMAL`` a commit does not wait for fsync, so they mostly measure SQLite,
aiosqlite's thread hop and JSON encoding of a state snapshot of realistic size (about 3 KB).

``bench_channels`` compares stores under load (``junction bench --store``): many channels, each
with its own game, moving at the same time through ``record_move``, one transaction per move.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Final

from bot.store.base import SeatRecord, Store, StoredGame
from bot.store.sqlite import MEMORY, SqliteStore
from bot.timing import percentile

BENCH_CHANNEL_ID = 1  # the bench's own channel; an active game left there is aborted first
# The concurrent bench's channels: BENCH_CHANNELS_FROM + 0, + 1, … (far below real snowflakes).
BENCH_CHANNELS_FROM: Final = 1_000
CHANNEL_LEVELS: Final = (1, 10, 100)

_SUITS = ("hazard", "remedy", "safety", "distance")
_CARDS = {
    "hazard": ("accident", "out_of_gas", "flat_tire", "speed_limit", "stop"),
    "remedy": ("repairs", "gasoline", "spare_tire", "end_of_limit", "roll"),
    "safety": ("driving_ace", "extra_tank", "puncture_proof", "right_of_way"),
    "distance": ("25", "50", "75", "100", "200"),
}


def _card(n: int) -> str:
    suit = _SUITS[n % len(_SUITS)]
    names = _CARDS[suit]
    return f"{suit}:{names[(n // len(_SUITS)) % len(names)]}"


def bench_state(turn: int) -> dict[str, Any]:
    """A card-game-like snapshot for four seats (about 3 KB of compact JSON)."""
    deck = [_card(turn + i) for i in range(80 - turn % 30)]
    return {
        "turn": turn,
        "current_seat": turn % 4,
        "deck": deck,
        "discard": [_card(turn * 7 + i) for i in range(min(20, turn % 25))],
        "seats": [
            {
                "seat": seat,
                "hand": [_card(turn * 3 + seat * 11 + i) for i in range(6)],
                "battle": _card(turn + seat),
                "speed": "speed_limit" if (turn + seat) % 5 == 0 else None,
                "distance": [_card(4 * i + 3) for i in range((turn + seat) % 12)],
                "safeties": [_card(4 * i + 2) for i in range(seat % 3)],
                "coup_fourre": seat == turn % 4,
                "miles": 25 * ((turn + seat) % 40),
            }
            for seat in range(4)
        ],
        "scores": {str(seat): 100 * seat + turn for seat in range(4)},
        "log": [f"seat {(turn - i) % 4} played {_card(turn - i)}" for i in range(5)],
    }


async def bench_store_moves(path: str, moves: int = 2000) -> dict[str, float]:
    """Create a game in the SQLite file ``path`` and time ``moves`` moves, one transaction each.

    Returns ``moves_per_s`` (over the whole loop) and the per-move latencies ``p50_ms`` and
    ``p99_ms``. The file is created if needed and keeps the bench game afterwards.
    """
    if path == MEMORY:
        raise ValueError("the bench measures a database file; pass a path, not ':memory:'")
    if moves < 1:
        raise ValueError("moves must be at least 1")
    latencies: list[float] = []
    async with SqliteStore(path) as store:
        game = await _fresh_game(store, BENCH_CHANNEL_ID)
        states = [bench_state(turn) for turn in range(1, moves + 1)]
        started = time.perf_counter()
        await _play(store, game, states, latencies)
        elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "moves_per_s": moves / elapsed,
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
    }


async def _fresh_game(store: Store, channel_id: int) -> StoredGame:
    """A new bench game in ``channel_id``, after aborting one a previous run left active."""
    leftover = await store.active_game(channel_id)
    if leftover is not None:
        await store.end_game(
            game_id=leftover.id,
            expected_version=leftover.version,
            status="aborted",
            state=leftover.state,
        )
    seats = [SeatRecord(seat=s, name=f"Player {s}", user_id=10**17 + s) for s in range(4)]
    return await store.create_game(
        channel_id=channel_id,
        guild_id=None,
        game_key="bench",
        seats=seats,
        options={"target": "1000"},
        state=bench_state(0),
    )


async def _play(
    store: Store, game: StoredGame, states: list[dict[str, Any]], latencies: list[float]
) -> StoredGame:
    """Record ``states`` as the game's moves, one transaction each, adding each move's time to
    ``latencies``; the game at its last version."""
    for turn, state in enumerate(states, start=1):
        before = time.perf_counter()
        game = await store.record_move(
            game_id=game.id,
            expected_version=game.version,
            seat=turn % 4,
            action=f"play:{_card(turn)}",
            interaction_id=f"bench-{game.id}-{turn}",
            state=state,
        )
        latencies.append(time.perf_counter() - before)
    return game


async def bench_channels(store: Store, channels: int, moves_per_channel: int) -> dict[str, float]:
    """Time ``channels`` games moving at once in the open ``store``, one transaction per move.

    Each channel has its own game and applies its moves one after another, as a channel does
    behind the seam's per-channel lock; the channels run concurrently. Returns ``moves_per_s``
    (all moves over the wall time), ``p50_ms`` and ``p99_ms`` of single moves (waiting for a
    connection or for SQLite's lock included, as a player would wait). The games are aborted
    afterwards so the bench channels are free for the next run; their rows stay.
    """
    if channels < 1 or moves_per_channel < 1:
        raise ValueError("channels and moves_per_channel must be at least 1")
    games = [await _fresh_game(store, BENCH_CHANNELS_FROM + c) for c in range(channels)]
    # Encoded once up front: the bench measures the store, not building test data.
    states = [bench_state(turn) for turn in range(1, moves_per_channel + 1)]
    latencies: list[float] = []

    started = time.perf_counter()
    finished = await asyncio.gather(*(_play(store, game, states, latencies) for game in games))
    elapsed = time.perf_counter() - started
    for game in finished:
        await store.end_game(
            game_id=game.id, expected_version=game.version, status="aborted", state=game.state
        )
    latencies.sort()
    return {
        "moves_per_s": len(latencies) / elapsed,
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
    }


async def bench_store_levels(
    store: Store, total_moves: int, levels: tuple[int, ...] = CHANNEL_LEVELS
) -> dict[int, dict[str, float]]:
    """Open ``store``, run ``bench_channels`` at each level, close it; moves split evenly."""
    await store.open()
    try:
        return {
            channels: await bench_channels(store, channels, max(1, total_moves // channels))
            for channels in levels
        }
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    moves = int(args[1]) if len(args) > 1 else 2000
    if args:
        result = asyncio.run(bench_store_moves(args[0], moves))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            result = asyncio.run(bench_store_moves(str(Path(tmp) / "bench.db"), moves))
    sizes = [len(json.dumps(bench_state(t), separators=(",", ":"))) for t in range(1, moves + 1)]
    mean_size = sum(sizes) // len(sizes)
    print(
        f"{moves} moves, state ≈ {mean_size} B: {result['moves_per_s']:.0f} moves/s, "
        f"p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

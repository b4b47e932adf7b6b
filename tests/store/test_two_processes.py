"""Two bot processes, one PostgreSQL: both race to move in the same game through Tables.

Each process has its own Tables (and so its own per-channel lock, which cannot see the other
process) on its own PostgresStore. Whatever the interleaving, every version must be won by
exactly one move, every move a process was told was stored must be in the log, nothing else
may be, and the stored snapshot must equal a replay of the log from the deal.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bot.games import get_game
from bot.store.base import SeatRecord
from bot.store.postgres import PostgresStore
from bot.tables import Tables

ROOT = Path(__file__).resolve().parents[2]
CHANNEL = 777
SEED = 2024
TARGET = 80  # versions to fill; a Mille Bornes hand lasts longer than this


async def _run_workers(url: str, tmp_path: Path, names: list[str]) -> list[dict[str, Any]]:
    go = tmp_path / "go"
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.store.race_worker",
            url,
            str(CHANNEL),
            name,
            str(tmp_path / f"{name}.ready"),
            str(go),
            str(TARGET),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for name in names
    ]
    try:
        # Start both at once, once both have imported everything and opened their pools.
        async with asyncio.timeout(60):
            while not all((tmp_path / f"{n}.ready").exists() for n in names):
                if any(p.returncode is not None for p in procs):
                    break
                await asyncio.sleep(0.01)
        go.touch()
        async with asyncio.timeout(120):
            outputs = [await p.communicate() for p in procs]
    finally:
        for p in procs:
            if p.returncode is None:
                p.kill()
                await p.wait()
    results = []
    for p, (out, err) in zip(procs, outputs, strict=True):
        assert p.returncode == 0, err.decode()
        results.append(json.loads(out.decode().strip().splitlines()[-1]))
    return results


async def test_two_processes_one_winner_per_version(pg_url: str, tmp_path: Path) -> None:
    """Two OS processes moving in one game: each version won once, no lost or duplicate moves."""
    seats = [SeatRecord(0, "Ann", user_id=11), SeatRecord(1, "Bob", user_id=22)]
    async with PostgresStore(pg_url) as store:
        start = await Tables(store).start(
            channel_id=CHANNEL, guild_id=1, game_key="mille", seats=seats, seed=SEED
        )
    game_id = start.game.id

    results = await _run_workers(pg_url, tmp_path, ["alpha", "beta"])

    async with PostgresStore(pg_url) as store:
        final = await store.get_game(game_id)
        log = await store.moves(game_id)
    assert final is not None
    won = sorted((w["version"], w["interaction_id"]) for r in results for w in r["won"])
    # Every version from 1 to the last was won by exactly one move, and the log holds exactly
    # the moves the processes were told were stored: nothing lost, nothing twice.
    assert [m.seq for m in log] == list(range(1, final.version + 1))
    assert final.version >= TARGET or final.status != "active"
    assert won == [(m.seq, m.interaction_id) for m in log]
    assert len({m.interaction_id for m in log}) == len(log)
    # Both processes took part, and they did collide: some tries lost the race.
    assert all(r["won"] for r in results), results
    conflicts = sum(r["stale"] + r["lost"] for r in results)
    assert conflicts > 0, "the processes never collided, so the test proved nothing"
    print(
        f"two processes: {len(log)} moves, {conflicts} lost races, {results[0]['stale']}+"
        f"{results[1]['stale']} StaleVersion"
    )
    # The snapshot is the log replayed from the deal: no move was applied to a stale position.
    game = get_game("mille")
    state = game.new_game([s.name for s in seats], SEED)
    for m in log:
        state = game.apply(state, m.seat, game.parse_action(m.action))
    assert json.loads(json.dumps(game.to_dict(state))) == final.state

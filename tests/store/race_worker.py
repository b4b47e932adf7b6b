"""One bot process in the two-process race (test_two_processes.py); not a test module itself.

``python -m tests.store.race_worker URL CHANNEL NAME READY GO TARGET`` opens its own
PostgresStore and Tables on the shared server, writes the file READY, waits for the file GO,
then keeps moving for whichever member is to act in CHANNEL until the game reaches version
TARGET. Its own per-channel lock protects nothing against the other process: only the store's
version check does. It prints one JSON object: the moves it was told were stored (version and
interaction id), how many tries lost the race, and how many StaleVersion errors it saw.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from bot.engine.core import GameError
from bot.store.base import StaleVersion
from bot.store.postgres import PostgresStore
from bot.tables import Tables


class CountingStore(PostgresStore):
    """A PostgresStore that counts the StaleVersion errors it raises (lost races)."""

    stale = 0

    async def record_move(self, **kwargs: Any) -> Any:
        try:
            return await super().record_move(**kwargs)
        except StaleVersion:
            self.stale += 1
            raise


async def _wait_for(path: Path, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path} never appeared")
        await asyncio.sleep(0.005)


async def race(url: str, channel_id: int, name: str, ready: Path, go: Path, target: int) -> None:
    store = CountingStore(url)
    await store.open()
    tables = Tables(store)
    rng = random.Random(name)
    won: list[dict[str, Any]] = []
    lost = 0
    try:
        ready.touch()
        await _wait_for(go)
        tries = 0
        while True:
            stored = await store.active_game(channel_id)
            if stored is None or stored.version >= target:
                break
            tries += 1
            seat = _to_act(stored)[0]
            user_id = stored.seats[seat].user_id
            assert user_id is not None
            choices = tables.hand(stored, user_id)[1]
            action = rng.choice(choices).notation
            interaction_id = f"{name}-{tries}"
            try:
                update = await tables.move(
                    channel_id=channel_id,
                    user_id=user_id,
                    action=action,
                    interaction_id=interaction_id,
                )
            except GameError:
                # The other process moved first and, after Tables' retry, this move no longer
                # fits the position (not this member's turn, or not legal any more).
                lost += 1
                continue
            won.append({"version": update.game.version, "interaction_id": interaction_id})
            # A winner is already holding the fresh position and would win the next race too
            # on a busy machine (seen once in CI: one process won all 80). A pause of a
            # millisecond or two, as between two real clicks, gives the other its chances;
            # both still try at the same moments often enough to collide.
            await asyncio.sleep(rng.uniform(0.0, 0.002))
    finally:
        await store.close()
    print(json.dumps({"name": name, "won": won, "lost": lost, "stale": store.stale}))


def _to_act(stored: Any) -> list[int]:
    from bot.games import get_game

    game = get_game(stored.game_key)
    return sorted(game.to_act(game.from_dict(stored.state)))


if __name__ == "__main__":
    url, channel, name, ready, go, target = sys.argv[1:7]
    asyncio.run(race(url, int(channel), name, Path(ready), Path(go), int(target)))

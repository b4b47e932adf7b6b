"""Driving the seam (``bot.tables``) in tests: members playing a game out at random."""

from __future__ import annotations

import random

from bot.tables import Tables
from bot.updates import TableUpdate


async def finish_randomly(tables: Tables, update: TableUpdate, seed: int) -> TableUpdate:
    """Members pick random legal moves (seeded) until the game ends; the last update."""
    rng = random.Random(seed)
    while update.game.status == "active":
        user = next(s.user_id for s in update.to_act if s.user_id is not None)
        choice = rng.choice(tables.hand(update.game, user)[1])
        update = await tables.move(
            channel_id=update.game.channel_id, user_id=user, action=choice.notation
        )
    return update

"""The timers' clock stops while the bot is down: the SQL of ``Store.heartbeat`` and
``Store.resume_timers``, alike in SQLite and PostgreSQL.

Each process that sweeps the timers writes, for each shard it runs, when it last swept
(``timer_heartbeats``, migration 0011; a process without shards is shard 0 of 1). One row a
shard, written once a sweep: never a write per game. The first sweep after a start reads those
rows and moves every deadline that was still running when its shard last swept on by the time
since, in one transaction with writing the rows anew. So a member whose turn (or reaction
window) was running when the bot went down gets back the time they had left then, a crash
included (the heartbeat is the last sign of life, not a goodbye), and the shift is applied once:
a second start reads the rows the first one wrote.

Which row dates a game's downtime:

* a game on a server: the row of its shard under the process's shard count; newer rows of
  another count win (the bot ran with other shards since, and timed the game meanwhile);
* a game on no server (a direct message): every process times it (``Shards.holds``), so the
  newest row of any shard: it was down only while every process was.

A deadline already past when the row was last written is left alone: it ran out while the bot
was sweeping, and is handled as before. So is a game moved since the process started (its
deadline was set by this process, after the downtime). With no row at all (the first start
after this migration), nothing is moved.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.store.base import Shards
from bot.store.rows import RowLike

HEARTBEATS: Final = "SELECT shard_count, shard_id, alive_at FROM timer_heartbeats"

SHIFT_TIMERS: Final = (
    "UPDATE games SET turn_deadline = turn_deadline + $1,"
    " remind_at = CASE WHEN remind_at > $2 THEN remind_at + $1 ELSE remind_at END"
    " WHERE status = 'active' AND turn_deadline > $2 AND updated_at < $3 AND {games}"
)
"""Give the games ``{games}`` selects back ``$1`` seconds: each deadline after ``$2`` (the last
sweep before the downtime) moves on by it, and so does a reminder not yet due then (one due
before stays due: it is sent at the next sweep, with the new deadline). ``$3``: when this
process started; a game moved since has a deadline this process set."""


def heartbeat_upsert(shards: Shards) -> str:
    """The statement that records ``$1`` as the last sweep of each of ``shards``. The figures
    are ints, written in, as in ``shard_condition``."""
    rows = ", ".join(f"({int(shards.count)}, {int(i)}, $1)" for i in shards.ids)
    return (
        f"INSERT INTO timer_heartbeats (shard_count, shard_id, alive_at) VALUES {rows}"
        " ON CONFLICT (shard_count, shard_id) DO UPDATE SET alive_at = excluded.alive_at"
    )


def downtimes(rows: Sequence[RowLike], shards: Shards) -> list[tuple[float, str]]:
    """For ``SHIFT_TIMERS``: each last sweep before the downtime of the games ``shards`` time,
    with the SQL condition that selects those games (see the module docstring)."""
    alive = {
        (int(row["shard_count"]), int(row["shard_id"])): float(row["alive_at"]) for row in rows
    }
    if not alive:
        return []
    other_counts = [at for (count, _), at in alive.items() if count != shards.count]
    newest_other = max(other_counts, default=None)
    since: dict[float, list[int]] = {}
    for shard in shards.ids:
        known = [at for at in (alive.get((shards.count, shard)), newest_other) if at is not None]
        if known:
            since.setdefault(max(known), []).append(shard)
    plan = [
        (
            at,
            f"guild_id IS NOT NULL AND (guild_id >> 22) % {int(shards.count)}"
            f" IN ({', '.join(str(int(i)) for i in ids)})",
        )
        for at, ids in sorted(since.items())
    ]
    plan.append((max(alive.values()), "guild_id IS NULL"))
    return plan

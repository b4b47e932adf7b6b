"""The timers' clock stops while the bot is down, or cut off from Discord: the SQL of
``Store.heartbeat`` and ``Store.resume_timers``, alike in SQLite and PostgreSQL.

Each process that sweeps the timers writes, for each shard it runs and that is connected to
Discord, when it last swept (``timer_heartbeats``, migration 0011; a process without shards is
shard 0 of 1). One row a shard, written once a sweep: never a write per game. A shard that comes
back (the first sweep after a start, or after its gateway connection was lost for a while) reads
those rows and moves every deadline that was still running when it last swept on by the time
since, in one transaction with writing its rows anew. So a member whose turn (or reaction
window) was running when the bot went down, or lost Discord, gets back the time they had left
then, a crash included (the heartbeat is the last sign of life, not a goodbye), and the shift is
applied once: a second start reads the rows the first one wrote.

Which row dates a game's downtime:

* a game on a server: the row of its shard under the process's shard count; newer rows of
  another count win (the bot ran with other shards since, and timed the game meanwhile);
* a game on no server (a direct message, the console's): shard 0's, as for a server on shard 0.
  Discord sends direct messages to shard 0 only, so only that shard's members can play them,
  and only the process running it times them.

A deadline already past when the row was last written is left alone: it ran out while the bot
was sweeping, and is handled as before. So is a game moved since ``started`` (at a start, when
the process started: its deadline was set by this process, after the downtime). A game moved
after the row was written (a move that was under way when the connection went) gets back the
time since that move, not since the row: its deadline was set then. With no row at all (the
first start after this migration), nothing is moved.

The open lobbies (invitations, open tables) get the same time back in the same transaction: a
lobby is its server's shard's, as a game, and nobody could press Accept or Join while that
shard was away. Their closing time moves on from the last sweep, or from their opening when it
came after; one already past its time then, or opened since ``started``, is left alone, as a
deadline is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.store.base import Shards
from bot.store.rows import RowLike

HEARTBEATS: Final = "SELECT shard_count, shard_id, alive_at FROM timer_heartbeats"

SHIFT_TIMERS: Final = (
    "UPDATE games SET turn_deadline = turn_deadline + ($1 - {since}),"
    " remind_at = CASE WHEN remind_at > $2 THEN remind_at + ($1 - {since}) ELSE remind_at END"
    " WHERE status = 'active' AND turn_deadline > $2 AND updated_at < $3 AND {games}"
)
"""Give the games ``{games}`` selects back the time from ``$2`` (the last sweep before the
downtime), or from their last move when it came after, to ``$1`` (now): each deadline after
``$2`` moves on by it, and so does a reminder not yet due then (one due before stays due: it is
sent at the next sweep, with the new deadline). ``$3``: a game moved since is left alone. The
SET expressions read the row as it was, so both use the same ``{since}``."""

MOVED_SINCE: Final = "CASE WHEN updated_at > $2 THEN updated_at ELSE $2 END"
"""When a game's downtime began: the last sweep (``$2``), or its last move if later."""

SHIFT_LOBBIES: Final = (
    "UPDATE lobbies SET expires_at = expires_at + ($1 - {since}), version = version + 1,"
    " reshow = 1 WHERE status = 'open' AND expires_at > $2 AND created_at < $3 AND {lobbies}"
    " RETURNING id"
)
"""Give the open lobbies (invitations, open tables) ``{lobbies}`` selects back the time from
``$2`` (the last sweep before the downtime), or from their opening when it came after, to
``$1`` (now), as ``SHIFT_TIMERS`` gives the games: nobody could press Accept or Join while
their shard was away. One already past its time at ``$2`` stays due; one opened since ``$3``
has a time set after the downtime. The version moves on, so a press that read the lobby
before (at a start, before the first sweep) is told to press again rather than closing it
on the old time. The ids come back, and each is marked (``reshow``, migration 0016): its
message shows the old closing time until edited (``cogs.lobby.show_new_times``), which a
process stopped before it is through leaves to the next one (``Store.lobbies_to_reshow``)."""

OPENED_SINCE: Final = "CASE WHEN created_at > $2 THEN created_at ELSE $2 END"
"""When a lobby's downtime began: the last sweep (``$2``), or its opening if later."""


def heartbeat_upsert(shards: Shards) -> str:
    """The statement that records ``$1`` as the last sweep of each of ``shards``. The figures
    are ints, written in, as in ``shard_condition``."""
    rows = ", ".join(f"({int(shards.count)}, {int(i)}, $1)" for i in shards.ids)
    return (
        f"INSERT INTO timer_heartbeats (shard_count, shard_id, alive_at) VALUES {rows}"
        " ON CONFLICT (shard_count, shard_id) DO UPDATE SET alive_at = excluded.alive_at"
    )


def last_sweeps(rows: Sequence[RowLike], shards: Shards) -> dict[int, float]:
    """Each of ``shards``' last sweep, from the ``HEARTBEATS`` ``rows``: its own row under the
    process's shard count, or a newer row of another count (see the module docstring). A shard
    with neither (no sweep known) is left out."""
    alive = {
        (int(row["shard_count"]), int(row["shard_id"])): float(row["alive_at"]) for row in rows
    }
    other_counts = [at for (count, _), at in alive.items() if count != shards.count]
    newest_other = max(other_counts, default=None)
    found: dict[int, float] = {}
    for shard in shards.ids:
        known = [at for at in (alive.get((shards.count, shard)), newest_other) if at is not None]
        if known:
            found[shard] = max(known)
    return found


def downtimes(rows: Sequence[RowLike], shards: Shards) -> list[tuple[float, str]]:
    """For ``SHIFT_TIMERS`` and ``SHIFT_LOBBIES``: each last sweep before the downtime of the
    games and lobbies ``shards`` time, with the SQL condition that selects them by their
    ``guild_id`` (see the module docstring; a lobby belongs to its server's shard as a game)."""
    since: dict[float, list[int]] = {}
    for shard, at in last_sweeps(rows, shards).items():
        since.setdefault(at, []).append(shard)
    plan: list[tuple[float, str]] = []
    for at, ids in sorted(since.items()):
        # Both tables have the column: the condition selects a game or a lobby alike.
        on_shards = (
            f"(guild_id >> 22) % {int(shards.count)} IN ({', '.join(str(int(i)) for i in ids)})"
        )
        # A game on no server is shard 0's: Discord sends direct messages to shard 0 only.
        games = (
            f"(guild_id IS NULL OR {on_shards})"
            if 0 in ids
            else f"guild_id IS NOT NULL AND {on_shards}"
        )
        plan.append((at, games))
    return plan

"""Timers: the sweep a front end runs every few seconds (no Discord here).

Every stored move also stores when its game must be looked at next (see ``bot.tables``): a
computer seat that is due, a reaction window's deadline, or a member's turn timer (a reminder at
half time and the deadline). :func:`sweep` asks the store which of those are due, takes the
reminder off (``Tables.remind_turn``) or does what the deadline calls for (``Tables.wake``), and
returns what happened so the front end can mention the player or post the new table.

Because the times live in the database and not in the bot's memory, nothing is lost in a
restart. The clock stops while the bot is down: before its first sweep, a front end calls
``Store.resume_timers``, which gives every deadline still running at the last sweep before the
downtime (``Store.heartbeat``, written by every sweep) the time the bot was down, and its
reminder too when it was not due yet. A deadline already past before the downtime is handled
by the first sweep as it would have been (and only the deadline: a due reminder is dropped once
its deadline has passed too). The same holds while the process runs but a shard's connection to
Discord is lost: the front end leaves that shard's games out of the sweep (``only``) and writes
no heartbeat for it, and gives them the time back when it is connected again.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from bot.engine.core import GameError
from bot.store.base import SeatRecord, StoredGame
from bot.tables import Tables, TableUpdate

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TimerEvent:
    """One timer the sweep handled.

    ``"remind"``: the game waits for ``waiting`` (mention them). ``"expire"``: a deadline
    passed and ``update`` is the table afterwards (post it; its ``timeout.caption`` says what
    happened when a member ran out of time, its ``steps`` the moves made).
    """

    kind: Literal["remind", "expire"]
    update: TableUpdate

    @property
    def game(self) -> StoredGame:
        return self.update.game

    @property
    def waiting(self) -> tuple[SeatRecord, ...]:
        """The members the game now waits for."""
        return self.update.waiting_members


async def sweep(
    tables: Tables,
    now: float,
    *,
    only: Callable[[StoredGame], bool] | None = None,
    reachable: Callable[[StoredGame], Awaitable[bool]] | None = None,
) -> list[TimerEvent]:
    """Handle every timer due at ``now``; what happened, in game id order.

    ``now`` should come from the same clock as ``tables.clock`` (which the seam re-checks each
    deadline against). ``only`` skips games this process does not serve: with several shards
    on one PostgreSQL database, each shard passes a test for its own guilds, so a game is timed
    by the process that also takes its moves (and holds its channel lock); and a shard cut off
    from Discord leaves its games out, since their members cannot play them.

    ``reachable`` is asked before a deadline plays a game for its members (a computer's move,
    a forfeit): False skips it, for a game nobody can reach any more (its channel deleted, or
    its server removed the bot, while the bot was away), which the front end ends itself.

    A game that fails is logged and skipped so one bad game cannot stop the others' timers.
    """
    events: list[TimerEvent] = []
    for due in await tables.store.timers_due(now):
        if only is not None and not only(due.game):
            continue
        try:
            if due.kind == "remind":
                update = await tables.remind_turn(due.game.id)
                if update is not None:
                    events.append(TimerEvent("remind", update))
            else:
                if reachable is not None and not await reachable(due.game):
                    continue
                update = await tables.wake(due.game.id)
                if update is not None:
                    events.append(TimerEvent("expire", update))
        except GameError:
            # The game cannot go on by itself (say its snapshot no longer loads). Drop its
            # timer so it is not retried, and logged, on every sweep; a move re-arms it.
            log.exception("timer of game %s failed; timer cleared", due.game.id)
            await tables.store.set_timer(due.game.id, remind_at=None, deadline=None)
        except Exception:
            # Most likely the database blinked: keep the timer, the next sweep tries again.
            log.exception("timer of game %s failed; will retry", due.game.id)
    return events

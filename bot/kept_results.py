"""Ladders kept between requests, caught up with only the results written since.

An all-time board, a /stats card and the rating line after a game replay a ladder from every
result of it, and a big server's ladder holds tens of thousands of games: reading and parsing
every row from the store, and rating them, cost seconds at 200 000 results. Here a ladder is
kept replayed (``bot.ratings.Replay``; for a game ranked by best result, its best-results board,
``bot.bests.Bests``) per store and per query (a game key on one server, or on all of them)
together with what the store's numbering of results says about it:

* every result is numbered as it is written, above any number handed out before
  (``results.seq``, migration 0008); a kept ladder remembers the highest number it has read;
* every change or delete of a stored result (a member forgotten, ``junction migrate-db``
  clearing a store, a hand-made statement) adds one to a count the store keeps
  (``result_numbers.changes``); a kept ladder remembers the count it read with its results.

A request asks the store for the ladder's results numbered above the highest it read, and for
the count (``Store.results_after``). When the count is the one remembered, no result read before
has gone or changed, so the kept ladder plus the new results is the ladder as stored: the new
ones are rated onto it, at the cost of the new results only. When the count moved, or a new
result is dated before the newest one kept (written late: ratings are replayed in order of
finishing), the ladder is read and replayed from scratch, as a restart does. The answers are
always those of a full replay of the stored results (``standings``, ``rating_history``, the
names ``names_of`` and ``names_seen_on`` give): the tests compare them after appends, late
results, forgetting and deletes, on both stores.

The database behind one store object is taken to stay the same database (a store is a
connection to one); another store object starts its own ladders.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.bests import Bests, BestStanding
from bot.games import get_game
from bot.ratings import (
    RECENT_CHANGES,
    PlayerKey,
    Replay,
    Scope,
    Standing,
    game_family,
    is_rated,
)
from bot.store.base import NumberedResults, Store, StoredResult


@dataclass(frozen=True)
class KeptChange:
    """How one of the latest games moved its players (``Replay.changes``), with its seats and
    seat names, in seat order."""

    seats: tuple[PlayerKey | None, ...]
    names: tuple[str, ...]
    moves: Mapping[PlayerKey, tuple[int, int]]


# What a kept ladder holds, in bytes, as measured (``tests/store/test_kept_results.py`` and
# ``test_kept_bests.py`` check the sum covers a ladder's memory): a chart point (a member's
# rating after a rated game, packed in ``ChartPoints``), a member rated (their rating, record and
# chart), a seat name kept, one of the latest games whose rating line is kept, a member on a
# best-results board.
POINT_BYTES = 16
MEMBER_BYTES = 1_000
NAME_BYTES = 200
RECENT_BYTES = 1_500
BEST_BYTES = 300


@dataclass
class KeptLadder:
    """One query's results (a game key on a server, or on all servers) as a replayed ladder and
    the names its results give, caught up by ``KeptResults.read``. Its methods are
    thread-safe: boards are built in worker threads while the event loop catches up."""

    scope: Scope
    store: weakref.ref[Store]
    replay: Replay = field(default_factory=Replay)
    # Each member's latest seat name over all the results, and per server, in the order the
    # members first played: what ``names_of`` gives, grown result by result.
    names: dict[PlayerKey, str] = field(default_factory=dict)
    names_by_guild: dict[int | None, dict[PlayerKey, str]] = field(default_factory=dict)
    recent: dict[int, tuple[tuple[PlayerKey | None, ...], tuple[str, ...]]] = field(
        default_factory=dict
    )
    # A game that ranks by best result (a solitaire) keeps its best-result board instead of a
    # rating (its results are never rated).
    bests: Bests | None = None
    # What the store's numbering said when the results kept were read.
    ready: bool = False
    last_number: int = 0
    changes: int = 0
    newest: tuple[float, int] | None = None  # (finished_at, game_id) of the newest result
    # About how many bytes the ladder holds (``_measured``), set as it is caught up: the event
    # loop reads it while another ladder is rated in a worker thread.
    held: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    catching_up: asyncio.Lock = field(default_factory=asyncio.Lock)

    def _measured(self) -> int:
        """About how many bytes the ladder holds: what ``KeptResults.keep_bytes`` bounds. A
        rated game costs a chart point a member seated, so a game of six seats costs six."""
        replay = self.replay
        points = sum(len(chart) for chart in replay.points.values())
        names = len(self.names) + sum(len(here) for here in self.names_by_guild.values())
        return (
            POINT_BYTES * points
            + MEMBER_BYTES * len(replay.table)
            + NAME_BYTES * names
            + RECENT_BYTES * len(self.recent)
            + BEST_BYTES * (len(self.bests.best) if self.bests is not None else 0)
        )

    def follows(self, numbered: NumberedResults) -> bool:
        """Whether ``numbered`` (read after ``last_number``) extends the results kept: nothing
        kept changed or went, and no new result is dated before the newest kept one."""
        if numbered.changes != self.changes:
            return False
        if not numbered.results or self.newest is None:
            return True
        first = numbered.results[0].record
        return (first.finished_at, first.game_id) > self.newest

    def take(self, numbered: NumberedResults, *, fresh: bool) -> None:
        """Rate and name ``numbered``'s results after those kept (``fresh``: instead of them)."""
        with self.lock:
            if fresh:
                self.replay, self.names, self.names_by_guild, self.recent = Replay(), {}, {}, {}
                self.newest = None
                if self.bests is not None:
                    self.bests = Bests(self.bests.game_key)
            for stored, number in zip(numbered.results, numbered.numbers, strict=True):
                # A catch-up whose request was cancelled still finishes in its thread, after
                # the next request read the same results: each is rated once, whoever is late.
                if fresh or number > self.last_number:
                    self._add(stored)
            if fresh or numbered.numbers:
                self.last_number = max(numbered.numbers, default=0 if fresh else self.last_number)
            self.changes = numbered.changes
            self.held = self._measured()
            self.ready = True

    def _add(self, stored: StoredResult) -> None:
        record = stored.record
        # Names per server only on a board across servers (``names_seen_on``).
        here = (
            None
            if self.scope.guild_id is not None
            else self.names_by_guild.setdefault(record.guild_id, {})
        )
        for user, name in zip(record.seats, stored.names, strict=False):
            if user is not None:
                self.names[user] = name
                if here is not None:
                    here[user] = name
        self.newest = (record.finished_at, record.game_id)
        if self.bests is not None:
            self.bests.add(stored)
        if self.scope.includes(record) and is_rated(record):
            self.replay.apply(record)
            self.recent[record.game_id] = (record.seats, stored.names)
            if len(self.recent) > RECENT_CHANGES:
                del self.recent[next(iter(self.recent))]

    def board(
        self, now: float | None, *, here: int | None = None, min_games: int = 1
    ) -> tuple[list[Standing], dict[PlayerKey, str], dict[PlayerKey, str]]:
        """The ladder's standings as of ``now``, each member's latest seat name (``names_of``)
        and, on a ladder across servers, those recorded on server ``here`` (empty on a
        server's ladder): what ``names_seen_on`` is made of."""
        with self.lock:
            lines = self.replay.standings(now, min_games)
            return lines, dict(self.names), dict(self.names_by_guild.get(here, {}))

    def best_board(
        self, *, here: int | None = None
    ) -> tuple[list[BestStanding], dict[PlayerKey, str], dict[PlayerKey, str]]:
        """A best-result board's members, best first (``Bests.lines``; none for a rated game),
        and its names as ``board`` gives them."""
        with self.lock:
            lines = self.bests.lines() if self.bests is not None else []
            return lines, dict(self.names), dict(self.names_by_guild.get(here, {}))

    def card(
        self, player: PlayerKey, now: float
    ) -> tuple[list[Standing], list[tuple[float, int]], dict[PlayerKey, str]]:
        """The standings as of ``now``, ``player``'s chart points (``rating_history``) and each
        member's latest seat name (``names_of``)."""
        with self.lock:
            return (
                self.replay.standings(now),
                self.replay.points[player].pairs() if player in self.replay.points else [],
                dict(self.names),
            )

    def change(self, game_id: int) -> KeptChange | None:
        """How game ``game_id`` moved its players; None when it is not among the latest rated
        games kept (replay the results instead)."""
        with self.lock:
            moves = self.replay.changes.get(game_id)
            seated = self.recent.get(game_id)
            if moves is None or seated is None:
                return None
            return KeptChange(seated[0], seated[1], dict(moves))


class KeptResults:
    """The kept ladders of every store, the least used dropped first: at most ``keep`` of
    them, holding at most ``keep_bytes`` in all (``KeptLadder.held``; a ladder of 50 000
    two-seat games between 3 000 members holds about 5 MB)."""

    def __init__(self, keep: int = 8, keep_bytes: int = 64 * 2**20) -> None:
        self.keep = keep
        self.keep_bytes = keep_bytes
        self._kept: dict[tuple[int, str, int | None], KeptLadder] = {}
        self.full_reads = 0  # ladders read whole (a first request, a change): tests, the bench

    def __len__(self) -> int:
        """How many ladders are kept."""
        return len(self._kept)

    async def read(self, store: Store, *, game_key: str, guild_id: int | None) -> KeptLadder:
        """The ladder of ``game_key``'s results on ``guild_id`` (None: every server) in
        ``store``, caught up with the results written since it was last read."""
        for gone in [k for k, ladder in self._kept.items() if ladder.store() is None]:
            del self._kept[gone]  # a store closed and dropped: its ladders go with it
        key = (id(store), game_key, guild_id)
        kept = self._kept.pop(key, None)
        if kept is None or kept.store() is not store:  # a new store may reuse a dead one's id
            best = get_game(game_key).info.ranking.kind == "best"
            kept = KeptLadder(
                Scope(game_family(game_key), guild_id),
                weakref.ref(store),
                bests=Bests(game_key) if best else None,
            )
        self._kept[key] = kept  # newest last: the least used goes first
        async with kept.catching_up:
            # Not read yet: ``last_number`` is 0 and this reads the whole ladder.
            numbered = await store.results_after(
                game_key=game_key, guild_id=guild_id, after=kept.last_number
            )
            fresh = not kept.ready
            if kept.ready and not kept.follows(numbered):
                fresh = True
                # Let the first read go before the whole one: after a store emptied and filled
                # again, it holds every result too.
                del numbered
                numbered = await store.results_after(game_key=game_key, guild_id=guild_id)
            self.full_reads += fresh
            if fresh or numbered.results:
                # Rating is CPU work (seconds for a whole ladder): off the event loop.
                await asyncio.to_thread(kept.take, numbered, fresh=fresh)
        while len(self._kept) > 1 and (
            len(self._kept) > self.keep
            or sum(k.held for k in self._kept.values()) > self.keep_bytes
        ):
            del self._kept[next(iter(self._kept))]
        return kept

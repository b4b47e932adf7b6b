"""Best-result boards: each member's best single result of a solitaire, grown result by result.

A game that ranks by best result (``Ranking.kind == "best"``) has no rating: its board lists each
member's best result at the standard settings, compared by the ranking's figures in order, and
how many such games they played. :class:`Bests` is that board's tally, taken in the order the
store lists results (oldest first): ``bot.boards.leaderboard`` fills one from a list of results,
and a kept ladder (``bot.kept_results``) keeps one and adds only the results written since.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bot.engine.core import Ranking
from bot.games import bundle
from bot.results import on_best_board
from bot.store.base import StoredResult


def figures_of(stored: StoredResult, seat: int) -> dict[str, int]:
    """A seat's figures in a result: ``won``, ``score`` and the game's own (cards cleared…).

    Results stored before figures were kept per seat carried them in their options (a
    solitaire's ``won``/``cleared``, a seat's ``best_hand_<seat>``); those are read too.
    """
    record = stored.record
    if record.details:
        return dict(record.details[seat])
    figures: dict[str, int] = {"won": 1 if record.ranks[seat] == 0 else 0}
    if record.scores:
        figures["score"] = record.scores[seat]
    suffix = f"_{seat}"
    for name, value in record.options.items():
        key = name[: -len(suffix)] if name.endswith(suffix) else name
        if value.lstrip("-").isdecimal() and (name.endswith(suffix) or len(record.seats) == 1):
            figures[key] = int(value)
    if len(record.seats) == 1 and "won" in record.options:
        figures["won"] = 1 if record.options["won"] == "yes" else 0
    return figures


def best_key(ranking: Ranking, figures: dict[str, int]) -> tuple[int, ...]:
    """How good one result is on a best-result board: its figures in the ranking's order."""
    return tuple(figures.get(key, 0) for key in ranking.keys)


@dataclass(frozen=True)
class BestStanding:
    """A member on a best-result board: their best result's key (``best_key``), the figure the
    board shows of it, and how many games of the board they played."""

    player: int
    key: tuple[int, ...]
    shown: int
    played: int


@dataclass
class Bests:
    """One game's best-result board (of the results added so far, oldest first)."""

    game_key: str
    best: dict[int, tuple[tuple[int, ...], int]] = field(default_factory=dict)
    played: Counter[int] = field(default_factory=Counter)

    def add(self, stored: StoredResult) -> None:
        """Count one result, when it may rank on the board (``on_best_board``). A member's
        best stays the first of equal results: a later game only as good does not replace it.
        A seat that left (figure ``left``: a Ticket to Ride Solo run given up) is left out, as
        an assisted game is: its score stood where the member stopped, and giving up must never
        outrank playing on (0 before a ticket was kept, above every run that finished below)."""
        found = bundle(self.game_key)
        if not on_best_board(found, stored.record.options):
            return
        ranking = found.info.ranking
        for seat, user in enumerate(stored.record.seats):
            figures = figures_of(stored, seat)
            if user is None or figures.get("left"):
                continue
            self.played[user] += 1
            entry = (best_key(ranking, figures), figures.get(ranking.shown, 0))
            if user not in self.best or entry[0] > self.best[user][0]:
                self.best[user] = entry

    def lines(self) -> list[BestStanding]:
        """The board's members, best first (equal results by member id)."""
        order = sorted(self.best, key=lambda u: (tuple(-v for v in self.best[u][0]), u))
        return [BestStanding(u, self.best[u][0], self.best[u][1], self.played[u]) for u in order]

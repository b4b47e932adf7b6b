"""Leaderboards, member stats and game history, built from stored results (no Discord).

Ratings come from ``bot.ratings`` (openskill); this module only chooses which results count
for a board, puts names on user ids and shapes the rows the images show.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.core import get_game
from bot.ratings import (
    Scope,
    game_family,
    head_to_head,
    rating_history,
    standings,
)
from bot.render.leaderboard import (
    BestLine,
    LeaderboardRow,
    MemberStats,
    OpponentLine,
    RatingPoint,
)
from bot.store.base import StoredResult

DAY = 86_400.0
PERIODS: dict[str, float | None] = {"all": None, "month": 30 * DAY, "week": 7 * DAY}
PERIOD_LABELS = {"all": "All time", "month": "Last 30 days", "week": "Last 7 days"}


def since(period: str, now: float) -> float | None:
    """The start of a period (None: all time)."""
    length = PERIODS[period]
    return None if length is None else now - length


def names_of(results: Sequence[StoredResult]) -> dict[int, str]:
    """Each member's most recent seat name."""
    names: dict[int, str] = {}
    for stored in results:
        for user, name in zip(stored.record.seats, stored.names, strict=False):
            if user is not None:
                names[user] = name
    return names


@dataclass(frozen=True)
class Board:
    rows: tuple[LeaderboardRow, ...]
    caller_row: LeaderboardRow | None
    value_label: str


def is_solo(game_key: str) -> bool:
    return get_game(game_key).info.max_players == 1


def solo_key(stored: StoredResult) -> tuple[int, int, int]:
    """How good a solo result is: a win first, then cards cleared, then miles."""
    options = stored.record.options
    won = options.get("won") == "yes"
    cleared = int(options.get("cleared", "0"))
    miles = stored.record.scores[0] if stored.record.scores else 0
    return (1 if won else 0, cleared, miles)


def leaderboard(
    results: Sequence[StoredResult],
    *,
    game_key: str,
    guild_id: int | None,
    caller: int,
    now: float,
) -> Board:
    """The board for a game family on a server (or everywhere), the caller's row included."""
    names = names_of(results)
    if is_solo(game_key):
        best: dict[int, tuple[int, int, int]] = {}
        played: Counter[int] = Counter()
        for stored in results:
            user = stored.record.seats[0]
            if user is None:
                continue
            played[user] += 1
            best[user] = max(best.get(user, (0, -1, -1)), solo_key(stored))
        order = sorted(best, key=lambda u: (-best[u][0], -best[u][1], -best[u][2], u))
        users = order
        rows = tuple(
            LeaderboardRow(i + 1, names.get(u, str(u)), best[u][1], played[u], None)
            for i, u in enumerate(order)
        )
        label = "Cleared /49"
    else:
        scope = Scope(game_family(game_key), guild_id)
        ladder = standings([s.record for s in results], scope, now)
        users = [line.player for line in ladder]
        rows = tuple(
            LeaderboardRow(
                i + 1,
                names.get(line.player, str(line.player)),
                line.display,
                line.record.games,
                line.record.win_rate,
            )
            for i, line in enumerate(ladder)
        )
        label = "Rating"
    caller_row = rows[users.index(caller)] if caller in users else None
    return Board(rows, caller_row, label)


def member_stats(
    results: Sequence[StoredResult],
    *,
    user_id: int,
    name: str,
    game_key: str,
    guild_id: int | None,
    now: float,
) -> MemberStats:
    """A member's card: rating over time, record, frequent opponents, favourite game, bests."""
    names = names_of(results)
    mine = [s for s in results if user_id in s.record.seats]
    family = game_family(game_key)
    scope = Scope(family, guild_id)
    records = [s.record for s in results]
    ladder = standings(records, scope, now)
    place = next((i + 1 for i, line in enumerate(ladder) if line.player == user_id), None)
    line = ladder[place - 1] if place is not None else None
    history = tuple(RatingPoint(at, value) for at, value in rating_history(records, scope, user_id))
    rivals = head_to_head(records, user_id, scope)
    opponents = tuple(
        OpponentLine(names.get(other, str(other)), tally.wins, tally.losses, tally.draws)
        for other, tally in list(rivals.items())[:5]
    )
    favourites = Counter(s.record.game_key for s in mine)
    favourite, plays = favourites.most_common(1)[0] if favourites else (None, 0)
    best = _personal_bests(mine, user_id, game_key)
    return MemberStats(
        name=name,
        scope_label=get_game(game_key).info.title,
        rating=line.display if line else None,
        rank=place,
        ranked_players=len(ladder) or None,
        games=len([s for s in mine if s.record.game_key == game_key]),
        wins=line.record.wins if line else 0,
        losses=line.record.losses if line else 0,
        draws=line.record.draws if line else 0,
        history=history,
        opponents=opponents,
        favourite_game=get_game(favourite).info.title if favourite else None,
        favourite_game_plays=plays,
        best=best,
    )


def _personal_bests(
    mine: Sequence[StoredResult], user_id: int, game_key: str
) -> tuple[BestLine, ...]:
    """The member's best game score and, where the game reports it, best single hand."""
    lines: list[BestLine] = []
    for label, figure in (("Best score", None), ("Best hand", "best_hand_{seat}")):
        top: tuple[int, int] | None = None  # (points, game id)
        for stored in mine:
            record = stored.record
            if record.game_key != game_key or not record.scores:
                continue
            seat = record.seats.index(user_id)
            if figure is None:
                points = record.scores[seat]
            elif figure.format(seat=seat) in record.options:
                points = int(record.options[figure.format(seat=seat)])
            else:
                continue
            if top is None or points > top[0]:
                top = (points, record.game_id)
        if top is not None:
            lines.append(BestLine(label, f"{top[0]:,} pts", f"game #{top[1]}"))
    return tuple(lines)


def history_lines(results: Sequence[StoredResult], user_id: int, limit: int = 10) -> list[str]:
    """A member's most recent games, newest first, one line each with a link when known."""
    lines = []
    for stored in reversed([s for s in results if user_id in s.record.seats][-limit:]):
        record = stored.record
        seat = record.seats.index(user_id)
        others = [n for i, n in enumerate(stored.names) if i != seat] or ["solo"]
        if len(record.seats) == 1:
            verdict = "won" if record.options.get("won") == "yes" else "played"
        elif all(r == record.ranks[0] for r in record.ranks):
            verdict = "drew"
        else:
            verdict = "won" if record.ranks[seat] == 0 else "lost"
        score = f" ({record.scores[seat]:,})" if record.scores else ""
        title = get_game(record.game_key).info.title
        when = f"<t:{int(record.finished_at)}:R>"
        link = ""
        if stored.message_id is not None and record.guild_id is not None:
            link = (
                f" — [table](https://discord.com/channels/{record.guild_id}/"
                f"{stored.channel_id}/{stored.message_id})"
            )
        lines.append(f"{when} {title} vs {', '.join(others)}: **{verdict}**{score}{link}")
    return lines

"""Leaderboards, member stats and game history, built from stored results (no Discord).

Ratings come from ``bot.ratings`` (openskill); this module only chooses which results count
for a board, puts names on user ids and shapes the rows the images show.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.bests import Bests, BestStanding, figures_of
from bot.engine.core import BadOption
from bot.engine.words import noun
from bot.games import bundle, get_game, title_of
from bot.kept_results import KeptLadder, KeptResults
from bot.names import readings, unused_name
from bot.ratings import (
    Rating,
    Scope,
    Standing,
    chronological,
    head_to_head,
    outcome_of,
    rate_result,
    rating_history,
    standings,
)
from bot.render.leaderboard import LeaderboardRow
from bot.render.stats import BestLine, MemberStats, OpponentLine, RatingPoint
from bot.store.base import StoredResult

DAY = 86_400.0
PERIODS: dict[str, float | None] = {"all": None, "month": 30 * DAY, "week": 7 * DAY}
PERIOD_LABELS = {"all": "All time", "month": "Last 30 days", "week": "Last 7 days"}


def since(period: str, now: float) -> float | None:
    """The start of a period (None: all time)."""
    length = PERIODS[period]
    return None if length is None else now - length


KEPT = KeptResults()
"""The bot's rated ladders kept per store and caught up with only the results written since
(``bot.kept_results``): what the all-time boards, /stats and the rating line after a game read
when the store numbers its results."""

ELSEWHERE = "Player on another server"
"""The name on a board across servers of a member who never played on the server it is shown
on, until the front end puts their Discord account's public name there (``Board.elsewhere``)."""


def names_of(results: Sequence[StoredResult]) -> dict[int, str]:
    """Each member's most recent seat name, whatever order ``results`` come in (/stats merges
    a ladder's results with the member's own games)."""
    names: dict[int, str] = {}
    for stored in sorted(results, key=lambda s: (s.record.finished_at, s.record.game_id)):
        for user, name in zip(stored.record.seats, stored.names, strict=False):
            if user is not None:
                names[user] = name
    return names


def told_apart(names: dict[int, str]) -> dict[int, str]:
    """``names`` with a name that looks like an earlier member's numbered ("Sam", "Sam (2)"), in
    the order the members first played (``names_of`` keeps it): two members who never met at a
    table may share a name, and a board or card listing both must say which Sam is which."""
    # The readings of the names shown so far, grown one name at a time: ``unused_name`` against
    # the whole list would read every earlier name again for each member, which on a board of
    # thousands of members took seconds.
    seen: set[str] = set()
    shown: dict[int, str] = {}
    for user, name in names.items():
        shown[user] = unused_name(name, seen=seen)
        seen |= readings(shown[user])
    return shown


def names_seen_on(results: Sequence[StoredResult], here: int | None) -> dict[int, str]:
    """The names a board across servers may show on server ``here`` (None: in a direct
    message): each member's most recent seat name there — a seat name is the member's nickname
    on that server, for its members alone to read — and every former player's (a negative
    alias id, ``bot.forget``), which is Junction's own."""
    return with_formers(
        names_of([r for r in results if r.record.guild_id == here]), names_of(results)
    )


def with_formers(here: dict[int, str], everyone: dict[int, str]) -> dict[int, str]:
    """``here`` (the names recorded on one server) and every former player's from ``everyone``
    (the names recorded anywhere): what ``names_seen_on`` gives, from names already known."""
    return here | {user: name for user, name in everyone.items() if user < 0}


@dataclass(frozen=True)
class Board:
    """A board's rows, the caller's own (None when unranked) and what the value column is.
    ``elsewhere``: the rows' members named ``ELSEWHERE`` (a board across servers, members who
    never played on the server it is shown on), for the front end to name."""

    rows: tuple[LeaderboardRow, ...]
    caller_row: LeaderboardRow | None
    value_label: str
    elsewhere: frozenset[int] = frozenset()


@dataclass(frozen=True)
class RatingChange:
    """A member's displayed rating on a ladder just before and just after one game."""

    user_id: int
    name: str
    before: int
    after: int


def rating_changes(
    results: Sequence[StoredResult],
    *,
    game_id: int,
    game_key: str,
    guild_id: int | None,
) -> list[RatingChange]:
    """How game ``game_id`` moved its players on the game's ladder of this server (all
    servers when ``guild_id`` is None), in seat order; empty when it moved nobody (a game
    against the computer, or a result not stored). Ratings as the stats chart shows them,
    replayed from every result of the ladder, so they agree with /leaderboard: the rating
    before is as the board showed it when the game ended, uncertainty grown by the time the
    player was away (``Rating.at``), as the game itself rated it. ``kept_rating_changes``
    answers alike from a kept ladder for one of its latest games."""
    scope = Scope(get_game(game_key).info.ladder, guild_id)
    table: dict[int, Rating] = {}
    for record in chronological(r.record for r in results if scope.includes(r.record)):
        changed = rate_result(table, record)
        if record.game_id == game_id:
            names = next(r.names for r in results if r.record.game_id == game_id)
            moves = {
                # As of the game's end: a rating unmoved since months ago would show the
                # player's old figure, and a win after a long break read as a loss.
                user: (table.get(user, Rating()).display(record.finished_at), after.display())
                for user, after in changed.items()
            }
            return _rating_lines(record.seats, names, moves)
        table.update(changed)
    return []


def kept_rating_changes(kept: KeptLadder, game_id: int) -> list[RatingChange] | None:
    """``rating_changes`` from a kept ladder (``KeptResults.read``) for one of its latest rated
    games; None for another game (replay the results with ``rating_changes`` instead)."""
    change = kept.change(game_id)
    return None if change is None else _rating_lines(change.seats, change.names, change.moves)


def _rating_lines(
    seats: Sequence[int | None], names: Sequence[str], moves: Mapping[int, tuple[int, int]]
) -> list[RatingChange]:
    """The rating line's changes in seat order, from each moved player's (before, after)."""
    return [
        RatingChange(user, name, *moves[user])
        for user, name in zip(seats, names, strict=False)
        if user is not None and user in moves
    ]


def shared_places(values: Sequence[object]) -> list[int]:
    """Places of a board's rows, best first: equal values share one (1, 1, 3), so a tie is
    not settled by who has more games or the older account, which only order the rows."""
    places: list[int] = []
    for i, value in enumerate(values):
        places.append(places[-1] if i and value == values[i - 1] else i + 1)
    return places


def leaderboard(
    results: Sequence[StoredResult],
    *,
    game_key: str,
    guild_id: int | None,
    caller: int,
    now: float,
    here: int | None = None,
    kept: KeptLadder | None = None,
) -> Board:
    """The board for a game on a server (or everywhere, ``guild_id`` None), the caller's row
    included. ``here``: the server a board across servers is shown on (None: in a direct
    message), whose members may read only the names recorded there (``names_seen_on``).
    ``kept``: the all-time ladder of a rated game kept and caught up (``KeptResults.read``),
    which stands in for ``results`` (a period's board is replayed from its own start)."""
    info = get_game(game_key).info
    ranking = info.ranking
    if kept is not None:
        if ranking.kind == "best":
            bests, everyone, on_here = kept.best_board(here=here)
            seen = everyone if guild_id is not None else with_formers(on_here, everyone)
            return _best_board(bests, told_apart(seen), ranking.label, caller)
        ladder, everyone, on_here = kept.board(now, here=here)
        seen = everyone if guild_id is not None else with_formers(on_here, everyone)
        return _rated_board(ladder, told_apart(seen), ranking.label, caller)
    names = told_apart(names_of(results) if guild_id is not None else names_seen_on(results, here))
    if ranking.kind == "best":
        tally = Bests(game_key)
        for stored in results:
            tally.add(stored)
        return _best_board(tally.lines(), names, ranking.label, caller)
    ladder = standings((s.record for s in results), Scope(info.ladder, guild_id), now)
    return _rated_board(ladder, names, ranking.label, caller)


def _best_board(
    bests: Sequence[BestStanding], names: dict[int, str], label: str, caller: int
) -> Board:
    """A best-result board from its members' best results and the names it may show."""
    places = shared_places([line.key for line in bests])
    rows = tuple(
        LeaderboardRow(
            place, names.get(line.player, ELSEWHERE), line.shown, line.played, None, line.player
        )
        for place, line in zip(places, bests, strict=True)
    )
    return _board(rows, [line.player for line in bests], names, label, caller)


def _rated_board(
    ladder: Sequence[Standing], names: dict[int, str], label: str, caller: int
) -> Board:
    """A rated game's board from its ladder and the names it may show."""
    places = shared_places([line.display for line in ladder])
    rows = tuple(
        LeaderboardRow(
            places[i],
            names.get(line.player, ELSEWHERE),
            line.display,
            line.record.games,
            line.record.win_rate,
            line.player,
        )
        for i, line in enumerate(ladder)
    )
    return _board(rows, [line.player for line in ladder], names, label, caller)


def _board(
    rows: tuple[LeaderboardRow, ...],
    users: list[int],
    names: dict[int, str],
    label: str,
    caller: int,
) -> Board:
    """A board of ``rows`` (the members ``users``, in order): the caller's row and the members
    not among ``names``."""
    caller_row = rows[users.index(caller)] if caller in users else None
    elsewhere = frozenset(r.player for r in rows if r.player is not None and r.player not in names)
    return Board(rows, caller_row, label, elsewhere)


def member_stats(
    results: Sequence[StoredResult],
    *,
    user_id: int,
    name: str,
    game_key: str,
    guild_id: int | None,
    now: float,
    kept: KeptLadder | None = None,
) -> MemberStats:
    """A member's card: rating over time, record, frequent opponents, favourite game, bests.

    A solitaire's card has no rating: games played, won and lost, and the member's place on
    the game's best-results board of this server (``solitaire_stats``). ``kept``: the game's
    ladder (or best-results board) on this server kept and caught up (``KeptResults.read``);
    ``results`` then need hold only the member's own games, of every kind."""
    if get_game(game_key).info.solitaire:
        return solitaire_stats(
            results,
            user_id=user_id,
            name=name,
            game_key=game_key,
            guild_id=guild_id,
            now=now,
            kept=kept,
        )
    mine = [s for s in results if user_id in s.record.seats]
    # Across servers (a direct message), an opponent goes by the name they had in the last game
    # they shared with the member: their latest may be a nickname of a server the member is not
    # on, and a nickname belongs to its own server (as on a board across servers).
    scope = Scope(get_game(game_key).info.ladder, guild_id)
    # Numbered over the ladder's members only, as the board numbers them.
    if kept is None:
        names = told_apart(
            names_of(
                [s for s in (results if guild_id is not None else mine) if scope.includes(s.record)]
            )
        )
        records = [s.record for s in results]
        ladder = standings(records, scope, now)
        points = rating_history(records, scope, user_id)
    else:
        ladder, points, everyone = kept.card(user_id, now)
        names = told_apart(
            everyone
            if guild_id is not None
            else names_of([s for s in mine if scope.includes(s.record)])
        )
        # The member's head-to-head records need only their own games.
        records = [s.record for s in mine]
    index = next((i for i, line in enumerate(ladder) if line.player == user_id), None)
    line = ladder[index] if index is not None else None
    place = shared_places([s.display for s in ladder])[index] if index is not None else None
    history = tuple(RatingPoint(at, value) for at, value in points)
    if line is not None and history and history[-1].rating != line.display:
        # Idle since the last game, the rating has slipped (``Rating.at``): the chart ends at
        # the rating the card's header and the board show, not at the last game's.
        history += (RatingPoint(max(now, history[-1].at), line.display, after_game=False),)
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
        favourite_game=title_of(favourite) if favourite else None,
        favourite_game_plays=plays,
        best=best,
    )


def solitaire_stats(
    results: Sequence[StoredResult],
    *,
    user_id: int,
    name: str,
    game_key: str,
    guild_id: int | None,
    now: float,
    kept: KeptLadder | None = None,
) -> MemberStats:
    """A solitaire member's card: every game of it they played (assisted ones too), won and
    lost as ``solitaire_verdict`` says (a game that could not be won is only played), and
    their best result as the best-results board ranks it (which leaves out assisted games and
    other settings), with their place on that board. ``kept``: that board kept and caught up
    (``KeptResults.read``); ``results`` then need hold only the member's own games."""
    info = get_game(game_key).info
    mine = [s for s in results if user_id in s.record.seats]
    games = [s for s in mine if s.record.game_key == game_key]
    verdicts = Counter(solitaire_verdict(s, s.record.seats.index(user_id)) for s in games)
    # The board of the same results /leaderboard ranks: this game's, all time, here.
    board = leaderboard(
        [s for s in results if s.record.game_key == game_key],
        game_key=game_key,
        guild_id=guild_id,
        caller=user_id,
        now=now,
        kept=kept,
    )
    row = board.caller_row
    favourites = Counter(s.record.game_key for s in mine)
    favourite, plays = favourites.most_common(1)[0] if favourites else (None, 0)
    return MemberStats(
        name=name,
        scope_label=info.title,
        rank=row.rank if row else None,
        ranked_players=len(board.rows) if row else None,
        games=len(games),
        wins=verdicts["won"],
        losses=verdicts["lost"],
        favourite_game=title_of(favourite) if favourite else None,
        favourite_game_plays=plays,
        best=_personal_bests(mine, user_id, game_key),
        solitaire=True,
        winnable="won" in info.ranking.keys,
        board_label=board.value_label,
        board_value=row.value if row else None,
        given_up_ranks=info.ranking.given_up_ranks,
    )


def _personal_bests(
    mine: Sequence[StoredResult], user_id: int, game_key: str
) -> tuple[BestLine, ...]:
    """The member's best game score, the game's own best figures and its totals."""
    ranking = get_game(game_key).info.ranking
    lines: list[BestLine] = []
    games = [s for s in mine if s.record.game_key == game_key]
    seated = [(s, s.record.seats.index(user_id)) for s in games]
    # A game the member left has no figures they played to: never their best.
    stayed = [(s, seat) for s, seat in seated if not figures_of(s, seat).get("left")]
    for figure, label in (("score", "Best score"), *ranking.bests):
        top: tuple[int, int] | None = None  # (value, game id)
        for stored, seat in stayed:
            value = figures_of(stored, seat).get(figure)
            if value is not None and (top is None or value > top[0]):
                top = (value, stored.record.game_id)
        if top is not None:
            unit = f" {ranking.score_unit}" if figure in ("score", "best_hand") else ""
            lines.append(BestLine(label, f"{top[0]:,}{unit}", f"game #{top[1]}"))
    for figure, label in ranking.totals:
        total = sum(figures_of(stored, seat).get(figure, 0) for stored, seat in seated)
        count = len(seated)
        lines.append(BestLine(label, f"{total:,}", f"in {count:,} {noun(count, 'game')}"))
    return tuple(lines)


SolitaireVerdict = Literal["won", "lost", "played"]


def solitaire_verdict(stored: StoredResult, seat: int = 0) -> SolitaireVerdict:
    """What a solitaire's result was, one rule for /history, the /stats card and its words:
    ``won``; ``lost`` when the game could have been won at its settings (Ticket to Ride Solo's
    hidden tickets, Mille Bornes Solo's refuel and easy presets); else ``played`` (Mille Bornes
    Solo's classic preset, a score attack nobody clears completely)."""
    if figures_of(stored, seat).get("won"):
        return "won"
    try:
        winnable = bundle(stored.record.game_key).can_be_won(stored.record.options)
    except BadOption:
        # A plug-in game no longer installed: its records outlive it, its rules do not.
        winnable = False
    return "lost" if winnable else "played"


def message_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """The address that opens a message in Discord (``@me``: a direct message)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def channel_link(guild_id: int, channel_id: int) -> str:
    """The address that opens a server's channel or thread in Discord from anywhere: in a
    direct message a mention of it (``<#id>``) leads nowhere."""
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


_MESSAGE_LINK = re.compile(r"https://discord\.com/channels/(?:\d+|@me)/(\d+)/(\d+)")


def linked_messages(text: str) -> list[tuple[int, int]]:
    """The messages ``text`` links to with ``message_link``, as (channel, message), in order
    and once each. A name in the text cannot add one: names are shown through
    ``cogs.ui.plain``, which breaks every ``://``."""
    found = ((int(m[1]), int(m[2])) for m in _MESSAGE_LINK.finditer(text))
    return list(dict.fromkeys(found))


HISTORY_GAMES = 10
"""/history's games: a member's last ten (the store reads no more: ``Store.results``'s
``newest``)."""


def history_lines(
    results: Sequence[StoredResult],
    user_id: int,
    *,
    escape: Callable[[str], str],
    limit: int = HISTORY_GAMES,
) -> list[str]:
    """A member's most recent games, newest first, one line each with a link when known.

    The lines are markdown (a bold verdict, a link); ``escape`` makes each opponent's name
    plain text in it, so a name cannot add markup of its own.
    """
    lines = []
    for stored in reversed([s for s in results if user_id in s.record.seats][-limit:]):
        record = stored.record
        seat = record.seats.index(user_id)
        others = [escape(n) for i, n in enumerate(stored.names) if i != seat]
        if len(record.seats) == 1:
            verdict: str = solitaire_verdict(stored, seat)
        elif all(r == record.ranks[0] for r in record.ranks):
            verdict = "drew"
        elif outcome_of(record, seat) == 0:
            # First place shared (Dragon's last drivers dying with equal miles, a tie on
            # points): nobody won, and /stats counts it a draw.
            verdict = "tied for first"
        elif record.ranks[seat] == 0:
            verdict = "won"
        elif len(record.seats) > 2:
            verdict = f"place {record.ranks[seat] + 1}"
        else:
            verdict = "lost"
        score = f" ({record.scores[seat]:,})" if record.scores else ""
        if figures_of(stored, seat).get("left"):
            # Its score is no total the seat played to (Ticket to Ride's 0), as the end's
            # line says "(left)" in its place.
            score = " (left)"
        # A plug-in game no longer installed goes by its key: its records outlive it.
        title = title_of(record.game_key)
        when = f"<t:{int(record.finished_at)}:R>"
        link = ""
        # A game played in direct messages is linked too: it is listed only to its member, in
        # their direct messages (a server's /history reads that server's games), where the
        # link opens their own table.
        if stored.message_id is not None:
            where = message_link(record.guild_id, stored.channel_id, stored.message_id)
            link = f" — [table]({where})"
        against = f" vs {', '.join(others)}" if others else " (alone)"
        lines.append(f"{when} {title}{against}: **{verdict}**{score}{link}")
    return lines

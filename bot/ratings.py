"""Player ratings: Weng-Lin Bayesian skill (openskill's Plackett-Luce model), pure functions.

One system serves every seated game: a two-player match is just a two-seat
finishing order, and a 3–6 seat game is a longer one. Ties share a rank (a drawn match, or
two players level on points). The mathematics is openskill's; this module only decides
what counts, when uncertainty grows back, and how a rating is shown.

Vocabulary:

* ``Rating`` — one player's belief in one scope: skill estimate ``mu``, its uncertainty
  ``sigma``, rated games played and when the last one finished (Unix seconds).
* ``ResultRecord`` — one finished game as the results table holds it. Only *counted* games
  between two or more distinct members move ratings (see ``is_rated``); games with the
  computer, aborted games and one-player games never do.
* ``Scope`` — a ladder: one game family on one server, or that family across all servers
  (``guild_id=None``). Every rated game moves its server's ladder and the global one.

Idle rule. A rating's ``sigma`` grows back while the player is away, as a random walk in
skill: ``sigma_now = sqrt(sigma² + TAU_PER_DAY² · idle_days)``, never above the newcomer's
``DEFAULT_SIGMA`` (nor below the stored sigma). ``idle_sigma`` is the one place this is
computed; it is applied before every rated game and to every displayed rating. With
``TAU_PER_DAY = 0.25`` a settled player (sigma ≈ 3) shows about 40 points less after two
idle months and about 200 less after a year: rust, not a reset.

Displayed rating. Players see a conservative ordinal on a familiar scale::

    display = round(1000 + 25 · (mu − 3 · sigma))

``mu − 3·sigma`` is a skill the player almost surely has (openskill's own ``ordinal``), so a
newcomer (mu 25, sigma 25/3) shows exactly 1000 and climbs as games make the estimate
surer; a settled average player shows about 1400 and a strong one 1700–1800. A run of
losses can take a weak player below 1000; the scale has no floor.

Ties. A two-seat draw, and a game where every seat ties, are openskill's own (equals keep
their mu). A tie among some of 3–6 seats is not: openskill 6's Plackett-Luce tie handling
(upstream openskill.py issues #155 and #173) rated a tied pair below the place after it, so
two Dragon drivers sharing the win gained less than the third car, and a shared second place
less than fourth. Such a game is rated once for every order the tied players could have
finished in, and each player takes the mean of their ratings over those orders: a shared
place rates between the places it spans, and equals who tie still rate alike.
"""

from __future__ import annotations

import itertools
import math
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

from openskill.models import PlackettLuce

PlayerKey: TypeAlias = int
"""A player is a Discord user id; the computer has no key and is never rated."""

DEFAULT_MU = 25.0
DEFAULT_SIGMA = DEFAULT_MU / 3
# openskill's defaults, spelled out so a library upgrade cannot silently re-scale every
# stored rating: beta is the performance noise of one game, tau the per-game sigma floor.
BETA = DEFAULT_SIGMA / 2
TAU_PER_GAME = DEFAULT_MU / 300

TAU_PER_DAY = 0.25
"""Skill drift per idle day, in mu units: variance grows by ``TAU_PER_DAY²`` a day."""

DISPLAY_BASE = 1000
DISPLAY_SCALE = 25
DISPLAY_Z = 3.0

_SECONDS_PER_DAY = 86_400.0

_MODEL = PlackettLuce(
    mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, beta=BETA, tau=TAU_PER_GAME, limit_sigma=False
)


# --- ratings -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rating:
    """One player's rating in one scope; immutable, and JSON-friendly via ``to_json``."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0
    last_played: float | None = None  # Unix seconds of the last rated game, None if none

    def to_json(self) -> dict[str, Any]:
        """A plain dict of JSON types (floats, an int and maybe null)."""
        return {
            "mu": self.mu,
            "sigma": self.sigma,
            "games": self.games,
            "last_played": self.last_played,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rating:
        """The inverse of ``to_json``; missing keys take the newcomer's defaults."""
        last = data.get("last_played")
        return cls(
            mu=float(data.get("mu", DEFAULT_MU)),
            sigma=float(data.get("sigma", DEFAULT_SIGMA)),
            games=int(data.get("games", 0)),
            last_played=None if last is None else float(last),
        )

    def at(self, now: float | None) -> Rating:
        """This rating as of ``now``: sigma grown by idle time (see ``idle_sigma``)."""
        sigma = idle_sigma(self.sigma, self.last_played, now)
        return self if sigma == self.sigma else replace(self, sigma=sigma)

    def display(self, now: float | None = None) -> int:
        """The conservative ordinal players see, as of ``now`` (None: no idle growth)."""
        return display_rating(self, now)


def idle_sigma(sigma: float, last_played: float | None, now: float | None) -> float:
    """``sigma`` grown by the time since ``last_played``: the one idle rule (module doc).

    Capped at ``DEFAULT_SIGMA`` so a long absence makes a player uncertain again, never more
    uncertain than a newcomer; a sigma already above the cap is left as it is.
    """
    if last_played is None or now is None or now <= last_played:
        return sigma
    days = (now - last_played) / _SECONDS_PER_DAY
    grown = math.sqrt(sigma * sigma + TAU_PER_DAY * TAU_PER_DAY * days)
    return max(sigma, min(grown, DEFAULT_SIGMA))


def display_rating(rating: Rating, now: float | None = None) -> int:
    """``round(1000 + 25 · (mu − 3·sigma))`` with sigma as of ``now`` (module doc)."""
    sigma = idle_sigma(rating.sigma, rating.last_played, now)
    return round(DISPLAY_BASE + DISPLAY_SCALE * (rating.mu - DISPLAY_Z * sigma))


def rate_game(
    ratings: Mapping[PlayerKey, Rating],
    ranks: Mapping[PlayerKey, float],
    finished_at: float,
) -> dict[PlayerKey, Rating]:
    """New ratings of the players of one finished game.

    ``ranks`` gives every player's finishing place, lower is better; equal ranks are a tie
    (a draw shares a rank). ``ratings`` may lack newcomers, who start at ``Rating()``. Each
    player's sigma first grows by their idle time up to ``finished_at``. Only the players in
    ``ranks`` are returned, each with one more game and ``last_played = finished_at``.
    """
    players = list(ranks)
    if len(players) < 2:
        raise ValueError("a rated game needs at least two players")
    before = [ratings.get(p, Rating()).at(finished_at) for p in players]
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = [
        _MODEL.rate(teams, ranks=[float(rank) for rank in order])
        for order in _finishing_orders([ranks[p] for p in players])
    ]
    return {
        p: Rating(
            # fsum: exact whatever the order, so equals who tie get equal ratings.
            mu=math.fsum(float(r[i][0].mu) for r in rated) / len(rated),
            sigma=math.fsum(float(r[i][0].sigma) for r in rated) / len(rated),
            games=old.games + 1,
            last_played=finished_at,
        )
        for i, (p, old) in enumerate(zip(players, before, strict=True))
    }


def _finishing_orders(places: Sequence[float]) -> list[list[float]]:
    """The places to rate a game by (module doc, Ties): ``places`` itself for two seats or when
    every seat ties; else one strict finishing order (each seat's position, 0 first) per order
    the tied players could have finished in."""
    groups = [[i for i, p in enumerate(places) if p == place] for place in sorted(set(places))]
    tied = [group for group in groups if len(group) > 1]
    if len(places) < 3 or not tied or len(groups) == 1:
        return [list(places)]
    orders: list[list[float]] = []
    for arrangement in itertools.product(*(itertools.permutations(g) for g in tied)):
        ways = iter(arrangement)
        order = [0.0] * len(places)
        position = 0
        for group in groups:
            for seat in next(ways) if len(group) > 1 else group:
                order[seat] = float(position)
                position += 1
        orders.append(order)
    return orders


def ranks_from_order(order: Sequence[PlayerKey | Sequence[PlayerKey]]) -> dict[PlayerKey, int]:
    """Ranks from a finishing order, first place first; a group of players is a tie.

    ``[a, [b, c], d]`` gives a 0, b and c 1, d 3 (competition ranking, as on a podium).
    """
    ranks: dict[PlayerKey, int] = {}
    place = 0
    for entry in order:
        group = [entry] if isinstance(entry, int) else list(entry)
        for player in group:
            ranks[player] = place
        place += len(group)
    return ranks


# --- results and scopes --------------------------------------------------------------------


@dataclass(frozen=True)
class ResultRecord:
    """One finished game as stored in the results table.

    ``seats``, ``ranks`` and ``scores`` are per seat, in seat order: the member's user id
    (None for the computer), the finishing place (lower is better, equal is a tie) and the
    final points (empty when the game has none). ``counted`` is False for games that must
    never move ratings: against the computer, aborted, or played alone.
    """

    game_id: int
    game_key: str
    guild_id: int | None
    finished_at: float
    seats: tuple[PlayerKey | None, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...] = ()
    options: Mapping[str, str] = field(default_factory=dict)
    counted: bool = True
    # Per-seat figures the game reported (cards cleared, best hand, kills…), in seat order.
    details: tuple[Mapping[str, int], ...] = ()

    def __post_init__(self) -> None:
        if len(self.ranks) != len(self.seats):
            raise ValueError("ranks must give one place per seat")
        if self.details and len(self.details) != len(self.seats):
            raise ValueError("details must be empty or give one mapping per seat")
        if self.scores and len(self.scores) != len(self.seats):
            raise ValueError("scores must be empty or give one score per seat")

    @property
    def family(self) -> str:
        return game_family(self.game_key)


def game_family(game_key: str) -> str:
    """The ladder a game key belongs to: the key before any ``:variant`` suffix.

    Variants of one game (``<key>`` and, say, ``<key>:teams``) share a ladder so the
    community is not split; a different game gets a key of its own.
    """
    return game_key.split(":", 1)[0]


def is_rated(record: ResultRecord) -> bool:
    """Whether ``record`` moves ratings: counted, two or more seats, all distinct members.

    The seat checks repeat what ``counted`` should already say, so a mislabelled record
    (a computer seat, one member in two seats) cannot corrupt a ladder.
    """
    members = [s for s in record.seats if s is not None]
    return (
        record.counted
        and len(record.seats) >= 2
        and len(members) == len(record.seats)
        and len(set(members)) == len(members)
    )


@dataclass(frozen=True)
class Scope:
    """A ladder: one game family on one server, or across all servers (``guild_id=None``)."""

    family: str
    guild_id: int | None = None

    @property
    def is_global(self) -> bool:
        return self.guild_id is None

    @property
    def key(self) -> str:
        """A stable text key for storage, e.g. ``race@123`` or ``race@global``."""
        return f"{self.family}@{'global' if self.guild_id is None else self.guild_id}"

    def includes(self, record: ResultRecord) -> bool:
        """Whether ``record`` belongs to this ladder (ratedness is checked separately)."""
        if record.family != self.family:
            return False
        return self.guild_id is None or record.guild_id == self.guild_id


def scopes_of(record: ResultRecord) -> tuple[Scope, ...]:
    """The ladders one game moves: its server's (when it has one) and the global one."""
    family = record.family
    if record.guild_id is None:  # a game in DMs exists only on the global ladder
        return (Scope(family),)
    return (Scope(family, record.guild_id), Scope(family))


def chronological(results: Iterable[ResultRecord]) -> list[ResultRecord]:
    """``results`` in the order they are rated: by finishing time, then by game id."""
    return sorted(results, key=lambda r: (r.finished_at, r.game_id))


def rate_result(
    ratings: Mapping[PlayerKey, Rating], record: ResultRecord
) -> dict[PlayerKey, Rating]:
    """The incremental update after one game: new ratings of its players, or ``{}``.

    ``ratings`` holds (at least) the players' current ratings in the scope being updated;
    the caller picks the scope (see ``scopes_of``). Records that are not rated return ``{}``.
    """
    if not is_rated(record):
        return {}
    ranks = {p: rank for p, rank in zip(record.seats, record.ranks, strict=True) if p is not None}
    return rate_game(ratings, ranks, record.finished_at)


def recompute(results: Iterable[ResultRecord], scope: Scope) -> dict[PlayerKey, Rating]:
    """Every player's rating in ``scope``, rebuilt from scratch from the results table.

    Equal to applying ``rate_result`` game by game in chronological order, so the stored
    ratings can always be thrown away and rebuilt (after a fix, or a changed constant).
    """
    table: dict[PlayerKey, Rating] = {}
    for record in chronological(r for r in results if scope.includes(r)):
        table.update(rate_result(table, record))
    return table


def recompute_all(results: Iterable[ResultRecord]) -> dict[Scope, dict[PlayerKey, Rating]]:
    """Every ladder at once (each server's and each family's global one), in one pass."""
    tables: dict[Scope, dict[PlayerKey, Rating]] = {}
    for record in chronological(results):
        if not is_rated(record):
            continue
        for scope in scopes_of(record):
            table = tables.setdefault(scope, {})
            table.update(rate_result(table, record))
    return tables


def rating_history(
    results: Iterable[ResultRecord], scope: Scope, player: PlayerKey
) -> list[tuple[float, int]]:
    """``(finished_at, displayed rating just after)`` for each of ``player``'s rated games
    in ``scope``, oldest first: the points of the rating-over-time chart."""
    table: dict[PlayerKey, Rating] = {}
    points: list[tuple[float, int]] = []
    for record in chronological(r for r in results if scope.includes(r)):
        changed = rate_result(table, record)
        table.update(changed)
        if player in changed:
            points.append((record.finished_at, changed[player].display()))
    return points


# --- standings and records -----------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    """Wins, losses and draws."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def win_rate(self) -> float | None:
        """Wins over games, draws counting as half; None before the first game."""
        return None if not self.games else (self.wins + 0.5 * self.draws) / self.games

    def add(self, outcome: int) -> Tally:
        """One more game: ``outcome`` > 0 a win, < 0 a loss, 0 a draw."""
        if outcome > 0:
            return replace(self, wins=self.wins + 1)
        if outcome < 0:
            return replace(self, losses=self.losses + 1)
        return replace(self, draws=self.draws + 1)


def outcome_of(record: ResultRecord, seat: int) -> int:
    """1 if ``seat`` won alone, 0 if it shared first place, -1 otherwise."""
    best = min(record.ranks)
    if record.ranks[seat] != best:
        return -1
    return 1 if record.ranks.count(best) == 1 else 0


@dataclass(frozen=True)
class Standing:
    """One line of a ladder: a player's rating as of now and their rated record."""

    player: PlayerKey
    rating: Rating
    display: int
    record: Tally


def standings(
    results: Iterable[ResultRecord],
    scope: Scope,
    now: float | None = None,
    min_games: int = 1,
) -> list[Standing]:
    """The ladder of ``scope``, best first, by displayed rating as of ``now``.

    Ties on the display go to the player with more games, then the lower user id, so the
    order is stable. Players with fewer than ``min_games`` rated games are left out.
    """
    chosen = [r for r in results if scope.includes(r) and is_rated(r)]
    ratings = recompute(chosen, scope)
    tallies: dict[PlayerKey, Tally] = {}
    for record in chosen:
        for seat, player in enumerate(record.seats):
            if player is not None:
                tallies[player] = tallies.get(player, Tally()).add(outcome_of(record, seat))
    return _standing_lines(ratings, tallies, now, min_games)


def _standing_lines(
    ratings: Mapping[PlayerKey, Rating],
    tallies: Mapping[PlayerKey, Tally],
    now: float | None,
    min_games: int,
) -> list[Standing]:
    """The lines of ``standings`` from a ladder's ratings and records, in its order."""
    lines = [
        Standing(p, rating, rating.display(now), tallies.get(p, Tally()))
        for p, rating in ratings.items()
        if rating.games >= min_games
    ]
    lines.sort(key=lambda s: (-s.display, -s.rating.games, s.player))
    return lines


def head_to_head(
    results: Iterable[ResultRecord], player: PlayerKey, scope: Scope | None = None
) -> dict[PlayerKey, Tally]:
    """``player``'s record against each member they met in rated games (of ``scope``).

    In a 3–6 seat game each pair is compared by finishing place: ahead is a win, level a
    draw. Sorted by games together, most first, so the frequent opponents lead.
    """
    tallies: dict[PlayerKey, Tally] = {}
    for record in results:
        if not is_rated(record) or (scope is not None and not scope.includes(record)):
            continue
        if player not in record.seats:
            continue
        mine = record.ranks[record.seats.index(player)]
        for other, rank in zip(record.seats, record.ranks, strict=True):
            if other is None or other == player:
                continue
            # Lower rank is better, so the opponent's rank minus mine is > 0 for a win.
            tallies[other] = tallies.get(other, Tally()).add(rank - mine)
    return dict(sorted(tallies.items(), key=lambda kv: (-kv[1].games, kv[0])))


# --- replays kept between requests ---------------------------------------------------------

RECENT_CHANGES = 256
"""The games whose rating moves a kept replay remembers, newest last (the line posted after a
game asks for the game that just ended)."""


@dataclass(slots=True)
class ChartPoints:
    """One player's chart points on a replayed ladder: when each of their rated games finished
    and their displayed rating after it, packed in arrays (12 bytes a point; a list of tuples
    took about 130, and a big ladder holds hundreds of thousands of points)."""

    times: array[float] = field(default_factory=lambda: array("d"))
    ratings: array[int] = field(default_factory=lambda: array("i"))

    def add(self, at: float, rating: int) -> None:
        self.times.append(at)
        self.ratings.append(rating)

    def __len__(self) -> int:
        return len(self.times)

    def pairs(self) -> list[tuple[float, int]]:
        """The points as ``rating_history`` gives them: (finished at, rating), oldest first."""
        return list(zip(self.times, self.ratings, strict=True))


@dataclass
class Replay:
    """One ladder replayed: every player's rating and record, each player's chart points and the
    latest games' moves.

    ``apply`` rates the ladder's next rated game; whoever feeds it answers for the order
    (``bot.kept_results`` knows it from the store's numbering)."""

    table: dict[PlayerKey, Rating] = field(default_factory=dict)
    tallies: dict[PlayerKey, Tally] = field(default_factory=dict)
    points: dict[PlayerKey, ChartPoints] = field(default_factory=dict)
    # game id -> each player's displayed rating (before as of the game's end, after).
    changes: dict[int, dict[PlayerKey, tuple[int, int]]] = field(default_factory=dict)

    def apply(self, record: ResultRecord) -> None:
        changed = rate_result(self.table, record)
        moves: dict[PlayerKey, tuple[int, int]] = {}
        for seat, player in enumerate(record.seats):
            if player is None:
                continue
            self.tallies[player] = self.tallies.get(player, Tally()).add(outcome_of(record, seat))
            after = changed[player]
            moves[player] = (
                self.table.get(player, Rating()).display(record.finished_at),
                after.display(),
            )
            if player not in self.points:
                self.points[player] = ChartPoints()
            self.points[player].add(record.finished_at, after.display())
        self.table.update(changed)
        self.changes[record.game_id] = moves
        if len(self.changes) > RECENT_CHANGES:
            del self.changes[next(iter(self.changes))]

    def standings(self, now: float | None = None, min_games: int = 1) -> list[Standing]:
        """``standings`` of the games applied so far, as of ``now``."""
        return _standing_lines(self.table, self.tallies, now, min_games)

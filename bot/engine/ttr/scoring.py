"""Final scoring: which tickets each On-the-Track stack completes, and the Big City bonuses.

A set of tickets can be completed together exactly when, colour by colour, the stack's cards of
that colour plus the Locomotives cover the set's total need — a colour card serves only its
colour, a Locomotive any one requirement, and each card one ticket. So the allocation is a
choice of the ticket *set*; the cards follow (``_serve``).

The choice (RULINGS §4): in the standard game each player's set maximises their ticket points,
then completes the most tickets touching New York, Chicago, Los Angeles, Dallas, Seattle and
Miami, compared in that order. In solo it maximises the player's total with the Big City bonuses
included, then the margin over the hidden opponent. Both searches are branch and bound over the
tickets, richest first: an infeasible set has no feasible superset, and a branch stops as soon as
even completing every ticket left could not beat the best set found (a lexicographic bound).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.ttr.cards import CITIES, CITY_BONUS, LOCO, TICKETS

_NC = len(CITIES)


@dataclass(frozen=True)
class TicketLine:
    """One ticket at scoring: completed or not, and the cards that served it.

    ``cards`` pairs a card kind (colour index, or ``LOCO``) with how many of it served.
    """

    ticket: int
    completed: bool
    points: int  # signed: + when completed, − when not
    cards: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class SeatScore:
    seat: int
    track: tuple[int, ...]  # the On-the-Track stack, nine counts
    lines: tuple[TicketLine, ...]
    ticket_points: int
    city_counts: tuple[int, ...]  # completed tickets touching each Big City
    cities_won: tuple[int, ...]
    bonus: int
    total: int


@dataclass(frozen=True)
class OpponentScore:
    """Solo: the six hidden tickets, all counted as completed by an opponent."""

    tickets: tuple[int, ...]
    ticket_points: int
    city_counts: tuple[int, ...]
    cities_won: tuple[int, ...]
    bonus: int
    total: int


@dataclass(frozen=True)
class FinalScore:
    seats: tuple[SeatScore, ...]
    city_winners: tuple[tuple[int, ...], ...]  # per city, the seats that score it (-1: opponent)
    opponent: OpponentScore | None = None
    won: bool | None = None  # solo only
    margin: int = 0  # solo only: player total minus opponent total


# --- the allocation ---------------------------------------------------------------------------


def completable(tickets: Sequence[int], track: Sequence[int]) -> bool:
    """Whether one stack completes every ticket of ``tickets`` at once."""
    need = [0] * 8
    for t in tickets:
        for c, n in enumerate(TICKETS[t].need):
            need[c] += n
    return sum(max(0, need[c] - track[c]) for c in range(8)) <= track[LOCO]


def _prepared(
    tickets: Sequence[int], track: Sequence[int]
) -> tuple[list[int], list[tuple[tuple[int, int], ...]]]:
    """Tickets the stack could complete alone, richest first, with their needs as pairs."""
    alone = [t for t in tickets if completable((t,), track)]
    alone.sort(key=lambda t: (-TICKETS[t].points, t))
    needs = [tuple((c, n) for c, n in enumerate(TICKETS[t].need) if n) for t in alone]
    return alone, needs


def best_standard(tickets: Sequence[int], track: Sequence[int]) -> tuple[int, ...]:
    """The tickets the standard game completes from ``track`` (ascending ticket indexes)."""
    order, needs = _prepared(tickets, track)
    n = len(order)
    if not n:
        return ()
    # Each candidate's key: points, then the six city counts (NY first).
    keys = [(TICKETS[t].points, *[1 if c in TICKETS[t].cities else 0 for c in range(_NC)]) for t in order]
    width = 1 + _NC
    suffix = [[0] * width for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        suffix[i] = [suffix[i + 1][k] + keys[i][k] for k in range(width)]
    have = list(track[:8])
    locos = track[LOCO]
    used = [0] * 8
    best: list[int] = [-1] * width
    best_set: list[int] = []
    chosen: list[int] = []
    current = [0] * width

    def deficit_after(i: int) -> int:
        extra = 0
        for c, k in needs[i]:
            before = max(0, used[c] - have[c])
            after = max(0, used[c] + k - have[c])
            extra += after - before
        return extra

    def search(i: int, deficit: int) -> None:
        nonlocal best, best_set
        if current > best:
            best = list(current)
            best_set = list(chosen)
        if i == n:
            return
        bound = [current[k] + suffix[i][k] for k in range(width)]
        if bound <= best:
            return
        extra = deficit_after(i)
        if deficit + extra <= locos:
            for c, k in needs[i]:
                used[c] += k
            for k in range(width):
                current[k] += keys[i][k]
            chosen.append(order[i])
            search(i + 1, deficit + extra)
            chosen.pop()
            for k in range(width):
                current[k] -= keys[i][k]
            for c, k in needs[i]:
                used[c] -= k
        search(i + 1, deficit)

    search(0, 0)
    return tuple(sorted(best_set))


def city_counts(tickets: Sequence[int]) -> tuple[int, ...]:
    counts = [0] * _NC
    for t in tickets:
        for c in TICKETS[t].cities:
            counts[c] += 1
    return tuple(counts)


def solo_value(
    completed: Sequence[int], tickets: Sequence[int], hidden: Sequence[int]
) -> tuple[int, int]:
    """(player total, margin over the opponent) when ``completed`` are the completed tickets."""
    mine = city_counts(completed)
    theirs = city_counts(hidden)
    done = set(completed)
    points = sum(TICKETS[t].points if t in done else -TICKETS[t].points for t in tickets)
    bonus = sum(CITY_BONUS[c] for c in range(_NC) if mine[c] >= max(1, theirs[c]))
    their_bonus = sum(CITY_BONUS[c] for c in range(_NC) if theirs[c] >= max(1, mine[c]))
    total = points + bonus
    opponent = sum(TICKETS[t].points for t in hidden) + their_bonus
    return total, total - opponent


def best_solo(
    tickets: Sequence[int], track: Sequence[int], hidden: Sequence[int]
) -> tuple[int, ...]:
    """The tickets solo completes: the best total with bonuses, then the best margin."""
    order, needs = _prepared(tickets, track)
    n = len(order)
    all_points = sum(TICKETS[t].points for t in tickets)
    theirs = city_counts(hidden)
    their_points = sum(TICKETS[t].points for t in hidden)
    cities = [tuple(TICKETS[t].cities) for t in order]
    points = [TICKETS[t].points for t in order]
    rest_points = [0] * (n + 1)
    rest_cities = [[0] * _NC for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        rest_points[i] = rest_points[i + 1] + points[i]
        rest_cities[i] = list(rest_cities[i + 1])
        for c in cities[i]:
            rest_cities[i][c] += 1
    have = list(track[:8])
    locos = track[LOCO]
    used = [0] * 8
    mine = [0] * _NC
    chosen: list[int] = []
    best: tuple[int, int] | None = None
    best_set: list[int] = []
    gained = 0

    def value() -> tuple[int, int]:
        bonus = sum(CITY_BONUS[c] for c in range(_NC) if mine[c] >= max(1, theirs[c]))
        their_bonus = sum(CITY_BONUS[c] for c in range(_NC) if theirs[c] >= max(1, mine[c]))
        total = 2 * gained - all_points + bonus
        return total, total - their_points - their_bonus

    def bound(i: int) -> tuple[int, int]:
        reach = [mine[c] + rest_cities[i][c] for c in range(_NC)]
        bonus = sum(CITY_BONUS[c] for c in range(_NC) if reach[c] >= max(1, theirs[c]))
        sure = sum(CITY_BONUS[c] for c in range(_NC) if theirs[c] >= max(1, reach[c]))
        total = 2 * (gained + rest_points[i]) - all_points + bonus
        return total, total - their_points - sure

    def search(i: int, deficit: int) -> None:
        nonlocal best, best_set, gained
        here = value()
        if best is None or here > best:
            best = here
            best_set = list(chosen)
        if i == n or bound(i) <= best:
            return
        extra = 0
        for c, k in needs[i]:
            extra += max(0, used[c] + k - have[c]) - max(0, used[c] - have[c])
        if deficit + extra <= locos:
            for c, k in needs[i]:
                used[c] += k
            for c in cities[i]:
                mine[c] += 1
            gained += points[i]
            chosen.append(order[i])
            search(i + 1, deficit + extra)
            chosen.pop()
            gained -= points[i]
            for c in cities[i]:
                mine[c] -= 1
            for c, k in needs[i]:
                used[c] -= k
        search(i + 1, deficit)

    search(0, 0)
    return tuple(sorted(best_set))


def _serve(completed: Sequence[int], track: Sequence[int]) -> dict[int, tuple[tuple[int, int], ...]]:
    """The cards serving each completed ticket: its colour cards first, Locomotives for the rest
    (tickets served in ascending order)."""
    left = list(track)
    served: dict[int, tuple[tuple[int, int], ...]] = {}
    for t in sorted(completed):
        cards: list[tuple[int, int]] = []
        locos = 0
        for c, n in enumerate(TICKETS[t].need):
            if not n:
                continue
            own = min(n, left[c])
            left[c] -= own
            if own:
                cards.append((c, own))
            locos += n - own
        if locos:
            left[LOCO] -= locos
            cards.append((LOCO, locos))
        served[t] = tuple(cards)
    if left[LOCO] < 0:  # pragma: no cover - the search only picks completable sets
        raise AssertionError("an allocation used more Locomotives than the stack holds")
    return served


def _seat_lines(
    tickets: Sequence[int], completed: Sequence[int], track: Sequence[int]
) -> tuple[tuple[TicketLine, ...], int]:
    served = _serve(completed, track)
    lines = []
    total = 0
    for t in tickets:
        done = t in served
        points = TICKETS[t].points if done else -TICKETS[t].points
        total += points
        lines.append(TicketLine(t, done, points, served.get(t, ())))
    return tuple(lines), total


def score_standard(
    tickets: Sequence[Sequence[int]], tracks: Sequence[Sequence[int]], playing: Sequence[bool]
) -> FinalScore:
    """The final scoring of a standard game; seats not ``playing`` (they left) score nothing."""
    seats = len(tickets)
    completed = [best_standard(tickets[s], tracks[s]) if playing[s] else () for s in range(seats)]
    counts = [city_counts(done) for done in completed]
    winners: list[tuple[int, ...]] = []
    for c in range(_NC):
        top = max((counts[s][c] for s in range(seats) if playing[s]), default=0)
        winners.append(
            tuple(s for s in range(seats) if playing[s] and top >= 1 and counts[s][c] == top)
        )
    scores = []
    for s in range(seats):
        lines, points = _seat_lines(tickets[s], completed[s], tracks[s]) if playing[s] else ((), 0)
        won = tuple(c for c in range(_NC) if s in winners[c])
        bonus = sum(CITY_BONUS[c] for c in won)
        scores.append(
            SeatScore(s, tuple(tracks[s]), lines, points, counts[s], won, bonus, points + bonus)
        )
    return FinalScore(tuple(scores), tuple(winners))


def score_solo(tickets: Sequence[int], track: Sequence[int], hidden: Sequence[int]) -> FinalScore:
    """The solo scoring: the player against six hidden tickets completed by an opponent."""
    completed = best_solo(tickets, track, hidden)
    mine = city_counts(completed)
    theirs = city_counts(hidden)
    lines, points = _seat_lines(tickets, completed, track)
    winners: list[tuple[int, ...]] = []
    for c in range(_NC):
        top = max(mine[c], theirs[c])
        side: list[int] = []
        if top >= 1 and mine[c] == top:
            side.append(0)
        if top >= 1 and theirs[c] == top:
            side.append(-1)
        winners.append(tuple(side))
    won = tuple(c for c in range(_NC) if 0 in winners[c])
    bonus = sum(CITY_BONUS[c] for c in won)
    seat = SeatScore(0, tuple(track), lines, points, mine, won, bonus, points + bonus)
    their_won = tuple(c for c in range(_NC) if -1 in winners[c])
    their_points = sum(TICKETS[t].points for t in hidden)
    their_bonus = sum(CITY_BONUS[c] for c in their_won)
    opponent = OpponentScore(
        tuple(hidden), their_points, theirs, their_won, their_bonus, their_points + their_bonus
    )
    margin = seat.total - opponent.total
    return FinalScore((seat,), tuple(winners), opponent, margin > 0, margin)

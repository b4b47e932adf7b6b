"""Final scoring: which tickets each On-the-Track stack completes, and the Big City bonuses.

A set of tickets can be completed together exactly when, colour by colour, the stack's cards of
that colour plus the Locomotives cover the set's total need — a colour card serves only its
colour, a Locomotive any one requirement, and each card one ticket. So the allocation is a
choice of the ticket *set*; the cards follow (``_serve``).

The choice (docs/rules/ttr.md, Rulings): in the standard game each player's set maximises their
ticket points, then, city by city in the order New York, Chicago, Los Angeles, Dallas, Seattle,
Miami, has the most completed tickets touching that city. In solo it maximises the player's total
with the Big City bonuses included, then the margin over the hidden opponent. Both searches are
branch and bound over the tickets, richest first: an infeasible set has no feasible superset, and a
branch stops as soon as even completing every ticket left could not beat the best set found (a
lexicographic bound).
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
    ``code`` is the ticket as printed ("T04"): at the final scoring every ticket is turned face
    up, so the public view names it as the hands did (a hidden-card check reads codes).
    """

    ticket: int
    completed: bool
    points: int  # signed: + when completed, − when not
    cards: tuple[tuple[int, int], ...]
    code: str


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
    """Solo: the six hidden tickets, all counted as completed by an opponent. ``codes`` names
    them as printed: the final scoring turns them face up (as ``TicketLine.code``)."""

    tickets: tuple[int, ...]
    ticket_points: int
    city_counts: tuple[int, ...]
    cities_won: tuple[int, ...]
    bonus: int
    total: int
    codes: tuple[str, ...]


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


def _prices(
    points: Sequence[int], needs: Sequence[tuple[tuple[int, int], ...]], track: Sequence[int]
) -> list[float]:
    """Card prices for the Lagrangian bound, tuned by a short subgradient descent.

    For any prices ``mu >= 0``, no ticket set the stack can complete is worth more than
    ``sum(max(0, p - mu·need)) + mu·cards + locos·max(mu)`` (relax each colour's constraint
    at its price; the Locomotives go to the dearest colour). Any prices give a valid bound;
    good ones give a tight one, so the search prunes early.
    """
    have = track[:8]
    locos = track[LOCO]

    def bound(mu: list[float]) -> tuple[float, list[float]]:
        value = sum(mu[c] * have[c] for c in range(8)) + locos * max(mu)
        grad = [float(have[c]) for c in range(8)]
        top = max(range(8), key=lambda c: mu[c])
        grad[top] += locos
        for p, need in zip(points, needs, strict=True):
            reduced = p - sum(mu[c] * n for c, n in need)
            if reduced > 0:
                value += reduced
                for c, n in need:
                    grad[c] -= n
        return value, grad

    mu = [1.8] * 8
    best_value, grad = bound(mu)
    best_mu = list(mu)
    step = 0.5
    for _ in range(40):
        norm = sum(g * g for g in grad) ** 0.5
        if norm == 0:
            break
        mu = [max(0.0, mu[c] - step * grad[c] / norm) for c in range(8)]
        value, grad = bound(mu)
        if value < best_value:
            best_value, best_mu = value, list(mu)
        step *= 0.9
    return best_mu


_PRICED_FROM = 12  # tickets beyond which the Lagrangian bound is worth computing
_CITY_BITS = 6  # a city count stays below 64, so the six pack into one integer
_CITY_MASK = (1 << (_CITY_BITS * _NC)) - 1


class _Bounds:
    """Upper bounds on the points the tickets from ``i`` on can still add, given what is left
    of the stack. Two relaxations, the smaller one wins:

    - cards: every requirement consumes one card, and a colour's cards beyond what the
      remaining tickets need of it are useless, so an exact 0/1 knapsack over the remaining
      tickets (weight: their card counts) with the usable cards as capacity — precomputed for
      every suffix and capacity, a lookup per node;
    - colours: the Lagrangian bound at the prices ``_prices`` chose.
    """

    def __init__(
        self, points: list[int], needs: list[tuple[tuple[int, int], ...]], track: Sequence[int]
    ) -> None:
        n = len(points)
        # A handful of tickets is searched faster without pricing the colours.
        self.priced = n > _PRICED_FROM
        self.mu = _prices(points, needs, track) if self.priced else [0.0] * 8
        self.top = max(self.mu)
        reduced = [
            max(0.0, p - sum(self.mu[c] * k for c, k in need))
            for p, need in zip(points, needs, strict=True)
        ]
        self.rest_reduced = [0.0] * (n + 1)
        self.demand = [[0] * 8 for _ in range(n + 1)]
        capacity = sum(track)
        self.knapsack = [[0] * (capacity + 1) for _ in range(n + 1)]
        for i in range(n - 1, -1, -1):
            self.rest_reduced[i] = self.rest_reduced[i + 1] + reduced[i]
            self.demand[i] = list(self.demand[i + 1])
            for c, k in needs[i]:
                self.demand[i][c] += k
            weight = sum(k for _, k in needs[i])
            after = self.knapsack[i + 1]
            row = list(after)
            for cap in range(weight, capacity + 1):
                value = after[cap - weight] + points[i]
                if value > row[cap]:
                    row[cap] = value
            self.knapsack[i] = row

    def extra(self, i: int, left: list[int], locos: int) -> int:
        demand = self.demand[i]
        usable = locos
        for c in range(8):
            have = left[c]
            usable += have if have < demand[c] else demand[c]
        best = self.knapsack[i][usable]
        if self.priced:
            mu = self.mu
            lagrange = self.rest_reduced[i] + self.top * locos
            for c in range(8):
                lagrange += mu[c] * left[c]
            best = min(best, int(lagrange + 1e-6))
        return best


def _take(left: list[int], locos: int, need: tuple[tuple[int, int], ...]) -> tuple[list[int], int]:
    """The colour cards one more ticket takes (its own colour first) and the Locomotives left
    after it (negative when the stack cannot serve it)."""
    spent = []
    for c, k in need:
        own = k if left[c] >= k else left[c]
        locos -= k - own
        spent.append(own)
    return spent, locos


def best_standard(tickets: Sequence[int], track: Sequence[int]) -> tuple[int, ...]:
    """The tickets the standard game completes from ``track`` (ascending ticket indexes)."""
    order, needs = _prepared(tickets, track)
    n = len(order)
    if not n:
        return ()
    points = [TICKETS[t].points for t in order]
    # One integer per ticket: its points, then one per Big City it touches (New York first);
    # sums compare as the lexicographic (points, NY, Chicago, LA, Dallas, Seattle, Miami).
    keys = []
    for t in order:
        key = TICKETS[t].points
        for c in range(_NC):
            key = (key << _CITY_BITS) | (1 if c in TICKETS[t].cities else 0)
        keys.append(key)
    rest_cities = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        rest_cities[i] = rest_cities[i + 1] + (keys[i] & _CITY_MASK)
    bounds = _Bounds(points, needs, track)
    left = list(track[:8])
    chosen: list[int] = []
    best = -1
    best_set: list[int] = []
    gained = 0

    def search(i: int, locos: int) -> None:
        nonlocal best, best_set, gained
        if gained > best:
            best, best_set = gained, list(chosen)
        if i == n:
            return
        more_points = bounds.extra(i, left, locos)
        cap = (((gained >> 36) + more_points) << 36) | ((gained & _CITY_MASK) + rest_cities[i])
        if cap <= best:
            return
        spent, more = _take(left, locos, needs[i])
        if more >= 0:
            for (c, _k), own in zip(needs[i], spent, strict=True):
                left[c] -= own
            gained += keys[i]
            chosen.append(order[i])
            search(i + 1, more)
            chosen.pop()
            gained -= keys[i]
            for (c, _k), own in zip(needs[i], spent, strict=True):
                left[c] += own
        search(i + 1, locos)

    search(0, track[LOCO])
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
    rest_cities = [[0] * _NC for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        rest_cities[i] = list(rest_cities[i + 1])
        for c in cities[i]:
            rest_cities[i][c] += 1
    bounds = _Bounds(points, needs, track)
    left = list(track[:8])
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

    def bound(i: int, locos: int) -> tuple[int, int]:
        extra = bounds.extra(i, left, locos)
        reach = [mine[c] + rest_cities[i][c] for c in range(_NC)]
        bonus = sum(CITY_BONUS[c] for c in range(_NC) if reach[c] >= max(1, theirs[c]))
        sure = sum(CITY_BONUS[c] for c in range(_NC) if theirs[c] >= max(1, reach[c]))
        total = 2 * (gained + extra) - all_points + bonus
        return total, total - their_points - sure

    def search(i: int, locos: int) -> None:
        nonlocal best, best_set, gained
        here = value()
        if best is None or here > best:
            best = here
            best_set = list(chosen)
        if i == n or bound(i, locos) <= best:
            return
        spent, more = _take(left, locos, needs[i])
        if more >= 0:
            for (c, _k), own in zip(needs[i], spent, strict=True):
                left[c] -= own
            for c in cities[i]:
                mine[c] += 1
            gained += points[i]
            chosen.append(order[i])
            search(i + 1, more)
            chosen.pop()
            gained -= points[i]
            for c in cities[i]:
                mine[c] -= 1
            for (c, _k), own in zip(needs[i], spent, strict=True):
                left[c] += own
        search(i + 1, locos)

    search(0, track[LOCO])
    return tuple(sorted(best_set))


def _serve(
    completed: Sequence[int], track: Sequence[int]
) -> dict[int, tuple[tuple[int, int], ...]]:
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
        lines.append(TicketLine(t, done, points, served.get(t, ()), TICKETS[t].code))
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
        tuple(hidden),
        their_points,
        theirs,
        their_won,
        their_bonus,
        their_points + their_bonus,
        tuple(TICKETS[t].code for t in hidden),
    )
    margin = seat.total - opponent.total
    return FinalScore((seat,), tuple(winners), opponent, margin > 0, margin)

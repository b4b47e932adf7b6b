"""How many Ticket to Ride solo deals can be won at all: a proven upper bound.

    .venv/bin/python -m tools.ttr_solo_bound --games 1000 --seed 1

A solo deal is won by a total strictly higher than the six hidden tickets' (all counted as
completed, with their Big City bonuses). For each deal, dealt exactly as ``junction arena
ttr-solo --seed S`` deals game ``S``, this computes a score no play of that deal can beat, by
giving the player every advantage the rules leave open:

* **Cards.** Colours, the draw area, robbing and the Station Clock are ignored: every draw
  brings two cards of whatever colour the player wants, every Railyard play may be any set, and
  nothing is ever robbed. What remains is the flow: the hand starts with eight cards, each turn
  is one action (draw two, play one set or three singles, or draw tickets), and a set played
  on turn ``t`` of sixteen can send at most ``16 - t`` cards to the track, one a turn
  (``track_bound``). Locomotives are wild, so only the number of track cards limits which
  tickets are completed.
* **Tickets.** The player knows the ticket deck's order (it is fixed once the opening keep is
  made): with ``k`` ticket draws it may complete any of the six dealt tickets and any of the
  first ``4k`` tickets of the deck. The deck is shuffled after the opening keep, with the
  returned tickets in it; the tickets the player did not complete cost it nothing, except the
  highest-value dealt ticket, which must be kept and subtracts its points when not completed.
* **Scoring** is the game's own (``solo_value``): the Big City bonuses with ties scoring for
  both sides, against the hidden tickets.

The best margin over all choices is found exactly by dynamic programming over (track cards
used, Big City counts capped one above the hidden tickets' counts). A deal whose best margin is
not positive cannot be won by anyone; the ones with a positive margin may or may not be
winnable. The output is one JSON object: the winnable count and the margins' distribution.
``--cap N`` asks what if no play put more than ``N`` cards on the track (a what-if, not a
bound).

The loosest part is the card flow: it allows 28 track cards, while real play puts 16 to 20 there
and must match the tickets' colours. So the bound proves a deal lost, never that it can be won:
a winning line found in the engine does that (tests/ai/test_ttr_solo_bound.py replays one).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from bot.engine.ttr import SOLO_GAME
from bot.engine.ttr.cards import CITY_BONUS, TICKETS
from bot.engine.ttr.scoring import city_counts, solo_value
from bot.engine.ttr.state import CLOCK_CARDS, Action, TtrState

START_HAND = 8
"""A Locomotive and seven cards."""
DRAWN = 2
"""Cards one draw action brings at most (a face-up Locomotive is one card counting as two)."""
TICKET_DRAW = 4


@cache
def _flow(turn: int, hand: int, ticket_draws: int, turns: int) -> int:
    """Most track cards from ``turn`` on, holding ``hand`` cards, with ``ticket_draws`` ticket
    actions still to take (-1 when they no longer fit)."""
    if turn > turns:
        return 0 if ticket_draws == 0 else -1
    left = turns - turn  # turns a set played now feeds the track: turn + 1 .. turns
    options = [_flow(turn + 1, hand + DRAWN, ticket_draws, turns)]
    if ticket_draws:
        options.append(_flow(turn + 1, hand, ticket_draws - 1, turns))
    for size in range(2, hand + 1):
        rest = _flow(turn + 1, hand - size, ticket_draws, turns)
        if rest >= 0:
            options.append(min(size, left) + rest)
    if hand >= 3 and left:  # three singles, one card each
        rest = _flow(turn + 1, hand - 3, ticket_draws, turns)
        if rest >= 0:
            options.append(3 + rest)
    return max(options)


def track_bound(ticket_draws: int, turns: int = CLOCK_CARDS, hand: int = START_HAND) -> int:
    """The most cards that can reach the track in ``turns`` turns with ``ticket_draws`` of them
    spent drawing tickets, colours and robbing ignored; -1 if the draws do not fit."""
    if not 0 <= ticket_draws <= turns:
        return -1
    return _flow(1, hand, ticket_draws, turns)


def solo_deal(seed: int) -> TtrState:
    """The deal ``junction arena ttr-solo`` plays as game ``seed``, before the opening keep."""
    return SOLO_GAME.new_game(["Bound"], seed)


def opening_keeps(offered: Sequence[int]) -> list[tuple[int, ...]]:
    """Every opening keep the rules accept: any subset holding a highest-value ticket."""
    top = max(TICKETS[t].points for t in offered)
    keeps = []
    for mask in range(1, 1 << len(offered)):
        kept = tuple(t for i, t in enumerate(offered) if mask >> i & 1)
        if any(TICKETS[t].points == top for t in kept):
            keeps.append(kept)
    return keeps


def ticket_deck_after(state: TtrState, kept: Sequence[int]) -> list[int]:
    """The ticket deck, top first, once the opening keep ``kept`` is made (the engine's own
    shuffle, so a player who knew the seed would know it)."""
    return SOLO_GAME.apply(state, 0, Action("keep", tickets=tuple(sorted(kept)))).ticket_deck


@dataclass(frozen=True)
class DealBound:
    """The best any play of one deal can do, in the relaxation above."""

    seed: int
    hidden_total: int  # the hidden tickets' total against ``completed``
    best_margin: int  # the player's best total minus the hidden tickets' total
    best_total: int  # the player's best total (not always reached with the best margin)
    completed: tuple[int, ...]  # a ticket set reaching ``best_margin``
    ticket_draws: int  # with this many ticket draws
    cards: int  # and this many track cards


class _Levels:
    """Big City counts as one small integer: city ``c`` counts 0 .. hidden count + 1, since
    one more completed ticket than the hidden side changes nothing that is scored."""

    def __init__(self, hidden: Sequence[int]) -> None:
        theirs = city_counts(hidden)
        self.caps = [n + 1 for n in theirs]
        self.radix: list[int] = []
        size = 1
        for cap in self.caps:
            self.radix.append(size)
            size *= cap + 1
        self.size = size
        theirs_points = sum(TICKETS[t].points for t in hidden)
        # What a code adds to the player's ticket points: its bonuses (``total_bonus``), and
        # for the margin also minus the hidden side's points and the bonuses they keep.
        self.margin_bonus = [0] * size
        self.total_bonus = [0] * size
        for code in range(size):
            mine = self.decode(code)
            bonus = sum(CITY_BONUS[c] for c, n in enumerate(mine) if n >= max(1, theirs[c]))
            their_bonus = sum(CITY_BONUS[c] for c, n in enumerate(mine) if theirs[c] >= max(1, n))
            self.total_bonus[code] = bonus
            self.margin_bonus[code] = bonus - their_bonus - theirs_points

    def decode(self, code: int) -> list[int]:
        return [code // r % (cap + 1) for r, cap in zip(self.radix, self.caps, strict=True)]

    def step(self, ticket: int) -> list[int]:
        """Each code mapped to the code after completing ``ticket`` too."""
        out = []
        for code in range(self.size):
            for c in TICKETS[ticket].cities:
                if code // self.radix[c] % (self.caps[c] + 1) < self.caps[c]:
                    code += self.radix[c]
            out.append(code)
        return out


# A DP table: (cards used, city code) -> (best points, the tickets reaching them).
_Table = dict[tuple[int, int], tuple[int, tuple[int, ...]]]


def _add(table: _Table, ticket: int, limit: int, levels: _Levels) -> _Table:
    """``table`` after deciding on ``ticket``, one the player need not keep: completed (its
    points, its cards) or not (nothing); tables never hold more than ``limit`` cards."""
    info = TICKETS[ticket]
    step = levels.step(ticket)
    out: _Table = {}
    for (cards, code), (points, chosen) in table.items():
        key = (cards, code)
        if key not in out or out[key][0] < points:
            out[key] = (points, chosen)
        if cards + info.cards <= limit:
            key = (cards + info.cards, step[code])
            value = points + info.points
            if key not in out or out[key][0] < value:
                out[key] = (value, (*chosen, ticket))
    return out


def _dealt_table(offered: Sequence[int], limit: int, levels: _Levels) -> _Table:
    """The DP table over the six dealt tickets, any of which may be completed. The penalty for
    the highest-value one is paid up front and paid back (with its points) when a ticket of
    that value is completed; with two of the same value, the second earns only its points: a
    flag in the key says whether one is already done, then is dropped."""
    top = max(TICKETS[t].points for t in offered)
    flagged: dict[tuple[int, int, bool], tuple[int, tuple[int, ...]]] = {(0, 0, False): (-top, ())}
    for ticket in offered:
        info = TICKETS[ticket]
        step = levels.step(ticket)
        is_top = info.points == top
        grown = dict(flagged)
        for (cards, code, done), (points, chosen) in flagged.items():
            if cards + info.cards > limit:
                continue
            key = (cards + info.cards, step[code], done or is_top)
            value = points + info.points + (top if is_top and not done else 0)
            if key not in grown or grown[key][0] < value:
                grown[key] = (value, (*chosen, ticket))
        flagged = grown
    table: _Table = {}
    for (cards, code, _done), (points, chosen) in flagged.items():
        if (cards, code) not in table or table[cards, code][0] < points:
            table[cards, code] = (points, chosen)
    return table


def deal_bound(seed: int, cap: int | None = None) -> DealBound:
    """The best margin and total any play of deal ``seed`` can reach (see the module text)."""
    return bound_of(solo_deal(seed), cap)


def bound_of(state: TtrState, cap: int | None = None) -> DealBound:
    """The best margin and total any play of a fresh solo deal (before the opening keep) can
    reach; with ``cap``, also putting no more than ``cap`` cards on the track (a what-if:
    with a cap below ``track_bound`` it is no longer a bound)."""
    seed = state.seed
    offered = list(state.offered[0])
    hidden = list(state.hidden_tickets)
    levels = _Levels(hidden)
    limits = [track_bound(k) for k in range(CLOCK_CARDS + 1)]
    if cap is not None:
        limits = [min(limit, cap) for limit in limits]
    dealt = _dealt_table(offered, limits[0], levels)
    # The deck after each opening keep. The dealt tickets in it count as always available, so
    # only where the others lie matters: it depends on how many tickets were returned.
    decks = {
        tuple(-1 if t in offered else t for t in ticket_deck_after(state, kept))
        for kept in opening_keeps(offered)
    }
    best: tuple[int, tuple[int, ...], int, int] | None = None
    best_total: int | None = None
    for deck in sorted(decks):
        table = dealt
        for k in range(CLOCK_CARDS + 1):
            if k:
                if limits[k] < 0 or TICKET_DRAW * (k - 1) >= len(deck):
                    break
                for ticket in deck[TICKET_DRAW * (k - 1) : TICKET_DRAW * k]:
                    if ticket >= 0:
                        table = _add(table, ticket, limits[k], levels)
            for (cards, code), (points, chosen) in table.items():
                if cards > limits[k]:
                    continue
                margin = points + levels.margin_bonus[code]
                if best is None or margin > best[0]:
                    best = (margin, chosen, k, cards)
                total = points + levels.total_bonus[code]
                if best_total is None or total > best_total:
                    best_total = total
    assert best is not None and best_total is not None
    margin, chosen, k, cards = best
    # The scoring code's own verdict on the set found: the tables must agree with it.
    top = max(TICKETS[t].points for t in offered)
    tops = [t for t in offered if TICKETS[t].points == top]
    held = list(chosen) if set(chosen) & set(tops) else [*chosen, tops[0]]
    total, check = solo_value(chosen, held, hidden)
    if check != margin:  # pragma: no cover - a bug in the tables, not a property of the deal
        raise AssertionError(f"deal {seed}: the tables say {margin}, the scoring {check}")
    hidden_total = total - check
    return DealBound(seed, hidden_total, margin, best_total, tuple(sorted(chosen)), k, cards)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="deals to bound (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed (default 1)")
    parser.add_argument(
        "--cap", type=int, default=None, help="what if no more track cards than this"
    )
    args = parser.parse_args(argv)
    bounds = [deal_bound(args.seed + i, args.cap) for i in range(args.games)]
    margins = sorted(b.best_margin for b in bounds)
    winnable = [b.seed for b in bounds if b.best_margin > 0]
    report = {
        "deals": len(bounds),
        "first_seed": args.seed,
        "cap": args.cap,
        "winnable": len(winnable),
        "winnable_share": len(winnable) / max(len(bounds), 1),
        "winnable_seeds": winnable,
        "margin_max": margins[-1] if margins else None,
        "margin_median": statistics.median(margins) if margins else None,
        "margin_deciles": statistics.quantiles(margins, n=10) if len(margins) > 1 else margins,
        "track_bound": [track_bound(k) for k in range(CLOCK_CARDS + 1)],
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()

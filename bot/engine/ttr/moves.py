"""Who is to act and every legal move: ticket keeps, draws, Railyard plays, the ticket draw,
the pass.

The lists are built the fast way (random playouts and the search ask for them at every move)
and ``legality`` says why any other move is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations
from operator import add

from bot.engine.ttr.cards import LOCO, NCOL, TICKETS
from bot.engine.ttr.state import (
    BLIND,
    CLOCK,
    DRAW_TICKETS,
    KEEP,
    OVER,
    PASS,
    PICK2,
    SETUP,
    Action,
    TtrState,
)
from bot.engine.ttr.table import face_up_counts


def to_act(state: TtrState) -> frozenset[int]:
    if state.phase == OVER:
        return frozenset()
    if state.phase == SETUP:
        return frozenset(s for s in range(state.seats) if state.active(s) and state.offered[s])
    return frozenset({state.turn})


def opponent_best(state: TtrState, seat: int) -> list[int]:
    """Per colour, the largest set any other seat has in its Railyard (0 if none)."""
    sizes = [
        list(map(add, state.yard_nat[other], state.yard_loco[other]))
        for other in range(state.seats)
        if other != seat
    ]
    return list(map(max, *sizes)) if len(sizes) > 1 else sizes[0]


def _limits(state: TtrState, seat: int) -> list[int]:
    """Per colour, the size a new set must beat (-1: the colour cannot be played)."""
    nat, loco = state.yard_nat[seat], state.yard_loco[seat]
    beat = face_up_counts(state)[:NCOL] if state.solo else opponent_best(state, seat)
    for c in range(NCOL):
        if nat[c] or loco[c]:
            beat[c] = -1
    return beat


@cache
def _colour_sets(c: int, held: int, locos: int, limit: int) -> tuple[Action, ...]:
    """Every set of colour ``c`` from ``held`` of it and ``locos`` Locomotives beating ``limit``."""
    return tuple(
        Action("yard", colour=c, naturals=n, locos=k)
        for n in range(1, held + 1)
        for k in range(locos + 1)
        if n + k >= 2 and n + k > limit
    )


@cache
def _triples(singles: tuple[int, ...]) -> tuple[Action, ...]:
    return tuple(Action("yard", singles=trio) for trio in combinations(singles, 3))


def yard_plays(state: TtrState, seat: int) -> list[Action]:
    """Every legal Railyard play: colour sets (colour order, then size), then the triples."""
    hand = state.hands[seat]
    limits = _limits(state, seat)
    locos = hand[LOCO]
    plays: list[Action] = []
    singles = []
    for c in range(NCOL):
        limit = limits[c]
        if limit < 0 or not hand[c]:
            continue
        plays.extend(_colour_sets(c, hand[c], locos, limit))
        if limit == 0:
            singles.append(c)
    if len(singles) >= 3:
        plays.extend(_triples(tuple(singles)))
    return plays


@cache
def _subsets(size: int, minimum: int, must: int) -> tuple[tuple[int, ...], ...]:
    """Index tuples of the subsets of ``range(size)`` with at least ``minimum`` members and (if
    ``must`` is a non-zero bitmask) one of its members, ascending by bitmask."""
    return tuple(
        tuple(i for i in range(size) if mask >> i & 1)
        for mask in range(1 << size)
        if bin(mask).count("1") >= minimum and (not must or mask & must)
    )


def keep_choices(offered: Sequence[int], minimum: int, must: Sequence[int]) -> list[Action]:
    """Every subset of ``offered`` of at least ``minimum`` tickets holding one of ``must`` (if
    any), ascending by bitmask."""
    mask = sum(1 << i for i, t in enumerate(offered) if t in must)
    return [
        Action("keep", tickets=tuple(offered[i] for i in chosen))
        for chosen in _subsets(len(offered), minimum, mask)
    ]


def keep_rule(state: TtrState, seat: int) -> tuple[int, tuple[int, ...]]:
    if state.phase != SETUP:
        return 0, ()
    if state.solo:
        top = max(TICKETS[t].points for t in state.offered[seat])
        return 1, tuple(t for t in state.offered[seat] if TICKETS[t].points == top)
    return 1, ()


_TAKE_SLOT = tuple(Action("take", slot=i) for i in range(CLOCK + 1))


def take_options(state: TtrState, second: bool) -> list[Action]:
    takes = []
    for i, card in enumerate(state.slots):
        if card >= 0 and not (second and card == LOCO):
            takes.append(_TAKE_SLOT[i + 1])
    if state.clock_card >= 0 and not (second and state.clock_card == LOCO):
        takes.append(_TAKE_SLOT[CLOCK])
    if state.deck:
        takes.append(_TAKE_SLOT[BLIND])
    return takes


def legal_actions(state: TtrState, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    if state.phase in (SETUP, KEEP):
        minimum, must = keep_rule(state, seat)
        return keep_choices(state.offered[seat], minimum, must)
    if state.phase == PICK2:
        return take_options(state, True)
    actions = take_options(state, False)
    actions.extend(yard_plays(state, seat))
    if state.ticket_deck:
        actions.append(DRAW_TICKETS)
    if not actions:
        actions.append(PASS)
    return actions

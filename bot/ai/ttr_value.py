"""Judging a standard Ticket to Ride position: the value model the expert's rollouts end with.

A logistic curve, fitted per train deck on ``normal``'s self-play (tests/ai/fit_ttr_value.py),
over the gap between the seat and its best rival in the projected final score (``project``) and
in the hand's size and Locomotives (``features``); ``final_worth`` scores a finished game.
"""

from __future__ import annotations

import math

from bot.ai.ttr_normal import (
    _demand,
)
from bot.engine.ttr.cards import (
    KINDS,
    LOCO,
    NCOL,
    TICKETS,
)
from bot.engine.ttr.scoring import score_standard
from bot.engine.ttr.state import TtrState

FUTURE_RATE = 0.0  # useful draws to come per turn left, added to the projection (0 fits best)
ROOM_RATE = 3.0  # hand cards a seat can move to its stack per turn left (3 fits best)


def _turns_left(state: TtrState) -> tuple[int, bool]:
    """Turns each seat still gets, roughly, and whether its stack and Railyard will count.

    Each turn takes about 1.3 cards from the deck (two when drawing, none when playing). With
    the rules' ending the first deck's stacks and Railyards go into the second deck, which has
    about a dozen turns per seat."""
    active = sum(1 for s in range(state.seats) if state.active(s))
    this_deck = math.ceil(len(state.deck) / (1.3 * max(1, active)))
    if state.deck_number == 2:
        return this_deck, True
    if state.keep_tracks:
        return this_deck + 12, True
    return 12, False


def project(state: TtrState, seat: int) -> list[int]:
    """``seat``'s On-the-Track stack at the end, as a guess (module docstring)."""
    turns, counts = _turns_left(state)
    demand = _demand([TICKETS[t] for t in state.tickets[seat]])
    final = [0] * KINDS
    if counts:
        final = list(state.track[seat])
        for c in range(NCOL):
            nat, loco = state.yard_nat[seat][c], state.yard_loco[seat][c]
            locos = min(loco, turns)
            final[LOCO] += locos
            final[c] += min(nat, turns - locos)
    deficit = [max(0, demand[c] - final[c]) for c in range(NCOL)]
    spare_locos = final[LOCO]
    for c in sorted(range(NCOL), key=lambda c: deficit[c]):
        used = min(spare_locos, deficit[c])
        deficit[c] -= used
        spare_locos -= used
    # Hand cards reach the stack only through Railyard sets: about 1.5 cards a turn at most.
    room = int(ROOM_RATE * turns)
    hand = state.hands[seat]
    for c in range(NCOL):
        moved = min(hand[c], deficit[c], room)
        final[c] += moved
        deficit[c] -= moved
        room -= moved
    locos = min(hand[LOCO], sum(deficit), room)
    final[LOCO] += locos
    for c in sorted(range(NCOL), key=lambda c: deficit[c]):
        used = min(locos, deficit[c])
        deficit[c] -= used
        locos -= used
    # Draws still to come fill the smallest gaps first (they finish tickets soonest).
    future = min(room - min(hand[LOCO], room), int(FUTURE_RATE * turns))
    for c in sorted(range(NCOL), key=lambda c: (deficit[c] == 0, deficit[c])):
        if future <= 0:
            break
        add = min(future, deficit[c])
        final[c] += add
        future -= add
    return final


def seat_figures(state: TtrState) -> list[list[float]]:
    """Per seat, what the value model reads: the projected total (Big Cities included), and
    the hand's size and Locomotives (in tens and fives, so the weights stay small).

    Deliberately not the points of the tickets held, nor what they lack: in ``normal``'s
    self-play holding more tickets goes with winning (it only keeps tickets it can complete),
    and a search would read that as "draw more tickets" — the projected total already counts
    a ticket for what it is likely to score."""
    playing = [state.active(s) for s in range(state.seats)]
    tracks = [project(state, s) if playing[s] else [0] * KINDS for s in range(state.seats)]
    result = score_standard(state.tickets, tracks, playing)
    figures = []
    for s in range(state.seats):
        hand = state.hands[s]
        figures.append([result.seats[s].total / 10.0, sum(hand) / 10.0, hand[LOCO] / 5.0])
    return figures


def features(state: TtrState, seat: int) -> list[float]:
    """A constant, whose turn it is, and the seat's figures minus its best rival's (the one
    with the highest projected total)."""
    figures = seat_figures(state)
    rivals = [s for s in range(state.seats) if s != seat and state.active(s)]
    rival = max(rivals, key=lambda s: figures[s][0])
    diff = [a - b for a, b in zip(figures[seat], figures[rival], strict=True)]
    return [1.0, 1.0 if state.turn == seat else 0.0, *diff]


VALUE_WEIGHTS: dict[int, tuple[float, ...]] = {
    1: (0.0295, 0.0295, 0.1761, -0.066, 0.8034),
    2: (-0.0066, -0.0066, 0.5933, 0.3837, 0.5264),
}
"""Logistic weights over ``features`` per train deck (tests/ai/fit_ttr_value.py fits them on
turn starts of ``normal`` against itself, 300 two-player games from seed 1000: 5618 first-deck
samples, held-out log loss 0.650; 2675 second-deck samples, 0.380; a coin scores 0.693). They
serve every table size: weights fitted on four-player games (``--players 4``) predicted no
better than the base rate in the first deck, and the expert did worse with them."""


def judge(state: TtrState, seat: int) -> float:
    """The value model's chance that ``seat`` wins from a standard-game turn start."""
    weights = VALUE_WEIGHTS[2 if state.deck_number == 2 else 1]
    z = sum(w * x for w, x in zip(weights, features(state, seat), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def final_worth(state: TtrState, seat: int) -> float:
    """A finished game's worth for ``seat``: the win, and (solo) the score for the rest."""
    result = state.result
    assert result is not None and state.winners is not None
    if state.solo:
        won = 1.0 if result.won else 0.0
        score = min(1.0, max(0.0, (result.seats[0].total + 80.0) / 240.0))
        return 0.5 * won + 0.5 * score
    if seat not in state.winners:
        return 0.0
    return 1.0 / len(state.winners)

"""The Dragon Mille Bornes value model: how likely a seat is to win from a table as it stands.

Each live car gets a strength, a weighted sum of what decides Dragon games (miles, whether it is
moving or can restart, driver wounds, breached and battered sides, safeties, an exact finish in
hand, answers and weapons in hand, a speed limit, whose turn it is), and a seat's chance to win
is its share of ``exp(strength)`` over the live cars (for two cars, a logistic of the
difference). The expert's rollouts end with it (``bot.ai.dragon_expert``).
"""

from __future__ import annotations

import math

from bot.engine.dragon.cards import DRIVER_TRACK, SIDE_TRACK, SPECS, TRIP
from bot.engine.dragon.state import DragonState
from bot.engine.dragon.table import moving
from bot.engine.mille.cards import HAZARD_FOR, Card


def car_features(state: DragonState, seat: int) -> list[float]:
    """What the value model reads of one live car (see ``VALUE_WEIGHTS``)."""
    car = state.cars[seat]
    t = car.mb
    miles = t.mileage
    left = TRIP - miles
    go = moving(car)
    hand = t.hand
    top = t.battle[-1] if t.battle else None
    restart = (
        go
        or Card.GO in hand
        or (top is not None and top.is_hazard and any(HAZARD_FOR.get(c) is top for c in hand))
    )
    full200 = t.miles.count(Card.D200) >= 2
    limited = bool(t.speed) and t.speed[-1] is Card.SPEED_LIMIT
    cap = min(left, 50 if limited else left)
    usable = [
        c.miles
        for c in hand
        if c.is_distance and c.miles <= cap and not (full200 and c is Card.D200)
    ]
    cw = car.cw_hand
    armor = sum(1 for c in cw if SPECS[c].kind == "armor")
    dodge = sum(1 for c in cw if c in ("swerve", "spin"))
    attacks = sum(
        1 for c in cw if SPECS[c].is_attack and not (car.jammed and SPECS[c].weapon == "mg")
    )
    breached = sum(1 for h in car.hits if h >= SIDE_TRACK)
    worst = max(car.hits)
    return [
        miles / TRIP,
        (miles / TRIP) ** 2,
        1.0 if go else 0.0,
        1.0 if restart else 0.0,
        car.driver / DRIVER_TRACK,
        (car.driver / DRIVER_TRACK) ** 2,
        float(breached),
        worst / SIDE_TRACK,
        sum(car.hits) / (4 * SIDE_TRACK),
        float(len(t.safeties)),
        1.0 if left in usable else 0.0,
        float(min(armor, 4)),
        float(min(dodge, 3)),
        float(attacks),
        1.0 if car.jammed else 0.0,
        1.0 if limited else 0.0,
        1.0 if state.turn == seat else 0.0,
    ]


FEATURES = 17

VALUE_WEIGHTS: tuple[float, ...] = (
    1.7276, 0.4083, 0.6696, 0.1534, -1.3208, 0.3686, -0.2575, -0.2411, -0.2711, 0.2513,
    0.9236, 0.0206, 0.0997, 0.0729, 0.0359, -0.3489, 0.0933,
)  # fmt: skip
"""The strength of a car: weights over ``car_features``; a seat's win chance is its share of
``exp(strength)`` over the live cars. tests/ai/fit_dragon_value.py fitted them: 17 000 turn
starts of 300 games of normal against itself (2 cars, seeds 1000-1299); held-out log loss 0.524
against 0.693 for a coin. Read them together, not one by one: the features overlap (a car with
shot tires is also not moving)."""


def strength(state: DragonState, seat: int) -> float:
    return sum(w * x for w, x in zip(VALUE_WEIGHTS, car_features(state, seat), strict=True))


def win_chance(state: DragonState, seat: int) -> float:
    """The value model's chance that ``seat`` wins from ``state``."""
    if not state.cars[seat].alive:
        return 0.0
    mine = strength(state, seat)
    total = 0.0
    for other, car in enumerate(state.cars):
        if car.alive:
            total += math.exp(max(-30.0, min(30.0, strength(state, other) - mine)))
    return 1.0 / total

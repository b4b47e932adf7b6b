"""A value model for the Mille Bornes expert, and whether it helps (a measuring tool, not a test).

    .venv/bin/python -m tests.ai.mille_value fit --hands 3000 --seed 1
    .venv/bin/python -m tests.ai.mille_value compare 8 --deals 200 --seed 5001 --budget 100

The Dragon expert stops its rollouts after a few turns and lets a fitted value model judge the
table; that gave it more, and steadier, rollouts. This tool tries the same for Mille Bornes,
whose expert plays every rollout to the end of the hand.

``fit`` plays single hands of ``normal`` against itself, records both seats' ``seat_features``
at every turn start with the hand's final score difference, and fits ``VALUE_WEIGHTS`` by least
squares on the difference of the two seats' features (every fifth hand held out, whole). It
prints the weights and the held-out residual (``VALUE_SPREAD``).

``compare K`` plays the expert whose rollouts stop after K turn passes (``0``: the expert as it
is, to the end of the hand) against ``normal`` on paired single hands, as ``oracle_bound``
does, and prints the points per hand.

Measured (100 ms, deals 5001-5400, 800 hands each): judged after 8 turns -15 ± 45 points a
hand, played to the end -63 ± 45, after 4 turns -25 ± 67 and after 2 turns -146 ± 66 (deals
5001-5200). So the model is too rough for short horizons and no better than the hand's end for
long ones: the expert keeps its full rollouts.
"""

from __future__ import annotations

import argparse
import math
import random
from concurrent.futures import ProcessPoolExecutor

from bot.ai.mille_expert import HAND_POINTS, HAND_SWING, MilleDomain, MilleExpertPolicy
from bot.ai.mille_normal import NormalMillePolicy
from bot.engine.mille import GAME
from bot.engine.mille.cards import DECK_COUNTS, REMEDY_FOR, SAFETY_FOR, Card
from bot.engine.mille.rules import MATCH_TARGET, can_go, is_limited
from bot.engine.mille.scoring import COUP_FOURRE, SAFETY
from bot.engine.mille.state import MilleState, Phase
from tests.ai.fitting import self_play_differences, solve
from tests.ai.oracle_bound import play_paired, summary

_TURN_PHASES = (Phase.DRAW, Phase.ACT)
_DECK_SIZES = {name: sum(counts.values()) for name, counts in DECK_COUNTS.items()}


def seat_features(state: MilleState, seat: int) -> list[float]:
    """What the value model reads of one seat's side of the table."""
    t = state.tableaus[seat]
    miles = t.mileage
    left = state.target - miles
    shows = t.battle_shows
    go = can_go(t)
    hand = t.hand
    hazard = shows if shows is not None and shows.is_hazard else None
    if go:
        restart = True
    elif hazard is None:  # stopped with no hazard showing: a Go (or Right of Way) starts it
        restart = Card.GO in hand or Card.RIGHT_OF_WAY in hand
    else:
        restart = REMEDY_FOR[hazard] in hand or SAFETY_FOR[hazard] in hand
    limited = is_limited(t)
    cap = min(left, 50) if limited else left
    full200 = t.two_hundreds >= 2
    usable = [
        card.miles
        for card in hand
        if card.is_distance and card.miles <= cap and not (full200 and card is Card.D200)
    ]
    banked = miles + SAFETY * len(t.safeties) + COUP_FOURRE * len(t.coups)
    deck_share = len(state.draw_pile) / _DECK_SIZES[state.options["deck"]]
    return [
        banked / 100,
        left / 100,
        left / 100 * deck_share,
        1.0 if go else 0.0,
        1.0 if restart else 0.0,
        1.0 if hazard is not None else 0.0,
        1.0 if limited else 0.0,
        float(sum(1 for card in hand if card.is_safety)),
        float(sum(1 for card in hand if card.is_hazard)),
        min(sum(usable), left) / 100,
        1.0 if left in usable else 0.0,
        1.0 if Card.D200 not in t.miles else 0.0,
        1.0 if state.turn == seat else 0.0,
    ]


FEATURES = 13

VALUE_WEIGHTS: tuple[float, ...] = (
    130.18, 75.73, -180.64, 92.16, 323.21, -14.46, -159.14, 351.29, 105.42, 44.01, 278.44,
    98.47, -4.40,
)  # fmt: skip
"""Points of the hand's final difference per unit of each feature difference: ``fit`` on 3 000
single hands of normal against itself (seeds 1-3000, 143 775 turn starts)."""
VALUE_SPREAD = 944.0
"""Points: how far a hand's result still strays from the forecast (held-out residual; the
results themselves spread by 1 277)."""


def forecast(state: MilleState, seat: int) -> float:
    """The model's forecast of ``seat``'s points minus the opponent's for this hand."""
    mine, theirs = seat_features(state, seat), seat_features(state, 1 - seat)
    return sum(w * (a - b) for w, a, b in zip(VALUE_WEIGHTS, mine, theirs, strict=True))


def forecast_chance(state: MilleState, seat: int) -> float:
    """The chance of winning the match (or the single hand) from a hand in progress: the totals
    so far plus the forecast, spread by the forecast's error and by the hands to come."""
    other = 1 - seat
    lead = state.scores[seat] - state.scores[other] + forecast(state, seat)
    variance = VALUE_SPREAD**2
    if state.options["length"] != "hand":
        ahead = max(state.scores[s] + state.tableaus[s].mileage for s in (seat, other))
        if ahead < MATCH_TARGET:
            variance += HAND_SWING**2 * max(1.0, (MATCH_TARGET - ahead) / HAND_POINTS)
    return 1.0 / (1.0 + math.exp(-1.7 * lead / math.sqrt(variance)))


class HorizonDomain(MilleDomain):
    """The expert's domain with rollouts judged by the model after ``horizon_turns`` turns."""

    horizon_turns = 8

    def judge(self, state: MilleState, seat: int) -> float:
        return forecast_chance(state, seat)


def horizon_expert(turns: int, budget_ms: float | None = None) -> MilleExpertPolicy:
    """The expert judged after ``turns`` turn passes (0: the expert as it is)."""
    if turns <= 0:
        return MilleExpertPolicy(budget_ms=budget_ms)

    class Domain(HorizonDomain):
        horizon_turns = turns

    class Expert(MilleExpertPolicy):
        domain_class = Domain

    return Expert(budget_ms=budget_ms)


# --- fitting ---------------------------------------------------------------------------------

Row = tuple[list[float], float]


def samples(hands: int, seed: int) -> list[list[Row]]:
    """Per hand, its turn starts: the feature difference (seat 0 minus seat 1) and the hand's
    final score difference."""
    policy = NormalMillePolicy()
    found: list[list[Row]] = []
    for number in range(hands):
        rng = random.Random(seed + number)
        start = GAME.new_game(["A", "B"], seed + number, {"length": "hand"})
        state, starts = self_play_differences(
            GAME, start, policy, rng, seat_features, lambda s: s.phase in _TURN_PHASES
        )
        mine, theirs = state.results[-1].totals
        found.append([(x, float(mine - theirs)) for x in starts])
    return found


def fit(rows: list[Row], ridge: float = 1.0) -> list[float]:
    """Least squares with a little ridge, by the normal equations."""
    n = FEATURES
    xtx = [[ridge if i == j else 0.0 for j in range(n)] for i in range(n)]
    xty = [0.0] * n
    for x, y in rows:
        for i, xi in enumerate(x):
            if xi == 0.0:
                continue
            xty[i] += xi * y
            row = xtx[i]
            for j in range(n):
                row[j] += xi * x[j]
    return solve(xtx, xty)


def residual(rows: list[Row], w: list[float]) -> tuple[float, float]:
    """The residual standard deviation, and the spread of the targets themselves."""
    left = sum((y - sum(a * b for a, b in zip(w, x, strict=True))) ** 2 for x, y in rows)
    whole = sum(y * y for _, y in rows)
    return math.sqrt(left / len(rows)), math.sqrt(whole / len(rows))


def _compare(args: tuple[int, list[int], float]) -> list[tuple[float, float]]:
    turns, seeds, budget = args
    return play_paired("mille", seeds, horizon_expert(turns, budget))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    fitting = commands.add_parser("fit")
    fitting.add_argument("--hands", type=int, default=3000)
    fitting.add_argument("--seed", type=int, default=1)
    comparing = commands.add_parser("compare")
    comparing.add_argument("turns", type=int, help="0: rollouts to the end of the hand")
    comparing.add_argument("--deals", type=int, default=200, help="each played twice")
    comparing.add_argument("--seed", type=int, default=5001)
    comparing.add_argument("--budget", type=float, default=100.0, help="ms per decision")
    comparing.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.command == "fit":
        hands = samples(args.hands, args.seed)
        # Every fifth hand is held out, whole: the turn starts of one hand are far from
        # independent.
        test = [row for i, rows in enumerate(hands) if i % 5 == 0 for row in rows]
        train = [row for i, rows in enumerate(hands) if i % 5 for row in rows]
        w = fit(train)
        left, whole = residual(test, w)
        print(f"turn starts {len(test) + len(train)}; held-out residual {left:.1f} of {whole:.1f}")
        print("VALUE_WEIGHTS = (" + ", ".join(f"{x:.2f}" for x in w) + ")")
        return 0
    seeds = list(range(args.seed, args.seed + args.deals))
    chunks = [(args.turns, seeds[i :: args.jobs], args.budget) for i in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = [r for part in pool.map(_compare, chunks) for r in part]
    name = f"judged after {args.turns} turns" if args.turns else "played to the hand's end"
    print(summary(name, results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

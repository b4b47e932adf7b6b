"""Fit the Dragon expert's value model on ``normal``'s self-play (a measuring tool, not a test).

    PYTHONPATH=. python -m tests.ai.fit_dragon_value --games 400 --seed 1

Plays ``normal`` against itself (2 cars), records every turn start with the winner, and fits
the car strength of ``bot.ai.dragon_expert`` by logistic regression on the difference of the two
cars' features (Newton's method, a little ridge; pure Python). Prints the weights to paste into
``VALUE_WEIGHTS`` and the log loss (a coin scores 0.693).
"""

from __future__ import annotations

import argparse
import math
import random

from bot.ai.dragon_expert import FEATURES, car_features
from bot.ai.dragon_normal import DragonNormalPolicy
from bot.engine.dragon import GAME


def samples(games: int, seed: int) -> list[tuple[list[float], float]]:
    policy = DragonNormalPolicy()
    rows: list[tuple[list[float], float]] = []
    for game in range(games):
        rng = random.Random(seed + game)
        state = GAME.new_game(["A", "B"], seed + game)
        found: list[list[float]] = []
        turn = -1
        while GAME.outcome(state) is None:
            if state.turn != turn and state.phase.value == "turn":
                turn = state.turn
                a, b = car_features(state, 0), car_features(state, 1)
                found.append([x - y for x, y in zip(a, b, strict=True)])
            seat = min(GAME.to_act(state))
            view = GAME.private_view(state, seat)
            state = GAME.apply(state, seat, GAME.parse_action(policy.choose(view, rng)))
        winners = state.winners or ()
        label = 0.5 if len(winners) != 1 else (1.0 if winners[0] == 0 else 0.0)
        rows += [(x, label) for x in found]
    return rows


def fit(rows: list[tuple[list[float], float]], ridge: float = 1.0) -> list[float]:
    n = FEATURES
    w = [0.0] * n
    for _ in range(12):
        grad = [ridge * wi for wi in w]
        hess = [[ridge if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in rows:
            z = sum(wi * xi for wi, xi in zip(w, x, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g = p - y
            s = p * (1 - p)
            for i in range(n):
                xi = x[i]
                if xi == 0.0:
                    continue
                grad[i] += g * xi
                row = hess[i]
                sxi = s * xi
                for j in range(n):
                    row[j] += sxi * x[j]
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
    return w


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[col][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def log_loss(rows: list[tuple[list[float], float]], w: list[float]) -> float:
    total = 0.0
    for x, y in rows:
        z = sum(wi * xi for wi, xi in zip(w, x, strict=True))
        p = min(1 - 1e-9, max(1e-9, 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / max(1, len(rows))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = samples(args.games, args.seed)
    test = [r for i, r in enumerate(rows) if i % 5 == 0]
    train = [r for i, r in enumerate(rows) if i % 5]
    w = fit(train)
    print(f"samples {len(rows)}; held-out log loss {log_loss(test, w):.3f}")
    print("VALUE_WEIGHTS = (" + ", ".join(f"{x:.4f}" for x in w) + ")")


if __name__ == "__main__":
    main()

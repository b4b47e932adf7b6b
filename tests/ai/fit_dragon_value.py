"""Fit the Dragon expert's value model on ``normal``'s self-play (a measuring tool, not a test).

    .venv/bin/python -m tests.ai.fit_dragon_value --games 400 --seed 1

Plays ``normal`` against itself (2 cars), records every turn start with the winner, and fits
the car strength of ``bot.ai.dragon_value`` by logistic regression on the difference of the two
cars' features (Newton's method, a little ridge; pure Python). Prints the weights to paste into
``VALUE_WEIGHTS`` and the log loss (a coin scores 0.693).
"""

from __future__ import annotations

import argparse
import math
import random

from bot.ai.dragon_normal import DragonNormalPolicy
from bot.ai.dragon_value import FEATURES, car_features
from bot.engine.dragon import GAME
from tests.ai.fitting import self_play_differences, solve


def samples(games: int, seed: int) -> list[tuple[list[float], float]]:
    policy = DragonNormalPolicy()
    rows: list[tuple[list[float], float]] = []
    for game in range(games):
        rng = random.Random(seed + game)
        start = GAME.new_game(["A", "B"], seed + game)
        state, found = self_play_differences(
            GAME, start, policy, rng, car_features, lambda s: s.phase.value == "turn"
        )
        winners: tuple[int, ...] = state.winners or ()
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

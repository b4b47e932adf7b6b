"""Fit the Ticket to Ride expert's value model (``VALUE_WEIGHTS`` in bot/ai/ttr_value.py).

    .venv/bin/python -m tests.ai.fit_ttr_value --games 300 [--players 4]

``normal`` plays games against itself (two players unless told); every third turn start is a
sample, labelled 1 if the seat to play won alone (a shared win its share, a loss 0). A logistic
regression per train deck (plain gradient descent: the model has five weights) prints the
weights and the held-out log loss (a coin scores 0.693 with two players). A measuring tool,
not a test.
"""

from __future__ import annotations

import argparse
import math
import random

from bot.ai.ttr_normal import NormalTtrPolicy
from bot.ai.ttr_value import features
from bot.engine.ttr.state import ACT
from bot.games import get_game


def samples(games: int, seed: int, players: int = 2) -> dict[int, list[tuple[list[float], float]]]:
    game = get_game("ttr")
    player = NormalTtrPolicy()
    out: dict[int, list[tuple[list[float], float]]] = {1: [], 2: []}
    for g in range(games):
        rng = random.Random(seed + g)
        state = game.new_game([f"P{s}" for s in range(players)], seed + g)
        kept = []
        step = 0
        while game.outcome(state) is None:
            seat = min(game.to_act(state))
            if state.phase == ACT and step % 3 == 0:
                kept.append(state)
            step += 1
            view = game.private_view(state, seat)
            state = game.apply(state, seat, game.parse_action(player.choose(view, rng)))
        winners = state.winners or ()
        for s in kept:
            label = (1.0 / len(winners)) if s.turn in winners else 0.0
            out[s.deck_number].append((features(s, s.turn), label))
    return out


def fit(rows: list[tuple[list[float], float]], steps: int = 3000, rate: float = 0.5) -> list[float]:
    n = len(rows[0][0])
    w = [0.0] * n
    for _ in range(steps):
        grad = [0.0] * n
        for x, y in rows:
            z = sum(a * b for a, b in zip(w, x, strict=True))
            q = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            for i in range(n):
                grad[i] += (q - y) * x[i]
        w = [a - rate * g / len(rows) for a, g in zip(w, grad, strict=True)]
    return w


def log_loss(rows: list[tuple[list[float], float]], w: list[float]) -> float:
    total = 0.0
    for x, y in rows:
        z = sum(a * b for a, b in zip(w, x, strict=True))
        q = min(1 - 1e-9, max(1e-9, 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))))
        total -= y * math.log(q) + (1 - y) * math.log(1 - q)
    return total / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    data = samples(args.games, args.seed, args.players)
    for deck, rows in data.items():
        cut = len(rows) * 4 // 5
        w = fit(rows[:cut])
        print(
            f"deck {deck}: {len(rows)} samples, held-out log loss "
            f"{log_loss(rows[cut:], w):.3f}; weights {tuple(round(x, 4) for x in w)}"
        )


if __name__ == "__main__":
    main()

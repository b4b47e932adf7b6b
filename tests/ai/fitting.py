"""What the value-model fitters share (``fit_dragon_value``, ``mille_value``): self-play that
records the two seats' feature differences at every turn start, and a small linear solver."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.ai.base import Policy
from bot.engine.core import Game


def self_play_differences(
    game: Game[Any, Any],
    state: Any,
    policy: Policy,
    rng: random.Random,
    features: Callable[[Any, int], list[float]],
    turn_start: Callable[[Any], bool],
) -> tuple[Any, list[list[float]]]:
    """Play ``state`` out with ``policy`` in both seats. Returns the final state and, at each
    turn start (``turn_start`` holds as ``state.turn`` changes), seat 0's ``features`` minus
    seat 1's."""
    found: list[list[float]] = []
    turn = -1
    while game.outcome(state) is None:
        if state.turn != turn and turn_start(state):
            turn = state.turn
            a, b = features(state, 0), features(state, 1)
            found.append([x - y for x, y in zip(a, b, strict=True)])
        seat = min(game.to_act(state))
        view = game.private_view(state, seat)
        state = game.apply(state, seat, game.parse_action(policy.choose(view, rng)))
    return state, found


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b``: Gaussian elimination with partial pivoting."""
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

"""Measure how a Dragon rival's hands differ from a uniform deal (a measuring tool, not a test).

    PYTHONPATH=. python -m tests.ai.dragon_hand_bias --games 150 --seed 1000

Plays ``normal`` against itself (2 cars). At the start of each turn it compares the rival's
two hands with what a uniform deal of the cards the seat to move has not seen would put there
(each unseen card's share of the rival's hand size), and prints, per card, the ratio of the
two: the ``HAND_BIAS_MB`` and ``HAND_BIAS_CW`` tables of ``bot.ai.dragon_expert``.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from bot.ai.dragon_expert import unseen_cw, unseen_mb
from bot.ai.dragon_normal import DragonNormalPolicy
from bot.engine.dragon import GAME


def hand_bias(games: int, seed: int) -> dict[str, dict[str, float]]:
    """Per deck, per card: cards seen in rivals' hands over a uniform deal's expectation."""
    policy = DragonNormalPolicy()
    held: dict[str, Counter[str]] = {"mb": Counter(), "cw": Counter()}
    expected: dict[str, dict[str, float]] = {"mb": {}, "cw": {}}
    for game in range(seed, seed + games):
        rng = random.Random(game)
        state = GAME.new_game(["A", "B"], game)
        turn = -1
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            view = GAME.private_view(state, seat)
            if state.phase.value == "turn" and state.turn != turn:
                turn = state.turn
                rival = state.cars[1 - seat]
                if rival.alive:
                    mb_unseen = {card.value: n for card, n in unseen_mb(view).items()}
                    hands: dict[str, tuple[list[str], dict[str, int]]] = {
                        "mb": ([c.value for c in rival.mb.hand], mb_unseen),
                        "cw": (list(rival.cw_hand), dict(unseen_cw(view))),
                    }
                    for deck, (hand, unseen) in hands.items():
                        total = sum(unseen.values())
                        for code, copies in unseen.items():
                            share = copies * len(hand) / max(total, 1)
                            expected[deck][code] = expected[deck].get(code, 0.0) + share
                        held[deck].update(hand)
            state = GAME.apply(state, seat, GAME.parse_action(policy.choose(view, rng)))
    return {
        deck: {code: held[deck][code] / n for code, n in expected[deck].items() if n > 0}
        for deck in held
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)
    for deck, ratios in hand_bias(args.games, args.seed).items():
        print(deck)
        for code, ratio in sorted(ratios.items(), key=lambda item: -item[1]):
            print(f"  {code:16s} {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

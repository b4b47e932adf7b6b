"""Measure how a Dragon rival's hands differ from a uniform deal (a measuring tool, not a test).

    .venv/bin/python -m tests.ai.dragon_hand_bias --games 150 --seed 1000

Plays ``normal`` against itself (2 cars). At the start of each turn it compares the rival's
two hands with what a uniform deal of the cards the seat to move has not seen would put there
(each unseen card's share of the rival's hand size), and prints, per card, the ratio of the
two: the ``HAND_BIAS_MB`` and ``HAND_BIAS_CW`` tables of ``bot.ai.dragon_hands``.

With ``--hazards`` it measures instead what ``mb_weights`` assumes: at every decision of a seat
whose rival shows a hazard (a battle hazard on top, or a speed limit), how often the rival holds
the hazard's safety, a Right of Way and its remedy (End of Limit, Go for a Stop), split by
whether the rival has had its Mille Bornes action since (``acted_since_hazards``), against a
uniform deal's expectation.

With ``--facts`` it scores the expert's determinizer instead: at the start of every turn it
deals the rival's Car Wars hand ``--deals`` times, and for each question (does it hold a dodge,
each side's armor, a backfire, a skid, an attack?) compares the share of imagined hands that
say yes with the truth: the Brier score per question and the summed log loss per turn (lower is
better), once as the expert reads the table's hand facts (``read_facts``) and once ignoring
them. ``--unplayed`` and ``--passed`` try other values of ``UNPLAYED_FACTOR`` and
``PASSED_FACTOR``.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
from collections import Counter, defaultdict
from collections.abc import Callable

from bot.ai import dragon_hands
from bot.ai.dragon_deal import determinize, unseen_cw, unseen_mb
from bot.ai.dragon_hands import acted_since_hazards
from bot.ai.dragon_normal import DragonNormalPolicy
from bot.engine.dragon import GAME
from bot.engine.dragon.cards import SPECS
from bot.engine.dragon.views import DragonSeatView
from bot.engine.mille.cards import REMEDY_FOR, SAFETY_FOR, Card


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


def hazard_answers(games: int, seed: int) -> dict[tuple[str, str], tuple[int, float, float]]:
    """Per (settled or fresh, answer): chances seen, cards held, a uniform deal's expectation."""
    policy = DragonNormalPolicy()
    found: dict[tuple[str, str], tuple[int, float, float]] = {}
    for game in range(seed, seed + games):
        rng = random.Random(game)
        state = GAME.new_game(["A", "B"], game)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            view = GAME.private_view(state, seat)
            _note_answers(view, 1 - seat, state.cars[1 - seat].mb.hand, found)
            state = GAME.apply(state, seat, GAME.parse_action(policy.choose(view, rng)))
    return found


def _note_answers(
    view: DragonSeatView,
    rival: int,
    hand: list[Card],
    found: dict[tuple[str, str], tuple[int, float, float]],
) -> None:
    shown = view.public.cars[rival]
    hazards = [c for c in (shown.battle_top,) if c is not None and c.is_hazard]
    if shown.limited:
        hazards.append(Card.SPEED_LIMIT)
    if not shown.alive or not hazards:
        return
    when = "settled" if acted_since_hazards(view.public, rival) else "fresh"
    unseen = unseen_mb(view)
    total = max(1, sum(unseen.values()))
    for hazard in hazards:
        answers = {
            "safety": SAFETY_FOR[hazard],
            "right of way": Card.RIGHT_OF_WAY,
            "remedy": REMEDY_FOR[hazard],
        }
        for what, card in answers.items():
            chances, held, expected = found.get((when, what), (0, 0.0, 0.0))
            found[(when, what)] = (
                chances + 1,
                held + hand.count(card),
                expected + unseen[card] * len(hand) / total,
            )


def _holds(code: str) -> Callable[[list[str]], bool]:
    return lambda hand: code in hand


QUESTIONS: dict[str, Callable[[list[str]], bool]] = {
    "dodge": lambda hand: "swerve" in hand or "spin" in hand,
    **{f"armor-{side}": _holds(f"armor-{side}") for side in ("front", "back", "left", "right")},
    "backfire": lambda hand: "backfire" in hand,
    "skid": lambda hand: "skid" in hand,
    "attack": lambda hand: any(SPECS[code].is_attack for code in hand),
}


def calibration(games: int, seed: int, deals: int, facts: bool) -> tuple[int, dict[str, float]]:
    """Turns scored, and per question the Brier score (plus ``log loss``, summed over the
    questions), of the determinizer's rival Car Wars hands at each turn start."""
    policy = DragonNormalPolicy()
    brier: defaultdict[str, float] = defaultdict(float)
    turns = 0

    for game in range(seed, seed + games):
        rng = random.Random(game)
        imagine = random.Random(game + 7)
        state = GAME.new_game(["A", "B"], game)
        turn = -1
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            view = GAME.private_view(state, seat)
            rival = state.cars[1 - seat]
            if state.phase.value == "turn" and state.turn != turn and rival.alive:
                turn = state.turn
                seen = view if facts else forgetful(view)
                hands = [determinize(seen, imagine).cars[1 - seat].cw_hand for _ in range(deals)]
                turns += 1
                for name, ask in QUESTIONS.items():
                    said = sum(ask(hand) for hand in hands) / deals
                    truth = ask(rival.cw_hand)
                    brier[name] += (said - truth) ** 2
                    chance = min(max(said, 0.02), 0.98)
                    brier["log loss"] -= math.log(chance if truth else 1 - chance)
            state = GAME.apply(state, seat, GAME.parse_action(policy.choose(view, rng)))
    return turns, {name: total / max(turns, 1) for name, total in brier.items()}


def forgetful(view: DragonSeatView) -> DragonSeatView:
    """``view`` with every car's hand facts left out."""
    cars = tuple(dataclasses.replace(car, facts=()) for car in view.public.cars)
    return dataclasses.replace(view, public=dataclasses.replace(view.public, cars=cars))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--hazards", action="store_true", help="measure mb_weights instead")
    parser.add_argument("--facts", action="store_true", help="score the determinizer instead")
    parser.add_argument("--deals", type=int, default=30, help="imagined hands per turn")
    parser.add_argument("--unplayed", type=float, help="UNPLAYED_FACTOR to try")
    parser.add_argument("--passed", type=float, help="PASSED_FACTOR to try")
    args = parser.parse_args(argv)
    if args.facts:
        if args.unplayed is not None:
            dragon_hands.UNPLAYED_FACTOR = args.unplayed
        if args.passed is not None:
            dragon_hands.PASSED_FACTOR = args.passed
        for facts in (True, False):
            turns, scores = calibration(args.games, args.seed, args.deals, facts)
            shown = "  ".join(f"{name} {score:.4f}" for name, score in scores.items())
            print(f"{'read' if facts else 'ignored'}: {turns} turns  {shown}")
        return 0
    if args.hazards:
        for (when, what), (chances, held, expected) in sorted(
            hazard_answers(args.games, args.seed).items()
        ):
            print(
                f"{when:8s} {what:13s} chances {chances:5d}  held {held:4.0f}  "
                f"uniform deal {expected:6.1f}  ratio {held / max(expected, 1e-9):.2f}"
            )
        return 0
    for deck, ratios in hand_bias(args.games, args.seed).items():
        print(deck)
        for code, ratio in sorted(ratios.items(), key=lambda item: -item[1]):
            print(f"  {code:16s} {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What knowing the hidden cards would be worth to an expert (a measuring tool, not a test).

    .venv/bin/python -m tests.ai.oracle_bound dragon --games 100 --seed 5001 --budget 100

Plays the game's ``expert`` against ``normal`` (two seats, each deal twice with the seats
swapped), once as it is and once as an *oracle*: its determinizer hands back the true table,
with only the draw piles' order shuffled, so it knows every hand but not the cards to come.
The oracle's win rate bounds what a better model of the opponent's hand could gain with the
same search; if even the oracle barely beats ``normal``, the search itself (its rollouts and
evaluation) is what holds the expert back. In Dragon, ``--know cw`` or ``--know mb`` hands the
oracle only the rivals' Car Wars or only their Mille Bornes hands (the other deck's hands are
dealt by the expert's own determinizer): which knowledge is worth the most. ``--know cw-att``
and ``--know cw-def`` narrow it further: the true Car Wars hands, but every card that is not an
attack (or not an answer: armor, dodges, backfire, skid, oil) swapped for a random draw-pile
card that is not one either, so the oracle knows the attacks (or answers) exactly and of the
other cards only how many. Mille Bornes is measured in single hands, where ``diff`` (the
expert's points minus ``normal``'s per hand) is the figure that matters.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.ai.base import Policy
from bot.ai.search import SearchPolicy
from bot.games import bundle

_TRUE_STATE: dict[str, Any] = {}
"""The table being decided on: only the oracle's determinizer reads it."""


def _mille_expert(budget: float) -> SearchPolicy:
    from bot.ai.mille_expert import MilleExpertPolicy

    return MilleExpertPolicy(budget_ms=budget)


def _dragon_expert(budget: float) -> SearchPolicy:
    from bot.ai.dragon_expert import DragonExpertPolicy

    return DragonExpertPolicy(budget_ms=budget)


_EXPERTS: dict[str, Callable[[float], SearchPolicy]] = {
    "mille": _mille_expert,
    "dragon": _dragon_expert,
}


def _oracle(policy: SearchPolicy, key: str, know: str = "all") -> SearchPolicy:
    """``policy`` with a determinizer that returns the true table, draw piles reshuffled
    (in Dragon, ``know`` may keep only one deck's true hands: see the module docstring)."""
    domain = policy.domain
    guess = domain.determinize

    def knowing(view: Any, rng: random.Random) -> Any:
        state = copy.deepcopy(_TRUE_STATE["state"])
        state.seed = rng.getrandbits(32)
        piles = ("draw_pile",) if key == "mille" else ("mb_draw", "cw_draw")
        for pile in piles:
            rng.shuffle(getattr(state, pile))
        if know != "all":
            # The other deck as the expert imagines it: its hands and draw pile together.
            imagined = guess(view, rng)
            if know in ("cw-att", "cw-def"):
                _blur(state, view.seat, know == "cw-att", rng)
            elif know == "cw":
                state.mb_draw = imagined.mb_draw
                for car, other in zip(state.cars, imagined.cars, strict=True):
                    car.mb.hand = other.mb.hand
            else:
                state.cw_draw = imagined.cw_draw
                for car, other in zip(state.cars, imagined.cars, strict=True):
                    car.cw_hand = other.cw_hand
        return state

    domain.determinize = knowing  # type: ignore[method-assign]
    return policy


def _is_answer(code: str) -> bool:
    from bot.engine.dragon.cards import SPECS

    return SPECS[code].kind in ("armor", "swerve", "spin", "backfire", "skid", "oil-slick")


def _blur(state: Any, seat: int, keep_attacks: bool, rng: random.Random) -> None:
    """Swap every rival Car Wars card outside the known sort (attacks, or answers) for a
    random draw-pile card outside it too (module docstring)."""
    from bot.engine.dragon.cards import SPECS

    def known(code: str) -> bool:
        return SPECS[code].is_attack if keep_attacks else _is_answer(code)

    draw = state.cw_draw
    spare = [i for i, code in enumerate(draw) if not known(code)]
    for other, car in enumerate(state.cars):
        if other == seat:
            continue
        for index, code in enumerate(car.cw_hand):
            if known(code) or not spare:
                continue
            pick = spare.pop(rng.randrange(len(spare)))
            car.cw_hand[index], draw[pick] = draw[pick], code


def _play(args: tuple[str, list[int], float, bool, str]) -> list[tuple[float, float]]:
    key, seeds, budget, oracle, know = args
    expert: SearchPolicy = _EXPERTS[key](budget)
    if oracle:
        expert = _oracle(expert, key, know)
    return play_paired(key, seeds, expert)


def play_paired(key: str, seeds: list[int], expert: Policy) -> list[tuple[float, float]]:
    """``expert`` against ``normal`` on each deal twice, seats swapped (Mille Bornes in single
    hands): per game, the expert's result (1, 0 or 0.5) and its points minus ``normal``'s."""
    found = bundle(key)
    game = found.game
    normal: Policy = found.policies["normal"]()
    options = {"length": "hand"} if key == "mille" else {}
    results = []
    for seed in seeds:
        for expert_seat in (0, 1):
            players = [expert, normal] if expert_seat == 0 else [normal, expert]
            rngs = [random.Random(f"{seed}:{s}") for s in range(2)]
            state = game.new_game(["A", "B"], seed, options)
            while (outcome := game.outcome(state)) is None:
                seat = min(game.to_act(state))
                _TRUE_STATE["state"] = state
                view = game.private_view(state, seat)
                move = players[seat].choose(view, rngs[seat])
                state = game.apply(state, seat, game.parse_action(move))
            winners = outcome.winners
            won = 0.5 if len(winners) != 1 else float(expert_seat in winners)
            scores = outcome.scores or (0, 0)
            results.append((won, float(scores[expert_seat] - scores[1 - expert_seat])))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", choices=["mille", "dragon"])
    parser.add_argument("--games", type=int, default=100, help="deals (each played twice)")
    parser.add_argument("--seed", type=int, default=5001)
    parser.add_argument("--budget", type=float, default=100.0, help="ms per decision")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--know",
        choices=["all", "cw", "mb", "cw-att", "cw-def"],
        default="all",
        help="Dragon: which hands",
    )
    parser.add_argument("--oracle-only", action="store_true", help="skip the plain expert")
    args = parser.parse_args(argv)
    if args.know != "all" and args.game != "dragon":
        parser.error("--know cw|mb is for dragon")
    seeds = list(range(args.seed, args.seed + args.games))
    for oracle in (True,) if args.oracle_only else (False, True):
        chunks = [
            (args.game, seeds[i :: args.jobs], args.budget, oracle, args.know)
            for i in range(args.jobs)
        ]
        with ProcessPoolExecutor(args.jobs) as pool:
            results = [r for part in pool.map(_play, chunks) for r in part]
        name = ("oracle" if args.know == "all" else f"oracle ({args.know})") if oracle else "expert"
        print(summary(name, results))
    return 0


def summary(name: str, results: list[tuple[float, float]]) -> str:
    """One line: the share of games won and the points per game, with its standard error."""
    wins = statistics.mean(r[0] for r in results)
    diffs = [r[1] for r in results]
    error = statistics.stdev(diffs) / len(diffs) ** 0.5
    return (
        f"{name}: won {wins:.3f} of {len(results)} games, "
        f"points per game {statistics.mean(diffs):+.1f} ± {error:.1f}"
    )


if __name__ == "__main__":
    raise SystemExit(main())

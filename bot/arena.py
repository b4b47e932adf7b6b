"""The arena: computer players against each other, over many full games, to measure them.

Game-agnostic: it drives any registered game through the engine protocol alone (``new_game``,
``to_act``, ``private_view``, ``apply``, ``outcome``), and each policy sees only its own seat's
private view. Policy A sits in seat 0 in even-numbered games and seat 1 in odd ones, so neither
side keeps the first-player advantage; game ``i`` is seeded ``seed + i`` and each policy draws
its chance from its own generator derived from that seed, so a run replays exactly.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Mapping, Sequence

from bot.ai.base import get_policy
from bot.engine.core import get_game

MAX_MOVES = 100_000
"""A game still running after this many moves is a bug somewhere, not a long game."""


def run_arena(
    game_key: str, policy_a: str, policy_b: str, games: int, seed: int
) -> dict[str, float | int]:
    """Play ``games`` full games (default options) of ``policy_a`` against ``policy_b``."""
    return run_arena_options(game_key, policy_a, policy_b, games, seed, None)


def run_arena_options(
    game_key: str,
    policy_a: str,
    policy_b: str,
    games: int,
    seed: int,
    options: Mapping[str, str] | None,
) -> dict[str, float | int]:
    """Like :func:`run_arena`, with the game's start options (None: the defaults).

    Returns ``games``, ``a_wins``, ``b_wins``, ``draws``, ``a_win_rate``, ``b_win_rate``,
    ``a_mean_score``, ``b_mean_score``, ``mean_moves``, ``decisions``, ``seconds`` and
    ``a_ms_per_decision`` / ``b_ms_per_decision`` (time spent inside each policy).
    """
    if games < 0:
        raise ValueError("An arena needs a non-negative number of games.")
    game = get_game(game_key)
    policies = {"A": get_policy(game_key, policy_a), "B": get_policy(game_key, policy_b)}
    wins = {"A": 0, "B": 0}
    score_sums = {"A": 0.0, "B": 0.0}
    thinking = {"A": 0.0, "B": 0.0}
    decisions = {"A": 0, "B": 0}
    draws = 0
    moves = 0
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        players = ["A", "B"] if i % 2 == 0 else ["B", "A"]
        rngs = {name: random.Random(f"arena:{game_seed}:{name}") for name in players}
        state = game.new_game(players, seed=game_seed, options=options)
        played = 0
        while (outcome := game.outcome(state)) is None:
            # Games where several seats act at once are served lowest seat first.
            seat = min(game.to_act(state))
            name = players[seat]
            view = game.private_view(state, seat)
            tick = time.perf_counter()
            text = policies[name].choose(view, rngs[name])
            thinking[name] += time.perf_counter() - tick
            decisions[name] += 1
            state = game.apply(state, seat, game.parse_action(text))
            played += 1
            if played > MAX_MOVES:
                raise RuntimeError(f"game {i} (seed {game_seed}) passed {MAX_MOVES} moves")
        moves += played
        for seat, name in enumerate(players):
            score_sums[name] += outcome.scores[seat]
        if not outcome.winners:
            draws += 1
        else:
            for seat in outcome.winners:
                wins[players[seat]] += 1
    seconds = time.perf_counter() - started
    played_games = max(games, 1)
    return {
        "games": games,
        "a_wins": wins["A"],
        "b_wins": wins["B"],
        "draws": draws,
        "a_win_rate": wins["A"] / played_games,
        "b_win_rate": wins["B"] / played_games,
        "a_mean_score": score_sums["A"] / played_games,
        "b_mean_score": score_sums["B"] / played_games,
        "mean_moves": moves / played_games,
        "decisions": decisions["A"] + decisions["B"],
        "seconds": seconds,
        "a_ms_per_decision": 1000 * thinking["A"] / max(decisions["A"], 1),
        "b_ms_per_decision": 1000 * thinking["B"] / max(decisions["B"], 1),
    }


def run_solo_arena(
    policy: str,
    preset: str,
    deck: str,
    games: int,
    seed: int,
    require_fuel_left: bool = False,
) -> dict[str, float | int | str | bool]:
    """Play ``games`` deals of Mille Bornes Solo with one policy and measure it.

    Deal ``i`` is seeded ``seed + i`` and the policy's chance comes from a generator derived
    from it, so a run replays exactly and two policies run with one seed meet the same deals.
    Returns ``games``, ``wins``, ``win_rate``, ``mean_cleared`` (of 49), ``mean_miles``,
    ``mean_miles_on_win``, ``mean_wipes``, ``decisions``, ``ms_per_decision``,
    ``max_ms_per_decision`` and ``seconds``, with the settings that were used.
    """
    if games < 0:
        raise ValueError("An arena needs a non-negative number of games.")
    game = get_game("solo")
    chooser = get_policy("solo", policy)
    options = {
        "preset": preset,
        "deck": deck,
        "require_fuel_left": "on" if require_fuel_left else "off",
    }
    wins = cleared = miles = miles_on_win = wipes = decisions = 0
    thinking = slowest = 0.0
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        rng = random.Random(f"solo-arena:{game_seed}")
        state = game.new_game(["Solo"], seed=game_seed, options=options)
        played = 0
        while game.outcome(state) is None:
            view = game.private_view(state, 0)
            tick = time.perf_counter()
            text = chooser.choose(view, rng)
            spent = time.perf_counter() - tick
            thinking += spent
            slowest = max(slowest, spent)
            state = game.apply(state, 0, game.parse_action(text))
            played += 1
            if played > MAX_MOVES:
                raise RuntimeError(f"deal {i} (seed {game_seed}) passed {MAX_MOVES} moves")
        decisions += played
        view = game.public_view(state)
        cleared += view.cleared
        miles += view.mileage
        wipes += view.wipes
        if view.result == "won":
            wins += 1
            miles_on_win += view.mileage
    played_games = max(games, 1)
    return {
        "game": "solo",
        "policy": policy,
        "preset": preset,
        "deck": deck,
        "require_fuel_left": require_fuel_left,
        "games": games,
        "wins": wins,
        "win_rate": wins / played_games,
        "mean_cleared": cleared / played_games,
        "mean_miles": miles / played_games,
        "mean_miles_on_win": miles_on_win / max(wins, 1),
        "mean_wipes": wipes / played_games,
        "decisions": decisions,
        "ms_per_decision": 1000 * thinking / max(decisions, 1),
        "max_ms_per_decision": 1000 * slowest,
        "seconds": time.perf_counter() - started,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.arena mille normal random --games 200 --seed 1``: print the figures."""
    parser = argparse.ArgumentParser(prog="python -m bot.arena", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("policy_a")
    parser.add_argument("policy_b")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    options = dict(item.split("=", 1) for item in args.option) or None
    result = run_arena_options(
        args.game, args.policy_a, args.policy_b, args.games, args.seed, options
    )
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The arena: computer players against each other, over many full games, to measure them.

Game-agnostic: it drives any registered game through the engine protocol alone (``new_game``,
``to_act``, ``private_view``, ``apply``, ``outcome``), and each policy sees only its own seat's
private view. With policies ``[a, b]`` at a table of ``n`` seats, seat ``s`` of game ``i`` plays
``policies[(s + i) % len(policies)]``: the seats rotate between games, so no policy keeps the
first-player advantage. Game ``i`` is seeded ``seed + i`` and every seat draws its chance from a
generator derived from that seed, so a run replays exactly.

The report gives per policy: games it sat in, wins (games where one of its seats finished
first), win rate, mean score and time per decision; draws; and the mean of the game's own
metrics (``GameBundle.arena_metrics``, e.g. cards cleared in a solitaire).
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence

from bot.engine.core import players_wanted
from bot.games import bundle, get_policy

MAX_MOVES = 100_000
"""A game still running after this many moves is a bug somewhere, not a long game."""


def seat_policies(policies: Sequence[str], seats: int, game_index: int) -> list[str]:
    """Which policy sits where in game ``game_index`` (rotating one seat per game)."""
    return [policies[(seat + game_index) % len(policies)] for seat in range(seats)]


def run_arena(
    game_key: str,
    policies: Sequence[str],
    games: int,
    seed: int,
    *,
    players: int | None = None,
    options: Mapping[str, str] | None = None,
) -> dict[str, object]:
    """Play ``games`` full games and measure each policy; see the module docstring."""
    if games < 0:
        raise ValueError("An arena needs a non-negative number of games.")
    if not policies:
        raise ValueError("An arena needs at least one policy.")
    found = bundle(game_key)
    game, info = found.game, found.info
    seats = players or max(info.min_players, min(len(policies), info.max_players))
    if not info.min_players <= seats <= info.max_players:
        wanted = players_wanted(info.min_players, info.max_players)
        raise ValueError(f"{info.title} is played by {wanted}, not {seats}.")
    players_of = {name: get_policy(found.key, name) for name in set(policies)}
    sat: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    score_sums: dict[str, float] = defaultdict(float)
    seat_games: dict[str, int] = defaultdict(int)
    thinking: dict[str, float] = defaultdict(float)
    decisions: dict[str, int] = defaultdict(int)
    metric_sums: dict[str, float] = defaultdict(float)
    draws = moves = 0
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        names = seat_policies(policies, seats, i)
        rngs = [random.Random(f"arena:{game_seed}:{s}") for s in range(seats)]
        state = game.new_game([f"{n} {s}" for s, n in enumerate(names)], game_seed, options)
        played = 0
        while (outcome := game.outcome(state)) is None:
            # Seats that decide at the same moment are served lowest seat first.
            seat = min(game.to_act(state))
            name = names[seat]
            view = game.private_view(state, seat)
            tick = time.perf_counter()
            text = players_of[name].choose(view, rngs[seat])
            thinking[name] += time.perf_counter() - tick
            decisions[name] += 1
            state = game.apply(state, seat, game.parse_action(text))
            played += 1
            if played > MAX_MOVES:
                raise RuntimeError(f"game {i} (seed {game_seed}) passed {MAX_MOVES} moves")
        moves += played
        for name in set(names):
            sat[name] += 1
        for seat, name in enumerate(names):
            seat_games[name] += 1
            if outcome.scores:
                score_sums[name] += outcome.scores[seat]
        if not outcome.winners:
            draws += 1
        for name in {names[w] for w in outcome.winners}:
            wins[name] += 1
        for metric, value in found.arena_metrics(game.public_view(state), outcome).items():
            metric_sums[metric] += value
    seconds = time.perf_counter() - started
    per_game = max(games, 1)
    report: dict[str, object] = {
        "game": found.key,
        "seats": seats,
        "games": games,
        "seed": seed,
        "options": dict(options or {}),
        "draws": draws,
        "mean_moves": moves / per_game,
        "seconds": round(seconds, 3),
    }
    for name in dict.fromkeys(policies):
        report[name] = {
            "games": sat[name],
            "wins": wins[name],
            "win_rate": wins[name] / max(sat[name], 1),
            "mean_score": score_sums[name] / max(seat_games[name], 1),
            "ms_per_decision": 1000 * thinking[name] / max(decisions[name], 1),
        }
    for metric, total in sorted(metric_sums.items()):
        report[f"mean_{metric}"] = total / per_game
    return report

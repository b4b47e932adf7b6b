"""The arena: computer players against each other, over many full games, to measure them.

Game-agnostic: it drives any registered game through the engine protocol alone (``new_game``,
``to_act``, ``private_view``, ``apply``, ``outcome``), and each policy sees only its own seat's
private view. With policies ``[a, b]`` at a table of ``n`` seats, seat ``s`` of game ``i`` plays
``policies[(s + i) % len(policies)]``: the seats rotate between games, so no policy keeps the
first-player advantage. Game ``i`` is seeded ``seed + i`` and every seat draws its chance from a
generator derived from that seed, so a run replays exactly.

The report gives per policy: games it sat in, wins (games where one of its seats finished
first), win rate, mean score and time per decision; draws (none in a solitaire, whose deal not
won is lost); and the mean of the game's own metrics (``GameBundle.arena_metrics``, e.g. cards
cleared in a solitaire).
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.ai.base import Policy
from bot.engine.core import Game, GameInfo, Outcome, players_wanted
from bot.games import bundle, get_policy

MAX_MOVES = 100_000
"""A game still running after this many moves is a bug somewhere, not a long game."""

MAX_GAMES = 1_000_000
"""The most games one arena plays: a million games of the quickest players (``random``, about
26 ms a game of 1000 Mile Race) take some seven hours, the searching experts' far longer. More
was a typing slip (``--games 99999999999`` ran until Ctrl-C, and reported nothing)."""


def seat_policies(policies: Sequence[str], seats: int, game_index: int) -> list[str]:
    """Which policy sits where in game ``game_index`` (rotating one seat per game)."""
    return [policies[(seat + game_index) % len(policies)] for seat in range(seats)]


@dataclass
class _Figures:
    """One policy's running totals over an arena's games."""

    games: int = 0  # games it sat in, once a game however many seats it filled
    wins: int = 0  # games one of its seats finished first
    seat_games: int = 0  # seats it filled, over all games: the mean score's divisor
    score_sum: float = 0.0
    thinking: float = 0.0  # seconds spent in ``choose``
    decisions: int = 0

    def report(self) -> dict[str, float]:
        """The policy's line of the arena's report."""
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / max(self.games, 1),
            "mean_score": self.score_sum / max(self.seat_games, 1),
            "ms_per_decision": 1000 * self.thinking / max(self.decisions, 1),
        }


def _seat_count(info: GameInfo, policies: Sequence[str], players: int | None) -> int:
    """The table's size: ``players``, or one seat a policy within the game's bounds."""
    if players is None:
        seats = max(info.min_players, min(len(policies), info.max_players))
    else:
        seats = players  # 0 too: refused below, not taken for "not given"
    if not info.min_players <= seats <= info.max_players:
        wanted = players_wanted(info.min_players, info.max_players)
        raise ValueError(f"{info.title} is played by {wanted}, not {seats}.")
    return seats


def _play_game(
    game: Game[Any, Any],
    players_of: Mapping[str, Policy],
    names: Sequence[str],
    options: Mapping[str, str] | None,
    figures: Mapping[str, _Figures],
    *,
    index: int,
    game_seed: int,
) -> tuple[Any, Outcome, int]:
    """Play game ``index`` to its end, timing each policy's decisions into ``figures``; the
    final state, its outcome and how many moves it took."""
    seats = len(names)
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
        figures[name].thinking += time.perf_counter() - tick
        figures[name].decisions += 1
        state = game.apply(state, seat, game.parse_action(text))
        played += 1
        if played > MAX_MOVES:
            raise RuntimeError(f"game {index} (seed {game_seed}) passed {MAX_MOVES} moves")
    return state, outcome, played


def _count_result(names: Sequence[str], outcome: Outcome, figures: Mapping[str, _Figures]) -> None:
    """Add a finished game to each policy's games, scores and wins."""
    for name in set(names):
        figures[name].games += 1
    for seat, name in enumerate(names):
        figures[name].seat_games += 1
        if outcome.scores:
            figures[name].score_sum += outcome.scores[seat]
    for name in {names[w] for w in outcome.winners}:
        figures[name].wins += 1


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
    if games < 1:
        # A report of no games (every win rate 0.0, exit status 0) passed for a measurement.
        raise ValueError(f"An arena plays at least 1 game, not {games:,}: give --games 1 or more.")
    if games > MAX_GAMES:
        raise ValueError(
            f"An arena plays at most {MAX_GAMES:,} games (hours of play already), "
            f"not {games:,}; run several arenas with different --seed values for more."
        )
    if not policies:
        raise ValueError("An arena needs at least one policy.")
    found = bundle(game_key)
    game = found.game
    seats = _seat_count(found.info, policies, players)
    players_of = {name: get_policy(found.key, name) for name in set(policies)}
    figures = {name: _Figures() for name in policies}
    metric_sums: dict[str, float] = defaultdict(float)
    draws = moves = 0
    started = time.perf_counter()
    for i in range(games):
        names = seat_policies(policies, seats, i)
        state, outcome, played = _play_game(
            game, players_of, names, options, figures, index=i, game_seed=seed + i
        )
        moves += played
        _count_result(names, outcome, figures)
        if not outcome.winners and seats > 1:
            # Alone there is nobody to draw with: a deal not won is lost (or only played).
            draws += 1
        for metric, value in found.arena_metrics(game.public_view(state), outcome).items():
            metric_sums[metric] += value
    seconds = time.perf_counter() - started
    report: dict[str, object] = {
        "game": found.key,
        "seats": seats,
        "games": games,
        "seed": seed,
        "options": dict(options or {}),
        "draws": draws,
        "mean_moves": moves / games,
        "seconds": round(seconds, 3),
    }
    for name in dict.fromkeys(policies):
        report[name] = figures[name].report()
    for metric, total in sorted(metric_sums.items()):
        report[f"mean_{metric}"] = total / games
    return report

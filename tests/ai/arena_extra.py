"""Arena runs with test-only players too (``normal-old``, ``bsd-style``, ``expert-r10``): a
measuring tool.

    .venv/bin/python -m tests.ai.arena_extra mille normal normal-old --games 200 --seed 1

prints ``run_arena``'s report, plus per player the median, p95 and largest wall-clock time of
its decisions with a choice, and the load average at the end. The test-only players are added
to a copy of the game's bundle, so the bot's registry never offers them. ``--jobs N`` splits
the games over N processes: game ``i`` keeps seed ``seed + i`` and its seat rotation, so the
merged figures are exactly those of one run (only the timing differs).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.ai.base import Policy
from bot.ai.random_policy import RandomPolicy
from bot.arena import run_arena
from bot.games import bundle, register, unregister
from bot.games.bundle import PolicyFactory
from bot.timing import percentile


def _extra_policies(key: str) -> dict[str, PolicyFactory]:
    if key == "dragon":
        from bot.ai.dragon_expert import DragonDomain, DragonExpertPolicy
        from tests.ai.dragon_hand_bias import forgetful

        def looser(z: float) -> PolicyFactory:
            class Looser(DragonExpertPolicy):
                keep_z = z

            return Looser

        # The expert with a round cap and no clock: its strength apart from how busy the
        # machine is (a loaded machine gives a timed search fewer rounds). ``expert-z<k>``
        # leaves normal's move at k standard errors instead of the expert's own;
        # ``expert-cw4`` searches normal's four best Car Wars plays instead of two;
        # ``expert-blind`` ignores the table's hand facts; ``expert-h<k>`` judges a rollout
        # after k turns instead of the expert's own (``expert-h4`` was the expert until eight
        # measured at least as well at 300 ms).
        class WiderDomain(DragonDomain):
            cw_candidates = 4

        def farther(turns: int) -> PolicyFactory:
            class FartherDomain(DragonDomain):
                horizon_turns = turns

            class Farther(DragonExpertPolicy):
                domain_class = FartherDomain

            return Farther

        class BlindDomain(DragonDomain):
            def determinize(self, view: Any, rng: random.Random) -> Any:
                return super().determinize(forgetful(view), rng)

        class Blind(DragonExpertPolicy):
            domain_class = BlindDomain

        class Wider(DragonExpertPolicy):
            domain_class = WiderDomain

        return {
            "expert-r10": lambda: DragonExpertPolicy(max_rounds=10, timed=False),
            "expert-cw4": Wider,
            "expert-blind": Blind,
            "expert-z0": looser(0.0),
            "expert-z1": looser(1.0),
            "expert-z2": looser(2.0),
            "expert-h4": farther(4),
            "expert-h6": farther(6),
        }
    if key != "mille":
        return {}
    from tests.ai.bsd_style import BsdStylePolicy
    from tests.ai.mille_normal_old import OldNormalMillePolicy

    return {"normal-old": OldNormalMillePolicy, "bsd-style": BsdStylePolicy}


TIMES: dict[str, list[float]] = {}
"""Milliseconds per decision with a choice (more than one legal move), per player name."""


class _Timed(Policy):
    """Records how long each decision with a choice took (wall clock)."""

    def __init__(self, name: str, inner: Policy) -> None:
        self.name = name
        self.inner = inner

    def choose(self, view: Any, rng: random.Random) -> str:
        start = time.perf_counter()
        move = self.inner.choose(view, rng)
        if len(view.legal) > 1:
            TIMES.setdefault(self.name, []).append(1000 * (time.perf_counter() - start))
        return move


def install(key: str) -> None:
    """Register the game again with the test-only players added and every player timed."""
    found = bundle(key)
    factories = {"random": RandomPolicy, **found.policies, **_extra_policies(key)}
    timed: dict[str, PolicyFactory] = {
        name: (lambda name=name, make=make: _Timed(name, make()))  # type: ignore[misc]
        for name, make in factories.items()
    }
    unregister(key)
    register(dataclasses.replace(found, policies=timed))


def _chunk(args: tuple[str, list[str], int, int]) -> dict[str, Any]:
    key, policies, games, seed = args
    install(key)
    report = run_arena(key, policies, games=games, seed=seed)
    report["times"] = {name: TIMES.get(name, []) for name in policies}
    return report


def merge(parts: list[dict[str, Any]], policies: list[str]) -> dict[str, Any]:
    """One report from reports of consecutive chunks (counts added, means re-weighted)."""
    games = sum(int(p["games"]) for p in parts)
    merged: dict[str, Any] = {
        "game": parts[0]["game"],
        "seats": parts[0]["seats"],
        "games": games,
        "seed": parts[0]["seed"],
        "draws": sum(int(p["draws"]) for p in parts),
        "mean_moves": sum(p["mean_moves"] * p["games"] for p in parts) / max(games, 1),
        "seconds": max(p["seconds"] for p in parts),
    }
    for name in dict.fromkeys(policies):
        sat = sum(p[name]["games"] for p in parts)
        wins = sum(p[name]["wins"] for p in parts)
        merged[name] = {
            "games": sat,
            "wins": wins,
            "win_rate": wins / max(sat, 1),
            "mean_score": sum(p[name]["mean_score"] * p[name]["games"] for p in parts)
            / max(sat, 1),
            "ms_per_decision": sum(p[name]["ms_per_decision"] for p in parts) / len(parts),
        }
        times = sorted(t for p in parts for t in p.get("times", {}).get(name, []))
        if times:
            merged[name]["choice_decisions"] = len(times)
            merged[name]["median_ms"] = round(statistics.median(times), 1)
            merged[name]["p95_ms"] = round(percentile(times, 0.95), 1)
            merged[name]["max_ms"] = round(times[-1], 1)
    return merged


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("policies", nargs="+")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    jobs = max(1, min(args.jobs, args.games))
    # Chunks keep the seat rotation: each starts at an even game index.
    size = -(-args.games // jobs)
    size += size % len(args.policies) and len(args.policies) - size % len(args.policies)
    tasks = []
    start = 0
    while start < args.games:
        count = min(size, args.games - start)
        tasks.append((args.game, list(args.policies), count, args.seed + start))
        start += count
    if len(tasks) == 1:
        parts = [_chunk(tasks[0])]
        report = merge(parts, list(args.policies))
    else:
        with ProcessPoolExecutor(len(tasks)) as pool:
            parts = list(pool.map(_chunk, tasks))
        report = merge(parts, list(args.policies))
    report["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``junction bench --discord``: how long players wait on the real bot process, and its memory.

The bot is started as an operator starts it (``python -m bot run``) against the local fake
Discord of the test suite (``tests/discord``), so this bench needs a source checkout. Figures:

* ``first_response_*``: an interaction is sent → the bot's first answer (its callback) arrives;
  Discord gives up after 3 s.
* ``image_*``: an interaction that moves (or starts a game) is sent → the table image arrives.
* ``_1ch``: one game against the computer, played as fast as the answers come.
* ``_50ch``: fifty games at once, each player pausing about ``BUSY_THINK_S`` seconds before
  every press (busy humans); ``_50ch_saturated`` (not with ``quick``): no pauses at all, the
  most fifty channels can ask of the bot, and the moves per second it then sustains.
* ``_1ch_2experts``: the one-channel game again while two other channels play the ``expert``
  computer without pause (its search runs in the thinking worker nearly all the time): the
  first responses should match ``_1ch``.
* ``moves_per_s``, ``bot_cpu_ms_per_interaction`` and ``other_processes_cores`` (cores other
  processes kept busy during the run: on a shared machine they stretch every wait).
* ``rss_mb_1000_games``: resident memory of the bot serving a database of 1000 stored games
  after a few moves were played.

Timings are printed by ``junction bench``; no test asserts them.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
import tempfile
from pathlib import Path
from typing import Protocol, cast

from bot.engine.core import BadOption

BUSY_THINK_S = 3.0  # a player's mean pause before each press in the 50-channel run
STORED_GAMES = 1000


class _LatencyModule(Protocol):
    async def measure_latency(
        self,
        channels: int,
        moves_per_channel: int,
        *,
        db_path: str,
        think_s: float = 0.0,
        seed: int = 1,
        expert_channels: int = 0,
    ) -> dict[str, float]: ...

    async def measure_memory(
        self, games: int, *, db_path: str, stored_moves: int = 6
    ) -> dict[str, float]: ...


def _latency_module() -> _LatencyModule:
    """``tests.discord.latency`` from the source checkout this package runs from."""
    root = Path(__file__).resolve().parents[1]
    if not (root / "tests" / "discord" / "latency.py").is_file():
        # BadOption: `junction bench` says it in one sentence (it was a traceback, after
        # every game had been timed); run_bench asks before it times anything.
        raise BadOption(
            "The Discord bench drives the bot through the test suite's fake Discord, so it "
            "needs a source checkout of Junction (with its tests/ folder); run it from a clone "
            f"of the repository, not from an installed package ({root} has no tests/discord)."
        )
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return cast(_LatencyModule, importlib.import_module("tests.discord.latency"))


def _suffixed(figures: dict[str, float], suffix: str, keys: tuple[str, ...]) -> dict[str, float]:
    return {f"{key}_{suffix}": round(figures[key], 3) for key in keys}


_LATENCY_KEYS = ("first_response_p50_ms", "first_response_p99_ms", "image_p50_ms", "image_p99_ms")
# How hard the bot worked, and how busy the rest of the machine was meanwhile (a shared machine
# stretches every wait: read the latencies next to ``other_processes_cores``).
_LOAD_KEYS = ("moves_per_s", "bot_cpu_ms_per_interaction", "other_processes_cores")


def check_discord_bench() -> None:
    """BadOption when this installation cannot run the Discord bench (no tests/ folder)."""
    _latency_module()


def bench_discord(quick: bool) -> dict[str, float]:
    """Latency with 1 and 50 channels and memory with 1000 stored games, as one flat dict."""
    latency = _latency_module()
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="junction-bench-") as folder:
        one = asyncio.run(
            latency.measure_latency(1, 15 if quick else 40, db_path=f"{folder}/one.db")
        )
        results.update(_suffixed(one, "1ch", (*_LATENCY_KEYS, "other_processes_cores")))
        searching = asyncio.run(
            latency.measure_latency(
                1, 15 if quick else 40, db_path=f"{folder}/experts.db", expert_channels=2
            )
        )
        results.update(
            _suffixed(searching, "1ch_2experts", (*_LATENCY_KEYS, "other_processes_cores"))
        )
        busy = asyncio.run(
            latency.measure_latency(
                50, 3 if quick else 8, db_path=f"{folder}/busy.db", think_s=BUSY_THINK_S
            )
        )
        results.update(_suffixed(busy, "50ch", (*_LATENCY_KEYS, *_LOAD_KEYS)))
        if not quick:
            flat_out = asyncio.run(latency.measure_latency(50, 8, db_path=f"{folder}/flat.db"))
            results.update(_suffixed(flat_out, "50ch_saturated", (*_LATENCY_KEYS, *_LOAD_KEYS)))
        memory = asyncio.run(
            latency.measure_memory(
                STORED_GAMES, db_path=f"{folder}/memory.db", stored_moves=2 if quick else 6
            )
        )
        results[f"rss_mb_{STORED_GAMES}_games"] = round(memory["rss_mb"], 1)
        results[f"peak_rss_mb_{STORED_GAMES}_games"] = round(memory["peak_rss_mb"], 1)
    return results

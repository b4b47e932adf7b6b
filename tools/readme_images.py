"""Draw the pictures the README shows (docs/*.png) with today's renderers.

Run from the repo root after a change to what an image looks like:
``.venv/bin/python -m tools.readme_images [docs]``. Every picture comes from a seed, so a run
with no change to the bot rewrites the same bytes:

* ``table.png`` and ``hand.png``: a Mille Bornes game of Ann against the normal computer (both
  seats played by the normal computer player), at Ann's first turn with two coups fourrés
  scored and both cars well down the road; the hand is Ann's, as My hand shows it.
* ``solo.png``: a Mille Bornes Solo game on the ``refuel`` preset, played by its computer
  player, at its first position with a dozen cards cleared, a full hand and two
  cards of it that clear a highway.
* ``leaderboard.png`` and ``stats.png``: a server's season of Mille Bornes between thirteen
  members (results made up from hidden strengths, a few games against the computer too),
  ranked and summed by the same functions /leaderboard and /stats use; the board as Mo
  sees it, the card of Chloé.
* ``discord-message.png``: ``tools/discord_mock.py``'s Discord-like table message.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.boards import PERIOD_LABELS, Board, leaderboard, member_stats
from bot.games import bundle
from bot.ratings import ResultRecord
from bot.render.leaderboard import leaderboard_png
from bot.render.stats import MemberStats, stats_png
from bot.seats import computer_names
from bot.store.base import StoredResult
from tools import discord_mock

DAY = 86_400.0
SEASON_START = 1_709_683_200.0  # 6 March 2024, midnight UTC
GUILD = 1
MEMBERS = (
    "Ann",
    "Bob",
    "Chloé",
    "Dmitri",
    "Esperanza",
    "Farid",
    "Gus",
    "Hana",
    "Ivo",
    "Jules",
    "Kai",
    "Lea",
    "Mo",
)
CALLER = "Mo"  # whose view of the board is drawn (their row is highlighted)
CARD_OF = "Chloé"  # whose /stats card is drawn


def _first_state(
    key: str,
    players: list[str],
    options: dict[str, str],
    wanted: Callable[[Any], bool],
    seeds: range = range(1, 200),
) -> Any:
    """The first position, over seeded games played by the game's own computer player, for
    which ``wanted`` holds."""
    found = bundle(key)
    game = found.game
    level = found.default_policy
    for seed in seeds:
        state = game.new_game(players, seed=seed, options=options)
        policies = [found.policies[level]() for _ in players]
        rng = random.Random(seed)
        while game.outcome(state) is None:
            if wanted(state):
                return state
            seat = min(game.to_act(state))
            notation = policies[seat].choose(game.private_view(state, seat), rng)
            state = game.apply(state, seat, game.parse_action(notation))
    raise SystemExit(f"no {key} game from seeds {seeds} reached the wanted position")


def _mille() -> tuple[bytes, bytes]:
    """The Mille Bornes table and Ann's hand."""
    found = bundle("mille")
    game = found.game

    def busy(state: Any) -> bool:
        if game.to_act(state) != {0} or game.default_action(state, 0) is not None:
            return False
        ann, computer = game.public_view(state).tableaus
        return len(ann.coups) >= 2 and ann.mileage >= 400 and computer.mileage >= 400

    players = ["Ann", *computer_names(1, found.default_policy)]
    state = _first_state("mille", players, {}, busy)
    table = found.presenter.table_png(game.public_view(state))
    hand = found.presenter.hand_png(game.private_view(state, 0))
    return table, hand


def _solo() -> bytes:
    """A Mille Bornes Solo table on the refuel preset."""
    found = bundle("solo")
    game = found.game

    def midway(state: Any) -> bool:
        if not game.to_act(state):
            return False
        view = game.public_view(state)
        full = len(view.hand) == view.hand_size
        from_hand = [move for move in view.legal if move.startswith("clear ")]
        return view.cleared >= 12 and full and len(from_hand) >= 2

    state = _first_state("solo", ["Ann"], {"preset": "refuel"}, midway)
    return found.presenter.table_png(game.public_view(state))


def _season() -> list[StoredResult]:
    """A made-up season of Mille Bornes on one server: members of hidden strengths meet at
    random, and Chloé plays the computer now and then (those games are not rated)."""
    rng = random.Random(2024)
    strength = {name: rng.gauss(0, 1) for name in MEMBERS}
    strength[CARD_OF] += 1.2  # a strong player, so her card has a rising chart
    ids = {name: 100 + number for number, name in enumerate(MEMBERS)}
    results: list[StoredResult] = []
    when = SEASON_START
    for game_id in range(1, 400):
        when += rng.uniform(0.3, 0.7) * DAY
        first: str
        second: str | None  # None: the computer
        if game_id % 40 == 0:
            first, second = CARD_OF, None
        elif game_id % 5 == 0:
            first, second = CARD_OF, rng.choice([n for n in MEMBERS if n != CARD_OF])
        else:
            first, second = rng.sample(MEMBERS, 2)
        edge = strength[first] - (strength[second] if second else 0.0)
        first_wins = rng.random() < 1 / (1 + 10 ** (-edge / 1.5))
        winner_score = 5000 + rng.randrange(0, 1000, 25)
        loser_score = rng.randrange(1500, 4800, 25)
        names = (first, second or computer_names(1, "normal")[0])
        record = ResultRecord(
            game_id=game_id,
            game_key="mille",
            guild_id=GUILD,
            finished_at=when,
            seats=(ids[first], ids[second] if second else None),
            ranks=(1, 2) if first_wins else (2, 1),
            scores=(winner_score, loser_score) if first_wins else (loser_score, winner_score),
            counted=second is not None,
        )
        results.append(StoredResult(record, names, channel_id=5, message_id=1000 + game_id))
    return results


def season_views() -> tuple[Board, MemberStats]:
    """The leaderboard as Mo sees it and Chloé's stats card, from the made-up season."""
    results = _season()
    now = results[-1].record.finished_at + DAY
    ids = {name: 100 + number for number, name in enumerate(MEMBERS)}
    board = leaderboard(
        results, game_key="mille", guild_id=GUILD, caller=ids[CALLER], now=now, here=GUILD
    )
    card = member_stats(
        results, user_id=ids[CARD_OF], name=CARD_OF, game_key="mille", guild_id=GUILD, now=now
    )
    return board, card


def _boards() -> tuple[bytes, bytes]:
    """The leaderboard and the stats card as PNG bytes, as /leaderboard and /stats draw them."""
    board, card = season_views()
    png = leaderboard_png(
        f"{bundle('mille').info.title} — this server",
        board.rows,
        board.caller_row,
        PERIOD_LABELS["all"],
        board.value_label,
    )
    return png, stats_png(card)


def pictures() -> dict[str, bytes]:
    """Every picture the README shows, by file name, as PNG bytes."""
    table, hand = _mille()
    board, card = _boards()
    png, text = asyncio.run(discord_mock._table(seed=11))
    message = io.BytesIO()
    discord_mock.draw(png, text).save(message, format="PNG")
    return {
        "table.png": table,
        "discord-message.png": message.getvalue(),
        "hand.png": hand,
        "solo.png": _solo(),
        "leaderboard.png": board,
        "stats.png": card,
    }


def main(argv: list[str] | None = None) -> int:
    # Read with argparse, not sys.argv[1]: `--help` was taken for the folder, and every
    # picture drawn before a FileNotFoundError traceback for '--help/table.png'.
    parser = argparse.ArgumentParser(
        prog="python -m tools.readme_images",
        description="Draw the pictures the README shows with today's renderers.",
    )
    parser.add_argument(
        "folder", nargs="?", default="docs", help="where to write them (default %(default)s)"
    )
    out = Path(parser.parse_args(argv).folder)
    if not out.is_dir():
        parser.error(f"{out} is not a folder")
    for name, data in pictures().items():
        (out / name).write_bytes(data)
        print(out / name, len(data), "bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

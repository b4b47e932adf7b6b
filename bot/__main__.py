"""Command line: ``junction run | sync | console | arena | bench``.

``run`` starts the Discord bot, or the local console when no ``DISCORD_TOKEN`` is set.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot.config import Settings


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="junction", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("run", help="run the Discord bot (the console without DISCORD_TOKEN)")

    sync = sub.add_parser("sync", help="owner action: publish the slash commands")
    sync.add_argument("--guild", type=int, help="one server (instant); omit for global sync")

    console = sub.add_parser("console", help="play Mille Bornes against the computer here")
    console.add_argument("--seed", type=int, help="seed of the deal (default: random)")
    console.add_argument("--deck", metavar="FILE", help="stacked deck: card codes, top first")
    console.add_argument("--db", help="store URL (default: JUNCTION_DB or sqlite:///junction.db)")
    console.add_argument("--out", default="junction-tables", help="folder for table images")
    console.add_argument("--opponent", default="normal", help="computer player: normal, random")
    console.add_argument("--deck-name", default="bsd", choices=["bsd", "modern"])
    console.add_argument("--length", default="match", choices=["match", "hand"])
    console.add_argument("--new", action="store_true", help="abandon a saved game, start anew")
    console.add_argument("--no-images", action="store_true", help="do not write PNG files")
    console.add_argument(
        "--script",
        action="store_true",
        help="read commands from standard input (automatic when it is not a terminal)",
    )

    arena = sub.add_parser("arena", help="computer against computer, many games")
    arena.add_argument("game", help="game key, e.g. mille")
    arena.add_argument("--a", default="normal", help="policy A")
    arena.add_argument("--b", default="random", help="policy B")
    arena.add_argument("--games", type=int, default=100)
    arena.add_argument("--seed", type=int, default=1)

    bench = sub.add_parser("bench", help="measure rendering, engine, computer and store speed")
    bench.add_argument("--quick", action="store_true", help="fewer repetitions")
    bench.add_argument(
        "--discord",
        action="store_true",
        help="also time moves end to end through a local fake Discord (source checkout only)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    settings = Settings.from_env()
    if args.command == "run":
        if settings.discord_token is None:
            print("No DISCORD_TOKEN set: starting the local console (Ctrl-D or 'quit' to leave).")
            return _console(settings, argparse.Namespace(**_console_defaults()))
        from bot.client import run_bot

        return run_bot(settings)
    if args.command == "sync":
        import asyncio

        from bot.client import sync_commands

        return asyncio.run(sync_commands(settings, args.guild))
    if args.command == "console":
        return _console(settings, args)
    if args.command == "arena":
        from bot.arena import run_arena

        result = run_arena(args.game, args.a, args.b, args.games, args.seed)
        print(json.dumps(result))
        return 0
    if args.command == "bench":
        from bot.bench import run_bench

        return run_bench(quick=args.quick, discord=args.discord)
    return 2  # pragma: no cover - argparse rejects unknown commands


def _console_defaults() -> dict[str, object]:
    parsed = _parser().parse_args(["console"])
    return vars(parsed)


def _console(settings: Settings, args: argparse.Namespace) -> int:
    from bot.console import ConsoleOptions, console_main, read_deck_file

    try:
        deck = read_deck_file(args.deck) if args.deck else None
    except OSError as error:
        print(f"Cannot read the deck file: {error}", file=sys.stderr)
        return 2
    options = ConsoleOptions(
        db=args.db or settings.db_url,
        out=Path(args.out),
        seed=args.seed,
        deck=deck,
        opponent=args.opponent,
        deck_name=args.deck_name,
        length=args.length,
        new=args.new,
        images=not args.no_images,
    )
    return console_main(options)


if __name__ == "__main__":
    sys.exit(main())

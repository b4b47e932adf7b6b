"""Command line: ``junction run | sync | console | games | arena | bench | migrate-db |
forget-member | void-game``.

``run`` starts the Discord bot, or the local console when no ``DISCORD_TOKEN`` is set.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from pathlib import Path

from bot.config import ConfigError, Settings, shown_value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="junction",
        description="Junction, road-and-rail card games for Discord. `junction run` starts the "
        "bot, or the local console when no DISCORD_TOKEN is set; README.md tells the rest.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run the Discord bot (the console without DISCORD_TOKEN)")
    run.add_argument(
        "--shard-ids",
        type=_shard_ids,
        metavar="0,1",
        help="gateway shards this process runs (needs --shard-count and a shared PostgreSQL)",
    )
    run.add_argument("--shard-count", type=_number, metavar="N", help="total shards of the bot")
    run.add_argument(
        "--sync",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="sync commands to JUNCTION_DEV_GUILD at start (default: only the shard-0 process)",
    )

    sync = sub.add_parser("sync", help="owner action: publish the slash commands")
    sync.add_argument(
        "--guild",
        type=_server_id,
        metavar="ID",
        help="one server's id (instant); omit for global sync",
    )

    console = sub.add_parser(
        "console", help="play any game in this terminal (computers sit in the other seats)"
    )
    console.add_argument("--game", type=_game_key, help="game key (see `junction games`)")
    console.add_argument("--players", type=_number, help="seats in all, you included")
    console.add_argument("--seed", type=_number, help="seed of the deal (default: random)")
    console.add_argument("--deck", metavar="FILE", help="stacked deck: card codes, top first")
    console.add_argument("--db", help="store URL (default: JUNCTION_DB or sqlite:///junction.db)")
    console.add_argument(
        "--out", default="junction-tables", help="folder for table images (default %(default)s)"
    )
    console.add_argument("--opponent", help="computer player (default: the game's own)")
    console.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option"
    )
    console.add_argument("--new", action="store_true", help="abandon a saved game, start anew")
    console.add_argument("--no-images", action="store_true", help="do not write PNG files")
    console.add_argument(
        "--script",
        action="store_true",
        help="read commands from standard input (automatic when it is not a terminal)",
    )

    sub.add_parser("games", help="list the games, their seats, options and computer players")

    arena = sub.add_parser("arena", help="computer against computer, many games")
    arena.add_argument("game", help="game key (see `junction games`)")
    arena.add_argument(
        "--policies", default=None, help="policies by seat, comma-separated (rotated per game)"
    )
    arena.add_argument("--players", type=_number, help="seats at the table (default: as policies)")
    arena.add_argument(
        "--games",
        type=_number,
        default=100,
        help="games to play (default 100; 1 to 1 000 000, some seven hours at the quickest)",
    )
    arena.add_argument(
        "--seed", type=_number, default=1, help="seed of the first game, then one up (default 1)"
    )
    arena.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option"
    )

    bench = sub.add_parser("bench", help="measure rendering, engine, computer and store speed")
    bench.add_argument("--quick", action="store_true", help="fewer repetitions")
    bench.add_argument(
        "--game", type=_game_key, help="only this game (default: every game, then the store)"
    )
    bench.add_argument("--players", type=_number, help="seats (default: the game's largest table)")
    bench.add_argument(
        "--discord",
        action="store_true",
        help="also time moves end to end through a local fake Discord (source checkout only)",
    )
    bench.add_argument(
        "--store",
        action="store_true",
        help="only the stores under load: SQLite, and PostgreSQL if JUNCTION_BENCH_PG is set",
    )
    bench.add_argument(
        "--boards",
        action="store_true",
        help="only /leaderboard, /stats and /history on 10 000 to 200 000 stored results"
        " (SQLite, and the JUNCTION_BENCH_PG scratch database if set, which it empties)",
    )

    forget = sub.add_parser(
        "forget-member",
        help="take a member out of the database, on their request (see the README)",
    )
    forget.add_argument("user_id", type=_user_id, help="the member's Discord user id")
    forget.add_argument(
        "--yes", action="store_true", help="do it (without it: only say what would change)"
    )
    void = sub.add_parser(
        "void-game",
        help="leave a finished game's result out of ratings and boards, after abuse (README)",
    )
    void.add_argument(
        "game_id", type=_game_id, help='the game\'s id, as in "game #1042" (/replay, /stats)'
    )
    void.add_argument("--reason", metavar="TEXT", help="why, kept with the result")
    void.add_argument("--undo", action="store_true", help="count a voided result again")
    void.add_argument(
        "--yes", action="store_true", help="do it (without it: only say what would change)"
    )
    migrate = sub.add_parser(
        "migrate-db",
        help="copy every game, move, result and server setting from one store URL to another",
    )
    migrate.add_argument("source", metavar="FROM", help="store URL to copy from")
    migrate.add_argument(
        "target", metavar="TO", help="store URL to copy into (must hold nothing yet)"
    )
    migrate.add_argument(
        "--force", action="store_true", help="replace what the target already holds"
    )
    return parser


def _user_id(text: str) -> int:
    # The length first: int() of thousands of digits raised, and argparse then named this
    # function ("invalid _user_id value"). Discord's ids have at most 19 digits, ASCII ones:
    # "²" is a digit to isdigit() that int() refuses, and "１２" or "٣٤" it reads as 12, 34.
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or not 0 < int(text) < 2**63:
        raise argparse.ArgumentTypeError(
            f"a Discord user id is a number like 80351110224678912, not {shown_value(text)}"
        )
    return int(text)


def _game_id(text: str) -> int:
    # As a user id: digits only, at most what a database id holds, quoted cut short.
    digits = text.strip().removeprefix("#")
    if (
        not (digits.isascii() and digits.isdigit())
        or len(digits) > 19
        or not 0 < int(digits) < 2**63
    ):
        raise argparse.ArgumentTypeError(
            f"a game id is a number like 1042 (/replay shows game #1042), not {shown_value(text)}"
        )
    return int(digits)


def _reason(text: str | None) -> str | None:
    """A --reason kept with a voided result: one line, not too long to read back."""
    if text is None:
        return None
    line = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    if len(line) > 200:
        raise ValueError(f"keep --reason to 200 characters; this one has {len(line)}")
    return line


def _server_id(text: str) -> int:
    # Refused here, not read as "no server": a guild id of 0 would make the sync global, the
    # rate-limited owner action the operator did not ask for.
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or not 0 < int(text) < 2**63:
        raise argparse.ArgumentTypeError(
            f"a server id is a number like 81384788765712384, not {shown_value(text)}"
        )
    return int(text)


def _game_key(text: str) -> str:
    # An empty --game ("$GAME" unset in a script) was read as none given: the default game was
    # dealt (the console) or every game timed (bench), as if the option were not there.
    if not text.strip():
        raise argparse.ArgumentTypeError("name a game, like mille (see `junction games`)")
    return text


def _number(text: str) -> int:
    """A whole number option (seats, games, a seed, shards). Quoted cut short when refused:
    argparse's own "invalid int value" quoted thousands of digits whole, and int() refuses
    more than 4 300 of them. Thirty digits hold any seed or count anyone means."""
    digits = text.strip()
    digits = digits[1:] if digits[:1] in ("-", "+") else digits
    if not digits.isdecimal():
        raise argparse.ArgumentTypeError(f"a whole number is wanted, not {shown_value(text)}")
    if len(digits) > 30:
        raise argparse.ArgumentTypeError(f"{shown_value(text)} is far too big")
    return int(text)


def _shard_ids(text: str) -> list[int]:
    parts = [part.strip() for part in text.split(",") if part.strip()]
    # Each id as a shard can be numbered (check_shards says the range): a huge one was quoted
    # whole, thousands of digits in one error line.
    if not all(part.isdecimal() and len(part) <= 30 for part in parts):
        raise argparse.ArgumentTypeError(
            f"shard ids are numbers like 0,1 — not {shown_value(text)}"
        )
    return [int(part) for part in parts]


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from bot.store import StoreUnavailable

    try:
        return _command(args)
    except (ConfigError, StoreUnavailable) as error:
        # The operator's to fix (a setting, the database): one sentence, not a traceback.
        # A database not named on the command line (console --db) is the one JUNCTION_DB names.
        from_env = isinstance(error, StoreUnavailable) and getattr(args, "db", None) is None
        where = "JUNCTION_DB: " if from_env else ""
        print(f"junction {args.command}: {where}{error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # Ctrl-C in a long arena, bench or copy (the console and the bot say their own): one
        # line, not a traceback from inside a game's rules. A copy is one transaction.
        print(f"\njunction {args.command}: interrupted.", file=sys.stderr)
        return 130  # as a shell reports a program stopped by Ctrl-C
    except BrokenPipeError:
        if not _output_closed():
            raise  # another pipe (a database's socket): not ours to hush
        return 141  # as a shell reports a program whose output pipe closed


def _output_closed() -> bool:
    """Whether standard output's reader has gone (``junction console … | head``). Then it is
    pointed at /dev/null, so Python's own flush at exit does not print a second error."""
    import select

    try:
        poll = select.poll()
        poll.register(sys.stdout.fileno(), select.POLLOUT)
        # A pipe whose reader has gone reports an error to its writer.
        closed = any(events & select.POLLERR for _, events in poll.poll(0))
    except (OSError, ValueError, AttributeError):  # no file behind it (a test's capture)
        return False
    if closed:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return closed


def _no_input() -> bool:
    """Whether standard input is missing or the null device, as for a service or a container
    run without ``-i``: nobody can type there, and nothing is piped in."""
    if sys.stdin is None:
        return True
    try:
        return os.path.samestat(os.fstat(sys.stdin.fileno()), os.stat(os.devnull))
    except (OSError, ValueError, io.UnsupportedOperation):
        return False  # a stream without a file behind it (a test's, an embedding program's)


def _command(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if args.command == "run":
        if settings.discord_token is None:
            if args.shard_ids is not None or args.shard_count is not None or args.sync is not None:
                # Options only the bot takes: the operator meant the bot, not a console game
                # dealt into its database (a service whose token went missing).
                print(
                    "junction run: DISCORD_TOKEN is not set, and --shard-ids, --shard-count, "
                    "--sync and --no-sync are for the bot only.",
                    file=sys.stderr,
                )
                return 2
            if _no_input():
                # A service or container whose token went missing: no one to play, and the
                # console would deal a game into the bot's database and exit 0 (a restart
                # policy then loops on it). Moves piped in still play the console.
                print(
                    "junction run: DISCORD_TOKEN is not set. Set it to run the bot; to play in "
                    "a terminal, run `junction console`.",
                    file=sys.stderr,
                )
                return 2
            print("No DISCORD_TOKEN set: starting the local console (Ctrl-D or 'quit' to leave).")
            defaults = argparse.Namespace(**_console_defaults())
            from bot.console import check_out
            from bot.engine.core import BadOption

            try:
                check_out(Path(defaults.out))
            except BadOption:
                # The folder was never chosen here (`run` takes no --out), and the Docker
                # image's user may not write its working folder: refused, the advice named
                # options `junction run` does not take. The game is the same without images.
                defaults.no_images = True
                print(
                    f"! Cannot write the table images to {defaults.out}: the game goes on "
                    "without them (`junction console --out FOLDER` writes them elsewhere)."
                )
            return _console(settings, defaults)
        from bot.client import check_shards, run_bot
        from bot.store import unopened_store

        # A URL that names no database is said now, not after logging in to Discord.
        unopened_store(settings.db_url)
        if args.sync and settings.dev_guild is None:
            # --sync only ever syncs to that server: without it the bot started, synced
            # nothing and said nothing, and the operator waited for commands that never came.
            print(
                "junction run: --sync syncs the commands to JUNCTION_DEV_GUILD, which is not "
                "set; to publish them to every server, run `junction sync`.",
                file=sys.stderr,
            )
            return 2
        if args.shard_ids is not None or args.shard_count is not None:
            try:
                ids = check_shards(args.shard_ids, args.shard_count)
            except ValueError as error:
                print(f"junction run: {error}", file=sys.stderr)
                return 2
            if ids is not None and len(ids) < args.shard_count and _sqlite(settings.db_url):
                # The other shards' process could never start (a second bot on one SQLite
                # file is refused), so the servers on those shards went unanswered, unsaid.
                print(
                    "junction run: --shard-ids runs only some of the shards here, and the "
                    "process for the others cannot share a SQLite database; set JUNCTION_DB "
                    "to a PostgreSQL server, or leave out --shard-ids to run every shard here.",
                    file=sys.stderr,
                )
                return 2
        return run_bot(
            settings, shard_ids=args.shard_ids, shard_count=args.shard_count, sync=args.sync
        )
    if args.command == "sync":
        import asyncio

        from bot.client import sync_commands

        return asyncio.run(sync_commands(settings, args.guild))
    if args.command == "console":
        return _console(settings, args)
    if args.command == "games":
        return _list_games()
    if args.command == "arena":
        return _arena(args)
    if args.command == "bench":
        from bot.bench import run_bench, run_store_bench
        from bot.engine.core import GameError

        # Options another one would leave unused are refused, not ignored: --store times only
        # the stores, and a seat count without its game was checked against every game.
        unused = [
            flag
            for flag, given in (
                ("--game", args.game is not None),
                ("--players", args.players is not None),
                ("--discord", args.discord),
            )
            if given
        ]
        only = "--store" if args.store else "--boards" if args.boards else None
        if args.store and args.boards:
            unused.append("--boards")
        if only is not None and unused:
            from bot.updates import and_list

            what = "the stores" if args.store else "the boards"
            print(
                f"junction bench: {only} times only {what}; leave out {and_list(unused)}.",
                file=sys.stderr,
            )
            return 2
        if args.players is not None and args.game is None:
            print(
                "junction bench: --players needs --game: each game seats its own.", file=sys.stderr
            )
            return 2
        if args.store:
            return run_store_bench(quick=args.quick)
        if args.boards:
            from bot.bench_boards import run_boards_bench

            return run_boards_bench(quick=args.quick)
        try:
            return run_bench(
                quick=args.quick, discord=args.discord, game=args.game, players=args.players
            )
        except GameError as error:  # an unknown --game, or --players it cannot seat
            print(f"junction bench: {error}", file=sys.stderr)
            return 2
    if args.command == "forget-member":
        import asyncio

        from bot.forget import forget_main

        return asyncio.run(forget_main(settings.db_url, args.user_id, confirmed=args.yes))
    if args.command == "void-game":
        import asyncio

        from bot.voids import void_main

        if args.reason is not None and args.undo:
            print("junction void-game: --undo takes no --reason.", file=sys.stderr)
            return 2
        try:
            reason = _reason(args.reason)
        except ValueError as error:
            print(f"junction void-game: {error}.", file=sys.stderr)
            return 2
        return asyncio.run(
            void_main(
                settings.db_url, args.game_id, reason=reason, undo=args.undo, confirmed=args.yes
            )
        )
    if args.command == "migrate-db":
        from bot.store.migrate import migrate_main

        return migrate_main(args.source, args.target, force=args.force)
    return 2  # pragma: no cover - argparse rejects unknown commands


def _sqlite(url: str) -> bool:
    """Whether the store URL names a SQLite database (StoreUnavailable if it names none)."""
    from bot.store import unopened_store
    from bot.store.sqlite import SqliteStore

    return isinstance(unopened_store(url), SqliteStore)


def _console_defaults() -> dict[str, object]:
    parsed = _parser().parse_args(["console"])
    return vars(parsed)


def _console(settings: Settings, args: argparse.Namespace) -> int:
    from bot.console import (
        ConsoleOptions,
        console_main,
        one_line,
        parse_options,
        read_deck_file,
    )
    from bot.engine.core import GameError

    try:
        deck = read_deck_file(args.deck) if args.deck else None
    except OSError as error:
        why = (error.strerror or str(error)).lower()  # "no such file or directory"
        print(f"Cannot read the deck file {one_line(args.deck)}: {why}.", file=sys.stderr)
        return 2
    except GameError as error:
        print(error, file=sys.stderr)
        return 2
    try:
        options = parse_options(args.option)
    except GameError as error:
        print(error, file=sys.stderr)
        return 2
    return console_main(
        ConsoleOptions(
            # An empty --db ("$DB" unset) is refused by the store, not read as no --db.
            db=settings.db_url if args.db is None else args.db,
            out=Path(args.out),
            game=args.game,
            players=args.players,
            seed=args.seed,
            deck=deck,
            opponent=args.opponent,
            options=options,
            new=args.new,
            images=not args.no_images,
            script=args.script,
        )
    )


def _arena(args: argparse.Namespace) -> int:
    from bot.arena import run_arena
    from bot.console import parse_options
    from bot.engine.core import GameError
    from bot.games import bundle

    try:
        found = bundle(args.game)
        # An empty --policies is refused as ",," is, not read as the default pair.
        names = f"{found.default_policy},random" if args.policies is None else args.policies
        policies = [name.strip() for name in names.split(",") if name.strip()]
        report = run_arena(
            found.key,
            policies,
            args.games,
            args.seed,
            players=args.players,
            options=parse_options(args.option) or None,
        )
    except (GameError, ValueError) as error:
        print(f"junction arena: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report))
    return 0


def _list_games() -> int:
    from bot.engine.core import players_wanted
    from bot.games import all_bundles, policy_names

    for found in all_bundles():
        info = found.info
        seats = players_wanted(info.min_players, info.max_players)
        print(f"{info.key:<10} {info.title} — {seats}; {info.summary}")
        print(f"{'':<10} computer players: {', '.join(policy_names(info.key))}")
        for spec in info.options:
            print(f"{'':<10} option {spec.name}: {'|'.join(spec.choices)} (default {spec.default})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

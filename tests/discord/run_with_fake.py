"""Run a bot module or script with discord.py pointed at a fake Discord server.

Usage::

    python -m tests.discord.run_with_fake --url http://127.0.0.1:8555 -m bot [bot args...]
    python -m tests.discord.run_with_fake --url http://127.0.0.1:8555 path/to/script.py [args...]

``--url`` defaults to ``$FAKE_DISCORD_URL``. The bot code is unchanged: this only sets
``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` (via
:func:`tests.discord.fake_discord.point_discord_at`) and then runs the target like
``python -m``/``python script.py`` would, so an end-to-end test can start, kill and restart the
real bot process against one fake.
"""

from __future__ import annotations

import os
import runpy
import sys
from collections.abc import Sequence

from tests.discord.fake_discord import point_discord_at

USAGE = "usage: python -m tests.discord.run_with_fake [--url URL] (-m MODULE | SCRIPT) [ARGS...]"


def _parse(argv: Sequence[str]) -> tuple[str | None, str | None, list[str]]:
    """Split into (url, module, target args); everything after the target goes to the bot."""
    url = os.environ.get("FAKE_DISCORD_URL")
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--url" and args:
            url = args.pop(0)
        elif arg.startswith("--url="):
            url = arg.split("=", 1)[1]
        elif arg == "-m" and args:
            return url, args.pop(0), args
        elif arg in ("-h", "--help"):
            raise SystemExit(USAGE)
        else:
            return url, None, [arg, *args]
    raise SystemExit(USAGE)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse arguments, patch discord.py and run the target like ``python -m``/``python``."""
    url, module, rest = _parse(sys.argv[1:] if argv is None else argv)
    if not url:
        raise SystemExit("--url (or $FAKE_DISCORD_URL) is required\n" + USAGE)
    point_discord_at(url)
    if module is not None:
        sys.argv = [module, *rest]
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    else:
        sys.argv = rest
        runpy.run_path(rest[0], run_name="__main__")


if __name__ == "__main__":
    main()

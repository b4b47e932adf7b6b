"""What members type into the game commands: autocomplete for the game, its options and the
computers' level, and reading the options field.

/play, /challenge, /rules and /leaderboard offer the same suggestions; the option and level
suggestions follow the game already chosen in the same command.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.engine.core import BadOption, GameError, GameInfo
from bot.games import all_bundles, bundle, policy_names
from cogs.ui import quote


def chosen_game(interaction: discord.Interaction[Any]) -> str:
    """What the member has put in the command's game field so far ("" for nothing yet)."""
    return str(interaction.namespace.game or "")


_AROUND_SIGN = re.compile(r"\s*([:=])\s*")
_SIGN = re.compile(r"[:=]")


def parse_options(text: str | None, info: GameInfo) -> dict[str, str]:
    """Free-form ``name:value`` pairs typed in the options field of game ``info``. Spaces
    around the ``:`` or ``=`` are allowed: the rules write ``oil_slick: on``, and a member
    copying that was told "I could not read the option 'oil_slick:'"."""
    options: dict[str, str] = {}
    pairs = _AROUND_SIGN.sub(r"\1", (text or "").replace(",", " ")).split()[:20]
    if pairs and not info.options:
        # Said first, whatever was typed: the 1000 Mile Race was told to write options "for
        # example deck:modern", which it then refused ("Its options: none").
        raise BadOption(f"{info.title} has no options: leave the options field empty.")
    for pair in pairs:
        # Split at the first sign only: a value is echoed as typed ("hand=1", not "hand:1").
        name, *rest = _SIGN.split(pair, maxsplit=1)
        value = rest[0] if rest else ""
        if not rest or not name or not value:
            raise BadOption(
                f"I could not read the option '{quote(pair)}'. Write options as name:value, "
                f"for example {_example(info)}."
            )
        name, value = name.strip().lower()[:40], value.strip().lower()[:40]
        if options.get(name, value) != value:
            # Which one was meant is anyone's guess: ask rather than keep the last.
            raise BadOption(
                f"You gave {quote(name)} twice ({quote(options[name])}, then {quote(value)}). "
                "Give each option once."
            )
        options[name] = value
    return options


def _example(info: GameInfo) -> str:
    """An option the game takes, as a member would type it: its first option set to a value
    other than its default (Ticket to Ride was shown "deck:modern", an option it refuses)."""
    spec = info.options[0]
    value = next((c for c in spec.choices if c != spec.default), spec.default)
    return f"{spec.name}:{value}"


async def game_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for the game field: every registered game."""
    typed = current.strip().lower()
    return [
        app_commands.Choice(name=f"{b.info.title} ({b.key})"[:100], value=b.key)
        for b in all_bundles()
        if typed in b.key or typed in b.info.title.lower()
    ][:25]


async def option_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for the options field: every name:value the chosen game takes."""
    try:
        found = bundle(chosen_game(interaction))
    except GameError:
        return []
    # Only the leading spaces go: a space after a pair says the member is on to the next one.
    # Spaces around a colon are the pair's own (``deck: mod``), as ``parse_options`` reads them.
    typed = _AROUND_SIGN.sub(r"\1", current.lstrip()[:100])
    done, _, last = typed.rpartition(" ")
    done = " ".join(done.split())
    prefix = f"{done} " if done else ""
    # An option already given is not offered again: a second value would be refused.
    given = {pair.partition(":")[0].lower() for pair in done.replace("=", ":").split()}
    pairs = [
        f"{spec.name}:{choice}"
        for spec in found.info.options
        if spec.name not in given
        for choice in spec.choices
    ]
    return [
        app_commands.Choice(name=f"{prefix}{pair}"[:100], value=f"{prefix}{pair}"[:100])
        for pair in pairs
        if last.lower() in pair
    ][:25]


async def level_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for the computer's level: the chosen game's computer players."""
    try:
        names = policy_names(chosen_game(interaction))
    except GameError:
        return []
    typed = current.strip().lower()
    return [app_commands.Choice(name=n, value=n) for n in names if typed in n][:25]

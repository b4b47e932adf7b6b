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

from bot.engine.core import BadOption, GameError, GameInfo, OptionSpec, option_name
from bot.games import all_bundles, bundle, policy_names
from bot.typed_moves import typed_move
from cogs.ui import quote


def chosen_game(interaction: discord.Interaction[Any]) -> str:
    """What the member has put in the command's game field so far ("" for nothing yet)."""
    return str(interaction.namespace.game or "")


_AROUND_SIGN = re.compile(r"\s*([:=])\s*")
_SIGN = re.compile(r"[:=]")


def parse_options(text: str | None, info: GameInfo) -> dict[str, str]:
    """Free-form ``name:value`` pairs typed in the options field of game ``info``. Spaces
    around the ``:`` or ``=`` are allowed: the rules write ``oil_slick: on``, and a member
    copying that was told "I could not read the option 'oil_slick:'". A name is read in the
    option's own spelling (``option_name``: ``oil-slick``, ``oil slick``); its value is left
    for the game to read (``OptionSpec.choice_of``: ``deck:classic``, ``oil_slick:yes``)."""
    options: dict[str, str] = {}
    # Each name in its option's own spelling (a plug-in's "win-at" typed "win_at"), as the
    # game stores it, for the checks made before the game reads them (the daily deal's).
    own = {option_name(spec.name): spec.name for spec in info.options}
    # Read as the game field is (``typed_move``): full width ("ｄｅｃｋ：ｍｏｄｅｒｎ") and a
    # zero-width space pasted from chat were refused as unreadable options.
    typed = typed_move(text or "")
    pairs = _named_in_words(_AROUND_SIGN.sub(r"\1", typed.replace(",", " ")).split()[:20], info)
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
        name, value = option_name(name), value.strip().lower()[:40]
        name = own.get(name, name[:40])
        if options.get(name, value) != value and not _one_choice(info, name, options[name], value):
            # Which one was meant is anyone's guess: ask rather than keep the last. (One
            # choice in two words, "on" and "yes", says which.)
            raise BadOption(
                f"You gave {quote(name)} twice ({quote(options[name])}, then {quote(value)}). "
                "Give each option once."
            )
        options[name] = value
    return options


def _one_choice(info: GameInfo, name: str, first: str, then: str) -> bool:
    """Whether ``first`` and ``then`` are words for one choice of option ``name``."""
    spec = next((spec for spec in info.options if spec.name == name), None)
    meant = None if spec is None else spec.choice_of(first)
    return meant is not None and spec is not None and spec.choice_of(then) == meant


def _named_in_words(pairs: list[str], info: GameInfo) -> list[str]:
    """``pairs`` with an option's name typed as words ("oil slick:on", split at its space)
    joined into one pair ("oil_slick:on"); words that name no option are left as they were,
    to be refused as unreadable."""
    names = {option_name(spec.name) for spec in info.options}
    joined: list[str] = []
    for pair in pairs:
        sign = _SIGN.search(pair)
        at = sign.start() if sign else 0
        bare = 0  # the words without a sign just before this pair
        while sign and bare < len(joined) and not _SIGN.search(joined[-1 - bare]):
            bare += 1
        for words in range(bare, 0, -1):
            name = option_name(" ".join([*joined[-words:], pair[:at]]))
            if name in names:
                del joined[-words:]
                pair = name + pair[at:]
                break
        joined.append(pair)
    return joined


def _example(info: GameInfo) -> str:
    """An option the game takes, as a member would type it: its first option set to a value
    other than its default (Ticket to Ride was shown "deck:modern", an option it refuses)."""
    spec = info.options[0]
    value = next((c for c in spec.choices if c != spec.default), spec.default)
    return f"{spec.name}:{value}"


async def game_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for the game field: every registered game whose key or title holds what is
    typed, read as ``bundle`` reads it (full width, zero-width spaces)."""
    typed = typed_move(current).lower()
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
    if _SIGN.search(last):
        # "oil slick:o": the name's words are one option's, suggested once, in its spelling.
        *before, last = _named_in_words([*done.split(), last], found.info)
        done = " ".join(before)
    else:
        done, last = _naming(done.split(), last, found.info)
    done = " ".join(done.split())
    prefix = f"{done} " if done else ""
    # An option already given is not offered again: a second value would be refused.
    given = {option_name(pair.partition(":")[0]) for pair in done.replace("=", ":").split()}
    # What is typed is matched as it is read (``oil-slick:y``, ``deck:clas``), and suggested
    # in the option's own spelling (``oil_slick:on``, ``deck:bsd``).
    pairs = [
        f"{spec.name}:{choice}"
        for spec in found.info.options
        if option_name(spec.name) not in given
        for choice in spec.choices
        if _suggests(spec, choice, last)
    ]
    return [
        app_commands.Choice(name=f"{prefix}{pair}"[:100], value=f"{prefix}{pair}"[:100])
        for pair in pairs
    ][:25]


def _naming(words: list[str], last: str, info: GameInfo) -> tuple[str, str]:
    """The pairs typed before an option's name still being typed in words, and that name
    (``oil sl``): the words with no sign just before ``last`` that begin a name with it are
    its own. Kept apart, "oil slick" was suggested as "oil oil_slick:on", and the stray "oil"
    then refused."""
    for count in range(len(words), 0, -1):  # the most words first
        run = words[-count:]
        said = " ".join([*run, last])
        if not any(_SIGN.search(word) for word in run) and any(
            _suggests(spec, choice, said) for spec in info.options for choice in spec.choices
        ):
            return " ".join(words[:-count]), said
    return " ".join(words), last


def _suggests(spec: OptionSpec, choice: str, typed: str) -> bool:
    """Whether ``typed`` (part of one ``name:value`` pair) is part of ``spec`` set to
    ``choice``, in its own words or in a word that means it."""
    sign = _SIGN.search(typed)
    said = [word for word, meant in spec.words() if meant == choice]
    if sign is None:
        part = typed.lower().replace("-", "_").replace(" ", "_")
        return any(part in f"{option_name(spec.name)}:{word}" for word in said)
    name, value = option_name(typed[: sign.start()]), typed[sign.end() :].strip().lower()
    return name in option_name(spec.name) and any(value in word for word in said)


async def level_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for the computer's level: the chosen game's computer players (none for a
    game played alone, where no computer sits and /play refuses a level)."""
    try:
        found = bundle(chosen_game(interaction))
    except GameError:
        return []
    if found.info.max_players == 1:
        return []
    names = policy_names(found.key)
    typed = typed_move(current).lower()
    return [app_commands.Choice(name=n, value=n) for n in names if typed in n][:25]

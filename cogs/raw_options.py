"""A slash command's options as Discord delivered them, read against what the command declares
before discord.py builds its arguments.

Discord's own client sends each option a command declares, of its type, once, and the required
ones always. A request made by hand may send anything: a word where a number goes
(``turn_timer: "abc"``), ``null``, a list, an id that is not a number, an option the command
does not have or one twice, a required one left out, a subcommand it never had. discord.py
passes a value on unchecked (the command then failed on it: "Something went wrong on our
side", or took ``thread: "yes"`` for true), keeps the last of an option given twice, runs a
command beside an option it does not know, and fails on the rest, some before any handler can
answer (a member's id that is not a number: no answer at all). Each is refused here, in one
sentence naming the option, before the command runs: nothing is stored or posted. The values
themselves (a range, a choice, a game's name) are still the command's to judge, in its own
words.
"""

from __future__ import annotations

import math
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType

from cogs.ui import quote

MALFORMED = (
    "That command did not arrive as Discord sends one; pick it from Discord's list of commands."
)

_KINDS = {
    AppCommandOptionType.string: "text",
    AppCommandOptionType.integer: "a whole number",
    AppCommandOptionType.number: "a number",
    AppCommandOptionType.boolean: "true or false",
    AppCommandOptionType.user: "a member",
    AppCommandOptionType.channel: "a channel",
    AppCommandOptionType.role: "a role",
    AppCommandOptionType.mentionable: "a member or a role",
    AppCommandOptionType.attachment: "a file",
}
"""What each kind of option takes, as a member would say it."""

_SNOWFLAKE_LIMIT = 1 << 64


def refusal(interaction: discord.Interaction[Any]) -> str | None:
    """The sentence refusing a slash command whose options the command cannot take (None when
    they are as Discord's client sends them)."""
    data: Any = interaction.data
    if not isinstance(data, dict) or data.get("type", 1) != 1:
        return None  # not a slash command: discord.py finds no command for it (CommandNotFound)
    options = data.get("options", [])
    if not _well_formed(options) or not isinstance(data.get("resolved", {}), dict):
        return MALFORMED
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return unknown_command(interaction)
    leaf = _leaf(options)
    typing = interaction.type is discord.InteractionType.autocomplete
    said = _names_refusal(command, leaf)
    if said is None and typing and not _typed_in(command, leaf):
        said = MALFORMED
    if said is None and not typing:
        # An autocomplete carries the fields as typed so far (a number's as its text) and not
        # yet the required ones: only what discord.py cannot read at all is refused there.
        said = next(filter(None, (_value_refusal(command, o) for o in leaf)), None)
    if said is not None:
        return said
    try:
        # discord.py reads the options and Discord's resolved members once more before the
        # command: anything it still cannot read (a member's record in pieces) is refused here
        # rather than failing with no answer at all.
        app_commands.Namespace(interaction, data.get("resolved", {}), leaf)  # type: ignore[arg-type]
    except Exception:
        return MALFORMED
    given = {option["name"] for option in leaf}
    for param in command.parameters:
        if param.required and param.display_name not in given and not typing:
            return f"/{command.qualified_name} needs its {param.display_name} option."
    return None


def unknown_command(interaction: discord.Interaction[Any]) -> str:
    """The sentence for a command the bot does not have: a name, or a subcommand, it never
    registered (or no longer has, from a client that has not caught up)."""
    data: Any = interaction.data if isinstance(interaction.data, dict) else {}
    words = [str(data.get("name", ""))]
    options = data.get("options")
    while isinstance(options, list) and options and isinstance(options[0], dict):
        if options[0].get("type") not in (1, 2):
            break
        words.append(str(options[0].get("name", "")))
        options = options[0].get("options")
    path = quote(" ".join(words), 60)
    return f"Junction has no command /{path}: type / to see the ones it has."


def _names_refusal(
    command: app_commands.Command[Any, ..., Any], options: list[dict[str, Any]]
) -> str | None:
    """The sentence refusing an option the command does not have, or one given twice."""
    names = {param.display_name for param in command.parameters}
    seen: set[str] = set()
    for option in options:
        name = option["name"]
        if name not in names:
            return f"/{command.qualified_name} has no option called '{quote(name, 32)}'."
        if name in seen:
            return f"/{command.qualified_name} was given {name} twice: give it once."
        seen.add(name)
    return None


def _typed_in(command: app_commands.Command[Any, ..., Any], options: list[dict[str, Any]]) -> bool:
    """Whether an autocomplete names the field being typed in, one the command suggests for,
    holding text (a number's field, its text or number): discord.py failed on any other
    before the suggestions, or they on a value that is no text."""
    focused = next((o for o in options if o.get("focused") is True), None)
    if focused is None:
        return False
    params = {param.display_name: param for param in command.parameters}
    param = params.get(focused["name"])
    if param is None or not param.autocomplete:
        return False
    value = focused.get("value")
    if param.type is AppCommandOptionType.string:
        return isinstance(value, str)
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _well_formed(options: Any) -> bool:
    """Whether ``options`` is a list of options discord.py can walk: each a mapping with a
    name and a type, a subcommand's own options a list of the same."""
    if not isinstance(options, list):
        return False
    for option in options:
        if not isinstance(option, dict):
            return False
        kind = option.get("type")
        if not isinstance(option.get("name"), str) or not isinstance(kind, int):
            return False
        if isinstance(kind, bool):
            return False
        if kind in (1, 2) and not _well_formed(option.get("options", [])):
            return False
    return True


def _leaf(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The options of the (sub)command run, under any subcommand and group, walked as
    discord.py walks them (``CommandTree._get_app_command_options``)."""
    while options and options[0]["type"] in (1, 2):
        options = options[0].get("options", [])
    return options


def _value_refusal(
    command: app_commands.Command[Any, ..., Any], option: dict[str, Any]
) -> str | None:
    """The sentence refusing one option, or None: one the command has, of its declared type,
    holding a value of that type."""
    params = {param.display_name: param for param in command.parameters}
    param = params[option["name"]]  # a name it does not have was refused before
    kind = _KINDS.get(param.type, "another kind of value")
    wrong = f"The {param.display_name} option of /{command.qualified_name} takes {kind}."
    if option["type"] != param.type.value or not _holds(param.type, option.get("value")):
        return wrong
    return None


def _holds(kind: AppCommandOptionType, value: Any) -> bool:
    """Whether ``value`` is what Discord sends for an option of this ``kind``."""
    if kind is AppCommandOptionType.string:
        return isinstance(value, str)
    if kind is AppCommandOptionType.boolean:
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False  # JSON's true is a Python int: never a number here
    if kind is AppCommandOptionType.integer:
        return isinstance(value, int)
    if kind is AppCommandOptionType.number:
        return isinstance(value, (int, float)) and math.isfinite(value)
    # Members, channels, roles and files are sent as their ids, written as digits.
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    return isinstance(value, int) and 0 < value < _SNOWFLAKE_LIMIT

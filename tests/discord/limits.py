"""Discord's form limits, checked the way Discord checks them: a body over a limit is refused.

Discord answers a message, modal, autocomplete answer or command whose fields break its limits
with ``400 Invalid Form Body`` (code 50035) and sends nothing. Without these checks the fake
would store a message Discord refuses, and a bot that posts a 26-option menu or a 2 001-
character reply would pass every test and fail in production. The figures are Discord's
documented limits (API reference: Messages, Embeds, Components, Interactions, Application
Commands); only the classic component types the bot uses are modelled (action rows, buttons,
string selects, text inputs).

Each ``*_problems`` function returns the broken limits as readable lines (empty: the body is
fine); the backend turns any into a 400 and keeps them for tests to assert on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

JSON = Mapping[str, Any]

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
EMBED_FIELDS = 25
EMBED_LENGTHS = {"title": 256, "description": 4096}
FIELD_NAME, FIELD_VALUE = 256, 1024
FOOTER, AUTHOR = 2048, 256
FILES = 10
ALT_TEXT = 1024
ROWS = 5
BUTTONS_PER_ROW = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
SELECT_PLACEHOLDER = 150
OPTION_TEXT = 100  # an option's label, value and description
MODAL_TITLE = 45
MODAL_ROWS = 5
INPUT_LABEL = 45
INPUT_PLACEHOLDER = 100
INPUT_VALUE = 4000
CHOICES = 25
CHOICE_TEXT = 100
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")
MENU_COMMAND_NAME = re.compile(r"^\S(?:.{0,30}\S)?$")  # user and message commands: any case, spaces
CHAT_INPUT = 1  # a slash command; 2 and 3 are the user and message context-menu commands
COMMAND_DESCRIPTION = 100
COMMAND_OPTIONS = 25
COMMAND_TOTAL = 4000

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
LINK_STYLE, PREMIUM_STYLE = 5, 6
SELECTS = (3, 5, 6, 7, 8)  # string, user, role, mentionable and channel selects


def _over(problems: list[str], where: str, text: object, limit: int, *, least: int = 0) -> None:
    size = len(str(text)) if text is not None else 0
    if size > limit or size < least:
        bounds = f"{least} to {limit}" if least else f"at most {limit}"
        problems.append(f"{where}: {size} characters, Discord takes {bounds}")


def message_problems(body: JSON, file_count: int = 0) -> list[str]:
    """What in a message body (create, edit, interaction reply or follow-up) Discord refuses."""
    problems: list[str] = []
    if body.get("content") is not None:
        _over(problems, "content", body["content"], CONTENT)
    problems += _embed_problems(body.get("embeds") or [])
    problems += components_problems(body.get("components") or [])
    attachments = body.get("attachments") or []
    if max(file_count, len(attachments)) > FILES:
        problems.append(f"files: {max(file_count, len(attachments))}, Discord takes {FILES}")
    for index, attachment in enumerate(attachments):
        if attachment.get("description") is not None:
            _over(
                problems, f"attachments[{index}].description", attachment["description"], ALT_TEXT
            )
    return problems


def _embed_problems(embeds: Sequence[JSON]) -> list[str]:
    problems: list[str] = []
    if len(embeds) > EMBEDS:
        problems.append(f"embeds: {len(embeds)}, Discord takes {EMBEDS}")
    total = 0
    for index, embed in enumerate(embeds):
        where = f"embeds[{index}]"
        for key, limit in EMBED_LENGTHS.items():
            if embed.get(key) is not None:
                _over(problems, f"{where}.{key}", embed[key], limit)
                total += len(str(embed[key]))
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            problems.append(f"{where}.fields: {len(fields)}, Discord takes {EMBED_FIELDS}")
        for number, item in enumerate(fields):
            _over(problems, f"{where}.fields[{number}].name", item.get("name"), FIELD_NAME, least=1)
            value = item.get("value")
            _over(problems, f"{where}.fields[{number}].value", value, FIELD_VALUE, least=1)
            total += len(str(item.get("name") or "")) + len(str(value or ""))
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        if footer is not None:
            _over(problems, f"{where}.footer.text", footer, FOOTER)
            total += len(str(footer))
        if author is not None:
            _over(problems, f"{where}.author.name", author, AUTHOR)
            total += len(str(author))
    if total > EMBED_TOTAL:
        problems.append(f"embeds: {total} characters in all, Discord takes {EMBED_TOTAL}")
    return problems


def components_problems(rows: Sequence[JSON]) -> list[str]:
    """What in a message's action rows Discord refuses (counts, lengths, duplicate ids)."""
    problems: list[str] = []
    if len(rows) > ROWS:
        problems.append(f"components: {len(rows)} rows, Discord takes {ROWS}")
    seen: set[str] = set()
    for number, row in enumerate(rows):
        where = f"components[{number}]"
        if row.get("type") != ACTION_ROW:
            problems.append(f"{where}: a top-level component must be an action row")
            continue
        items = row.get("components") or []
        selects = [item for item in items if item.get("type") in SELECTS]
        if not items:
            problems.append(f"{where}: an action row needs a component")
        elif selects and len(items) > 1:
            problems.append(f"{where}: a select menu must be alone in its row")
        elif len(items) > BUTTONS_PER_ROW:
            problems.append(f"{where}: {len(items)} buttons, Discord takes {BUTTONS_PER_ROW}")
        for index, item in enumerate(items):
            problems += _item_problems(item, f"{where}.components[{index}]", seen)
    return problems


def _custom_id(problems: list[str], where: str, item: JSON, seen: set[str]) -> None:
    custom_id = item.get("custom_id")
    if custom_id is None:
        problems.append(f"{where}.custom_id: missing")
        return
    _over(problems, f"{where}.custom_id", custom_id, CUSTOM_ID, least=1)
    if custom_id in seen:
        problems.append(f"{where}.custom_id: {custom_id!r} is used twice in one message")
    seen.add(custom_id)


def _item_problems(item: JSON, where: str, seen: set[str]) -> list[str]:
    problems: list[str] = []
    kind = item.get("type")
    if kind == BUTTON:
        if item.get("label") is not None:
            _over(problems, f"{where}.label", item["label"], BUTTON_LABEL)
        style = item.get("style")
        if style == PREMIUM_STYLE:
            # Discord draws a premium button from its SKU: a label or emoji is refused there.
            if not item.get("sku_id") or item.get("label") or item.get("emoji"):
                problems.append(f"{where}: a premium button has a sku_id and no label or emoji")
        elif not item.get("label") and not item.get("emoji"):
            problems.append(f"{where}: a button needs a label or an emoji")
        if style == LINK_STYLE:
            if not item.get("url"):
                problems.append(f"{where}: a link button needs a url")
        elif item.get("url"):
            problems.append(f"{where}: only a link button has a url")
        if style in (LINK_STYLE, PREMIUM_STYLE):
            # Pressing either never reaches the bot: Discord refuses a custom id on them.
            if item.get("custom_id") is not None:
                problems.append(f"{where}: a link or premium button has no custom_id")
        else:
            _custom_id(problems, where, item, seen)
    elif kind in SELECTS:
        _custom_id(problems, where, item, seen)
        if item.get("placeholder") is not None:
            _over(problems, f"{where}.placeholder", item["placeholder"], SELECT_PLACEHOLDER)
        options = item.get("options") or []
        if kind == STRING_SELECT:
            problems += _option_problems(options, where)
        chosen_most = int(item.get("max_values", 1))
        chosen_least = int(item.get("min_values", 1))
        ceiling = len(options) if kind == STRING_SELECT else SELECT_OPTIONS
        if not 1 <= chosen_most <= ceiling or not 0 <= chosen_least <= chosen_most:
            problems.append(
                f"{where}: choose {chosen_least} to {chosen_most} of {ceiling}, out of range"
            )
    else:
        problems.append(f"{where}: component type {kind} is not a button or select menu")
    return problems


def _option_problems(options: Sequence[JSON], where: str) -> list[str]:
    problems: list[str] = []
    if not 1 <= len(options) <= SELECT_OPTIONS:
        problems.append(f"{where}.options: {len(options)}, Discord takes 1 to {SELECT_OPTIONS}")
    values: set[object] = set()
    for index, option in enumerate(options):
        at = f"{where}.options[{index}]"
        _over(problems, f"{at}.label", option.get("label"), OPTION_TEXT, least=1)
        _over(problems, f"{at}.value", option.get("value"), OPTION_TEXT, least=1)
        if option.get("description") is not None:
            _over(problems, f"{at}.description", option["description"], OPTION_TEXT)
        if option.get("value") in values:
            problems.append(f"{at}.value: {option.get('value')!r} is offered twice")
        values.add(option.get("value"))
    return problems


def modal_problems(data: JSON) -> list[str]:
    """What in a modal (callback type 9) Discord refuses."""
    problems: list[str] = []
    _over(problems, "title", data.get("title"), MODAL_TITLE, least=1)
    _over(problems, "custom_id", data.get("custom_id"), CUSTOM_ID, least=1)
    rows = data.get("components") or []
    if not 1 <= len(rows) <= MODAL_ROWS:
        problems.append(f"components: {len(rows)} rows, a modal takes 1 to {MODAL_ROWS}")
    for number, row in enumerate(rows):
        for index, item in enumerate(row.get("components") or []):
            where = f"components[{number}].components[{index}]"
            if item.get("type") != TEXT_INPUT:
                continue
            _over(problems, f"{where}.custom_id", item.get("custom_id"), CUSTOM_ID, least=1)
            _over(problems, f"{where}.label", item.get("label"), INPUT_LABEL, least=1)
            for key, limit in (("placeholder", INPUT_PLACEHOLDER), ("value", INPUT_VALUE)):
                if item.get(key) is not None:
                    _over(problems, f"{where}.{key}", item[key], limit)
    return problems


def choices_problems(choices: Sequence[JSON], where: str = "choices") -> list[str]:
    """What in an autocomplete answer or a command option's choices Discord refuses."""
    problems: list[str] = []
    if len(choices) > CHOICES:
        problems.append(f"{where}: {len(choices)}, Discord takes {CHOICES}")
    for index, choice in enumerate(choices):
        _over(problems, f"{where}[{index}].name", choice.get("name"), CHOICE_TEXT, least=1)
        if isinstance(choice.get("value"), str):
            _over(problems, f"{where}[{index}].value", choice["value"], CHOICE_TEXT, least=1)
    return problems


def command_problems(command: JSON) -> list[str]:
    """What in one application command (as registered) Discord refuses."""
    problems: list[str] = []
    name = str(command.get("name") or "")
    slash = command.get("type", CHAT_INPUT) == CHAT_INPUT
    if not slash:
        # A context-menu command is named as its menu shows it ("View Stats"): mixed case and
        # spaces are Discord's own examples, and it has no description.
        if not MENU_COMMAND_NAME.match(name):
            problems.append(f"menu command name {name!r} is not 1 to 32 characters")
    elif not COMMAND_NAME.match(name) or name != name.lower():
        problems.append(f"command name {name!r} is not 1 to 32 lower-case letters, digits or -_")
    if slash:
        _over(
            problems,
            f"/{name} description",
            command.get("description"),
            COMMAND_DESCRIPTION,
            least=1,
        )
    problems += _options_problems(command.get("options") or [], f"/{name}")
    if _command_size(command) > COMMAND_TOTAL:
        problems.append(f"/{name}: over {COMMAND_TOTAL} characters of names and descriptions")
    return problems


def _options_problems(options: Sequence[JSON], where: str) -> list[str]:
    problems: list[str] = []
    if len(options) > COMMAND_OPTIONS:
        problems.append(f"{where}: {len(options)} options, Discord takes {COMMAND_OPTIONS}")
    optional = False
    for option in options:
        at = f"{where} {option.get('name')}"
        if not COMMAND_NAME.match(str(option.get("name") or "")):
            problems.append(f"{at}: not a valid option name")
        _over(
            problems, f"{at} description", option.get("description"), COMMAND_DESCRIPTION, least=1
        )
        problems += choices_problems(option.get("choices") or [], f"{at} choices")
        if option.get("type") in (1, 2):  # subcommand or group
            problems += _options_problems(option.get("options") or [], at)
        elif option.get("required"):
            if optional:
                problems.append(f"{at}: a required option after an optional one")
        else:
            optional = True
    return problems


def _command_size(command: JSON) -> int:
    """Characters Discord counts towards a command's 4 000: names, descriptions and values."""

    def size(options: Iterable[JSON]) -> int:
        total = 0
        for option in options:
            total += len(str(option.get("name") or "")) + len(str(option.get("description") or ""))
            for choice in option.get("choices") or []:
                total += len(str(choice.get("name") or "")) + len(str(choice.get("value") or ""))
            total += size(option.get("options") or [])
        return total

    return size([command])

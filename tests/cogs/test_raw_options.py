"""Slash commands sent by hand with options Discord's client never sends: every command the bot
registers, read from its command tree, is sent values of the wrong kind for each of its
options, ``null``, nested lists and objects, ids that are not numbers, and option lists in
pieces.

Each must get one private sentence a member can read (not "Something went wrong"), change
nothing stored (the SQLite file dumped before and after), post nothing in the channel and log
nothing at ERROR (asyncio's "Task exception was never retrieved" included)."""

from __future__ import annotations

import copy
import gc
import re
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from cogs.raw_options import MALFORMED
from cogs.ui import QUOTED_DIGITS, plain
from tests.cogs.conftest import LoggedErrors, running_bot
from tests.cogs.helpers import before_a_refusal, refusal_problems, replies, stacked_mille
from tests.discord.backend import (
    BOB_ID,
    user_payload,
)
from tests.discord.payloads import InteractionDriver

COMMANDS = (
    "abort",
    "challenge",
    "help",
    "hint",
    "history",
    "host",
    "leaderboard",
    "move",
    "mygames",
    "play",
    "replay",
    "resign",
    "rules",
    "settings",
    "stats",
    "table",
)
"""Every slash command the bot registers (a test below holds the list to the tree)."""

WITH_OPTIONS = (
    "challenge",
    "history",
    "host",
    "leaderboard",
    "move",
    "play",
    "rules",
    "settings",
    "stats",
)
"""The commands above that take options."""

WITH_NUMBERS = ("challenge", "host", "play", "settings")
"""The commands above with a whole-number option."""

IN_GAME = {"move", "resign", "abort", "hint", "table"}
"""Commands sent while Alice plays Bob here, so their options reach the game."""

GOOD = {"game": "mille", "member": BOB_ID, "action": "play 100"}
"""A well-formed value for each required option, beside the one under test."""

KINDS = {
    3: "text",
    4: "a whole number",
    5: "true or false",
    6: "a member",
}

WRONG: dict[int, list[tuple[int, Any]]] = {
    3: [(4, 12), (3, 12), (3, True), (3, None), (3, {"x": [None]}), (3, [1, 2]), (99, "x")],
    4: [(4, "abc"), (3, "abc"), (4, "5"), (4, 2.5), (4, True), (4, None), (4, [1]), (4, {})],
    5: [(5, "yes"), (3, "true"), (5, 2), (4, 1), (5, None), (5, [True])],
    6: [(6, "abc"), (6, None), (6, 1.5), (6, True), (6, {"id": "1"}), (6, "-5"), (7, "1")],
}
"""(option type sent, value sent) for an option declared of each type: Discord's client sends
neither a value of another kind nor another type."""


def _schema(driver: InteractionDriver, name: str) -> list[dict[str, Any]]:
    command = running_bot(driver).tree.get_command(name)
    assert isinstance(command, app_commands.Command), name
    return list(command.to_dict(running_bot(driver).tree).get("options") or [])


def _well_formed(driver: InteractionDriver, name: str) -> dict[str, Any]:
    """A payload of ``name`` with its required options, as Discord's client sends it."""
    required = {o["name"]: GOOD[o["name"]] for o in _schema(driver, name) if o.get("required")}
    return driver.factory.slash(name, required)


async def _refused(
    driver: InteractionDriver,
    tmp_path: Path,
    errors: LoggedErrors,
    payload: dict[str, Any],
    saying: str | None = None,
) -> str | None:
    """What is wrong with the answer to ``payload`` as a refusal (``refusal_problems``)."""
    before = before_a_refusal(driver, tmp_path, errors)
    result = await driver.dispatch(payload)
    return refusal_problems(driver, tmp_path, errors, result, before, saying)


def _unretrieved(errors: LoggedErrors) -> list[str]:
    """Errors logged once the tasks that failed are collected: asyncio logs an exception no
    task retrieved ("Task exception was never retrieved") only then."""
    errors.seen.clear()
    gc.collect()
    return errors.seen


def test_every_registered_command_is_tried(driver: InteractionDriver) -> None:
    """The list above is every slash command the bot has: one added later is tried too."""
    commands = running_bot(driver).tree.get_commands()
    assert sorted(c.name for c in commands) == list(COMMANDS)
    assert sorted(c.name for c in commands if _schema(driver, c.name)) == list(WITH_OPTIONS)
    numbers = [c.name for c in commands if any(o["type"] == 4 for o in _schema(driver, c.name))]
    assert sorted(numbers) == list(WITH_NUMBERS)


@pytest.mark.parametrize("name", WITH_OPTIONS)
async def test_a_value_of_the_wrong_kind_is_refused_in_a_sentence(
    driver: InteractionDriver, tmp_path: Path, errors: LoggedErrors, name: str
) -> None:
    """Each option of each command sent a value of another kind (a word for a number, null, a
    list, an id that is not a number) or under another type. Before: /settings turn_timer:"abc"
    answered "Something went wrong on our side" and logged an error, turn_timer:2.5 stored
    "2.0 min per turn", /play thread:"yes" opened a thread, /challenge member:"abc" was never
    answered (discord.py failed reading the id, "Task exception was never retrieved"). Now:
    "The turn_timer option of /settings takes a whole number.", privately, nothing stored."""
    if name in IN_GAME:
        await stacked_mille(driver)
    failures: list[str] = []
    tried = 0
    for spec in _schema(driver, name):
        for sent_type, value in WRONG[spec["type"]]:
            payload = _well_formed(driver, name)
            kept = [o for o in payload["data"].get("options", []) if o["name"] != spec["name"]]
            payload["data"]["options"] = [
                *kept,
                {"name": spec["name"], "type": sent_type, "value": copy.deepcopy(value)},
            ]
            tried += 1
            expected = f"The {spec['name']} option of /{name} takes {KINDS[spec['type']]}."
            wrong = await _refused(driver, tmp_path, errors, payload, expected)
            if wrong is not None:
                failures.append(f"{spec['name']}={value!r} (type {sent_type}): {wrong}")
    assert not failures, f"{len(failures)} of {tried}:\n" + "\n".join(failures)
    assert not _unretrieved(errors)


PIECES: list[tuple[str, Any, Any]] = [
    ("options as text", "abc", None),
    ("options as an object", {"game": "mille"}, None),
    ("options null", None, None),
    ("an option as text", ["game"], None),
    ("an option with no name", [{"type": 3, "value": "x"}], None),
    ("an option with no type", [{"name": "x", "value": "x"}], None),
    ("an option typed true", [{"name": "x", "type": True, "value": "x"}], None),
    ("a subcommand's options as text", [{"name": "x", "type": 1, "options": "abc"}], None),
    ("resolved as text", [], "abc"),
    ("resolved members as text", [], {"users": "abc"}),
]
"""Option lists (and the resolved members beside them) that discord.py cannot walk."""


@pytest.mark.parametrize("name", COMMANDS)
async def test_an_option_list_in_pieces_is_refused_in_a_sentence(
    driver: InteractionDriver, tmp_path: Path, errors: LoggedErrors, name: str
) -> None:
    """Options that are not a list of options, an option with no name or type, resolved data
    that is not a mapping. Before: no answer at all (discord.py failed walking them before any
    handler ran: "Task exception was never retrieved"). Now: the sentence ``MALFORMED``."""
    failures: list[str] = []
    for label, options, resolved in PIECES:
        payload = driver.factory.slash(name, None)
        payload["data"]["options"] = copy.deepcopy(options)
        if resolved is not None:
            payload["data"]["resolved"] = copy.deepcopy(resolved)
        wrong = await _refused(driver, tmp_path, errors, payload, MALFORMED)
        if wrong is not None:
            failures.append(f"{label}: {wrong}")
    assert not failures, "\n".join(failures)
    assert not _unretrieved(errors)


async def test_a_member_record_in_pieces_is_refused_in_a_sentence(
    driver: InteractionDriver, tmp_path: Path, errors: LoggedErrors
) -> None:
    """/challenge of Bob whose member record, beside his id, is not a record: discord.py failed
    building him and nothing answered; now ``MALFORMED``."""
    payload = _well_formed(driver, "challenge")
    payload["data"]["resolved"]["members"] = {str(BOB_ID): "garbage"}
    assert await _refused(driver, tmp_path, errors, payload, MALFORMED) is None


async def test_an_autocomplete_discord_py_cannot_read_is_offered_nothing(
    driver: InteractionDriver, errors: LoggedErrors
) -> None:
    """/stats' game field autocompleted with member:"abc" beside it: discord.py failed reading
    the id before any suggestion, answered nothing and logged "Task exception was never
    retrieved"; it is offered nothing now, and logs nothing. Fields as typed so far are an
    autocomplete's own: /play's level field with computers typed as text is still offered
    the game's levels."""
    payload = driver.factory.autocomplete("stats", "game", "mil")
    payload["data"]["options"].append({"name": "member", "type": 6, "value": "abc"})
    result = await driver.dispatch(payload)
    assert result.callback_type == 8, result.responses
    assert result.choices == []
    assert not _unretrieved(errors)
    payload = driver.factory.autocomplete("play", "level", "", {"game": "mille"})
    payload["data"]["options"].append({"name": "computers", "type": 4, "value": "1"})
    offered = await driver.dispatch(payload)
    assert [c["value"] for c in offered.choices] == ["easy", "expert", "normal", "random"]


async def test_well_formed_commands_still_run(driver: InteractionDriver, tmp_path: Path) -> None:
    """The check lets what Discord's client sends through: /settings turn_timer:5 is stored,
    /challenge of Bob posts its invitation, /rules answers."""
    settings = await driver.slash("settings", {"turn_timer": 5})
    assert "5 min per turn" in replies(settings)
    invited = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    assert invited.message is not None and not invited.ephemeral, replies(invited)
    rules = await driver.slash("rules", {"game": "mille"})
    assert "Mille Bornes" in replies(rules)


def _named_wrong(driver: InteractionDriver, name: str) -> list[tuple[str, dict[str, Any], str]]:
    """(what, payload, the sentence expected) for ``name`` sent with its options' names wrong:
    each required one left out, one it does not have, each given twice, a subcommand and a
    group it never had."""
    cases: list[tuple[str, dict[str, Any], str]] = []
    schema = _schema(driver, name)
    for spec in schema:
        payload = _well_formed(driver, name)
        options = payload["data"].setdefault("options", [])
        if spec.get("required"):
            payload["data"]["options"] = [o for o in options if o["name"] != spec["name"]]
            cases.append(
                (f"no {spec['name']}", payload, f"/{name} needs its {spec['name']} option.")
            )
            payload = _well_formed(driver, name)
            options = payload["data"].setdefault("options", [])
        given = next((o for o in options if o["name"] == spec["name"]), None)
        if given is None:
            value = {3: "x", 4: spec.get("min_value", 1), 5: True, 6: str(BOB_ID)}[spec["type"]]
            if spec.get("choices"):
                value = spec["choices"][0]["value"]
            given = {"name": spec["name"], "type": spec["type"], "value": value}
            options.append(given)
        options.append(copy.deepcopy(given))
        twice = f"/{name} was given {spec['name']} twice: give it once."
        cases.append((f"{spec['name']} twice", payload, twice))
    payload = _well_formed(driver, name)
    payload["data"].setdefault("options", []).append({"name": "bogus", "type": 3, "value": "x"})
    cases.append(("an unknown option", payload, f"/{name} has no option called 'bogus'."))
    unknown = f"Junction has no command /{name} bogus: type / to see the ones it has."
    for kind, inner in ((1, []), (2, [{"name": "deeper", "type": 1, "options": []}])):
        payload = driver.factory.slash(name, None)
        payload["data"]["options"] = [{"name": "bogus", "type": kind, "options": inner}]
        expected = unknown if kind == 1 else unknown.replace("bogus", "bogus deeper")
        cases.append((f"a subcommand of type {kind}", payload, expected))
    return cases


@pytest.mark.parametrize("name", COMMANDS)
async def test_an_option_named_wrong_is_refused_in_a_sentence(
    driver: InteractionDriver, tmp_path: Path, errors: LoggedErrors, name: str
) -> None:
    """Each required option left out, an option the command does not have, each option given
    twice, a subcommand it never had. Before: a required option left out, or a subcommand,
    answered "Something went wrong on our side" and logged an error; an option it does not
    have was let by (/resign bogus:x resigned, /abort asked to abort, /table posted the table),
    and of an option given twice the last was kept (/challenge game twice posted its
    invitation). Now, e.g. "/challenge needs its member option.", "/table has no option called
    'bogus'.", "/play was given game twice: give it once.", "Junction has no command /play
    bogus: type / to see the ones it has.", privately, nothing stored or posted."""
    if name in IN_GAME:
        await stacked_mille(driver)
    failures: list[str] = []
    for what, payload, expected in _named_wrong(driver, name):
        wrong = await _refused(driver, tmp_path, errors, payload, expected)
        if wrong is not None:
            failures.append(f"{what}: {wrong}")
    assert not failures, "\n".join(failures)
    assert not _unretrieved(errors)


async def test_a_command_the_bot_never_had_is_refused_in_a_sentence(
    driver: InteractionDriver, tmp_path: Path, errors: LoggedErrors
) -> None:
    """/bogus, and a member's context-menu command "Profile" the bot never registered. Before:
    "Something went wrong on our side" and an error logged; now "Junction has no command
    /bogus: type / to see the ones it has.", privately."""
    payload = driver.factory.slash("help", None)
    payload["data"]["name"] = "bogus"
    said = "Junction has no command /bogus: type / to see the ones it has."
    assert await _refused(driver, tmp_path, errors, payload, said) is None
    payload = driver.factory.slash("history", {"member": BOB_ID})
    payload["data"].update(name="Profile", type=2, target_id=str(BOB_ID))
    payload["data"].pop("options")
    said = "Junction has no command /Profile: type / to see the ones it has."
    assert await _refused(driver, tmp_path, errors, payload, said) is None


def _out_of_bounds(spec: dict[str, Any]) -> list[Any]:
    """Values of the right kind an option declared so is never sent by Discord's client: past
    its range, not among its choices, 10 000 characters of text."""
    if spec.get("choices"):
        return ["nonsense", "x" * 10_000]
    if spec["type"] == 3:
        return ["x" * 10_000]
    if spec["type"] == 4:
        low, high = spec.get("min_value"), spec.get("max_value")
        return [*([low - 1] if low is not None else []), *([high + 1] if high is not None else [])]
    return []


@pytest.mark.parametrize("name", [n for n in WITH_OPTIONS if n != "history"])  # a member only
async def test_a_value_out_of_bounds_is_the_command_s_to_refuse(
    driver: InteractionDriver, tmp_path: Path, errors: LoggedErrors, name: str
) -> None:
    """A number past the range Discord's client keeps to, a choice it does not list, 10 000
    characters of text: each command refuses them in its own words ("Computers: give 0 to 5.",
    "On timeout: choose 'computer' or 'forfeit'.", "That move is far too long; pick one from
    the list."), privately, nothing stored or posted (held, not changed, here)."""
    if name in IN_GAME:
        await stacked_mille(driver)
    failures: list[str] = []
    tried = 0
    for spec in _schema(driver, name):
        for value in _out_of_bounds(spec):
            payload = _well_formed(driver, name)
            kept = [o for o in payload["data"].get("options", []) if o["name"] != spec["name"]]
            option = {"name": spec["name"], "type": spec["type"], "value": value}
            payload["data"]["options"] = [*kept, option]
            tried += 1
            wrong = await _refused(driver, tmp_path, errors, payload)
            if wrong is not None:
                failures.append(f"{spec['name']}={str(value)[:12]!r}: {wrong}")
    assert tried and not failures, "\n".join(failures)


HUGE = 10**30
"""A whole number no option takes, of 31 digits: JSON carries it, and Discord passes it on."""


@pytest.mark.parametrize("name", WITH_NUMBERS)
async def test_a_huge_number_is_not_said_back_in_full(
    driver: InteractionDriver, tmp_path: Path, errors: LoggedErrors, name: str
) -> None:
    """10**30 in each whole-number option (a request made by hand). Before, /play said "Mille
    Bornes is played by exactly 2 players, not 1000000000000000000000000000001 (you and
    1000000000000000000000000000000 computers)." Now a number past ``QUOTED_DIGITS`` is cut
    as a member's words are: "… not 10000000000… (you and 10000000000… computers).", still
    privately, nothing stored or posted."""
    if name in IN_GAME:
        await stacked_mille(driver)
    failures: list[str] = []
    tried = 0
    for spec in _schema(driver, name):
        if spec["type"] != 4:
            continue
        payload = _well_formed(driver, name)
        kept = [o for o in payload["data"].get("options", []) if o["name"] != spec["name"]]
        payload["data"]["options"] = [*kept, {"name": spec["name"], "type": 4, "value": HUGE}]
        tried += 1
        wrong = await _refused(driver, tmp_path, errors, payload)
        said = replies(driver.backend.interaction_result(int(payload["id"])))
        longest = max((len(run) for run in re.findall(r"\d+", said)), default=0)
        if wrong is None and longest > QUOTED_DIGITS:
            wrong = f"said {longest} digits: {said!r}"
        if wrong is not None:
            failures.append(f"{spec['name']}: {wrong}")
    assert tried and not failures, "\n".join(failures)


async def test_a_huge_count_of_computers_is_refused_with_its_first_digits(
    driver: InteractionDriver,
) -> None:
    result = await driver.slash("play", {"game": "mille", "computers": HUGE})
    assert replies(result) == plain(
        "Mille Bornes is played by exactly 2 players, not 10000000000… (you and 10000000000…"
        " computers)."
    )
    hosted = await driver.slash("host", {"game": "mille", "computers": HUGE})
    assert replies(hosted) == plain(
        "With 10000000000… computers, Mille Bornes has no seat left for members to join: ask"
        " for fewer computers."
    )
    # A number that fits is said as it is.
    result = await driver.slash("play", {"game": "mille", "computers": 99_999_999_999})
    assert "not 100000000000 (you and 99999999999 computers)" in replies(result)


@pytest.mark.parametrize("name", WITH_OPTIONS)
async def test_an_autocomplete_of_a_field_that_suggests_nothing_is_offered_nothing(
    driver: InteractionDriver, errors: LoggedErrors, name: str
) -> None:
    """An autocomplete sent by hand for a field with no suggestions (/play's thread, /settings'
    turn_timer, /history's member), or for a field that has them holding no text (null, 12, a
    list). Before: no answer, and an error logged ("Ignoring exception in autocomplete": from
    discord.py, which found no suggestions for the field, or from the suggestions, reading a
    value that is no text). Now nothing is offered, and nothing logged."""
    if name in IN_GAME:
        await stacked_mille(driver)
    failures: list[str] = []
    tried = 0
    for spec in _schema(driver, name):
        values: list[Any] = [None, 12, [], {"x": 1}] if spec.get("autocomplete") else ["x"]
        for value in values:
            payload = driver.factory.autocomplete(name, spec["name"], "")
            focused = {"name": spec["name"], "type": spec["type"], "value": value, "focused": True}
            payload["data"]["options"] = [focused]
            errors.seen.clear()
            tried += 1
            result = await driver.dispatch(payload)
            gc.collect()
            if result.callback_type != 8 or result.choices or errors.seen:
                failures.append(f"{spec['name']}={value!r}: {result.choices} {errors.seen[:1]}")
    assert tried and not failures, "\n".join(failures)


@pytest.mark.parametrize(
    ("name", "option"),
    [("challenge", "member"), ("challenge", "member3"), ("stats", "member"), ("history", "member")],
)
async def test_a_member_discord_did_not_resolve_is_refused_in_a_sentence(
    driver: InteractionDriver, tmp_path: Path, errors: LoggedErrors, name: str, option: str
) -> None:
    """A member's id Discord sent no record for, or one of a user who is not a member of the
    server (left, or never joined): "That member is not in this server (any more); choose
    someone who is.", privately, nothing stored or posted (held, not changed, here)."""
    stranger = BOB_ID + 4242
    for resolved in ({}, {"users": {str(stranger): user_payload(stranger, "stranger")}}):
        payload = _well_formed(driver, name)
        payload["data"]["options"] = [
            *[o for o in payload["data"].get("options", []) if o["name"] != option],
            {"name": option, "type": 6, "value": str(stranger)},
        ]
        payload["data"]["resolved"] = {**payload["data"].get("resolved", {}), **resolved}
        said = "That member is not in this server (any more); choose someone who is."
        assert await _refused(driver, tmp_path, errors, payload, said) is None

"""Component presses and modal submissions sent by hand in shapes Discord's client never sends:
a select menu's ``values`` missing, not a list, holding numbers, null or objects, empty, in
thousands, twice the same, not among the menu's options; the component's type wrong for its
custom id; the custom id missing, not text, empty, past 100 characters or not ASCII; ``data``
or ``message`` missing, the message of another channel; a modal submission (Junction opens no
modal) with its fields in pieces. Each is tried on a game in progress of every game, an
invitation, a Rematch button and the "My hand" button.

Each must get one private sentence a member can read (not "Something went wrong"), change
nothing stored (the SQLite file dumped before and after), post nothing in the channel and log
nothing at ERROR (asyncio's "Task exception was never retrieved" included)."""

from __future__ import annotations

import copy
import functools
import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.store.base import SeatRecord
from cogs.raw_components import MALFORMED_PRESS, NO_FORMS
from cogs.raw_options import MALFORMED
from tests.cogs.conftest import LoggedErrors, running_bot
from tests.cogs.helpers import (
    before_a_refusal,
    challenge_mille,
    public_table,
    refusal_problems,
    replies,
)
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    walk_components,
)
from tests.discord.payloads import InteractionDriver

GAMES = ("mille", "race", "dragon", "ttr", "solo", "ttr-solo")

Payload = dict[str, Any]


def _garbled(press: Callable[[], Payload], kind: int) -> list[tuple[str, Payload, str | None]]:
    """(what, payload, the sentence expected) for a press Discord's client sends (``press``
    builds one, of a component of type ``kind``, each a new interaction) in each shape a
    hand-made request may take instead. None:
    values of the right shape a menu does not offer, the menu's own to refuse in its words."""
    cases: list[tuple[str, Payload, str | None]] = []

    def case(
        what: str, change: Callable[[Payload], object], expected: str | None = MALFORMED_PRESS
    ) -> None:
        payload = press()
        change(payload)
        cases.append((what, payload, expected))

    def data(**fields: Any) -> Callable[[Payload], object]:
        return lambda p: p["data"].update(copy.deepcopy(fields))

    def drop(key: str) -> Callable[[Payload], object]:
        return lambda p: p["data"].pop(key)

    for values in ("abc", 5, {"a": 1}, None, [1], [None], [{"v": "x"}], [["x"]], [True]):
        case(f"values {values!r}", data(values=values))
    if kind != 2:  # a button's press carries none
        case("values missing", drop("values"))
    menus = None if kind == 3 else MALFORMED_PRESS  # a button's press carries no values
    case("values empty", data(values=[]), menus)
    case("5000 values", data(values=[str(n) for n in range(5000)]))
    case("a value twice", data(values=["x", "x"]), menus)
    case("a value not offered", data(values=["nonsense"]), menus)
    case("a value of 10 000 characters", data(values=["x" * 10_000]))
    case("as a button" if kind == 3 else "as a menu", data(component_type=2 if kind == 3 else 3))
    for component_type in (None, "2", 2.5, 99, True):
        case(f"component_type {component_type!r}", data(component_type=component_type))
    case("component_type missing", drop("component_type"))
    for custom_id in (None, 5, ["jn:h:1"], "", "x" * 150, "jn:h:١٢", "jn:ĥ:1"):
        case(f"custom_id {str(custom_id)[:20]!r}", data(custom_id=custom_id))
    case("custom_id missing", drop("custom_id"))
    case("data missing", lambda p: p.pop("data"))
    case("data null", lambda p: p.update(data=None))
    case("data as text", lambda p: p.update(data="abc"))
    case("message missing", lambda p: p.pop("message"))
    case("message null", lambda p: p.update(message=None))
    case("message as text", lambda p: p.update(message="abc"))
    case("message of another channel", lambda p: p["message"].update(channel_id="1"))

    def form(components: Any) -> Callable[[Payload], object]:
        """The press sent as a form (a modal submit) holding ``components``."""
        return lambda p: p.update(
            type=5, data={"custom_id": p["data"]["custom_id"], "components": components}
        )

    for components in (None, "abc", [], [{"type": 1}], [{"type": 1, "components": "x"}]):
        case(f"a form with components {components!r}", form(components), NO_FORMS)
    for value in (None, 5, ["x"], "x" * 10_000):
        inputs = [{"type": 1, "components": [{"type": 4, "custom_id": "a", "value": value}]}]
        case(f"a form with a text input of {str(value)[:12]!r}", form(inputs), NO_FORMS)
    case("a form with no data", lambda p: (p.update(type=5), p.pop("data")), NO_FORMS)
    return cases


async def _wrong(
    driver: InteractionDriver,
    tmp_path: Path,
    errors: LoggedErrors,
    payload: Payload,
    saying: str | None = None,
) -> str | None:
    """What is wrong with the answer to ``payload`` as a refusal (``refusal_problems``; an
    error raised to the gateway's side is wrong too)."""
    before = before_a_refusal(driver, tmp_path, errors)
    try:
        result = await driver.dispatch(payload)
    except Exception as error:  # the driver hands the bot what Discord's gateway would
        return f"raised {type(error).__name__}: {str(error)[:80]}"
    gc.collect()  # asyncio logs a task's exception nobody retrieved only once it is collected
    return refusal_problems(driver, tmp_path, errors, result, before, saying)


def _pressed(
    driver: InteractionDriver, message: dict[str, Any], user_id: int
) -> list[tuple[Callable[[], Payload], int]]:
    """Presses of the message's first button and of its first menu, as Discord's client sends
    them (a menu with its first option chosen), built anew at each call."""
    found: list[tuple[Callable[[], Payload], int]] = []
    message = copy.deepcopy(message)  # as shown now: a press that went through may edit it
    for kind in (2, 3):
        component = next(
            (c for c in walk_components(message.get("components") or []) if c["type"] == kind),
            None,
        )
        if component is None:
            continue
        values = [component["options"][0]["value"]] if kind == 3 else None
        found.append(
            (
                functools.partial(
                    driver.factory.component,
                    message,
                    component["custom_id"],
                    values=values,
                    user_id=user_id,
                ),
                kind,
            )
        )
    return found


async def _tried(
    driver: InteractionDriver,
    tmp_path: Path,
    errors: LoggedErrors,
    message: dict[str, Any],
    user_id: int = ALICE_ID,
) -> tuple[int, list[str]]:
    """How many presses in pieces were tried on ``message``'s button and menu, as pressed by
    ``user_id``, and what was wrong with the answer to each."""
    tried, failures = 0, []
    pressed = _pressed(driver, message, user_id)
    assert pressed, "no component on the message"
    for press, kind in pressed:
        for what, payload, expected in _garbled(press, kind):
            tried += 1
            wrong = await _wrong(driver, tmp_path, errors, payload, expected)
            if wrong is not None:
                failures.append(f"{payload.get('id')} {what}: {wrong}")
    return tried, failures


@pytest.mark.parametrize("game_key", GAMES)
async def test_a_press_in_pieces_on_a_game_is_answered_in_a_sentence(
    driver: InteractionDriver, tmp_path: Path, errors: LoggedErrors, game_key: str
) -> None:
    """The table's first button and menu, and each seated member's hand's, pressed in pieces.
    Before: a custom id or component type left out or not text, ``data`` or ``message`` that
    is no record, failed in discord.py before any handler (no answer; in the bot, the
    gateway's reading of events stopped); a button's id sent as a menu, a custom id the
    message does not show (past 100 characters, not ASCII), a press with no message and any
    form were left unanswered, spinning; a menu's values as text, numbers or null, in
    thousands or 10 000 characters long, and a message of another channel, were played or
    judged as a real choice. Now ``MALFORMED_PRESS`` (a form: ``NO_FORMS``), privately,
    nothing stored or posted."""
    seats = [SeatRecord(0, "Alice", user_id=ALICE_ID)]
    if game_key in ("mille", "race", "dragon", "ttr"):
        seats.append(SeatRecord(1, "Bob", user_id=BOB_ID))
    update = await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key=game_key, seats=seats
    )
    await driver.slash("table", {})
    posted = driver.backend.channel_messages(GAMES_CHANNEL_ID)
    table = next(m for m in reversed(posted) if m.get("components"))
    messages = [(table, ALICE_ID)]
    for seat in seats if len(seats) > 1 else []:  # the hand's pickers, in a private hand
        assert seat.user_id is not None
        hand = await driver.click(table, f"jn:h:{update.game.id}", user_id=seat.user_id)
        assert hand.message is not None, replies(hand)
        shown = driver.backend.messages.get(int(hand.message["id"]), hand.message)
        if shown.get("components"):
            messages.append((shown, seat.user_id))
    tried, failures = 0, list[str]()
    for message, user_id in messages:
        more, wrong = await _tried(driver, tmp_path, errors, message, user_id)
        tried, failures = tried + more, failures + wrong
    assert not failures, f"{len(failures)} of {tried}:\n" + "\n".join(failures)


async def test_a_press_in_pieces_on_an_invitation_is_answered_in_a_sentence(
    driver: InteractionDriver, tmp_path: Path, errors: LoggedErrors
) -> None:
    """An invitation's Accept button pressed in pieces, as above."""
    message, _ = await challenge_mille(driver)
    tried, failures = await _tried(
        driver, tmp_path, errors, driver.backend.messages[int(message["id"])]
    )
    assert not failures, f"{len(failures)} of {tried}:\n" + "\n".join(failures)


async def test_a_press_in_pieces_on_a_rematch_button_is_answered_in_a_sentence(
    driver: InteractionDriver, tmp_path: Path, errors: LoggedErrors
) -> None:
    """The Rematch button under a game's final table pressed in pieces, as above."""
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=[SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)],
    )
    resigned = await driver.slash("resign", {}, user_id=BOB_ID)
    final = driver.backend.messages[int(public_table(resigned).message_id or 0)]
    assert any(
        c.get("custom_id", "").startswith("jn:r:") for c in walk_components(final["components"])
    )
    tried, failures = await _tried(driver, tmp_path, errors, final)
    assert not failures, f"{len(failures)} of {tried}:\n" + "\n".join(failures)


ELSEWHERE_IN_PIECES: list[tuple[str, Callable[[Payload], object]]] = [
    ("the message's id as text", lambda p: p["message"].update(id="abc")),
    ("the message's author as text", lambda p: p["message"].update(author="x")),
    ("the message's embeds as text", lambda p: p["message"].update(embeds="x")),
    ("an attachment that is a number", lambda p: p["message"].update(attachments=[1])),
    ("the member as text", lambda p: p.update(member="x")),
    ("the member's id as text", lambda p: p["member"]["user"].update(id="abc")),
]
"""A press whose custom id, type and values are as Discord sends them, with a record beside
them in pieces: discord.py reads each before routing the press."""


async def test_a_press_with_a_record_in_pieces_is_answered_in_a_sentence(
    driver: InteractionDriver, tmp_path: Path, errors: LoggedErrors
) -> None:
    """An invitation's Accept button pressed with the message's id, author, embeds or an
    attachment, or the member, in pieces. Before: discord.py failed reading them before any
    handler (no answer; in a running bot the error leaves discord.py's gateway loop). Now
    ``MALFORMED_PRESS``, privately, nothing stored or posted; and /help sent with the member in
    pieces gets the sentence a command in pieces gets."""
    message, _ = await challenge_mille(driver)
    shown = copy.deepcopy(driver.backend.messages[int(message["id"])])
    failures: list[str] = []
    for what, change in ELSEWHERE_IN_PIECES:
        payload = driver.factory.component(shown, "jn:l:1:a", user_id=BOB_ID)
        change(payload)
        wrong = await _wrong(driver, tmp_path, errors, payload, MALFORMED_PRESS)
        if wrong is not None:
            failures.append(f"{what}: {wrong}")
    command = driver.factory.slash("help", None)
    command["member"] = "x"
    wrong = await _wrong(driver, tmp_path, errors, command, MALFORMED)
    if wrong is not None:
        failures.append(f"/help with the member as text: {wrong}")
    assert not failures, "\n".join(failures)

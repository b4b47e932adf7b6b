"""The fake Discord refuses what Discord refuses: bodies over Discord's form limits.

``tests.discord.limits`` is checked field by field here; every other test gets the check through
the fake (and ``tests/conftest.py`` fails a test whose bot sent a refused body). The last tests
hold the real bot's command tree and a stored hand picker to the limits.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.cogs.conftest import running_bot
from tests.discord import limits
from tests.discord.backend import GAMES_CHANNEL_ID, FakeBackend
from tests.discord.payloads import InteractionDriver


def button(custom_id: str = "b", label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def select(count: int, **extra: Any) -> dict[str, Any]:
    options = [{"label": f"Card {n}", "value": str(n)} for n in range(count)]
    return {"type": 3, "custom_id": "s", "options": options, **extra}


GOOD: dict[str, Any] = {
    "content": "x" * 2000,
    "embeds": [{"title": "t" * 256, "description": "d" * 4096}],
    "components": [
        row(*(button(f"b{n}", "L" * 80) for n in range(5))),
        row(select(25, max_values=25, placeholder="p" * 150)),
        row(button("c" * 100)),
        row({"type": 2, "style": 5, "label": "Docs", "url": "https://example.org"}),
        row(button("e", label="")) | {"components": [{**button("e", ""), "emoji": {"name": "🃏"}}]},
    ],
    "attachments": [{"id": "0", "filename": "t.png", "description": "a" * 1024}],
}


def test_a_body_at_every_limit_passes() -> None:
    assert limits.message_problems(GOOD, file_count=1) == []


BROKEN: dict[str, tuple[dict[str, Any], str]] = {
    "content": ({"content": "x" * 2001}, "content: 2001 characters"),
    "six rows": ({"components": [row(button(f"b{n}")) for n in range(6)]}, "6 rows"),
    "six buttons": ({"components": [row(*(button(f"b{n}") for n in range(6)))]}, "6 buttons"),
    "button label": ({"components": [row(button(label="L" * 81))]}, "label: 81 characters"),
    "custom id": ({"components": [row(button("c" * 101))]}, "custom_id: 101 characters"),
    "twice": ({"components": [row(button("a"), button("a"))]}, "used twice"),
    "no label": ({"components": [row(button(label=""))]}, "needs a label or an emoji"),
    "26 options": ({"components": [row(select(26))]}, "options: 26"),
    "empty select": ({"components": [row(select(0))]}, "options: 0"),
    "select shares": ({"components": [row(select(2), button())]}, "alone in its row"),
    "max values": ({"components": [row(select(3, max_values=4))]}, "out of range"),
    "option label": (
        {"components": [row(select(1) | {"options": [{"label": "o" * 101, "value": "v"}]})]},
        "label: 101 characters",
    ),
    "same value": (
        {
            "components": [
                row(
                    select(2)
                    | {"options": [{"label": "a", "value": "v"}, {"label": "b", "value": "v"}]}
                )
            ]
        },
        "offered twice",
    ),
    "placeholder": ({"components": [row(select(2, placeholder="p" * 151))]}, "placeholder"),
    "alt text": (
        {"attachments": [{"id": "0", "description": "a" * 1025}]},
        "description: 1025 characters",
    ),
    "embed total": (
        {"embeds": [{"description": "d" * 4096}, {"description": "d" * 2000}]},
        "6096 characters in all",
    ),
    "loose button": ({"components": [button()]}, "must be an action row"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_each_broken_limit_is_named(case: str) -> None:
    body, named = BROKEN[case]
    problems = limits.message_problems(body)
    assert problems, case
    assert any(named in problem for problem in problems), problems


def test_eleven_files_are_refused() -> None:
    assert limits.message_problems({"content": "x"}, file_count=10) == []
    assert limits.message_problems({"content": "x"}, file_count=11) == [
        "files: 11, Discord takes 10"
    ]


def test_modal_and_autocomplete_limits() -> None:
    good_modal = {
        "title": "t" * 45,
        "custom_id": "m",
        "components": [row({"type": 4, "custom_id": "i", "label": "l" * 45, "style": 1})],
    }
    assert limits.modal_problems(good_modal) == []
    assert limits.modal_problems(good_modal | {"title": "t" * 46})
    assert limits.choices_problems([{"name": "n", "value": "v"}] * 25) == []
    assert limits.choices_problems([{"name": "n", "value": "v"}] * 26) == [
        "choices: 26, Discord takes 25"
    ]
    assert limits.choices_problems([{"name": "n" * 101, "value": 1}])


def test_command_limits() -> None:
    good = {"name": "play", "description": "Start a game.", "type": 1, "options": []}
    assert limits.command_problems(good) == []
    assert limits.command_problems(good | {"name": "Play"})
    assert limits.command_problems(good | {"description": "d" * 101})
    late = [
        {"name": "game", "description": "g", "type": 3},
        {"name": "level", "description": "l", "type": 3, "required": True},
    ]
    assert any("after an optional" in p for p in limits.command_problems(good | {"options": late}))


@pytest.mark.form_refusals
def test_the_fake_refuses_and_stores_nothing() -> None:
    backend = FakeBackend()
    status, body = backend.handle(
        "POST", f"/channels/{GAMES_CHANNEL_ID}/messages", body={"content": "x" * 2001}
    )
    assert status == 400 and body["code"] == 50035
    assert "content: 2001 characters" in body["message"]
    assert backend.channel_messages(GAMES_CHANNEL_ID) == []
    assert backend.form_errors == ["content: 2001 characters, Discord takes at most 2000"]
    status, _ = backend.handle(
        "POST", f"/channels/{GAMES_CHANNEL_ID}/messages", body={"content": "x" * 2000}
    )
    assert status == 200 and len(backend.channel_messages(GAMES_CHANNEL_ID)) == 1


async def test_every_junction_command_is_within_discord_limits(
    driver: InteractionDriver,
) -> None:
    tree = running_bot(driver).tree
    payloads = [command.to_dict(tree) for command in tree.get_commands()]
    assert len(payloads) >= 10  # the whole tree, not an empty one
    problems = [p for payload in payloads for p in limits.command_problems(payload)]
    assert problems == []

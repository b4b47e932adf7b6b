"""A hostile review of the Rematch button (cogs/rematch.py).

Each test drives the real cogs through the fake Discord and holds a fix for what the review
found (each docstring says what it was).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.store.base import SeatRecord, StoredGame
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, public_table, replies
from tests.discord.backend import ALICE_ID, BOB_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

ALICE_BOB_AND_A_COMPUTER = [
    SeatRecord(0, "Alice", user_id=ALICE_ID),
    SeatRecord(1, "Bob", user_id=BOB_ID),
    SeatRecord(2, "Computer (random)", policy="random"),
]


async def _resigned(driver: InteractionDriver, seats: list[SeatRecord]) -> tuple[int, int]:
    """A Dragon game its members all resign: the game's id and its final table's message."""
    update = await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="dragon", seats=seats
    )
    last = None
    for seat in seats:
        if seat.user_id is not None:
            last = await driver.slash("resign", {}, user_id=seat.user_id)
    assert last is not None
    message = public_table(last).message_id
    assert message is not None
    return update.game.id, message


@pytest.mark.parametrize(
    ("options", "policy", "refusal"),
    [
        ({"deck": "ancient"}, None, "'ancient' is not a choice for deck"),
        ({}, "retired", "no computer player called 'retired'"),
    ],
)
async def test_a_rematch_with_settings_gone_is_refused_before_inviting(
    driver: InteractionDriver,
    monkeypatch: pytest.MonkeyPatch,
    options: dict[str, str],
    policy: str | None,
    refusal: str,
) -> None:
    """A game stored by an earlier version may hold an option value or a computer level this
    version no longer has. With another member in it, the rematch posted the invitation
    anyway (pinging them), and it could never start: every Accept was refused with the option
    or level error, and the invitation stayed open. The rematch is refused first instead."""
    game_id, message = await _resigned(driver, ALICE_BOB_AND_A_COMPUTER)
    tables = running_bot(driver).tables
    stored = tables.game_by_id

    async def from_an_earlier_version(wanted: int) -> StoredGame:
        game = await stored(wanted)
        seats = tuple(
            replace(s, policy=policy) if s.is_computer and policy else s for s in game.seats
        )
        return replace(game, options={**game.options, **options}, seats=seats)

    monkeypatch.setattr(tables, "game_by_id", from_an_earlier_version)
    asked = await driver.click(message, f"jn:r:{game_id}", user_id=BOB_ID)
    assert asked.ephemeral and refusal in replies(asked)
    assert not any("invites" in (r.content or "") for r in asked.responses)


async def test_presses_at_once_post_one_rematch_invitation(driver: InteractionDriver) -> None:
    """Three presses at the same moment (a double click, or both players wanting the rematch)
    each posted an invitation to the same players, pinging them every time; accepting one
    started the game and left the others open, each Accept answered 'a game is already
    running'. One invitation is posted, and the other presses are pointed at it."""
    game_id, message = await _resigned(driver, ALICE_BOB_AND_A_COMPUTER)
    presses = await asyncio.gather(
        driver.click(message, f"jn:r:{game_id}", user_id=BOB_ID),
        driver.click(message, f"jn:r:{game_id}", user_id=BOB_ID),
        driver.click(message, f"jn:r:{game_id}", user_id=BOB_ID),
    )
    invitations = [p for p in presses if "invites" in replies(p)]
    assert len(invitations) == 1
    refused = [p for p in presses if p not in invitations]
    assert all(p.ephemeral and "already asked for this rematch" in replies(p) for p in refused)
    # Alice asking too is pointed at Bob's invitation (he is "bob" on the fake server).
    alice = await driver.click(message, f"jn:r:{game_id}", user_id=ALICE_ID)
    assert alice.ephemeral and "bob has already asked for this rematch" in replies(alice)
    invitation = invitations[0].responses[0]
    accepted = await driver.click(
        invitation.message_id, component_id(invitation, "Accept"), user_id=ALICE_ID
    )
    assert "The game is on" in replies(accepted)
    assert len(await running_bot(driver).tables.store.active_games()) == 1


async def test_a_cancelled_rematch_invitation_may_be_sent_again(
    driver: InteractionDriver,
) -> None:
    """Once the invitation is cancelled (or declined, or expired), the rematch can be asked
    for again."""
    game_id, message = await _resigned(driver, ALICE_BOB_AND_A_COMPUTER)
    asked = await driver.click(message, f"jn:r:{game_id}", user_id=BOB_ID)
    invitation = asked.responses[0]
    await driver.click(invitation.message_id, component_id(invitation, "Cancel"), user_id=BOB_ID)
    again = await driver.click(message, f"jn:r:{game_id}", user_id=ALICE_ID)
    assert not again.ephemeral and f"<@{ALICE_ID}> invites" in replies(again)

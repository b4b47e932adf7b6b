"""Missing permissions: where the bot cannot send messages, attach files, embed links or create
threads, a command that would post answers privately and names what is missing — for every
registered game, before anything is stored."""

from __future__ import annotations

import discord
import pytest

from bot.games import all_bundles
from tests.cogs.conftest import running_bot
from tests.discord.backend import BOT_ROLE_ID, CATEGORY_ID, GUILD_ID, text_channel_payload
from tests.discord.payloads import InteractionDriver
from tests.reliability.driving import MEMBERS
from tests.reliability.test_fuzz import is_sentence

DENIED = {
    "send_messages": "Send Messages",
    "attach_files": "Attach Files",
    "embed_links": "Embed Links",
    "create_public_threads": "Create Public Threads",
}


def channel_without(driver: InteractionDriver, permission: str) -> int:
    """A new text channel where the bot's role is denied ``permission``."""
    channel_id = driver.backend.ids.next()
    channel = text_channel_payload(channel_id, GUILD_ID, f"no-{permission}", parent_id=CATEGORY_ID)
    deny = discord.Permissions(**{permission: True}).value
    channel["permission_overwrites"] = [
        {"id": str(BOT_ROLE_ID), "type": 0, "allow": "0", "deny": str(deny)}
    ]
    driver.backend.world.channels.append(channel)
    guild = driver.bot.get_guild(GUILD_ID)
    assert guild is not None
    guild._add_channel(discord.TextChannel(state=driver.bot._connection, guild=guild, data=channel))  # type: ignore[arg-type]
    return channel_id


@pytest.mark.parametrize("permission", sorted(DENIED))
@pytest.mark.parametrize("game", [b.key for b in all_bundles()])
async def test_a_missing_permission_is_named(
    driver: InteractionDriver, permission: str, game: str
) -> None:
    """/play (in a thread for thread creation) where the bot lacks a permission: one private
    sentence naming it, and no game started."""
    channel_id = channel_without(driver, permission)
    options: dict[str, object] = {"game": game}
    if permission == "create_public_threads":
        options["thread"] = True
    result = await driver.slash("play", options, user_id=MEMBERS[0], channel_id=channel_id)
    said = [r.content or "" for r in result.responses]
    assert result.ephemeral and len(said) == 1, said
    assert DENIED[permission] in said[0] and is_sentence(said[0]), said[0]
    assert await running_bot(driver).tables.store.active_games() == []


async def test_buttons_name_a_missing_permission_too(driver: InteractionDriver) -> None:
    """A table's button pressed where the bot may no longer attach files: the missing permission
    is named privately and the move is not made."""
    from tests.reliability.driving import Player, seatings, start, table_message

    seating = seatings(all_sizes=False)[0]
    channel_id = channel_without(driver, "attach_files")
    channel = driver.backend.channel(channel_id)
    assert channel is not None
    keep = channel["permission_overwrites"]
    channel["permission_overwrites"] = []
    await start(driver, seating, channel_id, 1)
    channel["permission_overwrites"] = keep
    message = table_message(driver, channel_id)
    assert message is not None
    button = Player(driver, channel_id, __import__("random").Random(1))
    stored = await button.game()
    assert stored is not None
    ids = [c["custom_id"] for row in message["components"] for c in row["components"]]
    result = await driver.click(message, ids[0], user_id=seating.members[0])
    assert result.ephemeral and "Attach Files" in (result.content or "")
    after = await button.game()
    assert after is not None and after.version == stored.version

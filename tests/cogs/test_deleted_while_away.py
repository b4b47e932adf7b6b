"""Messages deleted while the bot was away: no MESSAGE_DELETE (or THREAD_DELETE) reached it.

Found by a review of the deleted-message handling: a table deleted while the bot was down kept
its /history link (and its /mygames one) for good, opening nothing; an invitation deleted then
held its members' seats until its time ran out. Each link /history and /mygames serve is now
looked at once a process, after the answer (``cogs.links``): one found gone is forgotten and
the answer edited without it. A channel the restart finds deleted forgets its tables and
lobbies too.
"""

from __future__ import annotations

from pathlib import Path

from bot.boards import linked_messages
from bot.store.base import SeatRecord
from cogs.ui import plain
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    challenge_mille,
    component_id,
    restarted,
    stored_lobby,
    sweep_at,
)
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    thread_payload,
)
from tests.discord.payloads import InteractionDriver

SEATS = [SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)]


async def _resigned(driver: InteractionDriver, channel_id: int) -> int:
    """Alice resigns a game against Bob in ``channel_id``: its last table's message id."""
    tables = running_bot(driver).tables
    await tables.start(channel_id=channel_id, guild_id=GUILD_ID, game_key="mille", seats=SEATS)
    await driver.slash("resign", {}, user_id=ALICE_ID, channel_id=channel_id)
    ended = await tables.store.last_finished_game(channel_id)
    assert ended is not None and ended.message_id in driver.backend.messages
    return ended.message_id


def _fetches(driver: InteractionDriver, since: int) -> list[str]:
    """The messages the bot fetched since request ``since``."""
    return [
        r.path for r in driver.requests[since:] if r.matches("GET", r"/channels/\d+/messages/\d+")
    ]


async def test_a_table_deleted_while_away_loses_its_history_link(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Two finished games; the bot is down while a moderator deletes the first one's table.
    Back, Alice's /history is answered at once, then edited without that link, which is
    forgotten; the other keeps its link. Her next /history asks Discord nothing."""
    deleted = await _resigned(driver, GAMES_CHANNEL_ID)
    kept = await _resigned(driver, GAMES_CHANNEL_ID)
    await driver.close()
    del driver.backend.messages[deleted]  # no bot listening: no event
    async with restarted(driver, tmp_path) as again:
        since = len(again.requests)
        first = await again.slash("history", {}, user_id=ALICE_ID)
        assert first.ephemeral and f"/{deleted})" in str(first.responses[0].content)
        assert sorted(_fetches(again, since)) == sorted(
            f"/channels/{GAMES_CHANNEL_ID}/messages/{m}" for m in (deleted, kept)
        )
        content = str(first.content)
        assert f"/{deleted})" not in content and f"/{kept})" in content, content
        assert content.count("Mille Bornes vs Bob") == 2
        store = running_bot(again).tables.store
        assert [g.message_id for g in await store.games_of_member(ALICE_ID)] == [None, kept]
        since = len(again.requests)
        second = await again.slash("history", {}, user_id=ALICE_ID)
        assert _fetches(again, since) == [] and f"/{kept})" in str(second.content)


async def test_an_invitation_deleted_while_away_is_closed_by_mygames(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Alice invites Bob and Carol invites Alice; the bot is down while a moderator deletes
    Alice's invitation. Back, her /mygames looks at the links it gave: that invitation is
    closed (its seats count no longer) and the answer edited to list Carol's alone."""
    deleted, lobby_id = await challenge_mille(driver)
    invited = await driver.slash(
        "challenge", {"game": "mille", "member": ALICE_ID}, user_id=CAROL_ID
    )
    assert invited.message is not None
    await driver.close()
    del driver.backend.messages[int(deleted["id"])]
    async with restarted(driver, tmp_path) as again:
        listed = await again.slash("mygames", {}, user_id=ALICE_ID)
        assert "2 tables waiting to start" in str(listed.responses[0].content)
        assert (await stored_lobby(again, lobby_id)).status == "cancelled"
        content = str(listed.content)
        assert "1 table waiting to start" in content and "carol hosts" in content, content


async def test_a_thread_deleted_while_away_forgets_its_tables_and_lobbies(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """In a thread: a game finished, an invitation posted, then another game started; the
    thread is deleted while the bot is down. Back, the start's look for games nobody can reach
    ends the one in play, as before, and now forgets the thread's tables (the finished game's
    /history link) and closes its invitation."""
    thread_id = driver.backend.ids.next()
    driver.backend.extra_channels[thread_id] = thread_payload(
        thread_id, GUILD_ID, GAMES_CHANNEL_ID, ALICE_ID, "chat"
    )
    await _resigned(driver, thread_id)
    invited = await driver.slash(
        "challenge", {"game": "mille", "member": CAROL_ID}, channel_id=thread_id
    )
    lobby_id = int(component_id(invited, "Accept").split(":")[2])
    tables = running_bot(driver).tables
    await tables.start(channel_id=thread_id, guild_id=GUILD_ID, game_key="mille", seats=SEATS)
    await driver.close()
    del driver.backend.extra_channels[thread_id]  # no bot listening: no event
    async with restarted(driver, tmp_path) as again:
        cog = running_bot(again).get_cog("Timers")
        assert cog is not None
        await cog.end_unreachable_games()  # type: ignore[attr-defined]
        store = running_bot(again).tables.store
        games = await store.games_of_member(ALICE_ID)
        assert [(g.status, g.message_id) for g in games] == [("finished", None), ("aborted", None)]
        assert (await stored_lobby(again, lobby_id)).status == "cancelled"


async def test_links_are_looked_at_again_after_discord_was_out_of_reach(
    driver: InteractionDriver,
) -> None:
    """A link looked at is not asked about again, while the bot hears every deletion; after
    shard 0 was cut off from Discord for a minute (a deletion meanwhile may have sent no
    event), the next /history looks at it again."""
    kept = await _resigned(driver, GAMES_CHANNEL_ID)
    await driver.slash("history", {}, user_id=ALICE_ID)
    since = len(driver.requests)
    await driver.slash("history", {}, user_id=ALICE_ID)
    assert _fetches(driver, since) == []
    cog = running_bot(driver).get_cog("Timers")
    assert cog is not None
    now = running_bot(driver).tables.clock()
    await sweep_at(driver, now)
    cog.connected = lambda shard: False  # type: ignore[attr-defined]
    await sweep_at(driver, now + 30)
    cog.connected = lambda shard: True  # type: ignore[attr-defined]
    await sweep_at(driver, now + 60)
    since = len(driver.requests)
    await driver.slash("history", {}, user_id=ALICE_ID)
    assert _fetches(driver, since) == [f"/channels/{GAMES_CHANNEL_ID}/messages/{kept}"]


def test_a_name_cannot_add_a_link_to_look_at() -> None:
    """The links looked at are read from the answer's text: a member's name holding a message
    address is shown through ``plain``, which breaks it, so it is not one of them."""
    address = f"https://discord.com/channels/{GUILD_ID}/{GAMES_CHANNEL_ID}/5"
    line = f"vs {plain(address)}: **won** — [table]({address[:-1]}6)"
    assert linked_messages(line) == [(GAMES_CHANNEL_ID, 6)]

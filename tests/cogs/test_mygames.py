"""/mygames: a member's games in play on the server, those waiting for them first."""

from __future__ import annotations

import asyncio
import time

import discord
import pytest

import cogs.mygames
from bot.engine.dragon.damage import kill
from bot.playing import InPlay, in_play, playing_lines
from bot.store.base import GuildSettings, SeatRecord
from cogs.mygames import NOTHING
from cogs.seat_names import place_name
from cogs.ui import LINK_BREAK, whole_lines
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import stacked_mille
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

DRAGON_CHANNEL = GAMES_CHANNEL_ID + 1
OTHER_SERVER_CHANNEL = GAMES_CHANNEL_ID + 2


async def _dragon(driver: InteractionDriver, guild_id: int = GUILD_ID) -> None:
    """Bob, Alice and Carol in a Dragon arena, Bob to move first."""
    await running_bot(driver).tables.start(
        channel_id=DRAGON_CHANNEL if guild_id == GUILD_ID else OTHER_SERVER_CHANNEL,
        guild_id=guild_id,
        game_key="dragon",
        seats=[
            SeatRecord(0, "Bob", user_id=BOB_ID),
            SeatRecord(1, "Alice", user_id=ALICE_ID),
            SeatRecord(2, "Carol", user_id=CAROL_ID),
        ],
        seed=5,
    )


async def test_nothing_in_play_says_how_to_start(driver: InteractionDriver) -> None:
    result = await driver.slash("mygames", {}, user_id=ALICE_ID)
    assert result.ephemeral and result.content == NOTHING


async def test_games_waiting_for_you_come_first(driver: InteractionDriver) -> None:
    """Alice plays Dragon (Bob's move) and then Mille Bornes (hers): the Mille Bornes game is
    listed first, with her turn timer and a link to its table; the arena says whom it waits
    for."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 600, "computer"))
    await _dragon(driver)
    await stacked_mille(driver)
    await driver.slash("table", {}, user_id=ALICE_ID)
    table = (await bot.tables.current(GAMES_CHANNEL_ID)).message_id
    result = await driver.slash("mygames", {}, user_id=ALICE_ID)
    assert result.ephemeral
    head, mille, dragon = (result.content or "").splitlines()
    assert head == "**Your games here** — 2 in play, 1 waiting for you"
    assert mille.startswith(f"**Mille Bornes** in <#{GAMES_CHANNEL_ID}> against Bob: **your move**")
    assert "time runs out <t:" in mille
    assert f"[table](https://discord.com/channels/{GUILD_ID}/{GAMES_CHANNEL_ID}/{table})" in mille
    assert dragon.startswith(f"**Dragon Mille Bornes** in <#{DRAGON_CHANNEL}> against Bob, Carol")
    assert "waiting for Bob" in dragon


async def test_the_other_player_sees_whom_it_waits_for(driver: InteractionDriver) -> None:
    await stacked_mille(driver)
    result = await driver.slash("mygames", {}, user_id=BOB_ID)
    lines = (result.content or "").splitlines()
    assert lines[0] == "**Your games here** — 1 in play, 0 waiting for you"
    assert "against Alice: waiting for Alice" in lines[1]


async def test_a_game_left_or_on_another_server_is_not_listed(driver: InteractionDriver) -> None:
    """Carol resigned from the arena (the others play on), and Alice's other arena is on
    another server: neither is Carol's or this server's to list."""
    await _dragon(driver)
    await _dragon(driver, guild_id=GUILD_ID + 99)
    await running_bot(driver).tables.leave(channel_id=DRAGON_CHANNEL, user_id=CAROL_ID)
    carol = await driver.slash("mygames", {}, user_id=CAROL_ID)
    assert carol.content == NOTHING
    alice = await driver.slash("mygames", {}, user_id=ALICE_ID)
    assert (alice.content or "").startswith("**Your games here** — 1 in play")
    assert str(OTHER_SERVER_CHANNEL) not in (alice.content or "")


async def test_a_member_who_left_is_nobodys_opponent(driver: InteractionDriver) -> None:
    """Carol resigned from the arena and Alice and Bob play on: Alice's line names Bob alone
    (it went on naming Carol among her opponents)."""
    await _dragon(driver)
    await running_bot(driver).tables.leave(channel_id=DRAGON_CHANNEL, user_id=CAROL_ID)
    alice = await driver.slash("mygames", {}, user_id=ALICE_ID)
    line = (alice.content or "").splitlines()[1]
    assert line.startswith(f"**Dragon Mille Bornes** in <#{DRAGON_CHANNEL}> against Bob: "), line


async def test_names_are_plain_text(driver: InteractionDriver) -> None:
    """An opponent named like markup shows as typed; the line's own bold stays bold."""
    await stacked_mille(driver, SeatRecord(1, "**Bob** [x](https://evil.example)", user_id=BOB_ID))
    result = await driver.slash("mygames", {}, user_id=ALICE_ID)
    line = (result.content or "").splitlines()[1]
    bob = f"\\*\\*Bob\\*\\* \\[x](https{LINK_BREAK}evil.example)"
    assert f"against {bob}: **your move**" in line, line


def test_your_moves_are_listed_soonest_deadline_first() -> None:
    """Among the games waiting for the member, the one whose time runs out first leads and
    untimed ones come last; games waiting for others keep their order after them."""
    deadlines = {1: 9_000.0, 2: None, 3: 3_000.0, 4: 1_000.0, 5: 6_000.0}
    games = [
        InPlay("Mille Bornes", channel, None, ("Bob",), channel != 4, (), deadlines[channel])
        for channel in deadlines
    ]
    channels = [int(line.split("<#")[1].split(">")[0]) for line in playing_lines(games, escape=str)]
    assert channels == [3, 5, 1, 2, 4]


def test_a_long_list_is_cut_at_whole_lines_with_a_count() -> None:
    games = [InPlay("Mille Bornes", n, None, ("Bob",), n % 2 == 0, (), None) for n in range(20)]
    whole = playing_lines(games, escape=str)
    assert len(whole) == 20 and all("**your move**" in line for line in whole[:10])
    assert whole[10].endswith("against Bob: waiting")
    room = sum(len(line) + 1 for line in whole[:7])
    cut = whole_lines(whole, room, lambda n: f"… and {n} more.")
    assert cut[-1] == f"… and {len(games) - len(cut) + 1} more."
    assert cut[:-1] == whole[: len(cut) - 1] and sum(len(line) + 1 for line in cut) <= room + 1
    assert whole_lines(whole, 10_000, str) == whole


async def test_many_long_games_fit_one_message(driver: InteractionDriver) -> None:
    """Forty games against long, markup-heavy names still make one message Discord takes (the
    fake refuses anything over 2 000 characters), with whole lines and a count of the rest."""
    tables = running_bot(driver).tables
    long_name = "*_" * 16
    for n in range(40):
        await tables.start(
            channel_id=GAMES_CHANNEL_ID + 100 + n,
            guild_id=GUILD_ID,
            game_key="mille",
            seats=[
                SeatRecord(0, "Alice", user_id=ALICE_ID),
                SeatRecord(1, long_name, user_id=BOB_ID),
            ],
            seed=n,
        )
    content = (await driver.slash("mygames", {}, user_id=ALICE_ID)).content or ""
    lines = content.splitlines()
    assert lines[0].startswith("**Your games here** — 40 in play")
    assert lines[-1].startswith("… and ") and len(content) <= 2000
    assert all(line.startswith("**Mille Bornes** in <#") for line in lines[1:-1])


async def test_a_driver_killed_in_the_arena_is_told_they_are_out(driver: InteractionDriver) -> None:
    """Carol's driver died; the arena plays on and keeps her seat (the result is hers too), so
    the game is still listed. It said "waiting for Bob", as if her move would come; it now says
    she is out."""
    tables = running_bot(driver).tables
    await _dragon(driver)
    (stored,) = await tables.store.games_of_member(CAROL_ID, active=True)
    here = tables.position(stored)
    assert not in_play(here, CAROL_ID).knocked_out
    kill(here.state, 2, 0)
    assert here.game.out(here.state) == {2}
    line = playing_lines([in_play(here, CAROL_ID)], escape=str)[0]
    # (No table posted in this test, so /table is named where its link would be.)
    assert ": you are out, the others play on (waiting for Bob) · `/table`" in line, line
    assert not in_play(here, ALICE_ID).knocked_out


async def _posted_table(driver: InteractionDriver) -> int:
    """Alice against Bob at Mille Bornes, its table posted by /table: the message's id."""
    await stacked_mille(driver)
    await driver.slash("table", {}, user_id=BOB_ID)
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id is not None and stored.message_id in driver.backend.messages
    return stored.message_id


async def test_a_table_a_moderator_deleted_is_not_linked(driver: InteractionDriver) -> None:
    """A moderator deletes the game's table. Found by a review: /mygames linked to it until
    the next move posted another, and the link opened nothing. Discord's MESSAGE_DELETE now
    has the bot forget it: /mygames says /table posts the table again; the game is as it was
    (same version, same turn)."""
    bot = running_bot(driver)
    table = await _posted_table(driver)
    before = await bot.tables.current(GAMES_CHANNEL_ID)
    driver.backend.delete_by_moderator(GAMES_CHANNEL_ID, table)
    await driver.deliver_events()
    result = await driver.slash("mygames", {}, user_id=ALICE_ID)
    (_, line) = (result.content or "").splitlines()
    assert "discord.com/channels" not in line
    assert line.endswith("**your move** · `/table` there posts the table again")
    after = await bot.tables.current(GAMES_CHANNEL_ID)
    assert (after.version, after.state, after.message_id) == (before.version, before.state, None)


async def test_a_purge_that_takes_the_table_is_seen_too(driver: InteractionDriver) -> None:
    """A moderator purges the channel's last messages, the table among members' chat
    (MESSAGE_DELETE_BULK): the same. A purge of chat alone keeps the link."""
    table = await _posted_table(driver)
    chat = [
        int(driver.backend.create_user_message(GAMES_CHANNEL_ID, CAROL_ID, f"chat {n}")["id"])
        for n in range(3)
    ]
    driver.backend.delete_by_moderator(GAMES_CHANNEL_ID, *chat[:2])
    await driver.deliver_events()
    linked = await driver.slash("mygames", {}, user_id=ALICE_ID)
    assert f"/{GAMES_CHANNEL_ID}/{table})" in str(linked.content)
    driver.backend.delete_by_moderator(GAMES_CHANNEL_ID, table, chat[2])
    await driver.deliver_events()
    result = await driver.slash("mygames", {}, user_id=ALICE_ID)
    assert "discord.com/channels" not in str(result.content)
    assert str(result.content).endswith("`/table` there posts the table again")


async def test_table_posts_again_at_once_after_a_moderator_deleted_it(
    driver: InteractionDriver,
) -> None:
    """/table refuses a second post within half a minute, pointing at the table just posted.
    Found by a review: with that table deleted by a moderator, the refusal pointed at nothing
    and the channel had no table for the half minute. It posts again now."""
    table = await _posted_table(driver)
    driver.backend.delete_by_moderator(GAMES_CHANNEL_ID, table)
    await driver.deliver_events()
    again = await driver.slash("table", {}, user_id=BOB_ID)
    assert not again.ephemeral
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert stored.message_id is not None and stored.message_id in driver.backend.messages


async def test_in_a_direct_message_a_game_names_its_server_and_links_its_channel(
    driver: InteractionDriver,
) -> None:
    """Alice asks /mygames in her direct messages with the bot: her Mille Bornes game on the
    server, and a Dragon arena on a server whose name this bot does not know. Each said only
    "in <#channel id>", a mention that in a direct message opens nothing. Now each names its
    server (and the channel, when known) and links to the channel; on the server the mention
    stays."""
    table = await _posted_table(driver)
    await _dragon(driver, guild_id=GUILD_ID + 99)
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    listed = await driver.slash("mygames", {}, user_id=ALICE_ID, channel_id=direct)
    assert listed.ephemeral
    head, mille, dragon = (listed.content or "").splitlines()
    assert head == "**Your games** — 2 in play, 1 waiting for you", head
    assert mille == (
        "**Mille Bornes** in #games on Junction Test Guild against Bob: **your move** · "
        f"[channel](https://discord.com/channels/{GUILD_ID}/{GAMES_CHANNEL_ID}) · "
        f"[table](https://discord.com/channels/{GUILD_ID}/{GAMES_CHANNEL_ID}/{table})"
    ), mille
    assert dragon.startswith("**Dragon Mille Bornes** on a server against Bob, Carol: "), dragon
    elsewhere = f"https://discord.com/channels/{GUILD_ID + 99}/{OTHER_SERVER_CHANNEL}"
    assert f" · [channel]({elsewhere})" in dragon, dragon
    assert "<#" not in (listed.content or "")
    here = await driver.slash("mygames", {}, user_id=ALICE_ID)
    assert f"**Mille Bornes** in <#{GAMES_CHANNEL_ID}> against Bob" in str(here.content)
    assert "[channel]" not in str(here.content)


async def test_in_a_direct_message_a_server_name_is_plain_text(
    driver: InteractionDriver,
) -> None:
    """A server named with markdown and a web address is shown as typed, never a link of the
    bot's own."""
    driver.backend.rename_guild("**Big** [x](https://evil.example)")
    await driver.deliver_events()
    await stacked_mille(driver)
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    listed = await driver.slash("mygames", {}, user_id=ALICE_ID, channel_id=direct)
    line = (listed.content or "").splitlines()[1]
    server = f"\\*\\*Big\\*\\* \\[x](https{LINK_BREAK}evil.example)"
    assert line.startswith(f"**Mille Bornes** in #games on {server} against Bob"), line


async def test_in_a_direct_message_a_game_there_is_said_to_be_there(
    driver: InteractionDriver,
) -> None:
    """Alice plays Mille Bornes Solo in her direct messages with the bot and has a game on the
    server. /mygames there listed the solitaire "in <#her direct messages' id>", a mention of
    the very conversation she reads it in, which names no channel and opens nothing. It now reads
    "in our direct messages", with neither mention nor link (the table is right there); on the
    server, where the list is of the server's games, it is not listed."""
    await stacked_mille(driver)
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    dealt = await driver.slash("play", {"game": "solo"}, user_id=ALICE_ID, channel_id=direct)
    assert not dealt.ephemeral and driver.backend.channel_messages(direct)
    (solo,) = [
        game
        for game in await running_bot(driver).tables.store.games_of_member(ALICE_ID, active=True)
        if game.channel_id == direct
    ]
    assert solo.guild_id is None and solo.game_key == "solo"
    listed = await driver.slash("mygames", {}, user_id=ALICE_ID, channel_id=direct)
    head, *lines = (listed.content or "").splitlines()
    assert head == "**Your games** — 2 in play, 2 waiting for you", head
    assert "**Mille Bornes Solo** in our direct messages (alone): **your move**" in lines, lines
    assert "<#" not in (listed.content or "")
    here = await driver.slash("mygames", {}, user_id=ALICE_ID)
    assert (here.content or "").startswith("**Your games here** — 1 in play"), here.content
    assert "Solo" not in (here.content or "") and str(direct) not in (here.content or "")


async def test_in_a_direct_message_a_server_the_member_left_is_not_named(
    driver: InteractionDriver,
) -> None:
    """Alice leaves the server (or is removed) while seated at Mille Bornes there, and the
    moderators rename its channel and the server. /mygames in her direct messages read the
    new names from the bot's cache ("in #ban-alice on Mods Only"), names she can no longer see
    in Discord (the old "<#id>" showed her none). A server she is not on is now "on a server",
    its channel still linked; the same game named for Bob, who is still there."""
    await stacked_mille(driver)
    driver.backend.edit_by_moderator(GAMES_CHANNEL_ID, name="ban-alice")
    driver.backend.rename_guild("Mods Only")
    await driver.deliver_events()
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    driver.backend.leave_server(ALICE_ID)
    listed = await driver.slash("mygames", {}, user_id=ALICE_ID, channel_id=direct)
    text = listed.content or ""
    assert "Mods Only" not in text and "ban-alice" not in text, text
    link = f"[channel](https://discord.com/channels/{GUILD_ID}/{GAMES_CHANNEL_ID})"
    assert "**Mille Bornes** on a server against Bob: " in text and link in text, text
    bob_s = await driver.slash(
        "mygames", {}, user_id=BOB_ID, channel_id=int(driver.backend.dm_channel_for(BOB_ID)["id"])
    )
    assert "**Mille Bornes** in #ban-alice on Mods Only against Alice" in str(bob_s.content)


async def test_in_a_direct_message_a_channel_the_member_cannot_see_is_not_named(
    driver: InteractionDriver,
) -> None:
    """Bob is still on the server, but the channel of his game is closed to him since (an
    overwrite denying him View Channel) and renamed: the server is named, the channel not."""
    await stacked_mille(driver)
    channel = driver.backend.world.channel_by_name("games")
    view = discord.Permissions(view_channel=True).value
    closed = {"id": str(BOB_ID), "type": 1, "allow": "0", "deny": str(view)}
    overwrites = [*(channel.get("permission_overwrites") or []), closed]
    driver.backend.edit_by_moderator(
        GAMES_CHANNEL_ID, name="ban-bob", permission_overwrites=overwrites
    )
    await driver.deliver_events()
    direct = int(driver.backend.dm_channel_for(BOB_ID)["id"])
    listed = await driver.slash("mygames", {}, user_id=BOB_ID, channel_id=direct)
    text = listed.content or ""
    assert "ban-bob" not in text, text
    assert "**Mille Bornes** on Junction Test Guild against Alice: " in text, text
    alice_s = await driver.slash(
        "mygames",
        {},
        user_id=ALICE_ID,
        channel_id=int(driver.backend.dm_channel_for(ALICE_ID)["id"]),
    )
    assert "**Mille Bornes** in #ban-bob on Junction Test Guild against Bob" in str(alice_s.content)


async def test_in_a_direct_message_a_private_thread_is_named_to_its_members_only(
    driver: InteractionDriver,
) -> None:
    """Bob and Carol play in a private thread; a moderator takes Bob out of it and renames it.
    Carol, still in it, reads its name; Bob, who can no longer open it, reads none (his game
    still listed, on the server, its link kept)."""
    thread = driver.backend.open_private_thread(GAMES_CHANNEL_ID, "bob-and-carol", BOB_ID, CAROL_ID)
    await driver.deliver_events()
    await running_bot(driver).tables.start(
        channel_id=thread,
        guild_id=GUILD_ID,
        game_key="mille",
        seats=[SeatRecord(0, "Bob", user_id=BOB_ID), SeatRecord(1, "Carol", user_id=CAROL_ID)],
        seed=3,
    )
    driver.backend.remove_from_thread(thread, BOB_ID)
    driver.backend.edit_by_moderator(thread, name="without-bob")
    await driver.deliver_events()

    async def listed(user_id: int) -> str:
        direct = int(driver.backend.dm_channel_for(user_id)["id"])
        answer = await driver.slash("mygames", {}, user_id=user_id, channel_id=direct)
        return answer.content or ""

    carol_s = await listed(CAROL_ID)
    assert "**Mille Bornes** in #without-bob on Junction Test Guild against Bob" in carol_s
    bob_s = await listed(BOB_ID)
    assert "without-bob" not in bob_s, bob_s
    assert "**Mille Bornes** on Junction Test Guild against Carol" in bob_s, bob_s
    assert f"[channel](https://discord.com/channels/{GUILD_ID}/{thread})" in bob_s, bob_s


async def test_in_a_direct_message_server_and_channel_names_are_shown_as_seat_names_are(
    driver: InteractionDriver,
) -> None:
    """A server or channel name is anyone's words, as a member's name is, and went through
    markdown escaping only: a right-to-left override turned the rest of the line backwards
    ("against Bob: your move"), "<@id>" and "<#id>" showed as a member and a channel that were
    never there, a line break split the line, and a name under thirty accents smeared the lines
    around it. They are shown now as seat names are (cogs.seat_names): format characters out,
    Discord's syntax defused ("‹"), one line, a few accents."""
    zalgo = "Z" + "".join(chr(c) for c in range(0x0300, 0x031F))
    driver.backend.rename_guild(f"\u202eMods <@{BOB_ID}>\n# big {zalgo}")
    driver.backend.edit_by_moderator(GAMES_CHANNEL_ID, name=f"ga\u200bmes <#{GAMES_CHANNEL_ID}>")
    await driver.deliver_events()
    await stacked_mille(driver)
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    listed = await driver.slash("mygames", {}, user_id=ALICE_ID, channel_id=direct)
    _, line = (listed.content or "").splitlines()
    assert "\u202e" not in line and "\u200b" not in line, repr(line)
    assert f"<@{BOB_ID}>" not in line and f"<#{GAMES_CHANNEL_ID}>" not in line, line
    assert line.startswith(
        f"**Mille Bornes** in #games ‹#{GAMES_CHANNEL_ID}> on Mods ‹@{BOB_ID}> # big Z"
    ), line
    assert sum(0x0300 <= ord(char) < 0x031F for char in line) <= 2, line


def test_a_place_name_showing_nothing_is_not_named() -> None:
    """A name of invisible or blank characters only is no name ("in # on …" said nothing);
    Discord's 100 characters are kept whole, and right-to-left writing is isolated."""
    assert place_name("\u200b\u2800 \u202e") is None
    assert place_name("x" * 150) == "x" * 100
    assert place_name("قناة") == "\u2068قناة\u2069"


async def test_in_a_direct_message_discord_slow_to_say_leaves_the_names_out(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Which servers the member is on is asked of Discord before /mygames answers, within its
    three seconds: a Discord slow to say (a rate limit) would have the answer come too late.
    Past NAMES_SECONDS the games are listed all the same, on "a server", linked."""
    await stacked_mille(driver)
    asked: list[int] = []

    async def slow(guild: discord.Guild, user_id: int) -> discord.Member:
        asked.append(user_id)
        await asyncio.sleep(30)
        raise AssertionError("waited for")

    monkeypatch.setattr(discord.Guild, "fetch_member", slow)
    monkeypatch.setattr(cogs.mygames, "NAMES_SECONDS", 0.2)
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    began = time.monotonic()
    listed = await driver.slash("mygames", {}, user_id=ALICE_ID, channel_id=direct)
    assert time.monotonic() - began < 2
    assert asked == [ALICE_ID]
    text = listed.content or ""
    assert "**Mille Bornes** on a server against Bob: **your move**" in text, text
    assert f"[channel](https://discord.com/channels/{GUILD_ID}/{GAMES_CHANNEL_ID})" in text

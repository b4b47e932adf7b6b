"""A member's direct messages with the bot played through the fake Discord, as a member and as a
hostile one would: solitaires and games against the computer there, with the commands around
them. Each test says, in its docstring, what a member saw before its fix."""

from __future__ import annotations

from cogs.help import GETTING_STARTED
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alt_text_of, public_table, replies, sweep_after
from tests.discord.backend import ALICE_ID, BOB_ID
from tests.discord.payloads import InteractionDriver


async def test_a_leaderboard_asked_in_a_direct_message_is_the_one_across_servers(
    driver: InteractionDriver,
) -> None:
    """Alice, who plays Mille Bornes Solo in her direct messages with the bot, asks there for
    /leaderboard game:solo, leaving out the scope. She read "Server
    leaderboards live in servers; use scope: all servers.", refused for an option she never
    gave. Now the scope left out is the board of where she asks: across servers, where her
    direct-message games rank."""
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    await driver.slash("play", {"game": "solo"}, channel_id=direct)
    await driver.slash("resign", {}, channel_id=direct)
    board = await driver.slash("leaderboard", {"game": "solo"}, channel_id=direct)
    alt = alt_text_of(board, "leaderboard.png")
    assert alt.startswith("Leaderboard: Mille Bornes Solo — all servers"), (alt, replies(board))
    assert "alice" in alt, alt
    # Asked for by name, this server's board is still refused there, in one sentence.
    refused = await driver.slash(
        "leaderboard", {"game": "solo", "scope": "server"}, channel_id=direct
    )
    assert refused.ephemeral
    assert replies(refused) == "Server leaderboards live in servers; use scope: all servers."


async def test_help_in_a_direct_message_starts_games_as_they_start_there(
    driver: InteractionDriver,
) -> None:
    """Alice asks /help in her direct messages with the bot. It told her to start a game with
    `/play`, `/challenge` (invite members) or `/host` (a table anyone joins), and the last two
    are refused there ("Invitations and open tables are posted on a server…"). Now it names
    /play for here and sends games with members to a server's channel; on a server it reads as
    it did."""
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    (embed,) = (await driver.slash("help", {}, channel_id=direct)).responses[0].embeds
    start = str(embed["description"])
    assert "Here, in our direct messages, start one with `/play`" in start, start
    assert "`/host`) start in a server's channel" in start, start
    # What it sends to a server is refused here, and what it names for here works.
    assert (await driver.slash("host", {"game": "mille"}, channel_id=direct)).ephemeral
    played = await driver.slash("play", {"game": "solo"}, channel_id=direct)
    assert not played.ephemeral, replies(played)
    (on_server,) = (await driver.slash("help", {})).responses[0].embeds
    assert on_server["description"] == GETTING_STARTED


async def test_settings_in_a_direct_message_say_what_times_a_game_there(
    driver: InteractionDriver,
) -> None:
    """Alice, who set her server's turn timer to five minutes (forfeit), plays Mille Bornes
    Solo in her direct messages with the bot and asks /settings there. She read "Settings
    belong to a server." and no more: whether her game there could run out of time, and
    forfeit, was left to guess. Now she reads that a game there has no turn timer (nobody
    waits on her) and how long a reaction window stays open; and her game there has no
    deadline, an hour of the timers' clock later still hers to play."""
    await driver.slash("settings", {"turn_timer": 5, "on_timeout": "forfeit"})
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    await driver.slash("play", {"game": "solo"}, channel_id=direct)
    asked = await driver.slash("settings", {}, channel_id=direct)
    assert asked.ephemeral
    assert replies(asked) == (
        "Settings belong to a server. A game in our direct messages has no turn timer, and 45 "
        "seconds to react out of turn."
    ), replies(asked)
    tables = running_bot(driver).tables
    game = await tables.current(direct)
    assert (game.turn_deadline, game.remind_at) == (None, None)
    await sweep_after(driver, 3600)
    after = await tables.current(direct)
    assert (after.id, after.status) == (game.id, game.status)
    assert await tables.store.moves(game.id) == []


async def test_history_in_a_direct_message_links_a_game_played_there(
    driver: InteractionDriver,
) -> None:
    """Alice plays Mille Bornes Solo in her direct messages with the bot, gives it up, and asks
    /history there. Her games on servers came with a link to their last table; the one played
    right there came with none, to be scrolled back for. Now it links to its last table, in
    her direct messages (Discord's "@me" address), which the fake Discord still holds."""
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    await driver.slash("play", {"game": "solo"}, channel_id=direct)
    ended = public_table(await driver.slash("resign", {}, channel_id=direct))
    (line,) = replies(await driver.slash("history", {}, channel_id=direct)).split("\n")[1:]
    link = f"https://discord.com/channels/@me/{direct}/{ended.message_id}"
    assert line.endswith(f" — [table]({link})"), line
    assert ended.message_id in {int(m["id"]) for m in driver.backend.channel_messages(direct)}


async def test_todays_deal_board_asked_in_a_direct_message_is_sent_to_a_server(
    driver: InteractionDriver,
) -> None:
    """Alice asks /leaderboard game:solo period:today's deal in her direct messages with the
    bot. She read "There is no daily deal across servers: each server deals its own. Compare
    it with scope: this server.", and scope: this server there read "Server leaderboards live
    in servers; use scope: all servers.": each refusal sent her to the other. Now she is sent
    to a server, whatever the scope, and the board is there."""
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    for scope in ({}, {"scope": "global"}):
        asked = await driver.slash(
            "leaderboard", {"game": "solo", "period": "daily", **scope}, channel_id=direct
        )
        assert asked.ephemeral
        assert replies(asked) == (
            "Today's deal is ranked on each server's own board: ask for it there."
        ), replies(asked)
    on_server = await driver.slash("leaderboard", {"game": "solo", "period": "daily"})
    assert alt_text_of(on_server, "leaderboard.png").startswith(
        "Leaderboard: Mille Bornes Solo — this server"
    )


async def test_refusals_in_a_direct_message_say_here_not_this_channel(
    driver: InteractionDriver,
) -> None:
    """Alice plays in her direct messages with the bot, where there is no channel in her eyes:
    /table with no game read "There is no game running in this channel.", a second /play "A
    game is already running in this channel. …", and /replay "No game has finished in this
    channel yet." Now each says "here", as it does on a server."""
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    none = await driver.slash("table", {}, channel_id=direct)
    assert none.ephemeral
    assert replies(none) == "There is no game running here. Start one with /play.", replies(none)
    nothing = await driver.slash("replay", {}, channel_id=direct)
    assert nothing.ephemeral and replies(nothing) == "No game has finished here yet.", replies(
        nothing
    )
    await driver.slash("play", {"game": "solo"}, channel_id=direct)
    again = await driver.slash("play", {"game": "solo"}, channel_id=direct)
    assert again.ephemeral
    assert replies(again) == (
        "A game is already running here. Finish it, or /resign or /abort it first."
    ), replies(again)
    for said in (replies(none), replies(nothing), replies(again)):
        assert "channel" not in said, said


async def test_a_replay_in_a_direct_message_names_the_game_finished_here(
    driver: InteractionDriver,
) -> None:
    """Alice finishes a Mille Bornes Solo in her direct messages with the bot, aborts the next
    and asks /replay there. The note read "…Replay of game #1, the last game finished in this
    channel", in a conversation she never thought of as a channel. Now: "finished here"."""
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    await driver.slash("play", {"game": "solo"}, channel_id=direct)
    await driver.slash("resign", {}, channel_id=direct)
    await driver.slash("play", {"game": "solo"}, channel_id=direct)
    await driver.slash("abort", {}, channel_id=direct)
    replay = await driver.slash("replay", {}, channel_id=direct)
    said = " ".join([replies(replay), alt_text_of(replay, "replay.gif")])
    assert "Replay of game #1, the last game finished here" in said, said
    assert "this channel" not in said, said


async def test_challenge_in_a_direct_message_names_solitaires_too(
    driver: InteractionDriver,
) -> None:
    """Alice types /challenge in her direct messages with the bot. She read "Here, /play
    against the computer.", as if that were all /play did there, where her Mille Bornes Solo
    is played alone. Now it names both, as /help there does, and the solitaire it names
    starts."""
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    asked = await driver.slash("challenge", {"game": "mille", "member": BOB_ID}, channel_id=direct)
    assert asked.ephemeral
    assert replies(asked) == (
        "Invitations and open tables are posted on a server, where other members can see "
        "them. Here, /play against the computer, or alone."
    ), replies(asked)
    played = await driver.slash("play", {"game": "solo"}, channel_id=direct)
    assert not played.ephemeral, replies(played)


async def test_help_in_a_direct_message_lists_the_game_commands_for_here(
    driver: InteractionDriver,
) -> None:
    """Alice asks /help in her direct messages with the bot. Its commands read "/move — Make a
    move in this channel's game", and /table, /resign and /abort alike, where she is in no
    channel; /replay and /mygames already said "here". Now the four say "the game here", and
    the descriptions Discord shows in its command picker are those same words."""
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    embeds = (await driver.slash("help", {}, channel_id=direct)).responses[0].embeds
    listed = "\n".join(
        str(field["value"])
        for embed in embeds
        for field in embed.get("fields", [])
        if str(field["name"]).startswith("Commands")
    )
    assert "`/move` — Make a move in the game here" in listed, listed
    assert "`/table` — Post the game's table here again" in listed, listed
    assert "`/resign` — Leave the game here" in listed, listed
    assert "`/abort` — End the game here with no result" in listed, listed
    assert "this channel" not in listed, listed

"""Classic Mille Bornes and Mille Bornes Solo played through the fake Discord as a newcomer and
as a hostile member would, with the commands around them (/stats, /history, /leaderboard,
/settings, old buttons). Each test says, in its docstring, what a member saw before its fix.
"""

from __future__ import annotations

from bot.games.bundle import ButtonSpec
from bot.render.solo import _headline as solo_banner
from bot.store.base import GuildSettings, SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    MILLE_DECK,
    alice_against,
    alt_text_of,
    public_table,
    replies,
    solo_table,
    stacked_mille,
    sweep_after,
    typed_as_it_reads,
)
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

COMPUTER = SeatRecord(1, "Computer", policy="normal")


async def test_a_match_resigned_in_its_first_hand_posts_no_empty_score_sheet(
    driver: InteractionDriver,
) -> None:
    """Alice resigns her match against the computer before the first hand is over. The last
    table came with a second picture, a score sheet reading only "No hand has finished yet",
    which a screen reader announced as "(empty)". Now the last table comes alone: it and its
    caption say who won and why."""
    await stacked_mille(driver, COMPUTER)
    ended = public_table(await driver.slash("resign", {}))
    names = [attachment["filename"] for attachment in ended.attachments]
    assert names == ["table.png"], names
    assert "Alice left the game." in (ended.content or ""), ended.content


async def test_an_open_table_is_not_posted_in_a_direct_message(
    driver: InteractionDriver,
) -> None:
    """Alice types /host in her direct messages with the bot. It posted an open table there,
    "press Join to take one", which nobody else could ever see, let alone join: it waited out
    its five minutes. Now she reads why not, privately, and nothing is stored or posted."""
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    hosted = await driver.slash("host", {"game": "mille"}, channel_id=direct)
    assert hosted.ephemeral, replies(hosted)
    assert replies(hosted) == (
        "Invitations and open tables are posted on a server, where other members can see "
        "them. Here, /play against the computer, or alone."
    ), replies(hosted)
    assert driver.backend.channel_messages(direct) == []
    store = running_bot(driver).tables.store
    assert await store.lobbies_due(float("inf"), 10) == []


async def test_mygames_in_a_direct_message_lists_the_games_on_servers(
    driver: InteractionDriver,
) -> None:
    """Alice has a Mille Bornes match waiting for her on the server and asks /mygames in her
    direct messages with the bot, where /history and /stats cover every server. She read "You
    are not playing any game on this server." Now she gets that game, her move, with a link
    to its table."""
    await stacked_mille(driver)
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    listed = await driver.slash("mygames", {}, channel_id=direct)
    assert listed.ephemeral
    head, line = replies(listed).split("\n")
    assert head == "**Your games** — 1 in play, 1 waiting for you", head
    # A channel mention leads nowhere in a direct message: the server is named instead.
    assert line.startswith(
        "**Mille Bornes** in #games on Junction Test Guild against Bob: **your move**"
    ), line


async def test_a_solo_move_typed_as_its_suggestion_reads_is_played(
    driver: InteractionDriver,
) -> None:
    """Alice types into /move the words of a suggestion the list showed her ("200 miles on Right
    of Way (highway 1) +200") and sends them without picking it. She read "There is no Mille
    Bornes card called '200 miles right of way +200'"; the move she named is now played, as in
    Mille Bornes, where "Play Go" is understood."""
    bot = running_bot(driver)
    await driver.slash("play", {"game": "solo"})
    suggested = (await driver.autocomplete("move", "action", "")).choices[0]
    played = await driver.slash("move", {"action": suggested["name"]})
    assert not played.ephemeral, replies(played)
    (move,) = await bot.tables.store.moves((await bot.tables.current(GAMES_CHANNEL_ID)).id)
    assert move.action == suggested["value"].split("§")[0], (move.action, suggested)


async def test_a_solo_move_typed_as_its_button_reads_is_played(
    driver: InteractionDriver,
) -> None:
    """The same with a table button's words ("5: 75 miles on 75 miles"), typed into /move."""
    stored, offered = await solo_table(driver)
    button = offered[-1]
    assert isinstance(button, ButtonSpec)
    await typed_as_it_reads(driver, stored, button)


async def test_a_mille_move_typed_as_its_suggestion_reads_is_played(
    driver: InteractionDriver,
) -> None:
    """Alice, driving, types the words of the suggestion she read ("Drive 100 miles") into
    /move without picking it. She read "I don't understand 'Drive 100 miles'" (and so for
    "Stop on Bob", "Draw a card", "Extension: go on to 1000 miles"): it is now played."""
    bot = running_bot(driver)
    game = (await stacked_mille(driver, COMPUTER)).game
    await driver.slash("move", {"action": "play go"})
    choices = (await driver.autocomplete("move", "action", "")).choices
    drive = next(c for c in choices if c["name"].startswith("Drive "))
    played = await driver.slash("move", {"action": drive["name"]})
    assert not played.ephemeral, replies(played)
    mine = [m.action for m in await bot.tables.store.moves(game.id) if m.seat == 0]
    assert mine == ["play go", drive["value"].split("§")[0]], (mine, drive)


async def test_a_game_typed_by_its_title_is_that_game(driver: InteractionDriver) -> None:
    """A newcomer types "Mille Bornes Solo" in /play's game field, as the suggestions write it,
    and sends it without picking one. They read "There is no game called 'mille bornes
    solo'"; the solitaire is now dealt."""
    bot = running_bot(driver)
    played = await driver.slash("play", {"game": "Mille Bornes Solo"})
    assert not played.ephemeral, replies(played)
    assert (await bot.tables.current(GAMES_CHANNEL_ID)).game_key == "solo"


async def test_the_options_field_suggests_the_next_option_after_a_space(
    driver: InteractionDriver,
) -> None:
    """Alice picks "deck:modern" in /play's options and types a space for the next one. The
    only suggestion was "deck:modern" again, so she never saw the other options; now each
    other option comes after it, and no second deck."""
    found = await driver.autocomplete("play", "options", "deck:modern ", {"game": "mille"})
    values = [choice["value"] for choice in found.choices]
    assert values == [
        "deck:modern length:match",
        "deck:modern length:hand",
        "deck:modern names:en",
        "deck:modern names:fr",
    ], values


async def test_a_typed_draw_over_a_coup_fourre_says_where_the_card_is(
    driver: InteractionDriver,
) -> None:
    """Bob's Accident hits Alice, who holds the Driving Ace; she types /move draw rather than
    the coup fourré. Nothing public changes, so no table is posted, and she read only "Done.",
    with no word of the card she drew or where to see it. Now she is pointed to her hand."""
    bot = running_bot(driver)
    deck = ["go", "driving-ace", "75", "75", "75", "50", "accident", *["50"] * 5, *["25"] * 6]
    await alice_against(driver, deck=deck)
    await driver.slash("move", {"action": "play go"})
    await driver.slash("move", {"action": "play accident"}, user_id=BOB_ID)
    drew = await driver.slash("move", {"action": "draw"})
    assert drew.ephemeral
    assert replies(drew) == "Done. Press **My hand** under the table to see your cards."
    assert (await bot.tables.current(GAMES_CHANNEL_ID)).version == 3


async def test_a_match_forfeited_on_the_turn_timer_does_not_say_resigned(
    driver: InteractionDriver,
) -> None:
    """The server's turn timer runs out on Alice, and its setting makes her forfeit. The channel
    read "⏰ Alice ran out of time and forfeits the game. 🏆 Bob won! Alice 0 · Bob 0. Alice
    resigned.": she never resigned. The match's end now says she left, as the other games do."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "forfeit"))
    game = (await stacked_mille(driver)).game
    await sweep_after(driver, 3600)
    finished = await bot.tables.store.get_game(game.id)
    assert finished is not None and finished.status == "finished"
    last = driver.backend.channel_messages(GAMES_CHANNEL_ID)[-1]["content"]
    assert "ran out of time and forfeits the game" in last, last
    assert "resigned" not in last, last
    assert "Bob 0. Alice left the game.\n" in last, last


async def test_a_solo_run_left_is_not_drawn_as_out_of_fuel(driver: InteractionDriver) -> None:
    """Alice gives up a Mille Bornes Solo run at once, 45 cards still in the tank. The last
    table and the result image said "Out of fuel — 0/49 cleared · no move and an empty tank"
    beside "Tank 45", and the caption said she "gave up" even when the turn timer forfeited
    her. The picture now says she left, with the tank as it is."""
    bot = running_bot(driver)
    await driver.slash("play", {"game": "solo", "options": "preset:refuel"})
    game_id = (await bot.tables.current(GAMES_CHANNEL_ID)).id
    ended = public_table(await driver.slash("resign", {}))
    assert "Left with 0/49 cleared and 0 miles." in (ended.content or "")
    stored = await bot.tables.store.get_game(game_id)
    assert stored is not None
    here = bot.tables.position(stored)
    view = here.game.public_view(here.state)
    banner = solo_banner(view)
    assert banner == (
        "Left the game — 0/49 cleared",
        f"0 miles in front of you · {view.tank_count} left in the tank",
    ), banner


async def test_a_match_left_before_any_hand_gives_no_best_hand(driver: InteractionDriver) -> None:
    """Alice's only match ended when Bob resigned in its first hand. Her /stats card showed
    "Best hand: 0 pts (game #1)", a hand nobody finished; it now shows no best hand."""
    await stacked_mille(driver)
    await driver.slash("resign", {}, user_id=BOB_ID)
    card = await driver.slash("stats", {"game": "mille"})
    said = alt_text_of(card, "stats.png")
    assert "1 won, 0 lost" in said, said
    assert "Best hand" not in said, said


async def test_the_options_field_still_completes_a_pair_typed_with_a_space(
    driver: InteractionDriver,
) -> None:
    """A space after the colon ("deck: ") is the pair still being typed, not the next one: its
    values are suggested."""
    found = await driver.autocomplete("play", "options", "deck: ", {"game": "mille"})
    values = [choice["value"] for choice in found.choices]
    assert values == ["deck:bsd", "deck:modern"], values


async def test_a_bystander_starting_a_game_is_not_told_to_resign_someone_elses(
    driver: InteractionDriver,
) -> None:
    """Carol types /play in the channel where Alice and Bob play Mille Bornes. She read "Finish
    it, or /resign or /abort it first", which she cannot do (both answer that she is not
    playing). She is now told where she can play instead."""
    await stacked_mille(driver)
    started = await driver.slash("play", {"game": "solo"}, user_id=CAROL_ID)
    assert started.ephemeral
    assert replies(started) == (
        "Another game is being played in this channel. Start yours in another channel, or "
        "with thread:true in a thread of its own."
    ), replies(started)


async def test_a_french_name_typed_without_its_accents_is_suggested(
    driver: InteractionDriver,
) -> None:
    """Alice plays with French card names on a keyboard without accents and types
    "reparations" into /move: "Discard Réparations" was not suggested (the list was empty),
    as if the card were not in her hand. Now the card is suggested, its accents aside."""
    await alice_against(
        driver, COMPUTER, deck=["repairs", *MILLE_DECK[1:]], options={"names": "fr"}
    )
    offered = await driver.autocomplete("move", "action", "reparat")
    names = [choice["name"] for choice in offered.choices]
    assert names == ["Discard Réparations"], names

"""Leaderboards, stats, history, replays and turn timers, driven through discord.py."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.games import bundle
from bot.render.replay import MAX_FRAMES
from bot.store.base import GuildSettings, MoveRecord, SeatRecord
from cogs.alt_text import described
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, alt_text_of, sweep_after
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
    InteractionResult,
    role_payload,
)
from tests.discord.payloads import InteractionDriver
from tests.seam import finish_randomly


async def _finished_game(driver: InteractionDriver, seed: int, bob: str = "Bob") -> None:
    """Alice and Bob (seated as ``bob``) play a whole single hand of random legal moves."""
    tables = running_bot(driver).tables
    update = await alice_against(
        driver, SeatRecord(1, bob, user_id=BOB_ID), seed=seed, options={"length": "hand"}
    )
    await finish_randomly(tables, update, seed)


def _first_moves_then_refused(
    moves: list[MoveRecord], keep: int
) -> Callable[[int], Coroutine[Any, Any, list[MoveRecord]]]:
    """A move log whose move after the first ``keep`` is one today's rules refuse."""

    async def stored(game_id: int) -> list[MoveRecord]:
        refused = dataclasses.replace(moves[keep], action="extend yes")
        return [*moves[:keep], refused, *moves[keep + 1 :]]

    return stored


def _image(result: InteractionResult, name: str) -> bytes:
    for response in result.followups:
        for attachment in response.attachments:
            if attachment["filename"] == name:
                data: bytes = response.file(name)
                return data
    raise AssertionError(f"no {name} was posted")


async def test_leaderboard_is_an_image_of_the_rated_players(driver: InteractionDriver) -> None:
    """After games between members, /leaderboard posts the ladder as an image."""
    for seed in (1, 2):
        await _finished_game(driver, seed)
    result = await driver.slash("leaderboard", {"game": "mille"})
    assert _image(result, "leaderboard.png")[:4] == b"\x89PNG"
    alt = alt_text_of(result, "leaderboard.png").splitlines()
    assert alt[0] == "Leaderboard: Mille Bornes — this server, All time."
    # Alice asked and is in the top ten: her row is marked where it stands, not repeated, and
    # the count of players follows, as under the image's rows.
    assert len(alt) == 4 and sum(line.endswith("(you)") for line in alt) == 1
    assert alt[-1] == "2 players on this board."
    assert any(line.startswith("1. ") for line in alt) and any(
        line.startswith("2. ") for line in alt
    )
    results = await running_bot(driver).store.results(guild_id=GUILD_ID)
    assert len(results) == 2 and all(r.record.counted for r in results)


async def test_stats_card_for_a_member(driver: InteractionDriver) -> None:
    """/stats draws a member's card."""
    await _finished_game(driver, 3)
    result = await driver.slash("stats", {"game": "mille", "member": BOB_ID})
    assert _image(result, "stats.png")[:4] == b"\x89PNG"
    assert alt_text_of(result, "stats.png").startswith("Stats of bob, Mille Bornes.")


async def test_history_lists_recent_games_privately(driver: InteractionDriver) -> None:
    """/history lists the member's finished games, ephemerally."""
    await _finished_game(driver, 4)
    result = await driver.slash("history", {})
    assert result.ephemeral and "Mille Bornes vs Bob" in (result.content or "")


async def test_history_keeps_its_own_markdown_and_escapes_names(
    driver: InteractionDriver,
) -> None:
    """/history's verdict is bold and its link a link, while an opponent's name stays plain
    text. Found while building /mygames: the whole line was escaped to neutralise names, so
    members saw literal asterisks (``**won**``) and ``[table](https://…)`` instead of a link."""
    await _finished_game(driver, 4, bob="__Bob__ *1*")
    (game,) = await running_bot(driver).store.results(guild_id=GUILD_ID)
    store = running_bot(driver).store
    finished = await store.get_game(game.record.game_id)
    assert finished is not None
    # A message that is there (one found gone would be forgotten, cogs/links.py).
    table = driver.backend.create_user_message(GAMES_CHANNEL_ID, ALICE_ID, "the last table")
    await store.set_message(finished.id, int(table["id"]), finished.version)
    content = (await driver.slash("history", {})).content or ""
    assert "vs \\_\\_Bob\\_\\_ \\*1\\*:" in content, content
    verdict = "**won**" if "won" in content else "**lost**"
    assert verdict in content and "\\*\\*" not in content, content
    link = f"[table](https://discord.com/channels/{GUILD_ID}/{GAMES_CHANNEL_ID}/{table['id']})"
    assert link in content, content


async def test_replay_of_the_last_game(driver: InteractionDriver) -> None:
    """/replay posts an animated GIF of the channel's last finished game."""
    await _finished_game(driver, 5)
    result = await driver.slash("replay", {})
    assert _image(result, "replay.gif")[:6] == b"GIF89a"
    assert alt_text_of(result, "replay.gif").startswith("Replay of game #")


async def test_replay_of_a_long_game_says_it_shows_a_sample(driver: InteractionDriver) -> None:
    """A game of more moves than a replay has pictures: /replay says it shows an even sample,
    not every move. It said only how many moves the game had, and a member watching the
    table jump several moves at a time would take them for lost."""
    await _finished_game(driver, 5)
    last = await running_bot(driver).store.last_finished_game(GAMES_CHANNEL_ID)
    assert last is not None and last.version >= MAX_FRAMES
    result = await driver.slash("replay", {})
    said = (
        f"Replay of game #{last.id} ({last.version} moves). It shows {MAX_FRAMES} pictures "
        "evenly spread from the deal to the end, not one per move."
    )
    assert " ".join(r.content or "" for r in result.followups) == said
    assert alt_text_of(result, "replay.gif").startswith(said + "\n")


async def test_replay_alt_text_says_the_last_table(driver: InteractionDriver) -> None:
    """The replay's alt text says, after which game it is, the table the GIF ends on: both
    players' miles and score. It said only "Replay of game #N (M moves).", so a member with a
    screen reader heard nothing of how the game went or ended."""
    await _finished_game(driver, 5)
    bot = running_bot(driver)
    last = await bot.store.last_finished_game(GAMES_CHANNEL_ID)
    assert last is not None
    final = (await bot.tables.hindsight.replay(last.id)).views[-1]
    result = await driver.slash("replay", {})
    lines = alt_text_of(result, "replay.gif").splitlines()
    assert lines[1] == "The last table:", lines
    table = described(bundle("mille").presenter.console_table(final)).splitlines()
    players = [line for line in table if " mi  score " in line]
    assert len(players) == 2 and all(line in lines for line in players), (players, lines)


async def test_replay_without_a_finished_game_is_refused(driver: InteractionDriver) -> None:
    """/replay in a channel with no finished game answers privately."""
    result = await driver.slash("replay", {})
    assert result.ephemeral and "No game has finished" in (result.content or "")


async def test_settings_store_the_turn_timer(driver: InteractionDriver) -> None:
    """/settings saves the server's turn timer and timeout rule."""
    result = await driver.slash("settings", {"turn_timer": 5, "on_timeout": "forfeit"})
    assert result.ephemeral and "5 min per turn" in (result.content or "")
    saved = await running_bot(driver).store.guild_settings(GUILD_ID)
    assert saved == GuildSettings(GUILD_ID, 300, "forfeit")


async def test_settings_are_refused_to_a_member_without_manage_server(
    driver: InteractionDriver,
) -> None:
    """Bob, without Manage Server, sends /settings (a server can open the command to every
    member in its own command permissions): a private sentence says who may change them, and
    nothing is stored. Before the fix only Discord's default permission stood in the way, and
    Bob set the whole server's turn timer and timeout rule."""
    result = await driver.slash(
        "settings", {"turn_timer": 5, "on_timeout": "forfeit"}, user_id=BOB_ID
    )
    assert result.ephemeral
    assert result.content == "Only members with Manage Server can change the Junction settings."
    assert await running_bot(driver).store.guild_settings(GUILD_ID) == GuildSettings(GUILD_ID)


def _dump(tmp_path: Path) -> list[str]:
    """Every row of the bot's SQLite file (``tests.cogs.conftest.bot_settings``), as SQL."""
    connection = sqlite3.connect(tmp_path / "bot.db")
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


LOOKED_AT = GuildSettings(GUILD_ID, None, "forfeit", 90)
"""The settings Bob looks at: no turn timer (so a game waits untimed), forfeit, 90 s."""


@pytest.mark.parametrize("options", [{}, {"on_timeout": ""}])
async def test_any_member_may_look_at_the_settings(
    driver: InteractionDriver, tmp_path: Path, options: dict[str, Any]
) -> None:
    """Bob, without Manage Server, wants to know the server's turn timer before a long game.
    Discord offered him no /settings (its default permission was Manage Server), and sent all
    the same it answered "Only members with Manage Server can change the Junction settings.",
    though he only looked. It is offered to every member now, and he reads the settings, only
    to him, with who may change them; nothing is stored (an empty on_timeout, sent by hand,
    changes nothing either)."""
    await running_bot(driver).store.set_guild_settings(LOOKED_AT)
    tree = running_bot(driver).tree
    command = tree.get_command("settings")
    assert command is not None
    # What the bot registers with Discord: no default permission, so every member is offered it.
    assert command.to_dict(tree)["default_member_permissions"] is None
    before = _dump(tmp_path)
    result = await driver.slash("settings", options, user_id=BOB_ID)
    assert result.ephemeral and len(result.responses) == 1, result.responses
    assert result.content == (
        "⚙️ Turn timer: **off**; when it runs out, the player forfeits. Reaction window: "
        "**90 s**. Members with Manage Server change them."
    ), result.content
    assert not result.responses[0].components
    assert _dump(tmp_path) == before


@pytest.mark.parametrize(
    "options",
    [
        {"turn_timer": 5},
        {"turn_timer": 0},
        {"on_timeout": "computer"},
        {"on_timeout": "forfeit"},
        {"reaction_window": 45},
        {"turn_timer": 5, "on_timeout": "computer", "reaction_window": 45},
        {"turn_timer": 10081},
        {"reaction_window": 4},
        {"on_timeout": "nonsense"},
    ],
)
async def test_settings_sent_with_options_by_a_member_without_manage_server_change_nothing(
    driver: InteractionDriver, tmp_path: Path, options: dict[str, Any]
) -> None:
    """Now that any member may send /settings to look, Bob sends it with options (a change, the
    same values again, values no client sends): each is refused in the sentence as before, and
    the store is byte for byte as it was, the game waiting untimed in it included."""
    await running_bot(driver).store.set_guild_settings(LOOKED_AT)
    await alice_against(driver, seed=3)
    before = _dump(tmp_path)
    result = await driver.slash("settings", options, user_id=BOB_ID)
    assert result.ephemeral and len(result.responses) == 1, result.responses
    assert result.content == "Only members with Manage Server can change the Junction settings."
    assert _dump(tmp_path) == before


async def test_settings_are_taken_from_an_administrator(driver: InteractionDriver) -> None:
    """A member whose role has Administrator (and so Manage Server) changes the settings."""
    role_id = driver.backend.ids.next()
    admins = discord.Permissions(administrator=True).value
    driver.backend.world.roles.append(role_payload(role_id, "Admins", permissions=admins))
    member = driver.backend.world.member(BOB_ID)
    assert member is not None
    member["roles"].append(str(role_id))
    result = await driver.slash("settings", {"turn_timer": 5}, user_id=BOB_ID)
    assert result.ephemeral and "5 min per turn" in (result.content or ""), result.content
    saved = await running_bot(driver).store.guild_settings(GUILD_ID)
    assert saved.turn_seconds == 300


async def test_expired_turn_is_announced_in_the_channel(driver: InteractionDriver) -> None:
    """When a turn runs out, the sweep posts the new table with the timeout caption."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    await alice_against(driver, seed=9)
    await sweep_after(driver, 3600)
    posted = [
        m
        for m in driver.messages.values()
        if int(m["channel_id"]) == GAMES_CHANNEL_ID and "ran out of time" in m["content"]
    ]
    assert posted and any(a["filename"] == "table.png" for a in posted[0]["attachments"])
    assert (await bot.tables.current(GAMES_CHANNEL_ID)).version >= 1


async def test_daily_deal_is_the_same_for_everyone_and_played_once(
    driver: InteractionDriver,
) -> None:
    """/play solo daily deals the server's deal of the day, once per member."""
    bot = running_bot(driver)
    first = await driver.slash("play", {"game": "solo", "daily": True})
    assert not first.ephemeral
    other = await driver.slash(
        "play", {"game": "solo", "daily": True}, user_id=BOB_ID, channel_id=GENERAL_CHANNEL_ID
    )
    assert not other.ephemeral
    alice = await bot.tables.current(GAMES_CHANNEL_ID)
    bob = await bot.tables.current(GENERAL_CHANNEL_ID)
    assert alice.options["daily"] == bob.options["daily"]
    deals = [await bot.store.initial_state(game.id) for game in (alice, bob)]
    assert deals[0] is not None and deals[1] is not None
    assert {**deals[0], "players": []} == {**deals[1], "players": []}  # same cards, two names
    await driver.slash("resign", {})
    again = await driver.slash("play", {"game": "solo", "daily": True})
    assert again.ephemeral and "already played today's deal" in (again.content or "")
    board = await driver.slash("leaderboard", {"game": "solo", "period": "daily"})
    assert _image(board, "leaderboard.png")[:4] == b"\x89PNG"


async def test_daily_deal_only_for_solo(driver: InteractionDriver) -> None:
    """A daily deal of a two-player game is refused."""
    result = await driver.slash("play", {"game": "mille", "daily": True})
    assert result.ephemeral and "Daily deals are for Mille Bornes Solo" in (result.content or "")


async def test_replay_cut_short_by_a_rules_fix_says_so(driver: InteractionDriver) -> None:
    """When a stored move no longer replays (played before a rules fix), /replay still shows the
    moves before it and says why the rest is missing."""
    await _finished_game(driver, 6)
    store = running_bot(driver).store
    last = await store.last_finished_game(GAMES_CHANNEL_ID)
    assert last is not None
    moves = await store.moves(last.id)
    store.moves = _first_moves_then_refused(moves, keep=3)  # type: ignore[method-assign,assignment]
    result = await driver.slash("replay", {})
    assert _image(result, "replay.gif")[:6] == b"GIF89a"
    text = " ".join(r.content or "" for r in result.followups)
    assert f"the first 3 of its {last.version} moves" in text
    assert "earlier version of the rules" in text


@pytest.mark.logs_errors  # the failed write or answer is logged
async def test_the_first_sweep_records_a_result_whose_write_failed(
    driver: InteractionDriver,
) -> None:
    """The database failed the result's write as the last move was stored (say just before a
    restart). The bot's first timer sweep records it: the game reaches the leaderboard."""
    bot = running_bot(driver)
    store = bot.store
    write = store.record_result

    async def failing(*args: object, **kwargs: object) -> None:
        raise OSError("the database blinked")

    store.record_result = failing  # type: ignore[method-assign]
    try:
        await _finished_game(driver, seed=3)
    finally:
        store.record_result = write  # type: ignore[method-assign]
    assert await store.results() == []
    bot.tables.settle_due = False  # a restarted bot knows nothing of the failure
    await sweep_after(driver, 1.0)
    [result] = await store.results()
    assert result.record.seats == (ALICE_ID, BOB_ID)

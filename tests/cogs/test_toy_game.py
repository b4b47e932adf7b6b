"""The toy game, registered from the tests alone, played end to end through the cogs.

Three seats (two members and a computer) gathered in a lobby; a reaction window answered from
the hand and another that times out; a resignation that drops one seat while the others play
on; a restart in the middle with old buttons still working; a leaderboard; the console, the
arena and a replay — without any change to those modules for this game.
"""

from __future__ import annotations

import io
from pathlib import Path

from bot.arena import run_arena
from bot.client import JunctionBot
from bot.console import ConsoleOptions, run_console
from bot.store.base import GuildSettings, SeatRecord
from tests.cogs.conftest import bot_settings, running_bot
from tests.cogs.helpers import component_id, labels, played_to_the_end, public_table, sweep_after
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

# Alice: c5 c5 c1 · Bob: shield shield c2 · the computer: c3 c3 c4; then the deck, top first.
DECK = [
    *("c5", "c5", "c1"),
    *("shield", "shield", "c2"),
    *("c3", "c3", "c4"),
    *("c1", "c1", "c2", "c2", "c3", "c4", "c4", "c5", "shield"),
]
SEATS = [
    SeatRecord(0, "Alice", user_id=ALICE_ID),
    SeatRecord(1, "Bob", user_id=BOB_ID),
    SeatRecord(2, "Computer (normal)", policy="normal"),
]


async def test_a_lobby_seats_two_members_and_a_computer(driver: InteractionDriver) -> None:
    """/challenge with one member and one computer: the table opens when the member accepts."""
    invite = await driver.slash("challenge", {"game": "relay", "member": BOB_ID, "computers": 1})
    assert f"<@{BOB_ID}>" in (invite.content or "") and "1 computer" in (invite.content or "")
    early = await driver.click(invite, component_id(invite, "Start"))
    assert early.ephemeral and "Wait until everyone" in (early.content or "")
    accepted = await driver.click(invite, component_id(invite, "Accept"), user_id=BOB_ID)
    table = public_table(accepted)
    assert "Relay (toy)" in (table.content or "")
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.user_id for s in stored.seats] == [ALICE_ID, BOB_ID, None]
    assert stored.seats[2].policy == "normal"


async def test_a_host_starts_with_a_computer_for_a_declined_member(
    driver: InteractionDriver,
) -> None:
    """When someone declines, the host may start: a computer takes the declined seat."""
    invite = await driver.slash(
        "challenge", {"game": "relay", "member": BOB_ID, "member2": CAROL_ID}
    )
    await driver.click(invite, component_id(invite, "Decline"), user_id=CAROL_ID)
    not_host = await driver.click(invite, component_id(invite, "Start"), user_id=BOB_ID)
    assert not_host.ephemeral and "Only the member who sent" in (not_host.content or "")
    await driver.click(invite, component_id(invite, "Accept"), user_id=BOB_ID)
    started = await driver.click(invite, component_id(invite, "Start"))
    public_table(started)
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.user_id for s in stored.seats] == [ALICE_ID, BOB_ID, None]


async def test_reactions_resignation_restart_and_replay(tmp_path: Path) -> None:
    """A block from the hand, a window that times out, a seat that leaves, a restart."""
    first = JunctionBot(bot_settings(tmp_path))
    async with InteractionDriver(first, run_setup_hook=True, timeout=60.0) as driver:
        game_id, message = await _first_half(driver)
    await first.close()
    # A restart: a new bot on the same database; the table message's "My hand" still works.
    reborn = JunctionBot(bot_settings(tmp_path))
    async with InteractionDriver(reborn, run_setup_hook=True, timeout=60.0) as second:
        hand = await second.click(message, f"jn:h:{game_id}")
        assert hand.followups and hand.followups[0].ephemeral
        # Alice plays to the end, move after move; the computer answers each time.
        await played_to_the_end(second, ALICE_ID, 30)
        [result] = await reborn.store.results(game_key="relay")
        assert result.record.ranks[1] == 2  # Bob left: last place
        assert not result.record.counted  # a computer played
        replay = await second.slash("replay", {})
        assert replay.followups[0].file("replay.gif")[:6] == b"GIF89a"
    await reborn.close()


async def _first_half(driver: InteractionDriver) -> tuple[int, dict[str, object]]:
    """Strike, block, strike, time out, resign; the game id and the last table message."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, reaction_seconds=30))
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="relay", seats=SEATS, deck=DECK
    )
    game_id = update.game.id
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game_id}")
    struck = await driver.click(hand.message, component_id(hand, "Play C5"))
    window = public_table(struck)
    assert f"<@{BOB_ID}>, you may react" in (window.content or "")
    assert f"<@{ALICE_ID}>" not in (window.content or "")  # she is not asked for anything
    # Alice cannot act while Bob decides; Bob blocks from his hand.
    waiting = await driver.slash("move", {"action": "play c5"})
    assert waiting.ephemeral and waiting.content == "Not now: waiting for Bob to react."
    bobs = await driver.click(window.message_id, f"jn:h:{game_id}", user_id=BOB_ID)
    assert "Block the strike" in labels(bobs) and "Let it pass" in labels(bobs)
    blocked = await driver.click(bobs.message, component_id(bobs, "Block"), user_id=BOB_ID)
    assert "Bob blocks the strike!" in (public_table(blocked).content or "")
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert bot.tables.position(stored).state.scores[0] == 0
    # Bob plays; the computer answers at once; Alice strikes again and Bob lets the window run.
    await driver.slash("move", {"action": "play c2"}, user_id=BOB_ID)
    again = await driver.slash("move", {"action": "play c5"})
    assert f"<@{BOB_ID}>, you may react" in (public_table(again).content or "")
    await sweep_after(driver, 10)  # not yet: the window is 30 s
    assert bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state.defender == 1
    await sweep_after(driver, 31)
    timed_out = [m for m in driver.messages.values() if "did not react in time" in m["content"]]
    assert timed_out and any(a["filename"] == "table.png" for a in timed_out[0]["attachments"])
    after = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID))
    assert after.state.defender is None and after.state.scores[0] >= 5

    # Bob leaves: with three seats the others play on.
    left = await driver.slash("resign", {}, user_id=BOB_ID)
    assert "Bob left the game" in (public_table(left).content or "")
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert stored.status == "active" and 1 in bot.tables.position(stored).state.left
    gone = await driver.slash("move", {"action": "play c2"}, user_id=BOB_ID)
    assert gone.ephemeral
    last_table = public_table(left)
    return game_id, dict(driver.messages[last_table.message_id or 0])


async def test_three_members_leaderboard(driver: InteractionDriver) -> None:
    """Three members finish (two resign in turn); the board rates all three by place."""
    bot = running_bot(driver)
    seats = [
        SeatRecord(0, "Alice", user_id=ALICE_ID),
        SeatRecord(1, "Bob", user_id=BOB_ID),
        SeatRecord(2, "Carol", user_id=CAROL_ID),
    ]
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="relay", seats=seats, deck=DECK
    )
    await driver.slash("resign", {}, user_id=CAROL_ID)
    await driver.slash("resign", {}, user_id=BOB_ID)
    [result] = await bot.store.results(game_key="relay")
    assert result.record.ranks == (0, 1, 2) and result.record.counted
    board = await driver.slash("leaderboard", {"game": "relay"})
    assert board.followups[0].file("leaderboard.png")[:4] == b"\x89PNG"
    stats = await driver.slash("stats", {"game": "relay"}, user_id=BOB_ID)
    assert stats.followups[0].file("stats.png")[:4] == b"\x89PNG"


async def test_rules_and_autocomplete_know_the_toy(driver: InteractionDriver) -> None:
    """/rules and the game field's autocomplete list a game registered by the tests."""
    rules = await driver.slash("rules", {"game": "relay"})
    assert rules.ephemeral and "shield" in (rules.content or "")
    offered = await driver.autocomplete("play", "game", "rel")
    assert {"name": "Relay (toy) (relay)", "value": "relay"} in offered.choices


async def test_console_and_arena_play_the_toy(tmp_path: Path) -> None:
    """The console seats computers for the other chairs; the arena reports the toy's metric."""
    out = io.StringIO()
    options = ConsoleOptions(
        db=f"sqlite:///{tmp_path / 'c.db'}", out=tmp_path / "img", game="relay", players=3, seed=2
    )
    commands = io.StringIO("1\n1\n1\n1\n1\n1\n1\n1\n1\n1\nquit\n")
    assert await run_console(options, lines=commands, out=out) == 0
    text = out.getvalue()
    assert "New Relay (toy) game" in text and "Computer 1 (normal)" in text
    assert sorted((tmp_path / "img").glob("*-table.png"))
    report = run_arena("relay", ["normal", "random"], games=6, seed=1, players=3)
    normal = report["normal"]
    assert isinstance(normal, dict) and normal["games"] == 6 and "mean_pile" in report

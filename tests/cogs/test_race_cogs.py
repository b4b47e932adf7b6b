"""1000 Mile Race through the cogs: members and the computer, reaction windows, cycling."""

from __future__ import annotations

import pytest

from bot.store.base import GuildSettings
from cogs.pickers import EARLIER_TURN
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    alice_against,
    component_id,
    labels,
    public_table,
    select_of,
    sweep_after,
)
from tests.discord.backend import ALICE_ID, BOB_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

RED = ["100", "50", "25", "flat-tire", "spare-tire", "extra-tank", "pit-crew"]
RED_DRAWS = ["75", "50", "200", "green-light", "repairs"]
BLUE = ["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"]
DECK = [*RED, *RED_DRAWS, "/", *BLUE]


async def test_members_play_with_a_coup_fourre_a_timeout_and_a_cycle(
    driver: InteractionDriver,
) -> None:
    """Bob answers a hazard with Coup Fourré from his hand, lets a Roadblock window run out,
    and cycles two cards chosen in a multi-select on his turn."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, reaction_seconds=20))
    update = await alice_against(driver, game_key="race", deck=DECK)
    game_id = update.game.id
    table = public_table(await driver.slash("table", {}))
    assert f"<@{ALICE_ID}>, your turn" in (table.content or "")
    hand = await driver.click(table.message_id, f"jn:h:{game_id}")
    hazard = await driver.click(hand.message, component_id(hand, "Flat Tire on"))
    window = public_table(hazard)
    assert f"<@{BOB_ID}>, you may react" in (window.content or "")
    bobs = await driver.click(window.message_id, f"jn:h:{game_id}", user_id=BOB_ID)
    assert any("Coup Fourré" in label for label in labels(bobs))
    answered = await driver.click(bobs.message, component_id(bobs, "cancel"), user_id=BOB_ID)
    public_table(answered)
    state = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state
    assert state.sides[1].hazards == [] and "coup-fourre" in state.sides[1].junkyard

    # Alice drives 100; Bob holds Roadblock and is asked, but lets the window run out.
    drove = await driver.slash("move", {"action": "play 100"})
    assert f"<@{BOB_ID}>, you may react" in (public_table(drove).content or "")
    await sweep_after(driver, 21)
    assert any("did not react in time" in m["content"] for m in driver.messages.values())
    state = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state
    assert state.sides[0].total == 100
    await driver.slash("move", {"action": "end"})

    # Bob's turn: cycle a 25 and a 75 (one card type: one card drawn) from the multi-select.
    table = public_table(await driver.slash("table", {}))
    bobs = await driver.click(table.message_id, f"jn:h:{game_id}", user_id=BOB_ID)
    menu = select_of(bobs)
    assert menu["max_values"] > 1 and {"25#1", "75#1"} <= {o["value"] for o in menu["options"]}
    before = len(state.sides[1].hand)
    cycled = await driver.select(bobs.message, menu["custom_id"], ["25#1", "75#1"], user_id=BOB_ID)
    public_table(cycled)
    state = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state
    assert "Bob cycles 2 cards" in state.caption  # then his turn ended by itself
    assert state.sides[1].junkyard[-2:] == ["25", "75"]
    assert len(state.sides[1].hand) == before + 1 - 2 + 1  # drew at turn start, junked 2, drew 1


async def test_a_game_against_the_computer(driver: InteractionDriver) -> None:
    """/play race: the computer answers every turn by itself; moves by /move's list."""
    started = await driver.slash("play", {"game": "race"})
    public_table(started)
    bot = running_bot(driver)
    for _ in range(12):
        stored = await bot.tables.store.active_game(GAMES_CHANNEL_ID)
        if stored is None:
            break
        _, moves = bot.tables.hand(stored, ALICE_ID)
        assert moves, "after the computer's turn it is always Alice's"
        offered = await driver.autocomplete("move", "action", "")
        assert 0 < len(offered.choices) <= 25
        plays = [m for m in moves if not m.notation.startswith("cycle")]
        moved = await driver.slash("move", {"action": plays[0].notation})
        assert not moved.ephemeral, moved.content
    stored = await bot.tables.store.active_game(
        GAMES_CHANNEL_ID
    ) or await bot.store.last_finished_game(GAMES_CHANNEL_ID)
    assert stored is not None
    logged = await bot.store.moves(stored.id)
    assert any(m.seat == 1 and m.interaction_id is None for m in logged), "the computer moved"


async def test_the_first_table_says_why_the_computer_moved_first(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/play race where the computer reveals the higher miles card: the first message says
    so (the deal's line, from its public view) before the computer's moves. Before the fix it
    opened on the computer's moves, and the image showed its last move: nothing said why it
    went first."""
    monkeypatch.setattr("bot.tables.secrets.randbelow", lambda _: 1)
    table = public_table(await driver.slash("play", {"game": "race"}))
    lines = (table.content or "").splitlines()
    assert lines[0] == "**1000 Mile Race** — alice vs the computer", lines
    assert lines[1].startswith("alice revealed "), lines
    assert lines[1].endswith(
        "Computer (normal) revealed 200 miles. 200 miles beats 100 miles: "
        "Computer (normal) goes first."
    )
    assert lines[2].startswith("Computer (normal) plays "), lines
    assert "your turn" in lines[-1]


async def test_a_member_who_starts_gets_no_deal_line_in_the_text(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the member starts, the table image shows the deal's line as the last move and the
    message says only whose turn it is, as before."""
    monkeypatch.setattr("bot.tables.secrets.randbelow", lambda _: 3)
    table = public_table(await driver.slash("play", {"game": "race"}))
    assert "revealed" not in (table.content or "") and "your turn" in (table.content or "")


async def test_a_member_resigning_is_told_once(driver: InteractionDriver) -> None:
    """Alice resigns her race against Bob. The last table read "🏳️ Alice left the game." and
    then "🏆 Bob won! Alice left the race.", one event told twice in two wordings; it is told
    once now, in the result line, as in the other games ("Alice left the game.")."""
    await alice_against(driver, game_key="race", deck=DECK)
    ended = public_table(await driver.slash("resign", {}))
    text = ended.content or ""
    assert text.count("left the") == 1 and "Alice left the game." in text, text


async def test_a_second_answer_to_one_window_is_not_called_an_earlier_turn(
    driver: InteractionDriver,
) -> None:
    """Alice drives 100 and Bob, holding Roadblock, presses "No reaction" in his hand and then,
    in the copy of it he opened before, "React with Roadblock". The second press read "That
    button is from an earlier turn", while it was still Alice's turn (a race turn is several
    moves); it says now that the button was shown before the latest move, true in every game."""
    bot = running_bot(driver)
    update = await alice_against(driver, game_key="race", deck=DECK)
    window = public_table(await driver.slash("move", {"action": "play 100"}))
    assert f"<@{BOB_ID}>, you may react" in (window.content or "")
    hand = f"jn:h:{update.game.id}"
    older = await driver.click(window.message_id, hand, user_id=BOB_ID)
    newer = await driver.click(window.message_id, hand, user_id=BOB_ID)
    passed = await driver.click(newer.message, component_id(newer, "No reaction"), user_id=BOB_ID)
    public_table(passed)
    late = await driver.click(older.message, component_id(older, "React with"), user_id=BOB_ID)
    said = " ".join(r.content or "" for r in late.responses)
    assert late.ephemeral and said == EARLIER_TURN, said
    assert "before the latest move" in said and "turn" not in said, said
    state = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state
    assert state.turn == 0 and "roadblock" in state.sides[1].hand  # still Alice's turn

"""What players of three to six seats read when a game ends, through the fake Discord (found in
a review of results, replays and the boards as players and hostile members see them)."""

from __future__ import annotations

import pytest

from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alt_text_of, public_table, replies
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver


async def test_the_result_line_of_three_cars_gives_every_place(driver: InteractionDriver) -> None:
    """Bob leaves a three-car Dragon game, then Carol: Alice wins, Carol is second (she left
    later) and Bob third. Found in review: the result line listed the seats in seat order with
    their miles ("Alice 0 · Bob 0 · Carol 0"), so nobody could tell who came second; in a
    six-car arena a dead driver's miles do not give their place either. A seat that left says
    so in place of the miles it stopped at."""
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=[
            SeatRecord(0, "Alice", user_id=ALICE_ID),
            SeatRecord(1, "Bob", user_id=BOB_ID),
            SeatRecord(2, "Carol", user_id=CAROL_ID),
        ],
        seed=3,
    )
    await driver.slash("resign", {}, user_id=BOB_ID)
    text = public_table(await driver.slash("resign", {}, user_id=CAROL_ID)).content or ""
    assert "🏆 **Alice** won! 1st Alice 0 · 2nd Carol (left) · 3rd Bob (left)." in text, text


@pytest.mark.parametrize("game_key", ["race", "dragon"])
async def test_a_best_score_in_miles_says_miles(driver: InteractionDriver, game_key: str) -> None:
    """A 1000 Mile Race or Dragon score is the miles a player drove, as the result line says
    ("decided on miles"). Found in review: /stats called Bob's best "0 pts"."""
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key=game_key,
        seats=[SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)],
        seed=3,
    )
    await driver.slash("resign", {}, user_id=ALICE_ID)
    stats = await driver.slash("stats", {"game": game_key, "member": BOB_ID})
    assert "Best score: 0 miles (game #1)." in alt_text_of(stats, "stats.png")


async def test_the_replay_of_a_game_of_one_move_says_move(driver: InteractionDriver) -> None:
    """Bob resigns before anyone plays: the game's one move is his leaving. Found in review:
    /replay said "Replay of game #1 (1 moves)."."""
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="race",
        seats=[SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)],
        seed=4,
    )
    await driver.slash("resign", {}, user_id=BOB_ID)
    assert replies(await driver.slash("replay", {})) == "Replay of game #1 (1 move)."

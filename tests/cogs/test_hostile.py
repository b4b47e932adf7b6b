"""What a hostile member tries: forged and oversized ids, huge and odd text, double moves.

Each test here failed on the code before the plug-in rework (issue "Fixes found by playing it
hard"): every interaction gets exactly one readable answer, echoes are capped and ping nobody,
and nothing a custom id says is trusted without the database.
"""

from __future__ import annotations

from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, public_table, stacked_mille
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
    InteractionResult,
)
from tests.discord.payloads import InteractionDriver

NORMAL_COMPUTER = SeatRecord(1, "Computer", policy="normal")


def _reply(result: InteractionResult) -> str:
    """The one private answer an interaction got (callback or follow-up)."""
    texts = [r.content or "" for r in result.responses if r.content]
    assert texts, "the interaction got an answer"
    return texts[0]


def _quiet(result: InteractionResult) -> bool:
    """Whether every message sent pings nobody (allowed_mentions parse nothing)."""
    for response in result.responses:
        body = response.body.get("data", response.body)
        allowed = body.get("allowed_mentions")
        if allowed is not None and allowed.get("parse"):
            return False
    return True


async def test_a_huge_move_gets_a_short_answer(driver: InteractionDriver) -> None:
    """4 000 characters in /move: a short private refusal, nothing stored."""
    await stacked_mille(driver, NORMAL_COMPUTER)
    result = await driver.slash("move", {"action": "x" * 4000})
    assert result.ephemeral and len(_reply(result)) < 300
    assert (await running_bot(driver).tables.current(GAMES_CHANNEL_ID)).version == 0


async def test_long_garbage_in_play_fields_is_answered_briefly(driver: InteractionDriver) -> None:
    """3 000 characters in the level or options fields still get one short private answer."""
    for field in ("level", "options"):
        result = await driver.slash("play", {"game": "mille", field: "q" * 3000})
        assert result.ephemeral and len(_reply(result)) < 400, field
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_echoes_never_ping(driver: InteractionDriver) -> None:
    """A move text with mentions comes back in the refusal without pinging anyone."""
    await stacked_mille(driver, NORMAL_COMPUTER)
    result = await driver.slash("move", {"action": "@everyone <@&1> <@2>"})
    assert result.ephemeral and _quiet(result)


async def test_an_unknown_game_key_is_answered(driver: InteractionDriver) -> None:
    """/challenge and /play for a game that does not exist say so privately."""
    for command, extra in (("challenge", {"member": BOB_ID}), ("play", {})):
        result = await driver.slash(command, {"game": "chess" * 30, **extra})
        assert result.ephemeral and "There is no game called" in _reply(result)
        assert len(_reply(result)) < 300


async def test_oversized_and_unknown_ids_get_an_answer(driver: InteractionDriver) -> None:
    """A 30-digit game id, a malformed id and a stranger's id each get one readable answer."""
    game_id = (await stacked_mille(driver, NORMAL_COMPUTER)).game.id
    table = public_table(await driver.slash("table", {}))
    for forged in (
        f"jn:h:{'9' * 30}",
        f"jn:p:{'9' * 30}:0:h:0",
        "jn:zz:what",
        "not-ours-at-all",
        f"jn:p:{game_id}:0:h:999",
    ):
        result = await driver.forge(table.message_id, forged)
        assert result.ephemeral, forged
        assert 0 < len(_reply(result)) < 300, forged
    assert (await running_bot(driver).tables.current(GAMES_CHANNEL_ID)).version == 0


async def test_a_button_of_a_game_in_another_channel_says_so(driver: InteractionDriver) -> None:
    """A button naming another channel's running game is refused with the truth."""
    other = await stacked_mille(driver, channel_id=GENERAL_CHANNEL_ID)
    await stacked_mille(driver, NORMAL_COMPUTER)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, table.custom_ids[-1])
    own = component_id(hand, "Go")
    forged = own.replace(f"jn:p:{own.split(':')[2]}:", f"jn:p:{other.game.id}:")
    result = await driver.forge(hand.message, forged)
    assert result.ephemeral and "another channel" in _reply(result)


async def test_the_same_listed_move_twice_is_applied_once(driver: InteractionDriver) -> None:
    """/move with an autocomplete choice sent twice: the computer answers in between, and the
    second is refused as a move already made instead of being played again."""
    await stacked_mille(driver, NORMAL_COMPUTER)
    offered = await driver.autocomplete("move", "action", "go")
    value = next(c["value"] for c in offered.choices if c["value"].startswith("play go"))
    first = await driver.slash("move", {"action": value})
    public_table(first)
    version = (await running_bot(driver).tables.current(GAMES_CHANNEL_ID)).version
    second = await driver.slash("move", {"action": value})
    assert second.ephemeral and "You have already made that move." in _reply(second)
    assert (await running_bot(driver).tables.current(GAMES_CHANNEL_ID)).version == version


async def test_nobody_agrees_to_abort_for_someone_else(driver: InteractionDriver) -> None:
    """An old-style abort id naming another member counts only the presser's own vote."""
    bot = running_bot(driver)
    update = await stacked_mille(driver)
    asked = await driver.slash("abort", {})  # Alice asks
    forged = await driver.forge(asked, f"jn:x:{update.game.id}:{BOB_ID}")  # "as Bob"
    assert forged.ephemeral and "already asked" in _reply(forged)
    assert (await bot.tables.current(GAMES_CHANNEL_ID)).status == "active"
    stranger = await driver.forge(asked, f"jn:x:{update.game.id}", user_id=CAROL_ID)
    assert stranger.ephemeral
    assert await bot.store.abort_votes(update.game.id) == {ALICE_ID}


async def test_playing_yourself_is_refused_everywhere(driver: InteractionDriver) -> None:
    """A table with one member in two seats is refused by the seam itself."""
    bot = running_bot(driver)
    import pytest

    from bot.engine.core import GameError

    with pytest.raises(GameError, match="only one seat"):
        await bot.tables.start(
            channel_id=GAMES_CHANNEL_ID,
            guild_id=GUILD_ID,
            game_key="mille",
            seats=[
                SeatRecord(0, "Carol", user_id=CAROL_ID),
                SeatRecord(1, "Carol", user_id=CAROL_ID),
            ],
        )


async def test_a_second_accept_on_a_thread_challenge(driver: InteractionDriver) -> None:
    """Two Accept presses on a thread challenge: one game, one thread, one clear refusal."""
    invite = await driver.slash("challenge", {"game": "mille", "member": BOB_ID, "thread": True})
    accept = component_id(invite, "Accept")
    await driver.click(invite, accept, user_id=BOB_ID)
    again = await driver.forge(invite, accept, user_id=BOB_ID)
    assert again.ephemeral and "already started" in _reply(again)
    games = await running_bot(driver).tables.store.active_games()
    assert len(games) == 1 and games[0].channel_id != GAMES_CHANNEL_ID

"""A move whose interaction can no longer be answered (Discord's three seconds ran out, or
Discord failed the acknowledgement) is still stored and its table still posted, through a plain
channel message; and a turn mark from a turn the table never reached is not called "earlier".

Driven through the fake Discord: an interaction is made to expire at the moment the bot first
answers it (Discord then says "Unknown interaction", and the interaction's webhook never exists).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from cogs.moving import ACKNOWLEDGE_AFTER
from cogs.ui import DISCORD_TROUBLE
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    COMPUTER,
    alice_against,
    channel_posts,
    component_id,
    hand_press,
    held_thinking,
    public_table,
    replies,
    stacked_mille,
)
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    JSON,
    HTTPError,
    InteractionResult,
    RecordedRequest,
)
from tests.discord.payloads import InteractionDriver


async def test_a_typed_move_whose_answer_failed_still_posts_its_table(
    driver: InteractionDriver, expire: Callable[[JSON], None]
) -> None:
    """Alice plays Go against the computer; Discord refuses the acknowledgement (the
    interaction expired). Found by a review: the failure ended the handler after the move was
    stored, before the computer's answer and with no table posted. The move and the computer's
    answer are stored, and the table reaches the channel as a plain message."""
    bot = running_bot(driver)
    await stacked_mille(driver, COMPUTER)
    payload = driver.factory.slash("move", {"action": "play go"})
    expire(payload)
    await driver.dispatch(payload)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert [entry.action for entry in await bot.store.moves(stored.id)][:1] == ["play go"]
    assert 0 in bot.tables.position(stored).acting, "the computer answered"
    posted = channel_posts(driver, "table.png")
    assert posted, "no table was posted"
    assert "Alice plays Go" in str(posted[-1]["content"]), posted[-1]["content"]
    assert stored.message_id == int(posted[-1]["id"]), "the posted table is the one remembered"


async def test_a_typed_move_acknowledged_late_behind_a_thinking_computer(
    driver: InteractionDriver, expire: Callable[[JSON], None]
) -> None:
    """Alice's second /move waits while the computer thinks about her Go; after
    ``ACKNOWLEDGE_AFTER`` the bot acknowledges it, and Discord refuses (expired). Found by a
    review: that failure came back when the move had been stored, so its table was never
    posted. Now it is stored, and posted to the channel."""
    bot = running_bot(driver)
    await stacked_mille(driver, COMPUTER)
    thinking, release = held_thinking(bot.tables)
    first = asyncio.ensure_future(driver.slash("move", {"action": "play go"}))
    await asyncio.wait_for(thinking.wait(), 10)
    payload = driver.factory.slash("move", {"action": "play 100"})
    expire(payload)
    second = asyncio.ensure_future(driver.dispatch(payload))
    await asyncio.sleep(ACKNOWLEDGE_AFTER + 0.3)
    release.set()
    await first
    await second
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert "play 100" in [entry.action for entry in await bot.store.moves(stored.id)]
    # The first move's table is posted at the same moment, by its own interaction.
    posted = [str(m["content"]) for m in channel_posts(driver, "table.png")]
    assert any("Alice drives 100 miles" in words for words in posted), posted


async def test_a_hand_button_whose_answer_failed_still_posts_its_table(
    driver: InteractionDriver, expire: Callable[[JSON], None]
) -> None:
    """The same through a button: Alice presses Go in her hand and Discord refuses the
    acknowledgement. The move is stored and its table posted to the channel."""
    bot = running_bot(driver)
    started = await stacked_mille(driver, COMPUTER)
    payload = await hand_press(driver, started.game.id, "Go")
    expire(payload)
    await driver.dispatch(payload)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert [entry.action for entry in await bot.store.moves(stored.id)][:1] == ["play go"]
    posted = channel_posts(driver, "table.png")
    assert "Alice plays Go" in str(posted[-1]["content"]), posted[-1]["content"]
    assert stored.message_id == int(posted[-1]["id"])


@pytest.mark.parametrize("game", ["mille", "ttr"])
async def test_a_play_whose_answer_failed_still_posts_its_table(
    driver: InteractionDriver, expire: Callable[[JSON], None], game: str
) -> None:
    """/play deals, then answers (Mille Bornes: Alice opens), or answers before the computer's
    opening choice (Ticket to Ride: both choose tickets at once). Discord refuses the answer.
    Found by a review: the game was dealt and held the channel, with no table ever posted.
    The first table now reaches the channel as a plain message."""
    bot = running_bot(driver)
    payload = driver.factory.slash("play", {"game": game, "level": "normal"})
    expire(payload)
    await driver.dispatch(payload)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    posted = channel_posts(driver, "table.png")
    assert posted, "no table was posted"
    assert stored.message_id == int(posted[-1]["id"])


@pytest.mark.parametrize("computers", [0, 1])
async def test_a_lobby_start_whose_answer_failed_still_posts_its_table(
    driver: InteractionDriver, expire: Callable[[JSON], None], computers: int
) -> None:
    """Bob's Accept starts the game; Discord refuses the answer to his press (with a computer
    seated at Ticket to Ride, the answer comes before its opening choice). Found by a review:
    the game was dealt but never posted, and with a computer the invitation was even opened
    again while the game held the channel. The invitation says the game is on and the first
    table reaches the channel."""
    bot = running_bot(driver)
    options: dict[str, Any] = {"game": "ttr", "member": BOB_ID, "computers": computers}
    if computers:
        options["level"] = "normal"  # a level with no computer to play it is refused
    invitation = await driver.slash("challenge", options)
    assert invitation.message is not None
    payload = driver.factory.component(
        invitation.message, component_id(invitation, "Accept"), user_id=BOB_ID
    )
    expire(payload)
    await driver.dispatch(payload)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    posted = channel_posts(driver, "table.png")
    assert posted, "no table was posted"
    assert stored.message_id == int(posted[-1]["id"])
    shown = driver.messages[int(invitation.message["id"])]
    assert "The game is on" in str(shown["content"]), shown["content"]
    assert not shown.get("components"), "the invitation's buttons are gone"


# --- turn marks from a turn the game never reached ---------------------------------------------

EARLIER = "before the latest move"
NOT_THIS_TABLE = "does not match this table"


def _refused(result: InteractionResult, words: str) -> None:
    """The answer is private, says ``words`` (and not the other wording), and nothing is stored."""
    said = replies(result)
    assert said and all(r.ephemeral for r in result.responses if r.content), said
    assert words in said, said
    other = NOT_THIS_TABLE if words == EARLIER else EARLIER
    assert other not in said, said


async def test_a_button_of_a_turn_never_reached_does_not_match_this_table(
    driver: InteractionDriver,
) -> None:
    """Alice's hand button forged to a turn ahead of the game: found by a review, it was called
    "from an earlier turn", which no real button could be. It now says it does not match this
    table; another real button of her hand from before her move is still "from an earlier
    turn" (Go itself, pressed again, is a move she has already made)."""
    bot = running_bot(driver)
    started = await stacked_mille(driver)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{started.game.id}")
    go = component_id(hand, "Go")  # jn:p:<game>:0:h:<picker>
    ahead = go.replace(f"jn:p:{started.game.id}:0:", f"jn:p:{started.game.id}:7:")
    before = await bot.tables.current(GAMES_CHANNEL_ID)
    _refused(await driver.forge(hand.message, ahead), NOT_THIS_TABLE)
    assert await bot.tables.current(GAMES_CHANNEL_ID) == before
    played = await driver.click(hand.message, go)
    assert not played.errors, played.errors
    moved = await bot.tables.current(GAMES_CHANNEL_ID)
    assert moved.version == 1
    _refused(await driver.forge(hand.message, component_id(hand, "Discard 50")), EARLIER)
    ahead = go.replace(f"jn:p:{started.game.id}:0:", f"jn:p:{started.game.id}:2:")
    _refused(await driver.forge(hand.message, ahead), NOT_THIS_TABLE)
    assert await bot.tables.current(GAMES_CHANNEL_ID) == moved


async def test_a_typed_turn_mark_never_reached_does_not_match_this_table(
    driver: InteractionDriver,
) -> None:
    """A /move suggestion's turn mark (``§``) ahead of the game, and a hint's Play it button
    forged ahead: "does not match this table". A mark from before the last move: "from an
    earlier turn". Nothing is stored either way."""
    bot = running_bot(driver)
    started = await stacked_mille(driver)
    table = public_table(await driver.slash("table", {}))
    before = await bot.tables.current(GAMES_CHANNEL_ID)
    _refused(await driver.slash("move", {"action": "play go§7"}), NOT_THIS_TABLE)
    forged = f"jn:k:{started.game.id}:3:play+go"
    _refused(await driver.forge(table.message_id, forged), NOT_THIS_TABLE)
    assert await bot.tables.current(GAMES_CHANNEL_ID) == before
    await driver.slash("move", {"action": "play go§0"})
    moved = await bot.tables.current(GAMES_CHANNEL_ID)
    assert moved.version == 1
    late = await driver.slash("move", {"action": "discard 25§0"}, user_id=BOB_ID)
    _refused(late, EARLIER)
    old_hint = f"jn:k:{started.game.id}:0:discard+25"
    _refused(await driver.forge(table.message_id, old_hint, user_id=BOB_ID), EARLIER)
    assert await bot.tables.current(GAMES_CHANNEL_ID) == moved


def _first_answer_fails(driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Discord answers 500 to the first answer of every interaction (its retry is taken): the
    tokens whose first answer failed."""
    backend = driver.backend
    original = backend._callback
    failed: list[str] = []

    def callback(record: RecordedRequest, interaction_id: str, token: str) -> tuple[int, Any]:
        if token not in failed:
            failed.append(token)
            raise HTTPError(500, "Internal Server Error", 0)
        return original(record, interaction_id, token)

    monkeypatch.setattr(backend, "_callback", callback)
    return failed


async def test_a_command_whose_answer_discord_failed_does_not_say_nothing_changed(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/settings stores the new turn timer and Discord fails its answer. The member was told
    "nothing was changed" though the timer was stored; now they are told it may have gone
    through."""
    with monkeypatch.context() as failing:
        failed = _first_answer_fails(driver, failing)
        result = await driver.slash("settings", {"turn_timer": 5})
    assert failed
    settings = await running_bot(driver).tables.store.guild_settings(GUILD_ID)
    assert settings.turn_seconds == 300
    assert result.ephemeral and replies(result) == DISCORD_TROUBLE


async def test_a_button_whose_answer_discord_failed_does_not_say_nothing_changed(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An abort request's Agree ends the game and Discord fails the answer that says so: the
    member is told it may have gone through, not that nothing changed."""
    tables = running_bot(driver).tables
    await alice_against(driver)
    asked = await driver.slash("abort", {}, user_id=ALICE_ID)
    assert asked.message is not None, replies(asked)
    with monkeypatch.context() as failing:
        failed = _first_answer_fails(driver, failing)
        agreed = await driver.click(asked.message, component_id(asked, "Agree"), user_id=BOB_ID)
    assert failed
    assert await tables.store.active_game(GAMES_CHANNEL_ID) is None
    assert agreed.ephemeral and replies(agreed) == DISCORD_TROUBLE

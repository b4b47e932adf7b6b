"""A review of every component pressed under the wrong message.

A modified client can press any custom id under any message it can see (``driver.forge``): a
public table of this game or of another, a leaderboard, an invitation, a private message. Each
component must then either answer where it was shown — never rewriting a public message, never
drawing anyone's cards on a message that is not the presser's own — or refuse in a sentence,
with the stored game left as it was.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, component_id, labels, public_table, stacked_mille
from tests.cogs.test_nested_pickers_review import _deal
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
    JSON,
    InteractionResult,
)
from tests.discord.payloads import InteractionDriver

COMPUTER = SeatRecord(1, "Computer", policy="normal")
NOT_PLAYING = "You are not playing in this game; only its players can do that."
AGREED = "🛑 Everyone agreed: the game was aborted with no result."
REFUSALS = (
    NOT_PLAYING,
    "That button belongs to a game in another channel",
    "Nobody is asking to abort that game now",
    "That game is still being played.",
    "This invitation is from an older version of Junction",
    "That button is not one Junction knows",
    "Only the players of that game can ask for a rematch.",
)


def _said(result: InteractionResult) -> str:
    """The interaction's one private answer."""
    assert result.ephemeral, "answered privately"
    texts = [r.content or "" for r in result.responses if r.content]
    assert texts, "the interaction got an answer"
    return texts[0]


def _message(driver: InteractionDriver, message_id: int) -> JSON:
    return copy.deepcopy(driver.backend.messages[message_id])


def _id(result: InteractionResult) -> int:
    """The id of the message an interaction answered with."""
    assert result.message is not None
    return int(result.message["id"])


def _table(result: InteractionResult) -> int:
    """The id of the public table message an interaction posted."""
    message_id = public_table(result).message_id
    assert message_id is not None
    return message_id


async def _row(driver: InteractionDriver, game_id: int) -> tuple[int, str, Any]:
    """What the store holds for a game: its version, status and state."""
    row = await running_bot(driver).tables.store.get_game(game_id)
    assert row is not None
    return row.version, row.status, row.state


async def _carols_game(driver: InteractionDriver) -> tuple[int, int]:
    """Carol against the computer in the general channel: the game's id and its table message."""
    update = await running_bot(driver).tables.start(
        channel_id=GENERAL_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="mille",
        seats=[SeatRecord(0, "Carol", user_id=CAROL_ID), COMPUTER],
    )
    posted = await driver.slash("table", {}, user_id=CAROL_ID, channel_id=GENERAL_CHANNEL_ID)
    return update.game.id, _table(posted)


# --- the abort vote --------------------------------------------------------------------------


async def test_an_abort_vote_forged_under_another_games_table_is_refused(
    driver: InteractionDriver,
) -> None:
    """Alice asks to abort her game with Bob; Bob presses "Agree to abort" (``jn:x:<game>``)
    under the table of Carol's game in another channel. Found by this review: the vote was
    counted there and, being the last one, rewrote the pressed message as the notice — Carol's
    table read "Everyone agreed: the game was aborted" and lost its buttons. It is refused now,
    the vote is not counted, and Carol's table is as it was."""
    bot = running_bot(driver)
    game = (await stacked_mille(driver)).game
    carols, table = await _carols_game(driver)
    await driver.slash("abort", {})
    shown = _message(driver, table)
    before, hers = await _row(driver, game.id), await _row(driver, carols)
    for user in (BOB_ID, CAROL_ID):
        refused = await driver.forge(table, f"jn:x:{game.id}", user_id=user)
        assert _said(refused) == (
            f"That button belongs to a game in another channel (<#{GAMES_CHANNEL_ID}>)."
        )
    assert driver.backend.messages[table] == shown
    assert await _row(driver, game.id) == before
    assert await _row(driver, carols) == hers
    assert await bot.tables.store.abort_votes(game.id) == {ALICE_ID}


@pytest.mark.parametrize("target", ["table", "leaderboard", "invitation", "hand"])
async def test_the_last_abort_vote_announces_in_a_new_message(
    driver: InteractionDriver, target: str
) -> None:
    """The last vote, pressed under any message of the game's channel — its table, a
    leaderboard, an invitation, Bob's own hand — aborts the game and says so in a message of
    its own: the message it was pressed under is left as it was. Found by this review: it was
    rewritten as "Everyone agreed: the game was aborted" — a table or a leaderboard kept its
    image under that line, a table lost its buttons, and Carol's invitation its text and its
    Accept and Decline, so Bob could no longer answer it."""
    bot = running_bot(driver)
    invitation = await driver.slash(
        "challenge", {"game": "race", "member": BOB_ID}, user_id=CAROL_ID
    )
    game = (await stacked_mille(driver)).game
    board = await driver.slash("leaderboard", {"game": "mille"}, user_id=CAROL_ID)
    table = _table(await driver.slash("table", {}))
    hand = await driver.click(table, f"jn:h:{game.id}", user_id=BOB_ID)
    messages = {"leaderboard": board, "invitation": invitation, "hand": hand}
    pressed = table if target == "table" else _id(messages[target])
    await driver.slash("abort", {})
    shown = _message(driver, pressed)
    stranger = await driver.forge(pressed, f"jn:x:{game.id}", user_id=CAROL_ID)
    assert _said(stranger) == NOT_PLAYING
    assert await bot.tables.store.abort_votes(game.id) == {ALICE_ID}
    agreed = await driver.forge(pressed, f"jn:x:{game.id}", user_id=BOB_ID)
    assert agreed.callback is not None and agreed.callback.body["type"] == 4, "a new message"
    assert not agreed.ephemeral and agreed.content == AGREED
    assert driver.backend.messages[pressed] == shown
    assert (await _row(driver, game.id))[1] == "aborted"


# --- a hand's buttons under another member's private message -------------------------------


async def _bobs_private_message(driver: InteractionDriver) -> int:
    """A message only Bob sees (his /rules)."""
    rules = await driver.slash("rules", {"game": "mille"}, user_id=BOB_ID)
    assert rules.ephemeral
    return _id(rules)


@pytest.mark.parametrize("button", ["hand", "hint"])
async def test_a_hand_move_under_another_members_private_message_leaves_it_alone(
    driver: InteractionDriver, button: str
) -> None:
    """Alice's own move — from her hand, or her hint's "Play it" — pressed under a private
    message of Bob's: the move is played and the table posted, and Bob's message is not
    redrawn as Alice's hand. Found by this review: a private message counted as the presser's
    own, so the hand refreshed after the move (every card, in the image and its alt text) was
    drawn on Bob's message. Discord shows nobody another member's private message to press,
    so this guards against a forged message rather than a forged id alone."""
    opponent = SeatRecord(1, "Bob", user_id=BOB_ID) if button == "hand" else COMPUTER
    game = (await stacked_mille(driver, opponent)).game
    table = _table(await driver.slash("table", {}))
    if button == "hand":
        shown = await driver.click(table, f"jn:h:{game.id}")
        custom_id = component_id(shown, "Go")
    else:
        custom_id = component_id(await driver.slash("hint", {}), "Play it")
    bobs = await _bobs_private_message(driver)
    before = _message(driver, bobs)
    played = await driver.forge(bobs, custom_id, user_id=ALICE_ID)
    assert "Alice plays Go." in (public_table(played).content or "")
    assert driver.backend.messages[bobs] == before
    assert (await _row(driver, game.id))[0] > 0, "the move was played"


async def test_a_nested_choice_under_another_members_private_message_opens_privately(
    driver: InteractionDriver,
) -> None:
    """Alice's "4 Red…" (a group inside "Play Red") pressed under a private message of Bob's:
    the choice opens in a private message of Alice's own, and Bob's message still says what
    it said. Found by this review: it was turned into "4 Red: How many Locomotives join
    them?" with Alice's set buttons (which tell how many Reds and Locomotives she holds)."""
    deal = await _deal(driver)
    before = await _row(driver, deal.stored.id)
    bobs = await _bobs_private_message(driver)
    shown = _message(driver, bobs)
    opened = await driver.forge(bobs, deal.id("g", f"{deal.picker}:3"), user_id=ALICE_ID)
    assert opened.callback is not None and opened.callback.body["type"] == 4, "a new message"
    assert _said(opened) == "4 Red: How many Locomotives join them?"
    assert "4 Red + 10 Locomotives" in labels(opened)
    assert driver.backend.messages[bobs] == shown
    assert await _row(driver, deal.stored.id) == before


# --- what holds: kept as regression tests ------------------------------------------------------


async def test_forged_presses_under_other_messages_change_nothing(
    driver: InteractionDriver,
) -> None:
    """Every id of Alice and Bob's game — Alice's move, My hand, Agree to abort (nobody asked),
    Rematch (still playing), Play it of Carol's hint, an old challenge, an unknown id — pressed
    by Carol (no seat in it) under its table, a leaderboard, Bob's hand and her own game's
    table, and by Alice under Carol's table in another channel: each is answered privately
    (a refusal, or Alice's own hand), and no message and neither game changes."""
    game = (await stacked_mille(driver)).game
    table = _table(await driver.slash("table", {}))
    hand = await driver.click(table, f"jn:h:{game.id}")
    bobs_hand = await driver.click(table, f"jn:h:{game.id}", user_id=BOB_ID)
    board = await driver.slash("leaderboard", {"game": "mille"})
    carols, carols_table = await _carols_game(driver)
    hint = await driver.slash("hint", {}, user_id=CAROL_ID, channel_id=GENERAL_CHANNEL_ID)
    ids = [
        component_id(hand, "Go"),
        f"jn:m:{game.id}:0:h:play+go",
        f"jn:h:{game.id}",
        f"jn:x:{game.id}",
        f"jn:r:{game.id}",
        "jn:c:a:1:2",
        "jn:nothing",
    ]
    targets = [table, _id(board), _id(bobs_hand), carols_table]
    shown = {target: _message(driver, target) for target in targets}
    rows = {g: await _row(driver, g) for g in (game.id, carols)}
    for custom_id in ids:
        for target in targets:
            said = _said(await driver.forge(target, custom_id, user_id=CAROL_ID))
            assert said.startswith(REFUSALS), (custom_id, target, said)
        said = _said(await driver.forge(carols_table, custom_id, user_id=ALICE_ID))
        # My hand answers its player wherever it is pressed, in a message only she sees.
        assert said.startswith((*REFUSALS, "Your hand — your move.")), (custom_id, said)
    carols_move = component_id(hint, "Play it")
    for target in targets[:3]:
        said = _said(await driver.forge(target, carols_move, user_id=CAROL_ID))
        assert said.startswith("That button belongs to a game in another channel"), said
    for target in targets:
        assert driver.backend.messages[target] == shown[target], target
    assert {g: await _row(driver, g) for g in rows} == rows


async def test_a_rematch_pressed_under_another_message_posts_its_own(
    driver: InteractionDriver,
) -> None:
    """Alice's Rematch of her finished game with Bob, pressed under a leaderboard in its
    channel: the invitation is a new message there (its buttons answered only on it), and the
    leaderboard is as it was; Carol, who did not play, is refused. Under a leaderboard in
    another channel it is refused (a rematch is asked for where its game was played)."""
    finished = await alice_against(driver)
    await driver.slash("resign", {})
    rematch = f"jn:r:{finished.game.id}"
    elsewhere = await driver.slash("leaderboard", {"game": "mille"}, channel_id=GENERAL_CHANNEL_ID)
    shown_elsewhere = _message(driver, _id(elsewhere))
    refused = await driver.forge(_id(elsewhere), rematch, user_id=ALICE_ID)
    assert _said(refused) == (
        f"That button belongs to a game in another channel (<#{GAMES_CHANNEL_ID}>)."
    )
    assert driver.backend.messages[_id(elsewhere)] == shown_elsewhere
    board = await driver.slash("leaderboard", {"game": "mille"})
    pressed = _id(board)
    shown = _message(driver, pressed)
    refused = await driver.forge(pressed, rematch, user_id=CAROL_ID)
    assert _said(refused) == "Only the players of that game can ask for a rematch."
    asked = await driver.forge(pressed, rematch, user_id=ALICE_ID)
    assert asked.callback is not None and asked.callback.body["type"] == 4, "a new message"
    assert not asked.ephemeral and "Accept" in labels(asked)
    assert driver.backend.messages[pressed] == shown
    accept = component_id(asked, "Accept")
    again = await driver.forge(pressed, accept, user_id=BOB_ID)
    assert _said(again) == "That button is not on its invitation: answer the invitation itself."
    assert driver.backend.messages[pressed] == shown


async def test_an_invitations_button_under_another_invitation_is_refused(
    driver: InteractionDriver,
) -> None:
    """Bob's Accept of Carol's invitation pressed under Alice's invitation to Bob (both open,
    in different channels): refused; Alice's invitation still reads as hers, and Carol's still
    waits for Bob's answer."""
    alices = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    carols = await driver.slash(
        "challenge",
        {"game": "race", "member": BOB_ID},
        user_id=CAROL_ID,
        channel_id=GENERAL_CHANNEL_ID,
    )
    pressed = _id(alices)
    shown = _message(driver, pressed)
    for verb, user in (("Accept", BOB_ID), ("Cancel", CAROL_ID), ("Decline", BOB_ID)):
        said = _said(await driver.forge(pressed, component_id(carols, verb), user_id=user))
        assert said == "That button is not on its invitation: answer the invitation itself."
    assert driver.backend.messages[pressed] == shown
    lobby = await running_bot(driver).tables.store.get_lobby(
        int(component_id(carols, "Accept").split(":")[2])
    )
    assert lobby is not None and lobby.status == "open"
    assert [i.answer for i in lobby.invited] == ["pending"]


async def test_a_hint_played_under_the_public_table_leaves_the_table(
    driver: InteractionDriver,
) -> None:
    """The Play it of Alice's hint pressed under the game's public table: the move is played
    and a new table posted, and the message pressed keeps what it showed (never her hand, as a
    hint's button refreshes the hand it was played from)."""
    game = (await stacked_mille(driver, COMPUTER)).game
    table = _table(await driver.slash("table", {}))
    play_it = component_id(await driver.slash("hint", {}), "Play it")
    shown = _message(driver, table)
    played = await driver.forge(table, play_it)
    assert _table(played) != table
    assert driver.backend.messages[table] == shown
    assert "hand.png" not in str(driver.backend.messages[table].get("attachments"))
    assert (await _row(driver, game.id))[0] > 0, "the move was played"

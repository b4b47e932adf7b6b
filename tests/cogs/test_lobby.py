"""The shared game commands, driven with raw interaction payloads through discord.py."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import discord
import pytest

from bot.store.base import SeatRecord
from cogs.dealing import NO_THREAD
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    alice_against,
    answered_before,
    component_id,
    labels,
    public_messages,
    public_table,
    stacked_mille,
)
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
)
from tests.discord.payloads import InteractionDriver


async def test_play_against_the_computer_posts_the_table(driver: InteractionDriver) -> None:
    """/play deals at once and posts a public table image with a My hand button."""
    result = await driver.slash("play", {"game": "mille", "level": "random"})
    table = public_table(result)
    assert any(cid.startswith("jn:h:") for cid in table.custom_ids)
    assert f"<@{ALICE_ID}>" in (table.content or "")


async def test_garbage_option_is_refused_privately(driver: InteractionDriver) -> None:
    """An unknown computer player gets an ephemeral sentence and no game."""
    result = await driver.slash("play", {"game": "mille", "level": "grandmaster"})
    assert result.ephemeral and "no computer player called 'grandmaster'" in (result.content or "")
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_my_hand_is_ephemeral_with_move_buttons(driver: InteractionDriver) -> None:
    """My hand shows the presser's own cards only to them, with a button per move."""
    game_id = (await stacked_mille(driver)).game.id
    result = await driver.slash("table", {})
    hand = await driver.click(public_table(result).message_id, f"jn:h:{game_id}")
    shown = hand.followups[0]
    assert hand.ephemeral and shown.ephemeral
    assert shown.file("hand.png")[:4] == b"\x89PNG"
    assert "Go" in labels(shown) and "Discard 100 miles" in labels(shown)
    assert all(
        len(cid) <= 100 and cid.startswith(f"jn:p:{game_id}:0:h:") for cid in hand.custom_ids
    )


async def test_hand_of_a_stranger_is_refused(driver: InteractionDriver) -> None:
    """Someone not seated gets an ephemeral refusal instead of a hand."""
    game_id = (await stacked_mille(driver)).game.id
    result = await driver.slash("table", {})
    hand = await driver.click(
        public_table(result).message_id,
        f"jn:h:{game_id}",
        user_id=CAROL_ID,
    )
    assert hand.ephemeral and "not playing in this game" in (hand.content or "")


async def test_move_from_the_hand_posts_the_new_table(driver: InteractionDriver) -> None:
    """A move button in the hand applies the move, posts the table and refreshes the hand."""
    game_id = (await stacked_mille(driver)).game.id
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game_id}")
    moved = await driver.click(hand.message, component_id(hand, "Go"))
    new_table = public_table(moved)
    assert "Alice plays Go." in (new_table.content or "")
    assert f"<@{BOB_ID}>" in (new_table.content or "")
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert stored.version == 1


async def test_stale_button_gets_a_clear_answer(driver: InteractionDriver) -> None:
    """A move button from an earlier turn is refused ephemerally and changes nothing."""
    game_id = (await stacked_mille(driver)).game.id
    table = public_table(await driver.slash("table", {}))
    old_hand = await driver.click(table.message_id, f"jn:h:{game_id}")
    hand = await driver.click(table.message_id, f"jn:h:{game_id}")
    await driver.click(hand.message, component_id(hand, "Go"))
    again = await driver.click(old_hand.message, component_id(old_hand, "Discard 100"))
    assert again.ephemeral and "before the latest move" in (again.content or "")
    assert (await running_bot(driver).tables.current(GAMES_CHANNEL_ID)).version == 1


async def test_move_command_autocompletes_legal_moves(driver: InteractionDriver) -> None:
    """/move offers the caller's legal moves in plain words, filtered by what is typed."""
    game = (await stacked_mille(driver)).game
    result = await driver.autocomplete("move", "action", "go")
    assert {"name": "Play Go", "value": f"play go§{game.id}:0"} in result.choices
    assert all("go" in c["name"].lower() or "go" in c["value"] for c in result.choices)
    assert len(result.choices) <= 25


async def test_move_command_with_garbage_is_refused(driver: InteractionDriver) -> None:
    """A typed move that is not a move gets an ephemeral sentence; nothing is stored."""
    await stacked_mille(driver)
    result = await driver.slash("move", {"action": "launch rockets"})
    assert result.ephemeral and "don't understand" in (result.content or "")
    assert (await running_bot(driver).tables.current(GAMES_CHANNEL_ID)).version == 0


async def test_move_out_of_turn_is_refused(driver: InteractionDriver) -> None:
    """The waiting player is told it is not their turn."""
    await stacked_mille(driver)
    result = await driver.slash("move", {"action": "discard 25"}, user_id=BOB_ID)
    assert result.ephemeral and "not your turn" in (result.content or "")


async def test_challenge_accepted_by_the_challenged_member(driver: InteractionDriver) -> None:
    """Only the invited member can accept; accepting deals and posts the table."""
    result = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    assert not result.ephemeral and f"<@{BOB_ID}>" in (result.content or "")
    accept = component_id(result, "Accept")
    assert accept.startswith("jn:l:") and accept.count(":") == 3  # only the lobby's id
    intruder = await driver.click(result, accept, user_id=CAROL_ID)
    assert intruder.ephemeral and "not for you" in (intruder.content or "")
    accepted = await driver.click(result, accept, user_id=BOB_ID)
    public_table(accepted)
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.user_id for s in stored.seats] == [ALICE_ID, BOB_ID]
    again = await driver.forge(result, accept, user_id=BOB_ID)
    assert again.ephemeral and "already started" in (again.content or "")


async def test_an_invitation_names_each_member_before_their_answer(
    driver: InteractionDriver,
) -> None:
    """The invitation reads "Alice invites Bob (waiting)": each member, then their answer in a
    word. A mark before the name ("invites ⏳ Bob") was read aloud by a screen reader as
    "invites hourglass not done, Bob"."""
    result = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    headline = (result.content or "").splitlines()[0]
    assert headline.endswith(f"<@{ALICE_ID}> invites <@{BOB_ID}> (waiting)."), headline


async def test_challenge_declined(driver: InteractionDriver) -> None:
    """Declining closes the invitation and starts nothing."""
    result = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    declined = await driver.click(result, component_id(result, "Decline"), user_id=BOB_ID)
    assert "declined" in (declined.content or "")
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_expired_challenge_cannot_be_accepted(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An invitation past its time says so and starts nothing."""
    result = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    accept = component_id(result, "Accept")
    # The bot loaded the cog as an extension: patch the module object it is running.
    monkeypatch.setattr(sys.modules["cogs.lobby"], "clock", lambda: 4_000_000_000.0)
    clicked = await driver.click(result, accept, user_id=BOB_ID)
    assert "expired" in (clicked.content or "")
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_cannot_challenge_yourself(driver: InteractionDriver) -> None:
    """Inviting yourself is refused ephemerally."""
    result = await driver.slash("challenge", {"game": "mille", "member": ALICE_ID})
    assert result.ephemeral and "yourself" in (result.content or "")


async def test_forged_lobby_ids_start_nothing(driver: InteractionDriver) -> None:
    """Old-style challenge ids naming players, and unknown or huge lobby ids, are refused."""
    result = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    forged = f"jn:c:a:mille:{ALICE_ID}:{CAROL_ID}:4000000000:0:bsd.match.en"
    legacy = await driver.forge(result, forged, user_id=CAROL_ID)
    assert legacy.ephemeral and "older version" in (legacy.content or "")
    selfish = await driver.forge(result, f"jn:c:a:mille:{CAROL_ID}:{CAROL_ID}:4000000000:0:-")
    assert selfish.ephemeral
    unknown = await driver.forge(result, "jn:l:987654:a", user_id=BOB_ID)
    assert unknown.ephemeral and "does not exist" in (unknown.content or "")
    huge = await driver.forge(result, f"jn:l:{'9' * 30}:a", user_id=BOB_ID)
    assert huge.ephemeral and "not one Junction knows" in (huge.content or "")
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None
    assert await running_bot(driver).tables.store.results() == []


async def test_resign_posts_the_result(driver: InteractionDriver) -> None:
    """/resign ends the game and announces the winner."""
    await stacked_mille(driver)
    result = await driver.slash("resign", {}, user_id=BOB_ID)
    assert "Alice" in (public_table(result).content or "") and "won" in (
        public_table(result).content or ""
    )


async def test_abort_needs_the_other_players_agreement(driver: InteractionDriver) -> None:
    """/abort between members asks the other player; their button ends the game."""
    game_id = (await stacked_mille(driver)).game.id
    asked = await driver.slash("abort", {})
    assert asked.custom_ids == [f"jn:x:{game_id}"]
    same = await driver.click(asked, f"jn:x:{game_id}")
    assert same.ephemeral and "other players must agree" in (same.content or "")
    stranger = await driver.click(asked, f"jn:x:{game_id}", user_id=CAROL_ID)
    assert stranger.ephemeral and "not playing" in (stranger.content or "")
    agreed = await driver.click(asked, f"jn:x:{game_id}", user_id=BOB_ID)
    assert "aborted" in (agreed.content or "")
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None
    # The request itself becomes the notice, and its Agree button goes with the game.
    assert agreed.callback_type == 7
    request = driver.backend.messages[int(asked.message["id"])] if asked.message else {}
    assert "Everyone agreed" in request.get("content", "") and not request.get("components")


async def test_rules_are_private(driver: InteractionDriver) -> None:
    """/rules answers ephemerally with the rules summary."""
    result = await driver.slash("rules", {"game": "mille"})
    assert result.ephemeral and "Coup fourré" in (result.content or "")


async def test_no_public_message_carries_a_hand(driver: InteractionDriver) -> None:
    """Hand images and hand texts only ever go out ephemerally."""
    game_id = (await stacked_mille(driver)).game.id
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game_id}")
    moved = await driver.click(hand.message, component_id(hand, "Go"))
    carrying = 0
    for result in (hand, moved):
        for response in result.responses:
            names = [a["filename"] for a in response.attachments]
            if "hand.png" in names or "Your hand" in (response.content or ""):
                carrying += 1
                # An edit changes the message it was made on: that message must be private.
                private = result.ephemeral if response.kind == "edit" else response.ephemeral
                assert private, f"a hand went out publicly: {response.kind}"
    assert carrying >= 2, "the hand was shown, then refreshed after the move"
    public = public_messages(driver)
    assert not any(a["filename"] == "hand.png" for m in public for a in m["attachments"])


async def test_play_in_a_thread_puts_the_game_there(driver: InteractionDriver) -> None:
    """With thread:true the game lives in a new thread, which counts as its own channel."""
    result = await driver.slash("play", {"game": "mille", "level": "random", "thread": True})
    assert "Your game is in" in (result.content or "")
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None
    games = await running_bot(driver).tables.store.active_games()
    assert len(games) == 1 and games[0].channel_id != GAMES_CHANNEL_ID
    posted = [
        m
        for m in driver.messages.values()
        if int(m["channel_id"]) == games[0].channel_id
        and any(a["filename"] == "table.png" for a in m["attachments"])
    ]
    assert posted, "the table was posted in the thread"


async def test_free_form_options_are_applied(driver: InteractionDriver) -> None:
    """Options typed as name:value reach the game."""
    await driver.slash("play", {"game": "mille", "level": "random", "options": "length:hand"})
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert stored.options["length"] == "hand"


@pytest.mark.parametrize(
    ("typed", "answer"), [("length:forever", "not a choice"), ("turbo", "could not read")]
)
async def test_garbage_options_are_refused(
    driver: InteractionDriver, typed: str, answer: str
) -> None:
    """A wrong option value or a malformed pair gets an ephemeral sentence and no game."""
    result = await driver.slash("play", {"game": "mille", "options": typed})
    assert result.ephemeral and answer in (result.content or "")
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_options_autocomplete_lists_the_games_options(driver: InteractionDriver) -> None:
    """The options field suggests name:value pairs of the chosen game."""
    result = await driver.autocomplete("play", "options", "mod", {"game": "mille"})
    assert [c["value"] for c in result.choices] == ["deck:modern"]


async def test_hint_suggests_a_legal_move_privately(driver: InteractionDriver) -> None:
    """/hint in a game against the computer answers ephemerally with a legal move and a button."""
    await stacked_mille(driver, SeatRecord(1, "Computer", policy="random"))
    result = await driver.slash("hint", {})
    assert result.ephemeral and "💡" in (result.followups[0].content or "")
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    legal = {m.notation for m in running_bot(driver).tables.hand(stored, ALICE_ID)[1]}
    (button,) = result.followups[0].custom_ids
    assert button.split(":")[-1].replace("+", " ") in legal


async def test_no_hints_between_members(driver: InteractionDriver) -> None:
    """Hints are refused when another member is playing."""
    await stacked_mille(driver)
    result = await driver.slash("hint", {})
    assert result.ephemeral and "only for games against the computer" in (result.content or "")


async def test_classic_solo_says_it_cannot_be_won(driver: InteractionDriver) -> None:
    """Starting the classic solitaire tells the player it is a score attack."""
    result = await driver.slash("play", {"game": "solo"})
    table = public_table(result)
    assert "cannot be cleared completely" in (table.content or "")
    assert any(cid.startswith("jn:p:") for cid in table.custom_ids)
    assert not any(cid.startswith("jn:h:") for cid in table.custom_ids)  # the hand is open


async def test_drawing_instead_of_a_coup_posts_nothing_public(driver: InteractionDriver) -> None:
    """Choosing Draw over a coup fourré changes nothing public, so nothing public is posted."""
    bot = running_bot(driver)
    deck = ["go", "driving-ace", "75", "75", "75", "50", "accident", *["50"] * 5, *["25"] * 6]
    update = await alice_against(driver, deck=deck)
    game_id = update.game.id
    await bot.tables.move(channel_id=GAMES_CHANNEL_ID, user_id=ALICE_ID, action="play go")
    await bot.tables.move(channel_id=GAMES_CHANNEL_ID, user_id=BOB_ID, action="play accident")
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game_id}")
    assert "Coup fourré! Driving Ace" in labels(hand)
    public_before = {m["id"] for m in public_messages(driver)}
    drew = await driver.click(hand.message, component_id(hand, "Draw"))
    public_after = {m["id"] for m in public_messages(driver)}
    assert public_after == public_before and drew.followups == []
    assert (await bot.tables.current(GAMES_CHANNEL_ID)).version == 3


async def test_an_invitation_survives_a_restart(tmp_path: Path) -> None:
    """A lobby lives in the database: after a restart its Accept button still starts the game."""
    from bot.client import JunctionBot
    from tests.cogs.conftest import bot_settings

    first = JunctionBot(bot_settings(tmp_path))
    async with InteractionDriver(first, run_setup_hook=True, timeout=60.0) as driver:
        invite = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
        accept = component_id(invite, "Accept")
        assert invite.message is not None
        message = dict(invite.message)
    await first.close()
    second = JunctionBot(bot_settings(tmp_path))
    async with InteractionDriver(second, run_setup_hook=True, timeout=60.0) as driver:
        accepted = await driver.click(message, accept, user_id=BOB_ID)
        public_table(accepted)
        stored = await second.tables.current(GAMES_CHANNEL_ID)
        assert [s.user_id for s in stored.seats] == [ALICE_ID, BOB_ID]
    await second.close()


async def test_an_invitation_names_only_the_options_that_change_the_game(
    driver: InteractionDriver,
) -> None:
    """Found by a newcomer's review: invitations listed every option, defaults included
    ("Options: deck bsd, length hand, names en." — codes that tell an invitee nothing about
    the standard game). Only what differs from the standard game is listed now."""
    changed = await driver.slash(
        "challenge", {"game": "mille", "member": BOB_ID, "options": "length:hand deck:bsd"}
    )
    assert "Options: length hand." in (changed.content or ""), changed.content
    await driver.click(changed, component_id(changed, "Decline"), user_id=BOB_ID)
    standard = await driver.slash(
        "challenge", {"game": "mille", "member": BOB_ID, "options": "deck:bsd names:en"}
    )
    assert "Options" not in (standard.content or ""), standard.content


async def test_a_lobby_button_forged_under_another_message_rewrites_nothing(
    driver: InteractionDriver,
) -> None:
    """Pressed under another of the bot's messages (here a finished game's table), an
    invitation's button is refused: that message is not turned into the invitation, and the
    invitation keeps its answers."""
    await driver.slash("play", {"game": "mille"})
    resigned = await driver.slash("resign", {})
    table = resigned.message
    assert table is not None
    before = copy.deepcopy(driver.backend.messages[int(table["id"])])
    invitation = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    accept = component_id(invitation, "Accept")
    forged = await driver.forge(table, accept, user_id=BOB_ID)
    assert forged.ephemeral and "not on its invitation" in (forged.content or "")
    assert driver.backend.messages[int(table["id"])] == before
    store = running_bot(driver).tables.store
    lobby = await store.get_lobby(int(accept.split(":")[2]))
    assert lobby is not None and [i.answer for i in lobby.invited] == ["pending"]
    accepted = await driver.click(invitation, accept, user_id=BOB_ID)
    public_table(accepted)


async def test_an_accept_that_opens_a_thread_is_answered_first(driver: InteractionDriver) -> None:
    """Bob accepts an invitation to play in a thread: his press is answered before the thread
    is opened (a call to Discord its rate limits may hold past the three seconds it gives an
    answer). Found by a review: the thread was opened first. The invitation then says the
    game is on, in its thread."""
    invite = await driver.slash("challenge", {"game": "mille", "member": BOB_ID, "thread": True})
    assert invite.message is not None
    since = len(driver.requests)
    await driver.click(invite, component_id(invite, "Accept"), user_id=BOB_ID)
    threads = rf"/channels/\d+/messages/{invite.message['id']}/threads"
    assert answered_before(driver, since, "POST", threads) == ["answer", "call"]
    (game,) = await running_bot(driver).tables.store.active_games()
    shown = driver.messages[int(invite.message["id"])]
    assert f"The game is on in <#{game.channel_id}>" in str(shown["content"])
    assert labels(shown) == []


async def test_an_accept_whose_thread_cannot_be_opened_is_told_so(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same press answered first, and Discord then refuses the thread: Bob is told so,
    only to him, no game starts, and the invitation stays open to try again."""

    async def refused(*_: object, **__: object) -> None:
        raise discord.HTTPException(_Refused(), "refused")

    invite = await driver.slash("challenge", {"game": "mille", "member": BOB_ID, "thread": True})
    assert invite.message is not None
    monkeypatch.setattr(discord.Message, "create_thread", refused)
    pressed = await driver.click(invite, component_id(invite, "Accept"), user_id=BOB_ID)
    (told,) = pressed.followups
    assert told.ephemeral and told.content == NO_THREAD
    assert await running_bot(driver).tables.store.active_games() == []
    shown = driver.messages[int(invite.message["id"])]
    assert labels(shown) == ["Accept", "Decline", "Start", "Cancel"]


class _Refused:
    """What discord.HTTPException reads of a refused response."""

    status = 403
    reason = "Forbidden"


async def test_play_in_a_thread_is_answered_before_the_thread_opens(
    driver: InteractionDriver,
) -> None:
    """/play thread:true answers ("thinking…") before it asks Discord for the thread, a call its
    rate limits may hold past the three seconds Discord gives an answer; the answer then says,
    in the channel, where the game is. The thread was opened first."""
    since = len(driver.requests)
    result = await driver.slash("play", {"game": "mille", "level": "random", "thread": True})
    threads = rf"/channels/{GAMES_CHANNEL_ID}/messages/\d+/threads"
    assert answered_before(driver, since, "POST", threads) == ["answer", "call"]
    (game,) = await running_bot(driver).tables.store.active_games()
    assert not result.ephemeral and f"Your game is in <#{game.channel_id}>" in (
        result.content or ""
    )

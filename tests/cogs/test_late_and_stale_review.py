"""A hostile review of the newest features played through the fake Discord: turn timers and
the games they end, refusals of buttons and suggestions of an earlier turn, members' names and
/move's suggestions. Each test holds what the review found, and says in its docstring what a
member saw before.
"""

from __future__ import annotations

import sys

import discord
import pytest

from bot.hindsight import LEFT_THE_GAME
from bot.store.base import SeatRecord
from cogs.play import OTHER_GAME, TURN_MARK, TYPE_IT, HintButton, _hint_button, split_turn
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, labels, replies, stacked_mille
from tests.cogs.test_windows_review import THREE_MEMBERS, _dragon
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

# 1000 Mile Race: Alice (Red, first: her 200 beats Bob's 25) holds eight cards of long names.
RED_LONG = [
    "puncture-proof",
    "right-of-way",
    "end-of-limit",
    "driving-ace",
    "green-light",
    "extra-tank",
    "spare-tire",
    "out-of-gas",
    "speed-trap",
    "tow-truck",
    "200",
]
BLUE = ["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"]


async def test_a_suggestion_too_long_for_discord_is_not_offered_cut(
    driver: InteractionDriver,
) -> None:
    """1000 Mile Race: Alice may cycle her eight cards, a move of 103 characters, past the 100
    Discord takes as a suggestion's value. Found by this review: the value was cut there
    ("… driving-ace right-of-"), so picking "Cycle …, Driving Ace, Right of Way" answered
    "There is no 1000 Mile Race card called 'right-of-'" (and a cut falling between two cards
    would have cycled fewer than she picked). Every suggestion offered now plays the move it
    names, at this turn."""
    tables = running_bot(driver).tables
    await tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="race",
        seats=THREE_MEMBERS[:2],
        deck=[*RED_LONG, "/", *BLUE],
    )
    stored = await tables.current(GAMES_CHANNEL_ID)
    legal = {m.notation for m in tables.hand(stored, ALICE_ID)[1]}
    assert max(map(len, legal)) > 100, "a move longer than a suggestion's value"
    typed = "puncture-proof, extra tank, driving ace, right of way) and draw"
    offered = (await driver.autocomplete("move", "action", typed)).choices
    assert offered, "the shorter cycles are still suggested"
    for choice in offered:
        notation, game, turn = split_turn(str(choice["value"]))
        assert notation in legal and (game, turn) == (stored.id, stored.version), choice
        assert str(choice["value"]).endswith(f"{TURN_MARK}{stored.id}:{stored.version}")


async def test_a_suggestion_of_a_game_that_ended_is_not_played_in_the_next(
    driver: InteractionDriver,
) -> None:
    """Alice is offered "Play Go" for her first turn; before she sends it, Bob resigns and a
    new game begins in the channel, at its first turn too. Found by this review: the
    suggestion carried only its turn, so it played Go in the new game, a table she had not
    seen. It is refused now, privately, and the new game stays as it was."""
    tables = running_bot(driver).tables
    await stacked_mille(driver)
    offered = (await driver.autocomplete("move", "action", "go")).choices
    await driver.slash("resign", {}, user_id=BOB_ID)
    second = (await stacked_mille(driver)).game
    sent = await driver.slash("move", {"action": offered[0]["value"]})
    assert sent.ephemeral and replies(sent) == OTHER_GAME, replies(sent)
    assert await tables.game_by_id(second.id) == second


async def test_a_thread_never_cuts_away_what_tells_two_long_names_apart(
    driver: InteractionDriver,
) -> None:
    """Alice and Bob both go by the same 32-character name; Alice hosts Dragon in a thread and
    Bob joins. Found by this review: the thread's name was cut at 90 characters, right through
    Bob's "(2)", so it read "Dragon Mille Bornes: Samantha Quartermaine-Whitfield1 vs
    Samantha Quartermaine-Whitfield1 " (the two alike again). Only whole names are shown now,
    and the ones that do not fit are counted."""
    long = "Samantha Quartermaine-Whitfield1"
    for user_id in (ALICE_ID, BOB_ID):
        member = driver.backend.world.member(user_id)
        assert member is not None
        member["nick"] = long
    hosted = await driver.slash("host", {"game": "dragon", "seats": 1, "thread": True})
    await driver.click(hosted.message, component_id(hosted, "Join"), user_id=BOB_ID)
    (thread,) = driver.backend.threads()
    assert thread["name"] == f"Dragon Mille Bornes: {long} and 1 more", thread["name"]


async def test_an_old_suggestion_of_a_member_who_left_says_they_left(
    driver: InteractionDriver,
) -> None:
    """Three members play Dragon; Carol holds a suggestion of the first turn, resigns, and sends
    it once the game has moved on. Found by a review: she was told "That is from an earlier
    turn. Use the buttons on the newest table", though no table could help her any more (her
    old hand already said she had left). She is told she left, privately, and the game stays
    as it was."""
    tables = running_bot(driver).tables
    first = await _dragon(running_bot(driver))
    await driver.slash("resign", {}, user_id=CAROL_ID)
    before = await tables.current(GAMES_CHANNEL_ID)
    assert before.version > first.version, "Carol's leaving moved the game on"
    old = f"pass{TURN_MARK}{first.id}:{first.version}"
    sent = await driver.slash("move", {"action": old}, user_id=CAROL_ID)
    assert sent.ephemeral and replies(sent) == LEFT_THE_GAME, replies(sent)
    assert await tables.current(GAMES_CHANNEL_ID) == before


def test_a_hint_button_plays_the_whole_move_or_is_not_offered() -> None:
    """A hint's button carries its move in its custom id, which Discord cuts at 100 characters.
    Found by a review: the id was cut there, so a long move (a 1000 Mile Race cycle) with a
    game and turn of many digits made a button naming a shorter cycle, and a longer one a
    button nothing answered. A button is offered only when it names the whole move."""
    cycle = "cycle puncture-proof right-of-way end-of-limit driving-ace extra-tank spare-tire"
    assert len(cycle) == 80, "as long as a hint's move may be, too long beside a long game id"
    for game_id, version in ((7, 3), (987_654_321, 123_456_789)):
        button = _hint_button(game_id, version, cycle, "Cycle four cards")
        if button is None:
            assert len(f"jn:k:{game_id}:{version}:{cycle}") > 100, "offered when it fits"
            continue
        assert isinstance(button, discord.ui.DynamicItem)
        custom_id = str(button.item.custom_id)
        assert len(custom_id) <= 100
        match = HintButton.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert match is not None, custom_id
        assert HintButton.from_match(match).notation == cycle
    assert _hint_button(987_654_321, 123_456_789, cycle, "Cycle four cards") is None


async def test_a_hint_too_long_for_a_button_says_to_type_it(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1000 Mile Race against the computer: the hint is Alice's cycle of all eight cards, 103
    characters. Its button could not carry it (before, one was offered that nothing
    answered); the hint says to type it with /move instead."""
    tables = running_bot(driver).tables
    await tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="race",
        seats=[THREE_MEMBERS[0], SeatRecord(1, "Computer", policy="normal")],
        deck=[*RED_LONG, "/", *BLUE],
    )
    stored = await tables.current(GAMES_CHANNEL_ID)
    longest = max((m.notation for m in tables.hand(stored, ALICE_ID)[1]), key=len)
    assert len(longest) > 100
    # The bot loads its cogs as modules of their own (discord.py's extensions): patch that one.
    played = sys.modules["cogs.play"]
    monkeypatch.setattr(played, "suggest_move", lambda *_: (longest, "it clears the hand"))
    hint = await driver.slash("hint", {})
    assert hint.ephemeral and TYPE_IT in replies(hint), replies(hint)
    assert not any("Play it" in label for label in labels(hint)), labels(hint)

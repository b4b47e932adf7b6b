"""Mille Bornes hands as the channel shows them: a member's private hand (its picture, its words
and its buttons in one order), then across hand boundaries a hand's end and score, then the
next hand's table, each told in its own message and in that order."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

import bot.render.mille as mille_render
from bot.engine.mille import rules
from bot.engine.mille.cards import Card
from bot.engine.mille.views import MilleSeatView
from bot.render.common import RGB
from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, component_id, labels, public_table, stacked_mille
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    GAMES_CHANNEL_ID,
    CapturedResponse,
)
from tests.discord.payloads import InteractionDriver
from tests.render.drawn import words_drawn

TO_700 = ["go", "200", "200", "100", "100", "100", *["25"] * 6, *["50", "75"] * 8]
"""Alice holds Go, 200, 200, 100, 100, 100: 700 miles in six turns; the computer only 25s and
no Go, so it discards while she drives."""


def files(message: CapturedResponse) -> list[str]:
    return [a["filename"] for a in message.attachments]


async def alice_at_700(driver: InteractionDriver, options: Mapping[str, str] | None = None) -> None:
    """Alice against the computer on ``TO_700``, played to the extension question."""
    await alice_against(
        driver,
        SeatRecord(1, "Computer (normal)", policy="normal"),
        deck=TO_700,
        seed=5,
        options=options,
    )
    for move in ["go", "200", "200", "100", "100", "100"]:
        await driver.slash("move", {"action": f"play {move}"})


async def test_the_hand_reads_left_to_right_as_its_buttons_do(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice holds Go, 100, 75, 75, 75, 50 and draws a 200. Before, her hand picture numbered
    the cards as held (1 Go, 2 100 miles … 6 50 miles, 7 200 miles), and its words listed them
    so, while the buttons said "Go", then "Discard 50 miles", "Discard 75 miles", "Discard 100
    miles", "Discard 200 miles", "Discard Go" (the deck's order): card 2 was the fourth
    discard. Now the picture and its words are in the buttons' order too (the deck's, as BSD
    mille sorts a hand), cards 1 to 7 left to right."""
    drawn: list[Card] = []
    tag = mille_render._hand_tag

    def seen(view: MilleSeatView, card: Card, playable: bool, coup: bool) -> tuple[str, RGB]:
        drawn.append(card)  # the picture tags each card under it, left to right
        return tag(view, card, playable, coup)

    monkeypatch.setattr(mille_render, "_hand_tag", seen)
    await stacked_mille(driver)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, "jn:h:1")
    assert hand.message is not None
    in_order = ["50 miles", "75 miles", "75 miles", "75 miles", "100 miles", "200 miles", "Go"]
    assert [card.name_in("en") for card in drawn] == in_order, drawn
    alt = hand.message["attachments"][0]["description"]
    assert alt.splitlines()[0] == "Your hand: " + ", ".join(in_order), alt
    # The buttons: what can be played, then the discards, each in the picture's order.
    assert labels(hand.message) == [
        "Go",
        "Discard 50 miles",
        "Discard 75 miles",
        "Discard 100 miles",
        "Discard 200 miles",
        "Discard Go",
    ], labels(hand.message)


async def test_the_hand_ends_in_its_own_message_before_the_next_table(
    driver: InteractionDriver,
) -> None:
    """Alice stops at 700 and the computer opens hand 2 in the same request. Before the fix one
    message said "Alice declines the extension. Hand 1 is over: … Hand 2: Computer (normal)
    starts." then "Computer (normal) discards Spare Tire." and "@Alice, your turn", with hand
    2's table image first and hand 1's score image last: the new hand's move came before the old
    hand's score. Now the hand's end comes with its score image alone, then hand 2's table."""
    await alice_at_700(driver)
    result = await driver.slash("move", {"action": "extend no"})
    public = [m for m in result.followups if not m.ephemeral]
    assert [files(m) for m in public] == [["score.png"], ["table.png"]], [
        (m.content, files(m)) for m in public
    ]
    ended, table = public
    text = ended.content or ""
    assert text == (
        "Alice declines the extension. Hand 1 is over: Alice completed the trip at 700 miles."
    ), text
    # The score image says the hand's breakdown in words; the table alone calls on Alice.
    alt = ended.attachments[0].get("description") or ""
    assert "Hand 1: Alice completed the trip at 700 miles." in alt, alt
    assert "Alice: 1600 (Milestones +700, Trip completed +400, Shut-out +500)" in alt, alt
    # Where the match stands, as the image's banner says it (the alt text said only the hand).
    assert alt.endswith("Match: Alice 1600 · Computer (normal) 0 (first to 5000)"), alt
    assert f"<@{ALICE_ID}>" not in text and not ended.components, text
    later = (table.content or "").splitlines()
    # The new hand's first line heads its table, then the computer's first move of it (before
    # the fix the line ended the previous message, above hand 1's score image).
    assert later[0] == "Hand 2: Computer (normal) starts.", later
    assert later[1].startswith("Computer (normal) ") and "Hand 1" not in later[1], later
    assert later[2:] == [f"<@{ALICE_ID}>, your turn — press **My hand** to play."], later


async def test_the_member_who_starts_the_next_hand_is_told_so_on_its_table(
    driver: InteractionDriver,
) -> None:
    """Alice ends hand 1 against Bob, who starts hand 2. Before the fix "Hand 2: Bob starts."
    closed hand 1's message, above its score image, and hand 2's table said only "@Bob, your
    turn": the line now heads the table where Bob acts. The table image (and /table, and
    replays) keep the whole caption, the hand's end and who starts."""
    await alice_against(driver, deck=TO_700, seed=5)
    moves = ["go", "200", "200", "100", "100", "100"]
    for done, move in enumerate(moves, start=1):
        await driver.slash("move", {"action": f"play {move}"})
        if done < len(moves):
            await driver.slash("move", {"action": "discard 25"}, user_id=BOB_ID)
    result = await driver.slash("move", {"action": "extend no"})
    public = [m for m in result.followups if not m.ephemeral]
    assert [files(m) for m in public] == [["score.png"], ["table.png"]], [
        (m.content, files(m)) for m in public
    ]
    ended, table = public
    assert ended.content == (
        "Alice declines the extension. Hand 1 is over: Alice completed the trip at 700 miles."
    ), ended.content
    assert (table.content or "").splitlines() == [
        "Hand 2: Bob starts.",
        f"<@{BOB_ID}>, your turn — press **My hand** to play.",
    ], table.content
    alt = table.attachments[0].get("description") or ""
    assert alt.endswith(
        "Hand 1 is over: Alice completed the trip at 700 miles. Hand 2: Bob starts."
    ), alt


async def test_the_extension_is_asked_with_the_buttons_on_the_table(
    driver: InteractionDriver,
) -> None:
    """At 700 the table shows "Go on to 1000!" and "Stop at 700" to everyone, and only Alice
    may answer. Before the fix its last line said "@Alice, your turn — press **My hand** to
    play.", sending her away from the question's own buttons; the other player's press of them
    is refused and changes nothing."""
    bot = running_bot(driver)
    await alice_against(driver, deck=TO_700, seed=5)
    moves = ["go", "200", "200", "100", "100", "100"]
    for done, move in enumerate(moves, start=1):
        result = await driver.slash("move", {"action": f"play {move}"})
        if done < len(moves):
            await driver.slash("move", {"action": "discard 25"}, user_id=BOB_ID)
    table = public_table(result)
    text = table.content or ""
    assert "Trip complete: go on to 1000?" in text, text
    assert text.endswith(f"<@{ALICE_ID}>, your turn — choose with the buttons below."), text
    assert labels(table) == ["Go on to 1000!", "Stop at 700", "My hand"], labels(table)
    version = (await bot.tables.current(GAMES_CHANNEL_ID)).version
    pressed = await driver.click(
        table.message_id, component_id(table, "Stop at 700"), user_id=BOB_ID
    )
    assert pressed.responses[-1].ephemeral, pressed.responses[-1].content
    assert "waiting for Alice" in (pressed.responses[-1].content or "")
    assert (await bot.tables.current(GAMES_CHANNEL_ID)).version == version
    # Once Alice decides, the question's buttons are gone and Bob is called on as usual.
    after = public_table(await driver.click(table.message_id, component_id(table, "Go on to 1000")))
    assert (after.content or "").startswith("Alice calls an extension: the trip is now 1000 miles!")
    assert (after.content or "").endswith(f"<@{BOB_ID}>, your turn — press **My hand** to play.")
    assert labels(after) == ["My hand"], labels(after)


@pytest.mark.parametrize(
    ("length", "said", "result"),
    [
        # Before the fix: "Alice declines the extension.\n🏆 **Alice** won! Alice 1600 ·
        # Computer (normal) 0. 5000 points reached.": nothing said how the last hand ended.
        (
            "match",
            "Alice declines the extension. Hand 1 is over: Alice completed the trip at 700 miles.",
            "🏆 **Alice** won! Alice 1600 · Computer (normal) 0. 1600 points reached.",
        ),
        (
            "hand",
            "Alice declines the extension. Alice completed the trip at 700 miles.",
            "🏆 **Alice** won! Alice 1600 · Computer (normal) 0. The single hand is over.",
        ),
    ],
    ids=["match", "single hand"],
)
async def test_the_last_hand_says_how_it_ended_before_the_result(
    driver: InteractionDriver,
    monkeypatch: pytest.MonkeyPatch,
    length: str,
    said: str,
    result: str,
) -> None:
    """The hand that ends the game: one message, its end, then the result said once, with the
    table and the hand's score image. (The match's goal is lowered to 1600 so that one hand
    reaches it; the engine's tests cover the real 5000.)"""
    monkeypatch.setattr(rules, "MATCH_TARGET", 1600)
    await alice_at_700(driver, {"length": length})
    public = (await driver.slash("move", {"action": "extend no"})).followups
    assert [files(m) for m in public] == [["table.png", "score.png"]]
    assert (public[0].content or "").splitlines() == [said, result]
    assert labels(public[0]) == ["Rematch"]


def said(message: CapturedResponse) -> list[str]:
    """A message's words and its images' alt texts, as a member (or a screen reader) reads them."""
    return [message.content or "", *(a.get("description") or "" for a in message.attachments)]


async def test_french_names_count_the_trip_in_bornes(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With French card names Alice plays "200 bornes" and the table said "Alice drives 200
    miles (200 so far).", its words "Alice  200 mi", then "the trip is now 1000 miles!" or, in
    /move's list, "Stop at 700 miles", and "Alice completed the trip at 700 miles." on the
    table, the score sheet and the replay. Every line now counts in bornes, as the cards do;
    the English lines keep their miles (the tests above). The score sheet's first line, in
    its picture and its words, read "Milestones +700" after that; it reads "Bornes +700"."""
    drawn = words_drawn(monkeypatch)
    await alice_against(
        driver,
        SeatRecord(1, "Computer (normal)", policy="normal"),
        deck=TO_700,
        seed=5,
        options={"names": "fr", "length": "hand"},
    )
    tables = [
        said(public_table(await driver.slash("move", {"action": f"play {move}"})))
        for move in ["go", "200", "200", "100", "100", "100"]
    ]
    content, alt = tables[1]
    assert content.startswith("Alice drives 200 bornes (200 so far)."), content
    assert "Alice               200 bornes  score 0" in alt, alt
    assert tables[-1][0].startswith("Alice drives 100 bornes (700 so far). Trip complete")
    words = [line for table in tables for line in table]
    suggested = await driver.autocomplete("move", "action", "stop")
    names = [choice["name"] for choice in suggested.choices]
    assert "Stop at 700 bornes" in names, names
    ended = [m for m in (await driver.slash("move", {"action": "extend no"})).followups]
    table, score = said(ended[0])[1:]
    assert (ended[0].content or "").splitlines()[0] == (
        "Alice declines the extension. Alice completed the trip at 700 bornes."
    ), ended[0].content
    assert "Alice               700 bornes  score 1600" in table, table
    assert score.startswith("══ Hand 1: Alice completed the trip at 700 bornes. ══"), score
    assert "Alice: 1600 (Bornes +700, Trip completed +400, Shut-out +500)" in score, score
    assert "Bornes" in drawn, drawn
    words += [*names, *said(ended[0])]
    replay = await driver.slash("replay", {})
    words += [line for message in replay.followups for line in said(message)]
    words += drawn
    assert not [line for line in words if "mile" in line.lower() or " mi " in line], words


async def test_a_match_left_in_its_second_hand_posts_no_earlier_score_sheet(
    driver: InteractionDriver,
) -> None:
    """Alice wins hand 1 (1600 to 0, posted with its score sheet when it ended), hand 2 is
    dealt, and she resigns. The match's last table came with hand 1's score sheet again, now
    under the match's gold banner ("Hand 1 — score", "★ Computer (normal) wins the match! ★",
    "Alice left the game."; in words "══ Hand 1: Alice completed the trip at 700 miles. ══"),
    as if hand 1 had decided the match. Hand 2 is never scored (docs/rules/mille.md, Leaving):
    the last table now comes alone, and its words say who won, the match's standing and who
    left."""
    await alice_at_700(driver)
    ended = (await driver.slash("move", {"action": "extend no"})).followups
    assert [files(m) for m in ended] == [["score.png"], ["table.png"]]
    left = public_table(await driver.slash("resign", {}))
    assert files(left) == ["table.png"], files(left)
    assert (left.content or "").splitlines()[0] == (
        "🏆 **Computer (normal)** won! Alice 1600 · Computer (normal) 0. Alice left the game."
    ), left.content
    assert not [line for line in said(left) if "Hand 1" in line], said(left)


async def test_the_score_sheet_names_the_computer_as_its_lines_do(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice completes the trip against "Computer (normal)": the score sheet's panel was headed
    "Computer" (at 28 px its level did not fit) under lines, a headline and an alt text naming
    "Computer (normal)"; the panel names it whole now."""
    await alice_at_700(driver, {"length": "hand"})
    drawn = words_drawn(monkeypatch)
    ended = (await driver.slash("move", {"action": "extend no"})).followups
    assert "Computer (normal): 0" in said(ended[0])[2], said(ended[0])
    computers = [words for words in drawn if "Computer" in words]
    assert "Computer (normal)" in computers, computers
    assert all("Computer (normal)" in words for words in computers), computers

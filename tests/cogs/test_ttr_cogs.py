"""Ticket to Ride through the cogs: four seats (two members, two computers), tickets kept and
Railyard sets played through multi-selects, a huge hand's sets played through the colour and
set buttons, and a solo game to its end."""

from __future__ import annotations

from typing import Any

from bot.store.base import SeatRecord, StoredGame
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import buttons_behind, component_id, labels, played_to_the_end, public_table
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    InteractionResult,
    walk_components,
)
from tests.discord.payloads import InteractionDriver
from tests.engine.ttr_helpers import G, lay, yard_of

# Late in a game of blind draws: 28 cards, ten Reds and ten Locomotives among them; Bob's Blue
# pair must be beaten. 200-odd Railyard plays: more menus of 25 than a message holds.
HUGE_HAND = [*["red"] * 10, *["loco"] * 10, *["blue"] * 3, "green", "white", "black", "yellow"]
HUGE_HAND.append("purple")


def _selects(message: dict[str, Any] | None) -> list[dict[str, Any]]:
    assert message is not None
    return [c for c in walk_components(message.get("components") or []) if c.get("type") == 3]


async def _keep_first_tickets(
    driver: InteractionDriver, table_id: int, game_id: int, user: int
) -> None:
    """Open the hand and keep as few tickets as the rule allows, from the keep menu."""
    bot = running_bot(driver)
    hand = await driver.click(table_id, f"jn:h:{game_id}", user_id=user)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    view, _ = bot.tables.hand(stored, user)
    (menu,) = [s for s in _selects(hand.message) if s["custom_id"] and "Keep" in s["placeholder"]]
    wanted = max(1, view.keep_minimum)
    if view.keep_one_of:  # solo: the highest-value ticket must be among them
        values = [view.keep_one_of[0].code]
    else:
        values = [o["value"] for o in menu["options"][:wanted]]
    kept = await driver.select(hand.message, menu["custom_id"], values, user_id=user)
    assert not kept.ephemeral or kept.followups, kept.content


async def test_four_seats_two_members_two_computers(driver: InteractionDriver) -> None:
    """A lobby seats Alice, Bob and two computers; both keep tickets from a menu and play."""
    bot = running_bot(driver)
    invite = await driver.slash("challenge", {"game": "ttr", "member": BOB_ID, "computers": 2})
    started = await driver.click(invite, component_id(invite, "Accept"), user_id=BOB_ID)
    table = public_table(started)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert [s.user_id is None for s in stored.seats] == [False, False, True, True]
    # Everyone chooses tickets at once; the computers already have.
    assert f"<@{ALICE_ID}>" in (table.content or "") and f"<@{BOB_ID}>" in (table.content or "")
    for keeper in (ALICE_ID, BOB_ID):
        await _keep_first_tickets(driver, table.message_id or 0, stored.id, keeper)
    # Then turns: each member plays what the list offers first, a Railyard set when possible.
    railyard = False
    for _ in range(12):
        stored = await bot.tables.current(GAMES_CHANNEL_ID)
        here = bot.tables.position(stored)
        (seat,) = here.acting
        member = stored.seats[seat].user_id
        assert member is not None, "computers never keep the members waiting"
        user = member
        view, moves = bot.tables.hand(stored, user)
        yard = next((m for m in moves if m.notation.startswith("yard ")), None)
        if yard is not None and not railyard and view.hand_size <= 25:
            posted = public_table(await driver.slash("table", {}))
            hand = await driver.click(posted.message_id, f"jn:h:{stored.id}", user_id=user)
            (menu,) = [s for s in _selects(hand.message) if "Railyard" in s["placeholder"]]
            cards = yard.notation.split()[1:]
            counts: dict[str, int] = {}
            values = []
            for card in cards:
                counts[card] = counts.get(card, 0) + 1
                values.append(f"{card}#{counts[card]}")
            played = await driver.select(hand.message, menu["custom_id"], values, user_id=user)
            assert "Railyard" in (public_table(played).content or "")
            railyard = True
            continue
        await driver.slash("move", {"action": moves[0].notation}, user_id=user)
    assert railyard, "a Railyard set was played from the multi-select"
    state = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state
    assert sum(len(t) for t in state.tickets) >= 4


async def test_a_solo_game_to_the_end(driver: InteractionDriver) -> None:
    """/play ttr-solo: keep the highest ticket, then sixteen turns of the Station Clock."""
    bot = running_bot(driver)
    table = public_table(await driver.slash("play", {"game": "ttr-solo"}))
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    await _keep_first_tickets(driver, table.message_id or 0, stored.id, ALICE_ID)
    await played_to_the_end(driver, ALICE_ID, 200)
    [result] = await bot.store.results(game_key="ttr-solo")
    assert {"won", "score", "margin"} <= set(result.record.details[0])
    board = await driver.slash("leaderboard", {"game": "ttr-solo"})
    assert board.followups[0].file("leaderboard.png")[:4] == b"\x89PNG"


async def test_a_lost_solo_game_says_the_hidden_tickets_win_once(
    driver: InteractionDriver,
) -> None:
    """Sixteen turns of first moves lose to the hidden tickets. Before the fix the result line
    read "🏁 Game over. … You scored -450, the hidden tickets 144.", leaving the player to
    work out who won; now it names the winner once, as the score image does, and giving up
    still reads "Game over." with the reason."""
    bot = running_bot(driver)
    table = public_table(await driver.slash("play", {"game": "ttr-solo"}))
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    await _keep_first_tickets(driver, table.message_id or 0, stored.id, ALICE_ID)
    last: InteractionResult | None = None
    for _ in range(200):
        current = await bot.tables.store.active_game(GAMES_CHANNEL_ID)
        if current is None:
            break
        _, moves = bot.tables.hand(current, ALICE_ID)
        last = await driver.slash("move", {"action": moves[0].notation})
    assert last is not None
    said = public_table(last).content or ""
    assert "🏁 **The hidden tickets win.**" in said, said
    assert said.count("hidden tickets win") == 1 and "Game over" not in said, said
    assert "You scored" in said, said
    public_table(await driver.slash("play", {"game": "ttr-solo"}))
    gave_up = public_table(await driver.slash("resign", {})).content or ""
    assert "🏁 **Game over.** You gave up." in gave_up, gave_up
    assert "hidden tickets win" not in gave_up, gave_up


async def _huge_hand(driver: InteractionDriver) -> tuple[StoredGame, InteractionResult]:
    """Alice (28 cards) against Bob at Ticket to Ride, Alice to play: her hand, opened from
    the table."""
    bot = running_bot(driver)
    state = lay(2, hands=[HUGE_HAND, ["orange"] * 7], yards=[{}, {"blue": (2, 0)}])
    stored = await bot.tables.store.create_game(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="ttr",
        seats=[SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)],
        options=G.resolve_options({}),
        state=G.to_dict(state),
    )
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{stored.id}")
    assert hand.ephemeral and hand.message is not None
    return stored, hand


async def test_a_huge_hand_plays_a_set_through_colour_then_set(
    driver: InteractionDriver,
) -> None:
    """28 cards: My hand has a button per colour and no "type /move" note. Play Red asks how
    many Red, then how many Locomotives join them; the set lands in Alice's Railyard."""
    bot = running_bot(driver)
    _, hand = await _huge_hand(driver)
    assert "type /move" not in (hand.content or ""), hand.content
    assert "Play Red" in labels(hand) and "Play White" in labels(hand)
    red = await driver.click(hand.message, component_id(hand, "Play Red"))
    assert red.ephemeral and red.content == "Play Red: How many Red go to your Railyard?"
    three = await driver.click(red.message, component_id(red, "3 Red…"))
    assert three.content == "3 Red: How many Locomotives join them?"
    assert labels(three)[:3] == ["3 Red", "3 Red + 1 Locomotive", "3 Red + 2 Locomotives"]
    played = await driver.click(three.message, component_id(three, "3 Red + 2 Locomotives"))
    assert "3 Red + 2 Locomotives to the Railyard" in (public_table(played).content or "")
    state = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state
    assert yard_of(state, 0) == {"red": (3, 2)}
    assert state.hands[0][0] == 7 and state.hands[0][8] == 8


async def test_every_railyard_play_of_a_huge_hand_has_a_button(driver: InteractionDriver) -> None:
    """Behind the colour buttons (and the three-singles menu), every legal Railyard play; each
    button says the set it plays."""
    bot = running_bot(driver)
    stored, hand = await _huge_hand(driver)
    _, moves = bot.tables.hand(stored, ALICE_ID)
    legal = {m.notation for m in moves if m.notation.startswith("yard ")}
    reached: set[str] = set()
    assert hand.message is not None
    for component in walk_components(hand.message.get("components") or []):
        custom_id = str(component.get("custom_id", ""))
        if component.get("type") == 3 and "three singles" in component["placeholder"]:
            colours = [str(o["value"]) for o in component["options"]]
            reached.update(
                "yard " + " ".join(trio)
                for trio in ((a, b, c) for a in colours for b in colours for c in colours)
                if len(set(trio)) == 3
            )
        elif custom_id.startswith("jn:g:"):
            for button in await buttons_behind(driver, hand.message, [custom_id]):
                reached.add(f"yard {button['label']}")
    assert {G.format_action(G.parse_action(n)) for n in reached} >= legal
    assert (await bot.tables.current(GAMES_CHANNEL_ID)).version == 0, "nothing was played"


NOT_OFFERED = "That button is not one of this table's; nothing changed."


async def test_stale_and_forged_set_buttons_are_refused(driver: InteractionDriver) -> None:
    """A set button from before the play, and set buttons no picker offers, each get one
    readable sentence and change nothing."""
    bot = running_bot(driver)
    stored, hand = await _huge_hand(driver)
    red = await driver.click(hand.message, component_id(hand, "Play Red"))
    four = await driver.click(red.message, component_id(red, "4 Red…"))
    four_only = component_id(four, "4 Red + 1 Locomotive")
    group = component_id(hand, "Play Red")  # jn:g:<game>:0:h:<picker>
    picker = group.rsplit(":", 1)[1]
    forged = [
        f"jn:p:{stored.id}:0:h:{picker}:3:99",  # no such set
        f"jn:p:{stored.id}:0:h:{picker}:3",  # a group, not a set
        f"jn:g:{stored.id}:0:h:{picker}:3:1",  # a set, not a group
        f"jn:g:{stored.id}:0:h:{picker}:42",  # no such choice
    ]
    for custom_id in forged:
        result = await driver.forge(four.message, custom_id)
        said = result.content or ""
        # Nothing moved: the button was never offered, and "old" would be untrue.
        assert result.ephemeral and said == NOT_OFFERED, (custom_id, said)
    assert (await bot.tables.current(GAMES_CHANNEL_ID)).version == 0
    # Alice plays 3 Red from another opening; the 4 Red buttons she still holds are stale.
    again = await driver.click(hand.message, group)
    three = await driver.click(again.message, component_id(again, "3 Red…"))
    public_table(await driver.click(three.message, component_id(three, "3 Red + 1 Locomotive")))
    after = await bot.tables.current(GAMES_CHANNEL_ID)
    row = await bot.tables.store.get_game(stored.id)
    assert row is not None
    stale = await driver.forge(four.message, four_only)
    said = stale.content or ""
    assert stale.ephemeral and said.startswith("That button was shown before the latest move"), said
    now = await bot.tables.store.get_game(stored.id)
    assert now is not None and (now.version, now.state) == (after.version, row.state)
    assert yard_of(bot.tables.position(now).state, 0) == {"red": (3, 1)}


async def test_move_takes_a_face_up_card_by_its_colour(driver: InteractionDriver) -> None:
    """/move 'take orange' takes the face-up Orange (slot 2 of the laid-out draw area), as a
    new player types it; 'take white', with no White face up, says what shows."""
    bot = running_bot(driver)
    state = lay(2, hands=[["red"] * 3, ["blue"] * 3])
    await bot.tables.store.create_game(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="ttr",
        seats=[SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)],
        options=G.resolve_options({}),
        state=G.to_dict(state),
    )
    refused = await driver.slash("move", {"action": "take white"})
    assert refused.ephemeral and "No White card is face up" in (refused.content or "")
    taken = await driver.slash("move", {"action": "Take Orange"})
    assert "takes Orange from slot 2" in (public_table(taken).content or "")


async def test_resigning_from_computers_says_so_above_the_game_they_play_out(
    driver: InteractionDriver,
) -> None:
    """Alice resigns from a table of two computers, which then play the whole game out: a
    hundred moves that do not fit in a message. The message still begins with her leaving, then
    a count, then the last moves and the result. Before the fix the oldest captions gave way
    first, her leaving among them, so the message never said why the game ended for her."""
    bot = running_bot(driver)
    await driver.slash("play", {"game": "ttr", "computers": 2})
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    _, moves = bot.tables.hand(stored, ALICE_ID)
    await driver.slash("move", {"action": moves[0].notation})  # her tickets
    resigned = public_table(await driver.slash("resign", {}))
    lines = (resigned.content or "").splitlines()
    assert lines[0].startswith("🏳️ alice left the game and will finish 3rd: "), lines[:2]
    assert lines[1].startswith("… (") and lines[1].endswith("more moves not shown)"), lines[1]
    # The deal is random: now and then the two computers end level ("… tie for the win!").
    headline = lines[-1].split("!")[0] + "!"
    assert headline.endswith(("won!", "tie for the win!")), lines[-1]

"""Ticket to Ride through the cogs: four seats (two members, two computers), tickets kept and
Railyard sets played through multi-selects, and a solo game to its end."""

from __future__ import annotations

from typing import Any

from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, public_table
from tests.discord.backend import ALICE_ID, BOB_ID, GAMES_CHANNEL_ID, walk_components
from tests.discord.payloads import InteractionDriver


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
    for _ in range(200):
        current = await bot.tables.store.active_game(GAMES_CHANNEL_ID)
        if current is None:
            break
        _, moves = bot.tables.hand(current, ALICE_ID)
        await driver.slash("move", {"action": moves[0].notation})
    assert await bot.tables.store.active_game(GAMES_CHANNEL_ID) is None
    [result] = await bot.store.results(game_key="ttr-solo")
    assert {"won", "score", "margin"} <= set(result.record.details[0])
    board = await driver.slash("leaderboard", {"game": "ttr-solo"})
    assert board.followups[0].file("leaderboard.png")[:4] == b"\x89PNG"

"""A review of games with three to six seats played through the fake Discord: Ticket to Ride and
Dragon Mille Bornes gathered by /host and /challenge, members resigning, timing out or pressing
what is not theirs while the others play on.

Each test says, in its docstring, what this review found before its fix (or which combination it
pins that no other test played).
"""

from __future__ import annotations

from bot.hindsight import LEFT_THE_GAME
from bot.position import OUT_OF_THE_GAME
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, labels, replies
from tests.cogs.test_dragon_six_review import _carol_killed
from tests.cogs.test_windows_review import _dragon
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID
from tests.discord.payloads import InteractionDriver


async def test_a_hint_asked_by_a_member_who_left_or_is_out_says_so(
    driver: InteractionDriver,
) -> None:
    """Six cars: Carol's driver is dead, then Bob resigns; Alice plays on against the computers.
    Asked for a hint, Carol is told she is out and Bob that he left, as a move of theirs is.
    Found by this review: both were told "Hints are only for games against the computer or
    played alone", though their game was one against the computer now, and no hint could help
    a member who has no move left to make."""
    await _carol_killed(driver)
    await driver.slash("resign", {}, user_id=BOB_ID)
    for user_id, said in ((CAROL_ID, OUT_OF_THE_GAME), (BOB_ID, LEFT_THE_GAME)):
        hint = await driver.slash("hint", {}, user_id=user_id)
        assert hint.ephemeral and replies(hint) == said, replies(hint)


async def test_abort_typed_while_a_request_stands_agrees_to_it(driver: InteractionDriver) -> None:
    """Three members play Dragon. Alice asks to abort; Bob types /abort instead of pressing
    "Agree to abort": that is his agreement, said as the button says it, pinging nobody; Carol's
    press on Alice's request then ends the game. Found by this review: Bob's /abort posted a
    second request that pinged Alice to agree to what she had asked for herself."""
    store = running_bot(driver).tables.store
    await _dragon(running_bot(driver))
    asked = await driver.slash("abort", {}, user_id=ALICE_ID)
    typed = await driver.slash("abort", {}, user_id=BOB_ID)
    assert not typed.ephemeral and replies(typed) == "bob agrees to abort; waiting for the others."
    assert "Agree to abort" not in labels(typed), "no second request"
    callback = typed.callback
    assert callback is not None and not callback.data["allowed_mentions"].get("users")
    assert await store.active_game(GAMES_CHANNEL_ID) is not None, "Carol has not agreed yet"
    await driver.click(asked, component_id(asked, "Agree to abort"), user_id=CAROL_ID)
    assert await store.active_game(GAMES_CHANNEL_ID) is None


async def test_an_abort_request_pings_only_the_members_asked_to_agree(
    driver: InteractionDriver,
) -> None:
    """Alice's request to abort names her and pings Bob and Carol, whose agreement it asks for.
    Found by this review: it pinged Alice too, with her own request."""
    await _dragon(running_bot(driver))
    asked = await driver.slash("abort", {}, user_id=ALICE_ID)
    callback = asked.callback
    assert callback is not None and f"<@{ALICE_ID}> wants to abort" in (callback.content or "")
    assert set(callback.data["allowed_mentions"]["users"]) == {BOB_ID, CAROL_ID}

"""What the channel reads when a member leaves a game of three or more: who left, where they
will finish, what became of their car or cards, who plays on and whose turn it is now (it read
"🏳️ Alice left the game." alone). Told from public facts only; two seats still read as before."""

from __future__ import annotations

from bot.store.base import GuildSettings, SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alt_text_of, play_first_offered, public_table, sweep_after
from tests.cogs.test_windows_review import CW, MB, THREE_MEMBERS
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

DRAGON_LEFT = (
    "Alice left the game and will finish 3rd; the car is out and its cards are discarded. "
    "Bob and Carol race on, Bob to play."
)


async def _dragon(driver: InteractionDriver, seats: list[SeatRecord] = THREE_MEMBERS) -> None:
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=seats,
        deck=[*MB, *CW],
    )


async def test_a_dragon_resignation_says_what_it_means_for_the_race(
    driver: InteractionDriver,
) -> None:
    """Alice resigns on her turn: the message and the image's words say where she will finish,
    that her car and cards are out, who races on and who plays now."""
    await _dragon(driver)
    resigned = await driver.slash("resign", {})
    lines = (public_table(resigned).content or "").splitlines()
    assert lines[0] == f"🏳️ {DRAGON_LEFT}", lines
    assert lines[1] == f"<@{BOB_ID}>, your turn — press **My hand** to play.", lines
    assert alt_text_of(resigned, "table.png").endswith(f"\n{DRAGON_LEFT}")


async def test_a_ticket_to_ride_resignation_says_what_it_means_for_the_game(
    driver: InteractionDriver,
) -> None:
    """Bob resigns after the opening tickets: the message says where he will finish, where his
    cards and tickets went, who plays on and whose turn it is."""
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=THREE_MEMBERS, seed=1
    )
    for member in (ALICE_ID, BOB_ID, CAROL_ID):
        await play_first_offered(driver, member)
    resigned = await driver.slash("resign", {}, user_id=BOB_ID)
    lines = (public_table(resigned).content or "").splitlines()
    assert lines[0] == (
        "🏳️ Bob left the game and will finish 3rd: their cards are discarded and their tickets "
        "go under the ticket deck. Alice and Carol play on, Alice to play."
    ), lines


async def test_a_forfeit_at_three_says_what_it_means_under_the_timeouts_line(
    driver: InteractionDriver,
) -> None:
    """Alice runs out of time with "forfeit": under the timeout's line, the channel reads what
    her leaving means, as for a resignation (it read the timeout's line alone)."""
    await running_bot(driver).store.set_guild_settings(GuildSettings(GUILD_ID, 60, "forfeit"))
    await _dragon(driver)
    await sweep_after(driver, 61)
    [said] = [m["content"] for m in driver.messages.values() if "forfeits" in m["content"]]
    assert said.splitlines()[:2] == [
        "⏰ Alice ran out of time and forfeits the game.",
        DRAGON_LEFT,
    ], said


async def test_a_resignation_at_two_still_reads_as_the_result(driver: InteractionDriver) -> None:
    """With two cars the game ends at once: the message is the result, which says who left,
    with no word of a place to come or of anyone racing on."""
    await _dragon(driver, THREE_MEMBERS[:2])
    resigned = public_table(await driver.slash("resign", {}, user_id=BOB_ID))
    content = resigned.content or ""
    assert content.startswith("🏆 **Alice** won!") and "Bob left the game." in content, content
    assert "will finish" not in content and "race on" not in content, content

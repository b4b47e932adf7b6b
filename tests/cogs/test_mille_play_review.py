"""Classic Mille Bornes played through the fake Discord as a new member and as a hostile one
would: what each message says, and that a refusal changes nothing stored."""

from __future__ import annotations

import pytest

from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, component_id, public_table
from tests.discord.backend import ALICE_ID, BOB_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

LAST_GO = [*["gasoline"] * 6, *["repairs"] * 6, "go"]
"""Alice draws the deck's last card, a Go, and plays it; then neither player holds a card that
can be played (remedies for hazards nobody suffers), so her Go ends the single hand."""


async def test_the_hand_a_game_ended_from_shows_no_cards_any_more(
    driver: InteractionDriver,
) -> None:
    """Alice ends the game by pressing Go in her hand. Before, her private hand message was
    edited to "The game is over." above the image it showed before the move, headed "Your
    turn — play or discard", the Go she had just played still in it; now the words stand
    alone."""
    await alice_against(driver, deck=LAST_GO, options={"length": "hand"})
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, "jn:h:1")
    assert hand.message is not None
    assert [a["filename"] for a in hand.message["attachments"]] == ["hand.png"]
    await driver.click(hand, component_id(hand, "Go"))
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None
    shown = driver.backend.messages[int(hand.message["id"])]
    assert shown["content"] == "The game is over."
    assert shown.get("attachments") == [] and not shown.get("components")


async def test_stats_of_a_solitaire_never_played_says_to_play_it_alone(
    driver: InteractionDriver,
) -> None:
    """A new member asks /stats for Mille Bornes Solo. Before, they were told to start one "with
    `/play` (against the computer) or `/challenge` (invite members)": the solitaire has no
    computer, and /challenge refuses it. A game for two keeps its sentence."""
    solo = await driver.slash("stats", {"game": "solo"})
    assert solo.followups[0].content == (
        "You have not finished a game of Mille Bornes Solo on this server yet. "
        "Start one with `/play`: it is played alone."
    )
    mille = await driver.slash("stats", {"game": "mille"}, user_id=BOB_ID)
    assert mille.followups[0].content == (
        "You have not finished a game of Mille Bornes on this server yet. "
        "Start one with `/play` (against the computer) or `/challenge` (invite members)."
    )


async def test_an_option_s_value_is_echoed_as_it_was_typed(driver: InteractionDriver) -> None:
    """`options: length:hand=1`: the refusal quoted the value as 'hand:1', which the member
    never typed (every "=" was read as ":"); it quotes 'hand=1' now, and nothing is dealt."""
    result = await driver.slash("play", {"game": "mille", "options": "length:hand=1"})
    assert result.ephemeral
    assert result.content == "'hand=1' is not a choice for length. Choose one of: match, hand."
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


@pytest.mark.parametrize("game_key", ["mille", "race", "dragon", "ttr", "solo"])
async def test_a_garbled_move_button_is_refused_alike_in_every_game(
    driver: InteractionDriver, game_key: str
) -> None:
    """A hand button of the kind that carries its move as text (an old version's move button,
    ``jn:m:``; a hint's *Play it*, ``jn:k:``), forged or garbled to text that is no move. Before,
    the game's help for a move typed wrong answered, a different sentence in each game and none
    of them the one a forged picker gets: Mille Bornes said "I don't understand 'zzz'. Try
    'play <card>', 'discard <card>', 'draw' or 'extend yes/no'." and "There is no Mille Bornes
    card called 'zzz'.", though the member typed nothing. Now every game answers, privately,
    as it answers a forged picker number, and nothing stored changes."""
    bot = running_bot(driver)
    seats = [SeatRecord(0, "Alice", user_id=ALICE_ID)]
    if game_key != "solo":
        seats.append(SeatRecord(1, "Bob", user_id=BOB_ID))
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key=game_key, seats=seats, seed=3
    )
    table = public_table(await driver.slash("table", {}))
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    game, version = stored.id, stored.version
    where = "t" if game_key == "solo" else "h"  # the solitaire's hand lies on the table
    shown = (
        table.message_id if where == "t" else await driver.click(table.message_id, f"jn:h:{game}")
    )
    forged = (await driver.forge(shown, f"jn:p:{game}:{version}:{where}:99")).responses[-1]
    assert (
        forged.ephemeral
        and forged.content == "That button is not one of this table's; nothing changed."
    )
    for custom_id in [
        f"jn:m:{game}:{version}:{where}:zzz",
        f"jn:m:{game}:{version}:{where}:play+zzz",
        f"jn:k:{game}:{version}:zzz",
    ]:
        answer = (await driver.forge(shown, custom_id)).responses[-1]
        assert answer.ephemeral, (custom_id, answer.content)
        assert answer.content == forged.content, (custom_id, answer.content)
    after = await bot.tables.current(GAMES_CHANNEL_ID)
    assert after.version == version and after.state == stored.state
    assert await bot.tables.store.moves(game) == []

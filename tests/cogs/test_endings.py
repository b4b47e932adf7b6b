"""The last table message of a game, as members see it in the channel: the result line names
the winner once, with the scores, and the reason says how the game ended without announcing the
winner (or the draw) a second time."""

from __future__ import annotations

import random
import re

import pytest

from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, public_table
from tests.discord.backend import GAMES_CHANNEL_ID
from tests.discord.payloads import InteractionDriver


async def last_message(driver: InteractionDriver, game_key: str, seed: int) -> str:
    """Alice and Bob play ``game_key`` at random (seeded) through the seam; the move that ends
    the game is made with /move, and the table message it posts is returned."""
    bot = running_bot(driver)
    tables = bot.tables
    await alice_against(driver, game_key=game_key, seed=seed)
    rng = random.Random(seed)
    for _ in range(5000):
        stored = await tables.current(GAMES_CHANNEL_ID)
        here = tables.position(stored)
        user = stored.seats[here.acting[0]].user_id
        assert user is not None
        notation = rng.choice(tables.hand(stored, user)[1]).notation
        game = here.game
        after = game.apply(here.state, here.acting[0], game.parse_action(notation))
        if game.outcome(after) is not None:
            result = await driver.slash("move", {"action": notation}, user_id=user)
            return public_table(result).content or ""
        await tables.move(channel_id=GAMES_CHANNEL_ID, user_id=user, action=notation)
    raise AssertionError("the game did not end")


def verdicts(text: str) -> list[str]:
    """Every phrase of the message that announces a result (not a card "draw")."""
    return re.findall(r"\b(?:wins?|won|tie for the win|a draw|Draw!)", text, flags=re.IGNORECASE)


@pytest.mark.parametrize(
    ("game_key", "seed", "winner"),
    [
        # "🏆 **Alice** won! Alice 30 · Bob -136. The second train deck has run out. Alice wins
        # with 30 points." before the fix; the image's banner read "Alice wins!" over the same.
        ("ttr", 1, "Alice"),
        # "… Both libraries are spent and two turns in a row passed without a play. Bob wins
        # with more miles (75 to 0)." before the fix, under a banner "Bob wins the race!".
        ("race", 1, "Bob"),
        ("dragon", 2, "Bob"),
        ("mille", 1, "Bob"),
    ],
)
async def test_the_winner_is_announced_once(
    driver: InteractionDriver, game_key: str, seed: int, winner: str
) -> None:
    text = await last_message(driver, game_key, seed)
    result = next(line for line in text.splitlines() if line.startswith("🏆"))
    assert result.startswith(f"🏆 **{winner}** won! Alice "), text
    assert verdicts(text) == ["won"], text


async def test_a_dragon_race_to_1000_is_told_once(driver: InteractionDriver) -> None:
    """Before the fix the caption said "Alice crosses the line at 1000 miles!" and the result
    line, after it, "Alice drove exactly 1000 miles.": one event told twice."""
    text = await last_message(driver, "dragon", 1)
    assert "🏆 **Alice** won! Alice 1000 · Bob 950." in text, text
    assert text.count("crosses the line") == 1 and "drove exactly" not in text, text
    assert verdicts(text) == ["won"], text


@pytest.mark.parametrize(
    ("game_key", "seed"),
    [
        # "🤝 **Draw!** Alice 125 · Bob 125. Both libraries are spent and neither player can
        # act. Equal miles (125): a draw." before the fix.
        ("race", 39),
        # "… The arena closes after 25 rounds without a mile driven or a driver hurt: equal
        # miles, a draw." before the fix.
        ("dragon", 8),
    ],
)
async def test_a_draw_is_announced_once(
    driver: InteractionDriver, game_key: str, seed: int
) -> None:
    text = await last_message(driver, game_key, seed)
    assert "🤝 **Draw!** Alice " in text, text
    assert verdicts(text) == ["Draw!"], text

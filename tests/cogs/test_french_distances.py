"""With French card names the distance cards are "75 bornes": Mille Bornes Solo and Dragon
count the trip in bornes too, wherever the table speaks of it, as classic Mille Bornes does
(tests/cogs/test_mille_hands.py). Each game is played to its end through the fake Discord,
and nothing a member is shown (words, alt texts, buttons, /move's list, hints, the replay)
says miles."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, labels
from tests.cogs.test_mille_hands import said
from tests.discord.backend import ALICE_ID, GAMES_CHANNEL_ID, GUILD_ID, InteractionResult
from tests.discord.payloads import InteractionDriver

SOLO_TO_THE_END = [
    *["go", "go", "go", "go", "stop", "75", "75"],  # highway 1: 75 on top, another under it
    *["go", "go", "go", "go", "go", "stop", "200"],  # highway 2: a 200
    *["go", "go", "go", "go", "go", "gasoline", "out-of-gas"],
    *["gasoline"] * 5 + ["spare-tire", "flat-tire"],
    *["spare-tire"] * 5 + ["repairs", "accident"],
    *["repairs"] * 5 + ["end-of-limit", "stop"],
    *["end-of-limit"] * 5 + ["100", "speed-limit"],
    *["75", "200", "50", "25", "25", "25", "25"],  # the hand; nothing left for the tank
]
"""Highways 3 to 7 show hazards no distance card clears: Alice claims a 75, sacrifices it,
claims the 200, and with no move and an empty tank (classic: no refuel) the run ends."""


def _words(result: InteractionResult) -> list[str]:
    """Every line a member is shown by an interaction: its messages, their alt texts and their
    buttons."""
    return [line for m in result.responses for line in (*said(m), *labels(m))]


async def _solo(driver: InteractionDriver, deck: Sequence[str] | None = None) -> None:
    """Alice's classic Solo run with the French names, on ``deck`` if stacked."""
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="solo",
        seats=[SeatRecord(0, "Alice", user_id=ALICE_ID)],
        deck=deck,
        seed=5,
        options={"names": "fr", "preset": "classic"},
    )


async def test_solo_with_french_names_counts_in_bornes(driver: InteractionDriver) -> None:
    """Before, with French names Alice's "75 bornes" on the "75 bornes" of highway 1 said
    "+75 miles", the sacrifice "−75 miles", the end "Out of fuel: … 200 miles.", its banner
    "200 miles · classic is a score attack", the score card "MILES" and the hint "(+75
    miles)"; a run she left said "Left with 0/49 cleared and 0 miles.". Each now says bornes."""
    await _solo(driver, SOLO_TO_THE_END)
    words = _words(await driver.slash("hint", {}))
    assert any("(+75 bornes)" in line for line in words), words
    suggested = await driver.autocomplete("move", "action", "")
    words += [choice["name"] for choice in suggested.choices]
    claimed = _words(await driver.slash("move", {"action": "clear 1 with 75"}))
    assert any(": +75 bornes." in line for line in claimed), claimed
    sacrificed = _words(await driver.slash("move", {"action": "sacrifice 75 on 1"}))
    assert any("You sacrifice a claimed 75 on highway 1: −75 bornes." in s for s in sacrificed)
    ended = _words(await driver.slash("move", {"action": "clear 2 with 200"}))
    assert any("3/49 cards cleared, 200 bornes." in line for line in ended), ended
    words += claimed + sacrificed + ended
    words += _words(await driver.slash("replay", {}))
    await _solo(driver)  # a new run, left at once
    left = _words(await driver.slash("resign", {}))
    assert any("Left with 0/49 cleared and 0 bornes." in line for line in left), left
    words += left
    assert not [line for line in words if "mile" in line.lower() or " mi " in line], words


DRAGON_TO_1000 = [
    *["go", "200", "200", "100", "100", "100"],  # Alice's Mille Bornes hand
    *["25"] * 6,  # the computer's: no Go, so it never drives
    *["100", "50"] * 3,  # the draws, Alice's first
    *["50"] * 7,
    *["armor-front"] * 5,  # Car Wars hands that hurt nobody
    *["armor-left"] * 5,
    *["swerve"] * 10,
]
"""Alice drives Go, then 100 six times and 200 twice: 1000 on her ninth turn."""


async def test_dragon_with_french_names_counts_in_bornes(driver: InteractionDriver) -> None:
    """Before, with French names Alice's "100 bornes" said "Alice drives 100 miles (100 so
    far).", the arena's words "Alice: 100 mi", the miles bar "MILES" and the end "Alice
    crosses the line at exactly 1000 miles."; each now says bornes."""
    await alice_against(
        driver,
        SeatRecord(1, "Computer (normal)", policy="normal"),
        game_key="dragon",
        deck=DRAGON_TO_1000,
        seed=5,
        options={"names": "fr"},
    )
    words = _words(await driver.slash("hint", {}))
    suggested = await driver.autocomplete("move", "action", "")
    words += [choice["name"] for choice in suggested.choices]
    played = _words(await driver.slash("move", {"action": "play go"}))
    words += played
    for drive in ["100"] * 6 + ["200", "200"]:
        offered = await driver.autocomplete("move", "action", "discard")
        car_wars = [c["value"] for c in offered.choices if c["value"].startswith("cw-discard")]
        words += _words(await driver.slash("move", {"action": car_wars[0]}))
        played = _words(await driver.slash("move", {"action": f"play {drive}"}))
        words += played
    assert any("Alice drives 100 bornes (100 so far)." in line for line in words), words
    assert any("Alice: 100 bornes," in line for line in words), words
    ended = "Alice crosses the line at exactly 1000 bornes."
    assert any(ended in line for line in played), played
    words += _words(await driver.slash("replay", {}))
    assert not [line for line in words if "mile" in line.lower() or " mi " in line], words

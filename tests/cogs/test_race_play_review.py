"""The 1000 Mile Race played through the fake Discord as a new member and as a hostile one
would: what each message says, and that a refusal changes nothing stored. Each test holds a
fix for what that play found (its docstring says what a member saw before)."""

from __future__ import annotations

from pathlib import Path

from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, public_table, replies, store_dump
from tests.discord.backend import BOB_ID, GAMES_CHANNEL_ID
from tests.discord.payloads import InteractionDriver
from tests.engine.race_helpers import BLUE, RED, RED_DRAWS

NO_OPTIONS = "1000 Mile Race has no options: leave the options field empty."


async def test_options_given_to_the_race_are_refused_as_options_it_has_none(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """`/play race options: x` read "I could not read the option 'x'. Write options as
    name:value, for example deck:modern.", and `options: deck:modern`, as told, then read
    "1000 Mile Race has no option called 'deck'. Its options: none."; whatever is typed there
    is now refused in one sentence, from /play and /challenge alike, and nothing is stored."""
    before = store_dump(tmp_path)
    for typed in ("x", "deck:modern", "level:expert level:easy"):
        played = await driver.slash("play", {"game": "race", "options": typed})
        assert played.ephemeral and replies(played) == NO_OPTIONS, (typed, replies(played))
        invited = await driver.slash(
            "challenge", {"game": "race", "member": BOB_ID, "options": typed}
        )
        assert invited.ephemeral and replies(invited) == NO_OPTIONS, (typed, replies(invited))
    assert store_dump(tmp_path) == before
    # Spaces alone are no option: the race is dealt.
    played = await driver.slash("play", {"game": "race", "options": "  "})
    assert not played.ephemeral, replies(played)
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is not None


async def test_an_unreadable_option_is_shown_one_the_game_takes(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """`/play ttr options: x` was told to write options "for example deck:modern", which
    Ticket to Ride then refused (it has no deck option); the example is now the game's own,
    and typing it deals the game."""
    before = store_dump(tmp_path)
    refused = await driver.slash("play", {"game": "ttr", "options": "x"})
    said = replies(refused)
    assert refused.ephemeral and said.startswith("I could not read the option 'x'."), said
    assert store_dump(tmp_path) == before
    example = said.rpartition("for example ")[2].rstrip(".")
    assert example == "tracks:keep", said
    played = await driver.slash("play", {"game": "ttr", "options": example})
    assert not played.ephemeral, replies(played)
    game = await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID)
    assert game is not None and game.options["tracks"] == "keep"


async def test_a_move_typed_as_the_bot_names_it_is_played(driver: InteractionDriver) -> None:
    """Alice types her moves into /move as the bot writes them: its suggestions, her hand's
    buttons and /hint say "Flat Tire on Bob" and "End your turn". Each read "I don't
    understand 'End your turn'. Try 'play <card>', …" (the notation alone was read); each is
    played now."""
    bot = running_bot(driver)
    await alice_against(driver, game_key="race", deck=[*RED, *RED_DRAWS, "/", *BLUE])
    offered = await driver.autocomplete("move", "action", "end")
    assert [c["name"] for c in offered.choices] == ["End your turn"], offered.choices
    hazard = await driver.slash("move", {"action": "Flat Tire on Bob"})
    assert "Alice plays Flat Tire on Bob." in (public_table(hazard).content or ""), replies(hazard)
    ended = await driver.slash("move", {"action": "End your turn"})
    assert "Alice ends the turn." in (public_table(ended).content or ""), replies(ended)
    state = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state
    assert state.sides[1].hazards == ["flat-tire"] and state.turn == 1

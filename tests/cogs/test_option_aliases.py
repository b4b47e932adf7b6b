"""A game's options typed as members say them: ``deck:classic``, ``oil-slick:yes``, ``oil slick:
on``. Each is read as its option's own spelling, which is what is stored and suggested."""

from __future__ import annotations

import pytest

from bot.engine.core import BadOption
from bot.games import bundle
from cogs.choices import parse_options
from tests.cogs.conftest import running_bot
from tests.discord.backend import GAMES_CHANNEL_ID
from tests.discord.payloads import InteractionDriver


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("deck:classic", {"deck": "bsd", "oil_slick": "off"}),
        ("oil-slick:on", {"deck": "bsd", "oil_slick": "on"}),
        ("oil slick: yes, deck: modern", {"deck": "modern", "oil_slick": "on"}),
        ("Oil_Slick:TRUE", {"deck": "bsd", "oil_slick": "on"}),
        ("oil-slick:false", {"deck": "bsd", "oil_slick": "off"}),
        # Full width (a phone's wide keyboard) and a zero-width space pasted from chat, as the
        # game field reads them: "I could not read the option 'ｄｅｃｋ：ｍｏｄｅｒｎ'" before.
        ("ｄｅｃｋ：ｍｏｄｅｒｎ", {"deck": "modern", "oil_slick": "off"}),
        ("oil\u200b_slick:on", {"deck": "bsd", "oil_slick": "on"}),
    ],
)
async def test_dragon_takes_an_option_as_a_member_types_it(
    driver: InteractionDriver, typed: str, stored: dict[str, str]
) -> None:
    """Alice asks for Dragon with the classic deck, or the Oil Slick cards switched on in words
    other than the option's own. Before, `deck:classic` was refused ("'classic' is not a choice
    for deck. Choose one of: bsd, modern.") and so was `oil-slick:on` ("Dragon Mille Bornes has
    no option called 'oil-slick'. …"); both start the game now, its options stored in their own
    spelling."""
    result = await driver.slash("play", {"game": "dragon", "options": typed})
    assert not result.ephemeral, result.content
    game = await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID)
    assert game is not None
    assert {k: game.options[k] for k in stored} == stored


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [
        ("deck:clas", ["deck:bsd"]),
        ("classic", ["deck:bsd"]),
        ("oil-slick:y", ["oil_slick:on"]),
        ("oil slick:", ["oil_slick:off", "oil_slick:on"]),
        ("deck:modern oil-slick:tr", ["deck:modern oil_slick:on"]),
        ("oil-slick:on de", ["oil-slick:on deck:bsd", "oil-slick:on deck:modern"]),
        # The name's words before its colon: offered "oil oil_slick:off", which /play refused
        # ("I could not read the option 'oil'").
        ("oil slick", ["oil_slick:off", "oil_slick:on"]),
        ("deck:modern oil sl", ["deck:modern oil_slick:off", "deck:modern oil_slick:on"]),
    ],
)
async def test_the_options_field_suggests_the_options_own_spelling(
    driver: InteractionDriver, typed: str, suggested: list[str]
) -> None:
    """What a member types in other words is suggested as the option itself: `deck:clas`
    offered nothing before (only `deck:bsd` and `deck:modern` were matched, letter by letter),
    and `oil-slick:` nothing either."""
    found = await driver.autocomplete("play", "options", typed, {"game": "dragon"})
    assert [choice["value"] for choice in found.choices] == suggested
    # Each suggestion is one /play reads.
    dragon = bundle("dragon")
    for value in suggested:
        dragon.game.resolve_options(parse_options(value, dragon.info))


async def test_one_option_in_two_spellings_is_refused(driver: InteractionDriver) -> None:
    """`oil-slick:on oil_slick:off` names one option twice: which one was meant is anyone's
    guess, so it is refused as `oil_slick:on oil_slick:off` is, and nothing is dealt."""
    result = await driver.slash("play", {"game": "dragon", "options": "oil-slick:on oil_slick:no"})
    assert result.ephemeral
    # The name escaped as Discord's markdown needs it, so the underscore shows.
    assert result.content == "You gave oil\\_slick twice (on, then no). Give each option once."
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_one_option_in_two_spellings_of_one_value_is_taken(
    driver: InteractionDriver,
) -> None:
    """`oil-slick:on oil_slick:yes` names one option twice with one value in two words, which
    the README says is taken (only two values are refused). It was refused "You gave
    oil_slick twice (on, then yes)", as if on and yes differed; the game is dealt now, the
    Oil Slick cards on."""
    result = await driver.slash("play", {"game": "dragon", "options": "oil-slick:on oil_slick:yes"})
    assert not result.ephemeral, result.content
    game = await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID)
    assert game is not None and game.options["oil_slick"] == "on", game


def test_every_game_reads_a_switch_and_a_name_alike() -> None:
    """The reading is the games' own (``Game.resolve_options``), so the console and a rematch
    read options as /play does: Mille Bornes Solo's switch and classic deck, Mille Bornes'
    deck."""
    from bot.games import bundle

    solo = bundle("solo").game.resolve_options({"require-fuel-left": "yes", "deck": "classic"})
    assert (solo["require_fuel_left"], solo["deck"]) == ("on", "bsd")
    assert bundle("mille").game.resolve_options({"Deck": "Classic"})["deck"] == "bsd"


def test_a_plug_in_option_named_with_a_hyphen_is_still_its_own() -> None:
    """A plug-in game names its option `win-at`. Reading hyphens as underscores made it
    unreachable: `win-at:20` was read as `win_at` and refused ("Relay (toy) has no option
    called 'win-at'. Its options: win-at."), in /play and in the rematch of a game stored with
    it. A name is now matched as its option's name reads, and stored in the option's own
    spelling."""
    from dataclasses import replace

    from bot.engine.core import OptionSpec
    from tests.toy.game import Relay

    class Timed(Relay):
        info = replace(Relay.info, options=(OptionSpec("win-at", ("10", "20"), "10"),))

    game = Timed()
    assert game.resolve_options({"win-at": "20"}) == {"win-at": "20"}  # a rematch's stored
    assert game.resolve_options(parse_options("win_at:20", game.info)) == {"win-at": "20"}
    assert game.resolve_options(parse_options("win at: 20", game.info)) == {"win-at": "20"}
    # Read by its own name before the game reads it: the daily deal's check of which options
    # were given (``display_options``) names them so.
    assert parse_options("win_at:20", game.info) == {"win-at": "20"}
    with pytest.raises(BadOption, match="Its options: win-at"):
        game.resolve_options({"win-by": "20"})

"""/stats of a solitaire: games played, won and lost, and the best-results board; no rating,
no draws, no opponents, and the image's figures are the alt text's."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from bot.ratings import ResultRecord
from bot.render.common import Canvas
from bot.results import ASSISTED
from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alt_text_of, public_table
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
)
from tests.discord.payloads import InteractionDriver

RATED_WORDS = ("drawn", "rated", "rating", "opponent")


async def _result(
    driver: InteractionDriver,
    game_key: str,
    user_id: int,
    name: str,
    figures: Mapping[str, int],
    options: Mapping[str, str] | None = None,
) -> int:
    """A finished solitaire with these figures, stored as the seam stores it; its game id."""
    bot = running_bot(driver)
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key=game_key,
        seats=[SeatRecord(0, name, user_id=user_id)],
        seed=1,
    )
    await bot.tables.abort(channel_id=GAMES_CHANNEL_ID)
    record = ResultRecord(
        game_id=update.game.id,
        game_key=game_key,
        guild_id=GUILD_ID,
        finished_at=bot.tables.clock(),
        seats=(user_id,),
        ranks=(0,),
        scores=(figures.get("score", 0),),
        options={**update.game.options, **(options or {})},
        counted=False,
        details=(dict(figures),),
    )
    await bot.tables.store.record_result(record, [name])
    return update.game.id


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string the stats card draws (tests render in threads, in this process)."""
    texts: list[str] = []
    original = Canvas.text

    def text(self: Canvas, xy: Any, words: str, *args: Any, **kwargs: Any) -> None:
        texts.append(words)
        original(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", text)
    yield texts


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+(?:,\d{3})*", text))


def _card(drawn: list[str]) -> str:
    """The stats card's own strings (the fixture also sees any other image of the test)."""
    return "\n".join(drawn)


async def test_mille_bornes_solo_card_counts_games_and_places_the_best(
    driver: InteractionDriver, drawn: list[str]
) -> None:
    """Alice's standard game ranks (30 cleared, second behind Bob) and, classic, is played,
    neither won nor lost; her refuel game with hints counts as won, not on the board; the best
    score is in miles, not points."""
    await _result(driver, "solo", ALICE_ID, "Alice", {"won": 0, "cleared": 30, "score": 500})
    hinted = await _result(
        driver,
        "solo",
        ALICE_ID,
        "Alice",
        {"won": 1, "cleared": 49, "score": 700},
        {ASSISTED: "hint", "preset": "refuel"},
    )
    await _result(driver, "solo", BOB_ID, "Bob", {"won": 0, "cleared": 35, "score": 400})
    drawn.clear()
    stats = await driver.slash("stats", {"game": "solo"})
    alt = alt_text_of(stats, "stats.png")
    assert alt.splitlines() == [
        "Stats of alice, Mille Bornes Solo.",
        "2 games played: 1 won, 0 lost, 100% won.",
        "Best on the best-results board: cleared 30/49, 2 of 2 on the board.",
        "Favourite game: Mille Bornes Solo (2).",
        f"Best score: 700 miles (game #{hinted}).",
    ]
    card = _card(drawn)
    for words in ("30/49", "#2 of 2", "PLAYED", "WON", "LOST", "700 miles"):
        assert words in card
    for words in ("DRAWN", "RATING", "No rated games yet", "pts", "W–L–D"):
        assert words not in card, words
    assert _numbers(card) == _numbers(alt)


async def test_ticket_to_ride_solo_card_reads_won_lost_and_score(
    driver: InteractionDriver, drawn: list[str]
) -> None:
    """Ticket to Ride Solo is won or lost against the hidden tickets: its card says which, and
    its best is the board's score."""
    tickets = {"tickets": 3, "big_cities": 1}
    won = await _result(driver, "ttr-solo", ALICE_ID, "Alice", {"won": 1, "score": 41, **tickets})
    await _result(driver, "ttr-solo", ALICE_ID, "Alice", {"won": 0, "score": 28, "margin": -6})
    await _result(driver, "ttr-solo", ALICE_ID, "Alice", {"won": 0, "score": 35, "margin": -1})
    drawn.clear()
    stats = await driver.slash("stats", {"game": "ttr-solo"})
    alt = alt_text_of(stats, "stats.png")
    lines = alt.splitlines()
    assert lines[:3] == [
        "Stats of alice, Ticket to Ride Solo.",
        "3 games played: 1 won, 2 lost, 33% won.",
        "Best on the best-results board: score 41, 1 of 1 on the board.",
    ]
    assert f"Best score: 41 pts (game #{won})." in lines
    assert not any(word in alt.lower() for word in RATED_WORDS), alt
    card = _card(drawn)
    assert "SCORE" in card and "DRAWN" not in card and "No rated games yet" not in card
    assert _numbers(card) == _numbers(alt)


async def test_a_member_with_only_assisted_games_is_not_on_the_board(
    driver: InteractionDriver, drawn: list[str]
) -> None:
    """Games played with hints still count as played; the card says why none of them ranks."""
    figures = {"won": 0, "cleared": 41, "score": 800}
    options = {ASSISTED: "timeout", "preset": "refuel"}
    await _result(driver, "solo", ALICE_ID, "Alice", figures, options)
    drawn.clear()
    stats = await driver.slash("stats", {"game": "solo"})
    alt = alt_text_of(stats, "stats.png")
    assert alt.splitlines()[1:3] == [
        "1 game played: 0 won, 1 lost, 0% won.",
        "Best cleared on the best-results board: none yet. Games played with /hint, with turns"
        " the computer played, or at other than the standard settings do not rank.",
    ]
    card = _card(drawn)
    assert "Not on the board yet" in card and "—" in card
    # The header says what the board ranks without a dangling "/49" ("CLEARED /49 —").
    assert "CLEARED" in drawn and "/49" not in card
    assert _numbers(card) == _numbers(alt)


async def test_a_ticket_to_ride_solo_run_given_up_is_the_reason_the_card_gives(
    driver: InteractionDriver, drawn: list[str]
) -> None:
    """Bob gives up his one Ticket to Ride Solo run (/resign), which leaves the best-results
    board. His card read only "Games played with /hint, with turns the computer played, or at
    other than the standard settings do not rank.", none of which he did; it names a game given
    up too, in the image and the alt text alike. (Mille Bornes Solo's give-up ranks, so its
    note does not name it: above.)"""
    bob = {"user_id": BOB_ID, "channel_id": GENERAL_CHANNEL_ID}
    public_table(await driver.slash("play", {"game": "ttr-solo"}, **bob))
    public_table(await driver.slash("resign", {}, **bob))
    drawn.clear()
    stats = await driver.slash("stats", {"game": "ttr-solo"}, user_id=BOB_ID)
    alt = alt_text_of(stats, "stats.png")
    note = (
        "Games given up, played with /hint, with turns the computer played, or at other than"
        " the standard settings do not rank."
    )
    assert alt.splitlines()[1:3] == [
        "1 game played: 0 won, 1 lost, 0% won.",
        "Best score on the best-results board: none yet. " + note,
    ], alt
    # The card's note, in the lines it wraps to, right under "Not on the board yet".
    under = drawn[drawn.index("Not on the board yet") + 1 :]
    assert " ".join(under).startswith(note), drawn


async def test_the_card_leaves_classic_games_out_of_won_lost_and_the_rate(
    driver: InteractionDriver, drawn: list[str]
) -> None:
    """The classic preset (the default, and the daily deal) cannot be won. Alice's card, image
    and words, counted her classic game LOST and its rate "33% won" over all three games; the
    classic game is only played now, and the rate is over the refuel games she could win."""
    await _result(driver, "solo", ALICE_ID, "Alice", {"won": 0, "cleared": 30, "score": 500})
    refuel = {"preset": "refuel"}
    await _result(driver, "solo", ALICE_ID, "Alice", {"won": 1, "cleared": 49}, refuel)
    await _result(driver, "solo", ALICE_ID, "Alice", {"won": 0, "cleared": 35}, refuel)
    drawn.clear()
    stats = await driver.slash("stats", {"game": "solo"})
    alt = alt_text_of(stats, "stats.png")
    assert alt.splitlines()[1] == "3 games played: 1 won, 1 lost, 50% won.", alt
    card = _card(drawn)
    assert "50% won" in card and "33% won" not in card, card
    assert _numbers(card) == _numbers(alt)


async def test_a_card_of_classic_games_only_shows_no_rate(
    driver: InteractionDriver, drawn: list[str]
) -> None:
    """With no game that could be won there is nothing to rate: no "0% won" on the card."""
    await _result(driver, "solo", ALICE_ID, "Alice", {"won": 0, "cleared": 30, "score": 500})
    drawn.clear()
    stats = await driver.slash("stats", {"game": "solo"})
    alt = alt_text_of(stats, "stats.png")
    assert alt.splitlines()[1] == "1 game played: 0 won, 0 lost.", alt
    assert "% won" not in _card(drawn)


async def test_a_card_speaks_english_whatever_names_its_games_had(
    driver: InteractionDriver,
) -> None:
    """Held, as decided and documented: a card takes in games played with English and French
    card names alike, so its best score reads in miles even when that game counted in bornes
    (the French run scored more than the English one here)."""
    await _result(driver, "solo", ALICE_ID, "Alice", {"won": 0, "cleared": 30, "score": 500})
    french = await _result(
        driver, "solo", ALICE_ID, "Alice", {"won": 0, "cleared": 31, "score": 650}, {"names": "fr"}
    )
    alt = alt_text_of(await driver.slash("stats", {"game": "solo"}), "stats.png")
    assert f"Best score: 650 miles (game #{french})." in alt.splitlines(), alt
    assert "bornes" not in alt, alt

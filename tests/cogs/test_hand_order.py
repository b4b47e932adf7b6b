"""A private hand's picture, its words and its buttons in one order, in the games played with
hands of many kinds of card: Dragon (its Mille Bornes and Car Wars rows) and the 1000 Mile Race
(classic Mille Bornes has its own test in test_mille_hands)."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

import bot.render.dragon as dragon_render
import bot.render.mille_cards as mille_cards
import bot.render.race as race_render
from bot.engine.mille.cards import Card
from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import labels, public_table
from tests.discord.backend import ALICE_ID, BOB_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

SEATS = [SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)]

DRAGON_MB = ["100", "go", "75", "stop", "25", "gasoline", *["50"] * 6]
DRAGON_CW = ["swerve", "mg-front", "armor-back", "called-shot", "armor-front", *["armor-left"] * 5]
"""Alice's six Mille Bornes and five Car Wars cards as dealt, in no card order (Bob's after)."""


def _menus(message: dict[str, Any]) -> dict[str, list[str]]:
    """Each select menu of a message by its placeholder: its options' labels, in order."""
    return {
        str(part["placeholder"]): [str(option["label"]) for option in part["options"]]
        for row in message["components"]
        for part in row.get("components", [])
        if part.get("type") == 3
    }


async def _hand(driver: InteractionDriver) -> dict[str, Any]:
    """Alice's hand message, opened from the table's button."""
    table = public_table(await driver.slash("table", {}))
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    hand = await driver.click(table.message_id, f"jn:h:{stored.id}")
    assert hand.message is not None
    return dict(hand.message)


async def test_a_dragon_hand_reads_left_to_right_as_its_menus_do(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice is dealt 100, Go, 75, Stop, 25, Gasoline and Swerve, Machine Gun (Front), Armor
    (Back), Called Shot, Armor (Front). Before, her hand picture and its words showed them as
    held, while the discard menu went 25, 75, 100 miles, Stop, Gasoline, Go and her moves
    Machine Gun (Front) then Called Shot (the cards' order): the picture's first card was the
    menu's third. Now the picture, its words and the Car Wars discard menu are in the cards'
    order too."""
    drawn: list[str] = []
    draw_mb, draw_cw = mille_cards.draw_card, dragon_render.draw_cw_card

    def mb_seen(card: Card, w: int, h: int, lang: str = "en") -> Image.Image:
        drawn.append(card.name_in("en"))
        return draw_mb(card, w, h, lang)

    def cw_seen(code: str, w: int, h: int) -> Image.Image:
        drawn.append(code)
        return draw_cw(code, w, h)

    monkeypatch.setattr(dragon_render, "draw_card", mb_seen)
    monkeypatch.setattr(dragon_render, "draw_cw_card", cw_seen)
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=SEATS,
        deck=[*DRAGON_MB, *DRAGON_CW],
    )
    hand = await _hand(driver)
    mb = ["25 miles", "75 miles", "100 miles", "Stop", "Gasoline", "Go"]
    cw = ["Machine Gun (Front)", "Called Shot", "Armor (Front)", "Armor (Back)", "Swerve"]
    cw_codes = ["mg-front", "called-shot", "armor-front", "armor-back", "swerve"]
    assert drawn == [*mb, *cw_codes], drawn
    alt = hand["attachments"][0]["description"].splitlines()
    assert alt[1:3] == [f"Mille Bornes: {', '.join(mb)}", f"Car Wars: {', '.join(cw)}"], alt
    menus = _menus(hand)
    assert menus["Discard a Mille Bornes card"] == [f"Discard {card}" for card in mb], menus
    assert menus["Discard Car Wars cards (any number)"] == cw, menus
    # The plays: each row's playable cards, in the picture's order.
    assert labels(hand)[:3] == ["Machine Gun (Front) → Bob", "Called Shot", "Go"], labels(hand)


async def test_a_race_hand_reads_left_to_right_as_its_buttons_do(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race keeps a hand in the cards' order as it is dealt and drawn, so its picture (cards
    numbered 1 to 8), its words, its buttons and its cycle menu already agree; held so."""
    drawn: list[str] = []
    face = race_render.card_face

    def seen(code: str, w: int, h: int) -> Image.Image:
        drawn.append(code)
        return face(code, w, h)

    monkeypatch.setattr(race_render, "card_face", seen)
    red = ["100", "pit-crew", "25", "flat-tire", "spare-tire", "extra-tank", "50", "75"]
    blue = ["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"]
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="race",
        seats=SEATS,
        deck=[*red, "/", *blue],
    )
    drawn.clear()  # the table's own cards
    hand = await _hand(driver)
    names = ["25 miles", "50 miles", "75 miles", "100 miles", "Flat Tire", "Spare Tire"]
    names += ["Extra Tank", "Pit Crew"]
    in_order = ["25", "50", "75", "100", "flat-tire", "spare-tire", "extra-tank", "pit-crew"]
    assert drawn == in_order, drawn
    alt = hand["attachments"][0]["description"]
    assert alt.splitlines()[0] == "Your hand: " + ", ".join(names), alt
    assert labels(hand) == [
        "Drive 25 miles",
        "Drive 50 miles",
        "Drive 75 miles",
        "Drive 100 miles",
        "Flat Tire on Bob",
        "Trump Extra Tank (clears Out of Gas)",
        "Pit Crew: draw two",
        "End turn",
    ], labels(hand)
    assert list(_menus(hand).values()) == [names], _menus(hand)

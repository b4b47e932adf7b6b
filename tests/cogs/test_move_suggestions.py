"""/move's suggestions with nothing typed, when a turn offers more moves than Discord shows."""

from __future__ import annotations

from bot.games.bundle import MoveChoice
from cogs.play import kinds_fitting
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against
from tests.discord.backend import ALICE_ID, GAMES_CHANNEL_ID
from tests.discord.payloads import InteractionDriver

RED = ["100", "50", "25", "flat-tire", "spare-tire", "extra-tank", "pit-crew"]
RED_DRAWS = ["75", "200", "green-light", "repairs", "gasoline"]
BLUE = ["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"]


async def test_a_race_turn_suggests_ending_it_and_the_plays_before_its_cycles(
    driver: InteractionDriver,
) -> None:
    """Alice holds eight different cards at the start of her race turn: /move with nothing
    typed listed her plays, then the first of her 255 cycles, and Discord's 25 never reached
    "End your turn". Now every play and the end of the turn are suggested, the cycles after
    them; a typed word still lists only what it names."""
    bot = running_bot(driver)
    await alice_against(driver, game_key="race", deck=[*RED, *RED_DRAWS, "/", *BLUE])
    here = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID))
    moves = bot.tables.legal_moves(here, ALICE_ID)
    cycles = [m.label for m in moves if m.notation.startswith("cycle")]
    others = [m.label for m in moves if not m.notation.startswith("cycle")]
    assert len(cycles) > 25 and "End your turn" in others, moves

    offered = [c["name"] for c in (await driver.autocomplete("move", "action", "")).choices]
    assert len(offered) == 25, offered
    assert offered[: len(others)] == others, offered
    assert offered[len(others) :] == cycles[: 25 - len(others)], offered

    typed = [c["name"] for c in (await driver.autocomplete("move", "action", "cycle")).choices]
    assert typed == cycles[:25], typed


def test_the_kind_with_most_moves_goes_last_only_when_the_list_is_cut() -> None:
    """Ticket to Ride's turn: six cards to take, 27 ways to take from the yard and one "draw
    tickets", which came 34th, past Discord's 25. The yard goes after the tickets now; a
    list that fits keeps the game's order."""
    take = [MoveChoice(f"take {n}", f"Take {n}") for n in range(6)]
    yard = [MoveChoice(f"yard {n}", f"Yard {n}") for n in range(27)]
    tickets = [MoveChoice("tickets", "Draw tickets")]
    assert kinds_fitting([*take, *yard, *tickets], 25) == [*take, *tickets, *yard]
    assert kinds_fitting([*take, *yard[:3], *tickets], 25) == [*take, *yard[:3], *tickets]


async def test_a_race_cycle_says_how_many_cards_it_junks(driver: InteractionDriver) -> None:
    """Alice holds two 25s and types `cycle 25s` into /move. Its first suggestion read "Cycle 25
    miles (draw 1)", as if every 25 went, or 25 miles were cycled; the move junks one card.
    The suggestions now count the cards, as the caption after the cycle does ("Alice cycles 1
    card (25 miles) and draws 1 card.") and the refusal of a third 25 does ("You cannot cycle
    3 copies of 25 miles: you hold 2.")."""
    bot = running_bot(driver)
    deck = ["100", "25", "25", "flat-tire", "spare-tire", "extra-tank", "pit-crew", "/", *BLUE]
    await alice_against(driver, game_key="race", deck=deck)
    typed = await driver.autocomplete("move", "action", "cycle 25s")
    offered = [c["name"] for c in typed.choices]
    assert offered[0] == "Cycle 1 card (25 miles) and draw 1 card", offered
    both = await driver.autocomplete("move", "action", "cycle 2x25")
    assert next(c["name"] for c in both.choices) == (
        "Cycle 2 cards (25 miles, 25 miles) and draw 1 card"
    )
    three = await driver.slash("move", {"action": "cycle 3x25"})
    assert three.ephemeral and three.content == "You cannot cycle 3 copies of 25 miles: you hold 2."
    await driver.slash("move", {"action": "cycle 25s"})
    table = await bot.tables.current(GAMES_CHANNEL_ID)
    assert "Alice cycles 1 card (25 miles) and draws 1 card." in str(table.state), table.state

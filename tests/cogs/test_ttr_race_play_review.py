"""Ticket to Ride and the 1000 Mile Race played through the fake Discord by members, and by a
hostile one: each test holds a fix for what that play found (its docstring says what a member
saw before).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.ttr.state import TtrState
from bot.games import MoveChoice, bundle
from bot.games.bundle import GroupSpec
from bot.games.ttr import result_text
from bot.render.common import Canvas
from bot.render.ttr import render_result
from bot.store.base import GuildSettings, SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import play_first_offered, sweep_after
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver
from tests.engine.ttr_helpers import G, lay

THREE = [
    SeatRecord(0, "Alice", user_id=ALICE_ID),
    SeatRecord(1, "Bob", user_id=BOB_ID),
    SeatRecord(2, "Carol", user_id=CAROL_ID),
]


async def test_members_late_together_on_their_opening_tickets_share_a_place(
    driver: InteractionDriver,
) -> None:
    """With on_timeout forfeit, Alice keeps her opening tickets and Bob and Carol both let the
    choice run out: they forfeit together, equally late. Before the fix Carol ranked 2nd and
    Bob 3rd only because the bot handled Bob first, so Carol's rating went up (+39) and Bob's
    down (-69) for the same lateness; now they share 2nd place."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "forfeit"))
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=THREE, seed=5
    )
    await play_first_offered(driver, ALICE_ID)
    await sweep_after(driver, 61)
    (result,) = await bot.store.results(game_key="ttr")
    assert result.record.game_id == update.game.id and result.record.counted
    alice, bob, carol = result.record.ranks
    assert alice == 0 and bob == carol == 1, result.record.ranks


def test_the_ticket_to_ride_alt_text_says_who_left() -> None:
    """Carol left a game of three (Alice and Bob play on). The image marks her LEFT; before the
    fix the alt text read "Carol: hand 0, Railyard empty, On-the-Track 0, tickets 0", a
    player still at the table with nothing in hand."""
    ttr = bundle("ttr")
    state = ttr.game.leave(lay(3, hands=[["red"] * 3, ["orange"] * 3, ["white"] * 3]), 2)
    table = ttr.presenter.console_table(ttr.game.public_view(state))
    assert "  Cat: left the game" in table.splitlines(), table


def test_the_ticket_to_ride_alt_text_counts_the_tickets_being_chosen() -> None:
    """Alice draws four tickets. The image's chip reads "1 ticket (+4 to choose)"; before the
    fix the alt text said only "tickets 1", leaving a screen reader's user to wonder what the
    table waits for."""
    ttr = bundle("ttr")
    state = ttr.game.apply(lay(2), 0, ttr.game.parse_action("tickets"))
    table = ttr.presenter.console_table(ttr.game.public_view(state))
    assert "tickets 1 (+4 to choose)" in table, table


def test_the_locomotives_prompt_of_one_card_says_it() -> None:
    """A hand of ten Reds and every Locomotive asks how many Red, then how many Locomotives
    join them. Before the fix one Red read "1 Red: How many Locomotives join them?"; now it is
    "join it", and two or more Red still "join them"."""
    ttr = bundle("ttr")
    state = lay(2, hands=[[*["red"] * 10, *["loco"] * 16, "white", "white"], ["orange"] * 7])
    moves = [
        MoveChoice(ttr.game.format_action(a), ttr.game.describe_action(state, 0, a))
        for a in ttr.game.legal_actions(state, 0)
    ]
    pickers = ttr.presenter.hand_pickers(ttr.game.private_view(state, 0), moves)
    (red,) = [p for p in pickers if isinstance(p, GroupSpec) and p.label == "Play Red"]
    one, two = red.options[:2]
    assert isinstance(one, GroupSpec) and one.prompt == "How many Locomotives join it?"
    assert isinstance(two, GroupSpec) and two.prompt == "How many Locomotives join them?"


def _finished_with_a_leaver() -> TtrState:
    """Ann, Bob and Cat; Cat leaves, then Bob: Ann's game ends, her tickets not completed."""
    state = lay(3, hands=[["red"] * 3, ["orange"] * 3, ["white"] * 3])
    state = G.leave(G.leave(state, 2), 1)
    assert G.outcome(state) is not None and state.result is not None
    assert state.result.seats[0].total < 0
    return state


def test_the_score_image_marks_a_seat_that_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob and Cat left; Ann, the winner, scored below zero. Before the fix the score image
    showed Bob's and Cat's totals as a gold "0", as if they had outscored the winner; now their
    panels say they left the game and show no total."""
    drawn: list[str] = []
    original = Canvas.text

    def recording(self: Canvas, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        drawn.append(text)
        original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", recording)
    render_result(G.public_view(_finished_with_a_leaver()))
    assert drawn.count("left the game") == 2, drawn
    assert "0" not in drawn, drawn


def test_the_score_alt_text_says_who_left() -> None:
    """The score image's alt text read "Cat: 0 (tickets +0, no Big City)" for a player who
    left; it now says "Cat: left the game", as the result line and the image do."""
    text = result_text(G.public_view(_finished_with_a_leaver()))
    assert "  Cat: left the game" in text.splitlines(), text
    assert "Cat: 0" not in text, text

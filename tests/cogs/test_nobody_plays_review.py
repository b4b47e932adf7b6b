"""A game nobody plays any more, under turn timers where the computer plays a late turn.

Driven through the fake Discord: the seam's clock is moved on past each turn's deadline and the
Timers cog's sweep run by hand (``sweep_after``), each sweep playing one late member's turn.
What every test expects: once every member still playing has had their last three turns in a
row played by the computer, the game ends with no result (unrated) and the channel is told
once; a member who moves keeps it going, and starts their count anew.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.games import bundle
from bot.games.bundle import PolicyFactory
from bot.move_log import LATE_MARK, late_turns_in_a_row
from bot.position import round_ended
from bot.store.base import GuildSettings, SeatRecord
from bot.updates import NOBODY_PLAYS
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    play_first_offered,
    restarted,
    stacked_mille,
    sweep_after,
    sweep_at,
)
from tests.cogs.test_timers_review import (
    alice_at_700_declined_for_her,
    race_with_a_flat_tire,
)
from tests.discord.backend import ALICE_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver

Thinker = Callable[[PolicyFactory, Any, str], Awaitable[str]]

TURN = 60  # seconds: the server's turn timer in every test here
LATE = TURN + 1  # a sweep this long after a turn began finds its deadline passed


async def _computer_plays_late_turns(driver: InteractionDriver) -> None:
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, TURN, "computer"))


async def _status(driver: InteractionDriver, game_id: int) -> str:
    return (await running_bot(driver).tables.game_by_id(game_id)).status


def _told(driver: InteractionDriver) -> int:
    """How many of the channel's messages say the game ends because nobody plays."""
    return sum(NOBODY_PLAYS in (m.get("content") or "") for m in driver.messages.values())


async def test_two_members_away_end_the_game_with_no_result_once_told(
    driver: InteractionDriver,
) -> None:
    """Mille Bornes, Alice against Bob, both away: the computer plays their turns, one
    deadline each. After Alice's third late turn the game goes on (Bob has missed two); after
    Bob's third it ends with no result: no result recorded (no rating moves) and the channel
    is told once, in one sentence."""
    bot = running_bot(driver)
    await _computer_plays_late_turns(driver)
    game = (await stacked_mille(driver)).game
    for _ in range(5):  # Alice, Bob, Alice, Bob, Alice
        await sweep_after(driver, LATE)
    assert await _status(driver, game.id) == "active"
    assert _told(driver) == 0
    await sweep_after(driver, LATE)  # Bob's third
    assert await _status(driver, game.id) == "aborted"
    assert await bot.store.results(game_key="mille", guild_id=GUILD_ID) == []
    assert await bot.store.results() == []
    assert _told(driver) == 1
    await sweep_after(driver, LATE)
    assert _told(driver) == 1, "an ended game is not told again"
    assert len(await bot.store.moves(game.id)) == 6


async def test_the_end_says_the_late_turn_it_follows(driver: InteractionDriver) -> None:
    """The message that ends the game shows the table after Bob's third late turn, which the
    computer played: it says that move's line, then the end. Found by a review: it said only
    the end, so the move on its image was told nowhere."""
    await _computer_plays_late_turns(driver)
    await stacked_mille(driver)
    for _ in range(6):  # Alice, Bob, Alice, Bob, Alice, Bob
        await sweep_after(driver, LATE)
    (ending,) = [m for m in driver.messages.values() if NOBODY_PLAYS in (m.get("content") or "")]
    lines = ending["content"].splitlines()
    assert lines[-1] == f"⏰ {NOBODY_PLAYS}", lines
    assert len(lines) == 2 and lines[0].startswith("Bob "), lines


async def test_a_present_member_keeps_the_game_going_until_they_too_stay_away(
    driver: InteractionDriver,
) -> None:
    """Alice plays each of her turns herself; Bob is away. Past Bob's third, fourth and fifth
    late turns the game goes on. Once Alice stays away too, it ends after her third late turn
    in a row: every member has then missed three."""
    await _computer_plays_late_turns(driver)
    game = (await stacked_mille(driver)).game
    for _ in range(5):
        await play_first_offered(driver, ALICE_ID)
        await sweep_after(driver, LATE)  # Bob's turn, played for him
    assert await _status(driver, game.id) == "active"
    assert _told(driver) == 0
    for _ in range(2):  # Alice, Bob, Alice, Bob: Alice has missed two
        await sweep_after(driver, LATE)
        await sweep_after(driver, LATE)
    assert await _status(driver, game.id) == "active"
    await sweep_after(driver, LATE)  # Alice's third
    assert await _status(driver, game.id) == "aborted"
    assert _told(driver) == 1


async def test_a_member_who_moves_after_two_late_turns_starts_the_count_anew(
    driver: InteractionDriver,
) -> None:
    """Both away for two turns each, then Alice plays her third turn herself. Bob's third
    late turn does not end the game: Alice has missed none since her move. It ends once she has
    missed three in a row again."""
    await _computer_plays_late_turns(driver)
    game = (await stacked_mille(driver)).game
    for _ in range(4):  # Alice, Bob, Alice, Bob
        await sweep_after(driver, LATE)
    await play_first_offered(driver, ALICE_ID)
    for _ in range(5):  # Bob (his third), Alice, Bob, Alice, Bob
        await sweep_after(driver, LATE)
    assert await _status(driver, game.id) == "active"
    await sweep_after(driver, LATE)  # Alice's third since her move
    assert await _status(driver, game.id) == "aborted"
    assert _told(driver) == 1


async def test_a_lone_member_against_the_computer_who_misses_three_turns_ends_it(
    driver: InteractionDriver,
) -> None:
    """Alice against a computer, away: her third late turn in a row ends the game with no
    result, before the computer answers it; no result is recorded."""
    bot = running_bot(driver)
    await _computer_plays_late_turns(driver)
    game = (await stacked_mille(driver, SeatRecord(1, "Computer", policy="normal"))).game
    for _ in range(2):
        await sweep_after(driver, LATE)
    assert await _status(driver, game.id) == "active"
    await sweep_after(driver, LATE)
    assert await _status(driver, game.id) == "aborted"
    assert await bot.store.results() == []
    assert _told(driver) == 1
    moves = await bot.store.moves(game.id)
    assert moves[-1].seat == 0, "the computer did not answer a turn nobody plays"


async def test_a_late_ordinary_solitaire_ends_after_three_late_moves(
    driver: InteractionDriver,
) -> None:
    """A solitaire (not the daily deal) with nobody playing: every move is a turn, so the
    computer plays three of them, and then the game ends with no result (no stats)."""
    bot = running_bot(driver)
    await _computer_plays_late_turns(driver)
    await driver.slash("play", {"game": "solo"})
    game = await bot.tables.current(GAMES_CHANNEL_ID)
    for _ in range(2):
        await sweep_after(driver, LATE)
    assert await _status(driver, game.id) == "active"
    await sweep_after(driver, LATE)
    assert await _status(driver, game.id) == "aborted"
    assert len(await bot.store.moves(game.id)) == 3
    assert await bot.store.results() == []
    assert _told(driver) == 1


async def test_the_count_of_late_turns_survives_a_restart(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Both away: the computer plays Alice's three turns and Bob's two, then the bot restarts
    at once. The first sweep after Bob's time plays his third late turn and ends the game: the
    count is read from the move log, not kept in memory."""
    await _computer_plays_late_turns(driver)
    game = (await stacked_mille(driver)).game
    for _ in range(5):
        await sweep_after(driver, LATE)
    deadline = (await running_bot(driver).tables.current(GAMES_CHANNEL_ID)).turn_deadline
    assert deadline is not None
    stopped = running_bot(driver).tables.clock()
    async with restarted(driver, tmp_path) as again:
        back = running_bot(again)
        await sweep_at(again, stopped)
        await sweep_at(again, deadline + 1)
        assert await _status(again, game.id) == "aborted"
        assert await back.store.results() == []
        assert _told(again) == 1


async def test_windows_closed_with_no_reaction_are_not_turns(driver: InteractionDriver) -> None:
    """1000 Mile Race, both away, a 15 s reaction window: each play of a late turn opens a
    window for the other member, which the bot closes with no reaction. Those windows are no
    turns: neither missed turns (the game would end sooner) nor moves of their own (it would
    never end), and a late turn they interrupt is still one turn (Alice's first is three plays,
    each followed by Bob's window). Of sixteen deadlines seven are windows; the sixteenth is Bob's
    third turn, and the game ends there, not before."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, TURN, "computer", 15))
    game = await race_with_a_flat_tire(bot.tables, seed=1)

    async def next_deadline() -> None:
        stored = await bot.tables.game_by_id(game.id)
        assert stored.turn_deadline is not None
        await sweep_after(driver, stored.turn_deadline - bot.tables.clock() + 1)

    for _ in range(15):
        await next_deadline()
    assert await _status(driver, game.id) == "active"
    await next_deadline()
    assert await _status(driver, game.id) == "aborted"
    moves = await bot.store.moves(game.id)
    closed = [m for m in moves if m.action == "pass" and m.interaction_id is None]
    assert len(closed) == 7, "windows the bot closed for them"
    late = [m.seat for m in moves if (m.interaction_id or "").startswith(LATE_MARK)]
    assert late == [0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 1], late
    initial = await bot.store.initial_state(game.id)
    assert initial is not None
    race = bundle("race")
    counted = late_turns_in_a_row(
        race.game,
        initial,
        moves,
        solitaire=False,
        ends_round=lambda before, after: round_ended(race, before, after),
    )
    assert counted == {0: 3, 1: 3}, "Alice's first turn, three plays, is one turn"
    assert _told(driver) == 1


async def test_a_late_move_that_ends_a_hand_ends_the_turn(driver: InteractionDriver) -> None:
    """Mille Bornes, Alice against a computer: she plays to 700 herself, then stays away. The
    computer declines the extension for her: the end of a turn she began herself, so not one
    the computer played, and it ends hand 1. Hand 2 is hers to start: a new turn, though
    nobody moved in between, and the first of three the computer plays for her before the
    game ends with no result."""
    bot = running_bot(driver)
    await _computer_plays_late_turns(driver)
    game_id = await alice_at_700_declined_for_her(driver)
    await sweep_after(driver, LATE)  # declines: hand 1 ends, hand 2 waits for Alice
    await sweep_after(driver, LATE)  # her first turn of hand 2
    moves = await bot.store.moves(game_id)
    declined, opened = moves[-3:-1]  # the computer's reply to her opening comes last
    assert (declined.seat, declined.action) == (1, "extend no")
    assert opened.seat == 1, "nobody moved between the two"
    await sweep_after(driver, LATE)
    assert await _status(driver, game_id) == "active"
    await sweep_after(driver, LATE)  # her third turn of hand 2
    assert await _status(driver, game_id) == "aborted"
    assert _told(driver) == 1

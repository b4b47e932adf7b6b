"""What players of three to six seats read when a game ends, through the fake Discord (found in
a review of results, replays and the boards as players and hostile members see them)."""

from __future__ import annotations

import pytest

from bot.engine.words import plural
from bot.move_log import LEAVE
from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, alt_text_of, public_table, replies
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver


async def test_the_result_line_of_three_cars_gives_every_place(driver: InteractionDriver) -> None:
    """Bob leaves a three-car Dragon game, then Carol: Alice wins, Carol is second (she left
    later) and Bob third. Found in review: the result line listed the seats in seat order with
    their miles ("Alice 0 · Bob 0 · Carol 0"), so nobody could tell who came second; in a
    six-car arena a dead driver's miles do not give their place either. A seat that left says
    so in place of the miles it stopped at."""
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=[
            SeatRecord(0, "Alice", user_id=ALICE_ID),
            SeatRecord(1, "Bob", user_id=BOB_ID),
            SeatRecord(2, "Carol", user_id=CAROL_ID),
        ],
        seed=3,
    )
    await driver.slash("resign", {}, user_id=BOB_ID)
    text = public_table(await driver.slash("resign", {}, user_id=CAROL_ID)).content or ""
    assert "🏆 **Alice** won! 1st Alice 0 · 2nd Carol (left) · 3rd Bob (left)." in text, text


@pytest.mark.parametrize("game_key", ["race", "dragon"])
async def test_a_best_score_in_miles_says_miles(driver: InteractionDriver, game_key: str) -> None:
    """A 1000 Mile Race or Dragon score is the miles a player drove, as the result line says
    ("decided on miles"). Found in review: /stats called Bob's best "0 pts"."""
    await alice_against(driver, game_key=game_key, seed=3)
    await driver.slash("resign", {}, user_id=ALICE_ID)
    stats = await driver.slash("stats", {"game": game_key, "member": BOB_ID})
    assert "Best score: 0 miles (game #1)." in alt_text_of(stats, "stats.png")


async def test_the_replay_of_a_game_only_given_up_says_no_moves(
    driver: InteractionDriver,
) -> None:
    """Bob resigns before anyone plays: the game's log holds his leaving alone. Found in
    review: /replay said "Replay of game #1 (1 moves).", then "(1 move)", counting the leaving
    as a move."""
    await alice_against(driver, game_key="race", seed=4)
    await driver.slash("resign", {}, user_id=BOB_ID)
    assert replies(await driver.slash("replay", {})) == "Replay of game #1 (no moves)."


async def _race(driver: InteractionDriver, seed: int) -> None:
    await alice_against(driver, game_key="race", seed=seed)


async def _aborted(driver: InteractionDriver, seed: int) -> None:
    """A race of Alice and Bob that both agree to abort."""
    await _race(driver, seed)
    await driver.slash("abort", {}, user_id=ALICE_ID)
    await driver.slash("abort", {}, user_id=BOB_ID)
    assert await running_bot(driver).store.active_game(GAMES_CHANNEL_ID) is None


async def test_a_replay_after_your_aborted_game_says_which_game_it_shows(
    driver: InteractionDriver,
) -> None:
    """Game #1 ends by a resignation, then Alice and Bob abort game #2. Alice's /replay shows
    game #1, and says that her game #2 was aborted: "Replay of game #1" alone read as if the
    game she had just played was the one shown."""
    await _race(driver, 4)
    await driver.slash("resign", {}, user_id=BOB_ID)
    await _aborted(driver, 5)
    said = replies(await driver.slash("replay", {}, user_id=ALICE_ID))
    assert said == (
        "Your game #2 was aborted, and aborted games are not replayed. "
        "Replay of game #1, the last game finished here (no moves)."
    ), said


async def test_a_replay_after_others_aborted_a_game_is_unchanged(
    driver: InteractionDriver,
) -> None:
    """Carol did not play the aborted game: her /replay names the finished game it shows, as
    before."""
    await _race(driver, 4)
    await driver.slash("resign", {}, user_id=BOB_ID)
    await _aborted(driver, 5)
    said = replies(await driver.slash("replay", {}, user_id=CAROL_ID))
    assert said == "Replay of game #1 (no moves).", said


async def test_a_replay_with_only_an_aborted_game_says_it_was_aborted(
    driver: InteractionDriver,
) -> None:
    """The channel's only game was aborted: Bob's /replay says his game was aborted, not only
    that no game has finished here (which read as if it had been lost)."""
    await _aborted(driver, 5)
    refused = await driver.slash("replay", {}, user_id=BOB_ID)
    assert refused.ephemeral and replies(refused) == (
        "No game has finished here yet: your game #1 was aborted, and aborted "
        "games are not replayed."
    ), replies(refused)


GAMES = ["mille", "race", "dragon", "ttr", "solo", "ttr-solo"]


async def _start(driver: InteractionDriver, game_key: str) -> None:
    """Alice (alone at a solitaire) and Bob at ``game_key``, dealt from seed 4."""
    players = 1 if game_key in ("solo", "ttr-solo") else 2
    seats = [SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "Bob", user_id=BOB_ID)]
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key=game_key,
        seats=seats[:players],
        seed=4,
    )


@pytest.mark.parametrize("game_key", GAMES)
async def test_a_game_given_up_at_once_has_no_moves_to_replay(
    driver: InteractionDriver, game_key: str
) -> None:
    """Alice gives the game up before any move. Found in a Ticket to Ride play-through:
    /replay said "(1 move)", counting her leaving as a move, in every game."""
    await _start(driver, game_key)
    await driver.slash("resign", {})
    assert replies(await driver.slash("replay", {})) == "Replay of game #1 (no moves)."


@pytest.mark.parametrize("game_key", GAMES)
async def test_a_game_given_up_after_moves_counts_the_moves_and_shows_the_leaving(
    driver: InteractionDriver, game_key: str
) -> None:
    """Alice makes her first move (the first she is offered), then gives up: /replay counts
    the players' moves the log holds, not her leaving, which keeps its table at the end (the
    table after it shows that she left)."""
    bot = running_bot(driver)
    await _start(driver, game_key)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    notation = bot.tables.hand(stored, ALICE_ID)[1][0].notation
    await driver.slash("move", {"action": notation})
    await driver.slash("resign", {})
    log = await bot.store.moves(1)
    moves = [move for move in log if move.action != LEAVE]
    assert len(moves) >= 1 and log[-1].action == LEAVE, log
    said = replies(await driver.slash("replay", {}))
    assert said == f"Replay of game #1 ({plural(len(moves), 'move')}).", said
    views = (await bot.tables.hindsight.replay(1)).views
    assert len(views) == len(log) + 1 and views[-1] != views[-2]

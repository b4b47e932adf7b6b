"""A competitive player's review: the ladders and boards cannot be gamed."""

from __future__ import annotations

from collections.abc import Mapping

from bot.boards import leaderboard
from bot.daily import daily_date
from bot.move_log import LEAVE
from bot.ratings import ResultRecord
from bot.results import ASSISTED
from bot.store.base import GuildSettings, SeatRecord
from cogs.play import OFF_THE_BOARD
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alt_text_of, sweep_after
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
)
from tests.discord.payloads import InteractionDriver

OTHER_GUILD, OTHER_CHANNEL = 4242, 4343  # a second server the bot is on (stored games only)


async def _solo_result(
    driver: InteractionDriver,
    user_id: int,
    name: str,
    options: Mapping[str, str],
    figures: Mapping[str, int],
    *,
    channel_id: int = GAMES_CHANNEL_ID,
    guild_id: int | None = GUILD_ID,
) -> None:
    """A finished solitaire with these settings and figures, stored as the seam stores it."""
    tables = running_bot(driver).tables
    update = await tables.start(
        channel_id=channel_id,
        guild_id=guild_id,
        game_key="solo",
        seats=[SeatRecord(0, name, user_id=user_id)],
        options={k: v for k, v in options.items() if k != "daily"},
        labels={"daily": options["daily"]} if "daily" in options else None,
        seed=1,
    )
    await tables.abort(channel_id=channel_id)
    record = ResultRecord(
        game_id=update.game.id,
        game_key="solo",
        guild_id=guild_id,
        finished_at=running_bot(driver).tables.clock(),
        seats=(user_id,),
        ranks=(0,),
        scores=(figures.get("score", 0),),
        options=dict(update.game.options),
        counted=False,
        details=(dict(figures),),
    )
    await tables.store.record_result(record, [name])


async def test_an_easier_preset_does_not_top_the_best_board(driver: InteractionDriver) -> None:
    """Mille Bornes Solo can be won with preset:easy (three games in four) and never with the
    standard settings: the best board ranks standard games only, or every member who wants the
    top spot plays the easy preset. The card names' language is no easier."""
    await _solo_result(driver, ALICE_ID, "Alice", {}, {"won": 0, "cleared": 30, "score": 500})
    await _solo_result(
        driver, BOB_ID, "Bob", {"preset": "easy"}, {"won": 1, "cleared": 49, "score": 600}
    )
    await _solo_result(
        driver, CAROL_ID, "Carol", {"names": "fr"}, {"won": 0, "cleared": 25, "score": 400}
    )
    board = await driver.slash("leaderboard", {"game": "solo"})
    lines = alt_text_of(board, "leaderboard.png").splitlines()
    assert lines[0] == "Leaderboard: Mille Bornes Solo — this server, All time · standard settings."
    assert lines[1:] == [
        "1. Alice, cleared 30/49, 1 game (you)",
        "2. Carol, cleared 25/49, 1 game",
        "2 players on this board.",
    ]
    # Bob's game still counts for him where it says what it was: his own stats.
    stats = await driver.slash("stats", {"game": "solo"}, user_id=BOB_ID)
    assert "Best score: 600 miles" in alt_text_of(stats, "stats.png")


async def test_todays_deal_has_no_board_across_servers(driver: InteractionDriver) -> None:
    """Each server deals its own daily deal: a board of all servers would rank different deals
    against each other, and a member on five servers would have five tries at its top."""
    today = {"daily": daily_date(running_bot(driver).tables.clock())}
    await _solo_result(driver, ALICE_ID, "Alice", today, {"won": 0, "cleared": 20, "score": 300})
    await _solo_result(
        driver,
        ALICE_ID,
        "Alice",
        today,
        {"won": 0, "cleared": 35, "score": 700},
        channel_id=OTHER_CHANNEL,
        guild_id=OTHER_GUILD,
    )
    board = await driver.slash(
        "leaderboard", {"game": "solo", "scope": "global", "period": "daily"}
    )
    assert board.ephemeral and "each server deals its own" in (board.content or "")
    here = await driver.slash("leaderboard", {"game": "solo", "period": "daily"})
    lines = alt_text_of(here, "leaderboard.png").splitlines()
    assert lines[1:] == ["1. Alice, cleared 20/49, 1 game (you)", "1 player on this board."]


async def _resigned(driver: InteractionDriver, winner: int, loser: int, channel_id: int) -> None:
    """A game of Mille Bornes between two members that the second resigns."""
    tables = running_bot(driver).tables
    await tables.start(
        channel_id=channel_id,
        guild_id=GUILD_ID,
        game_key="mille",
        seats=[
            SeatRecord(0, f"m{winner % 1000}", user_id=winner),
            SeatRecord(1, f"m{loser % 1000}", user_id=loser),
        ],
        seed=5,
    )
    await tables.leave(channel_id=channel_id, user_id=loser)


async def test_equal_ratings_share_a_place(driver: InteractionDriver) -> None:
    """Two members with the same record against newcomers have the same rating: neither is
    second because of an older account (the lower user id) or more games."""
    dave = 777
    await _resigned(driver, ALICE_ID, BOB_ID, GAMES_CHANNEL_ID)
    await _resigned(driver, CAROL_ID, dave, GENERAL_CHANNEL_ID)
    board = await driver.slash("leaderboard", {"game": "mille"})
    places = [line.split(".", 1)[0] for line in alt_text_of(board, "leaderboard.png").splitlines()]
    assert places[1:] == ["1", "1", "3", "3", "4 players on this board"]
    stats = await driver.slash("stats", {"game": "mille", "member": CAROL_ID})
    assert ", 1 of 4 on the ladder" in alt_text_of(stats, "stats.png")


async def test_no_hints_in_the_daily_deal(driver: InteractionDriver) -> None:
    """The daily deal is a contest between the server's members on the same cards: the
    computer's suggestion, move after move, would rank the expert rather than the member."""
    await driver.slash("play", {"game": "solo", "daily": True})
    hint = await driver.slash("hint", {})
    assert hint.ephemeral and "daily deal" in (hint.content or "")
    assert not any(r.components for r in hint.followups)


async def test_the_computer_does_not_play_a_late_daily_deal(driver: InteractionDriver) -> None:
    """With turn timers where the computer plays a late turn, a member could sit out every
    turn of the daily deal and rank the expert's game as their own (no /hint needed): a late
    daily deal ends there instead, with what the member cleared themselves."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    await driver.slash("play", {"game": "solo", "daily": True})
    game = await bot.tables.current(GAMES_CHANNEL_ID)
    await sweep_after(driver, 120)
    ended = await bot.tables.game_by_id(game.id)
    assert ended.status == "finished"
    assert [m.action for m in await bot.store.moves(game.id)] == [LEAVE]
    [result] = await bot.store.results(game_key="solo")
    assert result.record.options["daily"] == game.options["daily"]


async def test_the_computer_still_plays_a_late_ordinary_solitaire(
    driver: InteractionDriver,
) -> None:
    """Outside the daily deal the server's setting stands: one move per late turn."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    await driver.slash("play", {"game": "solo"})
    game = await bot.tables.current(GAMES_CHANNEL_ID)
    await sweep_after(driver, 120)
    moves = await bot.store.moves(game.id)
    assert (await bot.tables.game_by_id(game.id)).status == "active"
    assert len(moves) == 1 and moves[0].action != LEAVE


async def _best_board_users(driver: InteractionDriver, game_key: str) -> list[int | None]:
    """The members ranked on a solitaire's best-result board of this server."""
    bot = running_bot(driver)
    results = await bot.store.results(game_key=game_key, guild_id=GUILD_ID)
    board = leaderboard(
        results, game_key=game_key, guild_id=GUILD_ID, caller=ALICE_ID, now=bot.tables.clock()
    )
    return [row.player for row in board.rows]


async def test_a_solitaire_played_with_hints_leaves_the_best_results_board(
    driver: InteractionDriver,
) -> None:
    """/hint, move after move, would rank the expert's play as the member's own: the first
    hint says the game no longer counts on the best-results board (said once), the game is
    labelled, and when it ends /stats still counts it but the board leaves it out."""
    bot = running_bot(driver)
    await driver.slash("play", {"game": "solo"})
    first = await driver.slash("hint", {})
    said = " ".join(r.content or "" for r in first.followups)
    assert OFF_THE_BOARD in said, said
    again = await driver.slash("hint", {})
    assert OFF_THE_BOARD not in " ".join(r.content or "" for r in again.followups)
    game = await bot.tables.current(GAMES_CHANNEL_ID)
    assert game.options[ASSISTED] == "hint"
    await bot.tables.leave(channel_id=GAMES_CHANNEL_ID, user_id=ALICE_ID)
    [result] = await bot.store.results(game_key="solo")
    assert result.record.options[ASSISTED] == "hint"
    assert await _best_board_users(driver, "solo") == []
    stats = await driver.slash("stats", {"game": "solo"})
    assert "1 game" in alt_text_of(stats, "stats.png")


async def test_a_solitaire_the_computer_played_a_late_turn_of_leaves_the_best_board(
    driver: InteractionDriver,
) -> None:
    """With turn timers where the computer plays a late turn, a member could sit out every
    turn of a standard solitaire and rank the computer's game as theirs: the game is
    labelled at the first turn played for them, and the board leaves it out."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer"))
    await driver.slash("play", {"game": "solo"})
    await sweep_after(driver, 120)
    game = await bot.tables.current(GAMES_CHANNEL_ID)
    assert game.options[ASSISTED] == "timeout"
    await bot.tables.leave(channel_id=GAMES_CHANNEL_ID, user_id=ALICE_ID)
    assert await _best_board_users(driver, "solo") == []


async def test_a_solitaire_played_alone_stays_on_the_best_board(
    driver: InteractionDriver,
) -> None:
    """The same game played without help is ranked (the two tests above are not vacuous)."""
    await driver.slash("play", {"game": "solo"})
    await running_bot(driver).tables.leave(channel_id=GAMES_CHANNEL_ID, user_id=ALICE_ID)
    assert await _best_board_users(driver, "solo") == [ALICE_ID]

"""Ticket to Ride and its solo played through the fake Discord as new members and as a hostile
one would: /play with odd options, the open table, tickets, pickers, forged and old ids, the end,
/stats, /history and /replay. Each test holds a fix for what that play found; its docstring says
what a member read before."""

from __future__ import annotations

import re

from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    alt_text_of,
    play_first_offered,
    public_table,
    replies,
    store_rigged,
)
from tests.cogs.test_race_ttr_hostile_review import THREE, ttr_of_three
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
)
from tests.discord.payloads import InteractionDriver
from tests.engine.ttr_helpers import lay


async def test_the_daily_deal_of_another_game_names_the_games_that_have_one(
    driver: InteractionDriver,
) -> None:
    """`/play game:ttr daily:true` and `/leaderboard game:ttr period:today's deal`. Before the
    fix both read "Daily deals are for Mille Bornes Solo, Ticket to Ride Solo.", a list with no
    "and"; now the games are named as every other list of the bot names them."""
    sentence = "Daily deals are for Mille Bornes Solo and Ticket to Ride Solo."
    played = await driver.slash("play", {"game": "ttr", "daily": True})
    assert played.ephemeral and played.content == sentence, played.content
    board = await driver.slash("leaderboard", {"game": "ttr", "period": "daily"})
    said = replies(board)
    assert said == sentence, said
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_history_and_stats_say_a_member_left_rather_than_show_a_0(
    driver: InteractionDriver,
) -> None:
    """Carol, then Bob, leave a three-member game with nothing on anyone's track: Alice wins
    below zero (her ticket not completed). The end's line says "2nd Bob (left) · 3rd Carol
    (left)". Before the fix /history gave Carol "**place 3** (0)" and her /stats card "Best
    score: 0 pts", a total she never played to, above Alice's winning one; now /history says
    "(left)" and the card has no best from a game she left. Alice's own line keeps her score."""
    bot = running_bot(driver)
    await ttr_of_three(driver)
    public_table(await driver.slash("resign", {}, user_id=CAROL_ID))
    ended = public_table(await driver.slash("resign", {}, user_id=BOB_ID)).content or ""
    assert "2nd Bob (left) · 3rd Carol (left)" in ended, ended
    assert await bot.tables.store.active_game(GAMES_CHANNEL_ID) is None
    carol = replies(await driver.slash("history", {}, user_id=CAROL_ID))
    assert "**place 3** (left)" in carol and "(0)" not in carol, carol
    (result,) = await bot.store.results(game_key="ttr")
    won = result.record.scores[0]
    assert won < 0 and result.record.ranks == (0, 1, 2), result.record
    alice = replies(await driver.slash("history", {}))
    assert f"**won** ({won})" in alice, alice
    card = alt_text_of(await driver.slash("stats", {"game": "ttr"}, user_id=CAROL_ID), "stats.png")
    assert "1 game" in card and "Best score" not in card, card
    mine = alt_text_of(await driver.slash("stats", {"game": "ttr"}), "stats.png")
    assert f"Best score: {won} pts" in mine, mine


async def test_a_member_who_leaves_a_game_of_two_is_not_shown_a_score(
    driver: InteractionDriver,
) -> None:
    """Alice gives up a two-seat game against the computer while choosing her opening tickets.
    Before the fix the result line read "🏆 **Computer (normal)** won! alice 0 · Computer
    (normal) -31.", as if she had outscored the winner, while the score image and its alt text
    said "alice: left the game"; now the line says "alice (left)" too, and /history "(left)"."""
    bot = running_bot(driver)
    public_table(await driver.slash("play", {"game": "ttr"}))
    resigned = await driver.slash("resign", {})
    said = public_table(resigned)
    (result,) = await bot.store.results(game_key="ttr")
    computer = result.record.scores[1]
    line = f"🏆 **Computer (normal)** won! alice (left) · Computer (normal) {computer}."
    assert (said.content or "").startswith(line), said.content
    assert "alice: left the game" in alt_text_of(resigned, "score.png")
    mine = replies(await driver.slash("history", {}))
    assert "**lost** (left)" in mine, mine


async def test_an_open_table_of_no_seats_is_refused_for_what_was_asked(
    driver: InteractionDriver,
) -> None:
    """`/host game:ttr seats:0`, sent by hand (Discord offers 1 to 5). Before the fix it read
    "With 0 computers, Ticket to Ride: The Card Game has no seat left for members to join: ask
    for fewer computers.", advice that cannot be followed; it now says what was wrong, and no
    table is posted. Too many computers still reads as before."""
    refused = await driver.slash("host", {"game": "ttr", "seats": 0})
    assert refused.ephemeral
    assert refused.content == "Offer at least one seat for members to join (seats: 1 or more)."
    crowded = await driver.slash("host", {"game": "ttr", "computers": 3})
    assert crowded.ephemeral and "ask for fewer computers" in (crowded.content or "")
    assert not [m for m in driver.backend.messages.values() if "open table" in m["content"]]


async def test_keeping_no_solo_ticket_names_the_one_to_keep(driver: InteractionDriver) -> None:
    """`/move keep none` at the start of a Ticket to Ride Solo game. Before the fix it read
    "Keep at least one ticket at the start of the game.", and the member who then kept a
    cheaper one was refused again for not keeping the highest-value one; it now names that
    ticket at once, and nothing changes. The standard game keeps its sentence."""
    bot = running_bot(driver)
    alone = [SeatRecord(0, "Alice", user_id=ALICE_ID)]
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr-solo", seats=alone, seed=15
    )
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    view, _ = bot.tables.hand(stored, ALICE_ID)
    (top,) = view.keep_one_of  # this deal's highest, alone: T46 Seattle – Miami (21)
    refused = await driver.slash("move", {"action": "keep none"})
    assert refused.ephemeral and refused.content == (
        f"You must keep your highest-value ticket: {top.code} ({top.route}), worth {top.points}."
    )
    after = await bot.tables.current(GAMES_CHANNEL_ID)
    assert (after.version, after.state) == (stored.version, stored.state)
    await driver.slash("resign", {})
    public_table(await driver.slash("play", {"game": "ttr"}))
    standard = await driver.slash("move", {"action": "keep none"})
    assert standard.content == "Keep at least one ticket at the start of the game."


async def test_mygames_names_the_members_still_choosing_as_the_table_does(
    driver: InteractionDriver,
) -> None:
    """Alice keeps her opening tickets while Bob and Carol still choose. The table says
    "waiting for Bob and Carol"; before the fix her /mygames said "waiting for Bob, Carol"."""
    bot = running_bot(driver)
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="ttr", seats=THREE, seed=5
    )
    table = public_table(await play_first_offered(driver, ALICE_ID)).content or ""
    assert "waiting for Bob and Carol." in table, table
    mine = replies(await driver.slash("mygames", {}))
    assert "against Bob, Carol: waiting for Bob and Carol · " in mine, mine


async def test_a_solo_run_given_up_leaves_the_best_results_board(
    driver: InteractionDriver,
) -> None:
    """Today's Ticket to Ride Solo deal: Bob gives up at once, while choosing his opening
    tickets (no ticket kept, the score stood at 0); Alice plays her sixteen turns to the end
    and finishes below zero. Before the fix the deal's board ranked Bob #1 of 2 above Alice,
    and his /stats gave him "Best score: 0 pts" and that place; a given-up run now leaves the
    board as a game the computer helped play does: Alice alone ranks, and Bob's /stats still
    counts the game played (not won), with no best. /history says he left."""
    bot = running_bot(driver)
    public_table(await driver.slash("play", {"game": "ttr-solo", "daily": True}))
    for _ in range(200):
        if await bot.tables.store.active_game(GAMES_CHANNEL_ID) is None:
            break
        await play_first_offered(driver, ALICE_ID)
    assert await bot.tables.store.active_game(GAMES_CHANNEL_ID) is None
    bob = {"user_id": BOB_ID, "channel_id": GENERAL_CHANNEL_ID}
    public_table(await driver.slash("play", {"game": "ttr-solo", "daily": True}, **bob))
    public_table(await driver.slash("resign", {}, **bob))
    results = {r.record.seats[0]: r.record for r in await bot.store.results(game_key="ttr-solo")}
    alice_score = results[ALICE_ID].scores[0]
    assert alice_score < 0 and results[BOB_ID].scores == (0,), results
    for period in ("daily", "all"):
        board = await driver.slash("leaderboard", {"game": "ttr-solo", "period": period})
        alt = alt_text_of(board, "leaderboard.png")
        assert "alice" in alt and f"{alice_score}" in alt, alt
        assert "bob" not in alt.lower(), alt
    stats = alt_text_of(
        await driver.slash("stats", {"game": "ttr-solo"}, user_id=BOB_ID), "stats.png"
    )
    lines = stats.splitlines()
    assert lines[1] == "1 game played: 0 won, 1 lost, 0% won.", stats
    assert lines[2].startswith("Best score on the best-results board: none yet."), stats
    assert "Best score:" not in stats, stats
    history = replies(await driver.slash("history", {}, user_id=BOB_ID))
    assert "**lost** (left)" in history and "(0)" not in history, history
    mine = alt_text_of(await driver.slash("stats", {"game": "ttr-solo"}), "stats.png")
    assert f"Best score: {alice_score} pts" in mine and "1 of 1 on the board" in mine, mine


async def test_a_tie_for_the_win_is_told_alike_everywhere(driver: InteractionDriver) -> None:
    """Alice takes the second deck's last cards and the game ends with Alice and Bob on -8,
    Carol on -10 (no ticket completed). Before the fix the result line read "🏆 **Alice** and
    **Bob** won!", as if they had played together, while the score image said "Alice & Bob tie
    for the win!" and /history "tied for first"; the line now says "tie for the win" too."""
    bot = running_bot(driver)
    state = lay(3, hands=[[], [], []], deck=["blue"])
    state.players = tuple(seat.name for seat in THREE)
    state.deck_number = 2
    state.tickets = [[12], [8], [18]]  # T13 8, T09 8, T19 10: none completed
    await store_rigged(driver, "ttr", THREE, state)
    public_table(await driver.slash("move", {"action": "take blind"}))
    ended = await driver.slash("move", {"action": "take 1"})
    line = public_table(ended).content or ""
    tie = "🏆 **Alice** and **Bob** tie for the win! 1st Alice -8 · 1st Bob -8 · 3rd Carol -10."
    assert tie in line and "won!" not in line, line
    assert "Alice and Bob tie for the win!" in alt_text_of(ended, "score.png")
    (result,) = await bot.store.results(game_key="ttr")
    assert result.record.ranks == (0, 0, 2), result.record
    assert "**tied for first** (-8)" in replies(await driver.slash("history", {}))
    carol = replies(await driver.slash("history", {}, user_id=CAROL_ID))
    assert "**place 3** (-10)" in carol, carol
    # Held: the ratings rate the shared first between first and second (both above the
    # newcomers' 1,000 Carol falls below), and /stats counts it drawn, as neither won nor lost.
    moved = re.search(
        r"Alice 1,000 → ([\d,]+) .* Bob 1,000 → ([\d,]+) .* Carol 1,000 → ([\d,]+)", line
    )
    assert moved is not None, line
    alice, bob, carol_after = (int(figure.replace(",", "")) for figure in moved.groups())
    assert alice == bob > 1000 > carol_after, line
    card = alt_text_of(await driver.slash("stats", {"game": "ttr"}), "stats.png")
    assert "0 won, 0 lost, 1 drawn" in card, card


async def test_a_two_seat_tie_is_a_draw_everywhere(driver: InteractionDriver) -> None:
    """Alice and Bob end level on -8 (no ticket completed). Ticket to Ride has no tie-breaker:
    equal totals share the place, so with every seat level nobody won. /history said "drew",
    /stats counted a draw and the ratings moved as a draw, while the result line read "🏆
    **Alice** and **Bob** tie for the win!" and the score image "Alice & Bob tie for the
    win!"; both now say it is a draw, as Mille Bornes and the Race do."""
    bot = running_bot(driver)
    two = THREE[:2]
    state = lay(2, hands=[[], []], deck=["blue"])
    state.players = tuple(seat.name for seat in two)
    state.deck_number = 2
    state.tickets = [[12], [8]]  # T13 8, T09 8: neither completed
    await store_rigged(driver, "ttr", two, state)
    public_table(await driver.slash("move", {"action": "take blind"}))
    ended = await driver.slash("move", {"action": "take 1"})
    line = public_table(ended).content or ""
    assert "🤝 **Draw!** Alice -8 · Bob -8. The second train deck has run out." in line, line
    assert "tie for the win" not in line and "won" not in line, line
    ratings = re.search(r"📈 Ratings: Alice 1,000 → ([\d,]+) .* Bob 1,000 → ([\d,]+)", line)
    assert ratings is not None and ratings[1] == ratings[2], line  # equals drawing stay level
    score = alt_text_of(ended, "score.png")
    assert score.startswith("══ Final scoring: it's a draw! ══"), score
    (result,) = await bot.store.results(game_key="ttr")
    assert result.record.ranks == (0, 0), result.record
    for member in (ALICE_ID, BOB_ID):
        assert "**drew** (-8)" in replies(await driver.slash("history", {}, user_id=member))
        card = await driver.slash("stats", {"game": "ttr"}, user_id=member)
        stats = alt_text_of(card, "stats.png")
        assert "0 won, 0 lost, 1 drawn" in stats, stats

"""Ratings, results and the boards that show them, checked against the library and each other
(found in a review of places, rating updates, idle players and the /stats card)."""

from __future__ import annotations

from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.boards import leaderboard, member_stats
from bot.ratings import Rating, ResultRecord, rate_game
from bot.render.stats import rated_games, stats_png
from bot.results import ASSISTED
from bot.store.base import GuildSettings, SeatRecord, StoredResult
from bot.store.sqlite import SqliteStore
from bot.tables import Tables
from cogs.alt_text import stats_text
from tests.seam import finish_randomly
from tests.test_boards_after_games import ANN, BOB, T0, YEAR, _game


def test_the_card_s_chart_ends_at_the_rating_its_header_and_the_board_show() -> None:
    """Ann beats Bob five times, then plays nothing for a year. Her card's header and the board
    read her rating as of now (grown uncertainty, so lower), but the chart ended at her rating
    just after her last game, its gold tag a figure found nowhere else on the card."""
    results = [_game(i, (ANN, BOB), (0, 1), T0 + 60 * i) for i in range(1, 6)]
    now = T0 + YEAR
    card = member_stats(results, user_id=ANN, name="Ann", game_key="mille", guild_id=1, now=now)
    board = leaderboard(results, game_key="mille", guild_id=1, caller=ANN, now=now)
    assert board.caller_row is not None and card.rating == board.caller_row.value
    assert card.history[-1].rating == card.rating
    assert card.history[-2].rating > card.rating  # the rust of a year away shows on the chart
    assert rated_games(card.history) == 5
    assert "Rating over time: 5 rated games" in stats_text(card)
    assert stats_png(card)[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_card_seen_right_after_a_game_ends_at_that_game() -> None:
    """No time away, no slip: the chart's last point is the last game's, nothing added."""
    results = [_game(i, (ANN, BOB), (0, 1), T0 + 60 * i) for i in range(1, 6)]
    card = member_stats(
        results, user_id=ANN, name="Ann", game_key="mille", guild_id=1, now=T0 + 300
    )
    assert len(card.history) == 5 and all(point.after_game for point in card.history)
    assert card.history[-1].rating == card.rating


def _direct(before: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """(mu, sigma) after one game, straight from openskill's Plackett-Luce at its defaults."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = model.rate(teams, ranks=[float(p) for p in places])
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]


@pytest.mark.parametrize("seats", [3, 6])
def test_a_board_rates_a_game_of_many_seats_as_openskill_does(seats: int) -> None:
    """Two games of ``seats`` members: the second's ratings on the board (through the stored
    results, the ladder's replay and the displayed figure) are what openskill computes from the
    first's, at its default settings, for the places the game gave."""
    players = list(range(100, 100 + seats))
    first = list(range(seats))
    second = [seats - 1 - i for i in range(seats)]
    results = [
        _game(1, tuple(players), tuple(first), T0, key="dragon"),
        # Finished together, so no idle time grows anyone's uncertainty in between.
        _game(2, tuple(players), tuple(second), T0, key="dragon"),
    ]
    after_first = _direct([(25.0, 25 / 3)] * seats, first)
    expected = _direct(after_first, second)
    board = leaderboard(results, game_key="dragon", guild_id=1, caller=players[0], now=T0)
    shown = {row.player: row.value for row in board.rows}
    for player, (mu, sigma) in zip(players, expected, strict=True):
        assert shown[player] == round(1000 + 25 * (mu - 3 * sigma))
    ratings = rate_game(
        {p: Rating(mu, sigma, 1, T0) for p, (mu, sigma) in zip(players, after_first, strict=True)},
        dict(zip(players, second, strict=True)),
        T0,
    )
    for player, (mu, sigma) in zip(players, expected, strict=True):
        assert ratings[player].mu == pytest.approx(mu, abs=1e-12)
        assert ratings[player].sigma == pytest.approx(sigma, abs=1e-12)


def test_a_card_across_servers_names_opponents_as_the_member_met_them() -> None:
    """Ann beat Bob on server 1; later Bob played Cy on server 2, where his nickname is
    "Bobby of the Back Room". Ann's /stats in a direct message (across servers) listed her
    opponent under that nickname, a server she is not on; she met him as Bob."""
    cy = 30
    results = [
        StoredResult(ResultRecord(1, "mille", 1, T0, (ANN, BOB), (0, 1)), ("Ann", "Bob"), 5, None),
        StoredResult(
            ResultRecord(2, "mille", 2, T0 + 60, (BOB, cy), (0, 1)),
            ("Bobby of the Back Room", "Cy"),
            6,
            None,
        ),
    ]
    card = member_stats(
        results, user_id=ANN, name="Ann", game_key="mille", guild_id=None, now=T0 + 120
    )
    assert [line.name for line in card.opponents] == ["Bob"]
    assert "Back Room" not in stats_text(card)


async def test_a_game_the_computer_played_a_late_members_turn_in_is_still_rated(
    tmp_path: Path,
) -> None:
    """Under on_timeout computer, Ann lets a turn run out and the computer plays it; then the
    two members play the hand out. It is still a game between members: rated for both (the
    turn was Ann's to play), and not labelled as helped, a label only solitaires' boards read."""
    store = SqliteStore(tmp_path / "t.db")
    await store.open()
    clock = [T0]
    tables = Tables(store, clock=lambda: clock[0])
    try:
        await store.set_guild_settings(GuildSettings(1, 60, "computer"))
        seats = [SeatRecord(0, "Ann", user_id=ANN), SeatRecord(1, "Bob", user_id=BOB)]
        update = await tables.start(
            channel_id=5, guild_id=1, game_key="mille", seats=seats, options={"length": "hand"}
        )
        clock[0] = T0 + 60
        late = await tables.wake(update.game.id)
        assert late is not None and late.steps and late.steps[0].timed_out
        final = await finish_randomly(tables, late, seed=2)
        assert final.game.status == "finished"
        [result] = await store.results()
        assert result.record.counted and ASSISTED not in result.record.options
        board = leaderboard([result], game_key="mille", guild_id=1, caller=ANN, now=clock[0])
        assert {row.player for row in board.rows} == {ANN, BOB}
        assert all(row.games == 1 for row in board.rows)
    finally:
        await store.close()


def test_a_card_names_an_opponent_by_their_latest_name_whatever_order_results_come_in() -> None:
    """/stats merges the game's ladder with the member's own games of every game, the ladder
    first. Ann played Ticket to Ride with Bob when he was "Old Bob", and Mille Bornes since,
    when he was "Bob": her Mille Bornes card named him "Old Bob", the name read last."""
    mille = StoredResult(
        ResultRecord(2, "mille", 1, T0 + 60, (ANN, BOB), (0, 1)), ("Ann", "Bob"), 5, None
    )
    ttr = StoredResult(
        ResultRecord(1, "ttr", 1, T0, (ANN, BOB), (1, 0)), ("Ann", "Old Bob"), 5, None
    )
    card = member_stats(
        [mille, ttr], user_id=ANN, name="Ann", game_key="mille", guild_id=1, now=T0 + 120
    )
    assert [line.name for line in card.opponents] == ["Bob"]

"""Result records of finished games: places and whether a game counts for ratings."""

from __future__ import annotations

from bot.engine.core import Outcome
from bot.results import result_of
from bot.store.base import SeatRecord, StoredGame


def _game(*seats: SeatRecord, status: str = "finished") -> StoredGame:
    return StoredGame(
        id=7,
        channel_id=1,
        guild_id=2,
        game_key="mille",
        seats=seats,
        options={"deck": "bsd"},
        state={},
        version=9,
        status=status,  # type: ignore[arg-type]
        message_id=None,
        created_at=0.0,
        updated_at=1.0,
    )


ANN, BOB = SeatRecord(0, "Ann", user_id=1), SeatRecord(1, "Bob", user_id=2)


def test_winner_first_loser_second() -> None:
    """A two-player win gives places 0 and 1."""
    assert Outcome((1,), (3000, 5200), "").places == (1, 0)


def test_draw_shares_first_place() -> None:
    """A draw puts every seat first."""
    assert Outcome((), (5000, 5000), "").places == (0, 0)


def test_multi_seat_places_follow_scores_with_ties() -> None:
    """Behind the winner, seats are placed by score and equal scores share a place."""
    assert Outcome((2,), (10, 30, 50, 30), "").places == (3, 1, 0, 1)


def test_a_games_own_places_are_kept() -> None:
    """A game that ranks its seats itself (a seat that left) keeps its places in the result."""
    outcome = Outcome((0,), (5, 9, 7), "", places=(0, 2, 1))
    assert result_of(_game(ANN, BOB, SeatRecord(2, "Cy", user_id=3)), outcome, 1.0).ranks == (
        0,
        2,
        1,
    )


def test_one_member_in_two_seats_never_counts() -> None:
    """A table where one member holds two seats is recorded but never rated."""
    twin = SeatRecord(1, "Ann again", user_id=1)
    assert not result_of(_game(ANN, twin), Outcome((0,), (1, 0), ""), 1.0).counted


def test_game_between_members_counts() -> None:
    """A finished game between two members counts for ratings."""
    record = result_of(_game(ANN, BOB), Outcome((0,), (5100, 4000), ""), 10.0)
    assert record.counted and record.seats == (1, 2) and record.ranks == (0, 1)


def test_game_against_the_computer_does_not_count() -> None:
    """Playing the computer is recorded but not rated."""
    computer = SeatRecord(1, "Computer", policy="normal")
    assert not result_of(_game(ANN, computer), Outcome((0,), (1, 0), ""), 1.0).counted


def test_solo_and_aborted_games_do_not_count() -> None:
    """A solo game and an aborted game never move ratings."""
    assert not result_of(_game(ANN), Outcome((0,), (700,), ""), 1.0).counted
    aborted = _game(ANN, BOB, status="aborted")
    assert not result_of(aborted, Outcome((), (0, 0), ""), 1.0).counted


def test_solo_result_keeps_what_it_is_ranked_by() -> None:
    """A solo result records whether it was won and how many cards were cleared."""
    outcome = Outcome((), (650,), "Out of fuel: 43/49 cleared.", seat_details=({"cleared": 43},))
    record = result_of(_game(ANN), outcome, 1.0)
    assert record.details == ({"cleared": 43, "won": 0, "score": 650},)

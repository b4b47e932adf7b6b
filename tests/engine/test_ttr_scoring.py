"""Ticket to Ride scoring: the exact ticket allocation (against brute force), Big Cities, speed."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from itertools import combinations

import pytest

from bot.engine.ttr.cards import CITY_BONUS, LOCO, TICKETS
from bot.engine.ttr.scoring import (
    best_solo,
    best_standard,
    city_counts,
    completable,
    score_solo,
    score_standard,
    solo_value,
)
from tests.engine.ttr_helpers import counts


def _standard_key(chosen: Sequence[int]) -> tuple[int, ...]:
    return (sum(TICKETS[t].points for t in chosen), *city_counts(chosen))


def _brute_standard(tickets: Sequence[int], track: Sequence[int]) -> tuple[int, ...]:
    best: tuple[int, ...] | None = None
    for size in range(len(tickets) + 1):
        for chosen in combinations(tickets, size):
            if completable(chosen, track):
                key = _standard_key(chosen)
                if best is None or key > best:
                    best = key
    assert best is not None
    return best


def _brute_solo(
    tickets: Sequence[int], track: Sequence[int], hidden: Sequence[int]
) -> tuple[int, int]:
    return max(
        solo_value(chosen, tickets, hidden)
        for size in range(len(tickets) + 1)
        for chosen in combinations(tickets, size)
        if completable(chosen, track)
    )


def _random_case(rng: random.Random, most: int) -> tuple[list[int], list[int]]:
    tickets = rng.sample(range(len(TICKETS)), rng.randint(1, most))
    track = [rng.randint(0, 6) for _ in range(8)] + [rng.randint(0, 5)]
    return tickets, track


@pytest.mark.parametrize("seed", range(40))
def test_standard_allocation_matches_brute_force(seed: int) -> None:
    """On random small cases the allocation equals the best of every ticket subset."""
    rng = random.Random(seed)
    for _ in range(10):
        tickets, track = _random_case(rng, 10)
        chosen = best_standard(tickets, track)
        assert completable(chosen, track)
        assert _standard_key(chosen) == _brute_standard(tickets, track)


@pytest.mark.parametrize("seed", range(30))
def test_solo_allocation_matches_brute_force(seed: int) -> None:
    """Solo: the best total with Big City bonuses, then margin, equals brute force."""
    rng = random.Random(1000 + seed)
    for _ in range(6):
        tickets, track = _random_case(rng, 9)
        hidden = rng.sample([t for t in range(len(TICKETS)) if t not in tickets], 6)
        chosen = best_solo(tickets, track, hidden)
        assert completable(chosen, track)
        assert solo_value(chosen, tickets, hidden) == _brute_solo(tickets, track, hidden)


def test_greedy_by_points_is_wrong_and_the_allocation_is_not() -> None:
    """Taking the richest ticket first loses: two smaller tickets are worth more together."""
    # From 3 red and 3 green: T09 (8: 3 red, 2 green) alone, or T01 (5: 3 red) + T02 (5: 3 green).
    track = counts("red", "red", "red", "green", "green", "green")
    chosen = best_standard([8, 0, 1], track)  # T09, T01, T02
    assert chosen == (0, 1)  # 10 points beat T09's 8 (and its −10 for the others)


def test_locomotives_are_wild_and_serve_one_ticket_each() -> None:
    """Locomotives fill any colour, but each card serves one ticket only."""
    track = counts("red", "loco", "loco", "green", "green")
    assert best_standard([0], track) == (0,)  # T01: 3 red from 1 red + 2 Locomotives
    assert best_standard([0, 1], track) in ((0,), (1,))  # T02 needs a third green: one loco
    assert not completable([0, 1], track)


def test_only_locomotives_can_complete_a_ticket() -> None:
    """A stack of Locomotives alone completes a ticket of the same size."""
    assert best_standard([0], counts("loco", "loco", "loco")) == (0,)


def test_point_ties_prefer_new_york_then_the_other_cities_in_order() -> None:
    """Equal points: the allocation completing more New York tickets wins, then Chicago…"""
    # T03 Chicago (6: 2 black 2 white) vs T04 New York (6: 2 orange 2 yellow), 4 Locomotives.
    assert best_standard([2, 3], counts("loco", "loco", "loco", "loco")) == (3,)
    # T05 Los Angeles (6: 2 blue 2 purple) vs T03 Chicago: Chicago comes first.
    assert best_standard([4, 2], counts("loco", "loco", "loco", "loco")) == (2,)


def test_big_city_bonus_goes_to_the_most_completed_tickets_and_ties_all_score() -> None:
    """Most completed tickets touching a city scores it; tied players both score it."""
    tickets = [[0], [6], [1]]  # T01 Dallas, T07 Dallas, T02 Seattle
    tracks = [counts("red", "red", "red"), counts(*["yellow"] * 2, *["blue"] * 2), [0] * 9]
    result = score_standard(tickets, tracks, [True, True, True])
    assert result.city_winners[3] == (0, 1)  # Dallas: a tie, both score 12
    assert result.city_winners[4] == ()  # Seattle: nobody completed one
    assert [s.total for s in result.seats] == [5 + 12, 7 + 12, -5]


def test_a_ticket_touching_two_cities_counts_for_both() -> None:
    """T20 Chicago – New York counts towards both bonuses."""
    track = counts(*["yellow"] * 2, *["black"] * 2, *["green"] * 2)
    result = score_standard([[19], []], [track, [0] * 9], [True, True])
    assert result.seats[0].cities_won == (0, 1)
    assert result.seats[0].total == 11 + CITY_BONUS[0] + CITY_BONUS[1]


def test_uncompleted_tickets_subtract_and_cards_that_served_are_listed() -> None:
    """Completed tickets add, others subtract; each completed line lists the cards used."""
    result = score_standard([[0, 1]], [counts("red", "red", "loco")], [True])
    lines = {line.ticket: line for line in result.seats[0].lines}
    assert lines[0].completed and lines[0].cards == ((0, 2), (8, 1))
    assert not lines[1].completed and lines[1].points == -5


def test_solo_allocation_counts_big_city_bonuses() -> None:
    """Solo prefers a set that takes a Big City from the opponent over a few more points."""
    # T02 Seattle (5: 3 green) vs T13 Denver (8: 3 green 2 purple) from 3 green + 2 locos:
    # the opponent holds no Seattle ticket, so T02 brings 5 + 11 against T13's 8.
    track = counts("green", "green", "green", "loco", "loco")
    hidden = [0, 2, 3, 4, 5, 6]
    assert best_solo([1, 12], track, hidden) == (1,)
    assert best_standard([1, 12], track) == (12,)


def test_solo_equal_totals_prefer_the_larger_margin() -> None:
    """Two allocations give the same total: solo picks the one that beats the opponent by more.

    The opponent holds one Seattle ticket (T46). From this stack only T24 (12: 3 purple, 2 red,
    2 white) or T02 + T08 (5: 3 green; 7: 2 purple, 2 black) can be completed; all three touch
    Seattle. T24 alone: 12 - 5 - 7 + 11 (Seattle, tied) = 11. T02 + T08: 5 + 7 - 12 + 11 = 11
    too, but two Seattle tickets take the bonus from the opponent: a margin 11 points better.
    """
    track = counts("red", "green", "purple", "purple", "black", "black", "white", "white")
    track[LOCO] = 2
    tickets = [1, 7, 23]  # T02, T08, T24
    hidden = [45, 10, 21, 25, 14, 6]  # T46 Seattle – Miami and five tickets away from Seattle
    alone, pair = solo_value((23,), tickets, hidden), solo_value((1, 7), tickets, hidden)
    assert alone[0] == pair[0] == 11 and pair[1] == alone[1] + 11
    assert best_solo(tickets, track, hidden) == (1, 7)


def test_solo_result_reports_the_opponent_and_the_margin() -> None:
    """The hidden tickets all count as completed by the opponent."""
    hidden = [0, 2, 3, 4, 5, 6]
    result = score_solo([1], counts("green", "green", "green"), hidden)
    assert result.opponent is not None
    assert result.opponent.ticket_points == sum(TICKETS[t].points for t in hidden)
    assert result.margin == result.seats[0].total - result.opponent.total


def test_a_four_player_final_scoring_takes_under_fifty_milliseconds() -> None:
    """Four players sharing all 46 tickets with large stacks score in well under 50 ms."""
    rng = random.Random(9)
    times = []
    for _ in range(20):
        pool = list(range(len(TICKETS)))
        rng.shuffle(pool)
        cuts = sorted(rng.sample(range(1, len(pool)), 3))
        tickets = [
            pool[: cuts[0]],
            pool[cuts[0] : cuts[1]],
            pool[cuts[1] : cuts[2]],
            pool[cuts[2] :],
        ]
        tracks = []
        for _ in range(4):
            track = [0] * 9
            for _ in range(rng.randint(20, 45)):
                track[rng.randrange(9)] += 1
            tracks.append(track)
        start = time.perf_counter()
        score_standard(tickets, tracks, [True] * 4)
        times.append(time.perf_counter() - start)
    assert statistics.median(times) < 0.050


def test_the_final_scoring_names_every_ticket_as_printed() -> None:
    """At the final scoring every ticket is face up: each line, and the solo opponent's hidden
    tickets, carry the printed code, so the public view shows them as the hands did."""
    standard = score_standard([[0, 1]], [counts("red", "red", "loco")], [True])
    assert [line.code for line in standard.seats[0].lines] == ["T01", "T02"]
    hidden = [0, 2, 3, 4, 5, 6]
    solo = score_solo([1], counts("green", "green", "green"), hidden)
    assert solo.opponent is not None
    assert solo.opponent.codes == ("T01", "T03", "T04", "T05", "T06", "T07")

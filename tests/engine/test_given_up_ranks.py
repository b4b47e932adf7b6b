"""A solitaire's ``Ranking.given_up_ranks`` says what its engine does: a game given up at once
is marked ``left`` (and so leaves the best-results board, bot/bests.py) exactly where the flag
says a give-up does not rank. The /stats card's note names give-ups from the flag alone."""

from __future__ import annotations

import pytest

from bot.games.bundle import GameBundle
from bot.games.registry import all_bundles

SOLITAIRES = [
    found
    for found in all_bundles()
    if found.info.ranking.kind == "best" and found.info.max_players == 1
]


def test_both_solitaires_are_checked() -> None:
    assert {found.key for found in SOLITAIRES} >= {"solo", "ttr-solo"}


@pytest.mark.parametrize("found", SOLITAIRES, ids=lambda found: found.key)
def test_a_game_given_up_is_left_exactly_where_give_ups_do_not_rank(found: GameBundle) -> None:
    game = found.game
    given_up = game.leave(game.new_game(["Ann"], seed=1), 0)
    outcome = game.outcome(given_up)
    assert outcome is not None
    assert bool(outcome.seat_details[0].get("left")) == (not found.info.ranking.given_up_ranks)

"""Engine helpers for searches: apply without the copy, legal moves without the cycles."""

from __future__ import annotations

import random

from bot.engine.mille import rules as mille_rules
from bot.engine.race import moves as race_moves
from bot.engine.race import rules as race_rules
from bot.games import get_game

MILLE = get_game("mille")
RACE = get_game("race")


def test_mille_apply_in_place_matches_apply() -> None:
    """apply_in_place turns a state into exactly what apply returns (and apply copies)."""
    for seed in (1, 2):
        rng = random.Random(seed)
        state = MILLE.new_game(["Ann", "Bob"], seed)
        while MILLE.outcome(state) is None:
            seat = min(MILLE.to_act(state))
            action = rng.choice(MILLE.legal_actions(state, seat))
            before = MILLE.to_dict(state)
            after = MILLE.apply(state, seat, action)
            assert MILLE.to_dict(state) == before
            mille_rules.apply_in_place(state, seat, action)
            assert MILLE.to_dict(state) == MILLE.to_dict(after)


def test_race_apply_in_place_matches_apply() -> None:
    """The race's apply_in_place turns a state into exactly what apply returns."""
    for seed in (1, 2):
        rng = random.Random(seed)
        state = RACE.new_game(["Ann", "Bob"], seed)
        while RACE.outcome(state) is None:
            seat = min(RACE.to_act(state))
            action = rng.choice(RACE.legal_actions(state, seat))
            after = RACE.apply(state, seat, action)
            race_rules.apply_in_place(state, seat, action)
            assert RACE.to_dict(state) == RACE.to_dict(after)


def test_race_legal_actions_without_cycles_drop_only_the_cycles() -> None:
    """with_cycles=False lists every legal move but the cycles, in the same order."""
    rng = random.Random(3)
    state = RACE.new_game(["Ann", "Bob"], 3)
    checked = 0
    while RACE.outcome(state) is None:
        seat = min(RACE.to_act(state))
        full = race_moves.legal_actions(state, seat)
        lean = race_moves.legal_actions(state, seat, with_cycles=False)
        assert lean == [a for a in full if a[0] != "cycle"]
        checked += 1
        state = RACE.apply(state, seat, rng.choice(full))
    assert checked > 50

"""Dragon Mille Bornes conformance: seeded random playouts for 2 to 6 cars with every engine
invariant checked (``tests/conformance/engine_checks.py``) plus the game's own.

Most playouts prefer plays over discards (shots, reactions, skids and deaths come up far more
often, and games stay short); a few are uniformly random. Some seats leave now and then.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from bot.engine.core import Game
from bot.engine.dragon import GAME
from bot.engine.dragon.cards import (
    CW_ORDER,
    DRIVER_TRACK,
    SIDE_TRACK,
    SIDES,
    SPECS,
    TIRE_TRACK,
    TRIP,
)
from bot.engine.dragon.legality import why_not_cw, why_not_mb
from bot.engine.dragon.notation import Action
from bot.engine.dragon.state import DragonState, Phase
from tests.conformance.engine_checks import check_playout

SEEDS = range(40)
QUIET = ("discard", "cw-discard", "cw-discard-all", "end", "pass")


def prefer_plays(state: Any, seat: int, legal: Sequence[Any], rng: random.Random) -> Any:
    """Mostly a play (a shot, a hazard, a reaction), sometimes anything."""
    plays = [a for a in legal if a.verb not in QUIET]
    return rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(legal)


def dragon_invariants(game: Game[Any, Any], state: DragonState) -> None:
    """Dead drivers never act; damage stays on its track; hands and miles stay in bounds."""
    acting = game.to_act(state)
    for seat, car in enumerate(state.cars):
        assert all(0 <= h <= SIDE_TRACK for h in car.hits), car.hits
        assert 0 <= car.tires <= TIRE_TRACK and 0 <= car.driver <= DRIVER_TRACK
        if not car.alive:
            assert seat not in acting, "a dead driver is asked to act"
            assert game.legal_actions(state, seat) == []
            assert not car.mb.hand and not car.cw_hand and not car.mb.miles
        else:
            assert car.driver < DRIVER_TRACK, "a driver with 5 hits is still alive"
            assert car.mb.mileage <= TRIP and car.mb.two_hundreds <= 2
            assert len(car.mb.hand) <= 7 + 4 and len(car.cw_hand) <= 6
            assert len(car.mb.battle) <= 2 and len(car.mb.speed) <= 1
    assert state.mb_left >= 0
    if state.phase not in (Phase.TURN, Phase.OVER):
        assert state.pending is not None


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", SEEDS)
def test_playout_keeps_every_invariant(seats: int, seed: int) -> None:
    """A seeded playout passes every conformance check and the game's own invariants."""
    options = {"oil_slick": "on" if seed % 2 else "off"}
    if seed % 5 == 4:
        options["deck"] = "modern"
    uniform = seed % 10 == 9
    report = check_playout(
        GAME,
        seats,
        1000 * seats + seed,
        options=options,
        leave_chance=0.01 if seed % 4 == 0 else 0.0,
        choose=None if uniform else prefer_plays,
        every=41 if uniform else 23,
        extra=dragon_invariants,
    )
    assert report.outcome is not None


def test_playouts_exercise_the_reactions() -> None:
    """Across a few playouts every kind of decision comes up, reaction windows included."""
    seen: set[str] = set()
    reactions = 0
    for seed in range(12):
        report = check_playout(
            GAME,
            2 + seed % 5,
            seed,
            options={"oil_slick": "on"},
            choose=prefer_plays,
            every=50,
            extra=dragon_invariants,
        )
        seen |= report.actions_seen
        reactions += report.reactions
    wanted = {"armor", "swerve", "spin", "backfire", "oil-slick", "skid", "side", "stampede"}
    assert wanted <= seen and reactions > 100


def test_apply_never_changes_its_input() -> None:
    """States are values: applying a move leaves the state it was applied to untouched."""
    for seed in range(4):
        rng = random.Random(seed)
        state = GAME.new_game(["A", "B", "C", "D"], seed)
        while GAME.outcome(state) is None:
            before = json.dumps(GAME.to_dict(state), sort_keys=True)
            seat = rng.choice(sorted(GAME.to_act(state)))
            action = prefer_plays(state, seat, GAME.legal_actions(state, seat), rng)
            after = GAME.apply(state, seat, action)
            assert json.dumps(GAME.to_dict(state), sort_keys=True) == before
            state = after


def test_fast_menu_agrees_with_the_refusals() -> None:
    """The Mille Bornes menu offers exactly the plays ``why_not_mb`` allows, on every turn of
    a few playouts (the menu is built the fast way, the refusals the readable way)."""
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.new_game([f"P{i}" for i in range(2 + seed % 5)], seed)
        while GAME.outcome(state) is None:
            seat = rng.choice(sorted(GAME.to_act(state)))
            legal = GAME.legal_actions(state, seat)
            if state.phase is Phase.TURN and state.mb_left > 0:
                for card in set(state.cars[seat].mb.hand):
                    for target in [None, *range(len(state.cars))]:
                        allowed = why_not_mb(state, seat, card, target) is None
                        action = Action("play", card.value, target)
                        assert allowed == (action in legal), (card, target)
                        checked += 1
            state = GAME.apply(state, seat, prefer_plays(state, seat, legal, rng))
    assert checked > 1000


def test_fast_car_wars_menu_agrees_with_the_refusals() -> None:
    """The Car Wars plays offered are exactly those ``why_not_cw`` allows, in card order then
    seat then side, on every turn of a few playouts (jammed guns, spun attacks, dead cars)."""
    checked = 0
    side_choices = [None, *range(len(SIDES))]
    for seed in range(8):
        rng = random.Random(seed)
        seats = 2 + seed % 5
        state = GAME.new_game([f"P{i}" for i in range(seats)], seed)
        while GAME.outcome(state) is None:
            seat = rng.choice(sorted(GAME.to_act(state)))
            legal = GAME.legal_actions(state, seat)
            if state.phase is Phase.TURN:
                offered = [a for a in legal if a.verb == "cw"]
                allowed = [
                    Action("cw", code, target, side)
                    for code in sorted(set(state.cars[seat].cw_hand), key=CW_ORDER.__getitem__)
                    for target in [None, *range(seats)]
                    # Only a Called Shot names a side (the notation reads no side for others).
                    for side in (side_choices if SPECS[code].kind == "called-shot" else [None])
                    if why_not_cw(state, seat, code, target, side) is None
                ]
                assert offered == allowed
                checked += len(allowed)
            state = GAME.apply(state, seat, prefer_plays(state, seat, legal, rng))
    assert checked > 1000


def test_uniform_random_six_car_games_end_within_max_moves() -> None:
    """Uniformly random six-car games end well inside GameInfo.max_moves."""
    longest = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = GAME.new_game([f"P{i}" for i in range(6)], seed)
        moves = 0
        while GAME.outcome(state) is None:
            seat = rng.choice(sorted(GAME.to_act(state)))
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            moves += 1
        longest = max(longest, moves)
    assert longest < GAME.info.max_moves // 2

"""The Dragon Mille Bornes computer player ``normal``: legal answers from its own view, its key
decisions on stacked tables, and its strength against ``random`` (seats rotated)."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from bot.ai.base import Policy
from bot.ai.dragon_normal import DragonNormalPolicy
from bot.ai.random_policy import RandomPolicy
from bot.engine.dragon import GAME
from bot.engine.dragon.state import DragonState
from tests.engine.dragon_helpers import act, moving, rig, start


def choice(state: DragonState, seat: int | None = None) -> str:
    """What ``normal`` plays for ``seat`` (default: the only seat to act)."""
    if seat is None:
        (seat,) = GAME.to_act(state)
    view = GAME.private_view(state, seat)
    text = DragonNormalPolicy().choose(view, random.Random(0))
    assert text in view.legal
    return text


def test_normal_answers_legally_in_every_phase() -> None:
    """Over playouts at every table size, every answer is one of the seat's legal moves."""
    policy = DragonNormalPolicy()
    for seats in range(2, 7):
        state = GAME.new_game([f"P{i}" for i in range(seats)], seats, {"oil_slick": "on"})
        rng = random.Random(seats)
        moves = 0
        while GAME.outcome(state) is None and moves < 600:
            seat = rng.choice(sorted(GAME.to_act(state)))
            view = GAME.private_view(state, seat)
            text = policy.choose(view, rng)
            assert text in view.legal
            state = GAME.apply(state, seat, GAME.parse_action(text))
            moves += 1


def test_normal_finishes_the_race() -> None:
    """With exactly the miles it needs in hand, it drives them."""
    s = moving(start(mb=[["100", "stop"], []]), 0, 1)
    s = rig(s, 0, miles=["200", "200", "100", "100", "100", "100", "100"])
    assert choice(s) == "play 100"


def test_normal_plays_the_coup_fourre() -> None:
    """A hazard on it while it holds the safety: coup fourré."""
    s = moving(start(mb=[["stop"], ["right-of-way"]]), 1)
    s = act(s, 0, "play stop @1")
    assert choice(s) == "play right-of-way"


def test_normal_backfires_an_autocannon() -> None:
    """Autocannon Backfires is always played against an autocannon."""
    s = act(start(cw=[["ac-front"], ["backfire", "armor-front"]]), 0, "ac-front @1")
    assert choice(s) == "backfire"


def test_normal_keeps_its_swerve_for_a_small_shot() -> None:
    """A machine gun on an undamaged side is taken (or armored), not swerved."""
    s = moving(start(cw=[["mg-front"], ["swerve"]]), 1)
    s = act(s, 0, "mg-front @1")
    assert choice(s) == "pass"


def test_normal_swerves_a_shot_that_would_reach_the_driver() -> None:
    """A rocket on a breached side would hurt the driver: it swerves."""
    s = moving(start(cw=[["rocket-front"], ["swerve", "armor-front"]]), 1)
    s = rig(s, 1, hits=[12, 0, 0, 0], driver=2)
    s = act(s, 0, "rocket-front @1")
    assert choice(s) == "swerve"


def test_normal_armors_a_big_hit() -> None:
    """A rocket on its armored side: armor."""
    s = act(start(cw=[["rocket-left"], ["armor-left"]]), 0, "rocket-left @1")
    assert choice(s) == "armor left"


def test_normal_skids_a_car_that_dodged() -> None:
    """Holding Skid Into a Wall after its shot was dodged, it skids the dodger."""
    s = moving(start(cw=[["mg-front", "skid"], ["swerve"]]), 1)
    s = act(act(s, 0, "mg-front @1"), 1, "swerve")
    assert choice(s) == "skid @1"


def test_normal_takes_a_skid_on_its_healthiest_side() -> None:
    """Skidding into a wall, it puts the hits on its least damaged side."""
    s = moving(start(cw=[["mg-front", "skid"], ["swerve"]]), 1)
    s = rig(s, 1, hits=[10, 4, 0, 7])
    s = act(act(act(s, 0, "mg-front @1"), 1, "swerve"), 0, "skid @1")
    assert choice(s) == "side left"


def test_normal_hazards_the_leader() -> None:
    """With a Stop and three moving rivals, it stops the one closest to 1000 miles."""
    s = moving(start(mb=[["stop"], [], [], []]), 1, 2, 3)
    s = rig(rig(rig(s, 1, miles=["100"]), 2, miles=["200", "200", "200", "100"]), 3, miles=[])
    assert choice(s) == "play stop @2"


def test_normal_shoots_the_wounded() -> None:
    """A rocket goes where it kills: the car with a breached front and a hurt driver."""
    s = start(mb=[["gasoline"], [], []], cw=[["rocket-front"], [], []])
    s = rig(s, 2, hits=[12, 0, 0, 0], driver=3)
    s = act(s, 0, "discard gasoline")
    assert choice(s) == "rocket-front @2"


def test_normal_unjams_a_hand_of_machine_guns() -> None:
    """Jammed with a hand of machine guns, it discards the hand to unjam."""
    s = start(mb=[["gasoline"], []], cw=[["mg-front", "mg-back", "mg-left", "mg-right"], []])
    s = rig(s, 0, jammed=True)
    s = act(s, 0, "discard gasoline")
    assert choice(s) == "cw-discard all"


def test_normal_decides_from_its_own_view_only() -> None:
    """Two tables that differ only in the other seats' hidden cards get the same answer."""
    state = GAME.new_game(["A", "B", "C"], 7)
    rng = random.Random(2)
    for _ in range(30):
        seat = min(GAME.to_act(state))
        view = GAME.private_view(state, seat)
        twin = GAME.resample_hidden(state, seat, random.Random(rng.random()))
        a = DragonNormalPolicy().choose(view, random.Random(1))
        b = DragonNormalPolicy().choose(GAME.private_view(twin, seat), random.Random(1))
        assert a == b
        state = GAME.apply(state, seat, GAME.parse_action(a))


def _arena(lineup: Sequence[str], games: int, seed: int) -> tuple[int, int, float, float]:
    """Games with the lineup rotated through the seats: (normal-side wins, games, mean ms per
    normal move, worst ms)."""
    wins = 0
    spent = 0.0
    worst = 0.0
    decisions = 0
    for g in range(games):
        shift = g % len(lineup)
        kinds = list(lineup[shift:]) + list(lineup[:shift])
        policies: list[Policy] = [
            DragonNormalPolicy() if k == "normal" else RandomPolicy() for k in kinds
        ]
        rngs = [random.Random(f"{seed + g}:{i}") for i in range(len(kinds))]
        state = GAME.new_game([f"P{i}" for i in range(len(kinds))], seed + g)
        while (outcome := GAME.outcome(state)) is None:
            seat = min(GAME.to_act(state))
            view = GAME.private_view(state, seat)
            tick = time.process_time()
            text = policies[seat].choose(view, rngs[seat])
            took = time.process_time() - tick
            if kinds[seat] == "normal":
                spent += took
                worst = max(worst, took)
                decisions += 1
            state = GAME.apply(state, seat, GAME.parse_action(text))
        if any(kinds[w] == "normal" for w in outcome.winners):
            wins += 1
    return wins, games, 1000 * spent / max(1, decisions), 1000 * worst


def test_normal_beats_random_nine_times_in_ten() -> None:
    """Two-player games, seats rotated: normal wins at least 90 % of 200 games, and thinks
    well under 10 ms a move."""
    wins, games, mean_ms, _ = _arena(["normal", "random"], 200, seed=1)
    assert wins >= 0.9 * games
    assert mean_ms < 10

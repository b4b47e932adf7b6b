"""The Mille Bornes ``normal`` and ``expert`` players decide exactly as they did before their
rollouts were made faster.

``tests/ai/mille_parity.json`` was recorded from the code before that work (run this module as
a script to record it again, only when a change of play is intended):

- ``normal``: the move it picks at every decision with a choice, for both seats, in seeded
  games of ``normal`` against ``random`` (matches and single hands, both decks), written as the
  index of the move in the view's legal list, one character per decision;
- ``rollouts``: the value of seeded rollouts from seeded imagined deals (the whole hand played
  out by ``normal`` for both seats, so one wrong move anywhere shows);
- ``expert``: the expert's move, with a fixed round cap and the clock off, at a few dozen
  positions.
"""

from __future__ import annotations

import json
import random
import string
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.ai.base import Policy
from bot.ai.mille_expert import MilleDomain, MilleExpertPolicy
from bot.ai.mille_normal import NormalMillePolicy
from bot.ai.random_policy import RandomPolicy
from bot.engine.mille.views import MilleSeatView
from bot.games import get_game

FIXTURE = Path(__file__).with_name("mille_parity.json")
MILLE = get_game("mille")
DIGITS = string.digits + string.ascii_letters  # a legal list is never longer than this
GAMES: list[tuple[int, dict[str, str]]] = [
    (1, {"deck": "bsd", "length": "match"}),
    (2, {"deck": "modern", "length": "match"}),
    *((seed, {"deck": "bsd", "length": "hand"}) for seed in range(3, 9)),
    *((seed, {"deck": "modern", "length": "hand"}) for seed in range(9, 15)),
    (15, {"deck": "modern", "length": "match"}),
    (16, {"deck": "bsd", "length": "match", "names": "fr"}),
]
ROLLOUT_DEALS = 40  # deals, the first decision of each: ten rollouts each
EXPERT_POSITIONS = 30
EXPERT_ROUNDS = 6


def _views(seed: int, options: dict[str, str]) -> Iterator[MilleSeatView]:
    """Every seat view met while ``normal`` (seat 0) plays ``random`` (seat 1)."""
    players: list[Policy] = [NormalMillePolicy(), RandomPolicy()]
    rng = random.Random(seed)
    state = MILLE.new_game(["Ann", "Bob"], seed, options)
    while MILLE.outcome(state) is None:
        seat = min(MILLE.to_act(state))
        view = MILLE.private_view(state, seat)
        yield view
        state = MILLE.apply(state, seat, MILLE.parse_action(players[seat].choose(view, rng)))


def normal_choices() -> list[str]:
    """Per game, the index of ``normal``'s move at each decision with a choice."""
    normal = NormalMillePolicy()
    rng = random.Random(0)
    games = []
    for seed, options in GAMES:
        picks = [
            DIGITS[view.legal.index(normal.choose(view, rng))]
            for view in _views(seed, options)
            if len(view.legal) > 1
        ]
        games.append("".join(picks))
    return games


def rollout_values() -> list[float]:
    """Ten seeded rollouts from the first decision of each seeded deal."""
    domain = MilleDomain()
    rng = random.Random(11)
    values = []
    for seed in range(ROLLOUT_DEALS):
        options = {"deck": "modern" if seed % 2 else "bsd", "length": "match"}
        state = MILLE.new_game(["Ann", "Bob"], seed, options)
        seat = min(MILLE.to_act(state))
        view = MILLE.private_view(state, seat)
        for _ in range(10):
            world = domain.determinize(view, rng)
            values.append(round(domain.rollout(world, seat, rng), 12))
    return values


def expert_positions() -> list[MilleSeatView]:
    """Decisions with more than one move, spread over a few seeded games."""
    found: list[MilleSeatView] = []
    for seed in range(20, 40):
        views = [
            view
            for view in _views(seed, {"deck": "bsd", "length": "match"})
            if view.phase in ("act", "extension") and len(view.legal) > 1
        ]
        found.extend(views[5:40:12])
        if len(found) >= EXPERT_POSITIONS:
            break
    return found[:EXPERT_POSITIONS]


def expert_choices() -> list[str]:
    expert = MilleExpertPolicy(max_rounds=EXPERT_ROUNDS, timed=False)
    return [expert.choose(view, random.Random(i)) for i, view in enumerate(expert_positions())]


def record() -> dict[str, Any]:
    return {"normal": normal_choices(), "rollouts": rollout_values(), "expert": expert_choices()}


def _fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def test_normal_picks_the_recorded_moves() -> None:
    """Over a few thousand seeded decisions, ``normal`` picks exactly the recorded moves."""
    expected = _fixture()["normal"]
    got = normal_choices()
    assert sum(map(len, got)) > 1200
    for seed_options, want, have in zip(GAMES, expected, got, strict=True):
        assert have == want, f"normal plays differently in game {seed_options}"


def test_rollouts_reach_the_recorded_values() -> None:
    """Seeded rollouts from seeded deals end exactly where they did."""
    assert rollout_values() == _fixture()["rollouts"]


def test_expert_picks_the_recorded_moves() -> None:
    """The expert, capped by rounds with the clock off, picks exactly the recorded moves."""
    assert expert_choices() == _fixture()["expert"]


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("Run with --record to overwrite tests/ai/mille_parity.json.")
    FIXTURE.write_text(json.dumps(record(), separators=(",", ":")) + "\n")

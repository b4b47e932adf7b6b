"""Dragon Mille Bornes plays every seeded game exactly as it did before its playouts were made
faster.

``tests/engine/dragon_parity.json`` was recorded from the code before that work (run this
module as a script with ``--record`` to record it again, only when a change of play is
intended). For seeds 0 to 29 and 2 to 6 cars, uniformly random and "prefer plays" games
(``test_dragon_playouts.prefer_plays``), it keeps a digest of every legal list offered, of the
saved state every 40 moves and at the end, and the number of moves. The games go through
``apply``; a few go through ``apply_in_place`` (the expert's rollouts) and must end the same.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from bot.engine.dragon import GAME
from bot.engine.dragon.rules import apply_in_place
from tests.engine.test_dragon_playouts import prefer_plays

FIXTURE = Path(__file__).with_name("dragon_parity.json")
SEEDS = range(30)
SEATS = range(2, 7)


def fingerprint(seats: int, seed: int, uniform: bool, in_place: bool = False) -> str:
    """The digest of one seeded game: every legal list, the state now and then, the end."""
    options = {"oil_slick": "on" if seed % 2 else "off"}
    if seed % 5 == 4:
        options["deck"] = "modern"
    rng = random.Random(seed * 10 + seats)
    state = GAME.new_game([f"P{i}" for i in range(seats)], seed, options)
    digest = hashlib.sha256()
    moves = 0
    while GAME.outcome(state) is None:
        seat = rng.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal_actions(state, seat)
        digest.update(repr(legal).encode())
        action = rng.choice(legal) if uniform else prefer_plays(state, seat, legal, rng)
        if in_place:
            apply_in_place(state, seat, action)
        else:
            state = GAME.apply(state, seat, action)
        moves += 1
        if moves % 40 == 0:
            digest.update(json.dumps(GAME.to_dict(state), sort_keys=True).encode())
    digest.update(json.dumps(GAME.to_dict(state), sort_keys=True).encode())
    return f"{moves}:{digest.hexdigest()[:16]}"


def _key(seats: int, seed: int, uniform: bool) -> str:
    return f"{seats}/{seed}/{'uniform' if uniform else 'plays'}"


def record() -> dict[str, str]:
    return {
        _key(seats, seed, uniform): fingerprint(seats, seed, uniform)
        for seats in SEATS
        for seed in SEEDS
        for uniform in (False, True)
    }


def _fixture() -> dict[str, str]:
    data: dict[str, str] = json.loads(FIXTURE.read_text())
    return data


@pytest.mark.parametrize("seats", SEATS)
def test_seeded_games_play_as_recorded(seats: int) -> None:
    """Every seeded game offers the same menus, reaches the same states and ends the same."""
    expected = _fixture()
    for seed in SEEDS:
        for uniform in (False, True):
            key = _key(seats, seed, uniform)
            assert fingerprint(seats, seed, uniform) == expected[key], key


def test_apply_in_place_plays_as_recorded() -> None:
    """The rollouts' ``apply_in_place`` plays the same games as ``apply``."""
    expected = _fixture()
    for seats, seed, uniform in [(2, 3, False), (4, 7, True), (6, 0, False), (6, 11, True)]:
        key = _key(seats, seed, uniform)
        assert fingerprint(seats, seed, uniform, in_place=True) == expected[key], key


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("Run with --record to overwrite tests/engine/dragon_parity.json.")
    FIXTURE.write_text(json.dumps(record(), indent=0, sort_keys=True) + "\n")

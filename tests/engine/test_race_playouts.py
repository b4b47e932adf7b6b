"""1000 Mile Race conformance: the shared engine checks over many seeded random playouts.

Uniform random play cycles most of the time (cycles outnumber every other action), so half
the playouts use a chooser that prefers plays: those reach 1000-mile wins, hand-limit discards,
the legendary rule and long reaction chains. Each card's owner is checked too: every player
always owns exactly one whole deck, wherever its cards lie.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from bot.engine.core import Game
from bot.engine.race import rules
from bot.engine.race.cards import deck_counts
from tests.conformance.engine_checks import PlayoutReport, check_playout
from tests.engine.race_helpers import G


def _owners_keep_their_decks(game: Game[Any, Any], state: Any) -> None:
    for seat in (0, 1):
        assert rules.owned_census(state, seat) == deck_counts(), f"seat {seat} lost a card"


def _prefer_plays(state: Any, seat: int, legal: Sequence[Any], rng: random.Random) -> Any:
    """Mostly a play or an answer, sometimes ending the turn at once (hands then grow past the
    limit), sometimes anything, cycles included."""
    roll = rng.random()
    plays = [a for a in legal if a[0] in ("play", "react", "discard")]
    if plays and roll < 0.75:
        return rng.choice(plays)
    if ("end",) in legal and roll < 0.9:
        return ("end",)
    return rng.choice(legal)


@pytest.mark.parametrize("seed", range(40))
def test_random_playouts_conform(seed: int) -> None:
    """Uniform random playouts keep every engine invariant; some players leave."""
    check_playout(
        G,
        2,
        seed,
        leave_chance=0.01 if seed % 3 == 0 else 0.0,
        every=3,
        extra=_owners_keep_their_decks,
    )


@pytest.mark.parametrize("seed", range(24))
def test_purposeful_playouts_conform(seed: int) -> None:
    """Playouts that prefer plays keep every invariant too."""
    check_playout(
        G,
        2,
        1000 + seed,
        leave_chance=0.005 if seed % 4 == 0 else 0.0,
        choose=_prefer_plays,
        every=8,  # hands grow big here: thousands of cycles to check at each step
        extra=_owners_keep_their_decks,
    )


def test_playouts_reach_every_kind_of_move_and_ending() -> None:
    """Across purposeful playouts: wins at 1000, exhaustion endings, answers, discards."""
    reasons: list[str] = []
    seen: set[str] = set()
    reactions = 0
    for seed in range(40):
        report: PlayoutReport = check_playout(G, 2, 5000 + seed, choose=_prefer_plays, every=500)
        assert report.outcome is not None
        reasons.append(report.outcome.reason)
        seen |= report.actions_seen
        reactions += report.reactions
    assert {"play", "cycle", "react", "pass", "discard", "end"} <= seen
    assert reactions > 0
    assert any("exactly 1000" in r for r in reasons)
    assert any("libraries are spent" in r for r in reasons)

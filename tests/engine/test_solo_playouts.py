"""Random Mille Bornes Solo playouts over many seeds, asserting the invariants at every step.

Invariants: no card is created or lost, the state survives a JSON round trip, the views never
depend on a hidden card (face-down highway cards, the tank's order) — checked by swapping
hidden cards and comparing views — and the game always ends, with a legal move whenever it
is running.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.engine.mille.cards import deck_counts
from bot.engine.solo.state import HAND_SIZE, HIGHWAY_CARDS, SoloState
from bot.games import get_game

G = get_game("solo")
SEEDS = range(240)
PRESETS = ("classic", "refuel", "easy")


def _swap_hidden(s: SoloState, rng: random.Random) -> SoloState:
    """The same public table with the hidden cards moved around.

    Face-down cards are shuffled across all highways (each keeps its depth and its top) and
    the tank is shuffled. Before any refuel, face-down and tank cards are also exchanged:
    nothing public tells them apart. After one, the tank's contents are public (every card
    in it was seen in the discard pile), so only its order and the face-down cards may move.
    """
    twin = s.clone()
    downs = [c for pile in twin.highways for c in pile[:-1]]
    if twin.refuels_used == 0:
        pool = downs + twin.tank
        rng.shuffle(pool)
        downs, twin.tank = pool[: len(downs)], pool[len(downs) :]
    else:
        rng.shuffle(downs)
        rng.shuffle(twin.tank)
    k = 0
    for pile in twin.highways:
        if pile:
            n = len(pile) - 1
            pile[:n] = downs[k : k + n]
            k += n
    return twin


@pytest.mark.parametrize("seed", SEEDS)
def test_random_game_keeps_every_invariant(seed: int) -> None:
    """A random game keeps its cards, hides what is hidden, survives JSON and ends."""
    rng = random.Random(seed)
    deck = "modern" if seed % 2 else "bsd"
    preset = PRESETS[seed % 3]
    s = G.new_game(["Ann"], seed=seed, options={"deck": deck, "preset": preset})
    expected = deck_counts(deck)
    cleared = s.cleared
    steps = swapped = 0
    while G.outcome(s) is None:
        assert s.all_cards() == expected
        assert G.to_dict(G.from_dict(json.loads(json.dumps(G.to_dict(s))))) == G.to_dict(s)
        assert len(s.hand) <= HAND_SIZE and s.refuels_used <= s.refuel_limit
        assert G.to_act(s) == frozenset({0})
        if steps % 4 == 0:
            twin = _swap_hidden(s, rng)
            swapped += G.to_dict(twin) != G.to_dict(s)
            assert G.public_view(twin) == G.public_view(s)
            assert G.private_view(twin, 0) == G.private_view(s, 0)
        legal = G.legal_actions(s, 0)
        assert legal, "a running game always offers a move"
        assert [G.format_action(a) for a in legal] == list(G.public_view(s).legal)
        s = G.apply(s, 0, rng.choice(legal))
        assert s.cleared == cleared + 1
        cleared = s.cleared
        steps += 1
        assert steps <= HIGHWAY_CARDS
    assert s.all_cards() == expected
    assert swapped, "the hidden-card swap must actually move cards"
    outcome = G.outcome(s)
    assert outcome is not None and outcome.scores == (s.mileage,)
    assert outcome.winners == ((0,) if s.result == "won" else ())
    assert (s.result == "won") == (s.cleared == HIGHWAY_CARDS)
    assert f"{s.cleared}/{HIGHWAY_CARDS}" in outcome.reason
    assert G.to_act(s) == frozenset() and G.legal_actions(s, 0) == []


@pytest.mark.parametrize("seed", range(5))
def test_a_game_replays_exactly_from_its_seed_and_moves(seed: int) -> None:
    """Replaying the same seed and move list (refuels included) gives the same game."""
    rng = random.Random(seed)
    options = {"preset": "refuel"}
    s = G.new_game(["Ann"], seed=seed, options=options)
    moves: list[str] = []
    while G.outcome(s) is None:
        move = G.format_action(rng.choice(G.legal_actions(s, 0)))
        moves.append(move)
        s = G.apply(s, 0, G.parse_action(move))
    replay = G.new_game(["Ann"], seed=seed, options=options)
    for move in moves:
        replay = G.apply(replay, 0, G.parse_action(move))
    assert G.to_dict(replay) == G.to_dict(s)


def test_public_view_shows_only_tops_and_counts() -> None:
    """A highway shows its face-up top and a depth; the tank only a count (and, after a
    refuel, its contents in card order, never its order)."""
    s = G.new_game(["Ann"], seed=8, options={"preset": "refuel"})
    view = G.public_view(s)
    for highway, pile in zip(view.highways, s.highways, strict=True):
        assert highway.top is pile[-1] and highway.depth == len(pile)
        assert set(vars(highway)) == {"number", "depth", "top"}
    assert view.tank_count == len(s.tank) and view.tank_known is None

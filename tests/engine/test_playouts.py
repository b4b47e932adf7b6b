"""Random full-game playouts over many seeds, asserting the invariants of every game.

Invariants: no card is created or lost, views never depend on another seat's hidden cards,
the state survives a JSON round trip at every step, and scores add up.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bot.engine.mille.cards import Card, full_deck
from bot.engine.mille.state import MilleState
from tests.engine.mille_helpers import G

SEEDS = range(200)


def _all_cards(s: MilleState) -> Counter[Card]:
    cards: Counter[Card] = Counter(s.draw_pile) + Counter(s.discard)
    for t in s.tableaus:
        for pile in (t.hand, t.battle, t.speed, t.safeties, t.miles):
            cards.update(pile)
    return cards


def _swap_hidden(s: MilleState, hidden_seat: int, rng: random.Random) -> MilleState:
    """The same public position with ``hidden_seat``'s hand exchanged with deck cards."""
    other = s.clone()
    hand, pile = other.tableaus[hidden_seat].hand, other.draw_pile
    for i in range(min(len(hand), len(pile))):
        j = rng.randrange(len(pile))
        hand[i], pile[j] = pile[j], hand[i]
    rng.shuffle(pile)
    return other


@pytest.mark.parametrize("seed", SEEDS)
def test_random_hand_keeps_every_invariant(seed: int) -> None:
    """A random single hand keeps cards, hides hands, survives JSON and adds up its score."""
    rng = random.Random(seed)
    deck = "modern" if seed % 2 else "bsd"
    s = G.new_game(["Ann", "Bob"], seed=seed, options={"deck": deck, "length": "hand"})
    expected = Counter(full_deck(deck))
    steps = 0
    while G.outcome(s) is None:
        assert _all_cards(s) == expected
        assert G.to_dict(G.from_dict(json.loads(json.dumps(G.to_dict(s))))) == G.to_dict(s)
        (seat,) = G.to_act(s)
        if steps % 7 == 0:
            hidden = 1 - seat
            twin = _swap_hidden(s, hidden, rng)
            assert G.private_view(twin, seat) == G.private_view(s, seat)
            assert G.public_view(_swap_hidden(s, seat, rng)) == G.public_view(s)
        legal = G.legal_actions(s, seat)
        assert legal, "the seat to act always has a legal action"
        s = G.apply(s, seat, rng.choice(legal))
        steps += 1
    outcome = G.outcome(s)
    assert outcome is not None and len(s.results) == 1
    assert outcome.scores == s.results[0].totals
    assert all(t.mileage <= 1000 and t.two_hundreds <= 2 for t in s.tableaus)


@pytest.mark.parametrize("seed", range(10))
def test_random_match_scores_add_up(seed: int) -> None:
    """In a random full match, totals are the sums of the hand breakdowns and reach 5000."""
    rng = random.Random(seed)
    s = G.new_game(["Ann", "Bob"], seed=seed)
    while G.outcome(s) is None:
        (seat,) = G.to_act(s)
        s = G.apply(s, seat, rng.choice(G.legal_actions(s, seat)))
    outcome = G.outcome(s)
    assert outcome is not None
    sums = [sum(r.totals[seat] for r in s.results) for seat in (0, 1)]
    assert list(outcome.scores) == sums and max(sums) >= 5000
    best = max(sums)
    assert outcome.winners == tuple(i for i in (0, 1) if sums[i] == best and sums.count(best) == 1)

"""The cards on a Ticket to Ride table: the seeded shuffles, the train deck, the draw area
(refills and the three-Locomotive reset), and a Railyard set going to the discards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine.ttr.cards import KINDS, LOCO
from bot.engine.ttr.state import (
    TtrState,
)


def shuffled(state: TtrState, items: list[int]) -> list[int]:
    """``items`` shuffled by the state's next seeded shuffle (the state counts its shuffles)."""
    rng = random.Random(f"ttr:{state.seed}:{state.shuffles}")
    state.shuffles += 1
    out = list(items)
    rng.shuffle(out)
    return out


def draw_card(state: TtrState) -> int:
    """The top train card (the deck must not be empty); marks the deck run out when it is."""
    card = state.deck.pop()
    if not state.deck:
        state.exhausted = True
    return card


def slot_count(state: TtrState, card: int) -> int:
    """Face-up cards of ``card`` in the draw area, the Station Clock card included."""
    return sum(1 for s in state.slots if s == card) + (1 if state.clock_card == card else 0)


def refill(state: TtrState, slots: Sequence[int] | None = None) -> None:
    """Fill empty face-up slots (all of them, or just ``slots``) from the deck, in order."""
    for i in range(len(state.slots)) if slots is None else slots:
        if state.slots[i] < 0 and state.deck:
            state.slots[i] = draw_card(state)


def locomotive_reset(state: TtrState) -> bool:
    """Three face-up Locomotives: discard the face-up train cards and deal new ones, until fewer
    than three show or the deck is out (docs/rules/ttr.md, Rulings). The Station Clock card
    stays."""
    reset = False
    while slot_count(state, LOCO) >= 3 and state.deck:
        reset = True
        for i, card in enumerate(state.slots):
            if card >= 0:
                state.discard[card] += 1
                state.slots[i] = -1
        refill(state)
    return reset


def face_up_counts(state: TtrState) -> list[int]:
    counts = [0] * KINDS
    for card in state.slots:
        if card >= 0:
            counts[card] += 1
    if state.clock_card >= 0:
        counts[state.clock_card] += 1
    return counts


def discard_set(state: TtrState, seat: int, c: int) -> None:
    state.discard[c] += state.yard_nat[seat][c]
    state.discard[LOCO] += state.yard_loco[seat][c]
    state.yard_nat[seat][c] = 0
    state.yard_loco[seat][c] = 0

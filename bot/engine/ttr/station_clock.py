"""Solo: the Station Clock turning up a card each turn, and robbing between your Railyard
and the draw area (docs/rules/ttr.md, Solo), with the sentences that tell it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.ttr.cards import CARD_NAMES, LOCO, NCOL
from bot.engine.ttr.state import (
    TtrState,
)
from bot.engine.ttr.table import discard_set, face_up_counts, refill
from bot.engine.words import names, plural


def clock_step(state: TtrState) -> list[str]:
    """Turn over the next Station Clock card and apply its colour match or Locomotive sweep."""
    notes: list[str] = []
    if state.clock_card >= 0:
        state.discard[state.clock_card] += 1
    card = state.clock_deck.pop()
    state.clock_card = card
    emptied: list[int] = []
    if card == LOCO:
        emptied = [i for i, s in enumerate(state.slots) if s == LOCO]
        if emptied:
            notes.append(
                f"The Station Clock turns up a Locomotive and sweeps away "
                f"{plural(len(emptied), 'face-up Locomotive')}."
            )
        else:
            notes.append("The Station Clock turns up a Locomotive.")
    else:
        emptied = [i for i, s in enumerate(state.slots) if s == card]
        name = CARD_NAMES[card]
        if emptied:
            # "matching 1 face-up Red: it is discarded" ("they are" of a single card read wrong).
            gone = "they are" if len(emptied) > 1 else "it is"
            notes.append(
                f"The Station Clock turns up {name}, matching {len(emptied)} face-up {name}: "
                f"{gone} discarded."
            )
        else:
            notes.append(f"The Station Clock turns up {name}.")
    for i in emptied:
        state.discard[state.slots[i]] += 1
        state.slots[i] = -1
    refill(state, emptied)
    notes.extend(settle(state))
    return notes


def settle(state: TtrState) -> list[str]:
    """Solo robbing until stable: in each colour both in the Railyard and face up, the larger
    side robs the smaller (ties never rob); colours are checked in order, again after each
    robbery. Robbed face-up cards are replaced from the deck at once."""
    notes: list[str] = []
    # The draw area's cards your sets rob, told in one sentence where the first is, as the
    # draw area robbing you is: colour -> [your set's size, face-up cards robbed first, more
    # robbed as it was refilled]. A dict keeps the order they were robbed in.
    won: dict[int, list[int]] = {}
    won_at = 0
    # Your sets the draw area robs, told in one sentence where the first is (two sentences
    # of the same shape read as a repeated line): (face-up count, colour name, set size).
    lost: list[tuple[int, str, int]] = []
    lost_at = 0
    nat, loco = state.yard_nat[0], state.yard_loco[0]
    while True:
        up = face_up_counts(state)
        for c in range(NCOL):
            mine = nat[c] + loco[c]
            if mine and up[c] and mine != up[c]:
                name = CARD_NAMES[c]
                if up[c] > mine:
                    discard_set(state, 0, c)
                    if not lost:
                        lost_at = len(notes)
                        notes.append("")
                    lost.append((up[c], name, mine))
                    notes[lost_at] = _robbed_sentence(lost)
                else:
                    emptied = [i for i, s in enumerate(state.slots) if s == c]
                    for i in emptied:
                        state.slots[i] = -1
                    state.discard[c] += up[c]
                    if state.clock_card == c:
                        state.clock_card = -1
                    refill(state, emptied)
                    if not won:
                        won_at = len(notes)
                        notes.append("")
                    if c in won:
                        # The cards dealt in their place showed the colour again: one sentence
                        # (twice the same one read as a repeated line).
                        won[c][2] += up[c]
                    else:
                        won[c] = [mine, up[c], 0]
                    notes[won_at] = _robbing_sentence(won)
                break
        else:
            return notes


def _robbing_sentence(won: dict[int, list[int]]) -> str:
    """One sentence for every set of yours that robbed the draw area: "Your 3 Red rob the draw
    area's 2 Red", then "and your 2 Blue its 1 Blue" for more; cards robbed again as the draw
    area was refilled are told after their colour's first robbery."""
    several = len(won) > 1
    parts: list[str] = []
    for c, (mine, first, more) in won.items():
        name = CARD_NAMES[c]
        robbed = f"{first} {name}"
        if more:
            # Inside a list of robberies a comma would blur where one ends: brackets there.
            then = f"then {more} more as it was refilled"
            robbed += f" ({then})" if several else f", {then}"
        if parts:
            parts.append(f"your {mine} {name} its {robbed}")
        else:
            parts.append(f"{mine} {name} rob the draw area's {robbed}")
    return f"Your {names(parts)}."


def _robbed_sentence(lost: Sequence[tuple[int, str, int]]) -> str:
    """One sentence for every set of yours the draw area robbed: "The draw area's 3 Red rob
    your Red set (2 cards discarded)", then "and its 2 Blue your Blue set (…)" for more."""

    def part(up: int, name: str, mine: int, verb: str) -> str:
        return f"{up} {name}{verb} your {name} set ({plural(mine, 'card')} discarded)"

    (up, name, mine), *rest = lost
    parts = [part(up, name, mine, " rob"), *(f"its {part(*more, '')}" for more in rest)]
    return f"The draw area's {names(parts)}."

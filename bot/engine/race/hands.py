"""Cards into and out of a hand: the draw (the junkyard reshuffled into the library once),
the words that tell it, and a named card taken from the hand.
"""

from __future__ import annotations

import random
from bisect import insort

from bot.engine.core import IllegalMove
from bot.engine.race.cards import (
    NAME,
    ORDER,
)
from bot.engine.race.state import RaceState, Side
from bot.engine.words import plural

_ORDER_KEY = ORDER.__getitem__


def draw(state: RaceState, seat: int, count: int) -> tuple[int, int | None]:
    """Draw ``count`` cards for ``seat``; returns (cards drawn, the junkyard's cards shuffled
    into the library just now, or None when no reshuffle came with this draw).

    An empty library is refilled once from the junkyard (shuffled); that reshuffle is used up
    even when the junkyard is empty. After it, draws are skipped.
    """
    side = state.sides[seat]
    drawn = 0
    reshuffled: int | None = None
    for _ in range(count):
        if not side.library:
            if side.reshuffled:
                break
            side.reshuffled = True
            reshuffled = len(side.junkyard)
            side.library = side.junkyard
            side.junkyard = []
            random.Random(f"race:{state.seed}:junkyard:{seat}").shuffle(side.library)
            if not side.library:
                break
        insort(side.hand, side.library.pop(), key=_ORDER_KEY)
        drawn += 1
    return drawn, reshuffled


def drawable(library: int, junkyard: int, reshuffled: bool, junked: int) -> int:
    """How many cards a draw can still give after ``junked`` cards go to the junkyard (a
    cycle's, or the Pit Crew itself): the library, and while the one reshuffle is unspent the
    junkyard with those cards too. Buttons and hints promise only these."""
    return library + (0 if reshuffled else junkyard + junked)


def draws(drawn: int) -> str:
    """The verb and what it took: "draws 2 cards", "draws nothing" (an empty library)."""
    return f"draws {plural(drawn, 'card')}" if drawn else "draws nothing"


def draw_note(state: RaceState, seat: int, drawn: int, reshuffled: int | None, wanted: int) -> str:
    """What a draw's caption adds: the one reshuffle (or that it found an empty junkyard) and
    the cards an empty library did not give."""
    name = state.players[seat]
    parts = []
    if reshuffled:
        parts.append(f"{name} shuffles the junkyard into the library.")
    if drawn < wanted:
        missed = wanted - drawn
        verb = "is" if missed == 1 else "are"
        parts.append(f"{name} has an empty library: {plural(missed, 'card')} {verb} not drawn.")
    if reshuffled == 0:
        # The reshuffle is spent all the same: say so, or a later full junkyard looks usable.
        parts.append("The junkyard was empty too: the one reshuffle is spent.")
    return " ".join(parts)


def take(side: Side, card: str) -> None:
    if card not in side.hand:
        raise IllegalMove(f"You do not hold {NAME.get(card, 'that card')}.")
    side.hand.remove(card)

"""What the table learns of a car's Car Wars hand from what happens in the open.

A shot whose victim gets no window shows that the victim holds none of the cards that would
have answered it; a window its player lets pass shows they hold one of them; a turn with no Car
Wars play shows which playable cards the player passed up. These are public
facts (every player at a real table sees them), kept on the car as :class:`HandFact` values and
shown in the public view. The rules never read them; computer players may, as a player who
remembers would. Each fact is about the cards held when it was learnt: cards drawn since are
not covered, and as cards leave the hand (which ones is not public) a fact covers fewer.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.dragon.state import MAX_FACTS, Car, HandFact, new_fact


def learn(car: Car, kind: str, codes: Sequence[str]) -> None:
    """Note on ``car`` (a copy the caller may change) a fact of ``kind`` about ``codes`` and
    every card it holds now (see :class:`HandFact`)."""
    if not codes or not car.cw_hand:
        return
    fact = new_fact(kind, tuple(codes), len(car.cw_hand))
    if not car.facts:
        car.facts = [fact]
        return
    said = set(fact.codes)
    kept = [
        old
        for old in car.facts
        # Facts the new one makes idle: an older one of the same kind about fewer codes (the
        # new one covers every card held now), or, for "one of", about more codes.
        if old.kind != kind
        or (fact.excludes and not said.issuperset(old.codes))
        or (not fact.excludes and not said.issubset(old.codes))
    ]
    kept.append(fact)
    car.facts = kept[-MAX_FACTS:]


def shed(car: Car, codes: Sequence[str]) -> None:
    """``codes`` just left ``car``'s Car Wars hand (a copy the caller may change): each fact
    covers as many fewer cards (the cards may have been covered ones), and a "one of" whose
    card may have been among them is forgotten."""
    if not car.facts:
        return
    gone = len(codes)
    held = len(car.cw_hand)
    kept: list[HandFact] = []
    for fact in car.facts:
        if fact.excludes:
            cards = min(fact.cards - gone, held)
        elif any(code in fact.codes for code in codes):
            continue
        else:
            cards = min(fact.cards, held)
        if cards == fact.cards:
            kept.append(fact)
        elif cards > 0:
            kept.append(new_fact(fact.kind, fact.codes, cards))
    car.facts = kept

"""What the table learns of a car's Car Wars hand from what happens in the open.

A shot whose victim gets no window shows that the victim holds none of the cards that would
have answered it; a window its player lets pass shows they hold one of them. These are public
facts (every player at a real table sees them), kept on the car as :class:`HandFact` values and
shown in the public view. The rules never read them; computer players may, as a player who
remembers would. Each fact is about the cards held when it was learnt: cards drawn since are
not covered, and as cards leave the hand (which ones is not public) a fact covers fewer.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.dragon.state import MAX_FACTS, Car, HandFact


def learn(car: Car, none_of: bool, codes: Sequence[str]) -> None:
    """Note on ``car`` (a copy the caller may change) that its hand holds none of ``codes``
    (``none_of``) or at least one of them."""
    if not codes or not car.cw_hand:
        return
    fact = HandFact(none_of, tuple(codes), len(car.cw_hand))
    said = set(fact.codes)
    kept = [
        old
        for old in car.facts
        # Facts the new one makes idle: an older "none of" of fewer codes (the new one covers
        # every card held now), an older "one of" of more codes.
        if old.none_of != none_of
        or (none_of and not set(old.codes) <= said)
        or (not none_of and not said <= set(old.codes))
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
        if fact.none_of:
            cards = min(fact.cards - gone, held)
        elif any(code in fact.codes for code in codes):
            continue
        else:
            cards = min(fact.cards, held)
        if cards > 0:
            kept.append(HandFact(fact.none_of, fact.codes, cards))
    car.facts = kept

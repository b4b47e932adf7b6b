"""A yardstick for ``normal``: the BSD ``mille`` computer's move rules, re-expressed over views.

The BSD program values every card in its hand with a small table of hand-tuned numbers
(``calcmove`` in ``comp.c``), plays the most valuable playable card, or discards the least
valuable one, and plays a safety early by a dice roll as the deck runs low. This is that
procedure written against a seat's private view. Two pieces of BSD bookkeeping are not in a
view and are approximated: ``Numneed`` (how often the computer needed a remedy) counts the
hazards on its own battle pile, and ``Numgos`` the Go cards on it. It is not registered with
the policy registry: measurements register it under ``bsd-style`` themselves.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bot.ai.base import Policy
from bot.engine.mille.cards import (
    BATTLE_HAZARDS,
    HAZARD_FOR,
    HAZARDS_STOPPED_BY,
    REMEDY_FOR,
    SAFETY_FOR,
    Card,
    deck_counts,
)
from bot.engine.mille.views import MilleSeatView

VALUABLE = 40  # the BSD value of the card that completes the trip
_ORDER = {card: index for index, card in enumerate(Card)}  # BSD compares card numbers


class BsdStylePolicy(Policy):
    """The BSD computer's card values and safety rules, for measuring ``normal`` against."""

    name = "bsd-style"

    def choose(self, view: Any, rng: random.Random) -> str:
        assert isinstance(view, MilleSeatView)
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase == "extension":
            return "extend no"
        if view.phase == "draw":
            return next((text for text in legal if text.startswith("play ")), legal[0])
        return _calcmove(view, rng)


def _calcmove(view: MilleSeatView, rng: random.Random) -> str:
    public = view.public
    me = public.tableaus[view.seat]
    op = public.tableaus[1 - view.seat]
    total = deck_counts(public.deck_name)
    unseen = Counter(total)
    unseen.subtract(view.hand)
    unseen.subtract(public.discard)
    for side in public.tableaus:
        for pile in (side.battle_pile, side.speed_pile, side.safeties, side.miles):
            unseen.subtract(pile)
    seen = {card: total[card] - max(unseen[card], 0) for card in Card}
    end = public.target
    hand = list(view.hand)
    count = Counter(hand)
    legal = set(view.legal)

    def playable(card: Card) -> bool:
        if card is Card.SPEED_LIMIT and op.mileage + 50 >= end:
            return False  # BSD never limits a player who can finish with 25s and 50s
        return f"play {card.value}" in legal

    def onecard(side: Any) -> bool:
        """Could this player conceivably win with their next card?"""
        left = end - side.mileage
        if left not in (25, 50, 75, 100, 200) or not (side.can_go or side.battle_top):
            return False
        if left == 200 and side.two_hundreds == 2:
            return False
        if left > 50 and side.limited:
            return seen[Card.RIGHT_OF_WAY] == 0
        card = {25: Card.D25, 50: Card.D50, 75: Card.D75, 100: Card.D100, 200: Card.D200}[left]
        return seen[card] != total[card]

    for card in hand:
        if card.is_safety and (
            any(SAFETY_FOR[h] is card for h in (me.battle_top, me.speed_top) if h and h.is_hazard)
        ):
            return f"play {card.value}"
    plays = [c for c in hand if not c.is_safety and playable(c)]
    cango = len(plays)
    canstop = any(c in BATTLE_HAZARDS for c in plays) or (
        Card.SPEED_LIMIT in plays and seen[Card.D25] == total[Card.D25]
    )
    foundend = any(c.is_distance and me.mileage + c.miles == end for c in plays)
    for card in hand:
        if not card.is_safety:
            continue
        if onecard(op) or (foundend and cango and not canstop):
            return f"play {card.value}"
        hazards = HAZARDS_STOPPED_BY[card]
        if all(seen[h] == total[h] for h in hazards):
            return f"play {card.value}"
        if not cango and (op.can_go or not me.can_go or public.deck_count == 0):
            roll = public.deck_count - rng.randint(1, 10)
            if (me.mileage == 0) != (op.mileage == 0):
                roll -= 7
            if roll < 101 // 4:
                return f"play {card.value}"

    my_safeties = set(me.safeties) | {c for c in hand if c.is_safety}
    need_go = 1 + sum(1 for c in me.battle_pile if c.is_hazard)
    gos = sum(1 for c in me.battle_pile if c is Card.GO)
    badcount = 0
    count200 = me.two_hundreds
    foundend_seen = False
    values: list[tuple[float, Card]] = []
    for card in hand:
        if card.is_safety:
            value: float = 0 if cango else 101
        elif cango and not playable(card):
            value = 0
        elif card.is_distance:
            value = card.miles >> 3
            if card is Card.D200:
                count200 += 1
                if count200 > 2:
                    value = 0
            value += -1 if me.limited == (card.miles > 50) else 1
            diff = end - me.mileage
            if (
                card.miles <= 50
                and public.deck_count > 0
                and cango
                and diff <= 100
                and diff // card.miles > count[card]
                and (card is Card.D25 or diff % 50 == 0)
                and not (card is Card.D50 and diff - 50 == 25 and count[Card.D25] > 0)
            ):
                value = 0  # avoid getting too close without the cards to finish
            if me.mileage + card.miles > end:
                value = _ORDER[card] if end == 700 else 0
            elif me.mileage + card.miles == end:
                value = _ORDER[card] if foundend_seen else VALUABLE
                foundend_seen = True
        elif card is Card.GO:
            if Card.RIGHT_OF_WAY in my_safeties:
                value = -1 if Card.RIGHT_OF_WAY in me.safeties else 2
            else:
                value = (need_go * 3 + seen[Card.GO] - gos) / (count[card] ** 2)
        elif card.is_remedy:
            hazard = HAZARD_FOR[card]
            safety = SAFETY_FOR[hazard]
            if safety in my_safeties:
                value = -1 if safety in me.safeties else 1
            elif card is Card.END_OF_LIMIT and me.limited and end - me.mileage <= 50:
                value = 1
            elif (
                me.battle_top is not hazard
                and not (card is Card.END_OF_LIMIT and me.limited)
                and (seen[hazard] == total[hazard] or seen[hazard] + count[card] > total[hazard])
            ):
                value = 0
            else:
                value = total[hazard] * 6 + seen[card] - seen[hazard]
                if not cango:
                    value /= count[card] ** 2
        elif card is Card.SPEED_LIMIT:
            if op.mileage + 50 >= end:
                value = 1 if end == 700 and not cango else 0
            elif canstop or (cango and not op.can_go):
                value = 1
            elif Card.RIGHT_OF_WAY in op.safeties:
                value = -1
            else:
                value = (2 if Card.RIGHT_OF_WAY in my_safeties else 3) * (
                    seen[Card.END_OF_LIMIT] + 2
                )
        else:  # a battle hazard
            safety = SAFETY_FOR[card]
            if safety in op.safeties:
                value = -1
            else:
                remedy = REMEDY_FOR[card]
                base = 3 if safety in my_safeties else 4
                if card is Card.STOP:
                    value = base * (total[Card.STOP] + seen[Card.GO])
                else:
                    value = base * (seen[remedy] + 2)
                if me.mileage == 0 or foundend or onecard(op):
                    value += 5
                if op.mileage == 0:
                    value += 5
                if op.limited:
                    value -= 3
                if cango and safety in my_safeties:
                    value += 3
                if not cango:
                    badcount += 1
                    value /= badcount
        values.append((value, card))
    if cango:
        best = max((v, -i) for i, (v, c) in enumerate(values) if c in plays)
        return f"play {values[-best[1]][1].value}"
    worst = min((v, i) for i, (v, c) in enumerate(values))
    card = values[worst[1]][1]
    if card.is_safety:
        return f"play {card.value}"  # never discard a safety
    return f"discard {card.value}"

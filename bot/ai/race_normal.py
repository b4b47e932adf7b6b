"""``normal``: the 1000 Mile Race computer player.

It decides from its seat's private view alone: its hand, both playing fields, both junkyards,
library and hand sizes, the cards waiting for an answer. What it does, in order:

- Answers: Coup Fourré on any hazard it cannot clear for free with a trump in hand; Roadblock
  only on big miles (100 or 200) or on a card that would finish the opponent's race or bring it
  close; Jammer when the stakes are high (a trump or removal clearing its hazards, a Coup Fourré
  or Roadblock against its own big play, or the opponent close to the finish).
- Its own turn: finish on exactly 1000 when a card does it; play a trump that clears hazards on
  it; clear a hazard that stops it; Pit Crew while the hand is small; the best miles card (the
  biggest that keeps an exact finish in reach); a hazard on the opponent, the one they are least
  able to clear. When it cannot drive and cannot clear what stops it, it cycles its weakest card
  of each type instead (more types, more draws). Answer cards and Pit Crew are never cycled.
- Hand limit: discards the weakest card.

Each decision is a few dozen dictionary look-ups: well under a millisecond. It reads its view
through the small protocols below (what it needs of a seat's view), so that the expert's
rollouts can hand it the live table instead of building a frozen view every move.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol

from bot.ai.base import Policy
from bot.engine.race.cards import (
    ANSWERS,
    CHEAT,
    COUP_FOURRE,
    HAZARD,
    JAMMER,
    MAX_200S,
    MILES,
    MILES_OF,
    PIT_CREW,
    REMOVAL,
    ROADBLOCK,
    SLOW_MILES,
    SPEED_TRAP,
    STOPPING_HAZARDS,
    TARGET,
    TOW_TRUCK,
    TRUMP,
    TYPE_OF,
    deck_counts,
    sort_cards,
)
from bot.engine.race.views import RaceSeatView

CHEAT_WORTH = {COUP_FOURRE: 80.0, ROADBLOCK: 70.0, JAMMER: 75.0, PIT_CREW: 60.0}
HAZARD_WORTH = 28.0
SPARE_REMOVAL = 18.0  # a removal with nothing to remove yet
NEEDED_REMOVAL = 65.0  # a removal for a hazard on us now
SPARE_TRUMP = 24.0
NEEDED_TRUMP = 70.0
DEAD = 0.0
CYCLE_BELOW = 24.0  # cards worth less than this are cycled when stuck
PIT_CREW_HAND = 8  # Pit Crew is played while the hand holds at most this many cards
BIG_MILES = 100
CLOSE = 250  # "close to the finish": this many miles or fewer to go
_COUNTS = deck_counts()
# Per hazard: the removals and trumps that answer it, with their copies in a deck.
_ANSWERED_BY = {
    hazard: [
        (card, copies)
        for card, copies in _COUNTS.items()
        if TYPE_OF[card] in (REMOVAL, TRUMP) and hazard in ANSWERS[card]
    ]
    for hazard, kind in TYPE_OF.items()
    if kind == HAZARD
}


class SideLike(Protocol):
    """What the player reads of one side of the table (``SideView`` has it all)."""

    @property
    def total(self) -> int: ...
    @property
    def two_hundreds(self) -> int: ...
    @property
    def hazards(self) -> Sequence[str]: ...
    @property
    def trumps(self) -> Sequence[str]: ...
    @property
    def junkyard(self) -> Sequence[str]: ...


class StackLike(Protocol):
    """A card waiting for an answer, as the player reads it."""

    @property
    def card(self) -> str: ...


class PublicLike(Protocol):
    """What the player reads of the public table (``RacePublicView`` has it all)."""

    @property
    def sides(self) -> Sequence[SideLike]: ...
    @property
    def stack(self) -> Sequence[StackLike]: ...
    @property
    def answer(self) -> str | None: ...


class SeatLike(Protocol):
    """What the player reads of its seat's view (``RaceSeatView`` has it all)."""

    @property
    def public(self) -> PublicLike: ...
    @property
    def seat(self) -> int: ...
    @property
    def hand(self) -> Sequence[str]: ...
    @property
    def phase(self) -> str: ...
    @property
    def legal(self) -> Sequence[str]: ...


class NormalRacePolicy(Policy):
    """A careful racer that keeps its answers for the moments that matter."""

    name = "normal"

    def choose(self, view: Any, rng: random.Random) -> str:
        assert isinstance(view, RaceSeatView)
        legal = view.legal
        if not legal:
            raise ValueError("The race computer was asked to act with no legal action.")
        if len(legal) == 1:
            return legal[0]
        return self.decide(view, any(text.startswith("cycle") for text in legal))

    def decide(self, view: SeatLike, can_cycle: bool) -> str:
        """``choose`` for a view whose ``legal`` may leave the cycles out (a search's playouts
        skip listing every subset of the hand): ``can_cycle`` says whether cycling is allowed.
        Given the full view, the same move as ``choose``."""
        legal = view.legal
        if len(legal) == 1 and not can_cycle:
            return legal[0]
        if view.phase == "react":
            return _react(view)
        if view.phase == "discard":
            return f"discard {_weakest(view, list(view.hand))}"
        return _turn(view, can_cycle)


# --- reading the view --------------------------------------------------------------------


def _me(view: SeatLike) -> SideLike:
    return view.public.sides[view.seat]


def _them(view: SeatLike) -> SideLike:
    return view.public.sides[1 - view.seat]


def _stopped(side: SideLike) -> bool:
    return any(h in STOPPING_HAZARDS for h in side.hazards)


def _to_go(side: SideLike) -> int:
    return TARGET - side.total


def _worth(view: SeatLike, card: str) -> float:
    """What keeping ``card`` is worth now (cycles and discards throw the least worth away)."""
    me = _me(view)
    kind = TYPE_OF[card]
    if kind == MILES:
        miles = MILES_OF[card]
        if miles > _to_go(me) or (card == "200" and me.two_hundreds >= MAX_200S):
            return DEAD
        if _to_go(me) <= 200:
            return 40.0  # every small card may be the finishing one
        return 10.0 + miles / 10.0
    if kind == HAZARD:
        return HAZARD_WORTH
    if kind == REMOVAL:
        if any(h in ANSWERS[card] for h in me.hazards):
            return NEEDED_REMOVAL
        return SPARE_REMOVAL + (12.0 if card == TOW_TRUCK else 0.0)
    if kind == TRUMP:
        if any(h in ANSWERS[card] for h in me.hazards):
            return NEEDED_TRUMP
        return SPARE_TRUMP
    return CHEAT_WORTH.get(card, 50.0)


def _weakest(view: SeatLike, cards: list[str]) -> str:
    return min(cards, key=lambda c: (_worth(view, c), -MILES_OF[c]))


# --- answers -----------------------------------------------------------------------------


def _react(view: SeatLike) -> str:
    pub = view.public
    answer = pub.answer
    if answer is None or f"react {answer}" not in view.legal or not pub.stack:
        return "pass"
    top = pub.stack[-1]
    card = top.card
    me, them = _me(view), _them(view)
    if answer == COUP_FOURRE:
        free_fix = any(TYPE_OF[c] == TRUMP and card in ANSWERS[c] for c in view.hand)
        return "pass" if free_fix else f"react {answer}"
    if answer == ROADBLOCK:
        miles = MILES_OF[card]
        after = them.total + miles
        if miles >= BIG_MILES or after == TARGET or TARGET - after <= 100:
            return f"react {answer}"
        return "pass"
    # Jammer: how much is at stake?
    stakes = _jam_stakes(view, pub, me, them)
    threshold = 50.0 if _to_go(them) <= CLOSE else 90.0
    return f"react {answer}" if stakes >= threshold else "pass"


def _jam_stakes(view: SeatLike, pub: PublicLike, me: SideLike, them: SideLike) -> float:
    """What the opponent's card on top of the stack would cost us if it went through."""
    top = pub.stack[-1]
    card = top.card
    kind = TYPE_OF[card]
    if kind == TRUMP:
        cleared = sum(1 for h in them.hazards if h in ANSWERS[card])
        return 100.0 * cleared
    if kind == REMOVAL:
        return 100.0
    if card == PIT_CREW:
        return 20.0
    # A cheat answering one of our cards: the stakes are our card's.
    below = pub.stack[-2] if len(pub.stack) >= 2 else None
    if below is None:
        return 0.0
    mine = below.card
    if card == ROADBLOCK:
        miles = MILES_OF[mine]
        return 200.0 if me.total + miles == TARGET else float(miles)
    if card == COUP_FOURRE:
        return 100.0
    # Their Jammer on our answer: our answer's stakes, judged again.
    if mine in (ROADBLOCK, COUP_FOURRE):
        return 150.0
    return 100.0


# --- our own turn ------------------------------------------------------------------------


def _turn(view: SeatLike, can_cycle: bool) -> str:
    legal = set(view.legal)
    me, them = _me(view), _them(view)
    hand = list(view.hand)
    to_go = _to_go(me)

    # 1. Finish the race.
    finish = f"play {to_go}" if to_go in (25, 50, 75, 100, 200) else ""
    if finish in legal:
        return finish
    # 2. Free trumps that clear hazards on us.
    for card in hand:
        clears = TYPE_OF[card] == TRUMP and any(h in ANSWERS[card] for h in me.hazards)
        if clears and f"play {card}" in legal:
            return f"play {card}"
    # 3. Clear what stops us (or a Speed Trap holding back big miles).
    removal = _best_removal(view, legal)
    if removal:
        return removal
    # 4. Pit Crew while the hand is small.
    if "play pit-crew" in legal and len(hand) <= PIT_CREW_HAND:
        return "play pit-crew"
    # 5. Drive.
    miles = _best_miles(view, legal)
    if miles:
        return miles
    stuck = _stopped(me) or not any(TYPE_OF[c] == MILES and _worth(view, c) > DEAD for c in hand)
    # 6. Stuck with nothing to clear it: cycle for better cards (before any hazard, which
    # would rule the cycle out), unless the opponent is close and a hazard could stop them.
    hazard = _hazard(view, legal)
    if can_cycle and stuck and not (_to_go(them) <= CLOSE and hazard):
        cycle = _cycle(view)
        if cycle:
            return cycle
    # 7. Slow the opponent down.
    return hazard or "end"


def _best_removal(view: SeatLike, legal: set[str]) -> str:
    me = _me(view)
    hazards = list(me.hazards)
    if not hazards:
        return ""
    held_trumps = {c for c in view.hand if TYPE_OF[c] == TRUMP}
    big_waiting = any(
        TYPE_OF[c] == MILES and c not in SLOW_MILES and MILES_OF[c] <= _to_go(me) for c in view.hand
    )

    def worth_clearing(hazard: str) -> bool:
        if any(hazard in ANSWERS[t] for t in held_trumps):
            return False  # the trump does it for free
        if hazard == SPEED_TRAP:
            return big_waiting or not _stopped(me)
        return True

    # A dedicated removal first; the Tow Truck for what nothing else in hand clears.
    for hazard in sort_cards([h for h in hazards if h in STOPPING_HAZARDS] + [SPEED_TRAP]):
        if hazard not in hazards or not worth_clearing(hazard):
            continue
        for card in view.hand:
            fits = TYPE_OF[card] == REMOVAL and card != TOW_TRUCK and ANSWERS[card] == (hazard,)
            if fits and f"play {card}" in legal:
                return f"play {card}"
    for hazard in sort_cards(hazards):
        text = f"play {TOW_TRUCK} on {hazard}"
        if text in legal and worth_clearing(hazard):
            fixable = any(
                TYPE_OF[c] == REMOVAL and c != TOW_TRUCK and hazard in ANSWERS[c] for c in view.hand
            )
            if not fixable:
                return text
    return ""


def _best_miles(view: SeatLike, legal: set[str]) -> str:
    me = _me(view)
    to_go = _to_go(me)
    playable = [c for c in set(view.hand) if TYPE_OF[c] == MILES and f"play {c}" in legal]
    if not playable:
        return ""
    hand = view.hand

    def score(card: str) -> float:
        miles = MILES_OF[card]
        left = to_go - miles
        value = float(miles)
        if left and left < 200:
            # Prefer leaving a gap a card still in hand (besides this one) closes next turn.
            gap = str(left)
            if hand.count(gap) > (gap == card):
                value += 60.0
            elif left < 50:
                value -= 30.0  # a lone 25 to find: possible but slow
        return value

    best = max(sorted(playable), key=score)
    return f"play {best}"


def _hazard(view: SeatLike, legal: set[str]) -> str:
    them = _them(view)
    options = [c for c in set(view.hand) if TYPE_OF[c] == HAZARD and f"play {c}" in legal]
    if not options:
        return ""
    seen = Counter(them.junkyard)
    seen.update(them.trumps)

    def score(hazard: str) -> float:
        # Answers they may still hold: removals of this kind and Tow Trucks not yet seen,
        # and the trump unless it is already used.
        unseen = sum(copies - seen[card] for card, copies in _ANSWERED_BY[hazard])
        value = 10.0 - unseen
        if hazard == SPEED_TRAP:
            value -= 4.0 if _to_go(them) > 200 else -2.0
        if _stopped(them) and hazard in STOPPING_HAZARDS and hazard not in them.hazards:
            value += 2.0  # a second kind of stop needs a second answer
        return value

    return f"play {max(sorted(options), key=score)}"


def _cycle(view: SeatLike) -> str:
    """The weakest card of each type worth little, answers and Pit Crew never included.

    Only called when cycling is allowed: every non-empty part of the hand is then a legal
    cycle, and this is one."""
    junk: list[str] = []
    by_type: dict[str, list[str]] = {}
    for card in view.hand:
        if TYPE_OF[card] == CHEAT:
            continue
        by_type.setdefault(TYPE_OF[card], []).append(card)
    for cards in by_type.values():
        worst = _weakest(view, cards)
        if _worth(view, worst) < CYCLE_BELOW:
            cards.remove(worst)
            junk.append(worst)
            # Dead cards all go (they can never be played).
            junk.extend(c for c in cards if _worth(view, c) == DEAD)
    if not junk:
        return ""
    return " ".join(("cycle", *sort_cards(junk)))

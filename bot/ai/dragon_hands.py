"""What a Dragon Mille Bornes rival likely holds: how its hands differ from a uniform deal.

Other hands are not a uniform sample of the unseen cards: players fire their attacks and play
their safeties, distance and remedies as soon as they can, and keep their Swerves, Skids and
armor. Each unseen card is dealt into a rival's hand with a weight, how much likelier it is to
be there than a uniform deal makes it (``HAND_BIAS_MB``, ``HAND_BIAS_CW``, measured on
``normal``'s self-play): a Swerve 2.6 times, a Rocket less than a tenth. A rival's car says
more (``mb_weights``): a hazard still showing means it holds neither the safety nor a Right of
Way, and, once it has had its Mille Bornes action since, not the remedy either. So does what
the table has seen of its Car Wars hand (the engine's hand facts, ``read_facts``): a shot that
opened no window rules its answers out of the cards the rival held then; a window it let pass
means it kept a dodge (it would have armored otherwise); a turn with no Car Wars play makes the
cards it could have played rare. Scored with ``tests/ai/dragon_hand_bias.py --facts`` (how
well the imagined hands answer "does it hold a dodge, each side's armor, an attack…", 60 games,
seed 1000), reading the facts cuts the determinizer's log loss from 4.73 to 4.31 a turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from bot.ai.search import deal_weighted
from bot.engine.dragon.state import NONE_OF, HandFact
from bot.engine.dragon.views import DragonPublicView
from bot.engine.mille.cards import REMEDY_FOR, SAFETY_FOR, Card

HAND_BIAS_MB: dict[str, float] = {
    "gasoline": 1.65, "spare-tire": 1.64, "100": 1.34, "200": 1.33, "stop": 1.26, "go": 1.07,
    "75": 1.03, "repairs": 0.76, "out-of-gas": 0.75, "flat-tire": 0.69, "25": 0.66, "50": 0.65,
    "end-of-limit": 0.65, "accident": 0.64, "speed-limit": 0.54, "extra-tank": 0.03,
    "right-of-way": 0.03, "driving-ace": 0.02, "puncture-proof": 0.01,
}  # fmt: skip
HAND_BIAS_CW: dict[str, float] = {
    "swerve": 2.56, "skid": 2.50, "flame-left": 1.81, "spin": 1.80, "backfire": 1.77,
    "flame-right": 1.61, "flame-back": 1.55, "flame-front": 1.37, "armor-back": 1.37,
    "armor-left": 1.23, "armor-right": 1.12, "armor-front": 1.11, "fireproof": 0.54,
    "jam": 0.53, "stampede": 0.50, "mg-right": 0.45, "mg-front": 0.38, "mg-left": 0.38,
    "mg-back": 0.35, "ac-left": 0.32, "ac-right": 0.28, "ac-back": 0.24, "ac-front": 0.21,
    "laser-front": 0.17, "laser-back": 0.16, "laser-left": 0.15, "laser-right": 0.15,
    "called-shot": 0.11, "tire-shot": 0.10, "rocket-right": 0.08, "rocket-left": 0.07,
    "rocket-back": 0.05, "rocket-front": 0.04,
}  # fmt: skip
"""How much likelier each card is to sit in a rival's hand than a uniform deal of the unseen
cards makes it: players fire their attacks and play their safeties, distance and remedies as
soon as they can, and keep their dodges and answers. Measured by tests/ai/dragon_hand_bias.py
(at the start of each turn of 150 games of ``normal`` against itself, seeds 1000-1149: the
cards in the rival's hands over what a uniform deal would put there)."""


UNSETTLED = 0.25
"""How likely a remedy is, against ``HAND_BIAS_MB``, in a rival's hand while a hazard on its car
may be fresh (the rival may not have had its Mille Bornes action since; see ``mb_weights``)."""


def _mb_bias(card: Card) -> float:
    return HAND_BIAS_MB.get(card.value, 1.0)


def acted_since_hazards(public: DragonPublicView, rival: int) -> bool:
    """Whether ``rival`` has taken its Mille Bornes action since every hazard now on its car was
    played: hazards are played in their players' turns, so this holds while the rival's own turn
    is past its Mille Bornes action, and while the next live car has yet to take its own."""
    if public.turn == rival:
        return public.mb_left <= 0
    if public.mb_left <= 0:
        return False
    count = len(public.cars)
    before = next(
        (public.turn - step) % count
        for step in range(1, count + 1)
        if public.cars[(public.turn - step) % count].alive
    )
    return before == rival


def mb_weights(public: DragonPublicView, rival: int) -> Callable[[Card], float]:
    """How each unseen Mille Bornes card is weighted for ``rival``'s hand: ``HAND_BIAS_MB``,
    less what its car shows it cannot hold. Measured by ``tests.ai.dragon_hand_bias --hazards``
    (``normal`` against itself, 200 games, seeds 1000-1199, at every decision of the other
    seat while the rival shows a hazard): the rival held the hazard's safety and a Right of Way
    0 times in 12 792 chances (it would have played a coup fourré or the safety). Once it had
    had its Mille Bornes action since (``acted_since_hazards``), it held the remedy (End of
    Limit for a limit, Go for a Stop) 0.02 times as often as a uniform deal gives it one;
    before that, 0.25 times (``UNSETTLED``)."""
    shown = public.cars[rival]
    hazards = [card for card in (shown.battle_top,) if card is not None and card.is_hazard]
    if shown.limited:
        hazards.append(Card.SPEED_LIMIT)
    if not hazards:
        return _mb_bias
    factor: dict[Card, float] = {}
    remedy = 0.0 if acted_since_hazards(public, rival) else UNSETTLED
    for hazard in hazards:
        factor[SAFETY_FOR[hazard]] = 0.0
        factor[Card.RIGHT_OF_WAY] = 0.0
        factor[REMEDY_FOR[hazard]] = remedy

    def weight(card: Card) -> float:
        return factor.get(card, 1.0) * HAND_BIAS_MB.get(card.value, 1.0)

    return weight


def _cw_bias(code: str) -> float:
    return HAND_BIAS_CW.get(code, 1.0)


UNPLAYED_FACTOR = 0.1
"""How likely a card an "unplayed" fact names is in the cards it covers, against
``HAND_BIAS_CW``: players play what they can, so a turn with no Car Wars play says they held
little worth playing. Chosen on calibration (``tests/ai/dragon_hand_bias.py --facts``, before
the "one of" reading): log loss 4.53 a turn at 1 (ignored), 4.38 at 0.1, 4.69 at 0 (certainty
is wrong: players sometimes hold a card back)."""

PASSED_FACTOR = 0.05
"""How likely the armor or backfire a "one of" names is, against ``HAND_BIAS_CW``, when the
fact also names a dodge: a player who lets a window pass with armor at hand would have armored
(``normal`` held the dodge 93-99 % of the time and the armor 0-1 %), so it kept a dodge."""

_DODGES = ("swerve", "spin")


@dataclass(frozen=True)
class _Reading:
    """What the expert makes of a car's facts: the cards to deal it one of, and how rare each
    card is among the oldest cards of its hand."""

    wants: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]  # (likely, possible), newest first
    rare: tuple[tuple[int, tuple[str, ...], float], ...]  # (cards, codes, factor)


def read_facts(facts: Sequence[HandFact]) -> _Reading:
    """How the expert reads the table's facts about one car (module docstring)."""
    wants: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    rare: list[tuple[int, tuple[str, ...], float]] = []
    for fact in reversed(facts):
        if fact.kind == NONE_OF:
            rare.append((fact.cards, fact.codes, 0.0))
        elif fact.excludes:
            rare.append((fact.cards, fact.codes, UNPLAYED_FACTOR))
        elif any(code in _DODGES for code in fact.codes):
            wants.append((tuple(c for c in fact.codes if c in _DODGES), fact.codes))
            others = tuple(c for c in fact.codes if c not in _DODGES)
            if others:
                rare.append((fact.cards, others, PASSED_FACTOR))
        else:
            wants.append((fact.codes, fact.codes))
    return _Reading(tuple(wants), tuple(rare))


def deal_cw_hand(
    pool: list[str],
    size: int,
    facts: Sequence[HandFact],
    held: Sequence[str],
    rng: random.Random,
    *,
    shuffle: bool = True,
) -> tuple[list[str], list[str]]:
    """Deal a rival ``size`` Car Wars cards from ``pool`` beside the ``held`` ones it is known
    to hold, weighted by ``HAND_BIAS_CW`` and honouring what the table has learnt of its hand
    as ``read_facts`` reads it: one card of each wanted set unless the hand has one already (a
    likely one if the facts allow it), and each rare card made rarer among as many of the
    hand's cards as its fact covers. The rest of the pool comes back shuffled (in no
    particular order when ``shuffle`` is false)."""
    hand: list[str] = []
    if size <= 0:
        rest = list(pool)
        if shuffle:
            rng.shuffle(rest)
        return hand, rest
    pool = list(pool)
    have = list(held)
    reading = read_facts(facts)
    ruled_out = {code for _, codes, factor in reading.rare if factor == 0.0 for code in codes}
    for likely, possible in reading.wants:
        if len(hand) >= size or any(c in possible for c in have + hand):
            continue
        choices = [c for c in pool if c in likely and c not in ruled_out] or [
            c for c in pool if c in possible and c not in ruled_out
        ]
        if choices:
            pick = deal_weighted(choices, 1, _cw_bias, rng, shuffle=False)[0][0]
            pool.remove(pick)
            hand.append(pick)
    # The cards still to deal, oldest first: card ``i`` is rarer for every fact that covers
    # more than ``i`` of them (the cards just placed count among the covered).
    free = size - len(hand)
    placed = len(have) + len(hand)
    covers = sorted({max(0, min(free, cards - placed)) for cards, _, _ in reading.rare} | {0, free})
    # From the most covered cards (fewest allowed) to the uncovered ones.
    for low, high in pairwise(covers):
        factors: dict[str, float] = {}
        for cards, codes, factor in reading.rare:
            if cards - placed > low:
                for code in codes:
                    factors[code] = min(factors.get(code, 1.0), factor)
        dealt, pool = deal_weighted(pool, high - low, _scaled(factors), rng, shuffle=False)
        hand += dealt
    if shuffle:
        rng.shuffle(pool)
    return hand, pool


def _scaled(factors: dict[str, float]) -> Callable[[str], float]:
    """``HAND_BIAS_CW`` times ``factors`` (a card at 0 is dealt only when nothing else is
    left)."""
    if not factors:
        return _cw_bias
    return lambda code: factors.get(code, 1.0) * _cw_bias(code)

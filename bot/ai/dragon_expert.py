"""``expert``: the Dragon Mille Bornes computer player that searches (see ``bot.ai.search``).

It decides from its seat's private view alone. What a seat has not seen is, per deck, the deck
list minus every card in sight: its own two hands, every car's Mille Bornes piles (battle,
speed, safeties, miles), Fireproof Armor on the cars, and both discard piles. Those unseen cards
are the other players' hands (sizes shown) and the two draw piles (sizes shown). To judge a
move it deals them again many times (*determinizes*), plays the move, and lets the ``normal``
player go on for every seat. The imagined table honours what the seat knows:

- a reaction window that waits for another player shows that player holds an answer (the
  safety for a coup fourré, a Skid Into a Wall, a Driving Ace, an Armor, Swerve, Spin,
  Backfire or Oil Slick that fits the shot): one such card is dealt to them first;
- the game's own die and reshuffles come from a seed the seat cannot see: each imagined table
  gets a fresh one;
- what the view does not show is set to what matters least: the stalemate counter starts at
  zero, and a dead car's place in the order of deaths is unknown (rollouts only ask who wins).

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

Why short rollouts: a Dragon game is long (about 150 moves between two ``normal`` players,
each move costing the engine and ``normal`` a few tenths of a millisecond), so whole games are
far too slow for a budget of a few hundred milliseconds. A rollout stops when the turn has
passed ``HORIZON_TURNS`` times (by default 8: the rest of this turn and seven more; with two
cars, four of the rival's and three of its own), or at the game's end, and a *value model*
judges the table: each live car gets a strength, a weighted sum of what decides Dragon games
(miles, whether it is moving or can restart, driver wounds, breached and battered sides,
safeties, an exact finish in hand, answers and weapons in hand, a speed limit, whose turn it
is), and a seat's chance to win is its share of ``exp(strength)`` over the live cars (for two
cars, a logistic of the difference). The weights were fitted on ``normal``'s self-play
(tests/ai/fit_dragon_value.py). A finished game counts 1 for a win, 0 for a loss, an equal
share for a draw.

Why eight turns: judged by full games of ``normal`` played out from the real table (many deals
of what the seat cannot see, both moves on the same deals), the moves where the expert left
``normal``'s choice were worse than ``normal``'s on average with a horizon of one or two turns
(the value model alone cannot tell a tire shot or a fresh Car Wars hand from a wasted one), and
better with four. Once the imagined hands had become truer, the search no longer gained from
more rounds (258 of 400 at 100 ms and at 300 ms), so the rounds to spare went to seeing
farther: at 300 ms, eight turns won 268 of 400 games where four won 258 (seeds 1001-1400, the
same deals; 258 again with the final code, so the gain is within the noise, not a loss).

Rollouts are cheap on purpose: the scratch state is changed in place (``apply_in_place``), and
``normal`` reads a lean view whose legal moves omit the Car Wars discard subsets (hundreds of
them with a full hand) yet still accept the one discard ``normal`` might pick.

Candidates: reactions, sides and every other small window are searched whole. In a turn:
``normal``'s choice first, then its two best Mille Bornes plays and two best Car Wars plays by
``normal``'s own scores, the Car Wars discard ``normal`` would make, ``end`` and ``cw-discard
all``. Never every discard subset, and no Mille Bornes discard but ``normal``'s: after a few
turns the value model cannot tell one kept card from another, so searching them only adds noise.
Fewer candidates also mean more rounds for the ones that matter.

Strength: against ``normal``, two cars, at 300 ms a move, it won 817 of 1 200 games (68.1 %):
262 of 400 on seeds 1801-2200, 297 on seeds 1401-1800 and 258 on seeds 1001-1400 (268 there
before its deals became faster, 258 with a horizon of four turns). Most of that came from
trusting the search more (``keep_z`` below) once the imagined hands had become truer; before
the hand weights it was about even. The constants (horizon, candidates searched, ``keep_z``)
are the best of the variants measured with tests/ai/arena_extra.py.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from time import perf_counter
from typing import Any

from bot.ai.dragon_normal import (
    DragonNormalPolicy,
    _cw_score,
    _junk,
    _mb_score,
    _parse,
    _Seen,
    decide,
)
from bot.ai.search import (
    CHECK_EVERY,
    Domain,
    OutOfTime,
    SearchPolicy,
    SearchReport,
    deal_weighted,
)
from bot.engine.dragon import GAME
from bot.engine.dragon.cards import (
    ARMOR_STOPS,
    CW_ORDER,
    DRIVER_TRACK,
    MAX_ARMOR,
    SIDE_TRACK,
    SIDES,
    SPECS,
    TIRE_TRACK,
    TRIP,
    cw_deck_counts,
    cw_name,
)
from bot.engine.dragon.moves import cw_plays, legal_actions, mb_actions, to_act
from bot.engine.dragon.notation import CW_DISCARD_ALL, DROP_TANK, END, Action, format_action
from bot.engine.dragon.rules import apply_in_place
from bot.engine.dragon.state import NONE_OF, Car, DragonState, HandFact, Pending, Phase
from bot.engine.dragon.table import moving
from bot.engine.dragon.views import (
    CarView,
    DragonPublicView,
    DragonSeatView,
    PendingView,
    public_view,
)
from bot.engine.mille.cards import (
    HAZARD_FOR,
    HAZARDS_STOPPED_BY,
    REMEDY_FOR,
    SAFETY_FOR,
    Card,
    deck_counts,
)
from bot.engine.mille.state import Tableau
from bot.engine.words import plural

HORIZON_TURNS = 8
"""Turn starts a rollout passes before the value model judges (see the module docstring)."""
ROLLOUT_LIMIT = 400  # moves; a rollout this long is judged as it stands
MB_CANDIDATES = 2  # Mille Bornes plays searched (best by normal)
CW_CANDIDATES = 2  # Car Wars plays searched (best by normal)

_PHASES = {phase.value: phase for phase in Phase}


# --- what the seat has not seen ------------------------------------------------------------


def unseen_mb(view: DragonSeatView) -> Counter[Card]:
    """The Mille Bornes cards ``view.seat`` cannot see (other hands and the draw pile)."""
    public = view.public
    seen: Counter[Card] = Counter(view.mb_hand)
    seen.update(public.mb_discard)
    for car in public.cars:
        seen.update(car.battle)
        seen.update(car.speed)
        seen.update(car.safeties)
        seen.update(car.miles)
    full = deck_counts(public.deck_name)
    return Counter({c: n - seen[c] for c, n in full.items() if n > seen[c]})


def unseen_cw(view: DragonSeatView) -> Counter[str]:
    """The Car Wars cards ``view.seat`` cannot see (other hands and the draw pile)."""
    public = view.public
    seen: Counter[str] = Counter(view.cw_hand)
    seen.update(public.cw_discard)
    seen["fireproof"] += sum(1 for car in public.cars if car.fireproof)
    full = cw_deck_counts(public.oil_slick)
    return Counter({c: n - seen[c] for c, n in full.items() if n > seen[c]})


def _oil_by(pv: PendingView) -> int:
    """Who dropped the Oil Slick of a pending chain: the victim of the shot (after a backfire
    the pending chain names the victim as ``by``)."""
    if not pv.oil:
        return -1
    return pv.by if pv.kind == Phase.BACKFIRE.value else pv.car


def _forced_answer(
    view: DragonSeatView, cw_pool: Counter[str], rng: random.Random
) -> tuple[int, str] | None:
    """The card a waiting reactor (not this seat) must hold for its window to be open."""
    public = view.public
    pv = public.pending
    if pv is None or pv.actor == view.seat:
        return None
    kind = pv.kind
    actor = pv.actor
    if kind == Phase.COUP.value:
        return actor, SAFETY_FOR[Card(pv.card)].value
    if kind == Phase.SKID.value:
        return actor, "skid"
    if kind == Phase.OIL_ACE.value:
        return actor, Card.DRIVING_ACE.value
    options: list[str] = []
    armor_open = pv.side >= 0 and pv.armor < MAX_ARMOR and pv.hits - ARMOR_STOPS * pv.armor > 0
    if kind in (Phase.REACT.value, Phase.BACKFIRE.value) and armor_open:
        options.append(f"armor-{SIDES[pv.side]}")
    if kind == Phase.REACT.value and pv.armor == 0:
        if public.cars[actor].moving:
            options += ["swerve", "spin"]
        if SPECS[pv.card].weapon == "ac":
            options.append("backfire")
        if public.oil_slick and not pv.oil:
            options.append("oil-slick")
    weights = [cw_pool[c] for c in options]
    if not options or sum(weights) <= 0:
        return None
    # One answer, as likely as its unseen copies make it.
    pick = rng.random() * sum(weights)
    for code, weight in zip(options, weights, strict=True):
        pick -= weight
        if pick < 0:
            return actor, code
    return actor, options[-1]


def determinize(view: DragonSeatView, rng: random.Random) -> DragonState:
    """A full state consistent with ``view``: its private view for the seat equals ``view``."""
    public = view.public
    seat = view.seat
    mb_pool = unseen_mb(view)
    cw_pool = unseen_cw(view)
    mb_forced: dict[int, list[Card]] = {}
    cw_forced: dict[int, list[str]] = {}
    forced = _forced_answer(view, cw_pool, rng)
    if forced is not None:
        owner, code = forced
        if code in SPECS:
            if cw_pool[code] > 0:
                cw_pool[code] -= 1
                cw_forced[owner] = [code]
        else:
            card = Card(code)
            if mb_pool[card] > 0:
                mb_pool[card] -= 1
                mb_forced[owner] = [card]
    # Sorted first so that the deal depends on the rng alone, not on the counters' order.
    mb_cards: list[Card] = sorted(mb_pool.elements(), key=lambda c: c.value)
    cw_cards: list[str] = sorted(cw_pool.elements(), key=CW_ORDER.__getitem__)
    cars: list[Car] = []
    for shown in public.cars:
        if shown.seat == seat:
            mb_hand = list(view.mb_hand)
            cw_hand = list(view.cw_hand)
        else:
            forced_mb = mb_forced.get(shown.seat, [])
            dealt_mb, mb_cards = deal_weighted(
                mb_cards,
                max(0, shown.mb_hand_count - len(forced_mb)),
                mb_weights(public, shown.seat),
                rng,
                shuffle=False,
            )
            forced_cw = cw_forced.get(shown.seat, [])
            dealt_cw, cw_cards = deal_cw_hand(
                cw_cards,
                shown.cw_hand_count - len(forced_cw),
                shown.facts,
                forced_cw,
                rng,
                shuffle=False,
            )
            mb_hand, cw_hand = forced_mb + dealt_mb, forced_cw + dealt_cw
        cars.append(_car(shown, mb_hand, cw_hand))
    # What no hand took is the draw piles, in an order of their own.
    rng.shuffle(mb_cards)
    rng.shuffle(cw_cards)
    phase = _PHASES.get(public.phase, Phase.TURN)
    pending = None
    pv = public.pending
    if pv is not None:
        kind = _PHASES[pv.kind]
        pending = Pending(
            kind=kind,
            actor=pv.actor,
            car=pv.car,
            by=pv.by,
            card=pv.card,
            side=pv.side,
            hits=pv.hits,
            armor=pv.armor,
            oil_by=_oil_by(pv),
            ace=kind is Phase.WALL and pv.card == "skid",
            waiting=list(pv.waiting),
        )
    return DragonState(
        players=public.players,
        options={
            "oil_slick": "on" if public.oil_slick else "off",
            "deck": public.deck_name,
            "names": public.lang,
        },
        seed=rng.getrandbits(32),
        cars=cars,
        mb_draw=mb_cards,
        mb_discard=list(public.mb_discard),
        cw_draw=cw_cards,
        cw_discard=list(public.cw_discard),
        turn=public.turn,
        phase=phase,
        pending=pending,
        mb_left=public.mb_left,
        cw_done=public.cw_done,
        spun=public.spun,
        caption=public.caption,
        winners=public.winners,
        places=public.places,
        end_reason=public.end_reason,
    )


def _car(shown: CarView, mb_hand: list[Card], cw_hand: list[str]) -> Car:
    return Car(
        mb=Tableau(
            hand=mb_hand,
            battle=list(shown.battle),
            speed=list(shown.speed),
            safeties=list(shown.safeties),
            coups=list(shown.coups),
            miles=list(shown.miles),
        ),
        cw_hand=cw_hand,
        hits=list(shown.hits),
        tires=shown.tires,
        driver=shown.driver,
        jammed=shown.jammed,
        fireproof=["fireproof"] if shown.fireproof else [],
        flamed=shown.flamed,
        skidded=shown.skidded,
        alive=shown.alive,
        left=shown.left,
        kills=shown.kills,
        killed_by=shown.killed_by,
        final_miles=0 if shown.alive else shown.mileage,
        facts=list(shown.facts),
    )


# --- how hands differ from a uniform deal -------------------------------------------------

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


# --- rollouts ------------------------------------------------------------------------------


class _Legal(tuple[str, ...]):
    """Legal moves without the Car Wars discard subsets, which still answer ``in`` for any
    discard of held cards while a Car Wars move is open (``normal`` only builds those)."""

    open_discards = False

    def __contains__(self, text: object) -> bool:
        if self.open_discards and isinstance(text, str) and text.startswith("cw-discard "):
            return True
        return tuple.__contains__(self, text)


def lean_legal(state: DragonState, seat: int) -> _Legal:
    """``seat``'s legal moves as notation, the discard subsets left out (``_Legal``)."""
    if state.phase is not Phase.TURN:
        legal = _Legal(format_action(a) for a in legal_actions(state, seat))
        return legal
    car = state.cars[seat]
    actions: list[Action] = []
    if state.mb_left > 0 and car.mb.hand:
        actions += mb_actions(state, seat)
    cw_open = not state.cw_done and bool(car.cw_hand)
    if cw_open:
        actions += cw_plays(state, seat)
        actions.append(CW_DISCARD_ALL)
    if Card.EXTRA_TANK in car.mb.safeties:
        actions.append(DROP_TANK)
    if state.mb_left <= 0 or not car.mb.hand:
        actions.append(END)
    legal = _Legal(format_action(a) for a in actions)
    legal.open_discards = cw_open
    return legal


def rollout_view(state: DragonState, seat: int) -> DragonSeatView:
    """``seat``'s private view with the lean legal moves (for ``normal`` inside rollouts)."""
    public = public_view(state, words=False)
    car = state.cars[seat]
    return DragonSeatView(
        public=public,
        seat=seat,
        mb_hand=tuple(car.mb.hand),
        cw_hand=tuple(car.cw_hand),
        phase=public.phase,
        legal=lean_legal(state, seat),
    )


# --- the value of a table ------------------------------------------------------------------


def car_features(state: DragonState, seat: int) -> list[float]:
    """What the value model reads of one live car (see ``VALUE_WEIGHTS``)."""
    car = state.cars[seat]
    t = car.mb
    miles = t.mileage
    left = TRIP - miles
    go = moving(car)
    hand = t.hand
    top = t.battle[-1] if t.battle else None
    restart = (
        go
        or Card.GO in hand
        or (top is not None and top.is_hazard and any(HAZARD_FOR.get(c) is top for c in hand))
    )
    full200 = t.miles.count(Card.D200) >= 2
    limited = bool(t.speed) and t.speed[-1] is Card.SPEED_LIMIT
    cap = min(left, 50 if limited else left)
    usable = [
        c.miles
        for c in hand
        if c.is_distance and c.miles <= cap and not (full200 and c is Card.D200)
    ]
    cw = car.cw_hand
    armor = sum(1 for c in cw if SPECS[c].kind == "armor")
    dodge = sum(1 for c in cw if c in ("swerve", "spin"))
    attacks = sum(
        1 for c in cw if SPECS[c].is_attack and not (car.jammed and SPECS[c].weapon == "mg")
    )
    breached = sum(1 for h in car.hits if h >= SIDE_TRACK)
    worst = max(car.hits)
    return [
        miles / TRIP,
        (miles / TRIP) ** 2,
        1.0 if go else 0.0,
        1.0 if restart else 0.0,
        car.driver / DRIVER_TRACK,
        (car.driver / DRIVER_TRACK) ** 2,
        float(breached),
        worst / SIDE_TRACK,
        sum(car.hits) / (4 * SIDE_TRACK),
        float(len(t.safeties)),
        1.0 if left in usable else 0.0,
        float(min(armor, 4)),
        float(min(dodge, 3)),
        float(attacks),
        1.0 if car.jammed else 0.0,
        1.0 if limited else 0.0,
        1.0 if state.turn == seat else 0.0,
    ]


FEATURES = 17

VALUE_WEIGHTS: tuple[float, ...] = (
    1.7276, 0.4083, 0.6696, 0.1534, -1.3208, 0.3686, -0.2575, -0.2411, -0.2711, 0.2513,
    0.9236, 0.0206, 0.0997, 0.0729, 0.0359, -0.3489, 0.0933,
)  # fmt: skip
"""The strength of a car: weights over ``car_features``; a seat's win chance is its share of
``exp(strength)`` over the live cars. tests/ai/fit_dragon_value.py fitted them: 17 000 turn
starts of 300 games of normal against itself (2 cars, seeds 1000-1299); held-out log loss 0.524
against 0.693 for a coin. Read them together, not one by one: the features overlap (a car with
shot tires is also not moving)."""


def strength(state: DragonState, seat: int) -> float:
    return sum(w * x for w, x in zip(VALUE_WEIGHTS, car_features(state, seat), strict=True))


def win_chance(state: DragonState, seat: int) -> float:
    """The value model's chance that ``seat`` wins from ``state``."""
    if not state.cars[seat].alive:
        return 0.0
    mine = strength(state, seat)
    total = 0.0
    for other, car in enumerate(state.cars):
        if car.alive:
            total += math.exp(max(-30.0, min(30.0, strength(state, other) - mine)))
    return 1.0 / total


class DragonDomain(Domain[DragonState]):
    """Dragon Mille Bornes for the shared search: short rollouts by ``normal``, then the value
    model (module docstring)."""

    game = GAME
    cw_candidates = CW_CANDIDATES
    horizon_turns = HORIZON_TURNS

    def __init__(self) -> None:
        self.normal = DragonNormalPolicy()

    def parse(self, text: str) -> Action:
        return _parse(text)

    def determinize(self, view: Any, rng: random.Random) -> DragonState:
        return determinize(view, rng)

    def candidates(self, view: Any) -> list[str]:
        legal: tuple[str, ...] = tuple(view.legal)
        first = self.normal.choose(view, random.Random(0))
        if view.public.phase != "turn":
            # Reactions and sides are small windows: every answer is searched.
            return [first, *(m for m in legal if m != first)]
        options = turn_options(view, self.cw_candidates)
        return [first, *(m for m in options if m != first and m in legal)]

    def rollout(
        self, state: DragonState, seat: int, rng: random.Random, deadline: float | None = None
    ) -> float:
        parse = _parse
        # The horizon: the ``horizon_turns``-th time the turn passes (the value model judges
        # the new turn's start), or the end of the game.
        horizon = self.horizon_turns
        passes = 0
        turn = state.turn
        for step in range(ROLLOUT_LIMIT):
            if state.phase is Phase.OVER:
                return self.evaluate(state, seat)
            if state.turn != turn:
                turn = state.turn
                passes += 1
                if passes >= horizon:
                    return win_chance(state, seat)
            if not state.cars[seat].alive:
                return 0.0
            if deadline is not None and step % CHECK_EVERY == 0 and perf_counter() > deadline:
                raise OutOfTime
            actor = min(to_act(state))
            view = rollout_view(state, actor)
            move = decide(view)
            apply_in_place(state, actor, parse(move))
        return win_chance(state, seat)

    def evaluate(self, state: DragonState, seat: int) -> float:
        """A win is 1, a loss 0, a draw an equal share."""
        winners = state.winners
        if not winners:
            return 1.0 / len(state.cars)
        return 1.0 / len(winners) if seat in winners else 0.0

    def explain(self, view: Any, move: str, report: SearchReport) -> str:
        return explain(view, move, report)


def turn_options(view: DragonSeatView, cw_candidates: int = CW_CANDIDATES) -> list[str]:
    """The turn moves worth searching (module docstring), best by ``normal``'s scores first."""
    seen = _Seen(view)
    legal = view.legal
    mb: list[tuple[float, str]] = []
    cw: list[tuple[float, str]] = []
    extra: list[str] = []
    for text in legal:
        action = _parse(text)
        verb = action.verb
        if verb == "play":
            mb.append((_mb_score(seen, action), text))
        elif verb == "cw":
            cw.append((_cw_score(seen, action), text))
        elif verb in ("end", "cw-discard-all"):
            extra.append(text)
    mb.sort(key=lambda p: -p[0])
    cw.sort(key=lambda p: -p[0])
    moves = [m for _, m in mb[:MB_CANDIDATES]] + [m for _, m in cw[:cw_candidates]]
    junk = _junk(seen, tuple(legal))
    if junk is not None:
        moves.append(junk)
    return moves + extra


def explain(view: DragonSeatView, move: str, report: SearchReport) -> str:
    """Why ``move``, in a player's words, from what the search found and what the table shows:
    a card is said to clear, stop or fix only what it does here, and Mille Bornes cards are
    named as the game names them (the ``names`` option)."""
    action = _parse(move)
    verb = action.verb
    public = view.public
    lang = public.lang
    players = public.players
    me = public.cars[view.seat]
    rival = players[action.target] if action.target is not None else ""
    pending = public.pending
    if verb == "play":
        card = Card(action.card)
        name = card.name_in(lang)
        if card.is_distance:
            if me.mileage + card.miles == TRIP:
                why = f"{card.miles} miles takes you to exactly {TRIP} and wins"
            else:
                why = f"driving {card.miles} miles now brings {TRIP} closer"
        elif card.is_safety:
            why = _dragon_safety_reason(me, card, lang)
        elif card.is_hazard:
            why = _dragon_hazard_reason(public, action.target, card, lang)
        else:
            why = _dragon_remedy_reason(me, card, lang)
    elif verb == "discard":
        why = f"{Card(action.card).name_in(lang)} is the Mille Bornes card you need least"
    elif verb == "cw":
        name = cw_name(action.card).split(" (")[0]
        if rival and SPECS[action.card].is_attack:
            why = _dragon_attack_reason(public, action, lang)
        elif action.card == "jam":
            repairs = Card.REPAIRS.name_in(lang)
            why = (
                f"{name} silences the machine guns of {rival} until they play {repairs} or "
                "discard their whole Car Wars hand"
            )
        elif rival:
            why = f"{name} on {rival} does the most harm for the risk"
        elif action.card == "stampede":
            why = "Stampede puts 2 hits on every other car"
        elif action.card == "fireproof":
            why = "Fireproof Armor stays on your car: flame no longer hurts your body or driver"
        else:
            why = f"{name} is your best Car Wars play now"
    elif verb in ("cw-discard", "cw-discard-all"):
        why = "fresh Car Wars cards are worth more than these"
        if me.jammed and verb == "cw-discard-all":
            why = "discarding your whole Car Wars hand unjams your machine guns"
    elif verb == "armor":
        why = "the armor keeps the hits off where they would hurt"
    elif verb in ("swerve", "spin"):
        why = "this shot is worth dodging"
    elif verb == "side":
        why = f"the {SIDES[action.side or 0]} can take these hits best"
    elif verb == "pass":
        why = "your reactions are worth more kept for a bigger shot"
    elif verb == "end":
        why = "no Car Wars card is worth playing this turn"
    elif verb == "backfire" and pending is not None:
        why = f"the autocannon misses you and its hits strike the front of {players[pending.by]}"
    elif verb == "oil-slick" and pending is not None:
        why = f"the Oil Slick makes {players[pending.by]} roll to keep control after the shot"
    elif verb == "skid":
        go = Card.GO.name_in(lang)
        why = f"Skid Into a Wall puts 3 hits on {rival} and stops them until a {go}"
    elif verb == "drop-tank":
        tank = Card.EXTRA_TANK.name_in(lang)
        why = f"without the {tank} on, a flame that reaches your driver cannot kill you outright"
    else:
        why = "it came out best when the next turns were played out"
    return report.reason(why, move)


def _dragon_attack_reason(public: DragonPublicView, action: Action, lang: str) -> str:
    """What an aimed shot can do to its car, as the table shows it. "Does the most harm for
    the risk" was said even of a Tire Shot at tires already shot out, which does none. The
    victim may still armor or dodge, so harm is what the shot *can* do; no harm is certain."""
    spec = SPECS[action.card]
    name = spec.name.split(" (")[0]
    assert action.target is not None
    car = public.cars[action.target]
    rival = car.name
    usual = f"{name} on {rival} does the most harm for the risk"
    if spec.kind == "tire-shot":
        if car.tires >= TIRE_TRACK:  # tire hits past 9 are lost (damage.hit_tires)
            return (
                f"{name} on {rival} does no harm, as their tires are already shot out: it "
                "only gets the card out of your hand"
            )
        if car.tires + spec.hits >= TIRE_TRACK:
            spare = Card.SPARE_TIRE.name_in(lang)
            return (
                f"{name} on {rival} can shoot out their tires: they cannot drive again "
                f"without a {spare}"
            )
        return usual
    side = spec.side if spec.kind == "weapon" else (action.side or 0)
    tank = Card.EXTRA_TANK.name_in(lang)
    has_tank = Card.EXTRA_TANK in car.safeties
    if spec.flame and car.fireproof:
        # Fireproof Armor stops flame hits, through a breached side too; an Extra Tank still
        # burns (damage.hit_side removes it before the armor is looked at).
        if has_tank:
            return (
                f"{name} on {rival} can only burn their {tank}: their Fireproof Armor stops "
                "the flames"
            )
        return f"{name} on {rival} does no harm: their Fireproof Armor stops the flames"
    carry = car.hits[side] + spec.hits - SIDE_TRACK  # hits past a breach go to the driver
    if carry <= 0:
        return usual
    where = SIDES[side]
    if car.breached[side]:
        said = f"{name} on {rival} goes through their breached {where}: it can"
    else:
        said = f"{name} on {rival} can breach their {where} and"
    if spec.flame and has_tank:
        return f"{said} reach the driver with their {tank} on, which explodes and kills them"
    if car.driver + carry >= DRIVER_TRACK:
        return f"{said} kill the driver"
    return f"{said} put {plural(carry, 'hit')} on the driver"


def _dragon_hazard_reason(
    public: DragonPublicView, target: int | None, card: Card, lang: str
) -> str:
    """A Speed Limit slows its car; a battle hazard stops it (it only hits a moving car)."""
    name = card.name_in(lang)
    if target is None:
        return f"{name} is your best play now"
    car = public.cars[target]
    if card is Card.SPEED_LIMIT:
        return f"{name} holds {car.name} to 25 and 50 miles"
    others = [c.mileage for c in public.cars if c.alive and c.seat != target]
    ahead = car.mileage > 0 and all(car.mileage > m for m in others)
    return f"{name} on {car.name} stops them" + (
        f", the car closest to {TRIP} ({car.mileage} miles)" if ahead else ""
    )


def _dragon_safety_reason(me: CarView, card: Card, lang: str) -> str:
    """A safety clears what it answers on your car, else keeps it off you; either way it
    gives you your Mille Bornes move back."""
    name = card.name_in(lang)
    showing = [me.battle[-1]] if me.battle and me.battle[-1].is_hazard else []
    if me.limited:
        showing.append(Card.SPEED_LIMIT)
    cleared = [h for h in showing if SAFETY_FOR[h] is card]
    if cleared:
        the = " and the ".join(h.name_in(lang) for h in cleared)
        return f"{name} clears the {the} on you for good and gives you your Mille Bornes move back"
    against = " and ".join(h.name_in(lang) for h in HAZARDS_STOPPED_BY[card])
    if card is Card.DRIVING_ACE:
        against += " (and skids)"
    why = f"{name} keeps {against} off you for good and gives you your Mille Bornes move back"
    top = me.battle[-1] if me.battle else None
    # Nothing stops the car but the missing Go, which Right of Way stands in for.
    free = me.tires < TIRE_TRACK and not me.skidded and (top is None or not top.is_hazard)
    if card is Card.RIGHT_OF_WAY and not me.moving and free:
        why += f", and you can drive without a {Card.GO.name_in(lang)}"
    return why


def _dragon_remedy_reason(me: CarView, card: Card, lang: str) -> str:
    """What a remedy clears on your car, and whether you can drive after it (a moving car
    stops to play Repairs or a Spare Tire; Right of Way restarts it)."""
    name = card.name_in(lang)
    go = Card.GO.name_in(lang)
    top = me.battle[-1] if me.battle else None
    tires_out = me.tires >= TIRE_TRACK
    if card is Card.END_OF_LIMIT:
        limit = Card.SPEED_LIMIT.name_in(lang)
        if me.moving:
            return f"{name} lifts the {limit}, so you can drive at full speed again"
        return f"{name} lifts the {limit} on you"
    if card is Card.GO:
        if tires_out:
            return f"{name} lets you drive again once your tires are fixed"
        if me.skidded:
            return f"{name} gets your car moving again after the skid"
        if top is None:
            return f"{name} lets you start driving"
        return f"{name} gets your car moving again"
    hazard = HAZARD_FOR[card]
    fixed: list[str] = []
    if top is hazard:
        fixed.append(f"the {hazard.name_in(lang)} on you")
    if card is Card.SPARE_TIRE and me.tires:
        fixed.append(f"the {plural(me.tires, 'hit')} on your tires")
    if card is Card.REPAIRS:
        body = sum(me.hits)
        if body:
            fixed.append(f"the {plural(body, 'hit')} on your body")
        if me.jammed:
            fixed.append("the jam on your machine guns")
    if not fixed:
        return f"{name} is your best play now"
    said = f"{name} clears " + (
        fixed[0] if len(fixed) == 1 else ", ".join(fixed[:-1]) + " and " + fixed[-1]
    )
    if top is not None and top.is_hazard and top is not hazard:
        return f"{said} (the {top.name_in(lang)} still stops you)"
    if tires_out and card is not Card.SPARE_TIRE:
        return f"{said} (your shot tires still stop you)"
    if Card.RIGHT_OF_WAY in me.safeties and not me.skidded:
        return f"{said}, and with {Card.RIGHT_OF_WAY.name_in(lang)} you can drive at once"
    return f"{said} (you will need a {go} to drive)"


class DragonExpertPolicy(SearchPolicy):
    """The searching Dragon Mille Bornes computer player (module docstring)."""

    name = "expert"
    domain_class = DragonDomain
    # Measured with tests/ai/arena_extra.py against normal at 100 ms, seeds 1-400: leaving
    # normal's move at one standard error won 258 of 400, at two 239, at none 241 (the hand
    # facts read in each case).
    keep_z = 1.0


def hint(view: DragonSeatView) -> tuple[str, str] | None:
    """What the expert would play here, and why, in a player's words."""
    return DragonExpertPolicy().hint(view, random.Random(0))


__all__ = [
    "DragonDomain",
    "DragonExpertPolicy",
    "determinize",
    "hint",
    "rollout_view",
    "unseen_cw",
    "unseen_mb",
    "win_chance",
]

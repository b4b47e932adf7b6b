"""A frozen copy of the Mille Bornes ``normal`` player before the expert work (test-only).

Kept to measure the fixed ``normal`` against (arena before/after). Do not tune it.

It plays at least as well as the BSD ``mille`` program's computer and, like it, knows only what it
has seen (docs/rules/mille.md, Rulings): its own hand, every card on both tableaus and in the
discard pile, and the composition of the deck. Subtracting those from the deck gives the *unseen*
cards — the ones still in the draw pile or in the opponent's hand — and every estimate below is made
from them.

How it plays, in order of urgency:

- A coup fourré is always taken, and a safety that parries a hazard showing on its own piles is
  played at once (it also earns another turn).
- Other safeties are hoarded for coups fourrés. One is played early only when no hazard it
  protects against is still unseen, when the hand may end before it is played (the opponent
  could complete the trip next turn, the deck is almost out, or it is about to complete the trip
  itself — a safety still in hand at the end of a hand scores nothing), or when the only
  alternative is discarding a card worth more than the coups it might still win.
- Hazards go on the opponent when they hurt: valued by how likely the opponent holds or soon
  draws the remedy and how likely they hold the safety (a coup fourré against us).
- Remedies and Go when stopped; End of Limit when bigger distance is waiting.
- Distance: the biggest card that keeps the exact-700 arithmetic closable (it plans exact
  finishes with the hand and avoids leaving 25s it may never see), skipping 200s while the safe
  trip bonus is cheap to keep.
- Discards: cards it can never use first, then extra copies, then the cards least likely to
  matter given the unseen counts.
- The extension: only when clearly ahead in tempo with deck to spare.

Each decision is a handful of arithmetic over a dozen cards: well under a millisecond.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product
from typing import Any

from bot.ai.base import Policy
from bot.engine.mille.cards import (
    HAZARD_FOR,
    HAZARDS_STOPPED_BY,
    REMEDY_FOR,
    SAFETY_FOR,
    Card,
    deck_counts,
)
from bot.engine.mille.views import MilleSeatView, TableauView

TRIP = 700

# Every legal action gets a score on one scale and the best one is played. Plays that must
# happen now sit far above the ordinary trade-offs; a discard scores minus the worth of the
# card thrown away, so it only wins when nothing useful can be played. The numbers were tuned
# by arena runs against the BSD-style yardstick in ``tests/ai/bsd_style.py``.
PARRY = 5000.0  # a safety that removes a hazard showing on us (always, and it gives a turn)
FREE_SAFETY = 4500.0  # a safety with nothing left to parry: pure gain, and another turn
DUMP_SAFETY = 4200.0  # a safety that may otherwise never score
COMPLETE_TRIP = 3000.0  # ends the race: beats any attack, however crippling
HAZARD_BASE = 500.0  # attacking first beats moving: a stopped rival loses turns, we lose none
HAZARD_UNANSWERED = 250.0  # extra for a hazard they are unlikely to answer soon
COUP_RISK = 800.0  # times the chance they parry it: 300 for them plus the turn we waste
LIMIT_BASE = 180.0  # a Speed Limit, about a 25 or 50's worth of tempo
REMEDY = 450.0  # a remedy or Go that gets us closer to moving
EOL_WAITING = 260.0  # End of Limit with bigger distance waiting in hand
DISTANCE_BASE = 150.0  # plus the miles: the biggest useful card first
SAFE_TRIP_COST = 120.0  # how much we shy away from a 200 while the safe trip is cheap to keep
SHUTOUT_WATCH = 300  # with no miles and the rival this close to finishing...
SHUTOUT_ESCAPE = 600.0  # ...any distance is urgent: it saves us a 500-point shut-out
HOARD_WEIGHT = 300.0  # a hoarded safety is worth this times its coup chance, plus...
HOARD_EXTRA = 25.0  # ...a little for keeping the choice of when to play it
TURN_WORTH = 30.0  # a turn spent waiting for the one card that closes the trip
MAX_WAIT = 20.0  # beyond this the hand is as good as over anyway
GAP_HORIZON = 150  # gaps this long or longer close in too many ways to worry about
DUMP_DECK = 2  # with this few cards left to draw, hoarding no longer pays

# What keeping a card is worth (discards throw away the least worth). Distance is the most
# plentiful kind; a missing remedy can cost many turns, a missing Go even more.
KEEP_DISTANCE = {25: 10.0, 50: 20.0, 75: 30.0, 100: 40.0, 200: 45.0}
KEEP_ODD = 15.0  # our only 25 or 75 while the miles left end in 25
KEEP_IN_PLAN = 30.0  # a distance card of the exact finish we already hold
KEEP_HAZARD = 60.0
KEEP_STOP = 50.0  # fourteen Go cards answer it
KEEP_LIMIT = 35.0
KEEP_GO = (60.0, 35.0, 12.0)  # the first, second and any further copy
KEEP_REMEDY = 25.0  # Gasoline, Spare Tire, Repairs: plus this much per hazard still unseen
KEEP_REMEDY_PER = 10.0
KEEP_EOL = 20.0
KEEP_EOL_PER = 7.0
KEEP_SPARE_COPY = 5.0  # a second copy of a remedy

# The extension: only with this much deck left, the rival this far behind (or stopped and
# not too close), and this much distance in hand towards the 300 extra miles.
EXT_MIN_DECK = 15
EXT_FAR = 350
EXT_STUCK = 500
EXT_READY = 150

_DECK_CACHE: dict[str, Counter[Card]] = {}


def _deck(name: str) -> Counter[Card]:
    if name not in _DECK_CACHE:
        _DECK_CACHE[name] = deck_counts(name)
    return _DECK_CACHE[name]


def _parse(text: str) -> tuple[str, Card | None]:
    """The verb and card of a legal action's canonical notation (``play 100``, ``draw``)."""
    verb, _, rest = text.partition(" ")
    if verb in ("play", "discard"):
        return verb, Card(rest)
    return verb, None


class _Table:
    """What the seat knows, read once from its private view: piles, distances, unseen cards."""

    def __init__(self, view: MilleSeatView) -> None:
        public = view.public
        self.view = view
        self.me: TableauView = public.tableaus[view.seat]
        self.them: TableauView = public.tableaus[1 - view.seat]
        self.hand = view.hand
        self.held = Counter(view.hand)
        self.legal = frozenset(view.legal)
        self.target = public.target
        self.my_left = self.target - self.me.mileage
        self.their_left = self.target - self.them.mileage
        self.deck = public.deck_count
        self.unseen = self._count_unseen()
        self.unseen_total = sum(self.unseen.values())
        self.safe_trip_alive = self.me.two_hundreds == 0
        self.two_hundreds_left = 2 - self.me.two_hundreds

    def _count_unseen(self) -> Counter[Card]:
        """Cards of the deck not yet seen: in the draw pile or in the opponent's hand."""
        public = self.view.public
        unseen = Counter(_deck(public.deck_name))
        unseen.subtract(self.hand)
        unseen.subtract(public.discard)
        for side in public.tableaus:
            # A coup fourré's safety is also listed among the safeties: count it once.
            for pile in (side.battle_pile, side.speed_pile, side.safeties, side.miles):
                unseen.subtract(pile)
        return Counter({card: n for card, n in unseen.items() if n > 0})

    # --- estimates ------------------------------------------------------------------------

    def p_among(self, copies: int, cards: int) -> float:
        """Chance that ``cards`` unseen cards include at least one of ``copies`` given ones."""
        total = self.unseen_total
        if copies <= 0 or cards <= 0 or total <= 0:
            return 0.0
        if cards >= total or copies >= total:
            return 1.0
        miss = 1.0
        for i in range(cards):
            miss *= (total - copies - i) / (total - i)
            if miss <= 0.0:
                return 1.0
        return 1.0 - miss

    def p_they_hold(self, card: Card, extra_draws: int = 0) -> float:
        """Chance the opponent holds ``card`` now (or within ``extra_draws`` draws)."""
        return self.p_among(self.unseen[card], self.them.hand_count + extra_draws)

    def coup_chance(self, safety: Card) -> float:
        """A rough chance that holding ``safety`` wins a coup fourré before the hand ends."""
        hazards = sum(self.unseen[h] for h in HAZARDS_STOPPED_BY[safety])
        if hazards == 0:
            return 0.0
        # Each unseen hazard is in the opponent's hand or still to be drawn; the fewer cards
        # left in the deck, the fewer of them will ever be played on us.
        share = 0.15 + 0.5 * min(1.0, self.deck / 40)
        return 1.0 - (1.0 - share) ** hazards

    def threatened_end(self) -> bool:
        """Could the opponent complete the trip with one card before our next turn?"""
        them = self.them
        closer = _MILES_CARD.get(self.their_left)
        if closer is None or not self.unseen[closer]:
            return False  # no single card closes their gap, or we have seen every one
        if closer is Card.D200 and them.two_hundreds >= 2:
            return False
        if them.limited and closer.miles > 50:
            # Only Right of Way lifts the limit and still leaves them a turn to drive.
            return bool(self.unseen[Card.RIGHT_OF_WAY])
        if them.can_go:
            return True
        # Stopped: a safety (a coup fourré or not) gives them another turn and may let them go.
        top = them.battle_top
        if top is not None and top.is_hazard:
            return bool(self.unseen[SAFETY_FOR[top]])
        return bool(self.unseen[Card.RIGHT_OF_WAY])

    def tight_race(self) -> bool:
        """Is tempo worth more than the safe-trip bonus right now?"""
        if self.deck <= 15:
            return True
        return self.them.can_go and self.their_left <= self.my_left + 100

    def usable_distances(self, without: Card | None = None) -> list[int]:
        """Miles of the distance cards in hand that could still fit this trip."""
        cards = list(self.hand)
        if without is not None:
            cards.remove(without)
        miles = sorted((c.miles for c in cards if c.is_distance), reverse=True)
        usable: list[int] = []
        two_hundreds = 0
        for m in miles:
            if m > self.my_left:
                continue
            if m == 200:
                if two_hundreds >= self.two_hundreds_left:
                    continue
                two_hundreds += 1
            usable.append(m)
        return usable

    def exact_plan(
        self, left: int, without: Card | None = None, no_200: bool = False
    ) -> Counter[int] | None:
        """The fewest distance cards in hand summing exactly to ``left`` (None if none do)."""
        if left <= 0:
            return Counter() if left == 0 else None
        held = Counter(self.usable_distances(without))
        if no_200:
            held.pop(200, None)
        values = sorted(held)
        best: Counter[int] | None = None
        best_cards = 99
        for counts in product(*(range(held[v] + 1) for v in values)):
            if sum(v * n for v, n in zip(values, counts, strict=True)) != left:
                continue
            cards = sum(counts)
            if cards < best_cards:
                best_cards = cards
                best = Counter({v: n for v, n in zip(values, counts, strict=True) if n})
        return best

    def gap_wait(self, left: int, without: Card) -> float:
        """Turns we expect to wait for the card(s) that close a short remaining gap exactly.

        Long gaps leave every option open, and a gap the hand already covers costs nothing.
        Otherwise we wait for an unseen card that closes it alone or with one we hold: about
        ``unseen / closers`` draws.
        """
        if left >= GAP_HORIZON or left <= 0:
            return 0.0
        if self.exact_plan(left, without) is not None:
            return 0.0
        held = set(self.usable_distances(without))
        closers = 0.0
        exact = _MILES_CARD.get(left)
        if exact is not None:
            closers += self.unseen[exact]
        for miles in held:
            rest = _MILES_CARD.get(left - miles)
            if rest is not None:
                closers += self.unseen[rest]
        return min(MAX_WAIT, self.unseen_total / max(closers, 0.5))

    # --- scoring one hand -------------------------------------------------------------------

    def hand_points(self, side: TableauView, other: TableauView, completed: bool) -> int:
        """What ``side`` scores if the hand ended now (docs/rules/mille.md, Scoring)."""
        points = side.mileage + 100 * len(side.safeties) + 300 * len(side.coups)
        if len(side.safeties) == 4:
            points += 300
        if completed:
            points += 400
            if side.two_hundreds == 0:
                points += 300
            if self.deck == 0:
                points += 300
            if self.view.public.extension_called:
                points += 200
            if other.mileage == 0:
                points += 500
        return points


_MILES_CARD = {card.miles: card for card in Card if card.is_distance}


class OldNormalMillePolicy(Policy):
    """The card-counting computer opponent for Mille Bornes."""

    name = "normal-old"

    def choose(self, view: Any, rng: random.Random) -> str:
        """The best scoring legal action; deterministic, so ``rng`` is never drawn from."""
        if not isinstance(view, MilleSeatView):
            raise TypeError("The normal Mille Bornes player needs a Mille Bornes seat view.")
        legal = view.legal
        if not legal:
            raise ValueError("The normal Mille Bornes player was asked to act with no move.")
        if len(legal) == 1:
            return legal[0]
        table = _Table(view)
        if view.phase == "extension":
            return "extend yes" if _wants_extension(table) else "extend no"
        if view.phase == "draw":
            # The only plays offered before drawing parry a hazard on us: always take them
            # (a coup fourré is worth 300, and the draw afterwards takes an extra card).
            for text in legal:
                if text.startswith("play "):
                    return text
            return legal[0]
        # Ties keep the engine's order, so the choice is deterministic given the view.
        scores = [_score(table, text) for text in legal]
        best = max(range(len(legal)), key=lambda i: scores[i])
        return legal[best]


# --- scoring candidate actions --------------------------------------------------------------


def _score(t: _Table, text: str) -> float:
    verb, card = _parse(text)
    if card is None:
        return 0.0
    if verb == "discard":
        return -_keep_value(t, card)
    if card.is_safety:
        return _safety_score(t, card)
    if card.is_distance:
        return _distance_score(t, card)
    if card.is_hazard:
        return _hazard_score(t, card)
    return _remedy_score(t, card)


def _safety_score(t: _Table, safety: Card) -> float:
    me = t.me
    shown = [c for c in (me.battle_top, me.speed_top) if c is not None and c.is_hazard]
    if any(SAFETY_FOR[h] is safety for h in shown):
        return PARRY
    if (
        safety is Card.RIGHT_OF_WAY
        and not me.can_go
        and not t.held[Card.GO]
        and (me.battle_top is None or me.battle_top.is_remedy)
    ):
        # We need a Go and have none: Right of Way is one, permanently.
        return PARRY
    chance = t.coup_chance(safety)
    if chance == 0.0:
        return FREE_SAFETY
    if t.threatened_end() or t.deck <= DUMP_DECK:
        return DUMP_SAFETY
    if any(c.miles == t.my_left and f"play {c.value}" in t.legal for c in t.held):
        # We are about to complete the trip, which ends the hand: cash the safety first.
        return DUMP_SAFETY
    # Otherwise hoard it: this is compared with discards, which score minus their worth.
    return -(HOARD_WEIGHT * chance + HOARD_EXTRA)


def _distance_score(t: _Table, card: Card) -> float:
    miles = card.miles
    after = t.my_left - miles
    tight = t.tight_race()
    if after == 0:
        if (
            card is Card.D200
            and t.safe_trip_alive
            and not tight
            and t.exact_plan(t.my_left, no_200=True) is not None
        ):
            # We can finish without it over a few turns and nobody is pressing: keep the
            # safe trip (300) rather than finish now, by scoring just below a 100.
            return DISTANCE_BASE + 100.0 - 20.0
        return COMPLETE_TRIP
    score = DISTANCE_BASE + miles
    if card is Card.D200 and t.safe_trip_alive and not tight:
        score -= SAFE_TRIP_COST
    if t.my_left <= 400:
        plan = t.exact_plan(t.my_left)
        if plan is not None and plan[miles]:
            score += 40.0
    # A short gap we may never close exactly costs whole turns at the end of the hand.
    score -= TURN_WORTH * t.gap_wait(after, card)
    if t.me.mileage == 0 and t.their_left <= SHUTOUT_WATCH:
        # Any miles at all spare us the opponent's 500-point shut-out.
        score += SHUTOUT_ESCAPE
    return score


def _hazard_score(t: _Table, hazard: Card) -> float:
    them = t.them
    safety = SAFETY_FOR[hazard]
    # They parry it as a coup fourré only with the safety already in hand.
    p_coup = t.p_they_hold(safety)
    if hazard is Card.SPEED_LIMIT:
        if t.their_left <= 50:
            return 40.0 - 500.0 * p_coup
        score = LIMIT_BASE + min(t.their_left, 400) / 8
        p_fix = t.p_they_hold(Card.END_OF_LIMIT, 2)
        score += 60.0 * (1.0 - p_fix)
        return score - COUP_RISK * p_coup
    remedy = REMEDY_FOR[hazard]
    # Their answer usually comes within a couple of draws if it is out there at all.
    p_fix = t.p_they_hold(remedy, 2)
    score = HAZARD_BASE + HAZARD_UNANSWERED * (1.0 - p_fix)
    if hazard is not Card.STOP and Card.RIGHT_OF_WAY not in them.safeties:
        score += 50.0  # they will need a Go after the remedy
    if t.unseen[remedy] == 0 and t.unseen[safety] == 0:
        score += 1000.0  # nothing left can restart them this hand
    if t.their_left <= 200:
        score += 100.0
    return score - COUP_RISK * p_coup


def _remedy_score(t: _Table, remedy: Card) -> float:
    me = t.me
    if remedy is Card.END_OF_LIMIT:
        if not me.can_go:
            return 300.0  # a stopped turn put to use
        if t.my_left <= 50:
            return 20.0  # 25s and 50s finish the trip anyway
        if any(m > 50 for m in t.usable_distances()):
            return EOL_WAITING
        return 120.0
    # Gasoline, Spare Tire and Repairs are only legal on their hazard, Go only when needed.
    return REMEDY


# --- what a card in hand is worth keeping ---------------------------------------------------


def _keep_value(t: _Table, card: Card) -> float:
    """The worth of the copy we would discard (the last of several copies is worth least)."""
    copies = t.held[card]
    me = t.me
    if card.is_distance:
        return _distance_keep(t, card, copies)
    if card.is_hazard:
        if SAFETY_FOR[card] in t.them.safeties:
            return 0.0
        if card is Card.SPEED_LIMIT:
            return KEEP_LIMIT * 0.8 ** (copies - 1)
        base = KEEP_STOP if card is Card.STOP else KEEP_HAZARD
        if t.unseen[REMEDY_FOR[card]] <= 2:
            base += 20.0
        return base * 0.9 ** (copies - 1)
    if card is Card.GO or card is Card.END_OF_LIMIT:
        if Card.RIGHT_OF_WAY in me.safeties:
            return 0.0
        backup = 0.5 if Card.RIGHT_OF_WAY in t.held else 1.0
        if card is Card.GO:
            return backup * KEEP_GO[min(copies, 3) - 1]
        threats = t.unseen[Card.SPEED_LIMIT] + (1 if me.limited else 0)
        if threats == 0:
            return 0.0
        return backup * ((KEEP_EOL + KEEP_EOL_PER * threats) if copies == 1 else KEEP_SPARE_COPY)
    # Gasoline, Spare Tire, Repairs.
    hazard = HAZARD_FOR[card]
    safety = SAFETY_FOR[hazard]
    if safety in me.safeties:
        return 0.0
    threats = t.unseen[hazard] + (1 if me.battle_top is hazard else 0)
    if threats == 0:
        return 0.0
    if safety in t.held:
        return 5.0  # the safety will parry it, as a coup fourré at that
    return (KEEP_REMEDY + KEEP_REMEDY_PER * threats) if copies == 1 else KEEP_SPARE_COPY


def _distance_keep(t: _Table, card: Card, copies: int) -> float:
    miles = card.miles
    if miles > t.my_left:
        # It cannot fit this trip (an extension might, later): nearly worthless.
        return 2.0 if t.target == TRIP and not t.view.public.extension_called else 0.0
    if card is Card.D200 and copies > t.two_hundreds_left:
        return 0.0
    value = KEEP_DISTANCE[miles] * 0.8 ** (copies - 1)
    if t.my_left <= 300:
        plan = t.exact_plan(t.my_left)
        if plan is not None and plan[miles] >= copies:
            value += KEEP_IN_PLAN
    if t.my_left % 50 == 25 and miles in (25, 75) and copies == 1:
        odd = sum(t.held[c] for c in (Card.D25, Card.D75))
        if odd == 1:
            # An odd remainder needs a 25 or a 75 some time: keep our only one.
            value += KEEP_ODD
    # Distance beyond what the trip can still take is spare.
    total = sum(t.usable_distances())
    if total - miles >= t.my_left + 100:
        value *= 0.6
    return value


# --- the extension ------------------------------------------------------------------------


def _wants_extension(t: _Table) -> bool:
    """Go on to 1000 only when clearly ahead in tempo with deck to spare."""
    me, them = t.me, t.them
    public = t.view.public
    mine = t.hand_points(me, them, completed=True)
    theirs = t.hand_points(them, me, completed=False)
    if public.match_target is None:
        if mine > theirs:
            return False  # a single hand: stopping now wins it
    else:
        total = me.score + mine
        if total >= public.match_target and total > them.score + theirs:
            return False  # stopping now wins the match
    if them.mileage == 0:
        return False  # the 500-point shut-out is ours if we stop now
    if t.deck < EXT_MIN_DECK or not me.can_go:
        return False
    if me.limited and Card.END_OF_LIMIT not in t.held:
        return False
    # Distance in hand that fits the 300 extra miles (limits ignored: we just checked them).
    spare = sorted((c.miles for c in t.hand if c.is_distance and c.miles <= 300), reverse=True)
    ready = 0
    two_hundreds = me.two_hundreds
    for miles in spare:
        if miles == 200:
            if two_hundreds >= 2:
                continue
            two_hundreds += 1
        ready += miles
    far_behind = them.mileage <= EXT_FAR
    stuck = not them.can_go and them.mileage <= EXT_STUCK
    return ready >= EXT_READY and (far_behind or stuck)

"""``normal``: the card-counting Mille Bornes computer player.

It plays at least as well as the BSD ``mille`` program's computer and, like it, knows only what it
has seen (docs/rules/mille.md, Rulings): its own hand, every card on both tableaus and in the
discard pile, and the composition of the deck. Subtracting those from the deck gives the *unseen*
cards — the ones still in the draw pile or in the opponent's hand — and every estimate below is made
from them.

How it plays, in order of urgency:

- A coup fourré is always taken, and a safety that parries a hazard showing on its own piles is
  played at once (it also earns another turn).
- Other safeties are hoarded for coups fourrés. One is played early only when no hazard it
  protects against is still unseen, when the deck is almost out or it is about to complete the
  trip itself (a safety still in hand at the end of a hand scores nothing), when the chance that
  the opponent ends the hand next turn outweighs the coup it might still win (held: 100, plus
  300 times the coup chance, unless the hand ends first; played: 100 and another turn), or when
  the only alternative is discarding a card worth more than the coups it might still win.
- Hazards go on the opponent when they hurt: valued by how likely the opponent holds or soon
  draws the remedy and how likely they hold the safety (a coup fourré against us). Players keep
  their safeties — they can never be discarded — so an unseen safety is in the opponent's hand
  with the chance that it was among the cards they drew this hand, not their hand's share of
  the unseen cards.
- Remedies and Go when stopped; End of Limit when bigger distance is waiting.
- Distance: the biggest card that keeps the exact-700 arithmetic closable (it plans exact
  finishes with the hand and avoids leaving 25s it may never see), skipping 200s while the safe
  trip bonus is cheap to keep. A gap that is hard to close exactly only counts for the extra
  wait it adds to the gap we already have (never longer than our draws left), and not at all
  when the opponent may complete the trip next turn: then miles are simply points, and it
  drives rather than discards.
- Discards: cards it can never use first, then extra copies, then the cards least likely to
  matter given the unseen counts.
- The extension: only when clearly ahead in tempo with deck to spare.

Each decision is a handful of arithmetic over a dozen cards: well under a millisecond.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import chain, product
from typing import Any

from bot.ai.base import Policy
from bot.ai.mille_seat import FaceDown, SeatFacts, Side, state_facts, view_facts
from bot.engine.mille.cards import (
    HAZARD_FOR,
    HAZARD_SET,
    HAZARDS_STOPPED_BY,
    MILES_OF,
    REMEDY_FOR,
    SAFETY_FOR,
    SAFETY_SET,
    Card,
    deck_counts,
)
from bot.engine.mille.rules import legal_actions
from bot.engine.mille.state import DECLINE_EXTENSION, EXTEND, Action, MilleState, Phase
from bot.engine.mille.views import MilleSeatView

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
COUP_RISK = 400.0  # times the chance they parry it: 300 for them plus the turn we waste
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
SAFETY_POINTS = 100.0  # a safety in play at the end of the hand
COUP_POINTS = 300.0  # a safety played as a coup fourré
EXTRA_TURN = 100.0  # a safety played in one's own turn gives another turn (a card's worth)

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


@cache
def _deck_size(name: str) -> int:
    return sum(deck_counts(name).values())


@cache
def _deck_items(name: str) -> tuple[tuple[Card, int], ...]:
    """Each card of the named deck with its count, in deck order (read once per deck)."""
    return tuple(deck_counts(name).items())


_PARSED: dict[str, tuple[str, Card | None]] = {}


def _parse(text: str) -> tuple[str, Card | None]:
    """The verb and card of a legal action's canonical notation (``play 100``, ``draw``)."""
    found = _PARSED.get(text)
    if found is None:
        verb, _, rest = text.partition(" ")
        found = (verb, Card(rest)) if verb in ("play", "discard") else (verb, None)
        if len(_PARSED) < 256:  # canonical notations only: a few dozen at most
            _PARSED[text] = found
    return found


class _Table:
    """What the seat knows, read once (``mille_seat``): piles, distances, unseen cards; and the
    moves it may make, as (verb, card) pairs."""

    def __init__(self, facts: SeatFacts, moves: Sequence[tuple[str, Card | None]] = ()) -> None:
        self.facts = facts
        self.moves = moves
        self._plays: frozenset[Card] | None = None
        self.me: Side = facts.me
        self.them: Side = facts.them
        self.hand = facts.hand
        self.held = Counter(facts.hand)
        self.target = facts.target
        self.my_left = self.target - self.me.mileage
        self.their_left = self.target - self.them.mileage
        self.deck = facts.deck
        self._threat: float | None = None
        self._wait_now: float | None = None
        self._usable: dict[Card | None, list[int]] = {}
        self._plans: dict[tuple[int, Card | None, bool], Counter[int] | None] = {}
        face_down = facts.face_down
        if face_down is None:
            self.unseen = self._count_unseen()
            self.unseen_total = sum(self.unseen.values())
        else:
            self.unseen = face_down.unseen(facts.hand)
            self.unseen_total = face_down.total - len(facts.hand)
        self.safe_trip_alive = self.me.two_hundreds == 0
        self.two_hundreds_left = 2 - self.me.two_hundreds
        deck_size = _deck_size(facts.deck_name)
        # Cards that left the draw pile so far (the deal included), about half of them drawn by
        # each player: the opponent has seen about this many cards this hand.
        self.their_drawn = (deck_size - self.deck) / 2
        self.draws_left = (self.deck + 1) // 2  # our own draws still to come

    def _count_unseen(self) -> Counter[Card]:
        """Cards of the deck not yet seen: in the draw pile or in the opponent's hand."""
        facts = self.facts
        a, b = self.me, self.them
        # A coup fourré's safety is also listed among the safeties: count it once.
        seen = Counter(
            chain(
                facts.hand,
                facts.discard,
                a.battle_pile,
                a.speed_pile,
                a.safeties,
                a.miles,
                b.battle_pile,
                b.speed_pile,
                b.safeties,
                b.miles,
            )
        )
        get = seen.get
        unseen: Counter[Card] = Counter()
        for card, n in _deck_items(facts.deck_name):
            left = n - get(card, 0)
            if left > 0:
                unseen[card] = left
        return unseen

    def plays(self) -> frozenset[Card]:
        """The cards we may play now."""
        if self._plays is None:
            self._plays = frozenset(card for verb, card in self.moves if verb == "play" and card)
        return self._plays

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

    def p_they_keep(self, safety: Card) -> float:
        """Chance the opponent holds ``safety``, knowing players keep their safeties.

        A safety is never discarded, so an unseen one is either still in the draw pile or was
        drawn by the opponent and kept: its chance of being in their hand is their share of the
        cards drawn so far, not their hand's share of the unseen cards.
        """
        if not self.unseen[safety]:
            return 0.0
        drawn = self.their_drawn
        kept = drawn / max(drawn + self.deck, 1.0)
        return max(kept, self.p_they_hold(safety))

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
        return self.end_threat() > 0.0

    def end_threat(self) -> float:
        """The chance the opponent completes the trip with one card on their next turn."""
        if self._threat is None:
            self._threat = self._end_threat()
        return self._threat

    def _end_threat(self) -> float:
        them = self.them
        closer = _MILES_CARD.get(self.their_left)
        if closer is None or not self.unseen[closer]:
            return 0.0  # no single card closes their gap, or we have seen every one
        if closer is Card.D200 and them.two_hundreds >= 2:
            return 0.0
        # They hold the closer now or draw it next turn.
        p_closer = self.p_they_hold(closer, 1)
        if them.limited and closer.miles > 50:
            # Only Right of Way lifts the limit and still leaves them a turn to drive.
            return p_closer * self.p_they_keep(Card.RIGHT_OF_WAY)
        if them.can_go:
            return p_closer
        # Stopped: a safety (a coup fourré or not) gives them another turn and may let them go.
        top = them.battle_top
        if top is not None and top.is_hazard:
            return p_closer * self.p_they_keep(SAFETY_FOR[top])
        return p_closer * self.p_they_keep(Card.RIGHT_OF_WAY)

    def tight_race(self) -> bool:
        """Is tempo worth more than the safe-trip bonus right now?"""
        if self.deck <= 15:
            return True
        return self.them.can_go and self.their_left <= self.my_left + 100

    def usable_distances(self, without: Card | None = None) -> list[int]:
        """Miles of the distance cards in hand that could still fit this trip."""
        found = self._usable.get(without)
        if found is None:
            found = self._usable[without] = self._usable_distances(without)
        return found

    def _usable_distances(self, without: Card | None) -> list[int]:
        cards = list(self.hand)
        if without is not None:
            cards.remove(without)
        get = MILES_OF.get
        miles = sorted((m for m in map(get, cards) if m is not None), reverse=True)
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
        key = (left, without, no_200)
        if key in self._plans:
            return self._plans[key]
        found = self._plans[key] = self._exact_plan(left, without, no_200)
        return found

    def _exact_plan(self, left: int, without: Card | None, no_200: bool) -> Counter[int] | None:
        if left <= 0:
            return Counter() if left == 0 else None
        usable = self.usable_distances(without)
        if no_200:
            usable = [miles for miles in usable if miles != 200]
        return _fewest_cards(left, tuple(usable))

    def capped_wait(self, left: int, without: Card | None) -> float:
        """``gap_wait``, but no longer than the hand can last for us: our draws left, and about
        one turn over the chance that the opponent ends it next turn."""
        threat = self.end_threat()
        limit = float(self.draws_left + 1)
        if threat > 0.0:
            limit = min(limit, 1.0 / threat)
        return min(self.gap_wait(left, without), limit)

    def wait_now(self) -> float:
        """The wait the gap we have now already holds. A long gap is no better than what its
        best distance card would leave, since that gap must be closed too."""
        if self._wait_now is None:
            left = self.my_left
            if left < GAP_HORIZON:
                self._wait_now = self.capped_wait(left, None)
            else:
                waits = [
                    self.capped_wait(left - miles, _MILES_CARD[miles])
                    for miles in set(self.usable_distances())
                    if miles < left
                ]
                self._wait_now = min(waits, default=0.0)
        return self._wait_now

    def gap_wait(self, left: int, without: Card | None) -> float:
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

    def hand_points(self, side: Side, other: Side, completed: bool) -> int:
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
            if self.facts.extension_called:
                points += 200
            if other.mileage == 0:
                points += 500
        return points


_MILES_CARD = {card.miles: card for card in Card if card.is_distance}


@lru_cache(maxsize=4096)
def _fewest_cards(left: int, usable: tuple[int, ...]) -> Counter[int] | None:
    """The fewest of the ``usable`` distances (miles, one per card) summing exactly to
    ``left`` (None if none do). Cached: a search meets the same few hands again and again,
    and the answer depends on nothing else. Shared between tables, so read it, never change
    it."""
    held = Counter(usable)
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


class NormalMillePolicy(Policy):
    """The card-counting computer opponent for Mille Bornes."""

    name = "normal"

    def choose(self, view: Any, rng: random.Random) -> str:
        """The best scoring legal action; deterministic, so ``rng`` is never drawn from."""
        if not isinstance(view, MilleSeatView):
            raise TypeError("The normal Mille Bornes player needs a Mille Bornes seat view.")
        legal = view.legal
        if not legal:
            raise ValueError("The normal Mille Bornes player was asked to act with no move.")
        if len(legal) == 1:
            return legal[0]
        if view.phase == "extension":
            wants = _wants_extension(_Table(view_facts(view)))
            return "extend yes" if wants else "extend no"
        if view.phase == "draw":
            # The only plays offered before drawing parry a hazard on us: always take them
            # (a coup fourré is worth 300, and the draw afterwards takes an extra card).
            for text in legal:
                if text.startswith("play "):
                    return text
            return legal[0]
        moves = [_parse(text) for text in legal]
        return legal[_best(_Table(view_facts(view), moves))]

    def rank(self, view: MilleSeatView) -> list[str]:
        """Every legal move, this player's choice first, then the rest by its liking."""
        legal = list(view.legal)
        if len(legal) <= 1:
            return legal
        first = self.choose(view, random.Random(0))
        if view.phase == "act":
            table = _Table(view_facts(view), [_parse(text) for text in legal])
            scores = {text: _score(table, *_parse(text)) for text in legal}
            legal.sort(key=lambda text: -scores[text])
        return [first, *(text for text in legal if text != first)]


def search_action(state: MilleState, seat: int, face_down: FaceDown | None = None) -> Action:
    """What ``choose`` plays for ``seat`` (the seat to act) in ``state``, read straight off the
    state (``mille_seat``): for a search's rollouts only, which own their imagined states.

    The same decisions as ``choose(private_view(state, seat))`` for the same state (a test holds
    them to it), without building the view: its captions, tableau copies and move notation.
    A rollout passes its running count of the cards not yet face up (``FaceDown``)."""
    actions = legal_actions(state, seat)
    if not actions:
        raise ValueError("The normal Mille Bornes player was asked to act with no move.")
    if len(actions) == 1:
        return actions[0]
    phase = state.phase
    if phase is Phase.EXTENSION:
        table = _Table(state_facts(state, seat, face_down))
        return EXTEND if _wants_extension(table) else DECLINE_EXTENSION
    if phase is Phase.DRAW:
        for action in actions:
            if action.verb == "play":
                return action
        return actions[0]
    moves = [(action.verb, action.card) for action in actions]
    return actions[_best(_Table(state_facts(state, seat, face_down), moves))]


def _best(table: _Table) -> int:
    """The index of the best scoring move; ties keep the engine's order, so the choice is
    deterministic given the table.

    A discard scores minus the worth of keeping its card, never above zero, so once a play
    scores above zero no discard can win and they are not scored at all (``rank`` scores
    every move)."""
    moves = table.moves
    best = -1
    best_score = 0.0
    for index, (verb, card) in enumerate(moves):
        if verb != "discard":
            score = _score(table, verb, card)
            if best < 0 or score > best_score:
                best, best_score = index, score
    if best >= 0 and best_score > 0.0:
        return best
    scores = [_score(table, verb, card) for verb, card in moves]
    return max(range(len(scores)), key=scores.__getitem__)


# --- scoring candidate actions --------------------------------------------------------------


def _score(t: _Table, verb: str, card: Card | None) -> float:
    if card is None:
        return 0.0
    if verb == "discard":
        return -_keep_value(t, card)
    if card in SAFETY_SET:
        return _safety_score(t, card)
    if card in MILES_OF:
        return _distance_score(t, card)
    if card in HAZARD_SET:
        return _hazard_score(t, card)
    return _remedy_score(t, card)


def _safety_score(t: _Table, safety: Card) -> float:
    me = t.me
    shown = [c for c in (me.battle_top, me.speed_top) if c in HAZARD_SET]
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
    if t.deck <= DUMP_DECK or any(
        MILES_OF.get(c, 0) == t.my_left and c in t.plays() for c in t.held
    ):
        # The hand is about to end (we complete the trip, or the deck is out): cash it first.
        return DUMP_SAFETY
    # Held, it scores 100 (300 more as a coup fourré) unless the hand ends first; played now
    # it scores 100 for sure and gives another turn. Cash it only when the end is likely.
    p_end = t.end_threat()
    if (1.0 - p_end) * (SAFETY_POINTS + COUP_POINTS * chance) <= SAFETY_POINTS + EXTRA_TURN:
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
    # A short gap we may never close exactly costs whole turns at the end of the hand, but so
    # does the gap we have now: only the extra wait counts, never more than the hand can last.
    # When the opponent may end the hand next turn, miles are simply points.
    extra_wait = t.capped_wait(after, card) - t.wait_now()
    if extra_wait > 0.0:
        score -= TURN_WORTH * extra_wait * (1.0 - t.end_threat())
    if t.me.mileage == 0 and t.their_left <= SHUTOUT_WATCH:
        # Any miles at all spare us the opponent's 500-point shut-out.
        score += SHUTOUT_ESCAPE
    return score


def _hazard_score(t: _Table, hazard: Card) -> float:
    them = t.them
    safety = SAFETY_FOR[hazard]
    # They parry it as a coup fourré only with the safety already in hand (and players keep
    # their safeties for exactly that).
    p_coup = t.p_they_keep(safety)
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
    if card in MILES_OF:
        return _distance_keep(t, card, copies)
    if card in HAZARD_SET:
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
    miles = MILES_OF[card]
    if miles > t.my_left:
        # It cannot fit this trip (an extension might, later): nearly worthless.
        return 2.0 if t.target == TRIP and not t.facts.extension_called else 0.0
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
    match_target = t.facts.match_target
    mine = t.hand_points(me, them, completed=True)
    theirs = t.hand_points(them, me, completed=False)
    if match_target is None:
        if mine > theirs:
            return False  # a single hand: stopping now wins it
    else:
        total = me.score + mine
        if total >= match_target and total > them.score + theirs:
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

"""``normal``: the Ticket to Ride card game computer player (standard and solo).

It decides from the seat's private view alone: its hand, its tickets, every Railyard, the draw
area and the public counts. It never sees an On-the-Track stack — its own included — so it
estimates its own from its size, as the colours its tickets need (it only ever plays those).

How it plays:

- Tickets: every subset of the offer is valued as ``points × (2·P − 1)``, where ``P`` is a rough
  chance of completing the whole plan, from how many cards it needs against how many it can
  hope to get on its track (``_capacity``) and how well its hand already covers the colours.
- Standard game, first deck: the On-the-Track stacks go back into the second deck (unless the
  ``tracks`` option keeps them: docs/rules/ttr.md, The end), so it hoards — it draws,
  Locomotives and needed colours first.
- Second deck and solo: the track is what scores, and each Railyard set feeds it one card a
  turn. It plays the set that puts the most needed cards on the track before the end (counting
  the turns left), Locomotives first, preferring sets that rob a rival and sets too big to be
  robbed; when no set is worth it, it draws.
- Solo: it keeps clear of colours the draw area could rob, and knows exactly how many turns
  are left. Its own stack is face down, so it guesses how much of it serves its tickets; that
  guess is cautious (``SOLO_TRACK_SHARE``): a hopeful one had it drawing to the end with the
  cards its tickets lacked still in hand. In the last two turns a drawn card can no longer
  reach the track, so it plays what it holds instead. It values a ticket's Big Cities by the
  chance that the six hidden tickets, drawn from those it has not seen, touch each of them no
  more often than its plan does (a tie scores the bonus).
  Measured (``junction arena ttr-solo --policies normal --games 1000 --seed 1``): mean score
  28.8 before these three, 43.5 after; leaving one out costs 9.7 (the guess), 3.6 (the last
  turns) and 1.1 (the cities), each ± 0.3–0.5 on the same deals. Still no win: on the 24 of
  those deals that a search seeing every card could win, 37.1 before and 57.0 after.

Every decision is arithmetic over a few dozen numbers: well under a millisecond.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Any

from bot.ai.base import Policy
from bot.engine.ttr.cards import (
    CARD_CODES,
    CITY_BONUS,
    COLOURS,
    KINDS,
    LOCO,
    NCOL,
    TICKETS,
    Ticket,
)
from bot.engine.ttr.notation import parse_action
from bot.engine.ttr.state import BLIND, CLOCK, Action
from bot.engine.ttr.views import TtrPublicView, TtrSeatView

POINTS_PER_CARD = 1.8  # a ticket is worth about this much per card it needs
# The share of its On-the-Track stack a seat counts as serving its tickets, colour cards and
# Locomotives. Solo is cautious (measured on deals 1-1000: 0.8 and 0.2 there scored 33.8, these
# 43.5): the stack is face down and an over-hopeful guess stops the plays that finish tickets.
TRACK_SHARE = (0.8, 0.2)
SOLO_TRACK_SHARE = (0.3, 0.1)


@lru_cache(maxsize=1 << 16)
def _parsed(text: str) -> Action:
    """Legal notation read back (cached: the same plays come up turn after turn)."""
    return parse_action(text)


def _view(view: Any) -> TtrSeatView:
    if not isinstance(view, TtrSeatView):
        raise TypeError("the Ticket to Ride player needs a Ticket to Ride seat view")
    return view


class _Table:
    """What the player knows and estimates, worked out once per decision."""

    def __init__(self, view: TtrSeatView) -> None:
        self.view = view
        pub: TtrPublicView = view.public
        self.pub = pub
        self.seat = view.seat
        self.solo = pub.solo
        me = pub.seats[view.seat]
        self.me = me
        self.hand = list(view.hand)
        self.active = [s for s in pub.seats if not s.left]
        self.rivals = [s for s in self.active if s.seat != view.seat]
        self.yard = [0] * NCOL
        self.yard_locos = [0] * NCOL
        for ys in me.yard:
            c = COLOURS.index(ys.colour)
            self.yard[c] = ys.naturals
            self.yard_locos[c] = ys.locos
        self.face_up = [0] * KINDS
        for code in pub.slots:
            if code is not None:
                self.face_up[CARD_CODES.index(code)] += 1
        if pub.clock_card is not None:
            self.face_up[CARD_CODES.index(pub.clock_card)] += 1
        self.turns_left = self._turns_left()
        self.rival_sets = [0] * NCOL  # cards rivals would lose if we robbed that colour
        for rival in self.rivals:
            for ys in rival.yard:
                self.rival_sets[COLOURS.index(ys.colour)] += ys.size
        self.threat = min(2.0, max((r.hand_count for r in self.rivals), default=0) / 10.0)
        # First deck, the tracks to be reshuffled: nothing played now will score (it all goes
        # back into the second deck), so the hand is built up instead.
        self.hoarding = not self.solo and pub.deck_number == 1 and not pub.keep_tracks
        self.demand = _demand(view.tickets)
        self.need = [float(d) for d in self.demand] + [0.0] if self.hoarding else self._need()
        covered = sum(min(self.hand[c], self.demand[c]) for c in range(NCOL)) + self.hand[LOCO]
        self.covered = covered >= sum(self.demand) + 2

    def _turns_left(self) -> int:
        """How many more times this seat's Railyard feeds its track before the end."""
        pub = self.pub
        if self.solo:
            return max(0, pub.clock_turns - pub.clock_turn)
        per_round = 1.3 * max(1, len(self.active))
        if pub.deck_number == 1 and not pub.keep_tracks:
            return 12  # the whole second deck is still to come
        if pub.final_round:
            return 0 if pub.keep_tracks else 12
        return max(0, math.ceil(pub.deck_count / per_round))

    def _need(self) -> list[float]:
        """Per colour (and Locomotives as index 8, always 0), the cards the kept tickets still
        need on the track, after the estimated track and what the Railyard will deliver."""
        total = sum(self.demand)
        track = self.me.track_count
        need = [0.0] * KINDS
        colour_share, loco_share = SOLO_TRACK_SHARE if self.solo else TRACK_SHARE
        locos_on_track = loco_share * track
        for c in range(NCOL):
            share = self.demand[c] / total if total else 0.0
            on_track = colour_share * track * share
            flowing = min(self.yard[c] + self.yard_locos[c], self.turns_left)
            need[c] = max(0.0, self.demand[c] - on_track - flowing)
        # Locomotives on the track (and flowing) cover any colour: take them off the largest.
        spare = locos_on_track
        for c in sorted(range(NCOL), key=lambda c: -need[c]):
            used = min(spare, need[c])
            need[c] -= used
            spare -= used
        return need

    def card_value(self, card: int) -> float:
        """How much one more card of this kind in hand is worth now."""
        if card == LOCO:
            return 1.6 if sum(self.need) > 0 else 0.8
        have = self.hand[card]
        missing = self.need[card] - have
        if missing > 0:
            return 1.0 + min(missing, 3) * 0.1
        return 0.25 if self.demand[card] else 0.1


def _demand(tickets: tuple[Ticket, ...] | list[Ticket]) -> list[int]:
    demand = [0] * NCOL
    for t in tickets:
        for c, n in enumerate(t.need):
            demand[c] += n
    return demand


ROOM_FOR_TICKETS = 8  # cards to spare before more tickets are worth drawing
# A draw that can no longer score: below any Railyard play that still feeds a needed card.
DEAD_DRAW = -2.0


def _capacity(t: _Table) -> float:
    """Roughly how many cards this seat can hope to get on its track by the end."""
    pub = t.pub
    if t.solo:
        return 4.0 + 1.2 * t.turns_left
    if pub.deck_number == 1:
        return {2: 24.0, 3: 20.0, 4: 17.0}.get(len(t.active), 20.0)
    return 1.5 * t.turns_left + t.me.track_count + sum(t.yard) + sum(t.yard_locos)


def _plan_value(t: _Table, tickets: list[Ticket]) -> float:
    """The expected points of holding ``tickets`` (plus a little for Big Cities)."""
    if not tickets:
        return 0.0
    demand = _demand(tickets)
    cards = sum(demand)
    hand = t.hand
    have = sum(min(hand[c], demand[c]) for c in range(NCOL)) + hand[LOCO]
    colours = sum(1 for d in demand if d)
    capacity = _capacity(t)
    slack = capacity - cards - 0.6 * colours + 0.25 * min(have, cards)
    chance = 1.0 / (1.0 + math.exp(-slack / 2.5))
    points = sum(ticket.points for ticket in tickets)
    if t.solo:
        cities = _solo_city_bonus(t, tickets)
    else:
        cities = sum(CITY_BONUS[c] for ticket in tickets for c in ticket.cities) * 0.15
    return points * (2.0 * chance - 1.0) + cities * chance


def _solo_city_bonus(t: _Table, tickets: list[Ticket]) -> float:
    """Solo: the Big City bonus ``tickets`` can expect once completed. A city scores when the
    hidden tickets touch it no more often than the plan (a tie scores for both sides); they are
    drawn from the tickets this seat has not seen, so each city's chance is hypergeometric."""
    seen = {ticket.index for ticket in t.view.tickets} | {ticket.index for ticket in t.view.offered}
    pool = [ticket for ticket in TICKETS if ticket.index not in seen]
    hidden = min(t.pub.hidden_ticket_count, len(pool))
    mine = [0] * len(CITY_BONUS)
    for ticket in tickets:
        for c in ticket.cities:
            mine[c] += 1
    expected = 0.0
    for c, count in enumerate(mine):
        if count:
            touching = sum(1 for ticket in pool if c in ticket.cities)
            expected += CITY_BONUS[c] * _at_most(len(pool), touching, hidden, count)
    return expected


@lru_cache(maxsize=1 << 12)
def _at_most(pool: int, marked: int, drawn: int, most: int) -> float:
    """The chance that ``drawn`` tickets dealt from ``pool``, ``marked`` of them touching a
    city, hold at most ``most`` of those (hypergeometric)."""
    ways = sum(
        math.comb(marked, k) * math.comb(pool - marked, drawn - k)
        for k in range(min(most, marked, drawn) + 1)
    )
    return ways / math.comb(pool, drawn)


def choose_keep(t: _Table, legal: list[tuple[str, Action]]) -> str:
    kept = list(t.view.tickets)
    offered = {ticket.index: ticket for ticket in t.view.offered}
    best_text, best_value = legal[0][0], -math.inf
    base = _plan_value(t, kept)
    for text, action in legal:
        plan = kept + [offered[i] for i in action.tickets]
        value = _plan_value(t, plan) - base - 0.01 * len(action.tickets)
        if value > best_value:
            best_text, best_value = text, value
    return best_text


def _take_value(t: _Table, action: Action, second: bool) -> float:
    pub = t.pub
    if action.slot == BLIND:
        mean = sum(t.card_value(c) * (16 if c == LOCO else 10) for c in range(KINDS)) / 96
        return mean if _scores_later(t) else DEAD_DRAW
    code = pub.clock_card if action.slot == CLOCK else pub.slots[action.slot - 1]
    assert code is not None
    card = CARD_CODES.index(code)
    value = t.card_value(card)
    if card == LOCO and not second:
        # It ends the draw: worth it only against the best pair of other cards.
        others = sorted((t.card_value(CARD_CODES.index(c)) for c in pub.slots if c), reverse=True)
        pair = (others[0] if others else 0.5) + 0.6
        value = 2.0 * value - pair + 0.4
    return value if _scores_later(t) else DEAD_DRAW


def _scores_later(t: _Table) -> bool:
    """Whether a card drawn now can still reach the track. Solo: one drawn with one turn left
    or none could only join a set played on the last turn, which feeds nothing."""
    return not (t.solo and t.turns_left <= 1)


def _yard_value(t: _Table, action: Action) -> float:
    """Needed cards this play delivers to the track before the end, robbery and risk."""
    turns = t.turns_left
    if turns <= 0:
        return -1.0
    sets = (
        [(c, 1, 0) for c in action.singles]
        if action.singles
        else [(action.colour, action.naturals, action.locos)]
    )
    value = 0.0
    need = list(t.need)
    spare_need = sum(need)
    for c, n, k in sets:
        size = n + k
        delivered = min(size, turns)
        locos = min(k, delivered)
        natural = delivered - locos
        useful_nat = min(natural, need[c])
        useful_locos = min(locos, max(0.0, spare_need - useful_nat))
        value += 2.0 * (useful_nat + useful_locos)
        value -= 0.4 * (size - delivered) + 0.6 * k * (1 if useful_locos < locos else 0)
        spare_need -= useful_nat + useful_locos
        need[c] -= useful_nat
        if t.solo:
            if size <= 2:
                value -= 0.8  # small sets are easily robbed by the draw area
            value += 0.3 * t.face_up[c]  # robbing the draw area thins it
        else:
            value += 0.9 * t.rival_sets[c]  # their loss
            if size <= 2:
                value -= 0.5 * t.threat
    return value


class NormalTtrPolicy(Policy):
    """Plans tickets it can complete and feeds its On-the-Track stack with what they need."""

    name = "normal"

    def choose(self, view: Any, rng: random.Random) -> str:
        v = _view(view)
        legal = list(v.legal)
        if not legal:
            raise ValueError("The Ticket to Ride player was asked to act with no legal action.")
        if len(legal) == 1:
            return legal[0]
        parsed = [(text, _parsed(text)) for text in legal]
        t = _Table(v)
        if parsed[0][1].kind == "keep":
            return choose_keep(t, parsed)
        second = v.phase == "pick2"
        best_text, best_value = legal[0], -math.inf
        for text, action in parsed:
            if action.kind == "take":
                value = _take_value(t, action, second)
                if t.hoarding or not second:
                    value += 0.0
            elif action.kind == "yard":
                value = _junk_value(t, action) if t.hoarding else _yard_value(t, action) - 1.2
            elif action.kind == "tickets":
                # Now and then only: a draw kept none of leaves the table unchanged, and a
                # player without memory would otherwise draw the same way forever.
                value = _ticket_draw_value(t) if rng.random() < 0.35 else -5.0
            else:
                value = -10.0
            if value > best_value:
                best_text, best_value = text, value
        return best_text


def _junk_value(t: _Table, action: Action) -> float:
    """First deck, the tracks to be reshuffled: once the hand covers the tickets, colours nobody
    needs are better fed to the second deck (it is made of everything but the hands) than kept."""
    if not t.covered or action.locos:
        return -5.0
    colours = action.singles or (action.colour,)
    spare = 0
    for c in colours:
        count = 1 if action.singles else action.naturals
        if t.hand[c] - count < t.demand[c]:
            return -5.0
        spare += count
    return 0.35 * spare


def _ticket_draw_value(t: _Table) -> float:
    """Drawing tickets pays when the current plan leaves room for more."""
    cards = sum(t.demand)
    room = _capacity(t) - cards
    if t.pub.ticket_deck_count < 1 or room < ROOM_FOR_TICKETS:
        return -5.0
    if not t.solo and t.pub.deck_number == 1:
        return 0.6 + 0.05 * room
    return 0.05 * room - 0.5

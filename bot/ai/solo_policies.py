"""Computer players for Mille Bornes Solo: ``greedy``, ``expert`` and the player's ``hint``.

``greedy`` is the simple player that always takes the first pair it finds: it plays the first
move the engine lists (highway 1 to 7, hand cards in card order, a sacrifice last), the
yardstick the win rates on docs/rules/solo.md (Play) were measured with.

``expert`` maximises the chance of clearing all 49 cards, from the player's view alone: the
hand, the highway tops and depths, the claimed distance cards, the discard pile and the tank's
size (and, after a refuel, the tank's contents, which were all seen in the discard pile). Cards
not in sight are the face-down highway cards and the tank, and every estimate comes from their
counts. How it decides:

- Obvious choices are made without searching: a sacrifice is never made while a hand card of
  the same value could clear that top (the hand card moves in front of you instead, where no
  wipe can take it, and the miles stay), and outside the easy preset a safety — good for
  nothing but 200s — takes a 200 before a 200 from the hand does.
- Otherwise it searches. Several samples of the hidden cards are drawn from the unseen counts
  (the face-down cards and the tank's order; perfect-information Monte Carlo), and in each a
  depth-first search over the sequences of clearing moves, memoised on the position, plays out
  the run of moves until the player is stuck, the automatic draw or wipe that follows, and the
  run after it, and keeps the best ending. The first move with the best average wins. Sampling
  the cards a move turns up is what values a newly revealed card by the unseen counts.
- Each ending is scored by the cards cleared, plus what the leftovers are worth: a hand card is
  worth the share of the highway cards still to clear that it can pair with (a hazard whose
  remedies are all still out there is gold; a card nothing can use any more is dead weight that
  brings the next wipe closer), a claimed distance card is kept ammunition for sacrifices, a
  hand of seven is about to be wiped and worth nothing, and a face-up top is better when many
  unseen cards can clear it. Highways are kept open: clearing the last card of a pile costs a
  little, since every open pile is one more top that a drawn card may fit. Clearing all 49
  scores a bonus (with ``require_fuel_left``, only with a card left in the tank).

A decision searches at most a few thousand positions: about 5 ms on average, 100 ms at worst
(measured on easy/modern, where the most moves pair), far under a second.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from dataclasses import dataclass
from typing import Any

from bot.ai.base import Policy
from bot.engine.mille.cards import Card, distance_word
from bot.engine.solo.notation import format_action, parse_action
from bot.engine.solo.rules import claimed_card, pairs
from bot.engine.solo.state import HAND_SIZE, HIGHWAYS, Action
from bot.engine.solo.views import SoloPublicView, SoloSeatView
from bot.engine.words import names, noun

CARDS: tuple[Card, ...] = tuple(Card)
INDEX: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
N = len(CARDS)
D200 = INDEX[Card.D200]
DISTANCE = tuple(i for i, card in enumerate(CARDS) if card.is_distance)
SAFETY = tuple(i for i, card in enumerate(CARDS) if card.is_safety)
MILES = tuple(card.miles for card in CARDS)
SACRIFICE = -1  # the "card" of a sacrifice move in the search

# CLEARERS[easy][t]: the hand cards that clear a top card t.
CLEARERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(c for c in range(N) if pairs(CARDS[c], CARDS[t], easy)) for t in range(N))
    for easy in (False, True)
)

# The search's settings and the worth of what an ending leaves, in cleared cards. Tuned by
# arena runs (``junction arena solo``); the search itself brings most of the gain, and the
# weights below barely move the results within a sensible range.
SAMPLES = 8  # samples of the hidden cards per searched decision
PHASES = 2  # runs of moves searched: this one, and the one after the next automatic draw
NODE_BUDGET = 600  # positions searched per sample; past it the rest is played greedily
W_HAND = 0.55  # a hand card that will surely find a partner
W_CLAIMED = 0.45  # a claimed distance card's worth as sacrifice ammunition
W_TOP = 0.25  # a face-up top that the next draws will surely clear
W_CLOSED = 0.12  # an emptied highway: one top fewer for drawn cards to fit
W_WIN = 3.0  # all 49 cleared in a sample
W_MILE = 0.0002  # miles only break ties: cleared cards rank first


def _public(view: Any) -> SoloPublicView:
    if isinstance(view, SoloSeatView):
        return view.public
    if isinstance(view, SoloPublicView):
        return view
    raise TypeError("a Mille Bornes Solo policy needs a Mille Bornes Solo view")


class GreedySoloPolicy(Policy):
    """The first move in the engine's order: the yardstick of the win rates on the rules page."""

    name = "greedy"

    def choose(self, view: Any, rng: random.Random) -> str:
        legal = _public(view).legal
        if not legal:
            raise ValueError("The greedy player was asked to act with no legal move.")
        return legal[0]


Move = tuple[int, int]  # (highway index 0–6, hand card index or SACRIFICE)


@dataclass
class _Belief:
    """The table as the expert reads it from the view, in small integers."""

    easy: bool
    tops: list[int]  # card index of each highway's top, -1 when cleared
    depths: list[int]
    hand: list[int]  # counts by card index
    claimed: list[int]  # counts by card index (distance cards only)
    face_down: list[int]  # the face-down cards' pool to sample from
    face_down_exact: bool  # True: the pool is exactly the face-down cards (tank known)
    hidden: int  # face-down cards on the highways
    hand_worth: list[float]  # by card index
    claimed_worth: list[float]
    top_ease: list[float]
    strict: bool  # require_fuel_left: a win needs a card left in the tank
    tank_count: int
    tank_cards: list[int]  # the tank's cards when known (after a refuel), else empty


def _belief(view: SoloPublicView) -> _Belief:
    easy = view.preset == "easy"
    hand = [0] * N
    for card in view.hand:
        hand[INDEX[card]] += 1
    claimed = [0] * N
    for card in view.miles:
        claimed[INDEX[card]] += 1
    unseen = view.unseen()
    hidden = view.hidden_count
    if view.tank_known is not None:
        face_down_counts = unseen - Counter(view.tank_known)
        exact = True
    else:
        face_down_counts = unseen
        exact = False
    face_down = [INDEX[card] for card, n in face_down_counts.items() for _ in range(n)]
    face_down.sort()
    tops = [INDEX[h.top] if h.top is not None else -1 for h in view.highways]
    depths = [h.depth for h in view.highways]
    belief = _Belief(
        easy=easy,
        strict=view.require_fuel_left,
        tops=tops,
        depths=depths,
        hand=hand,
        claimed=claimed,
        face_down=face_down,
        face_down_exact=exact,
        hidden=hidden,
        hand_worth=[0.0] * N,
        claimed_worth=[0.0] * N,
        top_ease=[0.0] * N,
        tank_count=view.tank_count,
        tank_cards=[INDEX[card] for card in view.tank_known or ()],
    )
    _value_cards(belief, view, unseen)
    return belief


def _value_cards(b: _Belief, view: SoloPublicView, unseen: Counter[Card]) -> None:
    """What a card is worth to hold, and how easy a top is to clear, from the unseen counts.

    ``remaining[t]``: highway cards of face t still to clear (tops, plus the face-down ones
    estimated from the unseen pool). ``supply[c]``: cards c we hold or may still draw (the
    tank's share of the unseen pool, and the discard pile while a refuel is left).
    """
    pool = sum(unseen.values())
    to_highways = b.hidden / pool if pool and not b.face_down_exact else 1.0
    remaining = [0.0] * N
    supply = [0.0] * N
    for card, n in unseen.items():
        i = INDEX[card]
        if b.face_down_exact:
            down = b.face_down.count(i)
            remaining[i] += down
            supply[i] += n - down
        else:
            remaining[i] += n * to_highways
            supply[i] += n * (1.0 - to_highways)
    for t in b.tops:
        if t >= 0:
            remaining[t] += 1
    if view.refuels_left:
        for card in view.discard:
            supply[INDEX[card]] += 0.5  # comes back only after a refuel, maybe never
    for i in range(N):
        supply[i] += b.hand[i] + b.claimed[i]
    clearers = CLEARERS[b.easy]
    # demand[t]: how many cards compete for each highway card of face t.
    competition = [sum(supply[c] for c in clearers[t]) + b.claimed[t] for t in range(N)]
    for c in range(N):
        share = 0.0
        for t in range(N):
            if remaining[t] and c in clearers[t]:
                share += remaining[t] / max(1.0, competition[t])
        b.hand_worth[c] = min(1.0, share)
    for d in DISTANCE:
        share = remaining[d] / max(1.0, competition[d])
        b.claimed_worth[d] = min(1.0, share)
    fresh = max(1.0, sum(supply) - sum(b.hand) - sum(b.claimed))
    for t in range(N):
        # Chance that seven fresh cards hold a clearer for t, roughly.
        out = sum(supply[c] - b.hand[c] for c in clearers[t])
        b.top_ease[t] = 1.0 - (1.0 - min(1.0, out / fresh)) ** HAND_SIZE


def _moves(
    b: _Belief, tops: list[int], hand: list[int] | tuple[int, ...], claimed: Any
) -> list[Move]:
    """The candidate moves, without the dominated ones (see the module docstring)."""
    moves: list[Move] = []
    clearers = CLEARERS[b.easy]
    for i in range(HIGHWAYS):
        t = tops[i]
        if t < 0:
            continue
        held = [c for c in clearers[t] if hand[c]]
        if t == D200 and not b.easy:
            safeties = [c for c in held if c in SAFETY]
            if safeties:
                held = safeties[:1]  # any safety is as good as another for a 200
        moves.extend((i, c) for c in held)
        if t in DISTANCE and claimed[t] and hand[t] == 0 and not (held and not b.easy):
            moves.append((i, SACRIFICE))
    return moves


class _Search:
    """One sample of the unseen cards, searched depth first with memoisation.

    The sample fixes the face-down cards and the tank's order, so the search can also play
    the automatic draw that follows a stuck position and look ``PHASES`` runs of moves ahead.
    """

    def __init__(self, b: _Belief, piles: list[list[int]], tank: list[int]) -> None:
        self.b = b
        self.piles = piles  # per highway: the top, then the face-down cards top down
        self.tank = tank  # next card drawn first
        self.memo: dict[tuple[Any, ...], float] = {}
        self.nodes = 0

    def value(
        self,
        removed: tuple[int, ...],
        hand: tuple[int, ...],
        claimed: tuple[int, ...],
        drawn: int = 0,
        phase: int = 0,
    ) -> float:
        key = (removed, hand, claimed, drawn, phase)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        self.nodes += 1
        tops = [p[r] if r < len(p) else -1 for p, r in zip(self.piles, removed, strict=True)]
        moves = _moves(self.b, tops, hand, claimed)
        if moves and self.nodes > NODE_BUDGET:
            best = self.value(*self.play(moves[0], removed, hand, claimed, tops), drawn, phase)
        elif moves:
            best = max(
                self.value(*self.play(move, removed, hand, claimed, tops), drawn, phase)
                for move in moves
            )
        elif phase + 1 < PHASES and drawn < len(self.tank) and max(tops) >= 0:
            # Stuck: the engine draws up to seven, or wipes a full hand and draws seven.
            held = sum(hand)
            new_hand = list(hand) if held < HAND_SIZE else [0] * N
            take = min(HAND_SIZE - held if held < HAND_SIZE else HAND_SIZE, len(self.tank) - drawn)
            for card in self.tank[drawn : drawn + take]:
                new_hand[card] += 1
            best = self.value(removed, tuple(new_hand), claimed, drawn + take, phase + 1)
        else:
            best = self.leaf(removed, hand, claimed, tops, drawn)
        self.memo[key] = best
        return best

    @staticmethod
    def play(
        move: Move,
        removed: tuple[int, ...],
        hand: tuple[int, ...],
        claimed: tuple[int, ...],
        tops: list[int],
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        i, c = move
        t = tops[i]
        new_removed = list(removed)
        new_removed[i] += 1
        new_claimed = list(claimed)
        if c == SACRIFICE:
            new_claimed[t] -= 1
            return tuple(new_removed), hand, tuple(new_claimed)
        new_hand = list(hand)
        new_hand[c] -= 1
        if MILES[c]:
            new_claimed[c] += 1  # equal distance, or a 200 on a safety
        elif MILES[t]:
            new_claimed[t] += 1  # a safety takes the 200
        return tuple(new_removed), tuple(new_hand), tuple(new_claimed)

    def leaf(
        self,
        removed: tuple[int, ...],
        hand: tuple[int, ...],
        claimed: tuple[int, ...],
        tops: list[int],
        drawn: int,
    ) -> float:
        b = self.b
        score = float(sum(removed))
        if max(tops) < 0:
            # Everything cleared: a win, unless the strict rule wants fuel left.
            return score + (0.0 if b.strict and drawn >= len(self.tank) else W_WIN)
        if sum(hand) < HAND_SIZE:  # a full hand that cannot move is wiped: worth nothing
            score += W_HAND * sum(n * b.hand_worth[c] for c, n in enumerate(hand) if n)
        score += W_CLAIMED * sum(claimed[d] * b.claimed_worth[d] for d in DISTANCE)
        score += W_MILE * sum(claimed[d] * MILES[d] for d in DISTANCE)
        for t in tops:
            if t >= 0:
                score += W_TOP * b.top_ease[t]
            else:
                score -= W_CLOSED
        return score


def _sample(b: _Belief, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Face-down cards for every pile and an order for the tank, consistent with the view."""
    pool = list(b.face_down)
    rng.shuffle(pool)
    if b.face_down_exact:
        tank = list(b.tank_cards)
        rng.shuffle(tank)
    else:
        tank = pool[b.hidden : b.hidden + b.tank_count]
    piles: list[list[int]] = []
    k = 0
    for top, depth in zip(b.tops, b.depths, strict=True):
        if top < 0:
            piles.append([])
            continue
        below = pool[k : k + depth - 1]
        k += depth - 1
        piles.append([top, *below])
    return piles, tank


def _notation(b: _Belief, move: Move) -> str:
    i, c = move
    if c == SACRIFICE:
        return format_action(Action("sacrifice", i + 1, CARDS[b.tops[i]]))
    return format_action(Action("clear", i + 1, CARDS[c]))


def rank_moves(view: Any, rng: random.Random | None = None) -> list[tuple[str, float]]:
    """Every legal move with the expert's estimate of it, best first (dominated ones last)."""
    public = _public(view)
    if not public.legal:
        return []
    rng = rng or random.Random(_view_seed(public))
    b = _belief(public)
    hand = tuple(b.hand)
    claimed = tuple(b.claimed)
    candidates = _moves(b, b.tops, hand, claimed)
    scores: dict[str, float] = {}
    if len(candidates) == 1:
        scores[_notation(b, candidates[0])] = 0.0
    else:
        totals = dict.fromkeys(candidates, 0.0)
        removed = (0,) * HIGHWAYS
        for _ in range(SAMPLES):
            search = _Search(b, *_sample(b, rng))
            for move in candidates:
                totals[move] += search.value(
                    *search.play(move, removed, hand, claimed, list(b.tops))
                )
        for move, total in totals.items():
            scores[_notation(b, move)] = total / SAMPLES
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    low = min(scores.values()) - 1.0
    ranked += [(text, low) for text in public.legal if text not in scores]
    return ranked


def _view_seed(view: SoloPublicView) -> int:
    # Hints replay: the same table always gets the same advice (crc32, not hash(), which
    # changes from one process to the next).
    table = " ".join([*view.legal, *(c.value for c in view.hand), str(view.tank_count)])
    return zlib.crc32(table.encode())


class ExpertSoloPolicy(Policy):
    """Searches two runs of moves ahead over samples of the hidden cards (see above)."""

    name = "expert"

    def choose(self, view: Any, rng: random.Random) -> str:
        public = _public(view)
        if not public.legal:
            raise ValueError("The expert was asked to act with no legal move.")
        if len(public.legal) == 1:
            return public.legal[0]
        return rank_moves(public, rng)[0][0]


def hint(view: Any) -> tuple[str, str]:
    """The expert's move for this table and a one-line reason a player can follow."""
    public = _public(view)
    if not public.legal:
        return "", "The game is over." if public.is_over else "No move: the engine draws for you."
    move = rank_moves(public)[0][0] if len(public.legal) > 1 else public.legal[0]
    return move, _reason(public, move)


def _reason(view: SoloPublicView, move: str) -> str:
    action = parse_action(move)
    number = action.highway
    highway = view.highways[number - 1]
    lang = view.lang
    top = highway.top
    assert top is not None
    on = top.name_in(lang)
    if action.verb == "sacrifice":
        return (
            f"No card in your hand fits the {on} on highway {number}; a claimed "
            f"{action.card.miles} clears it, and a cleared card counts for more than "
            f"{distance_word(lang)}."
        )
    card = action.card
    claim = claimed_card(card, top)
    gain = f" (+{claim.miles} {distance_word(lang)})" if claim is not None else ""
    elsewhere = [
        other.number
        for other in view.highways
        if other.number != number and f"clear {other.number} with {card.value}" in view.legal
    ]
    if len(view.legal) == 1:
        why = "it is your only move"
    elif card.is_safety and top is Card.D200 and Card.D200 in view.hand:
        why = "keep your 200 in hand, since it can also clear a safety"
    elif card.is_distance and f"sacrifice {card.value} on {number}" in view.legal:
        why = f"your claimed {distance_word(lang)} stay in front of you for a later sacrifice"
    elif elsewhere and highway.depth > 1:
        # "highways 2, 3 and 4": it read "highway 2 and 3 and 4".
        others = names([str(n) for n in elsewhere])
        why = (
            f"it fits {noun(len(elsewhere), 'highway')} {others} too, but here it turns up "
            "the most promising card"
        )
    elif highway.depth == 1:
        why = f"it clears highway {number} for good"
    else:
        face_down = highway.hidden
        why = f"it turns up the next card of highway {number} ({face_down} face down)"
    return f"Play {card.name_in(lang)} on the {on} of highway {number}{gain}: {why}."

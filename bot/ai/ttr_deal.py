"""Ticket to Ride determinized: a full table dealt from what one seat has seen.

Train cards: every card not in the seat's hand, in a Railyard or face up is somewhere hidden —
another player's hand, an On-the-Track stack (face down for everyone, its owner included), the
discard pile, the train deck or the Station Clock deck. Those places keep their sizes (the view
shows them) and are dealt from the unseen cards. Other places are dealt uniformly; the seat's
*own* stack leans towards the colours its tickets need and Locomotives (``OWN_TRACK_LEAN``),
because it built that stack itself from the sets it played, but it has no record of which — so
a lean, not a certainty. Tickets: every ticket the seat does not hold or have on offer may be
another player's kept or offered ticket, the solo opponent's hidden six or in the ticket deck
(order unknown). The next seeded shuffle (the second train deck's) is unknown: the imagined
table gets a fresh seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.ttr_normal import (
    _demand,
)
from bot.engine.ttr.cards import (
    CARD_CODES,
    COLOURS,
    KINDS,
    LOCO,
    NCOL,
    TICKET_COUNT,
    full_counts,
)
from bot.engine.ttr.state import SETUP, TtrState
from bot.engine.ttr.views import TtrSeatView

OWN_TRACK_LEAN = 3.0  # weight of a wanted colour or Locomotive when dealing the seat's stack


def _vector(cards: Sequence[int]) -> list[int]:
    out = [0] * KINDS
    for card in cards:
        out[card] += 1
    return out


def unseen_cards(view: TtrSeatView) -> list[int]:
    """Per card kind, how many ``view.seat`` cannot see (hidden somewhere on the table)."""
    pub = view.public
    counts = full_counts()
    for card in range(KINDS):
        counts[card] -= view.hand[card]
    for seat in pub.seats:
        for ys in seat.yard:
            counts[COLOURS.index(ys.colour)] -= ys.naturals
            counts[LOCO] -= ys.locos
    for code in (*pub.slots, pub.clock_card):
        if code is not None:
            counts[CARD_CODES.index(code)] -= 1
    return counts


def unseen_tickets(view: TtrSeatView) -> list[int]:
    """The tickets ``view.seat`` neither holds nor has on offer."""
    mine = {t.index for t in view.tickets} | {t.index for t in view.offered}
    return [t for t in range(TICKET_COUNT) if t not in mine]


def _deal_weighted(
    pool: list[int], size: int, weights: Sequence[float], rng: random.Random
) -> list[int]:
    """``size`` cards drawn from ``pool`` (removed from it), each draw weighted by kind."""
    taken: list[int] = []
    for _ in range(size):
        total = sum(weights[c] for c in pool)
        pick = rng.random() * total
        index = len(pool) - 1
        for i, card in enumerate(pool):
            pick -= weights[card]
            if pick < 0:
                index = i
                break
        taken.append(pool.pop(index))
    return taken


def determinize(view: TtrSeatView, rng: random.Random) -> TtrState:
    """A full state whose private view for ``view.seat`` is ``view`` (module docstring)."""
    pub = view.public
    me = view.seat
    n = len(pub.seats)
    counts = unseen_cards(view)
    pool = [card for card in range(KINDS) for _ in range(counts[card])]
    rng.shuffle(pool)
    hands: list[list[int]] = []
    tracks: list[list[int]] = [[0] * KINDS for _ in range(n)]
    # The seat's own stack first (leaning towards what its tickets want), then the others.
    own_size = pub.seats[me].track_count
    if own_size:
        wanted = _demand(view.tickets)
        weights = [1.0 + (OWN_TRACK_LEAN if wanted[c] else 0.0) for c in range(NCOL)]
        weights.append(1.0 + OWN_TRACK_LEAN)
        tracks[me] = _vector(_deal_weighted(pool, own_size, weights, rng))
    for seat in pub.seats:
        if seat.seat == me:
            hands.append(list(view.hand))
            continue
        hands.append(_vector(pool[: seat.hand_count]))
        del pool[: seat.hand_count]
        tracks[seat.seat] = _vector(pool[: seat.track_count])
        del pool[: seat.track_count]
    discard = _vector(pool[: pub.discard_count])
    del pool[: pub.discard_count]
    deck = pool[: pub.deck_count]
    clock_deck = pool[pub.deck_count :]
    if len(deck) != pub.deck_count or len(clock_deck) != pub.clock_left:
        raise ValueError("the view's hidden places do not add up to the unseen cards")
    yard_nat = [[0] * NCOL for _ in range(n)]
    yard_loco = [[0] * NCOL for _ in range(n)]
    for seat in pub.seats:
        for ys in seat.yard:
            c = COLOURS.index(ys.colour)
            yard_nat[seat.seat][c] = ys.naturals
            yard_loco[seat.seat][c] = ys.locos
    # Tickets: other seats' kept and offered ones, the solo opponent's six, the deck.
    tickets_pool = unseen_tickets(view)
    rng.shuffle(tickets_pool)
    kept: list[list[int]] = []
    offered: list[list[int]] = []
    for seat in pub.seats:
        if seat.seat == me:
            kept.append(sorted(t.index for t in view.tickets))
            offered.append(sorted(t.index for t in view.offered))
            continue
        kept.append(sorted(tickets_pool[: seat.ticket_count]))
        del tickets_pool[: seat.ticket_count]
        offered.append(sorted(tickets_pool[: seat.choosing]))
        del tickets_pool[: seat.choosing]
    hidden = tickets_pool[: pub.hidden_ticket_count]
    ticket_deck = tickets_pool[pub.hidden_ticket_count :]
    if len(ticket_deck) != pub.ticket_deck_count:
        raise ValueError("the view's hidden tickets do not add up to the unseen ones")
    left = [seat.left for seat in pub.seats]
    clock = -1 if pub.clock_card is None else CARD_CODES.index(pub.clock_card)
    return TtrState(
        players=pub.players,
        solo=pub.solo,
        seed=rng.getrandbits(32),  # the next shuffle (the second deck) is unknown
        shuffles=0,
        hands=hands,
        yard_nat=yard_nat,
        yard_loco=yard_loco,
        track=tracks,
        tickets=kept,
        offered=offered,
        deck=deck,
        slots=[-1 if code is None else CARD_CODES.index(code) for code in pub.slots],
        discard=discard,
        ticket_deck=ticket_deck,
        phase=pub.phase,
        turn=0 if pub.turn is None else pub.turn,
        clock_card=clock,
        clock_deck=clock_deck,
        hidden_tickets=hidden,
        clock_turn=pub.clock_turn,
        deck_number=pub.deck_number,
        keep_tracks=pub.keep_tracks,
        exhausted=not deck and pub.phase != SETUP,
        final_round=pub.final_round,
        final_queue=list(pub.final_queue),
        left=left,
        leave_order=[s for s in range(n) if left[s]],  # the order is not shown; only ranks use it
        caption=pub.caption,
        end_reason=pub.end_reason,
        winners=pub.winners,
    )

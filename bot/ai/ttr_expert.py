"""``expert``: the Ticket to Ride card game computer player that searches (``bot.ai.search``).

It decides from its seat's private view alone, standard game and solo alike. What the seat
cannot see, and how an imagined table deals it again (``determinize``):

- Train cards: every card not in its hand, in a Railyard or face up is somewhere hidden —
  another player's hand, an On-the-Track stack (face down for everyone, its owner included),
  the discard pile, the train deck or the Station Clock deck. Those places keep their sizes
  (the view shows them) and are dealt from the unseen cards. Other places are dealt uniformly;
  the seat's *own* stack leans towards the colours its tickets need and Locomotives, because
  it built that stack itself from the sets it played (it only plays wanted colours once the
  stack scores), but it has no record of which — so a lean, not a certainty.
- Tickets: every ticket the seat does not hold or have on offer may be another player's kept
  or offered ticket, the solo opponent's hidden six or in the ticket deck (order unknown).
- The next seeded shuffle (the second train deck's) is unknown: the imagined table gets a
  fresh seed.

Rollouts: the ``normal`` player plays every seat. Solo games are short (sixteen turns, about
25 moves, 5 ms), so a rollout plays to the end and scores the real result: the win, and the
score (a leaderboard ranks wins, then score). A standard game is much longer (about 140 moves
and 60 ms with two players): whole games would leave two or three rollouts per move in the
300 ms budget. So a standard rollout ends with the seat's own turn (``HORIZON_TURNS`` turn ends;
one beat two and four in 60-game arenas, measured before every candidate was judged at the same
point: the rivals' answers add noise the judgement does not need), unless the second deck is
nearly spent — then it plays to the end — and a value model judges the position (``judge``):
a logistic curve, fitted per train deck on ``normal``'s self-play, over the gap between the
seat and its best rival in

- the projected final score: each seat's On-the-Track stack at the end is guessed
  (``project``) as the cards on it that will count, what its Railyard sets will still deliver
  in the turns left and the hand cards its tickets want (as many as the turns left let it
  play), and scored by the real scoring, Big City bonuses included;
- the hand's size and its Locomotives (what the second deck will be played with).

Candidates: ``normal``'s own choice first, then the best few of each kind by ``normal``'s own
valuation (takes, Railyard plays, the ticket draw, ticket keeps): the search has to beat a
sound heuristic on moves it already thinks are close, not waste rounds on hopeless ones.

Measured (``tests/ai/arena_extra.py``, seats rotated): two players, against ``normal``, 50 wins
of 56 at the real 300 ms budget (seed 1001; median decision 205 ms, p95 300 ms) and 75 of 120
at 100 ms (seeds 1 and 101). Four players, one expert among three ``normal`` at 100 ms: 10 of
40, its fair share — the value model was fitted on two-player games only. Solo at 100 ms:
mean score 35.1 over 200 deals against ``normal``'s 29.7 on the same deals; neither wins one
(six hidden tickets with their Big Cities outscore what sixteen turns can complete).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from time import perf_counter
from typing import Any

from bot.ai.search import (
    CHECK_EVERY,
    QUOTED_ROUNDS,
    Domain,
    OutOfTime,
    SearchPolicy,
    SearchReport,
)
from bot.ai.ttr_normal import (
    ROOM_FOR_TICKETS,
    NormalTtrPolicy,
    _capacity,
    _junk_value,
    _parsed,
    _plan_value,
    _Table,
    _take_value,
    _ticket_draw_value,
    _yard_value,
)
from bot.engine.ttr import GAME
from bot.engine.ttr.cards import (
    CARD_CODES,
    CARD_NAMES,
    COLOURS,
    KINDS,
    LOCO,
    TICKET_COUNT,
    TICKETS,
    full_counts,
)
from bot.engine.ttr.rules import apply as apply_rules
from bot.engine.ttr.rules import names
from bot.engine.ttr.scoring import score_standard
from bot.engine.ttr.state import ACT, BLIND, CLOCK, KEEP, OVER, PICK2, SETUP, Action, TtrState
from bot.engine.ttr.views import TtrSeatView, private_view
from bot.engine.words import plural

NCOL = len(COLOURS)
HORIZON_TURNS = 1  # turn ends a rollout passes (1 measured best); 0: one per seat
END_DECK = 10  # second deck with this many cards or fewer left: roll out to the end
FUTURE_RATE = 0.0  # useful draws to come per turn left, added to the projection (0 fits best)
ROOM_RATE = 3.0  # hand cards a seat can move to its stack per turn left (3 fits best)
OWN_TRACK_LEAN = 3.0  # weight of a wanted colour or Locomotive when dealing the seat's stack
# Moves searched besides normal's choice, per kind: its best by its own valuation.
TAKES = 3  # take actions (six measured no better)
YARDS = 3  # Railyard plays
KEEPS = 5  # ticket keeps
ROLLOUT_LIMIT = 2000  # moves; a safety net only (a game is a few hundred moves at most)


# --- determinizing --------------------------------------------------------------------------


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


def _demand(tickets: Sequence[int]) -> list[int]:
    demand = [0] * NCOL
    for t in tickets:
        for c, n in enumerate(TICKETS[t].need):
            demand[c] += n
    return demand


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
        wanted = _demand([t.index for t in view.tickets])
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


# --- judging a standard-game position -------------------------------------------------------


def _turns_left(state: TtrState) -> tuple[int, bool]:
    """Turns each seat still gets, roughly, and whether its stack and Railyard will count.

    Each turn takes about 1.3 cards from the deck (two when drawing, none when playing). With
    the rules' ending the first deck's stacks and Railyards go into the second deck, which has
    about a dozen turns per seat."""
    active = sum(1 for s in range(state.seats) if state.active(s))
    this_deck = math.ceil(len(state.deck) / (1.3 * max(1, active)))
    if state.deck_number == 2:
        return this_deck, True
    if state.keep_tracks:
        return this_deck + 12, True
    return 12, False


def project(state: TtrState, seat: int) -> list[int]:
    """``seat``'s On-the-Track stack at the end, as a guess (module docstring)."""
    turns, counts = _turns_left(state)
    demand = _demand(state.tickets[seat])
    final = [0] * KINDS
    if counts:
        final = list(state.track[seat])
        for c in range(NCOL):
            nat, loco = state.yard_nat[seat][c], state.yard_loco[seat][c]
            locos = min(loco, turns)
            final[LOCO] += locos
            final[c] += min(nat, turns - locos)
    deficit = [max(0, demand[c] - final[c]) for c in range(NCOL)]
    spare_locos = final[LOCO]
    for c in sorted(range(NCOL), key=lambda c: deficit[c]):
        used = min(spare_locos, deficit[c])
        deficit[c] -= used
        spare_locos -= used
    # Hand cards reach the stack only through Railyard sets: about 1.5 cards a turn at most.
    room = int(ROOM_RATE * turns)
    hand = state.hands[seat]
    for c in range(NCOL):
        moved = min(hand[c], deficit[c], room)
        final[c] += moved
        deficit[c] -= moved
        room -= moved
    locos = min(hand[LOCO], sum(deficit), room)
    final[LOCO] += locos
    for c in sorted(range(NCOL), key=lambda c: deficit[c]):
        used = min(locos, deficit[c])
        deficit[c] -= used
        locos -= used
    # Draws still to come fill the smallest gaps first (they finish tickets soonest).
    future = min(room - min(hand[LOCO], room), int(FUTURE_RATE * turns))
    for c in sorted(range(NCOL), key=lambda c: (deficit[c] == 0, deficit[c])):
        if future <= 0:
            break
        add = min(future, deficit[c])
        final[c] += add
        future -= add
    return final


def seat_figures(state: TtrState) -> list[list[float]]:
    """Per seat, what the value model reads: the projected total (Big Cities included), and
    the hand's size and Locomotives (in tens and fives, so the weights stay small).

    Deliberately not the points of the tickets held, nor what they lack: in ``normal``'s
    self-play holding more tickets goes with winning (it only keeps tickets it can complete),
    and a search would read that as "draw more tickets" — the projected total already counts
    a ticket for what it is likely to score."""
    playing = [state.active(s) for s in range(state.seats)]
    tracks = [project(state, s) if playing[s] else [0] * KINDS for s in range(state.seats)]
    result = score_standard(state.tickets, tracks, playing)
    figures = []
    for s in range(state.seats):
        hand = state.hands[s]
        figures.append([result.seats[s].total / 10.0, sum(hand) / 10.0, hand[LOCO] / 5.0])
    return figures


def features(state: TtrState, seat: int) -> list[float]:
    """A constant, whose turn it is, and the seat's figures minus its best rival's (the one
    with the highest projected total)."""
    figures = seat_figures(state)
    rivals = [s for s in range(state.seats) if s != seat and state.active(s)]
    rival = max(rivals, key=lambda s: figures[s][0])
    diff = [a - b for a, b in zip(figures[seat], figures[rival], strict=True)]
    return [1.0, 1.0 if state.turn == seat else 0.0, *diff]


VALUE_WEIGHTS: dict[int, tuple[float, ...]] = {
    1: (0.0295, 0.0295, 0.1761, -0.066, 0.8034),
    2: (-0.0066, -0.0066, 0.5933, 0.3837, 0.5264),
}
"""Logistic weights over ``features`` per train deck (tests/ai/fit_ttr_value.py fits them on
turn starts of ``normal`` against itself, 300 two-player games from seed 1000: 5618 first-deck
samples, held-out log loss 0.650; 2675 second-deck samples, 0.380; a coin scores 0.693). They
serve every table size: weights fitted on four-player games (``--players 4``) predicted no
better than the base rate in the first deck, and the expert did worse with them."""


def judge(state: TtrState, seat: int) -> float:
    """The value model's chance that ``seat`` wins from a standard-game turn start."""
    weights = VALUE_WEIGHTS[2 if state.deck_number == 2 else 1]
    z = sum(w * x for w, x in zip(weights, features(state, seat), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def final_worth(state: TtrState, seat: int) -> float:
    """A finished game's worth for ``seat``: the win, and (solo) the score for the rest."""
    result = state.result
    assert result is not None and state.winners is not None
    if state.solo:
        won = 1.0 if result.won else 0.0
        score = min(1.0, max(0.0, (result.seats[0].total + 80.0) / 240.0))
        return 0.5 * won + 0.5 * score
    if seat not in state.winners:
        return 0.0
    return 1.0 / len(state.winners)


# --- the domain -----------------------------------------------------------------------------


def ranked(view: TtrSeatView) -> list[tuple[float, str, Action]]:
    """Every legal move with ``normal``'s valuation of it, best first (the ticket draw valued
    without normal's coin flip)."""
    table = _Table(view)
    parsed = [(text, _parsed(text)) for text in view.legal]
    out: list[tuple[float, str, Action]] = []
    if parsed and parsed[0][1].kind == "keep":
        base = _plan_value(table, list(view.tickets))
        offered = {t.index: t for t in view.offered}
        for text, action in parsed:
            plan = list(view.tickets) + [offered[i] for i in action.tickets]
            value = _plan_value(table, plan) - base - 0.01 * len(action.tickets)
            out.append((value, text, action))
    else:
        second = view.phase == PICK2
        for text, action in parsed:
            if action.kind == "take":
                value = _take_value(table, action, second)
            elif action.kind == "yard":
                value = (
                    _junk_value(table, action)
                    if table.hoarding
                    else _yard_value(table, action) - 1.2
                )
            elif action.kind == "tickets":
                value = _ticket_draw_value(table)
            else:
                value = -10.0
            out.append((value, text, action))
    out.sort(key=lambda item: -item[0])
    return out


class TtrDomain(Domain[TtrState]):
    """Ticket to Ride (standard and solo) for the shared search (module docstring)."""

    game = GAME  # rules.apply serves both variants: the state knows whether it is solo

    def __init__(self) -> None:
        self.normal = NormalTtrPolicy()
        # The baseline for the view being decided, drawn with the decision's own rng (see
        # TtrExpertPolicy.choose); None: normal's choice with a fixed rng (hints).
        self.baseline: tuple[TtrSeatView, str] | None = None

    def parse(self, text: str) -> Action:
        return _parsed(text)

    def determinize(self, view: Any, rng: random.Random) -> TtrState:
        return determinize(view, rng)

    def candidates(self, view: Any) -> list[str]:
        if self.baseline is not None and self.baseline[0] is view:
            first = self.baseline[1]
        else:
            first = self.normal.choose(view, random.Random(0))
        quota = {"take": TAKES, "yard": YARDS, "keep": KEEPS, "tickets": 1}
        moves = [first]
        for _value, text, action in ranked(view):
            left = quota.get(action.kind, 0)
            if left <= 0 or text == first:
                continue
            quota[action.kind] = left - 1
            moves.append(text)
        return moves

    def rollout(
        self, state: TtrState, seat: int, rng: random.Random, deadline: float | None = None
    ) -> float:
        choose = self.normal.choose
        horizon = HORIZON_TURNS or state.seats
        # The searched move may have ended the seat's turn already (a Railyard play, a keep,
        # a face-up Locomotive): that counts, so every candidate is judged at the same point
        # of the game, not a yard play one turn later than a draw.
        ends = 1 if state.phase in (ACT, OVER) and state.turn != seat else 0
        for step in range(ROLLOUT_LIMIT):
            phase = state.phase
            if phase == OVER:
                return self._finished(state, seat)
            if (
                not state.solo
                and ends >= horizon
                and phase == ACT
                and not (state.deck_number == 2 and len(state.deck) <= END_DECK)
            ):
                return judge(state, seat)
            if deadline is not None and step % CHECK_EVERY == 0 and perf_counter() > deadline:
                raise OutOfTime
            actor = min(GAME.to_act(state))
            turn = state.turn
            move = choose(private_view(state, actor), rng)
            state = apply_rules(state, actor, _parsed(move))
            if (
                phase != SETUP
                and state.phase in (ACT, OVER)
                and (phase in (PICK2, KEEP) or state.turn != turn or state.phase == OVER)
            ):
                ends += 1
        return self._finished(state, seat) if state.phase == OVER else judge(state, seat)

    def _finished(self, state: TtrState, seat: int) -> float:
        """A finished rollout's worth; solo keeps its final score for the hint (``explain``),
        because the worth blends the win with the score and means nothing to a player."""
        if state.solo and state.result is not None:
            self.figure = float(state.result.seats[0].total)
        return final_worth(state, seat)

    def explain(self, view: Any, move: str, report: SearchReport) -> str:
        return explain(view, move, report)


def explain(view: TtrSeatView, move: str, report: SearchReport) -> str:
    """Why ``move``, in a player's words, saying only what is true of the table: a card or a
    set is said to serve your tickets only when they need its colour, and to rob only whom it
    robs."""
    action = _parsed(move)
    kind = action.kind
    demand = _demand([t.index for t in view.tickets])
    if kind == "take":
        why = _take_reason(view, action, demand)
    elif kind == "yard":
        why = _yard_reason(view, action, demand)
    elif kind == "tickets":
        why = _tickets_reason(view, demand)
    elif kind == "keep":
        codes = ", ".join(TICKETS[t].code for t in action.tickets) or "none"
        why = f"keeping {codes} gives the best expected points for the cards you can get"
    else:
        why = "nothing else is possible"
    if view.public.solo:
        return solo_reason(why, move, report)
    return report.reason(why, move)


def _tickets_reason(view: TtrSeatView, demand: list[int]) -> str:
    """Why draw tickets: the cards the tickets held need against the cards this seat can hope
    to gather (``normal``'s own estimate), said only when there is that room; otherwise the
    search alone chose it."""
    if not view.tickets:
        return "you hold no tickets yet, and tickets are what your cards score with"
    need = sum(demand)
    gather = round(_capacity(_Table(view)))
    if gather - need >= ROOM_FOR_TICKETS:
        return (
            f"your tickets need {plural(need, 'card')} and you can hope to gather about "
            f"{gather} by the end: there is room for more"
        )
    return "more tickets came out best when the next turns were played out"


def _take_reason(view: TtrSeatView, action: Action, demand: list[int]) -> str:
    """A draw: blind, a Locomotive (wild), a colour your tickets need, or one they do not."""
    public = view.public
    if action.slot == BLIND:
        return "a blind draw is worth more than any face-up card for your tickets"
    code = public.clock_card if action.slot == CLOCK else public.slots[action.slot - 1]
    if code is None:
        return "it is your best draw now"
    card = CARD_CODES.index(code)
    name = CARD_NAMES[card]
    if card == LOCO:
        return "the Locomotive is wild: it serves whichever colour your tickets need"
    if demand[card]:
        return f"the {name} card brings your tickets closest"
    if not public.solo:
        biggest = max(
            (
                ys.size
                for s in public.seats
                if s.seat != view.seat
                for ys in s.yard
                if ys.colour == code
            ),
            default=0,
        )
        mine = {ys.colour for ys in public.seats[view.seat].yard}
        if biggest and code not in mine and view.hand[card] + 1 > biggest:
            return f"your tickets need no {name}, but with it your {name} cards can rob a set"
    return f"your tickets need no {name}, but it is the face-up card that helps you most"


def _yard_reason(view: TtrSeatView, action: Action, demand: list[int]) -> str:
    """A Railyard play: whether its cards are ones your tickets need, whether the track it
    feeds will score, and whom it robs."""
    public = view.public
    colours = list(action.singles) if action.singles else [action.colour]
    needed = [CARD_NAMES[c] for c in colours if demand[c]]
    locos = action.locos > 0 and any(demand)
    scores = public.solo or public.deck_number == 2 or public.keep_tracks
    if not scores:
        # The first deck's tracks go back into the second deck (docs/rules/ttr.md, The end).
        if needed or locos:
            why = (
                "this set goes back into the second deck like every track now, yet it came "
                "out best when the next turns were played out"
            )
        else:
            why = "these cards are not needed by your tickets and feed the second deck"
    elif needed:
        why = f"this set feeds your On-the-Track stack with {names(needed)} cards your tickets need"
    elif locos:
        why = "this set feeds your On-the-Track stack with Locomotives, wild for your tickets"
    else:
        unneeded = names([CARD_NAMES[c] for c in colours])
        why = f"your tickets need no {unneeded}, so these cards cost you nothing to play"
    return why + _robbed(view, colours, action)


def _robbed(view: TtrSeatView, colours: list[int], action: Action) -> str:
    """', and it robs Bob of their Red set (3 cards)' when the set robs someone; in solo, the
    face-up cards of its colour it discards."""
    public = view.public
    if public.solo:
        up = [code for code in (*public.slots, public.clock_card) if code == COLOURS[colours[0]]]
        if action.singles or not up:
            return ""
        colour = CARD_NAMES[colours[0]]
        cards = (
            f"the face-up {colour} card"
            if len(up) == 1
            else f"the {len(up)} face-up {colour} cards"
        )
        return f", and it discards {cards}"
    robbed = [
        f"{seat.name} of their {CARD_NAMES[c]} set ({plural(ys.size, 'card')})"
        for c in colours
        for seat in public.seats
        if seat.seat != view.seat
        for ys in seat.yard
        if ys.colour == COLOURS[c]
    ]
    return f", and it robs {names(robbed)}" if robbed else ""


def solo_reason(why: str, move: str, report: SearchReport) -> str:
    """A solo hint's sentence: ``why``, then the final score the imagined games reached after
    ``move`` and how it compares with the other moves tried on the same deals, in points (the
    search's worth blends the win with the score: a percentage a player cannot read)."""
    score = report.figure_of(move)
    if report.rounds < QUOTED_ROUNDS or score is None:
        return f"{why}."
    index = report.candidates.index(move)
    # Only moves tried on every deal this one was: the others saw different luck.
    rivals = [
        figure
        for i, figure in enumerate(report.figures)
        if i != index and figure is not None and report.counts[i] == report.counts[index]
    ]
    said = f"you finish with about {plural(round(score), 'point')} on average after it"
    ahead = round(score - max(rivals)) if rivals else 0
    if ahead > 0:
        said += f", {plural(ahead, 'point')} more than after any other move tried"
    return f"{why} ({said}, over {report.rounds} imagined games)."


class TtrExpertPolicy(SearchPolicy):
    """The searching Ticket to Ride computer player (module docstring)."""

    name = "expert"
    domain: TtrDomain
    domain_class = TtrDomain

    def choose(self, view: Any, rng: random.Random) -> str:
        """``normal``'s move drawn with this decision's rng is the baseline: normal draws
        tickets on a coin flip (a player without memory would otherwise draw the same way
        forever), and a fixed rng would always show the same side of that coin."""
        if len(view.legal) <= 1:
            return super().choose(view, rng)
        self.domain.baseline = (view, self.domain.normal.choose(view, rng))
        try:
            return super().choose(view, rng)
        finally:
            self.domain.baseline = None


def hint(view: TtrSeatView) -> tuple[str, str] | None:
    """What the expert would play here, and why, in a player's words."""
    return TtrExpertPolicy().hint(view, random.Random(0))


__all__ = [
    "TtrDomain",
    "TtrExpertPolicy",
    "determinize",
    "hint",
    "judge",
    "project",
    "unseen_cards",
    "unseen_tickets",
]

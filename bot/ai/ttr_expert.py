"""``expert``: the Ticket to Ride card game computer player that searches (``bot.ai.search``).

It decides from its seat's private view alone, standard game and solo alike. What the seat
cannot see is dealt again for each imagined table by ``bot.ai.ttr_deal``; the hint's words come
from ``bot.ai.ttr_reasons``.

Rollouts: the ``normal`` player plays every seat. Solo games are short (sixteen turns, about
25 moves, 5 ms), so a rollout plays to the end and scores the real result: the win, and the
score (a leaderboard ranks wins, then score). A standard game is much longer (about 140 moves
and 60 ms with two players): whole games would leave two or three rollouts per move in the
300 ms budget. So a standard rollout ends with the seat's own turn (``HORIZON_TURNS`` turn ends;
one beat two and four in 60-game arenas, measured before every candidate was judged at the same
point: the rivals' answers add noise the judgement does not need), unless the second deck is
nearly spent — then it plays to the end — and a value model judges the position (``judge``
in ``bot.ai.ttr_value``): a logistic curve, fitted per train deck on ``normal``'s self-play,
over the gap between the seat and its best rival in

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
40, its fair share — the value model was fitted on two-player games only. Solo at 100 ms,
deals 1–200: mean score 47.0 against ``normal``'s 43.5 on the same deals; before ``normal``'s
solo changes (its stack guess, its last turns, its Big Cities: bot/ai/ttr_normal.py) it was
41.7 against 29.7 (the same code otherwise, the same machine). On the 24 deals of 1–1000 that
a search seeing every card could win, 61.5 (52.4 before). Neither wins one (six hidden tickets
with their Big Cities outscore what sixteen turns can complete).
"""

from __future__ import annotations

import random
from time import perf_counter
from typing import Any

from bot.ai.search import (
    CHECK_EVERY,
    Domain,
    OutOfTime,
    SearchPolicy,
    SearchReport,
)
from bot.ai.ttr_deal import determinize
from bot.ai.ttr_normal import (
    NormalTtrPolicy,
    _junk_value,
    _parsed,
    _plan_value,
    _Table,
    _take_value,
    _ticket_draw_value,
    _yard_value,
)
from bot.ai.ttr_reasons import explain
from bot.ai.ttr_value import final_worth, judge
from bot.engine.ttr import GAME
from bot.engine.ttr.rules import apply as apply_rules
from bot.engine.ttr.state import ACT, KEEP, OVER, PICK2, SETUP, Action, TtrState
from bot.engine.ttr.views import TtrSeatView, private_view

HORIZON_TURNS = 1  # turn ends a rollout passes (1 measured best); 0: one per seat
END_DECK = 10  # second deck with this many cards or fewer left: roll out to the end
# Moves searched besides normal's choice, per kind: its best by its own valuation.
TAKES = 3  # take actions (six measured no better)
YARDS = 3  # Railyard plays
KEEPS = 5  # ticket keeps
ROLLOUT_LIMIT = 2000  # moves; a safety net only (a game is a few hundred moves at most)


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


__all__ = ["TtrDomain", "TtrExpertPolicy", "hint", "ranked"]

"""``expert``: the Mille Bornes computer player that searches (see ``bot.ai.search``).

It decides from its seat's private view alone. To judge a move it imagines the cards it cannot
see — the opponent's hand and the draw pile — many times over, plays the move on each imagined
table, lets the ``normal`` player finish the hand for both sides, and scores how the match
stands afterwards. The imagined hands follow what the seat knows:

- the unseen cards are the deck minus its own hand, both tableaus and the discard pile;
- the opponent's hand has the size the table shows, and the draw pile the count it shows;
- players keep their safeties (they can never be discarded): an unseen safety is in the
  opponent's hand with the chance that it was among the cards they have drawn so far this hand,
  not just their hand's share of the unseen cards;
- a hazard still showing on the opponent's piles has had their turn to answer it, and a player
  who held its remedy or its safety would have played it: those cards are not in their hand
  (``barred_cards``). In 150 hands of ``normal`` against itself, at the moments the rule is used
  the opponent held the safety 0 times in 2 934, and the remedy 1-2 % of the time for the
  battle hazards and 6 % for a Speed Limit; a uniform deal would give them one about 40 % of
  the time.

A finished hand is scored as the chance of winning the match from the new totals (a normal
curve over the hands still to come, fitted to ``normal`` against itself: a hand swings the
difference by about 1300 points); a finished match as won, lost or drawn.

Before drawing (a coup fourré on offer) it plays as ``normal`` does: taking the safety is never
worse. Every other decision with a choice is searched: its plays and the discards ``normal``
likes best, and the extension question.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from time import perf_counter
from typing import Any

from bot.ai.mille_normal import NormalMillePolicy, search_action
from bot.ai.mille_seat import FaceDown
from bot.ai.search import (
    CHECK_EVERY,
    QUOTED_ROUNDS,
    Domain,
    OutOfTime,
    SearchPolicy,
    SearchReport,
    deal_hidden_hand,
)
from bot.engine.mille import GAME
from bot.engine.mille.cards import (
    HAZARD_FOR,
    HAZARD_SET,
    HAZARDS_STOPPED_BY,
    REMEDY_FOR,
    SAFETY_FOR,
    SAFETY_SET,
    Card,
    deck_counts,
    distance_word,
)
from bot.engine.mille.rules import MATCH_TARGET, apply_in_place
from bot.engine.mille.state import BattleMark, MilleState, Phase, Tableau
from bot.engine.mille.views import MilleSeatView, TableauView

HAND_SWING = 1300.0  # standard deviation of one hand's score difference (normal vs normal)
HAND_POINTS = 1200.0  # how far a hand moves the leader towards 5000, roughly
MAX_CANDIDATES = 5  # moves compared: normal's choice and its favourite of each other kind
ROLLOUT_LIMIT = 600  # moves; a hand never lasts this long
WIN_SHARE = 0.6  # a finished match is worth this much for the result, the rest for the margin
MARGIN_SCALE = 600.0  # points: a win by this much counts as a 73% margin

_ORDER = {card: index for index, card in enumerate(Card)}
_is_safety = SAFETY_SET.__contains__
_PHASES = {"draw": Phase.DRAW, "act": Phase.ACT, "extension": Phase.EXTENSION, "over": Phase.OVER}
_TABLE_PHASES = {"play": Phase.ACT, "extension": Phase.EXTENSION, "over": Phase.OVER}


def _kind(move: str) -> str:
    verb, _, code = move.partition(" ")
    if verb != "play":
        return verb
    return Card(code).kind.value


def unseen_cards(view: MilleSeatView) -> Counter[Card]:
    """The cards ``view.seat`` has not seen this hand: the opponent's hand and the draw pile."""
    public = view.public
    seen: Counter[Card] = Counter(view.hand)
    seen.update(public.discard)
    for side in public.tableaus:
        # A coup fourré's safety is also listed among the safeties: count it once.
        for pile in (side.battle_pile, side.speed_pile, side.safeties, side.miles):
            seen.update(pile)
    return Counter(
        {
            card: n - seen[card]
            for card, n in deck_counts(public.deck_name).items()
            if n > seen[card]
        }
    )


def safety_keep_chance(view: MilleSeatView) -> float:
    """The chance an unseen safety is in the opponent's hand, since players keep them: the
    opponent's share of the cards drawn so far (about half of all that left the draw pile)."""
    public = view.public
    deck_size = sum(deck_counts(public.deck_name).values())
    their_drawn = (deck_size - public.deck_count) / 2
    return their_drawn / max(their_drawn + public.deck_count, 1.0)


def barred_cards(view: MilleSeatView) -> frozenset[Card]:
    """What the opponent's table shows they do not hold: for each hazard still showing on
    their piles, its remedy and its safety (module docstring)."""
    side = view.public.tableaus[1 - view.seat]
    showing = [side.battle_counts_as]
    if side.limited:
        showing.append(Card.SPEED_LIMIT)
    barred: set[Card] = set()
    for card in showing:
        if card is not None and card.is_hazard:
            barred.add(REMEDY_FOR[card])
            barred.add(SAFETY_FOR[card])
    return frozenset(barred)


def _tableau(side: TableauView, hand: list[Card]) -> Tableau:
    top = side.battle_top
    shows = side.battle_counts_as
    if shows is top:
        mark = BattleMark.TOP
    else:
        mark = BattleMark.GO if shows is Card.GO else BattleMark.EMPTY
    return Tableau(
        hand=hand,
        battle=list(side.battle_pile),
        speed=list(side.speed_pile),
        safeties=list(side.safeties),
        coups=list(side.coups),
        miles=list(side.miles),
        fresh_hazards=[],
        battle_mark=mark,
    )


def determinize(view: MilleSeatView, rng: random.Random) -> MilleState:
    """A full state consistent with ``view`` (its private view for the seat equals ``view``)."""
    public = view.public
    seat = view.seat
    other = 1 - seat
    pool = sorted(unseen_cards(view).elements(), key=_ORDER.__getitem__)
    theirs, draw_pile = deal_hidden_hand(
        pool,
        public.tableaus[other].hand_count,
        _is_safety,
        safety_keep_chance(view),
        rng,
        barred=barred_cards(view).__contains__,
    )
    tableaus = [Tableau(), Tableau()]
    tableaus[seat] = _tableau(public.tableaus[seat], list(view.hand))
    tableaus[other] = _tableau(public.tableaus[other], theirs)
    # The table's phase: the seat's own says "wait" during the opponent's turn (or extension).
    phase = _PHASES.get(view.phase) or _TABLE_PHASES.get(public.phase, Phase.ACT)
    if phase is Phase.DRAW:
        # The view says which of our safeties would be coups fourrés: their hazards are fresh.
        me = tableaus[seat]
        me.fresh_hazards = [
            c
            for c in (me.battle[-1:] + me.speed[-1:])
            if c.is_hazard and f"play {SAFETY_FOR[c].value}" in view.coups
        ]
    options = {
        "deck": public.deck_name,
        "length": "hand" if public.match_target is None else "match",
        "names": public.lang,
    }
    completed = public.turn if phase is Phase.EXTENSION else None
    return MilleState(
        players=public.players,
        options=options,
        seed=rng.getrandbits(32),
        hand_number=public.hand_number,
        # Hands alternate who starts, seat 0 first.
        first_player=(public.hand_number - 1) % 2,
        scores=[t.score for t in public.tableaus],
        tableaus=tableaus,
        draw_pile=draw_pile,
        discard=list(public.discard),
        turn=public.turn,
        phase=phase,
        target=public.target,
        extension_decided=public.extension_called,
        extension_called=public.extension_called,
        completed_by=completed,
        delayed_action=completed is not None and not draw_pile,
        results=list(public.results),
        caption=public.caption,
        winners=public.winners,
        end_reason=public.end_reason,
    )


def match_chance(mine: float, theirs: float, single_hand: bool = False) -> float:
    """The chance of winning the match from these totals at the start of a hand."""
    if single_hand:
        return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    hands = max(1.0, (MATCH_TARGET - max(mine, theirs)) / HAND_POINTS)
    z = (mine - theirs) / (HAND_SWING * math.sqrt(hands))
    return 1.0 / (1.0 + math.exp(-1.7 * z))


class MilleDomain(Domain[MilleState]):
    """Mille Bornes for the shared search: hands played out by ``normal``."""

    game = GAME

    def __init__(self) -> None:
        self.normal = NormalMillePolicy()

    def determinize(self, view: Any, rng: random.Random) -> MilleState:
        return determinize(view, rng)

    def candidates(self, view: Any) -> list[str]:
        ranked = self.normal.rank(view)
        if view.phase != "act":
            # Before drawing, take the safety (normal does); the extension is a real choice.
            return ranked if view.phase == "extension" else ranked[:1]
        # Normal's choice, then its favourite move of each kind (drive, attack, repair, safety,
        # discard): the alternatives a heuristic most often misjudges, and few enough to be
        # compared on many deals.
        chosen = [ranked[0]]
        kinds = {_kind(ranked[0])}
        for move in ranked[1:]:
            kind = _kind(move)
            if kind not in kinds:
                kinds.add(kind)
                chosen.append(move)
        return chosen[:MAX_CANDIDATES]

    horizon_turns: int | None = None
    """Turn passes a rollout plays before ``judge`` rules on the hand in progress; None (the
    expert's own): to the end of the hand. tests/ai/mille_value.py measured shorter ones with a
    fitted value model: none helped."""

    def rollout(
        self, state: MilleState, seat: int, rng: random.Random, deadline: float | None = None
    ) -> float:
        hand = state.hand_number
        horizon = self.horizon_turns
        passes = 0
        turn = state.turn
        face_down = FaceDown(state)
        for step in range(ROLLOUT_LIMIT):
            if state.phase is Phase.OVER or state.hand_number != hand:
                break
            if horizon is not None and state.turn != turn:
                turn = state.turn
                passes += 1
                if passes >= horizon and state.phase is not Phase.EXTENSION:
                    return self.judge(state, seat)
            if deadline is not None and step % CHECK_EVERY == 0 and perf_counter() > deadline:
                raise OutOfTime
            # ``normal``'s move for the seat to act, read off the state (``mille_seat``): the
            # same move ``choose`` makes from the seat's private view, without building it.
            actor = state.turn
            action = search_action(state, actor, face_down)
            apply_in_place(state, actor, action)
            face_down.turned_up(action)
        return self.evaluate(state, seat)

    def judge(self, state: MilleState, seat: int) -> float:
        """A hand in progress at the horizon: here only the totals so far count (a domain with
        a horizon brings its own judge)."""
        return self.evaluate(state, seat)

    def evaluate(self, state: MilleState, seat: int) -> float:
        """The chance of winning the match from the totals after the hand; once the match (or
        the single hand) is over, mostly the result, partly the margin, so that rollouts that
        differ only in margin still say something."""
        if state.winners is None:
            self.figure = match_chance(state.scores[seat], state.scores[1 - seat])
            return self.figure
        won = 0.5 if not state.winners else 1.0 if seat in state.winners else 0.0
        # The hint quotes the chance of winning alone (``explain``): the blend below is no
        # chance a player could read.
        self.figure = won
        if state.options["length"] == "hand" and state.results:
            totals = state.results[-1].totals
        else:
            totals = tuple(state.scores)
        margin = 1.0 / (1.0 + math.exp(-(totals[seat] - totals[1 - seat]) / MARGIN_SCALE))
        return WIN_SHARE * won + (1.0 - WIN_SHARE) * margin

    def explain(self, view: Any, move: str, report: SearchReport) -> str:
        return explain(view, move, report)


def explain(view: MilleSeatView, move: str, report: SearchReport) -> str:
    """Why ``move``, in a player's words, from what the search found and what the table shows:
    a card is said to clear or stop only what it does here, named as the game names its cards
    (the ``names`` option)."""
    verb, _, code = move.partition(" ")
    card = Card(code) if verb in ("play", "discard") and code else None
    lang = view.public.lang
    me = view.public.tableaus[view.seat]
    rival = view.public.players[1 - view.seat]
    if verb == "draw":
        why = "nothing is worth playing before you draw"
    elif verb == "extend":
        why = (
            "going on to 1000 is worth the risk from here"
            if code == "yes"
            else "stopping at 700 banks the trip bonus"
        )
    elif card is None:
        why = "it is the best move available"
    elif verb == "discard":
        why = f"{card.name_in(lang)} is the card you are least likely to need"
    elif card.is_safety:
        why = _safety_reason(view, move, card)
    elif card.is_hazard:
        if card is Card.SPEED_LIMIT:
            why = f"{card.name_in(lang)} holds {rival} to 25 and 50 {distance_word(lang)}"
        else:
            why = f"{card.name_in(lang)} on {rival} stops them driving"
    elif card.is_distance:
        if me.mileage + card.miles == view.public.target:
            target = view.public.target
            why = f"{card.name_in(lang)} takes you to exactly {target} and completes the trip"
        else:
            why = f"driving {card.name_in(lang)} now gains you the most"
    else:
        why = _remedy_reason(me, card, lang)
    return _quoted(why, move, report, view.public.match_target is not None)


def _showing(t: TableauView) -> list[Card]:
    """The hazards holding this player up: the battle pile's and the speed pile's."""
    shown = [t.battle_counts_as] if t.battle_counts_as in HAZARD_SET else []
    return [card for card in shown if card is not None] + ([Card.SPEED_LIMIT] if t.limited else [])


def _safety_reason(view: MilleSeatView, move: str, card: Card) -> str:
    """A safety clears what it answers on you now (a coup fourré when the hazard is fresh),
    else it protects you for good; either way it scores and keeps the turn."""
    lang = view.public.lang
    me = view.public.tableaus[view.seat]
    name = card.name_in(lang)
    cleared = [h for h in _showing(me) if SAFETY_FOR[h] is card]
    the = " and the ".join(h.name_in(lang) for h in cleared)
    if move in view.coups:
        return f"a coup fourré scores 300 more and clears the {the} on you at once"
    if cleared:
        # Before the draw the safety keeps the turn; after it, it earns another one.
        turn = "you keep the turn" if view.phase == "draw" else "you get another turn"
        return f"{name} clears the {the} on you for good, scores 100 and {turn}"
    against = " and ".join(h.name_in(lang) for h in HAZARDS_STOPPED_BY[card])
    why = (
        f"{name} scores 100 now, gives you another turn and keeps {against} off you for the "
        "rest of the hand"
    )
    if card is Card.RIGHT_OF_WAY and not me.can_go and me.battle_counts_as not in HAZARD_SET:
        # Nothing stops you but the missing Go, which Right of Way stands in for.
        why += f", and you can drive without a {Card.GO.name_in(lang)}"
    return why


def _remedy_reason(me: TableauView, card: Card, lang: str) -> str:
    """What a remedy clears, and whether you can drive after it."""
    name = card.name_in(lang)
    go = Card.GO.name_in(lang)
    if card is Card.END_OF_LIMIT:
        limit = Card.SPEED_LIMIT.name_in(lang)
        if me.can_go:
            return f"{name} lifts the {limit}, so you can drive at full speed again"
        return f"{name} lifts the {limit} on you"
    if card is Card.GO:
        if me.can_go:
            # Only under Right of Way (bsd-games accepts the Go): "Go lets you start driving"
            # was said of a car already free to drive.
            row = Card.RIGHT_OF_WAY.name_in(lang)
            return f"{row} already lets you drive: {name} only gets the card out of your hand"
        if me.battle_counts_as is None:
            return f"{name} lets you start driving"
        return f"{name} gets you moving again"
    hazard = HAZARD_FOR[card]
    if Card.RIGHT_OF_WAY in me.safeties:
        return f"{name} clears the {hazard.name_in(lang)} on you and gets you moving again"
    # No brackets: the chance quoted after it comes in brackets ("... drive) (about 40% ...").
    return f"{name} clears the {hazard.name_in(lang)} on you, but you still need a {go} to drive"


def _quoted(why: str, move: str, report: SearchReport, match: bool) -> str:
    """A hint's sentence: ``why``, then the chance of winning after ``move`` (the rollouts'
    own win chance, not the search's worth, which also counts the margin of a finished match),
    once the search saw enough deals to mean it."""
    if report.rounds < QUOTED_ROUNDS or move not in report.candidates:
        return f"{why}."
    chance = report.figure_of(move)
    if chance is None:
        return f"{why}."
    what = "to win the match" if match else "to win"
    return f"{why} (about {round(100 * chance)}% {what}, over {report.rounds} imagined deals)."


class MilleExpertPolicy(SearchPolicy):
    """The searching Mille Bornes computer player (module docstring)."""

    name = "expert"
    domain_class = MilleDomain
    # Measured with tests/ai/search_headroom.py (300 decision points, 40 deals each, seed 11):
    # with 16-24 deals seen, leaving normal's move at one standard error gained the most
    # (+0.0014 ± 0.0007 match-winning chance per decision at 24, +0.0004 at two errors). In
    # matches against normal it made no measurable difference (103 of 200 at 300 ms, seeds
    # 2001-2200), so the headroom is real but small.
    keep_z = 1.0


def hint(view: MilleSeatView) -> tuple[str, str] | None:
    """What the expert would play here, and why, in a player's words."""
    return MilleExpertPolicy().hint(view, random.Random(0))


__all__ = [
    "MilleDomain",
    "MilleExpertPolicy",
    "barred_cards",
    "determinize",
    "hint",
    "match_chance",
    "unseen_cards",
]

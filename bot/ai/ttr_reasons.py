"""Why the Ticket to Ride expert's hint plays its move, in a player's words.

A card or a set is said to serve your tickets only when they need its colour, and to rob only
whom it robs; a solo hint quotes the final score the imagined games reached.
"""

from __future__ import annotations

from bot.ai.search import (
    QUOTED_ROUNDS,
    SearchReport,
)
from bot.ai.ttr_normal import (
    ROOM_FOR_TICKETS,
    _capacity,
    _demand,
    _parsed,
    _Table,
)
from bot.engine.ttr.cards import (
    CARD_CODES,
    CARD_NAMES,
    COLOURS,
    LOCO,
    TICKETS,
)
from bot.engine.ttr.state import BLIND, CLOCK, Action
from bot.engine.ttr.views import TtrSeatView
from bot.engine.words import names, plural


def explain(view: TtrSeatView, move: str, report: SearchReport) -> str:
    """Why ``move``, in a player's words, saying only what is true of the table: a card or a
    set is said to serve your tickets only when they need its colour, and to rob only whom it
    robs."""
    action = _parsed(move)
    kind = action.kind
    demand = _demand(view.tickets)
    if kind == "take":
        why = _take_reason(view, action, demand)
    elif kind == "yard":
        why = _yard_reason(view, action, demand)
    elif kind == "tickets":
        why = _tickets_reason(view, demand)
    elif kind == "keep" and not action.tickets:
        # It read "keeping none gives the best expected points".
        why = "none of these tickets is worth keeping for the cards you can get"
    elif kind == "keep":
        codes = ", ".join(TICKETS[t].code for t in action.tickets)
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
    """', and it robs Bob of their Red set of 3 cards' when the set robs someone; in solo, the
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
    # "of their Red set of 3 cards": a bracket here ran into the quoted chance's.
    robbed = [
        f"{seat.name} of their {CARD_NAMES[c]} set of {plural(ys.size, 'card')}"
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

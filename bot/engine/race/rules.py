"""1000 Mile Race: applying a move (docs/rules/race.md, its Rulings included), and leaving.

A turn: the automatic draw, then the play phase (up to one card each of miles, hazard and removal,
in any order; trumps and Pit Crew free and unlimited) or a cycle, then the end of the turn.
Cards that may be answered go on a stack; the opponent of the top card's player is asked only
when they hold the answer (Coup Fourré to a hazard on them, Roadblock to miles, Jammer to a
trump, removal or cheat), and the stack resolves last in, first out once somebody passes or
nobody can answer.

The rules live in small modules (``dealing``, ``hands``, ``moves``, ``legality``, ``turns``,
``reactions``); this one applies a move to a state.
"""

from __future__ import annotations

from collections import Counter

from bot.engine.core import IllegalMove, NotYourTurn
from bot.engine.race.cards import (
    HAND_LIMIT,
    HAZARD,
    HAZARDS,
    MILES,
    NAME,
    REMOVAL,
    TOW_TRUCK,
    TRUMP,
    TYPE_OF,
)
from bot.engine.race.hands import draw, draw_note, draws, take
from bot.engine.race.legality import can_cycle, why_not_play
from bot.engine.race.reactions import after_resolution, apply_react, open_or_resolve
from bot.engine.race.state import VERBS, Action, Entry, Phase, RaceState
from bot.engine.race.turns import begin_turn, close_turn, end_turn
from bot.engine.words import plural


def apply(state: RaceState, seat: int, action: Action) -> RaceState:
    verb = _check(state, seat, action)
    new = state.clone()
    _dispatch(new, seat, verb, action)
    return new


def apply_in_place(state: RaceState, seat: int, action: Action) -> None:
    """``apply`` without the copy, for a search that owns ``state`` (a playout's scratch
    state): ``state`` becomes the state after the move. A refused move may leave ``state``
    half changed: pass legal actions."""
    _dispatch(state, seat, _check(state, seat, action), action)


def _check(state: RaceState, seat: int, action: Action) -> str:
    if state.phase is Phase.OVER:
        raise IllegalMove("This game is over.")
    if seat not in (0, 1):
        raise NotYourTurn("You are not seated at this table.")
    verb = _verb(action)
    _check_turn(state, seat, verb)
    return verb


def _dispatch(state: RaceState, seat: int, verb: str, action: Action) -> None:
    if state.phase is Phase.REACT:
        apply_react(state, seat, verb, action)
    elif state.phase is Phase.DISCARD:
        _apply_discard(state, seat, verb, action)
    else:
        _apply_play(state, seat, verb, action)


def _verb(action: Action) -> str:
    """The action's verb, after checking its shape (actions built by hand may be wrong)."""
    try:
        verb = action[0]
        size = len(action)
        if verb == "cycle":
            ok = size >= 2
        elif verb == "play":
            ok = size == 2 or (size == 3 and action[1] == TOW_TRUCK and action[2] in HAZARDS)
        elif verb in ("pass", "end"):
            ok = size == 1
        else:
            ok = size == 2 and verb in VERBS
        if ok:
            for card in action[1:]:
                if card not in TYPE_OF:
                    ok = False
    except (TypeError, IndexError, KeyError):
        ok = False
    if not ok:
        raise IllegalMove("That is not a 1000 Mile Race move.")
    return str(verb)


def _check_turn(state: RaceState, seat: int, verb: str) -> None:
    if state.phase is Phase.REACT:
        reactor = 1 - state.stack[-1].seat
        if seat == reactor:
            return
        other = state.players[reactor]
        if verb in ("react", "pass"):
            raise NotYourTurn(f"Only {other} may react to this card, not you.")
        raise NotYourTurn(f"Waiting for {other} to react or pass before anything else.")
    if seat == state.turn:
        return
    active = state.players[state.turn]
    if verb in ("react", "pass"):
        raise NotYourTurn(
            "No reaction is waiting for you: you are asked when you hold the card that reacts "
            "to one just played, and that window has closed or never opened."
        )
    raise NotYourTurn(f"It is not your turn: {active} is playing.")


def _apply_play(state: RaceState, seat: int, verb: str, action: Action) -> None:
    name = state.players[seat]
    me = state.sides[seat]
    if verb == "end":
        state.caption = f"{name} ends the turn."
        end_turn(state)
        return
    if verb in ("react", "pass"):
        raise IllegalMove("There is nothing to react to right now: it is your own play phase.")
    if verb == "discard":
        # Cycling is offered only while it is open: after a miles, hazard or removal play the
        # advice sent the player to a move that is refused.
        instead = "; to junk cards now, cycle them" if can_cycle(state) else ""
        raise IllegalMove(
            f"Discarding is only for the hand limit at the end of your turn (more than "
            f"{HAND_LIMIT} cards){instead}."
        )
    if verb == "cycle":
        _apply_cycle(state, seat, action[1:])
        return
    card = action[1]
    if card not in me.hand:
        raise IllegalMove(f"You do not hold {NAME[card]}.")
    target = action[2] if len(action) > 2 else ""
    if card == TOW_TRUCK and not target:
        kinds = set(me.hazards)
        if len(kinds) == 1:
            target = kinds.pop()
    reason = why_not_play(state, seat, card, target)
    if reason is not None:
        raise IllegalMove(reason)
    me.hand.remove(card)
    kind = TYPE_OF[card]
    if kind == MILES:
        state.played_miles = True
    elif kind == HAZARD:
        state.played_hazard = True
    elif kind == REMOVAL:
        state.played_removal = True
    state.acted = True
    state.caption = _play_words(state, seat, card, target)
    state.stack.append(Entry(seat, card, target))
    open_or_resolve(state)


def _play_words(state: RaceState, seat: int, card: str, target: str) -> str:
    name = state.players[seat]
    kind = TYPE_OF[card]
    if kind == MILES:
        return f"{name} plays {card} miles."
    if kind == HAZARD:
        return f"{name} plays {NAME[card]} on {state.players[1 - seat]}."
    if card == TOW_TRUCK:
        return f"{name} sends a Tow Truck for the {NAME[target]}."
    if kind == REMOVAL:
        return f"{name} plays {NAME[card]}."
    if kind == TRUMP:
        return f"{name} plays the trump {NAME[card]}."
    return f"{name} plays {NAME[card]}."


def _apply_cycle(state: RaceState, seat: int, cards: tuple[str, ...]) -> None:
    me = state.sides[seat]
    if state.cycled:
        raise IllegalMove("You have already cycled this turn.")
    if state.played_miles or state.played_hazard or state.played_removal:
        raise IllegalMove(
            "You cannot cycle after playing a miles, hazard or removal card this turn "
            "(a cancelled one counts too)."
        )
    hand = me.hand
    for i, card in enumerate(cards):
        try:
            hand.remove(card)  # ``state`` is a fresh clone: a refusal leaves no trace
        except ValueError:
            held = cards[:i].count(card)
            if not held:
                raise IllegalMove(f"You do not hold {NAME[card]}.") from None
            # "2 × 25 miles" read like 50 miles: say copies.
            raise IllegalMove(
                f"You cannot cycle {cards.count(card)} copies of {NAME[card]}: you hold {held}."
            ) from None
    me.junkyard.extend(cards)
    kinds = len({TYPE_OF[c] for c in cards})
    state.cycled = True
    state.acted = True
    drawn, reshuffled = draw(state, seat, kinds)
    listed = ", ".join(map(NAME.__getitem__, cards))
    state.caption = (
        f"{state.players[seat]} cycles {plural(len(cards), 'card')} ({listed}) and {draws(drawn)}."
    )
    note = draw_note(state, seat, drawn, reshuffled, kinds)
    if note:
        state.caption = f"{state.caption} {note}"
    after_resolution(state)


def _apply_discard(state: RaceState, seat: int, verb: str, action: Action) -> None:
    me = state.sides[seat]
    if verb != "discard":
        # The example is a card of the hand: "e.g. 'discard 25'" was refused in turn ("You do
        # not hold 25 miles") when it held none.
        raise IllegalMove(
            f"Your turn is ending with {len(me.hand)} cards: discard down to {HAND_LIMIT} "
            f"first, one card at a time (e.g. 'discard {me.hand[0]}')."
        )
    card = action[1]
    take(me, card)
    me.junkyard.append(card)
    left = len(me.hand) - HAND_LIMIT
    state.caption = f"{state.players[seat]} discards {NAME[card]}."
    if left > 0:
        state.caption += f" {left} more to go."
        return
    state.phase = Phase.PLAY
    if close_turn(state):
        begin_turn(state, 1 - seat)


def leave(state: RaceState, seat: int) -> RaceState:
    if state.phase is Phase.OVER:
        raise IllegalMove("The game is already over.")
    if seat not in (0, 1):
        raise NotYourTurn("You are not seated at this table.")
    after = state.clone()
    # Pending cards go back to their owners' junkyards, so every card stays accounted for.
    for entry in after.stack:
        after.sides[entry.seat].junkyard.append(entry.card)
    after.stack = []
    after.phase = Phase.OVER
    after.winners = (1 - seat,)
    after.end_reason = f"{state.players[seat]} left the game."
    after.caption = after.end_reason
    return after


def owned_census(state: RaceState, seat: int) -> Counter[str]:
    """Every card ``seat`` owns, wherever it lies (their deck, always whole)."""
    counts: Counter[str] = Counter()
    mine = state.sides[seat]
    for pile in (mine.library, mine.hand, mine.miles, mine.trumps, mine.junkyard):
        counts.update(pile)
    counts.update(state.sides[1 - seat].hazards)
    counts.update(e.card for e in state.stack if e.seat == seat)
    return counts

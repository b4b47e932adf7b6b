"""Dragon Mille Bornes: applying a move (docs/rules/dragon.md).

A turn: draw up to 7 Mille Bornes and 6 Car Wars cards, then one Mille Bornes action (a card
played or discarded) and one Car Wars action (a card played, or any number discarded), in
either order. Every shot opens a reaction chain (``Pending``) the other seats answer out of turn.

The rules live in small modules (``table``, ``turns``, ``moves``, ``legality``,
``mille_plays``, ``shots``, ``damage``, ``ending``); this one applies a move to a state, and
handles leaving and re-dealing the hidden cards.
"""

from __future__ import annotations

import random

from bot.engine.core import IllegalMove, NotYourTurn
from bot.engine.dragon.cards import SIDES, SPECS, cw_name
from bot.engine.dragon.damage import remove_safety, retire
from bot.engine.dragon.ending import check_end, end_game
from bot.engine.dragon.facts import learn, shed
from bot.engine.dragon.legality import why_not_cw, why_not_mb
from bot.engine.dragon.mille_plays import apply_coup, play_mb
from bot.engine.dragon.moves import playable_codes, reaction_cards, to_act
from bot.engine.dragon.notation import Action
from bot.engine.dragon.shots import (
    apply_backfire,
    apply_oil_ace,
    apply_react,
    apply_side,
    apply_skid,
    play_cw,
)
from bot.engine.dragon.state import UNPLAYED, DragonState, Pending, Phase
from bot.engine.dragon.table import car_w, living, mb_name, name
from bot.engine.dragon.turns import pass_turn, settle
from bot.engine.mille.cards import SAFETY_SET, Card
from bot.engine.words import names, ordinal

# Read once: ``Phase.OVER`` goes through the Enum metaclass's attribute hook (several times
# slower than a module name), and every move asks.
_OVER = Phase.OVER
_TURN = Phase.TURN


def apply(state: DragonState, seat: int, action: Action) -> DragonState:
    if state.phase is _OVER:
        raise IllegalMove("This game is over.")
    if not 0 <= seat < len(state.cars):
        raise NotYourTurn("You are not seated at this table.")
    acting = to_act(state)
    if seat not in acting:
        if not state.cars[seat].alive:
            raise NotYourTurn("Your car is out of the race: you no longer play.")
        waiting = names([name(state, s) for s in sorted(acting)])
        raise NotYourTurn(f"It is not your move: waiting for {waiting}.")
    new = state.fork()
    if new.phase is _TURN:  # most moves: one call fewer than through ``_dispatch``
        _apply_turn(new, seat, action)
    else:
        _dispatch(new, seat, action)
    return new


def apply_in_place(state: DragonState, seat: int, action: Action) -> None:
    """``apply`` without the copy, for a search that owns ``state`` (a rollout's scratch
    state): ``state`` becomes the state after the move. A refused move may leave ``state``
    half changed, so pass legal actions only. ``apply`` stays the safe way for everything else.
    """
    if state.phase is _OVER:
        raise IllegalMove("This game is over.")
    if seat not in to_act(state):
        raise NotYourTurn("It is not your move.")
    _dispatch(state, seat, action)


def _dispatch(state: DragonState, seat: int, action: Action) -> None:
    phase = state.phase
    if phase is _TURN:
        _apply_turn(state, seat, action)
    elif phase is Phase.REACT:
        apply_react(state, seat, action)
    elif phase is Phase.COUP:
        apply_coup(state, seat, action)
    elif phase is Phase.SKID:
        apply_skid(state, seat, action)
    elif phase is Phase.BACKFIRE:
        apply_backfire(state, seat, action)
    elif phase is Phase.OIL_ACE:
        apply_oil_ace(state, seat, action)
    else:  # WALL, STAMPEDE
        apply_side(state, seat, action)


_CARD_OF = {card.value: card for card in Card}  # quicker than ``Card(code)``


_MB_CODES = frozenset(_CARD_OF)


def _apply_turn(state: DragonState, seat: int, action: Action) -> None:
    verb = action.verb
    if verb in ("play", "discard") and action.card not in _MB_CODES:
        raise IllegalMove("That is not a Mille Bornes card.")
    cw_cards = (action.card,) if verb == "cw" else action.cards
    if verb in ("cw", "cw-discard") and not all(map(SPECS.__contains__, cw_cards)):
        raise IllegalMove("That is not a Car Wars card.")
    car = car_w(state, seat)
    who = state.players[seat]
    if verb in ("play", "discard"):
        if state.mb_left <= 0:
            raise IllegalMove("You have already made your Mille Bornes move this turn.")
        card = _CARD_OF[action.card]
        if card not in car.mb.hand:
            raise IllegalMove(f"You do not hold {mb_name(state, card)}.")
        if verb == "discard":
            if action.target is not None:
                raise IllegalMove("A discard names no target.")
            if card in SAFETY_SET:
                raise IllegalMove("Safeties can never be discarded; play it instead.")
            car.mb.hand.remove(card)
            state.mb_discard.append(card)
            state.mb_left -= 1
            state.caption = f"{who} discards {mb_name(state, card)}."
            settle(state)
            return
        reason = why_not_mb(state, seat, card, action.target)
        if reason is not None:
            raise IllegalMove(reason)
        car.mb.hand.remove(card)
        state.mb_left -= 1
        play_mb(state, seat, card, action.target)
        return
    if verb == "cw":
        code = action.card
        if code not in car.cw_hand:
            raise IllegalMove(f"You do not hold {cw_name(code)}.")
        reason = why_not_cw(state, seat, code, action.target, action.side)
        if reason is not None:
            raise IllegalMove(reason)
        car.cw_hand.remove(code)
        shed(car, (code,))
        state.cw_done = True
        play_cw(state, seat, code, action.target, action.side)
        return
    if verb in ("cw-discard", "cw-discard-all"):
        if state.cw_done:
            raise IllegalMove("You have already made your Car Wars move this turn.")
        cards = list(car.cw_hand) if verb == "cw-discard-all" else list(action.cards)
        if not cards:
            raise IllegalMove("You hold no Car Wars cards to discard.")
        rest = list(car.cw_hand)
        for code in cards:
            if code not in rest:
                raise IllegalMove(f"You do not hold that many {cw_name(code)} cards.")
            rest.remove(code)
        car.cw_hand = rest
        shed(car, cards)
        learn(car, UNPLAYED, playable_codes(state, seat))
        state.cw_discard.extend(cards)
        state.cw_done = True
        count = "a Car Wars card" if len(cards) == 1 else f"{len(cards)} Car Wars cards"
        state.caption = f"{who} discards {count}."
        if not rest and car.jammed:
            car.jammed = False
            state.caption = f"{who} discards the whole Car Wars hand and unjams the guns."
        settle(state)
        return
    if verb == "drop-tank":
        if Card.EXTRA_TANK not in car.mb.safeties:
            raise IllegalMove(f"You have no {mb_name(state, Card.EXTRA_TANK)} in play.")
        remove_safety(state, car, Card.EXTRA_TANK)
        state.caption = f"{who} drops the {mb_name(state, Card.EXTRA_TANK)} before it can explode."
        return
    if verb == "end":
        if state.mb_left > 0 and car.mb.hand:
            raise IllegalMove("Make your Mille Bornes move first: play or discard one card.")
        if not state.cw_done:
            learn(car, UNPLAYED, playable_codes(state, seat))
        state.caption = f"{who} ends the turn."
        pass_turn(state)
        return
    raise IllegalMove(_not_now(verb))


def _not_now(verb: str) -> str:
    if verb == "skid":
        # Not an answer to a hit on you: "There is no hit to react to" spoke of another move.
        return "Skid Into a Wall only follows a shot of yours that a car has just dodged."
    if verb in ("armor", "swerve", "spin", "backfire", "oil-slick", "pass"):
        return "There is no hit to react to right now."
    if verb == "side":
        return "Nobody asked you for a side right now."
    return "That move is not possible right now."


def leave(state: DragonState, seat: int) -> DragonState:
    if state.phase is Phase.OVER:
        raise IllegalMove("The game is already over.")
    if not 0 <= seat < len(state.cars):
        raise NotYourTurn("You are not seated at this table.")
    car = state.cars[seat]
    if car.left:
        raise IllegalMove("You have already left this game.")
    if not car.alive:
        raise IllegalMove("Your driver is already out of the race.")
    new = state.clone()
    who = name(new, seat)
    new.step += 1
    if len(new.cars) == 2:
        new.cars[seat].left = True
        new.cars[seat].out_at = new.step
        new.caption = f"{who} left the arena."
        end_game(new, (1 - seat,), f"{who} left the game.")
        return new
    new.cars[seat].left = True
    retire(new, seat)
    new.caption = f"{who} left the arena."
    if check_end(new):
        return new  # the result line places everyone
    # Leavers finish below every car that has not left, a later one above an earlier one
    # (dragon.md, The end): the place is known now, and the table is told it.
    place = ordinal(sum(1 for car in new.cars if not car.left) + 1)
    head = (
        f"{who} left the game and will finish {place}; the car is out and its cards are discarded."
    )
    new.caption = head
    _leave_flow(new, seat)
    if new.phase is not Phase.OVER:
        # Who races on and who plays now, before what the leave set off (a chain that goes
        # on): the table heard only "left the arena", and had to work out the rest.
        racing = names([name(new, s) for s in living(new)])
        playing = "" if new.pending is not None else f", {name(new, new.turn)} to play"
        new.caption = f"{head} {racing} race on{playing}.{new.caption[len(head) :]}"
    return new


def _leave_flow(new: DragonState, seat: int) -> None:
    """What a car leaving in the middle of the game sets off: the turn passes on, or a chain
    about it ends, or the chain goes on for the cars still in it."""
    pending = new.pending
    if seat == new.turn:
        new.pending = None
        pass_turn(new)
        return
    if pending is not None:
        if new.phase is Phase.STAMPEDE:
            if seat in pending.waiting:
                pending.waiting.remove(seat)
            if not pending.waiting:
                settle(new)
                return
        elif seat in (pending.actor, pending.car):
            # The chain was about this car: it is gone, so the chain ends here.
            settle(new)
            return
        # The chain goes on for the cars still in it: say whose car it is about, or the hits
        # that land next read as the leaver's ("Bob left the arena. 4 hits to the front.").
        new.caption += f" {_still(new, pending)}"


def _still(state: DragonState, pending: Pending) -> str:
    """What the chain a car left in the middle of still does, naming the car it is about."""
    kind = pending.kind
    car = name(state, pending.car)
    if kind is Phase.REACT:
        weapon = SPECS[pending.card].name.split(" (")[0]
        where = "tires" if pending.side < 0 else SIDES[pending.side]
        return f"The {weapon} from {name(state, pending.by)} still comes at the {where} of {car}."
    if kind is Phase.BACKFIRE:
        return f"The backfire still strikes the front of {car}."
    if kind is Phase.WALL:
        return f"{car} still skids into the wall."
    if kind is Phase.SKID:
        return f"{name(state, pending.actor)} may still skid {car} into a wall."
    if kind is Phase.OIL_ACE:
        return f"{name(state, pending.actor)} may still answer the Oil Slick."
    if kind is Phase.COUP:
        return f"{car} may still answer the {mb_name(state, Card(pending.card))}."
    waiting = names([name(state, s) for s in pending.waiting])
    return f"The stampede goes on for {waiting}."


def resample(state: DragonState, seat: int | None, rng: random.Random) -> DragonState:
    """Deal every card ``seat`` cannot see again: hands of others and both draw piles."""
    after = state.clone()
    keep = reaction_cards(after)
    hidden = [s for s in range(len(after.cars)) if s != seat]
    kept: dict[int, list[str]] = {}
    for reactor, code in keep:
        if reactor != seat:
            kept.setdefault(reactor, []).append(code)
    # Mille Bornes cards.
    mb_keep: dict[int, list[Card]] = {}
    cw_keep: dict[int, list[str]] = {}
    for reactor, codes in kept.items():
        for code in codes:
            if code in SPECS:
                cw_keep.setdefault(reactor, []).append(code)
            else:
                mb_keep.setdefault(reactor, []).append(Card(code))
    mb_pool: list[Card] = list(after.mb_draw)
    cw_pool: list[str] = list(after.cw_draw)
    mb_sizes: dict[int, int] = {}
    cw_sizes: dict[int, int] = {}
    for s in hidden:
        car = after.cars[s]
        mb_hand = list(car.mb.hand)
        for card in mb_keep.get(s, []):
            mb_hand.remove(card)
        cw_hand = list(car.cw_hand)
        for code in cw_keep.get(s, []):
            cw_hand.remove(code)
        mb_sizes[s] = len(mb_hand)
        cw_sizes[s] = len(cw_hand)
        mb_pool += mb_hand
        cw_pool += cw_hand
    rng.shuffle(mb_pool)
    rng.shuffle(cw_pool)
    for s in hidden:
        car = after.cars[s]
        n, m = mb_sizes[s], cw_sizes[s]
        car.mb.hand = mb_keep.get(s, []) + mb_pool[:n]
        mb_pool = mb_pool[n:]
        car.cw_hand = cw_keep.get(s, []) + cw_pool[:m]
        cw_pool = cw_pool[m:]
    after.mb_draw = mb_pool
    after.cw_draw = cw_pool
    return after

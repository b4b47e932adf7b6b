"""Dragon Mille Bornes turn flow, legality and damage (RULINGS §5, seed items 1–9).

A turn: draw up to 7 Mille Bornes and 6 Car Wars cards, then one Mille Bornes action (play or
discard one card) and one Car Wars action (play one, or discard any number), in either order.
Every shot opens a reaction chain (``Pending``) the other seats answer out of turn.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import product
from operator import itemgetter

from bot.engine.core import IllegalMove, NotYourTurn
from bot.engine.dragon.cards import (
    ARMOR_FOR_SIDE,
    ARMOR_STOPS,
    CW_DEAL,
    CW_HAND,
    CW_ORDER,
    DRIVER_TRACK,
    MAX_ARMOR,
    MB_DEAL,
    MB_HAND,
    SIDE_TRACK,
    SIDES,
    SKID_HITS,
    SPECS,
    STAMPEDE_HITS,
    TIRE_TRACK,
    TRIP,
    cw_name,
)
from bot.engine.dragon.facts import learn, shed
from bot.engine.dragon.notation import (
    BACKFIRE,
    CW_DISCARD_ALL,
    DROP_TANK,
    END,
    OIL_SLICK,
    PASS,
    SPIN,
    SWERVE,
    Action,
)
from bot.engine.dragon.state import NONE_OF, ONE_OF, UNPLAYED, Car, DragonState, Pending, Phase
from bot.engine.mille.cards import (
    HAZARD_FOR,
    HAZARDS,
    HAZARDS_STOPPED_BY,
    SAFETIES,
    SAFETY_FOR,
    Card,
)
from bot.engine.mille.rules import can_go, is_limited
from bot.engine.mille.state import Tableau

QUIET_ROUNDS = 25
"""The arena closes after this many rounds in a row with no miles driven and no driver hurt
(our ruling: those are the only things that never undo, so every game ends)."""

# --- reading the table -------------------------------------------------------------------


def car_w(state: DragonState, seat: int) -> Car:
    """The car at ``seat``, made private to ``state`` before it is changed (copy on write)."""
    own = state.own
    if own is not None and not own[seat]:
        state.cars[seat] = state.cars[seat].clone()
        own[seat] = True
    return state.cars[seat]


def moving(car: Car) -> bool:
    """Is the car moving (seed 6.1): Mille Bornes can-go, tires not shot, not skidded."""
    return car.alive and can_go(car.mb) and car.tires < TIRE_TRACK and not car.skidded


def body_damaged(car: Car) -> bool:
    return any(car.hits)


def needs_repairs(car: Car) -> bool:
    """Would Repairs do anything for the car's Car Wars side?"""
    return body_damaged(car) or car.jammed or car.flamed


def living(state: DragonState) -> list[int]:
    return [seat for seat, car in enumerate(state.cars) if car.alive]


def sensible_side(car: Car) -> int:
    """The side a car would rather take a hit on: the least damaged (front first on ties)."""
    return min(range(len(SIDES)), key=lambda side: (car.hits[side], side))


def name(state: DragonState, seat: int) -> str:
    return state.players[seat]


def _mb_name(state: DragonState, card: Card) -> str:
    return card.name_in(state.options.get("names", "en"))


# --- dealing and turn flow -----------------------------------------------------------------


def shuffle_seed(state: DragonState, what: str, count: int) -> str:
    """Every shuffle and die roll comes from the game seed and a counter: replays exactly."""
    return f"dragon:{state.seed}:{what}:{count}"


def deal(state: DragonState, mb_cards: Sequence[Card], cw_cards: Sequence[str]) -> None:
    """Deal 6 Mille Bornes and 5 Car Wars cards to each seat (top of each deck first)."""
    seats = len(state.players)
    mb = list(mb_cards)
    cw = list(cw_cards)
    for seat in range(seats):
        car = state.cars[seat]
        car.mb.hand = mb[seat * MB_DEAL : (seat + 1) * MB_DEAL]
        car.cw_hand = cw[seat * CW_DEAL : (seat + 1) * CW_DEAL]
    state.mb_draw = list(reversed(mb[seats * MB_DEAL :]))
    state.cw_draw = list(reversed(cw[seats * CW_DEAL :]))


def begin_turn(state: DragonState, seat: int) -> None:
    """Hand the turn to ``seat``: it draws up to 7 and 6, then acts."""
    state.turn = seat
    state.phase = Phase.TURN
    state.pending = None
    state.mb_left = 1
    state.cw_done = False
    state.spun = False
    car = car_w(state, seat)
    while len(car.mb.hand) < MB_HAND:
        card = _draw_mb(state)
        if card is None:
            break
        car.mb.hand.append(card)
    while len(car.cw_hand) < CW_HAND:
        code = _draw_cw(state)
        if code is None:
            break
        car.cw_hand.append(code)


def _draw_mb(state: DragonState) -> Card | None:
    if not state.mb_draw:
        if not state.mb_discard:
            return None
        state.mb_shuffles += 1
        pile = state.mb_discard
        state.mb_discard = []
        random.Random(shuffle_seed(state, "mb", state.mb_shuffles)).shuffle(pile)
        state.mb_draw = pile
    return state.mb_draw.pop()


def _draw_cw(state: DragonState) -> str | None:
    if not state.cw_draw:
        if not state.cw_discard:
            return None
        state.cw_shuffles += 1
        pile = state.cw_discard
        state.cw_discard = []
        random.Random(shuffle_seed(state, "cw", state.cw_shuffles)).shuffle(pile)
        state.cw_draw = pile
    return state.cw_draw.pop()


def next_seat(state: DragonState, seat: int) -> int:
    seats = len(state.cars)
    for step in range(1, seats + 1):
        other = (seat + step) % seats
        if state.cars[other].alive:
            return other
    return seat


def pass_turn(state: DragonState) -> None:
    if state.phase is Phase.OVER:
        return
    state.quiet += 1
    if state.quiet >= QUIET_ROUNDS * len(living(state)):
        _stalemate(state)
        return
    begin_turn(state, next_seat(state, state.turn))


def turn_finished(state: DragonState) -> bool:
    car = state.cars[state.turn]
    mb_done = state.mb_left <= 0 or not car.mb.hand
    cw_done = state.cw_done or not car.cw_hand
    return mb_done and cw_done


def settle(state: DragonState) -> None:
    """Back to the turn player after a move or a finished chain: end the turn when done."""
    if state.phase is Phase.OVER:
        return
    state.pending = None
    state.phase = Phase.TURN
    if not state.cars[state.turn].alive or turn_finished(state):
        pass_turn(state)


# --- to act and legal actions --------------------------------------------------------------


def to_act(state: DragonState) -> frozenset[int]:
    phase = state.phase
    if phase is Phase.OVER:
        return frozenset()
    if phase is Phase.TURN:
        return frozenset((state.turn,))
    pending = state.pending
    assert pending is not None
    if phase is Phase.STAMPEDE:
        return frozenset(pending.waiting)
    return frozenset((pending.actor,))


def legal_actions(state: DragonState, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    phase = state.phase
    if phase is Phase.TURN:
        return _turn_actions(state, seat)
    pending = state.pending
    assert pending is not None
    car = state.cars[seat]
    if phase is Phase.REACT:
        return [PASS, *_reactions(state, pending)]
    if phase is Phase.COUP:
        return [PASS, *_coup_reactions(car, Card(pending.card))]
    if phase is Phase.SKID:
        return [PASS, Action("skid", target=pending.car)]
    if phase is Phase.BACKFIRE:
        return [PASS, *_armor_reactions(car, pending)]
    if phase is Phase.OIL_ACE:
        return [PASS, Action("play", Card.DRIVING_ACE.value)]
    # WALL and STAMPEDE: pick a side (armor on it stops the hits).
    return _side_choices(state, seat, pending)


def _side_choices(state: DragonState, seat: int, pending: Pending) -> list[Action]:
    car = state.cars[seat]
    sides = [Action("side", side=side) for side in range(len(SIDES))]
    armors = [
        Action("armor", side=side)
        for side in range(len(SIDES))
        if ARMOR_FOR_SIDE[side] in car.cw_hand
    ]
    ace = []
    if state.phase is Phase.WALL and pending.ace and Card.DRIVING_ACE in car.mb.hand:
        ace = [Action("play", Card.DRIVING_ACE.value)]
    return [*sides, *armors, *ace]


def default_action(state: DragonState, seat: int) -> Action | None:
    """The reaction a window closes with: no reaction, or the least damaged side."""
    if state.phase in (Phase.TURN, Phase.OVER) or seat not in to_act(state):
        return None
    if state.phase in (Phase.WALL, Phase.STAMPEDE):
        return Action("side", side=sensible_side(state.cars[seat]))
    return PASS


def _turn_actions(state: DragonState, seat: int) -> list[Action]:
    car = state.cars[seat]
    actions: list[Action] = []
    if state.mb_left > 0 and car.mb.hand:
        actions += _mb_actions(state, seat)
    if not state.cw_done and car.cw_hand:
        actions += _cw_plays(state, seat)
        actions += _cw_discards(car.cw_hand)
    if Card.EXTRA_TANK in car.mb.safeties:
        actions.append(DROP_TANK)
    if state.mb_left <= 0 or not car.mb.hand:
        actions.append(END)
    return actions


_PLAY = {card: Action("play", card.value) for card in Card}
_DISCARD = {card: Action("discard", card.value) for card in Card}
_PLAY_ON = {(card, seat): Action("play", card.value, seat) for card in Card for seat in range(6)}
_SAFETY_SET = frozenset(SAFETIES)
_HAZARD_SET = frozenset(HAZARDS)
_DISTANCE = {card: card.miles for card in Card if card.is_distance}


def _mb_actions(state: DragonState, seat: int) -> list[Action]:
    """The Mille Bornes plays and discards, the fast way: the same answers as ``why_not_mb``
    (a test holds them to it), with the table read once."""
    car = state.cars[seat]
    me = car.mb
    distinct = sorted(set(me.hand), key=_MB_ORDER.__getitem__)
    go = moving(car)
    top = me.battle_top
    row = Card.RIGHT_OF_WAY in me.safeties
    limited = bool(me.speed) and me.speed[-1] is Card.SPEED_LIMIT
    left = TRIP - me.mileage
    two_hundreds = me.miles.count(Card.D200)
    targets = [
        (other, victim, moving(victim), victim.mb.safeties)
        for other, victim in enumerate(state.cars)
        if other != seat and victim.alive
    ]
    plays: list[Action] = []
    discards: list[Action] = []
    for card in distinct:
        if card in _SAFETY_SET:
            plays.append(_PLAY[card])
            continue
        discards.append(_DISCARD[card])
        miles = _DISTANCE.get(card)
        if miles is not None:
            fits = go and miles <= left and not (limited and miles > 50)
            if fits and (card is not Card.D200 or two_hundreds < 2):
                plays.append(_PLAY[card])
        elif card in _HAZARD_SET:
            if card is Card.SPEED_LIMIT:
                for other, victim, _, safeties in targets:
                    speed = victim.mb.speed
                    if Card.RIGHT_OF_WAY not in safeties and not (
                        speed and speed[-1] is Card.SPEED_LIMIT
                    ):
                        plays.append(_PLAY_ON[card, other])
            else:
                safety = SAFETY_FOR[card]
                for other, _, moves, safeties in targets:
                    if moves and safety not in safeties:
                        plays.append(_PLAY_ON[card, other])
        elif card is Card.GO:
            clear = top is None or not top.is_hazard or top is Card.STOP
            if clear and (car.skidded or (not row and top is not Card.GO)):
                plays.append(_PLAY[card])
        elif card is Card.END_OF_LIMIT:
            if limited:
                plays.append(_PLAY[card])
        elif card is Card.GASOLINE:
            if top is Card.OUT_OF_GAS:
                plays.append(_PLAY[card])
        elif card is Card.SPARE_TIRE:
            if top is Card.FLAT_TIRE or car.tires > 0:
                plays.append(_PLAY[card])
        elif top is Card.ACCIDENT or needs_repairs(car):  # Repairs
            plays.append(_PLAY[card])
    return plays + discards


def _others(state: DragonState, seat: int) -> list[int]:
    return [other for other, car in enumerate(state.cars) if other != seat and car.alive]


def _cw_plays(state: DragonState, seat: int) -> list[Action]:
    car = state.cars[seat]
    plays: list[Action] = []
    for code in sorted(set(car.cw_hand), key=CW_ORDER.__getitem__):
        spec = SPECS[code]
        if spec.kind in ("weapon", "tire-shot", "jam"):
            plays += [
                Action("cw", code, target)
                for target in _others(state, seat)
                if why_not_cw(state, seat, code, target, None) is None
            ]
        elif spec.kind == "called-shot":
            plays += [
                Action("cw", code, target, side)
                for target in _others(state, seat)
                for side in range(len(SIDES))
                if why_not_cw(state, seat, code, target, side) is None
            ]
        elif (
            spec.kind in ("stampede", "fireproof")
            and why_not_cw(state, seat, code, None, None) is None
        ):
            plays.append(Action("cw", code))
    return plays


_PLAYED_CODES = tuple(
    code
    for code in sorted(SPECS, key=CW_ORDER.__getitem__)
    if SPECS[code].kind in ("weapon", "called-shot", "tire-shot", "jam", "stampede", "fireproof")
)


def playable_codes(state: DragonState, seat: int) -> tuple[str, ...]:
    """The Car Wars cards ``seat`` could play as its Car Wars move now if it held them (the
    table knows these without seeing its hand; ``why_not_cw`` decides, and the answer is
    cached on what it reads)."""
    if state.cw_done:
        return ()
    car = state.cars[seat]
    others = _others(state, seat)
    return _playable(
        state.spun,
        car.jammed,
        bool(car.fireproof),
        car.flamed,
        bool(others),
        any(not state.cars[o].jammed for o in others),
    )


@lru_cache(maxsize=64)
def _playable(
    spun: bool, jammed: bool, fitted: bool, flamed: bool, target: bool, unjammed_target: bool
) -> tuple[str, ...]:
    """``playable_codes`` for one situation, worked out on a stand-in table by ``why_not_cw``
    itself, so the two can never disagree."""
    me = Car(Tableau(), jammed=jammed, flamed=flamed, fireproof=["fireproof"] if fitted else [])
    rival = Car(Tableau(), jammed=not unjammed_target, alive=target)
    table = DragonState(("A", "B"), {}, 0, [me, rival], [], [], [], [], 0, Phase.TURN, spun=spun)
    return tuple(
        code
        for code in _PLAYED_CODES
        if any(
            why_not_cw(table, 0, code, target, side) is None
            for target in (None, 1)
            for side in (None, 0)
        )
    )


def _cw_discards(hand: list[str]) -> list[Action]:
    """Every distinct choice of Car Wars cards to discard (smallest first, then in card
    order); the whole hand is ``all``."""
    ordered = tuple(sorted(hand, key=CW_ORDER.__getitem__))
    shape = tuple(Counter(ordered).values())  # equal cards sit together in ``ordered``
    picks = [get(ordered) for get in _pickers(shape)]
    return [*map(_discard_action, picks), CW_DISCARD_ALL]


@lru_cache(maxsize=1 << 16)
def _discard_action(cards: tuple[str, ...]) -> Action:
    """The discard of ``cards``, built once while it is in use. Bounded: six-card hands give
    hundreds of thousands of distinct discards, and a long-running bot (or an expert's
    rollouts) would otherwise keep every one it ever listed."""
    return Action("cw-discard", cards=cards)


@lru_cache(maxsize=256)
def _pickers(shape: tuple[int, ...]) -> tuple[Callable[[tuple[str, ...]], tuple[str, ...]], ...]:
    """For a sorted hand whose runs of equal cards have the lengths ``shape``: one getter per
    distinct proper, non-empty choice of cards, smallest first."""
    starts = [sum(shape[:i]) for i in range(len(shape))]
    choices: list[tuple[int, ...]] = []
    for counts in product(*(range(n + 1) for n in shape)):
        size = sum(counts)
        if 0 < size < sum(shape):
            choices.append(
                tuple(s + k for s, n in zip(starts, counts, strict=True) for k in range(n))
            )
    choices.sort(key=lambda idx: (len(idx), idx))
    return tuple(_getter(idx) for idx in choices)


def _getter(positions: tuple[int, ...]) -> Callable[[tuple[str, ...]], tuple[str, ...]]:
    if len(positions) == 1:
        (only,) = positions
        return lambda hand: (hand[only],)
    return itemgetter(*positions)


_MB_ORDER = {card: index for index, card in enumerate(Card)}
_MB_CODES = frozenset(card.value for card in Card)


# --- Mille Bornes legality -----------------------------------------------------------------


def why_not_mb(state: DragonState, seat: int, card: Card, target: int | None) -> str | None:
    """None if ``seat`` may play the Mille Bornes ``card`` (on ``target``) now, else why not."""
    car = state.cars[seat]
    me = car.mb
    if card.is_safety:
        return None if target is None else "A safety goes on your own car; name no target."
    if card.is_hazard:
        return _why_not_hazard(state, seat, card, target)
    if target is not None:
        return f"{_mb_name(state, card)} goes on your own car; name no target."
    if card.is_distance:
        if not moving(car):
            return _why_stopped(car)
        if is_limited(me) and card.miles > 50:
            return "You are under a Speed Limit: only 25 and 50 miles may be played."
        if card is Card.D200 and me.two_hundreds >= 2:
            return "You have already played two 200s."
        if me.mileage + card.miles > TRIP:
            return f"That would take you past {TRIP} miles; the race ends exactly on {TRIP}."
        return None
    top = me.battle_top
    if card is Card.GO:
        if top is not None and top.is_hazard and top is not Card.STOP:
            return f"Fix the {_mb_name(state, top)} first: Go cannot cover it."
        if car.skidded:
            return None
        if Card.RIGHT_OF_WAY in me.safeties:
            return "Right of Way already lets you go; you do not need a Go."
        if top is Card.GO:
            return "You already have a Go showing."
        return None
    if card is Card.END_OF_LIMIT:
        return None if is_limited(me) else "You are not under a Speed Limit."
    if card is Card.GASOLINE:
        if top is Card.OUT_OF_GAS:
            return None
        return "Gasoline only answers Out of Gas, and that is not on your battle pile."
    if card is Card.SPARE_TIRE:
        if top is Card.FLAT_TIRE or car.tires > 0:
            return None
        return "Spare Tire mends a Flat Tire or tire hits, and you have neither."
    # Repairs
    if top is Card.ACCIDENT or needs_repairs(car):
        return None
    return "Repairs fixes an Accident, body hits or jammed guns, and you need none of that."


def _why_stopped(car: Car) -> str:
    if car.tires >= TIRE_TRACK:
        return "Your tires are shot: play a Spare Tire (then a Go) before you drive again."
    if car.skidded:
        return "You skidded into a wall: play a Go to drive again."
    return "You cannot move yet: you need a Go (or Right of Way) with no hazard showing."


def _why_not_hazard(state: DragonState, seat: int, card: Card, target: int | None) -> str | None:
    if target is None:
        return f"Name the car for {_mb_name(state, card)}, for example 'play {card.value} @1'."
    if target == seat:
        return "You cannot play a hazard on your own car."
    if not 0 <= target < len(state.cars):
        return f"There is no car @{target}."
    victim = state.cars[target]
    rival = name(state, target)
    if not victim.alive:
        return f"{rival}'s car is out of the race."
    if card is Card.SPEED_LIMIT:
        if Card.RIGHT_OF_WAY in victim.mb.safeties:
            return f"{rival} has Right of Way and cannot be speed-limited."
        if is_limited(victim.mb):
            return f"{rival} is already under a Speed Limit."
        return None
    if SAFETY_FOR[card] in victim.mb.safeties:
        return f"{rival} is protected against {_mb_name(state, card)}."
    if not moving(victim):
        return f"{rival} is not moving, so {_mb_name(state, card)} cannot be played on them."
    return None


# --- Car Wars legality ---------------------------------------------------------------------


def why_not_cw(
    state: DragonState, seat: int, code: str, target: int | None, side: int | None
) -> str | None:
    """None if ``seat`` may play the Car Wars card ``code`` now, else the reason in words."""
    car = state.cars[seat]
    spec = SPECS[code]
    kind = spec.kind
    if kind in ("armor", "swerve", "spin", "backfire", "oil-slick", "skid"):
        return f"{spec.name} is a reaction: it is played when a hit comes, not as your move."
    if state.spun and kind in ("weapon", "called-shot", "tire-shot", "stampede"):
        return "Your attack was spun: you may not attack again this turn."
    if state.cw_done:
        return "You have already made your Car Wars move this turn."
    if kind == "fireproof":
        if target is not None:
            return "Fireproof Armor goes on your own car; name no target."
        if car.fireproof:
            return "Your car already has Fireproof Armor."
        if car.flamed:
            return (
                "You have taken flame damage: Fireproof Armor cannot go on until you play Repairs."
            )
        return None
    if kind == "stampede":
        return None if target is None else "A Stampede hits every other car; name no target."
    if target is None:
        return f"Name the car to attack, for example '{code} @1'."
    if target == seat:
        return "You cannot attack your own car."
    if not 0 <= target < len(state.cars):
        return f"There is no car @{target}."
    if not state.cars[target].alive:
        return f"{name(state, target)}'s car is out of the race: pick a live target."
    if kind == "called-shot":
        if side is None:
            return "A Called Shot names a side: front, back, left or right (never the tires)."
    elif side is not None:
        return f"{spec.name} names no side."
    if kind == "jam" and state.cars[target].jammed:
        return f"{name(state, target)}'s machine guns are already jammed."
    if spec.weapon == "mg" and car.jammed:
        return (
            "Your machine guns are jammed: discard your whole Car Wars hand (cw-discard all) "
            "or play Repairs to unjam them."
        )
    return None


# --- reactions -----------------------------------------------------------------------------


def _armor_answer(pending: Pending) -> list[str]:
    """The Armor card that would soften the pending hit (none for tires, a third armor or a
    hit already stopped)."""
    side = pending.side
    if side < 0 or pending.armor >= MAX_ARMOR:
        return []
    if pending.hits - ARMOR_STOPS * pending.armor <= 0:
        return []
    return [ARMOR_FOR_SIDE[side]]


def _armor_reactions(car: Car, pending: Pending) -> list[Action]:
    return [Action("armor", side=pending.side) for c in _armor_answer(pending) if c in car.cw_hand]


_ANSWERS = {"swerve": SWERVE, "spin": SPIN, "backfire": BACKFIRE, "oil-slick": OIL_SLICK}


def _answers(state: DragonState, pending: Pending) -> list[str]:
    """The Car Wars cards that would answer the pending shot, held or not: what the table
    knows the victim may answer with, without seeing its hand."""
    codes = _armor_answer(pending)
    if pending.armor == 0:
        if moving(state.cars[pending.car]):
            codes += ["swerve", "spin"]
        if SPECS[pending.card].weapon == "ac":
            codes.append("backfire")
        if state.options.get("oil_slick") == "on" and pending.oil_by < 0:
            codes.append("oil-slick")
    return codes


def _reactions(state: DragonState, pending: Pending) -> list[Action]:
    """The victim's possible answers to a shot (besides taking it)."""
    hand = state.cars[pending.car].cw_hand
    return [
        _ANSWERS.get(code) or Action("armor", side=pending.side)
        for code in _answers(state, pending)
        if code in hand
    ]


def _coup_reactions(car: Car, hazard: Card) -> list[Action]:
    safety = SAFETY_FOR[hazard]
    return [Action("play", safety.value)] if safety in car.mb.hand else []


def reaction_cards(state: DragonState) -> list[tuple[int, str]]:
    """The (seat, card) a pending window needs so its reactor has a legal reaction.

    ``resample_hidden`` keeps one such card in the reactor's hand: the table knows a window is
    open, so it knows the reactor holds something that answers it.
    """
    pending = state.pending
    if pending is None or state.phase in (Phase.WALL, Phase.STAMPEDE, Phase.OVER):
        return []
    seat = pending.actor
    car = state.cars[seat]
    if state.phase is Phase.COUP:
        return [(seat, SAFETY_FOR[Card(pending.card)].value)]
    if state.phase is Phase.SKID:
        return [(seat, "skid")]
    if state.phase is Phase.OIL_ACE:
        return [(seat, Card.DRIVING_ACE.value)]
    options = _armor_reactions(car, pending)
    if state.phase is Phase.REACT:
        options = _reactions(state, pending)
    cards = []
    for action in options:
        if action.verb == "armor":
            cards.append(ARMOR_FOR_SIDE[action.side or 0])
        else:
            cards.append(action.verb)
    return [(seat, cards[0])] if cards else []


# --- applying actions ----------------------------------------------------------------------


def apply(state: DragonState, seat: int, action: Action) -> DragonState:
    if state.phase is Phase.OVER:
        raise IllegalMove("This game is over.")
    if not 0 <= seat < len(state.cars):
        raise NotYourTurn("You are not seated at this table.")
    acting = to_act(state)
    if seat not in acting:
        if not state.cars[seat].alive:
            raise NotYourTurn("Your car is out of the race: you no longer play.")
        waiting = ", ".join(name(state, s) for s in sorted(acting))
        raise NotYourTurn(f"It is not your move: waiting for {waiting}.")
    new = state.fork()
    _dispatch(new, seat, action)
    return new


def apply_in_place(state: DragonState, seat: int, action: Action) -> None:
    """``apply`` without the copy, for a search that owns ``state`` (a rollout's scratch
    state): ``state`` becomes the state after the move. A refused move may leave ``state``
    half changed, so pass legal actions only. ``apply`` stays the safe way for everything else.
    """
    if state.phase is Phase.OVER:
        raise IllegalMove("This game is over.")
    if seat not in to_act(state):
        raise NotYourTurn("It is not your move.")
    _dispatch(state, seat, action)


def _dispatch(state: DragonState, seat: int, action: Action) -> None:
    phase = state.phase
    if phase is Phase.TURN:
        _apply_turn(state, seat, action)
    elif phase is Phase.REACT:
        _apply_react(state, seat, action)
    elif phase is Phase.COUP:
        _apply_coup(state, seat, action)
    elif phase is Phase.SKID:
        _apply_skid(state, seat, action)
    elif phase is Phase.BACKFIRE:
        _apply_backfire(state, seat, action)
    elif phase is Phase.OIL_ACE:
        _apply_oil_ace(state, seat, action)
    else:  # WALL, STAMPEDE
        _apply_side(state, seat, action)


def _apply_turn(state: DragonState, seat: int, action: Action) -> None:
    verb = action.verb
    if verb in ("play", "discard") and action.card not in _MB_CODES:
        raise IllegalMove("That is not a Mille Bornes card.")
    cw_cards = (action.card,) if verb == "cw" else action.cards
    if verb in ("cw", "cw-discard") and not all(c in SPECS for c in cw_cards):
        raise IllegalMove("That is not a Car Wars card.")
    car = car_w(state, seat)
    who = name(state, seat)
    if verb in ("play", "discard"):
        if state.mb_left <= 0:
            raise IllegalMove("You have already made your Mille Bornes move this turn.")
        card = Card(action.card)
        if card not in car.mb.hand:
            raise IllegalMove(f"You do not hold {_mb_name(state, card)}.")
        if verb == "discard":
            if action.target is not None:
                raise IllegalMove("A discard names no target.")
            if card.is_safety:
                raise IllegalMove("Safeties can never be discarded; play it instead.")
            car.mb.hand.remove(card)
            state.mb_discard.append(card)
            state.mb_left -= 1
            state.caption = f"{who} discards {_mb_name(state, card)}."
            settle(state)
            return
        reason = why_not_mb(state, seat, card, action.target)
        if reason is not None:
            raise IllegalMove(reason)
        car.mb.hand.remove(card)
        state.mb_left -= 1
        _play_mb(state, seat, card, action.target)
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
        _play_cw(state, seat, code, action.target, action.side)
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
            raise IllegalMove("You have no Extra Tank in play.")
        _remove_safety(state, car, Card.EXTRA_TANK)
        state.caption = f"{who} drops the Extra Tank before it can explode."
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
    if verb in ("armor", "swerve", "spin", "backfire", "oil-slick", "pass", "skid"):
        return "There is no hit to react to right now."
    if verb == "side":
        return "Nobody asked you for a side right now."
    return "That move is not possible right now."


def _remove_safety(state: DragonState, car: Car, card: Card) -> None:
    car.mb.safeties.remove(card)
    if card in car.mb.coups:
        car.mb.coups.remove(card)
    state.mb_discard.append(card)


def _play_mb(state: DragonState, seat: int, card: Card, target: int | None) -> None:
    car = car_w(state, seat)
    me = car.mb
    who = name(state, seat)
    title = _mb_name(state, card)
    if card.is_safety:
        _put_safety(state, seat, card, coup=False)
        state.mb_left += 1  # a safety on your own turn gives one more Mille Bornes action
        state.caption = f"{who} plays the safety {title} and keeps the Mille Bornes move."
        settle(state)
        return
    if card.is_distance:
        me.miles.append(card)
        state.quiet = 0
        state.caption = f"{who} drives {card.miles} miles ({me.mileage} so far)."
        if me.mileage == TRIP:
            _finish_race(state, seat)
            return
        settle(state)
        return
    if card.is_hazard:
        assert target is not None
        victim = car_w(state, target).mb
        if card is Card.SPEED_LIMIT:
            state.mb_discard.extend(victim.speed)
            victim.speed = [card]
        else:
            # The card beneath a hazard stays (a safety uncovers it); older cards are discarded.
            state.mb_discard.extend(victim.battle[:-1])
            victim.battle = [*victim.battle[-1:], card]
        state.caption = f"{who} plays {title} on {name(state, target)}!"
        if _coup_reactions(state.cars[target], card):
            state.phase = Phase.COUP
            state.pending = Pending(Phase.COUP, actor=target, car=target, by=seat, card=card.value)
            return
        settle(state)
        return
    # Remedies.
    state.caption = f"{who} plays {title}."
    if card is Card.END_OF_LIMIT:
        state.mb_discard.extend(me.speed)
        me.speed = [card]
    elif card is Card.GO:
        state.mb_discard.extend(me.battle)
        me.battle = [card]
        car.skidded = False
    elif card is Card.GASOLINE:
        _cover(state, car, card)
    else:
        hazard = HAZARD_FOR[card]
        if card is Card.SPARE_TIRE and car.tires:
            car.tires = 0
            state.caption = f"{who} puts on a Spare Tire: the tires are as good as new."
        if card is Card.REPAIRS and needs_repairs(car):
            car.hits = [0, 0, 0, 0]
            car.jammed = False
            car.flamed = False
            state.caption = f"{who} plays Repairs: body hits gone, guns unjammed."
        top = me.battle_top
        if top is hazard or top is None or not top.is_hazard:
            _cover(state, car, card)  # moving cars stop to repair: they need a Go again
        else:
            state.mb_discard.append(card)  # another hazard shows: it stays
    settle(state)


def _cover(state: DragonState, car: Car, card: Card) -> None:
    """A remedy goes on the battle pile; what it covered goes to the discard."""
    state.mb_discard.extend(car.mb.battle)
    car.mb.battle = [card]


def _put_safety(state: DragonState, seat: int, card: Card, coup: bool) -> None:
    """The safety goes on the car and removes the hazards it answers that are showing."""
    me = car_w(state, seat).mb
    me.safeties.append(card)
    if coup:
        me.coups.append(card)
    for hazard in HAZARDS_STOPPED_BY[card]:
        pile = me.speed if hazard is Card.SPEED_LIMIT else me.battle
        if pile and pile[-1] is hazard:
            state.mb_discard.append(pile.pop())


def _play_cw(
    state: DragonState, seat: int, code: str, target: int | None, side: int | None
) -> None:
    spec = SPECS[code]
    who = name(state, seat)
    state.cw_discard.append(code)
    if spec.kind == "fireproof":
        state.cw_discard.pop()
        car_w(state, seat).fireproof.append(code)
        state.caption = f"{who} fits Fireproof Armor."
        settle(state)
        return
    if spec.kind == "stampede":
        waiting = []
        seats = len(state.cars)
        for step in range(1, seats):
            other = (seat + step) % seats
            if state.cars[other].alive:
                waiting.append(other)
        state.caption = f"{who} starts a Stampede: every other car takes {STAMPEDE_HITS} hits!"
        state.phase = Phase.STAMPEDE
        state.pending = Pending(
            Phase.STAMPEDE, actor=seat, car=seat, by=seat, card=code, hits=STAMPEDE_HITS
        )
        state.pending.waiting = waiting
        return
    assert target is not None
    rival = name(state, target)
    if spec.kind == "jam":
        car_w(state, target).jammed = True
        state.caption = f"{who} jams {rival}'s machine guns!"
        settle(state)
        return
    if spec.kind == "tire-shot":
        hit_side = -1
        where = "tires"
    else:
        hit_side = spec.side if spec.kind == "weapon" else (side or 0)
        where = SIDES[hit_side]
    state.caption = f"{who} fires {spec.name.split(' (')[0]} at {rival}'s {where}."
    pending = Pending(
        Phase.REACT, actor=target, car=target, by=seat, card=code, side=hit_side, hits=spec.hits
    )
    _offer_reaction(state, pending)


def _offer_reaction(state: DragonState, pending: Pending) -> None:
    """Open the victim's window if it holds a reaction, else the shot lands at once."""
    pending.kind = Phase.REACT
    pending.actor = pending.car
    state.pending = pending
    if _reactions(state, pending):
        state.phase = Phase.REACT
        return
    _no_window(state, pending.car, _answers(state, pending))
    _land_shot(state, pending)


def _no_window(state: DragonState, seat: int, codes: list[str]) -> None:
    """No window opened for ``seat``: the table now knows it holds none of ``codes``."""
    if codes:
        learn(car_w(state, seat), NONE_OF, codes)


def _land_shot(state: DragonState, pending: Pending) -> None:
    spec = SPECS[pending.card]
    stopped = ARMOR_STOPS * pending.armor
    hits = max(0, pending.hits - stopped)
    state.step += 1
    if pending.side < 0:
        _hit_tires(state, pending.car, hits)
    else:
        _hit_side(state, pending.car, pending.side, hits, spec.flame, pending.by)
    if _check_end(state):
        return
    _after_shot(state, pending.oil_by)


def _after_shot(state: DragonState, oil_by: int) -> None:
    """The shot and its chain are over: an Oil Slick now makes the shooter roll."""
    shooter = state.turn
    if oil_by >= 0 and state.cars[shooter].alive:
        state.rolls += 1
        car = state.cars[shooter]
        roll = random.Random(shuffle_seed(state, "roll", state.rolls)).randint(1, 6)
        ace = Card.DRIVING_ACE in car.mb.safeties
        score = roll - 1 if ace else roll
        left = DRIVER_TRACK - car.driver
        note = f" {name(state, shooter)} rolls {roll}{' (-1, Driving Ace)' if ace else ''}"
        if score <= left:
            state.caption += f"{note} on the Oil Slick and keeps control."
        else:
            state.caption += f"{note} on the Oil Slick (needs {left} or less) and skids!"
            state.phase = Phase.WALL
            state.pending = Pending(
                Phase.WALL, actor=shooter, car=shooter, by=oil_by, card="oil-slick", hits=SKID_HITS
            )
            return
    settle(state)


def _hits(count: int) -> str:
    return "1 hit" if count == 1 else f"{count} hits"


def _hit_tires(state: DragonState, seat: int, hits: int) -> None:
    car = car_w(state, seat)
    car.tires = min(TIRE_TRACK, car.tires + hits)
    if hits:
        state.caption += f" {_hits(hits)} to the tires."
    if car.tires >= TIRE_TRACK and hits:
        state.caption += f" {name(state, seat)}'s tires are shot: the car stops."


def _hit_side(state: DragonState, seat: int, side: int, hits: int, flame: bool, by: int) -> None:
    """``hits`` land on a side; past 12 they carry onto the driver (seed 5.1)."""
    car = car_w(state, seat)
    if hits <= 0:
        state.caption += " No damage."
        return
    tank = Card.EXTRA_TANK in car.mb.safeties
    who = name(state, seat)
    if flame and tank:
        _remove_safety(state, car, Card.EXTRA_TANK)
        state.caption += f" {who}'s Extra Tank is destroyed!"
    if flame and car.fireproof:
        state.caption += " Fireproof Armor stops the flames."
        return
    total = car.hits[side] + hits
    carry = max(0, total - SIDE_TRACK)
    was_breached = car.hits[side] >= SIDE_TRACK
    car.hits[side] = min(SIDE_TRACK, total)
    if flame:
        car.flamed = True
    state.caption += f" {_hits(hits)} to the {SIDES[side]}."
    if car.hits[side] >= SIDE_TRACK and not was_breached:
        state.caption += f" The {SIDES[side]} is breached!"
    if carry:
        if flame and tank:
            state.caption += f" The flames reach {who}: the Extra Tank explodes!"
            _kill(state, seat, by)
            return
        car.driver = min(DRIVER_TRACK, car.driver + carry)
        state.quiet = 0
        state.caption += f" {who}'s driver takes {carry}."
        if car.driver >= DRIVER_TRACK:
            _kill(state, seat, by)


def _kill(state: DragonState, seat: int, by: int) -> None:
    car = car_w(state, seat)
    state.quiet = 0
    car.driver = DRIVER_TRACK
    car.killed_by = by
    if 0 <= by < len(state.cars) and by != seat:
        car_w(state, by).kills += 1
        state.caption += f" {name(state, seat)} is dead — a kill for {name(state, by)}."
    else:
        state.caption += f" {name(state, seat)} is dead."
    _retire(state, seat)


def _retire(state: DragonState, seat: int) -> None:
    """The car goes out: its hands and car cards go to the discards (RULINGS §5)."""
    car = car_w(state, seat)
    car.final_miles = car.mb.mileage
    car.alive = False
    car.out_at = state.step
    car.skidded = False
    t = car.mb
    state.mb_discard.extend(t.hand + t.battle + t.speed + t.safeties + t.miles)
    t.hand, t.battle, t.speed, t.safeties, t.miles, t.coups = [], [], [], [], [], []
    state.cw_discard.extend(car.cw_hand + car.fireproof)
    car.cw_hand, car.fireproof, car.facts = [], [], []


def _apply_react(state: DragonState, seat: int, action: Action) -> None:
    pending = state.pending
    assert pending is not None
    car = car_w(state, seat)
    who = name(state, seat)
    if action == PASS:
        # The window was open, so the table knows an answer was held (and kept).
        learn(car, ONE_OF, _answers(state, pending))
        _land_shot(state, pending)
        return
    legal = _reactions(state, pending)
    if action not in legal:
        raise IllegalMove(_why_not_reaction(state, pending, action))
    if action.verb == "armor":
        _use_cw(state, car, ARMOR_FOR_SIDE[pending.side])
        pending.armor += 1
        state.caption += f" {who} plays Armor on the {SIDES[pending.side]}."
        if _reactions(state, pending):
            return  # a second Armor may follow
        _no_window(state, seat, _answers(state, pending))
        _land_shot(state, pending)
        return
    if action in (SWERVE, SPIN):
        _use_cw(state, car, action.verb)
        if action == SPIN:
            state.spun = True
            state.caption += f" {who} spins: the shot misses, and no more attacks this turn."
        else:
            state.caption += f" {who} swerves: the shot misses."
        shooter = state.cars[pending.by]
        if car.alive and Card.DRIVING_ACE not in car.mb.safeties and shooter.alive:
            if "skid" in shooter.cw_hand:
                state.phase = Phase.SKID
                pending.kind = Phase.SKID
                pending.actor = pending.by
                return
            _no_window(state, pending.by, ["skid"])
        _after_shot(state, pending.oil_by)
        return
    if action == BACKFIRE:
        _use_cw(state, car, "backfire")
        attacker = pending.by
        state.caption += f" {who}: Autocannon Backfires! The hits strike {name(state, attacker)}."
        pending.kind = Phase.BACKFIRE
        pending.actor = attacker
        pending.car = attacker
        pending.by = seat
        pending.side = 0
        pending.armor = 0
        if _armor_reactions(state.cars[attacker], pending):
            state.phase = Phase.BACKFIRE
            return
        _no_window(state, attacker, _armor_answer(pending))
        _land_backfire(state, pending)
        return
    # Oil Slick
    _use_cw(state, car, "oil-slick")
    pending.oil_by = seat
    state.caption += f" {who} drops an Oil Slick: the shooter must roll after the shot."
    shooter = state.cars[pending.by]
    if Card.DRIVING_ACE in shooter.mb.hand:
        state.phase = Phase.OIL_ACE
        pending.kind = Phase.OIL_ACE
        pending.actor = pending.by
        return
    if _reactions(state, pending):
        return
    _no_window(state, seat, _answers(state, pending))
    _land_shot(state, pending)


def _why_not_reaction(state: DragonState, pending: Pending, action: Action) -> str:
    car = state.cars[pending.car]
    spec = SPECS[pending.card]
    verb = action.verb
    if verb == "armor":
        if pending.side < 0:
            return "Armor covers a side; a Tire Shot hits the tires, so no armor helps."
        if action.side != pending.side:
            return f"The shot hits the {SIDES[pending.side]}: armor must cover that side."
        if ARMOR_FOR_SIDE[pending.side] not in car.cw_hand:
            return f"You hold no Armor for the {SIDES[pending.side]}."
        if pending.armor >= MAX_ARMOR:
            return "Two Armor cards are already stacked against this hit."
        return "The armor already stops every hit of this shot."
    if verb in ("swerve", "spin"):
        if verb not in car.cw_hand:
            return f"You hold no {verb.title()} card."
        if pending.armor:
            return "You armored against this shot: it can no longer be dodged."
        return f"You must be moving to {verb} (a Go or Right of Way showing, tires whole)."
    if verb == "backfire":
        if spec.weapon != "ac":
            return "Autocannon Backfires only answers an autocannon."
        return (
            "You hold no Autocannon Backfires card."
            if "backfire" not in car.cw_hand
            else ("Too late for a backfire: you already armored.")
        )
    if verb == "oil-slick":
        if state.options.get("oil_slick") != "on":
            return "Oil Slick cards are not in this game (the option is off)."
        if "oil-slick" not in car.cw_hand:
            return "You hold no Oil Slick."
        return "An Oil Slick is already down for this shot."
    return "Answer the shot: armor, swerve, spin, backfire, oil-slick or pass."


def _use_cw(state: DragonState, car: Car, code: str) -> None:
    car.cw_hand.remove(code)
    shed(car, (code,))
    state.cw_discard.append(code)


def _land_backfire(state: DragonState, pending: Pending) -> None:
    hits = max(0, pending.hits - ARMOR_STOPS * pending.armor)
    state.step += 1
    _hit_side(state, pending.car, 0, hits, False, pending.by)
    if _check_end(state):
        return
    _after_shot(state, pending.oil_by)


def _apply_backfire(state: DragonState, seat: int, action: Action) -> None:
    pending = state.pending
    assert pending is not None
    if action == PASS:
        learn(car_w(state, seat), ONE_OF, _armor_answer(pending))
        _land_backfire(state, pending)
        return
    if action not in _armor_reactions(state.cars[seat], pending):
        if action.verb == "armor":
            raise IllegalMove("A backfire hits your front: only front armor helps.")
        raise IllegalMove("Answer the backfire with 'armor front' or 'pass'.")
    _use_cw(state, car_w(state, seat), "armor-front")
    pending.armor += 1
    state.caption += f" {name(state, seat)} plays Armor on the front."
    if _armor_reactions(state.cars[seat], pending):
        return
    _no_window(state, seat, _armor_answer(pending))
    _land_backfire(state, pending)


def _apply_coup(state: DragonState, seat: int, action: Action) -> None:
    pending = state.pending
    assert pending is not None
    if action == PASS:
        settle(state)
        return
    hazard = Card(pending.card)
    if action not in _coup_reactions(state.cars[seat], hazard):
        safety = SAFETY_FOR[hazard]
        raise IllegalMove(
            f"Only {_mb_name(state, safety)} answers {_mb_name(state, hazard)}: play it or pass."
        )
    car = car_w(state, seat)
    safety = SAFETY_FOR[hazard]
    car.mb.hand.remove(safety)
    _put_safety(state, seat, safety, coup=True)
    state.caption += f" Coup fourré! {name(state, seat)} answers with {_mb_name(state, safety)}."
    settle(state)


def _apply_skid(state: DragonState, seat: int, action: Action) -> None:
    pending = state.pending
    assert pending is not None
    if action == PASS:
        learn(car_w(state, seat), ONE_OF, ["skid"])
        _after_shot(state, pending.oil_by)
        return
    if action.verb != "skid":
        raise IllegalMove("Skid the car that dodged into a wall ('skid'), or pass.")
    if action.target is not None and action.target != pending.car:
        raise IllegalMove(
            f"Only {name(state, pending.car)}, who just dodged your shot, can be skidded."
        )
    _use_cw(state, car_w(state, seat), "skid")
    victim = pending.car
    state.caption += f" {name(state, seat)} sends {name(state, victim)} skidding into a wall!"
    state.phase = Phase.WALL
    pending.kind = Phase.WALL
    pending.actor = victim
    pending.card = "skid"
    pending.hits = SKID_HITS
    pending.armor = 0
    pending.ace = True


def _apply_oil_ace(state: DragonState, seat: int, action: Action) -> None:
    pending = state.pending
    assert pending is not None
    if action != PASS:
        if action != Action("play", Card.DRIVING_ACE.value):
            raise IllegalMove("Answer the Oil Slick with 'play driving-ace', or pass.")
        car = car_w(state, seat)
        car.mb.hand.remove(Card.DRIVING_ACE)
        _put_safety(state, seat, Card.DRIVING_ACE, coup=True)
        state.caption += (
            f" Coup fourré! {name(state, seat)} plays the Driving Ace against the Oil Slick."
        )
    _offer_reaction(state, pending)


def _apply_side(state: DragonState, seat: int, action: Action) -> None:
    pending = state.pending
    assert pending is not None
    car = car_w(state, seat)
    who = name(state, seat)
    if action not in _side_choices(state, seat, pending):
        if action.verb == "armor":
            raise IllegalMove("You hold no Armor for that side.")
        if action.verb == "play":
            raise IllegalMove("Only a Driving Ace from your hand cancels this skid.")
        raise IllegalMove("Pick the side that takes the hits: 'side front', 'side left'…")
    wall = state.phase is Phase.WALL
    if action.verb == "play":
        car.mb.hand.remove(Card.DRIVING_ACE)
        _put_safety(state, seat, Card.DRIVING_ACE, coup=True)
        state.caption += f" Coup fourré! {who}'s Driving Ace steers clear of the wall."
        _after_shot(state, pending.oil_by)
        return
    side = action.side or 0
    armor = 0
    if action.verb == "armor":
        _use_cw(state, car, ARMOR_FOR_SIDE[side])
        armor = 1
        state.caption += f" {who} armors the {SIDES[side]}."
    hits = max(0, pending.hits - ARMOR_STOPS * armor)
    state.step += 1
    if wall:
        car.skidded = True
        state.caption += f" {who} hits the wall with the {SIDES[side]} and stops."
    else:
        pending.waiting.remove(seat)
        state.caption += f" {who} takes the stampede on the {SIDES[side]}."
    _hit_side(state, seat, side, hits, False, pending.by)
    if _check_end(state):
        return
    if wall:
        _after_shot(state, pending.oil_by if pending.card == "skid" else -1)
        return
    pending.waiting = [s for s in pending.waiting if state.cars[s].alive]
    if not pending.waiting:
        settle(state)


# --- the end -------------------------------------------------------------------------------


def _finish_race(state: DragonState, seat: int) -> None:
    state.caption += f" {name(state, seat)} crosses the line at {TRIP} miles!"
    _end(state, (seat,), f"{name(state, seat)} drove exactly {TRIP} miles.")


def _stalemate(state: DragonState) -> None:
    """Nobody drove or hurt a driver for QUIET_ROUNDS rounds: the most miles wins."""
    alive = living(state)
    best = max(state.cars[s].miles for s in alive)
    top = tuple(s for s in alive if state.cars[s].miles == best)
    rounds = f"{QUIET_ROUNDS} rounds without a mile driven or a driver hurt"
    if len(top) == 1:
        reason = f"The arena closes after {rounds}: {name(state, top[0])} has the most miles."
        _end(state, top, reason)
    else:
        _end(state, (), f"The arena closes after {rounds}: equal miles, a draw.", tied=top)


def _check_end(state: DragonState) -> bool:
    """The game ends when one driver is left alive (or none: then the most miles wins)."""
    alive = living(state)
    if len(alive) >= 2:
        return False
    if len(alive) == 1:
        seat = alive[0]
        _end(state, (seat,), f"{name(state, seat)} is the last driver alive.")
        return True
    # Everyone still racing died in the same step: more miles wins, equal miles is a draw.
    dead = [s for s, car in enumerate(state.cars) if not car.left]
    last = max(state.cars[s].out_at for s in dead)
    final = [s for s in dead if state.cars[s].out_at == last]
    best = max(state.cars[s].final_miles for s in final)
    top = tuple(s for s in final if state.cars[s].final_miles == best)
    if len(top) == 1:
        _end(state, top, f"The last drivers died together; {name(state, top[0])} had more miles.")
    else:
        _end(state, (), "The last drivers died together with equal miles: a draw.", tied=top)
    return True


def _end(
    state: DragonState, winners: tuple[int, ...], reason: str, tied: tuple[int, ...] = ()
) -> None:
    state.phase = Phase.OVER
    state.pending = None
    state.winners = winners
    state.end_reason = reason
    state.places = rank(state, winners or tied)
    if reason not in state.caption:
        state.caption = f"{state.caption} {reason}".strip()


def rank(state: DragonState, first: tuple[int, ...]) -> tuple[int, ...]:
    """Places: the winners, then live cars by miles, dead drivers by how long they lasted
    (same-step deaths by miles), then the players who left (a later leaver higher)."""

    def key(seat: int) -> tuple[int, int, int]:
        car = state.cars[seat]
        if seat in first:
            return (0, 0, 0)
        if car.alive:
            return (1, -car.miles, 0)
        if not car.left:
            return (2, -car.out_at, -car.final_miles)
        return (3, -car.out_at, 0)

    keys = [key(seat) for seat in range(len(state.cars))]
    return tuple(sum(1 for other in keys if other < mine) for mine in keys)


# --- leaving -------------------------------------------------------------------------------


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
        _end(new, (1 - seat,), f"{who} left the game.")
        return new
    new.cars[seat].left = True
    _retire(new, seat)
    new.caption = f"{who} left the arena."
    if _check_end(new):
        return new
    pending = new.pending
    if seat == new.turn:
        new.pending = None
        pass_turn(new)
        return new
    if pending is not None:
        if new.phase is Phase.STAMPEDE:
            if seat in pending.waiting:
                pending.waiting.remove(seat)
            if not pending.waiting:
                settle(new)
        elif seat in (pending.actor, pending.car):
            # The chain was about this car: it is gone, so the chain ends here.
            settle(new)
    return new


# --- hidden cards --------------------------------------------------------------------------


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

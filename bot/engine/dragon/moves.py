"""Who is to act and what they may do: the turn player's plays and discards, and every
reaction window's answers (armor, dodges, backfire, Oil Slick, coups fourrés, sides).

The lists are built the fast way (the search plays many games with them) and agree with
``legality``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import product
from operator import itemgetter
from typing import overload

from bot.engine.dragon.cards import (
    ARMOR_FOR_SIDE,
    ARMOR_STOPS,
    CW_ORDER,
    MAX_ARMOR,
    SIDES,
    SPECS,
    TRIP,
)
from bot.engine.dragon.legality import why_not_cw
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
from bot.engine.dragon.state import Car, DragonState, Pending, Phase
from bot.engine.dragon.table import moving, needs_repairs, sensible_side
from bot.engine.mille.cards import HAZARDS, SAFETIES, SAFETY_FOR, Card
from bot.engine.mille.state import Tableau

_ONLY = tuple(frozenset((seat,)) for seat in range(6))  # built once: asked for every move


_NOBODY: frozenset[int] = frozenset()


# Read once: ``Phase.TURN`` goes through the Enum metaclass's attribute hook (several times
# slower than a module name), and every move asks.
_TURN = Phase.TURN
_OVER = Phase.OVER


def to_act(state: DragonState) -> frozenset[int]:
    phase = state.phase
    if phase is _TURN:
        return _ONLY[state.turn]
    if phase is _OVER:
        return _NOBODY
    pending = state.pending
    assert pending is not None
    if phase is Phase.STAMPEDE:
        return frozenset(pending.waiting)
    actor = pending.actor
    # A damaged save may name a seat off the table: answer as plainly as for any other.
    return _ONLY[actor] if 0 <= actor < len(_ONLY) else frozenset((actor,))


def legal_actions(state: DragonState, seat: int) -> Sequence[Action]:
    if seat not in to_act(state):
        return []
    phase = state.phase
    if phase is _TURN:
        return _turn_actions(state, seat)
    pending = state.pending
    assert pending is not None
    car = state.cars[seat]
    if phase is Phase.REACT:
        return [PASS, *reactions(state, pending)]
    if phase is Phase.COUP:
        return [PASS, *coup_reactions(car, Card(pending.card))]
    if phase is Phase.SKID:
        return [PASS, Action("skid", target=pending.car)]
    if phase is Phase.BACKFIRE:
        return [PASS, *armor_reactions(car, pending)]
    if phase is Phase.OIL_ACE:
        return [PASS, Action("play", Card.DRIVING_ACE.value)]
    # WALL and STAMPEDE: pick a side (armor on it stops the hits).
    return side_choices(state, seat, pending)


def side_choices(state: DragonState, seat: int, pending: Pending) -> list[Action]:
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


def _turn_actions(state: DragonState, seat: int) -> Sequence[Action]:
    car = state.cars[seat]
    hand = car.mb.hand
    mb_open = state.mb_left > 0 and bool(hand)
    actions: list[Action] = mb_actions(state, seat) if mb_open else []
    tail: list[Action] = []
    if _EXTRA_TANK in car.mb.safeties:
        tail.append(DROP_TANK)
    if not mb_open:
        tail.append(END)
    cw_hand = car.cw_hand
    if not state.cw_done and cw_hand:
        ordered = tuple(sorted(cw_hand, key=_CW_RANK))
        actions += _cw_plays(state, seat, ordered)
        return TurnMenu(actions, ordered, tail)
    return actions + tail


_PLAY = {card: Action("play", card.value) for card in Card}


_DISCARD = {card: Action("discard", card.value) for card in Card}


_PLAY_ON = {(card, seat): Action("play", card.value, seat) for card in Card for seat in range(6)}


_SAFETY_SET = frozenset(SAFETIES)


_HAZARD_SET = frozenset(HAZARDS)


_DISTANCE = {card: card.miles for card in Card if card.is_distance}


_MB_ORDER = {card: index for index, card in enumerate(Card)}


# The cards ``mb_actions`` names, read once: ``Card.GO`` goes through the Enum metaclass's
# attribute hook (several times slower than a module name), and menus are built every move.
_GO = Card.GO
_STOP = Card.STOP
_SPEED_LIMIT = Card.SPEED_LIMIT
_END_OF_LIMIT = Card.END_OF_LIMIT
_GASOLINE = Card.GASOLINE
_OUT_OF_GAS = Card.OUT_OF_GAS
_SPARE_TIRE = Card.SPARE_TIRE
_FLAT_TIRE = Card.FLAT_TIRE
_ACCIDENT = Card.ACCIDENT
_RIGHT_OF_WAY = Card.RIGHT_OF_WAY
_EXTRA_TANK = Card.EXTRA_TANK
_D200 = Card.D200


# What ``mb_actions`` asks of each card, in one lookup: its kind, its play and discard
# actions, its miles (distance cards) and the safety that stops it (hazards).
_SAFETY, _DISTANCE_CARD, _HAZARD, _REMEDY = range(4)
_MB_INFO = {
    card: (
        _SAFETY
        if card in _SAFETY_SET
        else _DISTANCE_CARD
        if card in _DISTANCE
        else _HAZARD
        if card in _HAZARD_SET
        else _REMEDY,
        _PLAY[card],
        _DISCARD[card],
        _DISTANCE.get(card, 0),
        SAFETY_FOR.get(card),
    )
    for card in Card
}
_MB_RANK = _MB_ORDER.__getitem__


def mb_actions(state: DragonState, seat: int) -> list[Action]:
    """The Mille Bornes plays and discards, the fast way: the same answers as ``why_not_mb``
    (a test holds them to it), with the table read once."""
    car = state.cars[seat]
    me = car.mb
    go = moving(car)
    battle = me.battle
    top = battle[-1] if battle else None
    speed = me.speed
    limited = bool(speed) and speed[-1] is _SPEED_LIMIT
    left = TRIP - me.mileage
    targets: list[tuple[int, Car, bool, list[Card]]] | None = None  # read once, if a hazard asks
    plays: list[Action] = []
    discards: list[Action] = []
    info = _MB_INFO
    for card in sorted(set(me.hand), key=_MB_RANK):
        kind, play, discard, miles, safety = info[card]
        if kind == _SAFETY:
            plays.append(play)
            continue
        discards.append(discard)
        if kind == _DISTANCE_CARD:
            fits = go and miles <= left and not (limited and miles > 50)
            if fits and (card is not _D200 or me.miles.count(_D200) < 2):
                plays.append(play)
        elif kind == _HAZARD:
            if targets is None:
                targets = [
                    (other, victim, moving(victim), victim.mb.safeties)
                    for other, victim in enumerate(state.cars)
                    if other != seat and victim.alive
                ]
            if card is _SPEED_LIMIT:
                for other, victim, _, safeties in targets:
                    limit = victim.mb.speed
                    if _RIGHT_OF_WAY not in safeties and not (limit and limit[-1] is _SPEED_LIMIT):
                        plays.append(_PLAY_ON[card, other])
            else:
                for other, _, moves, safeties in targets:
                    if moves and safety not in safeties:
                        plays.append(_PLAY_ON[card, other])
        elif card is _GO:
            clear = top is None or top not in _HAZARD_SET or top is _STOP
            if clear and (car.skidded or (top is not _GO and _RIGHT_OF_WAY not in me.safeties)):
                plays.append(play)
        elif card is _END_OF_LIMIT:
            if limited:
                plays.append(play)
        elif card is _GASOLINE:
            if top is _OUT_OF_GAS:
                plays.append(play)
        elif card is _SPARE_TIRE:
            if top is _FLAT_TIRE or car.tires > 0:
                plays.append(play)
        elif top is _ACCIDENT or needs_repairs(car):  # Repairs
            plays.append(play)
    return plays + discards


def cw_plays(state: DragonState, seat: int) -> list[Action]:
    """The Car Wars plays, the fast way: the codes ``playable_codes`` allows (worked out by
    ``why_not_cw`` itself), each at every live rival it may hit. Besides the situation, only a
    Machine Gun Jam looks at its target (not one already jammed); a test holds the list to
    ``why_not_cw``. The order is card order, then seat, then side, as the menu shows it."""
    ordered = tuple(sorted(state.cars[seat].cw_hand, key=_CW_RANK))
    return _cw_plays(state, seat, ordered)


_CW_RANK = CW_ORDER.__getitem__


def _cw_plays(state: DragonState, seat: int, ordered: tuple[str, ...]) -> list[Action]:
    """``cw_plays`` for the seat's Car Wars hand ``ordered`` (sorted in card order, as the
    menu's discards read it too), the rivals read once."""
    if state.cw_done:
        return []
    others: list[int] = []
    free: list[int] = []  # the rivals whose guns are not jammed
    for other, rival in enumerate(state.cars):
        if other != seat and rival.alive:
            others.append(other)
            if not rival.jammed:
                free.append(other)
    car = state.cars[seat]
    allowed = _playable(
        state.spun, car.jammed, bool(car.fireproof), car.flamed, bool(others), bool(free)
    )
    if not allowed:
        return []
    # ``ordered`` holds equal cards together: each distinct card once, in card order.
    rivals = tuple(others)
    plays: list[Action] = []
    for code in dict.fromkeys(ordered):
        if code in allowed:
            if _CW_KIND[code] == "jam":
                plays += [_CW_AT[code, target] for target in free]
            else:
                plays += _aimed(code, rivals)
    return plays


_CW_KIND = {code: spec.kind for code, spec in SPECS.items()}


@lru_cache(maxsize=1024)
def _aimed(code: str, others: tuple[int, ...]) -> tuple[Action, ...]:
    """The plays of ``code`` (not a Machine Gun Jam) when ``others`` are the live rivals: at
    each, at each side for a Called Shot, once with no target for a Stampede or Fireproof
    Armor. Few tables of rivals come up, so each answer is kept."""
    kind = _CW_KIND[code]
    if kind == "called-shot":
        return tuple(_CW_AT_SIDE[code, target, side] for target in others for side in _SIDE_INDEXES)
    if kind in ("weapon", "tire-shot"):
        return tuple(_CW_AT[code, target] for target in others)
    return (_CW[code],)


_SIDE_INDEXES = tuple(range(len(SIDES)))


_CW = {code: Action("cw", code) for code in SPECS}


_CW_AT = {(code, target): Action("cw", code, target) for code in SPECS for target in range(6)}


_CW_AT_SIDE = {
    (code, target, side): Action("cw", code, target, side)
    for code in SPECS
    for target in range(6)
    for side in _SIDE_INDEXES
}


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
    target = unjammed_target = False
    for other, rival in enumerate(state.cars):
        if other != seat and rival.alive:
            target = True
            if not rival.jammed:
                unjammed_target = True
                break
    car = state.cars[seat]
    return _playable(
        state.spun, car.jammed, bool(car.fireproof), car.flamed, target, unjammed_target
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


def _cw_discards(hand: list[str]) -> tuple[Action, ...]:
    """Every distinct choice of Car Wars cards to discard (smallest first, then in card
    order); the whole hand is ``all``."""
    return _discards_of(tuple(sorted(hand, key=CW_ORDER.__getitem__)))


@lru_cache(maxsize=4096)
def _discards_of(ordered: tuple[str, ...]) -> tuple[Action, ...]:
    """``_cw_discards`` for a sorted hand. Kept while in use: a hand stays the same over a
    round of turns and reactions, and a search meets the same hands again and again. A random
    playout still meets a new hand nearly every turn, so the 30 to 60 discards are built the
    fast way: one getter per choice, each action made as the bare tuple it is, and the small
    discards (most of them) made once (``_SMALL_DISCARDS``)."""
    small, large = _pickers_of(ordered)
    known = _SMALL_DISCARDS.get
    make = _tuple_new
    return (
        *[known(cards) or _small_discard(cards) for cards in [get(ordered) for get in small]],
        *[make(Action, ("cw-discard", "", None, None, get(ordered))) for get in large],
        CW_DISCARD_ALL,
    )


_tuple_new = tuple.__new__


_SMALL = 3
"""Discards of up to this many cards are made once and kept: there are fewer than 8 000 of
them. Larger ones are made each time: there are hundreds of thousands (a long-running bot, or
an expert's rollouts, would otherwise keep every one it ever listed), and few come back."""


_SMALL_DISCARDS: dict[tuple[str, ...], Action] = {}


def _small_discard(cards: tuple[str, ...]) -> Action:
    action = _SMALL_DISCARDS[cards] = Action("cw-discard", cards=cards)
    return action


Getter = Callable[[tuple[str, ...]], tuple[str, ...]]


def _pickers_of(ordered: tuple[str, ...]) -> tuple[tuple[Getter, ...], tuple[Getter, ...]]:
    """``_pickers`` for the sorted hand ``ordered`` itself (its runs of equal cards measured)."""
    shape: list[int] = []
    previous = None
    for code in ordered:  # equal cards sit together in ``ordered``
        if code == previous:
            shape[-1] += 1
        else:
            shape.append(1)
            previous = code
    return _pickers(tuple(shape))


@lru_cache(maxsize=256)
def _pickers(shape: tuple[int, ...]) -> tuple[tuple[Getter, ...], tuple[Getter, ...]]:
    """For a sorted hand whose runs of equal cards have the lengths ``shape``: one getter per
    distinct proper, non-empty choice of cards, smallest first; those of up to ``_SMALL``
    cards, then the others."""
    starts = [sum(shape[:i]) for i in range(len(shape))]
    choices: list[tuple[int, ...]] = []
    for counts in product(*(range(n + 1) for n in shape)):
        size = sum(counts)
        if 0 < size < sum(shape):
            choices.append(
                tuple(s + k for s, n in zip(starts, counts, strict=True) for k in range(n))
            )
    choices.sort(key=lambda idx: (len(idx), idx))
    return (
        tuple(_getter(idx) for idx in choices if len(idx) <= _SMALL),
        tuple(_getter(idx) for idx in choices if len(idx) > _SMALL),
    )


def _getter(positions: tuple[int, ...]) -> Getter:
    """A getter for the cards at ``positions``, always as a tuple (a slice for one card: an
    ``itemgetter`` of one position would give the card itself)."""
    if len(positions) == 1:
        (only,) = positions
        return itemgetter(slice(only, only + 1))
    return itemgetter(*positions)


class TurnMenu(Sequence[Action]):
    """A turn's legal actions while its Car Wars move is open: ``head`` (the Mille Bornes and
    Car Wars plays), every Car Wars discard of the hand ``ordered`` (as ``_cw_discards`` lists
    them, ``cw-discard all`` last), then ``tail`` (drop the tank, end the turn).

    The 30 to 60 discards are made only when asked for: a random playout wants the count and
    one action, and building them all was a good part of a playout's time. Indexing, ``len``,
    iteration, ``in``, ``repr`` and ``==`` (with a list or another menu) behave as for the
    list of the same actions; it is read-only, and pickles (or copies) as that list.
    """

    __slots__ = ("_head", "_items", "_large", "_len", "_ordered", "_small", "_tail")

    def __init__(self, head: list[Action], ordered: tuple[str, ...], tail: list[Action]) -> None:
        small, large = _pickers_of(ordered)
        self._head = head
        self._ordered = ordered
        self._small = small
        self._large = large
        self._tail = tail
        self._len = len(head) + len(small) + len(large) + 1 + len(tail)
        self._items: list[Action] | None = None

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if self._items is not None or not isinstance(index, int):
            return self._list()[index]
        if index < 0:
            index += self._len
            if index < 0:
                raise IndexError("list index out of range")
        head = self._head
        if index < len(head):
            return head[index]
        index -= len(head)
        small = self._small
        if index < len(small):
            cards = small[index](self._ordered)
            return _SMALL_DISCARDS.get(cards) or _small_discard(cards)
        index -= len(small)
        large = self._large
        if index < len(large):
            return _tuple_new(Action, ("cw-discard", "", None, None, large[index](self._ordered)))
        index -= len(large)
        if index == 0:
            return CW_DISCARD_ALL
        return self._tail[index - 1]  # IndexError past the end, as a list's

    def _list(self) -> list[Action]:
        """Every action, made once."""
        items = self._items
        if items is None:
            items = self._items = [*self._head, *_discards_of(self._ordered), *self._tail]
        return items

    def __iter__(self) -> Iterator[Action]:
        return iter(self._list())

    def __contains__(self, action: object) -> bool:
        return action in self._list()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TurnMenu):
            return self._list() == other._list()
        if isinstance(other, list):
            return self._list() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # unhashable, as a list

    def __repr__(self) -> str:
        return repr(self._list())

    def __reduce__(self) -> tuple[type[list[Action]], tuple[list[Action]]]:
        return list, (self._list(),)


def armor_answer(pending: Pending) -> list[str]:
    """The Armor card that would soften the pending hit (none for tires, a third armor or a
    hit already stopped)."""
    side = pending.side
    if side < 0 or pending.armor >= MAX_ARMOR:
        return []
    if pending.hits - ARMOR_STOPS * pending.armor <= 0:
        return []
    return [ARMOR_FOR_SIDE[side]]


def armor_reactions(car: Car, pending: Pending) -> list[Action]:
    return [Action("armor", side=pending.side) for c in armor_answer(pending) if c in car.cw_hand]


_ANSWERS = {"swerve": SWERVE, "spin": SPIN, "backfire": BACKFIRE, "oil-slick": OIL_SLICK}


def answers(state: DragonState, pending: Pending) -> list[str]:
    """The Car Wars cards that would answer the pending shot, held or not: what the table
    knows the victim may answer with, without seeing its hand."""
    codes = armor_answer(pending)
    if pending.armor == 0:
        if moving(state.cars[pending.car]):
            codes += ["swerve", "spin"]
        if SPECS[pending.card].weapon == "ac":
            codes.append("backfire")
        if state.options.get("oil_slick") == "on" and pending.oil_by < 0:
            codes.append("oil-slick")
    return codes


def reactions(state: DragonState, pending: Pending) -> list[Action]:
    """The victim's possible answers to a shot (besides taking it)."""
    hand = state.cars[pending.car].cw_hand
    return [
        _ANSWERS.get(code) or Action("armor", side=pending.side)
        for code in answers(state, pending)
        if code in hand
    ]


def coup_reactions(car: Car, hazard: Card) -> list[Action]:
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
    options = armor_reactions(car, pending)
    if state.phase is Phase.REACT:
        options = reactions(state, pending)
    cards = []
    for action in options:
        if action.verb == "armor":
            cards.append(ARMOR_FOR_SIDE[action.side or 0])
        else:
            cards.append(action.verb)
    return [(seat, cards[0])] if cards else []

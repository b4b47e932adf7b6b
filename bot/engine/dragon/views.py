"""What leaves the Dragon Mille Bornes engine: the public arena and one seat's private view.

The public view shows every car (damage per side, tires, driver, jammed guns, Fireproof Armor,
the Mille Bornes piles, safeties and miles), both discard piles, the deck sizes, whose decision
the table waits for and why. It never depends on a hidden card: hands are only counted.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.dragon.cards import ARMOR_STOPS, SIDE_TRACK, SIDES, SPECS
from bot.engine.dragon.moves import legal_actions, to_act
from bot.engine.dragon.notation import format_action
from bot.engine.dragon.state import Car, DragonState, HandFact, Pending, Phase
from bot.engine.dragon.table import mb_name, moving, name
from bot.engine.mille.cards import Card
from bot.engine.words import a_or_an, names, plural


@dataclass(frozen=True)
class CarView:
    """One car as everyone sees it."""

    seat: int
    name: str
    mb_hand_count: int
    cw_hand_count: int
    battle: tuple[Card, ...]  # top last
    speed: tuple[Card, ...]
    safeties: tuple[Card, ...]
    coups: tuple[Card, ...]
    miles: tuple[Card, ...]
    mileage: int
    two_hundreds: int
    moving: bool
    limited: bool
    hits: tuple[int, ...]  # per side: front, back, left, right
    breached: tuple[bool, ...]
    tires: int
    driver: int
    jammed: bool
    fireproof: bool
    flamed: bool
    skidded: bool
    alive: bool
    left: bool
    kills: int
    killed_by: int
    facts: tuple[HandFact, ...] = ()  # what the table has learnt of its Car Wars hand

    @property
    def battle_top(self) -> Card | None:
        return self.battle[-1] if self.battle else None

    @property
    def speed_top(self) -> Card | None:
        return self.speed[-1] if self.speed else None

    @property
    def dead(self) -> bool:
        return not self.alive and not self.left


@dataclass(frozen=True)
class PendingView:
    """The decision the table waits for inside a turn, in public terms."""

    kind: str  # react, skid, wall, backfire, coup, stampede, oil-ace
    actor: int  # who decides (a stampede: see ``waiting``)
    car: int  # the car the hit lands on
    by: int  # the car that caused it
    card: str  # the card that started it (a Car Wars or Mille Bornes code)
    side: int  # -1: tires or none
    hits: int  # before armor
    armor: int  # armor cards played against it so far
    oil: bool  # an Oil Slick is down: the shooter rolls after the shot
    waiting: tuple[int, ...]
    text: str  # the decision in words


@dataclass(frozen=True)
class DragonPublicView:
    game: str
    players: tuple[str, ...]
    lang: str
    deck_name: str
    oil_slick: bool
    turn: int
    phase: str  # turn, react, skid, wall, backfire, coup, stampede, oil-ace, over
    to_act: tuple[int, ...]
    mb_left: int  # Mille Bornes actions the turn player still has
    cw_done: bool
    spun: bool
    mb_deck_count: int
    cw_deck_count: int
    mb_discard: tuple[Card, ...]  # top last
    cw_discard: tuple[str, ...]
    cars: tuple[CarView, ...]
    pending: PendingView | None
    caption: str
    winners: tuple[int, ...] | None
    places: tuple[int, ...]
    end_reason: str

    @property
    def is_over(self) -> bool:
        return self.winners is not None


@dataclass(frozen=True)
class DragonSeatView:
    """One seat's view: the public arena plus its own two hands and what it may do now."""

    public: DragonPublicView
    seat: int
    mb_hand: tuple[Card, ...]
    cw_hand: tuple[str, ...]
    phase: str  # the public phase, or "wait" when this seat need not act
    legal: tuple[str, ...]


_new = object.__new__
_D200 = Card.D200  # read once: Enum class lookups are slow, and rollouts view every move
_SPEED_LIMIT = Card.SPEED_LIMIT


def _car_view(state: DragonState, seat: int, car: Car) -> CarView:
    t = car.mb
    hits = tuple(car.hits)
    speed = t.speed
    # The frozen dataclass's __init__ sets its 26 fields one by one through
    # object.__setattr__; filling the new view's dict at once makes the same view much faster
    # (an expert's rollouts view the table every move). A test holds it to ``CarView(...)``.
    view = _new(CarView)
    view.__dict__.update(
        seat=seat,
        name=state.players[seat],
        mb_hand_count=len(t.hand),
        cw_hand_count=len(car.cw_hand),
        battle=tuple(t.battle),
        speed=tuple(speed),
        safeties=tuple(t.safeties),
        coups=tuple(t.coups),
        miles=tuple(t.miles),
        mileage=car.miles,
        two_hundreds=t.miles.count(_D200),
        moving=moving(car),
        limited=bool(speed) and speed[-1] is _SPEED_LIMIT,
        hits=hits,
        breached=(
            hits[0] >= SIDE_TRACK,
            hits[1] >= SIDE_TRACK,
            hits[2] >= SIDE_TRACK,
            hits[3] >= SIDE_TRACK,
        ),
        tires=car.tires,
        driver=car.driver,
        jammed=car.jammed,
        fireproof=bool(car.fireproof),
        flamed=car.flamed,
        skidded=car.skidded,
        alive=car.alive,
        left=car.left,
        kills=car.kills,
        killed_by=car.killed_by,
        facts=tuple(car.facts),
    )
    return view


def pending_text(state: DragonState, pending: Pending) -> str:
    """The pending decision in words (public)."""
    kind = pending.kind
    actor = name(state, pending.actor)
    if kind is Phase.OIL_ACE:
        ace = a_or_an(mb_name(state, Card.DRIVING_ACE))  # "an As du volant" in French names
        return f"{actor} may react to the Oil Slick with {ace}."
    if kind is Phase.REACT:
        spec = SPECS[pending.card]
        where = "the tires" if pending.side < 0 else f"the {SIDES[pending.side]}"
        weapon = spec.name.split(" (")[0]
        # The hits armor has not stopped yet: after one Armor on a Laser, "1 hit", not "4".
        hits = plural(pending.hits - ARMOR_STOPS * pending.armor, "hit")
        by = name(state, pending.by)
        return f"{actor} may react to the {weapon} from {by} ({hits} on {where})."
    if kind is Phase.SKID:
        return f"{actor} may skid {name(state, pending.car)} into a wall."
    if kind is Phase.WALL:
        return f"{actor} skids into a wall: pick the side that takes {pending.hits} hits."
    if kind is Phase.BACKFIRE:
        hits = plural(pending.hits - ARMOR_STOPS * pending.armor, "hit")
        return f"{actor} may armor the front against the backfire ({hits})."
    if kind is Phase.COUP:
        return f"{actor} may react to {mb_name(state, Card(pending.card))} with a coup fourré."
    # "Bob and Carol", as the messages name them ("Bob, Carol to pick a side" read as a list
    # cut short).
    waiting = names([name(state, s) for s in pending.waiting])
    return f"Stampede! Waiting for {waiting} to pick a side."


def public_view(state: DragonState, *, words: bool = True) -> DragonPublicView:
    """What everyone sees. ``words=False`` leaves out the texts (the pending decision's line,
    the caption): computer players never read them, and writing them is a good part of a
    view's cost inside an expert's rollouts."""
    pending = state.pending
    pview = None
    if pending is not None and state.phase is not Phase.OVER:
        pview = PendingView(
            kind=pending.kind.value,
            actor=pending.actor,
            car=pending.car,
            by=pending.by,
            card=pending.card,
            side=pending.side,
            hits=pending.hits,
            armor=pending.armor,
            oil=pending.oil_by >= 0,
            waiting=tuple(pending.waiting),
            text=pending_text(state, pending) if words else "",
        )
    view = _new(DragonPublicView)  # filled at once, as ``_car_view`` explains
    view.__dict__.update(
        game="dragon",
        players=state.players,
        lang=state.options.get("names", "en"),
        deck_name=state.options.get("deck", "bsd"),
        oil_slick=state.options.get("oil_slick") == "on",
        turn=state.turn,
        phase=state.phase.value,
        to_act=tuple(sorted(to_act(state))),
        mb_left=state.mb_left,
        cw_done=state.cw_done,
        spun=state.spun,
        mb_deck_count=len(state.mb_draw),
        cw_deck_count=len(state.cw_draw),
        mb_discard=tuple(state.mb_discard),
        cw_discard=tuple(state.cw_discard),
        cars=tuple([_car_view(state, seat, car) for seat, car in enumerate(state.cars)]),
        pending=pview,
        caption=state.caption if words else "",
        winners=state.winners,
        places=state.places,
        end_reason=state.end_reason,
    )
    return view


def private_view(state: DragonState, seat: int) -> DragonSeatView:
    public = public_view(state)
    car = state.cars[seat]
    acting = seat in public.to_act
    return DragonSeatView(
        public=public,
        seat=seat,
        mb_hand=tuple(car.mb.hand),
        cw_hand=tuple(car.cw_hand),
        phase=public.phase if acting or public.phase == "over" else "wait",
        legal=tuple(format_action(a) for a in legal_actions(state, seat)),
    )

"""The Mille Bornes half of a turn: miles, hazards on a named car (and the coup fourré they
may meet), remedies that also mend the Car Wars damage, safeties.
"""

from __future__ import annotations

from bot.engine.core import IllegalMove
from bot.engine.dragon.cards import TRIP
from bot.engine.dragon.ending import finish_race
from bot.engine.dragon.moves import coup_reactions
from bot.engine.dragon.notation import PASS, Action
from bot.engine.dragon.state import Car, DragonState, Pending, Phase
from bot.engine.dragon.table import car_w, mb_name, name, needs_repairs
from bot.engine.dragon.turns import settle
from bot.engine.mille.cards import HAZARD_FOR, HAZARDS_STOPPED_BY, SAFETY_FOR, Card
from bot.engine.words import names


def play_mb(state: DragonState, seat: int, card: Card, target: int | None) -> None:
    car = car_w(state, seat)
    me = car.mb
    who = name(state, seat)
    title = mb_name(state, card)
    if card.is_safety:
        put_safety(state, seat, card, coup=False)
        state.mb_left += 1  # your own turn's safety hands the Mille Bornes move back
        state.caption = f"{who} plays the safety {title} and keeps the Mille Bornes move."
        settle(state)
        return
    if card.is_distance:
        me.miles.append(card)
        state.quiet = 0
        state.caption = f"{who} drives {title} ({me.mileage} so far)."  # "75 bornes" in French
        if me.mileage == TRIP:
            finish_race(state, seat)
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
        if coup_reactions(state.cars[target], card):
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
        named = mb_name(state, card)
        if card is Card.SPARE_TIRE and car.tires:
            car.tires = 0
            state.caption = f"{who} puts on a {named}: the tires are as good as new."
        if card is Card.REPAIRS and needs_repairs(car):
            # Only what was there to mend: "guns unjammed" on guns that never jammed told
            # the table of a jam nobody had played.
            mended = ["body hits gone"] if any(car.hits) else []
            if car.jammed:
                mended.append("guns unjammed")
            if not mended:  # flame damage with no hits: never reached in play, still said
                mended.append("Fireproof Armor may go on again")
            car.hits = [0, 0, 0, 0]
            car.jammed = False
            car.flamed = False
            state.caption = f"{who} plays {named}: {names(mended)}."
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


def put_safety(state: DragonState, seat: int, card: Card, coup: bool) -> None:
    """The safety goes on the car and removes the hazards it answers that are showing."""
    me = car_w(state, seat).mb
    me.safeties.append(card)
    if coup:
        me.coups.append(card)
    for hazard in HAZARDS_STOPPED_BY[card]:
        pile = me.speed if hazard is Card.SPEED_LIMIT else me.battle
        if pile and pile[-1] is hazard:
            state.mb_discard.append(pile.pop())


def apply_coup(state: DragonState, seat: int, action: Action) -> None:
    pending = state.pending
    assert pending is not None
    if action == PASS:
        settle(state)
        return
    hazard = Card(pending.card)
    if action not in coup_reactions(state.cars[seat], hazard):
        safety = SAFETY_FOR[hazard]
        raise IllegalMove(
            f"Only {mb_name(state, safety)} reacts to {mb_name(state, hazard)}: play it or pass."
        )
    car = car_w(state, seat)
    safety = SAFETY_FOR[hazard]
    car.mb.hand.remove(safety)
    put_safety(state, seat, safety, coup=True)
    state.caption += f" Coup fourré! {name(state, seat)} reacts with {mb_name(state, safety)}."
    settle(state)

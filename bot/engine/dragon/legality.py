"""Why a Mille Bornes or Car Wars play is refused, in a sentence a player can read (None: it
is allowed). The move lists in ``moves`` are held to these answers by the tests.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.dragon.cards import SPECS, TIRE_TRACK, TRIP
from bot.engine.dragon.notation import Action
from bot.engine.dragon.state import Car, DragonState
from bot.engine.dragon.table import mb_name, mb_unit, moving, name, needs_repairs
from bot.engine.dragon.words import describe
from bot.engine.mille.cards import SAFETY_FOR, Card
from bot.engine.mille.rules import is_limited


def why_not_mb(state: DragonState, seat: int, card: Card, target: int | None) -> str | None:
    """None if ``seat`` may play the Mille Bornes ``card`` (on ``target``) now, else why not."""
    car = state.cars[seat]
    me = car.mb
    if card.is_safety:
        return None if target is None else "A safety goes on your own car; name no target."
    if card.is_hazard:
        return _why_not_hazard(state, seat, card, target)
    if target is not None:
        return f"{mb_name(state, card)} goes on your own car; name no target."
    if card.is_distance:
        if not moving(car):
            return _why_stopped(state, car)
        if is_limited(me) and card.miles > 50:
            limit = mb_name(state, Card.SPEED_LIMIT)
            return f"You are under a {limit}: only 25 and 50 {mb_unit(state)} may be played."
        if card is Card.D200 and me.two_hundreds >= 2:
            return "You have already played two 200s."
        if me.mileage + card.miles > TRIP:
            return (
                f"That would take you past {TRIP} {mb_unit(state)}; the race ends exactly on "
                f"{TRIP}."
            )
        return None
    top = me.battle_top
    named = mb_name(state, card)
    go, right_of_way = mb_name(state, Card.GO), mb_name(state, Card.RIGHT_OF_WAY)
    if card is Card.GO:
        if top is not None and top.is_hazard and top is not Card.STOP:
            return f"Fix the {mb_name(state, top)} first: {go} cannot cover it."
        if car.skidded:
            return None
        if Card.RIGHT_OF_WAY in me.safeties:
            return f"{right_of_way} already lets you go; you do not need a {go}."
        if top is Card.GO:
            return f"You already have a {go} showing."
        return None
    if card is Card.END_OF_LIMIT:
        limit = mb_name(state, Card.SPEED_LIMIT)
        return None if is_limited(me) else f"You are not under a {limit}."
    if card is Card.GASOLINE:
        if top is Card.OUT_OF_GAS:
            return None
        out_of_gas = mb_name(state, Card.OUT_OF_GAS)
        return f"{named} only answers {out_of_gas}, and that is not on your battle pile."
    if card is Card.SPARE_TIRE:
        if top is Card.FLAT_TIRE or car.tires > 0:
            return None
        flat = mb_name(state, Card.FLAT_TIRE)
        return f"{named} mends a {flat} or tire hits, and you have neither."
    # Repairs
    if top is Card.ACCIDENT or needs_repairs(car):
        return None
    accident = mb_name(state, Card.ACCIDENT)
    return f"{named} fixes an {accident}, body hits or jammed guns, and you need none of that."


def _aimed(state: DragonState, seat: int, action: Action, allowed: Callable[[int], bool]) -> str:
    """``action`` aimed at the next car it may hit (else the next still racing), quoted as its
    button and /move's list say it ("'Stop on Bob'"), which /move reads too: the example was
    the notation ("'play stop @1'"), whose seat numbers no button or image shows."""
    cars = len(state.cars)
    rivals = [(seat + step) % cars for step in range(1, cars)]
    racing = [rival for rival in rivals if state.cars[rival].alive] or rivals
    target = next((rival for rival in racing if allowed(rival)), racing[0])
    return f"'{describe(state, seat, action._replace(target=target))}'"


def _why_stopped(state: DragonState, car: Car) -> str:
    go = mb_name(state, Card.GO)
    if car.tires >= TIRE_TRACK:
        spare = mb_name(state, Card.SPARE_TIRE)
        return f"Your tires are shot: play a {spare} (then a {go}) before you drive again."
    if car.skidded:
        return f"You skidded into a wall: play a {go} to drive again."
    right_of_way = mb_name(state, Card.RIGHT_OF_WAY)
    return f"You cannot move yet: you need a {go} (or {right_of_way}) with no hazard showing."


def _why_not_hazard(state: DragonState, seat: int, card: Card, target: int | None) -> str | None:
    if target is None:
        example = _aimed(
            state,
            seat,
            Action("play", card.value),
            lambda rival: _why_not_hazard(state, seat, card, rival) is None,
        )
        return f"Name the car for {mb_name(state, card)}, for example {example}."
    if target == seat:
        return "You cannot play a hazard on your own car."
    if not 0 <= target < len(state.cars):
        return f"There is no car @{target}."
    victim = state.cars[target]
    rival = name(state, target)
    if not victim.alive:
        return f"{rival} is out of the race."
    if card is Card.SPEED_LIMIT:
        if Card.RIGHT_OF_WAY in victim.mb.safeties:
            return f"{rival} has {mb_name(state, Card.RIGHT_OF_WAY)} and cannot be speed-limited."
        if is_limited(victim.mb):
            return f"{rival} is already under a {mb_name(state, card)}."
        return None
    if SAFETY_FOR[card] in victim.mb.safeties:
        return f"{rival} is protected against {mb_name(state, card)}."
    if not moving(victim):
        return f"{rival} is not moving, so {mb_name(state, card)} cannot be played on them."
    return None


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
                "You have taken flame damage: Fireproof Armor cannot go on until you play "
                f"{mb_name(state, Card.REPAIRS)}."
            )
        return None
    if kind == "stampede":
        return None if target is None else "A Stampede hits every other car; name no target."
    if target is None:
        example = _aimed(
            state,
            seat,
            Action("cw", code, side=side),
            lambda rival: why_not_cw(state, seat, code, rival, side) is None,
        )
        return f"Name the car to attack, for example {example}."
    if target == seat:
        return "You cannot attack your own car."
    if not 0 <= target < len(state.cars):
        return f"There is no car @{target}."
    if not state.cars[target].alive:
        return f"{name(state, target)} is out of the race: pick a live target."
    if kind == "called-shot":
        if side is None:
            return "A Called Shot names a side: front, back, left or right (never the tires)."
    elif side is not None:
        return f"{spec.name} names no side."
    if kind == "jam" and state.cars[target].jammed:
        return f"{name(state, target)} already has jammed machine guns."
    if spec.weapon == "mg" and car.jammed:
        # The game's own name for Repairs: French names wrote it "Repairs" only here.
        return (
            "Your machine guns are jammed: discard your whole Car Wars hand (cw-discard all) "
            f"or play {mb_name(state, Card.REPAIRS)} to unjam them."
        )
    return None

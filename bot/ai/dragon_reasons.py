"""Why the Dragon Mille Bornes expert's hint plays its move, in a player's words.

A card is said to clear, stop or fix only what it does on the table shown, and Mille Bornes
cards are named as the game names them (the ``names`` option).
"""

from __future__ import annotations

from bot.ai.dragon_normal import _parse
from bot.ai.search import SearchReport
from bot.engine.dragon.cards import (
    DRIVER_TRACK,
    SIDE_TRACK,
    SIDES,
    SPECS,
    TIRE_TRACK,
    TRIP,
    cw_name,
)
from bot.engine.dragon.notation import Action
from bot.engine.dragon.views import CarView, DragonPublicView, DragonSeatView
from bot.engine.mille.cards import HAZARD_FOR, HAZARDS_STOPPED_BY, SAFETY_FOR, Card, distance_word
from bot.engine.words import plural


def explain(view: DragonSeatView, move: str, report: SearchReport) -> str:
    """Why ``move``, in a player's words, from what the search found and what the table shows:
    a card is said to clear, stop or fix only what it does here, and Mille Bornes cards are
    named as the game names them (the ``names`` option)."""
    action = _parse(move)
    verb = action.verb
    public = view.public
    lang = public.lang
    players = public.players
    me = public.cars[view.seat]
    rival = players[action.target] if action.target is not None else ""
    pending = public.pending
    if verb == "play":
        card = Card(action.card)
        name = card.name_in(lang)
        if card.is_distance:
            if me.mileage + card.miles == TRIP:
                why = f"{name} takes you to exactly {TRIP} and wins"
            else:
                why = f"driving {name} now brings {TRIP} closer"
        elif card.is_safety:
            why = _dragon_safety_reason(me, card, lang, public.phase)
        elif card.is_hazard:
            why = _dragon_hazard_reason(public, action.target, card, lang)
        else:
            why = _dragon_remedy_reason(me, card, lang)
    elif verb == "discard":
        why = f"{Card(action.card).name_in(lang)} is the Mille Bornes card you need least"
    elif verb == "cw":
        name = cw_name(action.card).split(" (")[0]
        if rival and SPECS[action.card].is_attack:
            why = _dragon_attack_reason(public, action, lang)
        elif action.card == "jam":
            repairs = Card.REPAIRS.name_in(lang)
            why = (
                f"{name} silences the machine guns of {rival} until they play {repairs} or "
                "discard their whole Car Wars hand"
            )
        elif rival:
            why = f"{name} on {rival} does the most harm for the risk"
        elif action.card == "stampede":
            why = "Stampede puts 2 hits on every other car"
        elif action.card == "fireproof":
            why = "Fireproof Armor stays on your car: flame no longer hurts your body or driver"
        else:
            why = f"{name} is your best Car Wars play now"
    elif verb in ("cw-discard", "cw-discard-all"):
        gone = action.cards if verb == "cw-discard" else view.cw_hand
        if len(gone) == 1:
            # One card: "worth more than these" read as if several went.
            lone = cw_name(gone[0]).split(" (")[0]
            why = f"a fresh Car Wars card is worth more than this {lone}"
        else:
            why = "fresh Car Wars cards are worth more than these"
        if me.jammed and verb == "cw-discard-all":
            why = "discarding your whole Car Wars hand unjams your machine guns"
    elif verb == "armor":
        why = "the armor keeps the hits off where they would hurt"
    elif verb in ("swerve", "spin"):
        why = "this shot is worth dodging"
    elif verb == "side":
        why = f"the {SIDES[action.side or 0]} can take these hits best"
    elif verb == "pass":
        why = _dragon_pass_reason(public, lang)
    elif verb == "end":
        why = "no Car Wars card is worth playing this turn"
    elif verb == "backfire" and pending is not None:
        # Not ending on the name: "Computer (normal)" then "(about 40% ...)" read oddly.
        why = f"the autocannon misses you and {players[pending.by]} takes its hits on the front"
    elif verb == "oil-slick" and pending is not None:
        why = f"the Oil Slick makes {players[pending.by]} roll to keep control after the shot"
    elif verb == "skid":
        go = Card.GO.name_in(lang)
        why = f"Skid Into a Wall puts 3 hits on {rival} and stops them until a {go}"
    elif verb == "drop-tank":
        tank = Card.EXTRA_TANK.name_in(lang)
        why = f"without the {tank} on, a flame that reaches your driver cannot kill you outright"
    else:
        why = "it came out best when the next turns were played out"
    return report.reason(why, move)


def _dragon_pass_reason(public: DragonPublicView, lang: str) -> str:
    """Why to let a window pass, in the window's own terms: a coup fourré window is no shot
    (its hint said "your reactions are worth more kept for a bigger shot" of a safety)."""
    pending = public.pending
    kind = pending.kind if pending is not None else ""
    if kind == "coup" and pending is not None:
        hazard = Card(pending.card)
        safety = SAFETY_FOR[hazard].name_in(lang)
        return (
            f"kept, {safety} still clears the {hazard.name_in(lang)} in your own turn, and "
            "gives you your Mille Bornes move back there"
        )
    if kind == "oil-ace":
        ace = Card.DRIVING_ACE.name_in(lang)
        return (
            f"kept, {ace} still goes on in your own turn and gives you your Mille Bornes move back"
        )
    if kind == "skid":
        return "your Skid Into a Wall is worth more kept for later"
    return "your reactions are worth more kept for a bigger shot"


def _dragon_attack_reason(public: DragonPublicView, action: Action, lang: str) -> str:
    """What an aimed shot can do to its car, as the table shows it. "Does the most harm for
    the risk" was said even of a Tire Shot at tires already shot out, which does none. The
    victim may still armor or dodge, so harm is what the shot *can* do; no harm is certain."""
    spec = SPECS[action.card]
    name = spec.name.split(" (")[0]
    assert action.target is not None
    car = public.cars[action.target]
    rival = car.name
    usual = f"{name} on {rival} does the most harm for the risk"
    if spec.kind == "tire-shot":
        if car.tires >= TIRE_TRACK:  # tire hits past 9 are lost (damage.hit_tires)
            return (
                f"{name} on {rival} does no harm, as their tires are already shot out: it "
                "only gets the card out of your hand"
            )
        if car.tires + spec.hits >= TIRE_TRACK:
            spare = Card.SPARE_TIRE.name_in(lang)
            return (
                f"{name} on {rival} can shoot out their tires: they cannot drive again "
                f"without a {spare}"
            )
        return usual
    side = spec.side if spec.kind == "weapon" else (action.side or 0)
    tank = Card.EXTRA_TANK.name_in(lang)
    has_tank = Card.EXTRA_TANK in car.safeties
    if spec.flame and car.fireproof:
        # Fireproof Armor stops flame hits, through a breached side too; an Extra Tank still
        # burns (damage.hit_side removes it before the armor is looked at).
        if has_tank:
            return (
                f"{name} on {rival} can only burn their {tank}: their Fireproof Armor stops "
                "the flames"
            )
        return f"{name} on {rival} does no harm: their Fireproof Armor stops the flames"
    carry = car.hits[side] + spec.hits - SIDE_TRACK  # hits past a breach go to the driver
    if carry <= 0:
        return usual
    where = SIDES[side]
    if car.breached[side]:
        said = f"{name} on {rival} goes through their breached {where}: it can"
    else:
        said = f"{name} on {rival} can breach their {where} and"
    if spec.flame and has_tank:
        return f"{said} reach the driver with their {tank} on, which explodes and kills them"
    if car.driver + carry >= DRIVER_TRACK:
        return f"{said} kill the driver"
    return f"{said} put {plural(carry, 'hit')} on the driver"


def _dragon_hazard_reason(
    public: DragonPublicView, target: int | None, card: Card, lang: str
) -> str:
    """A Speed Limit slows its car; a battle hazard stops it (it only hits a moving car)."""
    name = card.name_in(lang)
    if target is None:
        return f"{name} is your best play now"
    car = public.cars[target]
    if card is Card.SPEED_LIMIT:
        return f"{name} holds {car.name} to 25 and 50 {distance_word(lang)}"
    others = [c.mileage for c in public.cars if c.alive and c.seat != target]
    ahead = car.mileage > 0 and all(car.mileage > m for m in others)
    return f"{name} on {car.name} stops them" + (
        f", the car closest to {TRIP} at {car.mileage} {distance_word(lang)}" if ahead else ""
    )


def _dragon_safety_reason(me: CarView, card: Card, lang: str, phase: str) -> str:
    """A safety clears what it answers on your car, else keeps it off you. In your own turn it
    gives you your Mille Bornes move back; out of turn it is a coup fourré, which gives
    nothing (``phase``: the public view's, "turn" in your own turn)."""
    name = card.name_in(lang)
    # A coup fourré gives no move, turn or draw: the hint said it gave the move back.
    back = " and gives you your Mille Bornes move back" if phase == "turn" else ""
    against = " and ".join(h.name_in(lang) for h in HAZARDS_STOPPED_BY[card])
    if card is Card.DRIVING_ACE:
        against += " (and skids)"
    if phase == "wall":
        return f"{name} steers you clear of the wall and keeps {against} off you for good"
    if phase == "oil-ace":
        return f"{name} takes one off your Oil Slick roll and keeps {against} off you for good"
    showing = [me.battle[-1]] if me.battle and me.battle[-1].is_hazard else []
    if me.limited:
        showing.append(Card.SPEED_LIMIT)
    cleared = [h for h in showing if SAFETY_FOR[h] is card]
    if cleared:
        the = " and the ".join(h.name_in(lang) for h in cleared)
        return f"{name} clears the {the} on you for good{back}"
    why = f"{name} keeps {against} off you for good{back}"
    top = me.battle[-1] if me.battle else None
    # Nothing stops the car but the missing Go, which Right of Way stands in for.
    free = me.tires < TIRE_TRACK and not me.skidded and (top is None or not top.is_hazard)
    if card is Card.RIGHT_OF_WAY and not me.moving and free:
        why += f", and you can drive without a {Card.GO.name_in(lang)}"
    return why


def _dragon_remedy_reason(me: CarView, card: Card, lang: str) -> str:
    """What a remedy clears on your car, and whether you can drive after it (a moving car
    stops to play Repairs or a Spare Tire; Right of Way restarts it)."""
    name = card.name_in(lang)
    go = Card.GO.name_in(lang)
    top = me.battle[-1] if me.battle else None
    tires_out = me.tires >= TIRE_TRACK
    if card is Card.END_OF_LIMIT:
        limit = Card.SPEED_LIMIT.name_in(lang)
        if me.moving:
            return f"{name} lifts the {limit}, so you can drive at full speed again"
        return f"{name} lifts the {limit} on you"
    if card is Card.GO:
        if tires_out:
            return f"{name} lets you drive again once your tires are fixed"
        if me.skidded:
            return f"{name} gets your car moving again after the skid"
        if top is None:
            return f"{name} lets you start driving"
        return f"{name} gets your car moving again"
    hazard = HAZARD_FOR[card]
    fixed: list[str] = []
    if top is hazard:
        fixed.append(f"the {hazard.name_in(lang)} on you")
    if card is Card.SPARE_TIRE and me.tires:
        fixed.append(f"{_the_hits(me.tires)} on your tires")
    if card is Card.REPAIRS:
        body = sum(me.hits)
        if body:
            fixed.append(f"{_the_hits(body)} on your body")
        if me.jammed:
            fixed.append("the jam on your machine guns")
    if not fixed:
        return f"{name} is your best play now"
    said = f"{name} clears " + (
        fixed[0] if len(fixed) == 1 else ", ".join(fixed[:-1]) + " and " + fixed[-1]
    )
    # No brackets: the chance quoted after the reason comes in brackets.
    if top is not None and top.is_hazard and top is not hazard:
        return f"{said}, but the {top.name_in(lang)} still stops you"
    if tires_out and card is not Card.SPARE_TIRE:
        return f"{said}, but your shot tires still stop you"
    if Card.RIGHT_OF_WAY in me.safeties and not me.skidded:
        return f"{said}, and with {Card.RIGHT_OF_WAY.name_in(lang)} you can drive at once"
    return f"{said}, but you will need a {go} to drive"


def _the_hits(count: int) -> str:
    """'the hit', 'the 3 hits': "clears the 1 hit on your tires" read oddly."""
    return "the hit" if count == 1 else f"the {plural(count, 'hit')}"

"""Car Wars plays and the reaction chain every shot opens: armor, Swerve and Spin, Skid Into
a Wall, Autocannon Backfires, Oil Slick and its roll, Stampede and wall sides.
"""

from __future__ import annotations

import random

from bot.engine.core import IllegalMove
from bot.engine.dragon.cards import (
    ARMOR_FOR_SIDE,
    ARMOR_STOPS,
    DRIVER_TRACK,
    MAX_ARMOR,
    SIDES,
    SKID_HITS,
    SPECS,
    STAMPEDE_HITS,
)
from bot.engine.dragon.damage import hit_side, hit_tires
from bot.engine.dragon.ending import check_end
from bot.engine.dragon.facts import learn, shed
from bot.engine.dragon.mille_plays import put_safety
from bot.engine.dragon.moves import answers, armor_answer, armor_reactions, reactions, side_choices
from bot.engine.dragon.notation import BACKFIRE, PASS, SPIN, SWERVE, Action, format_action
from bot.engine.dragon.state import NONE_OF, ONE_OF, Car, DragonState, Pending, Phase
from bot.engine.dragon.table import car_w, mb_name, name
from bot.engine.dragon.turns import settle, shuffle_seed
from bot.engine.mille.cards import Card


def play_cw(state: DragonState, seat: int, code: str, target: int | None, side: int | None) -> None:
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
        # One step for every victim: they are hit at the same time, so drivers it kills go
        # out together and are placed by miles, not by who picked a side first.
        state.step += 1
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
        # "The guns of X", not "X's guns": a seat such as "Computer (normal)" takes no "'s".
        state.caption = f"{who} jams the machine guns of {rival}!"
        settle(state)
        return
    if spec.kind == "tire-shot":
        struck = -1
        where = "tires"
    else:
        struck = spec.side if spec.kind == "weapon" else (side or 0)
        where = SIDES[struck]
    state.caption = f"{who} fires {spec.name.split(' (')[0]} at the {where} of {rival}."
    pending = Pending(
        Phase.REACT, actor=target, car=target, by=seat, card=code, side=struck, hits=spec.hits
    )
    _offer_reaction(state, pending)


def _offer_reaction(state: DragonState, pending: Pending) -> None:
    """Open the victim's window if it holds a reaction, else the shot lands at once."""
    pending.kind = Phase.REACT
    pending.actor = pending.car
    state.pending = pending
    if reactions(state, pending):
        state.phase = Phase.REACT
        return
    _no_window(state, pending.car, answers(state, pending))
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
        hit_tires(state, pending.car, hits)
    else:
        hit_side(state, pending.car, pending.side, hits, spec.flame, pending.by)
    if check_end(state):
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
        bonus = f" (-1, {mb_name(state, Card.DRIVING_ACE)})" if ace else ""
        note = f" {name(state, shooter)} rolls {roll}{bonus}"
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


def apply_react(state: DragonState, seat: int, action: Action) -> None:
    pending = state.pending
    assert pending is not None
    car = car_w(state, seat)
    who = name(state, seat)
    if action == PASS:
        # The window was open, so the table knows an answer was held (and kept).
        learn(car, ONE_OF, answers(state, pending))
        _land_shot(state, pending)
        return
    legal = reactions(state, pending)
    if action not in legal:
        raise IllegalMove(_why_not_reaction(state, pending, action))
    if action.verb == "armor":
        _use_cw(state, car, ARMOR_FOR_SIDE[pending.side])
        pending.armor += 1
        # Two may stack: the second is told as such, or it reads as the first one repeated.
        which = "a second Armor" if pending.armor == 2 else "Armor"
        state.caption += f" {who} plays {which} on the {SIDES[pending.side]}."
        if reactions(state, pending):
            return  # a second Armor may follow
        _no_window(state, seat, answers(state, pending))
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
        if armor_reactions(state.cars[attacker], pending):
            state.phase = Phase.BACKFIRE
            return
        _no_window(state, attacker, armor_answer(pending))
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
    if reactions(state, pending):
        return
    _no_window(state, seat, answers(state, pending))
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
        go, right_of_way = mb_name(state, Card.GO), mb_name(state, Card.RIGHT_OF_WAY)
        return f"You must be moving to {verb} (a {go} or {right_of_way} showing, tires whole)."
    if verb == "backfire":
        if spec.weapon != "ac":
            return "Autocannon Backfires only reacts to an autocannon."
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
    if verb == "cw" and action.card in SPECS:
        # A Tire Shot (or any Car Wars play) is an own-turn move, never an answer.
        return f"{SPECS[action.card].name} is played in your own turn, not as a reaction to a shot."
    # What this victim may answer now: the list of every reaction named an Oil Slick in a game
    # without them, and a Backfire against a machine gun.
    may = [f"'{format_action(answer)}'" for answer in [*reactions(state, pending), PASS]]
    either = " or ".join([", ".join(may[:-1]), may[-1]] if len(may) > 1 else may)
    return f"React to the shot: {either}."


def _use_cw(state: DragonState, car: Car, code: str) -> None:
    car.cw_hand.remove(code)
    shed(car, (code,))
    state.cw_discard.append(code)


def _land_backfire(state: DragonState, pending: Pending) -> None:
    hits = max(0, pending.hits - ARMOR_STOPS * pending.armor)
    state.step += 1
    hit_side(state, pending.car, 0, hits, False, pending.by)
    if check_end(state):
        return
    _after_shot(state, pending.oil_by)


def apply_backfire(state: DragonState, seat: int, action: Action) -> None:
    pending = state.pending
    assert pending is not None
    if action == PASS:
        learn(car_w(state, seat), ONE_OF, armor_answer(pending))
        _land_backfire(state, pending)
        return
    if action not in armor_reactions(state.cars[seat], pending):
        if action.verb == "armor":
            raise IllegalMove("A backfire hits your front: only front armor helps.")
        raise IllegalMove("React to the backfire with 'armor front' or 'pass'.")
    _use_cw(state, car_w(state, seat), "armor-front")
    pending.armor += 1
    state.caption += f" {name(state, seat)} plays Armor on the front."
    if armor_reactions(state.cars[seat], pending):
        return
    _no_window(state, seat, armor_answer(pending))
    _land_backfire(state, pending)


def apply_skid(state: DragonState, seat: int, action: Action) -> None:
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


def apply_oil_ace(state: DragonState, seat: int, action: Action) -> None:
    pending = state.pending
    assert pending is not None
    if action != PASS:
        if action != Action("play", Card.DRIVING_ACE.value):
            raise IllegalMove("React to the Oil Slick with 'play driving-ace', or pass.")
        car = car_w(state, seat)
        car.mb.hand.remove(Card.DRIVING_ACE)
        put_safety(state, seat, Card.DRIVING_ACE, coup=True)
        state.caption += (
            f" Coup fourré! {name(state, seat)} plays the {mb_name(state, Card.DRIVING_ACE)} "
            "against the Oil Slick."
        )
    _offer_reaction(state, pending)


def _why_no_ace(state: DragonState, seat: int, pending: Pending) -> str:
    """Why the Driving Ace does not cancel this wall or stampede (the one message said
    "Only a Driving Ace from your hand cancels this skid" even to a player holding one)."""
    ace = mb_name(state, Card.DRIVING_ACE)
    if state.phase is Phase.STAMPEDE:
        return "A Stampede is not a skid: pick the side that takes the hits."
    if not pending.ace:
        return (
            f"The {ace} is no protection against an Oil Slick skid: "
            "pick the side that takes the hits."
        )
    return f"You hold no {ace}: pick the side that takes the hits."


def apply_side(state: DragonState, seat: int, action: Action) -> None:
    pending = state.pending
    assert pending is not None
    car = car_w(state, seat)
    who = name(state, seat)
    if action not in side_choices(state, seat, pending):
        if action.verb == "armor":
            raise IllegalMove("You hold no Armor for that side.")
        if action == Action("play", Card.DRIVING_ACE.value):
            raise IllegalMove(_why_no_ace(state, seat, pending))
        raise IllegalMove("Pick the side that takes the hits: 'side front', 'side left'…")
    wall = state.phase is Phase.WALL
    if action.verb == "play":
        car.mb.hand.remove(Card.DRIVING_ACE)
        put_safety(state, seat, Card.DRIVING_ACE, coup=True)
        ace = mb_name(state, Card.DRIVING_ACE)
        state.caption += f" Coup fourré! {who} plays {ace} and steers clear of the wall."
        _after_shot(state, pending.oil_by)
        return
    side = action.side or 0
    armor = 0
    if action.verb == "armor":
        _use_cw(state, car, ARMOR_FOR_SIDE[side])
        armor = 1
        state.caption += f" {who} armors the {SIDES[side]}."
    hits = max(0, pending.hits - ARMOR_STOPS * armor)
    if wall:
        state.step += 1  # a stampede took its one step when it was played
        car.skidded = True
        state.caption += f" {who} hits the wall with the {SIDES[side]} and stops."
    else:
        pending.waiting.remove(seat)
        state.caption += f" {who} takes the stampede on the {SIDES[side]}."
    hit_side(state, seat, side, hits, False, pending.by)
    if check_end(state):
        return
    if wall:
        _after_shot(state, pending.oil_by if pending.card == "skid" else -1)
        return
    pending.waiting = [s for s in pending.waiting if state.cars[s].alive]
    if not pending.waiting:
        settle(state)

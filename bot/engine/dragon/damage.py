"""Hits landing on a car: tires, sides breached and the carry-over onto the driver
(docs/rules/dragon.md, The cars), flames and the Extra Tank, deaths credited as kills, and a car
leaving the race.
"""

from __future__ import annotations

from bot.engine.dragon.cards import DRIVER_TRACK, SIDE_TRACK, SIDES, TIRE_TRACK
from bot.engine.dragon.state import Car, DragonState
from bot.engine.dragon.table import car_w, mb_name, name
from bot.engine.mille.cards import Card


def remove_safety(state: DragonState, car: Car, card: Card) -> None:
    car.mb.safeties.remove(card)
    if card in car.mb.coups:
        car.mb.coups.remove(card)
    state.mb_discard.append(card)


def _hits(count: int) -> str:
    return "1 hit" if count == 1 else f"{count} hits"


def hit_tires(state: DragonState, seat: int, hits: int) -> None:
    car = car_w(state, seat)
    if hits and car.tires >= TIRE_TRACK:
        # Tires already shot out take nothing more, and the car stopped long ago.
        state.caption += " The tires are already shot out: the hits are lost."
        return
    car.tires = min(TIRE_TRACK, car.tires + hits)
    if hits:
        state.caption += f" {_hits(hits)} to the tires."
    if car.tires >= TIRE_TRACK and hits:
        state.caption += f" The tires are shot: {name(state, seat)} stops."


def hit_side(state: DragonState, seat: int, side: int, hits: int, flame: bool, by: int) -> None:
    """``hits`` land on a side; past 12 they carry onto the driver (dragon.md, The cars)."""
    car = car_w(state, seat)
    if hits <= 0:
        state.caption += " No damage."
        return
    tank = Card.EXTRA_TANK in car.mb.safeties
    who = name(state, seat)
    extra_tank = mb_name(state, Card.EXTRA_TANK)
    if flame and tank:
        remove_safety(state, car, Card.EXTRA_TANK)
        state.caption += f" {who} loses the {extra_tank} to the flames!"
    if flame and car.fireproof:
        state.caption += " Fireproof Armor stops the flames."
        return
    total = car.hits[side] + hits
    carry = max(0, total - SIDE_TRACK)
    was_breached = car.hits[side] >= SIDE_TRACK
    car.hits[side] = min(SIDE_TRACK, total)
    if flame:
        car.flamed = True
    # "to the breached front": "3 hits to the front. Bob takes 3 hits to the driver." read as
    # six hits, on a side whose count cannot rise any more.
    breached = "breached " if was_breached else ""
    state.caption += f" {_hits(hits)} to the {breached}{SIDES[side]}."
    if car.hits[side] >= SIDE_TRACK and not was_breached:
        state.caption += f" The {SIDES[side]} is breached!"
    if carry:
        if flame and tank:
            state.caption += f" The flames reach {who}: the {extra_tank} explodes!"
            kill(state, seat, by)
            return
        car.driver = min(DRIVER_TRACK, car.driver + carry)
        state.quiet = 0
        state.caption += f" {who} takes {_hits(carry)} to the driver."
        if car.driver >= DRIVER_TRACK:
            kill(state, seat, by)


def kill(state: DragonState, seat: int, by: int) -> None:
    car = car_w(state, seat)
    state.quiet = 0
    car.driver = DRIVER_TRACK
    # The kill is the card's player's, even one who has left while their backfire or Oil
    # Slick was still striking: the card was theirs (dragon.md, Kills).
    car.killed_by = by
    if 0 <= by < len(state.cars) and by != seat:
        car_w(state, by).kills += 1
        state.caption += f" {name(state, seat)} is dead — a kill for {name(state, by)}."
    else:
        state.caption += f" {name(state, seat)} is dead."
    retire(state, seat)


def retire(state: DragonState, seat: int) -> None:
    """The car goes out; both its hands and its car cards are discarded (dragon.md, The end)."""
    car = car_w(state, seat)
    # The quiet count is in turns and the arena closes after 25 rounds of the cars still
    # alive: with one car fewer, the quiet turns so far make the same number of rounds only
    # once rescaled (20 quiet rounds of three cars, then a car left, closed the arena a turn
    # later "after 25 rounds"). A kill has already reset the count, so this changes a leave.
    alive = sum(1 for other in state.cars if other.alive)
    if car.alive and alive > 1:
        state.quiet = state.quiet * (alive - 1) // alive
    car.final_miles = car.mb.mileage
    car.alive = False
    car.out_at = state.step
    car.skidded = False
    t = car.mb
    state.mb_discard.extend(t.hand + t.battle + t.speed + t.safeties + t.miles)
    t.hand, t.battle, t.speed, t.safeties, t.miles, t.coups = [], [], [], [], [], []
    state.cw_discard.extend(car.cw_hand + car.fireproof)
    car.cw_hand, car.fireproof, car.facts = [], [], []

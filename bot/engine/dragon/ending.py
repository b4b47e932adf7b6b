"""How a Dragon game ends: exactly 1000 miles, the last driver alive, deaths in the same
step (docs/rules/dragon.md, Rulings), the arena closing after quiet rounds; and the places that
follow.
"""

from __future__ import annotations

from bot.engine.dragon.cards import TRIP
from bot.engine.dragon.state import DragonState, Phase
from bot.engine.dragon.table import living, mb_unit, name

QUIET_ROUNDS = 25
"""The arena closes after this many rounds in a row with no miles driven and no driver hurt
(our ruling: those are the only things that never undo, so every game ends)."""


def finish_race(state: DragonState, seat: int) -> None:
    # One sentence, in the caption and as the reason (it said both "crosses the line at 1000
    # miles!" and "drove exactly 1000 miles.").
    reason = f"{name(state, seat)} crosses the line at exactly {TRIP} {mb_unit(state)}."
    end_game(state, (seat,), reason)


def stalemate(state: DragonState) -> None:
    """Nobody drove or hurt a driver for QUIET_ROUNDS rounds: the most miles wins."""
    alive = living(state)
    best = max(state.cars[s].miles for s in alive)
    top = tuple(s for s in alive if state.cars[s].miles == best)
    unit = mb_unit(state)
    # "without any bornes driven" with the French names: "a borne" is no card's word.
    driven = "a mile" if unit == "miles" else f"any {unit}"
    rounds = f"{QUIET_ROUNDS} rounds without {driven} driven or a driver hurt"
    if len(top) == 1:
        reason = f"The arena closes after {rounds}: {name(state, top[0])} has the most {unit}."
        end_game(state, top, reason)
    else:
        end_game(state, (), f"The arena closes after {rounds}: equal {unit}.", tied=top)


def check_end(state: DragonState) -> bool:
    """The game ends when one driver is left alive (or none: then the most miles wins)."""
    alive = living(state)
    if len(alive) >= 2:
        return False
    if len(alive) == 1:
        seat = alive[0]
        end_game(state, (seat,), f"{name(state, seat)} is the last driver alive.")
        return True
    # Every remaining driver died in the same step: the most miles wins, a tie on miles draws.
    dead = [s for s, car in enumerate(state.cars) if not car.left]
    last = max(state.cars[s].out_at for s in dead)
    final = [s for s in dead if state.cars[s].out_at == last]
    best = max(state.cars[s].final_miles for s in final)
    top = tuple(s for s in final if state.cars[s].final_miles == best)
    unit = mb_unit(state)
    if len(top) == 1:
        end_game(
            state, top, f"The last drivers died together; {name(state, top[0])} had more {unit}."
        )
    else:
        end_game(state, (), f"The last drivers died together with equal {unit}.", tied=top)
    return True


def end_game(
    state: DragonState, winners: tuple[int, ...], reason: str, tied: tuple[int, ...] = ()
) -> None:
    """End the game. ``reason`` says how it ended, never "wins" or "a draw": the front ends
    announce the result once, in their own words, beside the miles."""
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

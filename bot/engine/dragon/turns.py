"""Dealing and the turn flow: drawing up to 7 and 6 (each deck reshuffled from its own
discards), passing the turn to the next live car, ending a turn once both moves are made.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from bot.engine.dragon.cards import CW_DEAL, CW_HAND, MB_DEAL, MB_HAND
from bot.engine.dragon.ending import QUIET_ROUNDS, stalemate
from bot.engine.dragon.state import DragonState, Phase
from bot.engine.dragon.table import car_w, living
from bot.engine.mille.cards import Card


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


_Card = TypeVar("_Card", Card, str)  # a Mille Bornes card, or a Car Wars card's code

# Read once: ``Phase.TURN`` goes through the Enum metaclass's attribute hook (several times
# slower than a module name), and every turn asks.
_TURN = Phase.TURN
_OVER = Phase.OVER


def begin_turn(state: DragonState, seat: int) -> None:
    """Hand the turn to ``seat``: it draws up to 7 and 6, then acts."""
    state.turn = seat
    state.phase = _TURN
    state.pending = None
    state.mb_left = 1
    state.cw_done = False
    state.spun = False
    car = car_w(state, seat)
    state.mb_shuffles = _draw_up_to(
        state, car.mb.hand, MB_HAND, state.mb_draw, state.mb_discard, "mb", state.mb_shuffles
    )
    state.cw_shuffles = _draw_up_to(
        state, car.cw_hand, CW_HAND, state.cw_draw, state.cw_discard, "cw", state.cw_shuffles
    )


def _draw_up_to(
    state: DragonState,
    hand: list[_Card],
    size: int,
    draw: list[_Card],
    discard: list[_Card],
    deck: str,
    shuffles: int,
) -> int:
    """Draw from one deck (``deck``: "mb" or "cw") into ``hand`` until it holds ``size`` cards.

    Both decks draw alike: an empty draw pile takes the deck's discards, shuffled (seeded by
    the deck's own shuffle count, so a game replays exactly), and a deck with neither leaves
    the hand short. The piles change in place; returns the deck's shuffle count after.
    """
    while len(hand) < size:
        if not draw:
            if not discard:
                break
            shuffles += 1
            draw[:] = discard
            discard.clear()
            random.Random(shuffle_seed(state, deck, shuffles)).shuffle(draw)
        hand.append(draw.pop())
    return shuffles


def next_seat(state: DragonState, seat: int) -> int:
    seats = len(state.cars)
    for step in range(1, seats + 1):
        other = (seat + step) % seats
        if state.cars[other].alive:
            return other
    return seat


def pass_turn(state: DragonState) -> None:
    if state.phase is _OVER:
        return
    state.quiet += 1
    if state.quiet >= QUIET_ROUNDS * len(living(state)):
        stalemate(state)
        return
    begin_turn(state, next_seat(state, state.turn))


def settle(state: DragonState) -> None:
    """Back to the turn player after a move or a finished chain: end the turn when done
    (the car is out, or both its moves are made or it has no card left for them)."""
    if state.phase is _OVER:
        return
    state.pending = None
    state.phase = _TURN
    car = state.cars[state.turn]
    mb_done = state.mb_left <= 0 or not car.mb.hand
    if not car.alive or (mb_done and (state.cw_done or not car.cw_hand)):
        pass_turn(state)

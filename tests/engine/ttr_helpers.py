"""Stacked decks and laid-out tables for Ticket to Ride tests."""

from __future__ import annotations

from collections.abc import Sequence

import bot.engine.ttr  # noqa: F401  (registers the games)
from bot.engine.ttr import GAME as _G
from bot.engine.ttr import SOLO_GAME as _S
from bot.engine.ttr.cards import CARD_CODES, COLOURS, KINDS, LOCO, card_from_text
from bot.engine.ttr.game import TicketToRide, TicketToRideSolo
from bot.engine.ttr.state import ACT, TtrState

assert isinstance(_G, TicketToRide) and isinstance(_S, TicketToRideSolo)
G: TicketToRide = _G
SOLO: TicketToRideSolo = _S
NAMES = ("Ann", "Bob", "Cat", "Dan")


def card(code: str) -> int:
    found = card_from_text(code)
    assert found is not None, code
    return found


def counts(*codes: str) -> list[int]:
    """Nine counts from card codes: ``counts("red", "red", "loco")``."""
    out = [0] * KINDS
    for code in codes:
        out[card(code)] += 1
    return out


def deal(
    hands: Sequence[Sequence[str]],
    up: Sequence[str] = (),
    draws: Sequence[str] = (),
    tickets: Sequence[str] = (),
    seed: int = 1,
) -> TtrState:
    """A standard game: seat ``i`` is dealt ``hands[i]`` (seven codes) after its Locomotive,
    then ``up`` go face up (five) and ``draws`` are the next cards of the deck, in order."""
    assert all(len(h) == 7 for h in hands)
    assert not draws or len(up) == 5
    deck = [code for hand in hands for code in hand] + list(up) + list(draws)
    return G.new_game(list(NAMES[: len(hands)]), seed, deck=[*deck, *tickets])


def keep_first(state: TtrState) -> TtrState:
    """Every seat still choosing at setup keeps its first offered ticket (solo: the smallest
    keep allowed, the highest-value ticket alone)."""
    game = SOLO if state.solo else G
    for seat in sorted(game.to_act(state)):
        state = game.apply(state, seat, game.legal_actions(state, seat)[0])
    return state


def play(state: TtrState, seat: int, *moves: str) -> TtrState:
    game = SOLO if state.solo else G
    for move in moves:
        state = game.apply(state, seat, game.parse_action(move))
    return state


def lay(
    seats: int = 2,
    *,
    hands: Sequence[Sequence[str]] = (),
    yards: Sequence[dict[str, tuple[int, int]]] = (),
    slots: Sequence[str | None] = ("red", "orange", "yellow", "green", "blue"),
    deck: Sequence[str] | None = None,
    turn: int = 0,
    seed: int = 3,
) -> TtrState:
    """A standard game after setup, laid out card by card: ``hands`` (codes per seat),
    ``yards`` (colour -> (colour cards, Locomotives) per seat), the face-up ``slots`` and the
    ``deck`` (top first). Seat ``turn`` is to act. Other cards simply leave the game."""
    state = keep_first(G.new_game(list(NAMES[:seats]), seed))
    for s in range(seats):
        state.hands[s] = counts(*hands[s]) if s < len(hands) else [0] * KINDS
        state.yard_nat[s] = [0] * len(COLOURS)
        state.yard_loco[s] = [0] * len(COLOURS)
        state.track[s] = [0] * KINDS
        for colour, (nat, loco) in (yards[s] if s < len(yards) else {}).items():
            state.yard_nat[s][card(colour)] = nat
            state.yard_loco[s][card(colour)] = loco
    state.slots = [-1 if code is None else card(code) for code in slots]
    if deck is not None:
        state.deck = [card(code) for code in reversed(deck)]
    state.discard = [0] * KINDS
    state.turn = turn
    state.phase = ACT
    return state


def hand_of(state: TtrState, seat: int) -> dict[str, int]:
    return {CARD_CODES[c]: n for c, n in enumerate(state.hands[seat]) if n}


def yard_of(state: TtrState, seat: int) -> dict[str, tuple[int, int]]:
    return {
        COLOURS[c]: (state.yard_nat[seat][c], state.yard_loco[seat][c])
        for c in range(len(COLOURS))
        if state.yard_nat[seat][c] + state.yard_loco[seat][c]
    }


def slot_codes(state: TtrState) -> list[str | None]:
    return [None if c < 0 else CARD_CODES[c] for c in state.slots]


__all__ = ["LOCO", "SOLO", "G", "TtrState"]

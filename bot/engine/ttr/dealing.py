"""The deal (standard and solo) and the opening choice of tickets, up to the first turn."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.ttr.cards import LOCO, TICKETS
from bot.engine.ttr.state import (
    ACT,
    CLOCK_CARDS,
    SETUP,
    TtrState,
)
from bot.engine.ttr.station_clock import clock_step
from bot.engine.ttr.table import locomotive_reset, refill, shuffled
from bot.engine.words import plural


def deal_standard(state: TtrState, train: list[int], tickets: list[int]) -> None:
    """Starting Locomotives, seven cards each, five face up; six tickets each to choose from.

    ``train`` and ``tickets`` are in dealing order (top first); the Locomotives each player
    starts with are already out of ``train``.
    """
    n = state.seats
    for seat in range(n):
        state.hands[seat][LOCO] += 1
        for card in train[seat * 7 : seat * 7 + 7]:
            state.hands[seat][card] += 1
        state.offered[seat] = sorted(tickets[seat * 6 : seat * 6 + 6])
    rest = train[n * 7 :]
    state.deck = list(reversed(rest))  # top last
    refill(state)
    locomotive_reset(state)
    state.ticket_deck = tickets[n * 6 :]
    state.phase = SETUP
    state.caption = "Tickets are dealt: everyone keeps at least one of their six."


def deal_solo(state: TtrState, train: list[int], tickets: list[int]) -> None:
    """A Locomotive and seven cards, sixteen cards for the Station Clock, four face up and the
    first Station Clock card; six tickets to choose from and six hidden for the opponent."""
    state.hands[0][LOCO] += 1
    for card in train[:7]:
        state.hands[0][card] += 1
    state.clock_deck = list(reversed(train[7 : 7 + CLOCK_CARDS]))
    state.deck = list(reversed(train[7 + CLOCK_CARDS :]))
    refill(state)
    locomotive_reset(state)
    state.offered[0] = sorted(tickets[:6])
    state.hidden_tickets = list(tickets[6:12])
    state.ticket_deck = tickets[12:]
    state.clock_turn = 1
    notes = clock_step(state)
    state.phase = SETUP
    state.caption = " ".join(
        [*notes, "Choose your tickets: keep the highest-value one, and any of the others."]
    )


def keep_example(state: TtrState, seat: int) -> str:
    """A keep that would be accepted, from the tickets ``seat`` is actually offered: two of
    them (solo setup: the highest-value one first, as it must be kept), and ``'keep none'``
    unless this is the opening choice, which keeps at least one; "" when nothing is offered."""
    if not 0 <= seat < state.seats:
        return ""
    offered = list(state.offered[seat])
    if not offered:
        return ""
    if state.solo and state.phase == SETUP:
        offered.sort(key=lambda t: -TICKETS[t].points)  # stable: the lowest code among equals
    codes = " ".join(TICKETS[t].code for t in sorted(offered[:2]))
    if state.phase == SETUP:
        return f"'keep {codes}'"
    return f"'keep {codes}' or 'keep none'"


def setup_minimum_met(state: TtrState, seat: int, kept: Sequence[int]) -> str | None:
    """Why keeping ``kept`` at setup is refused, or None."""
    if not kept and not state.solo:
        return "Keep at least one ticket at the start of the game."
    # Solo, keeping none is refused by naming the ticket to keep: "Keep at least one" led a
    # member to keep another, refused in turn for not being the highest.
    if state.solo:
        top = max(TICKETS[t].points for t in state.offered[seat])
        if not any(TICKETS[t].points == top for t in kept):
            best = [t for t in state.offered[seat] if TICKETS[t].points == top]
            which = " or ".join(f"{TICKETS[t].code} ({TICKETS[t].route})" for t in best)
            return f"You must keep your highest-value ticket: {which}, worth {top}."
    return None


def finish_setup(state: TtrState) -> None:
    """Everyone has chosen: the returned tickets were shuffled back; the first turn begins."""
    state.ticket_deck = shuffled(state, state.ticket_deck)
    kept = [
        # "Name: 2", since a seat name may end in a word or a bracket ("Computer 2 (normal)").
        f"{state.players[s]}: {len(state.tickets[s])}"
        for s in range(state.seats)
        if state.active(s)
    ]
    if state.solo:
        state.caption = (
            f"You keep {plural(len(state.tickets[0]), 'ticket')}. Turn 1 of {CLOCK_CARDS}."
        )
        state.phase = ACT
        state.turn = 0
        return
    first = next(s for s in range(state.seats) if state.active(s))
    state.phase = ACT
    state.turn = first
    state.caption = f"Tickets kept — {', '.join(kept)}. {state.players[first]} starts."

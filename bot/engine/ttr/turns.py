"""The turn flow after an action: the Railyard feeding the On-the-Track stack, the next
player, the final round, the second train deck; solo, the next Station Clock turn.
"""

from __future__ import annotations

from bot.engine.ttr.cards import KINDS, LOCO, NCOL
from bot.engine.ttr.ending import finish
from bot.engine.ttr.state import (
    ACT,
    CLOCK_CARDS,
    OVER,
    SECOND_DECK_DEAL,
    TtrState,
)
from bot.engine.ttr.station_clock import clock_step, settle
from bot.engine.ttr.table import draw_card, locomotive_reset, refill, shuffled
from bot.engine.words import plural


def next_active(state: TtrState, seat: int) -> int:
    for step in range(1, state.seats + 1):
        other = (seat + step) % state.seats
        if state.active(other):
            return other
    return seat


def to_track(state: TtrState, seat: int) -> int:
    """One card of each Railyard colour set onto the On-the-Track stack, Locomotives first."""
    moved = 0
    nat, loco, track = state.yard_nat[seat], state.yard_loco[seat], state.track[seat]
    for c in range(NCOL):
        if loco[c]:
            loco[c] -= 1
            track[LOCO] += 1
            moved += 1
        elif nat[c]:
            nat[c] -= 1
            track[c] += 1
            moved += 1
    return moved


def begin_turn(state: TtrState, seat: int) -> None:
    """Start ``seat``'s turn: its Railyard feeds its On-the-Track stack."""
    state.turn = seat
    state.phase = ACT
    moved = to_track(state, seat)
    if moved:
        who = state.players[seat]
        state.caption += (
            f" {who} moves {plural(moved, 'card')} from the Railyard to the On-the-Track stack."
        )


def end_turn(state: TtrState) -> None:
    """After the action: the next turn, the final round, the second deck or the end."""
    if state.solo:
        end_solo_turn(state)
        return
    seat = state.turn
    state.phase = ACT
    if state.exhausted and state.deck_number == 1 and not state.final_round:
        state.final_round = True
        # Everyone once more, in turn order, ending with the seat that drew the last card.
        n = state.seats
        state.final_queue = [
            (seat + k) % n for k in range(1, n + 1) if state.active((seat + k) % n)
        ]
        state.caption += " The train deck has run out: everyone takes one final turn."
    elif state.exhausted and state.deck_number == 2:
        finish(state, "The second train deck has run out.")
        return
    if state.final_round:
        state.final_queue = [s for s in state.final_queue if state.active(s)]
        if state.final_queue:
            begin_turn(state, state.final_queue.pop(0))
            return
        second_deck(state)
        if state.phase == OVER:
            return
    begin_turn(state, next_active(state, seat))


def second_deck(state: TtrState) -> None:
    """Everything but the hands becomes the second train deck; four more cards each.

    "Everything" (docs/rules/ttr.md, The end) is the discards, the Railyards, the face-up
    cards and the On-the-Track stacks. With the ``tracks=keep`` option the stacks stay.
    """
    pool: list[int] = []
    for card in range(KINDS):
        pool.extend([card] * state.discard[card])
        state.discard[card] = 0
    for seat in range(state.seats):
        for c in range(NCOL):
            pool.extend([c] * state.yard_nat[seat][c])
            pool.extend([LOCO] * state.yard_loco[seat][c])
            state.yard_nat[seat][c] = state.yard_loco[seat][c] = 0
        if state.keep_tracks:
            continue
        for card in range(KINDS):
            pool.extend([card] * state.track[seat][card])
            state.track[seat][card] = 0
    for i, card in enumerate(state.slots):
        if card >= 0:
            pool.append(card)
            state.slots[i] = -1
    pool.sort()
    state.deck = shuffled(state, pool)
    state.deck_number = 2
    state.final_round = False
    state.final_queue = []
    state.exhausted = not state.deck
    short = False  # the deck ran out before every player had their four cards
    for _ in range(SECOND_DECK_DEAL):
        for seat in range(state.seats):
            if state.active(seat):
                if state.deck:
                    state.hands[seat][draw_card(state)] += 1
                else:
                    short = True
    refill(state)
    locomotive_reset(state)
    # Said as it happened: the face-up cards go in too, and a small deck cannot give four each.
    what = (
        "discards, face-up cards and Railyards"
        if state.keep_tracks
        else "discards, face-up cards, Railyards and On-the-Track stacks"
    )
    dealt = "its cards are dealt until none are left" if short else "everyone draws four cards"
    state.caption += f" Final turns done: the {what} form the second train deck, and {dealt}."
    if not state.deck:
        finish(state, "The second train deck ran out as it was dealt.")


def end_solo_turn(state: TtrState) -> None:
    if state.clock_turn >= CLOCK_CARDS:
        finish(state, f"The last Station Clock card has been played: turn {CLOCK_CARDS} is over.")
        return
    state.clock_turn += 1
    state.phase = ACT
    notes = clock_step(state)
    moved = to_track(state, 0)
    if moved:
        notes.append(f"Your Railyard sends {plural(moved, 'card')} to your On-the-Track stack.")
    notes.extend(settle(state))
    state.caption = " ".join(
        [state.caption, f"Turn {state.clock_turn} of {CLOCK_CARDS}.", *notes]
    ).strip()

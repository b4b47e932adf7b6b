"""The turn flow: the automatic draw, a turn with nothing to do ending by itself, the end of
the turn in the ruled order (exact 1000, the hand limit, the legendary rule), and the end of
the game (exactly 1000 miles, or spent libraries decided on miles).
"""

from __future__ import annotations

from bot.engine.race.cards import (
    HAND_LIMIT,
    NAME,
    TARGET,
    TRUMPS,
)
from bot.engine.race.hands import draw, draw_note
from bot.engine.race.legality import has_choice
from bot.engine.race.state import Phase, RaceState
from bot.engine.words import plural


def both_skipped(state: RaceState) -> bool:
    return state.sides[0].skipped and state.sides[1].skipped


def begin_turn(state: RaceState, seat: int) -> None:
    """Hand the turn to ``seat``: the automatic draw, then the play phase.

    A turn with nothing to do but end it ends at once; the game ends when both players'
    draws are skipped and neither holds a card.
    """
    while True:
        state.turn = seat
        state.turn_number += 1
        state.phase = Phase.PLAY
        state.stack = []
        state.played_miles = state.played_hazard = state.played_removal = False
        state.cycled = state.acted = False
        drawn, reshuffled = draw(state, seat, 1)
        if reshuffled is not None or not drawn:
            note = draw_note(state, seat, drawn, reshuffled, 1)
            state.caption = f"{state.caption} {note}".strip()
        if both_skipped(state) and not state.sides[0].hand and not state.sides[1].hand:
            end_by_exhaustion(state, "Both libraries are spent and neither player can act.")
            return
        if has_choice(state):
            return
        # Nothing to do but end: the turn ends by itself.
        state.caption = f"{state.caption} {state.players[seat]} can do nothing and passes.".strip()
        if not close_turn(state):
            return
        seat = 1 - seat


def end_turn(state: RaceState) -> None:
    """The end of the active player's turn, in the ruled order (reactions already resolved):
    exact 1000 wins, then the hand-limit discard, then the legendary rule."""
    seat = state.turn
    if state.sides[seat].total == TARGET:
        win(state, seat)
        return
    if len(state.sides[seat].hand) > HAND_LIMIT:
        state.phase = Phase.DISCARD
        extra = len(state.sides[seat].hand) - HAND_LIMIT
        state.caption = (
            f"{state.caption} {state.players[seat]} must discard {plural(extra, 'card')} "
            f"down to {HAND_LIMIT}."
        ).strip()
        return
    if close_turn(state):
        begin_turn(state, 1 - seat)


def close_turn(state: RaceState) -> bool:
    """Legendary rule and the idle-turn count; False when the game ended here."""
    seat = state.turn
    if state.sides[seat].total == TARGET:  # an auto-ended turn can still finish the race
        win(state, seat)
        return False
    _legendary(state)
    if both_skipped(state) and not state.acted:
        state.idle_turns += 1
    else:
        state.idle_turns = 0
    if state.idle_turns >= 2:
        end_by_exhaustion(
            state, "Both libraries are spent and two turns in a row passed without a play."
        )
        return False
    return True


def _legendary(state: RaceState) -> None:
    a, b = state.sides
    if not a.trumps or not b.trumps:
        return
    for trump in TRUMPS:
        if trump in a.trumps and trump in b.trumps:
            a.trumps.remove(trump)
            b.trumps.remove(trump)
            a.junkyard.append(trump)
            b.junkyard.append(trump)
            # The legendary rule, said as what happened and why rather than by its name.
            state.caption = (
                f"{state.caption} Both players have {NAME[trump]} in play, so both "
                f"{NAME[trump]} cards go to the junkyards."
            ).strip()


def win(state: RaceState, seat: int) -> None:
    state.phase = Phase.OVER
    state.winners = (seat,)
    state.stack = []
    state.end_reason = f"{state.players[seat]} reached exactly {TARGET} miles."
    state.caption = f"{state.caption} {state.end_reason}".strip()


def end_by_exhaustion(state: RaceState, why: str) -> None:
    state.phase = Phase.OVER
    state.stack = []
    totals = [side.total for side in state.sides]
    if totals[0] == totals[1]:
        state.winners = ()
        state.end_reason = f"{why} The miles are equal."
    else:
        leader = 0 if totals[0] > totals[1] else 1
        state.winners = (leader,)
        # Who won, and the miles, are the result's own line (and the image's banner).
        state.end_reason = f"{why} It is decided on miles."
    state.caption = f"{state.caption} {state.end_reason}".strip()

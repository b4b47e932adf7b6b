"""The end of a Ticket to Ride game: the final scoring, the winners and why the game ended."""

from __future__ import annotations

from bot.engine.ttr.scoring import score_solo, score_standard
from bot.engine.ttr.state import (
    OVER,
    TtrState,
)


def compute_result(state: TtrState) -> None:
    if state.solo:
        state.result = score_solo(state.tickets[0], state.track[0], state.hidden_tickets)
    else:
        state.result = score_standard(
            state.tickets, state.track, [state.active(s) for s in range(state.seats)]
        )


def finish(state: TtrState, reason: str, gave_up: bool = False) -> None:
    """Final scoring: the winners (highest total; solo: beat the hidden opponent, unless the
    player ``gave_up``). The end's reason says why the game ended (solo: and the two totals),
    never who won: every front end announces that once, in its own words ("🏆 Ann won!",
    "🏆 Ann and Bob tie for the win!", the image's "Ann wins!"), with the scores beside it."""
    state.phase = OVER
    state.final_queue = []
    compute_result(state)
    result = state.result
    assert result is not None
    if state.solo:
        me = result.seats[0]
        opponent = result.opponent
        assert opponent is not None
        if gave_up:
            state.winners = ()
            verdict = f"The score stood at {me.total} to {opponent.total}."
        else:
            state.winners = (0,) if result.won else ()
            verdict = f"You scored {me.total}, the hidden tickets {opponent.total}."
        state.end_reason = f"{reason} {verdict}"
    else:
        playing = [s for s in range(state.seats) if state.active(s)]
        top = max(result.seats[s].total for s in playing)
        state.winners = tuple(s for s in playing if result.seats[s].total == top)
        state.end_reason = reason
    state.caption = (state.caption + " " + state.end_reason).strip()

"""From a finished game to its result record: places, scores and whether it counts.

The one place that decides what a result is, so ratings, leaderboards and stats agree. A
game counts for ratings only when every seat is a member: games against the computer, solo
games and aborted games are recorded (for history and solo rankings) but never rated.
"""

from __future__ import annotations

from bot.engine.core import Outcome
from bot.ratings import ResultRecord
from bot.store.base import StoredGame


def places(outcome: Outcome, seats: int) -> tuple[int, ...]:
    """Finishing places per seat: winners 0, the rest by score (ties share a place)."""
    if outcome.is_draw:
        return tuple(0 for _ in range(seats))
    winners = set(outcome.winners)
    scores = list(outcome.scores) if len(outcome.scores) == seats else [0] * seats
    others = [scores[s] for s in range(seats) if s not in winners]
    # Competition ranking ("1224"): a seat's place counts everyone strictly ahead of it.
    return tuple(
        0 if seat in winners else len(winners) + sum(1 for o in others if o > scores[seat])
        for seat in range(seats)
    )


def result_of(
    stored: StoredGame, outcome: Outcome, finished_at: float, *, moves: int | None = None
) -> ResultRecord:
    """The result record of a finished (or resigned) game."""
    members = [seat.user_id for seat in stored.seats]
    counted = (
        stored.status == "finished"
        and len(members) > 1
        and all(user is not None for user in members)
    )
    options = dict(stored.options)
    if moves is not None:
        options["moves"] = str(moves)
    for seat, figures in enumerate(outcome.seat_details):
        for name, value in figures.items():
            options[f"{name}_{seat}"] = str(value)
            if len(members) == 1:
                options[name] = str(value)
    if len(members) == 1:
        # A solo game has no "place" to speak of: whether it was won is what ranks it.
        options["won"] = "yes" if outcome.winners else "no"
    return ResultRecord(
        game_id=stored.id,
        game_key=stored.game_key,
        guild_id=stored.guild_id,
        finished_at=finished_at,
        seats=tuple(members),
        ranks=places(outcome, len(members)),
        scores=tuple(outcome.scores),
        options=options,
        counted=counted,
    )

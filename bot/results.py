"""From a finished game to its result record: places, scores and whether it counts.

The one place that decides what a result is, so ratings, leaderboards and stats agree. A
game counts for ratings only when every seat is a different member: games against the
computer and one-player games are recorded (for history and best-result boards) but never
rated, and an aborted game records no result at all (``Tables.abort``). Places come from the
game's outcome (ties share a place); each seat's figures (the game's own, plus ``won`` and
``score``) go into ``details`` for boards to rank by.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.core import Outcome
from bot.games.bundle import GameBundle
from bot.ratings import ResultRecord
from bot.store.base import StoredGame

ASSISTED = "assisted"
"""The label (in a game's options, and so in its result) of a solitaire the computer helped
play: ``hint`` when its player asked /hint, ``timeout`` when the computer played a turn they
let run out. The result is kept (``/stats``, ``/history``), but a best-result board ranks a
member's own play and leaves it out."""


def on_best_board(found: GameBundle, options: Mapping[str, str]) -> bool:
    """Whether a result with these options may rank on the game's best-results board: played
    at the standard settings, as the daily deal is dealt (an easier preset would outrank every
    standard game), and by the member alone (not ``ASSISTED``)."""
    return found.standard(options) and ASSISTED not in options


def result_of(
    stored: StoredGame, outcome: Outcome, finished_at: float, *, moves: int | None = None
) -> ResultRecord:
    """The result record of a finished (or resigned) game."""
    members = [seat.user_id for seat in stored.seats]
    people = [user for user in members if user is not None]
    counted = (
        stored.status == "finished"
        and len(members) > 1
        and len(people) == len(members)
        # One member holding two seats (a forged table) must never move a rating.
        and len(set(people)) == len(people)
    )
    options = dict(stored.options)
    if moves is not None:
        options["moves"] = str(moves)
    details = tuple(
        {
            **figures,
            "won": 1 if seat in outcome.winners else 0,
            **({"score": outcome.scores[seat]} if outcome.scores else {}),
        }
        for seat, figures in enumerate(outcome.seat_details)
    )
    return ResultRecord(
        game_id=stored.id,
        game_key=stored.game_key,
        guild_id=stored.guild_id,
        finished_at=finished_at,
        seats=tuple(members),
        ranks=tuple(outcome.places),
        scores=tuple(outcome.scores),
        options=options,
        counted=counted,
        details=details,
    )

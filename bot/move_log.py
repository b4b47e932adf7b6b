"""A game's move log read back: the marks it holds besides the games' notation (a seat leaving,
a move played for a late member) and the game rebuilt from its deal, move by move (replays,
buttons read as of the turn they were shown at, a forgotten member's names dealt again)."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bot.engine.core import Game, GameError
from bot.store.base import MoveRecord

log = logging.getLogger(__name__)

LATE_MARK = "late:"
"""How the move log marks a move the computer played for a member whose time ran out (in place
of an interaction id: unique, ``late:<game>:<version>``)."""

LEAVE = "@leave"
"""The move log's entry for a seat leaving (resigning or forfeiting): no game's notation."""


def replay_frames(
    game: Game[Any, Any], initial: Mapping[str, Any], moves: Sequence[MoveRecord]
) -> list[Any]:
    """The public view after the deal and after every stored move (leaving included).

    A game finished before a rules fix may hold a move today's rules refuse (the fix changed
    what came before it): the replay then stops at the last move they accept, and the caller
    can tell by the frame count (one more than the moves)."""
    return [game.public_view(state) for _, state in replay_states(game, initial, moves)]


def replay_states(
    game: Game[Any, Any], initial: Mapping[str, Any], moves: Sequence[MoveRecord]
) -> Iterator[tuple[int, Any]]:
    """The state after the deal and after every stored move, each with the number of moves
    played; it stops early at a move today's rules refuse (``replay_frames``)."""
    state = game.from_dict(initial)
    yield 0, state
    for played, move in enumerate(moves, start=1):
        try:
            if move.action == LEAVE:
                state = game.leave(state, move.seat)
            else:
                state = game.apply(state, move.seat, game.parse_action(move.action))
        except GameError:
            # Neither the move nor the refusal goes to the log: a move may name hidden cards
            # (the tickets a player kept).
            log.warning(
                "replay of game %s stops at move %s: today's rules refuse it",
                move.game_id,
                move.seq,
            )
            return
        yield played, state

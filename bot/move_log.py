"""A game's move log read back: the marks it holds besides the games' notation (a seat leaving,
a move played for a late member) and the game rebuilt from its deal, move by move (replays,
buttons read as of the turn they were shown at, a forgotten member's names dealt again, the
turns in a row the computer played for each late member)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from bot.engine.core import Game, GameError
from bot.store.base import MoveRecord

log = logging.getLogger(__name__)

LATE_MARK = "late:"
"""How the move log marks a move the computer played for a member whose time ran out (in place
of an interaction id: unique, ``late:<game>:<version>``)."""

LEAVE = "@leave"
"""The move log's entry for a seat leaving (resigning or forfeiting): no game's notation."""


class Replayed(NamedTuple):
    """A finished game rebuilt for its replay: ``views``, the public view after the deal and
    after each step of the move log replayed (``replay_frames``), and ``moved``, for every
    step of the log, replayed or not, whether it is a player's move. A seat leaving is a step
    and a table of the replay (the table shows that it left) but no move: a game only given up
    was said to have "1 move"."""

    views: Sequence[Any]
    moved: Sequence[bool]

    @property
    def moves(self) -> int:
        """The players' moves among the steps replayed."""
        return sum(self.moved[: len(self.views) - 1])

    @property
    def moves_in_log(self) -> int:
        """The players' moves of the whole log (a replay stopped early covers fewer)."""
        return sum(self.moved)


def replayed(
    game: Game[Any, Any], initial: Mapping[str, Any], moves: Sequence[MoveRecord]
) -> Replayed:
    """The replay's views of a game from its deal and move log, and which steps are moves."""
    return Replayed(replay_frames(game, initial, moves), [move.action != LEAVE for move in moves])


def replay_frames(
    game: Game[Any, Any], initial: Mapping[str, Any], moves: Sequence[MoveRecord]
) -> list[Any]:
    """The public view after the deal and after every stored move (leaving included).

    A game finished before a rules fix may hold a move today's rules refuse (the fix changed
    what came before it): the replay then stops at the last move they accept, and the caller
    can tell by the frame count (one more than the steps of the log)."""
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


def late_turns_in_a_row(
    game: Game[Any, Any],
    initial: Mapping[str, Any],
    moves: Sequence[MoveRecord],
    *,
    solitaire: bool,
    ends_round: Callable[[Any, Any], bool],
) -> dict[int, int] | None:
    """For each seat that took a turn, how many of its last turns in a row the computer played
    for it (every move ``LATE_MARK``ed) with no move of its own since; None when today's rules
    refuse a move of the log.

    A turn is a seat's moves one after another, windows answered by others in between (a
    Coup Fourré in the middle of a race turn), as the computer plays a late turn
    (``Tables._play_for``): another seat's turn, or the end of a hand, ends it. In a
    solitaire every move is a turn. An answer in a window out of turn is no turn: one the bot
    closed for the seat ("no reaction") says nothing, one the member made shows they are there
    and starts the count anew, as any move of their own does. ``ends_round(before, after)``
    says whether a move finished a hand.
    """
    state = game.from_dict(initial)
    turns: dict[int, list[bool]] = {}  # per seat, oldest first: whether the computer played it
    going_on: int | None = None  # the seat whose turn a move of its own would continue
    for move in moves:
        before = state
        try:
            if move.action == LEAVE:
                # A seat leaving ends no one's turn (a resignation can come at any time).
                state = game.leave(state, move.seat)
                continue
            state = game.apply(before, move.seat, game.parse_action(move.action))
        except GameError:
            return None
        mark = move.interaction_id
        late = mark is not None and mark.startswith(LATE_MARK)
        seat_turns = turns.setdefault(move.seat, [])
        if game.default_action(before, move.seat) is not None:
            if mark is not None and not late:
                seat_turns.append(False)  # the member's own answer: they are there
            continue
        if going_on == move.seat and seat_turns and not solitaire:
            seat_turns[-1] = seat_turns[-1] and late
        else:
            seat_turns.append(late)
        going_on = None if ends_round(before, state) else move.seat
    counts: dict[int, int] = {}
    for seat, played in turns.items():
        count = 0
        for by_computer in reversed(played):
            if not by_computer:
                break
            count += 1
        counts[seat] = count
    return counts


def own_move(first: MoveRecord | None) -> MoveRecord | None:
    """``first`` (a member's first move after some version) when they made it themselves: a
    move the computer played for them when their time ran out, a reaction window's default
    or their leaving was not theirs to have "already made"."""
    if first is None or first.action == LEAVE or first.interaction_id is None:
        return None
    return None if first.interaction_id.startswith(LATE_MARK) else first


def played_for(first: MoveRecord | None) -> bool:
    """Whether ``first`` is a move the computer played for the member when their turn ran out:
    a button of that turn, pressed late, is refused with that reason ("from an earlier turn"
    left them wondering what became of it)."""
    return first is not None and (first.interaction_id or "").startswith(LATE_MARK)

"""Engine invariants every game must keep, checked over random playouts (OpenSpiel-style).

Game-agnostic: each check drives a :class:`~bot.engine.core.Game` through its protocol alone.
A game's own tests may call :func:`check_playout` directly; the conformance suite
(``tests/conformance/test_conformance.py``) runs it for every registered game and seat count.

At every step of a random playout:

* the state survives a JSON round trip unchanged;
* every legal action's notation reads back to the same action;
* every seat in ``to_act`` has a legal action, and a default action (a reaction window's) is
  one of them;
* a seat the game counts ``out`` (a Dragon driver killed) is never to act, and stays out;
* the census (every card, wherever it lies) equals the deal's: no card created or lost;
* resampling the cards a seat cannot see changes neither its private view nor the public view;
* a refused action (a seat that is not to act, garbage notation) raises a ``GameError`` and
  leaves the state exactly as it was;

and the game ends within ``info.max_moves`` with an outcome that ranks every seat.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.core import Game, GameError, Outcome


@dataclass
class PlayoutReport:
    """What one playout went through (for assertions on coverage, e.g. reactions seen)."""

    moves: int = 0
    leaves: int = 0
    reactions: int = 0  # decisions made by a seat with a default action (a reaction window)
    outcome: Outcome | None = None
    actions_seen: set[str] = field(default_factory=set)


def snapshot(game: Game[Any, Any], state: Any) -> str:
    """The state as canonical JSON text: equal texts mean equal states."""
    return json.dumps(game.to_dict(state), sort_keys=True)


def check_round_trip(game: Game[Any, Any], state: Any) -> None:
    text = snapshot(game, state)
    back = game.from_dict(json.loads(text))
    assert snapshot(game, back) == text, "the state changed in a JSON round trip"


def check_notation(game: Game[Any, Any], state: Any, seat: int, legal: Sequence[Any]) -> None:
    for action in legal:
        text = game.format_action(action)
        assert game.format_action(game.parse_action(text)) == text, f"notation {text!r}"
        assert game.describe_action(state, seat, action), f"no description for {text!r}"


def check_hidden(game: Game[Any, Any], state: Any, seats: int, rng: random.Random) -> None:
    """Views do not change when only the cards a viewer cannot see change."""
    public = game.public_view(state)
    for seat in [None, *range(seats)]:
        other = game.resample_hidden(state, seat, rng)
        assert game.census(other) == game.census(state), "resampling created or lost cards"
        assert game.public_view(other) == public, f"public view depends on hidden cards ({seat})"
        if seat is not None:
            assert game.private_view(other, seat) == game.private_view(state, seat), (
                f"seat {seat}'s view depends on cards it cannot see"
            )


def check_refusals(game: Game[Any, Any], state: Any, seats: int, legal_text: set[str]) -> None:
    """Acting out of turn or with garbage raises a GameError and changes nothing."""
    before = snapshot(game, state)
    acting = game.to_act(state)
    for seat in range(seats):
        if seat in acting:
            continue
        for text in sorted(legal_text)[:3]:
            try:
                game.apply(state, seat, game.parse_action(text))
            except GameError:
                pass
            else:  # pragma: no cover - a failure path
                raise AssertionError(f"seat {seat} acted out of turn with {text!r}")
    for garbage in ("", "fly to the moon", "play", "x" * 300, "play 999", "@@@"):
        try:
            action = game.parse_action(garbage)
            game.apply(state, min(acting), action)
        except GameError:
            continue
        raise AssertionError(f"the nonsense move {garbage!r} was accepted")
    assert snapshot(game, state) == before, "a refused action changed the state"


def check_outcome(outcome: Outcome, seats: int) -> None:
    assert len(outcome.places) == seats
    assert len(outcome.scores) in (0, seats)
    assert len(outcome.seat_details) == seats
    assert all(outcome.places[w] == 0 for w in outcome.winners)
    assert min(outcome.places) == 0
    assert outcome.reason


def check_playout(
    game: Game[Any, Any],
    players: int,
    seed: int,
    *,
    options: dict[str, str] | None = None,
    leave_chance: float = 0.0,
    choose: Callable[[Any, int, Sequence[Any], random.Random], Any] | None = None,
    every: int = 1,
    extra: Callable[[Game[Any, Any], Any], None] | None = None,
    dense: int | None = None,
) -> PlayoutReport:
    """One seeded random playout with every invariant checked (every ``every`` steps; with
    ``dense``, at every one of the first ``dense`` steps and every ``every``-th after).

    ``leave_chance`` makes a random seat leave now and then (resignations, drop-outs);
    ``choose`` replaces the uniform choice of action; ``extra`` adds a game's own invariant.
    """
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    state = game.new_game(names, seed, options)
    census = game.census(state)
    report = PlayoutReport()
    step = 0
    was_out: frozenset[int] = frozenset()
    while (outcome := game.outcome(state)) is None:
        acting = sorted(game.to_act(state))
        assert acting, "a running game waits for nobody"
        out = game.out(state)
        assert not out & set(acting), f"seats {sorted(out & set(acting))} are out but to act"
        assert out >= was_out, "a seat counted out came back"
        was_out = out
        thorough = step % every == 0 or (dense is not None and step < dense)
        legal_by_seat: dict[int, Sequence[Any]] = {}
        for seat in acting:
            legal = game.legal_actions(state, seat)
            assert legal, f"seat {seat} is to act with no legal action"
            legal_by_seat[seat] = legal
            default = game.default_action(state, seat)
            if default is not None:
                texts = {game.format_action(a) for a in legal}
                assert game.format_action(default) in texts, "default action is not legal"
            if thorough:
                check_notation(game, state, seat, legal)
        if thorough:
            # A seat that is not to act is offered nothing (its hand would show dead buttons).
            for seat in sorted(set(range(players)) - set(acting)):
                assert not game.legal_actions(state, seat), f"seat {seat} is not to act"
            check_round_trip(game, state)
            check_hidden(game, state, players, rng)
            texts = {game.format_action(a) for acts in legal_by_seat.values() for a in acts}
            check_refusals(game, state, players, texts)
            if extra is not None:
                extra(game, state)
        assert game.census(state) == census, "a card was created or lost"
        if leave_chance and rng.random() < leave_chance:
            seat = rng.randrange(players)
            try:
                state = game.leave(state, seat)
                report.leaves += 1
            except GameError:
                pass  # that seat had already left
        else:
            seat = rng.choice(acting)
            legal = legal_by_seat[seat]
            if game.default_action(state, seat) is not None:
                report.reactions += 1
            action = choose(state, seat, legal, rng) if choose else rng.choice(legal)
            report.actions_seen.add(game.format_action(action).split(" ")[0])
            state = game.apply(state, seat, action)
        report.moves += 1
        step += 1
        assert report.moves <= game.info.max_moves, f"no end after {report.moves} moves"
    assert not game.to_act(state), "a finished game still waits for someone"
    check_round_trip(game, state)
    assert game.census(state) == census, "a card was created or lost"
    check_outcome(outcome, players)
    report.outcome = outcome
    return report

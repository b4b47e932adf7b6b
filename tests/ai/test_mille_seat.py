"""The rollouts' reading of a seat's knowledge straight off a state (``bot.ai.mille_seat``) says
exactly what the seat's private view says, no more, and ``normal`` decides the same from it."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.ai.base import Policy
from bot.ai.mille_normal import NormalMillePolicy, _Table, search_action
from bot.ai.mille_seat import FaceDown, SeatFacts, Side, state_facts, view_facts
from bot.ai.random_policy import RandomPolicy
from bot.engine.mille.cards import Card
from bot.engine.mille.notation import format_action
from bot.engine.mille.state import MilleState, Phase
from bot.engine.mille.views import private_view
from bot.games import get_game

MILLE = get_game("mille")
SIDE_FIELDS = (
    "battle_pile",
    "speed_pile",
    "safeties",
    "coups",
    "miles",
    "mileage",
    "two_hundreds",
    "can_go",
    "limited",
    "hand_count",
    "score",
    "battle_top",
    "speed_top",
)


def _states(seed: int, options: dict[str, str]) -> Iterator[MilleState]:
    """Every state of a match of ``normal`` against ``random``."""
    players: list[Policy] = [NormalMillePolicy(), RandomPolicy()]
    rng = random.Random(seed)
    state = MILLE.new_game(["Ann", "Bob"], seed, options)
    while MILLE.outcome(state) is None:
        yield state
        seat = min(MILLE.to_act(state))
        view = private_view(state, seat)
        state = MILLE.apply(state, seat, MILLE.parse_action(players[seat].choose(view, rng)))


def _side(side: Side) -> tuple[object, ...]:
    return tuple(
        tuple(value) if isinstance(value, list | tuple) else value
        for value in (getattr(side, name) for name in SIDE_FIELDS)
    )


def _plain(facts: SeatFacts) -> tuple[object, ...]:
    return (
        tuple(facts.hand),
        _side(facts.me),
        _side(facts.them),
        facts.target,
        facts.deck,
        facts.deck_name,
        tuple(facts.discard),
        facts.extension_called,
        facts.match_target,
    )


OPTIONS = [
    {"deck": "bsd", "length": "match"},
    {"deck": "modern", "length": "hand"},
    {"deck": "modern", "length": "match"},
]


def test_state_facts_are_the_views_facts_and_the_move_is_the_same() -> None:
    """For the seat to act, the facts read off the state equal those of its private view, and
    ``search_action`` is the move ``choose`` makes from the view (draw, act and extension)."""
    normal = NormalMillePolicy()
    phases: set[Phase] = set()
    for seed in range(6):
        for state in _states(seed, OPTIONS[seed % len(OPTIONS)]):
            seat = state.turn
            view = private_view(state, seat)
            if state.phase in (Phase.ACT, Phase.EXTENSION):
                assert _plain(state_facts(state, seat)) == _plain(view_facts(view))
            if len(view.legal) > 1:
                phases.add(state.phase)
                move = search_action(state, seat)
                assert format_action(move) == normal.choose(view, random.Random(0))
    assert phases == {Phase.DRAW, Phase.ACT, Phase.EXTENSION}


def test_state_facts_never_read_the_opponents_cards() -> None:
    """Changing the cards in the opponent's hand (not how many) changes nothing that the
    rollout's ``normal`` is told."""
    checked = 0
    for state in list(_states(3, OPTIONS[0]))[5::17]:
        if state.phase is not Phase.ACT:
            continue
        seat = state.turn
        other = state.clone()
        theirs = other.tableaus[1 - seat].hand
        theirs[:] = [Card.STOP if card is not Card.STOP else Card.GO for card in theirs]
        assert _plain(state_facts(other, seat)) == _plain(state_facts(state, seat))
        assert search_action(other, seat) == search_action(state, seat)
        checked += 1
    assert checked >= 5, "too few acting states were compared"


def test_state_facts_refuse_a_seat_that_is_not_acting() -> None:
    """Only the seat to act, after its draw, is read off a state: any other would need the
    view's owed-draw arithmetic."""
    state = next(s for s in _states(1, OPTIONS[0]) if s.phase is Phase.ACT)
    with pytest.raises(ValueError, match="acting after its draw"):
        state_facts(state, 1 - state.turn)


@pytest.mark.parametrize("options", OPTIONS)
def test_the_running_face_down_count_matches_a_fresh_count(options: dict[str, str]) -> None:
    """Kept move by move through a hand (as a rollout does), the count of cards not face up
    gives every acting seat the same unseen cards, in the same order, as counting the piles."""
    rng = random.Random(5)
    checked = 0
    for seed in range(4):
        state = MILLE.new_game(["Ann", "Bob"], seed, options)
        hand, face_down = state.hand_number, FaceDown(state)
        while MILLE.outcome(state) is None:
            if state.hand_number != hand:
                hand, face_down = state.hand_number, FaceDown(state)
            seat = state.turn
            if state.phase is Phase.ACT:
                counted = _Table(state_facts(state, seat))
                running = _Table(state_facts(state, seat, face_down))
                assert list(running.unseen.items()) == list(counted.unseen.items())
                assert running.unseen_total == counted.unseen_total
                checked += 1
            action = rng.choice(MILLE.legal_actions(state, seat))
            state = MILLE.apply(state, seat, action)
            face_down.turned_up(action)
    assert checked > 100

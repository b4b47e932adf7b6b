"""The Ticket to Ride ``normal`` player: legal everywhere, private view only, sensible tickets,
it ends its games, and it beats ``random``."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from bot.ai.random_policy import RandomPolicy
from bot.ai.ttr_normal import NormalTtrPolicy, _at_most
from bot.engine.ttr.cards import COLOURS, TICKETS
from bot.engine.ttr.state import TtrState
from bot.games import get_policy
from tests.engine.ttr_helpers import SOLO, G, card, counts, keep_first, lay


def _play(
    seats: int, seed: int, normal_seats: set[int], options: dict[str, str] | None = None
) -> TtrState:
    """A full game, ``normal`` in ``normal_seats`` and ``random`` elsewhere."""
    game = SOLO if seats == 1 else G
    normal, rand = NormalTtrPolicy(), RandomPolicy()
    rng = random.Random(seed)
    state = game.new_game([f"P{i}" for i in range(seats)], seed, options)
    moves = 0
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        view = game.private_view(state, seat)
        text = (normal if seat in normal_seats else rand).choose(view, rng)
        assert text in view.legal
        state = game.apply(state, seat, game.parse_action(text))
        moves += 1
        assert moves < 5000, "the game did not end"
    return state


def test_normal_is_registered_for_both_games() -> None:
    """get_policy finds 'normal' for ttr and ttr-solo."""
    assert isinstance(get_policy("ttr", "normal"), NormalTtrPolicy)
    assert isinstance(get_policy("ttr-solo", "normal"), NormalTtrPolicy)


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_normal_always_plays_a_legal_move(seats: int) -> None:
    """Over whole games (all seats normal), every choice is among the legal moves."""
    for seed in range(3):
        _play(seats, seed, set(range(seats)))


def test_normal_self_play_ends_with_either_ending() -> None:
    """Normal against itself finishes its games, with and without the tracks option: at one
    of the rules' ends (the second deck or the Station Clock), with a winner."""
    ends = ("The second train deck", "The last Station Clock card")
    for options in (None, {"tracks": "keep"}):
        state = _play(2, 5, {0, 1}, options)  # played until the game has an outcome
        outcome = G.outcome(state)
        assert outcome is not None and outcome.reason.startswith(ends), outcome
        assert outcome.winners
        assert state.keep_tracks == (options is not None)


def test_normal_decides_from_the_private_view_only() -> None:
    """Dealing the hidden cards again (stacks, other hands, decks) never changes its choice."""
    policy = NormalTtrPolicy()
    rng = random.Random(3)
    state = G.new_game(["A", "B", "C"], 8)
    for _ in range(60):
        if G.outcome(state) is not None:
            break
        seat = min(G.to_act(state))
        view = G.private_view(state, seat)
        twin = G.resample_hidden(state, seat, rng)
        assert policy.choose(view, random.Random(1)) == policy.choose(
            G.private_view(twin, seat), random.Random(1)
        )
        state = G.apply(state, seat, G.parse_action(policy.choose(view, random.Random(1))))


def test_the_keeper_prefers_tickets_its_hand_can_feed() -> None:
    """At setup it keeps a small plan, not all six tickets."""
    kept_counts = []
    for seed in range(10):
        state = G.new_game(["A", "B"], seed)
        text = NormalTtrPolicy().choose(G.private_view(state, 0), random.Random(0))
        kept = G.parse_action(text).tickets
        assert 1 <= len(kept) <= 4
        kept_counts.append(sum(TICKETS[t].cards for t in kept))
    assert max(kept_counts) <= 30


def test_the_solo_keeper_keeps_the_highest_value_ticket() -> None:
    """Solo: the choice always holds the ticket the rules insist on."""
    for seed in range(10):
        state = SOLO.new_game(["A"], seed)
        view = SOLO.private_view(state, 0)
        kept = SOLO.parse_action(NormalTtrPolicy().choose(view, random.Random(0))).tickets
        assert {t.index for t in view.keep_one_of} & set(kept)


def _solo_turn(
    turn: int, hand: list[str], tickets: list[int], track: list[str] | None = None
) -> TtrState:
    """A solo game at the start of Station Clock turn ``turn``'s action, an empty Railyard, the
    draw area showing no colour of the hand."""
    state = keep_first(SOLO.new_game(["Ann"], 1))
    state.clock_turn = turn
    state.hands[0] = counts(*hand)
    state.tickets[0] = tickets
    state.track[0] = counts(*(track or []))
    state.yard_nat[0] = [0] * len(COLOURS)
    state.yard_loco[0] = [0] * len(COLOURS)
    state.slots = [card(code) for code in ("orange", "yellow", "black", "white")]
    state.clock_card = card("blue")
    return state


def test_the_solo_player_does_not_count_its_face_down_stack_as_what_its_tickets_lack() -> None:
    """Solo, halfway: six cards on the track (none red), T17 (3 red, 3 green) kept and three
    red in hand. It cannot see its stack, and assuming it holds most of what the ticket asks
    would leave the red in hand: it plays them."""
    track = ["green"] * 3 + ["white"] * 3
    state = _solo_turn(8, ["red"] * 3 + ["white", "blue"], [16], track)
    choice = NormalTtrPolicy().choose(SOLO.private_view(state, 0), random.Random(0))
    assert choice == "yard red red red"


def test_the_solo_player_plays_rather_than_draws_when_a_draw_can_no_longer_score() -> None:
    """Solo, one turn left: a card drawn now could only join a set played on the last turn,
    which feeds nothing; a red pair sends one red the kept T01 (3 red) needs."""
    state = _solo_turn(15, ["red", "red", "white", "blue"], [0])
    choice = NormalTtrPolicy().choose(SOLO.private_view(state, 0), random.Random(0))
    assert choice == "yard red red"


OPENING_OFFER = ("T15", "T26", "T35", "T36", "T44", "T45")


def test_the_solo_keeper_adds_a_cheap_ticket_for_its_likely_big_city() -> None:
    """Solo setup: beside the T45 it must keep, it takes T15 (five cards, Dallas). Six hidden
    tickets dealt from the forty it has not seen touch Dallas at most once four times in five,
    so completing T15 most likely scores Dallas's 12 as well as its 9."""
    state = SOLO.new_game(["Ann"], 1)
    state.offered[0] = [TICKETS.index(t) for t in TICKETS if t.code in OPENING_OFFER]
    state.hands[0] = counts("red", "red", "yellow", "yellow", "green", "loco", "loco", "loco")
    choice = NormalTtrPolicy().choose(SOLO.private_view(state, 0), random.Random(0))
    kept = {TICKETS[t].code for t in SOLO.parse_action(choice).tickets}
    assert kept == {"T45", "T15"}


def test_the_hidden_tickets_city_chance_is_hypergeometric() -> None:
    """The chance that six tickets dealt from a pool hold at most ``k`` of those touching a
    city matches counting every deal of a small pool."""
    pool = list(range(12))
    marked = set(range(4))
    deals = list(itertools.combinations(pool, 6))
    for most in range(4):
        share = sum(len(marked.intersection(d)) <= most for d in deals) / len(deals)
        assert _at_most(12, 4, 6, most) == pytest.approx(share)


def test_a_railyard_set_that_robs_is_preferred_in_the_second_deck() -> None:
    """With the second deck running, it plays a needed colour, robbing a rival's set."""
    state = lay(
        hands=[["red"] * 4 + ["loco"], ["blue"] * 3],
        yards=[{}, {"red": (3, 0)}],
        deck=["white"] * 30,
    )
    state.deck_number = 2
    state.tickets[0] = [0]  # T01: 3 red
    choice = NormalTtrPolicy().choose(G.private_view(state, 0), random.Random(0))
    action = G.parse_action(choice)
    assert action.kind == "yard" and action.colour == 0 and action.naturals + action.locos >= 4


def test_the_first_deck_is_for_building_a_hand() -> None:
    """When the tracks go into the second deck, first-deck plays would be reshuffled: it draws."""
    state = lay(hands=[["red"] * 4, []], deck=["white"] * 30)
    state.tickets[0] = [0]
    choice = NormalTtrPolicy().choose(G.private_view(state, 0), random.Random(0))
    assert G.parse_action(choice).kind == "take"


def test_normal_beats_random_in_two_player_games() -> None:
    """Seats rotated over 40 games: normal wins at least 90 %."""
    wins = 0
    for seed in range(40):
        seat = seed % 2
        outcome = G.outcome(_play(2, 100 + seed, {seat}))
        assert outcome is not None
        wins += outcome.winners == (seat,)
    assert wins >= 36


def test_normal_thinks_fast() -> None:
    """Mean decision time stays well under 10 ms."""
    policy = NormalTtrPolicy()
    rng = random.Random(0)
    spent, count = 0.0, 0
    state = G.new_game(["A", "B", "C", "D"], 2)
    while G.outcome(state) is None:
        seat = min(G.to_act(state))
        view = G.private_view(state, seat)
        start = time.perf_counter()
        text = policy.choose(view, rng)
        spent += time.perf_counter() - start
        count += 1
        state = G.apply(state, seat, G.parse_action(text))
    assert spent / count < 0.010

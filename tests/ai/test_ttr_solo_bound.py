"""The Ticket to Ride solo bound (tools/ttr_solo_bound.py): its card flow, its ticket tables on
stacked deals worked out by hand, and that real play never beats it."""

from __future__ import annotations

import random

from bot.ai.ttr_expert import TtrExpertPolicy
from bot.engine.ttr import SOLO_GAME
from bot.engine.ttr.cards import ticket_index
from tools.ttr_solo_bound import bound_of, deal_bound, solo_deal, track_bound

# Dealt T01–T06 (the highest, T06 Miami – Atlanta, is worth 7 and needs 4 cards); hidden
# T07–T12, one ticket on each Big City: 46 points and 75 in bonuses, 121 in all. No ticket
# left in the deck needs fewer than five cards.
_CHEAP_DEAL = [f"T{n:02d}" for n in range(1, 13)]


def _code(ticket: str) -> int:
    index = ticket_index(ticket)
    assert index is not None
    return index


def test_cards_played_on_the_last_turn_never_reach_the_track() -> None:
    assert track_bound(0, turns=1) == 0


def test_three_singles_beat_a_big_set_one_turn_before_the_end() -> None:
    # With two turns, a set played on turn 1 sends one card (on turn 2) however big it is;
    # three singles send one each.
    assert track_bound(0, turns=2) == 3


def test_a_ticket_draw_on_the_last_turn_costs_no_track_cards() -> None:
    assert track_bound(1) == track_bound(0)


def test_only_three_card_tickets_fit_three_track_cards() -> None:
    state = SOLO_GAME.new_game(["Solo"], 5, deck=_CHEAP_DEAL)
    bound = bound_of(state, cap=3)
    # T01 (5 points) ties the hidden side on Dallas (12 for both); the kept T06 costs 7.
    assert bound.completed == (_code("T01"),)
    assert bound.best_total == 5 + 12 - 7
    assert bound.best_margin == 10 - 121


def test_completing_the_highest_dealt_ticket_takes_its_penalty_away() -> None:
    state = SOLO_GAME.new_game(["Solo"], 5, deck=_CHEAP_DEAL)
    bound = bound_of(state, cap=4)
    # T06 (7 points, Miami tied for 10) beats T04 (6, New York tied for 15, minus T06's 7).
    assert bound.completed == (_code("T06"),)
    assert bound.best_margin == 7 + 10 - 121


# A winning line for game 200 of `junction arena ttr-solo`, found by a search that knew the
# deck: it completes T38 and T41 and wins 89 to 84.
_WINNING_LINE_200 = (
    "keep T38 T41 | take 2 | take blind | take 1 | take 3 | take 1 | take 3 | take blind | "
    "take blind | take 4 | take blind | take 1 | take clock | take 1 | take 2 | take 1 | take 2 | "
    "yard blue loco loco | yard yellow yellow loco | yard red red red loco | "
    "yard orange orange orange loco | yard green green green | yard purple purple | "
    "yard white white | take 1"
)


def test_the_bound_is_at_least_a_real_winning_line() -> None:
    state = solo_deal(200)
    for move in _WINNING_LINE_200.split(" | "):
        state = SOLO_GAME.apply(state, 0, SOLO_GAME.parse_action(move))
    outcome = SOLO_GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert state.result is not None
    bound = deal_bound(200)
    assert bound.best_margin >= state.result.margin > 0
    assert bound.best_total >= outcome.scores[0]


def test_the_bound_is_at_least_what_the_expert_reaches() -> None:
    # A small, untimed search keeps the test quick and the games the same on every run.
    expert = TtrExpertPolicy(max_rounds=2, timed=False)
    for seed in range(1, 21):
        state = solo_deal(seed)
        rng = random.Random(seed)
        while (outcome := SOLO_GAME.outcome(state)) is None:
            move = expert.choose(SOLO_GAME.private_view(state, 0), rng)
            state = SOLO_GAME.apply(state, 0, SOLO_GAME.parse_action(move))
        assert state.result is not None
        bound = deal_bound(seed)
        assert bound.best_margin >= state.result.margin, seed
        assert bound.best_total >= outcome.scores[0], seed

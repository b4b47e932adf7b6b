"""The Ticket to Ride ``expert`` (standard and solo), its determinizer, ``easy`` and the hint.

Searches are capped by rounds with the clock off (``timed=False``), so every choice is
reproducible; nothing here asserts a time or a win rate.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from bot.ai.search import BUDGET_ENV, SearchReport
from bot.ai.ttr_deal import determinize, unseen_cards
from bot.ai.ttr_expert import END_DECK, TtrDomain, TtrExpertPolicy
from bot.ai.ttr_normal import NormalTtrPolicy
from bot.ai.ttr_reasons import explain, solo_reason
from bot.ai.ttr_value import judge
from bot.engine.ttr.cards import CARD_CODES, COLOURS, TICKETS, full_counts
from bot.engine.ttr.state import ACT
from bot.engine.words import plural
from bot.games import bundle, get_game, get_policy, policy_names

TTR = get_game("ttr")
SOLO = get_game("ttr-solo")


def states(key: str, seats: int, seeds: Sequence[int]) -> Iterator[Any]:
    """Every state met while normal plays every seat, one game per seed."""
    game = get_game(key)
    player = NormalTtrPolicy()
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game([f"P{s}" for s in range(seats)], seed)
        while game.outcome(state) is None:
            yield state
            seat = min(game.to_act(state))
            view = game.private_view(state, seat)
            state = game.apply(state, seat, game.parse_action(player.choose(view, rng)))


def quick(rounds: int = 2) -> TtrExpertPolicy:
    return TtrExpertPolicy(max_rounds=rounds, timed=False)


@pytest.mark.parametrize("key", ["ttr", "ttr-solo"])
def test_every_level_is_offered(key: str) -> None:
    """Both variants offer easy, normal and expert; normal stays the default."""
    assert {"easy", "normal", "expert"} <= set(policy_names(key))
    assert bundle(key).default_policy == "normal"


@pytest.mark.parametrize(
    ("key", "seats", "step"), [("ttr", 2, 9), ("ttr", 4, 7), ("ttr-solo", 1, 1)]
)
def test_expert_only_plays_legal_moves(key: str, seats: int, step: int) -> None:
    """Across real games (setup, draws, second draws, Railyards, keeps), the expert answers
    one of view.legal."""
    game = get_game(key)
    expert = quick()
    rng = random.Random(3)
    phases = set()
    checked = 0
    for index, state in enumerate(states(key, seats, [21])):
        if index % step:
            continue
        for seat in sorted(game.to_act(state)):
            view = game.private_view(state, seat)
            assert expert.choose(view, rng) in view.legal
            phases.add(view.phase)
            checked += 1
    assert checked > 10
    assert {"setup", "act"} <= phases


@pytest.mark.parametrize(("key", "seats"), [("ttr", 2), ("ttr", 3), ("ttr-solo", 1)])
def test_expert_decides_from_the_view_alone(key: str, seats: int) -> None:
    """Two states differing only in hidden cards give identical views and identical choices."""
    game = get_game(key)
    expert = quick(rounds=3)
    compared = 0
    for index, state in enumerate(states(key, seats, [8])):
        if index % 11:
            continue
        seat = min(game.to_act(state))
        twin = game.resample_hidden(state, seat, random.Random(index))
        view, twin_view = game.private_view(state, seat), game.private_view(twin, seat)
        assert view == twin_view
        first = expert.choose(view, random.Random(index))
        assert expert.choose(twin_view, random.Random(index)) == first
        compared += 1
    assert compared > 2


@pytest.mark.parametrize(("key", "seats"), [("ttr", 2), ("ttr", 4), ("ttr-solo", 1)])
def test_determinizer_keeps_the_view_and_the_census(key: str, seats: int) -> None:
    """An imagined table shows the seat exactly its view (hand, tickets, sizes of every hidden
    place, legal moves) and holds every card and ticket of the game exactly once."""
    game = get_game(key)
    rng = random.Random(4)
    checked = 0
    for index, state in enumerate(states(key, seats, [13, 14, 15])):
        if index % 5:
            continue
        for seat in sorted(game.to_act(state)):
            view = game.private_view(state, seat)
            world = determinize(view, rng)
            assert game.private_view(world, seat) == view
            assert game.census(world) == game.census(state)
            assert world.hands[seat] == state.hands[seat]
            assert world.tickets[seat] == state.tickets[seat]
            assert world.offered[seat] == state.offered[seat]
            checked += 1
    assert checked > 10


def test_unseen_cards_are_the_hidden_places() -> None:
    """The unseen cards add up to the hidden places' sizes, and never exceed the game's."""
    for index, state in enumerate(states("ttr", 2, [5])):
        if index % 17:
            continue
        seat = min(TTR.to_act(state))
        view = TTR.private_view(state, seat)
        counts = unseen_cards(view)
        pub = view.public
        hidden = (
            sum(s.hand_count for s in pub.seats if s.seat != seat)
            + sum(s.track_count for s in pub.seats)
            + pub.discard_count
            + pub.deck_count
        )
        assert sum(counts) == hidden
        assert all(0 <= n <= full for n, full in zip(counts, full_counts(), strict=True))


def test_judge_is_a_chance_and_favours_the_winner_late() -> None:
    """The value model answers in [0, 1]; late in the second deck it mostly favours the
    player who goes on to win."""
    player = NormalTtrPolicy()
    right = total = 0
    for seed in (31, 32, 33, 34):
        rng = random.Random(seed)
        state = TTR.new_game(["A", "B"], seed)
        late = []
        while TTR.outcome(state) is None:
            if state.phase == ACT and state.deck_number == 2:
                late.append(state)
            seat = min(TTR.to_act(state))
            view = TTR.private_view(state, seat)
            state = TTR.apply(state, seat, TTR.parse_action(player.choose(view, rng)))
        winners = state.winners or ()
        for position in late[-6:]:
            chance = judge(position, position.turn)
            assert 0.0 <= chance <= 1.0
            if len(winners) == 1:
                total += 1
                right += (chance > 0.5) == (position.turn in winners)
    assert total and right >= 0.6 * total


@pytest.mark.parametrize("key", ["ttr", "ttr-solo"])
def test_easy_plays_legal_moves(key: str) -> None:
    """The easy player answers legally, reproducibly from its rng."""
    game = get_game(key)
    policy = get_policy(key, "easy")
    for index, state in enumerate(states(key, game.info.min_players, [2])):
        if index % 3:
            continue
        seat = min(game.to_act(state))
        view = game.private_view(state, seat)
        move = policy.choose(view, random.Random(index))
        assert move in view.legal
        assert policy.choose(view, random.Random(index)) == move


@pytest.mark.parametrize("key", ["ttr", "ttr-solo"])
def test_hint_is_a_legal_move_with_a_reason(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The presenter's hint (the expert's) names a legal move and says why in one sentence."""
    monkeypatch.setenv(BUDGET_ENV, "20")
    found = bundle(key)
    hint = found.presenter.hint
    assert hint is not None
    game = found.game
    for index, state in enumerate(states(key, found.info.min_players, [9])):
        if index > 60:
            break
        if index % 10:
            continue
        seat = min(game.to_act(state))
        suggestion = hint(game.private_view(state, seat))
        assert suggestion is not None
        move, reason = suggestion
        assert move in game.private_view(state, seat).legal
        assert reason and reason[-1] == "." and "\n" not in reason


def test_every_candidate_is_judged_after_the_seats_own_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Railyard play (which ends the turn) and a draw (which needs a second card) are both
    judged at the start of the next player's turn: never one a whole turn later than the
    other."""
    judged: list[tuple[int, str, int]] = []

    def spy(state: Any, seat: int) -> float:
        judged.append((state.turn, state.phase, state.deck_number))
        return 0.5

    monkeypatch.setattr("bot.ai.ttr_expert.judge", spy)
    domain = TtrDomain()
    for state in states("ttr", 2, [41, 42, 43]):
        if state.phase != ACT or state.deck_number != 2 or len(state.deck) <= END_DECK + 4:
            continue
        seat = state.turn
        moves = [TTR.format_action(a) for a in TTR.legal_actions(state, seat)]
        yard = next((m for m in moves if m.startswith("yard")), None)
        take = next((m for m in moves if m.startswith("take")), None)
        if yard is None or take is None:
            continue
        for move in (yard, take):
            judged.clear()
            after = TTR.apply(state, seat, TTR.parse_action(move))
            domain.rollout(after, seat, random.Random(1))
            assert judged == [(1 - seat, ACT, 2)], move
        return
    pytest.fail("no second-deck turn with both a Railyard play and a draw was met")


def test_a_solo_hint_says_its_reason_in_points_not_a_blend() -> None:
    """Ticket to Ride Solo's hint quotes the final score the imagined games reached, in points.
    Before the fix it read 'about 26% worth': a blend of the win and the score a player cannot
    read."""
    state = next(s for s in states("ttr-solo", 1, [3]) if s.phase == ACT)
    policy = TtrExpertPolicy(max_rounds=24, timed=False)
    suggestion = policy.hint(SOLO.private_view(state, 0), random.Random(0))
    assert suggestion is not None
    _move, reason = suggestion
    assert "%" not in reason and "worth" not in reason, reason
    assert re.search(r"\(you finish with about -?\d+ points? on average after it", reason), reason
    assert reason.endswith(", over 24 imagined games)."), reason


def test_a_solo_reason_compares_in_points_with_moves_tried_on_the_same_deals() -> None:
    """The comparison names the points gained over the best other move tried on every deal;
    a move dropped early (fewer deals, other luck) and a move behind are not compared."""
    report = SearchReport(
        move="take 1",
        candidates=["take 1", "take 2", "take blind"],
        means=[0.3, 0.2, 0.5],
        counts=[12, 12, 6],
        figures=[31.4, 28.6, 40.0],
        rounds=12,
    )
    assert solo_reason("it helps", "take 1", report) == (
        "it helps (you finish with about 31 points on average after it, 3 points more than "
        "after any other move tried, over 12 imagined games)."
    )
    assert solo_reason("it helps", "take 2", report) == (
        "it helps (you finish with about 29 points on average after it, over 12 imagined games)."
    )
    report.rounds = 4  # too few deals to mean anything: no figure
    assert solo_reason("it helps", "take 1", report) == "it helps."


def _ttr_why(
    move: str,
    hand: dict[str, int],
    *,
    deck_number: int = 2,
    bob_yard: dict[str, int] | None = None,
    slots: Sequence[str] = ("blue", "red", "loco", "green", "white"),
    rounds: int = 0,
) -> str:
    """The hint's reason for seat 0's ``move`` (checked legal) in a three-seat game: seat 0
    keeps one ticket that needs Red and no Blue, holds ``hand``, and P1 has ``bob_yard``; a
    chance of 40% is quoted when the search saw ``rounds`` deals."""
    state = next(s for s in states("ttr", 3, [1]) if s.phase == ACT and s.turn == 0)
    state = state.clone()
    ticket = next(t for t in TICKETS if t.need[0] and not t.need[4])
    state.tickets[0] = [ticket.index]
    state.hands[0] = [hand.get(code, 0) for code in CARD_CODES]
    state.yard_nat = [[0] * len(COLOURS) for _ in range(3)]
    state.yard_loco = [[0] * len(COLOURS) for _ in range(3)]
    for code, size in (bob_yard or {}).items():
        state.yard_nat[1][COLOURS.index(code)] = size
    state.slots = [CARD_CODES.index(code) for code in slots]
    state.deck_number = deck_number
    view = TTR.private_view(state, 0)
    assert move in view.legal, view.legal
    report = SearchReport(move=move, candidates=[move], means=[0.4], counts=[rounds])
    report.rounds = rounds
    return explain(view, move, report)


@pytest.mark.parametrize(
    ("move", "hand", "table", "why"),
    [
        # Before the fix every second-deck set fed 'cards your tickets need', and none robbed.
        (
            "yard blue blue blue",
            {"blue": 3},
            {"bob_yard": {"blue": 2}},
            "your tickets need no Blue, so these cards cost you nothing to play, and it robs "
            "P1 of their Blue set of 2 cards.",
        ),
        (
            "yard red red",
            {"red": 2},
            {},
            "this set feeds your On-the-Track stack with Red cards your tickets need.",
        ),
        # Before the fix every first-deck set was 'not needed by your tickets'.
        (
            "yard red red",
            {"red": 2},
            {"deck_number": 1},
            "this set goes back into the second deck like every track now, yet it came out "
            "best when the next turns were played out.",
        ),
        (
            "yard blue blue",
            {"blue": 2},
            {"deck_number": 1},
            "these cards are not needed by your tickets and feed the second deck.",
        ),
        # Before the fix any face-up card 'brings your tickets closest'.
        (
            "take 1",
            {},
            {},
            "your tickets need no Blue, but it is the face-up card that helps you most.",
        ),
        ("take 2", {}, {}, "the Red card brings your tickets closest."),
        (
            "take 3",
            {},
            {},
            "the Locomotive is wild: it serves whichever colour your tickets need.",
        ),
        (
            "take 1",
            {"blue": 2},
            {"bob_yard": {"blue": 2}},
            "your tickets need no Blue, but with it your Blue cards can rob a set.",
        ),
    ],
)
def test_a_ttr_hint_says_only_what_the_move_does_here(
    move: str, hand: dict[str, int], table: dict[str, Any], why: str
) -> None:
    """A Ticket to Ride hint's reason matches the table: a set or a card serves your tickets
    only if they need its colour, a set robs only whom it robs, and a first-deck set that
    your tickets need is not called unneeded."""
    assert _ttr_why(move, hand, **table) == why


def test_a_robbing_hint_with_a_chance_has_one_pair_of_brackets() -> None:
    """Before the fix: '... and it robs P1 of their Blue set (2 cards) (about 40% to win,
    over 12 imagined deals).'"""
    why = _ttr_why("yard blue blue blue", {"blue": 3}, bob_yard={"blue": 2}, rounds=12)
    assert why.count("(") == why.count(")") == 1, why


def test_a_hint_to_keep_no_ticket_says_so_in_words() -> None:
    """Before the fix: 'keeping none gives the best expected points for the cards you can
    get'."""
    state = next(
        s
        for s in states("ttr", 2, range(1, 40))
        if "keep none" in TTR.private_view(s, min(TTR.to_act(s))).legal
    )
    view = TTR.private_view(state, min(TTR.to_act(state)))
    move = "keep none"
    assert explain(view, move, SearchReport(move=move, candidates=[move])) == (
        "none of these tickets is worth keeping for the cards you can get."
    )


def test_a_ticket_draw_hint_weighs_the_cards_the_tickets_need() -> None:
    """Drawing tickets is said to have room only when the tickets held need well fewer cards
    than the seat can hope to gather (it was said whatever the tickets needed)."""
    state = next(s for s in states("ttr", 3, [1]) if s.phase == ACT and s.turn == 0).clone()
    state.deck_number = 1  # three seats: about 20 cards gathered by the end
    ticket = next(t for t in TICKETS if t.need[0] and not t.need[4])
    state.tickets[0] = [ticket.index]
    report = SearchReport(move="tickets", candidates=["tickets"])
    need = sum(ticket.need)
    assert explain(TTR.private_view(state, 0), "tickets", report) == (
        f"your tickets need {plural(need, 'card')} and you can hope to gather about 20 by the "
        "end: there is room for more."
    )
    # Tickets that already need more than can be gathered: no room is claimed.
    heavy = sorted(TICKETS, key=lambda t: sum(t.need), reverse=True)[:4]
    state.tickets[0] = [t.index for t in heavy]
    assert sum(sum(TICKETS[t].need) for t in state.tickets[0]) > 20
    assert explain(TTR.private_view(state, 0), "tickets", report) == (
        "more tickets came out best when the next turns were played out."
    )
    state.tickets[0] = []
    assert explain(TTR.private_view(state, 0), "tickets", report) == (
        "you hold no tickets yet, and tickets are what your cards score with."
    )


def test_a_solo_set_hint_names_the_face_up_cards_it_discards() -> None:
    """In solo a set bigger than the face-up cards of its colour discards them: the hint says
    so, and says nothing of robbing when there is none to discard."""
    state = next(s for s in states("ttr-solo", 1, [3]) if s.phase == ACT).clone()
    ticket = next(t for t in TICKETS if t.need[0])
    state.tickets[0] = [ticket.index]
    state.hands[0] = [3 if code == "red" else 0 for code in CARD_CODES]
    state.yard_nat[0] = [0] * len(COLOURS)
    state.yard_loco[0] = [0] * len(COLOURS)
    state.slots = [CARD_CODES.index(c) for c in ("red", "red", "blue", "green", "white")]
    state.clock_card = CARD_CODES.index("black")
    view = SOLO.private_view(state, 0)
    move = "yard red red red"
    assert move in view.legal, view.legal
    report = SearchReport(move=move, candidates=[move])
    assert explain(view, move, report) == (
        "this set feeds your On-the-Track stack with Red cards your tickets need, and it "
        "discards the 2 face-up Red cards."
    )
    state.slots = [CARD_CODES.index(c) for c in ("blue", "blue", "blue", "green", "white")]
    view = SOLO.private_view(state, 0)
    assert explain(view, move, report) == (
        "this set feeds your On-the-Track stack with Red cards your tickets need."
    )

"""The ``expert`` players (shared search, Mille and Race domains), ``easy``, and the hints.

Searches here are capped by rounds with the clock off (``timed=False``), so every choice is
reproducible; nothing asserts a time or a win rate except one cheap sanity check against
``random`` where the expert wins overwhelmingly.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from bot.ai import search as search_module
from bot.ai.base import Policy
from bot.ai.easy import WeakenedPolicy, easy
from bot.ai.mille_expert import (
    MilleDomain,
    MilleExpertPolicy,
    barred_cards,
    match_chance,
    unseen_cards,
)
from bot.ai.mille_expert import determinize as mille_determinize
from bot.ai.mille_expert import explain as mille_explain
from bot.ai.mille_normal import NormalMillePolicy
from bot.ai.race_expert import LiveSeat, RaceDomain, RaceExpertPolicy
from bot.ai.race_expert import determinize as race_determinize
from bot.ai.race_expert import explain as race_explain
from bot.ai.race_normal import NormalRacePolicy
from bot.ai.random_policy import RandomPolicy
from bot.ai.search import (
    BUDGET_ENV,
    QUOTED_ROUNDS,
    SearchPolicy,
    SearchReport,
    SearchSettings,
    budget_from_env,
    deal_hidden_hand,
    deal_weighted,
    search,
)
from bot.arena import run_arena
from bot.engine.mille.cards import Card
from bot.engine.mille.state import MilleState, Phase
from bot.engine.race.cards import NAME as RACE_NAME
from bot.engine.race.legality import can_cycle
from bot.engine.race.state import Phase as RacePhase
from bot.games import bundle, get_game, get_policy, policy_names
from tests.ai.test_policies import lay_table

MILLE = get_game("mille")
RACE = get_game("race")
C = Card


def mille_states(seeds: Sequence[int], options: dict[str, str] | None = None) -> Iterator[Any]:
    """Every state met while normal plays random in Mille Bornes, one match per seed."""
    players: list[Policy] = [NormalMillePolicy(), RandomPolicy()]
    for seed in seeds:
        rng = random.Random(seed)
        state = MILLE.new_game(["Ann", "Bob"], seed, options)
        while MILLE.outcome(state) is None:
            yield state
            seat = min(MILLE.to_act(state))
            view = MILLE.private_view(state, seat)
            state = MILLE.apply(state, seat, MILLE.parse_action(players[seat].choose(view, rng)))


def race_states(seeds: Sequence[int]) -> Iterator[Any]:
    """Every state met while normal plays random in the race, one game per seed."""
    players: list[Policy] = [NormalRacePolicy(), RandomPolicy()]
    for seed in seeds:
        rng = random.Random(seed)
        state = RACE.new_game(["Ann", "Bob"], seed)
        while RACE.outcome(state) is None:
            yield state
            seat = min(RACE.to_act(state))
            view = RACE.private_view(state, seat)
            state = RACE.apply(state, seat, RACE.parse_action(players[seat].choose(view, rng)))


def quick(policy: type[SearchPolicy], rounds: int = 2) -> SearchPolicy:
    """An expert capped at a few rounds, clock off: reproducible and fast."""
    return policy(max_rounds=rounds, timed=False)


# --- registry and budget -------------------------------------------------------------------


@pytest.mark.parametrize("key", ["mille", "race"])
def test_every_level_is_offered(key: str) -> None:
    """Mille Bornes and the race offer easy, normal and expert (and random)."""
    assert {"easy", "normal", "expert", "random"} <= set(policy_names(key))
    assert bundle(key).default_policy == "normal"


def test_solo_offers_easy() -> None:
    """Solo offers an easy level too."""
    assert "easy" in policy_names("solo")


def test_budget_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """JUNCTION_EXPERT_MS sets the budget; garbage or nothing falls back to 300 ms."""
    monkeypatch.setenv(BUDGET_ENV, "120")
    assert budget_from_env() == 120.0
    monkeypatch.setenv(BUDGET_ENV, "soon")
    assert budget_from_env() == 300.0
    monkeypatch.setenv(BUDGET_ENV, "-5")
    assert budget_from_env() == 300.0
    monkeypatch.delenv(BUDGET_ENV)
    assert budget_from_env() == 300.0


def test_constructor_budget_beats_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A budget given to the constructor wins over JUNCTION_EXPERT_MS."""
    monkeypatch.setenv(BUDGET_ENV, "900")
    assert MilleExpertPolicy(budget_ms=40).settings.budget_seconds() == pytest.approx(0.04)
    assert MilleExpertPolicy().settings.budget_seconds() == pytest.approx(0.9)


def test_a_tiny_budget_stops_the_search_early() -> None:
    """With a 1 ms budget the search plays at most a round or two, and still answers legally."""
    state = lay_table([C.D100, C.D75, C.D50, C.STOP, C.GO, C.GASOLINE, C.REPAIRS], battle=[C.GO])
    view = MILLE.private_view(state, 0)
    expert = MilleExpertPolicy(budget_ms=1)
    report = search(expert.domain, view, random.Random(1), expert.settings)
    assert report.move in view.legal
    assert report.rounds <= 2


def test_a_round_cap_without_the_clock_plays_exactly_that_many_rounds() -> None:
    """max_rounds with the clock off plays every round (nothing pruned all away)."""
    state = lay_table([C.D100, C.D75, C.D50, C.STOP, C.GO, C.GASOLINE, C.REPAIRS], battle=[C.GO])
    expert = MilleExpertPolicy(max_rounds=5, timed=False)
    report = search(expert.domain, MILLE.private_view(state, 0), random.Random(1), expert.settings)
    assert report.rounds == 5
    assert report.counts[0] == 5


def test_a_domain_remembers_the_notations_it_read_up_to_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``Domain.parse`` reads a notation once and hands back the same action after; past
    ``PARSED_KEPT`` notations it still reads them but keeps no more (a bot-long domain)."""
    monkeypatch.setattr(search_module, "PARSED_KEPT", 2)
    domain = MilleDomain()
    first = domain.parse("draw")
    assert domain.parse("draw") is first
    assert domain.parse("draw") == MILLE.parse_action("draw")
    domain.parse("play 25")
    assert domain.parse("play 50") == MILLE.parse_action("play 50")
    assert domain._parsed is not None
    assert sorted(domain._parsed) == ["draw", "play 25"]
    assert MilleDomain()._parsed is None  # each domain keeps its own


# --- legality and the view ----------------------------------------------------------------


def test_mille_expert_only_plays_legal_moves() -> None:
    """Across a match's states (every phase), the Mille expert answers one of view.legal."""
    expert = quick(MilleExpertPolicy)
    rng = random.Random(3)
    checked = 0
    for index, state in enumerate(mille_states([11, 12])):
        if index % 5:
            continue
        view = MILLE.private_view(state, state.turn)
        assert expert.choose(view, rng) in view.legal
        checked += 1
    assert checked > 20


def test_race_expert_only_plays_legal_moves() -> None:
    """Across a game's states (plays, answers, discards), the race expert answers legally."""
    expert = quick(RaceExpertPolicy, rounds=1)
    rng = random.Random(3)
    phases = set()
    for index, state in enumerate(race_states([4, 5])):
        if index % 9 and state.phase is RacePhase.PLAY:
            continue
        seat = min(RACE.to_act(state))
        view = RACE.private_view(state, seat)
        assert expert.choose(view, rng) in view.legal
        phases.add(view.phase)
    assert {"play", "react"} <= phases


def _mille_twin(state: MilleState, seat: int, rng: random.Random) -> MilleState:
    twin = state.clone()
    other = twin.tableaus[1 - seat]
    hidden = other.hand + twin.draw_pile
    rng.shuffle(hidden)
    other.hand, twin.draw_pile = hidden[: len(other.hand)], hidden[len(other.hand) :]
    return twin


def test_mille_expert_decides_from_the_view_alone() -> None:
    """Two states differing only in hidden cards give the same choice with the same rng."""
    expert = quick(MilleExpertPolicy, rounds=3)
    shuffler = random.Random(5)
    compared = 0
    for index, state in enumerate(mille_states([6])):
        if index % 9 or state.phase is not Phase.ACT:
            continue
        seat = state.turn
        twin = _mille_twin(state, seat, shuffler)
        view, twin_view = MILLE.private_view(state, seat), MILLE.private_view(twin, seat)
        assert view == twin_view
        first = expert.choose(view, random.Random(index))
        assert expert.choose(twin_view, random.Random(index)) == first
        compared += 1
    assert compared > 5


def test_race_expert_decides_from_the_view_alone() -> None:
    """Resampling the race's hidden cards changes neither the view nor the expert's choice."""
    expert = quick(RaceExpertPolicy, rounds=2)
    compared = 0
    for index, state in enumerate(race_states([7])):
        if index % 7:
            continue
        seat = min(RACE.to_act(state))
        twin = RACE.resample_hidden(state, seat, random.Random(index))
        view, twin_view = RACE.private_view(state, seat), RACE.private_view(twin, seat)
        assert view == twin_view
        first = expert.choose(view, random.Random(index))
        assert expert.choose(twin_view, random.Random(index)) == first
        compared += 1
    assert compared > 5


def test_the_expert_is_reproducible_from_its_rng() -> None:
    """The same view and the same rng seed give the same move, every time."""
    state = lay_table([C.D100, C.D75, C.D50, C.STOP, C.GO, C.GASOLINE, C.REPAIRS], battle=[C.GO])
    view = MILLE.private_view(state, 0)
    moves = {quick(MilleExpertPolicy, 4).choose(view, random.Random(9)) for _ in range(3)}
    assert len(moves) == 1


# --- determinizers ----------------------------------------------------------------------------


def test_mille_determinizer_keeps_the_census_and_the_view() -> None:
    """A state built from a view holds the same cards as the real one and shows the same view,
    for both seats, in every phase of several matches (a single hand too)."""
    rng = random.Random(2)
    phases = set()
    for options in (None, {"length": "hand", "deck": "modern"}):
        for state in mille_states([1, 2], options):
            for seat in (0, 1):
                view = MILLE.private_view(state, seat)
                built = mille_determinize(view, rng)
                assert MILLE.private_view(built, seat) == view
                assert MILLE.census(built) == MILLE.census(state)
                phases.add(view.phase)
    assert {"draw", "act", "wait"} <= phases


def test_mille_rollouts_run_to_the_hand_end_unless_a_horizon_is_set() -> None:
    """The expert's own rollouts play the hand out and never ask ``judge``; with a horizon of
    two turn passes, ``judge`` rules on the hand in progress and its answer is the rollout's."""
    judged: list[int] = []

    class Counting(MilleDomain):
        def judge(self, state: MilleState, seat: int) -> float:
            judged.append(len(state.results))
            return 0.25

    class Short(Counting):
        horizon_turns = 2

    start = MILLE.new_game(["A", "B"], 3, {"length": "hand"})
    played = start.clone()
    Counting().rollout(played, 0, random.Random(1))
    assert played.phase is Phase.OVER and judged == []
    cut = start.clone()
    assert Short().rollout(cut, 0, random.Random(1)) == 0.25
    assert judged == [0] and cut.phase is not Phase.OVER  # the hand was still in progress


def test_mille_determinizer_deals_the_unseen_cards() -> None:
    """The opponent's hand and the draw pile are exactly the cards the seat has not seen."""
    state = lay_table([C.D100, C.D75, C.D50, C.STOP, C.GO, C.GASOLINE, C.REPAIRS], battle=[C.GO])
    view = MILLE.private_view(state, 0)
    built = mille_determinize(view, random.Random(4))
    dealt = built.tableaus[1].hand + built.draw_pile
    assert sorted(c.value for c in dealt) == sorted(c.value for c in unseen_cards(view).elements())


def test_mille_determinizer_knows_players_keep_safeties() -> None:
    """Late in a hand an unseen safety is in the opponent's hand far more often than their
    hand's share of the unseen cards (they never discard it)."""
    hand = [C.D100, C.D75, C.D50, C.STOP, C.GO, C.GASOLINE, C.REPAIRS]
    state = lay_table(hand, battle=[C.GO], deck_left=30)
    view = MILLE.private_view(state, 0)
    unseen = unseen_cards(view)
    safety = next(card for card in unseen if card.is_safety)
    rng = random.Random(8)
    held = sum(safety in mille_determinize(view, rng).tableaus[1].hand for _ in range(400))
    share = view.public.tableaus[1].hand_count / sum(unseen.values())
    assert held / 400 > 2 * share


def test_a_hazard_showing_bars_its_remedy_and_safety_from_their_hand() -> None:
    """Out of Gas still on the opponent's battle pile: they hold neither Gasoline nor Extra
    Tank (they would have played it), so no imagined hand has one."""
    hand = [C.D100, C.D75, C.D50, C.STOP, C.GO, C.GASOLINE, C.REPAIRS]
    state = lay_table(hand, battle=[C.GO], their_battle=[C.GO, C.OUT_OF_GAS])
    view = MILLE.private_view(state, 0)
    assert barred_cards(view) == {C.GASOLINE, C.EXTRA_TANK}
    rng = random.Random(5)
    for _ in range(200):
        theirs = mille_determinize(view, rng).tableaus[1].hand
        assert C.GASOLINE not in theirs and C.EXTRA_TANK not in theirs


def test_a_speed_limit_showing_bars_end_of_limit_and_right_of_way() -> None:
    """A Speed Limit still on the opponent: no End of Limit, no Right of Way in their hand."""
    hand = [C.D100, C.D75, C.D50, C.STOP, C.GO, C.GASOLINE, C.REPAIRS]
    state = lay_table(hand, battle=[C.GO], their_speed=[C.SPEED_LIMIT])
    assert barred_cards(MILLE.private_view(state, 0)) == {C.END_OF_LIMIT, C.RIGHT_OF_WAY}


def test_nothing_is_barred_while_the_opponent_rolls_free() -> None:
    """With Go showing and no limit, every unseen card may be in the opponent's hand."""
    hand = [C.D100, C.D75, C.D50, C.STOP, C.GO, C.GASOLINE, C.REPAIRS]
    state = lay_table(hand, battle=[C.GO])
    assert barred_cards(MILLE.private_view(state, 0)) == frozenset()


def test_deal_hidden_hand_uses_barred_cards_only_when_nothing_else_is_left() -> None:
    """Barred cards stay out of the hand while others can fill it, and fill it last."""
    rng = random.Random(2)
    for _ in range(50):
        hand, rest = deal_hidden_hand(list("aabbxx"), 4, lambda c: False, 0.0, rng, (), "x".__eq__)
        assert sorted(hand) == list("aabb") and rest == ["x", "x"]
    hand, rest = deal_hidden_hand(list("abxx"), 3, lambda c: False, 0.0, rng, (), "x".__eq__)
    assert sorted(hand) == list("abx") and rest == ["x"]


def test_race_determinizer_keeps_the_census_and_the_view() -> None:
    """A race state built from a view holds the same cards and shows the same view, for every
    seat, in every phase (reaction windows included)."""
    rng = random.Random(3)
    phases = set()
    for state in race_states([1, 2, 3]):
        for seat in (0, 1):
            view = RACE.private_view(state, seat)
            built = race_determinize(view, rng)
            assert RACE.private_view(built, seat) == view
            assert RACE.census(built) == RACE.census(state)
            phases.add(view.phase)
    assert {"play", "react", "wait"} <= phases


def test_race_determinizer_gives_a_waiting_reactor_its_answer() -> None:
    """When the opponent is asked to answer, the imagined opponent always holds the answer."""
    rng = random.Random(6)
    seen = 0
    for state in race_states([1, 2, 3, 4]):
        if state.phase is not RacePhase.REACT:
            continue
        reactor = 1 - state.stack[-1].seat
        view = RACE.private_view(state, 1 - reactor)
        answer = view.public.answer
        assert answer is not None
        for _ in range(5):
            assert answer in race_determinize(view, rng).sides[reactor].hand
        seen += 1
    assert seen > 3


def test_deal_hidden_hand_keeps_sizes_and_cards() -> None:
    """The dealt hand has the asked size; hand and rest are the pool (forced cards included)."""
    pool = list("aaabbbcccddd")
    hand, rest = deal_hidden_hand(pool, 5, lambda c: c == "d", 0.9, random.Random(1), ["a"])
    assert len(hand) == 5 and "a" in hand
    assert sorted(hand + rest) == sorted(pool)


def test_deal_weighted_keeps_sizes_and_cards() -> None:
    """The weighted deal gives a hand of the asked size; hand and rest are the pool."""
    pool = list("aaabbbcccddd")
    for seed in range(20):
        hand, rest = deal_weighted(
            pool, 5, {"a": 3.0, "b": 1.0, "c": 0.2, "d": 0.0}.__getitem__, random.Random(seed)
        )
        assert len(hand) == 5
        assert sorted(hand + rest) == sorted(pool)


def test_deal_weighted_deals_a_weightless_card_only_when_nothing_else_is_left() -> None:
    rng = random.Random(3)
    for _ in range(50):
        hand, rest = deal_weighted(list("abxx"), 2, lambda c: 0.0 if c == "x" else 1.0, rng)
        assert sorted(hand) == ["a", "b"] and rest == ["x", "x"]
    hand, _ = deal_weighted(list("abxx"), 3, lambda c: 0.0 if c == "x" else 1.0, rng)
    assert sorted(hand) == ["a", "b", "x"]


def test_deal_weighted_favours_heavy_cards_in_proportion() -> None:
    """A one-card deal from a card of weight 3 and one of weight 1 picks the heavy one three
    times in four."""
    rng = random.Random(5)
    heavy = sum(
        deal_weighted(["h", "l"], 1, {"h": 3.0, "l": 1.0}.__getitem__, rng)[0] == ["h"]
        for _ in range(4000)
    )
    assert 0.72 < heavy / 4000 < 0.78


def test_deal_weighted_weighs_every_copy() -> None:
    """Copies count one by one: a card of weight 3 against two copies of a card of weight 1 is
    dealt first three times in five, and is in a two-card hand 3/5 + 2/5 * 3/4 = 9/10 of the
    time (weighted sampling without replacement)."""
    rng = random.Random(8)
    weights = {"h": 3.0, "l": 1.0}.__getitem__
    first = sum(deal_weighted(["h", "l", "l"], 1, weights, rng)[0] == ["h"] for _ in range(4000))
    pair = sum("h" in deal_weighted(["l", "h", "l"], 2, weights, rng)[0] for _ in range(4000))
    assert 0.57 < first / 4000 < 0.63
    assert 0.88 < pair / 4000 < 0.92


def test_deal_weighted_leaves_the_rest_unshuffled_on_request() -> None:
    """With ``shuffle=False`` the rest is the pool less the hand, grouped by kind (a caller
    that deals again shuffles once at the end); the hand is the same as with a shuffle."""
    pool = list("abcabcabc")
    weights = {"a": 1.0, "b": 2.0, "c": 0.5}.__getitem__
    hand, rest = deal_weighted(pool, 4, weights, random.Random(2), shuffle=False)
    shuffled_hand, _ = deal_weighted(pool, 4, weights, random.Random(2))
    assert hand == shuffled_hand
    assert sorted(hand + rest) == sorted(pool)
    assert rest == sorted(rest, key="abc".index)


# --- the rollout helpers -------------------------------------------------------------------


def test_race_normal_decides_the_same_on_the_rollouts_live_seat() -> None:
    """normal.decide on a rollout's live seat (the state's own lists, no cycles listed) picks
    what choose picks on the full private view."""
    policy = NormalRacePolicy()
    live = LiveSeat()
    checked = 0
    for state in race_states([8, 9]):
        seat = min(RACE.to_act(state))
        full = RACE.private_view(state, seat)
        lean = live.refresh(state, seat)
        open_ = state.phase is RacePhase.PLAY and bool(full.hand) and can_cycle(state)
        assert policy.decide(lean, open_) == policy.choose(full, random.Random(0))
        checked += 1
    assert checked > 100


def test_mille_match_chance_favours_the_leader() -> None:
    """The match-winning chance grows with the lead and is a coin flip when level."""
    assert match_chance(2000, 2000) == pytest.approx(0.5)
    assert match_chance(3000, 2000) > 0.7
    assert match_chance(4500, 4000) > match_chance(1500, 1000)


# --- strength sanity (not a measurement) -----------------------------------------------------


def test_race_expert_beats_random() -> None:
    """A sanity check, not a measurement: even at 2 ms a move the race expert wins most of 20
    games against random (figures come from `junction arena`, see the report)."""
    result = _arena_with("race", {"expert": lambda: RaceExpertPolicy(budget_ms=2)}, 20)
    expert = result["expert"]
    assert isinstance(expert, dict)
    assert expert["win_rate"] >= 0.5


def _arena_with(key: str, policies: dict[str, Any], games: int) -> dict[str, object]:
    import dataclasses

    from bot.games import register, unregister

    found = bundle(key)
    unregister(key)
    register(dataclasses.replace(found, policies={**found.policies, **policies}))
    try:
        return run_arena(key, ["expert", "random"], games=games, seed=1)
    finally:
        unregister(key)
        register(found)


# --- easy --------------------------------------------------------------------------------------


def test_easy_plays_legal_moves_reproducibly() -> None:
    """The easy player answers legally and the same rng gives the same moves."""
    policy = get_policy("mille", "easy")
    for state in list(mille_states([3]))[::7]:
        view = MILLE.private_view(state, state.turn)
        first = policy.choose(view, random.Random(2))
        assert first in view.legal
        assert policy.choose(view, random.Random(2)) == first


def test_easy_mixes_normal_and_random() -> None:
    """With share 1 it plays as normal, with share 0 as random, and in between some of each."""
    views = [MILLE.private_view(s, s.turn) for s in list(mille_states([4]))[::3]]
    views = [v for v in views if len(v.legal) > 2]
    normal = NormalMillePolicy()
    always = WeakenedPolicy(NormalMillePolicy(), 1.0)
    assert all(
        always.choose(v, random.Random(1)) == normal.choose(v, random.Random(0)) for v in views
    )
    never = WeakenedPolicy(NormalMillePolicy(), 0.0)
    assert all(
        never.choose(v, random.Random(1)) == RandomPolicy().choose(v, _after_one(1)) for v in views
    )
    half = easy(NormalMillePolicy)()
    rng = random.Random(3)
    agree = sum(half.choose(v, rng) == normal.choose(v, random.Random(0)) for v in views)
    assert 0 < agree < len(views)


def _after_one(seed: int) -> random.Random:
    rng = random.Random(seed)
    rng.random()
    return rng


def test_easy_refuses_a_bad_share() -> None:
    """A share outside 0..1 is a programming error."""
    with pytest.raises(ValueError):
        WeakenedPolicy(NormalMillePolicy(), 1.5)


# --- hints -----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["mille", "race"])
def test_hint_is_a_legal_move_with_a_reason(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game's hint (from the expert) names a legal move and says why in a sentence."""
    monkeypatch.setenv(BUDGET_ENV, "20")
    found = bundle(key)
    assert found.presenter.hint is not None
    game = found.game
    states = mille_states([9]) if key == "mille" else race_states([9])
    for index, state in enumerate(states):
        if index > 60:
            break
        if index % 10:
            continue
        seat = min(game.to_act(state))
        view = game.private_view(state, seat)
        suggestion = found.presenter.hint(view)
        assert suggestion is not None
        move, reason = suggestion
        assert move in view.legal
        assert reason and reason[-1] == "." and "\n" not in reason


def test_mille_hint_says_nothing_without_a_move() -> None:
    """A seat with nothing to do gets no hint."""
    state = lay_table([C.D100, C.D75, C.D50, C.STOP, C.GO, C.GASOLINE, C.REPAIRS], battle=[C.GO])
    hint = bundle("mille").presenter.hint
    assert hint is not None
    assert hint(MILLE.private_view(state, 1)) is None


def test_a_hint_quotes_no_figure_from_a_handful_of_deals() -> None:
    """Below the rounds a search needs to leave the baseline, the reason gives no percentage
    (one imagined deal once produced 'about 18% to win, over 1 imagined deals')."""
    report = SearchReport(move="play 25", candidates=["play 25", "end"], means=[0.18, 0.1])
    report.rounds = QUOTED_ROUNDS - 1
    assert report.reason("it drives", "play 25") == "it drives."
    report.rounds = QUOTED_ROUNDS
    assert report.reason("it drives", "play 25") == (
        f"it drives (about 18% to win, over {QUOTED_ROUNDS} imagined deals)."
    )


JAMMER = ", unless Bob cancels it with their Jammer."
COUP = ", unless Bob cancels it with their Coup Fourré."
"""What a race hint's reason adds while Bob may hold the card that cancels the move."""


def test_a_race_cycle_hint_names_a_lone_card() -> None:
    """A hint to cycle one card names it; several are counted ('these 2 cards')."""
    state = RACE.new_game(["A", "B"], 3, {})
    view = RACE.private_view(state, min(RACE.to_act(state)))
    one = SearchReport(move="cycle 25", candidates=["cycle 25"])
    assert "swapping 25 miles for a fresh card" in race_explain(view, "cycle 25", one)
    both = SearchReport(move="cycle 25 50", candidates=["cycle 25 50"])
    assert "swapping these 2 cards for" in race_explain(view, "cycle 25 50", both)


@pytest.mark.parametrize(
    ("move", "fresh"),
    [
        ("cycle 25 50", "for a fresh card brings you a better card to play."),
        ("cycle 25 50 spare-tire", "for 2 fresh cards brings you better cards to play."),
        ("cycle 50 100", "for a fresh card brings you a better card to play."),
    ],
)
def test_a_race_cycle_hint_promises_one_card_per_type_junked(move: str, fresh: str) -> None:
    """A cycle draws one card per card type junked. Before the fix two miles cards drew 'fresh
    cards', and a cycle with a 100 was called 'these weak cards'."""
    why = _race_why([], [], move)
    assert why.endswith(fresh)
    assert "weak" not in why


@pytest.mark.parametrize(
    ("move", "library", "reshuffled", "why"),
    [
        (
            "cycle 25 spare-tire",
            0,
            True,
            "your library is spent, so cycling draws nothing, but it takes these 2 "
            "cards out of your hand.",
        ),
        (
            "cycle 25 spare-tire",
            1,
            True,
            "swapping these 2 cards for a fresh card brings you a better card to play.",
        ),
        # Unspent, the reshuffle brings the junkyard back with the cards just junked.
        (
            "cycle 25 spare-tire",
            0,
            False,
            "swapping these 2 cards for 2 fresh cards brings you better cards to play.",
        ),
        ("play pit-crew", 5, True, f"two more cards give you more choices{JAMMER}"),
        ("play pit-crew", 1, True, f"one more card gives you more choice{JAMMER}"),
        (
            "play pit-crew",
            0,
            True,
            "your library is spent, so it draws nothing, but it leaves your hand.",
        ),
        # Unspent, the reshuffle brings the junkyard: here only the Pit Crew itself.
        ("play pit-crew", 0, False, f"one more card gives you more choice{JAMMER}"),
    ],
)
def test_a_race_draw_hint_promises_only_the_cards_left_to_draw(
    move: str, library: int, reshuffled: bool, why: str
) -> None:
    """Before the fixes a cycle or a Pit Crew from a spent library promised fresh cards."""
    from tests.engine.race_helpers import red_first

    state = red_first()
    me = state.sides[0]
    me.library, me.junkyard, me.reshuffled = me.library[:library], [], reshuffled
    view = RACE.private_view(state, 0)
    assert race_explain(view, move, SearchReport(move=move, candidates=[move])) == why


def test_a_race_reaction_hint_says_reaction_and_no_apostrophe_s() -> None:
    """A hint to react names the card its rival played without "'s" (a seat may be called
    "Computer (normal)"); a hint to pass calls the card kept a reaction card, as the game does."""
    from tests.engine.race_helpers import BLUE_CHEATS, red_first

    state = RACE.apply(red_first(blue=BLUE_CHEATS), 0, ("play", "100"))
    view = RACE.private_view(state, 1)
    react = SearchReport(move="react roadblock", candidates=["react roadblock"])
    assert race_explain(view, "react roadblock", react).startswith(
        "cancelling the 100 miles Ann played is worth your Roadblock"
    )
    keep = SearchReport(move="pass", candidates=["pass"])
    assert race_explain(view, "pass", keep).startswith("your reaction card is worth more kept")


def _race_why(
    hazards_on_me: Sequence[str], on_them: Sequence[str], move: str, total: int = 0
) -> str:
    """The race hint's reason for Ann's ``move`` with these hazards on each side."""
    from tests.engine.race_helpers import red_first

    state = red_first()
    state.sides[0].hazards = list(hazards_on_me)
    state.sides[1].hazards = list(on_them)
    state.sides[0].total = total
    view = RACE.private_view(state, 0)
    return race_explain(view, move, SearchReport(move=move, candidates=[move]))


@pytest.mark.parametrize(
    ("mine", "theirs", "move", "total", "why"),
    [
        # A trump with nothing to clear: before the fix 'Driving Ace clears what holds you up'.
        (
            [],
            [],
            "play driving-ace",
            0,
            "nothing holds you up, but Driving Ace costs you no play and makes room in your hand.",
        ),
        (
            ["accident", "red-light"],
            [],
            "play driving-ace",
            0,
            "Driving Ace clears the Accident on you without using your play, but the Red Light "
            f"still stops you{JAMMER}",
        ),
        (
            ["red-light", "speed-trap"],
            [],
            "play right-of-way",
            0,
            "Right of Way clears the Red Light and the Speed Trap on you without using your "
            f"play and gets you moving again{JAMMER}",
        ),
        # A removal leaving a hazard: before the fix 'Repairs gets you moving again'.
        (
            ["flat-tire", "accident"],
            [],
            "play repairs",
            0,
            f"Repairs clears the Accident on you, but the Flat Tire still stops you{JAMMER}",
        ),
        (
            ["speed-trap"],
            [],
            "play end-of-limit",
            0,
            "End of Limit clears the Speed Trap on you, so you can drive at full speed "
            f"again{JAMMER}",
        ),
        (
            ["red-light", "speed-trap"],
            [],
            "play tow-truck on red-light",
            0,
            "Tow Truck clears the Red Light on you, so you can drive again, but only 25 and 50 "
            f"miles under the Speed Trap{JAMMER}",
        ),
        (
            ["flat-tire", "flat-tire"],
            [],
            "play spare-tire",
            0,
            "Spare Tire clears the Flat Tire on you, but the other Flat Tire still stops "
            f"you{JAMMER}",
        ),
        # A hazard on a rival already stopped: before the fix it 'slows Bob the most'.
        (
            [],
            ["accident"],
            "play flat-tire",
            0,
            f"Flat Tire keeps Bob held up even after they clear the Accident{COUP}",
        ),
        ([], [], "play speed-trap", 0, f"the Speed Trap holds Bob to 25 and 50 miles{COUP}"),
        # Before the fix: 'Speed Trap keeps Bob held up even after they clear the Accident'.
        (
            [],
            ["accident"],
            "play speed-trap",
            0,
            f"the Speed Trap holds Bob to 25 and 50 miles even after they clear the Accident{COUP}",
        ),
        (
            [],
            [],
            "play 100",
            900,
            "100 miles takes you to exactly 1000 and wins, unless Bob cancels it with their "
            "Roadblock.",
        ),
        (
            [],
            [],
            "cycle 25 50",
            0,
            "swapping these 2 cards for a fresh card brings you a better card to play.",
        ),
        (
            ["out-of-gas", "out-of-gas"],
            [],
            "cycle 25",
            0,
            "swapping 25 miles for a fresh card may bring what clears both Out of Gas cards on "
            "you.",
        ),
    ],
)
def test_a_race_hint_says_only_what_the_card_does_here(
    mine: list[str], theirs: list[str], move: str, total: int, why: str
) -> None:
    """A race hint's reason matches the table: a trump played with nothing to clear is not
    said to clear anything, a removal names what it clears and what still holds you up, a
    hazard on a rival already held up says so, a finishing miles card says it wins."""
    assert _race_why(mine, theirs, move, total) == why


def test_a_race_hint_to_finish_says_only_a_seen_roadblock_makes_it_sure() -> None:
    """Ann at 900 miles is told to drive 100. The hint read "100 miles takes you to exactly
    1000 and wins" while Bob's Roadblock was unseen, and the computer answered it with the
    Roadblock: the race went on. It says so now, and says only "and wins" once Bob's Roadblock
    lies in his junkyard, or when he holds no card to answer with."""
    from tests.engine.race_helpers import red_first

    state = red_first()
    state.sides[0].total = 900
    move = "play 100"
    report = SearchReport(move=move, candidates=[move])
    said = race_explain(RACE.private_view(state, 0), move, report)
    unless = "unless Bob cancels it with their Roadblock."
    assert said == f"100 miles takes you to exactly 1000 and wins, {unless}"
    bob = state.sides[1]
    bob.library.remove("roadblock")
    bob.junkyard.append("roadblock")
    sure = "100 miles takes you to exactly 1000 and wins."
    assert race_explain(RACE.private_view(state, 0), move, report) == sure
    bob.junkyard.remove("roadblock")
    bob.library.append("roadblock")
    bob.junkyard.extend(bob.hand)
    bob.hand = []
    assert race_explain(RACE.private_view(state, 0), move, report) == sure


@pytest.mark.parametrize(
    ("move", "answer"),
    [("play flat-tire", "coup-fourre"), ("play 75", "roadblock"), ("play pit-crew", "jammer")],
)
def test_a_race_hint_says_the_rival_may_cancel_the_card_with_one_unseen(
    move: str, answer: str
) -> None:
    """Ann is told to play a Flat Tire on Bob while Bob's Coup Fourré is unseen. The reason read
    "Flat Tire stops Bob, who is driving freely now.", and the computer answered it; only a
    finishing 100 said "unless Bob cancels it with their Roadblock". Every card Bob could
    cancel says so now (a hazard his Coup Fourré, miles his Roadblock, the rest his Jammer),
    and says it alike wherever the unseen card is (Bob's hand or library: Ann cannot tell).
    Once the card lies in Bob's junkyard, or Bob holds nothing, the clause goes."""
    from tests.engine.race_helpers import BLUE_CHEATS, red_first

    report = SearchReport(move=move, candidates=[move])
    unless = f", unless Bob cancels it with their {RACE_NAME[answer]}."
    in_hand = red_first(blue=BLUE_CHEATS)
    assert answer in in_hand.sides[1].hand
    said = race_explain(RACE.private_view(in_hand, 0), move, report)
    assert said.endswith(unless) and said.count("unless") == 1, said
    in_library = red_first()
    assert answer not in in_library.sides[1].hand
    assert race_explain(RACE.private_view(in_library, 0), move, report) == said
    seen = red_first(blue=BLUE_CHEATS)
    seen.sides[1].hand.remove(answer)
    seen.sides[1].junkyard.append(answer)
    plain = race_explain(RACE.private_view(seen, 0), move, report)
    assert plain == said.removesuffix(unless) + ".", plain
    empty = red_first()
    empty.sides[1].junkyard.extend(empty.sides[1].hand)
    empty.sides[1].hand = []
    assert race_explain(RACE.private_view(empty, 0), move, report) == plain


@pytest.mark.parametrize("hazard", ["flat-tire", "speed-trap"])
def test_a_race_removal_hint_with_a_chance_has_one_pair_of_brackets(hazard: str) -> None:
    """Before the fix a removal that leaves a stop read 'Repairs clears the Accident on you
    (the Flat Tire still stops you) (about 40% to win, ...)', and one that leaves a limit
    '... so you can drive again (25 and 50 miles only under the Speed Trap) (about ...)'."""
    from tests.engine.race_helpers import red_first

    state = red_first()
    state.sides[0].hazards = [hazard, "accident"]
    move = "play repairs"
    report = SearchReport(move=move, candidates=[move], means=[0.4], counts=[12], figures=[0.4])
    report.rounds = 12
    why = race_explain(RACE.private_view(state, 0), move, report)
    assert why.count("(") == why.count(")") == 1, why


def test_a_mille_hint_calls_a_safety_a_coup_fourre_only_when_it_is_one() -> None:
    """Before drawing, a safety against a fresh hazard is a coup fourré; against an old one it
    is not (no 300). Before the fix the hint said "a coup fourré scores 300 more" for both."""
    from tests.engine.mille_helpers import act, start

    alice = ["go", "extra-tank", "25", "25", "25", "25"]
    bob = ["go", "out-of-gas", "50", "50", "50", "50"]
    s = start(alice, bob, ["75", "75", "75", "100", "100", "50", "100", "100", "100", "100"])
    s = act(act(act(s, 0, "play go"), 1, "play go"), 0, "play 25")
    s = act(s, 1, "play out-of-gas")
    report = SearchReport(move="play extra-tank", candidates=["play extra-tank", "draw"])
    fresh = mille_explain(MILLE.private_view(s, 0), "play extra-tank", report)
    assert fresh.startswith("a coup fourré scores 300 more"), fresh
    assert fresh == "a coup fourré scores 300 more and clears the Out of Gas on you at once."
    s = act(act(s, 0, "draw", "discard 25"), 1, "play 50")
    old = mille_explain(MILLE.private_view(s, 0), "play extra-tank", report)
    assert old == (
        "Extra Tank clears the Out of Gas on you for good, scores 100 and you keep the turn."
    ), old


def test_a_mille_hint_names_the_card_as_the_hand_does() -> None:
    """With French card names the hint's reason names the card in French, as the button above
    it does ("Discard Essence"). Before the fix: "Gasoline is the card you are least likely to
    need"."""
    state = MILLE.new_game(["A", "B"], 1, {"names": "fr"})
    view = MILLE.private_view(state, 0)
    card = next(c for c in view.hand if not c.is_safety)
    report = SearchReport(move=f"discard {card.value}", candidates=[f"discard {card.value}"])
    reason = mille_explain(view, f"discard {card.value}", report)
    assert reason.startswith(f"{card.name_in('fr')} is the card you are least likely"), reason


@pytest.mark.parametrize(
    ("move", "table", "why"),
    [
        # Before the fix a Speed Limit was 'stopping Bob now gains you the most'.
        ("play speed-limit", {}, "Speed Limit holds Bob to 25 and 50 miles."),
        ("play accident", {}, "Accident on Bob stops them driving."),
        # Before the fix every remedy 'gets you moving again', even with a Go still needed.
        (
            "play gasoline",
            {"battle": [C.GO, C.OUT_OF_GAS]},
            "Gasoline clears the Out of Gas on you, but you still need a Go to drive.",
        ),
        (
            "play gasoline",
            {"battle": [C.GO, C.OUT_OF_GAS], "safeties": [C.RIGHT_OF_WAY]},
            "Gasoline clears the Out of Gas on you and gets you moving again.",
        ),
        ("play go", {}, "Go lets you start driving."),
        ("play go", {"battle": [C.GO, C.STOP]}, "Go gets you moving again."),
        (
            "play end-of-limit",
            {"battle": [C.GO], "speed": [C.SPEED_LIMIT]},
            "End of Limit lifts the Speed Limit, so you can drive at full speed again.",
        ),
        (
            "play end-of-limit",
            {"battle": [C.STOP], "speed": [C.SPEED_LIMIT]},
            "End of Limit lifts the Speed Limit on you.",
        ),
        # Before the fix a safety with nothing to clear 'scores now and gives you another turn'
        # without saying what it guards against; one that clears a hazard did not say so.
        (
            "play driving-ace",
            {"battle": [C.GO]},
            "Driving Ace scores 100 now, gives you another turn and keeps Accident off you for "
            "the rest of the hand.",
        ),
        (
            "play right-of-way",
            {"battle": [C.STOP], "speed": [C.SPEED_LIMIT]},
            "Right of Way clears the Stop and the Speed Limit on you for good, scores 100 and "
            "you get another turn.",
        ),
        (
            "play right-of-way",
            {"battle": []},
            "Right of Way scores 100 now, gives you another turn and keeps Stop and Speed Limit "
            "off you for the rest of the hand, and you can drive without a Go.",
        ),
        (
            "play 50",
            {"battle": [C.GO], "miles": [C.D200, C.D200, C.D100, C.D100, C.D50]},
            "50 miles takes you to exactly 700 and completes the trip.",
        ),
    ],
)
def test_a_mille_hint_says_only_what_the_card_does_here(
    move: str, table: dict[str, Any], why: str
) -> None:
    """A Mille Bornes hint's reason matches the table: a Speed Limit slows rather than stops,
    a remedy says whether a Go is still needed, a safety names what it clears or guards
    against, a finishing distance card says so."""
    card = Card(move.split()[1])
    hand = [C.D25, C.D50, C.GO, C.GASOLINE, C.END_OF_LIMIT, C.STOP]
    if card not in hand:
        hand[-1] = card
    state = lay_table(hand, **table)
    view = MILLE.private_view(state, 0)
    assert move in view.legal, view.legal
    assert mille_explain(view, move, SearchReport(move=move, candidates=[move])) == why


def test_a_mille_hint_names_every_card_in_the_games_language() -> None:
    """With French card names the reason names the cards in French. Before the fix a safety
    or remedy was 'the safety' or 'it', and the rest English."""
    state = lay_table([C.D25, C.GASOLINE, C.SPEED_LIMIT, C.EXTRA_TANK], battle=[C.GO, C.OUT_OF_GAS])
    state.options = {**state.options, "names": "fr"}
    view = MILLE.private_view(state, 0)
    report = SearchReport(move="play gasoline", candidates=["play gasoline"])
    assert mille_explain(view, "play gasoline", report) == (
        f"{C.GASOLINE.name_in('fr')} clears the {C.OUT_OF_GAS.name_in('fr')} on you, but you "
        f"still need a {C.GO.name_in('fr')} to drive."
    )
    assert mille_explain(view, "play speed-limit", report).startswith(
        f"{C.SPEED_LIMIT.name_in('fr')} holds Bob"
    )
    assert mille_explain(view, "play extra-tank", report).startswith(
        f"{C.EXTRA_TANK.name_in('fr')} clears the {C.OUT_OF_GAS.name_in('fr')}"
    )


def test_a_mille_hint_names_a_finishing_distance_card_in_the_games_language() -> None:
    """With French card names a distance card that completes the trip is named as its button
    names it ("Drive 50 bornes"). Before the fix: '50 miles takes you to exactly 700'."""
    state = lay_table(
        [C.D25, C.D50, C.GO], battle=[C.GO], miles=[C.D200, C.D200, C.D100, C.D100, C.D50]
    )
    state.options = {**state.options, "names": "fr"}
    view = MILLE.private_view(state, 0)
    report = SearchReport(move="play 50", candidates=["play 50"])
    assert mille_explain(view, "play 50", report) == (
        f"{C.D50.name_in('fr')} takes you to exactly 700 and completes the trip."
    )


def test_a_mille_hint_quotes_the_chance_to_win_not_the_blend() -> None:
    """A finished match is worth the win blended with the margin to the search; the hint
    quotes the rollouts' chance of winning alone. Before the fix a sure win by a small margin
    read 'about 66% to win the match'."""
    report = SearchReport(
        move="play 25", candidates=["play 25"], means=[0.66], counts=[12], figures=[1.0]
    )
    report.rounds = 12
    state = lay_table([C.D25, C.GASOLINE], battle=[C.GO])
    view = MILLE.private_view(state, 0)
    assert mille_explain(view, "play 25", report).endswith(
        "(about 100% to win the match, over 12 imagined deals)."
    )


@pytest.mark.parametrize("battle", [(), (C.GO, C.STOP, C.GASOLINE)])
def test_a_mille_hint_for_a_go_under_right_of_way_does_not_say_it_starts_you(
    battle: tuple[Card, ...],
) -> None:
    """Under Right of Way a Go is accepted (as bsd-games does) but changes nothing. Before the
    fix the reason said 'Go lets you start driving' or 'Go gets you moving again'."""
    state = lay_table([C.GO, C.D25], safeties=[C.RIGHT_OF_WAY], battle=battle)
    view = MILLE.private_view(state, 0)
    assert "play go" in view.legal
    report = SearchReport(move="play go", candidates=["play go"])
    assert mille_explain(view, "play go", report) == (
        "Right of Way already lets you drive: Go only gets the card out of your hand."
    )


def test_a_mille_remedy_hint_with_a_chance_has_one_pair_of_brackets() -> None:
    """Before the fix a remedy that still needs a Go read 'Gasoline clears the Out of Gas on
    you (you still need a Go to drive) (about 40% to win the match, ...)'."""
    report = SearchReport(
        move="play gasoline", candidates=["play gasoline"], means=[0.4], counts=[12]
    )
    report.figures, report.rounds = [0.4], 12
    state = lay_table([C.D25, C.GASOLINE], battle=[C.GO, C.OUT_OF_GAS])
    why = mille_explain(MILLE.private_view(state, 0), "play gasoline", report)
    assert why.count("(") == why.count(")") == 1, why


def test_the_mille_search_keeps_the_plain_win_chance_for_the_hint() -> None:
    """The domain's figure is the plain chance of winning: 1 for a won match whatever the
    margin, where its worth is lower."""
    state = lay_table([C.D25], battle=[C.GO])
    state.winners = (0,)
    state.scores = [5010, 5000]
    domain = MilleDomain()
    worth = domain.evaluate(state, 0)
    assert worth < 1.0 and domain.figure == 1.0


def test_a_race_hint_quotes_the_chance_to_win_not_the_blend() -> None:
    """The race's worth blends the win with the margin of miles; the hint quotes the rollouts'
    chance of winning alone. Before the fix a sure win by a few miles read 'about 65% to
    win'."""
    from tests.engine.race_helpers import red_first

    report = SearchReport(
        move="play 25", candidates=["play 25"], means=[0.65], counts=[12], figures=[1.0]
    )
    report.rounds = 12
    view = RACE.private_view(red_first(), 0)
    assert race_explain(view, "play 25", report).endswith(
        "(about 100% to win, over 12 imagined deals)."
    )


@pytest.mark.parametrize(("winners", "figure"), [((0,), 1.0), ((1,), 0.0), (None, 1.0)])
def test_the_race_search_keeps_the_plain_win_chance_for_the_hint(
    winners: tuple[int, ...] | None, figure: float
) -> None:
    """The race domain's figure is the plain result: 1 for a won game whatever the margin
    (where its worth is lower), and for a rollout cut at its move limit the result on miles,
    as a game that runs dry is decided."""
    from tests.engine.race_helpers import red_first

    state = red_first()
    state.sides[0].total, state.sides[1].total = 1000, 950
    state.winners = winners
    domain = RaceDomain()
    domain.evaluate(state, 0)
    assert domain.figure == figure


def test_a_game_sets_how_sure_its_expert_must_be() -> None:
    """``keep_z`` on the policy class reaches the search settings; the default stays strict."""
    assert MilleExpertPolicy(budget_ms=5).settings.keep_z == 1.0
    assert RaceExpertPolicy(budget_ms=5).settings.keep_z == SearchSettings().keep_z == 2.0

"""The Dragon Mille Bornes ``expert`` (and ``easy``): legal from its own view in every phase,
a determinizer that honours the view, rollouts that agree with ``normal``, the hint, and the
engine's in-place apply the rollouts use.

Searches are capped by rounds with the clock off (``timed=False``), so every choice is
reproducible; nothing here asserts a time or a win rate.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from bot.ai.base import Policy
from bot.ai.dragon_deal import determinize, unseen_cw, unseen_mb
from bot.ai.dragon_expert import DragonExpertPolicy, rollout_view
from bot.ai.dragon_hands import (
    PASSED_FACTOR,
    UNPLAYED_FACTOR,
    acted_since_hazards,
    deal_cw_hand,
    read_facts,
)
from bot.ai.dragon_normal import DragonNormalPolicy, decide
from bot.ai.dragon_reasons import explain
from bot.ai.dragon_value import win_chance
from bot.ai.random_policy import RandomPolicy
from bot.ai.search import BUDGET_ENV, SearchReport
from bot.engine.dragon import GAME
from bot.engine.dragon.cards import cw_deck_counts
from bot.engine.dragon.rules import apply_in_place
from bot.engine.dragon.state import NONE_OF, ONE_OF, UNPLAYED, DragonState, HandFact
from bot.engine.dragon.views import DragonSeatView
from bot.engine.mille.cards import Card
from bot.games import bundle, get_policy, policy_names
from tests.engine.dragon_helpers import rig, start

OPTIONS = {"oil_slick": "on"}


def dragon_states(seats: int, seeds: Sequence[int], limit: int = 2000) -> Iterator[DragonState]:
    """Every state met while normal plays against random (seat 0 normal, the rest mixed),
    one game per seed: random play opens every kind of reaction window."""
    for seed in seeds:
        rng = random.Random(seed)
        players: list[Policy] = [
            DragonNormalPolicy() if s % 2 == 0 else RandomPolicy() for s in range(seats)
        ]
        state = GAME.new_game([f"P{s}" for s in range(seats)], seed, OPTIONS)
        for _ in range(limit):
            if GAME.outcome(state) is not None:
                break
            yield state
            seat = min(GAME.to_act(state))
            view = GAME.private_view(state, seat)
            move = players[seat].choose(view, rng)
            state = GAME.apply(state, seat, GAME.parse_action(move))


def quick(rounds: int = 2) -> DragonExpertPolicy:
    """An expert capped at a few rounds, clock off: reproducible and fast."""
    return DragonExpertPolicy(max_rounds=rounds, timed=False)


# --- registry ------------------------------------------------------------------------------


def test_dragon_offers_every_level() -> None:
    """Dragon offers easy, normal and expert; normal stays the default."""
    assert {"easy", "normal", "expert", "random"} <= set(policy_names("dragon"))
    assert bundle("dragon").default_policy == "normal"
    assert isinstance(get_policy("dragon", "expert"), DragonExpertPolicy)


# --- legality and the view -----------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 4])
def test_expert_only_plays_legal_moves(seats: int) -> None:
    """Across real games (turns, every reaction window, sides), the expert answers legally."""
    expert = quick(rounds=1)
    rng = random.Random(3)
    phases: set[str] = set()
    for index, state in enumerate(dragon_states(seats, [4, 5])):
        if index % 6 and state.phase.value == "turn":
            continue
        for seat in sorted(GAME.to_act(state)):
            view = GAME.private_view(state, seat)
            assert expert.choose(view, rng) in view.legal
            phases.add(view.phase)
    assert {"turn", "react"} <= phases
    assert phases & {"wall", "stampede", "skid", "backfire", "coup"}


def test_expert_decides_from_the_view_alone() -> None:
    """Two states differing only in hidden cards give the same view and the same choice."""
    expert = quick(rounds=3)
    compared = 0
    for index, state in enumerate(dragon_states(3, [7], limit=400)):
        if index % 11:
            continue
        seat = min(GAME.to_act(state))
        twin = GAME.resample_hidden(state, seat, random.Random(index))
        view, twin_view = GAME.private_view(state, seat), GAME.private_view(twin, seat)
        assert view == twin_view
        first = expert.choose(view, random.Random(index))
        assert expert.choose(twin_view, random.Random(index)) == first
        compared += 1
    assert compared > 10


# --- the determinizer ----------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 4])
def test_determinizer_keeps_the_census_and_the_view(seats: int) -> None:
    """A state built from any seat's view holds the same cards as the real one (hand and pile
    sizes included) and shows that seat exactly the same view, own hands included."""
    rng = random.Random(2)
    phases: set[str] = set()
    for index, state in enumerate(dragon_states(seats, [1, 2], limit=700)):
        if index % 3:
            continue
        for seat in range(seats):
            view = GAME.private_view(state, seat)
            built = determinize(view, rng)
            assert GAME.private_view(built, seat) == view
            assert GAME.census(built) == GAME.census(state)
            assert built.cars[seat].mb.hand == state.cars[seat].mb.hand
            assert built.cars[seat].cw_hand == state.cars[seat].cw_hand
            phases.add(view.phase)
    assert {"turn", "react", "wait"} <= phases


def test_determinizer_deals_exactly_the_unseen_cards() -> None:
    """The other hands and the draw piles are the cards the seat has not seen, in the sizes
    the table shows."""
    state = next(s for i, s in enumerate(dragon_states(3, [6])) if i == 40)
    view = GAME.private_view(state, 0)
    built = determinize(view, random.Random(4))
    mb = list(built.mb_draw)
    cw = list(built.cw_draw)
    for seat in (1, 2):
        car, real = built.cars[seat], state.cars[seat]
        assert len(car.mb.hand) == len(real.mb.hand)
        assert len(car.cw_hand) == len(real.cw_hand)
        mb += car.mb.hand
        cw += car.cw_hand
    assert len(built.mb_draw) == len(state.mb_draw)
    assert len(built.cw_draw) == len(state.cw_draw)
    assert Counter(mb) == unseen_mb(view)
    assert Counter(cw) == unseen_cw(view)


def test_determinizer_deals_rivals_the_cards_players_keep() -> None:
    """Rivals fire their attacks and keep their dodges: over many imagined tables a rival holds
    each unseen Swerve far more often than each unseen Rocket (``HAND_BIAS_CW``)."""
    state = next(s for i, s in enumerate(dragon_states(2, [3])) if i == 30)
    view = GAME.private_view(state, 0)
    unseen = unseen_cw(view)
    rockets = [c for c in unseen if c.startswith("rocket")]
    assert unseen["swerve"] and rockets
    rng = random.Random(8)
    swerves = rocket_hits = 0
    for _ in range(300):
        hand = determinize(view, rng).cars[1].cw_hand
        swerves += hand.count("swerve")
        rocket_hits += sum(hand.count(c) for c in rockets)
    per_swerve = swerves / unseen["swerve"]
    per_rocket = rocket_hits / sum(unseen[c] for c in rockets)
    assert per_swerve > 4 * per_rocket


_CW_POOL = sorted(cw_deck_counts(False).elements())


def _deals(facts: list[HandFact], size: int = 6, held: Sequence[str] = ()) -> list[list[str]]:
    """Many rival hands dealt from the full Car Wars deck under ``facts``."""
    rng = random.Random(5)
    deals = []
    for _ in range(400):
        hand, rest = deal_cw_hand(_CW_POOL, size, facts, held, rng)
        assert len(hand) == size and Counter(hand) + Counter(rest) == Counter(_CW_POOL)
        deals.append(hand)
    return deals


def test_a_rival_known_to_hold_no_dodge_is_dealt_none() -> None:
    """A "none of" covering the whole hand keeps those cards out of it, every time."""
    fact = HandFact(NONE_OF, ("armor-front", "swerve", "spin"), 6)
    for hand in _deals([fact]):
        assert not set(hand) & set(fact.codes)


def test_cards_drawn_since_a_none_of_may_be_anything() -> None:
    """A fact about 4 of 6 cards leaves room for at most two Swerves, and over many deals
    some hands do hold one (they came in with the new cards)."""
    deals = _deals([HandFact(NONE_OF, ("swerve",), 4)])
    assert max(hand.count("swerve") for hand in deals) <= 2
    assert any("swerve" in hand for hand in deals)


def test_a_rival_known_to_hold_an_answer_is_dealt_one() -> None:
    """A "one of" puts one of its cards in every imagined hand, and a newer "none of" decides
    which: here always the armor."""
    facts = [
        HandFact(ONE_OF, ("armor-left", "swerve", "spin"), 5),
        HandFact(NONE_OF, ("swerve", "spin"), 5),
    ]
    for hand in _deals(facts, size=5):
        assert "armor-left" in hand
        assert "swerve" not in hand and "spin" not in hand


def test_a_one_of_already_met_by_a_held_card_adds_nothing() -> None:
    """A pending window's answer already dealt to the rival satisfies a "one of" it covers."""
    deals = _deals([HandFact(ONE_OF, ("swerve",), 5)], size=4, held=("swerve",))
    # The four dealt cards hold Swerves only at the deck's weighted share, not one each time.
    assert sum("swerve" in hand for hand in deals) < len(deals)


def test_a_window_let_pass_reads_as_a_kept_dodge() -> None:
    """A player who lets a window pass with armor at hand would have armored: the expert wants
    a dodge in the hand and makes the armor rare among the cards the fact covers."""
    reading = read_facts([HandFact(ONE_OF, ("armor-front", "swerve", "spin"), 5)])
    assert reading.wants == ((("swerve", "spin"), ("armor-front", "swerve", "spin")),)
    assert reading.rare == ((5, ("armor-front",), PASSED_FACTOR),)


def test_passed_up_cards_read_as_rare_and_no_window_as_absent() -> None:
    """An "unplayed" makes its cards rare; a "none of" rules its cards out."""
    reading = read_facts([HandFact(UNPLAYED, ("mg-front",), 4), HandFact(NONE_OF, ("skid",), 5)])
    assert reading.wants == ()
    assert reading.rare == ((5, ("skid",), 0.0), (4, ("mg-front",), UNPLAYED_FACTOR))


def test_passed_up_cards_are_dealt_less_often() -> None:
    """Over many deals a hand whose cards passed up every Rocket holds fewer Rockets."""
    rockets = ("rocket-front", "rocket-back", "rocket-left", "rocket-right")
    plain = sum(sum(c in rockets for c in hand) for hand in _deals([]))
    quiet = sum(
        sum(c in rockets for c in hand) for hand in _deals([HandFact(UNPLAYED, rockets, 6)])
    )
    assert quiet * 3 < plain


def test_the_determinizer_honours_the_table_facts() -> None:
    """A rival the table knows lacks some answers among its oldest cards (no window opened for
    them) is never imagined holding more of them than the cards it drew since."""
    found = 0
    rng = random.Random(3)
    for state in dragon_states(2, [1, 2, 3, 4]):
        facts = [f for f in state.cars[1].facts if f.kind == NONE_OF]
        if state.turn != 0 or state.phase.value != "turn" or not facts:
            continue
        found += 1
        view = GAME.private_view(state, 0)
        for _ in range(20):
            hand = determinize(view, rng).cars[1].cw_hand
            for fact in facts:
                assert sum(c in fact.codes for c in hand) <= len(hand) - fact.cards
    assert found >= 10


def _flat_tire_on(state: DragonState, rival: int, mb_left: int) -> DragonState:
    """``state`` (seat 0's turn) with a Flat Tire from the draw pile on ``rival``'s car and
    ``mb_left`` Mille Bornes actions left to seat 0."""
    state = state.clone()
    state.mb_draw.remove(Card.FLAT_TIRE)
    state.cars[rival].mb.battle.append(Card.FLAT_TIRE)
    state.mb_left = mb_left
    return state


def _held_by(view: DragonSeatView, rival: int, cards: set[Card], tables: int) -> int:
    """How many of ``tables`` imagined tables deal ``rival`` one of ``cards``."""
    rng = random.Random(11)
    return sum(
        any(c in cards for c in determinize(view, rng).cars[rival].mb.hand) for _ in range(tables)
    )


def _turn_start(seats: int) -> DragonState:
    """Seat 0's turn before its Mille Bornes action, a Flat Tire still in the draw pile and its
    remedy and safety unseen by seat 0."""
    for state in dragon_states(seats, [3, 4, 5]):
        if (
            state.phase.value == "turn"
            and state.turn == 0
            and state.mb_left == 1
            and all(car.alive for car in state.cars)
            and Card.FLAT_TIRE in state.mb_draw
            and state.cars[1].mb.battle[-1:] != [Card.FLAT_TIRE]
        ):
            unseen = unseen_mb(GAME.private_view(state, 0))
            if unseen[Card.SPARE_TIRE] and unseen[Card.PUNCTURE_PROOF]:
                return state
    raise AssertionError("no such turn start")


def test_a_rival_who_let_a_hazard_stand_holds_neither_remedy_nor_safety() -> None:
    """Two cars, seat 0's turn begins: the rival has had its turn since the Flat Tire, so it is
    never dealt a Spare Tire, a Puncture-Proof or a Right of Way (it would have played them)."""
    state = _flat_tire_on(_turn_start(2), rival=1, mb_left=1)
    view = GAME.private_view(state, 0)
    assert acted_since_hazards(view.public, 1)
    barred = {Card.SPARE_TIRE, Card.PUNCTURE_PROOF, Card.RIGHT_OF_WAY}
    assert _held_by(view, 1, barred, tables=200) == 0


def test_a_fresh_hazard_leaves_the_remedy_possible() -> None:
    """After seat 0's own Mille Bornes action the Flat Tire may be the one it just played: the
    rival may still hold a Spare Tire, never the Puncture-Proof (a coup fourré was offered)."""
    state = _flat_tire_on(_turn_start(2), rival=1, mb_left=0)
    view = GAME.private_view(state, 0)
    assert not acted_since_hazards(view.public, 1)
    assert _held_by(view, 1, {Card.SPARE_TIRE}, tables=200) > 0
    assert _held_by(view, 1, {Card.PUNCTURE_PROOF}, tables=200) == 0


def test_only_the_car_just_before_the_turn_has_surely_answered_its_hazards() -> None:
    """Three cars, seat 0 to play: seat 2 played last, so its hazards are settled; seat 1's may
    have come from seat 2 since seat 1's turn."""
    state = _flat_tire_on(_turn_start(3), rival=1, mb_left=1)
    hazard = next(c for c in state.mb_draw if c.is_hazard and c is not Card.SPEED_LIMIT)
    state.mb_draw.remove(hazard)
    state.cars[2].mb.battle.append(hazard)
    public = GAME.private_view(state, 0).public
    assert acted_since_hazards(public, 2)
    assert not acted_since_hazards(public, 1)
    state.cars[2].alive = False
    assert acted_since_hazards(GAME.private_view(state, 0).public, 1)


def test_determinizer_gives_a_waiting_reactor_its_answer() -> None:
    """When another seat's answer is awaited, the imagined reactor can always answer: the
    built state offers it the same choices as the real one."""
    rng = random.Random(6)
    seen = 0
    for state in dragon_states(2, [1, 2, 3, 4, 5]):
        if state.phase.value in ("turn", "wall", "stampede"):
            continue
        (reactor,) = GAME.to_act(state)
        view = GAME.private_view(state, 1 - reactor)
        for _ in range(3):
            built = determinize(view, rng)
            assert len(GAME.legal_actions(built, reactor)) > 1
        seen += 1
    assert seen > 5


# --- rollouts and the value model ----------------------------------------------------------


def test_rollouts_play_as_normal_does() -> None:
    """On the lean rollout view (no discard subsets listed), normal's move is the one it picks
    on the full private view."""
    policy = DragonNormalPolicy()
    checked = 0
    for state in dragon_states(3, [8], limit=600):
        for seat in sorted(GAME.to_act(state)):
            full = GAME.private_view(state, seat)
            lean = rollout_view(state, seat)
            assert decide(lean) == policy.choose(full, random.Random(0))
            checked += 1
    assert checked > 100


def test_win_chances_share_one_and_favour_the_leader() -> None:
    """The value model's chances over the live cars add up to one; more miles, more chance."""
    state = next(s for i, s in enumerate(dragon_states(3, [9])) if i == 30)
    chances = [win_chance(state, seat) for seat in range(3)]
    assert sum(chances) == pytest.approx(1.0)
    ahead = state.clone()
    ahead.cars[1].mb.miles = [Card.D200, Card.D200, Card.D100]
    assert win_chance(ahead, 1) > win_chance(state, 1)


def test_apply_in_place_equals_apply() -> None:
    """apply_in_place on a private copy leaves exactly the state apply returns, every move of
    real games at two table sizes."""
    checked = 0
    for seats in (2, 5):
        rng = random.Random(seats)
        for state in dragon_states(seats, [11, 12], limit=500):
            seat = min(GAME.to_act(state))
            action = rng.choice(GAME.legal_actions(state, seat))
            expected = GAME.apply(state, seat, action)
            scratch = state.clone()
            apply_in_place(scratch, seat, action)
            assert json.dumps(GAME.to_dict(scratch)) == json.dumps(GAME.to_dict(expected))
            checked += 1
    assert checked > 500


# --- hint and easy -------------------------------------------------------------------------


def test_hint_is_a_legal_move_with_a_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    """The presenter's hint (the expert's) names a legal move and says why in one sentence."""
    monkeypatch.setenv(BUDGET_ENV, "15")
    hint = bundle("dragon").presenter.hint
    assert hint is not None
    for index, state in enumerate(dragon_states(2, [9], limit=200)):
        if index % 15:
            continue
        seat = min(GAME.to_act(state))
        view = GAME.private_view(state, seat)
        suggestion = hint(view)
        assert suggestion is not None
        move, reason = suggestion
        assert move in view.legal
        assert reason and reason[-1] == "." and "\n" not in reason


def test_hint_says_nothing_without_a_move() -> None:
    """A seat with nothing to do gets no hint."""
    state = GAME.new_game(["A", "B"], 1)
    hint = bundle("dragon").presenter.hint
    assert hint is not None
    assert hint(GAME.private_view(state, 1)) is None


def test_easy_plays_legal_moves() -> None:
    """The easy player answers legally everywhere, reproducibly from its rng."""
    for state in list(dragon_states(2, [12], limit=300))[::5]:
        seat = min(GAME.to_act(state))
        view = GAME.private_view(state, seat)
        first = get_policy("dragon", "easy").choose(view, random.Random(1))
        assert first in view.legal
        assert get_policy("dragon", "easy").choose(view, random.Random(1)) == first


def _dragon_why(
    move: str, names: str = "en", speed: Sequence[str] = (), rounds: int = 0, **car: Any
) -> str:
    """The hint's reason for Ann's ``move`` (checked legal) at the start of a three-car game,
    with Ann's car rigged as ``car`` and ``speed`` say, Bob 300 miles along and Cy 100; a
    chance of 40% is quoted when the search saw ``rounds`` deals."""
    hand = ["go", "end-of-limit", "repairs", "spare-tire", "gasoline", "speed-limit"]
    state = start(mb=[hand, (), ()], mb_draw=["50"], seats=3, names=names)
    state = rig(state, 1, battle=["go"], miles=["200", "100"])
    state = rig(state, 2, battle=["go"], miles=["100"])
    state = rig(state, 0, **car)
    state.cars[0].mb.speed = [Card(c) for c in speed]
    state.cars[0].mb.hand.append(Card.STOP)  # an eighth card, from nowhere: a hazard to show
    view = GAME.private_view(state, 0)
    assert move in view.legal, view.legal
    report = SearchReport(move=move, candidates=[move], means=[0.4], counts=[rounds])
    report.rounds = rounds
    return explain(view, move, report)


@pytest.mark.parametrize(
    ("move", "car"),
    [
        ("play repairs", {"battle": ["go"], "hits": [0, 1, 0, 0]}),
        ("play repairs", {"battle": ["go", "out-of-gas"], "hits": [2, 0, 0, 0]}),
        ("play stop @1", {"battle": ["go"]}),
    ],
)
def test_a_dragon_hint_with_a_chance_has_one_pair_of_brackets(
    move: str, car: dict[str, Any]
) -> None:
    """Before the fix: 'Repairs clears the hit on your body (you will need a Go to drive)
    (about 40% to win, ...)', and 'the car closest to 1000 (300 miles) (about ...)'."""
    why = _dragon_why(move, rounds=12, **car)
    assert why.count("(") == why.count(")") == 1, why


@pytest.mark.parametrize(
    ("move", "car", "why"),
    [
        # Before the fix: 'Go gets your car moving again' on a car that never moved.
        ("play go", {}, "Go lets you start driving."),
        ("play go", {"battle": ["stop"]}, "Go gets your car moving again."),
        # Before the fix: 'End of Limit lets you drive at full speed again' while stopped.
        (
            "play end-of-limit",
            {"battle": ["go"], "speed": ["speed-limit"]},
            "End of Limit lifts the Speed Limit, so you can drive at full speed again.",
        ),
        (
            "play end-of-limit",
            {"battle": ["go", "flat-tire"], "speed": ["speed-limit"]},
            "End of Limit lifts the Speed Limit on you.",
        ),
        # Before the fix every repair 'gets your car back in shape'.
        (
            "play repairs",
            {"battle": ["go"], "hits": [4, 0, 3, 0], "jammed": True},
            "Repairs clears the 7 hits on your body and the jam on your machine guns, but you "
            "will need a Go to drive.",
        ),
        (
            "play spare-tire",
            {"battle": ["go", "flat-tire"], "tires": 1},
            "Spare Tire clears the Flat Tire on you and the hit on your tires, but you will "
            "need a Go to drive.",
        ),
        # Before the fix: 'Repairs clears the 1 hit on your body'.
        (
            "play repairs",
            {"battle": ["go"], "hits": [0, 1, 0, 0]},
            "Repairs clears the hit on your body, but you will need a Go to drive.",
        ),
        (
            "play repairs",
            {"battle": ["go", "out-of-gas"], "hits": [2, 0, 0, 0]},
            "Repairs clears the 2 hits on your body, but the Out of Gas still stops you.",
        ),
        (
            "play gasoline",
            {"battle": ["go", "out-of-gas"], "safeties": ["right-of-way"]},
            "Gasoline clears the Out of Gas on you, and with Right of Way you can drive at once.",
        ),
        # Before the fix a Speed Limit 'slows the car that worries you most', a battle hazard
        # likewise: the hazard stops, and the car is named for what the table shows.
        ("play speed-limit @2", {}, "Speed Limit holds Cy to 25 and 50 miles."),
        (
            "play stop @1",
            {"battle": ["go"]},
            "Stop on Bob stops them, the car closest to 1000 at 300 miles.",
        ),
        ("play stop @2", {"battle": ["go"]}, "Stop on Cy stops them."),
        (
            "play 50",
            {"battle": ["go"], "miles": ["200", "200", "100", "100", "100", "100", "100", "50"]},
            "50 miles takes you to exactly 1000 and wins.",
        ),
    ],
)
def test_a_dragon_hint_says_only_what_the_card_does_here(
    move: str, car: dict[str, Any], why: str
) -> None:
    """A Dragon hint's reason matches the table: a remedy names what it clears and says what
    still stops you, a Speed Limit slows and a battle hazard stops, Go starts or restarts."""
    assert _dragon_why(move, **car) == why


@pytest.mark.parametrize(
    ("move", "why"),
    [
        ("cw-discard tire-shot", "a fresh Car Wars card is worth more than this Tire Shot."),
        ("cw-discard tire-shot swerve", "fresh Car Wars cards are worth more than these."),
    ],
)
def test_a_dragon_car_wars_discard_hint_counts_the_cards(move: str, why: str) -> None:
    """Before the fix one card discarded read 'fresh Car Wars cards are worth more than
    these'."""
    state = start(cw=[["tire-shot", "swerve"], ()], seats=2)
    view = GAME.private_view(state, 0)
    assert move in view.legal, view.legal
    assert explain(view, move, SearchReport(move=move, candidates=[move])) == why


def test_a_dragon_hint_to_discard_a_lone_car_wars_card_as_the_whole_hand_counts_it() -> None:
    """'cw-discard all' of a one-card hand is one card too (it read 'than these')."""
    state = start(cw=[["tire-shot"], ()], seats=2)
    state.cars[0].cw_hand = ["tire-shot"]
    view = GAME.private_view(state, 0)
    move = "cw-discard all"
    assert move in view.legal, view.legal
    assert explain(view, move, SearchReport(move=move, candidates=[move])) == (
        "a fresh Car Wars card is worth more than this Tire Shot."
    )


def test_a_dragon_hint_names_mille_bornes_cards_in_the_games_language() -> None:
    """With French card names the reason names Mille Bornes cards in French, as the hand does.
    Before the fix: 'Spare Tire is the Mille Bornes card you need least'."""
    assert _dragon_why("discard spare-tire", names="fr") == (
        f"{Card.SPARE_TIRE.name_in('fr')} is the Mille Bornes card you need least."
    )
    assert _dragon_why("play go", names="fr") == f"{Card.GO.name_in('fr')} lets you start driving."


def test_a_dragon_hint_names_a_finishing_distance_card_in_the_games_language() -> None:
    """With French card names a distance card that finishes the race is named as its button
    names it. Before the fix: '50 miles takes you to exactly 1000 and wins'."""
    miles = ["200", "200", "100", "100", "100", "100", "100", "50"]
    assert _dragon_why("play 50", names="fr", battle=["go"], miles=miles) == (
        f"{Card.D50.name_in('fr')} takes you to exactly 1000 and wins."
    )


def test_a_dragon_hint_says_what_a_safety_clears_or_guards_against() -> None:
    """A safety names the hazard it clears on you, or the hazards it keeps off you, and that
    it gives the Mille Bornes move back. Before the fix: 'Right of Way protects you for good'."""
    hand = ["right-of-way", "driving-ace", "50"]
    state = start(mb=[hand, ()], seats=2)
    state = rig(state, 0, battle=["go", "stop"])
    view = GAME.private_view(state, 0)
    report = SearchReport(move="play right-of-way", candidates=["play right-of-way"])
    assert explain(view, "play right-of-way", report) == (
        "Right of Way clears the Stop on you for good and gives you your Mille Bornes move back."
    )
    state = rig(state, 0, battle=[])
    view = GAME.private_view(state, 0)
    assert explain(view, "play right-of-way", report) == (
        "Right of Way keeps Stop and Speed Limit off you for good and gives you your Mille "
        "Bornes move back, and you can drive without a Go."
    )
    assert explain(view, "play driving-ace", report) == (
        "Driving Ace keeps Accident (and skids) off you for good and gives you your Mille "
        "Bornes move back."
    )


def test_a_dragon_hint_for_a_coup_fourre_gives_no_move_back() -> None:
    """Out of turn a safety is a coup fourré, which gives no move, turn or draw: the reason
    says what it clears and no more. Before the fix it said the coup fourré "gives you your
    Mille Bornes move back"."""
    state = start(mb=[["stop"], ["right-of-way"]], seats=2)
    state = rig(state, 1, battle=["go"])
    state = GAME.apply(state, 0, GAME.parse_action("play stop @1"))
    view = GAME.private_view(state, 1)
    report = SearchReport(move="play right-of-way", candidates=["play right-of-way"])
    assert explain(view, "play right-of-way", report) == (
        "Right of Way clears the Stop on you for good."
    )


def test_a_hint_to_let_a_shot_pass_calls_the_cards_kept_reactions() -> None:
    """Armor and dodges are reactions, as the game's "No reaction" button calls them."""
    view = GAME.private_view(GAME.new_game(["A", "B"], 4, {}), 0)
    report = SearchReport(move="pass", candidates=["pass"])
    assert explain(view, "pass", report).startswith("your reactions are worth more kept")


def test_a_dragon_hint_to_drop_the_tank_names_it_in_the_games_language() -> None:
    """Dropping the Extra Tank names it as the game does. Before the fix it was always
    'Extra Tank', whatever the ``names`` option."""
    assert _dragon_why("drop tank", names="fr", safeties=["extra-tank"]) == (
        f"without the {Card.EXTRA_TANK.name_in('fr')} on, a flame that reaches your driver "
        "cannot kill you outright."
    )


def test_backfire_hint_names_the_shooter_without_a_possessive() -> None:
    """The backfire's reason names the shooter without "'s", which reads well for any seat
    name (a computer's "Computer (normal)'s front" did not)."""
    state = start(cw=[["ac-left"], ["backfire"]])
    state = GAME.apply(state, 0, GAME.parse_action("ac-left @1"))
    view = GAME.private_view(state, 1)
    assert "backfire" in view.legal, view.legal
    why = explain(view, "backfire", SearchReport(move="backfire", candidates=["backfire"]))
    assert f"{state.players[0]} takes its hits on the front" in why, why


def _attack_why(move: str, names: str = "en", **bob: Any) -> str:
    """The hint's reason for Ann's Car Wars ``move`` at the start of a three-car game, with
    Bob's car (seat 1) rigged as ``bob``."""
    shots = ["tire-shot", "mg-front", "flame-left", "called-shot", "jam"]
    state = start(cw=[shots, (), ()], seats=3, names=names)
    state = rig(state, 1, **bob)
    view = GAME.private_view(state, 0)
    assert move in view.legal, view.legal
    return explain(view, move, SearchReport(move=move, candidates=[move]))


@pytest.mark.parametrize(
    ("move", "bob", "why"),
    [
        # Before the fix every aimed shot 'does the most harm for the risk', this one too.
        (
            "tire-shot @1",
            {"tires": 9},
            "Tire Shot on Bob does no harm, as their tires are already shot out: it only gets "
            "the card out of your hand.",
        ),
        (
            "tire-shot @1",
            {"tires": 7},
            "Tire Shot on Bob can shoot out their tires: they cannot drive again without a "
            "Spare Tire.",
        ),
        (
            "flame-left @1",
            {"fireproof": True},
            "Flamethrower on Bob does no harm: their Fireproof Armor stops the flames.",
        ),
        (
            "flame-left @1",
            {"fireproof": True, "hits": [0, 0, 12, 0], "driver": 4},
            "Flamethrower on Bob does no harm: their Fireproof Armor stops the flames.",
        ),
        (
            "flame-left @1",
            {"fireproof": True, "safeties": ["extra-tank"]},
            "Flamethrower on Bob can only burn their Extra Tank: their Fireproof Armor stops "
            "the flames.",
        ),
        # Hits past a breach go to the driver: the reason says so, and when they can kill.
        (
            "mg-front @1",
            {"hits": [12, 0, 0, 0], "driver": 3},
            "Machine Gun on Bob goes through their breached front: it can kill the driver.",
        ),
        (
            "called-shot @1 back",
            {"hits": [0, 12, 0, 0]},
            "Called Shot on Bob goes through their breached back: it can put 4 hits on the driver.",
        ),
        (
            "mg-front @1",
            {"hits": [11, 0, 0, 0]},
            "Machine Gun on Bob can breach their front and put 2 hits on the driver.",
        ),
        (
            "flame-left @1",
            {"hits": [0, 0, 11, 0], "safeties": ["extra-tank"]},
            "Flamethrower on Bob can breach their left and reach the driver with their Extra "
            "Tank on, which explodes and kills them.",
        ),
        # Before the fix a jam, which is no shot, 'does the most harm for the risk'.
        (
            "jam @1",
            {},
            "Machine Gun Jams silences the machine guns of Bob until they play Repairs or "
            "discard their whole Car Wars hand.",
        ),
        # A shot that lands on a whole side or whole tires keeps the usual reason.
        ("mg-front @1", {}, "Machine Gun on Bob does the most harm for the risk."),
        ("tire-shot @1", {"tires": 3}, "Tire Shot on Bob does the most harm for the risk."),
    ],
)
def test_a_dragon_hint_to_shoot_says_what_the_shot_can_do_to_that_car(
    move: str, bob: dict[str, Any], why: str
) -> None:
    """An aimed Car Wars shot's reason is true of the target car: no harm where its tires are
    shot out or Fireproof Armor stops the flames, the driver named where hits go past a
    breach."""
    assert _attack_why(move, **bob) == why


def test_a_dragon_hint_to_shoot_names_mille_bornes_cards_in_the_games_language() -> None:
    spare, tank = Card.SPARE_TIRE.name_in("fr"), Card.EXTRA_TANK.name_in("fr")
    assert _attack_why("tire-shot @1", names="fr", tires=8).endswith(f"without a {spare}.")
    why = _attack_why("flame-left @1", names="fr", fireproof=True, safeties=["extra-tank"])
    assert f"burn their {tank}:" in why

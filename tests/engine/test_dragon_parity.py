"""Dragon Mille Bornes plays every seeded game exactly as it did before its playouts were made
faster.

``tests/engine/dragon_parity.json`` was recorded from the code before that work (run this
module as a script with ``--record`` to record it again, only when a change of play is
intended). For seeds 0 to 29 and 2 to 6 cars, uniformly random and "prefer plays" games
(``test_dragon_playouts.prefer_plays``), it keeps a digest of every legal list offered, of the
saved state and a seat's view every 40 moves and at the end, and the number of moves. The
games go through ``apply``; a few go through ``apply_in_place`` (the expert's rollouts) and
must end the same.
"""

from __future__ import annotations

import copy
import hashlib
import json
import pickle
import random
import sys
from dataclasses import FrozenInstanceError, fields
from pathlib import Path

import pytest

from bot.engine.dragon import GAME, moves
from bot.engine.dragon.cards import CW_ORDER, TIRE_TRACK, full_cw_deck
from bot.engine.dragon.notation import DROP_TANK, END, Action
from bot.engine.dragon.rules import apply_in_place
from bot.engine.dragon.state import NONE_OF, ONE_OF, Car, DragonState, HandFact, new_fact
from bot.engine.dragon.table import moving
from bot.engine.dragon.views import CarView, DragonPublicView
from bot.engine.mille.cards import Card
from bot.engine.mille.rules import can_go
from bot.engine.mille.state import BattleMark
from tests.engine.test_dragon_playouts import prefer_plays

FIXTURE = Path(__file__).with_name("dragon_parity.json")
SEEDS = range(30)
SEATS = range(2, 7)


def fingerprint(seats: int, seed: int, uniform: bool, in_place: bool = False) -> str:
    """The digest of one seeded game: every legal list, the state now and then, the end."""
    options = {"oil_slick": "on" if seed % 2 else "off"}
    if seed % 5 == 4:
        options["deck"] = "modern"
    rng = random.Random(seed * 10 + seats)
    state = GAME.new_game([f"P{i}" for i in range(seats)], seed, options)
    digest = hashlib.sha256()
    moves = 0
    while GAME.outcome(state) is None:
        seat = rng.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal_actions(state, seat)
        digest.update(repr(legal).encode())
        action = rng.choice(legal) if uniform else prefer_plays(state, seat, legal, rng)
        if in_place:
            apply_in_place(state, seat, action)
        else:
            state = GAME.apply(state, seat, action)
        moves += 1
        if moves % 40 == 0:
            digest.update(json.dumps(GAME.to_dict(state), sort_keys=True).encode())
            if GAME.outcome(state) is None:
                digest.update(repr(GAME.private_view(state, min(GAME.to_act(state)))).encode())
    digest.update(json.dumps(GAME.to_dict(state), sort_keys=True).encode())
    digest.update(repr(GAME.public_view(state)).encode())
    return f"{moves}:{digest.hexdigest()[:16]}"


def _key(seats: int, seed: int, uniform: bool) -> str:
    return f"{seats}/{seed}/{'uniform' if uniform else 'plays'}"


def record() -> dict[str, str]:
    return {
        _key(seats, seed, uniform): fingerprint(seats, seed, uniform)
        for seats in SEATS
        for seed in SEEDS
        for uniform in (False, True)
    }


def _fixture() -> dict[str, str]:
    data: dict[str, str] = json.loads(FIXTURE.read_text())
    return data


@pytest.mark.parametrize("seats", SEATS)
def test_seeded_games_play_as_recorded(seats: int) -> None:
    """Every seeded game offers the same menus, reaches the same states and ends the same."""
    expected = _fixture()
    for seed in SEEDS:
        for uniform in (False, True):
            key = _key(seats, seed, uniform)
            assert fingerprint(seats, seed, uniform) == expected[key], key


def test_apply_in_place_plays_as_recorded() -> None:
    """The rollouts' ``apply_in_place`` plays the same games as ``apply``."""
    expected = _fixture()
    for seats, seed, uniform in [(2, 3, False), (4, 7, True), (6, 0, False), (6, 11, True)]:
        key = _key(seats, seed, uniform)
        assert fingerprint(seats, seed, uniform, in_place=True) == expected[key], key


def _states(games: int) -> list[DragonState]:
    """Every state of a few seeded "prefer plays" games, 2 to 6 cars."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.new_game([f"P{i}" for i in range(2 + seed % 5)], seed, {"oil_slick": "on"})
        while GAME.outcome(state) is None:
            found.append(state)
            seat = rng.choice(sorted(GAME.to_act(state)))
            state = GAME.apply(
                state, seat, prefer_plays(state, seat, GAME.legal_actions(state, seat), rng)
            )
        found.append(state)
    return found


def test_moving_agrees_with_can_go() -> None:
    """``moving`` (read the fast way) says what ``can_go`` and the Car Wars damage say, for
    every car of a few playouts, battle piles marked as the classic game marks them included."""
    checked = 0
    for state in _states(6):
        for car in state.cars:
            for mark in BattleMark:
                car.mb.battle_mark = mark
                want = car.alive and can_go(car.mb) and car.tires < TIRE_TRACK and not car.skidded
                assert moving(car) == want
                checked += want
            car.mb.battle_mark = BattleMark.TOP
    assert checked > 1000


def test_clones_copy_every_field() -> None:
    """The fast clones (field by field) copy every field, sharing no list with the original."""
    state = next(s for s in reversed(_states(1)) if s.pending is not None)
    copy = state.clone()
    assert copy.own is None and state.fork().own == [False] * len(state.cars)
    for name in (f.name for f in fields(DragonState) if f.name != "own"):
        assert getattr(copy, name) == getattr(state, name), name
    assert copy.pending is not state.pending
    for car, twin in zip(state.cars, copy.cars, strict=True):
        assert twin is not car
        for name in (f.name for f in fields(Car)):
            value = getattr(car, name)
            assert getattr(twin, name) == value, name
            assert not isinstance(value, list) or getattr(twin, name) is not value, name
    assert GAME.to_dict(copy) == GAME.to_dict(state)


def test_fast_views_are_the_views_their_constructors_make() -> None:
    """The views filled at once (not through the frozen dataclasses' constructors) have every
    field and nothing else: the constructors accept them and make equal views."""
    public_fields = {f.name for f in fields(DragonPublicView)}
    car_fields = {f.name for f in fields(CarView)}
    for state in _states(3)[::7]:
        public = GAME.public_view(state)
        assert vars(public).keys() == public_fields
        assert DragonPublicView(**vars(public)) == public
        for car in public.cars:
            assert vars(car).keys() == car_fields
            assert CarView(**vars(car)) == car


def test_fast_hand_facts_are_the_facts_the_constructor_makes() -> None:
    """``new_fact`` (slots filled directly) makes the fact ``HandFact`` makes: equal, same hash
    and words, and as frozen."""
    for kind, codes, cards in [(NONE_OF, ("swerve", "spin"), 4), (ONE_OF, ("armor-front",), 1)]:
        fast, made = new_fact(kind, codes, cards), HandFact(kind, codes, cards)
        assert fast == made and hash(fast) == hash(made) and repr(fast) == repr(made)
        assert fast.excludes == made.excludes
        with pytest.raises(FrozenInstanceError):
            fast.cards = 0  # type: ignore[misc]


def test_to_act_names_the_seat_a_window_waits_for_even_off_the_table() -> None:
    """``to_act`` hands out shared sets for the seats at a table, and names any other seat a
    damaged save might hold as before (never another seat's set)."""
    state = next(s for s in _states(2) if s.pending is not None and len(s.pending.waiting) == 0)
    assert state.pending is not None
    for actor in (-1, 0, 1, 5, 6, 9):
        state.pending.actor = actor
        assert GAME.to_act(state) == frozenset((actor,))


def _readable_discards(hand: list[str]) -> tuple[tuple[str, ...], ...]:
    """Every distinct proper, non-empty choice of cards from ``hand`` in card order, fewest
    cards first, then by the positions they take in the sorted hand."""
    ordered = sorted(hand, key=CW_ORDER.__getitem__)
    choices: dict[tuple[str, ...], tuple[int, ...]] = {}
    for mask in range(1, (1 << len(ordered)) - 1):
        picked = tuple(i for i in range(len(ordered)) if mask >> i & 1)
        cards = tuple(ordered[i] for i in picked)
        choices[cards] = min(choices.get(cards, picked), picked)
    return tuple(sorted(choices, key=lambda cards: (len(cards), choices[cards])))


def test_discards_are_every_choice_and_only_small_ones_are_kept() -> None:
    """The Car Wars discards offered are every distinct choice of held cards, whether made
    before or not; only the small ones are kept for reuse (so the kept ones stay few)."""
    moves._SMALL_DISCARDS.clear()
    moves._discards_of.cache_clear()
    deck = full_cw_deck(True)
    rng = random.Random(5)
    for _ in range(300):
        hand = rng.sample(deck, rng.randint(1, 6))
        listed = moves._cw_discards(hand)
        assert listed[-1].verb == "cw-discard-all"
        assert all(a.verb == "cw-discard" for a in listed[:-1])
        assert tuple(a.cards for a in listed[:-1]) == _readable_discards(hand)
        assert all(len(cards) <= moves._SMALL for cards in moves._SMALL_DISCARDS)
    moves._discards_of.cache_clear()


def test_turn_menus_behave_as_the_lists_of_their_actions() -> None:
    """A turn menu that makes its discards on demand answers as the list of the same actions
    (the plays, every discard in order, then drop-tank and end): length, every index (from
    the end too), slices, ``in``, ``==`` both ways, ``repr``, pickling and copying; it is
    read-only and unhashable, as a list is."""
    menus = 0
    for state in _states(4)[::3]:
        for seat in GAME.to_act(state):
            menu = GAME.legal_actions(state, seat)
            if not isinstance(menu, moves.TurnMenu):
                continue
            menus += 1
            car = state.cars[seat]
            plays = moves.mb_actions(state, seat) if state.mb_left > 0 and car.mb.hand else []
            tail = [DROP_TANK] if Card.EXTRA_TANK in car.mb.safeties else []
            if state.mb_left <= 0 or not car.mb.hand:
                tail.append(END)
            want = [
                *plays,
                *moves.cw_plays(state, seat),
                *moves._cw_discards(car.cw_hand),
                *tail,
            ]
            fresh = GAME.legal_actions(state, seat)  # nothing made yet: indexes work lazily
            assert len(fresh) == len(want)
            assert [fresh[i] for i in range(len(want))] == want
            assert [fresh[-i] for i in range(1, len(want) + 1)] == want[::-1]
            for bad in (len(want), -len(want) - 1):
                with pytest.raises(IndexError):
                    fresh[bad]
            assert menu == want and want == menu and menu == fresh
            assert menu != want[:-1] and want[:-1] != menu and menu != tuple(want)
            assert list(menu) == want and menu[1:4] == want[1:4] and repr(menu) == repr(want)
            assert all(action in menu for action in want) and Action("nope") not in menu
            assert pickle.loads(pickle.dumps(menu)) == want and copy.deepcopy(menu) == want
            with pytest.raises(TypeError):
                hash(menu)
            with pytest.raises(TypeError):
                menu[0] = END  # type: ignore[index]
    assert menus > 50


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("Run with --record to overwrite tests/engine/dragon_parity.json.")
    FIXTURE.write_text(json.dumps(record(), indent=0, sort_keys=True) + "\n")

"""The 1000 Mile Race ``normal`` computer player: legality, key decisions, hidden information,
strength against ``random`` and speed.

Decisions are checked on tables dealt from stacked decks (``tests/engine/race_helpers``), so
each test shows the one situation it is about.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from bot.ai.base import Policy
from bot.ai.race_normal import NormalRacePolicy
from bot.ai.random_policy import RandomPolicy
from bot.arena import run_arena
from bot.engine.race.cards import sort_cards
from bot.engine.race.state import Phase, RaceState
from bot.engine.race.views import RaceSeatView
from bot.games import get_policy, policy_names
from tests.engine.race_helpers import G, act, hazard_on, lay_miles, start

BLUE = ["25", "75", "gasoline", "repairs", "accident", "out-of-gas", "green-light"]
BLUE_CHEATS = ["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"]


def view(state: RaceState, seat: int) -> RaceSeatView:
    seen = G.private_view(state, seat)
    assert isinstance(seen, RaceSeatView)
    return seen


def normal(state: RaceState, seat: int) -> str:
    return NormalRacePolicy().choose(view(state, seat), random.Random(0))


def wandering_states(seeds: Sequence[int]) -> Iterator[tuple[RaceState, int]]:
    """Every decision met while ``normal`` plays ``random`` over one game per seed."""
    policies: list[Policy] = [NormalRacePolicy(), RandomPolicy()]
    for seed in seeds:
        rng = random.Random(seed)
        state: RaceState = G.new_game(["N", "R"], seed=seed)
        while G.outcome(state) is None:
            seat = min(G.to_act(state))
            yield state, seat
            choice = policies[(seat + seed) % 2].choose(view(state, seat), rng)
            state = G.apply(state, seat, G.parse_action(choice))


def test_normal_is_offered_for_the_race() -> None:
    """The race offers the normal and random computer players."""
    assert {"normal", "random"} <= set(policy_names("race"))
    assert isinstance(get_policy("race", "normal"), NormalRacePolicy)


def test_normal_always_chooses_a_legal_action() -> None:
    """Across several games against random, every choice is one of view.legal."""
    policy = NormalRacePolicy()
    checked = 0
    for state, seat in wandering_states([1, 2, 3, 4]):
        seen = view(state, seat)
        assert policy.choose(seen, random.Random(checked)) in seen.legal
        checked += 1
    assert checked > 100


def test_normal_finishes_the_race_when_a_card_does_it() -> None:
    """At 900 with a 100 in hand, it plays the 100."""
    state = start(["100", "50", "25", "flat-tire"], BLUE)
    lay_miles(state, 0, ["200", "200", "100", "100", "100", "100", "100"])
    assert normal(state, 0) == "play 100"


def test_normal_plays_a_trump_that_clears_a_hazard() -> None:
    """With an Out of Gas on it and Extra Tank in hand, the trump comes first."""
    state = start(["100", "extra-tank", "gasoline"], BLUE)
    hazard_on(state, 0, "out-of-gas")
    assert normal(state, 0) == "play extra-tank"


def test_normal_clears_what_stops_it() -> None:
    """Stopped by a Flat Tire with a Spare Tire in hand, it plays the Spare Tire."""
    state = start(["100", "spare-tire", "accident"], BLUE)
    hazard_on(state, 0, "flat-tire")
    assert normal(state, 0) == "play spare-tire"


def test_normal_saves_the_tow_truck_when_a_removal_fits() -> None:
    """Against a Red Light it uses Green Light, keeping the Tow Truck."""
    state = start(["100", "tow-truck", "green-light"], BLUE)
    hazard_on(state, 0, "red-light")
    assert normal(state, 0) == "play green-light"


def test_normal_drives_first_and_prefers_big_miles() -> None:
    """Free to move, it plays its biggest miles card before any hazard."""
    state = start(["100", "50", "25", "flat-tire"], BLUE)
    assert normal(state, 0) == "play 100"


def test_normal_plays_the_hazard_the_opponent_cannot_answer() -> None:
    """With every Spare Tire, Tow Truck and Puncture-Proof of Blue's seen, it plays Flat Tire."""
    state = act(start(["100", "flat-tire", "accident"], BLUE), 0, "play 100")
    blue = state.sides[1]
    for card in ("spare-tire", "spare-tire", "tow-truck", "tow-truck", "puncture-proof"):
        blue.library.remove(card)
        blue.junkyard.append(card)
    assert normal(state, 0) == "play flat-tire"


def test_normal_takes_a_coup_fourre() -> None:
    """A hazard on it is answered with Coup Fourré."""
    state = act(start(["100", "flat-tire"], BLUE_CHEATS), 0, "play flat-tire")
    assert normal(state, 1) == "react coup-fourre"


def test_normal_keeps_roadblock_for_big_miles() -> None:
    """Roadblock answers a 100 but not a 25."""
    state = act(start(["100", "25"], BLUE_CHEATS), 0, "play 100")
    assert normal(state, 1) == "react roadblock"
    state = act(start(["100", "25"], BLUE_CHEATS), 0, "play 25")
    assert normal(state, 1) == "pass"


def test_normal_jams_a_trump_that_would_clear_its_hazard() -> None:
    """Jammer stops a trump clearing the Out of Gas it laid, and lets Pit Crew pass."""
    state = start(["100", "extra-tank", "pit-crew"], BLUE_CHEATS)
    hazard_on(state, 0, "out-of-gas")
    assert normal(act(state, 0, "play extra-tank"), 1) == "react jammer"
    assert normal(act(state, 0, "play pit-crew"), 1) == "pass"


def test_normal_cycles_weak_cards_when_stuck_and_keeps_its_answers() -> None:
    """Stopped with no fix, it cycles one weak card per type and never an answer card."""
    red = ["75", "25", "50", "accident", "repairs", "jammer", "coup-fourre"]
    state = start(red, ["50", *BLUE[1:]], red_draws=["25"])
    assert state.turn == 0
    hazard_on(state, 0, "flat-tire", "red-light")
    choice = normal(state, 0)
    assert choice.startswith("cycle ")
    cards = choice.split()[1:]
    assert "jammer" not in cards and "coup-fourre" not in cards
    assert len(cards) >= 2


def test_normal_discards_its_weakest_card_at_the_hand_limit() -> None:
    """Over the hand limit it throws away the biggest dead miles card first."""
    state = start(["100", "75", "flat-tire", "accident"], BLUE)
    lay_miles(state, 0, ["200", "200", "100", "100", "100", "100", "100", "50"])
    side = state.sides[0]
    for card in ("gasoline", "repairs", "spare-tire", "green-light"):
        side.library.remove(card)
    side.hand = sort_cards([*side.hand, "gasoline", "repairs", "spare-tire", "green-light"])
    state = act(state, 0, "end")
    assert state.phase is Phase.DISCARD
    assert normal(state, 0) == "discard 100"


def test_normal_cannot_see_hidden_cards() -> None:
    """Dealing the opponent's hand and the libraries again changes neither view nor choice."""
    policy = NormalRacePolicy()
    rng = random.Random(3)
    compared = 0
    for index, (state, seat) in enumerate(wandering_states([7, 8])):
        if index % 4:
            continue
        twin = G.resample_hidden(state, seat, rng)
        assert view(twin, seat) == view(state, seat)
        assert policy.choose(view(twin, seat), random.Random(index)) == policy.choose(
            view(state, seat), random.Random(index)
        )
        compared += 1
    assert compared > 20


def test_normal_beats_random_nine_times_in_ten() -> None:
    """Over 200 games (seeds 1..200, seats rotated) normal wins at least 90 %."""
    result = run_arena("race", ["normal", "random"], games=200, seed=1)
    normal = result["normal"]
    assert isinstance(normal, dict) and normal["win_rate"] >= 0.9

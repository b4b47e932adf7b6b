"""Computer players: the registry, legality everywhere, ``normal``'s key decisions, the arena.

Decisions are checked on tables laid out card by card (``lay_table``) or dealt from a stacked
deck, so each test shows the one situation it is about. The hidden-information tests make sure
``normal`` decides from the seat's private view alone.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Iterator, Sequence

import pytest

from bot.ai.base import Policy
from bot.ai.mille_normal import NormalMillePolicy
from bot.ai.random_policy import RandomPolicy
from bot.arena import run_arena
from bot.engine.core import BadOption
from bot.engine.mille.cards import Card, full_deck
from bot.engine.mille.state import MilleState, Phase, Tableau
from bot.engine.mille.views import MilleSeatView
from bot.games import get_game, get_policy, policy_names
from tests.ai.bsd_style import BsdStylePolicy

GAME = get_game("mille")
C = Card


def seat_view(state: MilleState, seat: int | None = None) -> MilleSeatView:
    view = GAME.private_view(state, state.turn if seat is None else seat)
    assert isinstance(view, MilleSeatView)
    return view


def normal_choice(state: MilleState, seed: int = 0) -> str:
    move: str = get_policy("mille", "normal").choose(seat_view(state), random.Random(seed))
    return move


def play(state: MilleState, text: str) -> MilleState:
    new: MilleState = GAME.apply(state, state.turn, GAME.parse_action(text))
    return new


def lay_table(
    hand: Sequence[Card],
    *,
    battle: Sequence[Card] = (),
    speed: Sequence[Card] = (),
    safeties: Sequence[Card] = (),
    miles: Sequence[Card] = (),
    their_battle: Sequence[Card] = (C.GO,),
    their_speed: Sequence[Card] = (),
    their_safeties: Sequence[Card] = (),
    their_miles: Sequence[Card] = (),
    discard: Sequence[Card] = (),
    deck_left: int | None = None,
    phase: Phase = Phase.ACT,
) -> MilleState:
    """Seat 0 to act with exactly these cards out; everything else is shuffled unseen."""
    state: MilleState = GAME.new_game(["Ann", "Bob"], seed=0)
    pool = full_deck("bsd")
    placed = [
        *hand,
        *battle,
        *speed,
        *safeties,
        *miles,
        *their_battle,
        *their_speed,
        *their_safeties,
        *their_miles,
        *discard,
    ]
    for card in placed:
        pool.remove(card)  # a ValueError here means the layout uses too many of a card
    random.Random(7).shuffle(pool)
    state.tableaus = [
        Tableau(list(hand), list(battle), list(speed), list(safeties), [], list(miles)),
        Tableau(
            pool[:6],
            list(their_battle),
            list(their_speed),
            list(their_safeties),
            [],
            list(their_miles),
        ),
    ]
    rest = pool[6:]
    state.draw_pile = rest if deck_left is None else rest[:deck_left]
    state.discard = list(discard) + ([] if deck_left is None else rest[deck_left:])
    state.turn = 0
    state.phase = phase
    return state


def wandering_states(seeds: Sequence[int]) -> Iterator[MilleState]:
    """Every state met while ``normal`` plays ``random`` over one full match per seed."""
    policies: list[Policy] = [NormalMillePolicy(), RandomPolicy()]
    for seed in seeds:
        rng = random.Random(seed)
        state: MilleState = GAME.new_game(["Ann", "Bob"], seed=seed)
        while GAME.outcome(state) is None:
            yield state
            seat = state.turn
            choice = policies[(seat + seed) % 2].choose(seat_view(state, seat), rng)
            state = GAME.apply(state, seat, GAME.parse_action(choice))


# --- the registry ---------------------------------------------------------------------------


def test_policy_names_lists_every_level_for_mille() -> None:
    """Mille Bornes offers the easy, normal, expert and random computer players."""
    assert policy_names("mille") == ["easy", "expert", "normal", "random"]


def test_get_policy_returns_policies_by_name() -> None:
    """get_policy hands back a policy of the asked name, case and spaces forgiven."""
    assert isinstance(get_policy("mille", " Normal "), NormalMillePolicy)
    assert get_policy("mille", "random").name == "random"


def test_get_policy_rejects_unknown_names_readably() -> None:
    """An unknown policy name is a BadOption sentence naming the choices."""
    with pytest.raises(BadOption, match=r"no computer player called 'genius'.*normal, random"):
        get_policy("mille", "genius")


def test_get_policy_rejects_unknown_games() -> None:
    """An unknown game is a BadOption too, not a KeyError."""
    with pytest.raises(BadOption, match="no game called"):
        get_policy("chess", "random")


# --- legality -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["normal", "random", "bsd-style"])
def test_policies_choose_a_legal_action_everywhere(name: str) -> None:
    """Across the states of several full matches, every choice is one of view.legal."""
    policy = BsdStylePolicy() if name == "bsd-style" else get_policy("mille", name)
    rng = random.Random(5)
    checked = 0
    for state in wandering_states([1, 2, 3]):
        view = seat_view(state)
        assert policy.choose(view, rng) in view.legal
        checked += 1
    assert checked > 300


def test_normal_never_drives_past_the_target() -> None:
    """Every distance normal plays keeps its mileage within the target."""
    policy = NormalMillePolicy()
    for state in wandering_states([4, 5]):
        view = seat_view(state)
        choice = policy.choose(view, random.Random(0))
        if choice.startswith("play ") and (card := Card(choice[5:])).is_distance:
            assert view.public.tableaus[view.seat].mileage + card.miles <= view.public.target


def test_random_policy_is_reproducible_from_its_rng() -> None:
    """The random player draws its choice from the generator it is given, nothing else."""
    view = seat_view(lay_table([C.D25, C.D50, C.D75, C.D100, C.GO, C.STOP, C.GASOLINE]))
    first = [RandomPolicy().choose(view, random.Random(3)) for _ in range(5)]
    assert len(set(first)) == 1
    assert first[0] in view.legal


# --- normal's decisions -----------------------------------------------------------------------


def test_normal_takes_an_offered_coup_fourre() -> None:
    """Hit by an Accident while holding Driving Ace, normal plays it before drawing."""
    deck = [
        *[C.ACCIDENT, C.D25, C.D25, C.D25, C.D25, C.D25],  # Ann
        *[C.GO, C.DRIVING_ACE, C.D50, C.D50, C.D50, C.D50],  # Bob
        *[C.D75, C.D75, C.D75, C.D75, C.D75, C.D75],  # the draw pile, top first
    ]
    state = GAME.new_game(["Ann", "Bob"], seed=0, deck=[card.value for card in deck])
    state = play(state, "discard 75")  # Ann
    state = play(state, "play go")  # Bob
    state = play(state, "play accident")  # Ann
    view = seat_view(state)
    assert view.seat == 1 and view.phase == "draw"
    assert normal_choice(state) == "play driving-ace"


def test_normal_plays_a_remedy_when_stopped() -> None:
    """Out of Gas with Gasoline in hand and nothing to attack with: normal refuels."""
    state = lay_table(
        [C.GASOLINE, C.D100, C.D75, C.D50, C.D25, C.D25, C.GO],
        battle=[C.GO, C.OUT_OF_GAS],
        their_battle=[C.STOP],
    )
    assert normal_choice(state) == "play gasoline"


def test_normal_plays_go_when_a_remedy_is_showing() -> None:
    """With Repairs showing, normal plays its Go to get moving again."""
    state = lay_table(
        [C.GO, C.D100, C.D75, C.D50, C.D25, C.D25, C.END_OF_LIMIT],
        battle=[C.GO, C.ACCIDENT, C.REPAIRS],
        their_battle=[C.STOP],
    )
    assert normal_choice(state) == "play go"


def test_normal_keeps_safeties_when_a_harmless_discard_exists() -> None:
    """Stuck with a useless card to throw away, normal hoards its safeties for coups."""
    hand = [C.EXTRA_TANK, C.PUNCTURE_PROOF, C.DRIVING_ACE, C.GO, C.D100, C.D75, C.D200]
    state = lay_table(hand, battle=[C.STOP], miles=[C.D200, C.D200, C.D100])
    view = seat_view(state)
    assert "discard 200" in view.legal  # a third 200 can never be played
    assert normal_choice(state) == "play go"  # the useful play first...
    stuck = lay_table(
        [C.EXTRA_TANK, C.PUNCTURE_PROOF, C.DRIVING_ACE, C.D100, C.D75, C.D200, C.D50],
        battle=[C.STOP],
        miles=[C.D200, C.D200, C.D100],
    )
    assert normal_choice(stuck) == "discard 200"  # ...and the junk, never a safety


def test_normal_never_discards_a_safety() -> None:
    """Across many states normal never tries to discard a safety."""
    policy = NormalMillePolicy()
    for state in wandering_states([6]):
        choice = policy.choose(seat_view(state), random.Random(0))
        if choice.startswith("discard "):
            assert not Card(choice[8:]).is_safety


def test_normal_cashes_a_safety_before_completing_the_trip() -> None:
    """About to complete the trip, normal plays its safety first (it scores, and gives a turn)."""
    state = lay_table(
        [C.D100, C.EXTRA_TANK, C.D25, C.D25, C.GO, C.GASOLINE, C.REPAIRS],
        battle=[C.GO],
        miles=[C.D200, C.D200, C.D100, C.D100],
    )
    assert normal_choice(state) == "play extra-tank"


def test_normal_plays_the_hazard_the_opponent_cannot_answer() -> None:
    """All six Gasolines are seen: Out of Gas beats a Stop they will answer with a Go."""
    state = lay_table(
        [C.OUT_OF_GAS, C.STOP, C.GASOLINE, C.GASOLINE, C.GASOLINE, C.GASOLINE, C.D25],
        battle=[C.STOP],
        their_battle=[C.GO],
        discard=[C.GASOLINE, C.GASOLINE],
    )
    assert normal_choice(state) == "play out-of-gas"


def test_normal_attacks_before_driving() -> None:
    """With the opponent rolling, a hazard comes before distance."""
    state = lay_table(
        [C.ACCIDENT, C.D100, C.D75, C.D50, C.GO, C.GASOLINE, C.SPARE_TIRE],
        battle=[C.GO],
    )
    assert normal_choice(state) == "play accident"


def test_normal_completes_the_trip_when_it_can() -> None:
    """With exactly the miles left in hand, normal ends the trip instead of attacking."""
    state = lay_table(
        [C.D75, C.ACCIDENT, C.D100, C.D50, C.GO, C.GASOLINE, C.SPARE_TIRE],
        battle=[C.GO],
        miles=[C.D200, C.D100, C.D100, C.D100, C.D75, C.D50],
    )
    assert normal_choice(state) == "play 75"


def test_normal_plays_the_biggest_distance_early() -> None:
    """Far from the target and nothing to attack, normal plays its biggest useful card."""
    state = lay_table(
        [C.D25, C.D50, C.D75, C.D100, C.GO, C.GASOLINE, C.SPARE_TIRE],
        battle=[C.GO],
        their_battle=[C.STOP],
    )
    assert normal_choice(state) == "play 100"


def test_normal_leaves_a_gap_it_can_close() -> None:
    """125 to go with 100, 75 and 50: it plays 75 (then 50), not 100 (leaving a lone 25)."""
    state = lay_table(
        [C.D100, C.D75, C.D50, C.GO, C.GASOLINE, C.SPARE_TIRE, C.REPAIRS],
        battle=[C.GO],
        their_battle=[C.STOP],
        miles=[C.D200, C.D100, C.D100, C.D75, C.D50, C.D50],
    )
    assert normal_choice(state) == "play 75"


def test_normal_keeps_the_safe_trip_when_nobody_presses() -> None:
    """Opponent stopped far behind: normal plays a 100 rather than its first 200."""
    state = lay_table(
        [C.D200, C.D100, C.D50, C.GO, C.GASOLINE, C.SPARE_TIRE, C.REPAIRS],
        battle=[C.GO],
        their_battle=[C.STOP],
    )
    assert normal_choice(state) == "play 100"


def test_normal_discards_a_remedy_whose_safety_it_has() -> None:
    """A Spare Tire is useless behind Puncture Proof: it is the card thrown away."""
    state = lay_table(
        [C.SPARE_TIRE, C.D100, C.D75, C.D50, C.D25, C.GASOLINE, C.REPAIRS],
        battle=[C.STOP],
        safeties=[C.PUNCTURE_PROOF],
        their_battle=[C.STOP],
    )
    assert normal_choice(state) == "discard spare-tire"


def test_normal_extends_when_far_ahead() -> None:
    """Landed on 700 with the opponent stopped at 100 and deck to spare: extend."""
    state = lay_table(
        [C.D100, C.D100, C.D75, C.GO, C.GASOLINE, C.SPARE_TIRE],
        battle=[C.GO],
        miles=[C.D200, C.D100, C.D100, C.D100, C.D100, C.D100],
        their_battle=[C.GO, C.ACCIDENT],
        their_miles=[C.D100],
        phase=Phase.EXTENSION,
    )
    assert normal_choice(state) == "extend yes"


def test_normal_stops_at_700_in_a_close_race() -> None:
    """Landed on 700 with the opponent at 600 and rolling: take the trip bonus now."""
    state = lay_table(
        [C.D100, C.D100, C.D75, C.GO, C.GASOLINE, C.SPARE_TIRE],
        battle=[C.GO],
        miles=[C.D200, C.D100, C.D100, C.D100, C.D100, C.D100],
        their_miles=[C.D200, C.D200, C.D100, C.D100],
        phase=Phase.EXTENSION,
    )
    assert normal_choice(state) == "extend no"


# --- hidden information ---------------------------------------------------------------------


def test_normal_choose_takes_only_the_view_and_an_rng() -> None:
    """The policy's entry point has no way to receive the full game state."""
    params = list(inspect.signature(NormalMillePolicy.choose).parameters)
    assert params == ["self", "view", "rng"]
    assert list(inspect.signature(Policy.choose).parameters) == ["self", "view", "rng"]


def test_normal_cannot_see_the_opponents_hand_or_the_deck_order() -> None:
    """Reshuffling the hidden cards changes nothing the seat sees, nor normal's choice."""
    policy = NormalMillePolicy()
    shuffler = random.Random(11)
    compared = differed = 0
    for index, state in enumerate(wandering_states([7, 8, 9])):
        if index % 3:
            continue
        seat = state.turn
        other = 1 - seat
        twin = state.clone()
        hidden = twin.tableaus[other].hand + twin.draw_pile
        shuffler.shuffle(hidden)
        size = len(twin.tableaus[other].hand)
        twin.tableaus[other].hand = hidden[:size]
        twin.draw_pile = hidden[size:]
        differed += twin.tableaus[other].hand != state.tableaus[other].hand
        view, twin_view = seat_view(state, seat), seat_view(twin, seat)
        assert view == twin_view
        assert policy.choose(view, random.Random(index)) == policy.choose(
            twin_view, random.Random(index)
        )
        compared += 1
    assert compared > 100 and differed > compared // 2


# --- the arena ------------------------------------------------------------------------------


def test_arena_counts_add_up() -> None:
    """A small normal-vs-random arena reports consistent counts and rates."""
    result = run_arena("mille", ["normal", "random"], games=10, seed=1)
    normal, rival = result["normal"], result["random"]
    assert isinstance(normal, dict) and isinstance(rival, dict)
    assert result["games"] == 10 and normal["games"] == rival["games"] == 10
    assert normal["wins"] + rival["wins"] + result["draws"] == 10
    assert normal["win_rate"] == normal["wins"] / 10
    assert float(str(result["mean_moves"])) > 0 and "mean_score" in normal
    assert "mean_hands" in result


def test_arena_rotates_the_seats() -> None:
    """Each policy sits first in every other game, so neither keeps the opening."""
    from bot.arena import seat_policies

    assert seat_policies(["a", "b"], 2, 0) == ["a", "b"]
    assert seat_policies(["a", "b"], 2, 1) == ["b", "a"]
    assert seat_policies(["n", "r"], 6, 1) == ["r", "n", "r", "n", "r", "n"]


def _without_timings(report: dict[str, object]) -> dict[str, object]:
    kept: dict[str, object] = {}
    for key, value in report.items():
        if key == "seconds":
            continue
        if isinstance(value, dict):
            value = {k: v for k, v in value.items() if k != "ms_per_decision"}
        kept[key] = value
    return kept


def test_arena_replays_exactly_from_its_seed() -> None:
    """The same seed gives the same games: only the timings differ."""
    first = run_arena("mille", ["random"], 4, 9, players=2, options={"length": "hand"})
    again = run_arena("mille", ["random"], 4, 9, players=2, options={"length": "hand"})
    assert _without_timings(first) == _without_timings(again)


def test_arena_rejects_unknown_policies() -> None:
    """Naming a policy that does not exist fails before any game is played."""
    with pytest.raises(BadOption):
        run_arena("mille", ["normal", "oracle"], games=1, seed=0)


# --- the fixes of the expert issue: drive, miles are points, safeties kept -------------------


def test_normal_drives_rather_than_discard_a_dead_card() -> None:
    """At 525 against 675 with a dead Repairs (Driving Ace in play), normal drives 100 instead
    of discarding, though 75 is then hard to close: the opponent may finish at any moment."""
    state = lay_table(
        [C.D100, C.REPAIRS, C.D200, C.GASOLINE, C.SPARE_TIRE, C.GO, C.END_OF_LIMIT],
        battle=[C.GO],
        safeties=[C.DRIVING_ACE],
        miles=[C.D200, C.D100, C.D100, C.D75, C.D50],
        their_miles=[C.D200, C.D200, C.D100, C.D75, C.D50, C.D50],
        discard=[C.D75] * 6 + [C.D25] * 6,
    )
    assert normal_choice(state) == "play 100"


def test_normal_rarely_discards_while_it_could_drive() -> None:
    """Over whole matches normal discards with a distance card playable less than once in two
    hands (the frozen pre-fix copy did it about twice a hand)."""
    from tests.ai.mille_normal_old import OldNormalMillePolicy

    counts = []
    for policy in (NormalMillePolicy(), OldNormalMillePolicy()):
        refusals = hands = 0
        for seed in range(20):
            rng = random.Random(seed)
            state = GAME.new_game(["Ann", "Bob"], seed=seed)
            while GAME.outcome(state) is None:
                view = seat_view(state)
                choice = policy.choose(view, rng)
                drive = any(t.startswith("play ") and Card(t[5:]).is_distance for t in view.legal)
                refusals += view.phase == "act" and drive and choice.startswith("discard ")
                state = play(state, choice)
            hands += len(state.results)
        counts.append(refusals / hands)
    assert counts[0] < 0.5 < counts[1]


def test_normal_expects_the_opponent_to_keep_safeties() -> None:
    """Late in a hand normal rates an unseen safety in the opponent's hand well above their
    hand's share of the unseen cards."""
    from bot.ai.mille_normal import _Table
    from bot.ai.mille_seat import view_facts

    state = lay_table(
        [C.D100, C.D75, C.D50, C.STOP, C.GO, C.GASOLINE, C.REPAIRS], battle=[C.GO], deck_left=20
    )
    table = _Table(view_facts(seat_view(state)))
    safety = next(card for card in table.unseen if card.is_safety)
    assert table.p_they_keep(safety) > 2 * table.p_they_hold(safety)


def test_normal_ranks_every_legal_move_with_its_choice_first() -> None:
    """rank() lists each legal move once, normal's own choice first."""
    policy = NormalMillePolicy()
    for state in list(wandering_states([9]))[::11]:
        view = seat_view(state)
        ranked = policy.rank(view)
        assert sorted(ranked) == sorted(view.legal)
        if ranked:
            assert ranked[0] == policy.choose(view, random.Random(0))

"""1000 Mile Race against the engine protocol: setup, saves, leaving, views, hidden cards."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import product

import pytest

from bot.engine.core import BadOption, CorruptSave, IllegalMove
from bot.engine.race import moves
from bot.engine.race.cards import DECK_SIZE, TYPES, deck_counts, full_deck, sort_cards
from bot.engine.race.state import RaceState
from bot.engine.race.views import RacePublicView, RaceSeatView
from bot.games import get_game
from tests.engine.race_helpers import G, act, empty_library, red_first, snapshot, start

BLUE_CHEATS = ["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"]


def test_registered_as_race_for_exactly_two() -> None:
    """The game is registered as 'race', titled 1000 Mile Race, for exactly two players."""
    assert get_game("race") is G
    assert G.info.title == "1000 Mile Race"
    assert (G.info.min_players, G.info.max_players) == (2, 2)
    with pytest.raises(BadOption, match="exactly 2"):
        G.new_game(["A", "B", "C"], seed=1)


def test_the_deck_table_holds_sixty_cards_of_five_types() -> None:
    """The deck data adds up to 60 cards per player with the ruled counts."""
    counts = deck_counts()
    assert DECK_SIZE == 60 == sum(counts.values()) == len(full_deck())
    assert [counts[c] for c in ("25", "50", "75", "100", "200")] == [6, 8, 6, 8, 2]
    assert counts["tow-truck"] == 2 and counts["jammer"] == 1 and counts["right-of-way"] == 1
    assert len(TYPES) == 5


def test_every_game_holds_two_whole_decks() -> None:
    """The census of a new game is two full decks."""
    state = G.new_game(["Ann", "Bob"], seed=4)
    doubled = Counter({code: 2 * n for code, n in deck_counts().items()})
    assert G.census(state) == doubled


def test_a_stacked_deck_cannot_hold_more_copies_than_the_deck() -> None:
    """Three Jammers in one stacked library are refused."""
    with pytest.raises(BadOption, match="only has 1"):
        G.new_game(["A", "B"], seed=1, deck=["jammer", "jammer"])


def test_a_stacked_deck_refuses_unknown_cards() -> None:
    """An unknown card code in a stacked deck is a readable BadOption."""
    with pytest.raises(BadOption, match="not a 1000 Mile Race card"):
        G.new_game(["A", "B"], seed=1, deck=["warp-drive"])


def test_an_option_given_to_the_race_says_it_has_none() -> None:
    """`junction play race --option level=expert` read "1000 Mile Race has no option called
    'level'. Its options: none.", as if a list followed; the race takes no options."""
    with pytest.raises(BadOption) as refused:
        G.resolve_options({"level": "expert"})
    assert str(refused.value) == "1000 Mile Race has no options."
    assert G.resolve_options({}) == {}


def test_same_seed_same_game() -> None:
    """A seed replays exactly, and the cards come from it: another seed deals other cards."""
    assert snapshot(G.new_game(["A", "B"], seed=9)) == snapshot(G.new_game(["A", "B"], seed=9))

    def cards(seed: int) -> list[tuple[list[str], list[str]]]:
        # Not the whole save: it holds the seed itself, which differs whatever the deal.
        return [(side.hand, side.library) for side in G.new_game(["A", "B"], seed=seed).sides]

    assert cards(9) != cards(10)


def test_state_survives_json() -> None:
    """A mid-game state with a pending reaction survives a JSON round trip."""
    state = start(["100", "flat-tire"], BLUE_CHEATS)
    state = act(state, 0, "play flat-tire")
    back = G.from_dict(json.loads(json.dumps(G.to_dict(state))))
    assert snapshot(back) == snapshot(state)
    assert G.to_act(back) == frozenset({1})


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(schema_version=99),
        lambda d: d.pop("sides"),
        lambda d: d["sides"][0].update(hand=["warp-drive"]),
        lambda d: d.update(turn=5),
        lambda d: d.update(phase="react", stack=[]),
        lambda d: d["played"].update(miles="yes"),
    ],
)
def test_damaged_saves_are_refused(damage: object) -> None:
    """Wrong version, missing or unknown fields raise CorruptSave."""
    data = G.to_dict(G.new_game(["A", "B"], seed=2))
    assert callable(damage)
    damage(data)
    with pytest.raises(CorruptSave):
        G.from_dict(data)


def test_garbage_is_not_a_save() -> None:
    """A list is not a saved game."""
    with pytest.raises(CorruptSave):
        G.from_dict([])  # type: ignore[arg-type]


def test_leaving_loses_at_once() -> None:
    """The leaver loses; the other seat wins; leaving again is refused."""
    state = G.leave(G.new_game(["Ann", "Bob"], seed=3), 1)
    outcome = G.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.places == (0, 1)
    with pytest.raises(IllegalMove):
        G.leave(state, 0)


def test_leaving_during_a_window_keeps_every_card() -> None:
    """Cards waiting on the stack go to their owners' junkyards when someone leaves."""
    state = act(start(["100", "flat-tire"], BLUE_CHEATS), 0, "play flat-tire")
    after = G.leave(state, 0)
    assert G.census(after) == G.census(state)
    assert "flat-tire" in after.sides[0].junkyard


def test_outcome_scores_are_the_miles() -> None:
    """Scores are the miles in play; seat details carry them too."""
    state = start(["100"], ["25"])
    state = G.leave(act(state, 0, "play 100"), 1)
    outcome = G.outcome(state)
    assert outcome is not None
    assert outcome.scores == (100, 0)
    assert [dict(d) for d in outcome.seat_details] == [{"miles": 100}, {"miles": 0}]


def test_views_are_frozen_dataclasses_with_the_hand_only_in_private() -> None:
    """The public view shows counts; the private view adds the seat's own hand and legal moves."""
    state = start(["100"], ["25"])
    public = G.public_view(state)
    assert isinstance(public, RacePublicView)
    assert [s.hand_count for s in public.sides] == [8, 7]
    mine = G.private_view(state, 0)
    assert isinstance(mine, RaceSeatView)
    assert list(mine.hand) == state.sides[0].hand and "play 100" in mine.legal
    assert G.private_view(state, 1).legal == () and G.private_view(state, 1).phase == "wait"


def test_public_view_shows_a_pending_reaction() -> None:
    """While Blue may react, the public view names the reactor, the reaction and the stack."""
    state = act(start(["100", "flat-tire"], BLUE_CHEATS), 0, "play flat-tire")
    public = G.public_view(state)
    assert public.phase == "react" and public.reactor == 1 and public.answer == "coup-fourre"
    assert [(c.seat, c.card) for c in public.stack] == [(0, "flat-tire")]
    assert "Waiting for Bob" in public.caption


def test_resampling_keeps_the_card_a_pending_reaction_needs() -> None:
    """Dealing Blue's hidden cards again for Red keeps Blue's Coup Fourré in hand."""
    state = act(start(["100", "flat-tire"], BLUE_CHEATS), 0, "play flat-tire")
    rng = random.Random(1)
    for _ in range(20):
        other = G.resample_hidden(state, 0, rng)
        assert "coup-fourre" in other.sides[1].hand
        assert G.private_view(other, 0) == G.private_view(state, 0)
        assert G.public_view(other) == G.public_view(state)


def test_resampling_changes_only_hidden_cards() -> None:
    """Red's hand stays when resampling for Red; Blue's hand and libraries may change."""
    state = G.new_game(["Ann", "Bob"], seed=5)
    other = G.resample_hidden(state, 0, random.Random(2))
    assert other.sides[0].hand == state.sides[0].hand
    assert sorted(other.sides[0].library) == sorted(state.sides[0].library)
    assert G.census(other) == G.census(state)
    assert snapshot(other) != snapshot(state)


def _brute_force_cycles(hand: list[str]) -> set[tuple[str, ...]]:
    kinds = sorted(set(hand), key=hand.index)
    found = set()
    for counts in product(*(range(hand.count(k) + 1) for k in kinds)):
        cards = [k for k, n in zip(kinds, counts, strict=True) for _ in range(n)]
        if cards:
            found.add(("cycle", *sort_cards(cards)))
    return found


@pytest.mark.parametrize("seed", range(10))
def test_cycles_are_exactly_the_distinct_sub_multisets(seed: int) -> None:
    """The cycle generator matches a brute-force enumeration, without duplicates."""
    rng = random.Random(seed)
    hand = sort_cards(rng.sample(full_deck(), 9))
    made = moves.cycles(hand)
    assert len(made) == len(set(made))
    assert set(made) == _brute_force_cycles(hand)


@pytest.mark.parametrize("seed", range(6))
def test_legal_actions_all_apply_and_others_are_refused(seed: int) -> None:
    """In random positions every listed play applies, and every unlisted play is refused."""
    rng = random.Random(seed)
    state: RaceState = G.new_game(["Ann", "Bob"], seed=seed)
    steps = 0
    while G.outcome(state) is None and steps < 80:
        (seat,) = G.to_act(state)
        listed = G.legal_actions(state, seat)
        for action in listed:
            if action[0] != "cycle":
                G.apply(state, seat, action)
        texts = {G.format_action(a) for a in listed}
        for card in set(state.sides[seat].hand) - {"tow-truck"}:  # listed with its targets
            for verb in ("play", "react", "discard"):
                text = f"{verb} {card}"
                if text not in texts:
                    with pytest.raises(IllegalMove):
                        G.apply(state, seat, (verb, card))
        plays = [a for a in listed if a[0] != "cycle"]
        choice = rng.choice(plays if plays and rng.random() < 0.8 else listed)
        state = G.apply(state, seat, choice)
        steps += 1


def test_every_action_has_a_description() -> None:
    """describe_action gives words for plays, cycles, reactions and ends."""
    state = act(start(["100", "flat-tire", "tow-truck"], BLUE_CHEATS), 0, "play flat-tire")
    assert G.describe_action(state, 1, ("react", "coup-fourre")) == (
        "React with Coup Fourré: cancel the Flat Tire"
    )
    assert G.describe_action(state, 1, ("pass",)) == "No reaction"
    assert G.describe_action(state, 0, ("cycle", "25", "50", "gasoline")).endswith(
        " and draw 2 cards"
    )
    assert G.describe_action(state, 0, ("play", "tow-truck", "accident")).startswith("Tow Truck")


def test_a_cycle_with_the_library_spent_promises_no_draw() -> None:
    """Once the reshuffle is spent and the library empty, a cycle's button says it draws
    nothing (it promised 'draw 2'), and the cycle indeed draws nothing."""
    state = red_first()
    empty_library(state, 0, reshuffled=True)
    cycle = ("cycle", "25", "50", "flat-tire")
    assert G.describe_action(state, 0, cycle) == (
        "Cycle 3 cards (25 miles, 50 miles, Flat Tire): nothing left to draw"
    )
    assert len(G.apply(state, 0, cycle).sides[0].hand) == len(state.sides[0].hand) - 3


def test_pit_crew_with_one_card_left_promises_one_draw() -> None:
    """With the reshuffle spent and one card left in the library, Pit Crew's button says it
    draws one card, as it does."""
    state = red_first()
    side = state.sides[0]
    side.junkyard.extend(side.library[1:])
    del side.library[1:]
    side.reshuffled = True
    assert G.describe_action(state, 0, ("play", "pit-crew")) == "Pit Crew: draw one"
    after = G.apply(state, 0, ("play", "pit-crew"))
    assert len(after.sides[0].hand) == len(side.hand) and not after.sides[0].library

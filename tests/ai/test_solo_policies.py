"""Mille Bornes Solo computer players: registry, legality, deciding from the view, the expert's
key choices, the hint, and the solo arena (library and command line)."""

from __future__ import annotations

import json
import random

import pytest

from bot.__main__ import main
from bot.ai.solo_policies import ExpertSoloPolicy, GreedySoloPolicy, hint, rank_moves
from bot.arena import run_arena
from bot.engine.solo.state import SoloState
from bot.engine.solo.views import SoloSeatView
from bot.games import get_game, get_policy, policy_names
from tests.engine.test_solo_playouts import _swap_hidden
from tests.engine.test_solo_rules import JUNK, QUIET, act, deal

G = get_game("solo")


def view_of(state: SoloState) -> SoloSeatView:
    view = G.private_view(state, 0)
    assert isinstance(view, SoloSeatView)
    return view


def test_solo_has_easy_greedy_expert_and_random() -> None:
    """The registry offers easy, greedy and expert for solo, plus the game-agnostic random."""
    assert policy_names("solo") == ["easy", "expert", "greedy", "random"]
    assert isinstance(get_policy("solo", "expert"), ExpertSoloPolicy)
    assert isinstance(get_policy("solo", "greedy"), GreedySoloPolicy)


def test_greedy_plays_the_first_legal_pair() -> None:
    """greedy plays the first move in the engine's fixed order."""
    s = G.new_game(["Ann"], seed=4, options={"preset": "easy"})
    view = view_of(s)
    assert get_policy("solo", "greedy").choose(view, random.Random(0)) == view.legal[0]


@pytest.mark.parametrize("name", ["greedy", "expert"])
@pytest.mark.parametrize(("preset", "seed"), [("classic", 1), ("refuel", 2), ("easy", 3)])
def test_policies_play_whole_games_legally(name: str, preset: str, seed: int) -> None:
    """Every choice is one of the legal moves, from the first to the last move."""
    policy = get_policy("solo", name)
    rng = random.Random(seed)
    s = G.new_game(["Ann"], seed=seed, options={"preset": preset})
    while G.outcome(s) is None:
        view = view_of(s)
        move = policy.choose(view, rng)
        assert move in view.legal
        s = G.apply(s, 0, G.parse_action(move))


@pytest.mark.parametrize("seed", range(6))
def test_expert_decides_from_the_view_only(seed: int) -> None:
    """Two games that differ only in hidden cards get the same choice from the same rng."""
    rng = random.Random(seed)
    s = G.new_game(["Ann"], seed=seed, options={"preset": "easy"})
    for _ in range(rng.randrange(1, 15)):
        after = G.apply(s, 0, rng.choice(G.legal_actions(s, 0)))
        if G.outcome(after) is not None:
            break  # stay in a running game: a finished one would leave nothing to decide
        s = after
    twin = _swap_hidden(s, rng)
    assert G.to_dict(twin) != G.to_dict(s), "the hidden cards were not moved"
    expert = get_policy("solo", "expert")
    assert view_of(twin) == view_of(s)
    assert expert.choose(view_of(twin), random.Random(7)) == expert.choose(
        view_of(s), random.Random(7)
    )


def test_expert_keeps_claimed_miles_when_a_hand_card_fits() -> None:
    """With a hand 100 and a claimed 100 for a highway 100, the hand card goes in."""
    s = deal([["100", "100"], ["stop"], *QUIET[2:]], ["100", "100", "go", *JUNK[:4]])
    s = act(s, "clear 1 with 100")
    view = view_of(s)
    assert {"clear 1 with 100", "sacrifice 100 on 1"} <= set(view.legal)
    assert get_policy("solo", "expert").choose(view, random.Random(1)) != "sacrifice 100 on 1"


def test_expert_spends_a_safety_not_a_200_on_a_highway_200() -> None:
    """Outside easy a safety is good only for 200s: it takes the 200, the hand 200 stays."""
    s = deal([["200"], ["stop"], *QUIET[2:]], ["200", "extra-tank", "go", *JUNK[:4]])
    move = get_policy("solo", "expert").choose(view_of(s), random.Random(1))
    assert move in ("clear 1 with extra-tank", "clear 2 with go")
    ranked = [m for m, _ in rank_moves(view_of(s), random.Random(1))]
    assert ranked.index("clear 1 with extra-tank") < ranked.index("clear 1 with 200")


def test_rank_moves_lists_every_legal_move_once() -> None:
    """The ranking behind buttons and hints covers every legal move exactly once."""
    s = G.new_game(["Ann"], seed=12, options={"preset": "easy"})
    view = view_of(s)
    ranked = [m for m, _ in rank_moves(view)]
    assert sorted(ranked) == sorted(view.legal)


def test_hint_gives_a_legal_move_and_a_reason() -> None:
    """hint returns one of the legal moves and a sentence, the same each time it is asked."""
    s = G.new_game(["Ann"], seed=12, options={"preset": "easy"})
    move, reason = hint(view_of(s))
    assert move in view_of(s).legal and reason.endswith(".") and len(reason) < 200
    assert hint(view_of(s)) == (move, reason)


def test_hint_after_the_end_says_so() -> None:
    """Once the game is over there is no move to hint."""
    s = G.new_game(["Ann"], seed=1)
    while G.outcome(s) is None:
        s = G.apply(s, 0, G.legal_actions(s, 0)[0])
    assert hint(view_of(s)) == ("", "The game is over.")


def test_solo_arena_measures_a_policy() -> None:
    """The arena plays solo deals, reports wins, cards cleared and miles, and replays."""
    options = {"preset": "easy", "deck": "modern"}
    result = run_arena("solo", ["greedy"], games=3, seed=5, options=options)
    greedy = result["greedy"]
    assert isinstance(greedy, dict) and greedy["games"] == 3
    assert 0 < float(str(result["mean_cleared"])) <= 49
    assert float(str(result["mean_miles"])) >= 0
    again = run_arena("solo", ["greedy"], games=3, seed=5, options=options)
    greedy_again = again["greedy"]
    assert isinstance(greedy_again, dict)
    assert greedy["wins"] == greedy_again["wins"]
    assert result["mean_cleared"] == again["mean_cleared"]


def test_a_solo_deal_not_won_is_no_draw() -> None:
    """`junction arena solo` reported every deal not won as a draw ("draws": 2000 beside 0 wins
    at the classic preset), where a solitaire has nobody to draw with and /history calls such a
    deal lost or played."""
    result = run_arena("solo", ["greedy"], games=3, seed=5, options={"preset": "classic"})
    greedy = result["greedy"]
    assert isinstance(greedy, dict) and (greedy["games"], greedy["wins"]) == (3, 0)
    assert result["draws"] == 0


def test_arena_command_line_prints_solo_json(capsys: pytest.CaptureFixture[str]) -> None:
    """`junction arena solo --policies … --option …` prints the figures as JSON last."""
    code = main(
        [
            "arena",
            "solo",
            "--policies",
            "greedy",
            "--option",
            "preset=refuel",
            "--option",
            "deck=modern",
            "--games",
            "2",
            "--seed",
            "3",
        ]
    )
    last = capsys.readouterr().out.strip().splitlines()[-1]
    data = json.loads(last)
    assert code == 0 and data["games"] == 2
    assert data["options"] == {"preset": "refuel", "deck": "modern"}
    assert "mean_cleared" in data and data["greedy"]["games"] == 2


@pytest.mark.parametrize(
    ("tops", "fits"),
    [
        (["go", "go", "go", "go"], "it fits highways 2, 3 and 4 too,"),
        (["go", "go", "stop", "stop"], "it fits highway 2 too,"),
    ],
)
def test_a_hint_lists_the_other_highways_a_card_fits_in_plain_english(
    tops: list[str], fits: str
) -> None:
    """Before the fix a Stop that fitted three other Gos read 'it fits highway 2 and 3 and 4
    too'."""
    from bot.ai.solo_policies import _public, _reason
    from tests.engine.test_solo_rules import lay

    under = [["100", "100"], ["100", "75"], ["75", "75"], ["50", "50"]]
    highways = [[top, *rest] for top, rest in zip(tops, under, strict=True)]
    s = lay([*highways, ["25"], ["25"], ["25"]], hand=["stop", "50", "50", "75", "75", "25", "25"])
    assert fits in _reason(_public(view_of(s)), "clear 1 with stop")

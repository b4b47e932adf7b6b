"""Mille Bornes: statements of docs/rules/mille.md that a statement-by-statement audit found
without a test of their own (or whose refusal was not checked to leave the game unchanged).

Section names in parentheses are sections of that page. Each test deals stacked hands
(``mille_helpers.start``: seat 0 holds the first six cards, seat 1 the next six, then the
draws in order); seat 0 starts.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.engine.core import IllegalMove
from bot.engine.mille.cards import Card
from bot.engine.mille.rules import why_not_play
from bot.engine.mille.state import MilleState, Phase
from tests.engine.mille_helpers import G, act, start

FILLER = ["75", "75", "75", "50", "50", "50"]


def _refused(s: MilleState, seat: int, move: str, message: str) -> None:
    """``move`` is refused with a sentence containing ``message``, and nothing changes."""
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match=message) as refusal:
        act(s, seat, move)
    assert str(refusal.value).endswith(".")
    assert G.to_dict(s) == before


def _labels(s: MilleState, hand: int, seat: int) -> dict[str, int]:
    return {line.label: line.points for line in s.results[hand].lines[seat]}


# --- the battle pile (Play) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("hazard", "remedy"), [("flat-tire", "spare-tire"), ("accident", "repairs")]
)
def test_go_goes_on_each_remedy(hazard: str, remedy: str) -> None:
    """Go may be laid on a remedy: after Spare Tire or Repairs, a Go gets you driving (Play)."""
    s = start(["go", remedy, "go", "100", *FILLER[:2]], [hazard, *FILLER[:5]], ["25"] * 8)
    s = act(act(s, 0, "play go"), 1, f"play {hazard}")
    s = act(act(s, 0, f"play {remedy}"), 1, "discard 75")
    s = act(act(s, 0, "play go"), 1, "discard 75")
    s = act(s, 0, "play 100")
    assert s.tableaus[0].battle[-2:] == [Card(remedy), Card.GO] and s.tableaus[0].mileage == 100


@pytest.mark.parametrize("hazard", ["flat-tire", "accident"])
def test_go_cannot_cover_a_hazard_other_than_stop(hazard: str) -> None:
    """Go is refused on a Flat Tire or an Accident (only a Stop among the hazards), and the
    refusal changes nothing (Play)."""
    s = start(["go", "go", *FILLER[:4]], [hazard, *FILLER[:5]], ["25"] * 4)
    s = act(act(s, 0, "play go"), 1, f"play {hazard}")
    _refused(s, 0, "play go", "cannot cover it")


@pytest.mark.parametrize("before", [[], ["go"]], ids=["empty pile", "on a go"])
def test_a_remedy_with_no_hazard_to_answer_is_refused(before: list[str]) -> None:
    """Gasoline answers only an Out of Gas: on an empty battle pile or a Go it is refused, and
    nothing changes (Play)."""
    s = start([*before, "gasoline", *FILLER[: 5 - len(before)]], FILLER, ["25"] * 4)
    if before:
        s = act(act(s, 0, "play go"), 1, "discard 75")
    _refused(s, 0, "play gasoline", "only repairs Out of Gas")


# --- the speed pile (Play) -----------------------------------------------------------------


def test_speed_limit_lands_again_once_the_limit_is_lifted() -> None:
    """An End of Limit leaves the opponent unlimited: a new Speed Limit may land on it (Play:
    Speed Limit can hit any opponent who is not already limited)."""
    s = start(
        ["end-of-limit", *FILLER[:5]], ["speed-limit", "speed-limit", *FILLER[:4]], ["25"] * 6
    )
    s = act(act(s, 0, "discard 75"), 1, "play speed-limit")
    s = act(s, 0, "play end-of-limit")
    assert "play speed-limit" in G.private_view(s, 1).legal
    s = act(s, 1, "play speed-limit")
    assert s.tableaus[0].speed == [Card.SPEED_LIMIT, Card.END_OF_LIMIT, Card.SPEED_LIMIT]


# --- every other refusal: a sentence, and the game unchanged --------------------------------


def _bob_limited() -> MilleState:
    """Ann drives under Bob's Speed Limit and holds a 200; her turn, after her draw."""
    s = start(["go", "200", *FILLER[:4]], ["speed-limit", *FILLER[:5]], ["25"] * 4)
    return act(act(s, 0, "play go"), 1, "play speed-limit")


def _ann_may_parry() -> MilleState:
    """Bob's Accident has just landed on Ann, who holds the Driving Ace: she has not drawn."""
    s = start(["go", "driving-ace", *FILLER[:4]], ["accident", *FILLER[:5]], ["25"] * 4)
    return act(act(s, 0, "play go"), 1, "play accident")


def _ann_parry_declined() -> MilleState:
    """As ``_ann_may_parry``, but Ann chose to draw: she now plays or discards."""
    return act(_ann_may_parry(), 0, "draw")


def _ann_at_700() -> MilleState:
    """Ann has just landed on 700 and must answer the extension question."""
    s = start(["go", "100", *FILLER[:4]], FILLER, ["25"] * 4)
    s = act(act(s, 0, "play go"), 1, "discard 75")
    s.tableaus[0].miles = [Card.D100] * 6
    return act(s, 0, "play 100")


def _ann_with_right_of_way() -> MilleState:
    """Ann has Right of Way in front of her; Bob holds a Stop, a Speed Limit and an Accident."""
    s = start(
        ["right-of-way", *FILLER[:5]],
        ["stop", "speed-limit", "accident", *FILLER[:3]],
        ["25"] * 4,
    )
    return act(s, 0, "play right-of-way", "discard 75")


def _ann_stopped_under_right_of_way() -> MilleState:
    """Ann has Right of Way and an Accident showing; Bob holds a Flat Tire."""
    s = start(["right-of-way", *FILLER[:5]], ["accident", "flat-tire", *FILLER[:4]], ["25"] * 6)
    s = act(act(s, 0, "play right-of-way", "discard 75"), 1, "play accident")
    return act(s, 0, "discard 75")


REFUSALS: list[tuple[str, Callable[[], MilleState], int, str, str]] = [
    # (what, position, seat, move, part of the sentence)
    ("200 under a limit", _bob_limited, 0, "play 200", "only 25 and 50"),
    ("discarding a safety", _ann_parry_declined, 0, "discard driving-ace", "never be discarded"),
    ("a second draw", _ann_parry_declined, 0, "draw", "already drawn"),
    ("a discard before drawing", _ann_may_parry, 0, "discard 75", "Draw a card first"),
    ("another card before drawing", _ann_may_parry, 0, "play 75", "only play the safety"),
    ("a play before the extension answer", _ann_at_700, 0, "discard 75", "decide on the exten"),
    ("Stop on Right of Way", _ann_with_right_of_way, 1, "play stop", "protected against Stop"),
    ("Speed Limit on Right of Way", _ann_with_right_of_way, 1, "play speed-limit", "cannot be"),
    ("a hazard on a hazard", _ann_stopped_under_right_of_way, 1, "play flat-tire", "not moving"),
]


@pytest.mark.parametrize(
    ("position", "seat", "move", "message"),
    [case[1:] for case in REFUSALS],
    ids=[case[0] for case in REFUSALS],
)
def test_a_refusal_is_a_sentence_and_changes_nothing(
    position: Callable[[], MilleState], seat: int, move: str, message: str
) -> None:
    """Each refusal of the page (Play, Coup fourré, The trip) says why in a sentence and
    leaves the game exactly as it was: distance over 50 under a limit, a safety thrown away, a
    second draw, anything but the parrying safety before drawing, a move before the extension
    is answered, Stop or Speed Limit on Right of Way, a hazard on another hazard even under
    Right of Way."""
    _refused(position(), seat, move, message)


# --- safeties (Play) -----------------------------------------------------------------------


def test_a_safety_with_the_deck_empty_gives_another_turn_without_a_draw() -> None:
    """Once the deck is empty, a safety still earns a further turn; there is just no draw
    (Play, Deck empty)."""
    s = start(["extra-tank", "go", *FILLER[:4]], ["100"] * 6, ["75"])
    assert not s.draw_pile and len(s.tableaus[0].hand) == 7
    s = act(s, 0, "play extra-tank")
    assert s.turn == 0 and s.phase is Phase.ACT and len(s.tableaus[0].hand) == 6
    assert s.tableaus[0].safeties == [Card.EXTRA_TANK] and s.hand_number == 1


def test_a_safety_protects_for_the_hand_only() -> None:
    """A safety guards its player for the rest of the hand: it scores in that hand, and the
    next hand starts with no safety in front of anyone (Play: safeties protect you for the
    rest of the hand)."""
    s = start(["extra-tank", *FILLER[:5]], ["100"] * 6, ["75", "75"])
    s = act(s, 0, "play extra-tank")  # the extra turn draws the last card: nobody can play
    assert s.hand_number == 2 and _labels(s, 0, 0)["Safeties ×1"] == 100
    assert [(t.safeties, t.coups) for t in s.tableaus] == [([], []), ([], [])]
    # Ann driving in the new hand can be hit by the Out of Gas her Extra Tank used to stop.
    s.tableaus[0].battle = [Card.GO]
    assert why_not_play(s, 1, Card.OUT_OF_GAS) is None


# --- the trip and scoring (The trip, Scoring) ----------------------------------------------


def test_the_other_player_completing_the_extended_trip_takes_the_bonuses() -> None:
    """After Ann calls the extension, Bob reaching 1000 first completes the trip: he earns the
    trip's 400 and the extension's 200, and Ann, who landed on 700, earns no bonus (The trip,
    Scoring: only the player who completed the trip adds them)."""
    s = start(["go", "100", *FILLER[:4]], ["go", "100", *FILLER[:4]], ["25"] * 8)
    s = act(act(s, 0, "play go"), 1, "play go")
    s.tableaus[0].miles = [Card.D100] * 6
    s.tableaus[1].miles = [Card.D200, Card.D200, *[Card.D100] * 5]
    s = act(act(s, 0, "play 100", "extend yes"), 1, "play 100")
    assert s.hand_number == 2
    assert _labels(s, 0, 1) == {"Milestones": 1000, "Trip completed": 400, "Extension": 200}
    assert _labels(s, 0, 0) == {"Milestones": 700}


def test_after_an_extension_distance_may_not_pass_1000() -> None:
    """Once the trip is 1000 miles, no card may take you past 1000: 100 at 950 is refused with
    a sentence and nothing changes, while 50 completes the trip (The trip, Play)."""
    s = start(["go", "100", "100", "50", *FILLER[:2]], FILLER, ["25"] * 8)
    s = act(act(s, 0, "play go"), 1, "discard 75")
    s.tableaus[0].miles = [Card.D100] * 6
    s = act(act(s, 0, "play 100", "extend yes"), 1, "discard 75")
    s.tableaus[0].miles = [*[Card.D100] * 8, Card.D75, Card.D75]
    _refused(s, 0, "play 100", "past 1000 miles")
    s = act(s, 0, "play 50")
    assert s.hand_number == 2 and _labels(s, 0, 0)["Extension"] == 200


def test_a_single_hand_with_equal_scores_is_a_draw() -> None:
    """With ``length: hand`` the higher hand score wins, so equal hand scores are a draw
    (Options)."""
    s = start(["go", *FILLER[:5]], ["100"] * 6, ["75"], length="hand")
    s = act(s, 0, "discard go")  # the deck is empty and nobody can play: 0 to 0
    outcome = G.outcome(s)
    assert outcome is not None and outcome.scores == (0, 0)
    assert outcome.is_draw and outcome.winners == ()


# --- the match (Play, Rulings: Leaving) -----------------------------------------------------


def _end_the_hand(s: MilleState) -> MilleState:
    """Play the current hand out with each seat's last legal move (discards come last)."""
    number = s.hand_number
    while s.hand_number == number and G.outcome(s) is None:
        seat = s.turn
        s = G.apply(s, seat, G.legal_actions(s, seat)[-1])
    return s


def test_the_first_player_keeps_alternating_hand_by_hand() -> None:
    """Who goes first switches with every new hand: Ann, then Bob, then Ann again (Play)."""
    s = start(["go", *FILLER[:5]], ["100"] * 6, ["75"])
    s = act(s, 0, "discard go")
    assert (s.hand_number, s.first_player) == (2, 1)
    s = _end_the_hand(s)
    assert (s.hand_number, s.first_player, s.turn) == (3, 0, 0)


def _second_hand(hand0: list[str], seed: int) -> tuple[list[Card], list[Card], list[Card]]:
    """The deal of hand 2 after a stacked hand 1 that ends at once (deck empty, no play)."""
    deck = [*hand0, *["100"] * 6, "75"]
    s = act(G.new_game(["Ann", "Bob"], seed=seed, deck=deck), 0, "discard go")
    assert s.hand_number == 2
    return (s.tableaus[0].hand, s.tableaus[1].hand, s.draw_pile)


def test_later_hands_are_shuffled_from_the_match_seed_and_the_hand_number() -> None:
    """A stacked deck deals only the first hand: the next one is shuffled from the match seed
    and the hand number, whatever the stacked cards were (Rulings: Stacked decks)."""
    first = _second_hand(["go", *FILLER[:5]], seed=1)
    assert _second_hand(["go", "25", "25", "25", "50", "50"], seed=1) == first
    assert _second_hand(["go", *FILLER[:5]], seed=2) != first
    assert sum(map(len, first)) == 101  # hand 2 is dealt from a whole deck


def test_leaving_loses_the_match_and_the_scores_stand() -> None:
    """A player who resigns loses the match at once, and the match scores stay as they were
    (Rulings: Leaving)."""
    s = start(["go", *FILLER[:5]], FILLER, ["25"] * 4)
    s.scores = [1200, 800]
    after = G.leave(s, 0)
    outcome = G.outcome(after)
    assert outcome is not None and outcome.winners == (1,) and outcome.scores == (1200, 800)
    assert after.phase is Phase.OVER and G.to_act(after) == frozenset()


def test_leaving_a_finished_match_is_refused() -> None:
    """Once the match is over, leaving it again is refused with a sentence and changes
    nothing."""
    after = G.leave(start(["go", *FILLER[:5]], FILLER, ["25"] * 4), 0)
    before = G.to_dict(after)
    with pytest.raises(IllegalMove, match="already over"):
        G.leave(after, 1)
    assert G.to_dict(after) == before

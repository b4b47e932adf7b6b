"""Rules of docs/rules/mille.md that had no stacked-deck test of their effect: the deck each
hand is dealt from, hazards on a Right of Way holder, a coup fourré against a Stop, the limits
that still hold after an extension, delayed action, the shut-out and the end of a match.
"""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalMove
from bot.engine.mille.cards import Card
from bot.engine.mille.state import MilleState, Phase
from tests.engine.mille_helpers import G, act, deck_counts, start

FILLER = ["75", "75", "75", "50", "50", "50"]
AT_600 = [Card.D100] * 6


def _labels(s: MilleState, seat: int) -> dict[str, int]:
    return {line.label: line.points for line in s.results[0].lines[seat]}


# --- the deck ------------------------------------------------------------------------------


@pytest.mark.parametrize(("deck", "total"), [("bsd", 101), ("modern", 106)])
def test_a_hand_is_dealt_from_every_card_of_the_chosen_deck(deck: str, total: int) -> None:
    """The cards of a dealt hand (hands and draw pile) are the deck's listed counts, card by
    card: 101 for bsd, and one more of each hazard (106) for modern."""
    census = G.census(G.new_game(["Ann", "Bob"], seed=3, options={"deck": deck}))
    assert dict(census) == deck_counts(deck)
    assert sum(census.values()) == total


# --- hazards and safeties ------------------------------------------------------------------


def test_a_hazard_lands_on_right_of_way_with_an_empty_battle_pile() -> None:
    """Right of Way is a permanent Go: a player who has it and no hazard showing is moving, so
    an Accident may land even though no Go was ever played, and it stops them."""
    s = start(["right-of-way", *FILLER[:5]], ["accident", *FILLER[:5]], ["25"] * 8)
    s = act(s, 0, "play right-of-way", "discard 75")
    assert s.tableaus[0].battle == []
    s = act(s, 1, "play accident")
    assert s.tableaus[0].battle == [Card.ACCIDENT]
    with pytest.raises(IllegalMove, match="cannot move"):
        act(s, 0, "play 25")


def test_a_safety_leaves_another_hazard_showing() -> None:
    """A safety removes only its own hazard: Extra Tank laid under a Flat Tire protects against
    Out of Gas but leaves the Flat Tire, and the player still cannot drive."""
    s = start(["go", "extra-tank", "25", *FILLER[:3]], ["flat-tire", *FILLER[:5]], ["25"] * 6)
    s = act(act(s, 0, "play go"), 1, "play flat-tire")
    s = act(s, 0, "play extra-tank")
    me = s.tableaus[0]
    assert me.safeties == [Card.EXTRA_TANK] and me.battle_shows is Card.FLAT_TIRE
    with pytest.raises(IllegalMove, match="cannot move"):
        act(s, 0, "play 25")


def test_right_of_way_parries_a_fresh_stop_as_a_coup_and_you_drive_at_once() -> None:
    """Right of Way before drawing against a Stop that just landed is a coup fourré: the Stop
    goes, and after the two-card draw the player drives in the same turn."""
    s = start(["go", "right-of-way", "25", *FILLER[:3]], ["stop", *FILLER[:5]], ["50"] * 5)
    s = act(act(s, 0, "play go"), 1, "play stop")
    s = act(s, 0, "play right-of-way")
    me = s.tableaus[0]
    assert me.coups == [Card.RIGHT_OF_WAY] and Card.STOP in s.discard
    assert s.turn == 0 and len(me.hand) == 7
    assert act(s, 0, "play 25").tableaus[0].mileage == 25


# --- the extension -------------------------------------------------------------------------


def test_the_player_who_lands_on_700_is_asked_even_when_second_to_play() -> None:
    """Bob, who did not start the hand, lands on 700: the extension question is his."""
    s = start(["go", *FILLER[:5]], ["go", "100", *FILLER[:4]], ["25"] * 6)
    s = act(act(s, 0, "play go"), 1, "play go")
    s = act(s, 0, "discard 75")
    s.tableaus[1].miles = list(AT_600)
    s = act(s, 1, "play 100")
    assert s.phase is Phase.EXTENSION and G.to_act(s) == frozenset({1})
    assert G.legal_actions(s, 0) == []


def test_two_200s_stay_the_limit_after_an_extension() -> None:
    """The extension raises the target, not the 200s allowed: with two 200s already driven, a
    third one is refused at 700 although it would not pass 1000."""
    s = start(["go", "100", "200", *FILLER[:3]], FILLER, ["25"] * 8)
    s = act(act(s, 0, "play go"), 1, "discard 75")
    s.tableaus[0].miles = [Card.D200, Card.D200, Card.D100, Card.D100]
    s = act(act(s, 0, "play 100", "extend yes"), 1, "discard 75")
    assert s.target == 1000 and s.tableaus[0].mileage == 700
    with pytest.raises(IllegalMove, match="two 200s"):
        act(s, 0, "play 200")


def test_landing_on_700_after_an_extension_asks_nothing() -> None:
    """One extension per hand: once Ann has extended, Bob reaching exactly 700 is just miles;
    no question comes and Ann plays next."""
    s = start(["go", "100", *FILLER[:4]], ["go", "50", *FILLER[:4]], ["25"] * 8)
    s = act(act(s, 0, "play go"), 1, "play go")
    s.tableaus[0].miles = list(AT_600)
    s.tableaus[1].miles = [Card.D200, Card.D200, Card.D100, Card.D100, Card.D50]
    s = act(act(s, 0, "play 100", "extend yes"), 1, "play 50")
    assert s.tableaus[1].mileage == 700 and s.phase is Phase.ACT and s.turn == 0
    assert s.completed_by is None and s.hand_number == 1


# --- delayed action and the shut-out -------------------------------------------------------


def test_an_extended_trip_finished_after_the_deck_ran_out_is_delayed_action() -> None:
    """Ann lands on 700 with a card still in the deck and extends; the deck runs out and she
    reaches 1000 afterwards: she scores delayed action with the trip and the extension."""
    s = start(["go", "100", "100", "100", "100", "75"], FILLER, ["25"] * 4)
    s = act(act(s, 0, "play go"), 1, "discard 75")
    s.tableaus[0].miles = list(AT_600)
    s = act(s, 0, "play 100")
    assert s.draw_pile and s.phase is Phase.EXTENSION
    s = act(act(s, 0, "extend yes"), 1, "discard 75")  # Bob draws the last card
    for _ in range(2):
        s = act(act(s, 0, "play 100"), 1, "discard 50")
    s = act(s, 0, "play 100")
    labels = _labels(s, 0)
    assert labels["Delayed action"] == 300 and labels["Extension"] == 200
    assert labels["Milestones"] == 1000


def test_completing_the_trip_after_drawing_the_last_card_is_delayed_action() -> None:
    """Ann's own draw takes the deck's last card and she then lands on 700: the trip was
    completed after the deck ran out."""
    s = start(["go", "100", *FILLER[:4]], FILLER, ["25"] * 3)
    s = act(act(s, 0, "play go"), 1, "discard 75")  # Ann draws the last card
    assert not s.draw_pile and s.turn == 0
    s.tableaus[0].miles = list(AT_600)
    s = act(s, 0, "play 100", "extend no")
    assert _labels(s, 0)["Delayed action"] == 300


def test_no_shut_out_once_the_opponent_has_driven_any_mile() -> None:
    """Bob drove 25 miles: Ann completing the trip earns the trip and safe trip, no shut-out."""
    s = start(["go", "100", *FILLER[:4]], ["go", "25", *FILLER[:4]], ["25"] * 6)
    s = act(act(s, 0, "play go"), 1, "play go")
    s = act(act(s, 0, "discard 75"), 1, "play 25")
    s.tableaus[0].miles = list(AT_600)
    s = act(s, 0, "play 100", "extend no")
    labels = _labels(s, 0)
    assert "Shut-out" not in labels and s.results[0].totals[0] == 700 + 400 + 300


# --- safeties and the match ----------------------------------------------------------------


def test_all_four_safeties_played_in_a_hand_score_300_more() -> None:
    """Ann lays all four safeties, one extra turn after another; the hand then ends (nobody can
    play) and her score sheet shows 400 for the safeties and 300 for all four."""
    s = start(
        ["extra-tank", "puncture-proof", "driving-ace", "right-of-way", "gasoline", "gasoline"],
        ["spare-tire"] * 6,
        ["gasoline", "gasoline", "gasoline", "repairs", "repairs"],
    )
    for safety in ("extra-tank", "puncture-proof", "driving-ace", "right-of-way"):
        s = act(s, 0, f"play {safety}")
    assert s.hand_number == 2
    labels = _labels(s, 0)
    assert labels["Safeties ×4"] == 400 and labels["All four safeties"] == 300


def test_when_both_pass_5000_the_higher_total_wins() -> None:
    """Both players pass 5000 in the same hand: the match goes to the higher total, not to the
    player who crossed first or a draw."""
    s = start(["extra-tank", *FILLER[:5]], ["driving-ace", *["100"] * 5], ["75"] * 3)
    s.scores = [4950, 4960]
    s = act(s, 0, "play extra-tank", "discard 75")
    s = act(s, 1, "play driving-ace")  # nobody can play any more: the hand ends
    outcome = G.outcome(s)
    assert outcome is not None and outcome.scores == (5050, 5060)
    assert outcome.winners == (1,)

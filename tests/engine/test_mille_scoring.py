"""Every scoring line of docs/rules/mille.md (Scoring), checked on hands finished by hand-built
positions.
"""

from __future__ import annotations

from bot.engine.mille.cards import Card
from bot.engine.mille.scoring import score_hand
from bot.engine.mille.state import MilleState
from tests.engine.mille_helpers import start

FILLER = ["75", "75", "75", "50", "50", "50"]


def _position(
    miles0: list[Card],
    miles1: list[Card],
    *,
    safeties0: list[Card] | None = None,
    coups0: list[Card] | None = None,
    completed_by: int | None = None,
    delayed: bool = False,
    extension: bool = False,
) -> MilleState:
    s = start(FILLER, ["25"] * 6, ["25"] * 3)
    s.tableaus[0].miles = miles0
    s.tableaus[1].miles = miles1
    s.tableaus[0].safeties = safeties0 or []
    s.tableaus[0].coups = coups0 or []
    s.completed_by = completed_by
    s.delayed_action = delayed
    s.extension_called = extension
    return s


def _lines(s: MilleState, seat: int) -> dict[str, int]:
    return {line.label.split(" ×")[0]: line.points for line in score_hand(s, "test").lines[seat]}


def test_milestones_score_at_face_value() -> None:
    """Each player scores the miles they put down."""
    s = _position([Card.D100, Card.D75], [Card.D25])
    assert _lines(s, 0)["Milestones"] == 175 and _lines(s, 1)["Milestones"] == 25


def test_each_safety_scores_100() -> None:
    """A played safety is worth 100."""
    s = _position([], [], safeties0=[Card.EXTRA_TANK, Card.DRIVING_ACE])
    assert _lines(s, 0)["Safeties"] == 200


def test_all_four_safeties_score_300_more() -> None:
    """All four safeties add 300 on top of 400."""
    s = _position(
        [],
        [],
        safeties0=[Card.EXTRA_TANK, Card.DRIVING_ACE, Card.PUNCTURE_PROOF, Card.RIGHT_OF_WAY],
    )
    assert _lines(s, 0)["Safeties"] == 400 and _lines(s, 0)["All four safeties"] == 300


def test_each_coup_fourre_scores_300() -> None:
    """A coup fourré adds 300 to the safety's 100."""
    s = _position([], [], safeties0=[Card.EXTRA_TANK], coups0=[Card.EXTRA_TANK])
    assert _lines(s, 0)["Coups fourrés"] == 300 and _lines(s, 0)["Safeties"] == 100


def test_trip_completed_scores_400() -> None:
    """Completing the trip is worth 400."""
    s = _position(
        [Card.D200, Card.D200, Card.D100, Card.D100, Card.D100], [Card.D25], completed_by=0
    )
    assert _lines(s, 0)["Trip completed"] == 400


def test_safe_trip_scores_300_without_200s() -> None:
    """A completed trip without any 200 earns the safe-trip 300."""
    s = _position([Card.D100] * 7, [Card.D25], completed_by=0)
    assert _lines(s, 0)["Safe trip (no 200s)"] == 300


def test_no_safe_trip_with_a_200() -> None:
    """One 200 forfeits the safe-trip bonus."""
    s = _position([Card.D200, *[Card.D100] * 5], [Card.D25], completed_by=0)
    assert "Safe trip (no 200s)" not in _lines(s, 0)


def test_delayed_action_scores_300() -> None:
    """Completing after the deck ran out is worth 300 more."""
    s = _position([Card.D100] * 7, [Card.D25], completed_by=0, delayed=True)
    assert _lines(s, 0)["Delayed action"] == 300


def test_extension_scores_200() -> None:
    """Completing an extended trip of 1000 adds 200."""
    s = _position([Card.D100] * 10, [Card.D25], completed_by=0, extension=True)
    assert _lines(s, 0)["Extension"] == 200


def test_shut_out_scores_500() -> None:
    """Completing the trip while the opponent has no miles is worth 500."""
    s = _position([Card.D100] * 7, [], completed_by=0)
    assert _lines(s, 0)["Shut-out"] == 500


def test_completion_bonuses_only_go_to_the_completer() -> None:
    """The player who did not complete gets no trip, safe-trip, delayed, extension or shut-out."""
    s = _position([Card.D100] * 7, [], completed_by=0, delayed=True, extension=True)
    assert set(_lines(s, 1)) == {"Milestones"}


def test_no_trip_bonuses_when_nobody_completed() -> None:
    """Without a completed trip there are only milestones, safeties and coups."""
    s = _position([Card.D100] * 6, [], safeties0=[Card.EXTRA_TANK])
    assert set(_lines(s, 0)) == {"Milestones", "Safeties"}


def test_a_full_hand_total() -> None:
    """The breakdown adds up: 700 + 100 + 300 + 400 + 300 + 500 = 2300."""
    s = _position(
        [Card.D100] * 7, [], safeties0=[Card.EXTRA_TANK], coups0=[Card.EXTRA_TANK], completed_by=0
    )
    assert score_hand(s, "test").totals == (2300, 0)

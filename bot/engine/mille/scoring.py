"""Scoring one Mille Bornes hand (docs/rules/mille.md, Scoring): milestones, safeties, coups and
trip bonuses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.mille.cards import Card, distance_word
from bot.engine.mille.state import HandResult, ScoreLine

if TYPE_CHECKING:
    from bot.engine.mille.state import MilleState

SAFETY = 100
ALL_FOUR_SAFETIES = 300
COUP_FOURRE = 300
TRIP_COMPLETED = 400
SAFE_TRIP = 300
DELAYED_ACTION = 300
EXTENSION = 200
SHUT_OUT = 500


def score_hand(state: MilleState, reason: str) -> HandResult:
    """The breakdown for both seats; completion bonuses go only to whoever completed the trip."""
    lines = []
    # "Milestones", or with the French names "Bornes", as the distance cards scored are named
    # ("75 bornes"); the sheet said "Milestones +700" under "completed the trip at 700 bornes".
    lang = state.options.get("names", "en")
    driven = "Milestones" if lang != "fr" else distance_word(lang).capitalize()
    for seat, t in enumerate(state.tableaus):
        mine = [ScoreLine(driven, t.mileage)]
        if t.safeties:
            mine.append(ScoreLine(f"Safeties ×{len(t.safeties)}", SAFETY * len(t.safeties)))
        if len(t.safeties) == 4:
            mine.append(ScoreLine("All four safeties", ALL_FOUR_SAFETIES))
        if t.coups:
            mine.append(ScoreLine(f"Coups fourrés ×{len(t.coups)}", COUP_FOURRE * len(t.coups)))
        if state.completed_by == seat:
            mine.append(ScoreLine("Trip completed", TRIP_COMPLETED))
            if Card.D200 not in t.miles:
                mine.append(ScoreLine("Safe trip (no 200s)", SAFE_TRIP))
            if state.delayed_action:
                mine.append(ScoreLine("Delayed action", DELAYED_ACTION))
            if state.extension_called:
                mine.append(ScoreLine("Extension", EXTENSION))
            if state.tableaus[1 - seat].mileage == 0:
                mine.append(ScoreLine("Shut-out", SHUT_OUT))
        lines.append(tuple(mine))
    return HandResult(number=state.hand_number, lines=tuple(lines), reason=reason)

"""Why a 1000 Mile Race play is refused, in a sentence a player can read (None: it is
allowed), and whether the active player has anything left to do.
"""

from __future__ import annotations

from bot.engine.race.cards import (
    ANSWERS,
    CHEAT,
    HAZARD,
    MAX_200S,
    MILES,
    MILES_OF,
    NAME,
    PIT_CREW,
    REACTIONS,
    SLOW_MILES,
    SPEED_TRAP,
    STOPPING_HAZARDS,
    TARGET,
    TOW_TRUCK,
    TRUMP,
    TYPE_OF,
    sort_cards,
)
from bot.engine.race.state import RaceState


def _cleared_by(hazard: str) -> str:
    """The cards that clear ``hazard``, in deck order: "Repairs, Tow Truck or Driving Ace"."""
    names = [NAME[code] for code, answers in ANSWERS.items() if hazard in answers]
    return ", ".join(names[:-1]) + " or " + names[-1]


# A refused miles card says what clears the hazard: a newcomer stopped by an Accident was told
# only that it stopped them. Built once: legal-move checks in playouts refuse miles often.
CLEARED_BY: dict[str, str] = {code: _cleared_by(code) for code in NAME if TYPE_OF[code] == HAZARD}


def why_not_miles(state: RaceState, seat: int, card: str) -> str | None:
    """None if ``seat`` may drive ``card`` now (the play-phase checks aside), else why not."""
    me = state.sides[seat]
    for hazard in me.hazards:
        if hazard in STOPPING_HAZARDS:
            return (
                f"You cannot play miles while {NAME[hazard]} targets you: clear it first with "
                f"{CLEARED_BY[hazard]}."
            )
    if SPEED_TRAP in me.hazards and card not in SLOW_MILES:
        return (
            "You can only play 25 or 50 while a Speed Trap targets you; "
            f"{CLEARED_BY[SPEED_TRAP]} clears it."
        )
    if card == "200" and me.miles.count("200") >= MAX_200S:
        return "You already have two 200s in play; a third is not allowed."
    total = me.total
    if total + MILES_OF[card] > TARGET:
        return (
            f"That would take you past {TARGET} miles (you have {total}); the race ends on "
            f"exactly {TARGET}."
        )
    return None


def why_not_play(state: RaceState, seat: int, card: str, target: str = "") -> str | None:
    """None if the active ``seat`` may play ``card`` (at ``target``) now, else the reason."""
    kind = TYPE_OF[card]
    if card in REACTIONS:
        return f"{NAME[card]} is only played as a reaction, when the game offers it to you."
    if kind in (TRUMP, CHEAT):
        return None
    if state.cycled:
        return "You cycled this turn, so your play phase is over (trumps and Pit Crew still go)."
    if kind == MILES:
        if state.played_miles:
            return "You have already played a miles card this turn (a cancelled one counts too)."
        return why_not_miles(state, seat, card)
    if kind == HAZARD:
        if state.played_hazard:
            return "You have already played a hazard this turn (a cancelled one counts too)."
        return None
    # removals
    if state.played_removal:
        return "You have already played a removal this turn (a cancelled one counts too)."
    mine = state.sides[seat].hazards
    if card == TOW_TRUCK:
        if not mine:
            return "No hazard targets you, so there is nothing for the Tow Truck to remove."
        if not target:
            # The hazards on you, not a made-up example: "e.g. 'play tow-truck on red-light'"
            # was refused in turn ("No Red Light targets you") when none did.
            said = " or ".join(
                f"'play tow-truck on {hazard}'" for hazard in dict.fromkeys(sort_cards(mine))
            )
            return f"Say which hazard the Tow Truck removes: {said}."
        if target not in mine:
            return f"No {NAME[target]} targets you."
        return None
    hazard = ANSWERS[card][0]
    if hazard not in mine:
        return f"{NAME[card]} only removes {NAME[hazard]}, and none targets you."
    return None


def can_cycle(state: RaceState) -> bool:
    return not (state.cycled or state.played_miles or state.played_hazard or state.played_removal)


def has_choice(state: RaceState) -> bool:
    """Has the active player anything to do besides ending the turn?"""
    seat = state.turn
    hand = state.sides[seat].hand
    if not hand:
        return False
    if can_cycle(state):
        return True
    for card in hand:
        if TYPE_OF[card] == TRUMP or card == PIT_CREW:
            return True
    if state.cycled:
        return False
    for card in set(hand):
        if card == TOW_TRUCK:
            if not state.played_removal and state.sides[seat].hazards:
                return True
        elif card not in REACTIONS and why_not_play(state, seat, card) is None:
            return True
    return False

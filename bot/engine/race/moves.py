"""Which card answers which, and every legal move of a seat: the reaction window's answer or
pass, the hand-limit discards, the play phase's cards, the cycles and ending the turn.

The lists are built the fast way (random playouts and the search ask for them at every move)
from the checks of ``legality``.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.race.cards import (
    ANSWERS,
    COUP_FOURRE,
    HAZARD,
    JAMMER,
    MAX_200S,
    MILES,
    MILES_OF,
    REACTIONS,
    REMOVAL,
    ROADBLOCK,
    SLOW_MILES,
    SPEED_TRAP,
    STOPPING_HAZARDS,
    TARGET,
    TOW_TRUCK,
    TYPE_OF,
    sort_cards,
)
from bot.engine.race.legality import can_cycle
from bot.engine.race.state import END, PASS, Action, Phase, RaceState


def answer_to(card: str) -> str:
    """The reaction card that answers ``card`` when an opponent plays it."""
    kind = TYPE_OF[card]
    if kind == MILES:
        return ROADBLOCK
    if kind == HAZARD:
        return COUP_FOURRE
    return JAMMER  # trumps, removals and cheats (Pit Crew and every reaction)


def pending_answer(state: RaceState) -> str | None:
    """In a reaction window, the one card that answers the top of the stack."""
    if state.phase is not Phase.REACT or not state.stack:
        return None
    return answer_to(state.stack[-1].card)


def legal_actions(state: RaceState, seat: int, with_cycles: bool = True) -> list[Action]:
    """Every legal action of ``seat``; ``with_cycles=False`` leaves out the cycles (a search's
    playouts ask ``can_cycle`` instead of listing every subset of the hand)."""
    phase = state.phase
    if phase is Phase.OVER:
        return []
    if phase is Phase.REACT:
        if seat != 1 - state.stack[-1].seat:
            return []
        answer = answer_to(state.stack[-1].card)
        if answer in state.sides[seat].hand:
            return [("react", answer), PASS]
        return [PASS]
    if seat != state.turn:
        return []
    me = state.sides[seat]
    hand = me.hand
    if phase is Phase.DISCARD:
        return [("discard", card) for card in dict.fromkeys(hand)]
    # The checks of why_not_play, worked out once for the whole hand.
    main_open = not state.cycled
    hazards = me.hazards
    miles_ok = main_open and not state.played_miles
    if miles_ok:
        miles_ok = _STOPPING.isdisjoint(hazards)
        trapped = SPEED_TRAP in hazards
        room = TARGET - me.total
        full_200s = me.miles.count("200") >= MAX_200S
    hazard_ok = main_open and not state.played_hazard
    removal_ok = main_open and not state.played_removal and bool(hazards)
    actions: list[Action] = []
    for card in dict.fromkeys(hand):
        kind = TYPE_OF[card]
        if kind == MILES:
            if (
                miles_ok
                and MILES_OF[card] <= room
                and not (trapped and card not in SLOW_MILES)
                and not (full_200s and card == "200")
            ):
                actions.append(_PLAY[card])
        elif kind == HAZARD:
            if hazard_ok:
                actions.append(_PLAY[card])
        elif kind == REMOVAL:
            if removal_ok:
                if card == TOW_TRUCK:
                    actions.extend(("play", card, h) for h in dict.fromkeys(sort_cards(hazards)))
                elif ANSWERS[card][0] in hazards:
                    actions.append(_PLAY[card])
        elif card not in REACTIONS:  # trumps and Pit Crew
            actions.append(_PLAY[card])
    if with_cycles and hand and can_cycle(state):
        actions += cycles(hand)
    actions.append(END)
    return actions


_PLAY: dict[str, Action] = {card: ("play", card) for card in TYPE_OF}


_STOPPING = frozenset(STOPPING_HAZARDS)


def cycles(hand: Sequence[str]) -> list[Action]:
    """Every distinct non-empty sub-multiset of a sorted hand, as cycle actions.

    Cards of the same kind are interchangeable, so a hand with kinds counted n1..nk has
    (n1+1)...(nk+1) - 1 cycles, built kind by kind (a card kept, or junked 1..n times).
    Random playouts spend much of their time here, hence the plain tuple arithmetic and no
    cache (hands rarely repeat).
    """
    combos: list[tuple[str, ...]] = [("cycle",)]
    last = ""
    count = 0
    for card in (*hand, ""):
        if card == last:
            count += 1
            continue
        if count == 1:
            one = (last,)
            combos += [c + one for c in combos]
        elif count:
            runs = [(last,) * j for j in range(count + 1)]
            combos = [c + r for c in combos for r in runs]
        last, count = card, 1
    del combos[0]  # the empty cycle
    return combos

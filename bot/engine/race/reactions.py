"""The stack and its reaction windows: Coup Fourré, Roadblock and Jammer answering the card on
top out of turn, and the stack resolving last in, first out into each card's effect.
"""

from __future__ import annotations

from collections import Counter

from bot.engine.core import IllegalMove
from bot.engine.race.cards import (
    ANSWERS,
    CHEAT,
    HAZARD,
    MILES,
    MILES_OF,
    NAME,
    PIT_CREW,
    REACTIONS,
    REMOVAL,
    TARGET,
    TOW_TRUCK,
    TRUMP,
    TYPE_OF,
)
from bot.engine.race.hands import draw, draw_note, draws, take
from bot.engine.race.legality import has_choice
from bot.engine.race.moves import answer_to
from bot.engine.race.state import Action, Entry, Phase, RaceState
from bot.engine.race.turns import end_turn
from bot.engine.words import names


def after_resolution(state: RaceState) -> None:
    """Back in the play phase: a finished race or a turn with nothing left ends by itself."""
    state.phase = Phase.PLAY
    if state.sides[state.turn].total == TARGET or not has_choice(state):
        end_turn(state)


def apply_react(state: RaceState, seat: int, verb: str, action: Action) -> None:
    top = state.stack[-1]
    answer = answer_to(top.card)
    them = state.players[top.seat]
    if verb == "pass":
        state.caption = f"{state.players[seat]} lets it pass."
        resolve(state)
        return
    if verb != "react":
        raise IllegalMove(
            f"First react to the {NAME[top.card]} {them} played: 'react {answer}' or 'pass'."
        )
    card = action[1]
    if card not in REACTIONS:
        raise IllegalMove(f"{NAME[card]} is not a reaction card.")
    if card != answer:
        raise IllegalMove(
            f"{NAME[card]} cannot react to {NAME[top.card]}; only {NAME[answer]} can."
        )
    take(state.sides[seat], card)
    state.acted = True
    state.stack.append(Entry(seat, card))
    me = state.players[seat]
    if answer_to(card) in state.sides[top.seat].hand:
        # It may be reacted to in turn: nothing is cancelled yet. "The card Ann played", not
        # "Ann's card": a seat name such as "Computer (normal)" takes no "'s".
        state.caption = f"{me} reacts with {NAME[card]} to the {NAME[top.card]} {them} played!"
        open_or_resolve(state)
        return
    # Nobody can answer it: this sentence tells the cancellation, so the resolution does not
    # say it again ("… with Coup Fourré! Coup Fourré cancels Bob's Flat Tire.").
    state.caption = f"{me} reacts with {NAME[card]} and cancels the {NAME[top.card]} {them} played!"
    resolve(state, told=True)


def open_or_resolve(state: RaceState) -> None:
    """Ask the opponent of the top card's player if they hold its answer; else resolve."""
    top = state.stack[-1]
    reactor = 1 - top.seat
    if answer_to(top.card) in state.sides[reactor].hand:
        state.phase = Phase.REACT
        state.caption = f"{state.caption} Waiting for {state.players[reactor]} to react."
        return
    resolve(state)


def resolve(state: RaceState, told: bool = False) -> None:
    """Resolve the whole stack, last in first out: each answer cancels the card beneath it
    unless it was cancelled itself; cancelled cards go to their owners' junkyards. ``told``:
    the caption already says what the top card cancels."""
    stack = state.stack
    state.stack = []
    cancelled = [False] * len(stack)
    words: list[str] = []
    for i in range(len(stack) - 1, -1, -1):
        entry = stack[i]
        owner = state.sides[entry.seat]
        if cancelled[i]:
            owner.junkyard.append(entry.card)
            continue
        if i > 0:
            below = stack[i - 1]
            cancelled[i - 1] = True
            owner.junkyard.append(entry.card)
            words.append(
                f"{NAME[entry.card]} cancels the {NAME[below.card]} "
                f"{state.players[below.seat]} played."
            )
            continue
        words.append(_effect(state, entry, alone=len(stack) == 1))
    if told:
        del words[0]
    if len(stack) > 1:
        state.caption = f"{state.caption} {' '.join(w for w in words if w)}".strip()
    else:
        extra = words[0] if words else ""
        state.caption = f"{state.caption} {extra}".strip()
    after_resolution(state)


def _effect(state: RaceState, entry: Entry, alone: bool = True) -> str:
    """The uncancelled card at the bottom of the stack takes effect; returns extra words.
    ``alone``: nothing was said since the card was played, so "it" is that card."""
    seat, card, target = entry
    me = state.sides[seat]
    them = state.sides[1 - seat]
    name = state.players[seat]
    kind = TYPE_OF[card]
    if kind == MILES:
        me.miles.append(card)
        me.total += MILES_OF[card]
        if me.total == TARGET:
            return ""  # the turn ends at once and the win says "reached exactly 1000 miles"
        return f"{name} has {me.total} miles."
    if kind == HAZARD:
        them.hazards.append(card)
        return ""
    if kind == REMOVAL:
        hazard = target if card == TOW_TRUCK else ANSWERS[card][0]
        me.hazards.remove(hazard)
        them.junkyard.append(hazard)
        me.junkyard.append(card)
        return f"{NAME[hazard]} is cleared."
    if kind == TRUMP:
        me.trumps.append(card)
        cleared = [h for h in me.hazards if h in ANSWERS[card]]
        for hazard in cleared:
            me.hazards.remove(hazard)
            them.junkyard.append(hazard)
        if cleared:
            # After answers ("… cancels Ann's Jammer with Jammer!") "it" would be the Jammer.
            subject = "It" if alone else NAME[card]
            return f"{subject} clears {_counted(cleared)}."
        return ""
    # Pit Crew, the only cheat that is not an answer
    assert kind == CHEAT and card == PIT_CREW
    me.junkyard.append(card)
    drawn, reshuffled = draw(state, seat, 2)
    note = draw_note(state, seat, drawn, reshuffled, 2)
    return f"{name} {draws(drawn)}. {note}".strip()


def _counted(hazards: list[str]) -> str:
    """Hazards as an English list, copies counted: "Red Light and Speed Trap", "2 Flat Tires",
    "2 Out of Gas cards" (a bare comma list read as a sentence cut short, and "Flat Tire and
    Flat Tire" as a repeated word)."""
    counts = Counter(hazards)
    words = []
    for hazard, n in counts.items():
        name = NAME[hazard]
        if n == 1:
            words.append(name)
        else:
            words.append(f"{n} {name} cards" if name.endswith("s") else f"{n} {name}s")
    return names(words)

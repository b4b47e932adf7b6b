"""Why a Ticket to Ride move is refused, in a sentence a player can read (None: it is
allowed). ``moves`` lists the moves a seat may make; ``apply`` raises these sentences for any
other.
"""

from __future__ import annotations

from bot.engine.ttr.cards import CARD_NAMES, LOCO, NCOL, TICKETS
from bot.engine.ttr.dealing import keep_example, setup_minimum_met
from bot.engine.ttr.moves import legal_actions, take_options, to_act
from bot.engine.ttr.state import (
    BLIND,
    CLOCK,
    KEEP,
    OVER,
    PASS,
    PICK2,
    SETUP,
    Action,
    TtrState,
)
from bot.engine.ttr.table import face_up_counts
from bot.engine.words import a_or_an, plural


def refusal(state: TtrState, seat: int, action: Action) -> str | None:
    """Why ``seat`` may not take ``action`` now (a sentence), or None if it may."""
    refused = step_refusal(state, seat, action.kind)
    if refused is not None:
        return refused
    kind = action.kind
    if state.phase in (SETUP, KEEP):
        return _keep_refusal(state, seat, action)
    if state.phase == PICK2:
        return _take_refusal(state, action, second=True)
    if kind == "take":
        return _take_refusal(state, action, second=False)
    if kind == "yard":
        return _yard_refusal(state, seat, action)
    if kind == "tickets":
        return None if state.ticket_deck else "The ticket deck is empty."
    if kind == "pass":
        if len(legal_actions(state, seat)) > 1 or legal_actions(state, seat)[0] != PASS:
            return "You can still act: passing is only allowed when nothing else is possible."
        return None
    return "That is not a move in this game."


def step_refusal(state: TtrState, seat: int, kind: str) -> str | None:
    """Why ``seat`` may make no move of ``kind`` at this step of the game (not its turn, tickets
    to keep first, a draw to finish), or None when the details of the move decide. The parser
    asks it too, so that a half-written move of the wrong kind is refused for the step."""
    if state.phase == OVER:
        return "The game is over."
    if not 0 <= seat < state.seats or state.left[seat]:
        return "You are not playing at this table."
    if seat not in to_act(state):
        if state.phase == SETUP:
            return "You have already chosen your tickets; the others are still choosing."
        return f"It is not your turn: {state.players[state.turn]} is playing."
    if state.phase in (SETUP, KEEP):
        if kind != "keep":
            return f"First choose which tickets to keep, e.g. {keep_example(state, seat)}."
        return None
    if kind == "clockdeck":
        if not state.solo:
            return "There is no Station Clock deck in the standard game."
        never = (
            "The Station Clock deck is never drawn from: it turns up one card at the start of "
            "each turn."
        )
        if state.clock_card < 0:  # taken or robbed: 'take clock' would be refused
            return never
        return f"{never} Take the face-up Station Clock card with 'take clock'."
    if state.phase == PICK2 and kind != "take":
        return f"Finish your draw first: take a second card ({_open_takes(state, True)})."
    if kind == "keep":
        return "You have no tickets to choose from: draw tickets first with 'tickets'."
    return None


def _keep_refusal(state: TtrState, seat: int, action: Action) -> str | None:
    offered = state.offered[seat]
    kept = action.tickets
    strangers = [t for t in kept if t not in offered]
    if strangers:
        codes = " ".join(TICKETS[t].code for t in strangers[:4])
        mine = " ".join(TICKETS[t].code for t in offered)
        return f"You were not offered {codes}: choose among {mine}."
    if len(set(kept)) != len(kept):
        return "Name each ticket you keep once."
    if state.phase == SETUP:
        return setup_minimum_met(state, seat, kept)
    return None


def _take_refusal(state: TtrState, action: Action, second: bool) -> str | None:
    slot = action.slot
    if slot == BLIND:
        if state.deck:
            return None
        if not take_options(state, second):
            return "The train deck is empty and no face-up card can be taken."
        return "The train deck is empty: take a face-up card."
    if slot == CLOCK:
        if not state.solo:
            return "There is no Station Clock card in the standard game."
        card = state.clock_card
        if card < 0:
            # Before a draw's first card only a robbery can have removed it ("already taken"
            # told a player whose Railyard had robbed it that they had drawn it).
            if state.phase == PICK2:
                return "The Station Clock card is gone this turn: it was taken or robbed."
            return "The Station Clock card is gone this turn: your Railyard robbed it."
    else:
        if not 1 <= slot <= len(state.slots):
            return f"Choose a face-up slot from 1 to {len(state.slots)}, or 'take blind'."
        card = state.slots[slot - 1]
        if card < 0:
            return f"Slot {slot} is empty."
    if second and card == LOCO:
        return (
            "A face-up Locomotive counts as both of your draws, so it cannot be your second "
            f"card: take another ({_open_takes(state, True)})."
        )
    return None


def _open_takes(state: TtrState, second: bool) -> str:
    """The takes open now, for a refusal: "'take 1', 'take 4' or 'take blind'". Each is
    named, so a refusal never suggests a blind draw from an empty deck or a Station Clock
    card that is gone."""
    words = []
    for action in take_options(state, second):
        if action.slot == BLIND:
            words.append("'take blind'")
        elif action.slot == CLOCK:
            words.append("'take clock'")
        else:
            words.append(f"'take {action.slot}'")
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _yard_refusal(state: TtrState, seat: int, action: Action) -> str | None:
    hand = state.hands[seat]
    mine = [state.yard_nat[seat][c] + state.yard_loco[seat][c] for c in range(NCOL)]
    if action.singles:
        trio = action.singles
        if len(trio) != 3 or len(set(trio)) != 3 or any(not 0 <= c < NCOL for c in trio):
            return "Single cards go to the Railyard three at a time, in three different colours."
        for c in trio:
            refused = _set_refusal(state, seat, c, 1, mine, hand)
            if refused:
                return refused
        return None
    c, n, k = action.colour, action.naturals, action.locos
    if not 0 <= c < NCOL:
        return "Name the colour of the set, e.g. 'yard red red loco'."
    if n < 1:
        return (
            "A Railyard set needs at least one card of its colour; Locomotives only join a "
            "colour set."
        )
    if n + k < 2:
        return (
            "A set of one colour needs at least two cards; single cards go three at a time, "
            "in three different colours."
        )
    if hand[LOCO] < k:
        if not hand[LOCO]:
            return "You hold no Locomotives."
        return f"You hold only {plural(hand[LOCO], 'Locomotive')}."
    return _set_refusal(state, seat, c, n + k, mine, hand, naturals=n)


def _set_refusal(
    state: TtrState,
    seat: int,
    c: int,
    size: int,
    mine: list[int],
    hand: list[int],
    naturals: int = 1,
) -> str | None:
    name = CARD_NAMES[c]
    if hand[c] < naturals:
        if not hand[c]:
            return f"You hold no {name} cards."
        return f"You hold only {hand[c]} {name}."
    if mine[c]:
        return f"You already have {a_or_an(name)} set in your Railyard: you cannot add to it."
    if state.solo:
        showing = face_up_counts(state)[c]
        if showing and size <= showing:
            return (
                f"The draw area shows {showing} {name}: play more than {showing} {name} to rob "
                f"it (a tie is not enough), or another colour."
            )
        return None
    for other in range(state.seats):
        if other == seat:
            continue
        theirs = state.yard_nat[other][c] + state.yard_loco[other][c]
        if theirs and size <= theirs:
            return (
                f"{state.players[other]} has {a_or_an(name)} set of {plural(theirs, 'card')}: "
                f"play more than {theirs} {name} to rob it (a tie is not enough)."
            )
    return None

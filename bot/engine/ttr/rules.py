"""Ticket to Ride: The Card Game, standard and solo: applying a move (docs/rules/ttr.md).

A turn is: automatic moves (solo: the Station Clock first), one card per Railyard colour set onto
the On-the-Track stack (Locomotives first), then one action — two draws, a Railyard play, or four
tickets. ``apply`` validates with player-readable refusals, clones, and changes only the clone.

The rules live in small modules (``table``, ``dealing``, ``moves``, ``legality``,
``station_clock``, ``turns``, ``ending``); this one applies a move to a state.
"""

from __future__ import annotations

from bot.engine.core import IllegalMove, NotYourTurn
from bot.engine.ttr.cards import CARD_NAMES, LOCO, set_words
from bot.engine.ttr.dealing import finish_setup
from bot.engine.ttr.legality import refusal
from bot.engine.ttr.moves import take_options, to_act
from bot.engine.ttr.state import (
    ACT,
    BLIND,
    CLOCK,
    KEEP,
    OVER,
    PICK2,
    SETUP,
    TICKET_DRAW,
    Action,
    TtrState,
)
from bot.engine.ttr.station_clock import settle
from bot.engine.ttr.table import discard_set, draw_card, locomotive_reset, refill
from bot.engine.ttr.turns import end_turn
from bot.engine.words import names, plural


def does(state: TtrState, seat: int, verb: str, plain: str) -> str:
    """The start of a caption about a player's move: "Ann takes" (``verb``) in the standard
    game; "You take" (``plain``) in solo, whose captions speak to the player, as Mille Bornes
    Solo's do ("Your Railyard sends…", "You keep 1 ticket")."""
    return f"You {plain}" if state.solo else f"{state.players[seat]} {verb}"


def apply(state: TtrState, seat: int, action: Action) -> TtrState:
    refused = refusal(state, seat, action)
    if refused is not None:
        if state.phase != OVER and (
            not 0 <= seat < state.seats or state.left[seat] or seat not in to_act(state)
        ):
            raise NotYourTurn(refused)
        raise IllegalMove(refused)
    after = state.clone()
    kind = action.kind
    if kind == "keep":
        _keep(after, seat, action.tickets)
    elif kind == "take":
        _take(after, seat, action.slot)
    elif kind == "yard":
        _yard(after, seat, action)
        end_turn(after)
    elif kind == "tickets":
        drawn = after.ticket_deck[:TICKET_DRAW]
        after.ticket_deck = after.ticket_deck[TICKET_DRAW:]
        after.offered[seat] = sorted(drawn)
        after.phase = KEEP
        tickets = plural(len(drawn), "ticket")
        after.caption = (
            f"You draw {tickets} and choose which to keep."
            if after.solo
            else f"{after.players[seat]} draws {tickets} and chooses which to keep."
        )
    elif kind == "pass":
        after.caption = (
            "You cannot do anything and pass."
            if after.solo
            else f"{after.players[seat]} cannot do anything and passes."
        )
        end_turn(after)
    return after


def _keep(state: TtrState, seat: int, kept: tuple[int, ...]) -> None:
    offered = state.offered[seat]
    returned = [t for t in offered if t not in kept]
    state.tickets[seat].extend(kept)
    state.tickets[seat].sort()
    state.offered[seat] = []
    state.ticket_deck.extend(returned)  # the bottom; at setup the deck is shuffled after
    who = state.players[seat]
    if state.phase == SETUP:
        if not any(state.offered[s] for s in range(state.seats) if state.active(s)):
            finish_setup(state)
        else:
            waiting = [state.players[s] for s in sorted(to_act(state))]
            state.caption = (
                f"{who} keeps {plural(len(kept), 'ticket')}; waiting for {names(waiting)}."
            )
        return
    state.caption = (
        f"{does(state, seat, 'keeps', 'keep')} {len(kept)} of {plural(len(offered), 'ticket')}."
    )
    end_turn(state)


def _take(state: TtrState, seat: int, slot: int) -> None:
    first = state.phase == ACT
    who, draw, take = (
        ("You", "draw", "take") if state.solo else (state.players[seat], "draws", "takes")
    )
    if slot == BLIND:
        card = draw_card(state)
        what = f"{draw} blind"
    elif slot == CLOCK:
        card = state.clock_card
        state.clock_card = -1
        what = f"{take} the Station Clock card ({CARD_NAMES[card]})"
    else:
        card = state.slots[slot - 1]
        state.slots[slot - 1] = -1
        # "takes Locomotive from slot 2" read as a colour's name; the button says "Take the
        # Locomotive from slot 2".
        taken = "the Locomotive" if card == LOCO else CARD_NAMES[card]
        what = f"{take} {taken} from slot {slot}"
    face_up_loco = slot != BLIND and card == LOCO
    state.hands[seat][card] += 1
    notes: list[str] = []
    if state.solo and slot != BLIND:
        notes.extend(settle(state))
    if first and not face_up_loco and take_options(state, True):
        state.phase = PICK2
        state.caption = " ".join([f"{who} {what} and now {take} a second card.", *notes])
        return
    if face_up_loco:
        what += ": a face-up Locomotive counts as both draws"
    elif first:
        what += ": no second card can be taken"
    text = f"{who} {what}." if first else f"{who} then {what}."
    state.caption = " ".join([text, *notes])
    after_draw(state)
    end_turn(state)


def after_draw(state: TtrState) -> None:
    """Refill the draw area after a draw action; the three-Locomotive reset; solo robbing."""
    notes: list[str] = []
    refill(state)
    if locomotive_reset(state):
        notes.append("Three Locomotives showed: the draw area was dealt again.")
    if state.solo:
        notes.extend(settle(state))
    if notes:
        state.caption = " ".join([state.caption, *notes])


def _yard(state: TtrState, seat: int, action: Action) -> None:
    who = does(state, seat, "plays", "play")
    hand = state.hands[seat]
    sets: list[tuple[int, int, int]] = (
        [(c, 1, 0) for c in action.singles]
        if action.singles
        else [(action.colour, action.naturals, action.locos)]
    )
    robbed: list[str] = []
    for c, n, k in sets:
        hand[c] -= n
        hand[LOCO] -= k
        state.yard_nat[seat][c] = n
        state.yard_loco[seat][c] = k
        if state.solo:
            continue
        for other in range(state.seats):
            if other == seat:
                continue
            size = state.yard_nat[other][c] + state.yard_loco[other][c]
            if size:
                discard_set(state, other, c)
                # "Robbing Bob of their Red set", not "Bob's Red": a seat name such as
                # "Computer (normal)" takes no "'s".
                robbed.append(
                    f"{state.players[other]} of their {CARD_NAMES[c]} set ({plural(size, 'card')})"
                )
    if action.singles:
        played = names([CARD_NAMES[c] for c in action.singles])
        text = f"{who} single {played} cards to the Railyard"
    else:
        text = f"{who} {set_words(*sets[0])} to the Railyard"
    text += f", robbing {names(robbed)}." if robbed else "."
    notes = settle(state) if state.solo else []
    state.caption = " ".join([text, *notes])

"""Turn flow and legality for Ticket to Ride: The Card Game, standard and solo.

The rules as played here, with every ruling: ``docs/rules/ttr.md``. A turn is: automatic moves
(solo: the Station Clock first), one card per Railyard colour set onto the On-the-Track stack
(Locomotives first), then one action — two draws, a Railyard play, or four tickets. ``apply``
validates with player-readable refusals, clones, and changes only the clone."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations
from operator import add

from bot.engine.core import IllegalMove, NotYourTurn
from bot.engine.ttr.cards import CARD_NAMES, COLOURS, KINDS, LOCO, TICKETS, set_words
from bot.engine.ttr.scoring import score_solo, score_standard
from bot.engine.ttr.state import (
    ACT,
    BLIND,
    CLOCK,
    CLOCK_CARDS,
    DRAW_TICKETS,
    KEEP,
    OVER,
    PASS,
    PICK2,
    SECOND_DECK_DEAL,
    SETUP,
    TICKET_DRAW,
    Action,
    TtrState,
)
from bot.engine.words import plural

NCOL = len(COLOURS)


def names(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def does(state: TtrState, seat: int, verb: str, plain: str) -> str:
    """The start of a caption about a player's move: "Ann takes" (``verb``) in the standard
    game; "You take" (``plain``) in solo, whose captions speak to the player, as Mille Bornes
    Solo's do ("Your Railyard sends…", "You keep 1 ticket")."""
    return f"You {plain}" if state.solo else f"{state.players[seat]} {verb}"


# --- chance -------------------------------------------------------------------------------------


def shuffled(state: TtrState, items: list[int]) -> list[int]:
    """``items`` shuffled by the state's next seeded shuffle (the state counts its shuffles)."""
    rng = random.Random(f"ttr:{state.seed}:{state.shuffles}")
    state.shuffles += 1
    out = list(items)
    rng.shuffle(out)
    return out


def draw_card(state: TtrState) -> int:
    """The top train card (the deck must not be empty); marks the deck run out when it is."""
    card = state.deck.pop()
    if not state.deck:
        state.exhausted = True
    return card


# --- the draw area ------------------------------------------------------------------------------


def slot_count(state: TtrState, card: int) -> int:
    """Face-up cards of ``card`` in the draw area, the Station Clock card included."""
    return sum(1 for s in state.slots if s == card) + (1 if state.clock_card == card else 0)


def refill(state: TtrState, slots: Sequence[int] | None = None) -> None:
    """Fill empty face-up slots (all of them, or just ``slots``) from the deck, in order."""
    for i in range(len(state.slots)) if slots is None else slots:
        if state.slots[i] < 0 and state.deck:
            state.slots[i] = draw_card(state)


def locomotive_reset(state: TtrState) -> bool:
    """Three face-up Locomotives: discard the face-up train cards and deal new ones, until fewer
    than three show or the deck is out (docs/rules/ttr.md, Rulings). The Station Clock card
    stays."""
    reset = False
    while slot_count(state, LOCO) >= 3 and state.deck:
        reset = True
        for i, card in enumerate(state.slots):
            if card >= 0:
                state.discard[card] += 1
                state.slots[i] = -1
        refill(state)
    return reset


# --- setup ---------------------------------------------------------------------------------------


def deal_standard(state: TtrState, train: list[int], tickets: list[int]) -> None:
    """Starting Locomotives, seven cards each, five face up; six tickets each to choose from.

    ``train`` and ``tickets`` are in dealing order (top first); the Locomotives each player
    starts with are already out of ``train``.
    """
    n = state.seats
    for seat in range(n):
        state.hands[seat][LOCO] += 1
        for card in train[seat * 7 : seat * 7 + 7]:
            state.hands[seat][card] += 1
        state.offered[seat] = sorted(tickets[seat * 6 : seat * 6 + 6])
    rest = train[n * 7 :]
    state.deck = list(reversed(rest))  # top last
    refill(state)
    locomotive_reset(state)
    state.ticket_deck = tickets[n * 6 :]
    state.phase = SETUP
    state.caption = "Tickets are dealt: everyone keeps at least one of their six."


def deal_solo(state: TtrState, train: list[int], tickets: list[int]) -> None:
    """A Locomotive and seven cards, sixteen cards for the Station Clock, four face up and the
    first Station Clock card; six tickets to choose from and six hidden for the opponent."""
    state.hands[0][LOCO] += 1
    for card in train[:7]:
        state.hands[0][card] += 1
    state.clock_deck = list(reversed(train[7 : 7 + CLOCK_CARDS]))
    state.deck = list(reversed(train[7 + CLOCK_CARDS :]))
    refill(state)
    locomotive_reset(state)
    state.offered[0] = sorted(tickets[:6])
    state.hidden_tickets = list(tickets[6:12])
    state.ticket_deck = tickets[12:]
    state.clock_turn = 1
    notes = clock_step(state)
    state.phase = SETUP
    state.caption = " ".join(
        [*notes, "Choose your tickets: keep the highest-value one, and any of the others."]
    )


def keep_example(state: TtrState, seat: int) -> str:
    """A keep that would be accepted, from the tickets ``seat`` is actually offered: two of
    them (solo setup: the highest-value one first, as it must be kept), and ``'keep none'``
    unless this is the opening choice, which keeps at least one; "" when nothing is offered."""
    if not 0 <= seat < state.seats:
        return ""
    offered = list(state.offered[seat])
    if not offered:
        return ""
    if state.solo and state.phase == SETUP:
        offered.sort(key=lambda t: -TICKETS[t].points)  # stable: the lowest code among equals
    codes = " ".join(TICKETS[t].code for t in sorted(offered[:2]))
    if state.phase == SETUP:
        return f"'keep {codes}'"
    return f"'keep {codes}' or 'keep none'"


def setup_minimum_met(state: TtrState, seat: int, kept: Sequence[int]) -> str | None:
    """Why keeping ``kept`` at setup is refused, or None."""
    if not kept:
        return "Keep at least one ticket at the start of the game."
    if state.solo:
        top = max(TICKETS[t].points for t in state.offered[seat])
        if not any(TICKETS[t].points == top for t in kept):
            best = [t for t in state.offered[seat] if TICKETS[t].points == top]
            which = " or ".join(f"{TICKETS[t].code} ({TICKETS[t].route})" for t in best)
            return f"You must keep your highest-value ticket: {which}, worth {top}."
    return None


def finish_setup(state: TtrState) -> None:
    """Everyone has chosen: the returned tickets were shuffled back; the first turn begins."""
    state.ticket_deck = shuffled(state, state.ticket_deck)
    kept = [
        # "Name: 2", since a seat name may end in a word or a bracket ("Computer 2 (normal)").
        f"{state.players[s]}: {len(state.tickets[s])}"
        for s in range(state.seats)
        if state.active(s)
    ]
    if state.solo:
        state.caption = (
            f"You keep {plural(len(state.tickets[0]), 'ticket')}. Turn 1 of {CLOCK_CARDS}."
        )
        state.phase = ACT
        state.turn = 0
        return
    first = next(s for s in range(state.seats) if state.active(s))
    state.phase = ACT
    state.turn = first
    state.caption = f"Tickets kept — {', '.join(kept)}. {state.players[first]} starts."


# --- legality ----------------------------------------------------------------------------------


def to_act(state: TtrState) -> frozenset[int]:
    if state.phase == OVER:
        return frozenset()
    if state.phase == SETUP:
        return frozenset(s for s in range(state.seats) if state.active(s) and state.offered[s])
    return frozenset({state.turn})


def opponent_best(state: TtrState, seat: int) -> list[int]:
    """Per colour, the largest set any other seat has in its Railyard (0 if none)."""
    sizes = [
        list(map(add, state.yard_nat[other], state.yard_loco[other]))
        for other in range(state.seats)
        if other != seat
    ]
    return list(map(max, *sizes)) if len(sizes) > 1 else sizes[0]


def face_up_counts(state: TtrState) -> list[int]:
    counts = [0] * KINDS
    for card in state.slots:
        if card >= 0:
            counts[card] += 1
    if state.clock_card >= 0:
        counts[state.clock_card] += 1
    return counts


def _limits(state: TtrState, seat: int) -> list[int]:
    """Per colour, the size a new set must beat (-1: the colour cannot be played)."""
    nat, loco = state.yard_nat[seat], state.yard_loco[seat]
    beat = face_up_counts(state)[:NCOL] if state.solo else opponent_best(state, seat)
    for c in range(NCOL):
        if nat[c] or loco[c]:
            beat[c] = -1
    return beat


@cache
def _colour_sets(c: int, held: int, locos: int, limit: int) -> tuple[Action, ...]:
    """Every set of colour ``c`` from ``held`` of it and ``locos`` Locomotives beating ``limit``."""
    return tuple(
        Action("yard", colour=c, naturals=n, locos=k)
        for n in range(1, held + 1)
        for k in range(locos + 1)
        if n + k >= 2 and n + k > limit
    )


@cache
def _triples(singles: tuple[int, ...]) -> tuple[Action, ...]:
    return tuple(Action("yard", singles=trio) for trio in combinations(singles, 3))


def yard_plays(state: TtrState, seat: int) -> list[Action]:
    """Every legal Railyard play: colour sets (colour order, then size), then the triples."""
    hand = state.hands[seat]
    limits = _limits(state, seat)
    locos = hand[LOCO]
    plays: list[Action] = []
    singles = []
    for c in range(NCOL):
        limit = limits[c]
        if limit < 0 or not hand[c]:
            continue
        plays.extend(_colour_sets(c, hand[c], locos, limit))
        if limit == 0:
            singles.append(c)
    if len(singles) >= 3:
        plays.extend(_triples(tuple(singles)))
    return plays


@cache
def _subsets(size: int, minimum: int, must: int) -> tuple[tuple[int, ...], ...]:
    """Index tuples of the subsets of ``range(size)`` with at least ``minimum`` members and (if
    ``must`` is a non-zero bitmask) one of its members, ascending by bitmask."""
    return tuple(
        tuple(i for i in range(size) if mask >> i & 1)
        for mask in range(1 << size)
        if bin(mask).count("1") >= minimum and (not must or mask & must)
    )


def keep_choices(offered: Sequence[int], minimum: int, must: Sequence[int]) -> list[Action]:
    """Every subset of ``offered`` of at least ``minimum`` tickets holding one of ``must`` (if
    any), ascending by bitmask."""
    mask = sum(1 << i for i, t in enumerate(offered) if t in must)
    return [
        Action("keep", tickets=tuple(offered[i] for i in chosen))
        for chosen in _subsets(len(offered), minimum, mask)
    ]


def keep_rule(state: TtrState, seat: int) -> tuple[int, tuple[int, ...]]:
    if state.phase != SETUP:
        return 0, ()
    if state.solo:
        top = max(TICKETS[t].points for t in state.offered[seat])
        return 1, tuple(t for t in state.offered[seat] if TICKETS[t].points == top)
    return 1, ()


_TAKE_SLOT = tuple(Action("take", slot=i) for i in range(CLOCK + 1))


def take_options(state: TtrState, second: bool) -> list[Action]:
    takes = []
    for i, card in enumerate(state.slots):
        if card >= 0 and not (second and card == LOCO):
            takes.append(_TAKE_SLOT[i + 1])
    if state.clock_card >= 0 and not (second and state.clock_card == LOCO):
        takes.append(_TAKE_SLOT[CLOCK])
    if state.deck:
        takes.append(_TAKE_SLOT[BLIND])
    return takes


def legal_actions(state: TtrState, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    if state.phase in (SETUP, KEEP):
        minimum, must = keep_rule(state, seat)
        return keep_choices(state.offered[seat], minimum, must)
    if state.phase == PICK2:
        return take_options(state, True)
    actions = take_options(state, False)
    actions.extend(yard_plays(state, seat))
    if state.ticket_deck:
        actions.append(DRAW_TICKETS)
    if not actions:
        actions.append(PASS)
    return actions


def refusal(state: TtrState, seat: int, action: Action) -> str | None:
    """Why ``seat`` may not take ``action`` now (a sentence), or None if it may."""
    if state.phase == OVER:
        return "The game is over."
    if not 0 <= seat < state.seats or state.left[seat]:
        return "You are not playing at this table."
    if seat not in to_act(state):
        if state.phase == SETUP:
            return "You have already chosen your tickets; the others are still choosing."
        return f"It is not your turn: {state.players[state.turn]} is playing."
    kind = action.kind
    if state.phase in (SETUP, KEEP):
        if kind != "keep":
            return f"First choose which tickets to keep, e.g. {keep_example(state, seat)}."
        return _keep_refusal(state, seat, action)
    if kind == "keep":
        return "You have no tickets to choose from: draw tickets first with 'tickets'."
    if kind == "clockdeck":
        if not state.solo:
            return "There is no Station Clock deck in the standard game."
        return (
            "The Station Clock deck is never drawn from: it turns up one card at the start of "
            "each turn. Take the face-up Station Clock card with 'take clock'."
        )
    if state.phase == PICK2:
        if kind != "take":
            clock = ", 'take clock'" if state.solo and state.clock_card >= 0 else ""
            return (
                f"Finish your draw first: take a second card ('take 1'–'take {len(state.slots)}'"
                f"{clock} or 'take blind')."
            )
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
        return None if state.deck else "The train deck is empty: take a face-up card."
    if slot == CLOCK:
        if not state.solo:
            return "There is no Station Clock card in the standard game."
        card = state.clock_card
        if card < 0:
            return "The Station Clock card has already been taken this turn."
    else:
        if not 1 <= slot <= len(state.slots):
            return f"Choose a face-up slot from 1 to {len(state.slots)}, or 'take blind'."
        card = state.slots[slot - 1]
        if card < 0:
            return f"Slot {slot} is empty."
    if second and card == LOCO:
        return (
            "A face-up Locomotive counts as both of your draws, so it cannot be your second "
            "card: take another face-up card or draw blind."
        )
    return None


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
        return f"You already have a {name} set in your Railyard: you cannot add to it."
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
                f"{state.players[other]} has a {name} set of {plural(theirs, 'card')}: play more "
                f"than {theirs} {name} to rob it (a tie is not enough)."
            )
    return None


# --- applying -----------------------------------------------------------------------------------


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
        what = f"{take} {CARD_NAMES[card]} from slot {slot}"
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


def discard_set(state: TtrState, seat: int, c: int) -> None:
    state.discard[c] += state.yard_nat[seat][c]
    state.discard[LOCO] += state.yard_loco[seat][c]
    state.yard_nat[seat][c] = 0
    state.yard_loco[seat][c] = 0


# --- turns and the end --------------------------------------------------------------------------


def next_active(state: TtrState, seat: int) -> int:
    for step in range(1, state.seats + 1):
        other = (seat + step) % state.seats
        if state.active(other):
            return other
    return seat


def to_track(state: TtrState, seat: int) -> int:
    """One card of each Railyard colour set onto the On-the-Track stack, Locomotives first."""
    moved = 0
    nat, loco, track = state.yard_nat[seat], state.yard_loco[seat], state.track[seat]
    for c in range(NCOL):
        if loco[c]:
            loco[c] -= 1
            track[LOCO] += 1
            moved += 1
        elif nat[c]:
            nat[c] -= 1
            track[c] += 1
            moved += 1
    return moved


def begin_turn(state: TtrState, seat: int) -> None:
    """Start ``seat``'s turn: its Railyard feeds its On-the-Track stack."""
    state.turn = seat
    state.phase = ACT
    moved = to_track(state, seat)
    if moved:
        who = state.players[seat]
        state.caption += (
            f" {who} moves {plural(moved, 'card')} from the Railyard to the On-the-Track stack."
        )


def end_turn(state: TtrState) -> None:
    """After the action: the next turn, the final round, the second deck or the end."""
    if state.solo:
        _end_solo_turn(state)
        return
    seat = state.turn
    state.phase = ACT
    if state.exhausted and state.deck_number == 1 and not state.final_round:
        state.final_round = True
        # Everyone once more, in turn order, ending with the seat that drew the last card.
        n = state.seats
        state.final_queue = [
            (seat + k) % n for k in range(1, n + 1) if state.active((seat + k) % n)
        ]
        state.caption += " The train deck has run out: everyone takes one final turn."
    elif state.exhausted and state.deck_number == 2:
        finish(state, "The second train deck has run out.")
        return
    if state.final_round:
        state.final_queue = [s for s in state.final_queue if state.active(s)]
        if state.final_queue:
            begin_turn(state, state.final_queue.pop(0))
            return
        second_deck(state)
        if state.phase == OVER:
            return
    begin_turn(state, next_active(state, seat))


def second_deck(state: TtrState) -> None:
    """Everything but the hands becomes the second train deck; four more cards each.

    "Everything" (docs/rules/ttr.md, The end) is the discards, the Railyards, the face-up
    cards and the On-the-Track stacks. With the ``tracks=keep`` option the stacks stay.
    """
    pool: list[int] = []
    for card in range(KINDS):
        pool.extend([card] * state.discard[card])
        state.discard[card] = 0
    for seat in range(state.seats):
        for c in range(NCOL):
            pool.extend([c] * state.yard_nat[seat][c])
            pool.extend([LOCO] * state.yard_loco[seat][c])
            state.yard_nat[seat][c] = state.yard_loco[seat][c] = 0
        if state.keep_tracks:
            continue
        for card in range(KINDS):
            pool.extend([card] * state.track[seat][card])
            state.track[seat][card] = 0
    for i, card in enumerate(state.slots):
        if card >= 0:
            pool.append(card)
            state.slots[i] = -1
    pool.sort()
    state.deck = shuffled(state, pool)
    state.deck_number = 2
    state.final_round = False
    state.final_queue = []
    state.exhausted = not state.deck
    for _ in range(SECOND_DECK_DEAL):
        for seat in range(state.seats):
            if state.active(seat) and state.deck:
                state.hands[seat][draw_card(state)] += 1
    refill(state)
    locomotive_reset(state)
    what = (
        "discards and Railyards"
        if state.keep_tracks
        else ("discards, Railyards and On-the-Track stacks")
    )
    state.caption += (
        f" Final turns done: the {what} form the second train deck, and everyone draws four cards."
    )
    if not state.deck:
        finish(state, "The second train deck ran out as it was dealt.")


def _end_solo_turn(state: TtrState) -> None:
    if state.clock_turn >= CLOCK_CARDS:
        finish(state, f"The last Station Clock card has been played: turn {CLOCK_CARDS} is over.")
        return
    state.clock_turn += 1
    state.phase = ACT
    notes = clock_step(state)
    moved = to_track(state, 0)
    if moved:
        notes.append(f"Your Railyard sends {plural(moved, 'card')} to your On-the-Track stack.")
    notes.extend(settle(state))
    state.caption = " ".join(
        [state.caption, f"Turn {state.clock_turn} of {CLOCK_CARDS}.", *notes]
    ).strip()


# --- solo: the Station Clock and robbing --------------------------------------------------------


def clock_step(state: TtrState) -> list[str]:
    """Turn over the next Station Clock card and apply its colour match or Locomotive sweep."""
    notes: list[str] = []
    if state.clock_card >= 0:
        state.discard[state.clock_card] += 1
    card = state.clock_deck.pop()
    state.clock_card = card
    emptied: list[int] = []
    if card == LOCO:
        emptied = [i for i, s in enumerate(state.slots) if s == LOCO]
        if emptied:
            notes.append(
                f"The Station Clock turns up a Locomotive and sweeps away "
                f"{plural(len(emptied), 'face-up Locomotive')}."
            )
        else:
            notes.append("The Station Clock turns up a Locomotive.")
    else:
        emptied = [i for i, s in enumerate(state.slots) if s == card]
        name = CARD_NAMES[card]
        if emptied:
            notes.append(
                f"The Station Clock turns up {name}, matching {len(emptied)} face-up {name}: "
                "they are discarded."
            )
        else:
            notes.append(f"The Station Clock turns up {name}.")
    for i in emptied:
        state.discard[state.slots[i]] += 1
        state.slots[i] = -1
    refill(state, emptied)
    notes.extend(settle(state))
    return notes


def settle(state: TtrState) -> list[str]:
    """Solo robbing until stable: in each colour both in the Railyard and face up, the larger
    side robs the smaller (ties never rob); colours are checked in order, again after each
    robbery. Robbed face-up cards are replaced from the deck at once."""
    notes: list[str] = []
    # The draw area's cards your sets rob, told in one sentence where the first is, as the
    # draw area robbing you is: colour -> [your set's size, face-up cards robbed first, more
    # robbed as it was refilled]. A dict keeps the order they were robbed in.
    won: dict[int, list[int]] = {}
    won_at = 0
    # Your sets the draw area robs, told in one sentence where the first is (two sentences
    # of the same shape read as a repeated line): (face-up count, colour name, set size).
    lost: list[tuple[int, str, int]] = []
    lost_at = 0
    nat, loco = state.yard_nat[0], state.yard_loco[0]
    while True:
        up = face_up_counts(state)
        for c in range(NCOL):
            mine = nat[c] + loco[c]
            if mine and up[c] and mine != up[c]:
                name = CARD_NAMES[c]
                if up[c] > mine:
                    discard_set(state, 0, c)
                    if not lost:
                        lost_at = len(notes)
                        notes.append("")
                    lost.append((up[c], name, mine))
                    notes[lost_at] = _robbed_sentence(lost)
                else:
                    emptied = [i for i, s in enumerate(state.slots) if s == c]
                    for i in emptied:
                        state.slots[i] = -1
                    state.discard[c] += up[c]
                    if state.clock_card == c:
                        state.clock_card = -1
                    refill(state, emptied)
                    if not won:
                        won_at = len(notes)
                        notes.append("")
                    if c in won:
                        # The cards dealt in their place showed the colour again: one sentence
                        # (twice the same one read as a repeated line).
                        won[c][2] += up[c]
                    else:
                        won[c] = [mine, up[c], 0]
                    notes[won_at] = _robbing_sentence(won)
                break
        else:
            return notes


def _robbing_sentence(won: dict[int, list[int]]) -> str:
    """One sentence for every set of yours that robbed the draw area: "Your 3 Red rob the draw
    area's 2 Red", then "and your 2 Blue its 1 Blue" for more; cards robbed again as the draw
    area was refilled are told after their colour's first robbery."""
    several = len(won) > 1
    parts: list[str] = []
    for c, (mine, first, more) in won.items():
        name = CARD_NAMES[c]
        robbed = f"{first} {name}"
        if more:
            # Inside a list of robberies a comma would blur where one ends: brackets there.
            then = f"then {more} more as it was refilled"
            robbed += f" ({then})" if several else f", {then}"
        if parts:
            parts.append(f"your {mine} {name} its {robbed}")
        else:
            parts.append(f"{mine} {name} rob the draw area's {robbed}")
    return f"Your {names(parts)}."


def _robbed_sentence(lost: Sequence[tuple[int, str, int]]) -> str:
    """One sentence for every set of yours the draw area robbed: "The draw area's 3 Red rob
    your Red set (2 cards discarded)", then "and its 2 Blue your Blue set (…)" for more."""

    def part(up: int, name: str, mine: int, verb: str) -> str:
        return f"{up} {name}{verb} your {name} set ({plural(mine, 'card')} discarded)"

    (up, name, mine), *rest = lost
    parts = [part(up, name, mine, " rob"), *(f"its {part(*more, '')}" for more in rest)]
    return f"The draw area's {names(parts)}."


# --- the end ------------------------------------------------------------------------------------


def compute_result(state: TtrState) -> None:
    if state.solo:
        state.result = score_solo(state.tickets[0], state.track[0], state.hidden_tickets)
    else:
        state.result = score_standard(
            state.tickets, state.track, [state.active(s) for s in range(state.seats)]
        )


def finish(state: TtrState, reason: str, gave_up: bool = False) -> None:
    """Final scoring: the winners (highest total; solo: beat the hidden opponent, unless the
    player ``gave_up``). The end's reason says why the game ended (solo: and the two totals),
    never who won: every front end announces that once, in its own words ("🏆 Ann won!", the
    image's "Ann wins!"), with the scores beside it."""
    state.phase = OVER
    state.final_queue = []
    compute_result(state)
    result = state.result
    assert result is not None
    if state.solo:
        me = result.seats[0]
        opponent = result.opponent
        assert opponent is not None
        if gave_up:
            state.winners = ()
            verdict = f"The score stood at {me.total} to {opponent.total}."
        else:
            state.winners = (0,) if result.won else ()
            verdict = f"You scored {me.total}, the hidden tickets {opponent.total}."
        state.end_reason = f"{reason} {verdict}"
    else:
        playing = [s for s in range(state.seats) if state.active(s)]
        top = max(result.seats[s].total for s in playing)
        state.winners = tuple(s for s in playing if result.seats[s].total == top)
        state.end_reason = reason
    state.caption = (state.caption + " " + state.end_reason).strip()

"""Mille Bornes Solo: which cards clear which, the automatic draws and the end
(docs/rules/solo.md).

Every move clears one highway top card with a card from the hand (or a claimed distance card).
When no move exists the engine acts by itself: it refuels an empty tank if the preset allows,
then draws up to seven cards, or discards a full hand of seven and draws seven new ones. It
repeats that until a move exists or the game is over, so the player is only ever asked to
choose between clearing moves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine.core import IllegalMove, NotYourTurn
from bot.engine.mille.cards import REMEDY_FOR, Card, distance_word
from bot.engine.solo.state import (
    HAND_SIZE,
    HIGHWAY_CARDS,
    HIGHWAY_DEPTH,
    HIGHWAYS,
    Action,
    SoloState,
)
from bot.engine.words import plural

FAMILY: dict[Card, str] = {
    Card.OUT_OF_GAS: "gas",
    Card.GASOLINE: "gas",
    Card.EXTRA_TANK: "gas",
    Card.FLAT_TIRE: "tire",
    Card.SPARE_TIRE: "tire",
    Card.PUNCTURE_PROOF: "tire",
    Card.ACCIDENT: "crash",
    Card.REPAIRS: "crash",
    Card.DRIVING_ACE: "crash",
    Card.STOP: "light",
    Card.GO: "light",
    Card.RIGHT_OF_WAY: "light",
    Card.SPEED_LIMIT: "limit",
    Card.END_OF_LIMIT: "limit",
}
"""The ``easy`` preset's families: any two cards of one family cancel
(docs/rules/solo.md, Play).

Right of Way belongs to the Stop/Go family only, exactly as docs/rules/solo.md (Play and
Rulings) lists the families."""

_ORDER = {card: index for index, card in enumerate(Card)}


def card_order(card: Card) -> int:
    """The fixed order of card faces (distance, hazards, remedies, safeties)."""
    return _ORDER[card]


# --- which cards pair ----------------------------------------------------------------------


def pairs(card: Card, top: Card, easy: bool) -> bool:
    """Does ``card`` from the hand clear the highway top card ``top``?"""
    if card.is_distance or top.is_distance:
        if card is top:
            return True  # equal distance cards (200 on 200 included)
        # Any safety and any 200, in both directions.
        return (card is Card.D200 and top.is_safety) or (card.is_safety and top is Card.D200)
    if REMEDY_FOR.get(top) is card or REMEDY_FOR.get(card) is top:
        return True  # a remedy on its hazard, or a hazard on its remedy
    return easy and FAMILY[card] == FAMILY[top]


def claimed_card(card: Card, top: Card) -> Card | None:
    """The distance card that goes in front of you when ``card`` clears ``top`` (or None)."""
    if card.is_distance:
        return card  # equal distance (keep one of two identical cards) or a 200 on a safety
    if top.is_distance:
        return top  # a safety on a 200
    return None


def has_move(state: SoloState) -> bool:
    easy = state.preset == "easy"
    claimed = set(state.miles)
    held = set(state.hand)
    for pile in state.highways:
        if not pile:
            continue
        top = pile[-1]
        if top in claimed:
            return True
        if any(pairs(card, top, easy) for card in held):
            return True
    return False


def legal_actions(state: SoloState) -> list[Action]:
    """Every clearing move, highway by highway, hand cards in card order, sacrifice last."""
    if state.result is not None:
        return []
    easy = state.preset == "easy"
    held = sorted(set(state.hand), key=card_order)
    claimed = set(state.miles)
    actions: list[Action] = []
    for number in range(1, HIGHWAYS + 1):
        top = state.top(number)
        if top is None:
            continue
        actions.extend(Action("clear", number, card) for card in held if pairs(card, top, easy))
        if top in claimed:
            actions.append(Action("sacrifice", number, top))
    return actions


def why_not(state: SoloState, action: Action) -> str | None:
    """None if ``action`` is legal now, else the reason in a sentence a player can read."""
    if state.result is not None:
        return "This game is over."
    if not 1 <= action.highway <= HIGHWAYS:
        return f"There are seven highways, numbered 1 to {HIGHWAYS}."
    top = state.top(action.highway)
    if top is None:
        return f"Highway {action.highway} is already cleared."
    card = action.card
    lang = state.options.get("names", "en")
    shows = f"Highway {action.highway} shows {top.name_in(lang)}"
    if action.verb == "sacrifice":
        if not card.is_distance:
            return "Only a distance card claimed in front of you can be sacrificed."
        if card not in state.miles:
            return f"You have no claimed {card.name_in(lang)} in front of you to sacrifice."
        if top is not card:
            return f"{shows}: a sacrifice needs a distance card of the same value there."
        return None
    if card not in state.hand:
        return f"You do not hold {card.name_in(lang)}."
    if pairs(card, top, state.preset == "easy"):
        return None
    return f"{shows}, and {card.name_in(lang)} does not clear it: {_pairing_rule(state)}"


def _pairing_rule(state: SoloState) -> str:
    rule = (
        "a remedy clears its hazard, a hazard its remedy, a distance card an equal one, "
        "and a safety any 200 (or a 200 any safety)"
    )
    if state.preset == "easy":
        rule += "; in the easy preset any two cards of one family cancel too"
    return rule + "."


# --- dealing -------------------------------------------------------------------------------


def shuffled_deck(deck: Sequence[Card], seed: int) -> list[Card]:
    cards = list(deck)
    random.Random(f"solo:{seed}").shuffle(cards)
    return cards


def deal(state: SoloState, cards: Sequence[Card]) -> None:
    """Deal ``cards`` (top of the deck first) into ``state``, then settle the start.

    Deal order: highway 1 takes the first seven cards, highway 2 the next seven, and so on;
    each pile is dealt bottom up, so its seventh card is the face-up top. The hand takes the
    next seven cards and the rest is the tank, its first card drawn first.
    """
    cards = list(cards)
    state.highways = [cards[i * HIGHWAY_DEPTH : (i + 1) * HIGHWAY_DEPTH] for i in range(HIGHWAYS)]
    state.hand = cards[HIGHWAY_CARDS : HIGHWAY_CARDS + HAND_SIZE]
    state.tank = list(reversed(cards[HIGHWAY_CARDS + HAND_SIZE :]))
    state.discard = []
    state.miles = []
    # The printed rules (classic, the daily deal's) never clear all 49: a score attack.
    goal = "clear all 49 cards"
    if state.preset == "classic":
        goal = "clear as many of the 49 cards as you can"
    _moved(state, f"Seven highways are dealt: {goal}!")
    settle(state)


# --- applying moves ------------------------------------------------------------------------


def apply(state: SoloState, seat: int, action: Action) -> SoloState:
    if seat != 0:
        raise NotYourTurn(f"Only {state.players[0]} plays this solitaire.")
    reason = why_not(state, action)
    if reason is not None:
        raise IllegalMove(reason)
    new = state.clone()
    lang = new.options.get("names", "en")
    pile = new.highways[action.highway - 1]
    top = pile.pop()
    card = action.card
    where = f"highway {action.highway}"
    if action.verb == "sacrifice":
        new.miles.remove(card)
        new.discard.extend((top, card))
        lost = f"{card.miles} {distance_word(lang)}"  # "−75 bornes" with the French names
        caption = f"You sacrifice a claimed {card.miles} on {where}: −{lost}."
    else:
        new.hand.remove(card)
        claim = claimed_card(card, top)
        other = top if claim is card else card
        if claim is None:
            new.discard.extend((top, card))
        else:
            new.miles.append(claim)
            new.discard.append(other)
        caption = _clear_caption(card, top, where, claim, new.preset == "easy", lang)
    if pile:
        caption += f" Highway {action.highway} now shows {pile[-1].name_in(lang)}."
    else:
        caption += f" Highway {action.highway} is clear."
    new.moves += 1
    _moved(new, caption)
    settle(new)
    return new


def _clear_caption(
    card: Card, top: Card, where: str, claim: Card | None, easy: bool, lang: str
) -> str:
    name, on = card.name_in(lang), top.name_in(lang)
    if claim is not None:
        gain = f"+{claim.miles} {distance_word(lang)}"  # "+75 bornes" beside "75 bornes"
        if card is top:
            return f"Your {name} matches the {on} on {where}: {gain}."
        return f"{name} clears the {on} on {where}: {gain}."
    if easy and REMEDY_FOR.get(top) is not card and REMEDY_FOR.get(card) is not top:
        return f"{name} cancels the {on} on {where} (same family)."
    return f"{name} clears the {on} on {where}."


def settle(state: SoloState) -> None:
    """The automatic steps (in place): refuel, draw or wipe until a move exists or it ends.

    The first draw or wipe says why it happens ("No move: …"); the ones after it in the same
    run only say what they did, so a caption of several steps says "No move" once. Wipes in a
    row are told in one sentence with their count (a greedy refuel game can wipe a dozen
    hands after one move, and the same sentence a dozen times filled the table's box)."""
    stuck = "No move: "
    in_a_row = 0  # wipes in a row just before this step (each drew seven new cards)
    lead = ""  # what the first of those wipes began with ("No move: " or nothing)
    while state.result is None:
        if state.cleared == HIGHWAY_CARDS:
            _finish_cleared(state)
            return
        if has_move(state):
            return
        if not state.tank and state.refuels_left and state.discard:
            _refuel(state)
            in_a_row = 0
        if not state.tank:
            _end(
                state,
                "lost",
                f"Out of fuel: no move and an empty tank. {state.cleared}/{HIGHWAY_CARDS} "
                f"cards cleared, {_mileage(state)}.",
            )
            return
        if len(state.hand) < HAND_SIZE:
            wanted = HAND_SIZE - len(state.hand)
            got = _draw(state, wanted)
            if got < wanted:
                step = f"you draw {_the_last(got)} from the tank."
            else:
                step = f"you draw {plural(got, 'card')}."
            in_a_row = 0
        else:
            state.discard.extend(state.hand)
            state.hand = []
            state.wipes += 1
            got = _draw(state, HAND_SIZE)
            if in_a_row:
                state.events.pop()  # this wipe joins the sentence of the ones before it
            else:
                lead = stuck
            in_a_row += 1
            step = _wiped(in_a_row, got)
            stuck = lead
        _event(state, f"{stuck}{step}" if stuck else step[0].upper() + step[1:])
        stuck = ""


def _wiped(times: int, got: int) -> str:
    """A run of ``times`` wipes in a row, the last of them drawing ``got`` cards (fewer than
    seven only when the tank ran out, which ends the run)."""
    if times == 1:
        drawn = f"{_the_last(got)} drawn" if got < HAND_SIZE else f"{got} new cards drawn"
        return f"the whole hand is discarded and {drawn}."
    said = f"the whole hand is discarded {_times(times)}, {HAND_SIZE} new cards drawn"
    if got < HAND_SIZE:
        return f"{said} {_times(times - 1)} and then {_the_last(got)}."
    return f"{said} each time."


def _times(n: int) -> str:
    """How often: "once", "twice", "3 times"."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _moved(state: SoloState, text: str) -> None:
    state.last_move = text
    state.events = []
    state.caption = text


def _event(state: SoloState, text: str) -> None:
    """Record an automatic step; the caption (what the bot says) carries it too."""
    state.events.append(text)
    state.caption = " ".join((state.last_move, *state.events))


def _draw(state: SoloState, wanted: int) -> int:
    got = min(wanted, len(state.tank))
    for _ in range(got):
        state.hand.append(state.tank.pop())
    return got


def _refuel(state: SoloState) -> None:
    # The shuffle comes from the stored seed and the refuel's number, so a game replays
    # exactly from its start and its move log.
    state.refuels_used += 1
    cards = state.discard
    random.Random(f"solo:{state.seed}:refuel:{state.refuels_used}").shuffle(cards)
    state.tank = cards
    state.discard = []
    left = state.refuels_left
    _event(
        state,
        f"Refuel: the discard pile ({plural(len(cards), 'card')}) goes back into the tank "
        f"({plural(left, 'refuel') if left else 'no refuels'} left).",
    )


def _finish_cleared(state: SoloState) -> None:
    strict = state.options.get("require_fuel_left") == "on"
    if strict and not state.tank:
        _end(
            state,
            "lost",
            f"{HIGHWAY_CARDS}/{HIGHWAY_CARDS} cards cleared, but the tank is empty: the strict "
            f"rule needs at least one card left. {_mileage(state)}.",
        )
        return
    fuel = f" with {plural(len(state.tank), 'card')} left in the tank" if state.tank else ""
    _end(
        state,
        "won",
        f"Every highway is clear ({HIGHWAY_CARDS}/{HIGHWAY_CARDS} cards){fuel}: {_mileage(state)}!",
    )


def _end(state: SoloState, result: str, reason: str) -> None:
    state.result = "won" if result == "won" else "lost"
    state.end_reason = reason
    _event(state, reason)


def _mileage(state: SoloState) -> str:
    """The miles in front of you as the end says them: "200 miles", or "200 bornes" with the
    French names, as their distance cards count."""
    return f"{state.mileage} {distance_word(state.options.get('names', 'en'))}"


def _the_last(n: int) -> str:
    """The tank's last cards: "the last card", "the last 4 cards" (never "the last 1 card")."""
    return "the last card" if n == 1 else f"the last {n} cards"


def rank_key(state: SoloState) -> tuple[int, int, int]:
    """How leaderboards order finished games: wins, then cards cleared, then miles."""
    return (1 if state.result == "won" else 0, state.cleared, state.mileage)

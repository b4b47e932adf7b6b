"""Mille Bornes turn flow and legality, as the BSD ``mille`` program plays it
(docs/rules/mille.md).

A turn is: draw one card, then play or discard one. The draw happens by itself unless the
player holds the safety for a hazard showing on their piles, in which case they may first play
it (a coup fourré when the hazard is fresh). Like the BSD program, a draw fills the hand back
towards seven cards but takes at most two: one card normally, two after a safety played before
drawing (and two again next turn if two such safeties left the hand short).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine.core import IllegalMove, NotYourTurn
from bot.engine.mille.cards import (
    BATTLE_HAZARDS,
    DECK_PLACE,
    HAZARD_FOR,
    HAZARD_SET,
    HAZARDS_STOPPED_BY,
    MILES_OF,
    REMEDY_SET,
    SAFETY_FOR,
    SAFETY_SET,
    Card,
    distance_word,
    full_deck,
)
from bot.engine.mille.scoring import score_hand
from bot.engine.mille.state import (
    DECLINE_EXTENSION,
    DRAW,
    EXTEND,
    Action,
    BattleMark,
    MilleState,
    Phase,
    Tableau,
)

HAND_SIZE = 6
_BATTLE_REMEDIES = (Card.GASOLINE, Card.SPARE_TIRE, Card.REPAIRS)
TRIP = 700
EXTENDED_TRIP = 1000
MATCH_TARGET = 5000


# --- reading the table -------------------------------------------------------------------


def can_go(t: Tableau) -> bool:
    """May this player put down distance (a Go showing, or Right of Way and no hazard)?"""
    top = t.battle_shows
    if top is Card.GO:
        return True
    if top in HAZARD_SET:
        return False
    return Card.RIGHT_OF_WAY in t.safeties


def is_limited(t: Tableau) -> bool:
    return t.speed_top is Card.SPEED_LIMIT


def showing_hazards(t: Tableau) -> list[Card]:
    """The hazards on top of this player's battle and speed piles."""
    shown = []
    top = t.battle_shows
    if top in HAZARD_SET:
        shown.append(top)
    if t.speed_top is Card.SPEED_LIMIT:
        shown.append(Card.SPEED_LIMIT)
    return shown


def counters_showing(t: Tableau, safety: Card) -> bool:
    """Does ``safety`` remove a hazard that is showing on this player's piles?"""
    return any(SAFETY_FOR[hazard] is safety for hazard in showing_hazards(t))


def is_coup(t: Tableau, safety: Card) -> bool:
    """Would playing ``safety`` now be a coup fourré (it parries a hazard that just landed)?"""
    return any(
        SAFETY_FOR[hazard] is safety and hazard in t.fresh_hazards for hazard in showing_hazards(t)
    )


def why_not_play(state: MilleState, seat: int, card: Card) -> str | None:
    """None if ``seat`` may play ``card`` now (in the act phase), else the reason in words."""
    me = state.tableaus[seat]
    them = state.tableaus[state.opponent(seat)]
    rival = state.players[state.opponent(seat)]
    if card in SAFETY_SET:
        return None
    miles = MILES_OF.get(card)
    if miles is not None:
        if not can_go(me):
            return (
                f"You cannot move yet: you need a {_named(state, Card.GO)} (or "
                f"{_named(state, Card.RIGHT_OF_WAY)}) with no hazard showing."
            )
        if is_limited(me) and miles > 50:
            return (
                f"You are under a {_named(state, Card.SPEED_LIMIT)}: only 25 and 50 "
                f"{_distance(state)} may be played."
            )
        if card is Card.D200 and me.two_hundreds >= 2:
            return "You have already played two 200s this hand."
        if me.mileage + miles > state.target:
            return (
                f"That would take you past {state.target} {_distance(state)}; the trip must end "
                "exactly."
            )
        return None
    if card in BATTLE_HAZARDS:
        if SAFETY_FOR[card] in them.safeties:
            return f"{rival} is protected against {_named(state, card)}."
        if not can_go(them):
            return f"{rival} is not moving, so {_named(state, card)} cannot be played on them."
        return None
    if card is Card.SPEED_LIMIT:
        if Card.RIGHT_OF_WAY in them.safeties:
            return f"{rival} has {_named(state, Card.RIGHT_OF_WAY)} and cannot be speed-limited."
        if is_limited(them):
            return f"{rival} is already under a {_named(state, card)}."
        return None
    if card is Card.GO:
        # Right of Way makes no exception (the bsd-games program accepts Go under it).
        top = me.battle_shows
        if top is None or top is Card.STOP or (top in REMEDY_SET and top is not Card.GO):
            return None
        if top is Card.GO:
            return f"You already have a {_named(state, card)} showing."
        return f"Fix the {_named(state, top)} first: {_named(state, card)} cannot cover it."
    if card is Card.END_OF_LIMIT:
        if is_limited(me):
            return None
        return f"You are not under a {_named(state, Card.SPEED_LIMIT)}."
    # Gasoline, Spare Tire, Repairs: only on their own hazard.
    hazard = HAZARD_FOR[card]
    if me.battle_shows is hazard:
        return None
    return (
        f"{_named(state, card)} only repairs {_named(state, hazard)}, and that is not on your "
        "battle pile."
    )


def playable(state: MilleState, seat: int, card: Card) -> bool:
    return why_not_play(state, seat, card) is None


def playable_cards(state: MilleState, seat: int, cards: Sequence[Card]) -> list[Card]:
    """The cards of ``cards`` that ``seat`` may play now (in the act phase), in their order.

    The same answers as ``why_not_play`` (a test holds them to it) without wording a refusal
    for every card that cannot be played: searches ask this for every move of every playout.
    """
    me = state.tableaus[seat]
    them = state.tableaus[1 - seat]
    shows = me.battle_shows
    limited = me.speed_top is Card.SPEED_LIMIT
    moving: bool | None = None
    left: int | None = None
    they_move: bool | None = None
    found: list[Card] = []
    for card in cards:
        if card in SAFETY_SET:
            found.append(card)
            continue
        miles = MILES_OF.get(card)
        if miles is not None:
            if moving is None:
                moving = can_go(me)
                left = state.target - me.mileage
            assert left is not None
            if (
                moving
                and not (limited and miles > 50)
                and not (card is Card.D200 and me.two_hundreds >= 2)
                and miles <= left
            ):
                found.append(card)
        elif card is Card.SPEED_LIMIT:
            if Card.RIGHT_OF_WAY not in them.safeties and them.speed_top is not Card.SPEED_LIMIT:
                found.append(card)
        elif card in HAZARD_SET:
            if they_move is None:
                they_move = can_go(them)
            if they_move and SAFETY_FOR[card] not in them.safeties:
                found.append(card)
        elif card is Card.GO:
            if shows is None or shows is Card.STOP or (shows in REMEDY_SET and shows is not card):
                found.append(card)
        elif card is Card.END_OF_LIMIT:
            if limited:
                found.append(card)
        elif shows is HAZARD_FOR[card]:
            found.append(card)
    return found


def counts_as_playable(state: MilleState, seat: int, card: Card) -> bool:
    """Does ``card`` keep the hand going once the deck is empty?

    This is the BSD program's own test (``canplay`` in comp.c, used by ``check_go``), which is
    narrower than what may legally be played in two places: a Go counts only for a player who
    cannot go yet (not for one moving under Right of Way), and a Speed Limit only while the
    opponent is more than 50 miles short of the target. A safety always counts.
    """
    if card in SAFETY_SET:
        return True
    if not playable_cards(state, seat, (card,)):
        return False
    if card is Card.GO:
        return not can_go(state.tableaus[seat])
    if card is Card.SPEED_LIMIT:
        return state.tableaus[state.opponent(seat)].mileage + 50 < state.target
    return True


def holds_playable(state: MilleState, seat: int) -> bool:
    """Used with the deck empty: the hand ends when neither player holds a playable card."""
    return any(counts_as_playable(state, seat, card) for card in set(state.tableaus[seat].hand))


def draw_size(t: Tableau) -> int:
    """How many cards this player's next draw takes (fewer if the deck runs short).

    The BSD program draws into the empty slots of a seven-slot hand, at most two: one card
    from a full hand of six, two once a safety played before drawing has left five or fewer.
    """
    return 1 if len(t.hand) >= HAND_SIZE else 2


# --- legal actions -------------------------------------------------------------------------


def legal_actions(state: MilleState, seat: int) -> list[Action]:
    if state.phase is Phase.OVER or seat != state.turn:
        return []
    if state.phase is Phase.EXTENSION:
        return [EXTEND, DECLINE_EXTENSION]
    me = state.tableaus[seat]
    distinct = sorted(set(me.hand), key=_DECK_PLACE)  # in_deck_order's, without its call
    if state.phase is Phase.DRAW:
        coups = [_PLAY[c] for c in distinct if c in SAFETY_SET and counters_showing(me, c)]
        return [DRAW, *coups]
    plays = [_PLAY[c] for c in playable_cards(state, seat, distinct)]
    discards = [_DISCARD[c] for c in distinct if c not in SAFETY_SET]
    return plays + discards


# Actions are values: the same prebuilt object serves every state.
_PLAY = {card: Action("play", card) for card in Card}
_DISCARD = {card: Action("discard", card) for card in Card}
_DECK_PLACE = DECK_PLACE.__getitem__  # sorts a hand's cards in deck order


# --- dealing and turn flow -----------------------------------------------------------------


def deal_hand(
    state: MilleState, first_player: int, order: Sequence[Card] | None, seed_text: str
) -> None:
    """Deal a new hand into ``state`` (in place): six cards each, the first player to draw."""
    deck_name = state.options["deck"]
    cards = list(order) if order is not None else full_deck(deck_name)
    if order is None:
        random.Random(seed_text).shuffle(cards)
    # Seat 0 takes the first six cards and seat 1 the next six whoever starts, so a stacked
    # deck reads the same way in every hand.
    state.tableaus = [
        Tableau(hand=cards[0:HAND_SIZE]),
        Tableau(hand=cards[HAND_SIZE : 2 * HAND_SIZE]),
    ]
    state.draw_pile = list(reversed(cards[2 * HAND_SIZE :]))
    state.discard = []
    state.first_player = first_player
    state.target = TRIP
    state.extension_decided = False
    state.extension_called = False
    state.completed_by = None
    state.delayed_action = False
    begin_turn(state, first_player)


def begin_turn(state: MilleState, seat: int) -> None:
    """Hand the turn to ``seat``: offer pre-draw safeties, else draw automatically."""
    state.turn = seat
    _settle_draw_phase(state)


def _settle_draw_phase(state: MilleState) -> None:
    seat = state.turn
    me = state.tableaus[seat]
    if not state.draw_pile:
        # No draw with an empty deck; a player with no cards left simply passes.
        state.phase = Phase.ACT
        if not me.hand:
            _pass_turn(state, seat)
        return
    shown = showing_hazards(me)
    if shown and any(SAFETY_FOR[hazard] in me.hand for hazard in shown):
        state.phase = Phase.DRAW
        return
    _draw(state, seat)


def _draw(state: MilleState, seat: int) -> None:
    me = state.tableaus[seat]
    for _ in range(draw_size(me)):
        if not state.draw_pile:
            break
        me.hand.append(state.draw_pile.pop())
    me.fresh_hazards.clear()
    state.phase = Phase.ACT
    # The draw is a move: the one that empties the deck may leave nobody a playable card
    # (the BSD program checks after it too), and then the hand ends here.
    _check_deck_empty_end(state)


def _pass_turn(state: MilleState, seat: int) -> None:
    state.tableaus[seat].fresh_hazards.clear()
    other = state.opponent(seat)
    if not state.draw_pile and not state.tableaus[other].hand and not state.tableaus[seat].hand:
        _end_hand(state, "Both hands are empty.")
        return
    begin_turn(state, other)


def _check_deck_empty_end(state: MilleState) -> bool:
    """With the deck empty the hand ends once neither player holds a playable card."""
    if state.draw_pile:
        return False
    if holds_playable(state, 0) or holds_playable(state, 1):
        return False
    _end_hand(state, "The deck ran out and neither player can play.")
    return True


# --- applying actions ----------------------------------------------------------------------


def apply(state: MilleState, seat: int, action: Action) -> MilleState:
    new = state.clone()
    apply_in_place(new, seat, action)
    return new


def apply_in_place(state: MilleState, seat: int, action: Action) -> None:
    """``apply`` without the copy, for a search that owns ``state`` (a playout's scratch
    state): ``state`` becomes the state after the move. A refused move raises before anything
    changes only as far as ``apply`` promises for its copy: pass legal actions."""
    if state.phase is Phase.OVER:
        raise IllegalMove("This game is over.")
    if seat != state.turn:
        raise NotYourTurn(f"It is not your turn: {state.players[state.turn]} is playing.")
    if state.phase is Phase.EXTENSION:
        _apply_extension(state, seat, action)
    elif state.phase is Phase.DRAW:
        _apply_before_draw(state, seat, action)
    else:
        _apply_act(state, seat, action)


def _apply_extension(state: MilleState, seat: int, action: Action) -> None:
    if action.verb != "extend" or action.extend is None:
        raise IllegalMove(
            f"First decide on the extension: go on to 1000 {_distance(state)} (extend yes) or "
            "stop at 700 (extend no)."
        )
    name = state.players[seat]
    state.extension_decided = True
    if action.extend:
        state.extension_called = True
        state.target = EXTENDED_TRIP
        state.completed_by = None
        state.delayed_action = False
        state.caption = f"{name} calls an extension: the trip is now 1000 {_distance(state)}!"
        state.phase = Phase.ACT
        _after_move(state, seat)
    else:
        # The hand's end says the trip was completed at 700 ("stops at 700 miles" said it too).
        state.caption = f"{name} declines the extension."
        _end_hand(state, f"{name} completed the trip at {TRIP} {_distance(state)}.")


def _apply_before_draw(state: MilleState, seat: int, action: Action) -> None:
    me = state.tableaus[seat]
    if action == DRAW:
        # No caption: an automatic draw leaves none either, so the choice stays private.
        _draw(state, seat)
        return
    card = action.card
    if action.verb != "play" or card is None:
        raise IllegalMove("Draw a card first (or play a safety against a hazard showing on you).")
    if card not in me.hand:
        raise IllegalMove(f"You do not hold {_named(state, card)}.")
    if not (card.is_safety and counters_showing(me, card)):
        raise IllegalMove(
            "Before drawing you may only play the safety that answers a hazard on you; draw first."
        )
    coup = is_coup(me, card)
    me.hand.remove(card)
    _play_safety(state, seat, card, coup)
    # You keep the turn; the draw you still owe now takes two cards (never more: BSD).
    _settle_draw_phase(state)


def _apply_act(state: MilleState, seat: int, action: Action) -> None:
    me = state.tableaus[seat]
    card = action.card
    if action == DRAW:
        raise IllegalMove("You have already drawn; now play a card or discard one.")
    if action.verb not in ("play", "discard") or card is None:
        raise IllegalMove("Play a card or discard one.")
    if card not in me.hand:
        raise IllegalMove(f"You do not hold {_named(state, card)}.")
    name = state.players[seat]
    if action.verb == "discard":
        if card.is_safety:
            raise IllegalMove("Safeties can never be discarded; play it instead.")
        me.hand.remove(card)
        state.discard.append(card)
        state.caption = f"{name} discards {_named(state, card)}."
        _after_move(state, seat)
        return
    reason = why_not_play(state, seat, card)
    if reason is not None:
        raise IllegalMove(reason)
    me.hand.remove(card)
    if card.is_safety:
        _play_safety(state, seat, card, is_coup(me, card))
        # A safety earns another turn: draw again, act again.
        if not _check_deck_empty_end(state):
            begin_turn(state, seat)
        return
    if card.is_distance:
        me.miles.append(card)
        state.caption = f"{name} drives {_named(state, card)} ({me.mileage} so far)."
        if me.mileage == state.target:
            _trip_completed(state, seat)
            return
    elif card.is_hazard:
        them = state.tableaus[state.opponent(seat)]
        if card is Card.SPEED_LIMIT:
            them.speed.append(card)
        else:
            _onto_battle(them, card)
        them.fresh_hazards.append(card)
        state.caption = (
            f"{name} plays {_named(state, card)} on {state.players[state.opponent(seat)]}!"
        )
    elif card is Card.END_OF_LIMIT:
        me.speed.append(card)
        state.caption = f"{name} plays {_named(state, card)}."
    else:
        _onto_battle(me, card)
        state.caption = f"{name} plays {_named(state, card)}."
    _after_move(state, seat)


def _onto_battle(t: Tableau, card: Card) -> None:
    """A card lands on a battle pile: from now on the pile counts as that card."""
    t.battle.append(card)
    t.battle_mark = BattleMark.TOP


def _set_battle_shows(t: Tableau, shows: Card | None) -> None:
    """Make the battle pile count as ``shows`` (Go or empty), marking it only if need be."""
    if t.battle_top is shows:
        t.battle_mark = BattleMark.TOP
    else:
        t.battle_mark = BattleMark.GO if shows is Card.GO else BattleMark.EMPTY


def _play_safety(state: MilleState, seat: int, card: Card, coup: bool) -> None:
    me = state.tableaus[seat]
    shows = me.battle_shows
    limited = is_limited(me)
    me.safeties.append(card)
    if coup:
        me.coups.append(card)
    # The safety removes the hazard it answers, and the battle pile then counts as the BSD
    # program sets it (move.c, playcard): Go after Extra Tank, Puncture Proof or Driving Ace;
    # after Right of Way, empty where a Stop was, else Go when a Speed Limit was lifted off an
    # empty or remedy pile. Anything else stays as it was.
    if card is Card.RIGHT_OF_WAY:
        if shows is Card.STOP:
            state.discard.append(me.battle.pop())
            _set_battle_shows(me, None)
        elif limited and (shows is None or shows in _BATTLE_REMEDIES):
            _set_battle_shows(me, Card.GO)
        if limited:
            state.discard.append(me.speed.pop())
    else:
        (hazard,) = HAZARDS_STOPPED_BY[card]
        if shows is hazard:
            state.discard.append(me.battle.pop())
            _set_battle_shows(me, Card.GO)
    for hazard in HAZARDS_STOPPED_BY[card]:
        if hazard in me.fresh_hazards:
            me.fresh_hazards.remove(hazard)
    name = state.players[seat]
    if coup:
        state.caption = f"Coup fourré! {name} parries with {_named(state, card)}."
    else:
        state.caption = f"{name} plays the safety {_named(state, card)}."


def _trip_completed(state: MilleState, seat: int) -> None:
    state.completed_by = seat
    state.delayed_action = not state.draw_pile
    if state.target == TRIP and not state.extension_decided:
        state.phase = Phase.EXTENSION
        state.caption += " Trip complete: go on to 1000?"
        return
    _end_hand(
        state,
        f"{state.players[seat]} completed the trip at {state.target} {_distance(state)}.",
    )


def _after_move(state: MilleState, seat: int) -> None:
    """After a move that ends the turn: the hand may be over, else the opponent plays."""
    if not _check_deck_empty_end(state):
        _pass_turn(state, seat)


def _end_hand(state: MilleState, reason: str) -> None:
    result = score_hand(state, reason)
    state.results = [*state.results, result]
    state.scores = [a + b for a, b in zip(state.scores, result.totals, strict=True)]
    last_move = state.caption
    # The reason stands alone on the score sheet ("Hand 1: The deck ran out…"); after the colon
    # it goes on the sentence, so its first letter is lower-cased unless it opens with a name
    # ("Hand 1 is over: the deck ran out…", found by a newcomer's review).
    named = any(reason.startswith(name) for name in state.players)
    told = reason if named else reason[:1].lower() + reason[1:]
    over = f"{last_move} Hand {state.hand_number} is over: {told}".strip()
    if state.options["length"] == "hand":
        # The last message says why the hand ended before the result line ("The single hand
        # is over."): the last move alone ("Alice discards 25 miles.") did not.
        state.caption = f"{last_move} {reason}".strip()
        _end_match(state, list(result.totals), "The single hand is over.")
        return
    if max(state.scores) >= MATCH_TARGET:
        state.caption = over
        _end_match(state, state.scores, f"{MATCH_TARGET} points reached.")
        return
    next_first = state.opponent(state.first_player)
    state.hand_number += 1
    deal_hand(state, next_first, None, hand_seed(state.seed, state.hand_number))
    state.caption = f"{over} {hand_opening(state.hand_number, state.players[next_first])}"


def hand_opening(number: int, player: str) -> str:
    """A hand's first line, "Hand 2: Bob starts.": the last sentence of the caption of the move
    that ended the hand before it, which the front ends say with the new hand's table."""
    return f"Hand {number}: {player} starts."


def _end_match(state: MilleState, totals: list[int], reason: str) -> None:
    state.phase = Phase.OVER
    best = max(totals)
    leaders = tuple(seat for seat, total in enumerate(totals) if total == best)
    state.winners = leaders if len(leaders) == 1 else ()
    state.end_reason = reason


def _named(state: MilleState, card: Card) -> str:
    """A card's name in the table's language, for captions."""
    return card.name_in(state.options.get("names", "en"))


def _distance(state: MilleState) -> str:
    """What the table's distance cards count in ("miles", "bornes"), for captions and refusals."""
    return distance_word(state.options.get("names", "en"))


def hand_seed(seed: int, hand_number: int) -> str:
    """Each hand's shuffle comes from the match seed and the hand number: replays exactly."""
    return f"mille:{seed}:{hand_number}"

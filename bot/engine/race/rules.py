"""1000 Mile Race turn flow and legality (docs/rules/race.md, its Rulings included).

A turn: the automatic draw, then the play phase (up to one card each of miles, hazard and removal,
in any order; trumps and Pit Crew free and unlimited) or a cycle, then the end of the turn.
Cards that may be answered go on a stack; the opponent of the top card's player is asked only
when they hold the answer (Coup Fourré to a hazard on them, Roadblock to miles, Jammer to a
trump, removal or cheat), and the stack resolves last in, first out once somebody passes or
nobody can answer.
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from collections.abc import Sequence

from bot.engine.core import IllegalMove, NotYourTurn
from bot.engine.race.cards import (
    ANSWERS,
    CHEAT,
    COUP_FOURRE,
    HAND_LIMIT,
    HAZARD,
    HAZARDS,
    JAMMER,
    MAX_200S,
    MILES,
    MILES_OF,
    NAME,
    OPENING_HAND,
    ORDER,
    PIT_CREW,
    REACTIONS,
    REMOVAL,
    ROADBLOCK,
    SLOW_MILES,
    SPEED_TRAP,
    STOPPING_HAZARDS,
    TARGET,
    TOW_TRUCK,
    TRUMP,
    TRUMPS,
    TYPE_OF,
    sort_cards,
)
from bot.engine.race.state import END, PASS, VERBS, Action, Entry, Phase, RaceState, Side
from bot.engine.words import plural

_ORDER_KEY = ORDER.__getitem__


# --- reading the table -------------------------------------------------------------------


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


def both_skipped(state: RaceState) -> bool:
    return state.sides[0].skipped and state.sides[1].skipped


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
            return "Say which hazard the Tow Truck removes, e.g. 'play tow-truck on red-light'."
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


# --- legal actions -------------------------------------------------------------------------


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


# --- dealing -------------------------------------------------------------------------------


def reveal_first_player(libraries: Sequence[Sequence[str]]) -> tuple[int, list[list[str]]]:
    """Both players reveal from the top until each shows a miles card; higher miles starts.

    A tie repeats, each continuing from where they stopped. Returns the first seat and what
    each seat revealed. If both libraries run out of miles still tied (only possible with
    identically stacked decks), Red (seat 0) starts.
    """
    pos = [0, 0]
    shown: list[list[str]] = [[], []]
    while True:
        found: list[int] = []
        for seat in (0, 1):
            lib = libraries[seat]
            value = -1
            while pos[seat] < len(lib):
                card = lib[pos[seat]]
                pos[seat] += 1
                shown[seat].append(card)
                if TYPE_OF[card] == MILES:
                    value = MILES_OF[card]
                    break
            found.append(value)
        if found[0] != found[1]:
            return (0 if found[0] > found[1] else 1), shown
        if found[0] < 0:
            return 0, shown


def deal(state: RaceState, libraries: Sequence[Sequence[str]], shuffle: bool) -> None:
    """Set up a new game in place: reveal for the first player, reshuffle, deal seven each.

    ``libraries`` are the two decks top first. With ``shuffle`` false (a stacked deck) the
    reshuffle after the reveal keeps the given order, so tests control every draw.
    """
    first, shown = reveal_first_player(libraries)
    state.first_player = first
    state.reveal = (tuple(shown[0]), tuple(shown[1]))
    sides = []
    for seat, deck in enumerate(libraries):
        cards = list(deck)
        if shuffle:
            random.Random(f"race:{state.seed}:deal:{seat}").shuffle(cards)
        hand = sort_cards(cards[:OPENING_HAND])
        sides.append(Side(library=cards[OPENING_HAND:][::-1], hand=hand))
    state.sides = sides
    names = state.players
    revealed = "; ".join(
        f"{names[s]} revealed {', '.join(NAME[c] for c in shown[s])}" for s in (0, 1)
    )
    intro = f"{revealed}. {_why_first(shown, first)}{names[first]} goes first."
    begin_turn(state, first)
    state.caption = f"{intro} {state.caption}".strip()


def _why_first(shown: Sequence[Sequence[str]], first: int) -> str:
    """Why the reveal chose ``first``, for a newcomer who sees two lists of cards: "100 miles
    beats 50 miles: ", after any ties ("A tie at 50 miles, then …")."""
    miles = [[MILES_OF[c] for c in cards if TYPE_OF[c] == MILES] for cards in shown]
    pairs = list(zip(miles[0], miles[1], strict=False))
    ties = [a for a, b in pairs if a == b]
    before = "".join(f"a tie at {m} miles, then " for m in ties)
    if len(miles[0]) == len(miles[1]) and len(ties) == len(pairs):
        # Identically stacked decks: no miles card ever differed.
        return "No miles card differed, so Red starts: "
    if len(miles[first]) > len(miles[1 - first]):
        # The other library ran out of miles cards (a stacked deck).
        why = f"{before}only one player revealed a miles card: "
    else:
        why = f"{before}{miles[first][-1]} miles beats {miles[1 - first][-1]} miles: "
    return why[0].upper() + why[1:]


# --- drawing -------------------------------------------------------------------------------


def draw(state: RaceState, seat: int, count: int) -> tuple[int, bool]:
    """Draw ``count`` cards for ``seat``; returns (cards drawn, reshuffled just now).

    An empty library is refilled once from the junkyard (shuffled); that reshuffle is used up
    even when the junkyard is empty. After it, draws are skipped.
    """
    side = state.sides[seat]
    drawn = 0
    reshuffled = False
    for _ in range(count):
        if not side.library:
            if side.reshuffled:
                break
            side.reshuffled = True
            reshuffled = True
            side.library = side.junkyard
            side.junkyard = []
            random.Random(f"race:{state.seed}:junkyard:{seat}").shuffle(side.library)
            if not side.library:
                break
        insort(side.hand, side.library.pop(), key=_ORDER_KEY)
        drawn += 1
    return drawn, reshuffled


def _draws(drawn: int) -> str:
    """The verb and what it took: "draws 2 cards", "draws nothing" (an empty library)."""
    return f"draws {plural(drawn, 'card')}" if drawn else "draws nothing"


def _draw_note(state: RaceState, seat: int, drawn: int, reshuffled: bool, wanted: int) -> str:
    name = state.players[seat]
    parts = []
    if reshuffled:
        parts.append(f"{name} shuffles the junkyard into the library.")
    if drawn < wanted:
        missed = wanted - drawn
        verb = "is" if missed == 1 else "are"
        parts.append(f"{name} has an empty library: {plural(missed, 'card')} {verb} not drawn.")
    return " ".join(parts)


# --- turn flow -----------------------------------------------------------------------------


def begin_turn(state: RaceState, seat: int) -> None:
    """Hand the turn to ``seat``: the automatic draw, then the play phase.

    A turn with nothing to do but end it ends at once; the game ends when both players'
    draws are skipped and neither holds a card.
    """
    while True:
        state.turn = seat
        state.turn_number += 1
        state.phase = Phase.PLAY
        state.stack = []
        state.played_miles = state.played_hazard = state.played_removal = False
        state.cycled = state.acted = False
        drawn, reshuffled = draw(state, seat, 1)
        if reshuffled or not drawn:
            note = _draw_note(state, seat, drawn, reshuffled, 1)
            state.caption = f"{state.caption} {note}".strip()
        if both_skipped(state) and not state.sides[0].hand and not state.sides[1].hand:
            _end_by_exhaustion(state, "Both libraries are spent and neither player can act.")
            return
        if has_choice(state):
            return
        # Nothing to do but end: the turn ends by itself.
        state.caption = f"{state.caption} {state.players[seat]} can do nothing and passes.".strip()
        if not _close_turn(state):
            return
        seat = 1 - seat


def end_turn(state: RaceState) -> None:
    """The end of the active player's turn, in the ruled order (reactions already resolved):
    exact 1000 wins, then the hand-limit discard, then the legendary rule."""
    seat = state.turn
    if state.sides[seat].total == TARGET:
        _win(state, seat)
        return
    if len(state.sides[seat].hand) > HAND_LIMIT:
        state.phase = Phase.DISCARD
        extra = len(state.sides[seat].hand) - HAND_LIMIT
        state.caption = (
            f"{state.caption} {state.players[seat]} must discard {plural(extra, 'card')} "
            f"down to {HAND_LIMIT}."
        ).strip()
        return
    if _close_turn(state):
        begin_turn(state, 1 - seat)


def _close_turn(state: RaceState) -> bool:
    """Legendary rule and the idle-turn count; False when the game ended here."""
    seat = state.turn
    if state.sides[seat].total == TARGET:  # an auto-ended turn can still finish the race
        _win(state, seat)
        return False
    _legendary(state)
    if both_skipped(state) and not state.acted:
        state.idle_turns += 1
    else:
        state.idle_turns = 0
    if state.idle_turns >= 2:
        _end_by_exhaustion(
            state, "Both libraries are spent and two turns in a row passed without a play."
        )
        return False
    return True


def _legendary(state: RaceState) -> None:
    a, b = state.sides
    if not a.trumps or not b.trumps:
        return
    for trump in TRUMPS:
        if trump in a.trumps and trump in b.trumps:
            a.trumps.remove(trump)
            b.trumps.remove(trump)
            a.junkyard.append(trump)
            b.junkyard.append(trump)
            # The legendary rule, said as what happened and why rather than by its name.
            state.caption = (
                f"{state.caption} Both players have {NAME[trump]} in play, so both "
                f"{NAME[trump]} cards go to the junkyards."
            ).strip()


def _win(state: RaceState, seat: int) -> None:
    state.phase = Phase.OVER
    state.winners = (seat,)
    state.stack = []
    state.end_reason = f"{state.players[seat]} reached exactly {TARGET} miles."
    state.caption = f"{state.caption} {state.end_reason}".strip()


def _end_by_exhaustion(state: RaceState, why: str) -> None:
    state.phase = Phase.OVER
    state.stack = []
    totals = [side.total for side in state.sides]
    if totals[0] == totals[1]:
        state.winners = ()
        state.end_reason = f"{why} The miles are equal."
    else:
        leader = 0 if totals[0] > totals[1] else 1
        state.winners = (leader,)
        # Who won, and the miles, are the result's own line (and the image's banner).
        state.end_reason = f"{why} It is decided on miles."
    state.caption = f"{state.caption} {state.end_reason}".strip()


def _after_resolution(state: RaceState) -> None:
    """Back in the play phase: a finished race or a turn with nothing left ends by itself."""
    state.phase = Phase.PLAY
    if state.sides[state.turn].total == TARGET or not has_choice(state):
        end_turn(state)


# --- applying actions ----------------------------------------------------------------------


def apply(state: RaceState, seat: int, action: Action) -> RaceState:
    verb = _check(state, seat, action)
    new = state.clone()
    _dispatch(new, seat, verb, action)
    return new


def apply_in_place(state: RaceState, seat: int, action: Action) -> None:
    """``apply`` without the copy, for a search that owns ``state`` (a playout's scratch
    state): ``state`` becomes the state after the move. A refused move may leave ``state``
    half changed: pass legal actions."""
    _dispatch(state, seat, _check(state, seat, action), action)


def _check(state: RaceState, seat: int, action: Action) -> str:
    if state.phase is Phase.OVER:
        raise IllegalMove("This game is over.")
    if seat not in (0, 1):
        raise NotYourTurn("You are not seated at this table.")
    verb = _verb(action)
    _check_turn(state, seat, verb)
    return verb


def _dispatch(state: RaceState, seat: int, verb: str, action: Action) -> None:
    if state.phase is Phase.REACT:
        _apply_react(state, seat, verb, action)
    elif state.phase is Phase.DISCARD:
        _apply_discard(state, seat, verb, action)
    else:
        _apply_play(state, seat, verb, action)


def _verb(action: Action) -> str:
    """The action's verb, after checking its shape (actions built by hand may be wrong)."""
    try:
        verb = action[0]
        size = len(action)
        if verb == "cycle":
            ok = size >= 2
        elif verb == "play":
            ok = size == 2 or (size == 3 and action[1] == TOW_TRUCK and action[2] in HAZARDS)
        elif verb in ("pass", "end"):
            ok = size == 1
        else:
            ok = size == 2 and verb in VERBS
        if ok:
            for card in action[1:]:
                if card not in TYPE_OF:
                    ok = False
    except (TypeError, IndexError, KeyError):
        ok = False
    if not ok:
        raise IllegalMove("That is not a 1000 Mile Race move.")
    return str(verb)


def _check_turn(state: RaceState, seat: int, verb: str) -> None:
    if state.phase is Phase.REACT:
        reactor = 1 - state.stack[-1].seat
        if seat == reactor:
            return
        other = state.players[reactor]
        if verb in ("react", "pass"):
            raise NotYourTurn(f"Only {other} may react to this card, not you.")
        raise NotYourTurn(f"Waiting for {other} to react or pass before anything else.")
    if seat == state.turn:
        return
    active = state.players[state.turn]
    if verb in ("react", "pass"):
        raise NotYourTurn(
            "No reaction is waiting for you: you are asked when you hold the card that reacts "
            "to one just played, and that window has closed or never opened."
        )
    raise NotYourTurn(f"It is not your turn: {active} is playing.")


def _take(side: Side, card: str) -> None:
    if card not in side.hand:
        raise IllegalMove(f"You do not hold {NAME.get(card, 'that card')}.")
    side.hand.remove(card)


def _apply_play(state: RaceState, seat: int, verb: str, action: Action) -> None:
    name = state.players[seat]
    me = state.sides[seat]
    if verb == "end":
        state.caption = f"{name} ends the turn."
        end_turn(state)
        return
    if verb in ("react", "pass"):
        raise IllegalMove("There is nothing to react to right now: it is your own play phase.")
    if verb == "discard":
        raise IllegalMove(
            f"Discarding is only for the hand limit at the end of your turn (more than "
            f"{HAND_LIMIT} cards); to junk cards now, cycle them."
        )
    if verb == "cycle":
        _apply_cycle(state, seat, action[1:])
        return
    card = action[1]
    if card not in me.hand:
        raise IllegalMove(f"You do not hold {NAME[card]}.")
    target = action[2] if len(action) > 2 else ""
    if card == TOW_TRUCK and not target:
        kinds = set(me.hazards)
        if len(kinds) == 1:
            target = kinds.pop()
    reason = why_not_play(state, seat, card, target)
    if reason is not None:
        raise IllegalMove(reason)
    me.hand.remove(card)
    kind = TYPE_OF[card]
    if kind == MILES:
        state.played_miles = True
    elif kind == HAZARD:
        state.played_hazard = True
    elif kind == REMOVAL:
        state.played_removal = True
    state.acted = True
    state.caption = _play_words(state, seat, card, target)
    state.stack.append(Entry(seat, card, target))
    _open_or_resolve(state)


def _play_words(state: RaceState, seat: int, card: str, target: str) -> str:
    name = state.players[seat]
    kind = TYPE_OF[card]
    if kind == MILES:
        return f"{name} plays {card} miles."
    if kind == HAZARD:
        return f"{name} plays {NAME[card]} on {state.players[1 - seat]}."
    if card == TOW_TRUCK:
        return f"{name} sends a Tow Truck for the {NAME[target]}."
    if kind == REMOVAL:
        return f"{name} plays {NAME[card]}."
    if kind == TRUMP:
        return f"{name} plays the trump {NAME[card]}."
    return f"{name} plays {NAME[card]}."


def _apply_cycle(state: RaceState, seat: int, cards: tuple[str, ...]) -> None:
    me = state.sides[seat]
    if state.cycled:
        raise IllegalMove("You have already cycled this turn.")
    if state.played_miles or state.played_hazard or state.played_removal:
        raise IllegalMove(
            "You cannot cycle after playing a miles, hazard or removal card this turn "
            "(a cancelled one counts too)."
        )
    hand = me.hand
    for i, card in enumerate(cards):
        try:
            hand.remove(card)  # ``state`` is a fresh clone: a refusal leaves no trace
        except ValueError:
            held = cards[:i].count(card)
            if not held:
                raise IllegalMove(f"You do not hold {NAME[card]}.") from None
            # "2 × 25 miles" read like 50 miles: say copies.
            raise IllegalMove(
                f"You cannot cycle {cards.count(card)} copies of {NAME[card]}: you hold {held}."
            ) from None
    me.junkyard.extend(cards)
    kinds = len({TYPE_OF[c] for c in cards})
    state.cycled = True
    state.acted = True
    drawn, reshuffled = draw(state, seat, kinds)
    listed = ", ".join(map(NAME.__getitem__, cards))
    state.caption = (
        f"{state.players[seat]} cycles {plural(len(cards), 'card')} ({listed}) and {_draws(drawn)}."
    )
    note = _draw_note(state, seat, drawn, reshuffled, kinds)
    if note:
        state.caption = f"{state.caption} {note}"
    _after_resolution(state)


def _apply_react(state: RaceState, seat: int, verb: str, action: Action) -> None:
    top = state.stack[-1]
    answer = answer_to(top.card)
    them = state.players[top.seat]
    if verb == "pass":
        state.caption = f"{state.players[seat]} lets it pass."
        _resolve(state)
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
    _take(state.sides[seat], card)
    state.acted = True
    state.stack.append(Entry(seat, card))
    me = state.players[seat]
    if answer_to(card) in state.sides[top.seat].hand:
        # It may be reacted to in turn: nothing is cancelled yet. "The card Ann played", not
        # "Ann's card": a seat name such as "Computer (normal)" takes no "'s".
        state.caption = f"{me} reacts with {NAME[card]} to the {NAME[top.card]} {them} played!"
        _open_or_resolve(state)
        return
    # Nobody can answer it: this sentence tells the cancellation, so the resolution does not
    # say it again ("… with Coup Fourré! Coup Fourré cancels Bob's Flat Tire.").
    state.caption = f"{me} reacts with {NAME[card]} and cancels the {NAME[top.card]} {them} played!"
    _resolve(state, told=True)


def _open_or_resolve(state: RaceState) -> None:
    """Ask the opponent of the top card's player if they hold its answer; else resolve."""
    top = state.stack[-1]
    reactor = 1 - top.seat
    if answer_to(top.card) in state.sides[reactor].hand:
        state.phase = Phase.REACT
        state.caption = f"{state.caption} Waiting for {state.players[reactor]} to react."
        return
    _resolve(state)


def _resolve(state: RaceState, told: bool = False) -> None:
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
    _after_resolution(state)


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
            return f"{subject} clears {', '.join(NAME[h] for h in cleared)}."
        return ""
    # Pit Crew, the only cheat that is not an answer
    assert kind == CHEAT and card == PIT_CREW
    me.junkyard.append(card)
    drawn, reshuffled = draw(state, seat, 2)
    note = _draw_note(state, seat, drawn, reshuffled, 2)
    return f"{name} {_draws(drawn)}. {note}".strip()


def _apply_discard(state: RaceState, seat: int, verb: str, action: Action) -> None:
    me = state.sides[seat]
    if verb != "discard":
        raise IllegalMove(
            f"Your turn is ending with {len(me.hand)} cards: discard down to {HAND_LIMIT} "
            "first, one card at a time (e.g. 'discard 25')."
        )
    card = action[1]
    _take(me, card)
    me.junkyard.append(card)
    left = len(me.hand) - HAND_LIMIT
    state.caption = f"{state.players[seat]} discards {NAME[card]}."
    if left > 0:
        state.caption += f" {left} more to go."
        return
    state.phase = Phase.PLAY
    if _close_turn(state):
        begin_turn(state, 1 - seat)


# --- leaving -------------------------------------------------------------------------------


def leave(state: RaceState, seat: int) -> RaceState:
    if state.phase is Phase.OVER:
        raise IllegalMove("The game is already over.")
    if seat not in (0, 1):
        raise NotYourTurn("You are not seated at this table.")
    after = state.clone()
    # Pending cards go back to their owners' junkyards, so every card stays accounted for.
    for entry in after.stack:
        after.sides[entry.seat].junkyard.append(entry.card)
    after.stack = []
    after.phase = Phase.OVER
    after.winners = (1 - seat,)
    after.end_reason = f"{state.players[seat]} left the race."
    after.caption = after.end_reason
    return after


def owned_census(state: RaceState, seat: int) -> Counter[str]:
    """Every card ``seat`` owns, wherever it lies (their deck, always whole)."""
    counts: Counter[str] = Counter()
    mine = state.sides[seat]
    for pile in (mine.library, mine.hand, mine.miles, mine.trumps, mine.junkyard):
        counts.update(pile)
    counts.update(state.sides[1 - seat].hazards)
    counts.update(e.card for e in state.stack if e.seat == seat)
    return counts

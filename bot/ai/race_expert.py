"""``expert``: the 1000 Mile Race computer player that searches (see ``bot.ai.search``).

It decides from its seat's private view alone. Each player owns a whole deck, so what a seat
has not seen is, per deck, that deck minus every card of it in sight (miles and trumps in play,
the junkyard, the hazards it put on the other player, cards waiting on the stack, and for the
seat itself its hand): its own library in an unknown order, and the opponent's hand and
library. To judge a move it deals those again many times, plays the move, lets the ``normal``
player finish the game for both sides, and counts wins. The imagined hands follow what the
seat knows:

- a pending answer shows the answering player holds the answer card (it is dealt to them);
- players keep their answers (Coup Fourré, Roadblock, Jammer) and trumps until they matter,
  so an unseen one is in the opponent's hand with the chance that it was among the cards they
  have drawn, not just their hand's share of the unseen cards.

Candidates: every play, answer, hand-limit discard and ``end``; of the many cycles, ``normal``'s
own and two others (one card of each type, for the most draws; everything but the answer cards
and Pit Crew).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from time import perf_counter
from typing import Any

from bot.ai.race_normal import NormalRacePolicy, _worth
from bot.ai.search import (
    CHECK_EVERY,
    Domain,
    OutOfTime,
    SearchPolicy,
    SearchReport,
    deal_hidden_hand,
)
from bot.engine.race import GAME
from bot.engine.race.cards import (
    ANSWERS,
    CHEAT,
    DECK_SIZE,
    HAZARD,
    MILES,
    MILES_OF,
    NAME,
    PIT_CREW,
    REACTIONS,
    REMOVAL,
    SPEED_TRAP,
    STOPPING_HAZARDS,
    TARGET,
    TRUMP,
    TYPE_OF,
    deck_counts,
    sort_cards,
)
from bot.engine.race.hands import drawable
from bot.engine.race.legality import can_cycle
from bot.engine.race.moves import answer_to, legal_actions, pending_answer
from bot.engine.race.notation import format_action
from bot.engine.race.rules import apply_in_place
from bot.engine.race.state import Entry, Phase, RaceState, Side
from bot.engine.race.views import RaceSeatView, seat_phase

ROLLOUT_LIMIT = 1500  # moves; a game that long is scored on miles
DISCARDS = 4  # hand-limit discards searched: the ones normal values least
WIN_SHARE = 0.6  # a won game scores this much; the margin of miles the rest
_PHASES = {"play": Phase.PLAY, "react": Phase.REACT, "discard": Phase.DISCARD, "over": Phase.OVER}


def _kept(card: str) -> bool:
    return card in REACTIONS or TYPE_OF[card] == TRUMP


def unseen_of(view: RaceSeatView, owner: int) -> Counter[str]:
    """The cards of ``owner``'s deck that ``view.seat`` cannot see (library, and for the
    opponent the hand too)."""
    public = view.public
    mine = public.sides[owner]
    other = public.sides[1 - owner]
    seen: Counter[str] = Counter(mine.miles)
    seen.update(mine.trumps)
    seen.update(mine.junkyard)
    seen.update(other.hazards)  # hazards targeting the other player are this owner's cards
    seen.update(entry.card for entry in public.stack if entry.seat == owner)
    if owner == view.seat:
        seen.update(view.hand)
    return Counter({c: n - seen[c] for c, n in deck_counts().items() if n > seen[c]})


def keep_chance(view: RaceSeatView) -> float:
    """The chance an unseen kept card (answer or trump) of the opponent is in their hand: the
    share of their deck they have drawn, before their junkyard came back."""
    side = view.public.sides[1 - view.seat]
    if side.reshuffled:
        # The library is the old junkyard: the kept cards were drawn long ago.
        return 1.0
    return (DECK_SIZE - side.library_count) / DECK_SIZE


def determinize(view: RaceSeatView, rng: random.Random) -> RaceState:
    """A full state consistent with ``view`` (its private view for the seat equals ``view``)."""
    public = view.public
    seat = view.seat
    sides: list[Side] = []
    for owner, shown in enumerate(public.sides):
        pool = sort_cards(list(unseen_of(view, owner).elements()))
        if owner == seat:
            hand = list(view.hand)
            library = pool
            rng.shuffle(library)
        else:
            forced: list[str] = []
            if public.reactor == owner and public.answer is not None:
                forced.append(public.answer)
            hand, library = deal_hidden_hand(
                pool, shown.hand_count, _kept, keep_chance(view), rng, forced
            )
        side = Side(
            library=library,
            hand=sort_cards(hand),
            miles=list(shown.miles),
            hazards=list(shown.hazards),
            trumps=list(shown.trumps),
            junkyard=list(shown.junkyard),
            reshuffled=shown.reshuffled,
        )
        side.total = shown.total
        sides.append(side)
    phase = _PHASES.get(public.phase, Phase.PLAY)
    return RaceState(
        players=public.players,
        seed=rng.getrandbits(32),
        sides=sides,
        first_player=public.first_player,
        reveal=public.reveal,
        turn=public.turn,
        turn_number=public.turn_number,
        phase=phase,
        stack=[Entry(e.seat, e.card, e.target) for e in public.stack],
        played_miles=public.played_miles,
        played_hazard=public.played_hazard,
        played_removal=public.played_removal,
        cycled=public.cycled,
        # Not shown: whether a trump or Pit Crew was played this turn (it only matters once
        # both libraries are spent).
        acted=public.played_miles
        or public.played_hazard
        or public.played_removal
        or public.cycled
        or bool(public.stack),
        idle_turns=public.idle_turns,
        caption=public.caption,
        winners=public.winners,
        end_reason=public.end_reason,
    )


class _LiveSide:
    """One side of a rollout's table as ``normal`` reads it (``SideLike``): the state's own
    lists, refreshed before every decision instead of copied into a frozen view."""

    __slots__ = ("hazards", "junkyard", "total", "trumps", "two_hundreds")

    def refresh(self, side: Side) -> None:
        self.total = side.total
        self.two_hundreds = side.miles.count("200")
        self.hazards = side.hazards
        self.trumps = side.trumps
        self.junkyard = side.junkyard


class _LiveTable:
    """A rollout's table as ``normal`` reads it (``PublicLike``)."""

    __slots__ = ("answer", "sides", "stack")

    def __init__(self) -> None:
        self.sides = (_LiveSide(), _LiveSide())
        self.stack: list[Entry] = []
        self.answer: str | None = None


class LiveSeat:
    """A seat's view of a rollout's table as ``normal`` reads it (``SeatLike``), made once
    per rollout and refreshed before each decision: building a frozen ``RaceSeatView`` every
    move was a third of a rollout's time. Its ``legal`` leaves the cycles out (see
    ``NormalRacePolicy.decide``). Read it before the next move changes the state."""

    __slots__ = ("hand", "legal", "phase", "public", "seat")

    def __init__(self) -> None:
        self.public = _LiveTable()
        self.seat = 0
        self.hand: list[str] = []
        self.phase = "play"
        self.legal: list[str] = []

    def refresh(self, state: RaceState, seat: int) -> LiveSeat:
        table = self.public
        for live, side in zip(table.sides, state.sides, strict=True):
            live.refresh(side)
        table.stack = state.stack
        table.answer = pending_answer(state)
        self.seat = seat
        self.hand = state.sides[seat].hand
        self.phase = seat_phase(state, seat)
        self.legal = [format_action(a) for a in legal_actions(state, seat, with_cycles=False)]
        return self


def _cycles_open(state: RaceState, seat: int) -> bool:
    return (
        state.phase is Phase.PLAY
        and state.turn == seat
        and bool(state.sides[seat].hand)
        and can_cycle(state)
    )


class RaceDomain(Domain[RaceState]):
    """1000 Mile Race for the shared search: games played out by ``normal``."""

    game = GAME

    def __init__(self) -> None:
        self.normal = NormalRacePolicy()

    def determinize(self, view: Any, rng: random.Random) -> RaceState:
        return determinize(view, rng)

    def candidates(self, view: Any) -> list[str]:
        legal: tuple[str, ...] = view.legal
        first = self.normal.choose(view, random.Random(0))
        if view.phase == "discard":
            hand = sorted(set(view.hand), key=lambda c: (_worth(view, c), c))
            moves = [f"discard {c}" for c in hand[:DISCARDS]]
        else:
            moves = [m for m in legal if not m.startswith("cycle ")]
            cycles = [m for m in _cycle_options(view) if m in legal]
            moves += cycles
        return [first, *dict.fromkeys(m for m in moves if m != first)]

    def rollout(
        self, state: RaceState, seat: int, rng: random.Random, deadline: float | None = None
    ) -> float:
        decide = self.normal.decide
        parse = self.parse
        live = LiveSeat()
        for step in range(ROLLOUT_LIMIT):
            if state.phase is Phase.OVER:
                break
            if deadline is not None and step % CHECK_EVERY == 0 and perf_counter() > deadline:
                raise OutOfTime
            actor = 1 - state.stack[-1].seat if state.phase is Phase.REACT else state.turn
            move = decide(live.refresh(state, actor), _cycles_open(state, actor))
            apply_in_place(state, actor, parse(move))
        return self.evaluate(state, seat)

    def evaluate(self, state: RaceState, seat: int) -> float:
        """Mostly the win, partly the margin: how far the loser was from 1000 tells a narrow
        result from a rout, so rollouts that differ only in margin still say something (a
        win alone makes every rollout a coin flip, and the differences drown in it)."""
        lead = state.sides[seat].total - state.sides[1 - seat].total
        margin = min(1.0, max(0.0, 0.5 + lead / (2 * TARGET)))
        winners = state.winners
        if winners is None:
            # Cut at the move limit: the game would be decided on miles, as a dry game is.
            # The hint quotes this plain result (``explain``): the worth is no chance a player
            # could read.
            self.figure = 1.0 if lead > 0 else 0.0 if lead < 0 else 0.5
            return margin
        won = 0.5 if not winners else 1.0 if seat in winners else 0.0
        self.figure = won
        return WIN_SHARE * won + (1.0 - WIN_SHARE) * margin

    def explain(self, view: Any, move: str, report: SearchReport) -> str:
        return explain(view, move, report)


def _cycle_options(view: RaceSeatView) -> list[str]:
    """Cycles worth comparing with normal's: one card of each type (the weakest), for the most
    draws; and every card but the answers and Pit Crew."""
    by_type: dict[str, list[str]] = {}
    for card in view.hand:
        if TYPE_OF[card] != CHEAT:
            by_type.setdefault(TYPE_OF[card], []).append(card)
    options = []
    if by_type:
        weakest = [min(cards, key=lambda c: (_worth(view, c), c)) for cards in by_type.values()]
        options.append(" ".join(("cycle", *sort_cards(weakest))))
        everything = [c for cards in by_type.values() for c in cards]
        options.append(" ".join(("cycle", *sort_cards(everything))))
    return options


def explain(view: RaceSeatView, move: str, report: SearchReport) -> str:
    """Why ``move``, in a player's words, from what the search found and what the table shows:
    a card is said to clear or stop only what it does clear or stop here."""
    words = move.split()
    verb = words[0]
    card = words[1] if len(words) > 1 else ""
    rival = view.public.players[1 - view.seat]
    mine = list(view.public.sides[view.seat].hazards)
    theirs = list(view.public.sides[1 - view.seat].hazards)
    if verb == "end":
        why = "nothing left in your hand is worth playing this turn"
    elif verb == "pass":
        why = "your reaction card is worth more kept for a bigger moment"
    elif verb == "react":
        top = view.public.stack[-1].card if view.public.stack else ""
        what = NAME.get(top, "their card")
        why = f"cancelling the {what} {rival} played is worth your {NAME[card]}"
        why += _unless_answered(view, card)
    elif verb == "cycle":
        why = _cycle_reason(view, words[1:], mine)
    elif verb == "discard":
        why = f"{NAME[card]} is the card you are least likely to need"
    elif TYPE_OF.get(card) == MILES:
        if view.public.sides[view.seat].total + MILES_OF[card] == TARGET:
            # A Roadblock cancels it, and the race goes on: "and wins" was said with the
            # rival's Roadblock unseen, and the computer answered it.
            why = f"{card} miles takes you to exactly {TARGET} and wins"
        else:
            why = f"driving {card} miles now keeps an exact finish in reach"
        why += _unless_answered(view, card)
    elif TYPE_OF.get(card) == HAZARD:
        why = _hazard_reason(card, rival, theirs) + _unless_answered(view, card)
    elif card == PIT_CREW:
        side = view.public.sides[view.seat]
        # What it can still draw: the library, and the junkyard (the Pit Crew in it) while
        # the one reshuffle is unspent; the reason promised two cards from an empty library.
        draws = drawable(side.library_count, len(side.junkyard), side.reshuffled, 1)
        if draws >= 2:
            why = "two more cards give you more choices" + _unless_answered(view, card)
        elif draws == 1:
            why = "one more card gives you more choice" + _unless_answered(view, card)
        else:
            why = "your library is spent, so it draws nothing, but it leaves your hand"
    elif TYPE_OF.get(card) == TRUMP:
        cleared = [h for h in mine if h in ANSWERS[card]]
        left = [h for h in mine if h not in ANSWERS[card]]
        if cleared:
            why = f"{NAME[card]} clears {_the(cleared)} on you without using your play"
            why += _still(left, cleared) + _unless_answered(view, card)
        else:
            # Trumps give no later protection: played with nothing to clear, the card only
            # leaves your hand, at no cost to your play.
            why = (
                f"nothing holds you up, but {NAME[card]} costs you no play and makes room in "
                "your hand"
            )
    elif TYPE_OF.get(card) == REMOVAL:
        # A removal is only legal on its hazard; a Tow Truck names it, or clears the only kind.
        named = words[3] if len(words) > 3 else ""
        cleared_one = named or next((h for h in mine if h in ANSWERS[card]), "")
        if cleared_one in mine:
            left = list(mine)
            left.remove(cleared_one)
            why = f"{NAME[card]} clears {_the([cleared_one])} on you" + _still(left, [cleared_one])
            why += _unless_answered(view, card)
        else:
            why = f"{NAME[card]} is your best play now"
    else:
        why = f"{NAME.get(card, 'it')} is your best play now"
    # The rollouts' chance of winning, not the search's worth (which blends in the margin of
    # miles): a sure win by a few miles read "about 65% to win".
    chance = report.figure_of(move) if move in report.candidates else None
    return report.quoted(why, chance)


def _unless_answered(view: RaceSeatView, card: str) -> str:
    """ ", unless Bob cancels it with their Coup Fourré" where the card that answers ``card``
    (``answer_to``: a Roadblock for miles, a Coup Fourré for a hazard, a Jammer for the rest)
    may be in the rival's hand, as far as this seat can tell: unseen (not in play, in a
    junkyard or waiting on the stack) and the rival holding a card. A hazard's reason read
    "Flat Tire stops Bob, who is driving freely now" with Bob's Coup Fourré unseen, and the
    computer answered it."""
    answer = answer_to(card)
    rival = 1 - view.seat
    if not view.public.sides[rival].hand_count or not unseen_of(view, rival)[answer]:
        return ""
    return f", unless {view.public.players[rival]} cancels it with their {NAME[answer]}"


def _cycle_reason(view: RaceSeatView, cards: Sequence[str], mine: list[str]) -> str:
    """A cycle draws one card per type junked, as far as the library (and the one reshuffle,
    with the cards just junked) goes: the reason promised "fresh cards" for two 25s (one
    draw) and from a spent library (none), and called a cycle of 200s "weak cards"."""
    what = NAME.get(cards[0], "this card") if len(cards) == 1 else f"these {len(cards)} cards"
    side = view.public.sides[view.seat]
    left = drawable(side.library_count, len(side.junkyard), side.reshuffled, len(cards))
    draws = min(len({TYPE_OF.get(c, c) for c in cards}), left)
    if not draws:
        return (
            f"your library is spent, so cycling draws nothing, but it takes {what} out of your hand"
        )
    fresh = "a fresh card" if draws == 1 else f"{draws} fresh cards"
    if mine:
        return f"swapping {what} for {fresh} may bring what clears {_the(mine)} on you"
    better = "a better card" if draws == 1 else "better cards"
    return f"swapping {what} for {fresh} brings you {better} to play"


def _the(hazards: list[str], cleared: Sequence[str] = ()) -> str:
    """'the Flat Tire', 'both Speed Trap cards', 'the Accident and the Red Light'; 'the other
    Flat Tire' when one of its kind was just ``cleared``."""
    counted = Counter(hazards)
    parts = [
        f"both {NAME[h]} cards"
        if n > 1
        else f"the other {NAME[h]}"
        if h in cleared
        else f"the {NAME[h]}"
        for h, n in sorted(counted.items())
    ]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _still(left: list[str], cleared: list[str]) -> str:
    """What still holds you up after a card clears ``cleared``: a stop, a limit, or nothing
    (moving again after a stop; full speed again after only a limit)."""
    stopping = [h for h in left if h in STOPPING_HAZARDS]
    if stopping:
        # No brackets: the chance quoted after it comes in brackets ("... you) (about 40% ...").
        verb = "stops" if len(stopping) == 1 else "stop"
        return f", but {_the(stopping, cleared)} still {verb} you"
    if left:
        return f", so you can drive again, but only 25 and 50 miles under {_the(left, cleared)}"
    if any(h in STOPPING_HAZARDS for h in cleared):
        return " and gets you moving again"
    return ", so you can drive at full speed again"


def _hazard_reason(card: str, rival: str, theirs: list[str]) -> str:
    """A hazard on a rival driving freely stops (or slows) them; on one already held up, it
    keeps them held up after they clear what holds them now."""
    stopping = [h for h in theirs if h in STOPPING_HAZARDS]
    if stopping and card == SPEED_TRAP:
        # A Speed Trap only slows: "keeps Bob held up" read as if it stopped them.
        which = "a second" if SPEED_TRAP in theirs else "the"
        return (
            f"{which} Speed Trap holds {rival} to 25 and 50 miles even after they clear "
            f"{_the(stopping)}"
        )
    if stopping:
        return f"{NAME[card]} keeps {rival} held up even after they clear {_the(stopping)}"
    if card == SPEED_TRAP:
        if theirs:
            return (
                f"a second Speed Trap still holds {rival} to 25 and 50 miles after they clear one"
            )
        return f"the Speed Trap holds {rival} to 25 and 50 miles"
    if theirs:
        return f"{NAME[card]} stops {rival}, who can still drive 25 and 50 miles"
    return f"{NAME[card]} stops {rival}, who is driving freely now"


class RaceExpertPolicy(SearchPolicy):
    """The searching 1000 Mile Race computer player (module docstring)."""

    name = "expert"
    domain_class = RaceDomain


def hint(view: RaceSeatView) -> tuple[str, str] | None:
    """What the expert would play here, and why, in a player's words."""
    return RaceExpertPolicy().hint(view, random.Random(0))


__all__ = [
    "LiveSeat",
    "RaceDomain",
    "RaceExpertPolicy",
    "determinize",
    "hint",
    "unseen_of",
]

"""What a Mille Bornes seat knows, as the ``normal`` player reads it: from its private view, or —
inside the expert's rollouts only — straight off the imagined state, which is much cheaper.

Both readings give the same facts: the seat's own hand, both sides of the table as everyone sees
them, the discard pile and the deck count. Read off a state, the opponent's side is copied pile by
pile and only the *size* of their hand is taken, never its cards, so a rollout's ``normal`` knows
no more than the real one does. The state reading is only for searches, which own their imagined
states (the bot, renderers and console always go through ``bot.engine.mille.views``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Protocol

from bot.engine.mille.cards import MILES_OF, Card, deck_counts
from bot.engine.mille.rules import MATCH_TARGET, can_go
from bot.engine.mille.state import Action, MilleState, Phase, Tableau
from bot.engine.mille.views import MilleSeatView


class Side(Protocol):
    """One side of the table as everyone sees it (``TableauView`` is one)."""

    @property
    def battle_pile(self) -> Sequence[Card]: ...
    @property
    def speed_pile(self) -> Sequence[Card]: ...
    @property
    def safeties(self) -> Sequence[Card]: ...
    @property
    def coups(self) -> Sequence[Card]: ...
    @property
    def miles(self) -> Sequence[Card]: ...
    @property
    def mileage(self) -> int: ...
    @property
    def two_hundreds(self) -> int: ...
    @property
    def can_go(self) -> bool: ...
    @property
    def limited(self) -> bool: ...
    @property
    def hand_count(self) -> int: ...
    @property
    def score(self) -> int: ...
    @property
    def battle_top(self) -> Card | None: ...
    @property
    def speed_top(self) -> Card | None: ...


class StateSide:
    """A side of an imagined table read off its tableau: the piles and the hand's size only.

    The piles are the state's own lists, not copies: it lives for one decision, during which
    the state does not move.
    """

    __slots__ = (
        "battle_pile",
        "battle_top",
        "can_go",
        "coups",
        "hand_count",
        "limited",
        "mileage",
        "miles",
        "safeties",
        "score",
        "speed_pile",
        "speed_top",
        "two_hundreds",
    )

    def __init__(self, t: Tableau, score: int) -> None:
        battle = t.battle
        speed = t.speed
        miles = t.miles
        self.battle_pile: Sequence[Card] = battle
        self.speed_pile: Sequence[Card] = speed
        self.safeties: Sequence[Card] = t.safeties
        self.coups: Sequence[Card] = t.coups
        self.miles: Sequence[Card] = miles
        self.mileage = sum(map(MILES_OF.__getitem__, miles))
        self.two_hundreds = miles.count(Card.D200)
        self.can_go = can_go(t)
        top = speed[-1] if speed else None
        self.limited = top is Card.SPEED_LIMIT
        self.hand_count = len(t.hand)
        self.score = score
        self.battle_top = battle[-1] if battle else None
        self.speed_top = top


class FaceDown:
    """The deck less every card face up (on either side of the table or in the discard pile),
    kept move by move through one hand of a rollout instead of counted again at every move.

    Counted once from the face-up piles; after that every card played or discarded turns face
    up and none turns face down again until the hand ends (a battle or speed card a safety
    clears goes to the discard pile), so each move's card is simply taken off. Counts stay in
    deck order and a card with none left is dropped, as a count from the piles would have it.
    """

    __slots__ = ("counts", "total")

    def __init__(self, state: MilleState) -> None:
        a, b = state.tableaus
        # A coup fourré's safety is also listed among the safeties: count it once.
        up = Counter(
            chain(
                state.discard,
                a.battle,
                a.speed,
                a.safeties,
                a.miles,
                b.battle,
                b.speed,
                b.safeties,
                b.miles,
            )
        )
        counts: Counter[Card] = Counter()
        for card, n in deck_counts(state.options["deck"]).items():
            left = n - up[card]
            if left > 0:
                counts[card] = left
        self.counts = counts
        self.total = sum(counts.values())

    def turned_up(self, action: Action) -> None:
        """``action`` was just made: its card (if it plays or discards one) is face up now."""
        card = action.card
        if card is None:
            return
        counts = self.counts
        left = counts[card] - 1
        if left:
            counts[card] = left
        else:
            del counts[card]
        self.total -= 1

    def unseen(self, hand: Sequence[Card]) -> Counter[Card]:
        """What a seat holding ``hand`` has not seen: the opponent's hand and the draw pile."""
        # A plain copy of the counts (Counter.copy goes through Counter.update's type checks).
        unseen: Counter[Card] = Counter.__new__(Counter)
        dict.update(unseen, self.counts)
        for card in hand:
            left = unseen[card] - 1
            if left:
                unseen[card] = left
            else:
                del unseen[card]
        return unseen


@dataclass(slots=True)
class SeatFacts:
    """Everything ``normal`` reads about the table, for one seat at one decision."""

    hand: Sequence[Card]
    me: Side
    them: Side
    target: int
    deck: int  # cards left in the draw pile, as the table shows them
    deck_name: str
    discard: Sequence[Card]
    extension_called: bool
    match_target: int | None
    face_down: FaceDown | None = None  # a rollout's running count; None: count the piles


def view_facts(view: MilleSeatView) -> SeatFacts:
    """The facts of a seat's private view."""
    public = view.public
    return SeatFacts(
        hand=view.hand,
        me=public.tableaus[view.seat],
        them=public.tableaus[1 - view.seat],
        target=public.target,
        deck=public.deck_count,
        deck_name=public.deck_name,
        discard=public.discard,
        extension_called=public.extension_called,
        match_target=public.match_target,
    )


def state_facts(state: MilleState, seat: int, face_down: FaceDown | None = None) -> SeatFacts:
    """The same facts as ``view_facts(private_view(state, seat))`` for the seat to act after
    its draw or at the extension question (no draw owed: the deck count is the pile's size),
    read off the state for a search's rollouts, with their running ``face_down`` count."""
    if seat != state.turn or state.phase not in (Phase.ACT, Phase.EXTENSION):
        raise ValueError("Seat facts are read off a state only for the seat acting after its draw.")
    other = 1 - seat
    tableaus = state.tableaus
    options = state.options
    return SeatFacts(
        hand=tableaus[seat].hand,
        me=StateSide(tableaus[seat], state.scores[seat]),
        them=StateSide(tableaus[other], state.scores[other]),
        target=state.target,
        deck=len(state.draw_pile),
        deck_name=options["deck"],
        discard=state.discard,
        extension_called=state.extension_called,
        match_target=None if options["length"] == "hand" else MATCH_TARGET,
        face_down=face_down,
    )

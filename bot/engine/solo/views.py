"""What leaves the Mille Bornes Solo engine: the table everyone may see, and the player's view.

The hand is public (a solitaire is played face up on the table), and so are the highway tops,
the claimed distance cards and the discard pile. Hidden: the face-down highway cards and the
tank. Only their counts leave the engine; after a refuel the tank holds nothing but cards that
were all seen in the discard pile, so its contents (never its order) are public from then on.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.engine.mille.cards import Card, deck_counts
from bot.engine.solo.notation import format_action
from bot.engine.solo.rules import card_order, legal_actions
from bot.engine.solo.state import HAND_SIZE, HIGHWAY_CARDS, SoloState


@dataclass(frozen=True)
class HighwayView:
    number: int  # 1–7, from the left
    depth: int  # cards left, the face-up top included (0: cleared)
    top: Card | None  # the face-up top, None once cleared

    @property
    def hidden(self) -> int:
        """Face-down cards under the top."""
        return max(0, self.depth - 1)


@dataclass(frozen=True)
class SoloPublicView:
    game: str
    players: tuple[str, ...]
    deck_name: str
    lang: str
    preset: str
    require_fuel_left: bool
    highways: tuple[HighwayView, ...]
    hand: tuple[Card, ...]  # public: the solitaire is played face up
    tank_count: int
    tank_known: tuple[Card, ...] | None  # the tank's contents in card order once all seen
    discard: tuple[Card, ...]  # top last
    miles: tuple[Card, ...]  # claimed distance cards, in the order claimed
    mileage: int
    refuel_limit: int
    refuels_used: int
    cleared: int
    total: int  # 49
    hand_size: int  # 7
    moves: int
    wipes: int
    legal: tuple[str, ...]  # every clearing move, in the engine's order
    last_move: str  # the last move in words
    events: tuple[str, ...]  # the automatic steps that followed it
    caption: str  # both together
    result: str | None  # "won", "lost" or None while the game runs
    end_reason: str
    left: bool  # lost by leaving (/resign, a forfeit on the turn timer), not stuck

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def winners(self) -> tuple[int, ...] | None:
        if self.result is None:
            return None
        return (0,) if self.result == "won" else ()

    @property
    def refuels_left(self) -> int:
        return max(0, self.refuel_limit - self.refuels_used)

    @property
    def hidden_count(self) -> int:
        """Face-down highway cards."""
        return sum(h.hidden for h in self.highways)

    def unseen(self) -> Counter[Card]:
        """Cards not in sight: the face-down highway cards and the tank, together."""
        counts = deck_counts(self.deck_name)
        counts.subtract(self.hand)
        counts.subtract(self.discard)
        counts.subtract(self.miles)
        counts.subtract(h.top for h in self.highways if h.top is not None)
        return +counts


@dataclass(frozen=True)
class SoloSeatView:
    """The player's view: the same table (nothing is hidden from them that is public)."""

    public: SoloPublicView
    seat: int
    hand: tuple[Card, ...]
    phase: str  # "act" or "over"
    legal: tuple[str, ...]


def public_view(state: SoloState) -> SoloPublicView:
    known = None
    if state.refuels_used:
        known = tuple(sorted(state.tank, key=card_order))
    return SoloPublicView(
        game="solo",
        players=state.players,
        deck_name=state.options["deck"],
        lang=state.options.get("names", "en"),
        preset=state.preset,
        require_fuel_left=state.options.get("require_fuel_left") == "on",
        highways=tuple(
            HighwayView(i + 1, len(pile), pile[-1] if pile else None)
            for i, pile in enumerate(state.highways)
        ),
        hand=tuple(state.hand),
        tank_count=len(state.tank),
        tank_known=known,
        discard=tuple(state.discard),
        miles=tuple(state.miles),
        mileage=state.mileage,
        refuel_limit=state.refuel_limit,
        refuels_used=state.refuels_used,
        cleared=state.cleared,
        total=HIGHWAY_CARDS,
        hand_size=HAND_SIZE,
        moves=state.moves,
        wipes=state.wipes,
        legal=tuple(format_action(a) for a in legal_actions(state)),
        last_move=state.last_move,
        events=tuple(state.events),
        caption=state.caption,
        result=state.result,
        end_reason=state.end_reason,
        left=state.left,
    )


def private_view(state: SoloState, seat: int) -> SoloSeatView:
    public = public_view(state)
    mine = seat == 0
    return SoloSeatView(
        public=public,
        seat=seat,
        hand=public.hand,
        phase="over" if state.result is not None else ("act" if mine else "wait"),
        legal=public.legal if mine else (),
    )

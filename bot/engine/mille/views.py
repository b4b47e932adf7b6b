"""What leaves the Mille Bornes engine: the public table and one seat's private view.

The public view never depends on a hidden card. While a player may still play a safety before
drawing, the public counts already include the card they are about to draw, so an onlooker
cannot tell a pending coup fourré from an ordinary turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.core import build_frozen
from bot.engine.mille.cards import Card
from bot.engine.mille.notation import format_action
from bot.engine.mille.rules import can_go, draw_size, is_coup, is_limited, legal_actions
from bot.engine.mille.state import HandResult, MilleState, Phase


@dataclass(frozen=True)
class TableauView:
    """One player's side of the table as everyone sees it."""

    seat: int
    name: str
    hand_count: int
    battle_pile: tuple[Card, ...]  # top last
    # What the battle pile counts as: its top card, unless a safety cleared it (then Go, or
    # None for empty, as the BSD program sets it; the cards beneath stay as they were).
    battle_counts_as: Card | None
    speed_pile: tuple[Card, ...]
    safeties: tuple[Card, ...]
    coups: tuple[Card, ...]
    miles: tuple[Card, ...]
    mileage: int
    two_hundreds: int
    can_go: bool
    limited: bool
    score: int  # match total before this hand

    @property
    def battle_top(self) -> Card | None:
        return self.battle_pile[-1] if self.battle_pile else None

    @property
    def speed_top(self) -> Card | None:
        return self.speed_pile[-1] if self.speed_pile else None


@dataclass(frozen=True)
class MillePublicView:
    game: str
    players: tuple[str, ...]
    deck_name: str
    lang: str
    hand_number: int
    target: int
    match_target: int | None  # None for a single-hand game
    turn: int
    phase: str  # "play", "extension" or "over": never reveals a pending pre-draw safety
    deck_count: int
    discard: tuple[Card, ...]  # every discarded card, top last (public record)
    tableaus: tuple[TableauView, ...]
    caption: str
    results: tuple[HandResult, ...]  # every finished hand, oldest first
    winners: tuple[int, ...] | None
    end_reason: str
    extension_called: bool

    @property
    def is_over(self) -> bool:
        return self.winners is not None

    @property
    def left_mid_hand(self) -> bool:
        """The match ended with its hand unfinished (a player left: /resign, a forfeit): that
        hand is never scored, and no finished hand decided the match (docs/rules/mille.md,
        Leaving). Every other end comes with the hand that made it (``results[-1]``)."""
        return self.winners is not None and (
            not self.results or self.results[-1].number != self.hand_number
        )


@dataclass(frozen=True)
class MilleSeatView:
    """One seat's view: the public table plus its own hand and what it may do now."""

    public: MillePublicView
    seat: int
    hand: tuple[Card, ...]
    phase: str  # the real phase for this seat: "draw", "act", "extension", "over", "wait"
    legal: tuple[str, ...]  # notation of every legal action, in the engine's order
    # In phase "draw", the safeties that would be coups fourrés (``play extra-tank``): a safety
    # against a hazard that landed before the last draw is legal too, but scores no coup.
    coups: tuple[str, ...]


_SHOWN_PHASE = {Phase.DRAW: "play", Phase.ACT: "play"}
_PHASE_NAME = {phase: phase.value for phase in Phase}


def public_view(state: MilleState) -> MillePublicView:
    owed = 0
    if state.phase is Phase.DRAW:
        owed = min(draw_size(state.tableaus[state.turn]), len(state.draw_pile))
    tableaus = []
    for seat, t in enumerate(state.tableaus):
        tableaus.append(
            build_frozen(
                TableauView,
                seat=seat,
                name=state.players[seat],
                hand_count=len(t.hand) + (owed if seat == state.turn else 0),
                battle_pile=tuple(t.battle),
                battle_counts_as=t.battle_shows,
                speed_pile=tuple(t.speed),
                safeties=tuple(t.safeties),
                coups=tuple(t.coups),
                miles=tuple(t.miles),
                mileage=t.mileage,
                two_hundreds=t.two_hundreds,
                can_go=can_go(t),
                limited=is_limited(t),
                score=state.scores[seat],
            )
        )
    phase = _SHOWN_PHASE.get(state.phase) or state.phase.value
    return build_frozen(
        MillePublicView,
        game="mille",
        players=state.players,
        deck_name=state.options["deck"],
        lang=state.options.get("names", "en"),
        hand_number=state.hand_number,
        target=state.target,
        match_target=None if state.options["length"] == "hand" else 5000,
        turn=state.turn,
        phase=phase,
        deck_count=len(state.draw_pile) - owed,
        discard=tuple(state.discard),
        tableaus=tuple(tableaus),
        caption=state.caption,
        results=tuple(state.results),
        winners=state.winners,
        end_reason=state.end_reason,
        extension_called=state.extension_called,
    )


def private_view(state: MilleState, seat: int) -> MilleSeatView:
    if state.phase is Phase.OVER:
        phase = "over"
    elif seat != state.turn:
        phase = "wait"
    else:
        phase = _PHASE_NAME[state.phase]
    return build_frozen(
        MilleSeatView,
        public=public_view(state),
        seat=seat,
        hand=tuple(state.tableaus[seat].hand),
        phase=phase,
        legal=tuple(map(format_action, legal_actions(state, seat))),
        coups=_coups(state, seat) if phase == "draw" else (),
    )


def _coups(state: MilleState, seat: int) -> tuple[str, ...]:
    t = state.tableaus[seat]
    return tuple(f"play {card.value}" for card in dict.fromkeys(t.hand) if is_coup(t, card))

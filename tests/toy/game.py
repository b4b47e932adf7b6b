"""Relay, the toy game's rules.

Eighteen cards: c1–c5 three times each and three shields; three cards each. On your turn play a
number card (its value is added to your score) or discard a shield, then draw one. A c5 is a
strike: if the next player still in the game holds a shield they may block it at once (the
shield and the strike's five points are gone) — a reaction window with "pass" as its default.
Seats with no cards (deck empty) are skipped. The game ends when no cards are left in hands or
deck, or when one player is left; the highest score wins, ties share.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.engine.core import (
    CorruptSave,
    Game,
    GameInfo,
    IllegalMove,
    NotationError,
    NotYourTurn,
    Outcome,
    check_save_format,
)

CARDS = tuple(f"c{n}" for n in range(1, 6) for _ in range(3)) + ("shield",) * 3
HAND = 3
SCHEMA = 1


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    deck: tuple[str, ...]  # top last
    hands: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...]
    pile: tuple[str, ...]
    turn: int
    left: tuple[int, ...] = ()  # seats that left, in order
    defender: int | None = None  # a seat deciding whether to block a strike
    striker: int | None = None
    caption: str = ""


@dataclass(frozen=True)
class PublicView:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    pile_top: str | None
    turn: int
    defender: int | None
    left: tuple[int, ...]
    caption: str
    over: bool


@dataclass(frozen=True)
class SeatView:
    public: PublicView
    seat: int
    hand: tuple[str, ...]
    legal: tuple[str, ...] = field(default=())


class Relay(Game[State, str]):
    info = GameInfo(key="relay", title="Relay (toy)", min_players=3, max_players=4, max_moves=200)

    def new_game(
        self,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, str] | None = None,
        deck: Sequence[str] | None = None,
    ) -> State:
        self.check_players(players)
        self.resolve_options(options)
        cards = list(deck) if deck is not None else list(CARDS)
        if deck is None:
            random.Random(seed).shuffle(cards)
        if Counter(cards) != Counter(CARDS):
            raise IllegalMove("A Relay deck has exactly the 18 Relay cards.")
        hands = tuple(tuple(cards[i * HAND : (i + 1) * HAND]) for i in range(len(players)))
        rest = tuple(reversed(cards[len(players) * HAND :]))
        return State(tuple(players), rest, hands, (0,) * len(players), (), 0)

    # --- whose move ------------------------------------------------------------------------

    def _active(self, state: State) -> list[int]:
        return [s for s in range(len(state.players)) if s not in state.left]

    def _over(self, state: State) -> bool:
        active = self._active(state)
        return len(active) <= 1 or (not state.deck and not any(state.hands[s] for s in active))

    def to_act(self, state: State) -> frozenset[int]:
        if self._over(state):
            return frozenset()
        if state.defender is not None:
            return frozenset({state.defender})
        return frozenset({state.turn})

    def _next(self, state: State, seat: int) -> int:
        """The next seat still in the game that holds a card (it may draw first)."""
        n = len(state.players)
        for step in range(1, n + 1):
            other = (seat + step) % n
            if other not in state.left and (state.hands[other] or state.deck):
                return other
        return seat

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        if state.defender == seat:
            return ["block", "pass"]
        hand = state.hands[seat]
        moves = sorted({f"play {c}" for c in hand if c != "shield"})
        if "shield" in hand:
            moves.append("discard shield")
        return moves

    def default_action(self, state: State, seat: int) -> str | None:
        return "pass" if state.defender == seat and seat in self.to_act(state) else None

    def apply(self, state: State, seat: int, action: str) -> State:
        if seat not in self.to_act(state):
            raise NotYourTurn("It is not your turn.")
        if action not in self.legal_actions(state, seat):
            raise IllegalMove(f"You cannot '{action[:30]}' now.")
        name = state.players[seat]
        if state.defender == seat:
            striker = state.striker if state.striker is not None else seat
            if action == "pass":
                after = replace(state, defender=None, striker=None, caption=f"{name} lets it pass.")
                return self._advance(after, striker)
            hands = _without(state.hands, seat, "shield")
            scores = list(state.scores)
            scores[striker] -= 5
            after = replace(
                state,
                hands=hands,
                scores=tuple(scores),
                pile=(*state.pile, "shield"),
                defender=None,
                striker=None,
                caption=f"{name} blocks the strike!",
            )
            return self._advance(after, striker)
        card = action.split()[-1]
        hands = _without(state.hands, seat, card)
        scores = list(state.scores)
        if card != "shield":
            scores[seat] += int(card[1:])
        deck = list(state.deck)
        if deck:
            hands = _with(hands, seat, deck.pop())
        verb = "discards a shield" if card == "shield" else f"plays {card}"
        after = replace(
            state,
            deck=tuple(deck),
            hands=hands,
            scores=tuple(scores),
            pile=(*state.pile, card),
            caption=f"{name} {verb}.",
        )
        target = self._next(after, seat)
        if card == "c5" and target != seat and "shield" in after.hands[target]:
            return replace(after, defender=target, striker=seat)
        return self._advance(after, seat)

    def _advance(self, state: State, seat: int) -> State:
        return replace(state, turn=self._next(state, seat))

    def leave(self, state: State, seat: int) -> State:
        if self._over(state) or seat in state.left:
            raise IllegalMove("You have already left, or the game is over.")
        hand = state.hands[seat]
        hands = tuple(() if s == seat else h for s, h in enumerate(state.hands))
        after = replace(
            state,
            hands=hands,
            pile=(*state.pile, *hand),
            left=(*state.left, seat),
            caption=f"{state.players[seat]} left the game.",
        )
        if after.defender == seat or after.striker == seat:
            striker = after.striker if after.striker is not None else seat
            after = replace(after, defender=None, striker=None)
            return self._advance(after, striker)
        return self._advance(after, seat) if after.turn == seat else after

    def outcome(self, state: State) -> Outcome | None:
        if not self._over(state):
            return None
        active = self._active(state)
        best = max(state.scores[s] for s in active)
        winners = tuple(s for s in active if state.scores[s] == best)
        ahead = sorted(active, key=lambda s: -state.scores[s])
        places = [0] * len(state.players)
        for s in active:
            places[s] = sum(1 for o in ahead if state.scores[o] > state.scores[s])
        for rank, s in enumerate(reversed(state.left)):
            places[s] = len(active) + rank
        return Outcome(winners, state.scores, "The relay is over.", places=tuple(places))

    # --- views and notation --------------------------------------------------------------------

    def public_view(self, state: State) -> PublicView:
        return PublicView(
            state.players,
            state.scores,
            tuple(len(h) for h in state.hands),
            len(state.deck),
            state.pile[-1] if state.pile else None,
            state.turn,
            state.defender,
            state.left,
            state.caption,
            self._over(state),
        )

    def private_view(self, state: State, seat: int) -> SeatView:
        return SeatView(
            self.public_view(state),
            seat,
            tuple(sorted(state.hands[seat])),
            tuple(self.legal_actions(state, seat)),
        )

    def parse_action(self, text: str) -> str:
        words = " ".join(str(text).lower().split())
        if words in ("block", "pass", "discard shield") or (
            words.startswith("play c") and words[6:] in "12345" and len(words) == 7
        ):
            return words
        raise NotationError(f"'{words[:30]}' is not a Relay move.")

    def format_action(self, action: str) -> str:
        return action

    def describe_action(self, state: State, seat: int, action: str) -> str:
        return {"block": "Block the strike", "pass": "Let it pass"}.get(action, action.title())

    def to_dict(self, state: State) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA,
            "players": list(state.players),
            "deck": list(state.deck),
            "hands": [list(h) for h in state.hands],
            "scores": list(state.scores),
            "pile": list(state.pile),
            "turn": state.turn,
            "left": list(state.left),
            "defender": state.defender,
            "striker": state.striker,
            "caption": state.caption,
        }

    def from_dict(self, data: Mapping[str, Any]) -> State:
        check_save_format(data, SCHEMA)
        try:
            return State(
                tuple(str(p) for p in data["players"]),
                tuple(str(c) for c in data["deck"]),
                tuple(tuple(str(c) for c in h) for h in data["hands"]),
                tuple(int(s) for s in data["scores"]),
                tuple(str(c) for c in data["pile"]),
                int(data["turn"]),
                tuple(int(s) for s in data["left"]),
                None if data["defender"] is None else int(data["defender"]),
                None if data["striker"] is None else int(data["striker"]),
                str(data["caption"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise CorruptSave(f"This Relay save is damaged ({error}).") from None

    def census(self, state: State) -> Counter[str]:
        return Counter([*state.deck, *(c for h in state.hands for c in h), *state.pile])

    def resample_hidden(self, state: State, seat: int | None, rng: Any) -> State:
        # The public knows a defender holds a shield: it stays in their hand.
        kept = {state.defender: "shield"} if state.defender not in (None, seat) else {}
        pool = list(state.deck)
        hands = [list(h) for h in state.hands]
        for s, hand in enumerate(hands):
            if s == seat:
                continue
            if s in kept:
                hand.remove("shield")
            pool += hand
        rng.shuffle(pool)
        for s, hand in enumerate(hands):
            if s == seat:
                continue
            size = len(hand)
            hands[s] = pool[:size] + (["shield"] if s in kept else [])
            pool = pool[size:]
        return replace(state, deck=tuple(pool), hands=tuple(tuple(h) for h in hands))


Hands = tuple[tuple[str, ...], ...]


def _without(hands: Hands, seat: int, card: str) -> Hands:
    hand = list(hands[seat])
    hand.remove(card)
    return tuple(tuple(hand) if s == seat else h for s, h in enumerate(hands))


def _with(hands: Hands, seat: int, card: str) -> Hands:
    return tuple((*h, card) if s == seat else h for s, h in enumerate(hands))

"""The state of a Mille Bornes Solo game, its actions and its JSON form.

States are treated as values: ``rules.apply`` clones before it changes anything, so a state a
caller holds never moves under it. They are plain mutable dataclasses internally, like the
classic game's, because playouts and the arena copy many of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.engine.core import CorruptSave, check_save_format
from bot.engine.mille.cards import Card, deck_counts

SCHEMA_VERSION = 1

HIGHWAYS = 7
HIGHWAY_DEPTH = 7
HAND_SIZE = 7
HIGHWAY_CARDS = HIGHWAYS * HIGHWAY_DEPTH  # 49: clear them all to win

PRESETS = ("classic", "refuel", "easy")
REFUELS: dict[str, int] = {"classic": 0, "refuel": 2, "easy": 1}
"""How many times each preset lets the discard pile go back into an empty tank."""

Verb = Literal["clear", "sacrifice"]
Result = Literal["won", "lost"]


@dataclass(frozen=True)
class Action:
    """One clearing move on highway ``highway`` (1–7).

    ``clear``: ``card`` comes from the hand and pairs with the highway's top card.
    ``sacrifice``: ``card`` is a claimed distance card (in front of you) of the top's value.
    """

    verb: Verb
    highway: int
    card: Card


@dataclass(slots=True)
class SoloState:
    players: tuple[str, ...]  # exactly one name
    options: dict[str, str]
    seed: int
    highways: list[list[Card]]  # seven piles, bottom first: the last card is the face-up top
    hand: list[Card]
    tank: list[Card]  # the draw pile ("gas tank"), top last
    discard: list[Card]  # top last
    miles: list[Card]  # distance cards claimed in front of you, in the order claimed
    refuels_used: int = 0
    moves: int = 0  # clearing moves made
    wipes: int = 0  # whole hands discarded because nothing could be played
    last_move: str = ""  # the last move in words
    events: list[str] = field(default_factory=list)  # the automatic steps that followed it
    caption: str = ""  # both together: what the bot says after the move
    result: Result | None = None
    end_reason: str = ""
    left: bool = False  # the run ended by the player leaving (/resign, a forfeit), not stuck

    def clone(self) -> SoloState:
        return SoloState(
            players=self.players,
            options=self.options,
            seed=self.seed,
            highways=[list(pile) for pile in self.highways],
            hand=list(self.hand),
            tank=list(self.tank),
            discard=list(self.discard),
            miles=list(self.miles),
            refuels_used=self.refuels_used,
            moves=self.moves,
            wipes=self.wipes,
            last_move=self.last_move,
            events=list(self.events),
            caption=self.caption,
            result=self.result,
            end_reason=self.end_reason,
            left=self.left,
        )

    @property
    def preset(self) -> str:
        return self.options["preset"]

    @property
    def refuel_limit(self) -> int:
        return REFUELS[self.preset]

    @property
    def refuels_left(self) -> int:
        return max(0, self.refuel_limit - self.refuels_used)

    @property
    def cleared(self) -> int:
        return HIGHWAY_CARDS - sum(len(pile) for pile in self.highways)

    @property
    def mileage(self) -> int:
        return sum(card.miles for card in self.miles)

    def top(self, highway: int) -> Card | None:
        """The face-up card of highway ``highway`` (1–7), None once it is cleared."""
        pile = self.highways[highway - 1]
        return pile[-1] if pile else None

    def all_cards(self) -> Counter[Card]:
        """Every card in the game, wherever it is (the invariant: this never changes)."""
        cards: Counter[Card] = Counter(self.hand) + Counter(self.tank)
        cards.update(self.discard)
        cards.update(self.miles)
        for pile in self.highways:
            cards.update(pile)
        return cards


def _cards(codes: Any) -> list[Card]:
    if not isinstance(codes, list):
        raise TypeError("a card list is not a list")
    return [Card(code) for code in codes]


def _codes(cards: list[Card]) -> list[str]:
    return [card.value for card in cards]


def state_to_dict(state: SoloState) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "game": "solo",
        "players": list(state.players),
        "options": dict(state.options),
        "seed": state.seed,
        "highways": [_codes(pile) for pile in state.highways],
        "hand": _codes(state.hand),
        "tank": _codes(state.tank),
        "discard": _codes(state.discard),
        "miles": _codes(state.miles),
        "refuels_used": state.refuels_used,
        "moves": state.moves,
        "wipes": state.wipes,
        "last_move": state.last_move,
        "events": list(state.events),
        "caption": state.caption,
        "result": state.result,
        "end_reason": state.end_reason,
        "left": state.left,
    }


def state_from_dict(data: Mapping[str, Any]) -> SoloState:
    """Read a saved game back; anything missing, mistyped or impossible is a CorruptSave."""
    check_save_format(data, SCHEMA_VERSION)
    try:
        if data["game"] != "solo":
            raise ValueError(f"it is a {data['game']!r} game")
        result = data["result"]
        if result not in (None, "won", "lost"):
            raise ValueError(f"unknown result {result!r}")
        state = SoloState(
            players=tuple(str(p) for p in data["players"]),
            options={str(k): str(v) for k, v in data["options"].items()},
            seed=int(data["seed"]),
            highways=[_cards(pile) for pile in data["highways"]],
            hand=_cards(data["hand"]),
            tank=_cards(data["tank"]),
            discard=_cards(data["discard"]),
            miles=_cards(data["miles"]),
            refuels_used=int(data["refuels_used"]),
            moves=int(data["moves"]),
            wipes=int(data["wipes"]),
            last_move=str(data["last_move"]),
            events=[str(e) for e in data["events"]],
            caption=str(data["caption"]),
            result=result,
            end_reason=str(data["end_reason"]),
            left=bool(data.get("left", False)),  # saves from before it was kept: not left
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise CorruptSave(f"This saved game is damaged and cannot be resumed ({error}).") from None
    _check_consistent(state)
    return state


def _check_consistent(state: SoloState) -> None:
    def damaged(why: str) -> CorruptSave:
        return CorruptSave(f"This saved game is damaged: {why}.")

    if len(state.players) != 1:
        raise damaged("Mille Bornes Solo has exactly one player")
    if state.options.get("deck") not in ("bsd", "modern"):
        raise damaged("its deck is unknown")
    if state.options.get("preset") not in PRESETS:
        raise damaged("its preset is unknown")
    if len(state.highways) != HIGHWAYS or any(len(p) > HIGHWAY_DEPTH for p in state.highways):
        raise damaged("the highways are not seven piles of at most seven cards")
    if len(state.hand) > HAND_SIZE:
        raise damaged("the hand holds more than seven cards")
    if any(not card.is_distance for card in state.miles):
        raise damaged("a card in front of the player is not a distance card")
    if not 0 <= state.refuels_used <= state.refuel_limit:
        raise damaged("it used more refuels than its preset allows")
    counts = deck_counts(state.options["deck"])
    if any(n > counts[card] for card, n in state.all_cards().items()):
        raise damaged("it holds more copies of a card than the deck has")

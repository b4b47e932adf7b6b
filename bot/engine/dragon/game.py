"""The Dragon Mille Bornes game object: the engine protocol over the rules, views and notation."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.core import (
    BadOption,
    Game,
    GameInfo,
    OptionSpec,
    Outcome,
    Ranking,
    parsed_or_named,
    resample_rng,
)
from bot.engine.dragon import moves, rules, turns
from bot.engine.dragon.cards import SPECS, cw_deck_counts, cw_name, full_cw_deck
from bot.engine.dragon.notation import Action, format_action, parse_action
from bot.engine.dragon.state import Car, DragonState, Phase, state_from_dict, state_to_dict
from bot.engine.dragon.views import DragonPublicView, DragonSeatView, private_view, public_view
from bot.engine.dragon.words import describe
from bot.engine.mille.cards import Card, deck_counts, full_deck
from bot.engine.mille.state import Tableau

_CODE = {card: card.value for card in Card}

OPTIONS = (
    OptionSpec("oil_slick", ("off", "on"), "off", "the optional Oil Slick cards (off by default)"),
    OptionSpec(
        "deck",
        ("bsd", "modern"),
        "bsd",
        "Mille Bornes deck: bsd (101, the classic deck) or modern (106)",
        aliases=(("classic", "bsd"),),
    ),
    OptionSpec("names", ("en", "fr"), "en", "Mille Bornes card names in English or French"),
)


class DragonMilleBornes(Game[DragonState, Action]):
    """Mille Bornes plus Car Wars for 2 to 6 cars: race to 1000 miles or outlive the rest."""

    info = GameInfo(
        key="dragon",
        title="Dragon Mille Bornes",
        min_players=2,
        max_players=6,
        options=OPTIONS,
        ranking=Ranking(kind="rating", totals=(("kills", "Kills"),), score_unit="miles"),
        max_moves=20_000,
        summary="Mille Bornes meets Car Wars: race to 1000 miles or be the last driver alive",
    )

    def new_game(
        self,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, str] | None = None,
        deck: Sequence[str] | None = None,
    ) -> DragonState:
        self.check_players(players)
        resolved = self.resolve_options(options)
        oil = resolved["oil_slick"] == "on"
        if deck is None:
            mb = full_deck(resolved["deck"])
            cw = full_cw_deck(oil)
            shuffler = random.Random(f"dragon:{seed}:deal")
            shuffler.shuffle(mb)
            shuffler.shuffle(cw)
        else:
            mb, cw = self._stacked(deck, resolved["deck"], oil)
        state = DragonState(
            players=tuple(players),
            options=resolved,
            seed=seed,
            cars=[Car(mb=Tableau()) for _ in players],
            mb_draw=[],
            mb_discard=[],
            cw_draw=[],
            cw_discard=[],
            turn=0,
            phase=Phase.TURN,
        )
        turns.deal(state, mb, cw)
        turns.begin_turn(state, 0)
        state.caption = f"Engines roar: {players[0]} starts."
        return state

    @staticmethod
    def _stacked(deck: Sequence[str], deck_name: str, oil: bool) -> tuple[list[Card], list[str]]:
        """Split a stacked deck (card codes, top first) into its two decks."""
        mb: list[Card] = []
        cw: list[str] = []
        for code in deck:
            text = str(code).strip().lower()
            if text in SPECS:
                cw.append(text)
                continue
            try:
                mb.append(Card(text))
            except ValueError:
                raise BadOption(f"'{text[:40]}' in the stacked deck is not a card.") from None
        mb_counts = deck_counts(deck_name)
        for card, count in Counter(mb).items():
            if count > mb_counts[card]:
                raise BadOption(f"The stacked deck has {count} × {card.title}; too many.")
        cw_counts = cw_deck_counts(oil)
        for code, count in Counter(cw).items():
            if count > cw_counts[code]:
                raise BadOption(f"The stacked deck has {count} × {cw_name(code)}; too many.")
        return mb, cw

    # The engine's own functions, not methods that call them: a playout calls these every
    # move, and a method that calls them costs one more call each (about 1 % of a random game).
    to_act = staticmethod(moves.to_act)
    legal_actions = staticmethod(moves.legal_actions)
    apply = staticmethod(rules.apply)

    def default_action(self, state: DragonState, seat: int) -> Action | None:
        return moves.default_action(state, seat)

    def outcome(self, state: DragonState) -> Outcome | None:
        if state.winners is None:
            return None
        return Outcome(
            winners=state.winners,
            scores=tuple(car.miles for car in state.cars),
            reason=state.end_reason,
            places=state.places,
            seat_details=tuple({"kills": car.kills, "miles": car.miles} for car in state.cars),
        )

    def leave(self, state: DragonState, seat: int) -> DragonState:
        return rules.leave(state, seat)

    def out(self, state: DragonState) -> frozenset[int]:
        return frozenset(
            seat for seat, car in enumerate(state.cars) if not car.alive and not car.left
        )

    def census(self, state: DragonState) -> Counter[str]:
        mb: list[Card] = [*state.mb_draw, *state.mb_discard]
        cw: list[str] = [*state.cw_draw, *state.cw_discard]
        for car in state.cars:
            t = car.mb
            mb += t.hand + t.battle + t.speed + t.safeties + t.miles
            cw += car.cw_hand + car.fireproof
        counts = Counter(cw)
        for card, count in Counter(mb).items():
            counts[_CODE[card]] = count
        return counts

    def resample_hidden(self, state: DragonState, seat: int | None, rng: Any) -> DragonState:
        return rules.resample(state, seat, resample_rng(rng))

    def public_view(self, state: DragonState) -> DragonPublicView:
        return public_view(state)

    def private_view(self, state: DragonState, seat: int) -> DragonSeatView:
        return private_view(state, seat)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def parse_for(self, state: DragonState, seat: int, text: str) -> Action:
        """``parse_action``, and a move typed as /move's suggestions and the buttons write it
        ("Limite de vitesse on Bob", "Safety: Right of Way", "Rocket (Front) on Bob"), which
        the notation alone refused as not understood."""
        return parsed_or_named(
            parse_action,
            lambda: self.legal_actions(state, seat),
            lambda a: (describe(state, seat, a),),
            text,
        )

    def format_action(self, action: Action) -> str:
        return format_action(action)

    def describe_action(self, state: DragonState, seat: int, action: Action) -> str:
        return describe(state, seat, action)

    def to_dict(self, state: DragonState) -> dict[str, Any]:
        return state_to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> DragonState:
        return state_from_dict(data)

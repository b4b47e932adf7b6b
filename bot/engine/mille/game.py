"""The Mille Bornes game object: the engine protocol over the rules, views and notation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.core import (
    Game,
    GameInfo,
    IllegalMove,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Ranking,
    parsed_or_named,
    resample_rng,
)
from bot.engine.mille import rules
from bot.engine.mille.cards import distance_word, stacked_deck
from bot.engine.mille.notation import format_action, parse_action
from bot.engine.mille.state import Action, MilleState, Phase, state_from_dict, state_to_dict
from bot.engine.mille.views import MillePublicView, MilleSeatView, private_view, public_view

DECK_OPTION = OptionSpec(
    "deck",
    ("bsd", "modern"),
    "bsd",
    "bsd: 101 cards as the BSD game; modern: 106",
    aliases=(("classic", "bsd"),),
)
"""Which Mille Bornes deck is dealt: Mille Bornes Solo offers the same choice."""

OPTIONS = (
    DECK_OPTION,
    OptionSpec("length", ("match", "hand"), "match", "a match to 5000 points, or one hand"),
    OptionSpec("names", ("en", "fr"), "en", "card names in English or French"),
)


class MilleBornes(Game[MilleState, Action]):
    """Classic two-player Mille Bornes."""

    info = GameInfo(
        key="mille",
        title="Mille Bornes",
        min_players=2,
        max_players=2,
        options=OPTIONS,
        ranking=Ranking(bests=(("best_hand", "Best hand"),)),
        summary="The classic race to 700 miles (1000 with an extension), as BSD mille plays it",
    )

    def new_game(
        self,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, str] | None = None,
        deck: Sequence[str] | None = None,
    ) -> MilleState:
        self.check_players(players)
        resolved = self.resolve_options(options)
        order = None
        if deck is not None:
            too_few = "A stacked deck needs at least twelve cards to deal two hands."
            order = stacked_deck(deck, resolved["deck"], 2 * rules.HAND_SIZE, too_few)
        state = MilleState(
            players=tuple(players),
            options=resolved,
            seed=seed,
            hand_number=1,
            first_player=0,
            scores=[0, 0],
            tableaus=[],
            draw_pile=[],
            discard=[],
            turn=0,
            phase=Phase.ACT,
        )
        rules.deal_hand(state, 0, order, rules.hand_seed(seed, 1))
        state.caption = rules.hand_opening(1, players[0])
        return state

    def to_act(self, state: MilleState) -> frozenset[int]:
        return frozenset() if state.phase is Phase.OVER else frozenset({state.turn})

    def legal_actions(self, state: MilleState, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat)

    def apply(self, state: MilleState, seat: int, action: Action) -> MilleState:
        if state.phase is not Phase.OVER and seat not in (0, 1):
            raise NotYourTurn("You are not seated at this table.")
        return rules.apply(state, seat, action)

    def outcome(self, state: MilleState) -> Outcome | None:
        if state.winners is None:
            return None
        single_hand = state.options["length"] == "hand" and state.results
        totals = state.results[-1].totals if single_hand else tuple(state.scores)
        # Each seat's best single hand, for the players' personal bests; none from a match
        # left before any hand was scored (a "best hand" of 0 from a hand nobody finished).
        details = tuple(
            {"best_hand": max(r.totals[seat] for r in state.results)} if state.results else {}
            for seat in range(len(state.players))
        )
        return Outcome(
            winners=state.winners,
            scores=tuple(totals),
            reason=state.end_reason,
            seat_details=details,
        )

    def leave(self, state: MilleState, seat: int) -> MilleState:
        """The leaver loses the match at once; the scores stand as they are."""
        if state.phase is Phase.OVER:
            raise IllegalMove("The game is already over.")
        if seat not in (0, 1):
            raise NotYourTurn("You are not seated at this table.")
        after = state.clone()
        after.phase = Phase.OVER
        after.winners = (1 - seat,)
        # "Left", as the other games say it: a forfeit on a turn timer (or a member who left
        # the server) ends the match here too, and "resigned" told the channel of a
        # resignation that nobody made.
        after.end_reason = f"{state.players[seat]} left the game."
        after.caption = after.end_reason
        return after

    def census(self, state: MilleState) -> Counter[str]:
        """The current hand's cards (each hand is dealt from a whole deck)."""
        counts: Counter[str] = Counter()
        for t in state.tableaus:
            for pile in (t.hand, t.battle, t.speed, t.safeties, t.miles):
                counts.update(card.value for card in pile)
        counts.update(card.value for card in state.draw_pile)
        counts.update(card.value for card in state.discard)
        return counts

    def resample_hidden(self, state: MilleState, seat: int | None, rng: Any) -> MilleState:
        """Deal the draw pile and every hand ``seat`` cannot see again at random."""
        after = state.clone()
        hidden = [t for s, t in enumerate(after.tableaus) if s != seat]
        pool = [card for t in hidden for card in t.hand] + after.draw_pile
        shuffler = resample_rng(rng)
        shuffler.shuffle(pool)
        for t in hidden:
            t.hand, pool = pool[: len(t.hand)], pool[len(t.hand) :]
        after.draw_pile = pool
        return after

    def public_view(self, state: MilleState) -> MillePublicView:
        return public_view(state)

    def private_view(self, state: MilleState, seat: int) -> MilleSeatView:
        return private_view(state, seat)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def parse_for(self, state: MilleState, seat: int, text: str) -> Action:
        """``parse_action``, and a move typed as /move's suggestions write it ("Drive 100
        miles", "Stop on Bob", "Extension: go on to 1000 miles"), which the notation alone
        refused as not understood."""
        return parsed_or_named(
            parse_action,
            lambda: self.legal_actions(state, seat),
            lambda a: (self.describe_action(state, seat, a),),
            text,
        )

    def format_action(self, action: Action) -> str:
        return format_action(action)

    def describe_action(self, state: MilleState, seat: int, action: Action) -> str:
        lang = state.options.get("names", "en")
        if action.verb == "draw":
            return "Draw a card"
        if action.verb == "extend":
            unit = distance_word(lang)  # "Stop at 700 bornes" with French names
            return f"Extension: go on to 1000 {unit}" if action.extend else f"Stop at 700 {unit}"
        card = action.card
        assert card is not None
        name = card.name_in(lang)
        if action.verb == "discard":
            return f"Discard {name}"
        me = state.tableaus[seat]
        if card.is_safety:
            if rules.is_coup(me, card):
                return f"Coup fourré! {name}"
            if state.phase is Phase.DRAW:
                return f"{name} before drawing (draw two after)"
            return f"Safety: {name}"
        if card.is_distance:
            # The card's own name, as its button says it: "Drive 100 bornes" with French names.
            return f"Drive {name}"
        if card.is_hazard:
            return f"{name} on {state.players[1 - seat]}"
        return f"Play {name}"

    def to_dict(self, state: MilleState) -> dict[str, Any]:
        return state_to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> MilleState:
        return state_from_dict(data)

"""The Mille Bornes Solo game object: the engine protocol over the rules, views and notation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.core import (
    Game,
    GameInfo,
    IllegalMove,
    OptionSpec,
    Outcome,
    Ranking,
    parsed_or_named,
    resample_rng,
)
from bot.engine.mille.cards import distance_word, full_deck, stacked_deck
from bot.engine.mille.game import DECK_OPTION
from bot.engine.solo import rules
from bot.engine.solo.notation import format_action, parse_action
from bot.engine.solo.state import (
    HAND_SIZE,
    HIGHWAY_CARDS,
    PRESETS,
    Action,
    SoloState,
    state_from_dict,
    state_to_dict,
)
from bot.engine.solo.views import SoloPublicView, SoloSeatView, private_view, public_view

SUGGESTED = " (suggested)"
"""The end of the table button of the expert's favourite move, in words: its star emoji alone
was read out as "star" by a screen reader, which never said what the star meant."""

OPTIONS = (
    OptionSpec(
        "preset",
        PRESETS,
        "classic",
        "classic: the printed rules (a score attack, never winnable); refuel: the discard pile "
        "refills an empty tank twice; easy: one refuel, and cards of one family cancel",
    ),
    DECK_OPTION,
    OptionSpec(
        "require_fuel_left",
        ("off", "on"),
        "off",
        "on: you win only if the tank still holds a card (the printed rules' stricter reading)",
    ),
    OptionSpec("names", ("en", "fr"), "en", "card names in English or French"),
)


class MilleBornesSolo(Game[SoloState, Action]):
    """The seven-highway solitaire."""

    info = GameInfo(
        key="solo",
        title="Mille Bornes Solo",
        min_players=1,
        max_players=1,
        options=OPTIONS,
        private_hands=False,  # the solitaire's hand lies open on the table
        daily_deal=True,
        ranking=Ranking(
            kind="best",
            keys=("won", "cleared", "score"),
            label="Cleared /49",
            shown="cleared",
            score_unit="miles",  # the score is the miles in front of you
        ),
        summary="The seven-highway solitaire with the Mille Bornes cards",
    )

    def new_game(
        self,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, str] | None = None,
        deck: Sequence[str] | None = None,
    ) -> SoloState:
        """A fresh deal; a stacked ``deck`` (codes, top first) is dealt as ``rules.deal`` says.

        A stacked deck needs at least 56 cards (seven highways of seven, then the hand); the
        game is played with exactly the cards given, so a short deck means a short tank.
        """
        self.check_players(players)
        resolved = self.resolve_options(options)
        deck_name = resolved["deck"]
        if deck is None:
            cards = rules.shuffled_deck(full_deck(deck_name), seed)
        else:
            needed = HIGHWAY_CARDS + HAND_SIZE
            too_few = (
                f"A stacked deck needs at least {needed} cards: seven highways of seven, then "
                "a hand of seven."
            )
            cards = stacked_deck(deck, deck_name, needed, too_few)
        state = SoloState(
            players=tuple(players),
            options=resolved,
            seed=seed,
            highways=[],
            hand=[],
            tank=[],
            discard=[],
            miles=[],
        )
        rules.deal(state, cards)
        return state

    def to_act(self, state: SoloState) -> frozenset[int]:
        return frozenset() if state.result is not None else frozenset({0})

    def legal_actions(self, state: SoloState, seat: int) -> list[Action]:
        return rules.legal_actions(state) if seat == 0 else []

    def apply(self, state: SoloState, seat: int, action: Action) -> SoloState:
        return rules.apply(state, seat, action)

    def outcome(self, state: SoloState) -> Outcome | None:
        """A win has the one seat as winner, a loss none (a solitaire has no draw to mean).

        ``scores`` holds the miles in front of you; the cards cleared are in the reason
        (always written ``x/49``) and the views, and ``rules.rank_key`` gives leaderboards
        their order: wins, then cards cleared, then miles.
        """
        if state.result is None:
            return None
        winners = (0,) if state.result == "won" else ()
        return Outcome(
            winners=winners,
            scores=(state.mileage,),
            reason=state.end_reason,
            seat_details=({"cleared": rules.rank_key(state)[1]},),
        )

    def leave(self, state: SoloState, seat: int) -> SoloState:
        """Giving up ends the run as a loss, with what was cleared so far."""
        if state.result is not None:
            raise IllegalMove("The game is already over.")
        after = state.clone()
        after.result = "lost"
        after.left = True
        # "Left", not "gave up": a forfeit on the turn timer ends the run here too.
        unit = distance_word(state.options.get("names", "en"))  # bornes with the French names
        after.end_reason = f"Left with {after.cleared}/49 cleared and {after.mileage} {unit}."
        after.caption = after.end_reason
        return after

    def census(self, state: SoloState) -> Counter[str]:
        counts: Counter[str] = Counter()
        for pile in (*state.highways, state.hand, state.tank, state.discard, state.miles):
            counts.update(card.value for card in pile)
        return counts

    def resample_hidden(self, state: SoloState, seat: int | None, rng: Any) -> SoloState:
        """Deal the face-down highway cards and the tank again (the hand lies open). Once the
        discard pile has refuelled the tank, the tank holds known cards in an unknown order:
        it is shuffled on its own, and the face-down cards only among themselves."""
        after = state.clone()
        shuffler = resample_rng(rng)
        refuelled = bool(after.refuels_used)
        pool = [card for pile in after.highways for card in pile[:-1]]
        if not refuelled:
            pool += after.tank
        shuffler.shuffle(pool)
        for pile in after.highways:
            if len(pile) > 1:
                hidden = len(pile) - 1
                pile[:-1], pool = pool[:hidden], pool[hidden:]
        if refuelled:
            shuffler.shuffle(after.tank)
        else:
            after.tank = pool
        return after

    def public_view(self, state: SoloState) -> SoloPublicView:
        return public_view(state)

    def private_view(self, state: SoloState, seat: int) -> SoloSeatView:
        return private_view(state, seat)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def parse_for(self, state: SoloState, seat: int, text: str) -> Action:
        """``parse_action``, and a move written as the member reads it: a /move suggestion's
        words ("75 miles on 75 miles (highway 5) +75") or a table button's ("5: 75 miles on
        75 miles"), which the notation alone took for the name of a card."""
        return parsed_or_named(
            parse_action,
            lambda: self.legal_actions(state, seat),
            lambda a: self._words_for(state, seat, a),
            text,
        )

    def _words_for(self, state: SoloState, seat: int, action: Action) -> tuple[str, str, str]:
        """A move as its suggestion and its table button write it (``bot/games/solo.py``), the
        button also as the expert's favourite says it (the engine does not rank moves: any
        move's button words with the mark are that move)."""
        lang = state.options.get("names", "en")
        top = state.top(action.highway)
        if action.verb == "sacrifice":
            button = f"{action.highway}: sacrifice a claimed {action.card.value}"
        else:
            on = top.name_in(lang) if top is not None else "?"
            button = f"{action.highway}: {action.card.name_in(lang)} on {on}"
        return self.describe_action(state, seat, action), button, f"{button}{SUGGESTED}"

    def format_action(self, action: Action) -> str:
        return format_action(action)

    def describe_action(self, state: SoloState, seat: int, action: Action) -> str:
        lang = state.options.get("names", "en")
        top = state.top(action.highway)
        card = action.card
        if action.verb == "sacrifice":
            return f"Sacrifice a claimed {card.miles} on highway {action.highway} (−{card.miles})"
        if top is None:
            return f"{card.name_in(lang)} on highway {action.highway}"
        text = f"{card.name_in(lang)} on {top.name_in(lang)} (highway {action.highway})"
        claim = rules.claimed_card(card, top)
        return f"{text} +{claim.miles}" if claim is not None else text

    def to_dict(self, state: SoloState) -> dict[str, Any]:
        return state_to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> SoloState:
        return state_from_dict(data)

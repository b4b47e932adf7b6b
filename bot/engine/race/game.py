"""The 1000 Mile Race game object: the engine protocol over the rules, views and notation."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.core import (
    BadOption,
    Game,
    GameInfo,
    Outcome,
    Ranking,
    parsed_or_named,
    resample_rng,
)
from bot.engine.race import rules
from bot.engine.race.cards import (
    ANSWERS,
    DECK_SIZE,
    HAZARD,
    MILES,
    NAME,
    PIT_CREW,
    TOW_TRUCK,
    TRUMP,
    TYPE_OF,
    card_from_text,
    deck_counts,
    full_deck,
    sort_cards,
)
from bot.engine.race.dealing import deal
from bot.engine.race.hands import drawable
from bot.engine.race.moves import answer_to, legal_actions
from bot.engine.race.notation import format_action, parse_action
from bot.engine.race.state import (
    PASS,
    Action,
    Phase,
    RaceState,
    state_from_dict,
    state_to_dict,
)
from bot.engine.race.views import RacePublicView, RaceSeatView, private_view, public_view
from bot.engine.words import plural

SEPARATOR = "/"


class MileRace(Game[RaceState, Action]):
    """1000 Mile Race: two decks, exactly 1000 miles, hazards, trumps and cheats."""

    info = GameInfo(
        key="race",
        title="1000 Mile Race",
        min_players=2,
        max_players=2,
        ranking=Ranking(score_unit="miles"),
        summary="Race to exactly 1000 miles with your own deck: hazards, trumps and cheats",
    )

    def new_game(
        self,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, str] | None = None,
        deck: Sequence[str] | None = None,
    ) -> RaceState:
        """A new game. A stacked ``deck`` lists Red's library top first, then ``/`` and Blue's
        (without ``/`` both libraries start with the same cards); each library is completed
        with the rest of its deck in a seeded order. With a stacked deck the reveal for the
        first player reads the libraries as given and the reshuffle after it keeps that order,
        so the first seven cards are the opening hand and the next ones are the draws."""
        self.check_players(players)
        self.resolve_options(options)
        state = RaceState(
            players=tuple(players), seed=seed, sides=[], first_player=0, reveal=((), ())
        )
        if deck is None:
            libraries = []
            for seat in (0, 1):
                cards = full_deck()
                random.Random(f"race:{seed}:reveal:{seat}").shuffle(cards)
                libraries.append(cards)
            deal(state, libraries, shuffle=True)
        else:
            deal(state, self._stacked(deck, seed), shuffle=False)
        return state

    @staticmethod
    def _stacked(deck: Sequence[str], seed: int) -> list[list[str]]:
        parts: list[list[str]] = [[]]
        for code in deck:
            if code.strip() == SEPARATOR:
                if len(parts) == 2:
                    raise BadOption(
                        "A stacked deck has at most one '/' (Red's cards, then Blue's)."
                    )
                parts.append([])
                continue
            card = card_from_text(code)
            if card is None:
                raise BadOption(f"'{code[:40]}' in the stacked deck is not a 1000 Mile Race card.")
            parts[-1].append(card)
        if len(parts) == 1:
            parts.append(list(parts[0]))
        libraries = []
        counts = deck_counts()
        for seat, given in enumerate(parts):
            have = Counter(given)
            for card, n in have.items():
                if n > counts[card]:
                    raise BadOption(
                        f"The stacked deck gives {n} × {NAME[card]}; a deck only has "
                        f"{counts[card]}."
                    )
            rest = list((counts - have).elements())
            random.Random(f"race:{seed}:rest:{seat}").shuffle(rest)
            libraries.append(given + rest)
            assert len(libraries[-1]) == DECK_SIZE
        return libraries

    def to_act(self, state: RaceState) -> frozenset[int]:
        if state.phase is Phase.OVER:
            return frozenset()
        if state.phase is Phase.REACT:
            return frozenset({1 - state.stack[-1].seat})
        return frozenset({state.turn})

    def legal_actions(self, state: RaceState, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    def apply(self, state: RaceState, seat: int, action: Action) -> RaceState:
        return rules.apply(state, seat, action)

    def default_action(self, state: RaceState, seat: int) -> Action | None:
        """A reaction window closes with "no reaction"; ordinary turns have no default."""
        if state.phase is Phase.REACT and state.reactor == seat:
            return PASS
        return None

    def outcome(self, state: RaceState) -> Outcome | None:
        if state.winners is None:
            return None
        totals = tuple(side.total for side in state.sides)
        return Outcome(
            winners=state.winners,
            scores=totals,
            reason=state.end_reason,
            seat_details=tuple({"miles": total} for total in totals),
        )

    def leave(self, state: RaceState, seat: int) -> RaceState:
        """The leaver loses at once."""
        return rules.leave(state, seat)

    def census(self, state: RaceState) -> Counter[str]:
        counts: Counter[str] = Counter()
        for side in state.sides:
            for pile in (side.library, side.hand, side.miles, side.hazards, side.trumps):
                counts.update(pile)
            counts.update(side.junkyard)
        counts.update(entry.card for entry in state.stack)
        return counts

    def resample_hidden(self, state: RaceState, seat: int | None, rng: Any) -> RaceState:
        """Deal again every card ``seat`` cannot see: other hands with their owner's library,
        and the order of every library. A card that enables a pending reaction stays in the
        reactor's hand (the table knows the reactor holds it)."""
        after = state.clone()
        shuffler = resample_rng(rng)
        reactor = state.reactor
        for owner, side in enumerate(after.sides):
            if owner == seat:
                shuffler.shuffle(side.library)
                continue
            kept: list[str] = []
            hand = list(side.hand)
            if owner == reactor:
                answer = answer_to(state.stack[-1].card)
                hand.remove(answer)
                kept.append(answer)
            pool = hand + side.library
            shuffler.shuffle(pool)
            side.hand = sort_cards(kept + pool[: len(hand)])
            side.library = pool[len(hand) :]
        return after

    def public_view(self, state: RaceState) -> RacePublicView:
        return public_view(state)

    def private_view(self, state: RaceState, seat: int) -> RaceSeatView:
        return private_view(state, seat)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def parse_for(self, state: RaceState, seat: int, text: str) -> Action:
        """``parse_action``, and a move typed as /move's suggestions, the hand's buttons and a
        /hint write it ("End your turn", "Flat Tire on Bob", "Pit Crew: draw two"), which the
        notation alone refused as not understood."""
        return parsed_or_named(
            parse_action,
            lambda: self.legal_actions(state, seat),
            lambda a: (self.describe_action(state, seat, a),),
            text,
        )

    def format_action(self, action: Action) -> str:
        return format_action(action)

    def describe_action(self, state: RaceState, seat: int, action: Action) -> str:
        verb = action[0]
        rival = state.players[1 - seat] if seat in (0, 1) else "your opponent"
        if verb == "end":
            return "End your turn"
        if verb == "pass":
            return "No reaction"
        if verb == "cycle":
            cards = action[1:]
            drawn = _can_draw(state, seat, len({TYPE_OF[c] for c in cards}), len(cards))
            gets = f" and draw {plural(drawn, 'card')}" if drawn else ": nothing left to draw"
            # The cards counted, as the caption after it counts them: "Cycle 25 miles (draw
            # 1)", picked for "cycle 25s" with two 25s held, read as every 25 going (or as 25
            # miles cycled); it junks one card.
            listed = ", ".join(NAME[c] for c in cards)
            return f"Cycle {plural(len(cards), 'card')} ({listed}){gets}"
        card = action[1]
        name = NAME[card]
        if verb == "discard":
            return f"Discard {name}"
        if verb == "react":
            # No name: the card on top is always the opponent's, and a long name would not
            # fit a button's 80 characters.
            if state.stack:
                return f"React with {name}: cancel the {NAME[state.stack[-1].card]}"
            return f"React with {name}"
        kind = TYPE_OF[card]
        if kind == MILES:
            return f"Drive {name}"
        if kind == HAZARD:
            return f"{name} on {rival}"
        if card == TOW_TRUCK:
            target = NAME[action[2]] if len(action) > 2 else "a hazard"
            return f"Tow Truck: clear {target}"
        if kind == TRUMP:
            cleared = " / ".join(NAME[h] for h in ANSWERS[card])
            return f"Trump {name} (clears {cleared})"
        if card == PIT_CREW:
            drawn = _can_draw(state, seat, 2, 1)
            return f"Pit Crew: {('nothing left to draw', 'draw one', 'draw two')[drawn]}"
        if ANSWERS[card]:
            return f"{name}: clear {NAME[ANSWERS[card][0]]}"
        return f"Play {name}"

    def to_dict(self, state: RaceState) -> dict[str, Any]:
        return state_to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> RaceState:
        return state_from_dict(data)


def _can_draw(state: RaceState, seat: int, wanted: int, junked: int) -> int:
    """How many of ``wanted`` draws ``seat`` gets after junking ``junked`` cards (a cycle's, or
    the Pit Crew itself): the library, and while the one reshuffle is unspent the junkyard with
    those cards too. A button promising "draw 2" drew nothing once the library was spent."""
    if seat not in (0, 1):
        return wanted
    side = state.sides[seat]
    return min(wanted, drawable(len(side.library), len(side.junkyard), side.reshuffled, junked))

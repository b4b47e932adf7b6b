"""The game objects: ``ttr`` (two to four players) and ``ttr-solo`` (the Station Clock solitaire),
one engine protocol over the shared rules, views and notation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.core import (
    BadOption,
    Game,
    GameInfo,
    IllegalMove,
    NotationError,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Ranking,
    resample_rng,
)
from bot.engine.ttr.cards import (
    CARD_CODES,
    CARD_NAMES,
    COLOURS,
    KINDS,
    LOCO,
    TICKET_COUNT,
    TICKETS,
    card_from_text,
    full_counts,
    set_words,
    ticket_index,
)
from bot.engine.ttr.dealing import deal_solo, deal_standard, finish_setup, keep_example
from bot.engine.ttr.ending import compute_result, finish
from bot.engine.ttr.legality import step_refusal
from bot.engine.ttr.moves import legal_actions, to_act
from bot.engine.ttr.notation import format_action, kind_named, parse_action
from bot.engine.ttr.rules import after_draw
from bot.engine.ttr.rules import apply as apply_move
from bot.engine.ttr.state import (
    ACT,
    BLIND,
    CLOCK,
    KEEP,
    OVER,
    PICK2,
    SETUP,
    SLOTS,
    SOLO_SLOTS,
    TICKET_DRAW,
    Action,
    TtrState,
    state_from_dict,
    state_to_dict,
)
from bot.engine.ttr.table import discard_set, shuffled
from bot.engine.ttr.turns import end_turn
from bot.engine.ttr.views import (
    TtrPublicView,
    TtrSeatView,
    all_level,
    private_view,
    public_view,
    robbed_by,
)
from bot.engine.words import names, ordinal

_TICKET_CODES = tuple(t.code for t in TICKETS)


class _TicketToRideBase(Game[TtrState, Action]):
    solo = False

    # --- starting -----------------------------------------------------------------------------

    def new_game(
        self,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, str] | None = None,
        deck: Sequence[str] | None = None,
    ) -> TtrState:
        """A fresh deal. A stacked ``deck`` lists card codes (``red``…``loco``) and ticket codes
        (``T01``…``T46``), top first: the train codes are dealt first (after each player's
        starting Locomotive), the ticket codes likewise; whatever they leave out is shuffled
        beneath them. Dealing order: seven cards to each seat in turn, then (solo) sixteen to
        the Station Clock deck, then the face-up cards; six tickets to each seat in turn, then
        (solo) six hidden ones."""
        self.check_players(players)
        resolved = self.resolve_options(options)
        n = len(players)
        state = TtrState(
            players=tuple(players),
            solo=self.solo,
            seed=seed,
            shuffles=0,
            hands=[[0] * KINDS for _ in range(n)],
            yard_nat=[[0] * len(COLOURS) for _ in range(n)],
            yard_loco=[[0] * len(COLOURS) for _ in range(n)],
            track=[[0] * KINDS for _ in range(n)],
            tickets=[[] for _ in range(n)],
            offered=[[] for _ in range(n)],
            deck=[],
            slots=[-1] * (SOLO_SLOTS if self.solo else SLOTS),
            discard=[0] * KINDS,
            ticket_deck=[],
            phase=SETUP,
            turn=0,
            left=[False] * n,
            keep_tracks=resolved.get("tracks") == "keep",
        )
        counts = full_counts()
        counts[LOCO] -= n  # each player's starting Locomotive
        top_cards, top_tickets = self._stacked(deck or (), counts)
        for card in top_cards:
            counts[card] -= 1
        rest = [card for card in range(KINDS) for _ in range(counts[card])]
        train = top_cards + shuffled(state, rest)
        chosen = set(top_tickets)
        tickets = top_tickets + shuffled(state, [t for t in range(TICKET_COUNT) if t not in chosen])
        if self.solo:
            deal_solo(state, train, tickets)
        else:
            deal_standard(state, train, tickets)
        return state

    @staticmethod
    def _stacked(deck: Sequence[str], counts: list[int]) -> tuple[list[int], list[int]]:
        cards: list[int] = []
        tickets: list[int] = []
        for code in deck:
            ticket = ticket_index(str(code).strip().upper())
            if ticket is not None:
                if ticket in tickets:
                    raise BadOption(f"The stacked deck names ticket {TICKETS[ticket].code} twice.")
                tickets.append(ticket)
                continue
            card = card_from_text(str(code))
            if card is None:
                raise BadOption(f"'{str(code)[:20]}' in the stacked deck is not a card or ticket.")
            cards.append(card)
        for card in range(KINDS):
            if cards.count(card) > counts[card]:
                raise BadOption(
                    f"The stacked deck has {cards.count(card)} × {CARD_NAMES[card]}; only "
                    f"{counts[card]} are left to deal."
                )
        return cards, tickets

    # --- playing ------------------------------------------------------------------------------

    def to_act(self, state: TtrState) -> frozenset[int]:
        return to_act(state)

    def simultaneous(self, state: TtrState) -> bool:
        return state.phase == SETUP

    def legal_actions(self, state: TtrState, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    def apply(self, state: TtrState, seat: int, action: Action) -> TtrState:
        return apply_move(state, seat, action)

    def outcome(self, state: TtrState) -> Outcome | None:
        if state.phase != OVER or state.winners is None:
            return None
        result = state.result
        assert result is not None
        scores = tuple(result.seats[s].total for s in range(state.seats))
        details = tuple(
            {
                "tickets": sum(1 for line in result.seats[s].lines if line.completed),
                "big_cities": len(result.seats[s].cities_won),
                # A seat that left has no total (its cards went to the discard pile): /history
                # and /stats say it left rather than show the 0 its score stands at. Solo, the
                # score stood where the member gave up (0 before a ticket was kept), which
                # playing on could only have risked: a given-up run leaves the best-results
                # board (``bot.bests``), as a game the computer helped play does.
                **({"left": 1} if state.left[s] else {}),
            }
            for s in range(state.seats)
        )
        if self.solo:
            details = ({**details[0], "margin": result.margin},)
            # Outscored, the player hears who beat them; giving up is said by the reason.
            beaten = not state.winners and not state.left[0]
            return Outcome(
                state.winners,
                scores,
                state.end_reason,
                seat_details=details,
                loss_verdict="The hidden tickets win." if beaten else "",
            )
        playing = [s for s in range(state.seats) if state.active(s)]
        places = [0] * state.seats
        for s in playing:
            places[s] = sum(1 for o in playing if scores[o] > scores[s])
        # Leavers rank below everyone playing, a later leaver above an earlier one; those who
        # left during the opening choice of tickets (the first ``opening_leavers``) share the
        # place after every later leaver.
        opening = state.leave_order[: state.opening_leavers]
        later = state.leave_order[state.opening_leavers :]
        for rank, s in enumerate(reversed(later)):
            places[s] = len(playing) + rank
        for s in opening:
            places[s] = len(playing) + len(later)
        winners = () if all_level(state.winners, range(state.seats)) else state.winners
        return Outcome(winners, scores, state.end_reason, tuple(places), seat_details=details)

    def leave(self, state: TtrState, seat: int) -> TtrState:
        if state.phase == OVER:
            raise IllegalMove("The game is already over.")
        if not 0 <= seat < state.seats:
            raise NotYourTurn("You are not seated at this table.")
        if state.left[seat]:
            raise IllegalMove("You have already left this game.")
        after = state.clone()
        who = after.players[seat]
        after.left[seat] = True
        after.leave_order.append(seat)
        if after.phase == SETUP:
            after.opening_leavers += 1
        playing = [s for s in range(after.seats) if after.active(s)]
        if self.solo:
            after.caption = ""
            finish(after, "You gave up.", gave_up=True)
            return after
        if len(playing) <= 1 or after.seats == 2:
            after.caption = ""
            finish(after, f"{who} left the game.")
            return after
        # The seat drops out: its train cards are discarded, its tickets go under the deck.
        for card in range(KINDS):
            after.discard[card] += after.hands[seat][card] + after.track[seat][card]
            after.hands[seat][card] = after.track[seat][card] = 0
        for c in range(len(COLOURS)):
            discard_set(after, seat, c)
        after.ticket_deck.extend(after.tickets[seat] + after.offered[seat])
        after.tickets[seat] = []
        after.offered[seat] = []
        after.final_queue = [s for s in after.final_queue if s != seat]
        # Leavers finish below everyone still playing, a later one above an earlier one; those
        # who leave during the opening choice of tickets share the last place (``outcome``).
        opening = after.phase == SETUP
        place = "last" if opening else ordinal(len(playing) + 1)
        head = (
            f"{who} left the game and will finish {place}: their cards are discarded and "
            "their tickets go under the ticket deck."
        )
        after.caption = ""
        if opening:
            if not to_act(after):
                finish_setup(after)  # its caption says who kept what and who starts
        elif after.turn == seat:
            if after.phase == PICK2:
                after_draw(after)
            after.phase = ACT
            end_turn(after)
        # Then who plays on, and whose turn it is now, before what the leave set off (the
        # opening tickets kept, a Railyard feeding the next player's stack, the final round).
        said = [head]
        if after.phase != OVER:
            on = names([after.players[s] for s in playing])
            turn = "" if opening else f", {after.players[after.turn]} to play"
            said.append(f"{on} play on{turn}.")
        after.caption = " ".join([*said, after.caption.strip()]).strip()
        return after

    def default_action(self, state: TtrState, seat: int) -> Action | None:
        return None  # every decision (tickets at setup included) is an ordinary turn

    # --- hidden information -------------------------------------------------------------------

    def census(self, state: TtrState) -> Counter[str]:
        counts = list(state.discard)
        for s in range(state.seats):
            hand, track = state.hands[s], state.track[s]
            nat, loco = state.yard_nat[s], state.yard_loco[s]
            for card in range(KINDS):
                counts[card] += hand[card] + track[card]
            for c in range(len(COLOURS)):
                counts[c] += nat[c]
                counts[LOCO] += loco[c]
        face_up = [*state.slots, state.clock_card]
        for card in range(KINDS):
            counts[card] += (
                state.deck.count(card) + state.clock_deck.count(card) + face_up.count(card)
            )
        census: Counter[str] = Counter(
            {CARD_CODES[card]: counts[card] for card in range(KINDS) if counts[card]}
        )
        tickets = [*state.ticket_deck, *state.hidden_tickets]
        for seat in range(state.seats):
            tickets.extend(state.tickets[seat])
            tickets.extend(state.offered[seat])
        census.update([_TICKET_CODES[t] for t in tickets])
        return census

    def resample_hidden(self, state: TtrState, seat: int | None, rng: Any) -> TtrState:
        """Deal again every card ``seat`` cannot see: other hands, the decks, the discard pile,
        the On-the-Track stacks (nobody sees them before the end) and other seats' tickets."""
        after = state.clone()
        shuffler = resample_rng(rng)
        over = state.phase == OVER
        others = [s for s in range(after.seats) if s != seat]
        # Train cards: each place keeps its size; hands and stacks are count vectors.
        places: list[tuple[str, int, int]] = []  # (kind, seat, size)
        pool: list[int] = []
        for s in others:
            places.append(("hand", s, sum(after.hands[s])))
            pool.extend(c for c in range(KINDS) for _ in range(after.hands[s][c]))
        if not over:
            for s in range(after.seats):
                places.append(("track", s, sum(after.track[s])))
                pool.extend(c for c in range(KINDS) for _ in range(after.track[s][c]))
        places.append(("discard", 0, sum(after.discard)))
        pool.extend(c for c in range(KINDS) for _ in range(after.discard[c]))
        pool.extend(after.deck)
        pool.extend(after.clock_deck)
        shuffler.shuffle(pool)
        for kind, s, size in places:
            taken, pool = pool[:size], pool[size:]
            vector = [0] * KINDS
            for card in taken:
                vector[card] += 1
            if kind == "hand":
                after.hands[s] = vector
            elif kind == "track":
                after.track[s] = vector
            else:
                after.discard = vector
        after.deck, after.clock_deck = pool[: len(state.deck)], pool[len(state.deck) :]
        # Tickets: other seats' kept and offered tickets, the deck and the hidden six.
        hidden_from = [s for s in others if not over]
        ticket_pool = list(after.ticket_deck)
        for s in hidden_from:
            ticket_pool.extend(after.tickets[s])
            ticket_pool.extend(after.offered[s])
        if not over:
            ticket_pool.extend(after.hidden_tickets)
        shuffler.shuffle(ticket_pool)
        for s in hidden_from:
            k, m = len(after.tickets[s]), len(after.offered[s])
            after.tickets[s] = sorted(ticket_pool[:k])
            after.offered[s] = sorted(ticket_pool[k : k + m])
            ticket_pool = ticket_pool[k + m :]
        if not over:
            k = len(after.hidden_tickets)
            after.hidden_tickets, ticket_pool = ticket_pool[:k], ticket_pool[k:]
        after.ticket_deck = ticket_pool
        return after

    # --- views and notation -------------------------------------------------------------------

    def public_view(self, state: TtrState) -> TtrPublicView:
        return public_view(state)

    def private_view(self, state: TtrState, seat: int) -> TtrSeatView:
        return private_view(state, seat)

    def parse_action(self, text: str) -> Action:
        return parse_action(text, solo=self.solo)

    def parse_for(self, state: TtrState, seat: int, text: str) -> Action:
        # Errors name this game's slots and, for a keep, the tickets this seat is offered; the
        # draw area lets 'take purple' mean the slot showing it.
        try:
            return parse_action(
                text,
                solo=self.solo,
                keep_example=keep_example(state, seat),
                face_up=state.slots,
                clock_card=state.clock_card,
            )
        except NotationError:
            # A half-written move of a kind this step does not take ('yard' in the middle of a
            # two-card draw) is refused for the step, not for the words it lacks.
            kind = kind_named(text)
            refused = step_refusal(state, seat, kind) if kind else None
            if refused is None:
                raise
            raise NotationError(refused) from None

    def format_action(self, action: Action) -> str:
        return format_action(action)

    def describe_action(self, state: TtrState, seat: int, action: Action) -> str:
        kind = action.kind
        if kind == "take":
            if action.slot == BLIND:
                return "Draw blind from the train deck"
            card = state.clock_card if action.slot == CLOCK else state.slots[action.slot - 1]
            where = "the Station Clock card" if action.slot == CLOCK else f"slot {action.slot}"
            if card < 0:
                return f"Take {where}"
            name = CARD_NAMES[card]
            if card == LOCO and state.phase == ACT:
                return f"Take the Locomotive from {where} (counts as both draws)"
            return f"Take {name} from {where}"
        if kind == "yard":
            return _describe_yard(state, seat, action)
        if kind == "tickets":
            left = len(state.ticket_deck)
            # "Draw four … (2 in the deck)" promised four: when fewer are left, all are offered.
            if left == 1:
                return "Draw the last Destination Ticket"
            if left < TICKET_DRAW:
                return f"Draw the last {left} Destination Tickets"
            return f"Draw four Destination Tickets ({left} in the deck)"
        if kind == "keep":
            if not action.tickets:
                return "Keep none of these tickets"
            kept = ", ".join(
                f"{TICKETS[t].code} {TICKETS[t].route} ({TICKETS[t].points})"
                for t in action.tickets
            )
            return f"Keep {kept}"
        if kind == "pass":
            return "Pass (nothing else is possible)"
        return "Draw from the Station Clock deck (not allowed)"

    # --- saves --------------------------------------------------------------------------------

    def to_dict(self, state: TtrState) -> dict[str, Any]:
        return state_to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> TtrState:
        state = state_from_dict(data)
        if state.solo != self.solo:
            from bot.engine.core import CorruptSave

            raise CorruptSave("This saved game belongs to the other Ticket to Ride variant.")
        if state.phase == OVER:
            compute_result(state)
        return state


def _describe_yard(state: TtrState, seat: int, action: Action) -> str:
    if action.singles:
        return "Railyard: single " + names([CARD_NAMES[c] for c in action.singles])
    text = f"Railyard: {set_words(action.colour, action.naturals, action.locos)}"
    robs = robbed_by(public_view(state), seat, action)
    return f"{text} (robs {robs})" if robs else text


TRACKS_OPTION = OptionSpec(
    "tracks",
    ("reshuffle", "keep"),
    "reshuffle",
    "reshuffle: as the rules say, the On-the-Track stacks go into the second train deck with "
    "the discards and Railyards; keep: the stacks stay and keep scoring",
)


class TicketToRide(_TicketToRideBase):
    """Ticket to Ride: The Card Game, two to four players."""

    info = GameInfo(
        key="ttr",
        title="Ticket to Ride: The Card Game",
        min_players=2,
        max_players=4,
        options=(TRACKS_OPTION,),
        ranking=Ranking(kind="rating"),
        summary="Collect train cards, rob Railyards, complete Destination Tickets",
    )
    solo = False


class TicketToRideSolo(_TicketToRideBase):
    """The Station Clock solitaire against six hidden tickets."""

    info = GameInfo(
        key="ttr-solo",
        title="Ticket to Ride Solo",
        min_players=1,
        max_players=1,
        private_hands=True,
        daily_deal=True,
        ranking=Ranking(
            kind="best",
            keys=("won", "score", "margin"),
            label="Score",
            shown="score",
            given_up_ranks=False,  # a run given up is ``left`` (``outcome``)
        ),
        summary="Sixteen turns of the Station Clock against six hidden tickets",
    )
    solo = True


__all__ = ["KEEP", "TicketToRide", "TicketToRideSolo"]

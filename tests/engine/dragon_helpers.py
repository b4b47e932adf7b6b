"""Stacked-deck helpers for Dragon Mille Bornes tests.

``start`` deals the hands a test names (padding them with cards that play no part), and puts
only the named draws in the draw piles, so nothing else turns up. ``rig`` sets a car's damage
and piles directly for tests that need a car already hurt or moving.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.engine.dragon import GAME
from bot.engine.dragon.cards import cw_deck_counts
from bot.engine.dragon.game import DragonMilleBornes
from bot.engine.dragon.notation import Action
from bot.engine.dragon.state import DragonState
from bot.engine.mille.cards import Card, deck_counts

G: DragonMilleBornes = GAME
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")

# Cards that never matter unless a test names them: they pad the hands.
_MB_FILLER = ("gasoline", "end-of-limit", "75", "50", "25")
_CW_FILLER = ("mg-back", "laser-back", "rocket-back", "flame-back", "called-shot", "tire-shot")


def _pad(
    hands: Sequence[Sequence[str]], size: int, filler: Sequence[str], left: Counter[str]
) -> list[str]:
    out: list[str] = []
    for hand in hands:
        cards = list(hand)
        assert len(cards) <= size, f"a hand holds at most {size} cards: {cards}"
        for code in filler:
            while len(cards) < size and left[code] > 0:
                cards.append(code)
                left[code] -= 1
        assert len(cards) == size, "ran out of filler cards"
        out += cards
    return out


def start(
    mb: Sequence[Sequence[str]] = ((), ()),
    cw: Sequence[Sequence[str]] = ((), ()),
    mb_draw: Sequence[str] = (),
    cw_draw: Sequence[str] = (),
    seats: int | None = None,
    **options: str,
) -> DragonState:
    """A game whose seats hold the given hands (padded), with only ``*_draw`` to draw.

    Seat 0 starts and draws first: up to 7 Mille Bornes and 6 Car Wars cards from the draws.
    """
    count = seats or max(len(mb), len(cw))
    mb_hands = [*mb, *([()] * (count - len(mb)))]
    cw_hands = [*cw, *([()] * (count - len(cw)))]
    named_mb = Counter(c for hand in mb_hands for c in hand) + Counter(mb_draw)
    named_cw = Counter(c for hand in cw_hands for c in hand) + Counter(cw_draw)
    mb_left = Counter({c.value: n for c, n in deck_counts(options.get("deck", "bsd")).items()})
    mb_left.subtract(named_mb)
    cw_left = cw_deck_counts(options.get("oil_slick") == "on")
    cw_left.subtract(named_cw)
    deck = [
        *_pad(mb_hands, 6, _MB_FILLER, mb_left),
        *mb_draw,
        *_pad(cw_hands, 5, _CW_FILLER, cw_left),
        *cw_draw,
    ]
    return G.new_game(list(NAMES[:count]), seed=1, options=options, deck=deck)


def act(state: DragonState, seat: int, *moves: str) -> DragonState:
    """Apply several moves in notation for one seat."""
    for move in moves:
        state = G.apply(state, seat, G.parse_action(move))
    return state


def legal(state: DragonState, seat: int) -> list[str]:
    return [G.format_action(a) for a in G.legal_actions(state, seat)]


def rig(
    state: DragonState,
    seat: int,
    *,
    battle: Sequence[str] | None = None,
    safeties: Sequence[str] | None = None,
    miles: Sequence[str] | None = None,
    hits: Sequence[int] | None = None,
    tires: int | None = None,
    driver: int | None = None,
    jammed: bool | None = None,
    fireproof: bool | None = None,
    flamed: bool | None = None,
) -> DragonState:
    """A copy of ``state`` with seat's car set up as given (cards appear from nowhere)."""
    new = state.clone()
    car = new.cars[seat]
    if battle is not None:
        car.mb.battle = [Card(c) for c in battle]
    if safeties is not None:
        car.mb.safeties = [Card(c) for c in safeties]
    if miles is not None:
        car.mb.miles = [Card(c) for c in miles]
    if hits is not None:
        car.hits = list(hits)
    if tires is not None:
        car.tires = tires
    if driver is not None:
        car.driver = driver
    if jammed is not None:
        car.jammed = jammed
    if fireproof is not None:
        car.fireproof = ["fireproof"] if fireproof else []
    if flamed is not None:
        car.flamed = flamed
    return new


def moving(state: DragonState, *seats: int) -> DragonState:
    """The given seats have a Go showing."""
    for seat in seats:
        state = rig(state, seat, battle=["go"])
    return state


def codes(cards: Sequence[Card]) -> list[str]:
    return sorted(card.value for card in cards)


def play(verb: str, card: str = "", target: int | None = None) -> Action:
    return Action(verb, card, target)

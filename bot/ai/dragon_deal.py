"""Dragon Mille Bornes determinized: a full table dealt from what one seat has seen.

What a seat has not seen is, per deck, the deck list minus every card in sight: its own two
hands, every car's Mille Bornes piles (battle, speed, safeties, miles), Fireproof Armor on the
cars, and both discard piles. Those unseen cards are the other players' hands (sizes shown) and
the two draw piles (sizes shown). ``determinize`` deals them again, the rivals' hands weighted
by what they likely hold (``bot.ai.dragon_hands``). The imagined table honours what the seat
knows:

- a reaction window that waits for another player shows that player holds an answer (the
  safety for a coup fourré, a Skid Into a Wall, a Driving Ace, an Armor, Swerve, Spin,
  Backfire or Oil Slick that fits the shot): one such card is dealt to them first;
- the game's own die and reshuffles come from a seed the seat cannot see: each imagined table
  gets a fresh one;
- what the view does not show is set to what matters least: the stalemate counter starts at
  zero, and a dead car's place in the order of deaths is unknown (rollouts only ask who wins).
"""

from __future__ import annotations

import random
from collections import Counter

from bot.ai.dragon_hands import deal_cw_hand, mb_weights
from bot.ai.search import deal_weighted
from bot.engine.dragon.cards import ARMOR_STOPS, CW_ORDER, MAX_ARMOR, SIDES, SPECS, cw_deck_counts
from bot.engine.dragon.state import Car, DragonState, Pending, Phase
from bot.engine.dragon.views import CarView, DragonSeatView, PendingView
from bot.engine.mille.cards import SAFETY_FOR, Card, deck_counts
from bot.engine.mille.state import Tableau

_PHASES = {phase.value: phase for phase in Phase}


def unseen_mb(view: DragonSeatView) -> Counter[Card]:
    """The Mille Bornes cards ``view.seat`` cannot see (other hands and the draw pile)."""
    public = view.public
    seen: Counter[Card] = Counter(view.mb_hand)
    seen.update(public.mb_discard)
    for car in public.cars:
        seen.update(car.battle)
        seen.update(car.speed)
        seen.update(car.safeties)
        seen.update(car.miles)
    full = deck_counts(public.deck_name)
    return Counter({c: n - seen[c] for c, n in full.items() if n > seen[c]})


def unseen_cw(view: DragonSeatView) -> Counter[str]:
    """The Car Wars cards ``view.seat`` cannot see (other hands and the draw pile)."""
    public = view.public
    seen: Counter[str] = Counter(view.cw_hand)
    seen.update(public.cw_discard)
    seen["fireproof"] += sum(1 for car in public.cars if car.fireproof)
    full = cw_deck_counts(public.oil_slick)
    return Counter({c: n - seen[c] for c, n in full.items() if n > seen[c]})


def _oil_by(pv: PendingView) -> int:
    """Who dropped the Oil Slick of a pending chain: the victim of the shot (after a backfire
    the pending chain names the victim as ``by``)."""
    if not pv.oil:
        return -1
    return pv.by if pv.kind == Phase.BACKFIRE.value else pv.car


def _forced_answer(
    view: DragonSeatView, cw_pool: Counter[str], rng: random.Random
) -> tuple[int, str] | None:
    """The card a waiting reactor (not this seat) must hold for its window to be open."""
    public = view.public
    pv = public.pending
    if pv is None or pv.actor == view.seat:
        return None
    kind = pv.kind
    actor = pv.actor
    if kind == Phase.COUP.value:
        return actor, SAFETY_FOR[Card(pv.card)].value
    if kind == Phase.SKID.value:
        return actor, "skid"
    if kind == Phase.OIL_ACE.value:
        return actor, Card.DRIVING_ACE.value
    options: list[str] = []
    armor_open = pv.side >= 0 and pv.armor < MAX_ARMOR and pv.hits - ARMOR_STOPS * pv.armor > 0
    if kind in (Phase.REACT.value, Phase.BACKFIRE.value) and armor_open:
        options.append(f"armor-{SIDES[pv.side]}")
    if kind == Phase.REACT.value and pv.armor == 0:
        if public.cars[actor].moving:
            options += ["swerve", "spin"]
        if SPECS[pv.card].weapon == "ac":
            options.append("backfire")
        if public.oil_slick and not pv.oil:
            options.append("oil-slick")
    weights = [cw_pool[c] for c in options]
    if not options or sum(weights) <= 0:
        return None
    # One answer, as likely as its unseen copies make it.
    pick = rng.random() * sum(weights)
    for code, weight in zip(options, weights, strict=True):
        pick -= weight
        if pick < 0:
            return actor, code
    return actor, options[-1]


def determinize(view: DragonSeatView, rng: random.Random) -> DragonState:
    """A full state consistent with ``view``: its private view for the seat equals ``view``."""
    public = view.public
    seat = view.seat
    mb_pool = unseen_mb(view)
    cw_pool = unseen_cw(view)
    mb_forced: dict[int, list[Card]] = {}
    cw_forced: dict[int, list[str]] = {}
    forced = _forced_answer(view, cw_pool, rng)
    if forced is not None:
        owner, code = forced
        if code in SPECS:
            if cw_pool[code] > 0:
                cw_pool[code] -= 1
                cw_forced[owner] = [code]
        else:
            card = Card(code)
            if mb_pool[card] > 0:
                mb_pool[card] -= 1
                mb_forced[owner] = [card]
    # Sorted first so that the deal depends on the rng alone, not on the counters' order.
    mb_cards: list[Card] = sorted(mb_pool.elements(), key=lambda c: c.value)
    cw_cards: list[str] = sorted(cw_pool.elements(), key=CW_ORDER.__getitem__)
    cars: list[Car] = []
    for shown in public.cars:
        if shown.seat == seat:
            mb_hand = list(view.mb_hand)
            cw_hand = list(view.cw_hand)
        else:
            forced_mb = mb_forced.get(shown.seat, [])
            dealt_mb, mb_cards = deal_weighted(
                mb_cards,
                max(0, shown.mb_hand_count - len(forced_mb)),
                mb_weights(public, shown.seat),
                rng,
                shuffle=False,
            )
            forced_cw = cw_forced.get(shown.seat, [])
            dealt_cw, cw_cards = deal_cw_hand(
                cw_cards,
                shown.cw_hand_count - len(forced_cw),
                shown.facts,
                forced_cw,
                rng,
                shuffle=False,
            )
            mb_hand, cw_hand = forced_mb + dealt_mb, forced_cw + dealt_cw
        cars.append(_car(shown, mb_hand, cw_hand))
    # What no hand took is the draw piles, in an order of their own.
    rng.shuffle(mb_cards)
    rng.shuffle(cw_cards)
    phase = _PHASES.get(public.phase, Phase.TURN)
    pending = None
    pv = public.pending
    if pv is not None:
        kind = _PHASES[pv.kind]
        pending = Pending(
            kind=kind,
            actor=pv.actor,
            car=pv.car,
            by=pv.by,
            card=pv.card,
            side=pv.side,
            hits=pv.hits,
            armor=pv.armor,
            oil_by=_oil_by(pv),
            ace=kind is Phase.WALL and pv.card == "skid",
            waiting=list(pv.waiting),
        )
    return DragonState(
        players=public.players,
        options={
            "oil_slick": "on" if public.oil_slick else "off",
            "deck": public.deck_name,
            "names": public.lang,
        },
        seed=rng.getrandbits(32),
        cars=cars,
        mb_draw=mb_cards,
        mb_discard=list(public.mb_discard),
        cw_draw=cw_cards,
        cw_discard=list(public.cw_discard),
        turn=public.turn,
        phase=phase,
        pending=pending,
        mb_left=public.mb_left,
        cw_done=public.cw_done,
        spun=public.spun,
        caption=public.caption,
        winners=public.winners,
        places=public.places,
        end_reason=public.end_reason,
    )


def _car(shown: CarView, mb_hand: list[Card], cw_hand: list[str]) -> Car:
    return Car(
        mb=Tableau(
            hand=mb_hand,
            battle=list(shown.battle),
            speed=list(shown.speed),
            safeties=list(shown.safeties),
            coups=list(shown.coups),
            miles=list(shown.miles),
        ),
        cw_hand=cw_hand,
        hits=list(shown.hits),
        tires=shown.tires,
        driver=shown.driver,
        jammed=shown.jammed,
        fireproof=["fireproof"] if shown.fireproof else [],
        flamed=shown.flamed,
        skidded=shown.skidded,
        alive=shown.alive,
        left=shown.left,
        kills=shown.kills,
        killed_by=shown.killed_by,
        final_miles=0 if shown.alive else shown.mileage,
        facts=list(shown.facts),
    )

"""``normal``: the Dragon Mille Bornes computer player.

It decides from its seat's private view alone: its two hands, every car on the table and both
discard piles. Unseen cards (the draw piles and the other hands) are estimated from the deck
lists minus everything it has seen.

How it plays:

- Reactions: a coup fourré, a Driving Ace against a skid or an Oil Slick, a backfire, an Oil
  Slick and a skid on a car that dodged are always played. Armor goes on any hit of 2 or more
  that would hurt (it is plentiful); swerves and spins are kept for big shots: ones that would
  reach the driver, blow the Extra Tank, shoot the tires out, or land 5 hits on a battered
  side. Sides for skids and stampedes: armor if held, else the side that keeps the driver
  safest.
- Mille Bornes: finish at exactly 1000 whenever it can; safeties at once (they cost nothing);
  get moving again (Go, remedies); Repairs or a Spare Tire when the car is badly hurt; hazards
  on the leader; the biggest distance; discards by a keep value.
- Car Wars: the shot with the best expected value (damage that breaches, reaches the driver or
  kills is worth far more; leaders and wounded drivers are better targets; a moving target
  may dodge), Fireproof Armor when flames are about, Stampede with many cars, unjamming by
  discarding the hand when machine guns are all it holds.

Each decision is arithmetic over a few dozen legal moves: far under a millisecond.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

from bot.ai.base import Policy
from bot.engine.dragon.cards import (
    ARMOR_STOPS,
    CW_ORDER,
    DRIVER_TRACK,
    SIDE_TRACK,
    SPECS,
    TIRE_TRACK,
    TRIP,
    cw_deck_counts,
)
from bot.engine.dragon.notation import Action, parse_action
from bot.engine.dragon.views import CarView, DragonPublicView, DragonSeatView
from bot.engine.mille.cards import HAZARD_FOR, SAFETY_FOR, Card

# Scores of Mille Bornes moves (one scale; the best is played).
WIN = 100_000.0
SAFETY = 5_000.0
GET_MOVING = 2_000.0
HAZARD = 420.0
LIMIT = 160.0
DISTANCE = 300.0
REPAIR_STOP_COST = 260.0  # a moving car that stops to repair needs a Go again

# Car Wars shot values.
HIT = 6.0  # each hit on a side
BREACH = 25.0
DRIVER_HIT = 90.0
KILL = 900.0
TIRE_HIT = 8.0
TIRES_OUT = 140.0
TANK = 60.0


@lru_cache(maxsize=4096)
def _parse(text: str) -> Action:
    return parse_action(text)


_CW_COUNTS = {oil: dict(cw_deck_counts(oil)) for oil in (False, True)}


class _Seen:
    """What the seat knows: its view, its car, and the unseen share of each card."""

    def __init__(self, view: DragonSeatView) -> None:
        self.view = view
        self.public: DragonPublicView = view.public
        self.seat = view.seat
        self.me: CarView = self.public.cars[view.seat]
        self.rivals = [c for c in self.public.cars if c.alive and c.seat != view.seat]
        self.cw_unseen = self._cw_unseen()
        self.cw_unseen_total = max(1, sum(self.cw_unseen.values()))

    def _cw_unseen(self) -> Counter[str]:
        # Plain dict arithmetic on a cached deck list: this runs for every decision, and the
        # expert's rollouts make thousands of them.
        unseen = dict(_CW_COUNTS[self.public.oil_slick])
        get = unseen.get
        for code in self.view.cw_hand:
            unseen[code] = get(code, 0) - 1
        for code in self.public.cw_discard:
            unseen[code] = get(code, 0) - 1
        for car in self.public.cars:
            if car.fireproof:
                unseen["fireproof"] = get("fireproof", 0) - 1
        return Counter({code: n for code, n in unseen.items() if n > 0})

    def p_holds(self, car: CarView, codes: tuple[str, ...]) -> float:
        """Chance ``car``'s Car Wars hand holds one of ``codes``."""
        copies = sum(self.cw_unseen[c] for c in codes)
        if copies <= 0 or car.cw_hand_count <= 0:
            return 0.0
        miss = (1.0 - copies / self.cw_unseen_total) ** car.cw_hand_count
        return 1.0 - miss

    def threat(self, car: CarView) -> float:
        """How much a rival matters as a target: the leader and the wounded first."""
        lead = car.mileage / TRIP
        close = 0.6 if TRIP - car.mileage <= 200 else 0.0
        return 1.0 + lead + close + 0.15 * car.driver + 0.2 * car.kills


def _side_hit_value(car: CarView, side: int, hits: int, flame: bool) -> float:
    """What ``hits`` on ``car``'s ``side`` are worth to the shooter."""
    if hits <= 0:
        return 0.0
    tank = Card.EXTRA_TANK in car.safeties
    value = 0.0
    if flame and tank:
        value += TANK
    if flame and car.fireproof:
        return value
    current = car.hits[side]
    total = current + hits
    carry = max(0, total - SIDE_TRACK)
    value += HIT * (min(SIDE_TRACK, total) - current)
    if current < SIDE_TRACK <= total:
        value += BREACH
    if carry:
        if (flame and tank) or car.driver + carry >= DRIVER_TRACK:
            return value + KILL
        value += DRIVER_HIT * carry * (1 + car.driver / 2)
    # Hits on a side close to its breach set up the next shot.
    value += 2.0 * max(0, min(SIDE_TRACK, total) - 8)
    return value


def _tire_value(car: CarView, hits: int) -> float:
    after = min(TIRE_TRACK, car.tires + hits)
    value = TIRE_HIT * (after - car.tires)
    if after >= TIRE_TRACK > car.tires and car.moving:
        value += TIRES_OUT * (1 + car.mileage / TRIP)
    return value


class DragonNormalPolicy(Policy):
    """A sensible Dragon Mille Bornes player (see the module docstring)."""

    name = "normal"

    def choose(self, view: Any, rng: random.Random) -> str:
        if not view.legal:
            raise ValueError("The normal player was asked to act with no legal action.")
        return decide(view)


def decide(view: Any) -> str:
    """``normal``'s move for ``view``. ``view.legal`` is only searched, never copied: the
    expert's rollouts pass a lean one that answers for discards without listing them."""
    legal = view.legal
    if len(legal) == 1:
        return str(legal[0])
    seen = _Seen(view)
    phase = view.public.phase
    if phase == "turn":
        return _turn(seen, legal)
    if phase in ("wall", "stampede"):
        return _pick_side(seen, legal)
    if phase == "react":
        return _react(seen, legal)
    # coup, skid, backfire, oil-ace: the answer is always worth playing.
    for text in legal:
        if text != "pass":
            return str(text)
    return str(legal[0])


# --- reactions -------------------------------------------------------------------------------


def _react(seen: _Seen, legal: tuple[str, ...]) -> str:
    pending = seen.public.pending
    assert pending is not None
    me = seen.me
    spec = SPECS[pending.card]
    hits = pending.hits - ARMOR_STOPS * pending.armor
    for answer in ("backfire", "oil-slick"):
        if answer in legal:
            return answer
    if pending.side < 0:
        harm = _tire_value(me, hits)
        big = me.tires + hits >= TIRE_TRACK and me.mileage > 0
    else:
        harm = _side_hit_value(me, pending.side, hits, spec.flame)
        after = _side_hit_value(me, pending.side, hits - ARMOR_STOPS, spec.flame)
        big = harm >= DRIVER_HIT or (hits >= 5 and me.hits[pending.side] >= 6)
        armor = next((t for t in legal if t.startswith("armor")), None)
        # A second armor only when the first leaves a hit that still matters; a big shot is
        # swerved rather than armored when a swerve is at hand.
        worth = pending.armor == 0 or after > 0 or harm >= DRIVER_HIT
        keep_for_swerve = big and "swerve" in legal
        if armor is not None and hits >= 2 and harm > after and worth and not keep_for_swerve:
            return armor
    dodges = [t for t in ("swerve", "spin") if t in legal]
    # Swerves are kept for big shots, unless the hand is full of them.
    plenty = seen.view.cw_hand.count("swerve") >= 3
    if dodges and (big or (harm >= 30 and plenty)):
        return dodges[0]
    if pending.side >= 0:
        armor = next((t for t in legal if t.startswith("armor")), None)
        if armor is not None and harm > 0 and hits >= 2:
            return armor
    return "pass"


def _pick_side(seen: _Seen, legal: tuple[str, ...]) -> str:
    if "play driving-ace" in legal:
        return "play driving-ace"
    pending = seen.public.pending
    assert pending is not None
    me = seen.me
    best = legal[0]
    best_cost = float("inf")
    for text in legal:
        action = _parse(text)
        if action.side is None:
            continue
        armored = action.verb == "armor"
        hits = max(0, pending.hits - (ARMOR_STOPS if armored else 0))
        cost = _side_hit_value(me, action.side, hits, False) + (4.0 if armored else 0.0)
        cost += 0.1 * me.hits[action.side]
        if cost < best_cost:
            best, best_cost = text, cost
    return best


# --- the turn ------------------------------------------------------------------------------


def _turn(seen: _Seen, legal: tuple[str, ...]) -> str:
    me = seen.me
    if "drop tank" in legal and not me.fireproof and max(me.hits) >= 10:
        return "drop tank"
    mb = [t for t in legal if _parse(t).verb in ("play", "discard")]
    if mb:
        return max(mb, key=lambda t: _mb_score(seen, _parse(t)))
    cw = [t for t in legal if _parse(t).verb == "cw"]
    best = max(cw, key=lambda t: _cw_score(seen, _parse(t)), default=None)
    if best is not None and _cw_score(seen, _parse(best)) > 0:
        return best
    junk = _junk(seen, legal)
    if junk is not None:
        return junk
    return "end" if "end" in legal else legal[0]


def _mb_score(seen: _Seen, action: Action) -> float:
    me = seen.me
    card = Card(action.card)
    if action.verb == "discard":
        return -_keep(seen, card)
    left = TRIP - me.mileage
    if card.is_distance:
        if card.miles == left:
            return WIN
        score = DISTANCE + card.miles
        if left - card.miles < 100 and not _closable(seen, left - card.miles, card):
            score -= 120
        return score
    if card.is_safety:
        return SAFETY
    if card.is_hazard:
        assert action.target is not None
        target = seen.public.cars[action.target]
        urgency = 300.0 if TRIP - target.mileage <= 200 else 0.0
        base = LIMIT if card is Card.SPEED_LIMIT else HAZARD
        return base + target.mileage / 2 + urgency
    top = me.battle_top
    if card is Card.GO:
        return GET_MOVING
    if card is Card.END_OF_LIMIT:
        big = any(c.is_distance and c.miles > 50 for c in seen.view.mb_hand)
        return 500.0 + (150.0 if big else 0.0)
    if top is not None and top.is_hazard and HAZARD_FOR.get(card) is top:
        return GET_MOVING  # the remedy for the hazard showing
    # Repairs or Spare Tire for their Car Wars effect.
    value = 0.0
    if card is Card.SPARE_TIRE:
        value = 40.0 * me.tires + (900.0 if me.tires >= TIRE_TRACK else 0.0)
    else:
        worst = max(me.hits)
        value = sum(h * h for h in me.hits) * 1.5 + (400.0 if worst >= 9 else 0.0)
        if me.jammed and any(SPECS[c].weapon == "mg" for c in seen.view.cw_hand):
            value += 120.0
        if me.flamed and "fireproof" in seen.view.cw_hand:
            value += 80.0
    if me.moving and Card.RIGHT_OF_WAY not in me.safeties:
        value -= REPAIR_STOP_COST
        if Card.GO not in seen.view.mb_hand:
            value -= 150.0
    return value


def _closable(seen: _Seen, left: int, playing: Card) -> bool:
    """Can the rest of the trip still be made of common cards (25 and 50 are the tricky ones)?"""
    if left <= 0:
        return left == 0
    if left % 50 == 0:
        return True
    hand = list(seen.view.mb_hand)
    hand.remove(playing)
    return any(c in (Card.D25, Card.D75) for c in hand)


def _keep(seen: _Seen, card: Card) -> float:
    """What keeping a Mille Bornes card is worth (the lowest is discarded)."""
    me = seen.me
    hand = seen.view.mb_hand
    left = TRIP - me.mileage
    if card.is_distance:
        if card.miles > left or (card is Card.D200 and me.two_hundreds >= 2):
            return 0.0
        return 10.0 + card.miles / 5 - 3.0 * (hand.count(card) - 1)
    if card is Card.GO:
        return 60.0 if hand.count(card) == 1 else 20.0
    if card.is_hazard:
        targets = [c for c in seen.rivals if SAFETY_FOR[card] not in c.safeties]
        return 35.0 if targets else 5.0
    if card is Card.END_OF_LIMIT:
        return 30.0 if me.limited else 12.0
    if card is Card.SPARE_TIRE:
        return 25.0 + 3.0 * me.tires
    if card is Card.REPAIRS:
        return 25.0 + sum(me.hits) / 2
    return 22.0


def _cw_score(seen: _Seen, action: Action) -> float:
    spec = SPECS[action.card]
    kind = spec.kind
    me = seen.me
    if kind == "fireproof":
        flames = sum(seen.cw_unseen[f"flame-{s}"] for s in ("front", "back", "left", "right"))
        return 20.0 + 6.0 * flames
    if kind == "stampede":
        total = 0.0
        for car in seen.rivals:
            side = min(range(4), key=lambda s: car.hits[s])
            total += _side_hit_value(car, side, 2, False) * seen.threat(car) * 0.7
        return total
    assert action.target is not None
    target = seen.public.cars[action.target]
    threat = seen.threat(target)
    if kind == "jam":
        return 10.0 * threat
    if kind == "tire-shot":
        value = _tire_value(target, spec.hits)
    else:
        side = spec.side if kind == "weapon" else (action.side or 0)
        p_armor = seen.p_holds(target, (f"armor-{('front', 'back', 'left', 'right')[side]}",))
        full = _side_hit_value(target, side, spec.hits, spec.flame)
        reduced = _side_hit_value(target, side, spec.hits - ARMOR_STOPS, spec.flame)
        value = (1 - p_armor) * full + p_armor * reduced
        if spec.weapon == "ac":
            p_back = seen.p_holds(target, ("backfire",))
            value -= p_back * _side_hit_value(me, 0, spec.hits, False)
    if target.moving:
        value *= 1.0 - 0.8 * seen.p_holds(target, ("swerve", "spin"))
    return value * threat


# How many of each defensive card are worth holding; the rest is cycled away for weapons.
_QUOTA = {"armor": 3, "dodge": 2, "backfire": 1, "skid": 1, "oil-slick": 1, "fireproof": 1}


def _junk(seen: _Seen, legal: tuple[str, ...]) -> str | None:
    """A Car Wars discard worth making when no card is worth playing: unjam a hand of machine
    guns, and cycle away cards beyond what is worth holding."""
    hand = seen.view.cw_hand
    me = seen.me
    if me.jammed and "cw-discard all" in legal:
        guns = sum(1 for c in hand if SPECS[c].weapon == "mg")
        if guns >= max(1, len(hand) // 2):
            return "cw-discard all"
    junk: list[str] = []
    held: Counter[str] = Counter()
    armor_sides: set[int] = set()
    for code in sorted(hand, key=CW_ORDER.__getitem__):
        spec = SPECS[code]
        group = {"swerve": "dodge", "spin": "dodge"}.get(spec.kind, spec.kind)
        if (spec.weapon == "mg" and me.jammed) or (group == "fireproof" and me.fireproof):
            junk.append(code)
        elif group == "armor" and spec.side in armor_sides:
            junk.append(code)  # one armor per side is plenty
        elif group in _QUOTA:
            held[group] += 1
            if held[group] > _QUOTA[group]:
                junk.append(code)
            elif group == "armor":
                armor_sides.add(spec.side)
    if not junk:
        return None
    ordered = sorted(junk, key=CW_ORDER.__getitem__)
    text = "cw-discard all" if len(ordered) == len(hand) else "cw-discard " + " ".join(ordered)
    return text if text in legal else None

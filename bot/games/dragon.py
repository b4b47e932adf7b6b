"""Dragon Mille Bornes as a Junction game: the arena image, both hands with a target picker for
every attack and hazard, side pickers where the victim chooses, and the computer players (easy,
normal, and the searching expert, which also gives the hints)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.dragon_expert import DragonExpertPolicy
from bot.ai.dragon_expert import hint as expert_hint
from bot.ai.dragon_normal import DragonNormalPolicy
from bot.engine.core import Outcome
from bot.engine.dragon import GAME
from bot.engine.dragon.cards import TIRE_TRACK, cw_name
from bot.engine.dragon.views import CarView, DragonPublicView, DragonSeatView
from bot.engine.mille.cards import Card
from bot.games.bundle import (
    ButtonSpec,
    ButtonStyle,
    ChoiceSpec,
    GameBundle,
    GroupSpec,
    MoveChoice,
    Picker,
    Presenter,
    SelectSpec,
    computer_players,
)
from bot.games.rules_text import in_short
from bot.render.dragon import hand_png, phase_line, table_png

SIDES = ("front", "back", "left", "right")
_REACTIONS = {"armor", "swerve", "spin", "backfire", "oil-slick", "side"}


def _aimed(notation: str) -> tuple[str, int, str] | None:
    """A move aimed at a car: (what is played, the target seat, anything after it)."""
    words = notation.split()
    for index, word in enumerate(words):
        if word.startswith("@") and word[1:].isdecimal():
            return " ".join(words[:index]), int(word[1:]), " ".join(words[index + 1 :])
    return None


def hand_pickers(view: DragonSeatView, moves: Sequence[MoveChoice]) -> list[Picker]:
    """Reactions and plain moves as buttons; an attack or hazard opens a target picker; Mille
    Bornes discards in a menu; Car Wars discards (any number) in a multi-select."""
    names = view.public.players
    buttons: list[Picker] = []
    groups: dict[str, list[ButtonSpec]] = {}
    labels: dict[str, str] = {}
    discards: list[ChoiceSpec] = []
    cw_discards = False
    for move in moves:
        notation = move.notation
        verb = notation.split()[0]
        aimed = _aimed(notation)
        if aimed is not None:
            card, seat, rest = aimed
            target = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
            groups.setdefault(card, []).append(
                ButtonSpec(f"{target} {rest}".strip()[:80], notation, "danger")
            )
            # A Called Shot's moves differ by side: its button names the card, not the first
            # move's side. Otherwise the card is the move's words without " on <target>" (cut
            # exactly: a driver may be called "Tom on Tour").
            shown = cw_name(card) if rest else move.label.removesuffix(f" on {target}")
            labels.setdefault(card, shown)
        elif verb == "discard":
            discards.append(ChoiceSpec(move.label[:100], notation))
        elif verb == "cw-discard":
            if notation == "cw-discard all":
                buttons.append(ButtonSpec("Discard all Car Wars cards", notation))
            cw_discards = True
        else:
            style: ButtonStyle = "secondary"
            if verb in _REACTIONS:
                style = "success"
            elif verb == "play":
                style = "primary"
            elif verb == "end":
                style = "secondary"
            buttons.append(ButtonSpec(move.label[:80], notation, style))
    pickers: list[Picker] = []
    for card, options in groups.items():
        if len(options) == 1:
            only = options[0]
            pickers.append(
                ButtonSpec(f"{labels[card]} → {only.label}"[:80], only.notation, "danger")
            )
        else:
            pickers.append(
                GroupSpec(labels[card][:80], tuple(options), "danger", "🎯", "Aim at which car?")
            )
    pickers.extend(buttons)
    if discards:
        pickers.append(SelectSpec("Discard a Mille Bornes card", tuple(discards)))
    if cw_discards and view.cw_hand:
        counts: dict[str, int] = {}
        choices: list[ChoiceSpec] = []
        for code in view.cw_hand:
            counts[code] = counts.get(code, 0) + 1
            choices.append(ChoiceSpec(cw_name(code)[:100], f"{code}#{counts[code]}"))
        pickers.append(
            SelectSpec(
                "Discard Car Wars cards (any number)",
                tuple(choices),
                min_values=1,
                max_values=len(choices),
                prefix="cw-discard",
            )
        )
    return pickers


def _car_state(car: CarView, view: DragonPublicView) -> str:
    """Moving or stopped and why, and a Speed Limit, as the car's pill and piles on the image
    say it ("stopped (Out of Gas), Speed Limit"): "stopped" alone left a player guessing which
    remedy a rival needs."""
    lang = view.lang
    if car.left:
        return "left"
    if car.dead:
        killer = car.killed_by
        by = 0 <= killer < len(view.players) and killer != car.seat
        return f"dead, killed by {view.players[killer]}" if by else "dead"
    if car.moving:
        state = "moving"
    elif car.tires >= TIRE_TRACK:
        state = "stopped (tires shot)"
    elif car.skidded:
        state = "stopped (skidded)"
    elif car.battle_top is not None and car.battle_top.is_hazard:
        state = f"stopped ({car.battle_top.name_in(lang)})"
    else:
        state = f"stopped (needs {Card.GO.name_in(lang)})"
    return f"{state}, {Card.SPEED_LIMIT.name_in(lang)}" if car.limited else state


def _car_extras(car: CarView, lang: str) -> list[str]:
    """What else the image shows of a car: safeties (coups fourrés marked), Fireproof Armor,
    jammed guns, breached sides."""
    extras: list[str] = []
    if car.safeties:
        named = [
            c.name_in(lang) + (" (coup fourré)" if c in car.coups else "") for c in car.safeties
        ]
        extras.append("safeties " + ", ".join(named))
    if car.fireproof:
        extras.append("Fireproof Armor")
    if car.jammed:
        extras.append("guns jammed")
    broken = [side for side, gone in zip(SIDES, car.breached, strict=True) if gone]
    if broken:
        extras.append("breached " + ", ".join(broken))
    return extras


def console_table(view: DragonPublicView) -> str:
    # Words, not the engine's phase names ("react", "oil-ace"): this text is also the arena
    # image's alt text, which a screen reader reads out.
    if view.is_over:
        now = "the race is over"
    elif view.pending is not None:
        now = "waiting for a reaction"
    else:
        now = f"{view.cars[view.turn].name} to play"
    lines = [f"── Dragon Mille Bornes · {now} ──"]
    for car in view.cars:
        marker = "▶" if view.turn == car.seat and not view.is_over else " "
        hits = "/".join(str(h) for h in car.hits)
        lines.append(
            f"{marker} {car.name}: {car.mileage} mi, {_car_state(car, view)}; hits "
            f"F/B/L/R {hits}, tires {car.tires}, driver {car.driver}; kills {car.kills}"
            + "".join(f"; {extra}" for extra in _car_extras(car, view.lang))
        )
    if view.pending is not None:
        lines.append(f"  waiting: {view.pending.text}")
    if view.caption:
        lines.append(f"  {view.caption}")
    return "\n".join(lines)


def console_hand(view: DragonSeatView) -> str:
    lang = view.public.lang
    mb = ", ".join(card.name_in(lang) for card in view.mb_hand)
    cw = ", ".join(cw_name(code) for code in view.cw_hand)
    # First the hand image's top line ("Your turn: one Mille Bornes move."): this text is the
    # image's alt text, and without it a screen reader never said which move the turn still
    # owes, or what a reaction window asks.
    return f"{phase_line(view)}\nMille Bornes: {mb}\nCar Wars: {cw}"


def result_png(view: DragonPublicView) -> bytes:
    """The arena image already marks the winner and the dead."""
    return b""


def arena_metrics(view: DragonPublicView, outcome: Outcome) -> dict[str, float]:
    """Kills per game, and how games end: at 1000 miles or with one driver left."""
    alive = sum(1 for car in view.cars if car.alive)
    return {
        "kills": float(sum(car.kills for car in view.cars)),
        "reached_1000": float(any(car.mileage == 1000 for car in view.cars)),
        "last_alive": float(alive == 1),
    }


FALLBACK_RULES = """**Dragon Mille Bornes** — Mille Bornes and Car Wars at once: reach exactly \
1000 miles or be the last driver alive. Full rules: docs/rules/dragon.md."""

BUNDLE = GameBundle(
    game=GAME,
    presenter=Presenter(
        table_png=table_png,
        hand_png=hand_png,
        result_png=result_png,
        hand_pickers=hand_pickers,
        rules=in_short("dragon", FALLBACK_RULES),
        hint=expert_hint,
        console_table=console_table,
        console_hand=console_hand,
    ),
    policies=computer_players(DragonNormalPolicy, DragonExpertPolicy),
    default_policy="normal",
    arena_metrics=arena_metrics,
)
__all__ = ["BUNDLE"]

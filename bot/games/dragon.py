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
from bot.engine.dragon.cards import TIRE_TRACK, cw_name, in_cw_order
from bot.engine.dragon.views import CarView, DragonPublicView, DragonSeatView
from bot.engine.mille.cards import Card, distance_word, in_deck_order
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
from bot.render.dragon import hand_png, phase_line, table_png, usable_cards

SIDES = ("front", "back", "left", "right")
_FULL, _SHORT, _BARE = "full", "short", "bare"
"""How much of a car's extras its line says (``_car_extras``)."""
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
                buttons.append(ButtonSpec(move.label[:80], notation))
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
        for code in in_cw_order(view.cw_hand):  # the hand image's order
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


def _car_extras(car: CarView, lang: str, detail: str = _FULL) -> list[str]:
    """What else the image shows of a car: safeties (coups fourrés marked), Fireproof Armor,
    jammed guns, breached sides. ``detail``: ``_SHORT`` names the safeties alone and leaves the
    breached sides to the hits (a side with 12 is breached); ``_BARE`` says none of it."""
    extras: list[str] = []
    if detail == _BARE:
        return extras
    if car.safeties:
        marked = detail == _FULL
        named = [
            c.name_in(lang) + (" (coup fourré)" if marked and c in car.coups else "")
            for c in car.safeties
        ]
        extras.append("safeties " + ", ".join(named))
    if car.fireproof:
        extras.append("Fireproof Armor")
    if car.jammed:
        extras.append("guns jammed")
    broken = [side for side, gone in zip(SIDES, car.breached, strict=True) if gone]
    if broken and detail == _FULL:
        extras.append("breached " + ", ".join(broken))
    return extras


def _hits(car: CarView, detail: str) -> str:
    """A car's hits per side in words, the sides hit only ("hits left 4, back 12", "no hits"):
    a screen reader said "F slash B slash L slash R, 0 slash 0 slash 4 slash 0". The barest
    words keep that short form, which six crowded cars need to fit an image description."""
    if detail == _BARE:
        return "hits F/B/L/R " + "/".join(str(h) for h in car.hits)
    hit = [f"{side} {h}" for side, h in zip(SIDES, car.hits, strict=True) if h]
    return f"hits {', '.join(hit)}" if hit else "no hits"


def _hand_counts(car: CarView, detail: str) -> str:
    """A car's hand sizes, the decks named in words: a screen reader said "hand 7 em bee, 10
    see double-you". The barest words keep the image's letters, which six crowded cars need to
    fit an image description with their counts."""
    if detail == _BARE:
        return f"hand {car.mb_hand_count} MB, {car.cw_hand_count} CW"
    return f"hand {car.mb_hand_count} Mille Bornes, {car.cw_hand_count} Car Wars"


def _table_lines(view: DragonPublicView, detail: str, counts: bool) -> tuple[list[str], list[str]]:
    """The arena in words as console lines: the heading, the decks and a line per car (what
    must be said whole), then the pending decision and the caption."""
    # Words, not the engine's phase names ("react", "oil-ace"): this text is also the arena
    # image's alt text, which a screen reader reads out.
    if view.is_over:
        now = "the race is over"
    elif view.pending is not None:
        now = "waiting for a reaction"
    else:
        now = f"{view.cars[view.turn].name} to play"
    lines = [f"── Dragon Mille Bornes · {now} ──"]
    unit = distance_word(view.lang, short=True)  # "350 bornes" beside the card "75 bornes"
    if counts:
        # The image's "MB deck" and "CW deck" pills, said once in full.
        lines.append(f"  decks: Mille Bornes {view.mb_deck_count}, Car Wars {view.cw_deck_count}")
    for car in view.cars:
        marker = "▶" if view.turn == car.seat and not view.is_over else " "
        # A car out of the race holds no cards: its hands went to the discards.
        held = counts and car.alive
        lines.append(
            f"{marker} {car.name}: {car.mileage} {unit}, {_car_state(car, view)}; "
            f"{_hits(car, detail)}, tires {car.tires}, driver {car.driver}; kills {car.kills}"
            + (f"; {_hand_counts(car, detail)}" if held else "")
            + "".join(f"; {extra}" for extra in _car_extras(car, view.lang, detail))
        )
    tail: list[str] = []
    if view.pending is not None:
        tail.append(f"  waiting: {view.pending.text}")
    if view.caption:
        tail.append(f"  {view.caption}")
    return lines, tail


def console_table(view: DragonPublicView) -> str:
    lines, tail = _table_lines(view, _FULL, counts=True)
    return "\n".join([*lines, *tail])


_LEVELS = ((_FULL, True), (_SHORT, True), (_SHORT, False), (_BARE, True), (_BARE, False))
"""The arena's words from the fullest down (a car's extras, then whether hands and decks are
counted): six cars of long names in the fullest words run past an image description's limit,
and a screen reader then never heard the last cars. The counts give way before the extras,
the image's own words; the barest fits six cars of 36-character names whatever they hold."""


def alt_tables(view: DragonPublicView) -> list[tuple[str, str]]:
    """The arena in words at each of ``_LEVELS``, the fullest first, for the image's
    description: (the heading, the decks and every car's line, which must be said whole; the
    pending decision and the caption, which may be cut after them)."""
    told = [_table_lines(view, detail, counts) for detail, counts in _LEVELS]
    return [("\n".join(lines), "\n".join(tail)) for lines, tail in told]


def console_hand(view: DragonSeatView) -> str:
    lang = view.public.lang
    # The hand image's order (the buttons' and menus' too), so the words read as the picture.
    mb_hand, cw_hand = in_deck_order(view.mb_hand), in_cw_order(view.cw_hand)
    mb = ", ".join(card.name_in(lang) for card in mb_hand)
    cw = ", ".join(cw_name(code) for code in cw_hand)
    # First the hand image's top line ("Your turn: one Mille Bornes move."): this text is the
    # image's alt text, and without it a screen reader never said which move the turn still
    # owes, or what a reaction window asks.
    # An empty hand (a dead car's, or Car Wars cards all discarded) says "no cards", as its
    # image does: "Mille Bornes:" with nothing after it read as if words were missing.
    text = f"{phase_line(view)}\nMille Bornes: {mb or 'no cards'}\nCar Wars: {cw or 'no cards'}"
    if not view.legal:
        return text
    # The cards the image leaves bright (the others dimmed): the two hands alone did not tell
    # a screen reader which cards it could play now.
    mb_ok, cw_ok = usable_cards(view)
    usable = dict.fromkeys(
        [card.name_in(lang) for card in mb_hand if card.value in mb_ok]
        + [cw_name(code) for code in cw_hand if code in cw_ok]
    )
    return f"{text}\nPlayable now: {', '.join(usable) or 'none'}"


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
        # A section of its own: the summary fills its message (see ``Presenter.rules_more``).
        rules_more=in_short("dragon", section="French card names"),
        hint=expert_hint,
        console_table=console_table,
        console_hand=console_hand,
        alt_tables=alt_tables,
    ),
    policies=computer_players(DragonNormalPolicy, DragonExpertPolicy),
    default_policy="normal",
    arena_metrics=arena_metrics,
)
__all__ = ["BUNDLE"]

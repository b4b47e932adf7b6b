"""How each game is shown to people, independent of Discord: images, buttons, texts.

A presenter turns a game's views into PNG bytes and into button specifications (label,
notation, style) that a front end lays out. It sees views only, like the renderers. Buttons on
the public table never depend on a hidden card: a seat's choices live in its private hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from bot.engine.core import get_game

ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class ButtonSpec:
    label: str
    notation: str
    style: ButtonStyle = "secondary"
    emoji: str | None = None


@dataclass(frozen=True)
class Presenter:
    game_key: str
    table_png: Callable[[Any], bytes]
    hand_png: Callable[[Any], bytes]
    result_png: Callable[[Any], bytes]
    table_buttons: Callable[[Any], list[ButtonSpec]]  # public choices, from the public view
    hand_buttons: Callable[[Any], list[ButtonSpec]]  # a seat's choices, from its private view
    round_finished: Callable[[Any, Any], bool]  # (previous, current): post the score image?
    rules: str
    # A suggested move for a seat's private view, with a one-line reason (None: no hints).
    hint: Callable[[Any], tuple[str, str] | None] | None = None


def _mille() -> Presenter:
    from bot.engine.mille.cards import Card
    from bot.engine.mille.views import MillePublicView, MilleSeatView
    from bot.render.mille import hand_png, result_png, table_png

    def table_buttons(view: MillePublicView) -> list[ButtonSpec]:
        # The extension question is public (everyone sees the 700 on the table); nothing else
        # the player to act may do can be shown without revealing their hand.
        if view.phase == "extension":
            return [
                ButtonSpec("Go on to 1000!", "extend yes", "success", "🏁"),
                ButtonSpec("Stop at 700", "extend no", "secondary", "🛑"),
            ]
        return []

    def hand_buttons(view: MilleSeatView) -> list[ButtonSpec]:
        lang = view.public.lang
        specs: list[ButtonSpec] = []
        for notation in view.legal:
            verb, _, code = notation.partition(" ")
            if verb == "draw":
                specs.append(ButtonSpec("Draw", notation, "secondary", "🂠"))
            elif verb == "extend":
                yes = code == "yes"
                label = "Go on to 1000!" if yes else "Stop at 700"
                specs.append(ButtonSpec(label, notation, "success" if yes else "secondary"))
            elif verb == "play":
                card = Card(code)
                if view.phase == "draw":
                    specs.append(
                        ButtonSpec(f"Coup fourré! {card.name_in(lang)}", notation, "success", "⚡")
                    )
                elif card.is_hazard:
                    specs.append(ButtonSpec(card.name_in(lang), notation, "danger"))
                elif card.is_safety:
                    specs.append(ButtonSpec(card.name_in(lang), notation, "success", "🛡"))
                else:
                    specs.append(ButtonSpec(card.name_in(lang), notation, "primary"))
            else:
                specs.append(ButtonSpec(f"Discard {Card(code).name_in(lang)}", notation))
        return specs

    return Presenter(
        game_key="mille",
        table_png=table_png,
        hand_png=hand_png,
        result_png=result_png,
        table_buttons=table_buttons,
        hand_buttons=hand_buttons,
        round_finished=lambda before, after: len(after.results) > len(before.results),
        rules=MILLE_RULES,
        hint=_mille_hint,
    )


def _mille_hint(view: Any) -> tuple[str, str] | None:
    """What the ``normal`` computer would play here, and why, in a player's words."""
    import random

    from bot.ai.base import get_policy
    from bot.engine.mille.cards import Card

    if not view.legal:
        return None
    move = get_policy("mille", "normal").choose(view, random.Random(0))
    verb, _, code = move.partition(" ")
    card = Card(code) if code and verb in ("play", "discard") else None
    rival = view.public.players[1 - view.seat]
    if verb == "draw":
        reason = "nothing is worth playing before you draw."
    elif verb == "extend":
        reason = (
            "you are well placed to reach 1000 first."
            if code == "yes"
            else "stopping now banks the trip bonus safely."
        )
    elif card is None:
        reason = "it is the best move available."
    elif verb == "discard":
        reason = "it is the card in your hand least likely to help you."
    elif view.phase == "draw":
        reason = "a coup fourré scores 300 more and removes the hazard at once."
    elif card.is_safety:
        reason = "a safety scores 100, protects you for the hand and gives you another turn."
    elif card.is_hazard:
        reason = f"it stops {rival}, who is unlikely to be able to answer it soon."
    elif card.is_distance:
        reason = "it moves you toward the target while keeping an exact finish possible."
    else:
        reason = "it gets you moving again."
    return move, reason


MILLE_RULES = """**Mille Bornes** — race to exactly **700 miles** (1000 with an extension).
• Each turn you draw a card, then **play** one or **discard** one.
• You need a **Go** on your battle pile to drive. Hazards (Out of Gas, Flat Tire, Accident, \
Stop) stop a moving opponent; **Speed Limit** holds them to 25s and 50s.
• Remedies answer hazards: Gasoline, Spare Tire, Repairs (then a Go), Go on a Stop, End of Limit.
• **Safeties** (Extra Tank, Puncture Proof, Driving Ace, Right of Way) protect you for the hand \
and give you another turn. Right of Way is also a permanent Go.
• **Coup fourré**: when a hazard hits you and you hold its safety, play it before drawing for \
+300 — Junction offers it in your hand.
• At most two 200s a hand. Landing on exactly 700 lets you call an **extension** to 1000.
• Scoring: miles, 100 per safety (+300 for all four), 300 per coup fourré, 400 for the trip, \
+300 safe trip (no 200s), +300 delayed action, +200 extension, +500 shut-out. First to 5000."""


_PRESENTERS: dict[str, Callable[[], Presenter]] = {"mille": _mille}
_CACHE: dict[str, Presenter] = {}


def presenter(game_key: str) -> Presenter:
    """The presenter of a registered game."""
    key = get_game(game_key).info.key
    if key not in _CACHE:
        _CACHE[key] = _PRESENTERS[key]()
    return _CACHE[key]

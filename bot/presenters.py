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


def _solo() -> Presenter:
    from bot.ai.solo_policies import hint, rank_moves
    from bot.engine.mille.cards import Card
    from bot.engine.solo.views import SoloPublicView, SoloSeatView
    from bot.render.solo import hand_png, result_png, table_png

    def public(view: SoloPublicView | SoloSeatView) -> SoloPublicView:
        return view.public if isinstance(view, SoloSeatView) else view

    def buttons(view: SoloPublicView | SoloSeatView) -> list[ButtonSpec]:
        # The hand is public in a solitaire, so the table offers every move, the expert's
        # favourite first (Discord fits 25 buttons; one row stays free for the bot's own).
        table = public(view)
        if table.result is not None or not table.legal:
            return []
        lang = table.lang
        specs: list[ButtonSpec] = []
        for rank, (notation, _) in enumerate(rank_moves(table)[:24]):
            words = notation.split()
            number = int(words[1] if words[0] == "clear" else words[3])
            top = table.highways[number - 1].top
            on = top.name_in(lang) if top is not None else "?"
            if words[0] == "sacrifice":
                label = f"{number}: sacrifice a claimed {words[1]}"
                style: ButtonStyle = "danger"
            else:
                card = Card(words[3])
                label = f"{number}: {card.name_in(lang)} on {on}"
                style = "primary" if card.is_distance or (top and top.is_distance) else "secondary"
            if rank == 0:
                style = "success"
            specs.append(ButtonSpec(label[:80], notation, style, "⭐" if rank == 0 else None))
        return specs

    def finished(
        before: SoloPublicView | SoloSeatView, after: SoloPublicView | SoloSeatView
    ) -> bool:
        return public(before).result is None and public(after).result is not None

    def solo_hint(view: SoloPublicView | SoloSeatView) -> tuple[str, str] | None:
        move, reason = hint(view)
        return (move, reason) if move else None

    return Presenter(
        game_key="solo",
        table_png=table_png,
        hand_png=hand_png,
        result_png=result_png,
        table_buttons=buttons,
        hand_buttons=buttons,
        round_finished=finished,
        rules=SOLO_RULES,
        hint=solo_hint,
    )


SOLO_RULES = """**Mille Bornes Solo** — clear all **49 cards** from the seven highways.
• Each highway is a pile of 7 with its top card face up; when you clear a top, the next card \
turns up at once. You hold 7 cards; the rest is your **gas tank**.
• A move clears one top: a **remedy** on its hazard, a **hazard** on its remedy (Go↔Stop, \
End of Limit↔Speed Limit too), a **distance** card on an equal one (one goes in front of you \
and scores), any **safety** with any **200** either way (the 200 scores), or **sacrifice** a \
claimed distance card on an equal one (both go, so do its miles).
• No discarding by choice: when nothing fits, Junction draws you up to 7 cards, or throws away \
a full hand of 7 and deals 7 new ones. Stuck with an empty tank, you lose.
• **Classic** (the printed rules) **can never be won** — at most 43 of 49 cards can be cleared \
with the BSD deck — so it is a score attack: the most cards cleared, then miles.
• **Refuel** (the discard pile refills an empty tank, twice) and **Easy** (one refuel, and any \
two cards of one family cancel) can be won. Score: your miles; leaderboards rank wins, then \
cards cleared, then miles."""


_PRESENTERS: dict[str, Callable[[], Presenter]] = {"mille": _mille, "solo": _solo}
_CACHE: dict[str, Presenter] = {}


def presenter(game_key: str) -> Presenter:
    """The presenter of a registered game."""
    key = get_game(game_key).info.key
    if key not in _CACHE:
        _CACHE[key] = _PRESENTERS[key]()
    return _CACHE[key]

"""Mille Bornes move notation: ``draw``, ``play stop``, ``discard 25``, ``extend yes``.

Parsing is forgiving (case, spaces, English or French card names, common aliases, a bare card
name meaning "play"); formatting is canonical, and ``parse(format(a)) == a`` for every action.
"""

from __future__ import annotations

from bot.engine.core import NotationError
from bot.engine.mille.cards import card_from_text
from bot.engine.mille.state import DECLINE_EXTENSION, DRAW, EXTEND, Action

_YES = {"yes", "y", "oui", "true", "1", "on", "1000"}
_NO = {"no", "n", "non", "false", "0", "off", "700", "stop"}
_PLAY_WORDS = {"play", "use", "p", "u", "coup", "coup-fourre", "coupfourre", "jouer"}
_DISCARD_WORDS = {"discard", "d", "defausse", "défausse", "defausser", "défausser", "throw"}


_COUP_ALONE = {"coupfourre", "coupfourré", "fourre", "fourré", "coup", "cf"}
"""A coup fourré typed without its safety ("coup fourré", "play coup-fourre")."""


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


_FORMATTED: dict[Action, str] = {}


def format_action(action: Action) -> str:
    text = _FORMATTED.get(action)
    if text is None:
        text = _format(action)
        if len(_FORMATTED) < 256:  # every action there is fits: a few dozen
            _FORMATTED[action] = text
    return text


def _format(action: Action) -> str:
    if action.verb == "draw":
        return "draw"
    if action.verb == "extend":
        return "extend yes" if action.extend else "extend no"
    assert action.card is not None
    return f"{action.verb} {action.card.value}"


def parse_action(text: str) -> Action:
    words = text.strip().lower().replace("_", " ").split()
    if not words:
        raise NotationError("Type a move, for example 'play go', 'discard 25' or 'draw'.")
    if len(words) > 1 and words[0] == "coup" and _key(words[1]) in ("fourre", "fourré"):
        words = ["coup-fourre", *words[2:]]  # "coup fourré extra tank"
    head, rest = words[0], " ".join(words[1:])
    if head in ("draw", "pick", "piocher") and not rest:
        return DRAW
    if head in ("extend", "extension"):
        if not rest or rest in _YES:
            return EXTEND
        if rest in _NO:
            return DECLINE_EXTENSION
        raise NotationError("Answer the extension with 'extend yes' or 'extend no'.")
    if _key(" ".join(words)) in _COUP_ALONE or (head in _PLAY_WORDS and _key(rest) in _COUP_ALONE):
        # "coup fourré" names a way of playing a safety, not a card.
        raise NotationError(
            "A coup fourré is played with its safety, before you draw: for example "
            "'play extra-tank' (My hand offers it when you may)."
        )
    if head in _PLAY_WORDS or head in _DISCARD_WORDS:
        verb = "discard" if head in _DISCARD_WORDS else "play"
        if not rest:
            raise NotationError(f"Say which card to {verb}, for example '{verb} 100'.")
        card = card_from_text(rest)
        if card is None:
            raise NotationError(f"There is no Mille Bornes card called '{rest}'.")
        return Action(verb, card)
    card = card_from_text(" ".join(words))
    if card is not None:
        return Action("play", card)
    raise NotationError(
        f"I don't understand '{text.strip()}'. Try 'play <card>', 'discard <card>', "
        "'draw' or 'extend yes/no'."
    )

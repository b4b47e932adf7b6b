"""1000 Mile Race move notation.

Canonical forms (``format_action``): ``play 100``, ``play flat-tire``, ``play tow-truck on
speed-trap``, ``play pit-crew``, ``cycle 25 50 gasoline``, ``react jammer``, ``pass``,
``discard 75``, ``end``. Parsing is forgiving: case, spaces, underscores, commas and "and",
card names or aliases ("gas", "cf", "red light"), a bare card name meaning "play" (or "react"
for the answer cards), ``2x25`` in a cycle, "no" or "no reaction" for ``pass``.
``parse_action(format_action(a)) == a`` for every action.
"""

from __future__ import annotations

import contextlib
import re

from bot.engine.core import NotationError
from bot.engine.race.cards import (
    HAZARD,
    REACTIONS,
    TOW_TRUCK,
    TYPE_OF,
    card_from_text,
    sort_cards,
)
from bot.engine.race.state import END, PASS, Action

MAX_TEXT = 400
MAX_CYCLE = 60

_PLAY = {"play", "p", "use", "drive", "put"}
_CYCLE = {"cycle", "c", "junk", "recycle"}
_REACT = {"react", "r", "answer", "counter", "respond"}
_DISCARD = {"discard", "d", "drop", "throw", "toss"}
_END = {"end", "done", "finish", "e", "endturn"}
_PASS = {"pass", "no", "none", "nothing", "skip", "decline", "noreaction", "noanswer"}
_TARGET_WORDS = {"on", "against", "at", "vs", "for", "->"}
_FILLER = {"and", "&", "+", "then"}
_TIMES_BEFORE = re.compile(r"^(\d{1,2})[x×*](.+)$")  # 2x25
_TIMES_AFTER = re.compile(r"^(.+?)[x×*](\d{1,2})$")  # 25x2


def _quote(text: str) -> str:
    """User text for an error message: never more than about 40 characters."""
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:39] + "…"


def format_action(action: Action) -> str:
    if len(action) == 3 and action[0] == "play":
        return f"play {action[1]} on {action[2]}"
    return " ".join(action)


def parse_action(text: str) -> Action:
    if len(text) > MAX_TEXT:
        raise NotationError("That move is far too long to be a move.")
    words = text.strip().lower().replace(",", " ").replace("_", " ").split()
    if not words:
        raise NotationError("Type a move, for example 'play 100', 'cycle 25 gasoline' or 'end'.")
    head, rest = words[0], words[1:]
    joined = "".join(words)
    if joined in _PASS or (head in _PASS and not rest):
        return PASS
    if joined in _END or (head in _END and rest in (["turn"], ["my", "turn"], ["the", "turn"])):
        return END
    if head in _CYCLE:
        cards = _parse_cards(rest)
        if not cards:
            raise NotationError("Say which cards to cycle, for example 'cycle 25 50 gasoline'.")
        return ("cycle", *sort_cards(cards))
    if head in _REACT:
        return _reaction(rest)
    if head in _DISCARD:
        if not rest:
            raise NotationError("Say which card to discard, for example 'discard 25'.")
        several: list[str] = []
        if card_from_text(" ".join(rest)) is None:
            with contextlib.suppress(NotationError):
                several = _parse_cards(rest)
        if len(several) > 1:
            # "discard 25 25" read "There is no 1000 Mile Race card called '25 25'".
            raise NotationError(
                f"Discard one card at a time: 'discard {several[0]}', then the next."
            )
        return ("discard", _one_card(rest))
    if head in _PLAY:
        if not rest:
            raise NotationError("Say which card to play, for example 'play 100'.")
        return _play(rest)
    try:
        return _play(words)
    except NotationError:
        if _starts_with_a_hazard(words):
            # "flat tire on me": a hazard aimed at its own player, or two cards at once, is
            # told what it misses, as "play flat tire on me" is (it read "I don't understand").
            raise
        raise NotationError(
            f"I don't understand '{_quote(text)}'. Try 'play <card>', 'play tow-truck on "
            "<hazard>', 'cycle <cards>', 'react <card>', 'pass', 'discard <card>' or 'end'."
        ) from None


def _starts_with_a_hazard(words: list[str]) -> bool:
    """Whether the longest card-naming start of ``words`` (short of all of them) is a hazard."""
    for cut in range(len(words) - 1, 0, -1):
        card = card_from_text(" ".join(words[:cut]))
        if card is not None:
            return TYPE_OF[card] == HAZARD
    return False


def _one_card(words: list[str]) -> str:
    phrase = " ".join(words)
    card = card_from_text(phrase)
    if card is None:
        raise NotationError(f"There is no 1000 Mile Race card called '{_quote(phrase)}'.")
    return card


def _reaction(words: list[str]) -> Action:
    if not words:
        raise NotationError("Say which card you react with, for example 'react jammer'.")
    aimed = next((i for i, word in enumerate(words) if word in _TARGET_WORDS), 0)
    if aimed and card_from_text(" ".join(words[:aimed])) in REACTIONS:
        # "react cf on flat-tire" read "There is no 1000 Mile Race card called 'cf on…'".
        raise NotationError(_no_target(_one_card(words[:aimed]), words[aimed + 1 :], True))
    card = _one_card(words)
    if card not in REACTIONS:
        raise NotationError(
            "Only Coup Fourré, Roadblock and Jammer are played as reactions; "
            "'pass' lets the card pass."
        )
    return ("react", card)


def _play(words: list[str]) -> Action:
    card = card_from_text(" ".join(words))
    target_words: list[str] = []
    named_target = False  # "on", "against"… said: a target, not a second card
    if card is None:
        # "tow-truck on red-light", or "tow truck red light": the longest card-naming prefix.
        for cut in range(len(words) - 1, 0, -1):
            found = card_from_text(" ".join(words[:cut]))
            if found is not None:
                card, target_words = found, words[cut:]
                break
        if card is None:
            phrase = _quote(" ".join(words))
            raise NotationError(f"There is no 1000 Mile Race card called '{phrase}'.")
        if target_words and target_words[0] in _TARGET_WORDS:
            target_words, named_target = target_words[1:], True
    if card in REACTIONS and not target_words:
        return ("react", card)
    if not target_words:
        return ("play", card)
    if card != TOW_TRUCK:
        raise NotationError(_no_target(card, target_words, named_target))
    target = _one_card(target_words)
    if TYPE_OF[target] != HAZARD:
        raise NotationError("A Tow Truck removes a hazard: 'play tow-truck on speed-trap'.")
    return ("play", card, target)


def _no_target(card: str, rest: list[str], named_target: bool) -> str:
    """Why ``play <card> <rest>`` is refused, in the words of what was meant: "play 25 50" is
    two cards at once (it read "Only a Tow Truck names a target", though no target was named),
    "play flat-tire on bob" a hazard aimed where it always goes, "cf on flat-tire" a reaction,
    which always answers the card waiting for one."""
    one = format_action(("play", card))
    if card in REACTIONS:
        return (
            f"A reaction answers the card waiting for one and names no target: "
            f"'{format_action(('react', card))}'."
        )
    if not named_target:
        with contextlib.suppress(NotationError):
            if _parse_cards(rest):
                return (
                    f"Play one card at a time: '{one}', then the next. To junk several cards "
                    "at once, cycle them (for example 'cycle 25 50')."
                )
    if TYPE_OF[card] == HAZARD:
        return f"A hazard always goes on your opponent: '{one}'."
    return "Only a Tow Truck names a target: 'play tow-truck on speed-trap'."


def _parse_cards(words: list[str]) -> list[str]:
    """Card names in a list ("25 50 gasoline", "2x25 red light"), longest names first."""
    tokens = [w for w in words if w not in _FILLER]
    cards: list[str] = []
    i = 0
    while i < len(tokens):
        for span in range(min(4, len(tokens) - i), 0, -1):
            phrase = " ".join(tokens[i : i + span])
            card = card_from_text(phrase)
            count = 1
            if card is None and span == 1:
                card, count = _multiplied(phrase)
            if card is not None:
                cards.extend([card] * count)
                i += span
                break
        else:
            raise NotationError(f"There is no 1000 Mile Race card called '{_quote(tokens[i])}'.")
        if len(cards) > MAX_CYCLE:
            raise NotationError("That is more cards than a hand can hold.")
    return cards


def _multiplied(token: str) -> tuple[str | None, int]:
    """A card with a count in one token: ``2x25`` or ``25x2`` (None if it is neither)."""
    before = _TIMES_BEFORE.match(token)
    if before and (card := card_from_text(before.group(2))) is not None:
        return card, int(before.group(1))
    after = _TIMES_AFTER.match(token)
    if after and (card := card_from_text(after.group(1))) is not None:
        return card, int(after.group(2))
    return None, 1

"""What counts as a hidden card, for any game, and where a public payload would name one.

Nothing here names a game. A game's cards are the codes its ``census`` counts. A card code is
*visible* when it appears as a value anywhere in a public view (a field, a tuple item, an enum's
value, or the name of a flag that is set); a card is *hidden-only* when the census holds it but
no public view of the moment shows any copy of it — every copy lies in a hand, a face-down pile,
a library or a hidden stack. Such a
card's code (or the code with hyphens read as spaces, e.g. ``right-of-way`` → "right of way")
must appear in no public text, no public picker and no data a public image is drawn from.

A card also visible elsewhere (another copy on the table) is not hidden-only, so its name in a
caption is no leak. A "window" of several states (the states one request passed through) counts
as visible whatever any of them showed: a caption names the card a move played, even if a later
step of the same request put it back under a pile.
"""

from __future__ import annotations

import dataclasses
import enum
import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from bot.engine.core import Game

# Discord markup that carries numbers but never a card: mentions, channels, roles, timestamps,
# custom emoji, links.
_MARKUP = re.compile(r"<(?:@[!&]?|#|t:|a?:\w+:)[^>]*>|https?://\S+")
# What a car or tableau needs, read from its public piles ("stopped (needs Go)" when the battle
# pile shows no hazard and no Go): it names the card wanted, not a copy anyone holds.
_NEEDS = re.compile(r"\bneeds Go\b")


def leaves(value: Any) -> Iterator[str]:
    """Every text-like leaf of a view: strings, and enum members by their value."""
    if isinstance(value, enum.Enum):
        yield from leaves(value.value)
    elif isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            field = getattr(value, item.name)
            if field is True:
                # A flag named after a card shows that card: a Dragon car's ``fireproof`` is
                # the Fireproof Armor fitted to it, on the table for all to see.
                yield item.name
                yield item.name.replace("_", "-")
            yield from leaves(field)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(key)
            yield from leaves(item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from leaves(item)


def visible_codes(views: Iterable[Any], codes: Iterable[str]) -> set[str]:
    """The card codes that appear as values in any of ``views``."""
    wanted = set(codes)
    return {leaf for view in views for leaf in leaves(view) if leaf in wanted}


def hidden_only(game: Game[Any, Any], state: Any, window: Iterable[Any] = ()) -> set[str]:
    """Codes the census holds of which no copy shows in the state's public view (or ``window``,
    more public views of the same moment)."""
    census = game.census(state)
    shown = visible_codes([game.public_view(state), *window], census)
    return {code for code, count in census.items() if count > 0 and code not in shown}


def hidden_from(
    game: Game[Any, Any], state: Any, seat: int, window: Iterable[Any] = ()
) -> set[str]:
    """Codes ``seat`` cannot see: hidden-only, less what its own private view shows."""
    census = game.census(state)
    shown = visible_codes([game.private_view(state, seat), *window], census)
    return {code for code, count in census.items() if count > 0 and code not in shown}


def public_view_ignores_hidden(game: Game[Any, Any], state: Any, tries: int = 3) -> bool:
    """Whether dealing every hidden card again leaves the public view (and caption) unchanged."""
    view, caption = game.public_view(state), game.caption(state)
    for n in range(tries):
        again = game.resample_hidden(state, None, random.Random(n))
        if game.public_view(again) != view or game.caption(again) != caption:
            return False
    return True


def public_numbers(views: Iterable[Any]) -> set[str]:
    """Every whole number the views show (mileage, scores, counts), how many items each of
    their lists holds and what each list's numbers add up to (a hand's total), as text.

    A card whose code is a number (``25``) cannot be told from a public figure of the same value
    in text ("200 so far", "discard 25" for a pile of 25 cards, "bob: 200" for the total of a
    score sheet), so a number the table shows is no evidence of a leak.
    """
    found: set[str] = set()

    def walk(value: Any) -> int:
        """Note the figures under ``value``; the sum of its whole numbers."""
        if isinstance(value, bool):
            return 0
        if isinstance(value, int):
            found.add(str(value))
            return value
        total = 0
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for item in dataclasses.fields(value):
                total += walk(getattr(value, item.name))
        elif isinstance(value, list | tuple | set | frozenset):
            found.add(str(len(value)))
            total = sum(walk(item) for item in value)
            found.add(str(total))
        elif isinstance(value, dict):
            total = sum(walk(item) for item in value.values())
        return total

    for view in views:
        walk(view)
    return found


def _pattern(code: str) -> re.Pattern[str]:
    spoken = {code, code.replace("-", " "), code.replace("-", "")}
    words = "|".join(re.escape(w) for w in sorted(spoken, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{words})(?![\w-])", re.IGNORECASE)


_PATTERNS: dict[str, re.Pattern[str]] = {}


def named_cards(text: str, codes: Iterable[str]) -> set[str]:
    """The codes among ``codes`` that ``text`` names (Discord markup stripped first)."""
    plain = _NEEDS.sub(" ", _MARKUP.sub(" ", text))
    found = set()
    for code in codes:
        pattern = _PATTERNS.get(code)
        if pattern is None:
            pattern = _PATTERNS[code] = _pattern(code)
        if pattern.search(plain):
            found.add(code)
    return found


def naming(text: str, code: str, around: int = 60) -> str:
    """The stretch of ``text`` where it names ``code`` (for a leak report)."""
    plain = _MARKUP.sub(" ", text)
    found = _PATTERNS.get(code) or _pattern(code)
    match = found.search(plain)
    if match is None:
        return plain[: 2 * around]
    return plain[max(0, match.start() - around) : match.end() + around]


def public_texts(response: Any) -> list[str]:
    """Everything a public message shows as text: content, embeds, attachment names and alt
    text, and its components' labels, placeholders and options."""
    data = response.data
    texts = [str(data.get("content") or "")]
    for embed in data.get("embeds") or []:
        texts.extend(leaves(embed))
    for attachment in response.attachments:
        texts.append(str(attachment.get("filename") or ""))
        texts.append(str(attachment.get("description") or ""))
    for file in response.files:
        texts.append(file.filename)
    texts.extend(_component_texts(data.get("components") or []))
    return [t for t in texts if t]


def _component_texts(components: Iterable[Any]) -> Iterator[str]:
    for component in components:
        for key in ("label", "placeholder"):
            if component.get(key):
                yield str(component[key])
        for option in component.get("options") or []:
            yield from (str(option.get(k) or "") for k in ("label", "value", "description"))
        yield from _component_texts(component.get("components") or [])


def census_codes(game: Game[Any, Any], state: Any) -> Counter[str]:
    return game.census(state)

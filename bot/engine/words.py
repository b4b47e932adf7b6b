"""Small pieces of the English the engines' captions and refusals are written in.

Pure wording, with no game state: the renderers may import it too (``tests/render`` allows it),
so an image counts its cards as the captions do.
"""

from __future__ import annotations

from collections.abc import Sequence


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word``, with an ``s`` unless there is exactly one: "1 card", "2 cards";
    ``many`` is the plural where an ``s`` will not do ("2 coups fourrés")."""
    return f"{n} {noun(n, word, many)}"


def noun(n: int, word: str, many: str | None = None) -> str:
    """``word`` as said of ``n`` things, without the number ("card", "cards"): for a count
    written some other way (with thousands separators, in words)."""
    if n == 1:
        return word
    return f"{word}s" if many is None else many


_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


def ordinal(n: int) -> str:
    """``n`` as a place: "1st", "2nd", "3rd", "4th", "11th", "22nd"."""
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}{_SUFFIXES.get(n % 10, 'th')}"


def names(items: Sequence[str]) -> str:
    """``items`` as an English list: "Ann", "Ann and Bob", "Ann, Bob and Cy" ("" if none)."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def a_or_an(word: str) -> str:
    """``word`` after its indefinite article: "a Red", "an Orange" (by its first letter)."""
    return f"an {word}" if word[:1].upper() in tuple("AEIOU") else f"a {word}"

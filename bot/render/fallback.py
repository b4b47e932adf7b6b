"""Fallback faces: which bundled font draws each letter of a member's text.

DejaVu covers Latin, Greek, Cyrillic, Arabic and Hebrew, but members' names also carry emoji
and Chinese, Japanese, Korean, Hindi or Thai letters, which DejaVu draws as empty boxes. Pillow
has no font fallback of its own, so text is cut into runs, each drawn by the first bundled face
that has its letters (``runs``). Which letters a face has is read from its character map with
fontTools.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont, TTLibError
from PIL import ImageFont

HANGUL = ((0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F), (0xAC00, 0xD7FF))

FALLBACKS: tuple[tuple[str, tuple[tuple[int, int], ...] | None], ...] = (
    ("NotoSansDevanagari-Regular.ttf", None),  # Hindi, Marathi, Nepali
    ("NotoSansThai-Regular.ttf", None),
    # Korean only: the Chinese face has just some of the syllables, and one name drawn in two
    # styles looks broken; this face's own ideographs and kana are left to the Chinese face.
    ("NanumSquareR.ttf", HANGUL),
    ("DroidSansFallbackFull.ttf", None),  # Chinese and Japanese
    ("Symbola_hint.ttf", None),  # emoji and symbols, drawn in the text's own ink
)
"""Faces tried in this order, each for the letters in its ranges (None: any). The Chinese
face comes before Symbola, which also has a few ideographs drawn in another style."""

Run = tuple[str, ImageFont.FreeTypeFont]


@lru_cache(maxsize=16)
def letters(path: str) -> frozenset[int]:
    """The code points the font file at ``path`` has a glyph for (none if it cannot be read:
    a broken checkout draws boxes rather than failing a game)."""
    try:
        return frozenset(TTFont(path, lazy=True).getBestCmap())
    except (OSError, TTLibError, AssertionError):
        return frozenset()


@lru_cache(maxsize=256)
def _face(path: str, size: int) -> ImageFont.FreeTypeFont | None:
    try:
        return ImageFont.truetype(path, size)
    except OSError:
        return None


def _rides_along(char: str) -> bool:
    """Marks, joiners and variation selectors belong to the letter before them: they are drawn
    (or hidden) by that letter's face, never split into a run of their own."""
    return unicodedata.category(char) in ("Mn", "Mc", "Me", "Cf")


def runs(text: str, fnt: ImageFont.FreeTypeFont, font_dir: Path) -> list[Run]:
    """``text`` cut into runs of one face each: ``fnt`` wherever it has the letter, else the
    first of ``FALLBACKS`` (in ``font_dir``, at ``fnt``'s size) that has it. A letter no
    face has stays with ``fnt``, which draws its box."""
    if text.isascii():
        return [(text, fnt)]
    main = letters(str(fnt.path))
    pieces: list[tuple[list[str], ImageFont.FreeTypeFont]] = []
    for char in text:
        face = fnt
        if pieces and _rides_along(char):
            face = pieces[-1][1]
        elif (point := ord(char)) not in main:
            for file, ranges in FALLBACKS:
                path = str(font_dir / file)
                if ranges is not None and not any(lo <= point <= hi for lo, hi in ranges):
                    continue
                if point in letters(path):
                    face = _face(path, round(fnt.size)) or fnt
                    break
        if pieces and pieces[-1][1] is face:
            pieces[-1][0].append(char)
        else:
            pieces.append(([char], face))
    return [("".join(chars), face) for chars, face in pieces]

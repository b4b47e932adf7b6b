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

from fontTools.ttLib import TTFont
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
Placed = tuple[str, ImageFont.FreeTypeFont, bool]
"""A run as it is set on the line: its text, its face, and whether it reads right to left."""


@lru_cache(maxsize=16)
def letters(path: str) -> frozenset[int]:
    """The code points the font file at ``path`` has a glyph for (none if it cannot be read:
    a broken checkout draws boxes rather than failing a game)."""
    try:
        # Opened here, not by fontTools, which leaves its file to the garbage collector (and,
        # when the file is no font, to the exception it raises): closed once read, either way.
        with open(path, "rb") as file:
            return frozenset(TTFont(file, lazy=True).getBestCmap())
    except Exception:
        # Not only OSError and TTLibError: fontTools reading a garbled table raises whatever
        # its parsing meets (IndexError, ValueError, TypeError...).
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


def _same(one: ImageFont.FreeTypeFont, other: ImageFont.FreeTypeFont) -> bool:
    """Whether two faces are one file at one size. Not ``is``: ``lru_cache`` gives two threads
    that ask for a face at once an object each (images are drawn in two threads where there
    are no worker processes), and a word split between them is shaped in two pieces (a
    Devanagari conjunct drawn apart, and cached so)."""
    return one is other or (one.path == other.path and one.size == other.size)


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
        elif unicodedata.category(char) == "Cf":
            # An invisible control opening the text (a name's isolate, ``bot.bidi``) draws
            # nothing: in a fallback face that happens to map it, it split a name written in
            # one face into two runs.
            pass
        elif (point := ord(char)) not in main:
            for file, ranges in FALLBACKS:
                path = str(font_dir / file)
                if ranges is not None and not any(lo <= point <= hi for lo, hi in ranges):
                    continue
                if point in letters(path):
                    face = _face(path, round(fnt.size)) or fnt
                    break
        if pieces and _same(pieces[-1][1], face):
            pieces[-1][0].append(char)
        else:
            pieces.append(([char], face))
    return [("".join(chars), face) for chars, face in pieces]


_OPENS = ("LRI", "RLI", "FSI")


def _units(text: str) -> list[tuple[int, int]]:
    """``text`` as (start, end) units: one letter each, except an isolate, which is one unit
    from its opening control to its closing one (to the end when it is not closed)."""
    units: list[tuple[int, int]] = []
    start = 0
    while start < len(text):
        end = start + 1
        if unicodedata.bidirectional(text[start]) in _OPENS:
            depth = 1
            while end < len(text) and depth:
                kind = unicodedata.bidirectional(text[end])
                depth += 1 if kind in _OPENS else -1 if kind == "PDI" else 0
                end += 1
        units.append((start, end))
        start = end
    return units


def _resolved(text: str) -> list[bool]:
    """Whether each letter of ``text`` sits in right-to-left text, on a left-to-right line
    (the Unicode bidirectional algorithm's resolved levels, 0 or 1, for text with no explicit
    embeddings): Hebrew and Arabic letters are, and so are the spaces, emoji and digits
    between two of them; everything else is not. Marks and joiners go with their letter.

    An isolate (a name as a seat holds it, ``bot.bidi``) is one neutral to the line around
    it, as in the algorithm: a figure after it is not read as part of it, nor two names with
    only figures between them as one. Inside, it reads as its first strong letter says."""
    units = _units(text)
    strong: list[bool | None] = []
    last = False  # the start of the line counts as left to right
    for start, end in units:
        char = text[start]
        kind = unicodedata.bidirectional(char)
        if end - start > 1 or kind in _OPENS:
            strong.append(None)  # an isolate: a neutral, resolved below from both sides
            continue
        if strong and _rides_along(char):
            strong.append(strong[-1])
            continue
        if kind == "L":
            last = False
        elif kind in ("R", "AL", "AN") or (kind == "EN" and last):
            last = True
        else:
            strong.append(None)  # a neutral: resolved below, from both sides
            continue
        strong.append(last)
    rtl: list[bool] = []
    for i, ((start, end), known) in enumerate(zip(units, strong, strict=True)):
        if end - start > 1:
            rtl.extend(_inside(text[start:end]))
            continue
        if known is not None:
            rtl.append(known)
            continue
        before = next((s for s in reversed(strong[:i]) if s is not None), False)
        after = next((s for s in strong[i + 1 :] if s is not None), False)
        rtl.append(before and after)
    return rtl


def _inside(isolate: str) -> list[bool]:
    """``_resolved`` for an isolate's letters, its controls included: all right to left when
    its first strong letter is (a name in Arabic or Hebrew), else as a line of its own."""
    closed = unicodedata.bidirectional(isolate[-1]) == "PDI"
    inner = isolate[1 : -1 if closed else None]
    first = next((k for k in map(unicodedata.bidirectional, inner) if k in ("L", "R", "AL")), "L")
    if first != "L":
        return [True] * len(isolate)
    return [False, *_resolved(inner), *([False] if closed else [])]


def visual(pieces: list[Run]) -> list[Placed]:
    """``pieces`` (runs in the order typed) as they are set left to right on the line.

    Each face draws its own run, so raqm cannot order text across runs: an Arabic or Hebrew
    name of two words with an emoji between them would read with its words swapped. The runs
    are cut where the direction changes, and each stretch of right-to-left runs is set in
    reverse, each run right to left within itself."""
    text = "".join(run for run, _ in pieces)
    if not any(unicodedata.bidirectional(char) in ("R", "AL", "AN") for char in text):
        return [(run, face, False) for run, face in pieces]
    rtl = iter(_resolved(text))
    cut: list[Placed] = []
    for run, face in pieces:
        for char in run:
            right = next(rtl)
            if cut and cut[-1][1] is face and cut[-1][2] == right:
                cut[-1] = (cut[-1][0] + char, face, right)
            else:
                cut.append((char, face, right))
    placed: list[Placed] = []
    stretch: list[Placed] = []
    for piece in cut:
        if piece[2]:
            stretch.append(piece)
            continue
        placed.extend(reversed(stretch))
        stretch = []
        placed.append(piece)
    placed.extend(reversed(stretch))
    return placed

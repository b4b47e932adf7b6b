"""Shared drawing kit every game uses: fonts, palette, rounded shapes, card shadows and PNG output.

Everything expensive (fonts, shadows) is cached with ``lru_cache``:
a table is posted after every move, so a render should mostly paste ready-made pieces. Cached
images are shared between calls, so callers paste them and never draw on them.
"""

from __future__ import annotations

import math
import re
import struct
import unicodedata
import zlib
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from bot.bidi import isolated
from bot.render import fallback
from bot.seats import without_level

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Box = tuple[int, int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
FontStyle = Literal["regular", "bold", "cond"]

READABLE = 20
"""The smallest text size a title or label should be drawn at: Discord shows a 1200 px image
about 450 px wide on a phone, and smaller text could not be read there."""

# bot/render/common.py -> repo root -> images/fonts
FONT_DIR = Path(__file__).resolve().parents[2] / "images" / "fonts"
_FONT_FILES: dict[FontStyle, str] = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "cond": "DejaVuSansCondensed-Bold.ttf",
}


@lru_cache(maxsize=256)
def font(size: int, style: FontStyle = "regular") -> Font:
    """The bundled DejaVu face at ``size`` px; Pillow's own font if the file is missing."""
    try:
        return ImageFont.truetype(str(FONT_DIR / _FONT_FILES[style]), size)
    except OSError:
        # A broken checkout should still produce an image rather than crash a game.
        return ImageFont.load_default(size=size)


def _direction(fnt: Font) -> str | None:
    """ "ltr" where raqm lays the text out (None elsewhere: the basic layout has no bidi).

    Every line the images write is English, so it reads left to right whatever it quotes:
    left to raqm, a line that opens with a Hebrew or Arabic name ("שלום plays Go") would be
    laid out right to left as a whole, its English words and punctuation in the wrong order.
    The name itself still reads right to left inside it."""
    if isinstance(fnt, ImageFont.FreeTypeFont) and fnt.layout_engine == ImageFont.Layout.RAQM:
        return "ltr"
    return None


def _runs(text: str, fnt: Font) -> list[tuple[str, Font]]:
    """``text`` (tamed, its right-to-left names isolated: ``bot.bidi``) in runs of one face
    each: the bundled fallbacks draw the letters ``fnt`` lacks (``fallback.runs``)."""
    text = isolated(tame(text))
    if isinstance(fnt, ImageFont.FreeTypeFont):
        return list(fallback.runs(text, fnt, FONT_DIR))
    return [(text, fnt)]


def _run_length(text: str, fnt: Font) -> float:
    if isinstance(fnt, ImageFont.FreeTypeFont):
        return fnt.getlength(text, direction=_direction(fnt))
    return fnt.getlength(text)


@lru_cache(maxsize=4096)
def text_width(text: str, fnt: Font) -> int:
    """How wide ``text`` is drawn (as ``tame`` makes it: the width every cut and fit uses).
    Cached, by the face itself (``font`` hands out one per size and style): the labels, pills
    and names of a table are measured again on every render."""
    return math.ceil(sum(_run_length(run, face) for run, face in _runs(text, fnt)))


@lru_cache(maxsize=1024)
def fit_font(text: str, max_width: int, size: int, style: FontStyle, min_size: int = 8) -> Font:
    """The largest font no bigger than ``size`` (nor under ``min_size``) that fits ``text``
    on one line. Cached: the same names and labels are fitted on every render."""
    while size > min_size and text_width(text, font(size, style)) > max_width:
        size -= 1
    return font(size, style)


def _wide_letter(ch: str) -> bool:
    """A Chinese, Japanese or Korean letter: written without spaces, a line may end after it."""
    return unicodedata.east_asian_width(ch) == "W" and unicodedata.category(ch).startswith("L")


def _pieces(word: str) -> list[str]:
    """``word`` cut where a line may break inside it: after and before each wide letter (a
    mark, a joiner or a punctuation mark stays with the letter before it, as a line may not
    start with "。"). A word of Latin letters stays whole."""
    pieces = [word[:1]]
    for ch in word[1:]:
        clings = unicodedata.category(ch)[0] in "MCP"
        if not _wide_letter(ch) and (clings or not _wide_letter(pieces[-1][-1])):
            pieces[-1] += ch
        else:
            pieces.append(ch)
    return pieces


def wrap(text: str, fnt: Font, max_width: int) -> list[str]:
    """Greedy word wrap; a word wider than the line stays whole (callers shrink the font),
    except that Chinese, Japanese and Korean letters, written without spaces, may end a line
    anywhere: a name of 16 of them was one "word" that shrank the font to its smallest."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        for i, piece in enumerate(_pieces(word)):
            trial = current + (" " if current and i == 0 else "") + piece
            if current and text_width(trial, fnt) > max_width:
                lines.append(current)
                current = piece
            else:
                current = trial
    if current:
        lines.append(current)
    return lines


@lru_cache(maxsize=1024)
def fit_wrapped(
    text: str, max_width: int, max_lines: int, size: int, style: FontStyle, min_size: int = 8
) -> tuple[Font, tuple[str, ...]]:
    """The largest font at which ``text`` wraps into ``max_lines`` lines of ``max_width``.

    If even ``min_size`` is too big, the lines that fit are kept and the last one ends with
    an ellipsis, so nothing is drawn outside its box.
    """
    while True:
        fnt = font(size, style)
        lines = wrap(text, fnt, max_width)
        fits = len(lines) <= max_lines and all(text_width(ln, fnt) <= max_width for ln in lines)
        if fits or size <= min_size:
            break
        size -= 1
    if not fits:
        kept = [ellipsize(line, fnt, max_width) for line in lines[:max_lines]]
        if len(lines) > max_lines:
            kept[-1] = ellipsize(kept[-1].rstrip("…") + "…", fnt, max_width)
        lines = kept
    return fnt, tuple(lines)


_NUMBERED = re.compile(r"(.*\S)( \(\d+\))")
"""A name the table numbered because an earlier seat's looks the same ("Sam (2)")."""


@lru_cache(maxsize=512)
def ellipsize(text: str, fnt: Font, max_width: int) -> str:
    """``text`` cut with an ellipsis so it fits ``max_width`` (player names can be long).

    A numbered name keeps its number ("WWWWWW… (2)"): two members whose long names look the
    same were otherwise cut to one "WWWWWW…" on the image, while the captions said which of
    them was "(2)". A computer's name that does not fit loses its level first ("Computer 2")."""
    if text_width(text, fnt) <= max_width:
        return text
    computer = without_level(text)
    if computer is not None and text_width(computer, fnt) <= max_width:
        return computer  # "Computer 2" tells it apart; "Computer 2 (no…" said nothing more
    numbered = _NUMBERED.fullmatch(text)
    if numbered is not None:
        stem, number = numbered.groups()
        while stem and text_width(stem + "…" + number, fnt) > max_width:
            stem = stem[:-1]
        if stem.strip():
            return stem.rstrip() + "…" + number
    text = text.removesuffix("…")
    while text and text_width(text + "…", fnt) > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


@lru_cache(maxsize=1024)
def fit_name(
    name: str, max_width: int, size: int, style: FontStyle = "bold", min_size: int = READABLE
) -> tuple[Font, str]:
    """A name in a box ``max_width`` wide, as a header writes it: whole at the largest font
    from ``size`` down to ``min_size``; only past that shortened by ``ellipsize`` at
    ``min_size`` (a computer's level goes, then a name is cut). At a fixed size a
    six-car arena wrote "Computer 3 (expert)" as "Computer 3", which fits whole at 20 px."""
    fnt = fit_font(name, max_width, size, style, min_size)
    return fnt, ellipsize(name, fnt, max_width)


@lru_cache(maxsize=1024)
def fit_name_lines(
    name: str, max_width: int, size: int, style: FontStyle = "bold", min_size: int = READABLE
) -> tuple[Font, tuple[str, ...]]:
    """A name in a header with room for two lines at ``min_size``: on one line as
    ``fit_name`` writes it while it fits whole at ``min_size``; past that on two lines at
    ``min_size``, a computer's level on its own ("Computer 2" over "(normal)"), a member's
    name wrapped ("Maximilian Wolfgang" over "von Habsburg"), cut with an ellipsis only
    where two lines do not hold it."""
    fnt = fit_font(name, max_width, size, style, min_size)
    if text_width(name, fnt) <= max_width:
        return fnt, (name,)
    computer = without_level(name)
    if computer is not None:
        level = name[len(computer) :].strip()
        if max(text_width(computer, fnt), text_width(level, fnt)) <= max_width:
            return fnt, (computer, level)
    first, *rest = wrap(name, fnt, max_width) or [name]
    lines = [ellipsize(first, fnt, max_width)]  # a word too wide for the line is cut
    if rest and not lines[0].endswith("…"):
        lines.append(ellipsize(" ".join(rest), fnt, max_width))
    return fnt, tuple(lines)


# --- palette -------------------------------------------------------------------------------


class Palette:
    """Colours shared by every image. The table is dark so it reads in both Discord themes."""

    FELT_TOP: RGB = (27, 74, 56)
    FELT_BOTTOM: RGB = (17, 52, 40)
    MAT: RGB = (14, 42, 32)
    MAT_EDGE: RGB = (58, 110, 88)
    ASPHALT: RGB = (52, 56, 62)
    ASPHALT_DARK: RGB = (36, 39, 44)
    ROAD_LINE: RGB = (240, 200, 70)
    INK: RGB = (246, 244, 236)
    MUTED: RGB = (176, 196, 186)
    DARK_INK: RGB = (28, 30, 34)
    GOLD: RGB = (246, 196, 58)
    GOLD_DARK: RGB = (150, 104, 12)
    GREEN: RGB = (54, 160, 84)
    RED: RGB = (214, 58, 52)
    RED_INK: RGB = (255, 120, 108)
    """Red for words and marks on the dark table: a protanope sees red darker, and RED there
    is 2.3:1 to them (this is 4.6:1 and more, and to normal sight)."""
    AMBER: RGB = (236, 150, 32)
    SEAT: tuple[RGB, RGB] = ((92, 170, 255), (255, 160, 84))
    CARD_PAPER: RGB = (253, 250, 242)
    CARD_EDGE: RGB = (40, 40, 44)
    SHADOW: RGB = (0, 0, 0)


# --- shapes and text ----------------------------------------------------------------------


def dashed_rounded(
    draw: ImageDraw.ImageDraw,
    box: Box,
    colour: RGB | RGBA,
    dash: int = 10,
    gap: int = 7,
    width: int = 2,
    radius: int = 10,
) -> None:
    """A dashed outline for an empty card slot (straight dashes, plain rounded corners)."""
    x0, y0, x1, y1 = box
    r = radius
    for start, end, fixed, horizontal in (
        (x0 + r, x1 - r, y0, True),
        (x0 + r, x1 - r, y1, True),
        (y0 + r, y1 - r, x0, False),
        (y0 + r, y1 - r, x1, False),
    ):
        pos = start
        while pos < end:
            stop = min(pos + dash, end)
            if horizontal:
                draw.line((pos, fixed, stop, fixed), fill=colour, width=width)
            else:
                draw.line((fixed, pos, fixed, stop), fill=colour, width=width)
            pos = stop + gap
    for cx, cy, a0 in ((x0 + r, y0 + r, 180), (x1 - r, y0 + r, 270), (x1 - r, y1 - r, 0)):
        draw.arc((cx - r, cy - r, cx + r, cy + r), a0, a0 + 90, fill=colour, width=width)
    draw.arc((x0, y1 - 2 * r, x0 + 2 * r, y1), 90, 180, fill=colour, width=width)


MAX_MARKS = 2
"""Combining marks kept on one letter: enough for any language's accents (Vietnamese stacks
two), while a "zalgo" name of a letter and thirty marks would tower over its neighbours."""


def _plain_letter(char: str) -> str:
    """A styled letter the bundled font lacks as the plain one it styles: fullwidth forms
    (``Ｗ``, U+FF01–U+FF5E) and the mathematical alphabets (``𝐁𝐨𝐛``, ``𝓐𝓵𝓲𝓬𝓮``, U+1D400–U+1D7FF),
    which members use for "fancy" names and DejaVu draws as empty boxes."""
    if "\uff01" <= char <= "\uff5e":
        return chr(ord(char) - 0xFEE0)
    if "\U0001d400" <= char <= "\U0001d7ff":
        return unicodedata.normalize("NFKC", char)
    return char


def few_marks(text: str) -> str:
    """``text`` with at most ``MAX_MARKS`` combining marks on each letter."""
    if text.isascii():
        return text
    kept: list[str] = []
    marks = 0
    for char in text:
        if unicodedata.combining(char):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        kept.append(char)
    return "".join(kept)


SKIN_TONES = frozenset(map(chr, range(0x1F3FB, 0x1F400)))
"""Emoji skin-tone modifiers: the emoji face draws in one ink, where a tone would only add a
grey swatch after the hand it colours."""


def tame(text: str) -> str:
    """``text`` as it is drawn and measured: ``few_marks``, styled letters as the plain ones
    they style (``_plain_letter``), and no skin tones (``SKIN_TONES``)."""
    if text.isascii():
        return text
    return "".join(_plain_letter(char) for char in few_marks(text) if char not in SKIN_TONES)


@lru_cache(maxsize=2048)
def _text_mask(text: str, fnt: Font, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` rendered once as an "L" mask, with its offset from the anchor point.

    FreeType rendering is the single biggest cost of a table (names, labels and numbers
    repeat from one move to the next), so glyph runs are cached and pasted. Names are members'
    own text: piles of combining marks are tamed first (``tame``).
    """
    runs = _runs(text, fnt)
    if len(runs) > 1 or (runs and runs[0][1] is not fnt):
        return _mixed_mask(runs, fnt, anchor)
    text = runs[0][0] if runs else ""
    direction = _direction(fnt)
    if isinstance(fnt, ImageFont.FreeTypeFont):
        box = fnt.getbbox(text, anchor=anchor, direction=direction)
    else:  # the bitmap fallback has no anchors: treat every anchor as top left
        box = fnt.getbbox(text)
        anchor = "la"
    left, top = math.floor(box[0]), math.floor(box[1])
    right, bottom = math.ceil(box[2]), math.ceil(box[3])
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    if isinstance(fnt, ImageFont.FreeTypeFont):
        ImageDraw.Draw(mask).text(
            (-left, -top), text, font=fnt, fill=255, anchor=anchor, direction=direction
        )
    else:
        ImageDraw.Draw(mask).text((-left, -top), text, font=fnt, fill=255)
    return mask, left, top


def _mixed_mask(
    runs: list[tuple[str, Font]], fnt: Font, anchor: str
) -> tuple[Image.Image, int, int]:
    """``_text_mask`` for text drawn by fallback faces: the runs sit side by side on ``fnt``'s
    baseline, and ``fnt``'s metrics place that baseline for the anchor, so a name with an emoji
    lines up with the plain names next to it."""
    assert isinstance(fnt, ImageFont.FreeTypeFont)  # only FreeType faces have fallbacks
    faces = [(run, face) for run, face in runs if isinstance(face, ImageFont.FreeTypeFont)]
    # raqm sets right-to-left text within a run; across runs, fallback.visual orders them.
    order = (
        fallback.visual(faces)
        if _direction(fnt) is not None
        else [(run, face, False) for run, face in faces]
    )
    directions = [("rtl" if rtl else "ltr") if _direction(face) else None for _, face, rtl in order]
    widths = [
        face.getlength(run, direction=way)
        for (run, face, _), way in zip(order, directions, strict=True)
    ]
    # Where the baseline sits below the anchor's line ("m": the middle, "a": the ascender...).
    baseline = fnt.getbbox("H", anchor="l" + anchor[1])[1] - fnt.getbbox("H", anchor="ls")[1]
    x = -sum(widths) * {"l": 0.0, "m": 0.5, "r": 1.0}[anchor[0]]
    placed: list[tuple[float, str, ImageFont.FreeTypeFont, str | None]] = []
    boxes: list[tuple[float, float, float, float]] = []
    for (run, face, _), way, width in zip(order, directions, widths, strict=True):
        box = face.getbbox(run, anchor="ls", direction=way)
        boxes.append((x + box[0], baseline + box[1], x + box[2], baseline + box[3]))
        placed.append((x, run, face, way))
        x += width
    left, top = math.floor(min(b[0] for b in boxes)), math.floor(min(b[1] for b in boxes))
    right, bottom = math.ceil(max(b[2] for b in boxes)), math.ceil(max(b[3] for b in boxes))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    draw = ImageDraw.Draw(mask)
    for x, run, face, way in placed:
        draw.text((x - left, baseline - top), run, font=face, fill=255, anchor="ls", direction=way)
    return mask, left, top


@lru_cache(maxsize=64)
def shadow(w: int, h: int, radius: int, blur: int = 6, alpha: int = 120) -> Image.Image:
    """An "L" mask of a soft shadow for a ``w``×``h`` rounded box, padded by ``2*blur``."""
    pad = 2 * blur
    mask = Image.new("L", (w + 2 * pad, h + 2 * pad), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (pad, pad, pad + w - 1, pad + h - 1), radius=radius, fill=alpha
    )
    return mask.filter(ImageFilter.GaussianBlur(blur))


class Canvas:
    """An RGB image plus its ``ImageDraw``, with the few drawing verbs the renderers use."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        fnt: Font,
        fill: RGB,
        anchor: str = "la",
        drop: int = 0,
    ) -> None:
        """Draw ``text`` (cached, see ``_text_mask``); ``drop`` adds a hard drop shadow that
        keeps light text crisp on the felt."""
        if not text:
            return
        mask, left, top = _text_mask(text, fnt, anchor)
        x, y = round(xy[0]) + left, round(xy[1]) + top
        if drop:
            self.image.paste((0, 0, 0), (x + drop, y + drop), mask)
        self.image.paste(fill, (x, y), mask)

    def rounded(
        self,
        box: Sequence[float],
        radius: float,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        self.draw.rounded_rectangle(
            (box[0], box[1], box[2], box[3]), radius=radius, fill=fill, outline=outline, width=width
        )

    def pill(
        self,
        x: int,
        y: int,
        text: str,
        fnt: Font,
        fill: RGB,
        ink: RGB = Palette.INK,
        height: int = 30,
        pad: int = 12,
    ) -> int:
        """A rounded label with its left edge at ``x``; returns its width."""
        w = text_width(text, fnt) + 2 * pad
        self.rounded((x, y, x + w, y + height), height // 2, fill=fill)
        self.text((x + w / 2, y + height / 2), text, fnt, ink, anchor="mm")
        return w

    def paste(self, piece: Image.Image, x: int, y: int, with_shadow: bool = True) -> None:
        """Paste an RGBA piece (a card) by its own alpha, optionally over a soft shadow."""
        if with_shadow:
            mask = shadow(piece.width, piece.height, card_radius(piece.width))
            pad = (mask.width - piece.width) // 2
            # Offset down and right, as if lit from the top left.
            self.image.paste(Palette.SHADOW, (x - pad + 3, y - pad + 5), mask)
        self.image.paste(piece, (x, y), piece)

    def backs_left_of(self, back: Image.Image, right: int, cy: int, count: int, step: int) -> int:
        """A hidden hand in a header: ``count`` copies of ``back`` overlapping left to right, each
        ``step`` further, the last ending at ``right``, all centred on ``cy``, flat (no shadow:
        they sit on a text line). Returns where the first starts, for what goes left of it."""
        x = right - back.width - step * max(0, count - 1)
        for i in range(count):
            self.paste(back, x + i * step, cy - back.height // 2, with_shadow=False)
        return x

    def stack(self, piece: Image.Image, x: int, y: int, layers: int, dx: int, dy: int) -> None:
        """``layers`` copies of ``piece`` as a pile: the top one at ``x``, ``y``, each one under it
        ``dx``, ``dy`` further. Drawn from the bottom up, and only the bottom one casts a shadow,
        so a deep pile is not darker than a thin one."""
        for k in range(layers - 1, -1, -1):
            self.paste(piece, x + dx * k, y + dy * k, with_shadow=k == layers - 1)

    def lines(
        self,
        xy: tuple[float, float],
        lines: Sequence[str],
        fnt: Font,
        fill: RGB,
        *,
        step: float | None = None,
        drop: int = 0,
    ) -> None:
        """Lines left-aligned at ``xy[0]``, the block centred on ``xy[1]``; ``step`` between
        baselines (default: the font's height and a little air)."""
        if step is None:
            top, bottom = fnt.getbbox("Ag")[1::2]
            step = bottom - top + 3
        first = xy[1] - step * (len(lines) - 1) / 2
        for i, line in enumerate(lines):
            self.text((xy[0], first + i * step), line, fnt, fill, anchor="lm", drop=drop)

    def caption_banner(
        self, box: Box, caption: str, *, size: int = 26, max_lines: int = 2, min_size: int = 14
    ) -> None:
        """The "LAST MOVE" card every table shows between the players."""
        x0, y0, x1, y1 = box
        self.rounded((x0 + 3, y0 + 5, x1 + 3, y1 + 5), 14, fill=(20, 22, 26))
        self.rounded(box, 14, fill=(250, 246, 232), outline=Palette.GOLD_DARK, width=2)
        # The title at the readable size (``READABLE``): shown about half size on a phone, it
        # was drawn at 14 px.
        self.text((x0 + 18, y0 + 8), "LAST MOVE", font(READABLE, "bold"), (130, 120, 96))
        fnt, lines = fit_wrapped(caption or "—", x1 - x0 - 36, max_lines, size, "bold", min_size)
        step = (fnt.size if isinstance(fnt, ImageFont.FreeTypeFont) else size) + 6
        self.lines((x0 + 18, (y0 + 30 + y1) / 2), lines, fnt, Palette.DARK_INK, step=step)

    def result_banner(self, box: Box, headline: str, detail: str) -> None:
        """The gold banner a finished game shows: who won, and why the game ended, every line
        at ``READABLE`` px or more in a box of ``result_banner_height`` or taller."""
        x0, y0, x1, y1 = box
        self.rounded((x0 + 3, y0 + 5, x1 + 3, y1 + 5), 14, fill=(20, 22, 26))
        self.rounded(box, 14, fill=Palette.GOLD, outline=(255, 240, 180), width=3)
        cx = (x0 + x1) / 2
        if y1 - y0 < result_banner_height(x1 - x0, headline, detail):
            # A box too short for them: the headline on one line, the reason on two, both
            # shrunk to fit (down to 8 and 12 px).
            inner = x1 - x0 - 40
            title = f"★ {headline} ★"
            fnt = fit_font(title, inner, 32, "bold")
            self.text((cx, y0 + 30), title, fnt, Palette.DARK_INK, "mm")
            fnt, lines = fit_wrapped(detail or " ", inner, 2, 19, "bold", min_size=12)
            for i, line in enumerate(lines):
                self.text((cx, y0 + 66 + i * _DETAIL_STEP), line, fnt, (70, 50, 10), anchor="mm")
            return
        title_font, titles, detail_font, details = result_banner_lines(x1 - x0, headline, detail)
        step = _title_step(title_font)
        for i, line in enumerate(titles):
            self.text((cx, y0 + 30 + i * step), line, title_font, Palette.DARK_INK, "mm")
        top = y0 + 66 + (len(titles) - 1) * step
        for i, line in enumerate(details):
            self.text((cx, top + i * _DETAIL_STEP), line, detail_font, (70, 50, 10), anchor="mm")


_DETAIL_STEP = 24
"""Baseline to baseline for the reason under a finished game's headline."""


def _title_step(fnt: Font) -> int:
    """Baseline to baseline for a headline wrapped over lines."""
    return round(fnt.size if isinstance(fnt, ImageFont.FreeTypeFont) else 32) + 6


@lru_cache(maxsize=256)
def result_banner_lines(
    width: int, headline: str, detail: str
) -> tuple[Font, tuple[str, ...], Font, tuple[str, ...]]:
    """How ``Canvas.result_banner`` writes its text in a box ``width`` wide: the headline
    on one line at 32 px down to ``READABLE`` px, else wrapped at ``READABLE`` px; the reason
    at ``READABLE`` px on as many lines as it needs. Both shrank to fit the box instead, down
    to 10-12 px (a four-way tie among long names, a long reason and last move)."""
    inner = width - 40
    title = f"★ {headline} ★"
    title_font = fit_font(title, inner, 32, "bold", READABLE)
    titles = [title]
    if text_width(title, title_font) > inner:
        titles = wrap(title, title_font, inner)
    detail_font = font(READABLE, "bold")
    return title_font, tuple(titles), detail_font, tuple(wrap(detail or " ", detail_font, inner))


def result_banner_height(width: int, headline: str, detail: str) -> int:
    """The height a ``Canvas.result_banner`` box ``width`` wide needs for all its lines: 90 px
    for a headline and a line of reason, more for each line after those."""
    title_font, titles, _, details = result_banner_lines(width, headline, detail)
    lines = max(1, len(details))
    return 90 + (len(titles) - 1) * _title_step(title_font) + (lines - 1) * _DETAIL_STEP


def vertical_gradient(w: int, h: int, top: RGB, bottom: RGB) -> Image.Image:
    """An RGB image fading from ``top`` to ``bottom``."""
    # Built as a one-pixel column and stretched: far quicker than drawing ``h`` lines.
    column = Image.new("RGB", (1, h))
    for y in range(h):
        t = y / max(1, h - 1)
        column.putpixel(
            (0, y), tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True))
        )
    return column.resize((w, h), Image.Resampling.NEAREST)


@lru_cache(maxsize=16)
def felt(
    w: int, h: int, top: RGB = Palette.FELT_TOP, bottom: RGB = Palette.FELT_BOTTOM
) -> Image.Image:
    """The plain felt a hand or a score sheet is drawn on (cached and shared: draw on a copy)."""
    return vertical_gradient(w, h, top, bottom)


# --- the pieces several tables draw alike ---------------------------------------------------


def title_bar(c: Canvas, width: int, height: int, title: str = "", left: int = 20) -> None:
    """The dark bar across the top of an image, a gold rule under it, and the game's name in
    gold at ``left`` (when given; a board sets its own title later)."""
    c.draw.rectangle((0, 0, width, height), fill=Palette.ASPHALT_DARK)
    c.draw.line((0, height, width, height), fill=Palette.GOLD_DARK, width=2)
    if title:
        c.text((left, height // 2), title, font(26, "bold"), Palette.GOLD, anchor="lm")


def after_title(title: str, left: int = 20) -> int:
    """Where the chips after a title bar's name start (``title_bar`` drew it at ``left``)."""
    return left + text_width(title, font(26, "bold")) + 18


def road(c: Canvas, y: int, h: int, width: int, centre_line: bool = True) -> None:
    """A strip of asphalt across the image with white edge lines and, like a country road,
    a dashed yellow centre line."""
    d = c.draw
    d.rectangle((0, y, width, y + h), fill=Palette.ASPHALT)
    for edge in (y + 6, y + h - 8):
        d.line((0, edge, width, edge), fill=(214, 214, 208), width=3)
    if centre_line:
        mid = y + h // 2
        for x in range(10, width, 64):
            d.line((x, mid, x + 34, mid), fill=Palette.ROAD_LINE, width=5)


def mat(c: Canvas, box: Sequence[float], radius: int = 18) -> None:
    """A dark mat with a lighter edge: where a seat's cards or a panel's figures lie."""
    c.rounded(box, radius, fill=Palette.MAT)
    c.rounded(box, radius, outline=Palette.MAT_EDGE, width=2)


def hand_header(
    c: Canvas,
    width: int,
    phrase: str,
    chips: Sequence[tuple[str, RGB]],
    min_size: int = 16,
    *,
    two_lines: bool = False,
) -> None:
    """The line across the top of a hand image: the status ``chips`` (text, fill) at the right,
    then the phase ``phrase`` in the room left of them, shrunk down to ``min_size`` and then
    cut with an ellipsis, so the chips (the figures) always show whole. ``two_lines``: a phrase
    too wide at ``min_size`` is written on two lines at that size instead (the header's height
    holds two above the cards), cut only after the second."""
    chip_font = font(READABLE, "bold")
    x = width - 30
    for text, fill in reversed(chips):
        x -= text_width(text, chip_font) + 24
        c.pill(x, 19, text, chip_font, fill, height=34)
        x -= 8
    room = x - 30 - 16
    smallest = font(min_size, "bold")
    if two_lines and text_width(phrase, smallest) > room:
        first, *rest = wrap(phrase, smallest, room) or [""]
        second = ellipsize(" ".join(rest), smallest, room)
        step = min_size + 4
        c.text((30, 36 - step / 2), first, smallest, Palette.INK, "lm", drop=2)
        c.text((30, 36 + step / 2), second, smallest, Palette.INK, "lm", drop=2)
        return
    phrase_font = fit_font(phrase, room, 28, "bold", min_size=min_size)
    c.text((30, 36), ellipsize(phrase, phrase_font, room), phrase_font, Palette.INK, "lm", drop=2)


def header_name(
    c: Canvas, x: float, cy: float, name: tuple[Font, tuple[str, ...]], ink: RGB = Palette.INK
) -> int:
    """Write ``fit_name_lines``' font and lines from ``x``, centred on ``cy`` (two lines set
    2 px apart); returns the width of the widest line."""
    fnt, lines = name
    step = (fnt.size if isinstance(fnt, ImageFont.FreeTypeFont) else READABLE) + 2
    for i, line in enumerate(lines):
        y = cy + (i - (len(lines) - 1) / 2) * step
        c.text((x, y), line, fnt, ink, anchor="lm", drop=2)
    return max(text_width(line, fnt) for line in lines)


def mileage_track(c: Canvas, box: Sequence[float]) -> None:
    """The empty road a mileage bar fills."""
    c.rounded(box, 10, fill=Palette.ASPHALT_DARK)
    c.rounded(box, 10, outline=(90, 96, 104), width=2)


def mileage_bar(
    c: Canvas,
    box: Box,
    miles: int,
    target: int,
    colour: RGB,
    readout_right: int,
    *,
    number_size: int = 26,
    gold_mark: int | None = None,
    unit: str = "mi",
) -> None:
    """A seat's miles on the ``mileage_track`` at ``box``: filled in ``colour`` from 0 up to
    ``miles``, a tick every 100 (the ``gold_mark`` one thicker, in gold), and "N / target mi"
    (``unit``: "bornes" with Mille Bornes' French names) ending at ``readout_right``, its N at
    ``number_size`` px."""
    x0, y, right, bottom = box
    h = bottom - y
    whole = max(1, target)
    span = right - x0 - 8
    frac = min(1.0, miles / whole)
    if frac > 0:
        fill_to = x0 + 4 + max(12, round(span * frac))
        c.rounded((x0 + 4, y + 4, fill_to, y + h - 4), 7, fill=colour)
    for mark in range(100, whole, 100):
        tx = x0 + 4 + round(span * mark / whole)
        gold = mark == gold_mark
        c.draw.line(
            (tx, y + 6, tx, y + h - 6),
            fill=Palette.GOLD if gold else (150, 156, 164),
            width=2 if gold else 1,
        )
    unit_font = font(READABLE, "bold")
    c.text((readout_right, y + h / 2), unit, unit_font, Palette.MUTED, anchor="rm")
    readout_right -= text_width(unit, unit_font) + 6
    tail = f" / {target}"
    tail_font = font(20, "bold")
    c.text((readout_right, y + h / 2 + 2), tail, tail_font, Palette.MUTED, anchor="rm")
    readout_right -= text_width(tail, tail_font)
    number = font(number_size, "bold")
    c.text((readout_right, y + h / 2), str(miles), number, Palette.INK, anchor="rm", drop=2)


# --- cards -------------------------------------------------------------------------------


def card_radius(w: int) -> int:
    """The corner radius of a card ``w`` pixels wide (every game's cards look alike)."""
    return max(4, round(w * 0.09))


def washed_out(face: Image.Image, amount: float = 0.5) -> Image.Image:
    """An RGBA card ``face`` blended ``amount`` of the way into the felt's dark green, its
    shape kept: still readable, clearly a card that cannot be played now."""
    out = Image.blend(face, Image.new("RGBA", face.size, (14, 30, 24, 255)), amount)
    out.putalpha(face.getchannel("A"))
    return out


# --- output --------------------------------------------------------------------------------


_PNG_COLOUR_TYPES = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4)}  # mode -> (type, bytes/px)


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


PNG_BUDGET = 300 * 1024
"""The most an image's PNG should weigh (``junction bench`` reports the largest)."""


def to_png(image: Image.Image) -> bytes:
    """Encode ``image`` as a lossless PNG, fast.

    Pillow's encoder picks an adaptive filter for every row, which costs ~15 ms on a table even
    at compress level 1 (more than drawing it). Our images are mostly flat colour, so plain
    rows (filter 0) with zlib level 1 come out about as small (~120 KB) in well under half the
    time. Quantizing to a palette would be smaller but lossy and slower. An image over
    ``PNG_BUDGET`` at level 1 (a Ticket to Ride hand of 42 tickets, 339 KB) is compressed again
    at level 6, about a quarter smaller (250 KB) for about twice the time.
    """
    if image.mode not in _PNG_COLOUR_TYPES:
        image = image.convert("RGBA" if "A" in image.getbands() else "RGB")
    colour_type, bpp = _PNG_COLOUR_TYPES[image.mode]
    w, h = image.size
    rows = _unfiltered_rows(image, w * bpp)
    data = _deflated(rows, 1)
    if len(data) > PNG_BUDGET:
        data = _deflated(rows, 6)
    header = struct.pack(">IIBBBBB", w, h, 8, colour_type, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", data),
            _chunk(b"IEND", b""),
        )
    )


def _unfiltered_rows(image: Image.Image, stride: int) -> bytes:
    """``image``'s rows, each followed by one zero byte: Pillow's raw encoder writes each row
    into ``stride`` + 1 bytes and zero-fills the byte left over, in C in one pass. With one
    more zero in front and the last one dropped (``_deflated``), that is PNG's filtered data
    with filter type 0 (None) on every row. (Feeding zlib the rows one by one, two calls a
    row, cost a 6-car Dragon arena about 5 ms of its 17 ms encode.)"""
    return image.tobytes("raw", image.mode, stride + 1)


def _deflated(rows: bytes, level: int) -> bytes:
    """``rows`` (``_unfiltered_rows``) as PNG's image data, deflated at zlib ``level``: the
    leading zero fed first and the rows after it but for their last zero, so no copy of the
    pixels is built."""
    z = zlib.compressobj(level)
    return z.compress(b"\x00") + z.compress(memoryview(rows)[:-1]) + z.flush()

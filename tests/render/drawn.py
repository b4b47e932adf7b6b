"""What a renderer draws, read by a test: every text passed to ``Canvas.text`` (and, for
``marks_drawn``, every piece passed to ``Canvas.paste``) from the moment a recorder is set up
(through ``monkeypatch``, so it ends with the test), in drawing order."""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image

from bot.render.common import READABLE, Canvas, _text_mask


def sizes_drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every text drawn from now on, with its font size in pixels."""
    drawn: list[tuple[str, int]] = []
    draw = Canvas.text

    def text(self: Canvas, xy: Any, words: str, fnt: Any, *args: Any, **kwargs: Any) -> None:
        drawn.append((words, int(fnt.size)))
        draw(self, xy, words, fnt, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", text)
    return drawn


def too_small(drawn: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    """The texts of ``sizes_drawn`` under the readable size (``READABLE``), each once, sorted:
    empty on an image every word of which reads on a phone."""
    return sorted({(words, size) for words, size in drawn if size < READABLE})


def words_drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text drawn from now on."""
    drawn: list[str] = []
    draw = Canvas.text

    def text(self: Canvas, xy: Any, words: str, *args: Any, **kwargs: Any) -> None:
        drawn.append(words)
        draw(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", text)
    return drawn


def inks_drawn(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Every text drawn from now on, with the colour it was drawn in (the last, for a text
    drawn twice)."""
    inks: dict[str, Any] = {}
    draw = Canvas.text

    def text(self: Canvas, xy: Any, words: str, fnt: Any, fill: Any, *a: Any, **k: Any) -> None:
        inks[words] = fill
        draw(self, xy, words, fnt, fill, *a, **k)

    monkeypatch.setattr(Canvas, "text", text)
    return inks


Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Mark:
    """One thing drawn on a canvas: a text (``what`` is its words) or a pasted piece such as
    a card (``what`` is ""), with the box of its ink or of the piece, in canvas pixels."""

    what: str
    box: Box
    on: tuple[int, int]  # the size of the canvas it is drawn on (a ticket tile is one too)

    @property
    def is_text(self) -> bool:
        return bool(self.what)


def marks_drawn(monkeypatch: pytest.MonkeyPatch) -> list[Mark]:
    """Every text and every pasted piece drawn from now on, with where its pixels land."""
    drawn: list[Mark] = []
    draw, paste = Canvas.text, Canvas.paste

    def text(self: Canvas, xy: Any, words: str, fnt: Any, *args: Any, **kwargs: Any) -> None:
        anchor = args[1] if len(args) > 1 else kwargs.get("anchor", "la")
        if words:
            mask, left, top = _text_mask(words, fnt, anchor)
            ink = mask.getbbox()
            if ink is not None:
                x, y = round(xy[0]) + left, round(xy[1]) + top
                box = (x + ink[0], y + ink[1], x + ink[2], y + ink[3])
                drawn.append(Mark(words, box, self.image.size))
        draw(self, xy, words, fnt, *args, **kwargs)

    def pasted(self: Canvas, piece: Image.Image, x: int, y: int, *args: Any, **kw: Any) -> None:
        drawn.append(Mark("", (x, y, x + piece.width, y + piece.height), self.image.size))
        paste(self, piece, x, y, *args, **kw)

    monkeypatch.setattr(Canvas, "text", text)
    monkeypatch.setattr(Canvas, "paste", pasted)
    return drawn


def _overlap(a: Box, b: Box) -> int:
    """The area two boxes share (0 if they only touch)."""
    return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))


def png_size(png: bytes) -> tuple[int, int]:
    """The size of the image ``png`` holds."""
    with Image.open(io.BytesIO(png)) as image:
        return image.size


def off_canvas(marks: list[Mark], size: tuple[int, int]) -> list[Mark]:
    """The marks drawn on an image of ``size`` that reach past its edges (cut off)."""
    w, h = size
    return [
        m
        for m in marks
        if m.on == size and (m.box[0] < 0 or m.box[1] < 0 or m.box[2] > w or m.box[3] > h)
    ]


def crossed_texts(marks: list[Mark], size: tuple[int, int]) -> list[tuple[Mark, Mark]]:
    """Pairs of texts drawn on an image of ``size`` whose inks overlap (one written over the
    other), and texts a piece pasted after them covers."""
    on = [m for m in marks if m.on == size]
    found: list[tuple[Mark, Mark]] = []
    for i, first in enumerate(on):
        if not first.is_text:
            continue
        for later in on[i + 1 :]:
            if _overlap(first.box, later.box):
                found.append((first, later))
    return found

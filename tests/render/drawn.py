"""What a renderer draws, read by a test: every text passed to ``Canvas.text`` from the moment
a recorder is set up (through ``monkeypatch``, so it ends with the test), in drawing order."""

from __future__ import annotations

from typing import Any

import pytest

from bot.render.common import Canvas


def sizes_drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every text drawn from now on, with its font size in pixels."""
    drawn: list[tuple[str, int]] = []
    draw = Canvas.text

    def text(self: Canvas, xy: Any, words: str, fnt: Any, *args: Any, **kwargs: Any) -> None:
        drawn.append((words, int(fnt.size)))
        draw(self, xy, words, fnt, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", text)
    return drawn


def words_drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text drawn from now on."""
    drawn: list[str] = []
    draw = Canvas.text

    def text(self: Canvas, xy: Any, words: str, *args: Any, **kwargs: Any) -> None:
        drawn.append(words)
        draw(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", text)
    return drawn

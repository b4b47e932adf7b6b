"""Relay's bundle: a tiny renderer, texts, pickers and a greedy computer player."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.ai.base import Policy
from bot.games.bundle import GameBundle, MoveChoice, Picker, Presenter, buttons_or_select
from bot.render.common import font, to_png
from tests.toy.game import PublicView, Relay, SeatView


def _lines_png(lines: Sequence[str]) -> bytes:
    image = Image.new("RGB", (480, 40 + 26 * len(lines)), (27, 74, 56))
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((16, 16 + 26 * i), line, font=font(18), fill=(246, 244, 236))
    return to_png(image)


def console_table(view: PublicView) -> str:
    seats = [
        f"{name}: {score} pts, {size} cards{' (left)' if s in view.left else ''}"
        for s, (name, score, size) in enumerate(
            zip(view.players, view.scores, view.hand_sizes, strict=True)
        )
    ]
    return "\n".join([*seats, f"deck {view.deck_size} · pile {view.pile_top or '—'}", view.caption])


def console_hand(view: SeatView) -> str:
    return f"Your hand: {', '.join(view.hand)}"


def table_png(view: PublicView) -> bytes:
    return _lines_png(console_table(view).splitlines())


def hand_png(view: SeatView) -> bytes:
    return _lines_png([console_hand(view)])


def result_png(view: PublicView) -> bytes:
    return b""


def hand_pickers(view: SeatView, moves: Sequence[MoveChoice]) -> list[Picker]:
    return buttons_or_select(moves)


class Greedy(Policy):
    """Plays its highest card and always blocks."""

    name = "normal"

    def choose(self, view: Any, rng: random.Random) -> str:
        legal: list[str] = list(view.legal)
        for preferred in ("block", *(f"play c{n}" for n in range(5, 0, -1)), "discard shield"):
            if preferred in legal:
                return preferred
        return legal[0]


BUNDLE = GameBundle(
    game=Relay(),
    presenter=Presenter(
        table_png=table_png,
        hand_png=hand_png,
        result_png=result_png,
        hand_pickers=hand_pickers,
        rules="**Relay (toy)** — play cards for points; a shield blocks a c5 strike.",
        console_table=console_table,
        console_hand=console_hand,
    ),
    policies={"normal": Greedy},
    default_policy="normal",
    arena_metrics=lambda view, outcome: {"pile": float(sum(view.hand_sizes))},
)

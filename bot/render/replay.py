"""An animated GIF of a finished game from its table images (public views only).

A long match has hundreds of moves; the replay keeps an even sample of them (always the deal
and the final table) so the file stays small enough to post and quick to watch. A replay still
too heavy for Discord's upload limit (a six-car arena is drawn large) keeps fewer of them.
Each frame's palette holds the colours the renderers name (seats, card faces) besides those
fitted to the picture, so a player's colour reads the same in the replay as on the table.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from PIL import Image

from bot.render import common, dragon, mille, mille_cards, race, solo, ttr
from bot.render.common import RGB

MAX_FRAMES = 60
WIDTH = 640
ADAPTIVE_COLOURS = 128
"""The colours each frame's palette fits to the picture (felt, text, shading, card art)."""
UPLOAD_LIMIT = 9_500_000
"""The bytes a replay may weigh: Discord takes 10 MB in one upload from a bot on a server
without boosts, and the request around the file needs a little room. A six-car Dragon
replay of 60 frames weighs about 7 MB."""


def pick_frames(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """Indices of the frames to keep: evenly spread, first and last always included."""
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


_TABLE_RENDERERS: tuple[object, ...] = (common.Palette, mille_cards, mille, solo, race, dragon, ttr)
"""What draws the tables a replay shows: the renderers and the palette they share."""


def _colours_in(value: object) -> Iterator[RGB]:
    """The RGB colours in a constant: a colour, or tuples, lists and dicts of them."""
    if (
        isinstance(value, tuple)
        and len(value) == 3
        and all(type(part) is int and 0 <= part <= 255 for part in value)
    ):
        yield value
    elif isinstance(value, tuple | list):
        for part in value:
            yield from _colours_in(part)
    elif isinstance(value, dict):
        for part in value.values():
            yield from _colours_in(part)


def named_colours(sources: Sequence[object] = _TABLE_RENDERERS) -> tuple[RGB, ...]:
    """Every colour the table renderers name (seat colours, card faces, chips, the palette),
    each once. Read from the modules, so a colour a renderer adds is held too."""
    found: dict[RGB, None] = {}
    for source in sources:
        for name, value in vars(source).items():
            if not name.startswith("__"):
                found.update(dict.fromkeys(_colours_in(value)))
    return tuple(found)


RESERVED = named_colours()
"""Colours every frame's palette holds whatever the picture. Fitted to the picture alone, the
palette spent its colours on the felt and the cards' shading, and the small marks lost
theirs: a seat's dot or a card face took the nearest colour left, and Ticket to Ride's blue
and pink seats came out grey. Found in review: seat colours are how players tell the cars
and the players apart."""


def scaled(png: bytes) -> Image.Image:
    """One table image in RGB at a phone-friendly width (``WIDTH``), before its palette."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    height = round(image.height * WIDTH / image.width)
    return image.resize((WIDTH, height), Image.Resampling.BILINEAR)


def shrink(png: bytes) -> Image.Image:
    """One table image as a GIF frame: scaled to a phone-friendly width, with a palette of
    ``ADAPTIVE_COLOURS`` fitted to the picture and the renderers' named colours (``RESERVED``).
    Each pixel takes its nearest palette colour, without dithering (dithering would speckle
    the flat colours and weigh more)."""
    small = scaled(png)
    fitted = small.quantize(colors=ADAPTIVE_COLOURS, method=Image.Quantize.MEDIANCUT)
    colours = (fitted.getpalette() or [])[: 3 * ADAPTIVE_COLOURS]
    colours += [part for colour in RESERVED for part in colour]
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours[: 3 * 256])
    return small.quantize(palette=palette, dither=Image.Dither.NONE)


def replay_frame(table_png: Callable[[Any], bytes], view: Any) -> Image.Image:
    """Draw one kept view and make it a GIF frame (one small job for a render worker)."""
    return shrink(table_png(view))


def frames_gif(frames: Sequence[Image.Image], frame_ms: int = 700, last_ms: int = 4000) -> bytes:
    """GIF frames (in order) as a looping GIF; the last frame stays longer."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    frames = _same_size(frames)
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=list(frames[1:]),
        duration=durations,
        loop=0,
        optimize=False,
    )
    return out.getvalue()


def _same_size(frames: Sequence[Image.Image]) -> list[Image.Image]:
    """``frames`` padded at the bottom and right to the largest one's size, with the colour of
    their own bottom-left pixel. A GIF takes its size from the first frame and cuts every
    later one to it: a Dragon arena grows taller when its last move needs more lines, and its
    final frame lost the result box at its bottom."""
    w = max(frame.width for frame in frames)
    h = max(frame.height for frame in frames)
    padded: list[Image.Image] = []
    for frame in frames:
        if frame.size == (w, h):
            padded.append(frame)
            continue
        edge = frame.getpixel((0, frame.height - 1))
        out = Image.new(frame.mode, (w, h), edge)
        palette = frame.getpalette()
        if palette is not None:
            out.putpalette(palette)
        out.paste(frame, (0, 0))
        padded.append(out)
    return padded


def gif_within(
    frames: Sequence[Image.Image], limit: int = UPLOAD_LIMIT, frame_ms: int = 700
) -> tuple[bytes, int]:
    """``frames`` as a GIF of at most ``limit`` bytes, and how many of them it shows: while it
    is heavier, every other frame goes (the first and the last stay), each kept frame shown
    the longer."""
    kept = list(frames)
    while True:
        gif = frames_gif(kept, frame_ms)
        if len(gif) <= limit or len(kept) <= 2:
            return gif, len(kept)
        kept = [*kept[:-1:2], kept[-1]]
        frame_ms = min(frame_ms * 2, 1400)


def replay_gif(pngs: Sequence[bytes], frame_ms: int = 700, last_ms: int = 4000) -> bytes:
    """The frames (PNG bytes, in order) as a looping GIF, scaled to a phone-friendly width."""
    return frames_gif([shrink(png) for png in pngs], frame_ms, last_ms)


def replay_from_views(table_png: Callable[[Any], bytes], views: Sequence[Any]) -> bytes:
    """Draw the kept public views with a game's table renderer and animate them."""
    chosen = [views[i] for i in pick_frames(len(views))]
    return replay_gif([table_png(view) for view in chosen])

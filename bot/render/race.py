"""1000 Mile Race images: the public table and a seat's hand.

Both functions take an engine *view* and return PNG bytes; the same view always gives the same
pixels. The table is posted after every move, so it is built from cached pieces (background,
card faces, text runs) and encoded with the shared fast encoder.

Table, top to bottom: a title bar (turn number and who is to act), Red's side, the road (the
cards waiting for an answer and the last move, or the result), Blue's side. Each side shows the
player's miles (total, bar to 1000 and the cards by value), the hazards targeting them, their
trumps in play, their library and junkyard, and their hand size as card backs.

Card colours follow the rule book's text colours: miles white, hazards red, removals green,
trumps yellow, cheats blue.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.race.cards import (
    CHEAT,
    HAZARD,
    MILES,
    MILES_CARDS,
    NAME,
    REMOVAL,
    SPEED_TRAP,
    STOPPING_HAZARDS,
    TRUMP,
    TYPE_OF,
    card_name,
)
from bot.engine.race.views import RacePublicView, RaceSeatView, SideView
from bot.engine.words import plural
from bot.render.common import (
    READABLE,
    RGB,
    Canvas,
    Font,
    Palette,
    after_title,
    card_radius,
    dashed_rounded,
    ellipsize,
    felt,
    fit_font,
    fit_name_lines,
    fit_wrapped,
    font,
    hand_header,
    header_name,
    mat,
    mileage_bar,
    mileage_track,
    result_banner_height,
    road,
    text_width,
    title_bar,
    to_png,
    vertical_gradient,
    washed_out,
    wrap,
)

TABLE_SIZE = (1200, 860)
HAND_IMAGE_SIZE = (1200, 480)

_W, _H = TABLE_SIZE
_MARGIN = 16
_TOP_BAR = 56
_PANEL_H = 300
_ROAD_H = 156
_GAP = 8
_SIDE_Y = (_TOP_BAR + _GAP, _TOP_BAR + 3 * _GAP + _PANEL_H + _ROAD_H)
_ROAD_Y = _TOP_BAR + 2 * _GAP + _PANEL_H
_BOX_H = _ROAD_H - 38  # the last move's box in a road of ``_ROAD_H``: 18 px above, 20 below
_MINI = (64, 90)  # miles on the table
_PILE = (64, 90)  # the library
_TILE = (120, 98)  # the junkyard's top card and the cards waiting on the road
_STRIP_H = 29  # a hazard's or trump's line in its column
_STRIP_GAP = 3
_BACK_MINI = (24, 34)
_HAND_CARD = (140, 196)

# Columns inside a side, relative to the panel's left edge.
_MILES_X = 20
_MILES_STEP = 92
_HAZ_X = _MILES_X + 5 * _MILES_STEP + 16
_HAZ_W = 236
_TRUMP_X = _HAZ_X + _HAZ_W + 14
_TRUMP_W = 196
_PILES_X = _TRUMP_X + _TRUMP_W + 18
_PILES_R = _W - 2 * _MARGIN - 12  # the junkyard's right edge, and its title's
_JUNK_X = _PILES_R - _TILE[0]  # the junkyard's top card, right of the library
_LABEL_DY = 58
_ROW_DY = 86
_BAR_DY = 252
_BAR_RIGHT = _W - _MARGIN - 226

TYPE_COLOURS: dict[str, RGB] = {
    MILES: (244, 244, 240),
    HAZARD: (190, 40, 36),
    REMOVAL: (74, 190, 96),
    TRUMP: (246, 200, 58),
    CHEAT: (86, 156, 255),
}
DECK_COLOURS: tuple[RGB, RGB] = ((198, 52, 52), (46, 104, 200))
_CARD_BODY: RGB = (34, 37, 44)
_DARK_BAND_INK: RGB = (24, 24, 28)
_LIGHT_BAND_INK: RGB = (250, 248, 240)


def _name_ink(kind: str) -> RGB:
    """The colour a card's symbol and name are drawn in on its dark body: its type's colour,
    as printed, but a hazard's in the lighter Palette.RED_INK: the band's dark red is
    under 2:1 on the body to a protanope, and "Out of Gas" is how they tell the card."""
    return Palette.RED_INK if kind == HAZARD else TYPE_COLOURS[kind]


def _band_ink(kind: str) -> RGB:
    """The colour of the word on a card's type band: dark on the light bands, light on a
    hazard's dark red. A dark word on a bright red band read 3.3:1 to a protanope, who sees
    red darker; a bright red band with a light word was under 4.5:1 to normal sight; and a
    lighter red (pink) would look like the removal's green to a protanope or deuteranope."""
    return _LIGHT_BAND_INK if kind == HAZARD else _DARK_BAND_INK


_GREY_CHIP: RGB = (70, 76, 86)
_SLOT: RGB = (110, 150, 132)
_PLAYABLE: RGB = (120, 230, 140)


# --- card faces ----------------------------------------------------------------------------


@lru_cache(maxsize=256)
def card_face(code: str, w: int, h: int) -> Image.Image:
    """An RGBA card face: dark body, a band in the type's colour, the name (or the miles)."""
    kind = TYPE_OF[code]
    colour = TYPE_COLOURS[kind]
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = card_radius(w)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=colour, outline=(20, 20, 22))
    m = max(2, round(w * 0.05))
    band = max(12, round(h * 0.17))
    body = (m, band, w - 1 - m, h - 1 - m)
    d.rounded_rectangle(body, radius=max(2, radius - m), fill=_CARD_BODY)
    cx = w / 2
    bw, bh = body[2] - body[0], body[3] - body[1]
    cy = body[1] + bh / 2
    small = w < 100  # a table's miles: the column's title says "MILES", the number the rest
    if kind == MILES and small:
        fnt = fit_font(code, bw - 6, round(min(bh * 0.6, bw * 0.7)), "bold")
        d.text((cx, cy), code, font=fnt, fill=colour, anchor="mm")
        return img
    label = kind.upper()
    label_font = fit_font(label, w - 2 * m - 4, max(8, round(band * 0.62)), "cond", min_size=7)
    d.text((w / 2, band / 2 + 1), label, font=label_font, fill=_band_ink(kind), anchor="mm")
    if kind == MILES:
        number = code
        size = round(min(bh * 0.5, bw * (0.62 if len(number) < 3 else 0.46)))
        fnt = fit_font(number, bw - 6, size, "bold")
        d.text((cx, cy - bh * 0.08), number, font=fnt, fill=colour, anchor="mm")
        unit = fit_font("MILES", bw - 8, max(8, round(bh * 0.14)), "bold", min_size=7)
        d.text((cx, body[3] - bh * 0.16), "MILES", font=unit, fill=(180, 182, 188), anchor="mm")
        return img
    ink = _name_ink(kind)
    _glyph(d, kind, cx, body[1] + bh * 0.3, min(bw, bh) * 0.34, ink)
    size = max(9, round(w * 0.17))
    fnt, lines = fit_wrapped(NAME[code], bw - 6, 2, size, "bold", min_size=7)
    if "-" in NAME[code] and any(line.endswith("…") for line in lines):
        fnt, lines = fit_wrapped(NAME[code].replace("-", "- "), bw - 6, 2, size, "bold", 7)
    step = int(getattr(fnt, "size", 10)) + 2
    top = body[1] + bh * 0.68 - step * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        d.text((cx, top + i * step), line, font=fnt, fill=ink, anchor="mm")
    return img


def _glyph(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, s: float, colour: RGB) -> None:
    """A small symbol per type: a warning triangle, a cross, a star, a diamond."""
    lw = max(1, round(s * 0.12))
    if kind == HAZARD:
        pts = [(cx, cy - s * 0.55), (cx + s * 0.6, cy + s * 0.45), (cx - s * 0.6, cy + s * 0.45)]
        d.polygon(pts, outline=colour, width=lw)
        d.line((cx, cy - s * 0.18, cx, cy + s * 0.14), fill=colour, width=lw)
        d.ellipse((cx - lw, cy + s * 0.24, cx + lw, cy + s * 0.24 + 2 * lw), fill=colour)
    elif kind == REMOVAL:
        k = s * 0.45
        d.line((cx - k, cy, cx + k, cy), fill=colour, width=2 * lw)
        d.line((cx, cy - k, cx, cy + k), fill=colour, width=2 * lw)
    elif kind == TRUMP:
        pts = []
        for i in range(10):
            r = s * (0.55 if i % 2 == 0 else 0.23)
            a = math.radians(i * 36 - 90)
            pts.append((cx + math.cos(a) * r, cy + math.sin(a) * r))
        d.polygon(pts, fill=colour)
    else:
        k = s * 0.5
        d.polygon([(cx, cy - k), (cx + k * 0.7, cy), (cx, cy + k), (cx - k * 0.7, cy)], fill=colour)


def _name_lines(code: str, room: int) -> tuple[Font, tuple[str, ...]]:
    """A card's name on up to two lines of ``room`` px at ``READABLE`` (condensed), a
    hyphenated name broken after its hyphen ("Puncture- / Proof")."""
    name = NAME[code]
    fnt, lines = fit_wrapped(name, room, 2, READABLE, "cond")
    if "-" in name and getattr(fnt, "size", 0) < READABLE:
        fnt, lines = fit_wrapped(name.replace("-", "- "), room, 2, READABLE, "cond")
    return fnt, tuple(line.replace("- ", "-") for line in lines)


@lru_cache(maxsize=128)
def card_tile(code: str, w: int = _TILE[0], h: int = _TILE[1]) -> Image.Image:
    """A card on the table as its words, at ``READABLE``: its type band's word ("REMOVAL")
    and its name under it, on one or two lines. On a face 70 px wide the band's word was
    9 px and the name 11, 5 or 6 on a phone."""
    kind = TYPE_OF[code]
    colour = TYPE_COLOURS[kind]
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = card_radius(w // 2)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=colour, outline=(20, 20, 22))
    m = 4
    band = 28
    d.rounded_rectangle((m, band, w - 1 - m, h - 1 - m), radius=max(2, radius - m), fill=_CARD_BODY)
    label = font(READABLE, "cond")
    d.text((w / 2, band / 2 + 1), kind.upper(), font=label, fill=_band_ink(kind), anchor="mm")
    fnt, lines = _name_lines(code, w - 2 * m - 6)
    step = READABLE + 3
    mid = (band + h - 1 - m) / 2
    for i, line in enumerate(lines):
        y = mid + (i - (len(lines) - 1) / 2) * step
        d.text((w / 2, y), line, font=fnt, fill=_name_ink(kind), anchor="mm")
    return img


@lru_cache(maxsize=128)
def card_strip(code: str, w: int, count: int) -> Image.Image:
    """A hazard or trump in play as one line of its column, at ``READABLE``: its type's
    symbol on a block of its colour, its name, and "×2" for a repeat. Fanned as cards 64 px
    wide, the names were 11 px and the later cards hid the earlier ones' names."""
    kind = TYPE_OF[code]
    colour = TYPE_COLOURS[kind]
    h = _STRIP_H
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=7, fill=_CARD_BODY, outline=colour, width=2)
    d.rounded_rectangle((0, 0, h, h - 1), radius=7, fill=colour, corners=(True, False, False, True))
    _glyph(d, kind, h / 2, h / 2 + 1, h * 0.62, _band_ink(kind))
    chip = font(READABLE, "bold")
    right = w - 8
    if count > 1:
        text = f"×{count}"
        d.text((right, h / 2), text, font=chip, fill=Palette.INK, anchor="rm")
        right -= text_width(text, chip) + 8
    name = font(READABLE, "cond")
    shown = ellipsize(NAME[code], name, right - (h + 6))
    d.text((h + 6, h / 2), shown, font=name, fill=_name_ink(kind), anchor="lm")
    return img


@lru_cache(maxsize=32)
def card_back(seat: int, w: int, h: int) -> Image.Image:
    """The back of a Red or Blue deck card: the deck colour with a cream "1000" on a plate."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = card_radius(w)
    colour = DECK_COLOURS[seat % 2]
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=(240, 236, 226))
    m = max(2, round(w * 0.08))
    d.rounded_rectangle((m, m, w - 1 - m, h - 1 - m), radius=max(2, radius - m), fill=colour)
    dark = (max(0, colour[0] - 40), max(0, colour[1] - 40), max(0, colour[2] - 40))
    step = max(5, w // 5)
    for k in range(m - h, w, step):
        d.line((k, h - m, k + h, m), fill=dark, width=1)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, outline=(240, 236, 226), width=m)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, outline=(20, 20, 22))
    if w >= 40:
        fnt = fit_font("1000", w - 2 * m - 2, max(READABLE, round(h * 0.2)), "cond")
        # On a plate a shade darker than the deck: the cream "1000" on the red deck itself
        # was 4.25:1 to a protanope (under WCAG's 4.5), on the blue 4.45:1.
        plate = _back_plate(colour)
        half = round(getattr(fnt, "size", 12) * 0.75)
        d.rectangle((m, h / 2 - half, w - 1 - m, h / 2 + half), fill=plate)
        d.text((w / 2, h / 2), "1000", font=fnt, fill=_BACK_INK, anchor="mm")
    return img


_BACK_INK: RGB = (250, 248, 240)


def _back_plate(colour: RGB) -> RGB:
    """The plate under a card back's "1000": the deck's colour 20 darker."""
    r, g, b = (max(0, v - 20) for v in colour)
    return (r, g, b)


@lru_cache(maxsize=64)
def _empty_slot(title: str, w: int, h: int) -> Image.Image:
    """A dashed card outline with a word inside, 2 px larger each side, at ``READABLE``: the
    miles' figures (15 px before), and "none" or "spent" where the column's title or the
    count under a pile says the rest ("no hazards" was 13 px, "none in play" 15, "empty" 18,
    too wide for a card 64 px wide): a word may come 3 px from the outline."""
    img = Image.new("RGBA", (w + 4, h + 4), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    dashed_rounded(d, (2, 2, w + 1, h + 1), _SLOT, dash=8, gap=6, radius=card_radius(w))
    fnt, lines = fit_wrapped(title, w - 6, 2, READABLE, "cond", min_size=9)
    step = int(getattr(fnt, "size", READABLE)) + 2
    for i, line in enumerate(lines):
        y = (h + 4) / 2 + (i - (len(lines) - 1) / 2) * step
        d.text(((w + 4) / 2, y), line, font=fnt, fill=_SLOT, anchor="mm")
    return img


# --- table ---------------------------------------------------------------------------------


def table_size(view: RacePublicView) -> tuple[int, int]:
    """The size of ``view``'s table image: ``TABLE_SIZE``, taller by what its road grows."""
    return _W, _H + _road_extra(view)


def _box_x(view: RacePublicView) -> int:
    """Where the last move's box starts: right of the cards waiting for an answer."""
    x = _MARGIN + 20
    if view.stack:
        x += min(len(view.stack), 5) * (_TILE[0] + 26) + 10
    return x + 10


@lru_cache(maxsize=64)
def _caption_lines(caption: str, width: int) -> int:
    """How many lines the last move takes at the readable size in a box ``width`` wide."""
    return len(wrap(caption or "—", font(READABLE, "bold"), width - 36))


def _road_extra(view: RacePublicView) -> int:
    """What the road grows so the last move, or the result, is written whole at ``READABLE``
    px or more: in a box of fixed size they shrank to 14 px and 12 px."""
    width = _W - _MARGIN - 4 - _box_x(view)
    if view.winners is not None:
        need = result_banner_height(width, _winner_line(view), _result_detail(view))
    else:
        need = 36 + max(3, _caption_lines(view.caption, width)) * (READABLE + 6)
    return max(0, need - _BOX_H)


def _result_detail(view: RacePublicView) -> str:
    return view.end_reason or view.caption


def render_table(view: RacePublicView) -> Image.Image:
    """The whole table as everyone sees it."""
    extra = _road_extra(view)
    canvas = Canvas(_table_background(extra).copy())
    _draw_top_bar(canvas, view)
    for side in view.sides[:2]:
        y = _SIDE_Y[side.seat % 2] + (extra if side.seat % 2 else 0)
        _draw_side(canvas, view, side, y)
    _draw_road(canvas, view, extra)
    return canvas.image


def table_png(view: RacePublicView) -> bytes:
    """``render_table`` encoded as PNG bytes."""
    return to_png(render_table(view))


@lru_cache(maxsize=4)
def _table_background(extra: int = 0) -> Image.Image:
    """The felt, title bar, road, mats and column titles of a table whose road is ``extra``
    px taller (cached: the renderer draws on a copy)."""
    img = vertical_gradient(_W, _H + extra, Palette.FELT_TOP, Palette.FELT_BOTTOM)
    c = Canvas(img)
    d = c.draw
    title_bar(c, _W, _TOP_BAR, "1000 MILE RACE", _MARGIN + 4)
    road(c, _ROAD_Y, _ROAD_H + extra, _W)
    label = font(READABLE, "bold")
    piles = font(READABLE, "cond")  # two titles over two narrow piles
    for seat, y in enumerate((_SIDE_Y[0], _SIDE_Y[1] + extra)):
        x0 = _MARGIN
        mat(c, (x0, y, _W - _MARGIN, y + _PANEL_H))
        # A stripe in the deck's colour down the left edge says whose side this is.
        c.rounded((x0 + 4, y + 14, x0 + 10, y + _PANEL_H - 14), 3, fill=DECK_COLOURS[seat])
        ly = y + _LABEL_DY
        c.text((x0 + _MILES_X, ly), "MILES IN PLAY", label, Palette.MUTED)
        c.text((x0 + _HAZ_X, ly), "HAZARDS ON THEM", label, Palette.MUTED)
        c.text((x0 + _TRUMP_X, ly), "TRUMPS", label, Palette.MUTED)
        c.text((x0 + _PILES_X, ly), "LIBRARY", piles, Palette.MUTED)
        c.text((x0 + _PILES_R, ly), "JUNKYARD", piles, Palette.MUTED, anchor="ra")
        for sep in (_HAZ_X, _TRUMP_X, _PILES_X):
            sx = x0 + sep - 10
            d.line((sx, y + 66, sx, y + 236), fill=Palette.MAT_EDGE, width=2)
        by = y + _BAR_DY
        mileage_track(c, (x0 + 20, by, _BAR_RIGHT, by + 30))
    return img


def _acting_line(view: RacePublicView, short: Callable[[str], str] = str) -> str:
    """Who acts now, each name passed through ``short`` (to cut a long one, not the line)."""
    names = [short(name) for name in view.players]
    if view.winners is not None:
        return "Game over"
    if view.phase == "react" and view.reactor is not None:
        answer = NAME.get(view.answer or "", "a reaction")
        return f"Waiting for {names[view.reactor]}: {answer}?"
    if view.phase == "discard":
        return f"{names[view.turn]} discards down to {view.hand_limit}"
    return f"{names[view.turn]} to play"


def _draw_top_bar(c: Canvas, view: RacePublicView) -> None:
    cy = _TOP_BAR // 2
    x = after_title("1000 MILE RACE", _MARGIN + 4)
    small = font(READABLE, "bold")
    x += c.pill(x, cy - 15, f"Turn {view.turn_number}", small, _GREY_CHIP) + 10
    room = _W - _MARGIN - x - 30
    line = _acting_line(view)
    if text_width(line, small) > room:
        # Cut the names, not the line: shrunk to fit, a 32-letter name's "… to play" was
        # 16 px; cut at its end, it would lose "to play".
        rest = text_width(_acting_line(view, lambda _: ""), small)
        line = _acting_line(view, lambda name: ellipsize(name, small, max(60, room - rest)))
    gold = view.winners is None
    c.pill(
        x,
        cy - 15,
        ellipsize(line, small, room),
        small,
        Palette.GOLD if gold else _GREY_CHIP,
        ink=Palette.DARK_INK if gold else Palette.INK,
    )


def _draw_side(c: Canvas, view: RacePublicView, side: SideView, y: int) -> None:
    x0 = _MARGIN
    acting = view.winners is None and (
        view.reactor == side.seat if view.phase == "react" else view.turn == side.seat
    )
    won = view.winners is not None and side.seat in view.winners
    if acting or won:
        c.rounded((x0, y, _W - _MARGIN, y + _PANEL_H), 18, outline=Palette.GOLD, width=4)
    _draw_header(c, view, side, y, acting, won)
    row = y + _ROW_DY
    _draw_miles(c, side, x0 + _MILES_X, row)
    _draw_fan(c, side.hazards, x0 + _HAZ_X, row, _HAZ_W - 8, "none")
    _draw_fan(c, side.trumps, x0 + _TRUMP_X, row, _TRUMP_W + 4, "none")  # "Puncture-Proof"
    _draw_piles(c, side, x0 + _PILES_X, row)
    _draw_progress(c, view, side, y + _BAR_DY)


def _draw_header(
    c: Canvas, view: RacePublicView, side: SideView, y: int, acting: bool, won: bool
) -> None:
    cy = y + 32
    right = _W - _MARGIN - 20
    count_font = font(READABLE, "bold")
    # "8 cards" beside the hand's backs, as on the Mille Bornes table: "in hand" took the
    # room a third chip needs at the readable size.
    count = plural(side.hand_count, "card")
    c.text((right, cy), count, count_font, Palette.MUTED, anchor="rm")
    right -= text_width(count, count_font) + 10
    back = card_back(side.seat, *_BACK_MINI)
    limit = c.backs_left_of(back, right, cy, min(side.hand_count, 10), 12) - 16

    chip = font(READABLE, "bold")
    pills: list[tuple[str, RGB, RGB]] = []
    if won:
        pills.append(("★ WINNER", Palette.GOLD, Palette.DARK_INK))
    elif acting:
        word = {"react": "MAY REACT", "discard": "DISCARDING"}.get(view.phase, "TO PLAY")
        pills.append((f"▶ {word}", Palette.GOLD, Palette.DARK_INK))
    pills += [(text, fill, Palette.INK) for text, fill in _status_chips(side)]
    x = _MARGIN + 22
    pills_w = sum(text_width(t, chip) + 24 + 8 for t, _, _ in pills)
    # The name keeps at least 200 px (220 left a long name's third chip, "Speed Trap: 25/50",
    # out at the readable size); chips that no longer fit are left out.
    room = max(200, min(420, limit - x - 26 - 12 - pills_w))
    c.draw.ellipse(
        (x, cy - 9, x + 18, cy + 9), fill=DECK_COLOURS[side.seat % 2], outline=Palette.INK, width=2
    )
    x += 26
    # Shrunk towards the readable size, then on two lines, before it is cut: beside three
    # chips "Computer (normal)" lost its level at 28 px, and at 20 px needs 216 px.
    x += header_name(c, x, cy, fit_name_lines(side.name, room, 28, "bold", READABLE)) + 12
    for text, fill, ink in pills:
        if x + text_width(text, chip) + 24 > limit:
            break
        x += c.pill(x, cy - 15, text, chip, fill, ink=ink, height=30) + 8


def _status_chips(side: SideView) -> list[tuple[str, RGB]]:
    stops = [h for h in side.hazards if h in STOPPING_HAZARDS]
    chips: list[tuple[str, RGB]] = []
    if len(set(stops)) == 1:
        chips.append((f"Stopped · {NAME[stops[0]]}", Palette.RED))
    elif stops:
        # Cards, not kinds: two Accidents and a Red Light read "2 hazards" beside a column
        # showing "Accident ×2" and "Red Light" (each card needs clearing).
        chips.append((f"Stopped · {len(stops)} hazards", Palette.RED))
    else:
        chips.append(("Moving", Palette.GREEN))
    if SPEED_TRAP in side.hazards:
        chips.append(("Speed Trap: 25/50", Palette.AMBER))
    return chips


def _draw_miles(c: Canvas, side: SideView, x: int, y: int) -> None:
    w, h = _MINI
    for i, code in enumerate(MILES_CARDS):
        gx = x + i * _MILES_STEP
        count = side.miles.count(code)
        if not count:
            c.paste(_empty_slot(code, w, h), gx - 2, y - 2, with_shadow=False)
            continue
        c.stack(card_face(code, w, h), gx, y + 6, min(count, 4), 4, -3)
        text = f"×{count}"
        chip = font(READABLE, "bold")
        cw = text_width(text, chip) + 18
        cx = gx + (w - cw) // 2 + 2
        c.rounded(
            (cx, y + h + 14, cx + cw, y + h + 40), 13, fill=(28, 95, 184), outline=Palette.INK
        )
        c.text((cx + cw / 2, y + h + 27), text, chip, Palette.INK, anchor="mm")


def _draw_fan(c: Canvas, cards: tuple[str, ...], x: int, y: int, width: int, empty: str) -> None:
    """One line ``width`` px wide per kind, its name and a "×n" for repeats, one under the
    other (five kinds at most: a deck's five hazards, its four trumps); a dashed slot when
    there are none."""
    if not cards:
        c.paste(_empty_slot(empty, *_MINI), x - 2, y - 2, with_shadow=False)
        return
    for i, code in enumerate(dict.fromkeys(cards)):
        strip = card_strip(code, width, cards.count(code))
        c.paste(strip, x, y + i * (_STRIP_H + _STRIP_GAP), with_shadow=False)


def _draw_piles(c: Canvas, side: SideView, x: int, y: int) -> None:
    w, h = _PILE
    label = font(READABLE, "bold")
    if side.library_count:
        layers = 1 + min(2, (side.library_count - 1) // 20)
        c.stack(card_back(side.seat, w, h), x, y, layers, 3, -2)
    else:
        c.paste(_empty_slot("spent" if side.reshuffled else "none", w, h), x - 2, y - 2, False)
    lib = f"{side.library_count}"
    if side.reshuffled:
        lib += " ↻"
    count_y = y + _TILE[1] + 22  # both counts on one line, under the taller junkyard card
    c.text((x + w / 2, count_y), lib, label, Palette.INK, anchor="mm", drop=2)
    jx = _MARGIN + _JUNK_X
    tw, th = _TILE
    if side.junkyard:
        c.paste(card_tile(side.junkyard[-1]), jx, y)
    else:
        c.paste(_empty_slot("none", tw, th), jx - 2, y - 2, with_shadow=False)
    c.text((jx + tw / 2, count_y), str(len(side.junkyard)), label, Palette.INK, "mm", drop=2)


def _draw_progress(c: Canvas, view: RacePublicView, side: SideView, y: int) -> None:
    box = (_MARGIN + 20, y, _BAR_RIGHT, y + 30)
    colour = DECK_COLOURS[side.seat % 2]
    mileage_bar(c, box, side.total, view.target, colour, _W - _MARGIN - 20, number_size=28)


def _draw_road(c: Canvas, view: RacePublicView, extra: int) -> None:
    """The strip between the sides, ``extra`` px taller than ``_ROAD_H``: the cards waiting
    for an answer, and the last move."""
    y = _ROAD_Y
    x = _MARGIN + 20
    w, h = _TILE
    top = y + (_ROAD_H + extra - h) // 2
    if view.stack:
        # The cards waiting for an answer, bottom first, framed in their owner's colour.
        for i, entry in enumerate(view.stack[-5:]):
            cx = x + i * (w + 26)
            colour = DECK_COLOURS[entry.seat % 2]
            c.rounded((cx - 4, top - 4, cx + w + 4, top + h + 4), 10, fill=colour)
            c.paste(card_tile(entry.card), cx, top)
            if i:
                c.text((cx - 13, top + h / 2), "◀", font(READABLE, "bold"), Palette.INK, "mm")
        x += min(len(view.stack), 5) * (w + 26) + 10
    box = (_box_x(view), y + 18, _W - _MARGIN - 4, y + 18 + _BOX_H + extra)
    if view.winners is not None:
        c.result_banner(box, _winner_line(view), _result_detail(view))
    else:
        # As many lines at the readable size as the caption needs, the road growing past
        # three (a long one shrank to 14 px).
        lines = _caption_lines(view.caption, box[2] - box[0])
        size = 24 if lines <= 3 else READABLE  # bigger lines would not fit the grown box
        c.caption_banner(box, view.caption, size=size, max_lines=max(3, lines), min_size=READABLE)


def _winner_line(view: RacePublicView) -> str:
    names = [view.players[s] for s in view.winners or () if s < len(view.players)]
    if not names:
        return "It's a draw!"
    return f"{' & '.join(names)} wins the race!"


# --- hand ----------------------------------------------------------------------------------


def render_hand(view: RaceSeatView) -> Image.Image:
    """The owner's cards in a row, numbered, with what each can do now underneath."""
    w, _ = HAND_IMAGE_SIZE
    c = Canvas(felt(*HAND_IMAGE_SIZE).copy())
    pub = view.public
    chips: list[tuple[str, RGB]] = []
    if view.seat < len(pub.sides):
        me = pub.sides[view.seat]
        chips = [(f"{me.total} / {pub.target} mi", _GREY_CHIP), *_status_chips(me)]
    hand_header(c, w, phase_line(view), chips, min_size=15)

    choosing = view.phase in ("play", "react", "discard")
    n = len(view.hand)
    cw, ch = _HAND_CARD
    gap = 14
    if n * cw + (n - 1) * gap > w - 60:
        gap = 8
        cw = (w - 60 - (n - 1) * gap) // max(1, n)
        ch = round(cw * 1.4)
    x = (w - (n * cw + max(0, n - 1) * gap)) // 2
    y = 74
    if not view.hand:
        c.text((w / 2, y + ch / 2), "No cards in hand", font(26, "bold"), Palette.MUTED, "mm")
    for i, card in enumerate(view.hand):
        tag = _hand_tag(view, card) if choosing else ""
        if tag:
            c.rounded((x - 5, y - 5, x + cw + 5, y + ch + 5), card_radius(cw) + 4, fill=_PLAYABLE)
        face = card_face(card, cw, ch) if tag or not choosing else _dimmed(card, cw, ch)
        c.paste(face, x, y, with_shadow=not tag)
        ly = y + ch + 26
        r = 17
        c.draw.ellipse((x + cw // 2 - r, ly - r, x + cw // 2 + r, ly + r), fill=Palette.INK)
        c.text((x + cw / 2, ly + 1), str(i + 1), font(READABLE, "bold"), Palette.DARK_INK, "mm")
        if tag:
            tag_font = fit_font(tag, cw + gap - 4, READABLE, "cond", min_size=9)
            c.text((x + cw / 2, ly + 34), tag, tag_font, _PLAYABLE, anchor="mm")
        x += cw + gap
    _draw_junkyards(c, pub, w)
    return c.image


def junkyard_summary(side: SideView) -> str:
    """What a junkyard holds, cheats and trumps first (they are spent for good), then the
    rest, with counts: the face-up junkyards everyone may look through (the rules)."""
    counts = Counter(side.junkyard)
    order = sorted(counts, key=lambda code: (_JUNK_ORDER.get(TYPE_OF[code], 9), _rank(code)))
    listed = [
        f"{card_name(code)}{f' ×{counts[code]}' if counts[code] > 1 else ''}" for code in order
    ]
    return ", ".join(listed) if listed else "empty"


_JUNK_ORDER = {CHEAT: 0, TRUMP: 1, REMOVAL: 2, HAZARD: 3, MILES: 4}


def _rank(code: str) -> tuple[int, str]:
    """Miles by their value (25 before 100), every other card by its code."""
    return (int(code), "") if code.isdecimal() else (0, code)


def _draw_junkyards(c: Canvas, view: RacePublicView, w: int) -> None:
    """Two lines per junkyard under the hand (the table shows only their top cards), at the
    readable size: on one line of 16 px each, they were small on a phone and cut sooner."""
    label = font(READABLE, "bold")
    body = font(READABLE, "regular")
    for i, side in enumerate(view.sides):
        y = _JUNK_Y + i * 2 * _JUNK_STEP
        # "Junkyard of X", not "X's junkyard": a seat such as "Computer (normal)" takes no "'s".
        # A long name is cut, never the count after it ("…, 2 car…" read as nothing).
        tail = f", {plural(len(side.junkyard), 'card')}: "
        room = 420 - text_width("Junkyard of " + tail, label)
        head = f"Junkyard of {ellipsize(side.name, label, room)}{tail}"
        c.text((30, y), head, label, Palette.MUTED, "lm")
        x = 30 + text_width(head, label) + 4
        first, rest = _split_line(junkyard_summary(side), body, w - 30 - x)
        c.text((x, y), ellipsize(first, body, w - 30 - x), body, Palette.INK, "lm")
        if rest:
            c.text((30, y + _JUNK_STEP), ellipsize(rest, body, w - 60), body, Palette.INK, "lm")


_JUNK_Y = 368  # the first junkyard line's middle on the hand image
_JUNK_STEP = 28  # between its lines


def _split_line(text: str, fnt: Font, room: int) -> tuple[str, str]:
    """The words of ``text`` that fit ``room`` on a line (one at least), and the rest."""
    words = text.split(" ")
    for n in range(len(words), 0, -1):
        head = " ".join(words[:n])
        if text_width(head, fnt) <= room or n == 1:
            return head, " ".join(words[n:])
    return "", text


def hand_png(view: RaceSeatView) -> bytes:
    """``render_hand`` encoded as PNG bytes (for the owner's ephemeral message)."""
    return to_png(render_hand(view))


def _hand_tag(view: RaceSeatView, card: str) -> str:
    """What ``card`` can do now ('' if nothing but a cycle)."""
    for text in view.legal:
        words = text.split()
        if len(words) >= 2 and words[1] == card and words[0] != "cycle":
            return {"play": "PLAY", "react": "REACT!", "discard": "DISCARD"}.get(words[0], "")
    return ""


@lru_cache(maxsize=256)
def _dimmed(card: str, w: int, h: int) -> Image.Image:
    return washed_out(card_face(card, w, h))


def phase_line(view: RaceSeatView) -> str:
    """The hand image's top line: what the seat is to do now (its alt text says it too)."""
    pub = view.public
    if view.phase == "play":
        if any(text.startswith("cycle") for text in view.legal):
            return "Your turn — play, cycle or end"
        return "Your turn — play more or end"
    if view.phase == "react" and pub.stack:
        top = pub.stack[-1]
        return f"React to the {NAME[top.card]} {pub.players[top.seat]} played? (or pass)"
    if view.phase == "discard":
        return f"Too many cards: discard down to {pub.hand_limit}"
    if view.phase == "over" or pub.winners is not None:
        return "The race is over"
    if pub.phase == "react" and pub.reactor is not None:
        return f"Waiting for {pub.players[pub.reactor]} to react"
    return f"Waiting for {pub.players[pub.turn]}"

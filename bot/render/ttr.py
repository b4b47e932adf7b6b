"""Ticket to Ride card game images: the public table, a seat's hand and tickets, the final scoring.

Every function takes an engine *view* and returns PNG bytes (or a Pillow image); the same view
always gives the same pixels. On-the-Track stacks are drawn as face-down stacks with their size
only, tickets of other players as a count, and decks as card backs with their size.

Layout of the table, top to bottom: the title bar (which deck, the final round, the solo turn),
the draw area (five face-up cards — in solo four and the Station Clock card — the train deck,
the discard pile and the ticket deck), one panel per player (hand size, tickets, the Railyard's
colour sets, the On-the-Track stack) in a two-column grid, and the last move or the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.engine.ttr.cards import (
    CARD_CODES,
    CARD_NAMES,
    CITIES,
    CITY_BONUS,
    COLOURS,
    TICKETS,
    Ticket,
)
from bot.engine.ttr.views import (
    FinalScore,
    SeatScore,
    SeatView,
    TtrPublicView,
    TtrSeatView,
    YardSet,
)
from bot.engine.words import plural
from bot.render.common import (
    READABLE,
    RGB,
    Box,
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
    font,
    result_banner_height,
    text_width,
    title_bar,
    to_png,
    vertical_gradient,
    wrap,
)

TABLE_WIDTH = 1200
HAND_WIDTH = 1200
RESULT_WIDTH = 1200

# Card colours: the face, and the ink that reads on it.
_FACE: dict[str, RGB] = {
    "red": (206, 48, 44),
    "orange": (238, 136, 28),
    "yellow": (244, 204, 46),
    "green": (72, 176, 86),
    "blue": (46, 106, 206),
    "purple": (146, 76, 186),
    "black": (44, 44, 50),
    "white": (236, 236, 228),
    "loco": (120, 120, 120),
}
# Dark ink on the light faces. Green has it too, on a lighter green than it had: white on
# (58, 156, 72) was 3.2:1, the faintest letter on any chip, and a red-green colour-blind player
# reads a green chip by its letter alone; the lighter green also stands further from red.
_INK: dict[str, RGB] = {
    "yellow": (40, 36, 20),
    "white": (40, 40, 44),
    "orange": (40, 30, 10),
    "green": (20, 40, 24),
}
_RAINBOW: tuple[RGB, ...] = tuple(_FACE[c] for c in COLOURS if c not in ("black", "white"))
_SEAT_COLOURS: tuple[RGB, ...] = (
    (160, 120, 240),  # violet
    (255, 255, 140),  # pale yellow
    (120, 255, 220),  # mint
    (240, 120, 140),  # rose
)
"""The seats' dots beside their names: the first four of Dragon's seat colours, so a seat has
one colour in both games. Any two stay 18 or more apart (CIEDE2000) to normal sight and under
protanopia, deuteranopia and tritanopia, and each stands out from the mat at 4.6:1 or more.
Before, the orange seat was alike to the green one for a red-green colour-blind player (5.8
apart to a deuteranope) and to the pink one for a blue-yellow one (7.8 to a tritanope)."""

_M = 16
_TOP_BAR = 56
_AREA_Y = _TOP_BAR + 10
_AREA_H = 206
_CARD = (104, 146)
_PANEL_W = (TABLE_WIDTH - 3 * _M) // 2
_PANEL_H = 272
_CAPTION_H = 96
_MINI = (54, 76)
_CROWDED_MINI = (42, 59)  # a Railyard's cards when the mini ones do not fit (_draw_yard)
_GREY_CHIP: RGB = (62, 68, 76)
_TICK: RGB = (70, 190, 96)
_CROSS: RGB = (226, 72, 64)


def _ink(code: str) -> RGB:
    return _INK.get(code, Palette.INK)


# A colour's letter on every count chip (the Locomotive's "L" too): red, orange and green
# chips look alike to red-green colour-blind players, so the colour is never the only clue.
_LETTER: dict[str, str] = {
    "red": "R",
    "orange": "O",
    "yellow": "Y",
    "green": "G",
    "blue": "Bu",
    "purple": "P",
    "black": "Bk",
    "white": "W",
    "loco": "L",
}


def _chip_runs(code: str, n: int, locos: int) -> list[tuple[str, bool]]:
    """A chip's text as (run, in the number's big face): "3" "R", and "+2" "L" for a
    Railyard set's Locomotives."""
    runs = [(str(n), True), (_LETTER[code], False)]
    return [*runs, (f"+{locos}", True), ("L", False)] if locos else runs


def _chip_fonts(height: int, text: int | None) -> tuple[Font, Font]:
    """A chip's number and letter faces: the number a little bigger than the letter, or both
    at ``text`` px (a Railyard's chips, whose letters are at the readable size)."""
    if text is not None:
        return font(text, "bold"), font(text, "cond")
    return font(height - 9, "bold"), font(height - 12, "cond")


@lru_cache(maxsize=1024)
def _chip_width(code: str, n: int, height: int, locos: int = 0, text: int | None = None) -> int:
    """How wide ``_count_chip`` draws this count (measured once: a final scoring measures
    hundreds of chips, twice each)."""
    number, letter = _chip_fonts(height, text)
    runs = _chip_runs(code, n, locos)
    return sum(text_width(t, number if big else letter) for t, big in runs) + len(runs) + 9


def _count_chip(
    c: Canvas,
    code: str,
    n: int,
    x: int,
    y: int,
    height: int,
    locos: int = 0,
    text: int | None = None,
) -> int:
    """A card count as a chip of its colour, "3" and a smaller colour letter ("3R", "2L";
    "2R+1L" for a set with Locomotives); returns its width."""
    number, letter = _chip_fonts(height, text)
    width = _chip_width(code, n, height, locos, text)
    face = _FACE[code] if code != "loco" else (90, 90, 96)
    ink = _ink(code) if code != "loco" else Palette.INK
    c.rounded((x, y, x + width, y + height), 6, fill=face, outline=(20, 20, 20))
    size = number.size if isinstance(number, ImageFont.FreeTypeFont) else height - 9
    base = y + height / 2 + size * 0.36  # the number's baseline: it sits centred
    tx = x + 5
    for run, big in _chip_runs(code, n, locos):
        fnt = number if big else letter
        c.text((tx, base), run, fnt, ink, anchor="ls")
        tx += text_width(run, fnt) + 1
    return width


# --- card faces -------------------------------------------------------------------------------


def _locomotive(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: RGB) -> None:
    """A small steam locomotive in profile, ``s`` pixels wide, centred on (cx, cy)."""
    u = s / 20
    x0, y0 = cx - 10 * u, cy - 6 * u
    d.rectangle((x0 + 2 * u, y0 + 3 * u, x0 + 13 * u, y0 + 9 * u), fill=colour)  # boiler
    d.rectangle((x0 + 12 * u, y0, x0 + 19 * u, y0 + 9 * u), fill=colour)  # cab
    d.rectangle((x0 + 4 * u, y0, x0 + 6.5 * u, y0 + 3 * u), fill=colour)  # chimney
    d.polygon(
        [(x0, y0 + 9 * u), (x0 + 2 * u, y0 + 6 * u), (x0 + 2 * u, y0 + 9 * u)], fill=colour
    )  # cow catcher
    for wx in (x0 + 5 * u, x0 + 10 * u, x0 + 16 * u):
        d.ellipse((wx - 2.2 * u, y0 + 8 * u, wx + 2.2 * u, y0 + 12.4 * u), fill=colour)


@lru_cache(maxsize=128)
def train_card(code: str, w: int, h: int) -> Image.Image:
    """A train card face: its colour, a locomotive and its name (Locomotives: a rainbow)."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    r = card_radius(w)
    d.rounded_rectangle((0, 0, w - 1, h - 1), r, fill=Palette.CARD_PAPER, outline=Palette.CARD_EDGE)
    inset = max(3, w // 18)
    box = (inset, inset, w - 1 - inset, h - 1 - inset)
    if code == "loco":
        band = (box[3] - box[1]) / len(_RAINBOW)
        mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(mask).rounded_rectangle(box, max(2, r - inset), fill=255)
        stripes = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        sd = ImageDraw.Draw(stripes)
        for i, colour in enumerate(_RAINBOW):
            y = box[1] + i * band
            sd.rectangle((box[0], y, box[2], y + band + 1), fill=colour)
        img.paste(stripes, (0, 0), mask)
        ink: RGB = (255, 255, 255)
    else:
        d.rounded_rectangle(box, max(2, r - inset), fill=_FACE[code])
        ink = _ink(code)
    if code == "white":
        d.rounded_rectangle(box, max(2, r - inset), outline=(150, 150, 140), width=2)
    _locomotive(d, w / 2, h * 0.44, w * 0.62, ink if code != "loco" else (30, 30, 34))
    name = "LOCO" if code == "loco" else code.upper()
    # At READABLE on the market's and the hand's cards (they were 17-18 px); a Railyard's
    # mini cards keep a small label, their chips saying the colour at READABLE.
    size = READABLE if w >= 100 else max(9, w // 6)
    fnt = fit_font(name, w - 2 * inset - 6, size, "cond", 8)
    label_y = h - inset - max(8, h // 9)
    if code == "loco":
        d.text((w / 2 + 1, label_y + 1), name, font=fnt, fill=(0, 0, 0), anchor="mm")
    d.text((w / 2, label_y), name, font=fnt, fill=ink, anchor="mm")
    return img


@lru_cache(maxsize=16)
def card_back(w: int, h: int, tickets: bool = False) -> Image.Image:
    """The back of a train card (or of a ticket): dark with a gold rail motif."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    r = card_radius(w)
    base: RGB = (120, 52, 40) if tickets else (34, 58, 92)
    d.rounded_rectangle((0, 0, w - 1, h - 1), r, fill=base, outline=Palette.GOLD_DARK, width=2)
    inset = max(4, w // 10)
    d.rounded_rectangle(
        (inset, inset, w - 1 - inset, h - 1 - inset), max(2, r - 3), outline=Palette.GOLD, width=2
    )
    # Two rails and their sleepers, running top to bottom.
    cx = w / 2
    gap = w * 0.14
    for y in range(inset + 6, h - inset - 4, max(6, h // 14)):
        d.line((cx - gap - 5, y, cx + gap + 5, y), fill=Palette.GOLD_DARK, width=2)
    for x in (cx - gap, cx + gap):
        d.line((x, inset + 3, x, h - inset - 3), fill=Palette.GOLD, width=2)
    return img


def _face_up(code: str | None, w: int, h: int) -> Image.Image | None:
    return None if code is None else train_card(code, w, h)


def _count_badge(c: Canvas, x: int, y: int, text: str, size: int = 20) -> None:
    """A dark pill with a number, its top right corner at (x, y)."""
    fnt = font(size, "bold")
    w = text_width(text, fnt) + 16
    c.rounded((x - w, y, x, y + size + 10), (size + 10) // 2, fill=(16, 18, 22))
    c.rounded((x - w, y, x, y + size + 10), (size + 10) // 2, outline=Palette.GOLD, width=2)
    c.text((x - w / 2, y + (size + 10) / 2), text, fnt, Palette.INK, anchor="mm")


def _stack(c: Canvas, x: int, y: int, w: int, h: int, count: int, tickets: bool = False) -> None:
    """A face-down pile: a few offset backs (or an empty outline) and its size."""
    if count <= 0:
        dashed_rounded(c.draw, (x, y, x + w, y + h), Palette.MAT_EDGE, radius=card_radius(w))
        c.text((x + w / 2, y + h / 2), "0", font(22, "bold"), Palette.MUTED, anchor="mm")
        return
    c.stack(card_back(w, h, tickets), x, y, min(3, 1 + count // 12), 3, -3)
    _count_badge(c, x + w + 8, y + h - 26, str(count))


# --- the table --------------------------------------------------------------------------------


def _table_height(seats: int, extra: int = 0) -> int:
    rows = (seats + 1) // 2
    return _AREA_Y + _AREA_H + 10 + rows * (_PANEL_H + 10) + _CAPTION_H + extra + _M


_CAPTION_LINE = READABLE + 6
"""What each "LAST MOVE" line past the second adds to the table's height (as
``Canvas.caption_banner`` spaces lines of ``READABLE`` px)."""
_BANNER_W = TABLE_WIDTH - 2 * _M
"""The width of the "LAST MOVE" box, or of a finished game's banner."""


def _caption_extra(view: TtrPublicView) -> int:
    """How much taller than two lines the box under the seats is: a line of
    ``_CAPTION_LINE`` for each line of the last move past the second at ``READABLE`` px, or
    what a finished game's banner needs for every line of its headline and reason at that
    size. The last move shrank to 16 px (13 px at first, cutting a player's leave short), a
    four-way tie's headline among 32-letter names to 10 px."""
    if view.is_over:
        box = _CAPTION_H - 6  # the banner's height when nothing grows
        need = result_banner_height(_BANNER_W, _winner_line(view), view.end_reason)
        return max(0, need - box)
    return (_lines_needed(view.caption or "—") - 2) * _CAPTION_LINE


@lru_cache(maxsize=256)
def _lines_needed(caption: str) -> int:
    """How many lines the last move takes at ``READABLE`` px (two at least; cached: every
    seat's table repeats it)."""
    width = _BANNER_W - 36  # as ``Canvas.caption_banner`` wraps it
    fnt = font(READABLE, "bold")
    if text_width(caption, fnt) <= width:
        return 2  # one line: most captions, measured once rather than wrapped word by word
    return max(2, len(wrap(caption, fnt, width)))


@lru_cache(maxsize=8)
def _table_background(height: int) -> Image.Image:
    """The felt, the title bar and the mat: the same on every table of a size (cached; the
    renderer draws on a copy)."""
    img = vertical_gradient(TABLE_WIDTH, height, Palette.FELT_TOP, Palette.FELT_BOTTOM)
    c = Canvas(img)
    title_bar(c, TABLE_WIDTH, _TOP_BAR, "TICKET TO RIDE", _M + 4)
    area = (_M, _AREA_Y, TABLE_WIDTH - _M, _AREA_Y + _AREA_H)
    c.rounded(area, 18, fill=Palette.MAT, outline=Palette.MAT_EDGE, width=2)
    return img


def render_table(view: TtrPublicView) -> Image.Image:
    """The whole table as everyone sees it."""
    seats = len(view.seats)
    extra = _caption_extra(view)
    height = _table_height(seats, extra)
    c = Canvas(_table_background(height).copy())
    _draw_top_bar(c, view)
    _draw_area(c, view)
    for i, seat in enumerate(view.seats):
        col, row = i % 2, i // 2
        wide = seats == 1
        x = _M + col * (_PANEL_W + _M)
        y = _AREA_Y + _AREA_H + 10 + row * (_PANEL_H + 10)
        w = TABLE_WIDTH - 2 * _M if wide else _PANEL_W
        _draw_panel(c, view, seat, (x, y, x + w, y + _PANEL_H))
    top = height - _CAPTION_H - extra - _M + 6
    box = (_M, top, TABLE_WIDTH - _M, height - _M)
    if view.is_over:
        c.result_banner(box, _winner_line(view), view.end_reason)
    else:
        lines = _lines_needed(view.caption or "—")
        c.caption_banner(box, view.caption, size=22, max_lines=lines, min_size=READABLE)
    return c.image


def table_png(view: TtrPublicView) -> bytes:
    """``render_table`` encoded as PNG bytes, ready to attach to a message."""
    return to_png(render_table(view))


def _draw_top_bar(c: Canvas, view: TtrPublicView) -> None:
    cy = _TOP_BAR // 2
    x = after_title("TICKET TO RIDE", _M + 4)
    small = font(READABLE, "bold")
    if view.solo:
        x += c.pill(x, cy - 15, "SOLO", small, Palette.GOLD, ink=Palette.DARK_INK) + 10
        turn = f"Turn {view.clock_turn} of {view.clock_turns}"
        x += c.pill(x, cy - 15, turn, small, _GREY_CHIP) + 10
    else:
        deck = "First deck" if view.deck_number == 1 else "Second deck"
        x += c.pill(x, cy - 15, deck, small, _GREY_CHIP) + 10
        if view.final_round:
            x += c.pill(x, cy - 15, "FINAL TURNS", small, Palette.AMBER, ink=Palette.DARK_INK)
            x += 10
    # The room right of the chips; a long name is cut, never "to play" after it (cut whole at
    # 360 px, a 32-letter name's pill said only the name, as if it were the title's owner).
    room = TABLE_WIDTH - _M - 4 - 24 - x
    if view.phase == "setup":
        right = "Choosing tickets"
    elif view.is_over:
        right = "Game over"
    elif view.turn is not None:
        tail = " to play"
        name = ellipsize(view.players[view.turn], small, room - text_width(tail, small))
        right = name + tail
    else:
        right = ""
    if right:
        tw = text_width(right, small) + 24
        c.pill(TABLE_WIDTH - _M - 4 - tw, cy - 15, right, small, _GREY_CHIP)


def _draw_area(c: Canvas, view: TtrPublicView) -> None:
    label = font(READABLE, "bold")
    y = _AREA_Y + 14
    cy = y + 26
    x = _M + 20
    c.text((x, y), "DRAW AREA", label, Palette.MUTED)
    cw, ch = _CARD
    for i, code in enumerate(view.slots):
        sx = x + i * (cw + 12)
        card = _face_up(code, cw, ch)
        if card is None:
            dashed_rounded(
                c.draw, (sx, cy, sx + cw, cy + ch), Palette.MAT_EDGE, radius=card_radius(cw)
            )
        else:
            c.paste(card, sx, cy)
        c.text((sx + cw / 2, cy + ch + 12), str(i + 1), label, Palette.GOLD, anchor="mm")
    x += len(view.slots) * (cw + 12) + 8
    if view.solo:
        c.text((x, y), "STATION CLOCK", label, Palette.GOLD)
        card = _face_up(view.clock_card, cw, ch)
        if card is None:
            dashed_rounded(
                c.draw, (x, cy, x + cw, cy + ch), Palette.GOLD_DARK, radius=card_radius(cw)
            )
        else:
            c.paste(card, x, cy)
        c.text((x + cw / 2, cy + ch + 12), "clock", label, Palette.GOLD, anchor="mm")
        sx = x + cw + 18
        _stack(c, sx, cy + 22, 72, 100, view.clock_left)
        c.text((sx + 36, cy + ch + 12), "left", label, Palette.MUTED, anchor="mm")
        x = sx + 72 + 48
    else:
        x += 16
    right = TABLE_WIDTH - _M - 20
    piles = [("TRAIN DECK", view.deck_count, False), ("TICKETS", view.ticket_deck_count, True)]
    step = (right - x) // len(piles)
    for i, (name, count, tickets) in enumerate(piles):
        px = x + i * step
        c.text((px, y), name, label, Palette.MUTED)
        _stack(c, px + 6, cy + 10, 84, 118, count, tickets)
    discard = f"Discard pile: {view.discard_count}"
    if view.solo:
        # Shorter than "Discard pile: 0  ·  Hidden tickets: 6": at the readable size that
        # line reached left over the clock's "left".
        discard = f"Discard {view.discard_count} · Hidden tickets {view.hidden_ticket_count}"
    c.text((right, _AREA_Y + _AREA_H - 14), discard, label, Palette.MUTED, anchor="rb")


def _draw_panel(c: Canvas, view: TtrPublicView, seat: SeatView, box: Box) -> None:
    x0, y0, x1, y1 = box
    to_play = not view.is_over and (
        view.turn == seat.seat or (view.phase == "setup" and seat.choosing > 0)
    )
    won = view.is_over and view.winners is not None and seat.seat in view.winners
    fill: RGB = (24, 30, 30) if seat.left else Palette.MAT
    c.rounded(
        box,
        16,
        fill=fill,
        outline=Palette.GOLD if to_play or won else Palette.MAT_EDGE,
        width=4 if to_play or won else 2,
    )
    colour = _SEAT_COLOURS[seat.seat % len(_SEAT_COLOURS)]
    c.draw.ellipse((x0 + 16, y0 + 16, x0 + 34, y0 + 34), fill=colour)
    chips = []
    if seat.left:
        chips.append(("LEFT", _GREY_CHIP))
    elif won:
        chips.append(("WINNER", Palette.GOLD))
    elif to_play and not seat.choosing:
        chips.append(("CHOOSING" if view.phase in ("setup", "keep") else "TO PLAY", Palette.GOLD))
    chips.append((plural(seat.hand_count, "card"), _GREY_CHIP))
    tickets = plural(seat.ticket_count, "ticket")
    if seat.choosing:
        tickets += f" (+{seat.choosing} to choose)"
    # A player choosing tickets has that chip in gold instead of a "CHOOSING" chip beside it:
    # it says the same, and the name keeps the room.
    chips.append((tickets, Palette.GOLD if to_play and seat.choosing else _GREY_CHIP))
    small = font(READABLE, "bold")
    # The name and the status chip on the first line, the hand's and the tickets' counts on
    # a line of their own under it: at the readable size, all of them on one line left a
    # name no room ("45 cards", "12 tickets (+3 to choose)" alone take 430 px of 576).
    status, counts = chips[:-2], chips[-2:]
    x = x0 + 18
    for text, chip in counts:
        ink = Palette.DARK_INK if chip == Palette.GOLD else Palette.INK
        x += c.pill(x, y0 + 48, text, small, chip, ink=ink, height=28, pad=10) + 6
    x = x1 - 14
    for text, chip in reversed(status):
        x -= text_width(text, small) + 20
        ink = Palette.DARK_INK if chip == Palette.GOLD else Palette.INK
        c.pill(x, y0 + 11, text, small, chip, ink=ink, height=28, pad=10)
        x -= 6
    # The name takes what the status chip leaves ("CHOOSING" is the widest).
    room = x - 12 - (x0 + 44)
    name_font = fit_font(seat.name, room, 24, "bold", min_size=READABLE)
    name = ellipsize(seat.name, name_font, room)
    c.text(
        (x0 + 44, y0 + 25),
        name,
        name_font,
        Palette.INK if not seat.left else Palette.MUTED,
        anchor="lm",
    )
    # The Railyard: one little stack per colour set; the On-the-Track stack on the right.
    label = font(READABLE, "bold")
    ry = y0 + 88
    c.text((x0 + 18, ry), "RAILYARD", label, Palette.MUTED)
    # The On-the-Track column is narrower than its title: the title ends at the panel's
    # right and reaches over the Railyard's top right, the column's rule starting under it.
    track_x = x1 - 108
    c.text((x1 - 16, ry), "ON-THE-TRACK", label, Palette.MUTED, anchor="ra")
    _stack(c, track_x + 10, ry + 40, 68, 96, seat.track_count)
    c.draw.line((track_x - 14, ry + 28, track_x - 14, y1 - 16), fill=Palette.MAT_EDGE, width=2)
    _draw_yard(c, seat.yard, x0 + 18, ry + 26, track_x - 28 - (x0 + 18))


def _draw_yard(c: Canvas, yard: tuple[YardSet, ...], x: int, y: int, width: int) -> None:
    """The Railyard's sets left to right in ``width`` from ``x``: each set's front card with
    the rest peeking out behind it, and its counts on a chip below.

    Everything stays inside ``width``, the last set's peeking cards too: from six sets on, the
    last set ran into the On-the-Track stack (eight, every colour, reached 60 px into it).
    A Railyard too crowded for the mini cards side by side, or for its chips in one row,
    gets smaller cards, and its chips on two staggered rows if they still do not fit in one."""
    if not yard:
        c.text((x, y + 60), "empty", font(READABLE, "bold"), Palette.MUTED, anchor="lm")
        return
    n = len(yard)

    def spacing(w: int, peek: int) -> int:
        # Room for the last set's whole card and its four peeking cards after the others.
        # At most w + 48 apart: room for a "5Bu+2L" chip at the readable size under each.
        return w + 34 if n == 1 else min(w + 48, (width - w - 4 * peek) // (n - 1))

    w, h = _MINI
    peek = 6
    step = spacing(w, peek)
    sizes = [_chip_size(ys, step - 4) for ys in yard]
    staggered = False
    if step < w or None in sizes:  # the cards would cover each other, or the chips
        (w, h), peek = _CROWDED_MINI, 5
        step = spacing(w, peek)
        sizes = [_chip_size(ys, step - 4) for ys in yard]
        staggered = None in sizes
    if staggered:
        # Every other chip a row lower, so each has two steps of room.
        sizes = [_chip_size(ys, 2 * step - 4) for ys in yard]
    for i, ys in enumerate(yard):
        sx = x + i * step
        # The colour card in front, the rest of the set peeking out behind it (Locomotives
        # at the back; they are the first to go on the track).
        cards = [ys.colour] * min(ys.naturals, 3) + ["loco"] * min(ys.locos, 2)
        for k in range(len(cards) - 1, -1, -1):
            c.paste(train_card(cards[k], w, h), sx + peek * k, y + 8 + peek * k, with_shadow=k == 0)
        # Under the set, its count on chips with the colour's letter ("3R", "1O 2L"): the
        # mini card's own label is too small to tell a red set from a green one on a phone.
        size = sizes[i] or _YARD_CHIPS[-1]
        cw = _chip_width(ys.colour, ys.naturals, size, ys.locos, READABLE)
        cx = min(max(x, round(sx + w / 2 + 8 - cw / 2)), x + width - cw)
        cy = y + h + 44 + (30 * (i % 2) if staggered else 0)
        _count_chip(c, ys.colour, ys.naturals, cx, cy - size // 2, size, ys.locos, READABLE)


_YARD_CHIPS = (30, 28)
"""A Railyard chip's heights, its number and letter at the readable size in both."""


def _chip_size(ys: YardSet, room: int) -> int | None:
    """The tallest chip (``_YARD_CHIPS``) at which ``ys``'s chip is narrower than ``room``."""
    return next(
        (
            z
            for z in _YARD_CHIPS
            if _chip_width(ys.colour, ys.naturals, z, ys.locos, READABLE) < room
        ),
        None,
    )


def _winner_line(view: TtrPublicView) -> str:
    if view.solo:
        if view.winners:
            return "You beat the hidden tickets!"
        if "gave up" in view.end_reason:
            return "You gave up."
        return "The hidden tickets win."
    if view.drawn:
        return "It's a draw!"  # as Mille Bornes and the Race say it
    names = [view.players[s] for s in view.winners or ()]
    if not names:
        return "Game over."
    if len(names) == 1:
        return f"{names[0]} wins!"
    return f"{' & '.join(names)} tie for the win!"


# --- tickets ----------------------------------------------------------------------------------

# Three to a row, every word on them at ``READABLE`` or more: shown about half size on a
# phone, their codes, cities and requirement letters were 13-18 px.
_TICKET = (372, 142)
_MUST_KEEP = "MUST KEEP"


def _needs(ticket: Ticket) -> list[tuple[str, int]]:
    """The ticket's requirement, most cards first: (colour, count)."""
    return sorted(((COLOURS[i], n) for i, n in enumerate(ticket.need) if n), key=lambda p: -p[1])


def _chips_width(chips: list[tuple[str, int]], size: int) -> int:
    return sum(_chip_width(code, n, size) + 4 for code, n in chips) - 4 if chips else 0


def _need_chips(c: Canvas, ticket: Ticket, x: int, y: int, size: int = 26) -> int:
    """The ticket's requirement as coloured chips with counts; returns the width used."""
    start = x
    for colour, n in _needs(ticket):
        x += _count_chip(c, colour, n, x, y, size) + 4
    return x - start


@lru_cache(maxsize=256)
def ticket_tile(
    index: int, w: int = _TICKET[0], h: int = _TICKET[1], mark: str = ""
) -> Image.Image:
    """One Destination Ticket: code, route, requirement chips, points and Big Cities.

    ``mark`` is "keep" (highlighted: must be kept), "offer" (to choose from) or "".
    """
    ticket = TICKETS[index]
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    c = Canvas(img)
    paper: RGB = (250, 240, 214)
    edge: RGB = Palette.GOLD if mark == "keep" else (150, 110, 60)
    c.rounded((0, 0, w - 1, h - 1), 12, fill=paper, outline=edge, width=4 if mark else 2)
    c.text((14, 10), ticket.code, font(READABLE, "bold"), (150, 60, 40))
    # The route on a line of its own under the points: beside them it had 252 px and shrank.
    route_font = fit_font(ticket.route, w - 28, 22, "bold", READABLE)
    if text_width(ticket.route, route_font) > w - 28:
        route_font = fit_font(ticket.route, w - 28, READABLE, "cond", 12)
    c.text((14, 74), ticket.route, route_font, Palette.DARK_INK, anchor="lm")
    # Points in a gold circle.
    cx, cy, r = w - 36, 34, 24
    c.draw.ellipse(
        (cx - r, cy - r, cx + r, cy + r), fill=Palette.GOLD, outline=Palette.GOLD_DARK, width=2
    )
    c.text((cx, cy), str(ticket.points), font(22, "bold"), Palette.DARK_INK, anchor="mm")
    _need_chips(c, ticket, 14, h - 44, 32)
    if mark == "keep":
        # Said in a word under the points, not by the gold edge alone: the edge's gold and the
        # other tickets' brown are one hue to a red-green colour-blind player.
        tag = font(READABLE, "bold")
        tw = text_width(_MUST_KEEP, tag) + 16
        c.pill(w - 12 - tw, h - 43, _MUST_KEEP, tag, Palette.GOLD, Palette.DARK_INK, 30, 8)
    if ticket.cities:
        cities = " · ".join(CITIES[i] for i in ticket.cities)
        cf = fit_font(cities, w - 134, READABLE, "cond", 12)
        c.text((70, 12), cities, cf, (120, 90, 40), anchor="la")
    return img


# --- the hand ---------------------------------------------------------------------------------


def _rows_height(count: int) -> int:
    """The height of a titled block of ticket tiles, three to a row (a short line if none)."""
    rows = (count + 2) // 3
    return 32 + (rows * (_TICKET[1] + 14) if rows else 44)


def _hand_height(view: TtrSeatView) -> int:
    height = 78 + 240 + _rows_height(len(view.tickets))
    if view.offered:
        height += 10 + _rows_height(len(view.offered))
    return height + _M


def render_hand(view: TtrSeatView) -> Image.Image:
    """The owner's cards grouped by colour, then their tickets (and any to choose from)."""
    height = _hand_height(view)
    # The cached felt: built row by row, it took a fifth of a tall hand's time.
    img = felt(HAND_WIDTH, height).copy()
    c = Canvas(img)
    c.draw.rectangle((0, 0, HAND_WIDTH, 60), fill=Palette.ASPHALT_DARK)
    # Only its owner sees a hand, so it speaks to them ("Computer (normal)'s hand" read badly).
    title = ellipsize("Your hand", font(26, "bold"), 520)
    c.text((_M + 4, 30), title, font(26, "bold"), Palette.GOLD, anchor="lm")
    small = font(READABLE, "bold")
    phase = phase_line(view)
    tw = text_width(phase, small) + 24
    c.pill(HAND_WIDTH - _M - 4 - tw, 13, phase, small, _GREY_CHIP, height=34)
    # Cards, one group per kind with a count.
    y = 76
    c.text((_M + 4, y), f"TRAIN CARDS · {sum(view.hand)}", font(READABLE, "bold"), Palette.MUTED)
    kinds = [(CARD_CODES[i], n) for i, n in enumerate(view.hand) if n]
    cw, ch = 112, 158
    step = min(cw + 18, (HAND_WIDTH - 2 * _M) // max(1, len(kinds)))
    for i, (code, n) in enumerate(kinds):
        x = _M + 4 + i * step
        extra = min(n - 1, 3)
        for k in range(extra, -1, -1):
            c.paste(train_card(code, cw, ch), x + 4 * k, y + 30 + 4 * k, with_shadow=k == extra)
        _count_badge(c, x + cw + 4 * extra + 4, y + 26, f"×{n}", 22)
        c.text(
            (x + cw / 2, y + 30 + ch + 30),
            CARD_NAMES[CARD_CODES.index(code)],
            font(READABLE, "bold"),
            Palette.MUTED,
            anchor="mm",
        )
    if not kinds:
        c.text((_M + 4, y + 90), "No cards in hand.", font(22, "bold"), Palette.MUTED)
    y += 240
    y = _ticket_rows(c, view.tickets, y, f"YOUR TICKETS · {len(view.tickets)}", "") + 10
    if view.offered:
        must = {t.index for t in view.keep_one_of}
        note = "TO CHOOSE FROM"
        if view.keep_minimum:
            note += f" · keep at least {view.keep_minimum}"
        if must:
            # By code, as the message names it: "the gold one" asked a red-green
            # colour-blind player to tell a gold edge from a brown one.
            codes = [t.code for t in view.offered if t.index in must]
            note += (
                f" · {codes[0]} must be kept"
                if len(codes) == 1
                else f" · keep {' or '.join(codes)}"
            )
        _ticket_rows(c, view.offered, y, note, "offer", must)
    return c.image


def _ticket_rows(
    c: Canvas,
    tickets: tuple[Ticket, ...],
    y: int,
    title: str,
    mark: str,
    must: set[int] | None = None,
) -> int:
    c.text((_M + 4, y), title, font(READABLE, "bold"), Palette.GOLD if mark else Palette.MUTED)
    if not tickets:
        c.text((_M + 4, y + 30), "none yet", font(READABLE, "bold"), Palette.MUTED)
        return y + _rows_height(0)
    for i, ticket in enumerate(tickets):
        col, row = i % 3, i // 3
        x = _M + 4 + col * (_TICKET[0] + 20)
        tile = ticket_tile(ticket.index, mark="keep" if must and ticket.index in must else mark)
        # Flat on the felt: a soft shadow under each tile made a hand of 42 tickets 44 KB
        # heavier (its blurred edges are colours the PNG writer cannot repeat).
        c.paste(tile, x, y + 32 + row * (_TICKET[1] + 14), with_shadow=False)
    return y + _rows_height(len(tickets))


def phase_line(view: TtrSeatView) -> str:
    """The hand image's top line: what the seat is to do now (its alt text says it too)."""
    return {
        "setup": "Choose your opening tickets",
        "keep": "Choose which tickets to keep",
        "act": "Your turn",
        "pick2": "Take your second card",
        "over": "Game over",
    }.get(view.phase, "Waiting")


def hand_png(view: TtrSeatView) -> bytes:
    return to_png(render_hand(view))


# --- the result -------------------------------------------------------------------------------


# Every word on the final scoring at ``READABLE`` px or more: shown about half size on a
# phone, its labels, ticket lines, city names and winners were 13-18 px (a tie shrank to 12).
# The card grows instead: a ticket whose chips do not fit beside its route takes a second
# line for them, the top bar a line per part of a long headline, the Big Cities a line per
# winner.
_ROW = 44
"""A ticket line's height, its chips beside its route."""
_ROW_TWO = 76
"""A ticket line's height, its chips on a second line under its route."""
_CHIP = 28
"""The count chips' height on the final scoring (their words at ``READABLE`` px)."""
_BLOCK_TOP = 150
"""From a seat's block's top to its first ticket: its name, its figures and its stack."""
_HEADLINE_WIDTH = 620
_WINNER_STEP = 24


def _chip_row_width(chips: Sequence[tuple[str, int]]) -> int:
    return _chips_width_at(chips, _CHIP, READABLE)


def _chips_width_at(chips: Sequence[tuple[str, int]], size: int, text: int) -> int:
    return sum(_chip_width(code, n, size, text=text) + 4 for code, n in chips) - 4 if chips else 0


@lru_cache(maxsize=512)
def _ticket_layout(
    x: int, right: int, index: int, completed: bool, points: int, cards: tuple[tuple[int, int], ...]
) -> tuple[str, tuple[tuple[str, int], ...], bool]:
    """A ticket line's route (cut only if even a line of its own is too narrow), its chips
    (the cards that served it, or what it needed) and whether they go on a second line."""
    ticket = TICKETS[index]
    chips = (
        tuple((CARD_CODES[kind], n) for kind, n in cards) if completed else tuple(_needs(ticket))
    )
    lf = font(READABLE, "bold")
    score = text_width(f"{points:+d}", font(READABLE, "bold"))
    label = f"{ticket.code} {ticket.route}"
    beside = x + 38 + text_width(label, lf) + 12 + _chip_row_width(chips) + 12 + score
    two = bool(chips) and beside > right
    room = right - score - 12 - (x + 38)
    return ellipsize(label, lf, room), chips, two


def _ticket_height(
    x: int, right: int, index: int, completed: bool, points: int, cards: tuple[tuple[int, int], ...]
) -> int:
    return _ROW_TWO if _ticket_layout(x, right, index, completed, points, cards)[2] else _ROW


def _block_height(result: FinalScore, score: SeatScore | None, width: int) -> int:
    """A seat's (or the hidden tickets') block's height on a column ``width`` wide."""
    x, right = 16, width - 16
    if score is None:
        opponent = result.opponent
        assert opponent is not None
        rows = [_ticket_height(x, right, t, True, TICKETS[t].points, ()) for t in opponent.tickets]
    else:
        rows = [
            _ticket_height(x, right, line.ticket, line.completed, line.points, line.cards)
            for line in score.lines
        ]
    return _BLOCK_TOP + sum(rows) + 16


def _headline_lines(headline: str) -> list[str]:
    """The top bar's headline at 22 px, or on as many lines as it needs at ``READABLE`` px
    (a tie of long names shrank to 12 px)."""
    if text_width(headline, font(22, "bold")) <= _HEADLINE_WIDTH:
        return [headline]
    return wrap(headline, font(READABLE, "bold"), _HEADLINE_WIDTH)


def _result_layout(view: TtrPublicView) -> tuple[int, list[int], int, int]:
    """The top bar's height, each row of blocks' height, the Big City strip's height and the
    whole card's."""
    result = view.result
    assert result is not None
    bar = max(56, 12 + 26 * len(_headline_lines(_winner_line(view))))
    col_w = (RESULT_WIDTH - 3 * _M) // 2
    blocks: list[SeatScore | None] = [*result.seats]
    if result.opponent is not None:
        blocks.append(None)
    heights = [_block_height(result, score, col_w) for score in blocks]
    rows = [max(heights[i : i + 2]) for i in range(0, len(heights), 2)]
    strip = _city_strip_height(view, result)
    return bar, rows, strip, bar + 12 + sum(rows) + strip + 14


def render_result(view: TtrPublicView) -> Image.Image:
    """The final scoring: every ticket ticked or crossed with the cards that served it, the
    On-the-Track stacks, the Big City winners and the totals."""
    result = view.result
    if result is None:
        raise ValueError("The result image needs a finished game.")
    bar, rows, strip, height = _result_layout(view)
    img = vertical_gradient(RESULT_WIDTH, height, Palette.FELT_TOP, Palette.FELT_BOTTOM)
    c = Canvas(img)
    c.draw.rectangle((0, 0, RESULT_WIDTH, bar), fill=Palette.ASPHALT_DARK)
    c.text((_M + 4, 28), "FINAL SCORING", font(26, "bold"), Palette.GOLD, anchor="lm")
    headline = _headline_lines(_winner_line(view))
    hf = font(22 if len(headline) == 1 else READABLE, "bold")
    top = bar / 2 - 13 * (len(headline) - 1)
    for i, line in enumerate(headline):
        c.text((RESULT_WIDTH - _M - 4, top + 26 * i), line, hf, Palette.INK, anchor="rm")
    columns: list[tuple[str, SeatScore | None]] = [(view.players[s.seat], s) for s in result.seats]
    if result.opponent is not None:
        columns.append(("Hidden tickets", None))
    col_w = (RESULT_WIDTH - 3 * _M) // 2
    y = bar + 12
    for i, (name, score) in enumerate(columns):
        x = _M + (i % 2) * (col_w + _M)
        row_y = y + sum(rows[: i // 2])
        block_h = rows[i // 2]
        _result_block(c, view, name, score, (x, row_y, x + col_w, row_y + block_h - 10))
    _city_strip(c, view, result, height - strip - 14)
    return c.image


def _result_block(
    c: Canvas, view: TtrPublicView, name: str, score: SeatScore | None, box: Box
) -> None:
    x0, y0, x1, _y1 = box
    result = view.result
    assert result is not None
    won = score is not None and view.winners is not None and score.seat in view.winners
    c.rounded(
        box,
        14,
        fill=Palette.MAT,
        outline=Palette.GOLD if won else Palette.MAT_EDGE,
        width=3 if won else 2,
    )
    figure = font(30, "bold")
    small = font(READABLE, "bold")
    left = score is not None and not view.solo and view.seats[score.seat].left
    if score is None:
        opponent = result.opponent
        assert opponent is not None
        total, bonus, points = opponent.total, opponent.bonus, opponent.ticket_points
    else:
        total, bonus, points = score.total, score.bonus, score.ticket_points
    shown = "—" if left else f"{total}"
    # The name has the width the total leaves it, a little smaller before it is cut: a fixed
    # 200 px cut a 32-letter name beside a two-digit total ("Maximilian Wolfgang von…").
    room = x1 - x0 - 32 - text_width(shown, figure) - 20
    big = fit_font(name, room, 24, "bold", min_size=20)
    c.text((x0 + 16, y0 + 24), ellipsize(name, big, room), big, Palette.INK, anchor="lm")
    if left:
        # A seat that left scores nothing: its "0" in gold, beside negative totals, read as if
        # it had outscored the winner. Said as the result line says it (solo's give-up keeps
        # the score as it stood).
        c.text((x1 - 16, y0 + 24), shown, figure, Palette.MUTED, anchor="rm")
        c.text((x0 + 16, y0 + 58), "left the game", small, Palette.MUTED, anchor="lm")
        return
    c.text((x1 - 16, y0 + 24), shown, figure, Palette.GOLD, anchor="rm")
    detail = f"tickets {points:+d}  ·  Big Cities +{bonus}"
    c.text((x0 + 16, y0 + 58), detail, small, Palette.MUTED, anchor="lm")
    y = y0 + 92
    if score is not None:
        # The On-the-Track stack, revealed: its title, then a chip per kind under it (at 20 px
        # nine kinds do not fit beside the title).
        x = x0 + 16
        c.text((x, y), "ON-THE-TRACK", small, Palette.MUTED, anchor="lm")
        kinds = [(CARD_CODES[kind], n) for kind, n in enumerate(score.track) if n]
        # Narrower chips when a big stack's two-digit counts would run past the block: every
        # train card on one stack (a game that keeps its stacks).
        gap = 6 if _chips_width_at(kinds, _CHIP, READABLE) + 2 * len(kinds) <= x1 - 16 - x else 2
        for code, n in kinds:
            x += _count_chip(c, code, n, x, y + 16, _CHIP, text=READABLE) + gap
        if not sum(score.track):
            c.text(
                (x0 + 16 + text_width("ON-THE-TRACK ", small) + 8, y),
                "empty",
                small,
                Palette.MUTED,
                anchor="lm",
            )
    y = y0 + _BLOCK_TOP
    if score is None:
        opponent = result.opponent
        assert opponent is not None
        for t in opponent.tickets:
            y += _ticket_line(c, x0 + 16, y, x1 - 16, t, True, TICKETS[t].points, ())
        return
    for line in score.lines:
        y += _ticket_line(
            c, x0 + 16, y, x1 - 16, line.ticket, line.completed, line.points, line.cards
        )


def _ticket_line(
    c: Canvas,
    x: int,
    y: int,
    right: int,
    index: int,
    completed: bool,
    points: int,
    cards: tuple[tuple[int, int], ...],
) -> int:
    """A ticket's line: ticked or crossed, its route and points, and the cards that served it
    (completed) or what it needed (not), beside the route or under it; returns its height."""
    label, chips, two = _ticket_layout(x, right, index, completed, points, cards)
    mark = "✓" if completed else "✗"
    c.draw.ellipse((x, y + 4, x + 28, y + 32), fill=_TICK if completed else _CROSS)
    c.text((x + 14, y + 18), mark, font(READABLE, "bold"), (255, 255, 255), anchor="mm")
    sf = font(READABLE, "bold")
    score = f"{points:+d}"
    lf = font(READABLE, "bold")
    c.text((x + 38, y + 18), label, lf, Palette.INK if completed else Palette.MUTED, anchor="lm")
    if two:
        cx, cy = x + 38, y + 40
    else:
        # Ending before the points, so the lines' chips line up at their right.
        cx, cy = right - text_width(score, sf) - 12 - _chip_row_width(chips), y + 4
    for code, n in chips:
        cx += _count_chip(c, code, n, cx, cy, _CHIP, text=READABLE) + 4
    # A lost ticket's points in a light red: _CROSS, fine behind the white ✗, was 2.8:1 on
    # the mat to a protanope, who sees red darker.
    colour = _TICK if completed else Palette.RED_INK
    c.text((right, y + 18), score, sf, colour, anchor="rm")
    return _ROW_TWO if two else _ROW


def _city_names(view: TtrPublicView, result: FinalScore) -> list[list[str]]:
    return [
        ["Hidden" if s < 0 else view.players[s] for s in winners] for winners in result.city_winners
    ]


def _city_width() -> int:
    return (RESULT_WIDTH - 2 * _M - 32) // len(CITIES)


def _city_strip_height(view: TtrPublicView, result: FinalScore) -> int:
    most = max(len(_city_winners(names, _city_width() - 20)) for names in _city_names(view, result))
    return 104 + most * _WINNER_STEP + 10


def _city_strip(c: Canvas, view: TtrPublicView, result: FinalScore, y: int) -> None:
    height = _city_strip_height(view, result)
    box = (_M, y, RESULT_WIDTH - _M, y + height)
    c.rounded(box, 14, fill=(22, 40, 34), outline=Palette.GOLD_DARK, width=2)
    small = font(READABLE, "bold")
    c.text((_M + 16, y + 8), "BIG CITY BONUSES", small, Palette.GOLD)
    w = _city_width()
    for i, (city, names) in enumerate(zip(CITIES, _city_names(view, result), strict=True)):
        x = _M + 16 + i * w
        c.rounded(
            (x, y + 38, x + w - 10, y + height - 12), 10, fill=Palette.MAT, outline=Palette.MAT_EDGE
        )
        c.text((x + (w - 10) / 2, y + 56), city, small, Palette.INK, anchor="mm")
        c.text(
            (x + (w - 10) / 2, y + 82),
            f"+{CITY_BONUS[i]}",
            font(22, "bold"),
            Palette.GOLD,
            anchor="mm",
        )
        for k, line in enumerate(_city_winners(names, w - 20)):
            c.text(
                (x + (w - 10) / 2, y + 108 + k * _WINNER_STEP),
                line,
                small,
                Palette.INK if names else Palette.MUTED,
                anchor="mm",
            )


def _city_winners(names: list[str], width: int) -> tuple[str, ...]:
    """The winners of a Big City on lines of ``width`` at ``READABLE`` px: wrapped whole on up
    to two lines a winner (four for one or two) when every line fits (a word wider than a line
    stays whole in a wrap), else each on a line or two of its own, cut only past two (at most
    four winners: a tie of every seat). They shrank to 12 px on two lines. Two lines a winner
    keep a computer's level: three computers sharing a city were "Computer 1," "Computer 2,"
    "Computer 3" where the scoring lines say "Computer 1 (normal)"."""
    if not names:
        return ("nobody",)
    fnt = font(READABLE, "bold")
    text = ", ".join(names)
    lines = wrap(text, fnt, width)
    fits = all(text_width(line, fnt) <= width for line in lines)
    if fits and len(lines) <= 2 * max(2, len(names)):
        return tuple(lines)
    # Else each winner on a line or two of its own (``fit_name_lines``: a computer's level on
    # its own line), cut only where two do not hold it: a name with a word too wide for the
    # box cut every winner to a line, "Maximilian…," "Bartholome…," "Computer 2".
    comma = text_width(",", fnt)
    each: list[str] = []
    for i, name in enumerate(names):
        *head, last = fit_name_lines(name, width - comma, READABLE, "bold", READABLE)[1]
        each += [*head, last + ("," if i < len(names) - 1 else "")]
    return tuple(each)


def result_png(view: TtrPublicView) -> bytes:
    return to_png(render_result(view))

"""Dragon Mille Bornes images: the arena (every car from above) and a seat's two hands.

Each function takes an engine *view* and returns a Pillow image or PNG bytes; the same view
always gives the same pixels. The arena is posted after every move, so static pieces (the
background, the panels, the car body, card faces, text runs) are cached and pasted.

Arena layout: a title bar, then the cars in two columns (one to three rows: six cars make a
2×3 grid that stays readable on a phone), then the last move and any pending reaction (the
image grows taller when they need more lines at a readable size: ``_READABLE``). Each
car panel shows the car from above with its four sides' damage bars (12 hits breach a side),
the four tires (9 hits) and the driver (5 hits), jammed guns, Fireproof Armor and a skid;
beside it the Mille Bornes battle and speed cards, the four safety slots, the miles bar and
the hand sizes. Dead cars are stamped, cars that left are greyed. Every text, labels
included, is at least ``_READABLE``: a safety played as a coup fourré says so with "CF".
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.dragon.cards import (
    DRIVER_TRACK,
    SIDE_TRACK,
    SIDES,
    SPECS,
    TIRE_TRACK,
    TRIP,
    in_cw_order,
)
from bot.engine.dragon.views import CarView, DragonPublicView, DragonSeatView
from bot.engine.mille.cards import SAFETIES, Card, distance_word, in_deck_order
from bot.engine.words import names
from bot.render.common import (
    RGB,
    Box,
    Canvas,
    Font,
    Palette,
    card_radius,
    dashed_rounded,
    ellipsize,
    felt,
    fit_font,
    fit_name,
    fit_wrapped,
    font,
    text_width,
    to_png,
    wrap,
)
from bot.render.mille_cards import draw_card

_MARGIN = 12
_TOP = 58
_PANEL_W = 384
_PANEL_H = 366
_BOTTOM = 148
HAND_SIZE = (1200, 620)  # a hand image whose top line takes two lines or fewer (hand_size)

_MINI = (56, 78)
_SAFE = (40, 56)
# The hand's cards: big enough that every name is written at ``_READABLE`` (shown about half
# size on a phone, they were 16-17 px). Car Wars cards are wider: "Flamethrower" needs 142 px,
# and a Car Wars hand holds six cards to the Mille Bornes hand's seven.
_HAND_CARD = (150, 210)
_HAND_CW_CARD = (172, 240)
_MB_X = 198  # the Mille Bornes column inside a panel
_PILES_Y = 96  # its rows from the panel's top: the two piles (their titles above),
_HANDS_Y = 186  # the hand sizes (the middle of the line),
_SAFE_Y = 222  # the safeties (their title above),
_MILES_Y = 306  # the miles bar (its title above) and the speed limit under it
_CAR_CX, _CAR_CY = 98, 204  # the car's centre inside a panel

_SEAT_COLOURS: tuple[RGB, ...] = (
    (160, 120, 240),  # violet
    (255, 255, 140),  # pale yellow
    (120, 255, 220),  # mint
    (240, 120, 140),  # rose
    (180, 180, 0),  # olive
    (255, 180, 255),  # pink
)
"""The seats' tag colours, under "@n" in dark ink. Chosen to stay apart (18 or more, CIEDE2000)
to normal sight and to protanopes, deuteranopes and tritanopes alike, who see two of the three
hues alike and tell these apart by how light they are: the blue and violet, or the orange,
yellow and green, they had before were alike to them (seats 0 and 5, 2.7 apart to a
deuteranope)."""
_BAR_EMPTY: RGB = (58, 64, 72)
_HIT: RGB = (236, 150, 32)
_BREACH: RGB = (214, 58, 52)
_CAR_BODY: RGB = (188, 194, 204)
_CAR_DARK: RGB = (112, 118, 130)
_GLASS: RGB = (70, 110, 150)
_WAIT: RGB = (236, 150, 32)
_ARENA: RGB = (30, 28, 34)  # the arena floor between the panels
_FLOOR: RGB = (36, 38, 44)  # under a car, its bars and their marks


_READABLE = 20
"""The smallest size, in pixels at the image's full width, of what a player reads on the arena:
the last move, the waiting line, the result, and each car's status, damage figures and miles.
Discord shows the 804-pixel arena about 400 points wide on a phone, so it is read at half size:
20 px bold becomes about 10 points, the smallest that reads there without zooming (the 13 px
the bottom box once shrank to came out at 6 points). The bottom box grows taller rather than
going under it. The labels too (a side's letter, a pile's title, a car's tags, the hand sizes,
the "CF" on a coup fourré): drawn at 9-16 px, they came out at 4-8 points."""
_SPEED_DX = 100  # the speed pile, right of the battle pile: its title clear of "BATTLE"


def _columns(cars: int) -> int:
    # Two columns at most, so that on a phone (about 400 points wide) the arena shrinks to
    # half its size, not a third: names, miles and damage figures stay readable.
    return 1 if cars == 1 else 2


def table_size(cars: int) -> tuple[int, int]:
    """The arena's size for ``cars`` cars: two columns, one to three rows. A last move or a
    waiting line too long for the bottom box at a readable size makes the image taller
    (``arena_size``)."""
    cols = _columns(cars)
    rows = (max(1, cars) + cols - 1) // cols
    return cols * _PANEL_W + (cols + 1) * _MARGIN, _TOP + rows * (_PANEL_H + _MARGIN) + _BOTTOM


# --- the arena -----------------------------------------------------------------------------


def arena_size(view: DragonPublicView) -> tuple[int, int]:
    """The size of ``view``'s arena image: ``table_size``, taller when its bottom box needs it."""
    w, h = table_size(len(view.cars))
    return w, h + _Bottom(view, w).height - _BOX_H


def render_table(view: DragonPublicView) -> Image.Image:
    """The arena as everyone sees it."""
    cars = len(view.cars)
    background = _background(cars, view.lang)
    w, h = background.size
    bottom = _Bottom(view, w)
    if bottom.height > _BOX_H:
        image = Image.new("RGB", (w, h + bottom.height - _BOX_H), _ARENA)
        image.paste(background, (0, 0))
    else:
        image = background.copy()
    canvas = Canvas(image)
    _draw_top_bar(canvas, view)
    for car in view.cars:
        x, y = _panel_origin(car.seat, cars)
        _draw_car_panel(canvas, view, car, x, y)
    bottom.draw(canvas)
    return canvas.image


def table_png(view: DragonPublicView) -> bytes:
    """``render_table`` as PNG bytes."""
    return to_png(render_table(view))


def _panel_origin(seat: int, cars: int) -> tuple[int, int]:
    cols = _columns(cars)
    col, row = seat % cols, seat // cols
    return _MARGIN + col * (_PANEL_W + _MARGIN), _TOP + _MARGIN // 2 + row * (_PANEL_H + _MARGIN)


@lru_cache(maxsize=16)
def _background(cars: int, lang: str = "en") -> Image.Image:
    """The arena with no car on it: title bar and ``cars`` empty panels (``lang``'s)."""
    w, h = table_size(cars)
    img = Image.new("RGB", (w, h), _ARENA)
    c = Canvas(img)
    c.draw.rectangle((0, 0, w, _TOP), fill=Palette.ASPHALT_DARK)
    c.draw.line((0, _TOP, w, _TOP), fill=(170, 40, 36), width=3)
    title = "DRAGON MILLE BORNES"
    tf = fit_font(title, w - 420, 26, "bold", 14)
    c.text((_MARGIN + 4, _TOP // 2), title, tf, (240, 90, 60), "lm")
    for seat in range(cars):
        x, y = _panel_origin(seat, cars)
        img.paste(_panel_base(lang), (x, y))
    return img


@lru_cache(maxsize=2)
def _panel_base(lang: str = "en") -> Image.Image:
    """An empty car panel: the mat, the arena floor under the car, column labels, slots; the
    miles bar's title "BORNES" with the French names, as their distance cards count."""
    img = Image.new("RGB", (_PANEL_W, _PANEL_H), _ARENA)
    c = Canvas(img)
    c.rounded((0, 0, _PANEL_W - 1, _PANEL_H - 1), 16, fill=(46, 48, 56), outline=(84, 88, 100))
    c.rounded((8, 74, _MB_X - 8, _PANEL_H - 8), 12, fill=_FLOOR)
    label = font(_READABLE, "bold")
    x = _MB_X
    c.text((x, 74), "BATTLE", label, Palette.MUTED)
    c.text((x + _SPEED_DX, 74), "SPEED", label, Palette.MUTED)
    c.text((x, _SAFE_Y - 24), "SAFETIES", label, Palette.MUTED)
    for i in range(4):
        sx = x + i * (_SAFE[0] + 5)
        box = (sx, _SAFE_Y, sx + _SAFE[0], _SAFE_Y + _SAFE[1])
        dashed_rounded(c.draw, box, (90, 96, 110), 5, 4, 2, 5)
    c.text((x, _MILES_Y - 24), distance_word(lang).upper(), label, Palette.MUTED)
    c.rounded((x, _MILES_Y, _PANEL_W - 10, _MILES_Y + 24), 8, fill=Palette.ASPHALT_DARK)
    return img


def _draw_top_bar(c: Canvas, view: DragonPublicView) -> None:
    cy = _TOP // 2
    small = font(_READABLE, "bold")
    x = c.image.width - _MARGIN - 4
    pills = [f"MB deck {view.mb_deck_count}", f"CW deck {view.cw_deck_count}"]
    if view.oil_slick:
        pills.insert(0, "Oil Slick")
    for text in reversed(pills):
        x -= text_width(text, small) + 24
        c.pill(x, cy - 16, text, small, (70, 76, 86), height=32)
        x -= 8


def _draw_car_panel(c: Canvas, view: DragonPublicView, car: CarView, x: int, y: int) -> None:
    over = view.winners is not None
    won = over and car.seat in (view.winners or ())
    acting = not over and car.seat in view.to_act
    turn = not over and view.turn == car.seat
    if won or acting or turn:
        colour = Palette.GOLD if (won or turn) else _WAIT
        c.rounded((x, y, x + _PANEL_W - 1, y + _PANEL_H - 1), 16, outline=colour, width=4)
    _draw_header(c, car, x, y, won, acting, turn, view.lang)
    _draw_car(c, car, x + _CAR_CX, y + _CAR_CY)
    _draw_mille(c, view, car, x + _MB_X, y)
    if not car.alive:
        _stamp(c, view, car, x, y)


def _draw_header(
    c: Canvas, car: CarView, x: int, y: int, won: bool, acting: bool, turn: bool, lang: str
) -> None:
    cy = y + 24
    colour = _SEAT_COLOURS[car.seat % len(_SEAT_COLOURS)]
    tag = font(_READABLE, "bold")
    w = c.pill(x + 10, cy - 14, f"@{car.seat}", tag, colour, ink=Palette.DARK_INK, height=28)
    right = x + _PANEL_W - 12
    if car.kills:
        kills = f"☠ {car.kills}"
        kf = font(22, "bold")
        c.text((right, cy), kills, kf, (240, 90, 60), anchor="rm", drop=1)
        right -= text_width(kills, kf) + 10
    name_x = x + 10 + w + 8
    # Shrunk towards the readable size before it is cut: "Computer 3 (expert)" beside its
    # kills fits whole at 20 px, where at 24 px it lost its level.
    nf, name = fit_name(car.name, right - name_x, 24, "bold", _READABLE)
    c.text((name_x, cy), name, nf, Palette.INK, "lm", drop=2)
    # Second line: whose move, moving or stopped.
    pills: list[tuple[str, RGB, RGB]] = []
    if won:
        pills.append(("★ WINNER", Palette.GOLD, Palette.DARK_INK))
    elif acting and not turn:
        pills.append(("! DECIDING", _WAIT, Palette.DARK_INK))
    elif turn:
        pills.append(("▶ TURN", Palette.GOLD, Palette.DARK_INK))
    if car.alive:
        pills.append(("Moving", Palette.GREEN, Palette.INK) if car.moving else _stopped(car, lang))
    chip, pills = _fit_pills(pills, _PANEL_W - 20)
    px = x + 10
    for text, fill, ink in pills:
        text = ellipsize(text, chip, x + _PANEL_W - 10 - px - 20)
        px += c.pill(px, y + 42, text, chip, fill, ink=ink, height=28, pad=10) + 6


_STOPPED = "Stopped · "


def _fit_pills(
    pills: list[tuple[str, RGB, RGB]], room: int
) -> tuple[Font, list[tuple[str, RGB, RGB]]]:
    """The header's status pills and their font: at the readable size when they fit in
    ``room``; else the red pill says only why the car stopped (its colour says it stopped),
    then they shrink together to 16 px, and only then is the last one cut."""

    def width(texts: list[str], fnt: Font) -> int:
        return sum(text_width(text, fnt) + 20 for text in texts) + 6 * (len(texts) - 1)

    texts = [text for text, _, _ in pills]
    full = font(_READABLE, "bold")
    if width(texts, full) <= room:
        return full, pills
    pills = [(text.removeprefix(_STOPPED), fill, ink) for text, fill, ink in pills]
    texts = [text for text, _, _ in pills]
    size = _READABLE
    while size > 16 and width(texts, font(size, "bold")) > room:
        size -= 1
    return font(size, "bold"), pills


def _stopped(car: CarView, lang: str) -> tuple[str, RGB, RGB]:
    """The red pill of a stopped car, naming the card it needs in the table's language."""
    if car.tires >= TIRE_TRACK:
        why = "tires shot"
    elif car.skidded:
        why = "skidded"
    elif car.battle_top is not None and car.battle_top.is_hazard:
        why = car.battle_top.name_in(lang)
    else:
        why = f"needs {Card.GO.name_in(lang)}"
    return (f"{_STOPPED}{why}", Palette.RED, Palette.INK)


# --- the car from above -------------------------------------------------------------------------

_CAR_W, _CAR_H = 84, 150


@lru_cache(maxsize=1)
def _car_body() -> Image.Image:
    """The car seen from above, front up (RGBA)."""
    pad = 8
    img = Image.new("RGBA", (_CAR_W + 2 * pad, _CAR_H + 2 * pad), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    x0, y0 = pad, pad
    x1, y1 = x0 + _CAR_W, y0 + _CAR_H
    d.rounded_rectangle((x0, y0, x1, y1), radius=24, fill=_CAR_BODY, outline=_CAR_DARK, width=3)
    # Windscreen, rear window, roof.
    d.rounded_rectangle((x0 + 12, y0 + 28, x1 - 12, y0 + 50), radius=8, fill=_GLASS)
    d.rounded_rectangle((x0 + 14, y1 - 40, x1 - 14, y1 - 24), radius=6, fill=_GLASS)
    d.rounded_rectangle((x0 + 10, y0 + 54, x1 - 10, y1 - 44), radius=10, fill=(160, 166, 178))
    # The forward gun.
    d.rectangle((x0 + _CAR_W // 2 - 4, y0 - 6, x0 + _CAR_W // 2 + 4, y0 + 14), fill=(60, 62, 70))
    return img


def _draw_car(c: Canvas, car: CarView, cx: int, cy: int) -> None:
    body = _car_body()
    bx, by = cx - body.width // 2, cy - body.height // 2
    if car.fireproof:
        c.rounded(
            (bx - 4, by - 2, bx + body.width + 4, by + body.height + 2), 30, fill=(255, 130, 30)
        )
    # Tires under the body corners.
    tire_colour = _level_colour(car.tires, TIRE_TRACK)
    for tx in (bx + 1, bx + body.width - 14):
        for ty in (by + 26, by + body.height - 56):
            c.rounded((tx, ty, tx + 13, ty + 30), 4, fill=tire_colour, outline=(20, 20, 22))
    c.paste(body, bx, by, with_shadow=False)
    # Driver in the middle: hits taken in the disc, five pips below.
    # (Low enough to leave three readable tags above it.)
    dr, dy = 16, cy + 6
    dcol = _level_colour(car.driver, DRIVER_TRACK)
    c.draw.ellipse((cx - dr, dy - dr, cx + dr, dy + dr), fill=dcol, outline=(20, 20, 22))
    c.text((cx, dy), f"{car.driver}", font(_READABLE, "bold"), Palette.DARK_INK, "mm")
    for i in range(DRIVER_TRACK):
        px = cx - 2 * 10 + i * 10
        fill = _BREACH if i < car.driver else (90, 96, 104)
        c.draw.ellipse((px - 4, dy + 22, px + 4, dy + 30), fill=fill)
    # Side bars: front above, back below, left and right beside.
    _hbar(c, car, 0, cx, by - 12)
    _hbar(c, car, 1, cx, by + body.height + 3)
    _vbar(c, car, 2, bx - 20, cy)
    _vbar(c, car, 3, bx + body.width + 10, cy)
    c.text(
        (cx, by + body.height + 28),
        f"Tires {car.tires}/{TIRE_TRACK}",
        font(_READABLE, "bold"),
        Palette.INK if car.tires else Palette.MUTED,
        "mm",
    )
    tags: list[tuple[str, RGB]] = []
    # "FIREPROOF" first: wider than the car, it fits only above the side bars' ends.
    if car.fireproof:
        tags.append(("FIREPROOF", (230, 120, 30)))
    if car.jammed:
        tags.append(("JAMMED", _BREACH))
    if car.skidded:
        tags.append(("SKID", (150, 110, 60)))
    tf = font(_READABLE, "bold")
    ty = by + 4
    for text, fill in tags:
        tw = text_width(text, tf) + 10
        c.rounded((cx - tw // 2, ty, cx + tw // 2, ty + 22), 6, fill=fill)
        c.text((cx, ty + 11), text, tf, Palette.INK, anchor="mm")
        ty += 24


def _level_colour(value: int, track: int) -> RGB:
    if value <= 0:
        return (80, 180, 100)
    if value >= track:
        return _BREACH
    return (236, 190, 60) if value * 2 < track else _HIT


_SEG = 8  # one hit's segment, gap included


def _segments(c: Canvas, hits: int, horizontal: bool, x: int, y: int) -> None:
    """Twelve segments from (x, y); filled ones show the hits taken."""
    bar = _segment_bar(min(hits, SIDE_TRACK), horizontal)
    c.image.paste(bar, (x, y), bar)


@lru_cache(maxsize=2 * (SIDE_TRACK + 1))
def _segment_bar(hits: int, horizontal: bool) -> Image.Image:
    """``_segments``' bar as an RGBA piece, clear between the segments: a side's 12 segments
    were 12 rectangles drawn for each of the four sides of every car on every render."""
    breached = hits >= SIDE_TRACK
    long, short = SIDE_TRACK * _SEG - 2, 9
    img = Image.new("RGBA", (long + 1, short + 1) if horizontal else (short + 1, long + 1))
    d = ImageDraw.Draw(img)
    for i in range(SIDE_TRACK):
        fill = _BREACH if breached else (_HIT if i < hits else _BAR_EMPTY)
        if horizontal:
            d.rectangle((i * _SEG, 0, i * _SEG + _SEG - 2, short), fill=fill)
        else:
            d.rectangle((0, i * _SEG, short, i * _SEG + _SEG - 2), fill=fill)
    return img


def _hit_mark(car: CarView, side: int) -> tuple[str, RGB]:
    """What a side's bar ends with, across or down the car: its hits, or a ✖ once breached
    (every further hit on that side goes to the driver), in a red light enough to read on the
    floor to a protanope, who sees red darker."""
    if car.breached[side]:
        return "✖", Palette.RED_INK
    return str(car.hits[side]), Palette.INK


def _hbar(c: Canvas, car: CarView, side: int, cx: int, y: int) -> None:
    length = SIDE_TRACK * _SEG - 2
    x = cx - length // 2
    _segments(c, car.hits[side], True, x, y)
    text, colour = _hit_mark(car, side)
    c.text((x + length + 5, y + 5), text, font(_READABLE, "bold"), colour, anchor="lm")
    c.text((x - 5, y + 5), SIDES[side][0].upper(), font(_READABLE, "bold"), Palette.MUTED, "rm")


def _vbar(c: Canvas, car: CarView, side: int, x: int, cy: int) -> None:
    length = SIDE_TRACK * _SEG - 2
    y = cy - length // 2
    _segments(c, car.hits[side], False, x, y)
    text, colour = _hit_mark(car, side)
    # The letter beside the bar's middle, outside: above it, it ran into the tags.
    letter = SIDES[side][0].upper()
    lx, anchor = (x - 5, "rm") if side == 2 else (x + 14, "lm")
    c.text((lx, cy), letter, font(_READABLE, "bold"), Palette.MUTED, anchor)
    c.text((x + 5, y + length + 13), text, font(_READABLE, "bold"), colour, anchor="mm")


# --- the Mille Bornes side -----------------------------------------------------------------


def _draw_mille(c: Canvas, view: DragonPublicView, car: CarView, x: int, y: int) -> None:
    lang = view.lang
    row = y + _PILES_Y
    for i, top in enumerate((car.battle_top, car.speed_top)):
        cx = x + i * _SPEED_DX
        if top is not None:
            c.paste(draw_card(top, *_MINI, lang), cx, row, with_shadow=False)
        else:
            dashed_rounded(c.draw, (cx, row, cx + _MINI[0], row + _MINI[1]), (90, 96, 110), 5, 4)
    # Hand sizes on a line of their own under the piles: beside them "CW 10" had 58 px and
    # shrank to 16 px.
    span = _PANEL_W - 10 - _MB_X
    # "MB 7 · CW 10" read as one line, not as titles under the piles.
    hf = font(_READABLE, "bold")
    mb = f"MB {car.mb_hand_count}"
    c.text((x, y + _HANDS_Y), mb, hf, Palette.INK, "lm")
    dot_x = x + text_width(mb, hf) + 11
    c.text((dot_x, y + _HANDS_Y), "·", hf, Palette.MUTED, "mm")
    c.text((dot_x + 11, y + _HANDS_Y), f"CW {car.cw_hand_count}", hf, Palette.INK, "lm")
    # Safeties; one played as a coup fourré has a gold "CF" band (the 40 px card has no room
    # for "COUP" at a readable size).
    badge = font(_READABLE, "bold")
    for i, safety in enumerate(SAFETIES):
        sx = x + i * (_SAFE[0] + 5)
        sy = y + _SAFE_Y
        if safety in car.safeties:
            c.paste(draw_card(safety, *_SAFE, lang), sx, sy, with_shadow=False)
            if safety in car.coups:
                band = (sx + 1, sy + _SAFE[1] - 21, sx + _SAFE[0] - 1, sy + _SAFE[1] - 1)
                c.rounded(band, 4, fill=Palette.GOLD)
                mid = (sx + _SAFE[0] // 2, sy + _SAFE[1] - 11)
                c.text(mid, "CF", badge, Palette.DARK_INK, "mm")
    # Miles bar; two 200s played are counted on the title's line, the limit under the bar.
    my = y + _MILES_Y
    filled = round(span * min(car.mileage, TRIP) / TRIP)
    if filled > 4:
        c.rounded((x, my, x + filled, my + 24), 8, fill=(60, 150, 220))
    mf = font(_READABLE, "bold")
    c.text((x + span // 2, my + 12), f"{car.mileage} / {TRIP}", mf, Palette.INK, "mm", drop=2)
    if car.two_hundreds:
        c.text((x + span, my - 12), f"200s {car.two_hundreds}/2", mf, Palette.MUTED, "rm")
    if car.limited:
        c.text((x, my + 42), "LIMIT 50", mf, Palette.MUTED, "lm")


def _stamp(c: Canvas, view: DragonPublicView, car: CarView, x: int, y: int) -> None:
    """A dead car or a car that left: dimmed, with a stamp saying which."""
    box = (x + 4, y + 40, x + _PANEL_W - 4, y + _PANEL_H - 4)
    region = c.image.crop(box)
    region = Image.blend(region, Image.new("RGB", region.size, (20, 18, 22)), 0.55)
    c.image.paste(region, box[:2])
    if car.left:
        text, sub = "LEFT", "the arena"
    else:
        text = "☠ DEAD"
        killer = car.killed_by
        sub = ""
        if 0 <= killer < len(view.players) and killer != car.seat:
            sub = f"killed by {view.players[killer]}"
    cx, cy = x + _PANEL_W // 2, y + _PANEL_H // 2 + 10
    sf = font(40, "bold")
    tw = text_width(text, sf) + 36
    c.rounded((cx - tw // 2, cy - 32, cx + tw // 2, cy + 32), 12, outline=Palette.RED_INK, width=5)
    c.text((cx, cy), text, sf, Palette.RED_INK, anchor="mm", drop=2)
    if sub:
        sub = ellipsize(sub, font(20, "bold"), _PANEL_W - 20)
        c.text((cx, cy + 52), sub, font(20, "bold"), Palette.INK, anchor="mm", drop=2)


# --- the bottom: last move, pending reaction, result --------------------------------------

_CAPTION_SIZE = 22
_WAITING_SIZE = 20
_MOST_CAPTION_LINES = 16  # the longest Stampede caption, six 32-character names, takes 13
_MOST_WAITING_LINES = 6  # a Stampede waiting for five 32-character names takes 4
_BOX_H = _BOTTOM - 20  # the box in an image of ``table_size``: 8 px above it, 12 below
_CAPTION_TOP = 32  # below the "LAST MOVE" label
_GAP = 6  # between the last move and the waiting bar
_RESULT_TOP = 72  # the result's detail, below its headline


def _fitted(text: str, width: int, room: int, size: int) -> tuple[Font, tuple[str, ...]]:
    """``text`` in ``room`` lines of ``width``, shrunk from ``size`` down to ``_READABLE`` at
    most; text that still needs more lines gets them at ``_READABLE`` (up to a bound)."""
    fnt, lines = fit_wrapped(text, width, room, size, "bold", _READABLE)
    if getattr(fnt, "size", _READABLE) <= _READABLE:  # it may not fit even at the floor
        fnt, lines = fit_wrapped(text, width, _MOST_CAPTION_LINES, _READABLE, "bold", _READABLE)
    return fnt, lines


def _block(fnt: Font, lines: int, step: int) -> int:
    """The height of ``lines`` lines drawn ``step`` apart from their top: the last one's ink."""
    return (lines - 1) * step + int(fnt.getbbox("Ag")[3])


class _Bottom:
    """The bottom box laid out for a view: its fonts, its lines and the height it needs."""

    def __init__(self, view: DragonPublicView, width: int) -> None:
        self.view = view
        inner = width - 2 * _MARGIN - 36
        if view.winners is not None:
            winners = [view.players[s] for s in view.winners]
            head = "★ It's a draw! ★" if not winners else f"★ {' & '.join(winners)} wins! ★"
            # One line, shrunk a little if it must; two lines rather than small text.
            one = fit_font(head, inner, 34, "bold", 26)
            if text_width(head, one) <= inner:
                self.head: tuple[Font, tuple[str, ...]] = (one, (head,))
            else:
                self.head = fit_wrapped(head, inner, 2, 34, "bold", _READABLE)
            detail = view.end_reason
            last = view.caption.replace(view.end_reason, "").strip()
            if last:
                detail = f"{detail} Last move: {last}"
            self.detail = _fitted(detail, inner, 2, _WAITING_SIZE)
            hf, head_lines = self.head
            df, detail_lines = self.detail
            self.head_step = _line_step(hf)
            self.detail_step = _line_step(df) + 3
            # The detail's lines hang from 12 px above ``_RESULT_TOP`` (where the old centred
            # line sat), and 12 px of gold stay under the last one.
            detail_top = _RESULT_TOP + (len(head_lines) - 1) * self.head_step
            self.height = max(_BOX_H, detail_top + _block(df, len(detail_lines), self.detail_step))
            return
        self.waiting: tuple[Font, tuple[str, ...]] | None = None
        room = _BOX_H - _CAPTION_TOP - 8
        pending = view.pending
        if pending is not None:
            # Long names wrap to more lines: the hits and the side come last, and they are
            # what the waiting player decides on.
            self.waiting = fit_wrapped(
                f"WAITING · {pending.text}",
                inner - 14,
                _MOST_WAITING_LINES,
                _WAITING_SIZE,
                "bold",
                _READABLE,
            )
            pf, waiting = self.waiting
            self.bar_h = len(waiting) * _line_step(pf) + 10
            room -= self.bar_h + _GAP
        probe = font(_CAPTION_SIZE, "bold")
        step = _line_step(probe) + 3
        lines = 1 + max(0, (room - _block(probe, 1, step)) // step)
        self.caption = _fitted(view.caption or "—", inner, lines, _CAPTION_SIZE)
        cf, caption_lines = self.caption
        self.caption_step = _line_step(cf) + 3
        need = _CAPTION_TOP + _block(cf, len(caption_lines), self.caption_step) + 8
        if self.waiting is not None:
            need += _GAP + self.bar_h
        self.height = max(_BOX_H, need)

    def draw(self, c: Canvas) -> None:
        view = self.view
        w, h = c.image.size
        box: Box = (_MARGIN, h - 12 - self.height, w - _MARGIN, h - 12)
        x0, y0, x1, y1 = box
        if view.winners is not None:
            c.rounded(box, 14, fill=Palette.GOLD, outline=(255, 240, 180), width=3)
            hf, head_lines = self.head
            for i, line in enumerate(head_lines):
                xy = ((x0 + x1) / 2, y0 + 32 + i * self.head_step)
                c.text(xy, line, hf, Palette.DARK_INK, "mm")
            df, detail_lines = self.detail
            top = y0 + _RESULT_TOP + (len(head_lines) - 1) * self.head_step - 12
            for i, line in enumerate(detail_lines):
                c.text(((x0 + x1) / 2, top + i * self.detail_step), line, df, (70, 50, 10), "ma")
            return
        c.rounded(box, 14, fill=(250, 246, 232), outline=Palette.GOLD_DARK, width=2)
        c.text((x0 + 16, y0 + 6), "LAST MOVE", font(_READABLE, "bold"), (130, 120, 96))
        if self.waiting is not None:
            pf, waiting = self.waiting
            py = y1 - 8 - self.bar_h
            c.rounded((x0 + 10, py, x1 - 10, y1 - 8), 10, fill=_WAIT)
            c.lines(
                (x0 + 22, (py + y1 - 8) / 2), waiting, pf, Palette.DARK_INK, step=_line_step(pf)
            )
        cf, caption_lines = self.caption
        for i, line in enumerate(caption_lines):
            c.text((x0 + 18, y0 + _CAPTION_TOP + i * self.caption_step), line, cf, Palette.DARK_INK)


def _line_step(fnt: Font) -> int:
    """Baseline to baseline for ``fnt``: its tallest letters and a little air."""
    top, bottom = fnt.getbbox("Ag")[1::2]
    return int(bottom - top) + 3


# --- the hand ------------------------------------------------------------------------------


_KIND_COLOURS: dict[str, RGB] = {
    "weapon": (176, 44, 40),
    "flame": (222, 110, 24),
    "called-shot": (150, 36, 96),
    "tire-shot": (120, 60, 30),
    "armor": (62, 98, 146),
    "fireproof": (200, 90, 30),
    "swerve": (40, 132, 80),
    "spin": (30, 110, 110),
    "skid": (132, 96, 52),
    "jam": (100, 60, 150),
    "backfire": (100, 60, 150),
    "stampede": (100, 60, 150),
    "oil-slick": (40, 40, 48),
}
_ICON_TEXT = {
    "mg": "MG",
    "ac": "AC",
    "rocket": "RKT",
    "laser": "LSR",
    "flame": "FLM",
    "called-shot": "AIM",
    "tire-shot": "TIRE",
    "armor": "ARM",
    "fireproof": "FIRE",
    "swerve": "SWV",
    "spin": "SPIN",
    "skid": "SKID",
    "jam": "JAM",
    "backfire": "BKF",
    "stampede": "STMP",
    "oil-slick": "OIL",
}


@lru_cache(maxsize=256)
def draw_cw_card(code: str, w: int, h: int) -> Image.Image:
    """An RGBA Car Wars card face: kind colour, a short icon word, the side it concerns on a
    little car, its hits, and the name."""
    spec = SPECS[code]
    kind = "flame" if spec.flame else spec.kind
    colour = _KIND_COLOURS.get(kind, (90, 90, 100))
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    r = card_radius(w)
    d.rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=r, fill=Palette.CARD_PAPER, outline=Palette.CARD_EDGE
    )
    m = max(3, round(w * 0.055))
    d.rounded_rectangle((m, m, w - 1 - m, h - 1 - m), radius=max(2, r - m // 2), fill=colour)
    band = round(h * 0.26)
    art = (m + 5, m + 5, w - 1 - m - 5, h - 1 - m - band)
    d.rounded_rectangle(art, radius=max(2, r - m), fill=(250, 246, 236))
    aw, ah = art[2] - art[0], art[3] - art[1]
    cx = (art[0] + art[2]) / 2
    word = _ICON_TEXT.get(spec.weapon or spec.kind, spec.kind[:4].upper())
    wf = fit_font(word, round(aw * 0.86), round(h * 0.16), "bold")
    d.text((cx, art[1] + ah * 0.2), word, font=wf, fill=colour, anchor="mm")
    # A little car, front up, with the side concerned marked; the hits beside it.
    ch, cw_ = ah * 0.5, aw * 0.24
    top = art[1] + ah * 0.4
    carx = cx - aw * 0.2 if spec.hits else cx
    d.rounded_rectangle(
        (carx - cw_ / 2, top, carx + cw_ / 2, top + ch), radius=round(cw_ / 3), fill=(150, 156, 168)
    )
    if spec.side >= 0:
        t = max(4, round(w * 0.045))
        x0, x1, y0, y1 = carx - cw_ / 2, carx + cw_ / 2, top, top + ch
        bar = {
            0: (x0, y0 - t - 2, x1, y0 - 2),
            1: (x0, y1 + 2, x1, y1 + t + 2),
            2: (x0 - t - 2, y0, x0 - 2, y1),
            3: (x1 + 2, y0, x1 + t + 2, y1),
        }[spec.side]
        d.rectangle(bar, fill=colour)
    elif spec.kind == "tire-shot":
        for tx in (carx - cw_ / 2 - 4, carx + cw_ / 2 - 2):
            for ty in (top + ch * 0.12, top + ch * 0.62):
                d.rectangle((tx, ty, tx + 6, ty + ch * 0.26), fill=colour)
    if spec.hits:
        hf = font(round(ah * 0.34), "bold")
        d.text((cx + aw * 0.24, top + ch * 0.42), str(spec.hits), font=hf, fill=colour, anchor="mm")
        d.text(
            (cx + aw * 0.24, top + ch * 0.95),
            "hits",
            font=font(round(ah * 0.14), "bold"),
            fill=colour,
            anchor="mm",
        )
    name = spec.name
    fnt, lines = fit_wrapped(name, w - 2 * m - 4, 2, round(h * 0.085), "cond", 8)
    mid = h - 1 - m - band / 2
    step = (fnt.size if hasattr(fnt, "size") else 10) * 1.1
    first = mid - step * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        d.text((w / 2, first + i * step), line, font=fnt, fill=(255, 255, 255), anchor="mm")
    return img


def usable_cards(view: DragonSeatView) -> tuple[set[str], set[str]]:
    """The Mille Bornes and Car Wars card codes some legal play uses now (not discards)."""
    mb: set[str] = set()
    cw: set[str] = set()
    for text in view.legal:
        words = text.split()
        head = words[0]
        if head == "play" and len(words) > 1:
            mb.add(words[1])
        elif head == "armor" and len(words) > 1:
            cw.add(f"armor-{words[1]}")
        elif head in SPECS:
            cw.add(head)
    return mb, cw


def _top_lines(view: DragonSeatView) -> tuple[Font, tuple[str, ...], int]:
    """The hand's top line (``phase_line``) as drawn: two lines at up to 26 px, or, when two
    lines would take it under ``_READABLE`` (five long names waited for came out at 19 px),
    as many as it needs at ``_READABLE``; and how many pixels taller than two lines it is."""
    text, room = phase_line(view), HAND_SIZE[0] - 60
    readable = font(_READABLE, "bold")
    lines = tuple(wrap(text, readable, room))
    if len(lines) <= 2:
        fnt, lines = fit_wrapped(text, room, 2, 26, "bold", _READABLE)
        return fnt, lines, 0
    return readable, lines, (len(lines) - 2) * _line_step(readable)


def hand_size(view: DragonSeatView) -> tuple[int, int]:
    """The size of ``view``'s hand image: ``HAND_SIZE``, taller when its top line needs more
    than two lines to stay readable."""
    return HAND_SIZE[0], HAND_SIZE[1] + _top_lines(view)[2]


def render_hand(view: DragonSeatView) -> Image.Image:
    """The seat's two hands: Mille Bornes cards above, Car Wars cards below, each in the order
    its moves are listed; cards no legal play uses right now are dimmed."""
    w = HAND_SIZE[0]
    fnt, lines, extra = _top_lines(view)
    c = Canvas(felt(w, HAND_SIZE[1] + extra, (40, 36, 44), (22, 20, 26)).copy())
    mb_ok, cw_ok = usable_cards(view)
    pub = view.public
    c.lines((30, 30 + extra / 2), lines, fnt, Palette.INK, step=_line_step(fnt), drop=2)
    label = font(_READABLE, "bold")
    cw_, ch = _HAND_CARD
    y = 96 + extra
    c.text((30, y - 16), "MILLE BORNES", label, Palette.MUTED, anchor="lm")
    if not view.mb_hand:
        c.text((30, y + 30), "no cards", font(20, "bold"), Palette.MUTED)
    step = _hand_step(len(view.mb_hand), cw_)
    # In the order the buttons and menus list the cards (the deck's; Car Wars cards in
    # ``CW_ORDER``): as held, in the order drawn, the picture's third card was not the third
    # the discard menu named.
    for i, card in enumerate(in_deck_order(view.mb_hand)):
        x = 30 + i * step
        face = draw_card(card, cw_, ch, pub.lang)
        c.paste(face if card.value in mb_ok or not view.legal else _dim(face), x, y)
        if card.value in mb_ok:
            c.rounded((x - 3, y - 3, x + cw_ + 3, y + ch + 3), 12, outline=(120, 230, 140), width=3)
    y += ch + 44
    cw_, ch = _HAND_CW_CARD
    c.text((30, y - 16), "CAR WARS", label, Palette.MUTED, anchor="lm")
    if not view.cw_hand:
        c.text((30, y + 30), "no cards", font(20, "bold"), Palette.MUTED)
    step = _hand_step(len(view.cw_hand), cw_)
    for i, code in enumerate(in_cw_order(view.cw_hand)):
        x = 30 + i * step
        face = draw_cw_card(code, cw_, ch)
        c.paste(face if code in cw_ok or not view.legal else _dim(face), x, y)
        if code in cw_ok:
            c.rounded((x - 3, y - 3, x + cw_ + 3, y + ch + 3), 12, outline=(120, 230, 140), width=3)
    return c.image


def _hand_step(count: int, card_w: int) -> int:
    """How far apart a hand row's cards are: 14 px between them, or overlapping (fanned) when
    more cards than a full hand must fit the row."""
    room = HAND_SIZE[0] - 60 - card_w
    return min(card_w + 14, room // max(1, count - 1))


def hand_png(view: DragonSeatView) -> bytes:
    """``render_hand`` as PNG bytes."""
    return to_png(render_hand(view))


def _dim(face: Image.Image) -> Image.Image:
    """A card face darkened (cards no legal play uses now)."""
    out = face.copy()
    out.alpha_composite(Image.new("RGBA", face.size, (24, 22, 28, 150)))
    out.putalpha(face.getchannel("A"))
    return out


def phase_line(view: DragonSeatView) -> str:
    """The hand image's top line: what this seat must do now (also the start of its alt text)."""
    pub = view.public
    if pub.winners is not None:
        return pub.end_reason or "The game is over."
    me = pub.cars[view.seat]
    if not me.alive:
        return "Your car is out of the race."
    if view.phase == "wait":
        return f"Waiting for {names([pub.players[s] for s in pub.to_act])}."
    if view.phase == "turn":
        parts = []
        if pub.mb_left > 0:
            parts.append("one Mille Bornes move")
        if not pub.cw_done:
            parts.append("one Car Wars move")
        return "Your turn: " + (" and ".join(parts) if parts else "end the turn") + "."
    pending = pub.pending
    if pending is not None:
        if pending.kind == "stampede":
            return "Stampede! Pick the side that takes 2 hits (armor on it stops them)."
        if pending.kind == "wall":
            return "You skid into a wall: pick the side that takes 3 hits."
        # The public line names the deciding player; their own hand says "you".
        mine = f"{pub.players[view.seat]} may "
        text = pending.text
        if pending.actor == view.seat and text.startswith(mine):
            text = "you may " + text[len(mine) :]
        return f"Decide now: {text}"
    return "Your move."

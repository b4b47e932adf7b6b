"""The Mille Bornes card faces and card back, shared by every game played with those cards.

Classic Mille Bornes, Mille Bornes Solo and Dragon Mille Bornes draw their cards with these.
Faces are cached (``lru_cache``): a table pastes ready-made cards, so callers must never draw
on a returned image.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.engine.mille.cards import Card, Kind
from bot.render.common import (
    READABLE,
    RGB,
    Font,
    Palette,
    card_radius,
    fit_font,
    fit_wrapped,
    font,
    text_width,
)

# Per kind: (frame colour, art background, text on frame).
KIND_COLOURS: dict[Kind, tuple[RGB, RGB, RGB]] = {
    Kind.DISTANCE: ((28, 95, 184), (228, 239, 251), (255, 255, 255)),
    Kind.HAZARD: ((196, 40, 40), (253, 233, 230), (255, 255, 255)),
    Kind.REMEDY: ((38, 125, 50), (230, 245, 231), (255, 255, 255)),
    Kind.SAFETY: ((226, 178, 54), (70, 34, 104), (48, 22, 72)),
}


def _poly(cx: float, cy: float, pts: Sequence[tuple[float, float]], s: float) -> list[float]:
    """Unit-square points (centred on 0,0) scaled by ``s`` and moved to (cx, cy)."""
    out: list[float] = []
    for px, py in pts:
        out.extend((cx + px * s, cy + py * s))
    return out


def _rotated(
    cx: float, cy: float, pts: Sequence[tuple[float, float]], s: float, degrees: float
) -> list[float]:
    a = math.radians(degrees)
    ca, sa = math.cos(a), math.sin(a)
    return _poly(cx, cy, [(x * ca - y * sa, x * sa + y * ca) for x, y in pts], s)


def _fuel_can(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, body: RGB) -> None:
    ink = Palette.DARK_INK
    lw = max(1, round(s * 0.04))
    # Jerry can: a slanted-shoulder body, a spout at the top left, a handle hole top right.
    body_pts = [(-0.32, -0.22), (-0.12, -0.42), (0.34, -0.42), (0.34, 0.44), (-0.32, 0.44)]
    d.polygon(_poly(cx, cy, body_pts, s), fill=body, outline=ink, width=lw)
    spout = [(-0.36, -0.3), (-0.5, -0.44), (-0.42, -0.5), (-0.26, -0.36)]
    d.polygon(_poly(cx, cy, spout, s), fill=body, outline=ink, width=lw)
    hole = (cx + 0.06 * s, cy - 0.36 * s, cx + 0.26 * s, cy - 0.26 * s)
    d.rounded_rectangle(hole, radius=max(1, s * 0.04), fill=ink)
    # The embossed X of a real jerry can.
    d.line((cx - 0.2 * s, cy - 0.12 * s, cx + 0.22 * s, cy + 0.34 * s), fill=ink, width=lw)
    d.line((cx + 0.22 * s, cy - 0.12 * s, cx - 0.2 * s, cy + 0.34 * s), fill=ink, width=lw)


def _no_slash(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    """A red "prohibited" ring and bar over a symbol (used for Out of Gas)."""
    w = max(2, round(s * 0.09))
    r = s * 0.56
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=Palette.RED, width=w)
    k = r * 0.7
    d.line((cx - k, cy - k, cx + k, cy + k), fill=Palette.RED, width=w)


def _tyre(
    d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, flat: bool, bg: RGB = (255, 255, 255)
) -> None:
    ink = (30, 30, 32)
    r = s * 0.46
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
    if flat:
        # Cut the bottom off and add a wide squashed bulge: the tyre sags onto the road.
        d.rectangle((cx - r - 2, cy + r * 0.55, cx + r + 2, cy + r + 2), fill=bg)
        d.rounded_rectangle(
            (cx - r * 1.12, cy + r * 0.35, cx + r * 1.12, cy + r * 0.78), radius=r * 0.2, fill=ink
        )
        ground = cy + r * 0.8
        lw = max(1, round(s * 0.05))
        d.line((cx - r * 1.45, ground, cx + r * 1.45, ground), fill=(90, 90, 96), width=lw)
        # Air escaping to the right.
        for i in range(3):
            y = cy - r * 0.55 + i * r * 0.32
            d.line((cx + r * 1.05, y, cx + r * 1.45, y - r * 0.14), fill=Palette.RED, width=lw)
    else:
        for i in range(12):
            a = math.radians(i * 30)
            x0, y0 = cx + math.cos(a) * r * 0.86, cy + math.sin(a) * r * 0.86
            x1, y1 = cx + math.cos(a) * r, cy + math.sin(a) * r
            d.line((x0, y0, x1, y1), fill=(90, 90, 96), width=max(1, round(s * 0.03)))
    hub = r * 0.5
    hy = cy - (r * 0.1 if flat else 0)
    d.ellipse((cx - hub, hy - hub, cx + hub, hy + hub), fill=(182, 184, 190))
    for i in range(5):
        a = math.radians(i * 72 - 90)
        x, y = cx + math.cos(a) * hub * 0.55, hy + math.sin(a) * hub * 0.55
        k = max(1.0, hub * 0.13)
        d.ellipse((x - k, y - k, x + k, y + k), fill=(70, 70, 76))


def _star(cx: float, cy: float, r_out: float, r_in: float, points: int) -> list[float]:
    pts: list[float] = []
    for i in range(points * 2):
        r = r_out if i % 2 == 0 else r_in
        # Alternate long/short spikes so it reads as a crash, not a sheriff's star.
        if i % 4 == 2:
            r *= 0.78
        a = math.radians(i * 180 / points - 90)
        pts.extend((cx + math.cos(a) * r, cy + math.sin(a) * r))
    return pts


def _crash(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    d.polygon(_star(cx, cy, s * 0.55, s * 0.26, 9), fill=(255, 140, 30), outline=Palette.RED)
    d.polygon(_star(cx, cy, s * 0.32, s * 0.15, 9), fill=(255, 228, 80))


def _wrench(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: RGB) -> None:
    ink = Palette.DARK_INK
    # Handle from the bottom left up to an open-jaw head at the top right.
    hx, hy = cx + 0.16 * s, cy - 0.16 * s
    lw = max(3, round(s * 0.16))
    d.line((cx - 0.36 * s, cy + 0.36 * s, hx, hy), fill=ink, width=lw + 2)
    d.line((cx - 0.36 * s, cy + 0.36 * s, hx, hy), fill=colour, width=lw)
    r = s * 0.22
    d.ellipse((hx - r - 1, hy - r - 1, hx + r + 1, hy + r + 1), fill=ink)
    d.ellipse((hx - r, hy - r, hx + r, hy + r), fill=colour)
    # The jaw: a slot cut into the head, opening towards the top right.
    jaw = [(-0.16, 0.1), (0.16, 0.1), (0.16, -1.0), (-0.16, -1.0)]
    d.polygon(_rotated(hx, hy, jaw, s * 0.4, 45), fill=KIND_COLOURS[Kind.REMEDY][1])
    e = s * 0.05
    d.ellipse((cx - 0.3 * s - e, cy + 0.3 * s - e, cx - 0.3 * s + e, cy + 0.3 * s + e), fill=ink)


def _octagon(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    r = s * 0.5
    pts: list[float] = []
    for i in range(8):
        a = math.radians(22.5 + i * 45)
        pts.extend((cx + math.cos(a) * r, cy + math.sin(a) * r))
    d.polygon(pts, fill=(255, 255, 255))
    inner = [v * 0.88 + c * 0.12 for v, c in zip(pts, [cx, cy] * 8, strict=True)]
    d.polygon(inner, fill=Palette.RED)
    fnt = fit_font("STOP", round(s * 0.74), round(s * 0.3), "cond")
    d.text((cx, cy), "STOP", font=fnt, fill=(255, 255, 255), anchor="mm")


def _traffic_light(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, lit: str) -> None:
    w, h = s * 0.42, s * 0.96
    d.rounded_rectangle(
        (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), radius=w * 0.3, fill=(34, 36, 40)
    )
    r = w * 0.32
    lamps = {"red": (230, 50, 40), "amber": (240, 170, 30), "green": (60, 210, 90)}
    for i, name in enumerate(("red", "amber", "green")):
        y = cy - h / 2 + h * (0.2 + 0.3 * i)
        on = name == lit
        colour = lamps[name] if on else (70, 72, 76)
        if on:
            g = r * 1.35
            d.ellipse((cx - g, y - g, cx + g, y + g), fill=tuple(c // 2 + 40 for c in colour))
        d.ellipse((cx - r, y - r, cx + r, y + r), fill=colour)


def _speed_sign(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, ended: bool) -> None:
    r = s * 0.5
    ring = (150, 150, 150) if ended else Palette.RED
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ring)
    k = r * 0.78
    d.ellipse((cx - k, cy - k, cx + k, cy + k), fill=(255, 255, 255))
    fnt = fit_font("50", round(k * 1.5), round(s * 0.46), "bold")
    d.text((cx, cy), "50", font=fnt, fill=(120, 120, 120) if ended else (20, 20, 20), anchor="mm")
    if ended:
        # The European "end of limit" sign: diagonal black bars across the number.
        for off in (-0.12, 0.0, 0.12):
            o = off * s
            d.line(
                (cx - k * 0.7 + o, cy + k * 0.7 + o, cx + k * 0.7 + o, cy - k * 0.7 + o),
                fill=(20, 20, 20),
                width=max(1, round(s * 0.035)),
            )


def _fuel_pump(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    body = (38, 125, 50)
    ink = Palette.DARK_INK
    lw = max(1, round(s * 0.035))
    d.rounded_rectangle(
        (cx - 0.34 * s, cy - 0.46 * s, cx + 0.12 * s, cy + 0.44 * s),
        radius=s * 0.06,
        fill=body,
        outline=ink,
        width=lw,
    )
    d.rectangle(
        (cx - 0.26 * s, cy - 0.36 * s, cx + 0.04 * s, cy - 0.12 * s),
        fill=(236, 248, 236),
        outline=ink,
        width=lw,
    )
    d.rectangle((cx - 0.42 * s, cy + 0.4 * s, cx + 0.2 * s, cy + 0.5 * s), fill=ink)
    # The hose loops out of the side and up to the nozzle.
    d.line(
        (cx + 0.12 * s, cy - 0.05 * s, cx + 0.3 * s, cy + 0.05 * s, cx + 0.3 * s, cy - 0.3 * s),
        fill=ink,
        width=max(2, round(s * 0.05)),
        joint="curve",
    )
    d.polygon(
        _poly(cx, cy, [(0.24, -0.3), (0.38, -0.3), (0.42, -0.42), (0.22, -0.42)], s), fill=ink
    )


def _tank(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: RGB) -> None:
    """A fuel tanker's drum seen from the side: the Extra Tank safety."""
    ink = Palette.DARK_INK
    w, h = s * 0.84, s * 0.46
    d.rounded_rectangle(
        (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2),
        radius=h / 2,
        fill=colour,
        outline=ink,
        width=max(1, round(s * 0.035)),
    )
    for fx in (-0.18, 0.18):
        x = cx + fx * s
        d.line((x, cy - h / 2, x, cy + h / 2), fill=ink, width=max(1, round(s * 0.03)))
    d.rectangle((cx - 0.06 * s, cy - h / 2 - 0.08 * s, cx + 0.06 * s, cy - h / 2), fill=ink)
    d.ellipse(
        (cx - 0.1 * s, cy - 0.02 * s, cx + 0.1 * s, cy + 0.16 * s),
        fill=ink,
    )


def _steering_wheel(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: RGB) -> None:
    r = s * 0.46
    w = max(2, round(s * 0.09))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=w)
    hub = r * 0.26
    d.ellipse((cx - hub, cy - hub, cx + hub, cy + hub), fill=colour)
    for a_deg in (180, 0, 90):
        a = math.radians(a_deg)
        d.line((cx, cy, cx + math.cos(a) * r, cy + math.sin(a) * r), fill=colour, width=w)


def _beacon(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: RGB) -> None:
    """A flashing emergency light: the Right of Way safety."""
    base_w = s * 0.6
    d.rounded_rectangle(
        (cx - base_w / 2, cy + 0.16 * s, cx + base_w / 2, cy + 0.3 * s),
        radius=s * 0.03,
        fill=colour,
    )
    dome = s * 0.24
    d.pieslice(
        (cx - dome, cy + 0.16 * s - dome * 1.5, cx + dome, cy + 0.16 * s + dome * 1.5),
        180,
        360,
        fill=(230, 56, 48),
    )
    lw = max(1, round(s * 0.05))
    for a_deg in (-160, -125, -90, -55, -20):
        a = math.radians(a_deg)
        r0, r1 = s * 0.36, s * 0.5
        d.line(
            (
                cx + math.cos(a) * r0,
                cy + 0.1 * s + math.sin(a) * r0,
                cx + math.cos(a) * r1,
                cy + 0.1 * s + math.sin(a) * r1,
            ),
            fill=colour,
            width=lw,
        )


SHIELD_FILL: RGB = (246, 204, 74)
"""The safeties' shield (what a coup fourré's sash must leave to be seen)."""


def _shield(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    pts = [(-0.46, -0.44), (0.0, -0.52), (0.46, -0.44), (0.44, 0.02)]
    # The curved lower half as a few points down to the tip.
    pts += [(0.36, 0.24), (0.2, 0.4), (0.0, 0.52), (-0.2, 0.4), (-0.36, 0.24), (-0.44, 0.02)]
    d.polygon(_poly(cx, cy, pts, s), fill=SHIELD_FILL, outline=(120, 80, 10), width=2)
    inner = [(x * 0.84, y * 0.84) for x, y in pts]
    d.polygon(_poly(cx, cy - 0.01 * s, inner, s), outline=(196, 144, 30), width=1)


def _borne(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    """A French milestone (borne): a white post with a red rounded cap."""
    w, h = s * 0.62, s * 0.8
    top = cy - h / 2
    edge = (18, 62, 122)
    d.rounded_rectangle(
        (cx - w / 2, top, cx + w / 2, cy + h / 2), radius=w / 2, fill=(255, 255, 255), outline=edge
    )
    d.pieslice((cx - w / 2, top, cx + w / 2, top + w), 180, 360, fill=(210, 40, 40), outline=edge)
    d.rectangle((cx - w / 2, cy + h / 2 - 2, cx + w / 2, cy + h / 2), fill=edge)


def draw_symbol(d: ImageDraw.ImageDraw, card: Card, cx: float, cy: float, s: float) -> None:
    """The card's picture, drawn in a box ``s`` px wide centred on (cx, cy)."""
    safety_ink = (70, 34, 104)
    if card is Card.OUT_OF_GAS:
        _fuel_can(d, cx, cy, s * 0.8, (150, 150, 156))
        _no_slash(d, cx, cy, s)
    elif card is Card.GASOLINE:
        _fuel_pump(d, cx, cy, s * 0.92)
    elif card is Card.EXTRA_TANK:
        _shield(d, cx, cy, s)
        _tank(d, cx, cy - s * 0.04, s * 0.62, safety_ink)
    elif card is Card.FLAT_TIRE:
        _tyre(d, cx - s * 0.1, cy, s * 0.8, flat=True, bg=KIND_COLOURS[Kind.HAZARD][1])
    elif card is Card.SPARE_TIRE:
        _tyre(d, cx, cy, s * 0.96, flat=False)
    elif card is Card.PUNCTURE_PROOF:
        _shield(d, cx, cy, s)
        _tyre(d, cx, cy - s * 0.04, s * 0.6, flat=False)
    elif card is Card.ACCIDENT:
        _crash(d, cx, cy, s)
    elif card is Card.REPAIRS:
        _wrench(d, cx, cy, s, (120, 126, 136))
    elif card is Card.DRIVING_ACE:
        _shield(d, cx, cy, s)
        _steering_wheel(d, cx, cy - s * 0.04, s * 0.6, safety_ink)
    elif card is Card.STOP:
        _octagon(d, cx, cy, s * 0.96)
    elif card is Card.GO:
        _traffic_light(d, cx, cy, s, "green")
    elif card is Card.RIGHT_OF_WAY:
        _shield(d, cx, cy, s)
        _beacon(d, cx, cy - s * 0.06, s * 0.6, safety_ink)
    elif card is Card.SPEED_LIMIT:
        _speed_sign(d, cx, cy, s * 0.94, ended=False)
    elif card is Card.END_OF_LIMIT:
        _speed_sign(d, cx, cy, s * 0.94, ended=True)


@lru_cache(maxsize=1024)
def name_layout(name: str, w: int, h: int) -> tuple[Font, tuple[str, ...], int]:
    """How a face ``w``×``h`` writes ``name``: its font, its lines (one or two) and the name
    band's height (0 below 80 px wide, where no name is written).

    The name may run the card's whole width, over the paper margin (a ribbon, as a face's
    name is what says what it is), and is written at ``READABLE`` or more where its words fit
    that wide: the band grows to two lines of it and the picture shrinks. On the table's
    100 px cards the two-line names ("Extra Tank", "Right of Way") were 14 px, 7 on a phone.
    A word too wide for the card even so is broken at a syllable (``name_lines``)."""
    if w < 80:
        return font(READABLE, "cond"), (), 0
    room = w - 2 * _RIBBON_EDGE - 2 * _RIBBON_PAD
    size = max(READABLE, round(h * 0.1))
    fnt, lines = name_lines(name, room, size)
    line_h = _line_height(fnt, len(lines))
    # Three lines sit closer, with less band round them, so the picture keeps more room.
    pad = 4 if len(lines) > 2 else 8
    band_h = max(round(h * 0.27), math.ceil(line_h * len(lines)) + pad)
    return fnt, lines, band_h


_SYLLABLES: dict[str, str] = {
    word.replace("·", ""): word
    for word in (
        # English: the words of Solo's pile cards' names, the widest of a 100 px card's.
        "Ac·ci·dent",
        "Gas·o·line",
        "Re·pairs",
        "Punc·ture",
        # French, where the printed cards' names are longer.
        "Ré·pa·ra·tions",
        "Cre·vai·son",
        "In·cre·vable",
        "d'es·sence",
        "Es·sence",
        "Ci·terne",
        "Véhi·cule",
        "prio·ri·taire",
        "vi·tesse",
        "se·cours",
        "li·mite",
        "vo·lant",
    )
}
"""Where a card's name may be broken with a hyphen, as a dictionary breaks it: the French
names' widest words are wider than a 100 px card at 20 px ("Réparations" 123 px), and were
written at 14-19 px; no bundled face is narrower than DejaVu Sans Condensed Bold."""


@lru_cache(maxsize=256)
def name_lines(name: str, room: int, size: int) -> tuple[Font, tuple[str, ...]]:
    """``name`` at ``size`` in lines of ``room`` px: its words whole on one or two lines, or
    else broken at a syllable ("Répa- / rations") on two lines, or three ("Panne / d'es- /
    sence"), the fewest lines, then the fewest breaks, then the narrowest. Only a name that
    fits none of these shrinks (whole words, two lines)."""
    fnt, lines = fit_wrapped(name, room, 2, size, "cond")
    if not isinstance(fnt, ImageFont.FreeTypeFont) or fnt.size >= size:
        return fnt, lines
    fnt = font(size, "cond")
    pieces: list[tuple[str, bool]] = []  # (syllables, whether they start a word)
    for word in name.split():
        pieces += [(piece, i == 0) for i, piece in enumerate(_SYLLABLES.get(word, word).split("·"))]
    best: tuple[tuple[int, int, int], tuple[str, ...]] | None = None
    for cuts in range(2 ** (len(pieces) - 1)):
        broken: list[str] = [pieces[0][0]]
        hyphens = 0
        for k, (piece, starts) in enumerate(pieces[1:]):
            if cuts >> k & 1:
                if not starts:
                    broken[-1] += "-"
                    hyphens += 1
                broken.append(piece)
            else:
                broken[-1] += f" {piece}" if starts else piece
        widest = max(text_width(line, fnt) for line in broken)
        if len(broken) <= 3 and widest <= room:
            rank = (len(broken), hyphens, widest)
            if best is None or rank < best[0]:
                best = (rank, tuple(broken))
    if best is None:
        return fit_wrapped(name, room, 2, size, "cond")
    return fnt, best[1]


_RIBBON_EDGE = 2
"""The paper left either side of a face's name ribbon."""
_RIBBON_PAD = 2
"""The frame colour left either side of a name as wide as the ribbon."""


def _line_height(fnt: Font, lines: int = 1) -> float:
    """From one line of a name to the next: three lines ("Véhicule / prio- / ritaire") are
    set solid, the font's size apart (still clear of each other: these names have hardly a
    letter below the line), which with their band's smaller padding gives their picture 9 px
    more of the card's height."""
    if not isinstance(fnt, ImageFont.FreeTypeFont):
        return 12.0
    return fnt.size * (1.0 if lines > 2 else 1.08)


def _face_name(card: Card, w: int, h: int, lang: str) -> tuple[Font, tuple[str, ...], int]:
    """``name_layout`` of what ``card``'s face writes: its name, or a distance card's unit
    alone where "100 miles" would take two lines under a big "100" (the number once is enough,
    and the unit then keeps its full size)."""
    name = card.name_in(lang)
    layout = name_layout(name, w, h)
    if card.is_distance and len(layout[1]) > 1:
        return name_layout(name.removeprefix(f"{card.miles} "), w, h)
    return layout


def _paper(w: int) -> int:
    """The white paper margin around a face's coloured frame."""
    return max(3, round(w * 0.055))


@lru_cache(maxsize=512)
def draw_card(card: Card, w: int, h: int, lang: str = "en") -> Image.Image:
    """An RGBA card face ``w``×``h``: kind colours, a picture, the name (and the miles).

    Below 80 px wide the name band is left out (it could not be read) and the picture fills
    the card; distance cards always show their number.
    """
    frame, art_bg, band_ink = KIND_COLOURS[card.kind]
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = card_radius(w)
    edge = (150, 104, 12) if card.is_safety else Palette.CARD_EDGE
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=Palette.CARD_PAPER, outline=edge)
    m = _paper(w)
    inner = (m, m, w - 1 - m, h - 1 - m)
    d.rounded_rectangle(inner, radius=max(2, radius - m // 2), fill=frame)
    small = w < 80
    fnt, lines, band_h = _face_name(card, w, h, lang)
    b = max(2, round(w * 0.04))
    art = (inner[0] + b, inner[1] + b, inner[2] - b, inner[3] - b - band_h)
    d.rounded_rectangle(art, radius=max(2, radius - m), fill=art_bg)
    aw, ah = art[2] - art[0], art[3] - art[1]
    cx, cy = (art[0] + art[2]) / 2, (art[1] + art[3]) / 2

    if card.is_distance:
        number = str(card.miles)
        size = round(min(ah * 0.52, aw * 0.62 if len(number) < 3 else aw * 0.44))
        number_font = fit_font(number, aw - 4, size, "bold")
        if ah > 1.25 * aw * 0.62 and not small:
            # Room for a milestone above the number, like the printed cards.
            _borne(d, cx, art[1] + ah * 0.25, ah * 0.36)
            d.text(
                (cx, art[1] + ah * 0.68), number, font=number_font, fill=(18, 62, 122), anchor="mm"
            )
        else:
            d.text((cx, cy), number, font=number_font, fill=(18, 62, 122), anchor="mm")
    else:
        # The picture fills more of a squat art box (under a three-line name): its height is
        # what limits it, and 0.84 of it left a 39 px picture on the table's 100 px cards.
        draw_symbol(d, card, cx, cy, min(aw, ah) * (0.92 if len(lines) > 2 else 0.84))

    if band_h:
        band = (_RIBBON_EDGE, art[3] + b, w - 1 - _RIBBON_EDGE, inner[3] - b)
        if max(text_width(line, fnt) for line in lines) > inner[2] - inner[0] - 4:
            # Wider than the frame: the ribbon runs over the paper margin, rounded at its ends.
            d.rounded_rectangle(band, radius=max(2, (band[3] - band[1]) // 4), fill=frame)
        line_h = _line_height(fnt, len(lines))
        mid = (band[1] + band[3]) / 2
        top = mid - line_h * (len(lines) - 1) / 2
        for i, line in enumerate(lines):
            d.text((w / 2, top + i * line_h), line, font=fnt, fill=band_ink, anchor="mm")
    return img


@lru_cache(maxsize=32)
def card_back(w: int, h: int) -> Image.Image:
    """The back of a card: navy with a diamond lattice and a "1000" medallion."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = card_radius(w)
    d.rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=radius, fill=Palette.CARD_PAPER, outline=Palette.CARD_EDGE
    )
    m = max(2, round(w * 0.07))
    d.rounded_rectangle(
        (m, m, w - 1 - m, h - 1 - m), radius=max(2, radius - m // 2), fill=(22, 58, 112)
    )
    step = max(6, w // 6)
    lattice = (44, 88, 150)
    for k in range(-h, w + h, step):
        d.line((m + k, m, m + k + h, m + h), fill=lattice, width=1)
        d.line((m + k, m + h, m + k + h, m), fill=lattice, width=1)
    # Re-trim the lattice to the rounded panel by redrawing the paper margin on top.
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, outline=Palette.CARD_PAPER, width=m)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, outline=Palette.CARD_EDGE)
    if w >= 40:
        # A wide plate and the condensed face: on the 76 px deck the "1000" was 15 px (bold in
        # a plate 70 % of the card wide), 20 px now, as on the 1000 Mile Race's library.
        ow, oh = w * 0.8, h * 0.32
        cx, cy = w / 2, h / 2
        d.ellipse(
            (cx - ow / 2, cy - oh / 2, cx + ow / 2, cy + oh / 2),
            fill=(196, 40, 40),
            outline=(255, 255, 255),
            width=max(1, w // 40),
        )
        fnt = fit_font("1000", round(ow * 0.84), round(oh * 0.62), "cond")
        d.text((cx, cy), "1000", font=fnt, fill=(255, 255, 255), anchor="mm")
    # The lattice overruns the rounded corners: cut the card to shape with a mask.
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=255)
    img.putalpha(mask)
    return img

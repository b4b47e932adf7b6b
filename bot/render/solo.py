"""Mille Bornes Solo images: the table (highways, tank, hand), the hand alone, and the result.

Every function takes an engine *view* and returns PNG bytes (or a Pillow image); the same view
always gives the same pixels, and hidden cards are never known here: a highway's face-down
cards are drawn as card backs, one per card, and the tank as a stack of backs with its count.
The drawing kit (fonts, palette, card faces, PNG encoder) is the classic table's, so both games
look alike.

Layout of the table, top to bottom: the title bar (preset, deck), the seven highways (each a
pile of backs under its face-up top, numbered as players type them), the road (tank, refuels,
discard pile, cards cleared, miles in front of you), the hand (each playable card tagged with
the highways it clears), and the last move — or, once the game is over, the result banner.
The table is ``TABLE_SIZE`` unless the automatic steps after the last move need more than one
line at a readable size: it grows a line for each (``table_size``).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.mille.cards import DISTANCES, Card, distance_word
from bot.engine.solo.views import HighwayView, SoloPublicView, SoloSeatView
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
    felt,
    fit_font,
    fit_name,
    fit_wrapped,
    font,
    hand_header,
    mat,
    road,
    text_width,
    title_bar,
    to_png,
    vertical_gradient,
    washed_out,
    wrap,
)
from bot.render.mille_cards import card_back, draw_card

TABLE_SIZE = (1200, 1022)
HAND_IMAGE_SIZE = (1200, 360)
RESULT_SIZE = (1000, 660)

_W, _H = TABLE_SIZE
_MARGIN = 16
_TOP_BAR = 56
_HWY_Y = _TOP_BAR + 8
_HWY_H = 336
_ROAD_Y = _HWY_Y + _HWY_H + 8
_ROAD_H = 200
_HAND_Y = _ROAD_Y + _ROAD_H + 8
_HAND_H = 262
_CAPTION_Y = _HAND_Y + _HAND_H + 8
_COL_W = (_W - 2 * _MARGIN) // 7
_MOVE_SIZE = 24
_MOVE_LINE = 28  # baseline to baseline in the last move
_STEPS_SIZE = 20
_STEPS_ONE_LINE = 16
_STEPS_LINE = 24
"""The automatic steps under the last move (a refuel, draws, hand wipes) are drawn at 20 px
in the line the box keeps for them, and in the last move's second line when it has none;
else on one line shrunk to 16 px at most. Longer steps (three wipes in a row, about 190
letters, shrank to 13 px and were cut) take more lines at 20 px, each adding this to the
table's height; the longest runs seen (a dozen wipes, 800 letters) take nine lines."""
_MOST_STEPS_LINES = 14  # past this (more wipes than a tank holds), the lines get smaller
_TOP_CARD = (132, 185)
_BACK_STEP = 9  # how much of each face-down card peeks out above the one on it
_PILE_CARD = (100, 140)
"""The tank and the discard pile: the Mille Bornes table's card, as wide as its names need to
be written whole at 20 px (on 84 px cards "Accident" and "Gasoline" were 17 px, "Puncture
Proof" 16; the road grew 22 px for it)."""
_HAND_CARD = (140, 196)
_MINI = (50, 70)

_GREY_CHIP: RGB = (70, 76, 86)
_SLOT: RGB = (110, 150, 132)
_PLAYABLE: RGB = (120, 230, 140)
_LOSS: RGB = (120, 34, 30)

PRESET_LABELS = {
    "classic": "CLASSIC · SCORE ATTACK",
    "refuel": "REFUEL",
    "easy": "EASY",
}


def _public(view: SoloPublicView | SoloSeatView) -> SoloPublicView:
    return view.public if isinstance(view, SoloSeatView) else view


def _targets(view: SoloPublicView) -> dict[str, list[int]]:
    """Card code -> the highways it clears now (from the legal moves' notation)."""
    found: dict[str, list[int]] = {}
    for move in view.legal:
        words = move.split()
        if words[0] == "clear":
            found.setdefault(words[3], []).append(int(words[1]))
    return found


def _playable_highways(view: SoloPublicView) -> set[int]:
    found: set[int] = set()
    for move in view.legal:
        words = move.split()
        found.add(int(words[1] if words[0] == "clear" else words[3]))
    return found


def _sacrifices(view: SoloPublicView) -> list[int]:
    return [int(m.split()[3]) for m in view.legal if m.startswith("sacrifice")]


# --- table ---------------------------------------------------------------------------------


def _steps(view: SoloPublicView) -> tuple[Font, tuple[str, ...], int]:
    """The automatic steps under the last move, wrapped, and how many lines the box has for
    them before it must grow; none once the game is over (the result banner takes the box)."""
    if view.result is not None or not view.events:
        return font(_STEPS_SIZE, "bold"), (), 1
    return _steps_lines(view.last_move or "—", " ".join(view.events))


@lru_cache(maxsize=64)
def _steps_lines(last_move: str, note: str) -> tuple[Font, tuple[str, ...], int]:
    inner = _W - 2 * _MARGIN - 36
    fnt = font(_STEPS_SIZE, "bold")
    if text_width(note, fnt) <= inner:
        return fnt, (note,), 1  # most notes: measured, not wrapped word by word
    # A last move on one line (as ``_caption_banner`` draws it) leaves its second line free.
    free = 2 if text_width(last_move, font(_MOVE_SIZE, "bold")) <= inner else 1
    if free == 1:
        fnt = fit_font(note, inner, _STEPS_SIZE, "bold", _STEPS_ONE_LINE)
        if text_width(note, fnt) <= inner:
            return fnt, (note,), free
    fnt, lines = fit_wrapped(note, inner, _MOST_STEPS_LINES, _STEPS_SIZE, "bold", min_size=13)
    return fnt, lines, free


def table_size(view: SoloPublicView | SoloSeatView) -> tuple[int, int]:
    """The table image's size: ``TABLE_SIZE``, taller by a line for each line of automatic
    steps the last move's box has no room for, and for each line of the last move past two."""
    pub = _public(view)
    _, lines, free = _steps(pub)
    extra = max(0, len(lines) - free) * _STEPS_LINE
    if pub.result is None:
        extra += max(0, len(_move_lines(pub.last_move or "—")[1]) - 2) * _MOVE_LINE
    return _W, _H + extra


@lru_cache(maxsize=64)
def _move_lines(last_move: str) -> tuple[Font, tuple[str, ...]]:
    """The last move in the box: on two lines at ``_MOVE_SIZE`` down to ``READABLE`` px, or
    on as many lines as it needs at ``READABLE`` px (it shrank to 15 px, then was cut)."""
    inner = _W - 2 * _MARGIN - 36
    fnt = font(READABLE, "bold")
    lines = wrap(last_move, fnt, inner)
    if len(lines) <= 2:
        return fit_wrapped(last_move, inner, 2, _MOVE_SIZE, "bold", min_size=READABLE)
    return fnt, tuple(lines)


def render_table(view: SoloPublicView | SoloSeatView) -> Image.Image:
    """The whole solitaire as everyone sees it."""
    pub = _public(view)
    steps = _steps(pub)
    w, h = table_size(pub)
    background = _table_background()
    if h > _H:
        image = Image.new("RGB", (w, h), Palette.FELT_BOTTOM)
        image.paste(background, (0, 0))
    else:
        image = background.copy()
    canvas = Canvas(image)
    _draw_top_bar(canvas, pub)
    playable = _playable_highways(pub)
    for highway in pub.highways:
        _draw_highway(canvas, pub, highway, highway.number in playable)
    _draw_road(canvas, pub)
    _draw_hand_row(canvas, pub)
    box = (_MARGIN, _CAPTION_Y, _W - _MARGIN, h - 12)
    if pub.result is not None:
        _result_banner(canvas, pub, box)
    else:
        _caption_banner(canvas, pub, box, steps)
    return canvas.image


def table_png(view: SoloPublicView | SoloSeatView) -> bytes:
    """``render_table`` as PNG bytes, ready to attach to a message."""
    return to_png(render_table(view))


@lru_cache(maxsize=1)
def _table_background() -> Image.Image:
    """Everything that never changes: felt, title bar, the highways' mat, road, hand mat."""
    img = vertical_gradient(_W, _H, Palette.FELT_TOP, Palette.FELT_BOTTOM)
    c = Canvas(img)
    d = c.draw
    title_bar(c, _W, _TOP_BAR, "MILLE BORNES SOLO", _MARGIN + 4)

    for y, h in ((_HWY_Y, _HWY_H), (_HAND_Y, _HAND_H)):
        mat(c, (_MARGIN, y, _W - _MARGIN, y + h))
    for i in range(1, 7):
        x = _MARGIN + i * _COL_W
        d.line((x, _HWY_Y + 14, x, _HWY_Y + _HWY_H - 14), fill=Palette.MAT_EDGE, width=1)

    road(c, _ROAD_Y, _ROAD_H, _W, centre_line=False)
    return img


def _draw_top_bar(c: Canvas, view: SoloPublicView) -> None:
    cy = _TOP_BAR // 2
    small = font(READABLE, "bold")
    x = after_title("MILLE BORNES SOLO", _MARGIN + 4)
    label = PRESET_LABELS.get(view.preset, view.preset.upper())
    x += c.pill(x, cy - 15, label, small, Palette.GOLD, ink=Palette.DARK_INK) + 8
    deck = "BSD deck" if view.deck_name == "bsd" else "Modern deck"
    x += c.pill(x, cy - 15, deck, small, _GREY_CHIP) + 8
    if view.require_fuel_left:
        x += c.pill(x, cy - 15, "Win needs fuel left", small, _GREY_CHIP) + 8
    name = view.players[0] if view.players else ""
    if name:
        room = _W - _MARGIN - 8 - x - 16
        name_font, shown = fit_name(name, max(60, room), 22, "bold", READABLE)
        c.text((_W - _MARGIN - 8, cy), shown, name_font, Palette.INK, "rm", drop=2)


def _draw_highway(c: Canvas, view: SoloPublicView, h: HighwayView, playable: bool) -> None:
    x0 = _MARGIN + (h.number - 1) * _COL_W
    cx = x0 + _COL_W // 2
    y = _HWY_Y
    # The number players type, in a road-sign shield.
    badge = font(24, "bold")
    r = 18
    fill = Palette.GOLD if playable else (58, 66, 74)
    ink = Palette.DARK_INK if playable else Palette.INK
    c.draw.ellipse(
        (cx - r, y + 12, cx + r, y + 12 + 2 * r), fill=fill, outline=Palette.INK, width=2
    )
    c.text((cx, y + 12 + r + 1), str(h.number), badge, ink, "mm")

    w, ch = _TOP_CARD
    x = cx - w // 2
    top_y = y + 58 + 6 * _BACK_STEP
    if h.top is None:
        c.paste(_cleared_slot(w, ch), x - 2, top_y - 2, with_shadow=False)
        c.text((cx, y + _HWY_H - 22), "cleared", font(22, "bold"), Palette.MUTED, "mm")
        return
    # Face-down cards peek out above the top card, one navy edge per card: count them.
    for k in range(h.hidden, 0, -1):
        c.paste(_back_edge(w, ch), x, top_y - k * _BACK_STEP, with_shadow=k == h.hidden)
    if playable:
        c.rounded((x - 6, top_y - 6, x + w + 6, top_y + ch + 6), card_radius(w) + 5, fill=_PLAYABLE)
    c.paste(draw_card(h.top, w, ch, view.lang), x, top_y, with_shadow=not playable)
    count = "last card" if h.depth == 1 else f"{h.depth} cards"
    c.text((cx, y + _HWY_H - 22), count, font(22, "bold"), Palette.INK, "mm", drop=2)


@lru_cache(maxsize=4)
def _back_edge(w: int, h: int) -> Image.Image:
    """A face-down card seen edge on from above: only its navy top band shows on the pile."""
    img = card_back(w, h).copy()
    d = ImageDraw.Draw(img)
    # Fill the paper margin of the top band so each peeking strip reads as a card back.
    d.rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=card_radius(w), fill=(22, 58, 112), outline=(214, 220, 232)
    )
    d.line((6, 3, w - 7, 3), fill=(60, 104, 170), width=1)
    return img


@lru_cache(maxsize=8)
def _cleared_slot(w: int, h: int) -> Image.Image:
    """A dashed outline with a tick: this highway is cleared for good."""
    img = Image.new("RGBA", (w + 4, h + 4), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    dashed_rounded(d, (2, 2, w + 1, h + 1), _SLOT, radius=card_radius(w))
    cx, cy = (w + 4) / 2, (h + 4) / 2
    d.line(
        (cx - 30, cy, cx - 8, cy + 22, cx + 32, cy - 24),
        fill=Palette.GREEN,
        width=10,
        joint="curve",
    )
    return img


@lru_cache(maxsize=16)
def _empty_pile(title: str, w: int, h: int) -> Image.Image:
    img = Image.new("RGBA", (w + 4, h + 4), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((2, 2, w + 1, h + 1), radius=card_radius(w), fill=Palette.ASPHALT)
    dashed_rounded(d, (2, 2, w + 1, h + 1), _SLOT, radius=card_radius(w))
    fnt, lines = fit_wrapped(title, w - 12, 2, READABLE, "cond", min_size=11)
    for i, line in enumerate(lines):
        d.text(
            ((w + 4) / 2, (h + 4) / 2 + (i - (len(lines) - 1) / 2) * 24),
            line,
            font=fnt,
            fill=_SLOT,
            anchor="mm",
        )
    return img


def _draw_road(c: Canvas, view: SoloPublicView) -> None:
    """Tank, discard pile, refuels, cards cleared and the miles in front of you."""
    w, h = _PILE_CARD
    top = _ROAD_Y + 16
    label = font(20, "bold")
    x = _MARGIN + 20
    if view.tank_count:
        c.stack(card_back(w, h), x, top, 1 + min(3, (view.tank_count - 1) // 12), 3, -2)
    else:
        # "Tank 0" is written under it: the slot says "empty" alone, at the readable size.
        c.paste(_empty_pile("empty", w, h), x - 2, top - 2, with_shadow=False)
    c.text((x + w / 2, top + h + 20), f"Tank {view.tank_count}", label, Palette.INK, "mm", drop=2)
    x += w + 44
    if view.discard:
        c.paste(draw_card(view.discard[-1], w, h, view.lang), x, top)
    else:
        c.paste(_empty_pile("empty", w, h), x - 2, top - 2, with_shadow=False)
    c.text(
        (x + w / 2, top + h + 20), f"Discard {len(view.discard)}", label, Palette.INK, "mm", drop=2
    )
    x += w + 30

    # Cards cleared: the score of the classic preset, so it gets the biggest number.
    bar_x0, bar_x1 = x, x + 428  # "YOUR MILES" keeps its place beside the wider piles
    c.text((bar_x0, top + 4), "CLEARED", font(READABLE, "bold"), Palette.MUTED)
    big = font(40, "bold")
    value = f"{view.cleared}"
    c.text((bar_x0, top + 52), value, big, Palette.INK, "lm", drop=2)
    vx = bar_x0 + text_width(value, big) + 6
    c.text((vx, top + 60), f"/ {view.total}", font(24, "bold"), Palette.MUTED, "lm")
    by = top + 84
    c.rounded((bar_x0, by, bar_x1, by + 22), 10, fill=Palette.ASPHALT_DARK, outline=(90, 96, 104))
    if view.cleared:
        fill_to = bar_x0 + 3 + max(14, round((bar_x1 - bar_x0 - 6) * view.cleared / view.total))
        colour = Palette.GOLD if view.cleared == view.total else Palette.GREEN
        c.rounded((bar_x0 + 3, by + 3, fill_to, by + 19), 8, fill=colour)
    for i in range(1, 7):
        tx = bar_x0 + 3 + round((bar_x1 - bar_x0 - 6) * i / 7)
        c.draw.line((tx, by + 4, tx, by + 18), fill=(150, 156, 164), width=1)

    # Refuels and wipes under the bar.
    chip = font(READABLE, "bold")
    px = bar_x0
    py = by + 34
    if view.refuel_limit:
        left = view.refuels_left
        text = f"Refuels left {left}/{view.refuel_limit}"
        px += c.pill(px, py, text, chip, Palette.GREEN if left else Palette.RED, height=30) + 8
    else:
        px += c.pill(px, py, "No refuel (classic)", chip, _GREY_CHIP, height=30) + 8
    wipes = f"Hands wiped {view.wipes}"
    c.pill(px, py, wipes, chip, _GREY_CHIP, height=30)

    # Miles in front of you: one small stack per value, then the total.
    mx = bar_x1 + 40
    # "YOUR MILES" (was "MILES IN FRONT OF YOU"): at the readable size the long title ran
    # into a four-digit total. With the French names "YOUR BORNES", "3500 bornes": the total
    # moves left by what "bornes" takes more than "mi".
    unit, unit_font = distance_word(view.lang, short=True), font(READABLE, "bold")
    title = f"YOUR {distance_word(view.lang).upper()}"
    c.text((mx, top + 4), title, unit_font, Palette.MUTED)
    total = f"{view.mileage}"
    tf = font(30, "bold")
    total_right = _W - _MARGIN - 50 - (text_width(unit, unit_font) - text_width("mi", unit_font))
    c.text((total_right, top + 14), total, tf, Palette.INK, "rm", drop=2)
    c.text((_W - _MARGIN - 14, top + 18), unit, unit_font, Palette.MUTED, "rm")
    mw, mh = _MINI
    step = (_W - _MARGIN - 14 - mx) // len(DISTANCES)
    for i, card in enumerate(DISTANCES):
        count = view.miles.count(card)
        sx = mx + i * step
        sy = top + 44
        if count:
            c.paste(draw_card(card, mw, mh, view.lang), sx, sy)
            text = f"×{count}"
            cw = text_width(text, chip) + 14
            c.rounded(
                (sx + (mw - cw) // 2, sy + mh + 5, sx + (mw + cw) // 2, sy + mh + 31),
                12,
                fill=(28, 95, 184),
                outline=Palette.INK,
                width=2,
            )
            c.text((sx + mw / 2, sy + mh + 18), text, chip, Palette.INK, "mm")
        else:
            c.paste(_ghost(card.miles, mw, mh), sx - 2, sy - 2, with_shadow=False)


@lru_cache(maxsize=8)
def _ghost(miles: int, w: int, h: int) -> Image.Image:
    img = Image.new("RGBA", (w + 4, h + 4), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    dashed_rounded(d, (2, 2, w + 1, h + 1), (80, 86, 94), dash=6, gap=5, radius=card_radius(w))
    fnt = fit_font(str(miles), w - 8, 20, "bold")
    d.text(((w + 4) / 2, (h + 4) / 2), str(miles), font=fnt, fill=(96, 102, 110), anchor="mm")
    return img


def _draw_hand_row(c: Canvas, view: SoloPublicView) -> None:
    y = _HAND_Y
    head = font(READABLE, "bold")
    held = len(view.hand)
    c.text((_MARGIN + 20, y + 20), f"HAND {held}/{view.hand_size}", head, Palette.MUTED, "lm")
    moves = len(view.legal)
    if view.result is None:
        note = plural(moves, "clearing move")
        sacrifices = _sacrifices(view)
        if sacrifices:
            where = ", ".join(str(n) for n in sacrifices)
            note += f" · a claimed card can be sacrificed on {where}"
        c.text((_W - _MARGIN - 20, y + 20), note, head, Palette.MUTED, "rm")
    _draw_cards(c, view, view.hand, y + 40, _HAND_CARD, _W, tag_room=30)


def _draw_cards(
    c: Canvas,
    view: SoloPublicView,
    hand: tuple[Card, ...],
    y: int,
    size: tuple[int, int],
    width: int,
    tag_room: int,
) -> None:
    """The hand in a row; playable cards glow and name the highways they clear."""
    targets = _targets(view)
    cw, ch = size
    gap = 18
    n = max(1, len(hand))
    x = (width - (n * cw + (n - 1) * gap)) // 2
    if not hand:
        c.text((width / 2, y + ch / 2), "No cards in hand", font(26, "bold"), Palette.MUTED, "mm")
        return
    running = view.result is None
    for card in hand:
        where = targets.get(card.value, [])
        lit = running and bool(where)
        if lit:
            c.rounded((x - 6, y - 6, x + cw + 6, y + ch + 6), card_radius(cw) + 5, fill=_PLAYABLE)
        face = _dimmed(card, cw, ch, view.lang) if running and not where else None
        c.paste(face or draw_card(card, cw, ch, view.lang), x, y, with_shadow=not lit)
        if running:
            if where:
                tag = "→ " + " · ".join(str(n) for n in where)
                colour = _PLAYABLE
            else:
                tag, colour = "waiting", Palette.MUTED
            tag_font = fit_font(tag, cw, 22, "bold", min_size=12)
            c.text((x + cw / 2, y + ch + tag_room / 2 + 4), tag, tag_font, colour, "mm")
        x += cw + gap


@lru_cache(maxsize=256)
def _dimmed(card: Card, w: int, h: int, lang: str) -> Image.Image:
    """The face washed out: still readable, clearly not playable now."""
    return washed_out(draw_card(card, w, h, lang))


def _caption_banner(
    c: Canvas, view: SoloPublicView, box: Box, steps: tuple[Font, tuple[str, ...], int]
) -> None:
    x0, y0, x1, y1 = box
    c.rounded((x0 + 3, y0 + 5, x1 + 3, y1 + 5), 14, fill=(20, 22, 26))
    c.rounded(box, 14, fill=(250, 246, 232), outline=Palette.GOLD_DARK, width=2)
    c.text((x0 + 18, y0 + 8), "LAST MOVE", font(READABLE, "bold"), (130, 120, 96))
    fnt, lines = _move_lines(view.last_move or "—")
    ty = y0 + 44
    for line in lines:
        c.text((x0 + 18, ty), line, fnt, Palette.DARK_INK, "lm")
        ty += _MOVE_LINE
    # The steps' lines end where the one line always sat; above it they take the last move's
    # free second line, then the room the box grew by.
    nfnt, notes, _ = steps
    for i, note in enumerate(notes):
        c.text(
            (x0 + 18, y1 - 20 - (len(notes) - 1 - i) * _STEPS_LINE), note, nfnt, (150, 60, 20), "lm"
        )


def _headline(view: SoloPublicView) -> tuple[str, str]:
    """The banner's two lines: what happened, and the score (in bornes with the French
    names, as their distance cards count)."""
    tank = f" · {view.tank_count} left in the tank" if view.tank_count else ""
    miles = f"{view.mileage} {distance_word(view.lang)}"
    if view.result == "won":
        return f"★ All {view.total} cleared — you win! ★", f"Score: {miles}{tank}"
    if view.cleared == view.total:
        return (
            f"{view.total}/{view.total} cleared, but the tank is empty",
            f"The strict rule needs a card left in the tank · {miles}",
        )
    if view.left:
        # Left (/resign, a forfeit): not stuck, so not "out of fuel" with a full tank showing.
        fuel = f"{view.tank_count} left in the tank" if view.tank_count else "the tank is empty"
        return (
            f"Left the game — {view.cleared}/{view.total} cleared",
            f"{miles} in front of you · {fuel}",
        )
    headline = f"Out of fuel — {view.cleared}/{view.total} cleared"
    if view.preset == "classic":
        return headline, f"{miles} · classic is a score attack: cards cleared count"
    return headline, f"{miles} in front of you · no move and an empty tank"


def _result_banner(c: Canvas, view: SoloPublicView, box: Box) -> None:
    x0, y0, x1, y1 = box
    won = view.result == "won"
    c.rounded((x0 + 3, y0 + 5, x1 + 3, y1 + 5), 14, fill=(20, 22, 26))
    if won:
        c.rounded(box, 14, fill=Palette.GOLD, outline=(255, 240, 180), width=3)
        ink, sub = Palette.DARK_INK, (70, 50, 10)
    else:
        c.rounded(box, 14, fill=_LOSS, outline=(240, 150, 140), width=3)
        ink, sub = Palette.INK, (250, 214, 206)
    inner = x1 - x0 - 40
    cx = (x0 + x1) / 2
    headline, score = _headline(view)
    mid = (y0 + y1) / 2
    c.text((cx, mid - 18), headline, fit_font(headline, inner, 40, "bold"), ink, "mm")
    c.text((cx, mid + 28), score, fit_font(score, inner, 24, "bold"), sub, "mm")


# --- hand ----------------------------------------------------------------------------------


def render_hand(view: SoloPublicView | SoloSeatView) -> Image.Image:
    """The hand on its own, big, each playable card tagged with the highways it clears."""
    pub = _public(view)
    w, _ = HAND_IMAGE_SIZE
    c = Canvas(felt(*HAND_IMAGE_SIZE).copy())
    if pub.result is not None:
        phrase = "The game is over"
    else:
        moves = len(pub.legal)
        phrase = f"Your move — {plural(moves, 'clearing move')}"
    unit = distance_word(pub.lang, short=True)  # "0 bornes" with the French names
    items = [
        f"Cleared {pub.cleared}/{pub.total}",
        f"Tank {pub.tank_count}",
        f"{pub.mileage} {unit}",
    ]
    hand_header(c, w, phrase, [(text, _GREY_CHIP) for text in items])
    _draw_cards(c, pub, pub.hand, 74, (150, 210), w, tag_room=40)
    return c.image


def hand_png(view: SoloPublicView | SoloSeatView) -> bytes:
    """``render_hand`` as PNG bytes."""
    return to_png(render_hand(view))


# --- result --------------------------------------------------------------------------------


def render_result(view: SoloPublicView | SoloSeatView) -> Image.Image:
    """The score card: win or loss, cards cleared, miles, and how the run went."""
    pub = _public(view)
    w, h = RESULT_SIZE
    c = Canvas(felt(*RESULT_SIZE).copy())
    title = "Mille Bornes Solo — result"
    c.text((32, 40), title, font(32, "bold"), Palette.GOLD, "lm", drop=2)
    label = PRESET_LABELS.get(pub.preset, pub.preset.upper())
    # Every word on the card at the readable size: they were 18 px, 9 on a phone.
    small = font(READABLE, "bold")
    c.pill(w - 32 - text_width(label, small) - 24, 24, label, small, _GREY_CHIP, height=32)

    banner = (32, 80, w - 32, 200)
    if pub.result is None:
        c.rounded(banner, 14, fill=(36, 40, 46), outline=Palette.MAT_EDGE, width=2)
        text = "The game is still running"
        c.text((w / 2, 140), text, font(30, "bold"), Palette.INK, "mm")
    else:
        _result_banner(c, pub, banner)

    # Two big numbers: cards cleared (what the classic preset ranks) and miles (the score;
    # "BORNES", "bornes" with the French names).
    miles = (distance_word(pub.lang).upper(), f"{pub.mileage}", distance_word(pub.lang, short=True))
    for i, (name, value, unit) in enumerate(
        (("CARDS CLEARED", f"{pub.cleared}", f"/ {pub.total}"), miles)
    ):
        bx0 = 32 + i * ((w - 64) // 2 + 12)
        box = (bx0, 220, bx0 + (w - 64) // 2 - 12, 360)
        c.rounded(box, 16, fill=Palette.MAT, outline=Palette.MAT_EDGE, width=2)
        c.text((box[0] + 20, box[1] + 24), name, small, Palette.MUTED, "lm")
        big = font(64, "bold")
        c.text((box[0] + 20, box[1] + 86), value, big, Palette.INK, "lm", drop=2)
        c.text(
            (box[0] + 28 + text_width(value, big), box[1] + 96),
            unit,
            font(28, "bold"),
            Palette.MUTED,
            "lm",
        )

    # What is left on each highway, as small bars: empty is cleared.
    c.rounded((32, 380, w - 32, 520), 16, fill=Palette.MAT, outline=Palette.MAT_EDGE, width=2)
    c.text((52, 402), "HIGHWAYS LEFT", small, Palette.MUTED, "lm")
    col = (w - 64 - 40) // 7
    for hw in pub.highways:
        hx = 52 + (hw.number - 1) * col
        c.text((hx + col / 2, 427), str(hw.number), small, Palette.INK, "mm")
        for k in range(7):
            ky = 508 - (k + 1) * 9
            filled = k < hw.depth
            c.rounded(
                (hx + 18, ky, hx + col - 18, ky + 6),
                2,
                fill=Palette.AMBER if filled else (40, 70, 58),
            )

    lines = _run_figures(pub)
    x = 32
    y = 536  # a second row of chips (a classic run needing fuel) leaves the note its room
    for text in lines:
        width = text_width(text, small) + 24
        if x + width > w - 32:
            x, y = 32, y + 40
        x += c.pill(x, y, text, small, _GREY_CHIP, height=34) + 10
    note = _result_note(pub)
    c.text((w / 2, h - 26), note, small, Palette.MUTED, "mm")
    return c.image


def _run_figures(pub: SoloPublicView) -> list[str]:
    """The score card's chips: how the run went."""
    lines = [
        f"Moves {pub.moves}",
        f"Hands wiped {pub.wipes}",
        f"Refuels used {pub.refuels_used}/{pub.refuel_limit}",
        f"Tank left {pub.tank_count}",
        "BSD deck" if pub.deck_name == "bsd" else "Modern deck",
    ]
    if pub.require_fuel_left:
        lines.append("Win needs fuel left")
    return lines


def _result_note(pub: SoloPublicView) -> str:
    unit = distance_word(pub.lang)
    if pub.preset == "classic":
        return f"Classic can never be cleared: it is a score attack on cards cleared, then {unit}."
    return f"On the leaderboards, wins come first, then cards cleared, then {unit}."


def result_words(view: SoloPublicView | SoloSeatView) -> str:
    """The score card in words (its alt text): the table's words described it, and a screen
    reader never heard the moves made or the hands wiped the card shows. The banner's stars
    and dots are left out (read aloud as "star", "dot")."""
    pub = _public(view)
    headline, score = _headline(pub)
    if pub.result is None:
        headline, score = "The game is still running", ""
    left = ", ".join(str(hw.depth) for hw in pub.highways)
    said = [headline.strip("★ "), score.replace(" · ", ", ")]
    lines = [
        f"Mille Bornes Solo, result, preset {pub.preset}.",
        *(text if text.endswith(("!", ".")) else f"{text}." for text in said if text),
        f"Cards cleared {pub.cleared}/{pub.total}, {pub.mileage} {distance_word(pub.lang)}.",
        ", ".join(_run_figures(pub)) + ".",
        f"Cards left on highways 1 to {len(pub.highways)}: {left}.",
        _result_note(pub),
    ]
    return "\n".join(lines)


def result_png(view: SoloPublicView | SoloSeatView) -> bytes:
    """``render_result`` as PNG bytes."""
    return to_png(render_result(view))

"""Mille Bornes images: the public table, a seat's hand and the score sheet of a finished hand.

Every function here takes an engine *view* and returns a Pillow image (or its PNG bytes); the
same view always gives the same pixels. The table is posted after every move, so it is built
from cached pieces (background, card faces, text runs) and encoded quickly (``to_png``).

Layout of the table, top to bottom: a title bar (hand number, match target, extension badge),
seat 0's side, the road (deck, discard pile and the last move, or the result), seat 1's side.
Seats keep their places for the whole match so players always know where to look. The table is
``TABLE_SIZE`` unless the last move or the result needs more lines at the readable size: then
the road is taller by those lines (``table_size``) and seat 1's side lower.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.mille.cards import DISTANCES, SAFETIES, Card, distance_word, in_deck_order
from bot.engine.mille.state import HandResult, ScoreLine
from bot.engine.mille.views import MillePublicView, MilleSeatView, TableauView
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
from bot.render.mille_cards import card_back, draw_card, name_lines

TABLE_SIZE = (1200, 874)
HAND_IMAGE_SIZE = (1200, 376)
RESULT_SIZE = (1000, 700)

# Table geometry in pixels. Cards on the table are 100×140, distance cards are minis.
_W, _H = TABLE_SIZE
_MARGIN = 16
_TOP_BAR = 56
_PANEL_H = 296
_ROAD_H = 186  # the piles' 140 px cards, 12 px above them and their counts under them
_GAP = 8
_SIDE_Y = (_TOP_BAR + _GAP, _TOP_BAR + 3 * _GAP + _PANEL_H + _ROAD_H)  # seat 0, seat 1
_ROAD_Y = _TOP_BAR + 2 * _GAP + _PANEL_H
_CARD = (100, 140)
_MINI = (66, 92)
_BACK_MINI = (26, 36)
# The deck and the discard pile: the sides' cards, so the top discard's name is written at
# the readable size (on 76×106 cards, below the 80 px a face needs for its name, it had none).
_PILE_CARD = _CARD
_PILE_GAP = 30  # between the piles: "Deck 94" and "Discard 99" under them 24 px apart
_HAND_CARD = (150, 210)
_BOX_X = _MARGIN + 20 + 2 * _PILE_CARD[0] + _PILE_GAP + 34  # the last move's box
_BOX_W = _W - _MARGIN - 4 - _BOX_X
_BOX_H = _ROAD_H - 38  # in a road of ``_ROAD_H``: 18 px above it, 20 below
_SASH_H = 22  # a coup fourré's sash: "CF" at the readable size (15 px of capitals) in it
_SASH_OUT = 4  # how far it reaches above the card: 5 px short of the column title's ink
_CAPTION_STEP = READABLE + 6  # baseline to baseline, as ``Canvas.caption_banner`` spaces them

# Columns inside a side, relative to the panel's left edge.
_BATTLE_X = 20
_SPEED_X = _BATTLE_X + _CARD[0] + 14
_SAFETY_X = _SPEED_X + _CARD[0] + 28
_SAFETY_STEP = _CARD[0] + 10
_DIST_X = _SAFETY_X + 4 * _SAFETY_STEP + 14
_DIST_STEP = (_W - 2 * _MARGIN - 20 - _DIST_X) // len(DISTANCES)
_LABEL_DY = 58  # column titles
_ROW_DY = 86  # top of the cards
_BAR_DY = 246  # top of the mileage bar
_BAR_RIGHT = _W - _MARGIN - 210


def _bar_right(lang: str) -> int:
    """Where the mileage bar ends: its readout after it says "1000 / 1000 mi", or with the
    French names "1000 / 1000 bornes", 50 px wider."""
    return _BAR_RIGHT - (50 if distance_word(lang, short=True) != "mi" else 0)


_GREY_CHIP: RGB = (70, 76, 86)
_FAINT: RGB = (62, 104, 86)
_SLOT: RGB = (110, 150, 132)
_PLAYABLE: RGB = (120, 230, 140)


# --- table ---------------------------------------------------------------------------------


def table_size(view: MillePublicView) -> tuple[int, int]:
    """The size of ``view``'s table image: ``TABLE_SIZE``, taller by what its road grows."""
    return _W, _H + _road_extra(view)


@lru_cache(maxsize=64)
def _caption_lines(caption: str) -> int:
    """How many lines the last move takes at the readable size: three fill the box."""
    return len(wrap(caption or "—", font(READABLE, "bold"), _BOX_W - 36))


def _road_extra(view: MillePublicView) -> int:
    """What the road grows so the last move, or the result, is written whole at ``READABLE``
    px or more: a hand's end said with two long names shrank to 16 px (its end was cut before
    that), and a finished game's reason and last move to 12 px."""
    if view.winners is not None:
        need = result_banner_height(_BOX_W, _winner_line(view), _result_detail(view))
    else:
        need = 36 + max(3, _caption_lines(view.caption)) * _CAPTION_STEP
    return max(0, need - _BOX_H)


def render_table(view: MillePublicView) -> Image.Image:
    """The whole table as everyone sees it: both sides, the road between them, the result."""
    extra = _road_extra(view)
    canvas = Canvas(_table_background(extra, view.lang).copy())
    _draw_top_bar(canvas, view)
    for tableau in view.tableaus[:2]:
        y = _SIDE_Y[tableau.seat % 2] + (extra if tableau.seat % 2 else 0)
        _draw_side(canvas, view, tableau, y)
    _draw_road(canvas, view, extra)
    return canvas.image


def table_png(view: MillePublicView) -> bytes:
    """``render_table`` encoded as PNG bytes, ready to attach to a message."""
    return to_png(render_table(view))


@lru_cache(maxsize=8)
def _table_background(extra: int = 0, lang: str = "en") -> Image.Image:
    """Everything that never changes: felt, title bar, road, both mats and column titles, on a
    table whose road is ``extra`` px taller (cached: the renderer draws on a copy); ``lang``'s
    mileage bars (``_bar_right``)."""
    img = vertical_gradient(_W, _H + extra, Palette.FELT_TOP, Palette.FELT_BOTTOM)
    c = Canvas(img)
    d = c.draw
    title_bar(c, _W, _TOP_BAR, "MILLE BORNES", _MARGIN + 4)
    road(c, _ROAD_Y, _ROAD_H + extra, _W)

    label = font(READABLE, "bold")
    for y in (_SIDE_Y[0], _SIDE_Y[1] + extra):
        x0 = _MARGIN
        mat(c, (x0, y, _W - _MARGIN, y + _PANEL_H))
        ly = y + _LABEL_DY
        c.text((x0 + _BATTLE_X, ly), "BATTLE", label, Palette.MUTED)
        c.text((x0 + _SPEED_X, ly), "SPEED", label, Palette.MUTED)
        c.text((x0 + _DIST_X, ly), "DISTANCE", label, Palette.MUTED)
        for sep in (_SAFETY_X, _DIST_X):
            sx = x0 + sep - 14
            d.line((sx, y + 66, sx, y + 226), fill=Palette.MAT_EDGE, width=2)
        # The mileage bar's empty road.
        by = y + _BAR_DY
        mileage_track(c, (x0 + 20, by, _bar_right(lang), by + 30))
    return img


def _draw_top_bar(c: Canvas, view: MillePublicView) -> None:
    cy = _TOP_BAR // 2
    x = after_title("MILLE BORNES", _MARGIN + 4)
    small = font(READABLE, "bold")
    x += c.pill(x, cy - 15, f"Hand {view.hand_number}", small, _GREY_CHIP) + 10
    if view.extension_called:
        unit = distance_word(view.lang, short=True)
        c.pill(x, cy - 15, f"EXTENSION · 1000 {unit}", small, Palette.GOLD, ink=Palette.DARK_INK)
    target = "Single hand" if view.match_target is None else f"Match to {view.match_target}"
    tw = text_width(target, small) + 24
    c.pill(_W - _MARGIN - 4 - tw, cy - 15, target, small, _GREY_CHIP)


def _draw_side(c: Canvas, view: MillePublicView, t: TableauView, y: int) -> None:
    """One player's side: header, battle and speed piles, safeties, distance, mileage bar."""
    x0 = _MARGIN
    to_play = view.winners is None and view.turn == t.seat
    won = view.winners is not None and t.seat in view.winners
    if to_play or won:
        c.rounded((x0, y, _W - _MARGIN, y + _PANEL_H), 18, outline=Palette.GOLD, width=4)
    _draw_side_header(c, view, t, y, to_play, won)

    lang = view.lang
    row = y + _ROW_DY
    _draw_pile(c, t.battle_pile, x0 + _BATTLE_X, row, "Battle", lang)
    if t.battle_counts_as is not t.battle_top:
        # A safety cleared the hazard on top: the pile counts as a Go (or as empty) now.
        shown = t.battle_counts_as.name_in(lang) if t.battle_counts_as else "empty"
        c.pill(
            x0 + _BATTLE_X - 8,
            row + _CARD[1] - 10,  # below the card's name (two lines of it), above the bar
            f"= {shown}",
            font(READABLE, "cond"),
            Palette.GREEN,
            height=28,
            pad=6,  # "= Feu vert" ends short of the Speed pile
        )
    _draw_pile(c, t.speed_pile, x0 + _SPEED_X, row, "Speed", lang)

    label = font(READABLE, "bold")
    coups = len(t.coups)
    if coups:
        title = f"SAFETIES · {plural(coups, 'coup fourré', 'coups fourrés').upper()}"
        c.text((x0 + _SAFETY_X, y + _LABEL_DY), title, label, Palette.GOLD)
    else:
        c.text((x0 + _SAFETY_X, y + _LABEL_DY), "SAFETIES", label, Palette.MUTED)
    for i, safety in enumerate(SAFETIES):
        sx = x0 + _SAFETY_X + i * _SAFETY_STEP
        if safety in t.safeties:
            c.paste(draw_card(safety, *_CARD, lang), sx, row)
            if safety in t.coups:
                _coup_ribbon(c, sx, row)
        else:
            c.paste(_empty_slot(safety.name_in(lang), "", *_CARD, True), sx - 2, row - 2, False)

    for i, card in enumerate(DISTANCES):
        _draw_distance_group(c, card, t.miles.count(card), x0 + _DIST_X + i * _DIST_STEP, row, lang)
    _draw_progress(c, view, t, y + _BAR_DY)


def _draw_side_header(
    c: Canvas, view: MillePublicView, t: TableauView, y: int, to_play: bool, won: bool
) -> None:
    cy = y + 32
    # Right-hand cluster first (the match score, then the hidden hand as card backs): the
    # name and chips on the left then get whatever room is left.
    right = _W - _MARGIN - 20
    score_font = font(26, "bold")
    score = str(t.score)
    c.text((right, cy + 1), score, score_font, Palette.INK, anchor="rm", drop=2)
    right -= text_width(score, score_font) + 6
    pts_font = font(READABLE, "bold")
    c.text((right, cy + 4), "PTS", pts_font, Palette.MUTED, anchor="rm")
    right -= text_width("PTS", pts_font) + 26
    count_font = font(READABLE, "bold")
    count = plural(t.hand_count, "card")
    c.text((right, cy), count, count_font, Palette.MUTED, anchor="rm")
    right -= text_width(count, count_font) + 10
    limit = c.backs_left_of(card_back(*_BACK_MINI), right, cy, min(t.hand_count, 8), 13) - 20

    chip = font(READABLE, "bold")
    pills: list[tuple[str, RGB, RGB]] = []
    if won:
        pills.append(("★ WINNER", Palette.GOLD, Palette.DARK_INK))
    elif to_play:
        word = "EXTEND?" if view.phase == "extension" else "TO PLAY"
        pills.append((f"▶ {word}", Palette.GOLD, Palette.DARK_INK))
    pills += [(text, fill, Palette.INK) for text, fill in _status_chips(t, view.lang)]

    def pills_width() -> int:
        return sum(text_width(text, chip) + 24 + 8 for text, _, _ in pills)

    x = _MARGIN + 20
    name_room = limit - (x + 28) - 16 - pills_width()
    if name_room < 160:
        # A long name and long chips: keep the chips' first word ("Stopped"), not the reason.
        pills = [(text.split(" · ")[0], fill, ink) for text, fill, ink in pills]
        name_room = limit - (x + 28) - 16 - pills_width()
    c.draw.ellipse(
        (x, cy - 9, x + 18, cy + 9), fill=Palette.SEAT[t.seat % 2], outline=Palette.INK, width=2
    )
    x += 28
    # Shrunk towards the readable size, then on two lines, before it is cut: at 30 px a
    # computer to play, stopped and limited, lost its level ("Computer"), and a 32-letter
    # name was cut at 18 letters beside long chips.
    name = fit_name_lines(t.name, max(80, min(name_room, 420)), 30, "bold", READABLE)
    x += header_name(c, x, cy, name) + 16
    for text, fill, ink in pills:
        x += c.pill(x, cy - 16, text, chip, fill, ink=ink, height=32) + 8


def _status_chips(t: TableauView, lang: str) -> list[tuple[str, RGB]]:
    """ "Moving" or "Stopped · why", plus "Limited 50" under a speed limit."""
    chips: list[tuple[str, RGB]] = []
    if t.can_go:
        chips.append(("Moving", Palette.GREEN))
    else:
        top = t.battle_top
        if top is not None and top.is_hazard:
            why = top.name_in(lang)
        else:
            why = f"needs {Card.GO.name_in(lang)}"
        chips.append((f"Stopped · {why}", Palette.RED))
    if t.limited:
        chips.append(("Limited 50", Palette.AMBER))
    return chips


def _draw_pile(c: Canvas, pile: tuple[Card, ...], x: int, y: int, title: str, lang: str) -> None:
    w, h = _CARD
    if not pile:
        c.paste(_empty_slot(title, "empty", w, h, False), x - 2, y - 2, with_shadow=False)
        return
    # Edges of the cards underneath, so a deep pile looks like a pile.
    for k in range(min(len(pile) - 1, 2), 0, -1):
        c.rounded(
            (x + 3 * k, y + 3 * k, x + w + 3 * k, y + h + 3 * k),
            card_radius(w),
            fill=Palette.CARD_PAPER,
            outline=Palette.CARD_EDGE,
        )
    c.paste(draw_card(pile[-1], w, h, lang), x, y)


@lru_cache(maxsize=128)
def _empty_slot(
    title: str, sub: str, w: int, h: int, faint: bool, fill: RGB | None = None, size: int = 20
) -> Image.Image:
    """A dashed card outline with its name inside, as an RGBA piece 2 px larger each side: at
    ``READABLE`` where it fits (it was 16 px, 8 on a phone), smaller only for a long word. The
    words may come within 4 px of the outline ("Puncture" was 18 px with 7 px spare)."""
    img = Image.new("RGBA", (w + 4, h + 4), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    colour = _FAINT if faint else _SLOT
    box = (2, 2, w + 1, h + 1)
    if fill is not None:
        d.rounded_rectangle(box, radius=card_radius(w), fill=fill)
    dashed_rounded(d, box, colour, radius=card_radius(w))
    room = w - 8
    # A safety's French name is broken at a syllable where its words are wider than the slot
    # ("Incre- / vable", "Véhicule / prio- / ritaire" were 17 px).
    fnt, lines = name_lines(title, room, size)
    if sub:
        dashed = f"— {sub}"
        lines = (*lines, dashed if text_width(dashed, fnt) <= room else sub)
    step = max(20, int(getattr(fnt, "size", 16)) + 2)
    top = (h + 4) / 2 - step * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        d.text(((w + 4) / 2, top + i * step), line, font=fnt, fill=colour, anchor="mm")
    return img


def _coup_ribbon(c: Canvas, x: int, y: int) -> None:
    """A gold sash marked "CF" across the top of a safety that was played as a coup fourré
    (the card's top at ``y``), clear of the column's title above it: over the card's edge
    and the top of its picture, 86 % of the shield or more left showing. Laid above the
    names, 30 px high, it hid 34-39 % of the shield, 46-60 % under the French names, whose
    three lines ("Véhicule / prio- / ritaire") left the picture small."""
    w = _CARD[0]
    rh = _SASH_H
    ry = y - _SASH_OUT
    over = 7
    # Folded tails peeking out behind the band, then the band itself.
    for sx, way in ((x - over, 1), (x + w + over, -1)):
        c.draw.polygon(
            (
                (sx - way * 4, ry + 6),
                (sx + way * 10, ry + 6),
                (sx + way * 10, ry + rh + 6),
                (sx - way * 4, ry + rh + 6),
                (sx + way * 2, ry + rh // 2 + 6),
            ),
            fill=Palette.GOLD_DARK,
        )
    c.draw.rectangle(
        (x - over + 4, ry, x + w + over - 4, ry + rh), fill=Palette.GOLD, outline=Palette.GOLD_DARK
    )
    # "CF", as on the Dragon arena: "COUP FOURRÉ" fitted the band only at 13 px, unreadable
    # on a phone; the gold title above the safeties says "· 2 COUPS FOURRÉS" in full.
    c.text((x + w / 2, ry + rh / 2 + 1), "CF", font(READABLE, "bold"), Palette.DARK_INK, "mm")


def _draw_distance_group(c: Canvas, card: Card, count: int, x: int, y: int, lang: str) -> None:
    """One value's distance cards as a small fanned stack with a "×n" chip (or a ghost)."""
    w, h = _MINI
    if count == 0:
        ghost = _empty_slot(str(card.miles), "", w, h, True, size=22)
        c.paste(ghost, x - 2, y - 2, with_shadow=False)
        return
    c.stack(draw_card(card, w, h, lang), x, y + 6, min(count, 4), 4, -3)
    chip = font(READABLE, "bold")
    text = f"×{count}"
    cw = text_width(text, chip) + 18
    cx = x + (w - cw) // 2 + 2
    c.rounded(
        (cx, y + h + 12, cx + cw, y + h + 38), 13, fill=(28, 95, 184), outline=Palette.INK, width=2
    )
    c.text((cx + cw / 2, y + h + 25), text, chip, Palette.INK, anchor="mm")


def _draw_progress(c: Canvas, view: MillePublicView, t: TableauView, y: int) -> None:
    """The mileage bar: the player's colour from 0 up to their miles, ticks every 100."""
    box = (_MARGIN + 20, y, _bar_right(view.lang), y + 30)
    colour = Palette.SEAT[t.seat % 2]
    # After an extension the 700 mark stays visible in gold: where the trip used to end.
    unit = distance_word(view.lang, short=True)
    right = _W - _MARGIN - 20
    mileage_bar(c, box, t.mileage, view.target, colour, right, gold_mark=700, unit=unit)


def _draw_road(c: Canvas, view: MillePublicView, extra: int) -> None:
    """The strip between the sides, ``extra`` px taller than ``_ROAD_H``: deck, discard pile
    and the last move (or the result)."""
    y = _ROAD_Y
    w, h = _PILE_CARD
    x = _MARGIN + 20
    top = y + 12 + extra // 2
    label = font(READABLE, "bold")
    if view.deck_count:
        # A few stacked backs, fewer as the deck runs down.
        c.stack(card_back(w, h), x, top, 1 + min(3, (view.deck_count - 1) // 20), 3, -2)
    else:
        # "Deck 0" is written under it: the slot says "empty" alone, at the readable size.
        c.paste(_empty_slot("empty", "", w, h, False, Palette.ASPHALT), x - 2, top - 2, False)
    c.text(
        (x + w / 2, top + h + 14),
        f"Deck {view.deck_count}",
        label,
        Palette.INK,
        anchor="mm",
        drop=2,
    )
    x += w + _PILE_GAP
    if view.discard:
        c.paste(draw_card(view.discard[-1], w, h, view.lang), x, top)
    else:
        c.paste(_empty_slot("empty", "", w, h, False, Palette.ASPHALT), x - 2, top - 2, False)
    c.text(
        (x + w / 2, top + h + 14),
        f"Discard {len(view.discard)}",
        label,
        Palette.INK,
        anchor="mm",
        drop=2,
    )

    box = (_BOX_X, y + 18, _BOX_X + _BOX_W, y + 18 + _BOX_H + extra)
    if view.winners is not None:
        c.result_banner(box, _winner_line(view), _result_detail(view))
    else:
        # As many lines at the readable size as the caption needs, the road growing past
        # three: a hand's end said with two long names lost its end, then shrank to 16 px.
        lines = _caption_lines(view.caption)
        if lines <= 2:
            c.caption_banner(box, view.caption, size=26, max_lines=2, min_size=READABLE)
        else:
            c.caption_banner(box, view.caption, size=READABLE, max_lines=lines, min_size=READABLE)


def _result_detail(view: MillePublicView) -> str:
    """Under a finished game's headline: why it ended, and the last move."""
    detail = view.end_reason
    if view.caption:
        detail = f"{detail}  Last move: {view.caption}" if detail else view.caption
    return detail


def _winner_line(view: MillePublicView) -> str:
    names = [view.players[s] for s in view.winners or () if s < len(view.players)]
    what = "the match" if view.match_target is not None else "the hand"
    if not names:
        return "It's a draw!"
    if len(names) == 1:
        return f"{names[0]} wins {what}!"
    return f"{' & '.join(names)} win {what}!"


# --- hand ----------------------------------------------------------------------------------


def render_hand(view: MilleSeatView) -> Image.Image:
    """The owner's cards in a row, numbered 1..n in the deck's order (``in_deck_order``, as the
    hand's buttons list them), with the ones they cannot play now dimmed."""
    w, _ = HAND_IMAGE_SIZE
    c = Canvas(felt(*HAND_IMAGE_SIZE).copy())
    pub = view.public
    lang = pub.lang
    chips: list[tuple[str, RGB]] = []
    if view.seat < len(pub.tableaus):
        me = pub.tableaus[view.seat]
        unit = distance_word(lang, short=True)
        chips = [(f"{me.mileage} / {pub.target} {unit}", _GREY_CHIP), *_status_chips(me, lang)]
    # At the readable size, on two lines when long chips leave it too little room ("Before
    # drawing you may play a safety on the hazard" beside "975 / 1000 bornes", "Stopped · Panne
    # d'essence" and "Limited 50" shrank to 16 px and was cut).
    hand_header(c, w, _phase_line(view), chips, READABLE, two_lines=True)

    # Dimming only makes sense while the owner is choosing: otherwise nothing is playable and
    # a fully greyed hand would just be hard to read.
    choosing = view.phase in ("act", "draw")
    n = len(view.hand)
    cw, ch = _HAND_CARD
    gap = 16
    if n * cw + (n - 1) * gap > w - 60:
        cw = (w - 60 - (n - 1) * gap) // n
        ch = round(cw * 1.4)
    x = (w - (n * cw + max(0, n - 1) * gap)) // 2
    y = 72
    if not view.hand:
        c.text(
            (w / 2, y + ch / 2), "No cards in hand", font(26, "bold"), Palette.MUTED, anchor="mm"
        )
    # In the order the buttons list the moves (the hand as held is the order cards were
    # drawn in: the picture's third card was not the third card the buttons named).
    for i, card in enumerate(in_deck_order(view.hand)):
        playable = f"play {card.value}" in view.legal
        coup = f"play {card.value}" in view.coups  # not a safety on an old hazard
        lit = choosing and playable
        if lit:
            glow = Palette.GOLD if coup else _PLAYABLE
            c.rounded((x - 6, y - 6, x + cw + 6, y + ch + 6), card_radius(cw) + 5, fill=glow)
        face = (
            _dimmed(card, cw, ch, lang)
            if choosing and not playable
            else draw_card(card, cw, ch, lang)
        )
        c.paste(face, x, y, with_shadow=not lit)
        # The index chip centred under the card, then on a line of its
        # own what the card can do now: beside the chip it had 106 px and shrank to 11-17 px.
        ly = y + ch + 28
        r = 17
        cx = x + cw // 2
        c.draw.ellipse((cx - r, ly - r, cx + r, ly + r), fill=Palette.INK)
        c.text((cx, ly + 1), str(i + 1), font(READABLE, "bold"), Palette.DARK_INK, anchor="mm")
        if choosing:
            tag, colour = _hand_tag(view, card, playable, coup)
            tag_font = fit_font(tag, cw + gap - 4, READABLE, "cond", min_size=12)
            c.text((cx, ly + r + 17), tag, tag_font, colour, anchor="mm")
        x += cw + gap
    return c.image


def hand_png(view: MilleSeatView) -> bytes:
    """``render_hand`` encoded as PNG bytes (for the owner's ephemeral message)."""
    return to_png(render_hand(view))


def _hand_tag(view: MilleSeatView, card: Card, playable: bool, coup: bool) -> tuple[str, RGB]:
    if coup:
        return "COUP FOURRÉ!", Palette.GOLD
    if playable:
        return "PLAY", _PLAYABLE
    if view.phase == "act" and f"discard {card.value}" in view.legal:
        return "discard only", Palette.MUTED
    return "after drawing", Palette.MUTED


@lru_cache(maxsize=256)
def _dimmed(card: Card, w: int, h: int, lang: str) -> Image.Image:
    """The face darkened and washed out: still readable, clearly not playable now."""
    return washed_out(draw_card(card, w, h, lang), 0.55)


def _phase_line(view: MilleSeatView) -> str:
    pub = view.public
    if view.phase == "act":
        return "Your turn — play or discard"
    if view.phase == "draw":
        if view.coups:
            return "Before drawing you may play a safety (coup fourré!)"
        return "Before drawing you may play a safety on the hazard"
    if view.phase == "extension":
        return f"Extension? Go on to 1000 {distance_word(pub.lang)}, or stop at 700"
    if view.phase == "over" or pub.winners is not None:
        return "The match is over" if pub.match_target is not None else "The hand is over"
    waiting = pub.players[pub.turn] if pub.turn < len(pub.players) else "the other player"
    return f"Waiting for {waiting}"


# --- hand result ---------------------------------------------------------------------------


def render_hand_result(view: MillePublicView, result: HandResult | None = None) -> Image.Image:
    """The score sheet of a finished hand (the last one by default), with match totals.

    Both players' lines side by side, their hand totals and match totals after that hand,
    and the match target. After the final hand the winner (or a draw) is announced.
    """
    w, h = RESULT_SIZE
    c = Canvas(felt(*RESULT_SIZE).copy())
    if result is None and view.results:
        result = view.results[-1]
    if result is None:
        c.text(
            (w / 2, h / 2),
            "No hand has finished yet",
            font(30, "bold"),
            Palette.INK,
            anchor="mm",
            drop=2,
        )
        return c.image

    c.text(
        (32, 40),
        f"Hand {result.number} — score",
        font(32, "bold"),
        Palette.GOLD,
        anchor="lm",
        drop=2,
    )
    target = "Single hand" if view.match_target is None else f"Match to {view.match_target}"
    small = font(READABLE, "bold")
    c.pill(w - 32 - text_width(target, small) - 24, 24, target, small, _GREY_CHIP, height=32)
    # The hand's reason at the readable size, on a second line when a long name needs one
    # (it shrank to 13 px): the banner and the panels move down into the panels' spare room.
    reasons = _reason_lines(result.reason, w - 64)
    for i, line in enumerate(reasons):
        c.text((32, 84 + i * _REASON_STEP), line, font(READABLE), Palette.MUTED, anchor="lm")
    drop = (len(reasons) - 1) * _REASON_STEP

    match_after = _match_totals_after(view, result)
    final = (
        view.winners is not None
        and not view.left_mid_hand
        and bool(view.results)
        and view.results[-1].number == result.number
    )
    banner = (32, 108 + drop, w - 32, 178 + drop)
    cx = (banner[0] + banner[2]) / 2
    inner = banner[2] - banner[0] - 30
    if final:
        c.rounded(banner, 14, fill=Palette.GOLD, outline=(255, 240, 180), width=3)
        headline = f"★ {_winner_line(view)} ★"
        c.text(
            (cx, banner[1] + 25),
            headline,
            fit_font(headline, inner, 30, "bold", READABLE),
            Palette.DARK_INK,
            anchor="mm",
        )
        c.text(
            (cx, banner[1] + 54),
            ellipsize(view.end_reason, font(READABLE, "bold"), inner),
            font(READABLE, "bold"),
            (70, 50, 10),
            anchor="mm",
        )
    else:
        c.rounded(banner, 14, fill=(36, 40, 46), outline=Palette.MAT_EDGE, width=2)
        if view.match_target is None:
            texts: tuple[str, ...] = ("Single hand game",)
            fnt = font(24, "bold")
        else:
            seats = range(min(len(match_after), len(view.players)))
            scores = tuple((view.players[s], match_after[s]) for s in seats)
            fnt, texts = match_lines(scores, view.match_target, inner)
        mid = (banner[1] + banner[3]) / 2
        step = _size(fnt) + 4
        for i, line in enumerate(texts):
            y = mid + (i - (len(texts) - 1) / 2) * step
            c.text((cx, y), line, fnt, Palette.INK, anchor="mm")

    columns = max(1, len(result.lines))
    col_w = (w - 64 - 24 * (columns - 1)) // columns
    totals = result.totals
    for seat, lines in enumerate(result.lines):
        x0 = 32 + seat * (col_w + 24)
        box = (x0, 196 + drop, x0 + col_w, h - 20)
        _result_column(c, view, seat, lines, totals[seat], match_after[seat], box)
    return c.image


_MATCH = "Match: "
_VERSUS = "  —  "


def match_lines(
    scores: tuple[tuple[str, int], ...], target: int, width: int
) -> tuple[Font, tuple[str, ...]]:
    """The score sheet's banner mid-match, "Match: Ann 1000  —  Bob 750   (first to 5000)", in
    a box ``width`` wide: on one line at 24 px down to the readable size; else on two lines
    (the second player's score and the target on the second) at the largest size both fit;
    only past that is a name cut, at the readable size. Each name was cut at 24 px to a share
    of one line, so two long names read "Maximilian… 1700  —  Bartholome… 675"."""
    parts = [f"{name} {total}" for name, total in scores]
    suffix = f"   (first to {target})"
    one = f"{_MATCH}{_VERSUS.join(parts)}{suffix}"
    if text_width(one, font(READABLE, "bold")) <= width:
        return fit_font(one, width, 24, "bold", READABLE), (one,)
    half = (len(parts) + 1) // 2
    heads = [_MATCH, ""]
    tails = [_VERSUS.rstrip(), suffix]
    groups = [scores[:half], scores[half:]]
    lines = [
        f"{head}{_VERSUS.join(f'{n} {t}' for n, t in group)}{tail}"
        for head, group, tail in zip(heads, groups, tails, strict=True)
    ]
    size = 24
    while size > READABLE and any(text_width(ln, font(size, "bold")) > width for ln in lines):
        size -= 1
    fnt = font(size, "bold")
    if all(text_width(ln, fnt) <= width for ln in lines):
        return fnt, tuple(lines)
    # At the readable size and still too wide: the names of a line share what its scores,
    # separators and target leave (a computer's level goes before a name is cut).
    cut = []
    for head, group, tail in zip(heads, groups, tails, strict=True):
        fixed = head + _VERSUS * (len(group) - 1) + "".join(f" {t}" for _, t in group) + tail
        spare = width - text_width(fixed, fnt)
        widths = [text_width(n, fnt) for n, _ in group]
        even = spare // max(1, len(group))
        rooms = [max(even, spare - sum(widths) + w) for w in widths]
        named = [f"{ellipsize(n, fnt, r)} {t}" for (n, t), r in zip(group, rooms, strict=True)]
        cut.append(f"{head}{_VERSUS.join(named)}{tail}")
    return fnt, tuple(cut)


def _size(fnt: Font) -> int:
    """A font's size in pixels (Pillow's own font, drawn when the bundled one is missing, 24)."""
    return round(getattr(fnt, "size", 24))


_REASON_STEP = 24
"""Baseline to baseline for a hand's reason on two lines, and how far it moves the rest down:
the panels' nine score lines leave 40 px spare above their totals."""


def _reason_lines(reason: str, width: int) -> list[str]:
    """A hand's reason at the readable size on one line, or two (the second cut with an
    ellipsis should it need a third)."""
    lines = wrap(reason, font(READABLE), width)
    if len(lines) > 2:
        lines = [lines[0], ellipsize(" ".join(lines[1:]), font(READABLE), width)]
    return lines


def result_png(view: MillePublicView) -> bytes:
    """``render_hand_result`` of the last finished hand, as PNG bytes; b"" (no image) before
    any hand has finished: a match resigned in its first hand has no score sheet to show, and
    a picture saying so would be posted under the last table with nothing to read out. Nor
    after a match left in a later hand: the last finished hand's sheet (posted when that hand
    ended) came again under the last table, with the match's gold banner ("Hand 1 — score",
    "★ Bob wins the match! ★"), as if that hand had decided it; the hand left is never scored."""
    if not view.results or view.left_mid_hand:
        return b""
    return to_png(render_hand_result(view))


def _match_totals_after(view: MillePublicView, result: HandResult) -> list[int]:
    """Each seat's match total once ``result`` was scored: the sum of hands up to it."""
    totals = [0] * max([len(result.lines), *(len(r.lines) for r in view.results)])
    counted = False
    for r in view.results:
        if r.number <= result.number:
            counted = counted or r.number == result.number
            for seat, points in enumerate(r.totals):
                totals[seat] += points
    if not counted:  # a result passed in that the view does not hold yet
        for seat, points in enumerate(result.totals):
            totals[seat] += points
    return totals


def _result_column(
    c: Canvas,
    view: MillePublicView,
    seat: int,
    lines: tuple[ScoreLine, ...],
    hand_total: int,
    match_total: int,
    box: Box,
) -> None:
    x0, y0, x1, y1 = box
    won = view.winners is not None and seat in view.winners
    c.rounded(
        box,
        16,
        fill=Palette.MAT,
        outline=Palette.GOLD if won else Palette.MAT_EDGE,
        width=3 if won else 2,
    )
    c.draw.ellipse(
        (x0 + 18, y0 + 22, x0 + 36, y0 + 40),
        fill=Palette.SEAT[seat % 2],
        outline=Palette.INK,
        width=2,
    )
    name = view.players[seat] if seat < len(view.players) else f"Seat {seat + 1}"
    pill_x = x1 - 16 - text_width("★ WINNER", font(READABLE, "bold")) - 24
    # The name ends where the winner's pill begins (with a gap), pill or not: both panels
    # then cut long names alike. It shrinks towards the readable size, then takes two lines,
    # before it is cut: at 28 px "Computer (normal)" lost its level, the sheet's lines and the
    # result naming it whole, and at 20 px a 32-letter name was "Maximilian Wolfga…".
    room = pill_x - 12 - (x0 + 46)
    header_name(c, x0 + 46, y0 + 31, fit_name_lines(name, room, 28, "bold", READABLE))
    if won:
        c.pill(
            pill_x,
            y0 + 17,
            "★ WINNER",
            font(READABLE, "bold"),
            Palette.GOLD,
            ink=Palette.DARK_INK,
            height=28,
        )
    row = font(22, "regular")
    pts = font(22, "bold")
    y = y0 + 76
    # Nine lines at most (milestones ... shut-out); 33 px each fits above the totals.
    for line in lines:
        c.text((x0 + 20, y), line.label, row, Palette.INK, anchor="lm")
        sign = "+" if line.points > 0 else ""
        c.text((x1 - 20, y), f"{sign}{line.points}", pts, Palette.INK, anchor="rm")
        y += 33
    has_match = view.match_target is not None
    base = y1 - (92 if has_match else 56)
    c.draw.line((x0 + 16, base, x1 - 16, base), fill=Palette.MAT_EDGE, width=2)
    big = font(24, "bold")
    c.text((x0 + 20, base + 28), "Hand total", big, Palette.INK, anchor="lm")
    c.text((x1 - 20, base + 28), str(hand_total), big, Palette.GOLD, anchor="rm")
    if has_match:
        c.text((x0 + 20, base + 64), "Match total", big, Palette.MUTED, anchor="lm")
        c.text((x1 - 20, base + 64), str(match_total), big, Palette.INK, anchor="rm")

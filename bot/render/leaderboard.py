"""The leaderboard image, in the table's felt-and-asphalt style, and the look it shares with
the member's stats card (``bot/render/stats.py``): margins, title bar, chip and medal colours.

Its input is a list of small frozen rows of ready-made numbers and names (no engine state, no
ratings maths, no discord): the cogs look members up and fill them in. The image has a fixed
size and an opaque background, so it reads the same in Discord's dark and light themes, and the
same input always gives the same pixels.

``leaderboard_png`` draws the top ten of a ladder (rank with medals for the podium, name,
rating or best score, games, win rate), and the caller's own line under a divider when they are
not in the top ten.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.words import plural
from bot.render.common import (
    READABLE,
    RGB,
    Canvas,
    Font,
    Palette,
    ellipsize,
    fit_font,
    font,
    text_width,
    title_bar,
    to_png,
    vertical_gradient,
)

LEADERBOARD_SIZE = (960, 820)
TOP_N = 10

# --- inputs ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderboardRow:
    """One line of a board: place, display name, the ranked value and the record.

    ``value`` is the displayed rating (or the best result on a best-result board); ``win_rate`` is
    0–1, or None where it means nothing (best-result boards, no games). ``player`` says whose
    row it is (a user id, never drawn): two members of the same name and figures are two rows,
    and only the caller's is marked as theirs.
    """

    rank: int
    name: str
    value: int
    games: int
    win_rate: float | None = None
    player: int | None = None


# --- palette additions -----------------------------------------------------------------------

_ROW: RGB = (20, 56, 43)
_ROW_ALT: RGB = (24, 64, 49)
_EMPTY_ROW: RGB = (22, 58, 45)
_CALLER: RGB = Palette.SEAT[0]
GREY_CHIP: RGB = (70, 76, 86)
BAR_BACK: RGB = (44, 50, 58)
MEDALS: tuple[tuple[RGB, RGB, RGB], ...] = (
    # (face, rim, ribbon) for gold, silver and bronze.
    ((246, 196, 58), (150, 104, 12), (196, 40, 40)),
    ((214, 220, 228), (120, 128, 140), (28, 95, 184)),
    ((146, 92, 38), (92, 54, 18), (38, 125, 50)),
)
"""A dark bronze: the light orange one before was 13.8 from gold to a deuteranope and 13.2
to a tritanope (CIEDE2000), who tell these faces apart mostly by how light they are; gold,
silver and bronze are 28 or more apart now, to normal sight and to all three."""
MEDAL_INKS: tuple[RGB, ...] = (Palette.DARK_INK, Palette.DARK_INK, Palette.INK)
"""The words on a medal's face (its number, /stats' rank chip): dark on gold and silver,
light on bronze."""
MEDAL_FIGURES: tuple[RGB, ...] = (MEDALS[0][0], MEDALS[1][0], (230, 176, 128))
"""A podium row's figure on the row: its medal's colour, bronze lightened to read there (the
old bronze figure was 3.2:1 to a protanope)."""
WON: RGB = (170, 250, 180)
DRAWN: RGB = (150, 160, 160)
LOST: RGB = (240, 70, 80)
"""A record's won, drawn and lost parts (the /stats record bar) and a win rate's bar (high,
middling, low), light to dark: any two stay 22 or more apart (CIEDE2000) to normal sight and
under protanopia, deuteranopia and tritanopia. In Palette.GREEN and Palette.RED they were 7.5
apart to a deuteranope, and Palette.AMBER 9.6 from the green to a protanope."""

# --- leaderboard -----------------------------------------------------------------------------

_LW, _LH = LEADERBOARD_SIZE
MARGIN = 20
TITLE_H = 76
_HEAD_Y = TITLE_H + 14  # column titles
_ROWS_Y = _HEAD_Y + 34
_ROW_H = 54
_ROW_GAP = 4
_CALLER_Y = _ROWS_Y + TOP_N * (_ROW_H + _ROW_GAP) + 30

# Column anchors: the rank's centre, the name's left edge, right edges of the numbers, the bar.
_RANK_X = MARGIN + 40
_NAME_X = MARGIN + 84
_RANK_ROOM = 72  # a place's figure centred on _RANK_X, 6 px short of the name
_RANK_LEFT = MARGIN + 10  # a wider figure starts here (clear of the caller's outline)
_RANK_GAP = 14  # between a wide figure and the name
_BAR_X0, _BAR_X1 = 756, 846
_RATE_R = _LW - MARGIN - 18
# (value, games) right edges: with a win-rate column, and on boards without one (best results).
_COLUMNS_WITH_RATE = (610, 718)
_COLUMNS_NO_RATE = (_RATE_R - 150, _RATE_R)


def render_leaderboard(
    title: str,
    rows: Sequence[LeaderboardRow],
    caller_row: LeaderboardRow | None = None,
    period_label: str = "All time",
    value_label: str = "Rating",
) -> Image.Image:
    """The board as an image; only the first ``TOP_N`` rows are drawn.

    ``caller_row`` is the member who asked: highlighted in place when among the shown rows,
    otherwise drawn separately at the bottom.
    """
    c = Canvas(_leaderboard_background().copy())
    _draw_title_bar(c, title, period_label, _LW)
    # Column titles, "YOU", "YOUR PLACE" and the count under the board at the readable size
    # (``READABLE``): they were 14-16 px, 7-8 on a phone.
    head = font(READABLE, "bold")
    y = _HEAD_Y + 12
    c.text((_RANK_X, y), "#", head, Palette.MUTED, anchor="mm")
    c.text((_NAME_X, y), "PLAYER", head, Palette.MUTED, anchor="lm")
    shown = list(rows[:TOP_N])
    # A board where nobody has a win rate (best results of one-player games) drops that column.
    everyone = shown if caller_row is None else [*shown, caller_row]
    with_rate = any(r.win_rate is not None for r in everyone)
    columns = _COLUMNS_WITH_RATE if with_rate else _COLUMNS_NO_RATE
    c.text((columns[0], y), value_label.upper(), head, Palette.MUTED, anchor="rm")
    c.text((columns[1], y), "GAMES", head, Palette.MUTED, anchor="rm")
    if with_rate:
        c.text((_RATE_R, y), "WIN RATE", head, Palette.MUTED, anchor="rm")

    caller_shown = caller_row is not None and caller_row in shown
    for i in range(TOP_N):
        top = _ROWS_Y + i * (_ROW_H + _ROW_GAP)
        if i < len(shown):
            row = shown[i]
            _draw_row(c, row, top, i, caller_shown and row == caller_row, columns, with_rate)
        else:
            _draw_empty_row(c, top, first=i == 0)

    if caller_row is not None and not caller_shown:
        mid = _CALLER_Y - 15
        place = font(READABLE, "bold")
        gap = text_width("YOUR PLACE", place) // 2 + 14
        c.draw.line((MARGIN + 8, mid, _LW / 2 - gap, mid), fill=Palette.MAT_EDGE, width=2)
        c.draw.line((_LW / 2 + gap, mid, _LW - MARGIN - 8, mid), fill=Palette.MAT_EDGE, width=2)
        c.text((_LW / 2, mid), "YOUR PLACE", place, Palette.MUTED, anchor="mm")
        _draw_row(c, caller_row, _CALLER_Y + 4, 0, True, columns, with_rate)
    elif shown:  # (an empty board says so in its first row)
        note = f"{plural(len(rows), 'player')} on this board"
        c.text((_LW / 2, _CALLER_Y + 30), note, font(READABLE), Palette.MUTED, anchor="mm")
    return c.image


def leaderboard_png(
    title: str,
    rows: Sequence[LeaderboardRow],
    caller_row: LeaderboardRow | None = None,
    period_label: str = "All time",
    value_label: str = "Rating",
) -> bytes:
    """``render_leaderboard`` as PNG bytes, ready to attach to a message."""
    return to_png(render_leaderboard(title, rows, caller_row, period_label, value_label))


@lru_cache(maxsize=1)
def _leaderboard_background() -> Image.Image:
    img = vertical_gradient(_LW, _LH, Palette.FELT_TOP, Palette.FELT_BOTTOM)
    title_bar(Canvas(img), _LW, TITLE_H)
    return img


def _draw_title_bar(c: Canvas, title: str, label: str, width: int) -> None:
    cy = TITLE_H // 2
    small = font(18, "bold")
    pill_w = text_width(label, small) + 24 if label else 0
    if label:
        c.pill(width - MARGIN - 4 - pill_w, cy - 16, label, small, GREY_CHIP, height=32)
    room = width - 2 * MARGIN - 8 - pill_w - 24
    title_font = fit_font(title.upper(), room, 28, "bold", min_size=18)
    c.text(
        (MARGIN + 4, cy),
        ellipsize(title.upper(), title_font, room),
        title_font,
        Palette.GOLD,
        anchor="lm",
        drop=2,
    )


def _draw_row(
    c: Canvas,
    row: LeaderboardRow,
    top: int,
    index: int,
    is_caller: bool,
    columns: tuple[int, int],
    with_rate: bool,
) -> None:
    box = (MARGIN, top, _LW - MARGIN, top + _ROW_H)
    podium = 1 <= row.rank <= 3
    fill = _ROW_ALT if index % 2 else _ROW
    if podium:
        # The podium's rows: a stripe of the medal colour down the left edge, and a tint.
        face = MEDALS[row.rank - 1][0]
        c.rounded(box, 12, fill=face)
        c.draw.rounded_rectangle(
            (MARGIN + 7, top, _LW - MARGIN, top + _ROW_H),
            radius=12,
            fill=_mix(fill, face, 0.1),
            corners=(False, True, True, False),
        )
    else:
        c.rounded(box, 12, fill=fill)
    if is_caller:
        c.rounded(box, 12, outline=_CALLER, width=3)
    cy = top + _ROW_H / 2

    name_x = _NAME_X
    if podium:
        medal = _medal(row.rank)
        c.image.paste(medal, (_RANK_X - medal.width // 2, round(cy) - medal.height // 2), medal)
    else:
        figure = str(row.rank)
        rank_font = _rank_font(figure)
        wide = text_width(figure, rank_font)
        if wide <= _RANK_ROOM:
            c.text((_RANK_X, cy), figure, rank_font, Palette.INK, "mm")
        else:
            # Six digits and more: from the row's left edge, the name moved right for them
            # (in the room of the centred column, a six-digit place was 19 px).
            c.text((_RANK_LEFT, cy), figure, rank_font, Palette.INK, "lm")
            name_x = max(_NAME_X, _RANK_LEFT + wide + _RANK_GAP)

    value_font = font(26, "bold")
    value = number_text(row.value)
    value_r, games_r = columns
    name_room = value_r - text_width(value, value_font) - 28 - name_x
    name_font = font(24, "bold")
    if is_caller:
        you = font(READABLE, "bold")
        name_room -= text_width("YOU", you) + 34
    name = ellipsize(row.name, name_font, max(60, name_room))
    c.text((name_x, cy), name, name_font, Palette.INK, anchor="lm", drop=1)
    if is_caller:
        x = name_x + text_width(name, name_font) + 12
        c.pill(x, round(cy) - 15, "YOU", you, _CALLER, Palette.DARK_INK, 30, 10)

    colour = MEDAL_FIGURES[row.rank - 1] if podium else Palette.INK
    c.text((value_r, cy), value, value_font, colour, anchor="rm", drop=1)
    c.text((games_r, cy), number_text(row.games), font(22, "regular"), Palette.INK, anchor="rm")
    if not with_rate:
        return

    bar = (_BAR_X0, round(cy) - 6, _BAR_X1, round(cy) + 6)
    if row.win_rate is None:
        c.text((_RATE_R, cy), "—", font(22, "regular"), Palette.MUTED, anchor="rm")
        return
    rate = min(1.0, max(0.0, row.win_rate))
    c.rounded(bar, 6, fill=BAR_BACK)
    if rate > 0:
        filled = bar[0] + max(12, round((bar[2] - bar[0]) * rate))
        c.rounded((bar[0], bar[1], filled, bar[3]), 6, fill=rate_colour(rate))
    c.text((_RATE_R, cy), f"{round(rate * 100)}%", font(22, "bold"), Palette.INK, anchor="rm")


def _rank_font(rank: str) -> Font:
    """A place's figure: bold up to four digits, condensed past them in the room left of the
    names (``_RANK_ROOM``), where a five-digit place in bold shrank to 17 px; never under
    ``READABLE``: a wider place is written from the row's edge (``_draw_row``)."""
    bold = fit_font(rank, 60, 22, "bold")
    if getattr(bold, "size", 0) >= READABLE:
        return bold
    return fit_font(rank, _RANK_ROOM, 22, "cond", min_size=READABLE)


def _draw_empty_row(c: Canvas, top: int, first: bool) -> None:
    """An open place on a young ladder: a faint slot, so the board keeps its shape."""
    c.rounded((MARGIN, top, _LW - MARGIN, top + _ROW_H), 12, fill=_EMPTY_ROW)
    if first:
        text = "No rated games yet: finish a game against another member to get on the board"
        fnt = fit_font(text, _LW - 2 * MARGIN - 40, 20, "regular", min_size=12)
        c.text((_LW / 2, top + _ROW_H / 2), text, fnt, Palette.MUTED, anchor="mm")


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` of the way towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def rate_colour(rate: float) -> RGB:
    """Red below a third, grey to a half, light green above: a glanceable win rate, in the
    record bar's colours (``WON``, ``DRAWN``, ``LOST``), its figure written beside it."""
    if rate < 1 / 3:
        return LOST
    if rate < 0.5:
        return DRAWN
    return WON


def number_text(value: int) -> str:
    """Thousands separators only from five digits on: ratings read best as "1512"."""
    return f"{value:,}" if abs(value) >= 10_000 else str(value)


@lru_cache(maxsize=3)
def _medal(place: int, size: int = 46) -> Image.Image:
    """A podium medal (1 gold, 2 silver, 3 bronze) with ribbon tails, as an RGBA piece.

    Drawn at four times the size and scaled down: Pillow's shapes have no anti-aliasing.
    """
    face, rim, ribbon = MEDALS[place - 1]
    k = 4
    s = size * k
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    # Two ribbon tails behind the disc, fanning down and out.
    for way in (-1, 1):
        cx = s / 2 + way * s * 0.14
        d.polygon(
            (
                (cx - s * 0.1, s * 0.5),
                (cx + s * 0.1, s * 0.5),
                (cx + way * s * 0.1 + s * 0.08, s * 0.98),
                (cx + way * s * 0.1, s * 0.9),
                (cx + way * s * 0.1 - s * 0.08, s * 0.98),
            ),
            fill=ribbon,
        )
    r = s * 0.36
    c = s / 2, s * 0.4
    d.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=rim)
    r2 = r * 0.82
    d.ellipse((c[0] - r2, c[1] - r2, c[0] + r2, c[1] + r2), fill=face)
    number = font(round(r * 1.15), "bold")
    d.text(c, str(place), font=number, fill=MEDAL_INKS[place - 1], anchor="mm")
    return img.resize((size, size), Image.Resampling.LANCZOS)

"""The member's stats card (/stats), in the leaderboard's style (``bot/render/leaderboard.py``).

Its input is a small frozen dataclass of ready-made numbers and names (no engine state, no
ratings maths, no discord): the cogs look the member up and fill it in. The card has a fixed
size and an opaque background, and the same input always gives the same pixels.

``stats_png`` draws one member: rating over time as a line chart, their record, favourite
game, record against frequent opponents and best results; a solitaire's card shows games
played, won and lost, and the member's best on the best-results board in their place.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.words import noun, plural
from bot.render.common import (
    READABLE,
    RGB,
    Box,
    Canvas,
    Palette,
    ellipsize,
    fit_font,
    font,
    mat,
    text_width,
    title_bar,
    to_png,
    vertical_gradient,
    wrap,
)
from bot.render.leaderboard import (
    BAR_BACK,
    DRAWN,
    GREY_CHIP,
    LOST,
    MARGIN,
    MEDAL_INKS,
    MEDALS,
    TITLE_H,
    WON,
    number_text,
    rate_colour,
)

STATS_SIZE = (1100, 820)

# --- inputs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingPoint:
    """The displayed rating just after one rated game, at ``at`` (Unix seconds); or, when not
    ``after_game``, the rating as of the card's moment, uncertainty grown since the last game,
    so the chart ends at the rating the card and the board show."""

    at: float
    rating: int
    after_game: bool = True


def rated_games(history: Sequence[RatingPoint]) -> int:
    """The rated games a chart's points stand for (the point as of now is none)."""
    return sum(1 for point in history if point.after_game)


@dataclass(frozen=True)
class OpponentLine:
    """The member's record against one opponent."""

    name: str
    wins: int
    losses: int
    draws: int = 0


@dataclass(frozen=True)
class BestLine:
    """A personal best: ``label`` ("Best hand"), ``value`` ("1,425 pts") and a detail line."""

    label: str
    value: str
    detail: str = ""


@dataclass(frozen=True)
class MemberStats:
    """Everything on a member's stats card.

    ``games`` counts every finished game (computer games too); ``wins``/``losses``/``draws``
    are the rated record behind ``rating``. ``rank`` of ``ranked_players`` is their place on
    the ladder, None when unranked.

    A solitaire's card (``solitaire``) has no rating, draws or opponents: ``games`` counts every
    game played, ``wins``/``losses`` the games won and lost (a game that could not be won at its
    settings is neither; shown only when the game ``winnable``), and ``board_value``
    is the member's best result on the game's best-results board (a column called
    ``board_label``), placed ``rank`` of ``ranked_players``; None when no game of theirs ranks.
    ``given_up_ranks``: whether the game's board ranks a game given up (``Ranking``), so the
    card's note says which games the board leaves out (``off_board_note``).
    """

    name: str
    scope_label: str
    rating: int | None = None
    rank: int | None = None
    ranked_players: int | None = None
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    history: tuple[RatingPoint, ...] = ()
    opponents: tuple[OpponentLine, ...] = ()
    favourite_game: str | None = None
    favourite_game_plays: int = 0
    best: tuple[BestLine, ...] = ()
    solitaire: bool = False
    winnable: bool = False
    board_label: str = ""
    board_value: int | None = None
    given_up_ranks: bool = True


def board_value_text(label: str, value: int) -> str:
    """A best-results board's figure as its column reads it: "30/49" under "Cleared /49"."""
    _, _, out_of = label.partition(" /")
    return f"{value:,}/{out_of}" if out_of else f"{value:,}"


def board_caption(label: str) -> str:
    """A best-results board's column label without its "/49": "Cleared" for "Cleared /49".
    The card writes its figure as "30/49" (``board_value_text``) beside it: the whole label
    read "CLEARED /49 30/49", and "CLEARED /49 —" with no best yet."""
    return label.partition(" /")[0]


def solitaire_record(stats: MemberStats) -> list[tuple[str, int]]:
    """The figures of a solitaire's record, as (label, value), in the order drawn and read:
    games played, and won and lost where the game can be won (no draws: nobody to draw with)."""
    figures = [("PLAYED", stats.games)]
    if stats.winnable:
        figures += [("WON", stats.wins), ("LOST", stats.losses)]
    return figures


def solitaire_win_rate(stats: MemberStats) -> float | None:
    """The share of a solitaire's games won among those that could be won (a game only played,
    such as a score attack, is left out); None when none could be."""
    decided = stats.wins + stats.losses
    return stats.wins / decided if decided else None


# --- palette additions -----------------------------------------------------------------------

_GRID: RGB = (44, 86, 70)
_AXIS: RGB = (96, 140, 120)
_LINE: RGB = (92, 170, 255)
_WON, _DRAWN, _LOST = WON, DRAWN, LOST
"""The record bar's won, drawn and lost segments (the leaderboard's win-rate colours)."""

# --- member stats ----------------------------------------------------------------------------

_SW, _SH = STATS_SIZE
# Every word on the card is at least ``READABLE`` (a phone shows the card at half size): the
# side column is wider than when its small print was 13-19 px, so "123,456 games played" and
# "82% win rate" share a line, and the card taller, so three personal bests still fit.
_CHART_BOX: Box = (MARGIN, TITLE_H + 16, 620, _SH - MARGIN)
_SIDE_X0 = _CHART_BOX[2] + 16
_PANEL_GAP = 14
_RECORD_H = 208
_OPP_STEP = 38
_OPP_BAR = 52


def render_stats(stats: MemberStats) -> Image.Image:
    """A member's stats card: header, rating chart on the left, record panels on the right."""
    c = Canvas(_stats_background().copy())
    _draw_stats_header(c, stats)
    if stats.solitaire:
        # No rating, draws or opponents: the best-results board in the chart's place, and
        # the personal bests where the opponents would be.
        _draw_board_panel(c, stats, _CHART_BOX)
        x0, x1, y = _SIDE_X0, _SW - MARGIN, _CHART_BOX[1]
        y = _draw_solitaire_record_panel(c, stats, (x0, y, x1, y + _RECORD_H)) + _PANEL_GAP
        _draw_best_panel(c, stats.best, (x0, y, x1, _SH - MARGIN))
        return c.image
    _draw_chart_panel(c, stats.history, _CHART_BOX)

    x0, x1 = _SIDE_X0, _SW - MARGIN
    y = _CHART_BOX[1]
    y = _draw_record_panel(c, stats, (x0, y, x1, y + _RECORD_H)) + _PANEL_GAP
    opp_h = 48 + _OPP_STEP * max(1, min(5, len(stats.opponents)))
    y = _draw_opponents_panel(c, stats.opponents[:5], (x0, y, x1, y + opp_h)) + _PANEL_GAP
    _draw_best_panel(c, stats.best, (x0, y, x1, _SH - MARGIN))
    return c.image


def stats_png(stats: MemberStats) -> bytes:
    """``render_stats`` as PNG bytes."""
    return to_png(render_stats(stats))


@lru_cache(maxsize=1)
def _stats_background() -> Image.Image:
    img = vertical_gradient(_SW, _SH, Palette.FELT_TOP, Palette.FELT_BOTTOM)
    title_bar(Canvas(img), _SW, TITLE_H)
    return img


def _draw_stats_header(c: Canvas, stats: MemberStats) -> None:
    cy = TITLE_H // 2
    right = _SW - MARGIN - 4
    big = font(34, "bold")
    if stats.solitaire:  # the best result on the board, under the board's own label
        caption = board_caption(stats.board_label).upper()
        value = stats.board_value
        rating = "—" if value is None else board_value_text(stats.board_label, value)
    else:
        caption = "RATING"
        rating = "—" if stats.rating is None else number_text(stats.rating)
    c.text((right, cy + 2), rating, big, Palette.GOLD, anchor="rm", drop=2)
    right -= text_width(rating, big) + 10
    small = font(READABLE, "bold")  # "RATING" was 15 px
    c.text((right, cy + 4), caption, small, Palette.MUTED, anchor="rm")
    right -= text_width(caption, small) + 20
    if stats.rank is not None:
        chip, fill, ink = _rank_chip(stats.rank, stats.ranked_players)
        chip_font = font(READABLE, "bold")  # it was 18 px
        w = text_width(chip, chip_font) + 24
        c.pill(right - w, cy - 16, chip, chip_font, fill, ink=ink, height=32)
        right -= w + 20
    room = right - MARGIN - 4
    name_font = fit_font(stats.name, room, 30, "bold", min_size=20)
    c.text(
        (MARGIN + 4, cy - 12),
        ellipsize(stats.name, name_font, room),
        name_font,
        Palette.INK,
        anchor="lm",
        drop=2,
    )
    label_font = font(READABLE)  # the game's name was 16 px
    label = ellipsize(stats.scope_label, label_font, room)
    c.text((MARGIN + 4, cy + 21), label, label_font, Palette.MUTED, anchor="lm")


def _rank_chip(rank: int, ranked: int | None) -> tuple[str, RGB, RGB]:
    """A member's place as a chip: "#2 of 14", its fill (the medal's on the podium, as on the
    leaderboard) and its ink."""
    of = f" of {ranked}" if ranked else ""
    podium = 1 <= rank <= 3
    fill = MEDALS[rank - 1][0] if podium else GREY_CHIP
    return f"#{rank}{of}", fill, MEDAL_INKS[rank - 1] if podium else Palette.INK


def _panel(c: Canvas, box: Box, title: str, note: str = "") -> None:
    mat(c, box, 16)
    # A panel's title and note at the readable size, as the leaderboard's column titles: they
    # were 15 px, 7 on a phone.
    label = font(READABLE, "bold")
    c.text((box[0] + 18, box[1] + 22), title, label, Palette.MUTED, anchor="lm")
    if note:
        c.text((box[2] - 18, box[1] + 22), note, label, Palette.MUTED, anchor="rm")


def _draw_record_panel(c: Canvas, stats: MemberStats, box: Box) -> int:
    # Won, lost and drawn count only rated games (between members); "N games played" counts
    # every game, those against the computer too: the title says which the numbers are.
    _panel(c, box, "RATED RECORD")
    x0, y0, x1, _ = box
    games = stats.wins + stats.losses + stats.draws
    # Three big numbers: wins, losses, draws, each over its label.
    cols = (
        ("WON", stats.wins, Palette.GREEN),
        ("LOST", stats.losses, Palette.RED_INK),
        ("DRAWN", stats.draws, Palette.MUTED),
    )
    col_w = (x1 - x0 - 36) / 3
    for i, (label, value, colour) in enumerate(cols):
        cx = x0 + 18 + col_w * (i + 0.5)
        _figure(c, cx, y0 + 64, value, col_w)
        c.text((cx, y0 + _LABEL_DY), label, font(READABLE, "bold"), colour, anchor="mm")
    # A stacked bar of the same record: light green, grey, red (``_WON``, ``_DRAWN``, ``_LOST``).
    bar = (x0 + 18, y0 + _BAR_DY, x1 - 18, y0 + _BAR_DY + 12)
    c.rounded(bar, 6, fill=BAR_BACK)
    parts = ((stats.wins, _WON), (stats.draws, _DRAWN), (stats.losses, _LOST))
    _record_bar(c, bar, parts)
    info = font(READABLE)
    played = f"{number_text(stats.games)} {noun(stats.games, 'game')} played"
    c.text((x0 + 18, y0 + _INFO_DY), played, info, Palette.INK, anchor="lm")
    if games:
        rate = f"{round(100 * (stats.wins + 0.5 * stats.draws) / games)}% win rate"
        c.text((x1 - 18, y0 + _INFO_DY), rate, font(READABLE, "bold"), Palette.INK, anchor="rm")
    _draw_favourite(c, stats, box)
    return box[3]


# The record panels' rows below their title, at the readable size (WON / LOST / DRAWN were 13
# px, the lines under the bar 16): the figures' labels, the bar, "N games played" and the win
# rate, and the favourite game.
_LABEL_DY = 96
_BAR_DY = 114
_INFO_DY = 150
_FAVOURITE_DY = 182


def _figure(c: Canvas, cx: float, cy: float, value: int, col_w: float) -> None:
    """A record's big number centred on its column, smaller when it is wider than the column
    less a gap: at 30 px, "123,456" played beside "99,999" won ran into it, and two five-digit
    figures touched, read as one number ("99,99920,000")."""
    text = number_text(value)
    fnt = fit_font(text, round(col_w) - 14, 30, "bold", min_size=READABLE)
    c.text((cx, cy), text, fnt, Palette.INK, anchor="mm", drop=1)


_RECORD_GAP = 4
"""The dark gap between the record bar's segments: Palette.GREEN and Palette.RED were one olive
to a red-green colour-blind player, so the split is drawn, not only coloured."""


def _record_bar(c: Canvas, bar: Box, parts: Sequence[tuple[int, RGB]]) -> None:
    """A record as segments of ``bar`` in order (won, drawn, lost), each as long as its share
    (a count of one is still seen), ``_RECORD_GAP`` apart."""
    shown = [(count, colour) for count, colour in parts if count > 0]
    total = sum(count for count, _ in shown)
    if not total:
        return
    room = bar[2] - bar[0] - _RECORD_GAP * (len(shown) - 1)
    widths = [max(8, round(room * count / total)) for count, _ in shown]
    widths[widths.index(max(widths))] += room - sum(widths)  # the largest takes the rounding
    x = bar[0]
    for width, (_, colour) in zip(widths, shown, strict=True):
        c.rounded((x, bar[1], x + width, bar[3]), 6, fill=colour)
        x += width + _RECORD_GAP


def _draw_favourite(c: Canvas, stats: MemberStats, box: Box) -> None:
    """The record panel's last line: the member's most played game, and how often."""
    if not stats.favourite_game:
        return
    x0, y0, x1, _ = box
    info = font(READABLE)
    c.text((x0 + 18, y0 + _FAVOURITE_DY), "Favourite", info, Palette.MUTED, anchor="lm")
    fav = stats.favourite_game
    if stats.favourite_game_plays:
        fav += f" ({number_text(stats.favourite_game_plays)})"
    fav_font = font(READABLE, "bold")
    room = x1 - x0 - 36 - text_width("Favourite", info) - 16
    shown = ellipsize(fav, fav_font, room)
    c.text((x1 - 18, y0 + _FAVOURITE_DY), shown, fav_font, Palette.GOLD, "rm")


def _draw_solitaire_record_panel(c: Canvas, stats: MemberStats, box: Box) -> int:
    """A solitaire's record: games played, and won and lost when it can be won."""
    _panel(c, box, "RECORD")
    x0, y0, x1, _ = box
    colours = {"PLAYED": Palette.GOLD, "WON": Palette.GREEN, "LOST": Palette.RED_INK}
    figures = solitaire_record(stats)
    col_w = (x1 - x0 - 36) / len(figures)
    for i, (label, value) in enumerate(figures):
        cx = x0 + 18 + col_w * (i + 0.5)
        _figure(c, cx, y0 + 64, value, col_w)
        ink = colours[label]
        c.text((cx, y0 + _LABEL_DY), label, font(READABLE, "bold"), ink, anchor="mm")
    if stats.winnable:
        bar = (x0 + 18, y0 + _BAR_DY, x1 - 18, y0 + _BAR_DY + 12)
        c.rounded(bar, 6, fill=BAR_BACK)
        rate = solitaire_win_rate(stats)
        if rate is not None:
            _record_bar(c, bar, ((stats.wins, _WON), (stats.losses, _LOST)))
            words = f"{round(100 * rate)}% won"
            c.text((x1 - 18, y0 + _INFO_DY), words, font(READABLE, "bold"), Palette.INK, "rm")
    _draw_favourite(c, stats, box)
    return box[3]


def off_board_note(stats: MemberStats) -> str:
    """Which of the game's games its best-results board leaves out, under the board and in
    the alt text. A game given up is named only where it does not rank (Ticket to Ride Solo):
    Bob, whose one run he gave up, read only of /hint, the computer's turns and other settings,
    none of them his; Mille Bornes Solo's give-up ranks, so its note does not say it."""
    given_up = "" if stats.given_up_ranks else "given up, "
    return (
        f"Games {given_up}played with /hint, with turns the computer played, or at other "
        "than the standard settings do not rank."
    )


def _draw_board_panel(c: Canvas, stats: MemberStats, box: Box) -> None:
    """A solitaire's best result on the best-results board, and the member's place on it."""
    _panel(c, box, "BEST RESULTS BOARD")
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if stats.board_value is None:
        c.text((cx, cy - 20), "Not on the board yet", font(26, "bold"), Palette.MUTED, "mm")
        _draw_note(c, stats, cx, cy + 20, x1 - x0 - 36)
        return
    value = board_value_text(stats.board_label, stats.board_value)
    c.text((cx, cy - 60), value, font(96, "bold"), Palette.GOLD, anchor="mm", drop=3)
    caption = board_caption(stats.board_label).upper()
    c.text((cx, cy + 14), caption, font(READABLE, "bold"), Palette.MUTED, "mm")
    if stats.rank is not None:
        chip, fill, ink = _rank_chip(stats.rank, stats.ranked_players)
        chip += " on the board"
        chip_font = font(22, "bold")
        w = text_width(chip, chip_font) + 28
        c.pill(round(cx - w / 2), round(cy + 50), chip, chip_font, fill, ink, 38, pad=14)
    room = x1 - x0 - 36
    _draw_note(c, stats, cx, y1 - 14 - _NOTE_LINE * len(_note_lines(stats, room)), room)


_NOTE_LINE = 26


def _note_lines(stats: MemberStats, room: int) -> list[str]:
    """The note under the board at the readable size (it was 16 px), in lines of ``room``."""
    return wrap(off_board_note(stats), font(READABLE), room)


def _draw_note(c: Canvas, stats: MemberStats, cx: float, top: float, room: int) -> None:
    """Which games the board leaves out, centred in lines from ``top``."""
    for i, line in enumerate(_note_lines(stats, room)):
        c.text((cx, top + 13 + i * _NOTE_LINE), line, font(READABLE), Palette.MUTED, anchor="mm")


def _draw_opponents_panel(c: Canvas, opponents: Sequence[OpponentLine], box: Box) -> int:
    _panel(c, box, "FREQUENT OPPONENTS", "W–L–D")
    x0, y0, x1, _ = box
    if not opponents:
        c.text((x0 + 18, y0 + 62), "No rated games yet", font(READABLE), Palette.MUTED, "lm")
        return box[3]
    name_font = font(READABLE, "bold")  # names and records were 19 px
    score_font = font(READABLE, "bold")
    scores = [f"{opp.wins}–{opp.losses}–{opp.draws}" for opp in opponents]
    # One column of bars, left of the widest record: each bar ended where its own record
    # began, so the bars of "9–6–0" and "11–0–0" did not line up to be compared.
    sw = max(text_width(score, score_font) for score in scores)
    for i, (opp, score) in enumerate(zip(opponents, scores, strict=True)):
        cy = y0 + 62 + i * _OPP_STEP
        # Head-to-head bar: share of the games this member won against that opponent.
        bar = (x1 - 18 - sw - 14 - _OPP_BAR, cy - 5, x1 - 18 - sw - 14, cy + 5)
        total = opp.wins + opp.losses + opp.draws
        c.rounded(bar, 5, fill=BAR_BACK)
        # A draw is half a win here: "0–0–3" drew an empty bar, as if every game was lost.
        if total and (opp.wins or opp.draws):
            share = (opp.wins + 0.5 * opp.draws) / total
            c.rounded(
                (bar[0], bar[1], bar[0] + max(10, round(_OPP_BAR * share)), bar[3]),
                5,
                fill=rate_colour(share),
            )
        name = ellipsize(opp.name, name_font, bar[0] - 14 - (x0 + 18))
        c.text((x0 + 18, cy), name, name_font, Palette.INK, anchor="lm")
        ahead = opp.wins > opp.losses
        behind = opp.wins < opp.losses
        colour = Palette.GREEN if ahead else Palette.RED_INK if behind else Palette.INK
        c.text((x1 - 18, cy), score, score_font, colour if total else Palette.MUTED, anchor="rm")
    return box[3]


def _draw_best_panel(c: Canvas, best: Sequence[BestLine], box: Box) -> None:
    _panel(c, box, "PERSONAL BESTS")
    x0, y0, x1, y1 = box
    if not best:
        c.text((x0 + 18, y0 + 62), "Nothing yet", font(READABLE), Palette.MUTED, anchor="lm")
        return
    step = 58  # a best's label (18 px) and detail (14 px) are readable now, two lines of 20
    rows = max(1, min(len(best), (y1 - y0 - 44) // step))
    for i, line in enumerate(best[:rows]):
        top = y0 + 48 + i * step
        value_font = font(22, "bold")
        c.text((x1 - 18, top + 12), line.value, value_font, Palette.GOLD, anchor="rm")
        room = x1 - 18 - text_width(line.value, value_font) - 12 - (x0 + 18)
        label_font = font(READABLE, "bold")
        label = ellipsize(line.label, label_font, room)
        c.text((x0 + 18, top + 12), label, label_font, Palette.INK, anchor="lm")
        if line.detail:
            detail_font = font(READABLE)
            detail = ellipsize(line.detail, detail_font, x1 - x0 - 36)
            c.text((x0 + 18, top + 39), detail, detail_font, Palette.MUTED, anchor="lm")


# --- the rating chart ------------------------------------------------------------------------

_PLOT_LEFT = 86  # room left of the plot for the axis values
_PLOT_RIGHT = 96  # and right of it for the latest rating's tag (at least: ``_draw_chart_panel``)
_TAG_GAP = 12  # from the plot's right edge to the tag
_EDGE = 8  # the least room between an axis value or the tag and the panel's edge
_SCALE = 3  # the plot is drawn this much larger and scaled down, for smooth lines
_MAX_MARKERS = 40  # above this many games the points would merge into a smear: line only


def _draw_chart_panel(c: Canvas, history: Sequence[RatingPoint], box: Box) -> None:
    points = sorted(history, key=lambda p: p.at)
    note = ""
    if points:
        peak = max(p.rating for p in points)
        games = plural(rated_games(points), "game").upper()
        note = f"{games} · PEAK {number_text(peak)}"
    _panel(c, box, "RATING OVER TIME", note)
    if not points:
        c.text(
            ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
            "No rated games yet",
            font(22, "bold"),
            Palette.MUTED,
            anchor="mm",
        )
        return

    lo, hi, step = _y_range([p.rating for p in points])
    tick_font = font(READABLE)  # the axis values and dates were 14 px
    ticks = [number_text(value) for value in range(lo, hi + 1, step)]
    label = number_text(points[-1].rating)
    lf = font(READABLE, "bold")  # it was 16 px
    lw = text_width(label, lf) + 14
    # Room on the left for the axis values and on the right for the latest rating's tag:
    # at least what "-3,000" and "-2,501" take at 20 px, more for wider ones (a tag of
    # "-12,345" ran 15 px past the panel, "-13,000" on the axis 1 px short of its edge).
    left = max(_PLOT_LEFT, max(text_width(tick, tick_font) for tick in ticks) + 10 + _EDGE)
    right = max(_PLOT_RIGHT, _TAG_GAP + lw + _EDGE)
    plot = (box[0] + left, box[1] + 56, box[2] - right, box[3] - 50)
    t0, t1 = points[0].at, points[-1].at
    px0, py0, px1, py1 = plot
    pw, ph = px1 - px0, py1 - py0
    # One point, or games all at one moment: centre them rather than divide by zero.
    span = t1 - t0

    if span > 0:
        fx = [(p.at - t0) / span for p in points]
    elif len(points) == 1:
        fx = [0.5]
    else:
        fx = [i / (len(points) - 1) for i in range(len(points))]
    xy = [(f * pw, ph - (p.rating - lo) / (hi - lo) * ph) for f, p in zip(fx, points, strict=True)]

    for value, tick in zip(range(lo, hi + 1, step), ticks, strict=True):
        y = py0 + ph - (value - lo) / (hi - lo) * ph
        c.text((px0 - 10, y), tick, tick_font, Palette.MUTED, anchor="rm")
    layer = _plot_layer(tuple(xy), pw, ph, lo, hi, step)
    pad = (layer.width - pw) // 2
    c.image.paste(layer, (px0 - pad, py0 - pad), layer)

    # Date labels under the x axis: the ends, and the middle when there is room.
    if span > 0:
        fmt = "%d %b" if _date(t0, "%Y") == _date(t1, "%Y") else "%d %b %Y"
        # The middle date only where three fit with a clear gap: at 20 px, three dates with
        # their years ran together ("14 Nov 2023 21 Jul 2024 27 Mar 2025"); the ends say it.
        ends = [_date(at, fmt) for at in (t0, t0 + span / 2, t1)]
        wide = sum(text_width(words, tick_font) for words in ends) + 2 * 32
        stamps = [t0, t0 + span / 2, t1] if wide <= pw else [t0, t1]
        for i, at in enumerate(stamps):
            anchor = "la" if i == 0 else "ra" if i == len(stamps) - 1 else "ma"
            x = px0 + (at - t0) / span * pw
            c.text((x, py1 + 12), _date(at, fmt), tick_font, Palette.MUTED, anchor=anchor)
    else:
        x = px0 + xy[0][0]
        c.text((x, py1 + 12), _date(t0, "%d %b %Y"), tick_font, Palette.MUTED, anchor="ma")

    # The latest rating as a tag on the right-hand axis, level with the last point, so it
    # never covers the line.
    ty = min(max(py0 + xy[-1][1], py0 + 4), py1 - 4)
    tx = px1 + _TAG_GAP
    c.draw.polygon(((tx - 8, ty), (tx, ty - 8), (tx, ty + 8)), fill=Palette.GOLD)
    c.rounded((tx, ty - 14, tx + lw, ty + 14), 6, fill=Palette.GOLD)
    c.text((tx + lw / 2, ty), label, lf, Palette.DARK_INK, anchor="mm")


def _y_range(values: Sequence[int]) -> tuple[int, int, int]:
    """A rounded axis (low, high, step) around ``values``, with four to seven gridlines."""
    lo, hi = min(values), max(values)
    if hi - lo < 100:  # a flat or short history should not look like a roller coaster
        mid = (lo + hi) // 2
        lo, hi = mid - 50, mid + 50
    # 10, 20, 25, 50, 100, 200, ... as far as the values need: stopping at 1000, a rating
    # past 100,000 had a hundred axis values written over each other.
    power, step = 10, 10
    while (hi - lo) / step > 6:
        for step in (2 * power, 5 * power // 2, 5 * power, 10 * power):
            if (hi - lo) / step <= 6:
                break
        power *= 10
    low = (lo // step) * step
    high = -((-hi) // step) * step
    if high == low:
        high = low + step
    return low, high, step


@lru_cache(maxsize=8)
def _plot_layer(
    xy: tuple[tuple[float, float], ...], pw: int, ph: int, lo: int, hi: int, step: int
) -> Image.Image:
    """Gridlines, the filled area, the line and its points, as an RGBA piece ``pw``×``ph``
    plus a margin on every side (so the end markers are whole).

    Drawn at ``_SCALE`` times the size and scaled down, for anti-aliased lines.
    """
    k = _SCALE
    pad = 8  # room for markers at the plot's edges
    w, h = (pw + 2 * pad) * k, (ph + 2 * pad) * k
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)

    def at(x: float, y: float) -> tuple[float, float]:
        return (x + pad) * k, (y + pad) * k

    value = lo
    while value <= hi:
        gy = ph - (value - lo) / (hi - lo) * ph
        colour = _AXIS if value == lo else _GRID
        d.line((*at(0, gy), *at(pw, gy)), fill=colour, width=k)
        value += step
    d.line((*at(0, 0), *at(0, ph)), fill=_AXIS, width=k)

    line = [at(x, y) for x, y in xy]
    if len(line) > 1:
        # A faint area under the line, then the line itself.
        area = Image.new("L", (w, h), 0)
        ImageDraw.Draw(area).polygon([at(xy[0][0], ph), *line, at(xy[-1][0], ph)], fill=44)
        tint = Image.new("RGBA", (w, h), (*_LINE, 0))
        tint.putalpha(area)
        # Composited, not pasted: a paste would blend the colour with the transparent black.
        img = Image.alpha_composite(img, tint)
        d = ImageDraw.Draw(img)
        d.line(line, fill=(*_LINE, 255), width=3 * k, joint="curve")
    if line:
        # A dotted guide from the latest point to its tag on the right-hand axis.
        x, y = line[-1]
        while x < (pw + pad) * k - 6 * k:
            d.line((x + 8 * k, y, x + 12 * k, y), fill=(*Palette.GOLD, 160), width=k)
            x += 10 * k
    markers = len(line) <= _MAX_MARKERS
    for i, (x, y) in enumerate(line):
        last = i == len(line) - 1
        if not (markers or last):
            continue
        r = (6 if last else 4) * k
        fill = (*Palette.GOLD, 255) if last else (*_LINE, 255)
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=(*Palette.MAT, 255), width=k)
    return img.resize((pw + 2 * pad, ph + 2 * pad), Image.Resampling.LANCZOS)


def _date(at: float, fmt: str) -> str:
    """A UTC date: the bot has no idea of each member's time zone."""
    return time.strftime(fmt, time.gmtime(at)).lstrip("0")

"""Leaderboard and stats images: fixed sizes, PNG budget, the caller's row, medals, charts."""

from __future__ import annotations

import dataclasses
import io
import os
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.render import leaderboard as lb
from bot.render import stats as st
from bot.render.common import READABLE, Canvas, Palette
from bot.render.leaderboard import (
    BAR_BACK,
    LEADERBOARD_SIZE,
    TOP_N,
    LeaderboardRow,
    leaderboard_png,
    render_leaderboard,
)
from bot.render.stats import (
    STATS_SIZE,
    BestLine,
    MemberStats,
    OpponentLine,
    RatingPoint,
    render_stats,
    stats_png,
)
from tests.render.colour_vision import ciede2000, closest_seen, worst_contrast
from tests.render.drawn import inks_drawn, marks_drawn, sizes_drawn, words_drawn

PNG_BUDGET = 250 * 1024
DAY = 86_400.0
T0 = 1_700_000_000.0
NAMES = [
    "Ann",
    "Bob",
    "Chloé",
    "Dmitri Ivanovich Mendeleev-Smythe the Third of Tobolsk",
    "Eve",
    "Farid",
    "Gwen",
    "Hiro",
    "Ines",
    "Jonas",
    "Kai",
    "Lea",
    "Mo",
    "Noor",
]


def _rows(count: int) -> list[LeaderboardRow]:
    return [
        LeaderboardRow(i + 1, NAMES[i % len(NAMES)], 1800 - 40 * i, 100 - 5 * i, 0.7 - 0.05 * i)
        for i in range(count)
    ]


def _history(count: int) -> tuple[RatingPoint, ...]:
    return tuple(
        RatingPoint(T0 + i * 1.5 * DAY, 1000 + 3 * i + (25 if i % 3 else -20)) for i in range(count)
    )


def _stats(history: tuple[RatingPoint, ...]) -> MemberStats:
    return MemberStats(
        name="Chloé",
        scope_label="Mille Bornes · Road Club",
        rating=history[-1].rating if history else None,
        rank=2 if history else None,
        ranked_players=14 if history else None,
        games=len(history) + 4,
        wins=len(history) // 2,
        losses=len(history) - len(history) // 2,
        history=history,
        opponents=(
            OpponentLine("Ann", 12, 9, 1),
            OpponentLine(NAMES[3], 3, 5),
            OpponentLine("Eve", 2, 2),
        ),
        favourite_game="Mille Bornes",
        favourite_game_plays=len(history) + 4,
        best=(
            BestLine("Best hand", "2,175 pts", "Shut-out · 3 Mar 2024"),
            BestLine("Longest win streak", "7 games"),
        ),
    )


def _open(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) < PNG_BUDGET
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def _count(
    image: Image.Image,
    colour: tuple[int, int, int],
    box: tuple[int, int, int, int],
    tolerance: int = 0,
) -> int:
    """How many pixels within ``tolerance`` (per channel) of ``colour`` lie inside ``box``."""
    data = image.convert("RGB").crop(box).tobytes()
    r, g, b = colour
    return sum(
        1
        for i in range(0, len(data), 3)
        if abs(data[i] - r) <= tolerance
        and abs(data[i + 1] - g) <= tolerance
        and abs(data[i + 2] - b) <= tolerance
    )


def _save(name: str, png: bytes) -> None:
    """Keep a copy for a person to look at when LB_IMAGES names a folder."""
    folder = os.environ.get("LB_IMAGES")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(png)


# --- leaderboard -----------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 3, TOP_N, 14])
def test_leaderboard_has_a_fixed_size_and_fits_the_budget(count: int) -> None:
    """Whatever the number of rows, the board is the same size, opaque and under 250 KB."""
    png = leaderboard_png("Mille Bornes · Road Club", _rows(count), _rows(14)[-1], "This month")
    _save(f"board_{count}.png", png)
    image = _open(png)
    assert image.size == LEADERBOARD_SIZE
    assert image.mode == "RGB"


def test_caller_row_appears_when_outside_the_top() -> None:
    """A caller ranked below the top ten gets a highlighted row under the divider."""
    rows = _rows(14)
    bottom = (0, lb._CALLER_Y, LEADERBOARD_SIZE[0], LEADERBOARD_SIZE[1])
    without = render_leaderboard("Board", rows)
    with_caller = render_leaderboard("Board", rows, rows[12])
    assert _count(without, lb._CALLER, bottom) == 0
    assert _count(with_caller, lb._CALLER, bottom) > 500


def test_caller_in_the_top_is_highlighted_in_place() -> None:
    """A caller among the shown rows is outlined where they stand, with no extra row."""
    rows = _rows(14)
    image = render_leaderboard("Board", rows, rows[4])
    top = lb._ROWS_Y + 4 * (lb._ROW_H + lb._ROW_GAP)
    band = (0, top, LEADERBOARD_SIZE[0], top + lb._ROW_H)
    bottom = (0, lb._CALLER_Y, LEADERBOARD_SIZE[0], LEADERBOARD_SIZE[1])
    assert _count(image, lb._CALLER, band) > 500
    assert _count(image, lb._CALLER, bottom) == 0


def test_only_the_top_rows_are_drawn() -> None:
    """Rows past TOP_N never reach the image's row area."""
    rows_area = (0, 0, LEADERBOARD_SIZE[0], lb._CALLER_Y - 30)
    ten = render_leaderboard("Board", _rows(TOP_N)).crop(rows_area)
    more = render_leaderboard("Board", _rows(14)).crop(rows_area)
    assert ten.tobytes() == more.tobytes()


def test_podium_rows_get_medals() -> None:
    """The first three rows carry the gold, silver and bronze medal colours."""
    image = render_leaderboard("Board", _rows(5))
    for place in (1, 2, 3):
        top = lb._ROWS_Y + (place - 1) * (lb._ROW_H + lb._ROW_GAP)
        box = (0, top, lb._NAME_X, top + lb._ROW_H)
        assert _count(image, lb.MEDALS[place - 1][0], box) > 100
    top = lb._ROWS_Y + 3 * (lb._ROW_H + lb._ROW_GAP)
    assert _count(image, Palette.GOLD, (0, top, lb._NAME_X, top + lb._ROW_H)) == 0


def test_solo_board_drops_the_win_rate_column(monkeypatch: pytest.MonkeyPatch) -> None:
    """A best-score board without win rates renders at the fixed size with no win-rate
    column: no heading, no percentages, no bars (a rated board has all three)."""
    drawn = words_drawn(monkeypatch)
    rows = [LeaderboardRow(i + 1, n, 9000 - 500 * i, 20) for i, n in enumerate(NAMES[:6])]
    png = leaderboard_png("Solo", rows, None, "All time", "Best score")
    _save("board_solo.png", png)
    assert _open(png).size == LEADERBOARD_SIZE
    assert "BEST SCORE" in drawn and "WIN RATE" not in drawn, drawn
    assert not [t for t in drawn if t.endswith("%") or t == "—"], drawn
    board = render_leaderboard("Solo", rows, None, "All time", "Best score")
    assert _count(board, BAR_BACK, (0, 0, *LEADERBOARD_SIZE)) == 0
    drawn.clear()
    rated = render_leaderboard("Board", _rows(6))
    assert "WIN RATE" in drawn and "70%" in drawn, drawn
    assert _count(rated, BAR_BACK, (0, 0, *LEADERBOARD_SIZE)) > 0


def test_leaderboard_is_deterministic() -> None:
    """The same rows give the same bytes."""
    rows = _rows(12)
    assert leaderboard_png("Board", rows, rows[11]) == leaderboard_png("Board", rows, rows[11])


# --- member stats ----------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 2, 7, 60, 500])
def test_stats_renders_charts_of_any_length(count: int) -> None:
    """No games, one point, a few and hundreds all render at the fixed size in budget."""
    png = stats_png(_stats(_history(count)))
    _save(f"stats_{count}.png", png)
    assert _open(png).size == STATS_SIZE


def test_single_point_chart_marks_the_point() -> None:
    """A one-game history still draws its (gold) latest-rating marker inside the plot."""
    image = render_stats(_stats(_history(1)))
    x0, y0, x1, y1 = st._CHART_BOX
    assert _count(image, Palette.GOLD, (x0 + 70, y0 + 52, x1 - 78, y1 - 48)) > 10


def test_chart_draws_the_line() -> None:
    """A long history draws the line colour across the plot, left half and right half."""
    image = render_stats(_stats(_history(60)))
    x0, y0, x1, y1 = st._CHART_BOX
    mid = (x0 + x1) // 2
    # The line is anti-aliased: count pixels close to its colour.
    assert _count(image, st._LINE, (x0 + 70, y0 + 52, mid, y1 - 48), tolerance=24) > 100
    assert _count(image, st._LINE, (mid, y0 + 52, x1 - 78, y1 - 48), tolerance=24) > 100


def test_history_order_does_not_matter() -> None:
    """Points are plotted by time, so a shuffled history draws the same chart."""
    history = _history(30)
    shuffled = dataclasses.replace(_stats(history), history=history[::2] + history[1::2])
    assert render_stats(_stats(history)).tobytes() == render_stats(shuffled).tobytes()


def test_games_at_one_moment_render() -> None:
    """Several points with the same timestamp are spread out rather than divided by zero."""
    history = tuple(RatingPoint(T0, 1000 + 10 * i) for i in range(4))
    assert render_stats(_stats(history)).size == STATS_SIZE


def test_y_axis_is_rounded_and_covers_the_values() -> None:
    """The axis range covers every value on round steps, with at most seven gridlines."""
    for values in ([1086], [990, 1010], [812, 1933], [1500] * 5):
        low, high, step = st._y_range(values)
        assert low <= min(values) and high >= max(values)
        assert low % step == 0 and high % step == 0
        assert 1 <= (high - low) // step <= 7


@pytest.mark.parametrize("on_board", [True, False])
def test_a_solitaires_card_renders_at_the_fixed_size(on_board: bool) -> None:
    """A solitaire's card (no chart, no opponents) keeps the card's size and budget, on the
    best-results board or not, and the same input gives the same pixels."""
    card = MemberStats(
        name=NAMES[3],
        scope_label="Mille Bornes Solo",
        rank=2 if on_board else None,
        ranked_players=5 if on_board else None,
        games=12,
        wins=3,
        losses=9,
        best=(BestLine("Best score", "1,200 miles", "game #7"),),
        solitaire=True,
        winnable=True,
        board_label="Cleared /49",
        board_value=43 if on_board else None,
    )
    png = stats_png(card)
    _save(f"stats_solitaire_{on_board}.png", png)
    assert _open(png).size == STATS_SIZE and len(png) <= PNG_BUDGET
    assert png == stats_png(card)


def test_a_record_of_rated_games_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A member's card counts as won, lost or drawn only games between members, while "N
    games played" counts all of them. Found in review: after a game against the computer the
    card read "RECORD 0 0 0 · 1 game played", a record that seemed to forget the game; its
    screen-reader text said "rated record" all along."""
    drawn = words_drawn(monkeypatch)
    stats_png(_stats(()))
    assert "RATED RECORD" in drawn and "RECORD" not in drawn


def _rounded_drawn(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """(box, fill) of every rounded shape drawn from now on, filled in as they are drawn."""
    shapes: list[Any] = []
    original = Canvas.rounded

    def rounded(self: Canvas, box: Any, radius: int, *a: Any, **k: Any) -> None:
        shapes.append((tuple(box), k.get("fill")))
        original(self, box, radius, *a, **k)

    monkeypatch.setattr(Canvas, "rounded", rounded)
    return shapes


def _bars_drawn(monkeypatch: pytest.MonkeyPatch, opponents: tuple[OpponentLine, ...]) -> list[Any]:
    """(box, fill) of every rounded shape of a card whose frequent opponents are these."""
    shapes = _rounded_drawn(monkeypatch)
    stats_png(dataclasses.replace(_stats(_history(20)), opponents=opponents))
    return shapes


def test_a_record_of_draws_fills_half_its_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """Against an opponent only ever drawn with ("0–0–3") the head-to-head bar is half full
    in the middle colour, as the text's share counts a draw as half a win. Found in review:
    the bar was filled only after a win, so three draws showed an empty bar, as if lost."""
    shapes = _bars_drawn(monkeypatch, (OpponentLine("Ann", 0, 0, 3),))
    bars = [(box, fill) for box, fill in shapes if box[3] - box[1] == 10]
    (back,) = [box for box, fill in bars if fill == BAR_BACK]
    filled = [box for box, fill in bars if fill == lb.rate_colour(0.5)]
    assert filled == [(back[0], back[1], back[0] + (back[2] - back[0]) // 2, back[3])], bars


def test_the_head_to_head_bars_form_one_column(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bars of "9–6–0" and "11–0–0" start and end at the same x, so they can be compared
    at a glance. Found in review: each bar ended where its own record began, so a two-digit
    record pushed its bar left of the others."""
    opponents = (OpponentLine("Ann", 9, 6), OpponentLine("Bob", 11, 0), OpponentLine("Cy", 0, 1))
    shapes = _bars_drawn(monkeypatch, opponents)
    backs = [box for box, fill in shapes if fill == BAR_BACK and box[3] - box[1] == 10]
    assert len(backs) == 3, shapes
    assert len({(box[0], box[2]) for box in backs}) == 1, backs


@pytest.mark.parametrize("solitaire", [False, True])
def test_the_record_bar_splits_won_from_lost_with_a_gap(
    monkeypatch: pytest.MonkeyPatch, solitaire: bool
) -> None:
    """The won and lost segments of the record bar stand apart, a gap of the bar's dark
    between them: Palette.GREEN and Palette.RED, their colours before, were one olive to a
    red-green colour-blind player, and the lost part was drawn under the whole bar, so the
    split was colour alone."""
    shapes: list[Any] = []
    original = Canvas.rounded

    def rounded(self: Canvas, box: Any, radius: int, *a: Any, **k: Any) -> None:
        shapes.append((tuple(box), k.get("fill")))
        original(self, box, radius, *a, **k)

    monkeypatch.setattr(Canvas, "rounded", rounded)
    card = dataclasses.replace(_stats(_history(20)), solitaire=solitaire, winnable=solitaire)
    stats_png(card)
    bar = [(box, fill) for box, fill in shapes if box[3] - box[1] == 12]
    (won,) = [box for box, fill in bar if fill == st._WON]
    (lost,) = [box for box, fill in bar if fill == st._LOST]
    assert lost[0] - won[2] >= 3, bar


def test_the_record_bars_parts_stay_apart_to_a_colour_blind_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The record bar's won, drawn and lost segments, as drawn for a record with all three,
    stay 15 or more apart (CIEDE2000) to normal sight and under each colour blindness. Found
    in review: in Palette.GREEN and Palette.RED, won and lost were 7.5 apart to a
    deuteranope."""
    shapes: list[Any] = []
    original = Canvas.rounded

    def rounded(self: Canvas, box: Any, radius: int, *a: Any, **k: Any) -> None:
        shapes.append((tuple(box), k.get("fill")))
        original(self, box, radius, *a, **k)

    monkeypatch.setattr(Canvas, "rounded", rounded)
    stats_png(dataclasses.replace(_stats(_history(20)), wins=5, draws=2, losses=3))
    parts = [fill for box, fill in shapes if box[3] - box[1] == 12 and fill != lb.BAR_BACK]
    assert len(set(parts)) == 3, parts
    normal = min(ciede2000(a, b) for a, b in combinations(parts, 2))
    assert min(normal, closest_seen(parts)) >= 15


def test_lost_reads_to_a_colour_blind_player(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "LOST" and a record behind an opponent ("3–5–0") stand out from the panel by 4.5:1 to
    normal sight and under each colour blindness: in Palette.RED they were 2.3:1 to a
    protanope, who sees red darker."""
    inks = inks_drawn(monkeypatch)
    stats_png(_stats(_history(20)))  # its opponents include "3–5–0", a record behind
    assert worst_contrast(inks["LOST"], Palette.MAT) >= 4.5
    assert worst_contrast(inks["3–5–0"], Palette.MAT) >= 4.5


@pytest.mark.parametrize("solitaire", [False, True])
def test_a_records_big_figures_stand_apart(
    monkeypatch: pytest.MonkeyPatch, solitaire: bool
) -> None:
    """The record's big numbers, five and six digits long, stay apart in their columns: at
    30 px "123,456" played ran into "99,999" won, and "99,999" won and "20,000" lost touched,
    read as one number "99,99920,000"."""
    member = dataclasses.replace(
        _stats(_history(3)),
        games=123_456,
        wins=99_999,
        losses=20_000,
        draws=3_457,
        solitaire=solitaire,
        winnable=solitaire,
    )
    figures = {"123,456", "99,999", "20,000"} if solitaire else {"99,999", "20,000", "3457"}
    marks = marks_drawn(monkeypatch)
    render_stats(member)
    boxes = sorted(m.box for m in marks if m.what in figures)
    assert len(boxes) == 3
    assert all(left[2] + 8 <= right[0] for left, right in pairwise(boxes))


def _leaderboard_shapes(monkeypatch: pytest.MonkeyPatch, rates: list[float]) -> list[Any]:
    """(box, fill) of every rounded shape of a board whose rows have these win rates."""
    shapes = _rounded_drawn(monkeypatch)
    rows = _rows(len(rates))
    rows = [dataclasses.replace(row, win_rate=rate) for row, rate in zip(rows, rates, strict=True)]
    render_leaderboard("Board", rows)
    return shapes


def test_the_win_rate_bars_stay_apart_to_a_colour_blind_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A low, a middling and a high win rate's bars, as drawn, stay 15 or more apart
    (CIEDE2000) to normal sight and under each colour blindness, and stand out from the bar's
    dark: in Palette.RED, AMBER and GREEN red and green were 7.5 apart to a deuteranope and
    amber and green 9.6 to a protanope. They are the /stats record bar's colours now."""
    shapes = _leaderboard_shapes(monkeypatch, [0.9, 0.4, 0.2])
    bars = [fill for box, fill in shapes if box[3] - box[1] == 12 and fill != lb.BAR_BACK]
    assert len(set(bars)) == 3, bars
    normal = min(ciede2000(a, b) for a, b in combinations(bars, 2))
    assert min(normal, closest_seen(bars)) >= 15, bars
    assert min(worst_contrast(bar, lb.BAR_BACK) for bar in bars) >= 2.5


def test_the_medals_stay_apart_to_a_colour_blind_player(monkeypatch: pytest.MonkeyPatch) -> None:
    """The podium rows' medal colours (each row's stripe, as drawn) stay 15 or more apart
    (CIEDE2000) to normal sight and under each colour blindness: gold and the light bronze
    were 13.8 apart to a deuteranope and 13.2 to a tritanope. The words on a medal (its
    place, /stats' "#3 of 14") and a podium row's figure read at 4.5:1 or more to all of
    them: the bronze figure was 3.2:1 to a protanope."""
    shapes = _leaderboard_shapes(monkeypatch, [0.5] * 5)
    faces = [fill for box, fill in shapes if fill in {face for face, _, _ in lb.MEDALS}]
    assert len(faces) == 3, shapes
    normal = min(ciede2000(a, b) for a, b in combinations(faces, 2))
    assert min(normal, closest_seen(faces)) >= 15, faces
    for place, face in enumerate(faces, 1):
        assert worst_contrast(lb.MEDAL_INKS[place - 1], face) >= 4.5
        chip = st._rank_chip(place, 14)
        assert worst_contrast(chip[2], chip[1]) >= 4.5, chip
    inks = inks_drawn(monkeypatch)
    render_leaderboard("Board", _rows(3))
    for place, row in enumerate(_rows(3), 1):
        tint = lb._mix(lb._ROW_ALT if place % 2 == 0 else lb._ROW, faces[place - 1], 0.1)
        assert worst_contrast(inks[str(row.value)], tint) >= 4.5, (place, inks[str(row.value)])


# --- readable words --------------------------------------------------------------------------


def test_the_boards_titles_and_notes_are_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The leaderboard's column titles (15 px), "YOU" and "YOUR PLACE" (14 px) and the count
    under the board (16 px) are at least 20 px, 10 on a phone."""
    drawn = sizes_drawn(monkeypatch)
    rows = _rows(14)
    render_leaderboard("Board", rows, rows[12])  # the caller under "YOUR PLACE"
    render_leaderboard("Board", rows[:TOP_N], rows[4])  # the caller in place, the count below
    words = ("#", "PLAYER", "RATING", "GAMES", "WIN RATE", "YOU", "YOUR PLACE")
    sizes = {text: size for text, size in drawn if text in words or "on this board" in text}
    assert set(words) < set(sizes), sizes
    assert min(sizes.values()) >= READABLE, sizes


@pytest.mark.parametrize(
    ("solitaire", "given_up_ranks"), [(False, True), (True, True), (True, False)]
)
def test_the_stats_cards_titles_and_notes_are_readable(
    monkeypatch: pytest.MonkeyPatch, solitaire: bool, given_up_ranks: bool
) -> None:
    """A /stats card's panel titles and their notes ("RATED RECORD", "W–L–D", "500 GAMES ·
    PEAK …") and the header's "RATING" were 15 px, and a solitaire's note under its board
    (which games do not rank, games given up among them where they do not) 16 px: they are at
    least 20 px."""
    drawn = sizes_drawn(monkeypatch)
    card = _stats(_history(30))
    if solitaire:
        card = dataclasses.replace(
            card,
            solitaire=True,
            winnable=True,
            board_label="Cleared /49",
            board_value=43,
            given_up_ranks=given_up_ranks,
        )
        titles = {"RECORD", "BEST RESULTS BOARD", "PERSONAL BESTS", "CLEARED"}
    else:
        titles = {"RATING", "RATING OVER TIME", "RATED RECORD", "FREQUENT OPPONENTS", "W–L–D"}
        titles |= {"PERSONAL BESTS"}
    render_stats(card)
    sizes = {text: size for text, size in drawn if text in titles or " · PEAK " in text}
    note = st.off_board_note(card)
    notes = [(text, size) for text, size in drawn if text in note]
    assert titles <= set(sizes) and len(sizes) == len(titles) + (not solitaire), (titles, drawn)
    assert min(sizes.values()) >= READABLE, sizes
    # The note's lines, however many it wraps to, say all of it (3 since the side column
    # widened for its 20 px words).
    assert " ".join(text for text, _ in notes) == (note if solitaire else "")
    assert min((size for _, size in notes), default=READABLE) >= READABLE


@pytest.mark.parametrize("rank", [9999, 12345, 99999, 123456, 1234567])
def test_a_places_figure_is_readable(monkeypatch: pytest.MonkeyPatch, rank: int) -> None:
    """A place of any length is written at 20 px or more, inside the row and left of the name:
    a five-digit place shrank to 17 px in bold, a six-digit one to 19 px condensed."""
    drawn = marks_drawn(monkeypatch)
    sizes = sizes_drawn(monkeypatch)
    rows = _rows(TOP_N)
    caller = dataclasses.replace(rows[-1], rank=rank, name="Zed")
    render_leaderboard("Board", rows, caller)
    assert next(size for text, size in sizes if text == str(rank)) >= READABLE
    figure = next(m.box for m in drawn if m.what == str(rank))
    name = next(m.box for m in drawn if m.what == "Zed")
    assert figure[0] > lb.MARGIN + 3 and figure[2] < name[0]


@pytest.mark.parametrize("solitaire", [False, True])
@pytest.mark.parametrize("count", [0, 3, 500])
def test_every_word_on_a_stats_card_is_readable(
    monkeypatch: pytest.MonkeyPatch, solitaire: bool, count: int
) -> None:
    """Every text on a /stats card, with no games, a few and hundreds, is at least 20 px, 10 on
    a phone: WON / LOST / DRAWN were 13 px, the chart's axis and dates and a best's detail 14,
    the game's name, "N games played", the win rate and the favourite 16, "No rated games yet"
    and "Nothing yet" 17, the rank chip and a best's label 18, the opponents' lines 19."""
    drawn = sizes_drawn(monkeypatch)
    card = _stats(_history(count))
    if not count:
        card = dataclasses.replace(card, opponents=(), best=(), favourite_game=None)
    if solitaire:
        card = dataclasses.replace(
            card, solitaire=True, winnable=True, board_label="Cleared /49", board_value=43
        )
    render_stats(card)
    words = {text for text, _ in drawn}
    assert {"WON", "LOST"} <= words and ("PLAYED" if solitaire else "DRAWN") in words
    assert min(size for _, size in drawn) >= READABLE, sorted(set(drawn), key=lambda d: d[1])


@pytest.mark.parametrize("latest", [1234, -2501, -12345, 123456, -1234567])
def test_the_latest_ratings_tag_holds_any_rating(
    monkeypatch: pytest.MonkeyPatch, latest: int
) -> None:
    """The latest rating's tag on the chart says the rating whole at 20 px or more, its words
    well inside the chart's panel, and so do the axis values beside it: the tag had room for
    about six letters, "-12,345" running 16 px past the panel (the axis's "-13,000" ended 1 px
    short of its edge), and past 100,000 a hundred axis values were written over each other."""
    drawn = marks_drawn(monkeypatch)
    sizes = sizes_drawn(monkeypatch)
    history = _history(30)
    history = (*history[:-1], dataclasses.replace(history[-1], rating=latest))
    render_stats(dataclasses.replace(_stats(history), rating=latest))
    left, top, right, bottom = st._CHART_BOX
    tag = lb.number_text(latest)
    # The tag's words (the header says the rating too, above the panel), then the axis
    # values left of the plot.
    (words,) = [m for m in drawn if m.what == tag and m.box[1] > top]
    assert words.box[0] > (left + right) / 2
    assert min(size for text, size in sizes if text == tag) >= READABLE
    # 7 px of the gold tag round the words, and 8 px between the tag and the edge.
    assert words.box[2] <= right - 15 and words.box[3] < bottom
    axis = [m for m in drawn if m.what.lstrip("-").replace(",", "").isdigit() and m != words]
    axis = [m for m in axis if left <= m.box[2] < (left + right) / 2]
    assert 4 <= len(axis) <= 8 and min(m.box[0] for m in axis) >= left + 8, axis
    tops = sorted(m.box[1] for m in axis)  # one under another, none written over the next
    assert all(b - a >= READABLE for a, b in pairwise(tops)), axis

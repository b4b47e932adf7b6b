"""The Ticket to Ride renderers: sizes, PNG budget, purity, every phase, import boundaries."""

from __future__ import annotations

import ast
import dataclasses
import io
import itertools
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import bot.render.ttr as ttr
from bot.ai.ttr_normal import NormalTtrPolicy
from bot.engine.ttr.cards import COLOURS, TICKETS, Ticket
from bot.engine.ttr.ending import finish
from bot.engine.ttr.state import TtrState
from bot.engine.ttr.views import TtrPublicView, TtrSeatView
from bot.render.common import Canvas, Palette, _text_mask, font, text_width
from bot.render.ttr import (
    HAND_WIDTH,
    RESULT_WIDTH,
    TABLE_WIDTH,
    hand_png,
    render_table,
    result_png,
    table_png,
)
from tests.engine.ttr_helpers import SOLO, G, lay
from tests.render.colour_vision import ciede2000, closest_seen, contrast, worst_contrast
from tests.render.drawn import inks_drawn, marks_drawn, sizes_drawn, too_small, words_drawn
from tests.render.test_hostile_names import LONG

RENDER = Path(__file__).resolve().parents[2] / "bot" / "render" / "ttr.py"
BUDGET = 300 * 1024


def _playout(seats: int, seed: int, names: list[str] | None = None) -> Iterator[TtrState]:
    """Every state of a game where ``normal`` plays every seat."""
    game = SOLO if seats == 1 else G
    policy = NormalTtrPolicy()
    rng = random.Random(seed)
    state = game.new_game(names or [f"Player {i}" for i in range(seats)], seed)
    while game.outcome(state) is None:
        yield state
        seat = min(game.to_act(state))
        state = game.apply(
            state, seat, game.parse_action(policy.choose(game.private_view(state, seat), rng))
        )
    yield state


def _first(seats: int, wanted: Callable[[TtrState], bool], seeds: range = range(6)) -> TtrState:
    for seed in seeds:
        for state in _playout(seats, seed):
            if wanted(state):
                return state
    raise AssertionError("no playout reached the wanted table")


def _png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG") and len(data) <= BUDGET
    return Image.open(io.BytesIO(data))


PHASES: dict[str, Callable[[TtrState], bool]] = {
    "setup": lambda s: s.phase == "setup",
    "second pick": lambda s: s.phase == "pick2",
    "choosing tickets": lambda s: s.phase == "keep",
    "railyards": lambda s: sum(sum(y) for y in s.yard_nat) >= 4,
    "final turns": lambda s: s.final_round,
    "second deck": lambda s: s.deck_number == 2 and s.phase == "act",
    "over": lambda s: s.phase == "over",
}


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("phase", sorted(PHASES))
def test_table_draws_every_phase_within_budget(seats: int, phase: str) -> None:
    """The table renders at every phase, for every seat count, under 300 KB."""
    state = _first(seats, PHASES[phase])
    view = G.public_view(state)
    image = _png(table_png(view))
    assert image.width == TABLE_WIDTH and image.height > 500


@pytest.mark.parametrize("when", ["setup", "mid", "over"])
def test_solo_table_shows_the_station_clock(when: str) -> None:
    """The solo table renders at setup, mid-game and at the end."""
    wanted = {
        "setup": lambda s: s.phase == "setup",
        "mid": lambda s: s.clock_turn == 8,
        "over": lambda s: s.phase == "over",
    }[when]
    view = SOLO.public_view(_first(1, wanted))
    assert _png(table_png(view)).width == TABLE_WIDTH


def test_rendering_is_pure() -> None:
    """The same view always gives the same bytes."""
    view = G.public_view(_first(4, PHASES["railyards"]))
    assert table_png(view) == table_png(view)


def test_table_grows_with_the_seat_count() -> None:
    """Two players share one row of panels; four need two."""
    two = render_table(G.public_view(G.new_game(["A", "B"], 1)))
    four = render_table(G.public_view(G.new_game(["A", "B", "C", "D"], 1)))
    assert two.height < four.height


@pytest.mark.parametrize("phase", ["setup", "choosing tickets", "second deck"])
def test_hand_draws_cards_and_tickets(phase: str) -> None:
    """The hand image renders the cards and tickets (and tickets to choose from)."""
    state = _first(2, PHASES[phase])
    seat = min(G.to_act(state))
    view = G.private_view(state, seat)
    assert isinstance(view, TtrSeatView)
    image = _png(hand_png(view))
    assert image.width == HAND_WIDTH


@pytest.mark.parametrize(("held", "offered"), [(12, 0), (42, 0), (46, 0), (40, 6)])
def test_hand_with_many_tickets_fits_the_budget(
    monkeypatch: pytest.MonkeyPatch, held: int, offered: int
) -> None:
    """A seat holding many tickets, up to all 46 (held or offered), renders under 300 KB with
    every text at the readable size, and decodes to exactly the drawn pixels. Found in review:
    42 tickets came to 383 KB."""
    state = G.new_game(["A", "B"], 1)
    state.tickets[0] = list(range(held))
    state.offered[0] = list(range(held, held + offered))
    state.phase = "keep" if offered else "act"
    ttr.ticket_tile.cache_clear()  # the tiles' words are drawn once, on a cached tile
    drawn = sizes_drawn(monkeypatch)
    data = hand_png(G.private_view(state, 0))
    assert len(data) <= BUDGET, len(data) / 1024
    image = _png(data)
    assert image.height > 600
    assert image.tobytes() == ttr.render_hand(G.private_view(state, 0)).tobytes()  # lossless
    assert not too_small(drawn)


def test_solo_setup_hand_marks_the_ticket_that_must_be_kept() -> None:
    """The solo setup view names the highest-value ticket; the hand renders it."""
    view = SOLO.private_view(SOLO.new_game(["A"], 3), 0)
    assert view.keep_one_of and view.keep_minimum == 1
    _png(hand_png(view))


def test_the_ticket_that_must_be_kept_is_tagged_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solo setup's ticket that must be kept carries "MUST KEEP": only its gold edge told
    it from the others' brown, one hue to a red-green colour-blind player."""
    view = SOLO.private_view(SOLO.new_game(["A"], 3), 0)
    ttr.ticket_tile.cache_clear()  # a cached tile is pasted without drawing its words again
    drawn = words_drawn(monkeypatch)
    hand_png(view)
    assert drawn.count("MUST KEEP") == len(view.keep_one_of) == 1


def test_the_heading_names_the_ticket_that_must_be_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tickets' heading names the one to keep by its code ("T39 must be kept"), as the
    message does, where it said "the gold one"."""
    view = SOLO.private_view(SOLO.new_game(["A"], 3), 0)
    drawn = words_drawn(monkeypatch)
    hand_png(view)
    heading = next(words for words in drawn if words.startswith("TO CHOOSE FROM"))
    assert heading.endswith(f"{view.keep_one_of[0].code} must be kept"), heading


@pytest.mark.parametrize("seats", [1, 2, 4])
def test_result_image_after_the_end(seats: int) -> None:
    """The final scoring renders for standard and solo games."""
    state = _first(seats, PHASES["over"])
    view = (SOLO if seats == 1 else G).public_view(state)
    assert isinstance(view, TtrPublicView) and view.result is not None
    _png(result_png(view))


def test_the_stacks_are_labelled_by_the_rules_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table and the final scoring label the stack "ON-THE-TRACK", the rules' On-the-Track
    stack (the captions and the console say it too); the table said "ON THE TRACK" and the
    scoring "TRACK"."""

    drawn = words_drawn(monkeypatch)
    view = G.public_view(_first(2, PHASES["over"]))
    table_png(view)
    on_table = drawn.count("ON-THE-TRACK")
    result_png(view)
    assert on_table == 2 and drawn.count("ON-THE-TRACK") == 4, drawn
    assert not {"ON THE TRACK", "TRACK"} & set(drawn), drawn


def test_result_image_needs_a_finished_game() -> None:
    """Before the end there is no scoring to draw."""
    with pytest.raises(ValueError, match="finished game"):
        result_png(G.public_view(G.new_game(["A", "B"], 1)))


def test_long_names_do_not_break_the_images(monkeypatch: pytest.MonkeyPatch) -> None:
    """Very long player names are cut short, not drawn off the image."""
    names = ["W" * 60, "Bob", "An extremely long display name indeed", "D"]
    # Each text drawn, with the box its pixels cover and the size of the image it is drawn on.
    drawn: list[tuple[str, tuple[int, int, int, int], tuple[int, int]]] = []
    draw = Canvas.text

    def text(
        self: Canvas,
        xy: tuple[float, float],
        words: str,
        fnt: Any,
        fill: Any,
        anchor: str = "la",
        drop: int = 0,
    ) -> None:
        mask, left, top = _text_mask(words, fnt, anchor)
        x, y = round(xy[0]) + left, round(xy[1]) + top
        box = (x, y, x + mask.width + drop, y + mask.height + drop)
        drawn.append((words, box, self.image.size))
        draw(self, xy, words, fnt, fill, anchor, drop)

    monkeypatch.setattr(Canvas, "text", text)
    states = list(_playout(4, 2, names))
    for render, state in ((table_png, states[len(states) // 2]), (result_png, states[-1])):
        drawn.clear()
        size = _png(render(G.public_view(state))).size
        shown = [(words, box) for words, box, on in drawn if on == size]
        cut = [words for words, _ in shown if words.startswith("WWW")]
        assert cut and all(w.endswith("…") and len(w) < 60 for w in cut), cut
        off = [
            (words, box)
            for words, box in shown
            if box[0] < 0 or box[1] < 0 or box[2] > size[0] or box[3] > size[1]
        ]
        assert not off, f"drawn off the {size} image: {off}"


def test_a_seat_holding_one_card_has_a_one_card_chip(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat chips count with plural(): a hand of one card read "1 cards"."""
    drawn = words_drawn(monkeypatch)
    state = lay(hands=[["red"], ["red", "blue"]])
    state.tickets[1] = [0]
    table_png(G.public_view(state))
    assert {"1 card", "2 cards", "1 ticket"} <= set(drawn), drawn
    assert "1 cards" not in drawn


def test_the_renderer_imports_views_and_the_kit_only() -> None:
    """bot/render/ttr.py imports no engine state or rules module."""
    tree = ast.parse(RENDER.read_text(encoding="utf-8"))
    modules = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    engine = {m for m in modules if m.startswith("bot.engine")}
    # bot.engine.words is pure wording (plural()) with no game state, so it cannot carry a
    # hidden card into an image; images count things as the captions do ("1 card", "2 tickets").
    assert engine <= {"bot.engine.ttr.views", "bot.engine.ttr.cards", "bot.engine.words"}


def _glyphs(img: Image.Image, box: tuple[int, int, int, int]) -> bytes:
    """The text drawn in ``box`` as a black-and-white mask: whatever stands out from the
    chip behind it, whatever that chip's colour (as a colour-blind player tells them)."""
    region = img.convert("RGB").crop(box)
    face = region.getpixel((3, region.height // 2))
    assert isinstance(face, tuple)
    mask = Image.new("1", region.size)
    for x in range(region.width):
        for y in range(region.height):
            pixel = region.getpixel((x, y))
            assert isinstance(pixel, tuple)
            far = sum(abs(a - b) for a, b in zip(pixel, face, strict=True)) > 150
            mask.putpixel((x, y), int(far))
    return mask.tobytes()


def test_requirement_chips_name_their_colour_not_only_paint_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ticket chips of different colours differ in their text too: red, orange and green
    chips that all read "3" look the same to a red-green colour-blind player."""
    fake = tuple(
        Ticket(i, f"T{i:02}", "Here – There", tuple(3 * (k == i) for k in range(8)), 5, ())
        for i in range(len(COLOURS))
    )
    monkeypatch.setattr(ttr, "TICKETS", fake)
    ttr.ticket_tile.cache_clear()
    try:
        tiles = [ttr.ticket_tile(i) for i in range(len(COLOURS))]
    finally:
        ttr.ticket_tile.cache_clear()  # the real tickets' tiles, not these, from now on
    h = tiles[0].height
    masks = {_glyphs(tile, (14 + 2, h - 42 + 3, 14 + 44, h - 42 + 23)) for tile in tiles}
    assert len(masks) == len(COLOURS)


def test_result_chips_never_run_into_the_points() -> None:
    """A five-colour ticket served by six kinds of cards: its chips stop short of its points
    (they ran under "+22" when they always started at the same place), on a line of their own
    under the route when they do not fit beside it."""
    ticket = max((t for t in TICKETS if sum(1 for n in t.need if n) == 5), key=lambda t: t.points)
    cards = (*((i, n) for i, n in enumerate(ticket.need) if n), (8, 2))
    img = Image.new("RGB", (576, ttr._ROW_TWO), (12, 40, 32))
    right = 576 - 16
    ttr._ticket_line(Canvas(img), 16, 0, right, ticket.index, True, 22, cards)
    faces = set(ttr._FACE.values()) | {(90, 90, 96)}
    chip_columns = [
        x for x in range(img.width) for y in range(img.height) if img.getpixel((x, y)) in faces
    ]
    points = text_width("+22", font(20, "bold"))
    assert chip_columns and max(chip_columns) < right - points - 4


def test_railyard_sets_name_their_colour_under_the_card() -> None:
    """A red set and a green set of three read differently under their cards, in grey too
    (as a red-green colour-blind player sees them): both read "3" before."""
    seen = []
    for colour in ("red", "green"):
        img = render_table(G.public_view(lay(yards=[{colour: (3, 0)}])))
        # Seat 0's Railyard: the count under the first set, light ink on the felt and chips.
        grey = img.convert("L").crop((30, 500, 140, 532))
        seen.append(grey.point(lambda v: 255 if v > 180 else 0).tobytes())
    assert seen[0] != seen[1]


@pytest.mark.parametrize("colour", COLOURS)
def test_a_colour_letter_reads_on_its_chip(colour: str) -> None:
    """Each colour's letter and name stand out from its face by WCAG's 4.5:1, as a colour-blind
    player tells red from green by them: white on the green face was 3.2:1."""
    assert contrast(ttr._FACE[colour], ttr._ink(colour)) >= 4.5


def test_a_lost_tickets_points_read_to_a_colour_blind_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The points a failed ticket costs ("-13") stand out from the mat by 4.5:1 to normal
    sight and under each colour blindness: in the red of the ✗ they were 2.8:1 to a
    protanope, who sees red darker."""
    inks = inks_drawn(monkeypatch)
    ticket = TICKETS[20]
    img = Image.new("RGB", (560, 44), Palette.MAT)
    ttr._ticket_line(Canvas(img), 16, 0, 544, ticket.index, False, -ticket.points, ())
    assert worst_contrast(inks[f"{-ticket.points:+d}"], Palette.MAT) >= 4.5


def test_a_crowded_railyard_keeps_its_chips_apart() -> None:
    """Seven sets with Locomotives: seven separate chips under the cards, none touching (on
    two staggered rows: "2Bu+2L" is wider than a seventh of the Railyard)."""
    yard = {c: (2, 2) for c in COLOURS[:7]}
    img = render_table(G.public_view(lay(yards=[yard])))
    mat = img.getpixel((22, 514))
    chips = 0
    for y in (499, 529):  # the two rows' middles
        row = [img.getpixel((x, y)) != mat for x in range(24, 460)]  # left of the divider
        chips += sum(1 for i, chip in enumerate(row) if chip and (i == 0 or not row[i - 1]))
    assert chips == 7


@pytest.mark.parametrize("seats", [1, 4])
def test_the_top_bar_says_a_long_name_is_to_play(
    seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 32-letter name (the most Discord allows) to play keeps "to play" in the top bar: the
    whole line was cut at 360 px, so the pill showed the name alone, as if it were a title."""
    long = "Maximilian Wolfgang von Habsburg"
    drawn = words_drawn(monkeypatch)
    names = [long, "Bob", "Cy", "Di"][:seats]
    state = next(s for s in _playout(seats, 3, names) if s.phase == "act" and s.turn == 0)
    table_png((SOLO if seats == 1 else G).public_view(state))
    assert f"{long} to play" in drawn, [w for w in drawn if long[:10] in w]


def test_the_scoring_names_a_long_name_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The final scoring names each player whole when their total leaves the room: a fixed
    200 px kept for a two- or three-digit total cut 32-letter names ("Maximilian Wolfgang
    von…") in a column with room for them."""
    names = ["Maximilian Wolfgang von Habsburg", "Mohammed Abdulrahman Al-Mansouri"]
    drawn = words_drawn(monkeypatch)
    *_, final = _playout(2, 1, names)
    view = G.public_view(final)
    assert view.result is not None and all(abs(s.total) < 1000 for s in view.result.seats)
    result_png(view)
    assert set(names) <= set(drawn), [w for w in drawn if w[:4] in ("Maxi", "Moha")]


def test_eight_colour_sets_stay_clear_of_the_on_the_track_stack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both seats with a set of every colour (three cards and a Locomotive each): every
    Railyard card stays left of the line before the On-the-Track stack. The sets were spaced
    as if the last one had no cards peeking out behind it, so from six sets on it ran into the
    stack, and eight reached 60 px past the line, over the stack's cards."""
    state = lay(yards=[{c: (3, 1) for c in COLOURS}] * 2)
    state.track = [[1] * 9, [1] * 9]
    marks = marks_drawn(monkeypatch)
    image = render_table(G.public_view(state))
    stacks = [m.box for m in marks if m.on == image.size and m.box[2] - m.box[0] == 68]
    yard = [m.box for m in marks if m.on == image.size and m.box[3] - m.box[1] in (59, 76)]
    assert len(stacks) == 2 and len(yard) == 2 * 8 * 4
    for stack in stacks:
        line = stack[0] - 14 - 14  # the line between them, ``_draw_panel``
        beside = [box for box in yard if stack[0] - TABLE_WIDTH // 2 < box[0] < stack[0]]
        assert beside and max(box[2] for box in beside) < line


def test_a_big_on_the_track_stack_stays_in_its_scoring_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At the final scoring, an On-the-Track stack of all 96 cards (rare, but the stacks may be
    kept through the second deck) is shown on chips inside its player's block: at 26 px its
    nine two-digit chips ran 23 px past the block's edge, into the gap before the next one."""
    state = lay()
    state.tickets = [[0], [1]]
    state.track = [[10] * 8 + [16], [0] * 9]
    finish(state, "The second deck ran out.")
    marks = marks_drawn(monkeypatch)
    image = ttr.render_result(G.public_view(state))
    texts = [m for m in marks if m.on == image.size and m.is_text]
    at = next(i for i, m in enumerate(texts) if m.what == "ON-THE-TRACK")  # the first block's
    chips = [m.box for m in texts[at + 1 : at + 1 + 2 * 9]]  # a count and a letter per kind
    assert "".join(m.what for m in texts[at + 1 : at + 5]) == "10R10O"
    block_right = (RESULT_WIDTH - 3 * 16) // 2 + 16  # ``render_result``'s first column
    assert max(box[2] for box in chips) <= block_right - 16


def test_a_long_last_move_is_drawn_whole_at_a_readable_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four long names and a Railyard play that robs a set and feeds the next player's stack
    (242 letters): the "LAST MOVE" box takes a third line rather than shrink it to 15 px under
    its 22 (a player's leave, said in full, needs four lines)."""
    a, b, c, _ = LONG[:4]
    caption = (
        f"{a} plays 4 Orange + 2 Locomotives to the Railyard, robbing {c} of their Orange set "
        f"(5 cards). {b} moves 1 card from the Railyard to the On-the-Track stack."
    )
    state = G.new_game(LONG[:4], 1)
    view = dataclasses.replace(G.public_view(state), caption=caption)
    drawn = sizes_drawn(monkeypatch)
    image = render_table(view)
    start = next(i for i, (words, _) in enumerate(drawn) if words == "LAST MOVE")
    lines = drawn[start + 1 :]
    assert " ".join(words for words, _ in lines) == caption
    assert min(size for _, size in lines) >= 16
    assert image.height > render_table(G.public_view(state)).height


def test_the_seat_dots_stay_apart_to_a_colour_blind_player() -> None:
    """The four seats' dots, read off a four-player table, stay 15 or more apart (CIEDE2000)
    to normal sight and under each colour blindness, and stand out from the mat at 3:1. Found
    in review: the orange seat's dot was 5.8 from the green one's to a deuteranope, and 7.8
    from the pink one's to a tritanope."""
    img = render_table(G.public_view(G.new_game([f"Player {i}" for i in range(4)], 1)))
    top = ttr._AREA_Y + ttr._AREA_H + 10
    rgb = img.convert("RGB")
    dots: list[tuple[int, int, int]] = []
    for row in (0, 1):
        for col in (0, 1):
            x = ttr._M + col * (ttr._PANEL_W + ttr._M) + 25  # a dot's middle, 25 px in
            r, g, b = rgb.getpixel((x, top + row * (ttr._PANEL_H + 10) + 25))  # type: ignore[misc]
            dots.append((r, g, b))
    assert len(set(dots)) == 4
    normal = min(ciede2000(a, b) for a, b in itertools.combinations(dots, 2))
    assert min(normal, closest_seen(dots)) >= 15
    assert min(worst_contrast(dot, Palette.MAT) for dot in dots) >= 3

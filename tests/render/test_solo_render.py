"""Mille Bornes Solo images and presenter: fixed sizes, PNG budget, purity, buttons and texts."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from PIL import Image

from bot.ai.solo_policies import hint
from bot.games import bundle, get_game
from bot.games.bundle import ButtonSpec
from bot.render.common import font, text_width, wrap
from bot.render.solo import (
    HAND_IMAGE_SIZE,
    RESULT_SIZE,
    TABLE_SIZE,
    hand_png,
    render_hand,
    render_result,
    render_table,
    result_png,
    table_png,
    table_size,
)
from tests.engine.test_solo_playouts import _swap_hidden
from tests.render.drawn import crossed_texts, marks_drawn, png_size, sizes_drawn

G = get_game("solo")
SOLO = bundle("solo").presenter


def _play(seed: int, preset: str, moves: int | None = None, **options: str) -> Any:
    """A game after ``moves`` first-legal moves (None: to the end)."""
    s = G.new_game(["Ann"], seed=seed, options={"preset": preset, **options})
    while G.outcome(s) is None and (moves is None or moves > 0):
        s = G.apply(s, 0, G.legal_actions(s, 0)[0])
        moves = None if moves is None else moves - 1
    return s


def _won() -> Any:
    for seed in range(40):
        s = _play(seed, "easy")
        if s.result == "won":
            return s
    raise AssertionError("no easy deal was won")


@pytest.fixture(scope="module")
def fresh() -> Any:
    return G.new_game(["Ann"], seed=3)


@pytest.fixture(scope="module")
def mid_game() -> Any:
    return _play(3, "refuel", moves=20)


@pytest.fixture(scope="module")
def lost() -> Any:
    return _play(3, "classic")


@pytest.fixture(scope="module")
def won() -> Any:
    return _won()


def _fits(image: Image.Image, size: tuple[int, int]) -> bool:
    return image.mode in ("RGB", "RGBA") and image.size == size


@pytest.mark.parametrize("name", ["fresh", "mid_game", "lost", "won"])
def test_every_image_has_its_fixed_size(name: str, request: pytest.FixtureRequest) -> None:
    """Table, hand and result images keep their sizes from the deal to a win or a loss."""
    state = request.getfixturevalue(name)
    view = G.public_view(state)
    assert _fits(render_table(view), TABLE_SIZE)
    assert _fits(render_hand(G.private_view(state, 0)), HAND_IMAGE_SIZE)
    assert _fits(render_result(view), RESULT_SIZE)


def test_pngs_are_under_budget(mid_game: Any, won: Any) -> None:
    """Every image encodes to a PNG under 250 KB."""
    for state in (mid_game, won):
        view = G.public_view(state)
        for data in (table_png(view), hand_png(G.private_view(state, 0)), result_png(view)):
            assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) < 250_000


def _three_lines_of_steps() -> Any:
    """The first state of a seeded refuel game, played first move first, whose automatic
    steps after a move (runs of hand wipes either side of a refuel) need three lines at 20 px
    and the game goes on."""
    inner = TABLE_SIZE[0] - 2 * 16 - 36
    for seed in range(60):
        s = G.new_game(["Ann"], seed=seed, options={"preset": "refuel"})
        while G.outcome(s) is None:
            s = G.apply(s, 0, G.legal_actions(s, 0)[0])
            note = " ".join(s.events)
            if s.result is None and len(wrap(note, font(20, "bold"), inner)) >= 3:
                return s
    raise AssertionError("no refuel deal had three lines of automatic steps")


def test_a_long_run_of_automatic_steps_is_drawn_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The steps after the last move (hands wiped, a refuel, more wipes: three lines) are
    written in full at 20 px on as many lines as they need, the table growing for them: on one
    line they shrank to 13 px and were cut ("…The whole…")."""
    view = G.public_view(_three_lines_of_steps())
    note = " ".join(view.events)
    drawn = sizes_drawn(monkeypatch)
    image = render_table(view)
    banner = drawn[[text for text, _ in drawn].index("LAST MOVE") + 1 :]
    lines = [(text, size) for text, size in banner if text not in view.last_move]
    assert " ".join(text for text, _ in lines) == note
    assert min(size for _, size in lines) >= 20
    assert image.size == table_size(view) and image.size[1] > TABLE_SIZE[1]


def _two_lines_of_steps_after_a_short_move() -> Any:
    """The first state of a seeded game, played first move first, whose last move takes one
    line and whose automatic steps need two at 20 px."""
    inner = TABLE_SIZE[0] - 2 * 16 - 36
    for seed in range(60):
        s = G.new_game(["Ann"], seed=seed, options={"preset": "refuel"})
        while G.outcome(s) is None:
            s = G.apply(s, 0, G.legal_actions(s, 0)[0])
            note = " ".join(s.events)
            if (
                s.result is None
                and text_width(s.last_move, font(24, "bold")) <= inner
                and len(wrap(note, font(20, "bold"), inner)) == 2
            ):
                return s
    raise AssertionError("no refuel deal had two lines of steps after a one-line move")


def test_steps_take_the_line_a_short_last_move_leaves(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two lines of automatic steps after a last move of one line fill the box's free line at
    20 px: the table keeps its size and no text crosses another (they shrank to one line of
    14 px, the line above them empty)."""
    view = G.public_view(_two_lines_of_steps_after_a_short_move())
    marks = marks_drawn(monkeypatch)
    drawn = sizes_drawn(monkeypatch)
    png = table_png(view)
    banner = drawn[[text for text, _ in drawn].index("LAST MOVE") + 1 :]
    steps = [(text, size) for text, size in banner if text not in view.last_move]
    assert png_size(png) == TABLE_SIZE and not crossed_texts(marks, TABLE_SIZE)
    assert " ".join(text for text, _ in steps) == " ".join(view.events)
    assert len(steps) == 2 and min(size for _, size in steps) >= 20


def test_table_from_the_private_view_is_the_public_table(mid_game: Any) -> None:
    """The renderer accepts either view; a solitaire's table is the same from both."""
    assert table_png(G.private_view(mid_game, 0)) == table_png(G.public_view(mid_game))


def test_hidden_cards_never_change_the_table(mid_game: Any) -> None:
    """Swapping face-down and tank cards leaves the table image byte-identical."""
    twin = _swap_hidden(mid_game, random.Random(4))
    assert G.to_dict(twin) != G.to_dict(mid_game)
    assert table_png(G.public_view(twin)) == table_png(G.public_view(mid_game))


def test_win_and_loss_banners_differ(won: Any) -> None:
    """The result banner changes with the result."""
    view = G.public_view(won)
    as_loss = dataclasses.replace(view, result="lost")
    assert render_table(view).tobytes() != render_table(as_loss).tobytes()
    assert render_result(view).tobytes() != render_result(as_loss).tobytes()


def test_french_names_render_at_fixed_size() -> None:
    """A table with French card names keeps its size and differs from the English one."""
    fr = _play(5, "easy", moves=6, names="fr")
    en = _play(5, "easy", moves=6)
    assert _fits(render_table(G.public_view(fr)), TABLE_SIZE)
    assert table_png(G.public_view(fr)) != table_png(G.public_view(en))


def test_presenter_offers_every_move_best_first() -> None:
    """One table button per clearing move (at most 24), the expert's choice first."""
    # A deal with four moves, where the expert's favourite is neither the first move listed
    # nor the first in alphabetical order, so "first" means something.
    state = _play(1, "refuel", moves=0)
    view = G.public_view(state)
    buttons = SOLO.table_pickers(view)
    assert all(isinstance(b, ButtonSpec) for b in buttons)
    assert sorted(b.notation for b in buttons) == sorted(view.legal)[:24]  # type: ignore[union-attr]
    assert len(buttons) <= 24 and buttons[0].style == "success"  # type: ignore[union-attr]
    best = hint(view)[0]
    assert best not in (view.legal[0], sorted(view.legal)[0])
    assert buttons[0].notation == best  # type: ignore[union-attr]
    assert [b.emoji for b in buttons] == ["⭐"] + [None] * (len(buttons) - 1)  # type: ignore[union-attr]
    # The star is read "star": the favourite's words say what it means, the others' do not.
    said = [b.label.endswith(" (suggested)") for b in buttons]  # type: ignore[union-attr]
    assert said == [True] + [False] * (len(buttons) - 1), buttons
    assert SOLO.table_pickers(G.private_view(state, 0)) == buttons


def test_presenter_has_no_buttons_once_over(lost: Any) -> None:
    """A finished game offers no move."""
    assert SOLO.table_pickers(G.public_view(lost)) == []


def test_round_finished_only_when_the_game_ends(mid_game: Any, lost: Any) -> None:
    """The score image is posted when the game has just ended, not before or after."""
    running, over = G.public_view(mid_game), G.public_view(lost)
    assert SOLO.round_finished(running, over)
    assert not SOLO.round_finished(running, running)
    assert not SOLO.round_finished(over, over)


def test_rules_say_classic_cannot_be_won() -> None:
    """The rules text says plainly that classic is a score attack and the presets are winnable."""
    rules = SOLO.rules
    assert "can never be won" in rules and "score attack" in rules
    assert "Refuel" in rules and "Easy" in rules


def test_presenter_hint_is_a_legal_move(mid_game: Any) -> None:
    """The presenter's hint is a legal move with a reason."""
    assert SOLO.hint is not None
    found = SOLO.hint(G.private_view(mid_game, 0))
    assert found is not None and found[0] in G.public_view(mid_game).legal and found[1]


def test_a_long_name_in_the_top_bar_shrinks_before_it_is_cut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The player's 32-letter name right of the top bar's chips was cut at 22 px ("Maximilian
    Wolfgang von H…"); it shrinks to the readable size first, so more of it shows, its ink
    inside the image and clear of the chips."""
    name = "Maximilian Wolfgang von Habsburg"
    game = get_game("solo")
    view = game.public_view(game.new_game([name], 1))
    sizes = sizes_drawn(monkeypatch)
    marks = marks_drawn(monkeypatch)
    size = render_table(view).size
    (shown,) = [m for m in marks if m.is_text and name.startswith(m.what.removesuffix("…"))]
    assert dict(sizes)[shown.what] == 20, sizes
    assert shown.what.endswith("…") and len(shown.what) > len("Maximilian Wolfgang von H…")
    bar = [m for m in marks if m.is_text and m.on == size and m.box[3] < 56 and m is not shown]
    assert bar and all(m.box[2] < shown.box[0] for m in bar), (bar, shown)
    assert shown.box[2] <= size[0]

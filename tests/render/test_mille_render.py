"""The Mille Bornes renderers: fixed image sizes, PNG budget, purity and import boundaries.

Interesting tables come from seeded random playouts that prefer playing a card over
discarding, searched until the wanted situation shows up; the searches stay well under a
second in total.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.engine.mille.cards import Card, full_deck
from bot.games import get_game
from bot.render import common
from bot.render.common import PNG_BUDGET, READABLE, fit_wrapped, font, text_width, to_png
from bot.render.mille import (
    HAND_IMAGE_SIZE,
    RESULT_SIZE,
    TABLE_SIZE,
    hand_png,
    match_lines,
    render_hand,
    render_hand_result,
    render_table,
    result_png,
    table_png,
)
from bot.render.mille_cards import draw_card
from tests.render.drawn import Mark, crossed_texts, marks_drawn, sizes_drawn
from tests.render.test_hostile_names import LONG

GAME = get_game("mille")
RENDER_DIR = Path(__file__).resolve().parents[2] / "bot" / "render"


def _step(state: Any, rng: random.Random) -> Any:
    """Apply one random legal move, preferring plays so hazards and safeties show up."""
    seat = next(iter(GAME.to_act(state)))
    actions = GAME.legal_actions(state, seat)
    plays = [a for a in actions if a.verb == "play"]
    action = rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(actions)
    return GAME.apply(state, seat, action)


def _play_until(
    wanted: Callable[[Any], bool],
    options: Mapping[str, str] | None = None,
    seeds: range = range(300),
) -> Any:
    """The first state of a seeded random playout for which ``wanted`` holds."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new_game(["Ann", "Bob"], seed=seed, options=options)
        while True:
            if wanted(state):
                return state
            if GAME.outcome(state) is not None:
                break
            state = _step(state, rng)
    raise AssertionError("no playout reached the wanted table")


def _busy_table(state: Any) -> bool:
    """Hazards, a speed limit, safeties on both sides and a coup fourré, all at once."""
    sides = GAME.public_view(state).tableaus
    return (
        any(t.coups for t in sides)
        and any(t.battle_top is not None and t.battle_top.is_hazard for t in sides)
        and any(t.limited for t in sides)
        and all(t.safeties and t.mileage >= 150 for t in sides)
    )


@pytest.fixture(scope="module")
def fresh() -> Any:
    return GAME.new_game(["Ann", "Bob"], seed=3)


@pytest.fixture(scope="module")
def mid_game() -> Any:
    return _play_until(_busy_table)


@pytest.fixture(scope="module")
def after_hand() -> Any:
    return _play_until(lambda s: len(GAME.public_view(s).results) >= 1)


@pytest.fixture(scope="module")
def match_over() -> Any:
    return _play_until(lambda s: GAME.outcome(s) is not None, seeds=range(1))


def _is_rgb(image: Image.Image, size: tuple[int, int]) -> bool:
    return image.mode in ("RGB", "RGBA") and image.size == size


def test_fresh_table_has_fixed_size(fresh: Any) -> None:
    """A fresh game's table is an RGB image of TABLE_SIZE."""
    assert _is_rgb(render_table(GAME.public_view(fresh)), TABLE_SIZE)


def test_fresh_hand_has_fixed_size(fresh: Any) -> None:
    """A fresh game's hand image, for either seat, is an RGB image of HAND_IMAGE_SIZE."""
    for seat in (0, 1):
        assert _is_rgb(render_hand(GAME.private_view(fresh, seat)), HAND_IMAGE_SIZE)


def test_result_before_any_hand_has_fixed_size(fresh: Any) -> None:
    """With no finished hand yet, the score sheet is a placeholder of RESULT_SIZE."""
    assert _is_rgb(render_hand_result(GAME.public_view(fresh)), RESULT_SIZE)


def test_mid_game_table_has_fixed_size(mid_game: Any) -> None:
    """A table with hazards, a limit, safeties and a coup fourré keeps TABLE_SIZE."""
    assert _is_rgb(render_table(GAME.public_view(mid_game)), TABLE_SIZE)


def test_mid_game_hands_have_fixed_size(mid_game: Any) -> None:
    """The hand of the seat to act and of the waiting seat keep HAND_IMAGE_SIZE."""
    for seat in (0, 1):
        assert _is_rgb(render_hand(GAME.private_view(mid_game, seat)), HAND_IMAGE_SIZE)


def test_finished_hand_result_has_fixed_size(after_hand: Any) -> None:
    """The score sheet of a finished hand, mid-match, is an RGB image of RESULT_SIZE."""
    view = GAME.public_view(after_hand)
    assert view.results and view.winners is None
    assert _is_rgb(render_hand_result(view), RESULT_SIZE)


def test_result_of_an_explicit_earlier_hand_renders(after_hand: Any) -> None:
    """Passing a HandResult explicitly renders that hand's sheet at RESULT_SIZE."""
    view = GAME.public_view(after_hand)
    assert _is_rgb(render_hand_result(view, view.results[0]), RESULT_SIZE)


def test_finished_match_table_has_fixed_size(match_over: Any) -> None:
    """The final table, with the winner banner, keeps TABLE_SIZE."""
    view = GAME.public_view(match_over)
    assert view.winners is not None
    assert _is_rgb(render_table(view), TABLE_SIZE)


def test_finished_match_result_announces_the_winner(match_over: Any) -> None:
    """At match end the score sheet differs from the same sheet without a winner."""
    view = GAME.public_view(match_over)
    final = render_hand_result(view)
    unannounced = render_hand_result(dataclasses.replace(view, winners=None))
    assert _is_rgb(final, RESULT_SIZE)
    assert final.tobytes() != unannounced.tobytes()


def test_single_hand_game_renders() -> None:
    """A finished single-hand game renders its table and score sheet at the fixed sizes."""
    state = _play_until(lambda s: GAME.outcome(s) is not None, {"length": "hand"}, range(1))
    view = GAME.public_view(state)
    assert view.match_target is None
    assert _is_rgb(render_table(view), TABLE_SIZE)
    assert _is_rgb(render_hand_result(view), RESULT_SIZE)


def test_french_game_renders_at_fixed_sizes() -> None:
    """A busy table and hand with French card names keep their fixed sizes."""
    state = _play_until(_busy_table, {"names": "fr"})
    view = GAME.public_view(state)
    assert view.lang == "fr"
    assert _is_rgb(render_table(view), TABLE_SIZE)
    assert _is_rgb(render_hand(GAME.private_view(state, view.turn)), HAND_IMAGE_SIZE)


def test_card_faces_use_the_language_asked_for() -> None:
    """A card face in French differs from the same card in English."""
    english = draw_card(Card.RIGHT_OF_WAY, 100, 140, "en")
    french = draw_card(Card.RIGHT_OF_WAY, 100, 140, "fr")
    assert english.tobytes() != french.tobytes()


def test_table_png_is_under_budget(mid_game: Any) -> None:
    """A busy table encodes to a PNG under 250 KB."""
    data = table_png(GAME.public_view(mid_game))
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) < 250_000


def test_png_helpers_return_png_bytes(after_hand: Any) -> None:
    """hand_png and result_png return PNG data."""
    view = GAME.public_view(after_hand)
    for data in (hand_png(GAME.private_view(after_hand, 0)), result_png(view)):
        assert data.startswith(b"\x89PNG\r\n\x1a\n")


def test_to_png_round_trips_losslessly(mid_game: Any) -> None:
    """Decoding our PNG gives back exactly the rendered pixels."""
    image = render_table(GAME.public_view(mid_game))
    decoded = Image.open(io.BytesIO(to_png(image)))
    assert decoded.mode == image.mode and decoded.size == image.size
    assert decoded.tobytes() == image.tobytes()


@pytest.mark.parametrize("mode", ["L", "RGB", "RGBA"])
@pytest.mark.parametrize("size", [(1, 1), (37, 5), (700, 500)])
def test_to_png_round_trips_every_mode_and_size(mode: str, size: tuple[int, int]) -> None:
    """Each row's filter byte sits in front of its own pixels, in every mode and at widths
    of any length: noise (700×500 is over ``PNG_BUDGET`` at level 1, so it takes the level
    6 path too) decodes to exactly the pixels encoded."""
    bands = len(mode)
    noise = random.Random(size[0] * 7 + bands).randbytes(size[0] * size[1] * bands)
    image = Image.frombytes(mode, size, noise)
    data = to_png(image)
    decoded = Image.open(io.BytesIO(data))
    assert decoded.mode == mode and decoded.size == size
    assert decoded.tobytes() == image.tobytes()
    if size == (700, 500):
        assert len(noise) > PNG_BUDGET


def test_text_width_is_measured_per_text_and_face() -> None:
    """``text_width`` is cached by text and face: the same word at another size, or another
    word at this size, is measured for itself."""
    small, big = font(READABLE, "bold"), font(2 * READABLE, "bold")
    first = text_width("BATTLE", small)
    assert text_width("BATTLE", big) > first
    assert text_width("BATTLE BATTLE", small) > first
    assert text_width("BATTLE", font(READABLE, "regular")) != first
    assert text_width("BATTLE", small) == first


def test_same_public_view_gives_identical_png() -> None:
    """Two deals that differ only in hidden cards render byte-identical tables."""
    order = [card.value for card in full_deck("bsd")]
    random.Random(5).shuffle(order)
    # Same hands and the same first draws; the rest of the deck (never seen) differs.
    keep = 44
    deck_a = order
    deck_b = order[:keep] + order[keep:][::-1]
    assert deck_a != deck_b
    states = []
    for deck in (deck_a, deck_b):
        rng = random.Random(9)
        state = GAME.new_game(["Ann", "Bob"], seed=1, deck=deck)
        for _ in range(24):
            state = _step(state, rng)
        states.append(state)
    view_a, view_b = (GAME.public_view(s) for s in states)
    assert view_a == view_b
    assert GAME.to_dict(states[0]) != GAME.to_dict(states[1])
    assert table_png(view_a) == table_png(view_b)


def test_font_falls_back_to_pillow_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Without the bundled TTFs, font() still returns a usable font of the size asked."""
    monkeypatch.setattr(common, "FONT_DIR", tmp_path)
    common.font.cache_clear()
    try:
        fallback = common.font(24, "bold")
        assert fallback.getlength("Mille Bornes") > 0
    finally:
        common.font.cache_clear()  # later tests must get the real fonts back


def test_overlong_text_is_cut_with_an_ellipsis() -> None:
    """Text too long for its lines even at the minimum size ends in "…" and fits."""
    caption = "Bob plays Speed Limit on Ann! " * 8
    fnt, lines = fit_wrapped(caption, 300, 2, 20, "bold", min_size=14)
    assert len(lines) == 2
    assert lines[-1].endswith("…")
    assert all(text_width(line, fnt) <= 300 for line in lines)


def _render_modules() -> list[Path]:
    """The modules of bot/render (never none: a moved folder must not pass unread)."""
    paths = sorted(RENDER_DIR.glob("*.py"))
    assert paths, f"no modules under {RENDER_DIR}"
    return paths


def _imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, plus ``module.name`` for each ``from`` import."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_renderers_never_import_engine_state_or_rules() -> None:
    """No bot/render module imports MilleState or the rules module."""
    banned = {"bot.engine.mille.state.MilleState", "bot.engine.mille.rules"}
    for path in _render_modules():
        assert not _imported_modules(path) & banned, path.name


def test_renderers_never_import_discord_or_a_database() -> None:
    """No bot/render module imports discord, sqlite or the store."""
    banned_roots = ("discord", "sqlite3", "aiosqlite", "bot.store")
    for path in _render_modules():
        for module in _imported_modules(path):
            assert not module.startswith(banned_roots), f"{path.name} imports {module}"


def test_a_cleared_battle_pile_shows_what_it_counts_as() -> None:
    """When a safety clears the hazard on top, the table marks the pile as counting as a Go."""
    from dataclasses import replace

    from tests.engine.mille_helpers import G, act, start

    filler = ["75", "75", "75", "50", "50", "50"]
    s = start(["right-of-way", "driving-ace", *filler[:4]], ["accident", *filler[:5]], ["25"] * 9)
    s = act(act(s, 0, "play right-of-way", "discard 75"), 1, "play accident")
    s = act(s, 0, "play driving-ace")
    view = G.public_view(s)
    assert view.tableaus[0].battle_counts_as is not None and not view.tableaus[0].battle_pile
    unmarked = replace(
        view, tableaus=(replace(view.tableaus[0], battle_counts_as=None), view.tableaus[1])
    )
    assert table_png(view) != table_png(unmarked)


def test_the_hand_promises_a_coup_fourre_only_for_a_fresh_hazard() -> None:
    """Ann holds Extra Tank under Bob's Out of Gas. While the hazard is fresh the hand's line
    and the card's tag say coup fourré; once Ann has drawn and the hazard is old, the safety is
    still offered before drawing but scores no coup. Before the fix the image said "(coup
    fourré!)" over a gold "COUP FOURRÉ!" tag in both cases."""
    from bot.render.mille import _hand_tag, _phase_line
    from tests.engine.mille_helpers import G, act, start

    alice = ["go", "extra-tank", "25", "25", "25", "25"]
    bob = ["go", "out-of-gas", "50", "50", "50", "50"]
    s = start(alice, bob, ["75", "75", "75", "100", "100", "50", "100", "100", "100", "100"])
    s = act(act(act(s, 0, "play go"), 1, "play go"), 0, "play 25")
    s = act(s, 1, "play out-of-gas")
    fresh_view = G.private_view(s, 0)
    assert fresh_view.phase == "draw" and "coup fourré" in _phase_line(fresh_view)
    assert _hand_tag(fresh_view, Card.EXTRA_TANK, True, True)[0] == "COUP FOURRÉ!"
    assert fresh_view.coups == ("play extra-tank",)
    s = act(act(s, 0, "draw", "discard 25"), 1, "play 50")
    old_view = G.private_view(s, 0)
    assert old_view.phase == "draw" and "play extra-tank" in old_view.legal
    assert old_view.coups == ()
    assert "coup" not in _phase_line(old_view).lower()


def test_a_hand_end_between_long_names_is_drawn_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The caption that ends a hand names the player who declined, the one who finished and
    the one who starts the next (178 letters with two long names): the "LAST MOVE" box takes
    a third line. In two lines at 16 px it was cut before "starts.", and with the names the
    other way round, inside the starter's name."""
    a, b = LONG[0], LONG[1]
    caption = (
        f"{a} declines the extension. Hand 1 is over: {a} completed the trip at 700 miles. "
        f"Hand 2: {b} starts."
    )
    view = dataclasses.replace(GAME.public_view(GAME.new_game([a, b], seed=3)), caption=caption)
    drawn = sizes_drawn(monkeypatch)
    render_table(view)
    start = next(i for i, (words, _) in enumerate(drawn) if words == "LAST MOVE")
    lines = drawn[start + 1 :]
    assert " ".join(words for words, _ in lines) == caption
    assert min(size for _, size in lines) >= READABLE


def test_a_match_banner_names_the_computer_as_the_lines_do(
    after_hand: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mid-match, Ann against "Computer (normal)": the sheet's banner read "Match: Ann 1000 —
    Computer 750", each name cut to an even share of its room, where the lines and the panel
    above say "Computer (normal)". Ann's short name leaves its room to the computer now; two
    long names take two lines (``test_a_match_banner_writes_two_long_names_whole``)."""
    view = GAME.public_view(after_hand)
    drawn = sizes_drawn(monkeypatch)
    render_hand_result(dataclasses.replace(view, players=("Ann", "Computer (normal)")))
    (banner,) = [words for words, _ in drawn if words.startswith("Match: ")]
    assert banner.startswith("Match: Ann ") and "  —  Computer (normal) " in banner, banner


_BANNER = (32, 108, RESULT_SIZE[0] - 32, 178)
"""The score sheet's banner mid-match (its reason on one line)."""


def _banner_texts(marks: list[Mark]) -> list[Mark]:
    """The texts drawn inside the banner's rows on the score sheet."""
    return [
        m
        for m in marks
        if m.is_text and m.on == RESULT_SIZE and _BANNER[1] < m.box[3] and m.box[1] < _BANNER[3]
    ]


@pytest.mark.parametrize(
    "players",
    [(LONG[0], LONG[1]), (LONG[0], "Computer (expert)"), ("Computer (normal)", LONG[5])],
)
def test_a_match_banner_writes_two_long_names_whole(
    after_hand: Any, monkeypatch: pytest.MonkeyPatch, players: tuple[str, str]
) -> None:
    """Mid-match, a long name against another or a computer: the banner cut each name at
    24 px to a share of one line, "Match: Maximilian… 1700  —  Bartholome… 675", or
    "Maximilian… 1700  —  Computer 675", its level gone. It now takes two lines at 20 px or
    more, every name, score and the target whole, each line inside the banner and clear of
    the other."""
    view = dataclasses.replace(GAME.public_view(after_hand), players=players)
    sizes = sizes_drawn(monkeypatch)
    marks = marks_drawn(monkeypatch)
    render_hand_result(view)
    texts = _banner_texts(marks)
    words = " ".join(m.what for m in texts)
    totals = (
        [line.points for line in view.results[-1].lines[0]],
        [line.points for line in view.results[-1].lines[1]],
    )
    for name, lines in zip(players, totals, strict=True):
        assert f"{name} {sum(lines)}" in words, words
    assert f"(first to {view.match_target})" in words and "…" not in words, words
    assert all(size >= READABLE for text, size in sizes if text in words)
    x0, y0, x1, y1 = _BANNER
    for m in texts:
        assert x0 + 10 <= m.box[0] and m.box[2] <= x1 - 10, m
        assert y0 < m.box[1] and m.box[3] < y1, m
    assert not crossed_texts(texts, RESULT_SIZE)


def test_a_match_banner_cuts_names_only_past_two_lines_at_the_readable_size() -> None:
    """Two names of 32 wide letters: the first holds on its line at 20 px, the second, with
    the target beside it, does not; only that one is cut with an ellipsis, at 20 px, each
    line within the banner's width, scores and target whole."""
    wide = "W" * 32
    width = _BANNER[2] - _BANNER[0] - 30
    fnt, lines = match_lines(((wide, 1700), (wide, 675)), 5000, width)
    assert common.font(READABLE, "bold") is fnt and len(lines) == 2, lines
    assert all(text_width(line, fnt) <= width for line in lines), lines
    assert lines[0] == f"Match: {wide} 1700  —", lines
    assert lines[1].startswith("WWW") and lines[1].endswith("… 675   (first to 5000)"), lines


def test_a_score_columns_long_name_takes_two_lines_before_it_is_cut(
    after_hand: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each column of the score sheet is headed by its player's name, cut at 20 px where it
    does not fit ("Maximilian Wolfga…"). It takes two lines at 20 px first: a 32-letter name
    whole, or cut only on its second line, both lines inside the column and above its first
    score line."""
    view = dataclasses.replace(GAME.public_view(after_hand), players=(LONG[0], LONG[1]))
    sizes = sizes_drawn(monkeypatch)
    marks = marks_drawn(monkeypatch)
    render_hand_result(view)
    texts = [m for m in marks if m.is_text and m.on == RESULT_SIZE]
    for seat, column in enumerate(((32, 488), (512, 968))):
        label = view.results[-1].lines[seat][0].label
        inside = [m for m in texts if column[0] <= m.box[0] and m.box[2] <= column[1]]
        first = next(m for m in inside if m.what == label)
        head = [m for m in inside if _BANNER[3] < m.box[1] < first.box[1]]
        shown = " ".join(m.what for m in head)
        assert LONG[seat].startswith(shown.removesuffix("…")) and len(shown) >= 26, head
        assert all(dict(sizes)[m.what] >= READABLE for m in head), head
        assert all(m.box[3] < first.box[1] for m in head), (head, first)

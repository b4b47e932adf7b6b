"""A hostile review of the fallback faces (names drawn partly by a bundled fallback face).

Each test says what was tried and what was found."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PIL import Image, ImageFont

from bot.render import fallback
from bot.render.common import FONT_DIR, Canvas, Palette, font, text_width


def _left_part(text: str, width: int) -> bytes:
    """The leftmost ``width`` columns of ``text`` drawn from x = 4 (bold, 30 px, "lm")."""
    canvas = Canvas(Image.new("RGB", (420, 60)))
    canvas.text((4, 30), text, font(30, "bold"), Palette.INK, anchor="lm")
    return canvas.image.crop((0, 0, width, 60)).tobytes()


def test_an_rtl_name_with_an_emoji_keeps_its_word_order() -> None:
    """A Hebrew name of two words with an emoji between them ("שלום 🚗 עולם"). Drawn in one
    face (a star, "שלום ★ עולם"), raqm lays it out right to left: "עולם" is leftmost, and a
    Hebrew reader reads "שלום" first. Found: the emoji comes from a fallback face, so the name
    is drawn as three runs, and the runs were set left to right in the order they were typed:
    "שלום" leftmost, the words swapped for anyone reading the name (an Arabic "محمد 🚗 علي" read
    "علي 🚗 محمد" alike). Runs are now set in the bidirectional algorithm's visual order."""
    fnt = font(30, "bold")
    for first, second in (("שלום", "עולם"), ("محمد", "علي")):
        room = text_width(second, fnt) + 4
        alone = _left_part(second, room)
        assert _left_part(f"{first} ★ {second}", room) == alone  # raqm's order, one face
        assert _left_part(f"{first} 🚗 {second}", room) == alone, f"{first} is drawn first"


def test_a_latin_name_with_an_emoji_and_an_rtl_word_stays_in_reading_order() -> None:
    """The other side of the same fix: a left-to-right name stays as typed ("Ann 🚗 שלום": Ann
    leftmost), and a name in one fallback face only is not reordered."""
    fnt = font(30, "bold")
    room = text_width("Ann", fnt) + 4
    assert _left_part("Ann 🚗 שלום", room) == _left_part("Ann", room)
    room = text_width("🚗", fnt) + 4
    assert _left_part("🚗 שלום", room) == _left_part("🚗", room)


def test_a_word_is_one_run_when_threads_race_for_its_face(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without worker processes the bot draws in two threads. Two threads asking for a
    fallback face at once each get an object of their own from ``lru_cache`` (it does not lock
    while the face loads; reproduced with 2 threads on a cold cache: 42 of 300 draws of "क्षि"
    split). Found: letters of one word were merged into a run only while their face was the
    very same object, so the word was cut in two runs and the conjunct "क्ष" drawn apart, a
    broken word then kept in the mask cache. Here every call hands out a new object, as the
    race does; a run is now one file at one size."""
    fresh = fallback._face.__wrapped__
    monkeypatch.setattr(fallback, "_face", fresh)
    fnt = font(22, "bold")
    assert isinstance(fnt, ImageFont.FreeTypeFont)
    assert [run for run, _ in fallback.runs("क्षि Ann", fnt, FONT_DIR)] == ["क्षि", " Ann"]


def test_the_workers_warm_up_reads_every_fallback_face() -> None:
    """A drawing worker draws every game's table once when it starts, "so the first real image
    is fast". Found: it draws them with names "P0", "P1"..., so the first name in emoji or
    Chinese a worker draws reads the fallback faces' character maps then: measured, the first
    such table took ~150 ms after the warm-up, the next ~14 ms, in every worker. The warm-up
    now reads them."""
    from bot.render.pool import _warm_up

    fallback.letters.cache_clear()
    _warm_up()
    before = fallback.letters.cache_info().misses
    for file, _ in fallback.FALLBACKS:
        fallback.letters(str(FONT_DIR / file))
    assert fallback.letters.cache_info().misses == before, "read on the first real image"


def test_a_damaged_character_map_has_no_letters(tmp_path: Path) -> None:
    """A fallback face whose file is damaged inside (a disk error, a bad copy), not only
    unreadable from its first bytes. ``letters`` promises none for a file it cannot read, so
    that "a broken checkout draws boxes rather than failing a game". Found: fontTools raises
    IndexError, ValueError or TypeError on a garbled character map (10 of 300 files with 8
    random bytes of Thai's ``cmap`` changed), which escaped every image with a Thai name."""
    from fontTools.ttLib import TTFont

    source = FONT_DIR / "NotoSansThai-Regular.ttf"
    with TTFont(str(source)) as face:
        entry = face.reader.tables["cmap"]
    data = source.read_bytes()
    rng = random.Random(1)
    for attempt in range(300):
        damaged = bytearray(data)
        for _ in range(8):
            damaged[entry.offset + rng.randrange(entry.length)] = rng.randrange(256)
        path = tmp_path / f"thai{attempt}.ttf"
        path.write_bytes(bytes(damaged))
        assert isinstance(fallback.letters(str(path)), frozenset)


@pytest.mark.parametrize("between", ["", " 👩‍🚀"])
def test_a_score_after_an_arabic_name_stays_after_it(between: str) -> None:
    """A caption gives a figure right after an Arabic name: "محمد: 3, Bob: 2." (the tickets
    each kept), drawn in one face, and with an emoji further along (runs of several faces).
    Found by a names review: in Unicode's bidirectional algorithm figures after Arabic
    letters belong to them, so the line was drawn "3 :محمد, Bob: 2." (the 3 leftmost, beside
    nobody's name); the name is now isolated (``bot.bidi``) and drawn first, its figure after
    it."""
    fnt = font(30, "bold")
    room = text_width("محمد", fnt) + 4
    assert _left_part(f"محمد: 3,{between} Bob: 2.", room) == _left_part("محمد", room)


def test_two_isolated_names_with_figures_between_them_stay_in_their_order() -> None:
    """A caption names two members written right to left with only figures and punctuation
    between them, "محمد: 3, שלום: 2." (the tickets each kept), each name isolated as a seat
    holds it. Found by a names review: the images set the whole of "محمد: 3, שלום" apart as
    one right-to-left stretch, across the names' own isolates, so it was drawn "שלום ,3 :محمد"
    and the figures were read against the wrong names; the names' own isolates are now kept,
    and "محمد" is drawn first."""
    fnt = font(30, "bold")
    room = text_width("محمد", fnt) + 4
    line = "\u2068محمد\u2069: 3, \u2068שלום\u2069: 2."
    assert _left_part(line, room) == _left_part("محمد", room)

"""Names in scripts and emoji the main font lacks are drawn by the bundled fallback faces.

Found playing with members named in Korean, Chinese, Hindi and with emoji: DejaVu has none of
those letters, so every image drew such a name as a row of empty boxes (the font's "missing
glyph"). Each letter is now drawn by the first bundled face that has it."""

from __future__ import annotations

import gc
import warnings
from pathlib import Path

import pytest
from PIL import Image, ImageFont

from bot.render import fallback
from bot.render.common import FONT_DIR, Canvas, Palette, _text_mask, font, tame, text_width

MISSING = "\u0378"  # an unassigned code point: every face draws its missing-glyph box


def _runs(text: str) -> list[tuple[str, str]]:
    """``text``'s runs as (text, font file name), at 20 px regular."""
    fnt = font(20)
    assert isinstance(fnt, ImageFont.FreeTypeFont)
    faces = fallback.runs(text, fnt, Path(str(fnt.path)).parent)
    return [(run, Path(str(face.path)).name) for run, face in faces]


def _pixels(text: str, size: int = 28) -> bytes:
    mask, _, _ = _text_mask(text, font(size, "bold"), "la")
    return mask.tobytes()


@pytest.mark.parametrize(
    ("letter", "script"),
    [("김", "Korean"), ("山", "Chinese"), ("あ", "Japanese"), ("न", "Hindi"), ("ก", "Thai")],
)
def test_a_letter_the_main_font_lacks_is_not_drawn_as_a_box(letter: str, script: str) -> None:
    assert _pixels(letter) != _pixels(MISSING), f"the {script} letter is drawn as a box"


def test_an_emoji_the_main_font_lacks_is_not_drawn_as_a_box() -> None:
    assert _pixels("🚗") != _pixels(MISSING)


def test_korean_names_are_drawn_by_one_face_throughout() -> None:
    """The Chinese face has only some Hangul syllables ("가" but not "김"): a name drawn by
    two faces would change style mid-word, so Hangul goes to the Korean face only."""
    assert _runs("가김철수") == [("가김철수", "NanumSquareR.ttf")]


def test_vowel_signs_stay_with_the_letter_they_belong_to() -> None:
    """The word "नमस्ते" has a virama and vowel signs: marks are drawn by their letter's face, so the
    word is one run (split, raqm could not join the conjunct)."""
    assert _runs("नमस्ते Priya") == [
        ("नमस्ते", "NotoSansDevanagari-Regular.ttf"),
        (" Priya", "DejaVuSans.ttf"),
    ]


def test_a_name_with_an_emoji_sits_on_the_same_baseline_as_without() -> None:
    """Drawn centred on a line ("lm", as seat names are), "Sam 🚗" puts "Sam" on exactly the
    pixels plain "Sam" takes: the emoji's face does not move the line."""
    fnt = font(26, "bold")
    mixed, plain = Canvas(Image.new("RGB", (300, 60))), Canvas(Image.new("RGB", (300, 60)))
    mixed.text((4, 30), "Sam 🚗", fnt, Palette.INK, anchor="lm")
    plain.text((4, 30), "Sam", fnt, Palette.INK, anchor="lm")
    width = text_width("Sam", fnt) + 4
    crop = (0, 0, width, 60)
    assert mixed.image.crop(crop).tobytes() == plain.image.crop(crop).tobytes()


@pytest.mark.parametrize("anchor", ["la", "lm", "mm", "rm", "ma", "rb"])
def test_a_mixed_name_is_measured_as_wide_as_it_is_drawn(anchor: str) -> None:
    """Cuts and fits measure with ``text_width``; the drawn pixels must agree with it."""
    fnt = font(22, "bold")
    text = "Zoë 山田 🚗 नमस्ते"
    mask, _, _ = _text_mask(text, fnt, anchor)
    assert abs(mask.width - text_width(text, fnt)) <= 4


def test_a_skin_tone_is_dropped_rather_than_drawn_as_a_swatch() -> None:
    assert tame("👍🏽 Ann") == "👍 Ann"


def test_a_font_file_that_cannot_be_read_has_no_letters(tmp_path: Path) -> None:
    """A broken checkout draws boxes instead of failing the game."""
    broken = tmp_path / "broken.ttf"
    broken.write_bytes(b"not a font")
    assert fallback.letters(str(broken)) == frozenset()


@pytest.mark.parametrize("name", ["DejaVuSans-Bold.ttf", "broken.ttf"])
def test_reading_a_faces_letters_leaves_no_file_open(name: str, tmp_path: Path) -> None:
    """fontTools opens the font file to read its character map. ``letters`` left it open for
    the garbage collector to close, which warned "unclosed file <_io.FileIO name='…/DejaVuSans-
    Bold.ttf'>" (a ResourceWarning) in every test that drew a name; a file it cannot read was
    left open alike. It is closed once read."""
    path = FONT_DIR / name
    if name == "broken.ttf":
        path = tmp_path / name
        path.write_bytes(b"not a font")
    fallback.letters.cache_clear()  # read again, not served from the cache
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        found = fallback.letters(str(path))
        gc.collect()  # a font left open is closed here, warning, at the latest
    assert (ord("A") in found) == (name != "broken.ttf")
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []

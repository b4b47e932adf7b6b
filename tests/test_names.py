"""Names drawn alike (``bot.names``): letters of other scripts that look Latin, read from
Unicode's confusables, number the later name; names typed in ASCII read as typed."""

from __future__ import annotations

import pytest

from bot.names import looks, unused_name


@pytest.mark.parametrize(("first", "second"), [("Lucy", "Lսcy"), ("John", "Jօhn")])
def test_armenian_letters_drawn_like_latin_ones_number_the_name(first: str, second: str) -> None:
    """Armenian "ս" and "օ" are drawn like "u" and "o": "Lսcy" sits as "Lսcy (2)"."""
    assert unused_name(second, [first]) == f"{second} (2)"


@pytest.mark.parametrize(("first", "second"), [("Abe", "Ꭺbe"), ("Cora", "Ꮯora")])
def test_cherokee_capitals_drawn_like_latin_ones_number_the_name(first: str, second: str) -> None:
    """Cherokee "Ꭺ" and "Ꮯ" are drawn like "A" and "C"."""
    assert unused_name(second, [first]) == f"{second} (2)"


@pytest.mark.parametrize(
    ("first", "second"), [("Ada", "ɑda"), ("Gus", "ɡus"), ("Liz", "Lız"), ("Yves", "ʏves")]
)
def test_latin_letters_outside_ascii_drawn_like_ascii_ones_number_the_name(
    first: str, second: str
) -> None:
    """The Latin alpha, script g, dotless i and small capital Y look like "a", "g", "i", "y"."""
    assert unused_name(second, [first]) == f"{second} (2)"


def test_a_small_letter_with_no_look_alike_reads_as_its_capital() -> None:
    """Cyrillic "ԍ" has no Latin look-alike of its own, its capital "Ԍ" looks like "G", and
    case never tells names apart: "ԍreg" is "greg"."""
    assert unused_name("ԍreg", ["Greg"]) == "ԍreg (2)"


def test_a_greek_small_nu_reads_as_the_v_it_is_drawn_like() -> None:
    """A small "ν" is drawn like a "v" (its capital, like an "N"): "νικ" is "vik"."""
    assert unused_name("νικ", ["Vik"]) == "νικ (2)"


def test_a_letter_of_another_script_keeps_its_mark() -> None:
    """Cyrillic "ӓ" is a Cyrillic "а" with a diaeresis: "Mӓx" is the Latin "Mäx"."""
    assert unused_name("Mӓx", ["Mäx"]) == "Mӓx (2)"


def test_a_mark_still_tells_names_apart() -> None:
    """ "Mӓx" (a diaeresis) is not "Max"."""
    assert unused_name("Mӓx", ["Max"]) == "Mӓx"


@pytest.mark.parametrize(("first", "second"), [("Arnie", "Amie"), ("Bob", "B0b"), ("Sal", "Sa1")])
def test_names_typed_in_ascii_read_as_typed(first: str, second: str) -> None:
    """ASCII is left as typed (only the capital I is read as an l too): "rn" is not an "m"
    ("Arnie" and "Amie" are two people), nor "0" an "O", nor "1" an "l"."""
    assert unused_name(second, [first]) == second


def test_a_computers_name_spelt_in_other_scripts_reads_as_the_computers() -> None:
    """The lobby reads names with ``looks``: "Cօmputer" in Armenian is "computer"."""
    assert looks("Cօmputer 2 (expert)") == looks("Computer 2 (expert)")

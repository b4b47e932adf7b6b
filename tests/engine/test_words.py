"""The engines' (and renderers') shared English: counted nouns and lists."""

from __future__ import annotations

from bot.engine.words import a_or_an, names, noun, plural


def test_a_count_takes_an_s_unless_it_is_one() -> None:
    assert [plural(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]


def test_an_irregular_plural_is_given_whole() -> None:
    """Where an "s" will not do, the plural form is passed ("coups fourrés")."""
    assert plural(1, "coup fourré", "coups fourrés") == "1 coup fourré"
    assert plural(2, "coup fourré", "coups fourrés") == "2 coups fourrés"


def test_the_noun_alone_serves_a_count_written_otherwise() -> None:
    """A count with thousands separators keeps them: only the noun is chosen."""
    assert f"12,345 {noun(12_345, 'game')}" == "12,345 games"
    assert noun(1, "game") == "game" and noun(0, "coup fourré", "coups fourrés") == "coups fourrés"


def test_a_list_joins_its_last_item_with_and() -> None:
    """ "Ann, Bob and Cy": commas between, "and" before the last; one item alone; none empty."""
    assert [names([]), names(["Ann"]), names(["Ann", "Bob"]), names(["Ann", "Bob", "Cy"])] == [
        "",
        "Ann",
        "Ann and Bob",
        "Ann, Bob and Cy",
    ]


def test_a_word_takes_an_before_a_vowel() -> None:
    assert a_or_an("Orange") == "an Orange"
    assert a_or_an("Red") == "a Red"
    assert a_or_an("") == "a "

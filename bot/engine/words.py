"""Small pieces of the English the engines' captions and refusals are written in.

Pure wording, with no game state: the renderers may import it too (``tests/render`` allows it),
so an image counts its cards as the captions do.
"""


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word``, with an ``s`` unless there is exactly one: "1 card", "2 cards";
    ``many`` is the plural where an ``s`` will not do ("2 coups fourrés")."""
    return f"{n} {noun(n, word, many)}"


def noun(n: int, word: str, many: str | None = None) -> str:
    """``word`` as said of ``n`` things, without the number ("card", "cards"): for a count
    written some other way (with thousands separators, in words)."""
    if n == 1:
        return word
    return f"{word}s" if many is None else many

"""Small pieces of the English the engines' captions and refusals are written in."""


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an ``s`` unless there is exactly one: "1 card", "2 cards"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"

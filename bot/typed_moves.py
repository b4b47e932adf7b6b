"""Move text as a member typed it, read the way the games' notation expects (the same for
Discord's /move, the console and ``Tables.move``)."""

from __future__ import annotations

import unicodedata

MAX_MOVE_TEXT = 200
"""The longest text read as a typed move: Discord's /move and the console refuse a longer one
before anything reads it, and so does ``Tables.move`` (normalising can lengthen text: the cap
comes first)."""
TOO_LONG = "That move is far too long to be a move."

# Curly quotes (a phone's keyboard, a chat's smart punctuation) as the straight ones.
_STRAIGHT_QUOTES = str.maketrans("\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f", "''''\"\"\"\"")


def typed_move(text: str) -> str:
    """Move text as a member typed it, read as the games' notation expects: compatibility
    forms folded (Unicode NFKC: ``ＰＬＡＹ ＧＯ``, ``１``, a non-breaking space), invisible
    format characters dropped (a zero-width space pasted from chat), curly quotes made
    straight, whitespace collapsed, and one pair of quotes around the whole move taken off
    (the console's help writes moves as 'play go'). Only for typed moves and what a command's
    game, level and options fields hold (``bot.games.registry.bundle``, ``cogs.choices``):
    member names and stored data are never normalised (the store keeps the engine's own
    notation)."""
    visible = "".join(char for char in text if unicodedata.category(char) != "Cf")
    folded = unicodedata.normalize("NFKC", visible).translate(_STRAIGHT_QUOTES)
    words = " ".join(folded.split())
    if len(words) > 2 and words[0] == words[-1] and words[0] in "'\"`":
        words = " ".join(words[1:-1].split())
    return words


def unaccented(text: str) -> str:
    """``text`` in lower case with its accents dropped, for matching what a member typed
    against a move's label: a keyboard without accents types "reparations" for the French
    card Réparations."""
    bare = unicodedata.normalize("NFKD", text.lower())
    return "".join(char for char in bare if not unicodedata.combining(char))

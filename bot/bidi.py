"""Right-to-left names (Arabic, Hebrew) inside the bot's left-to-right lines.

Discord lays a line out by Unicode's bidirectional algorithm, and so does raqm on the images,
and in it figures after Arabic letters belong to them: "Ratings: محمد 1,000 → 1,086 (+86)"
showed as "Ratings: (86+) 1,086 → 1,000 محمد", a rating going down, and "1st محمد 0 · 2nd Bob"
as "1st 2 · 0 محمدnd Bob". Isolated (``isolated``), a name reads right to left inside a line
that reads left to right around it, and a line opening with it is still a left-to-right line.

A member's name is isolated as a whole where a seat takes it (``isolated_name``), so that two
such names with only figures and punctuation between them ("Tickets kept — محمد: 3, שלום:
2.") stay two; ``isolated`` sets apart whatever right-to-left writing is left in a line (a
name seated before, a front end that does not isolate names).

Dependency direction: a leaf. ``cogs.ui`` (the messages) and ``bot.render.common`` (the images)
import it; it imports nothing of the bot's.
"""

from __future__ import annotations

import unicodedata

FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"
_RIGHT_TO_LEFT = ("R", "AL")
_OPENS = ("LRI", "RLI", "FSI")


def isolated_name(name: str) -> str:
    """``name`` between directional isolates when it holds right-to-left letters, else as it
    is. A member's name goes into captions, result lines and buttons as a whole: isolated
    there, what follows it (a figure, another name) is never read as part of it."""
    if name.isascii() or not any(unicodedata.bidirectional(c) in _RIGHT_TO_LEFT for c in name):
        return name
    return f"{FIRST_STRONG_ISOLATE}{name}{POP_DIRECTIONAL_ISOLATE}"


def isolated(text: str) -> str:
    """``text`` with each stretch of right-to-left writing not isolated already set apart by
    Unicode's directional isolates (invisible), from its first right-to-left letter to its
    last before a left-to-right letter, an isolate, or the end of the line. Two stretches
    always have one of those between them."""
    if text.isascii():
        return text
    out: list[str] = []
    depth = 0  # inside how many isolates the text already holds
    start = 0
    while start < len(text):
        kind = unicodedata.bidirectional(text[start])
        if kind in _OPENS:
            depth += 1
        elif kind == "PDI":
            depth = max(0, depth - 1)
        if depth or kind not in _RIGHT_TO_LEFT:
            out.append(text[start])
            start += 1
            continue
        end = after = start + 1  # ``end``: one past the stretch's last right-to-left character
        while after < len(text):
            kind = unicodedata.bidirectional(text[after])
            if kind in ("L", "B", "S", "PDI", *_OPENS):  # a left-to-right letter, a line
                break  # break, a tab, an isolate
            if kind in ("R", "AL", "AN", "NSM"):
                end = after + 1
            after += 1
        out.append(f"{FIRST_STRONG_ISOLATE}{text[start:end]}{POP_DIRECTIONAL_ISOLATE}")
        start = end
    return "".join(out)

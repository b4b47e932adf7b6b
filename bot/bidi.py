"""Right-to-left names (Arabic, Hebrew) inside the bot's left-to-right lines.

Discord lays a line out by Unicode's bidirectional algorithm, and so does raqm on the images,
and in it figures after Arabic letters belong to them: "Ratings: محمد 1,000 → 1,086 (+86)"
showed as "Ratings: (86+) 1,086 → 1,000 محمد", a rating going down, and "1st محمد 0 · 2nd Bob"
as "1st 2 · 0 محمدnd Bob". Isolated (``isolated``), a name reads right to left inside a line
that reads left to right around it, and a line opening with it is still a left-to-right line.

Dependency direction: a leaf. ``cogs.ui`` (the messages) and ``bot.render.common`` (the images)
import it; it imports nothing of the bot's.
"""

from __future__ import annotations

import unicodedata

FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"


def isolated(text: str) -> str:
    """``text`` with each stretch of right-to-left writing (a name in Arabic or Hebrew) set
    apart by Unicode's directional isolates (invisible), from its first right-to-left letter
    to its last before a left-to-right letter or the end of the line. Two stretches always
    have a left-to-right letter, a line break or a tab between them."""
    if text.isascii():
        return text
    out: list[str] = []
    start = 0
    while start < len(text):
        if unicodedata.bidirectional(text[start]) not in ("R", "AL"):
            out.append(text[start])
            start += 1
            continue
        end = after = start + 1  # ``end``: one past the stretch's last right-to-left character
        while after < len(text):
            kind = unicodedata.bidirectional(text[after])
            if kind in ("L", "B", "S"):  # a left-to-right letter, a line break, a tab
                break
            if kind in ("R", "AL", "AN", "NSM"):
                end = after + 1
            after += 1
        out.append(f"{FIRST_STRONG_ISOLATE}{text[start:end]}{POP_DIRECTIONAL_ISOLATE}")
        start = end
    return "".join(out)

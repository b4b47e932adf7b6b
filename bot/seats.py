"""What the computers at a table are called, for every front end (Discord and the console).

A computer's seat is named for its level, "Computer (normal)", and numbered when a table has
several ("Computer 2 (expert)"). An image short of room for a name writes it smaller (down to
the readable size) or its level on a line of its own; only where neither holds it does the
level go before the name is cut, since the number alone tells the computers apart.
"""

from __future__ import annotations

import re

_COMPUTER_NAME = re.compile(r"(Computer(?: \d+)?) \([a-z]+\)")


def computer_names(count: int, level: str) -> list[str]:
    """The seat names of ``count`` computers playing at ``level`` (numbered if several)."""
    if count == 1:
        return [f"Computer ({level})"]
    return [f"Computer {number} ({level})" for number in range(1, count + 1)]


def without_level(name: str) -> str | None:
    """A computer's seat name without its level ("Computer 2"), or None for any other name.

    Members cannot sit under such a name (the lobby seats them by their username instead), so
    a name of this shape is a computer's."""
    found = _COMPUTER_NAME.fullmatch(name)
    return None if found is None else found.group(1)

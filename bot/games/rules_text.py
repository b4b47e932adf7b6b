"""The rules a player reads with ``/rules``: the "In short" section of ``docs/rules/<key>.md``.

The bot and the documentation share one text, so they cannot drift apart. When the docs are
not next to the code (an installed wheel), the bundle's own fallback is used.
"""

from __future__ import annotations

from pathlib import Path

RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"
DISCORD_LIMIT = 1900  # a message holds 2 000 characters; leave room for a link line


def in_short(key: str, fallback: str = "") -> str:
    """The text under ``## In short`` in ``docs/rules/<key>.md`` (the fallback if absent)."""
    path = RULES_DIR / f"{key}.md"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return fallback
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), key)
    _, found, rest = text.partition("\n## In short\n")
    if not found:
        return fallback
    section = rest.split("\n## ", 1)[0].strip()
    return f"**{title}**\n{section}"[:DISCORD_LIMIT]

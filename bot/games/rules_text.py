"""The rules a player reads with ``/rules``: the "In short" section of ``docs/rules/<key>.md``.

The bot and the documentation share one text, so they cannot drift apart. When the docs are
not next to the code (an installed wheel), the bundle's own fallback is used.
"""

from __future__ import annotations

from pathlib import Path

RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"
DISCORD_LIMIT = 1900  # a message holds 2 000 characters; leave room for a link line


def in_short(key: str, fallback: str = "", section: str = "In short") -> str:
    """The text under ``## In short`` (or another ``section``) in ``docs/rules/<key>.md``,
    headed by the page's title; the fallback if absent."""
    path = RULES_DIR / f"{key}.md"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return fallback
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), key)
    _, found, rest = text.partition(f"\n## {section}\n")
    if not found:
        return fallback
    section_text = rest.split("\n## ", 1)[0].strip()
    if section != "In short":  # "Solo in short": the page's title, then "— Solo"
        title = f"{title} — {section.removesuffix(' in short')}"
    return f"**{title}**\n{section_text}"[:DISCORD_LIMIT]

"""What /rules posts is the "In short" section of the game's page in docs/rules, whole.

The README promises it, and the two cannot drift apart because the bot reads the page
(``bot/games/rules_text.py``). These checks catch what would still go wrong silently: a page or
heading renamed (the bot would fall back to its one-line summary), a section grown past what
one message holds (it would be cut off mid-sentence), and a move example in it that the game
no longer reads as written.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from bot.games import BUILTIN
from bot.games.bundle import GameBundle
from bot.games.rules_text import DISCORD_LIMIT, RULES_DIR

BUILTIN_BUNDLES: list[GameBundle] = [importlib.import_module(m).BUNDLE for m in BUILTIN]
PAGES = {"ttr-solo": ("ttr", "Solo in short")}
"""Games whose brief rules are not the "In short" of a page named after them."""


def _section(key: str) -> tuple[str, str]:
    """The page's title and the text of the game's section, read straight from the page."""
    page, heading = PAGES.get(key, (key, "In short"))
    text = (RULES_DIR / f"{page}.md").read_text(encoding="utf-8")
    title = text.splitlines()[0].removeprefix("# ").strip()
    assert f"\n## {heading}\n" in text, f"docs/rules/{page}.md has no '## {heading}'"
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0].strip()
    if heading != "In short":
        title = f"{title} — {heading.removesuffix(' in short')}"
    return title, section


@pytest.mark.parametrize("found", BUILTIN_BUNDLES, ids=lambda b: b.key)
def test_rules_posts_the_whole_in_short_section(found: GameBundle) -> None:
    title, section = _section(found.key)
    assert found.presenter.rules == f"**{title}**\n{section}"
    assert len(found.presenter.rules) < DISCORD_LIMIT  # never cut off


@pytest.mark.parametrize("found", BUILTIN_BUNDLES, ids=lambda b: b.key)
def test_move_examples_in_the_rules_are_read_as_written(found: GameBundle) -> None:
    """Each example in backticks that is meant to be typed reads as that move and back."""
    keys = {b.key for b in BUILTIN_BUNDLES}
    examples = [
        example
        for example in re.findall(r"`([^`]+)`", found.presenter.rules)
        # Not moves: a game's key, a placeholder ('react <card>'), a target alone ('@0').
        if example not in keys and "<" not in example and not example.startswith("@")
    ]
    assert examples or found.key in ("mille", "solo")  # the two pages that show none
    for example in examples:
        assert found.game.format_action(found.game.parse_action(example)) == example


def test_without_the_docs_folder_each_ttr_game_falls_back_to_its_own_summary(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Solo's fallback was the standard game's summary (no Station Clock, no hidden tickets)."""
    from bot.games import rules_text
    from bot.games.ttr import presenter

    monkeypatch.setattr(rules_text, "RULES_DIR", tmp_path / "missing")
    standard = presenter().rules
    solo = presenter(solo=True).rules
    assert standard.startswith("**Ticket to Ride: The Card Game**")
    assert solo.startswith("**Ticket to Ride Solo**")
    assert "Station Clock" in solo and "six hidden tickets" in solo
    assert "docs/rules/ttr.md" in solo


@pytest.mark.parametrize("found", BUILTIN_BUNDLES, ids=lambda b: b.key)
def test_the_rules_page_names_every_option_and_value(found: GameBundle) -> None:
    """A player reads a game's options on its rules page, as `/play`'s options field takes them:
    each option and each of its values, the default too, in code (`deck: modern`, `length`,
    `hand`). Dragon's page said "off unless you choose it" and named no `names: en`."""
    page = PAGES.get(found.key, (found.key, ""))[0]
    spans = set(re.findall(r"`([^`]+)`", (RULES_DIR / f"{page}.md").read_text(encoding="utf-8")))
    missing = []
    for option in found.info.options:
        if not any(s == option.name or s.startswith(f"{option.name}:") for s in spans):
            missing.append(option.name)
        missing += [
            f"{option.name}: {value}"
            for value in option.choices
            if not spans & {value, f"{option.name}: {value}", f"{option.name}:{value}"}
        ]
    assert not missing, f"docs/rules/{page}.md does not name: " + ", ".join(missing)

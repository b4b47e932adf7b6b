"""The layering rules of docs/architecture.md, checked on the source: who may import what."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _imports(folder: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    # A folder renamed or misspelt would otherwise pass every check below with nothing read.
    assert found, f"no Python files under {folder}"
    return found


def _offenders(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{file}: {name}"
        for file, names in _imports(folder).items()
        for name in names
        if name.split(".")[0] in forbidden or name.startswith(forbidden)
    ]


@pytest.mark.parametrize("folder", ["bot/engine", "bot/ai"])
def test_rules_and_computer_players_do_no_io(folder: str) -> None:
    """The engine and the AI never import discord, a database driver or Pillow."""
    assert _offenders(folder, ("discord", "aiosqlite", "asyncpg", "sqlite3", "PIL")) == []


def test_renderers_see_views_only() -> None:
    """Renderers import no discord, no database and no engine state or rules."""
    forbidden = ("discord", "aiosqlite", "asyncpg", "bot.store", "bot.tables")
    assert _offenders("bot/render", forbidden) == []
    state_users = [
        f"{file}: {name}"
        for file, names in _imports("bot/render").items()
        for name in names
        if name.endswith((".state", ".rules")) and "MilleState" in (ROOT / file).read_text()
    ]
    assert state_users == []


def test_the_seam_imports_no_discord() -> None:
    """The seam and everything around it work without discord."""
    seam = (
        *("tables", "position", "move_log", "typed_moves", "updates", "console"),
        *("results", "ratings", "boards", "timers"),
    )
    modules = [f"bot/{name}.py" for name in seam] + [
        str(path.relative_to(ROOT)) for path in sorted((ROOT / "bot" / "games").glob("*.py"))
    ]
    for module in modules:
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        names = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        } | {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert not any(name.split(".")[0] == "discord" for name in names), module


def test_sql_lives_in_the_store() -> None:
    """No module outside bot/store talks to a database driver."""
    for folder in ("bot/engine", "bot/ai", "bot/render", "cogs"):
        assert _offenders(folder, ("aiosqlite", "asyncpg", "sqlite3")) == [], folder


def test_ticket_to_ride_card_constants_are_defined_once() -> None:
    """The colour count and the card codes are bot/engine/ttr/cards.py's: a module that defines
    its own copy would go on with the old one if the deck changed."""
    shared = ("NCOL", "CARD_CODES")
    owner = Path("bot/engine/ttr/cards.py")
    copies = [
        f"{path.relative_to(ROOT)}: {target.id}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if path.relative_to(ROOT) != owner
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name) and target.id in shared
    ]
    assert copies == []

"""The repository stands alone: nothing in it points at rule sources a cloner never gets.

Every rule, ruling and design note a player or operator needs is in the repository
(``docs/rules/*.md``, README.md, ``docs/architecture.md``). The team once kept private rule
notes outside it; a comment, docstring or help text citing them ("see the rulings file, §5")
leaves a cloner with a reference they cannot follow. This test reads every file git tracks and
fails on any such citation, naming the file and line. Nor do the docs point at files or modules
that are no longer there.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Built from pieces so that this file does not match itself.
_RULINGS = "RULINGS"
FORBIDDEN = re.compile(
    "|".join(
        (
            re.escape(_RULINGS + ".md"),  # the private rulings file
            re.escape(_RULINGS + " §"),  # a section of it
            re.escape(".." + "/shared"),  # the folder the private notes lived in
            re.escape("/work" + "/shared"),
            "(?i:" + re.escape("seed" + " item") + ")",  # an item of a private rule source
        )
    )
)


def _tracked_files() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return [ROOT / name for name in out.split("\0") if name]


def _offences(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue  # images and fonts; a file deleted but not yet committed
        for number, line in enumerate(text.splitlines(), 1):
            if FORBIDDEN.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_no_tracked_file_cites_a_rule_source_outside_the_repository() -> None:
    offences = _offences(_tracked_files())
    assert not offences, "cite docs/rules/<game>.md instead:\n" + "\n".join(offences)


@pytest.mark.parametrize(
    "line",
    [
        "# see " + _RULINGS + ".md",
        "(" + _RULINGS + " §5)",
        "the optional cards (Seed" + " item 9)",
        "cp .." + "/shared/seeds/dragon.md docs/",
    ],
)
def test_the_check_catches_each_form(line: str) -> None:
    assert FORBIDDEN.search(line)


def test_the_check_leaves_random_seeds_alone() -> None:
    for line in ("seed=5", "seeds 1001-1400", "a game seed whose first roll", "--seed 1"):
        assert not FORBIDDEN.search(line)


# The documents a developer or operator reads, and the package docstrings that point around.
_DOCS = ("README.md", "docs/architecture.md", "bot/__main__.py", "cogs/__init__.py")
_PATH = r"(?<![\w./])((?:bot|cogs|tests|tools|docs|images)/[\w./<>*-]*[\w*>])"


def _module_file(parts: list[str]) -> Path | None:
    """The source file of the module ``parts`` names, if the repository has it."""
    for candidate in (
        ROOT.joinpath(*parts).with_suffix(".py"),
        ROOT.joinpath(*parts, "__init__.py"),
    ):
        if candidate.exists():
            return candidate
    return None


def _documents() -> list[Path]:
    return [ROOT / name for name in _DOCS] + sorted(ROOT.glob("bot/**/__init__.py"))


def test_every_file_and_module_the_docs_name_exists() -> None:
    """A module moved (the look-alike name helpers, from the table seam to ``bot/names.py``)
    must take the docs along: every path (``bot/names.py``, ``tests/ai/``), dotted module
    (``bot.ai.search``, ``tests.ai.oracle_bound``) and bare file name (``lobby.py``) that the
    README, the architecture page or a package docstring names is in the repository (a
    pattern, ``tests/cogs/test_*_review.py`` or ``bot/render/<game>.py``, matches a file)."""
    files = {p.name for top in ("bot", "cogs", "tests", "tools") for p in (ROOT / top).rglob("*")}
    missing = []
    for document in _documents():
        text = document.read_text(encoding="utf-8")
        for path in re.findall(_PATH, text):
            pattern = re.sub(r"<\w+>", "*", path.rstrip("/."))  # bot/render/<game>.py: any game
            if not any(ROOT.glob(pattern)):
                missing.append(f"{document.relative_to(ROOT)}: {path}")
        for dotted in re.findall(r"(?<![\w./])((?:bot|cogs|tests|tools)(?:\.\w+)+)", text):
            # A module (bot.ai.search), or a module and a name it defines (bot.ai.base.Policy).
            *outer, last = dotted.split(".")
            source = _module_file(outer)
            if _module_file([*outer, last]) is None and (
                source is None or not re.search(rf"\b{last}\b", source.read_text())
            ):
                missing.append(f"{document.relative_to(ROOT)}: {dotted}")
        for name in re.findall(r"`(\w+\.py)`", text):
            if name not in files and name != "discord.py":  # the library, not a file
                missing.append(f"{document.relative_to(ROOT)}: {name}")
    assert not missing, "named in the docs but not in the repository:\n" + "\n".join(missing)


def test_every_markdown_page_a_tracked_file_names_exists() -> None:
    """A test's docstring sent readers to a design page the repository has never had for the
    layering rules (they are in ``docs/architecture.md``). Every ``*.md`` a tracked file names
    is a page it has (``docs/rules/<game>.md`` stands for any game's)."""
    files = _tracked_files()
    pages = {path.name for path in files if path.suffix == ".md"}
    missing = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue  # images and fonts; a file deleted but not yet committed
        for name in re.findall(r"[\w./<>-]+\.md\b", text):
            if "<" not in name and Path(name).name not in pages:
                missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, "names a page the repository does not have:\n" + "\n".join(missing)


def test_the_architecture_page_names_every_top_level_module() -> None:
    """A new module of the bot or a new cog gets its line on the architecture page: the Discord
    client (``bot/client.py``) and the command line had none."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    modules = [*(ROOT / "bot").glob("*.py"), *(ROOT / "cogs").glob("*.py")]
    unnamed = [
        str(path.relative_to(ROOT))
        for path in modules
        if path.name != "__init__.py"
        and str(path.relative_to(ROOT)) not in page
        and not (path.parent.name == "cogs" and f"`{path.name}`" in page)
    ]
    assert not unnamed, "not on docs/architecture.md: " + ", ".join(sorted(unnamed))


# A command shown in a code span that runs Python or one of its tools by its bare name: on a
# fresh clone after `make run` only `.venv/bin/` has the project's packages.
_BARE_TOOL = re.compile(r"`(?:[A-Z_]+=\S*\s+)*(python3?|pytest|mypy|ruff)\s")


def test_the_docs_run_python_from_the_projects_venv() -> None:
    """The README sent measurers to `PYTHONPATH=. python -m tests.ai.arena_extra …`: on a fresh
    clone `python` is the machine's, without the project's packages, and it stopped at once
    ("No module named 'PIL'"). `make` installs everything into `.venv`, so every Python command
    the docs show runs `.venv/bin/python` (or `.venv/bin/pytest` …), as the README's others do."""
    bare = []
    for document in _documents():
        text = document.read_text(encoding="utf-8")
        for found in _BARE_TOOL.finditer(text):
            line = text.count("\n", 0, found.start()) + 1
            bare.append(f"{document.relative_to(ROOT)}:{line}: {found.group(0).strip()}")
    assert not bare, "run it as .venv/bin/<tool>:\n" + "\n".join(bare)


@pytest.mark.parametrize(
    ("span", "bare"),
    [
        ("`PYTHONPATH=. python -m tests.ai.arena_extra mille`", True),
        ("`PYTHONPATH=. python -m\ntests.ai.oracle_bound <game>`", True),
        ("`python3 -m venv .venv`", True),
        ("`JUNCTION_HEAVY=1 pytest -s tests/reliability`", True),
        ("`.venv/bin/python -m tools.readme_images`", False),
        ("`JUNCTION_HEAVY=1 .venv/bin/pytest -s tests/reliability`", False),
        ("`pytest` and `pytest-asyncio` for tests", False),
    ],
)
def test_the_venv_check_tells_a_bare_tool(span: str, bare: bool) -> None:
    assert bool(_BARE_TOOL.search(span)) is bare


_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    return {_slug(h) for h in re.findall(r"^#{1,6}\s+(.+?)\s*#*$", text, re.MULTILINE)}


def _broken_links(page: Path, root: Path) -> list[str]:
    """Each relative link of a Markdown page (``[text](target)``, an image's too) that does not
    lead to a file or folder of the repository ``root``, or to a heading of the page it names."""
    root, page = root.resolve(), page.resolve()
    broken = []
    text = page.read_text(encoding="utf-8")
    for found in _LINK.finditer(text):
        target = found.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not the repository's
            continue
        path_part, _, anchor = target.partition("#")
        resolved = (page.parent / path_part).resolve() if path_part else page
        inside = resolved == root or root in resolved.parents
        if (
            not inside
            or not resolved.exists()
            or (anchor and (resolved.suffix != ".md" or anchor not in _anchors(resolved)))
        ):
            line = text.count("\n", 0, found.start()) + 1
            broken.append(f"{page.relative_to(root)}:{line}: {target}")
    return broken


def test_every_relative_link_of_a_markdown_page_resolves() -> None:
    """A link is read from the page's own folder: ``docs/rules/<game>.md`` writing
    ``(docs/architecture.md)`` leads nowhere on GitHub, though the file exists. Every link of
    every tracked page leads to a file or folder inside the repository (never a private folder
    beside it) or to a heading of the page it names."""
    pages = [path for path in _tracked_files() if path.suffix == ".md"]
    broken = [line for page in pages for line in _broken_links(page, ROOT)]
    assert not broken, "links that lead nowhere:\n" + "\n".join(broken)


def test_the_link_check_finds_each_kind_of_broken_link(tmp_path: Path) -> None:
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "architecture.md").write_text("# Architecture\n\n## Kept ladders\n")
    page = tmp_path / "docs" / "rules" / "mille.md"
    page.write_text(
        "# Game\n\n## In short\n"
        "[ok](../architecture.md) [ok](../architecture.md#kept-ladders) [ok](#in-short) "
        "[ok](https://example.com/rules.html) ![ok](../../docs/rules/)\n"
        "[from the root](docs/architecture.md) [no heading](../architecture.md#lobbies) "
        "[no anchor here](#rulings) [outside](../../../notes/rules.txt) ![gone](../table.png)\n"
    )
    found = _broken_links(page, tmp_path)
    assert [line.rsplit(": ", 1)[1] for line in found] == [
        "docs/architecture.md",
        "../architecture.md#lobbies",
        "#rulings",
        "../../../notes/rules.txt",
        "../table.png",
    ]
    assert found[0].startswith("docs/rules/mille.md:5: ")


_SEE = re.compile(r"\b(?:[Ss]ee|under) \*([^*]+)\*")


def _unknown_sections(text: str) -> list[str]:
    """Each section a page sends its reader to (``see *Scaling out*``, ``under *During a game*``)
    that is neither the start of one of its headings nor a bold bullet's label
    (``* **Turn timers.**``)."""
    headings = [h.strip() for h in re.findall(r"^#{1,6}\s+(.+)$", text, re.MULTILINE)]
    labels = re.findall(r"^\s*[*-] \*\*([^*]+?)\.?\*\*", text, re.MULTILINE)
    unknown = []
    for found in _SEE.finditer(text):
        name = " ".join(found.group(1).split())
        if not any(h.startswith(name) for h in headings) and name not in labels:
            unknown.append(name)
    return unknown


def test_every_section_the_docs_send_a_reader_to_is_there() -> None:
    """The README says "see *What Junction stores*", "see *Turn timers*": a heading renamed or a
    bullet reworded leaves a reader looking for a section the page no longer has."""
    unknown = [
        f"{name}: see *{section}*"
        for name in ("README.md", "docs/architecture.md")
        for section in _unknown_sections((ROOT / name).read_text(encoding="utf-8"))
    ]
    assert not unknown, "no such section:\n" + "\n".join(unknown)


def test_the_section_check_finds_a_section_gone() -> None:
    page = (
        "## Scaling out: PostgreSQL\n\n* **Turn timers.** Deadlines…\n\n"
        "(see *Scaling out*), (see *Turn\ntimers*), under *Scaling out: PostgreSQL*; "
        "see *Timers*, see *Storage*\n"
    )
    assert _unknown_sections(page) == ["Timers", "Storage"]

"""The repository stands alone: nothing in it points at rule sources a cloner never gets.

Every rule, ruling and design note a player or operator needs is in the repository
(``docs/rules/*.md``, README.md, ``docs/architecture.md``). The team once kept private rule
notes outside it; a comment, docstring or help text citing them ("see the rulings file, §5")
leaves a cloner with a reference they cannot follow. This test reads every file git tracks and
fails on any such citation, naming the file and line.
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

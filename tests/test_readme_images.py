"""The README's pictures are drawn by tools/readme_images.py from today's renderers."""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from tools import readme_images

ROOT = Path(__file__).resolve().parents[1]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def drawn() -> dict[str, bytes]:
    return readme_images.pictures()


def test_the_tool_draws_every_picture_the_readme_shows(drawn: dict[str, bytes]) -> None:
    """A picture the README shows that no script draws goes stale when an image changes."""
    shown = set(re.findall(r"\]\(docs/([\w-]+\.png)\)", (ROOT / "README.md").read_text()))
    assert shown
    assert shown <= drawn.keys()


def test_the_pictures_are_small_pngs(drawn: dict[str, bytes]) -> None:
    for name, data in drawn.items():
        assert data.startswith(PNG_SIGNATURE), name
        assert len(data) < 200 * 1024, name


def test_a_second_run_draws_the_same_bytes(drawn: dict[str, bytes]) -> None:
    """Seeded throughout: re-running the tool rewrites only the pictures whose look changed."""
    assert readme_images.pictures() == drawn


def test_the_card_and_the_board_give_the_member_one_rating() -> None:
    """The card and the board sit side by side in the README: the card's member has the
    rating and place the board gives her."""
    board, card = readme_images.season_views()
    row = next(r for r in board.rows if r.name == readme_images.CARD_OF)
    assert (card.rating, card.rank) == (row.value, row.rank)


def test_help_is_help_not_a_folder(tmp_path: Path) -> None:
    """`python -m tools.readme_images --help` took '--help' for the folder: it drew every
    picture, then died writing '--help/table.png'. Now it prints its usage and draws nothing,
    and a folder that does not exist is refused before anything is drawn."""
    import os
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tools.readme_images", *args],
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=120,
        )

    helped = run("--help")
    assert helped.returncode == 0, helped.stderr[-300:]
    assert helped.stdout.startswith("usage: python -m tools.readme_images")
    missing = run("missing")
    assert missing.returncode == 2
    assert missing.stderr.endswith("error: missing is not a folder\n")
    assert list(tmp_path.iterdir()) == []


def test_the_readme_shows_pictures_of_todays_size(drawn: dict[str, bytes]) -> None:
    """A renderer that changed its size without `python -m tools.readme_images` being run left
    docs/stats.png 1100×760 while /stats drew 1100×820. Sizes, not bytes: the bytes depend on
    the fonts and zlib of the machine that drew them."""
    for name, data in drawn.items():
        with Image.open(ROOT / "docs" / name) as shown, Image.open(BytesIO(data)) as today:
            assert shown.size == today.size, name

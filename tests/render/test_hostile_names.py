"""Hostile names in images (third review round): every name stays inside its box.

Every text the renderers draw goes through ``Canvas.text``; the tests record where each one
lands (the bounding box of its pixels) and check it against the image and against the other
texts. Names are what Discord allows: at most 32 characters (``cogs.seat_names.display_name``).
"""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image

from bot.games import bundle
from bot.render import common, ttr
from bot.render.common import READABLE
from bot.render.leaderboard import LeaderboardRow, leaderboard_png
from bot.seats import computer_names
from tests.render.drawn import sizes_drawn

Box = tuple[int, int, int, int]
Drawn = list[tuple[str, Box, tuple[int, int]]]

# Real-looking names of 30-32 characters (a server nickname may have 32).
LONG = [
    "Maximilian Wolfgang von Habsburg",
    "Bartholomew Montgomery-Worthing",
    "Christopher Alexander Wilkinson",
    "Wilhelmina Gwendolyn Mortimer",
    "Montgomery Wellington Worthward",
    "Mohammed Abdulrahman Al-Mansouri",
]
# "Zalgo": one letter and 31 combining marks (32 code points), a common nickname prank.
ZALGO = "Z" + "".join(chr(c) for c in range(0x0300, 0x031F))
assert len(ZALGO) == 32


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[Drawn]:
    """Every text drawn: (text, pixel box, size of the image it was drawn on)."""
    seen: Drawn = []
    original = common.Canvas.text

    def text(
        self: common.Canvas, xy: Any, text: str, fnt: Any, fill: Any, *a: Any, **k: Any
    ) -> None:
        anchor = a[0] if a else k.get("anchor", "la")
        drop = (a[1] if len(a) > 1 else k.get("drop", 0)) or 0
        if text:
            mask, left, top = common._text_mask(text, fnt, anchor)
            x, y = round(xy[0]) + left, round(xy[1]) + top
            seen.append(
                (text, (x, y, x + mask.width + drop, y + mask.height + drop), self.image.size)
            )
        original(self, xy, text, fnt, fill, *a, **k)

    monkeypatch.setattr(common.Canvas, "text", text)
    yield seen


def _size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as image:
        return image.size


def _outside(drawn: Drawn, size: tuple[int, int]) -> list[tuple[str, Box]]:
    w, h = size
    return [
        (t, b)
        for t, b, on in drawn
        if on == size and (b[0] < 0 or b[1] < 0 or b[2] > w or b[3] > h)
    ]


def _overlap(a: Box, b: Box) -> int:
    return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))


def _playout(key: str, names: list[str], wanted: Callable[[Any], bool], seeds: int = 40) -> Any:
    """The first state of a seeded normal-vs-normal game for which ``wanted`` holds."""
    found = bundle(key)
    game, policy = found.game, found.policies["normal"]()
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game.new_game(names, seed)
        for _ in range(3000):
            if wanted(state):
                return state
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            chosen = policy.choose(game.private_view(state, seat), rng)
            state = game.apply(state, seat, game.parse_action(chosen))
    raise AssertionError("no playout reached the wanted table")


# --- long names --------------------------------------------------------------------------------


@pytest.mark.parametrize("cars", [2, 6])
def test_dragon_waiting_line_stays_on_the_table(drawn: Drawn, cars: int) -> None:
    """Dragon's table ends with a "WAITING · …" line naming who must react to what: "Bob may
    react to the Autocannon from Alice (4 hits on the right)", or a Stampede's victims. It must
    stay inside the table (wrapped, shrunk or cut), so the part that matters — which attack, how
    many hits, which side — can be read. Found before the fix: the line is fitted with
    ``fit_font`` down to 12 px and then drawn whatever its width, so with two 31-32-character
    names it runs ~110 px off the right edge of an 804-px table (and ~160 px past 1 200 px at six
    cars): the attack's hits and side are cut off, though the "LAST MOVE" text above it is
    wrapped."""
    game = bundle("dragon").game

    def waiting(state: Any) -> bool:
        pending = game.public_view(state).pending
        # Two cars: any reaction; six: a Stampede, which names every victim still choosing.
        return pending is not None and (cars == 2 or pending.kind == "stampede")

    state = _playout("dragon", LONG[:cars], waiting)
    png = bundle("dragon").presenter.table_png(game.public_view(state))
    off = _outside(drawn, _size(png))
    assert not off, f"text drawn off the {_size(png)} table: {off}"


def test_mille_score_winner_pill_leaves_the_name_readable(drawn: Drawn) -> None:
    """The Mille Bornes score image gives each player a panel headed by their name, and the
    match's winner a gold "★ WINNER" pill at the panel's right. The name is cut with an ellipsis
    to leave room for it. Found before the fix: the room left (panel width − 150 px) is wider
    than the space before the pill, so any name over ~17 bold characters (e.g. "Maximilian
    Wolfgang von Habsburg", "Bartholomew Montgomery-Worthing") runs 20-30 px under the pill,
    which is painted over the end of the name."""
    state = _playout("mille", LONG[:2], lambda s: bundle("mille").game.outcome(s) is not None)
    view = bundle("mille").game.public_view(state)
    png = bundle("mille").presenter.result_png(view)
    size = _size(png)
    texts = [(t, b) for t, b, on in drawn if on == size]
    pills = [b for t, b in texts if t == "★ WINNER"]
    assert pills, "a hand winner is marked"
    for pill in pills:
        pill_left = pill[0] - 12  # the pill's padding around its text
        covered = [
            (t, b)
            for t, b in texts
            if t.rstrip("…")
            and any(t.rstrip("…") in n for n in LONG[:2])
            and b[1] < pill[3]
            and b[3] > pill[1]
            and b[2] > pill_left
        ]
        assert not covered, f"the WINNER pill (from x={pill_left}) is drawn over {covered}"


# --- combining marks ---------------------------------------------------------------------------


def test_a_zalgo_name_stays_in_its_leaderboard_row(drawn: Drawn) -> None:
    """A name stacked with combining marks ("zalgo", 32 code points, allowed in a nickname) must
    stay in its own row of /leaderboard. Found before the fix: names are cut to the row's width
    only; their height is never checked, so the marks tower ~90 px over the rows above and below
    and are drawn across other members' names (every renderer alike: off the top of the Mille
    Bornes, Solo and Ticket to Ride images, over the "LAST MOVE" captions and scoring panels).
    Marks beyond the first one or two on a letter could be dropped before drawing (or the name
    clipped to its line)."""
    rows = [
        LeaderboardRow(i + 1, ZALGO if i == 2 else f"Player {i + 1}", 1800 - 40 * i, 50, 0.5)
        for i in range(6)
    ]
    png = leaderboard_png("Mille Bornes — this server", rows)
    size = _size(png)
    texts = [(t, b) for t, b, on in drawn if on == size]
    (zalgo_box,) = [b for t, b in texts if t.startswith("Z")]
    crossed = [t for t, b in texts if t.startswith("Player") and _overlap(b, zalgo_box) > 0]
    assert not crossed, f"the zalgo name is drawn over {crossed} (its box {zalgo_box})"


@pytest.mark.parametrize("key", ["mille", "solo", "ttr"])
def test_a_zalgo_name_stays_on_the_image(drawn: Drawn, key: str) -> None:
    """The same name at the top of a table (Mille Bornes, Solo) or a Ticket to Ride hand ("Z's
    hand") must be drawn on the image, not partly above it. Found before the fix: its marks start
    40-55 px above the image's top edge (cut off) and run down over the line below."""
    found = bundle(key)
    names = [ZALGO, "Bob"][: max(1, found.info.min_players)]
    state = found.game.new_game(names, 1)
    if key == "ttr":
        png = found.presenter.hand_png(found.game.private_view(state, 0))
    else:
        png = found.presenter.table_png(found.game.public_view(state))
    off = [(t, b) for t, b in _outside(drawn, _size(png)) if t.startswith("Z")]
    assert not off, f"drawn off the {_size(png)} image: {off}"


@pytest.mark.parametrize("key", ["ttr", "ttr-solo"])
def test_a_long_ttr_name_stays_clear_of_its_chips(drawn: Drawn, key: str) -> None:
    """A Ticket to Ride panel heads each player with their name and, at the right, chips:
    the cards held, "0 tickets (+6 to choose)" (and "CHOOSING" beside them). Found by a
    hostile review: the name was cut to the panel's width less a fixed 360 px, while the chips
    at setup took more, so "Maximilian Wolfgang von Habsburg" ran under "CHOOSING". The name
    now takes what the chips leave, and a player choosing tickets has the tickets chip in gold
    instead of a "CHOOSING" chip, which said the same."""
    found = bundle(key)
    names = LONG[: max(2, found.info.min_players) if key == "ttr" else 1]
    state = found.game.new_game(names, 1)
    png = found.presenter.table_png(found.game.public_view(state))
    size = _size(png)
    texts = [(t, b) for t, b, on in drawn if on == size]
    chips = [b for t, b in texts if "to choose" in t or t.endswith("cards")]
    assert chips, "the setup shows its chips"
    heads = [(t, b) for t, b in texts if any(t.rstrip("…") and t.rstrip("…") in n for n in LONG)]
    assert heads, "the names are drawn"
    crossed = [(t, b) for t, b in heads if any(_overlap(b, chip) for chip in chips)]
    assert not crossed, f"names drawn under the chips: {crossed}"


def test_only_a_computer_name_loses_its_level_when_cut() -> None:
    """A member's long name is cut with an ellipsis as ever, even one ending in parentheses."""
    bold = common.font(22, "bold")
    room = common.text_width("Computer 2", bold) + 4
    assert common.ellipsize("Computer 2 (expert)", bold, room) == "Computer 2"
    assert common.ellipsize("Computer (expert)", bold, room) == "Computer"
    assert common.ellipsize("Computers 2 (expert)", bold, room).endswith("…")
    assert common.ellipsize("Computer 2 (Expert!)", bold, room).endswith("…")


def test_every_big_city_winner_is_named(drawn: Drawn) -> None:
    """Four players with long names share every Big City of a Ticket to Ride scoring image.
    Found in review: a city's box wrapped the joined names into two lines and cut the rest, so
    it named "Maximilian…" and "Bartholomew…" and the two other winners not at all. Each
    winner's name is now shortened to its share of the box instead."""
    found = bundle("ttr")
    final = _playout("ttr", LONG[:4], lambda state: found.game.outcome(state) is not None)
    view = found.game.public_view(final)
    everyone = tuple((0, 1, 2, 3) for _ in view.result.city_winners)
    view = dataclasses.replace(view, result=dataclasses.replace(view.result, city_winners=everyone))
    png = found.presenter.result_png(view)
    texts = [(t, b) for t, b, on in drawn if on == _size(png)]
    (top,) = [b[1] for t, b in texts if t == "BIG CITY BONUSES"]
    boxes = [t for t, b in texts if b[1] > top]
    for name in LONG[:4]:
        named = [t for t in boxes if name[:3] in t]
        assert len(named) == len(everyone), f"{name} in {len(named)} of {len(everyone)}: {boxes}"


def test_a_japanese_big_city_winner_wraps_rather_than_shrinks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Big City won by a member named in 16 Japanese letters (no spaces) is named whole in
    two lines at the size a "nobody" beside it is drawn. Found in review: the wrap broke lines
    at spaces only, so the name was one unbreakable word and shrank to the smallest size
    (about 3 px tall on a phone) on one line."""
    name = "山田太郎の素晴らしい冒険者クラブ"
    found = bundle("ttr")
    final = _playout("ttr", [name, "Bob"], lambda state: found.game.outcome(state) is not None)
    view = found.game.public_view(final)
    winners = ((0,), *(() for _ in view.result.city_winners[1:]))
    view = dataclasses.replace(view, result=dataclasses.replace(view.result, city_winners=winners))
    sizes = sizes_drawn(monkeypatch)
    found.presenter.result_png(view)
    cities = sizes[[w for w, _ in sizes].index("BIG CITY BONUSES") :]
    named = [(w, s) for w, s in cities if w and w[0] in name]
    (nobody,) = {s for w, s in cities if w == "nobody"}
    assert "".join(w for w, _ in named) == name and len(named) == 2, named
    assert {s for _, s in named} == {nobody}, (named, nobody)


def test_big_city_winners_are_never_drawn_below_12_px(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two to four long-named winners of a Big City are cut shorter rather than drawn at 9 px:
    the scoring image is 1 200 px wide, so on a phone (about 400 px) 9 px letters were 3 px
    tall and could not be read."""
    found = bundle("ttr")
    final = _playout("ttr", LONG[:4], lambda state: found.game.outcome(state) is not None)
    view = found.game.public_view(final)
    shared = ((0, 1, 2, 3), (0, 1), (2, 3, 1), (1,), (0, 2), ())
    view = dataclasses.replace(view, result=dataclasses.replace(view.result, city_winners=shared))
    sizes = sizes_drawn(monkeypatch)
    found.presenter.result_png(view)
    cities = sizes[[w for w, _ in sizes].index("BIG CITY BONUSES") :]
    named = [(w, s) for w, s in cities if any(name[:3] in w for name in LONG[:4])]
    assert len(named) >= 9, named
    assert min(s for _, s in named) >= 12, named


def test_big_city_winners_name_computers_as_the_scoring_lines_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Alice and three computers share a Big City: the scoring image cut each computer to
    "Computer 1," (a name a line), its level gone, where the scoring lines under it name
    "Computer 1 (normal)"; the box wraps the names whole now, on two lines a winner, at the
    readable size."""
    names = ["Alice", *computer_names(3, "normal")]
    found = bundle("ttr")
    final = _playout("ttr", names, lambda state: found.game.outcome(state) is not None)
    view = found.game.public_view(final)
    shared = ((0, 1, 2, 3), (1, 2, 3), *(() for _ in view.result.city_winners[2:]))
    view = dataclasses.replace(view, result=dataclasses.replace(view.result, city_winners=shared))
    sizes = sizes_drawn(monkeypatch)
    found.presenter.result_png(view)
    cities = sizes[[w for w, _ in sizes].index("BIG CITY BONUSES") :]
    boxes = " ".join(w for w, _ in cities)
    assert f"+15 {', '.join(names)} " in boxes, boxes
    assert f"+14 {', '.join(names[1:])} " in boxes, boxes
    assert min(size for _, size in cities) >= READABLE, cities


def test_big_city_winners_keep_a_computers_level_beside_a_long_name() -> None:
    """A Big City shared by "Bartholomew Montgomery-Worthing" (a word too wide for the box) and
    two computers: every winner was cut to a line, "Bartholome…," "Computer 1," "Computer 2",
    the levels gone. Each winner now takes a line or two of its own: the computers whole,
    the long name cut only on its second line, every line within the box at 20 px."""
    names = [LONG[1], *computer_names(2, "normal")]
    width = ttr._city_width() - 20
    lines = ttr._city_winners(names, width)
    bold = common.font(READABLE, "bold")
    assert all(common.text_width(line, bold) <= width for line in lines), lines
    said = " ".join(lines)
    assert said.endswith(", Computer 1 (normal), Computer 2 (normal)"), lines
    assert lines[0] == "Bartholomew" and lines[1].startswith("Montgomer"), lines

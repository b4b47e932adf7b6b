"""The replay GIF: frame sampling and the animation itself."""

from __future__ import annotations

import io
import itertools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from PIL import Image

from bot.games import get_game
from bot.games.registry import bundle, get_policy
from bot.render import dragon, mille_cards, race, ttr
from bot.render.common import RGB, Palette
from bot.render.mille import table_png
from bot.render.replay import (
    ADAPTIVE_COLOURS,
    MAX_FRAMES,
    RESERVED,
    UPLOAD_LIMIT,
    frames_gif,
    gif_within,
    pick_frames,
    replay_frame,
    replay_from_views,
    replay_gif,
    scaled,
)
from tests.render.colour_vision import ciede2000, closest_seen


def test_short_games_keep_every_frame() -> None:
    """A game with few moves keeps all its frames."""
    assert pick_frames(5) == [0, 1, 2, 3, 4]


def test_long_games_are_sampled_with_first_and_last() -> None:
    """A long game keeps an even sample that starts with the deal and ends on the result."""
    frames = pick_frames(500)
    assert len(frames) <= MAX_FRAMES and frames[0] == 0 and frames[-1] == 499
    assert frames == sorted(set(frames))


def test_replay_is_an_animated_gif_of_the_views() -> None:
    """The GIF has a frame per distinct kept view (identical ones merge) and loops."""
    game = get_game("mille")
    state = game.new_game(["Ann", "Bob"], seed=2)
    views = [game.public_view(state)]
    for _ in range(3):
        (seat,) = game.to_act(state)
        state = game.apply(state, seat, game.legal_actions(state, seat)[0])
        views.append(game.public_view(state))
    gif = Image.open(io.BytesIO(replay_from_views(table_png, views)))
    distinct = len({table_png(view) for view in views})
    frames = getattr(gif, "n_frames", 1)  # multi-frame formats only; absent from the stubs
    assert gif.format == "GIF" and frames == distinct and gif.info.get("loop") == 0


def test_replay_needs_a_frame() -> None:
    """An empty replay is refused rather than written as a broken file."""
    with pytest.raises(ValueError, match="at least one frame"):
        replay_gif([])


def _noise(seed: int) -> Image.Image:
    """A frame of 128-colour noise: it hardly compresses, as a busy six-car arena does."""
    rng = random.Random(seed)
    image = Image.new("P", (160, 160))
    image.putpalette([rng.randrange(256) for _ in range(128 * 3)])
    image.putdata([rng.randrange(128) for _ in range(160 * 160)])
    return image


def test_a_replay_too_big_to_upload_keeps_fewer_frames() -> None:
    """Twenty frames of noise weigh about 500 KB; with room for 200 KB the replay keeps an
    even sample of them, the first and the last included, rather than a file Discord would
    refuse. Found in review: a six-car Dragon replay weighed 7 MB, with nothing to keep it
    under Discord's 10 MB."""
    frames = [_noise(seed) for seed in range(20)]
    assert len(frames_gif(frames)) > 200_000
    gif, kept = gif_within(frames, 200_000)
    shown = Image.open(io.BytesIO(gif))
    count = getattr(shown, "n_frames", 1)  # multi-frame formats only; absent from the stubs
    assert len(gif) <= 200_000 and 1 < count < 20 and kept == count
    assert shown.convert("RGB").tobytes() == frames[0].convert("RGB").tobytes()
    shown.seek(count - 1)
    assert shown.convert("RGB").tobytes() == frames[-1].convert("RGB").tobytes()


def test_a_replay_within_the_limit_keeps_every_frame() -> None:
    """Frames that fit are all kept."""
    frames = [_noise(seed) for seed in range(3)]
    gif, kept = gif_within(frames, 10_000_000)
    assert getattr(Image.open(io.BytesIO(gif)), "n_frames", 1) == 3 and kept == 3


def test_a_taller_frame_keeps_its_bottom() -> None:
    """A Dragon arena grows taller when its last move needs more lines. A GIF takes its size
    from its first frame and cut the taller final frame, the result at its bottom with it: the
    frames are padded to the tallest one instead, with their own bottom colour."""
    floor, result = (30, 28, 34), (246, 196, 58)
    short = Image.new("RGB", (64, 40), floor)
    tall = Image.new("RGB", (64, 60), floor)
    tall.paste(result, (0, 44, 64, 56))
    gif = Image.open(io.BytesIO(frames_gif([short.quantize(8), tall.quantize(8)])))
    assert gif.size == (64, 60)
    first = gif.convert("RGB")
    assert first.getpixel((32, 50)) == floor
    gif.seek(1)
    assert gif.convert("RGB").getpixel((32, 50)) == result


NEAR = 16
"""How far (straight-line distance in RGB) a frame's colour may stray from the one drawn: the
closest two seat colours of a game (Dragon's violet and pink) are 113 apart, so a seat stays
told apart from the others."""


def _distance(a: Sequence[int], b: Sequence[int]) -> float:
    return float(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5)


def _played(key: str, seats: int, seed: int, moves: int | None = None) -> list[Any]:
    """The public views of a game the easy computer plays in every seat (to its end, or for
    ``moves`` moves), the deal first."""
    game = get_game(key)
    state = game.new_game([f"P{seat}" for seat in range(seats)], seed)
    players = [get_policy(key, "easy") for _ in range(seats)]
    rng = random.Random(seed)
    views = [game.public_view(state)]
    while game.outcome(state) is None and (moves is None or len(views) <= moves):
        seat = min(game.to_act(state))
        text = players[seat].choose(game.private_view(state, seat), rng)
        state = game.apply(state, seat, game.parse_action(text))
        views.append(game.public_view(state))
    return views


def _pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    raw = image.convert("RGB").tobytes()
    return list(zip(raw[0::3], raw[1::3], raw[2::3], strict=True))


def _worst_in_replay(png: bytes, colours: Sequence[RGB]) -> dict[RGB, tuple[int, float]]:
    """For each colour the table draws: how many pixels of the scaled table hold it (within 2:
    the inside of a dot or a card face, not its blended edge), and the farthest the replay's
    frame strays from it at those pixels."""
    near = {
        (r + dr, g + dg, b + db): (r, g, b)
        for r, g, b in colours
        for dr in range(-2, 3)
        for dg in range(-2, 3)
        for db in range(-2, 3)
        if dr * dr + dg * dg + db * db <= 4
    }
    table = scaled(png)
    frame = Image.open(io.BytesIO(replay_gif([png])))
    assert frame.size == table.size
    found = {colour: (0, 0.0) for colour in colours}
    for drawn, shown in zip(_pixels(table), _pixels(frame), strict=True):
        colour = near.get(drawn)
        if colour is not None:
            count, worst = found[colour]
            found[colour] = (count + 1, max(worst, _distance(shown, colour)))
    return found


@pytest.mark.parametrize(
    ("key", "seats", "colours"),
    [
        ("ttr", 4, ttr._SEAT_COLOURS),
        ("dragon", 6, dragon._SEAT_COLOURS),
        ("mille", 2, Palette.SEAT),
        ("race", 2, race.DECK_COLOURS),
    ],
)
def test_seat_colours_survive_the_palette(key: str, seats: int, colours: Sequence[RGB]) -> None:
    """Every seat's mark (Ticket to Ride's dot, a Dragon car's tag, Mille Bornes' seat chip,
    the race's deck colour) keeps its colour in the replay. Found in review: the palette,
    fitted to the picture alone, had no room for small marks, and Ticket to Ride's blue seat
    came out grey (120 away), its pink one too."""
    png = bundle(key).presenter.table_png(_played(key, seats, seed=3, moves=0)[0])
    found = _worst_in_replay(png, colours[:seats])
    assert all(count >= 20 for count, _ in found.values()), found
    assert all(worst <= NEAR for _, worst in found.values()), found


def _shown_in_replay(png: bytes, colours: Sequence[RGB]) -> list[RGB]:
    """For each colour the table draws: the colour the replay's frame shows most often where
    the scaled table holds it (within 2, as in ``_worst_in_replay``)."""
    near = {
        (r + dr, g + dg, b + db): (r, g, b)
        for r, g, b in colours
        for dr in range(-2, 3)
        for dg in range(-2, 3)
        for db in range(-2, 3)
        if dr * dr + dg * dg + db * db <= 4
    }
    frame = Image.open(io.BytesIO(replay_gif([png])))
    shown: dict[RGB, Counter[RGB]] = {colour: Counter() for colour in colours}
    for drawn, seen in zip(_pixels(scaled(png)), _pixels(frame), strict=True):
        colour = near.get(drawn)
        if colour is not None:
            shown[colour][seen] += 1
    return [shown[colour].most_common(1)[0][0] for colour in colours]


@pytest.mark.parametrize(
    ("key", "seats", "colours"),
    [
        ("ttr", 4, ttr._SEAT_COLOURS),
        ("dragon", 6, dragon._SEAT_COLOURS),
        ("mille", 2, Palette.SEAT),
        ("race", 2, race.DECK_COLOURS),
    ],
)
def test_the_replays_seat_colours_stay_apart_to_a_colour_blind_player(
    key: str, seats: int, colours: Sequence[RGB]
) -> None:
    """The seat colours as a replay's frame shows them stay 15 or more apart (CIEDE2000) to
    normal sight and under each colour blindness. Found in review: Ticket to Ride's orange and
    green seats were 5.8 apart to a deuteranope, in the replay as on the table."""
    png = bundle(key).presenter.table_png(_played(key, seats, seed=3, moves=0)[0])
    shown = _shown_in_replay(png, colours[:seats])
    normal = min(ciede2000(a, b) for a, b in itertools.combinations(shown, 2))
    assert min(normal, closest_seen(shown)) >= 15, shown


@pytest.mark.parametrize(
    ("key", "seats", "moves", "colours"),
    [
        ("ttr", 4, 0, tuple(ttr._FACE.values())),
        ("mille", 2, 30, tuple(frame for frame, _, _ in mille_cards.KIND_COLOURS.values())),
        ("dragon", 3, 60, tuple(frame for frame, _, _ in mille_cards.KIND_COLOURS.values())),
    ],
)
def test_card_colours_survive_the_palette(
    key: str, seats: int, moves: int, colours: Sequence[RGB]
) -> None:
    """The card faces on the table keep their colours in the replay (Ticket to Ride's train
    colours, the kinds of the Mille Bornes cards in a match or a Dragon arena). Found in
    review: a purple train card came out 86 away from its purple, a hazard's red frame 92."""
    png = bundle(key).presenter.table_png(_played(key, seats, seed=3, moves=moves)[-1])
    found = _worst_in_replay(png, colours)
    shown = {colour: worst for colour, (count, worst) in found.items() if count >= 20}
    assert len(shown) >= 3, found
    assert all(worst <= NEAR for worst in shown.values()), found


def test_the_heaviest_replay_fits_the_upload_limit_whole() -> None:
    """A six-car Dragon game, the largest table, played to its end: all of its sampled frames
    fit under the upload limit with the renderers' colours held, none dropped for size."""
    views = _played("dragon", 6, seed=1)
    assert len(views) > MAX_FRAMES
    draw = bundle("dragon").presenter.table_png
    frames = [replay_frame(draw, views[i]) for i in pick_frames(len(views))]
    assert len(frames) == MAX_FRAMES
    assert len(frames_gif(frames)) <= UPLOAD_LIMIT


def test_the_named_colours_leave_the_palette_room() -> None:
    """A GIF frame holds 256 colours: the renderers' named ones (every seat colour among them)
    and those fitted to the picture all fit, none cut off the end."""
    assert len(set(RESERVED)) == len(RESERVED)
    assert len(RESERVED) + ADAPTIVE_COLOURS <= 256
    seats = {*Palette.SEAT, *race.DECK_COLOURS, *dragon._SEAT_COLOURS, *ttr._SEAT_COLOURS}
    assert seats <= set(RESERVED)

"""The replay GIF: frame sampling and the animation itself."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.games import get_game
from bot.render.mille import table_png
from bot.render.replay import (
    MAX_FRAMES,
    frames_gif,
    gif_within,
    pick_frames,
    replay_from_views,
    replay_gif,
)


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
    gif = gif_within(frames, 200_000)
    shown = Image.open(io.BytesIO(gif))
    count = getattr(shown, "n_frames", 1)  # multi-frame formats only; absent from the stubs
    assert len(gif) <= 200_000 and 1 < count < 20
    assert shown.convert("RGB").tobytes() == frames[0].convert("RGB").tobytes()
    shown.seek(count - 1)
    assert shown.convert("RGB").tobytes() == frames[-1].convert("RGB").tobytes()


def test_a_replay_within_the_limit_keeps_every_frame() -> None:
    """Frames that fit are all kept."""
    frames = [_noise(seed) for seed in range(3)]
    shown = Image.open(io.BytesIO(gif_within(frames, 10_000_000)))
    assert getattr(shown, "n_frames", 1) == 3


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
